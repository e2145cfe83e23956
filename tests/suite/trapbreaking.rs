//! Dealing with a known trap (Dungeon Delves › Traps: Disabling Traps): disarming, discharging
//! and re-arming, hastily or methodically, their botches and barred retries; touching a trap by
//! hand or with the pole, and the pole's probing offered.

use super::traps::*;
use crate::common::hp;
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::log::EventLog;
use delve_play::sim::{give, run_rounds};
use delve_rules::command::acts::{DisarmTrap, Move, RearmTrap, Touch};
use delve_rules::command::{Command, refusals};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::task::TaskEvent;
use delve_rules::rules::traps::TrapEvent;
use delve_rules::rules::traps::TrapRefusal;
use delve_rules::rules::traps::TrapState;

#[test]
fn a_thief_disarms_re_arms_and_discharges() {
    let custom = ", kind: Custom(name: \"needle\", damage: \"1d4\"), hidden: false";
    let mut app = next_to_the_trap(custom, THIEF);
    act(
        &mut app,
        Command::DisarmTrap(DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        }),
    );
    assert_eq!(state(&mut app), TrapState::Disarmed);
    act(
        &mut app,
        Command::RearmTrap(RearmTrap {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
    assert_eq!(state(&mut app), TrapState::Armed);
    act(
        &mut app,
        Command::DisarmTrap(DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: true,
        }),
    );
    assert_eq!(state(&mut app), TrapState::Discharged);
    act(
        &mut app,
        Command::RearmTrap(RearmTrap {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &TrapRefusal::NotDisarmed
        ),
        "{log}"
    );
}

#[test]
fn only_thieves_disarm_hastily_and_unknown_traps_cannot_be_touched() {
    let mut app = app(", kind: Pit(depth_feet: 10), hidden: false", "", 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Ada".into(),
            to: (3, 1),
            pace: Pace::Combat,
        }),
    );
    run_rounds(app.world_mut(), 1);
    give(
        app.world_mut(),
        Command::DisarmTrap(DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        }),
    );
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &TrapRefusal::HastyNotProficient
        ),
        "{log}"
    );
    let mut app = self::app(", kind: Pit(depth_feet: 10)", THIEF, 1);
    give(
        app.world_mut(),
        Command::DisarmTrap(DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        }),
    );
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &TrapRefusal::NoKnownTrap {
                at: GridPos::new(4, 1)
            }
        ),
        "{log}"
    );
}

/// Disabling Traps › Methodical Trapbreaking, using Trapbreaking: a turn, the class value +4.
#[test]
fn a_thief_disarms_methodically_in_a_turn_at_plus_four() {
    let mut app = next_to_the_trap(NEEDLE, THIEF_15);
    disarm_methodically(&mut app);
    app.script_dice(&[11]);
    run_rounds(app.world_mut(), 9);
    assert_eq!(state(&mut app), TrapState::Armed, "a turn is ten rounds");
    assert!(throws(&app).is_empty());
    run_rounds(app.world_mut(), 1);
    assert_eq!(state(&mut app), TrapState::Disarmed);
    let t = throws(&app);
    assert_eq!(
        t,
        vec![("Trapbreaking (methodical)".into(), 11, 15, 15, true)]
    );
}

/// A natural 1 on a methodical attempt sets the trap off; any other failure may be tried again.
#[test]
fn methodical_trapbreaking_botches_only_on_a_natural_one() {
    let mut app = next_to_the_trap(NEEDLE, THIEF_15);
    disarm_methodically(&mut app);
    app.script_dice(&[10]);
    run_rounds(app.world_mut(), 10);
    assert_eq!(state(&mut app), TrapState::Armed);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        app.world()
            .resource::<EventLog>()
            .of::<TrapEvent>()
            .any(|e| *e
                == TrapEvent::DisablingFailed {
                    who: "Ada".into(),
                    at: GridPos::new(4, 1),
                    may_retry: true
                }),
        "{log}"
    );
    disarm_methodically(&mut app);
    app.script_dice(&[1, 3]);
    run_rounds(app.world_mut(), 10);
    assert_eq!(state(&mut app), TrapState::Discharged, "gone off");
    assert_eq!(hp(&app, "Ada"), 30 - 3, "the needle's 1d4 came up 3");
    assert!(
        app.events()
            .iter()
            .any(|e| matches!(e, TrapEvent::TrapSprung { who, .. } if who == "Ada"))
    );
}

/// Disabling Traps › Using Adventuring: hasty not permitted, methodical 18+, no tools needed.
#[test]
fn anyone_may_disarm_methodically_at_eighteen() {
    let mut app = next_to_the_trap(NEEDLE, "");
    disarm_methodically(&mut app);
    app.script_dice(&[17]);
    run_rounds(app.world_mut(), 10);
    assert_eq!(state(&mut app), TrapState::Armed);
    disarm_methodically(&mut app);
    app.script_dice(&[18]);
    run_rounds(app.world_mut(), 10);
    assert_eq!(state(&mut app), TrapState::Disarmed);
    let t = throws(&app);
    assert_eq!(
        t,
        vec![
            ("Trapbreaking (methodical)".into(), 17, 17, 18, false),
            ("Trapbreaking (methodical)".into(), 18, 18, 18, true),
        ]
    );
}

/// Hasty Trapbreaking: a natural 1–3 on a failure sets the trap off; another failure bars a
/// hasty retry at that level, though a methodical attempt is still allowed.
#[test]
fn hasty_trapbreaking_botches_on_one_to_three_and_bars_retries() {
    let mut app = next_to_the_trap(NEEDLE, THIEF_15);
    app.script_dice(&[3, 2]);
    act(
        &mut app,
        Command::DisarmTrap(DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        }),
    );
    assert_eq!(
        state(&mut app),
        TrapState::Discharged,
        "a natural 3 sets it off"
    );
    assert_eq!(hp(&app, "Ada"), 28);

    let mut app = next_to_the_trap(NEEDLE, THIEF_15);
    app.script_dice(&[4]);
    let hasty = Command::DisarmTrap(DisarmTrap {
        who: "Ada".into(),
        at: (4, 1),
        discharge: true,
    });
    act(&mut app, hasty.clone());
    assert_eq!(state(&mut app), TrapState::Armed, "a natural 4 just fails");
    act(&mut app, hasty);
    let log = app.world().resource::<EventLog>();
    assert!(
        refusals(log).any(|(_, why)| why.is(&TrapRefusal::HastyBarred)),
        "{}",
        log.to_text()
    );
    disarm_methodically(&mut app);
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>();
    assert!(
        log.of::<TaskEvent>()
            .any(|e| matches!(e, TaskEvent::TaskBegun { who, rounds: 10, .. } if who == "Ada")),
        "{}",
        log.to_text()
    );
}

#[test]
fn walking_away_abandons_methodical_trapbreaking() {
    let mut app = next_to_the_trap(NEEDLE, THIEF_15);
    disarm_methodically(&mut app);
    run_rounds(app.world_mut(), 3);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (1, 1),
            pace: Pace::Combat,
        }),
    );
    run_rounds(app.world_mut(), 10);
    assert_eq!(state(&mut app), TrapState::Armed);
    assert!(throws(&app).is_empty());
}

/// Touch traps go off on 1–2 when handled; by hand on the toucher, by pole on no one; out of
/// reach is refused.
#[test]
fn touching_a_touch_trap() {
    let glyph = ", kind: Custom(name: \"glyph\", damage: \"2d4\"), trigger: Touch";
    let mut app = next_to_the_trap(glyph, "");
    app.script_dice(&[2, 1, 1]);
    act(
        &mut app,
        Command::Touch(Touch {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
    assert_eq!(hp(&app, "Ada"), 28);

    let mut app = self::app(glyph, POLE, 1);
    act(
        &mut app,
        Command::Move(Move {
            who: "Ada".into(),
            to: (2, 1),
            pace: Pace::Combat,
        }),
    );
    app.script_dice(&[1]);
    act(
        &mut app,
        Command::Touch(Touch {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
    assert_eq!(hp(&app, "Ada"), 30, "10' away, at the end of the pole");
    assert_eq!(state(&mut app), TrapState::Discharged);

    let mut app = self::app(glyph, "", 1);
    act(
        &mut app,
        Command::Touch(Touch {
            who: "Ada".into(),
            at: (4, 1),
        }),
    );
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &TrapRefusal::OutOfReach {
                at: GridPos::new(4, 1)
            }
        ),
        "{log}"
    );
}

/// Dungeon Delves › Traps: the bearer of a 10' pole is offered to probe ahead with it, and,
/// probing, to stop; one without a pole is offered neither.
#[test]
fn probing_with_the_pole_is_offered_to_its_bearer() {
    let mut delve = delve_play::scenario::Scenario::lit_corridor(8)
        .creature(
            r#"(name: "Pip", faction: "party", at: (1, 1), hp: 5, ac: 10,
                encumbrance_stone: 2.0, gear: [TenFootPole])"#,
        )
        .creature(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 5, ac: 10,
                encumbrance_stone: 2.0)"#,
        )
        .build();
    let probes =
        |delve: &delve_play::scenario::Delve, who: &str| -> Vec<delve_rules::act::Choice> {
            delve_rules::rules::choices_for(delve.world(), delve.entity(who))
                .into_iter()
                .map(|(_, c)| c)
                .filter(|c| {
                    c.command
                        .get::<delve_rules::command::acts::Probe>()
                        .is_some()
                })
                .collect()
        };
    assert!(probes(&delve, "Ada").is_empty(), "no pole");
    let offered = probes(&delve, "Pip");
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].way, "probe ahead with the pole");
    delve.act(
        offered[0]
            .command
            .get::<delve_rules::command::acts::Probe>()
            .unwrap()
            .clone(),
    );
    assert!(
        delve
            .get::<delve_rules::rules::traps::Probing>("Pip")
            .is_some()
    );
    let offered = probes(&delve, "Pip");
    assert_eq!(offered[0].way, "stop probing");
}
