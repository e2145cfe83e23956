//! Doors and Dungeonbashing: the "Opening Doors" table's one-round actions.

use bevy::prelude::*;
use delve_ground::dice::Throw;
use delve_ground::grid::DoorState;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::Lock;
use delve_ground::log::EventLog;
use delve_rules::act::Refusal;
use delve_rules::command::Command;
use delve_rules::command::acts::{
    AttackDoor, Bash, CloseDoor, HoldShut, Move, OpenDoor, PickLock, PickLockMethodically, Spike,
    Unlock,
};
use delve_rules::creature::{CreatureIndex, HitPoints};
use delve_rules::rules::doors::Door;
use delve_rules::rules::doors::{DoorEvent, DoorOpening, DoorRefusal};
use delve_rules::rules::sound::SoundRow;
use delve_rules::rules::throws::ThrowEvent;

use crate::common::log_text as text;
use delve_play::scenario::{Delve, Scenario};
use delve_play::sim::{give, run_round};

pub(crate) fn app(door: &str, ada: &str, seed: u64) -> Delve {
    door_hall()
        .door(&format!("(at: (4, 1){door})"))
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 6, ac: 10, encumbrance_stone: 2.0,
                carries: [(kind: Torch, lit: true)]{ada})"#
        ))
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 10, encumbrance_stone: 2.0, str: 16)"#,
        )
        .seed(seed)
        .build()
}

/// A hall with a door in its middle, at (4, 1).
pub(crate) fn door_hall() -> Scenario {
    Scenario::new(&["XXXXXXXXX", "X...+...X", "XXXXXXXXX"]).legend("'+': Door")
}

pub(crate) fn throws(app: &Delve) -> Vec<Throw> {
    app.throws()
}

/// The Lockpicking throws in the log.
pub(crate) fn lockpicking(app: &Delve) -> Vec<Throw> {
    let mut t = throws(app);
    t.retain(|t| t.what.starts_with("Lockpicking"));
    t
}

pub(crate) fn last_throw(app: &Delve) -> Throw {
    throws(app).pop().expect("a throw")
}

pub(crate) fn door(app: &mut Delve) -> Door {
    let world = app.world_mut();
    world.query::<&Door>().single(world).unwrap().clone()
}

/// The reason the last refused command was refused.
pub(crate) fn refusal(app: &Delve) -> Refusal {
    app.last_refusal().expect("a refusal")
}

pub(crate) fn door_events(app: &Delve) -> Vec<DoorEvent> {
    app.events::<DoorEvent>()
}

/// The noises made in the last round played (Bo, of Ada's faction, does not listen for them).
pub(crate) fn noises_made(app: &App) -> Vec<(SoundRow, String)> {
    app.world()
        .resource::<delve_rules::rules::sound::noises::LastRoundNoises>()
        .0
        .iter()
        .map(|n| (n.sound, n.what.clone()))
        .collect()
}

pub(crate) fn act(app: &mut Delve, c: Command) {
    app.act(c);
}

pub(crate) const AT: (i32, i32) = (4, 1);

#[test]
fn open_and_close_change_what_blocks() {
    let mut app = app("", "", 1);
    let passable = |app: &App| {
        app.world()
            .resource::<DungeonGrid>()
            .is_passable(GridPos::new(4, 1))
    };
    assert!(!passable(&app));
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).state, DoorState::Open);
    assert!(passable(&app));
    act(
        &mut app,
        Command::CloseDoor(CloseDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).state, DoorState::Closed);
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Bo".into(),
            at: AT,
        }),
    );
    assert!(
        refusal(&app).is(&DoorRefusal::NotNextTo {
            at: GridPos::new(4, 1)
        }),
        "{}",
        text(&app)
    );
}

#[test]
fn a_key_unlocks_its_door_in_a_round() {
    let mut app = app(
        ", lock: Locked(key: Some(\"brass key\"))",
        ", gear: [Key(\"brass key\")]",
        1,
    );
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(refusal(&app).is(&DoorRefusal::Locked));
    act(
        &mut app,
        Command::Unlock(Unlock {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).lock, Lock::Unlocked);
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).state, DoorState::Open);
}

#[test]
fn without_the_key_no_unlocking() {
    let mut app = app(", lock: Locked(key: Some(\"brass key\"))", "", 1);
    act(
        &mut app,
        Command::Unlock(Unlock {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(refusal(&app).is(&DoorRefusal::KeyNotCarried {
        key: "brass key".into()
    }));
}

/// Hastily pick: success opens the lock; a failure on 1–3 jams it; another failure bars hasty
/// retries at that level.
#[test]
fn hasty_picking_succeeds_jams_or_bars_a_retry() {
    let thief = ", level: 3, proficiencies: [Lockpicking], throws: { Lockpicking: 12 }, gear: [ThievesTools]";
    let (mut opened, mut jammed, mut barred) = (false, false, false);
    for seed in 1..80 {
        let mut app = app(", lock: Locked(key: None)", thief, seed);
        act(
            &mut app,
            Command::PickLock(PickLock {
                who: "Ada".into(),
                at: AT,
            }),
        );
        let natural = app
            .world()
            .resource::<EventLog>()
            .entries()
            .iter()
            .find_map(|e| match e.get::<ThrowEvent>()? {
                ThrowEvent::Threw { throw, .. } => Some(throw.natural),
            });
        let natural = natural.expect("a Lockpicking throw");
        match door(&mut app).lock {
            Lock::Unlocked => {
                assert!(natural >= 12);
                opened = true;
            }
            Lock::Jammed => {
                assert!(natural <= 3);
                jammed = true;
            }
            Lock::Locked { .. } => {
                assert!((4..12).contains(&natural));
                act(
                    &mut app,
                    Command::PickLock(PickLock {
                        who: "Ada".into(),
                        at: AT,
                    }),
                );
                assert!(
                    refusal(&app).is(&DoorRefusal::HastyPickBarred),
                    "{}",
                    text(&app)
                );
                barred = true;
            }
        }
    }
    assert!(opened && jammed && barred);
}

/// Strength 18 bashes doors on 6+: the throw succeeds exactly when the die shows 6 or more.
#[test]
fn strength_18_bashes_a_stuck_door_on_6_plus() {
    let mut outcomes = [false; 2];
    for seed in 1..40 {
        let mut app = app(", stuck: true", ", str: 18", seed);
        act(
            &mut app,
            Command::Bash(Bash {
                who: "Ada".into(),
                at: AT,
                helper: None,
            }),
        );
        let throw = app
            .world()
            .resource::<EventLog>()
            .entries()
            .iter()
            .find_map(|e| match e.get::<ThrowEvent>()? {
                ThrowEvent::Threw { throw, .. } => Some(throw.clone()),
            });
        let throw = throw.expect("a Dungeonbashing throw");
        assert_eq!(throw.to_string().split(':').next(), Some("Dungeonbashing"));
        assert!(
            throw.to_string().contains("+12 (Strength 18 (+3 x 4))"),
            "{throw}"
        );
        let open = door(&mut app).state == DoorState::Open;
        assert_eq!(open, throw.natural >= 6, "{throw}");
        outcomes[open as usize] = true;
        if throw.natural == 1 {
            let ada = app.world().resource::<CreatureIndex>().0["Ada"];
            assert_eq!(
                app.world().get::<HitPoints>(ada).unwrap().current,
                5,
                "a painful grunt: 1 damage"
            );
        }
        assert_eq!(
            noises_made(&app),
            vec![(SoundRow::Loud, "Ada bashing a door".into())],
            "bashing is loud: {}",
            text(&app)
        );
    }
    assert!(outcomes[0] && outcomes[1]);
}

#[test]
fn three_spikes_give_minus_8_and_a_pair_bashes_with_the_stronger_plus_4() {
    let mut app = app("", ", gear: [Spikes(3)]", 1);
    for _ in 0..3 {
        act(
            &mut app,
            Command::Spike(Spike {
                who: "Ada".into(),
                at: AT,
            }),
        );
    }
    assert_eq!(door(&mut app).spikes, 3);
    act(
        &mut app,
        Command::Spike(Spike {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(refusal(&app).is(&DoorRefusal::NoSpikes), "{}", text(&app));
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(
        refusal(&app).is(&DoorRefusal::SpikedShut { spikes: 3 }),
        "{}",
        text(&app)
    );
    // Bo (Strength 16) helps Ada (10): +8 for Strength 16, +4 for the pair, −8 for 3 spikes.
    // Bo stands at (2, 1), not next to the door: first he steps up beside Ada... he cannot, the
    // corridor is one square wide, so he is refused.
    act(
        &mut app,
        Command::Bash(Bash {
            who: "Ada".into(),
            at: AT,
            helper: Some("Bo".into()),
        }),
    );
    assert!(
        refusal(&app).is(&DoorRefusal::Helper {
            why: DoorRefusal::NotNextTo {
                at: GridPos::new(4, 1)
            }
            .to_string()
        }),
        "{}",
        text(&app)
    );
    act(
        &mut app,
        Command::Bash(Bash {
            who: "Ada".into(),
            at: AT,
            helper: None,
        }),
    );
    let spikes = last_throw(&app)
        .modifiers
        .into_iter()
        .find(|m| m.source == "3 spikes");
    assert_eq!(spikes.map(|m| m.value), Some(-8));
}

/// Evil doors swing shut when released, unless wedged open, and open easily for monsters.
#[test]
fn evil_doors_swing_shut_and_yield_to_monsters() {
    let mut app = app(", evil: true", ", class: \"thief\", gear: [Spikes(1)]", 1);
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    let at = GridPos::new(4, 1);
    assert_eq!(
        door_events(&app),
        vec![
            DoorEvent::DoorOpened {
                who: "Ada".into(),
                at,
                how: DoorOpening::ByHand
            },
            DoorEvent::DoorSwungShut { at }
        ],
        "released, it shuts"
    );
    assert_eq!(door(&mut app).state, DoorState::Closed);
    // Opened and wedged with a spike in the same round, it stays open.
    give(
        app.world_mut(),
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    give(
        app.world_mut(),
        Command::Spike(Spike {
            who: "Ada".into(),
            at: AT,
        }),
    );
    run_round(app.world_mut());
    assert_eq!(door(&mut app).state, DoorState::Open);
    assert!(door_events(&app).contains(&DoorEvent::DoorSpiked {
        who: "Ada".into(),
        at,
        spikes: 1,
        wedged_open: true
    }));

    // A monster opens a stuck evil door without bashing.
    let mut app = door_hall()
        .door("(at: (4, 1), evil: true, stuck: true)")
        .faction(r#"(name: "ghouls")"#)
        .creature(r#"(name: "Ghoul", template: "ghoul", faction: "ghouls", at: (3, 1))"#)
        .build();
    give(
        app.world_mut(),
        Command::OpenDoor(OpenDoor {
            who: "Ghoul".into(),
            at: AT,
        }),
    );
    run_round(app.world_mut());
    assert_eq!(
        door_events(&app)[0],
        DoorEvent::DoorOpened {
            who: "Ghoul".into(),
            at,
            how: DoorOpening::YieldedToEvil
        }
    );
}

/// Methodically pick: one turn and +4; a natural 1 jams the lock; other failures may retry.
#[test]
fn methodical_picking_takes_a_turn_at_plus_4() {
    let thief = ", level: 3, proficiencies: [Lockpicking], throws: { Lockpicking: 14 }, gear: [ThievesTools]";
    let mut app = app(", lock: Locked(key: None)", thief, 3);
    act(
        &mut app,
        Command::PickLockMethodically(PickLockMethodically {
            who: "Ada".into(),
            at: AT,
        }),
    );
    delve_play::sim::run_rounds(app.world_mut(), 8);
    assert!(lockpicking(&app).is_empty(), "not before the turn is up");
    run_round(app.world_mut());
    let t = last_throw(&app);
    assert_eq!(t.what, "Lockpicking (methodical)");
    assert_eq!(
        t.modifiers
            .iter()
            .map(|m| (m.value, m.source.as_str()))
            .collect::<Vec<_>>(),
        vec![(4, "methodical")]
    );
    assert_eq!(t.target, 14);
    // Moving abandons the work.
    drop(app);
    let mut app2 = self::app(", lock: Locked(key: None)", thief, 3);
    act(
        &mut app2,
        Command::PickLockMethodically(PickLockMethodically {
            who: "Ada".into(),
            at: AT,
        }),
    );
    act(
        &mut app2,
        Command::Move(Move {
            who: "Ada".into(),
            to: (1, 1),
            pace: Default::default(),
        }),
    );
    delve_play::sim::run_rounds(app2.world_mut(), 12);
    assert!(lockpicking(&app2).is_empty(), "{}", text(&app2));
}

/// With the tactical rules, a natural 20 adds +10 to a check (three spikes and Strength 8 make
/// bashing 30+: only a natural 20 can do it), and a bloodied basher takes −2.
#[test]
fn a_natural_20_adds_ten_and_bloodied_takes_two() {
    let bash = || {
        Command::Bash(Bash {
            who: "Ada".into(),
            at: AT,
            helper: None,
        })
    };
    let mut app = app(", spikes: 3", ", str: 8", 1);
    app.world_mut()
        .resource_mut::<delve_ground::dice::Dice>()
        .script([20]);
    act(&mut app, bash());
    let t = last_throw(&app);
    assert_eq!((t.natural, t.total, t.target), (20, 20 - 4 - 8 + 10, 18));
    assert!(t.success);
    assert_eq!(door(&mut app).state, DoorState::Open);

    let mut app = self::app(", stuck: true", ", str: 18, conditions: [Bloodied]", 1);
    app.world_mut()
        .resource_mut::<delve_ground::dice::Dice>()
        .script([7]);
    act(&mut app, bash());
    let t = last_throw(&app);
    assert!(
        t.modifiers
            .iter()
            .any(|m| m.source == "bloodied" && m.value == -2),
        "{t}"
    );
    // 7 + 12 would open it; bloodied, 17 falls short of 18.
    assert_eq!((t.total, t.success), (7 + 12 - 2, false));
}

/// An evil door held shut does not yield to a monster: it must be bashed open.
#[test]
fn an_evil_door_held_shut_does_not_yield() {
    let mut app = door_hall()
        .door("(at: (4, 1), evil: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls")"#)
        .creature(r#"(name: "Ghoul", template: "ghoul", faction: "ghouls", at: (3, 1))"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (5, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .build();
    act(
        &mut app,
        Command::HoldShut(HoldShut {
            who: "Ada".into(),
            at: AT,
        }),
    );
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ghoul".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).state, DoorState::Closed);
    assert!(
        refusal(&app).is(&DoorRefusal::HeldShut { by: "Ada".into() }),
        "{}",
        text(&app)
    );
    // Bashing works against it, as against a stuck door.
    act(
        &mut app,
        Command::Bash(Bash {
            who: "Ghoul".into(),
            at: AT,
            helper: None,
        }),
    );
    assert_eq!(last_throw(&app).what, "Dungeonbashing", "{}", text(&app));
}

/// A hall with a door and a giant with a maul that deals structural damage (1d10 to wood,
/// 1d2 to stone) and a sword that deals none.
pub(crate) fn giant_at(door: &str) -> Delve {
    door_hall()
        .door(&format!("(at: (4, 1){door})"))
        .faction(r#"(name: "giants")"#)
        .creature(
            r#"(name: "Grom", faction: "giants", at: (3, 1), hp: 40, ac: 15, speed_feet: 120,
                size: Large, carries: [(kind: Torch, lit: true)], weapons: [
                    (name: "sword", damage: "1d8", damage_type: Slashing),
                    (name: "maul", damage: "2d8", damage_type: Bludgeoning,
                     structural_damage: (wood: "1d10", stone: "1d2")),
                ])"#,
        )
        .build()
}

pub(crate) fn strike(app: &mut Delve, weapon: Option<&str>) {
    act(
        app,
        Command::AttackDoor(AttackDoor {
            who: "Grom".into(),
            at: AT,
            weapon: weapon.map(str::to_owned),
        }),
    );
}
