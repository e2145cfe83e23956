//! Traps: Dungeon Delves › Traps and Trapbreaking.

use bevy::prelude::*;
use delve_ground::dice::Dice;
use delve_ground::grid::GridPos;
use delve_ground::log::EventLog;
use delve_rules::command::Command;
use delve_rules::command::acts::{DisarmTrapMethodically, Move, OpenDoor, Probe};
use delve_rules::creature::{CreatureIndex, HitPoints, Position};
use delve_rules::rules::throws::ThrowEvent;
use delve_rules::rules::traps::TrapEvent;
use delve_rules::rules::traps::{Trap, TrapState};

use crate::common::hp;
use delve_play::scenario::{Delve, Scenario};
use delve_play::sim::{give, run_rounds};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::traps::sets_off;

/// A trap goes off on 1–2 of 1d6: about a third of the time over many seeded rolls.
#[test]
fn traps_go_off_on_one_or_two_in_six() {
    let mut dice = Dice::seeded(2024);
    let n = 60_000;
    let off = (0..n).filter(|_| sets_off(dice.roll(6))).count();
    let share = off as f64 / n as f64;
    assert!((share - 1.0 / 3.0).abs() < 0.01, "{share}");
}

pub(crate) fn app(trap: &str, ada: &str, seed: u64) -> Delve {
    Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .trap(&format!("(at: (4, 1){trap})"))
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (1, 1), hp: 30, ac: 10, encumbrance_stone: 2.0,
                carries: [(kind: Torch, lit: true)]{ada})"#
        ))
        .seed(seed)
        .build()
}

/// A 20' pit deals 2d6 to whoever falls in, and stops its walk there.
#[test]
fn a_twenty_foot_pit_deals_two_d6() {
    let mut fell = 0;
    let mut missed = 0;
    for seed in 1..40 {
        let mut app = app(", kind: Pit(depth_feet: 20)", "", seed);
        give(
            app.world_mut(),
            Command::Move(Move {
                who: "Ada".into(),
                to: (8, 1),
                pace: Pace::Combat,
            }),
        );
        run_rounds(app.world_mut(), 2);
        let ev = app.events();
        let chance = ev.iter().find_map(|e| match e {
            TrapEvent::TrapChance { d6, sprung, .. } => Some((*d6, *sprung)),
            _ => None,
        });
        let (d6, sprung) = chance.expect("the Judge rolls for the hidden pit");
        assert_eq!(sprung, d6 <= 2);
        let ada = app.world().resource::<CreatureIndex>().0["Ada"];
        let hp = app.world().get::<HitPoints>(ada).unwrap().current;
        let at = app.world().get::<Position>(ada).unwrap().0;
        if sprung {
            let (dice, damage) = ev
                .iter()
                .find_map(|e| match e {
                    TrapEvent::TrapSprung { dice, damage, .. } => Some((dice.clone(), *damage)),
                    _ => None,
                })
                .unwrap();
            assert_eq!(dice.len(), 2, "2d6 for 20'");
            assert!(dice.iter().all(|d| (1..=6).contains(d)));
            assert_eq!(damage, dice.iter().sum::<u32>() as i32);
            assert_eq!(hp, 30 - damage);
            assert_eq!(at, GridPos::new(4, 1), "in the pit");
            fell += 1;
        } else {
            assert_eq!(hp, 30);
            assert_eq!(at, GridPos::new(8, 1));
            missed += 1;
        }
    }
    assert!(fell > 0 && missed > 0);
}

pub(crate) fn walk_to(delve: &mut Delve, who: &str, to: (i32, i32)) {
    delve.give(Move {
        who: who.into(),
        to,
        pace: Pace::Combat,
    });
}

pub(crate) fn trap_chances(delve: &Delve) -> Vec<GridPos> {
    delve
        .events::<TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance { at, .. } => Some(at),
            _ => None,
        })
        .collect()
}

/// RULINGS › Pits and holes: an open pit is a hole, not floor. In a 5'-wide corridor, with the
/// pit in sight, there is no way past on foot: the walk is refused, the hole its reason.
#[test]
fn an_open_pit_is_a_hole_not_floor() {
    let mut delve = app(", kind: Pit(depth_feet: 20), hidden: false", "", 1);
    walk_to(&mut delve, "Ada", (8, 1));
    delve.run(2);
    assert!(delve.was_refused(
        "Ada",
        &delve_rules::rules::movement::MoveRefusal::HoleInTheWay {
            at: GridPos::new(4, 1)
        }
    ));
    assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(1, 1));
    assert!(trap_chances(&delve).is_empty());
}

/// RULINGS › Pits and holes: one who does not know of an open pit (in the dark, it cannot see
/// it) and walks onto it falls in — no 1d6: there is nothing to stand on.
#[test]
fn one_who_does_not_know_an_open_pit_falls_in() {
    for seed in 1..7 {
        let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
            .trap("(at: (4, 1), kind: Pit(depth_feet: 20), hidden: false)")
            .faction(r#"(name: "party")"#)
            .creature(
                r#"(name: "Ada", faction: "party", at: (1, 1), hp: 30, ac: 10,
                    encumbrance_stone: 2.0)"#,
            )
            .seed(seed)
            .build();
        walk_to(&mut delve, "Ada", (8, 1));
        delve.run(2);
        assert!(trap_chances(&delve).is_empty());
        assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(4, 1));
        assert!(delve.get::<delve_rules::creature::Below>("Ada").is_some());
    }
}

/// RULINGS › Pits and holes: a pit that opens under the one ahead is a hole to those behind,
/// who saw it open: they stop at its edge.
#[test]
fn those_behind_stop_at_the_edge_of_a_pit_that_opens() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .trap("(at: (4, 1), kind: Pit(depth_feet: 20), hidden: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 30, ac: 10,
                encumbrance_stone: 2.0, carries: [(kind: Torch, lit: true)])"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (1, 1), hp: 30, ac: 10,
                encumbrance_stone: 2.0)"#,
        )
        .build();
    walk_to(&mut delve, "Ada", (8, 1));
    delve.give(Move {
        who: "Bo".into(),
        to: (7, 1),
        pace: Pace::Exploration,
    });
    // Ada's d6 (a 1: the lid gives way), then the fall's 2d6; Bo, exploring, comes on behind.
    delve.script_dice(&[1, 3, 4]);
    delve.run(4);
    assert!(
        delve.get::<delve_rules::creature::Below>("Ada").is_some(),
        "{}",
        delve.log().to_text()
    );
    assert!(delve.get::<Position>("Bo").unwrap().0.x < 4);
    assert!(delve.get::<delve_rules::creature::Below>("Bo").is_none());
    assert!(delve.events::<delve_rules::rules::movement::MovementEvent>().iter().any(|e| matches!(
        e,
        delve_rules::rules::movement::MovementEvent::Halted { who, reason: delve_rules::rules::movement::HaltReason::Hole { at }, .. }
            if who == "Bo" && *at == GridPos::new(4, 1)
    )));
    assert_eq!(trap_chances(&delve), vec![GridPos::new(4, 1)]);
}

/// RULINGS › Knowledge, › Pits and holes: a known trap is stepped around where there is room.
#[test]
fn a_known_trap_is_stepped_around_where_there_is_room() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXX",
        "X........X",
        "X........X",
        "X........X",
        "XXXXXXXXXX",
    ])
    .trap(r#"(at: (4, 2), kind: Custom(name: "needle", damage: "1d4"), hidden: false)"#)
    .faction(r#"(name: "party")"#)
    .creature(
        r#"(name: "Ada", faction: "party", at: (1, 2), hp: 30, ac: 10,
                encumbrance_stone: 2.0, carries: [(kind: Torch, lit: true)])"#,
    )
    .build();
    walk_to(&mut delve, "Ada", (8, 2));
    delve.run(3);
    assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(8, 2));
    assert!(trap_chances(&delve).is_empty());
}

/// RULINGS › Pits and holes: where there is no room to step around a known trap (a 5'-wide
/// corridor), it is crossed at its trigger chance (1–2 on 1d6).
#[test]
fn a_known_trap_with_no_room_is_crossed_at_its_trigger_chance() {
    let mut delve = app(
        r#", kind: Custom(name: "needle", damage: "1d4"), hidden: false"#,
        "",
        1,
    );
    walk_to(&mut delve, "Ada", (8, 1));
    delve.script_dice(&[5]);
    delve.run(3);
    assert_eq!(trap_chances(&delve), vec![GridPos::new(4, 1)]);
    assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(8, 1));
}

pub(crate) const THIEF: &str = ", class: \"thief\", level: 2, proficiencies: [Trapbreaking], throws: { Trapbreaking: 1 }, gear: [ThievesTools]";

pub(crate) fn act(app: &mut Delve, c: Command) {
    app.act(c);
}

pub(crate) fn state(app: &mut Delve) -> TrapState {
    let w = app.world_mut();
    w.query::<&Trap>().single(w).unwrap().state
}

/// The throws the log shows: (what, natural, total, target, success).
pub(crate) fn throws(app: &Delve) -> Vec<(String, u32, i32, i32, bool)> {
    app.events()
        .into_iter()
        .map(|ThrowEvent::Threw { throw, .. }: ThrowEvent| {
            (
                throw.what,
                throw.natural,
                throw.total,
                throw.target,
                throw.success,
            )
        })
        .collect()
}

pub(crate) const NEEDLE: &str = ", kind: Custom(name: \"needle\", damage: \"1d4\"), hidden: false";
/// A thief whose Trapbreaking throw is 15+.
pub(crate) const THIEF_15: &str = ", class: \"thief\", level: 2, proficiencies: [Trapbreaking], throws: { Trapbreaking: 15 }, gear: [ThievesTools]";

pub(crate) fn next_to_the_trap(trap: &str, ada: &str) -> Delve {
    let mut app = app(trap, ada, 1);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (3, 1),
            pace: Pace::Combat,
        }),
    );
    app
}

pub(crate) fn disarm_methodically(app: &mut Delve) {
    give(
        app.world_mut(),
        Command::DisarmTrapMethodically(DisarmTrapMethodically {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        }),
    );
}

pub(crate) fn door_app(trap: &str) -> Delve {
    Scenario::new(&["XXXXXXXXX", "X...+...X", "XXXXXXXXX"])
        .legend("'+': Door")
        .trap(trap)
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 30, ac: 10,
                encumbrance_stone: 2.0, carries: [(kind: Torch, lit: true)])"#,
        )
        .build()
}

pub(crate) fn open_door(app: &mut Delve) {
    act(
        app,
        Command::OpenDoor(OpenDoor {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
}

/// A trap triggered by opening a door: the opener risks it on 1–2 of 1d6.
#[test]
fn opening_a_trapped_door_risks_the_trap() {
    let blade = "(at: (4, 1), kind: Custom(name: \"scything blade\", damage: \"1d8\"), trigger: OpenDoor(at: (4, 1)))";
    let mut app = door_app(blade);
    app.script_dice(&[3]);
    open_door(&mut app);
    assert_eq!(state(&mut app), TrapState::Armed, "a 3 misses it");
    assert!(app.events().iter().any(
        |e| matches!(e, TrapEvent::TrapChance { who, d6: 3, sprung: false, .. } if who == "Ada")
    ));
    let mut app = door_app(blade);
    app.script_dice(&[2, 5]);
    open_door(&mut app);
    assert_eq!(state(&mut app), TrapState::Discharged);
    assert_eq!(hp(&app, "Ada"), 25);
    let log = app.world().resource::<EventLog>().to_text();
    let opens = log.find("opens the door").unwrap();
    let blade = log
        .find("scything blade at (4, 1) goes off on Ada")
        .unwrap();
    assert!(opens < blade, "{log}");
}

/// A pit that opens with the door, with no one over it, goes off harmlessly and is revealed.
#[test]
fn a_door_pit_with_no_one_over_it_just_opens() {
    let mut app =
        door_app("(at: (5, 1), kind: Pit(depth_feet: 10), trigger: OpenDoor(at: (4, 1)))");
    app.script_dice(&[1]);
    open_door(&mut app);
    assert_eq!(hp(&app, "Ada"), 30);
    let w = app.world_mut();
    let t = w.query::<&Trap>().single(w).unwrap().clone();
    assert!(!t.hidden, "revealed");
    assert!(
        app.events()
            .iter()
            .any(|e| matches!(e, TrapEvent::TrapSprungHarmlessly { .. }))
    );
}

pub(crate) const POLE: &str = ", gear: [TenFootPole]";

/// A probing pole is an adventurer 5' ahead of its bearer: it risks the hidden pit first, and
/// if the pit opens the bearer stops at its edge unhurt.
#[test]
fn a_probing_pole_sets_off_a_pit_ahead_of_its_bearer() {
    let mut app = app(", kind: Pit(depth_feet: 20)", POLE, 1);
    ada_probes(&mut app);
    app.script_dice(&[1]);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (8, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 3);
    let chances: Vec<(String, u32)> = app
        .events()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance { who, d6, .. } => Some((who, d6)),
            _ => None,
        })
        .collect();
    assert_eq!(chances, vec![("Ada's 10' pole".to_owned(), 1)]);
    assert_eq!(hp(&app, "Ada"), 30);
    let ada = app.world().resource::<CreatureIndex>().0["Ada"];
    assert_eq!(
        app.world().get::<Position>(ada).unwrap().0,
        GridPos::new(3, 1),
        "stopped at the pit's edge"
    );

    // When the pole misses it, the bearer still risks it stepping on.
    let mut app = app_with_probe();
    app.script_dice(&[5, 6]);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (8, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 3);
    let chances: Vec<String> = app
        .events()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance { who, .. } => Some(who),
            _ => None,
        })
        .collect();
    assert_eq!(chances, vec!["Ada's 10' pole".to_owned(), "Ada".to_owned()]);
}

/// Dungeon Delves › Combat speed: a party exploring at combat speed "loses the ability to use
/// 10' poles": probing at combat speed, the pole finds nothing and the bearer risks the pit.
#[test]
fn at_combat_speed_the_pole_is_not_used() {
    let mut app = app_with_probe();
    app.script_dice(&[6]);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (8, 1),
            pace: Pace::Combat,
        }),
    );
    let chances: Vec<String> = app
        .events()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance { who, .. } => Some(who),
            _ => None,
        })
        .collect();
    assert_eq!(chances, vec!["Ada".to_owned()]);
}

/// Ada starts probing ahead with her pole.
fn ada_probes(app: &mut Delve) {
    act(
        app,
        Command::Probe(Probe {
            who: "Ada".into(),
            on: true,
        }),
    );
}

pub(crate) fn app_with_probe() -> Delve {
    let mut app = app(", kind: Pit(depth_feet: 20)", POLE, 1);
    ada_probes(&mut app);
    app
}

/// Dungeon Delves › Traps: "the pole is treated as an adventurer moving 5' ahead of its bearer
/// for purposes of activation". Ada, probing, walks to (3, 1) and stops there: her pole has
/// gone on to (4, 1), over the hidden pit — its 1d6 is thrown (a 1: it opens, on no one), where
/// the pole once stopped with her.
#[test]
fn a_probing_pole_reaches_the_square_beyond_where_its_bearer_stops() {
    let mut app = app_with_probe();
    app.script_dice(&[1]);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Ada".into(),
            to: (3, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 3);
    assert_eq!(app.at("Ada"), GridPos::new(3, 1));
    let chances: Vec<(String, GridPos, u32, bool)> = app
        .events::<TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance {
                who,
                at,
                d6,
                sprung,
            } => Some((who, at, d6, sprung)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chances,
        vec![("Ada's 10' pole".to_owned(), GridPos::new(4, 1), 1, true)]
    );
    assert!(app.events::<TrapEvent>().iter().any(
        |e| matches!(e, TrapEvent::TrapSprungHarmlessly { at, .. } if *at == GridPos::new(4, 1))
    ));
}

/// RULINGS › Knowledge: a trap written `hidden: false` is in plain sight, but only those who see
/// it know it; Ada, walking without a light, does not see the tripwire and risks it.
#[test]
fn a_trap_in_plain_sight_goes_off_for_those_who_do_not_know_it() {
    let mut app = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .trap(r#"(at: (4, 1), kind: Custom(name: "tripwire", damage: "1d4"), hidden: false)"#)
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (1, 1), hp: 30, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .build();
    app.give(Move {
        who: "Ada".into(),
        to: (8, 1),
        pace: Pace::Combat,
    });
    app.run(2);
    assert!(
        app.events::<TrapEvent>()
            .iter()
            .any(|e| matches!(e, TrapEvent::TrapChance { who, .. } if who == "Ada"))
    );
}

/// RULINGS › Knowledge: a found trap is known to the faction that found it. The thief finds the
/// pit and steps around it (there is room beside it); a hermit of another faction, round the
/// corner when it was found, walks onto it and risks it.
#[test]
fn monsters_do_not_step_around_a_trap_only_the_party_found() {
    let mut app = Scenario::new(&[
        "XXXXXXXXX",
        "X.......X",
        "XXX...X.X",
        "XXXXXXX.X",
        "XXXXXXX.X",
        "XXXXXXXXX",
    ])
    .trap("(at: (4, 1), kind: Pit(depth_feet: 20))")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "hermits")"#)
    .creature(
        r#"(name: "Sera", faction: "party", at: (3, 1), hp: 30, ac: 10, encumbrance_stone: 2.0,
            carries: [(kind: Torch, lit: true)], proficiencies: [Searching],
            throws: { Searching: 1 })"#,
    )
    .creature(
        r#"(name: "Hob", faction: "hermits", at: (7, 4), hp: 30, ac: 10, encumbrance_stone: 2.0)"#,
    )
    .build();
    app.act(delve_rules::command::acts::SearchHastily { who: "Sera".into() });
    let trap = |app: &mut Delve| {
        let world = app.world_mut();
        world.query::<&Trap>().single(world).unwrap().clone()
    };
    assert_eq!(
        trap(&mut app).known_to,
        vec![delve_rules::creature::Faction(0)]
    );
    // Sera walks across: she knows it, and steps around it.
    app.give(Move {
        who: "Sera".into(),
        to: (6, 1),
        pace: Pace::Combat,
    });
    app.run(1);
    let chances = |app: &Delve, name: &str| {
        app.events::<TrapEvent>()
            .iter()
            .filter(|e| matches!(e, TrapEvent::TrapChance { who, .. } if who == name))
            .count()
    };
    assert_eq!(chances(&app, "Sera"), 0);
    // Hob did not see it found: walking over it, it risks it.
    app.give(Move {
        who: "Hob".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    app.run(3);
    assert_eq!(chances(&app, "Hob"), 1, "{}", app.log().to_text());
}

/// RULINGS › Pits and holes: an open pit is crossed by jumping it (Dungeon Delves › Jumping:
/// DEX 13, a standing jump, 1d6 6: (13 + 6 − 2) / 2 = 8½' clears the 5' pit).
#[test]
fn an_open_pit_can_be_jumped() {
    let mut delve = app(", kind: Pit(depth_feet: 20), hidden: false", ", dex: 13", 1);
    let ada = delve.entity("Ada");
    delve
        .world_mut()
        .entity_mut(ada)
        .insert(Position(GridPos::new(3, 1)));
    delve.script_dice(&[6]);
    delve.act(delve_rules::command::acts::Jump {
        who: "Ada".into(),
        to: (5, 1),
        from: None,
        running: false,
    });
    assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(5, 1));
    assert!(delve.get::<delve_rules::creature::Below>("Ada").is_none());
    assert!(trap_chances(&delve).is_empty());
}

/// RULINGS › Pits and holes: a trap learned of while walking, with no room to step around it,
/// stops the walk (whoever commands the walker decides: disarm it, or cross at its chance); a
/// walk ordered across it knowingly crosses at its chance.
#[test]
fn a_trap_found_on_the_way_stops_the_walk() {
    let mut delve = app(
        r#", kind: Custom(name: "needle", damage: "1d4"), hidden: true"#,
        "",
        1,
    );
    delve.give(Move {
        who: "Ada".into(),
        to: (8, 1),
        pace: Pace::Exploration,
    });
    delve.run(1);
    // Found (as a search would find it) while Ada is on her way.
    {
        let world = delve.world_mut();
        let mut trap = world.query::<&mut Trap>().single_mut(world).unwrap();
        trap.learned_by(Some(delve_rules::creature::Faction(0)));
    }
    delve.run(1);
    let at = delve.get::<Position>("Ada").unwrap().0;
    assert!(at.x < 4);
    assert!(delve.events::<delve_rules::rules::movement::MovementEvent>().iter().any(|e| matches!(
        e,
        delve_rules::rules::movement::MovementEvent::Halted { who, reason: delve_rules::rules::movement::HaltReason::Trap { at }, .. }
            if who == "Ada" && *at == GridPos::new(4, 1)
    )));
    assert!(trap_chances(&delve).is_empty());
    walk_to(&mut delve, "Ada", (8, 1));
    delve.script_dice(&[6]);
    delve.run(3);
    assert_eq!(trap_chances(&delve), vec![GridPos::new(4, 1)]);
    assert_eq!(delve.get::<Position>("Ada").unwrap().0, GridPos::new(8, 1));
}

/// RULINGS › Pits and holes, in a battle: foes face each other across an open pit in a corridor
/// one square wide; the fighting behaviour orders neither of them into a walk the rules refuse
/// (every way crosses the hole), round after round: each waits on its side.
#[test]
fn the_fighting_behaviour_walks_no_one_across_a_known_hole() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X.......X", "XXXXXXXXX"])
        .trap("(at: (4, 1), kind: Pit(depth_feet: 20), hidden: false)")
        .light("(at: (4, 1), kind: Custom(bright_feet: 40, dim_feet: 40), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "rats", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 10, ac: 12, speed_feet: 120,
                weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#,
        )
        .creature(
            r#"(name: "Rat", faction: "rats", at: (6, 1), hp: 4, ac: 11, speed_feet: 60,
                weapons: [(name: "bite", damage: "1d3", damage_type: Piercing)])"#,
        )
        .build();
    delve.run(12);
    let crossing = delve_rules::command::refusals(delve.log())
        .filter(|(_, r)| {
            matches!(
                r.get::<delve_rules::rules::movement::MoveRefusal>(),
                Some(delve_rules::rules::movement::MoveRefusal::HoleInTheWay { .. })
            )
        })
        .count();
    assert!(
        delve
            .log()
            .of::<delve_rules::rules::combat::CombatEvent>()
            .any(|e| matches!(
                e,
                delve_rules::rules::combat::CombatEvent::ModeChanged { .. }
            )),
        "a battle began: {}",
        delve.log().to_text()
    );
    assert_eq!(crossing, 0, "{}", delve.log().to_text());
    assert!(delve.at("Bo").x < 4 && delve.at("Rat").x > 4);
}

/// Dungeon Delves › Traps: a pole that sets off a pit under a companion walking ahead drops the
/// companion in — and it stays at the bottom: its own steps, looked at after the pole's, do not
/// find the pit open and stop it at the edge. (Bob walks onto the hidden pit as Ada, probing,
/// stops a square behind; her pole goes on to his square.)
#[test]
fn a_companion_the_pole_drops_into_a_pit_stays_in_it() {
    use delve_rules::creature::Below;
    let mut app = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .trap("(at: (4, 1), kind: Pit(depth_feet: 20))")
        .faction(r#"(name: "party", marching_order: ["Bob", "Ada"])"#)
        .creature(
            r#"(name: "Bob", faction: "party", at: (3, 1), hp: 30, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .creature(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 10, encumbrance_stone: 2.0,
                carries: [(kind: Torch, lit: true)], gear: [TenFootPole])"#,
        )
        .seed(3)
        .build();
    ada_probes(&mut app);
    // Ada's pole, beyond where she stops, sets it off (a 1) under Bob, who has just stepped on.
    app.script_dice(&[1]);
    app.give(delve_rules::command::acts::MoveParty {
        party: "party".into(),
        to: (4, 1),
        pace: Pace::Exploration,
    });
    run_rounds(app.world_mut(), 4);
    let chances: Vec<String> = app
        .events::<TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapChance { who, sprung, .. } => Some(format!("{who} {sprung}")),
            _ => None,
        })
        .collect();
    assert_eq!(chances, vec!["Ada's 10' pole true"]);
    assert!(hp(&app, "Bob") < 30, "Bob fell 20'");
    assert_eq!(
        app.at("Bob"),
        GridPos::new(4, 1),
        "at the bottom of the pit"
    );
    assert_eq!(app.at("Ada"), GridPos::new(3, 1));
    assert_eq!(app.get::<Below>("Bob"), Some(&Below { depth_feet: 20 }));
}
