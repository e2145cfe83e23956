//! Doors forced (Dungeon Delves › Doors): battering down by material, botched bashes, spikes, and
//! doors harmed as structures.

use super::doors::*;
use crate::common::log_text as text;
use bevy::prelude::*;
use delve_ground::grid::DoorState;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::DoorMaterial;
use delve_ground::level::schema::Lock;
use delve_play::scenario::Delve;
use delve_play::sim::{give, run_round};
use delve_rules::command::Command;
use delve_rules::command::acts::{Bash, Batter, CloseDoor, OpenDoor, Spike};
use delve_rules::rules::doors::{DoorEvent, DoorOpening, DoorRefusal};
use delve_rules::rules::sound::SoundRow;

/// Batter down: a wooden door takes one turn with an axe, an iron-banded one three; stone cannot
/// be battered. Battering is loud.
#[test]
fn battering_down_takes_turns_by_material() {
    for (material, turns) in [
        ("Wooden", Some(1)),
        ("IronBanded", Some(3)),
        ("Stone", None),
    ] {
        let mut app = app(
            &format!(", material: {material}, lock: Locked(key: None)"),
            ", gear: [Axe]",
            1,
        );
        act(
            &mut app,
            Command::Batter(Batter {
                who: "Ada".into(),
                at: AT,
            }),
        );
        let Some(turns) = turns else {
            assert!(
                refusal(&app).is(&DoorRefusal::TooStrongToBatter {
                    material: DoorMaterial::Stone
                }),
                "{}",
                text(&app)
            );
            continue;
        };
        delve_play::sim::run_rounds(app.world_mut(), turns * 10 - 2);
        assert_eq!(
            door(&mut app).state,
            DoorState::Closed,
            "{material}: not yet"
        );
        run_round(app.world_mut());
        let d = door(&mut app);
        assert!(
            d.broken && d.state == DoorState::Open,
            "{material} after {turns} turn(s)"
        );
        assert!(
            noises_made(&app).contains(&(SoundRow::Loud, "Ada battering a door".into())),
            "battering is loud: {:?}",
            noises_made(&app)
        );
        act(
            &mut app,
            Command::CloseDoor(CloseDoor {
                who: "Ada".into(),
                at: AT,
            }),
        );
        assert!(refusal(&app).is(&DoorRefusal::BatteredDown));
    }
}

/// RULINGS › Conditions …: the botched bash's point of damage goes through the one damage path:
/// Ada, at 1 hit point, grunts on a natural 1 and is dying.
#[test]
fn a_botched_bash_wounds_through_the_one_damage_path() {
    let mut app = door_hall()
        .door("(at: (4, 1), stuck: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 1, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .build();
    app.script_dice(&[1]);
    act(
        &mut app,
        Command::Bash(Bash {
            who: "Ada".into(),
            at: AT,
            helper: None,
        }),
    );
    assert!(
        app.events::<DoorEvent>()
            .iter()
            .any(|e| matches!(e, DoorEvent::BashFailed { hurt: true, .. }))
    );
    let conditions = app.get::<delve_rules::creature::Conditions>("Ada").unwrap();
    assert!(conditions.has(delve_ground::level::schema::ConditionKind::Dying));
}

/// Dungeon Delves › Doors: "Spiking shut a door requires one round per spike": a second spike
/// in the same round is refused.
#[test]
fn spiking_shut_takes_one_round_per_spike() {
    let mut app = app("", ", gear: [Spikes(2)]", 1);
    let spike = || {
        Command::Spike(Spike {
            who: "Ada".into(),
            at: AT,
        })
    };
    give(app.world_mut(), spike());
    give(app.world_mut(), spike());
    run_round(app.world_mut());
    assert_eq!(door(&mut app).spikes, 1, "{}", text(&app));
    assert!(refusal(&app).is(&DoorRefusal::OneSpikeARound));
    act(&mut app, spike());
    assert_eq!(door(&mut app).spikes, 2, "the next round, the next spike");
}

/// Dungeon Delves › Doors: a door wedged open with a spike stays open until someone closes it,
/// which knocks the spike out: the door is closed and unspiked.
#[test]
fn closing_a_door_wedged_open_removes_the_spike() {
    let mut app = app("", ", gear: [Spikes(1)]", 1);
    let at = GridPos::new(4, 1);
    for c in [
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
        Command::Spike(Spike {
            who: "Ada".into(),
            at: AT,
        }),
        Command::CloseDoor(CloseDoor {
            who: "Ada".into(),
            at: AT,
        }),
    ] {
        act(&mut app, c);
    }
    let d = door(&mut app);
    assert_eq!(
        (d.state, d.spikes),
        (DoorState::Closed, 0),
        "{}",
        text(&app)
    );
    assert!(door_events(&app).contains(&DoorEvent::WedgeRemoved {
        who: "Ada".into(),
        at,
        spikes: 1
    }));
    // Closed and unspiked, it opens by hand again.
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert_eq!(door(&mut app).state, DoorState::Open);
}

/// Dungeon Delves › Doors: doors are harmed as structures with the table's AC and structural
/// hit points. The great iron-banded stone door (10' × 10' × 3½') is AC 6 (16 ascending) with
/// 25 SHP; the 8' × 3' one has 2. A hit deals the weapon's damage against stone; a miss
/// nothing; a weapon without structural damage cannot harm it; at 0 SHP it breaks open.
#[test]
fn doors_are_harmed_as_structures_by_their_ac_and_structural_hit_points() {
    let at = GridPos::new(4, 1);
    let mut app = giant_at(", material: GreatIronBandedStone, lock: Locked(key: None)");
    let ways = delve::query::door(app.world_mut(), at, "Grom")
        .unwrap()
        .ways;
    assert_eq!(
        ways.iter()
            .map(|w| (w.way.as_str(), w.target))
            .collect::<Vec<_>>(),
        vec![("strike with the maul", Some(16))],
        "the way through is the maul against AC 16"
    );
    strike(&mut app, Some("sword"));
    assert!(
        refusal(&app).is(&DoorRefusal::CannotHarmStructure {
            structure: delve_ground::level::schema::Structure::Stone
        }),
        "{}",
        text(&app)
    );
    app.script_dice(&[16, 2]);
    strike(&mut app, None);
    let t = last_throw(&app);
    assert_eq!((t.natural, t.target, t.success), (16, 16, true));
    assert!(door_events(&app).contains(&DoorEvent::DoorStruck {
        who: "Grom".into(),
        at,
        structural_damage: Some(2),
        structural_hp_left: Some(23),
    }));
    app.script_dice(&[15]);
    strike(&mut app, Some("maul"));
    assert!(!last_throw(&app).success, "15 misses AC 16");
    assert_eq!(door(&mut app).structural_damage, 2);
    assert_eq!(door(&mut app).state, DoorState::Closed);

    // The 8' × 3' door: 2 SHP, broken by a hit for 2.
    let mut app = giant_at(", material: IronBandedStone, lock: Locked(key: None)");
    app.script_dice(&[18, 2]);
    strike(&mut app, None);
    let d = door(&mut app);
    assert!(d.broken && d.state == DoorState::Open, "{}", text(&app));
    assert_eq!(d.lock, Lock::Unlocked);
    assert!(door_events(&app).contains(&DoorEvent::DoorOpened {
        who: "Grom".into(),
        at,
        how: DoorOpening::Broken
    }));
    assert!(app.world().resource::<DungeonGrid>().is_passable(at));

    // A wooden door (AC 1, 11 ascending) is harmed as wood: the maul's 1d10.
    let mut app = giant_at("");
    app.script_dice(&[11, 7]);
    strike(&mut app, None);
    assert!(door_events(&app).contains(&DoorEvent::DoorStruck {
        who: "Grom".into(),
        at,
        structural_damage: Some(7),
        structural_hp_left: Some(0),
    }));
    assert!(door(&mut app).broken);
}

/// The commands offered to `who` at the door, by name.
fn offered_at_door(app: &Delve, who: &str) -> Vec<&'static str> {
    let world = app.world();
    let e = world.resource::<delve_rules::creature::CreatureIndex>().0[who];
    delve_rules::rules::choices_for(world, e)
        .into_iter()
        .filter(|(about, _)| matches!(about, delve_rules::act::Concern::Door(_)))
        .map(|(_, c)| Command::from(&c.command).name())
        .collect()
}

/// RULINGS › Knowledge: a lock is known only once tried. Beside a locked door never tried, a
/// thief with tools and a stranger of another faction are offered to open it, not to pick it;
/// once the thief tried it (refused: locked), its faction is offered the picks and no longer
/// to open it, and the stranger still only to open it. A stuck door tried is offered bashing.
#[test]
fn a_lock_or_a_stuck_door_is_offered_only_once_tried() {
    let mut app = door_hall()
        .door("(at: (4, 1), lock: Locked(key: None))")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "strangers")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 6, ac: 10, speed_feet: 120,
                proficiencies: [Lockpicking], throws: { Lockpicking: 14 },
                gear: [ThievesTools], carries: [(kind: Torch, lit: true)])"#,
        )
        .creature(r#"(name: "Cy", faction: "party", at: (2, 1), hp: 6, ac: 10, speed_feet: 120)"#)
        .creature(
            r#"(name: "Oz", faction: "strangers", at: (5, 1), hp: 6, ac: 10, speed_feet: 120)"#,
        )
        .build();
    let before = offered_at_door(&app, "Ada");
    assert!(before.contains(&"OpenDoor"), "{before:?}");
    assert!(!before.contains(&"PickLock"), "{before:?}");
    act(
        &mut app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(refusal(&app).is(&DoorRefusal::Locked), "{}", text(&app));
    let after = offered_at_door(&app, "Ada");
    assert!(after.contains(&"PickLock"), "{after:?}");
    assert!(after.contains(&"PickLockMethodically"), "{after:?}");
    assert!(!after.contains(&"OpenDoor"), "{after:?}");
    let stranger = offered_at_door(&app, "Oz");
    assert!(stranger.contains(&"OpenDoor"), "{stranger:?}");
    assert!(!stranger.contains(&"PickLock"), "{stranger:?}");

    let mut stuck = app_with_stuck_door();
    assert!(!offered_at_door(&stuck, "Ada").contains(&"Bash"));
    act(
        &mut stuck,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: AT,
        }),
    );
    assert!(refusal(&stuck).is(&DoorRefusal::Stuck), "{}", text(&stuck));
    let tried = offered_at_door(&stuck, "Ada");
    assert!(
        tried.contains(&"Bash") && !tried.contains(&"OpenDoor"),
        "{tried:?}"
    );
}

fn app_with_stuck_door() -> Delve {
    app(", stuck: true", "", 1)
}
