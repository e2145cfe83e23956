//! Traps: Dungeon Delves › Traps and Trapbreaking.

use bevy::prelude::*;
use delve::actors::{Command, CreatureIndex, HitPoints, Position, Trap, TrapState};
use delve::dice::Dice;
use delve::grid::GridPos;
use delve::level::load_level_str;
use delve::log::{Event, EventLog};
use delve::rules::movement::Pace;
use delve::rules::traps::sets_off;
use delve::sim::{give, run_rounds, sim_app};

/// A trap goes off on 1–2 of 1d6: about a third of the time over many seeded rolls.
#[test]
fn traps_go_off_on_one_or_two_in_six() {
    let mut dice = Dice::seeded(2024);
    let n = 60_000;
    let off = (0..n).filter(|_| sets_off(dice.roll(6))).count();
    let share = off as f64 / n as f64;
    assert!((share - 1.0 / 3.0).abs() < 0.01, "{share}");
}

fn app(trap: &str, ada: &str, seed: u64) -> App {
    let src = format!(
        r#"(name: "traps", legend: {{ 'X': Wall(Stone), '.': Floor }},
            map: ["XXXXXXXXXX", "X........X", "XXXXXXXXXX"],
            traps: [(at: (4, 1){trap})],
            factions: [(name: "party")],
            creatures: [(name: "Ada", faction: "party", at: (1, 1), hp: 30, ac: 10, encumbrance_stone: 2.0,
                         carries: [(kind: Torch, lit: true)]{ada})])"#
    );
    sim_app(
        &load_level_str(&src, "traps.ron", None)
            .unwrap_or_else(|e| panic!("{e}"))
            .level,
        seed,
    )
}

fn events(app: &App) -> Vec<Event> {
    app.world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .map(|e| e.event.clone())
        .collect()
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
            Command::Move {
                who: "Ada".into(),
                to: (8, 1),
                pace: Pace::Combat,
            },
        );
        run_rounds(app.world_mut(), 2);
        let ev = events(&app);
        let chance = ev.iter().find_map(|e| match e {
            Event::TrapChance { d6, sprung, .. } => Some((*d6, *sprung)),
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
                    Event::TrapSprung { dice, damage, .. } => Some((dice.clone(), *damage)),
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

#[test]
fn a_known_trap_is_stepped_around() {
    let mut app = app(", kind: Pit(depth_feet: 20), hidden: false", "", 1);
    give(
        app.world_mut(),
        Command::Move {
            who: "Ada".into(),
            to: (8, 1),
            pace: Pace::Combat,
        },
    );
    run_rounds(app.world_mut(), 2);
    assert!(
        !events(&app)
            .iter()
            .any(|e| matches!(e, Event::TrapChance { .. }))
    );
}

const THIEF: &str = ", class: \"thief\", level: 2, proficiencies: [Trapbreaking], throws: { Trapbreaking: 1 }, gear: [ThievesTools]";

#[test]
fn a_thief_disarms_re_arms_and_discharges() {
    let custom = ", kind: Custom(name: \"needle\", damage: \"1d4\"), hidden: false";
    let mut app = app(custom, THIEF, 1);
    give(
        app.world_mut(),
        Command::Move {
            who: "Ada".into(),
            to: (3, 1),
            pace: Pace::Combat,
        },
    );
    run_rounds(app.world_mut(), 1);
    let state = |app: &mut App| {
        let w = app.world_mut();
        w.query::<&Trap>().single(w).unwrap().state
    };
    give(
        app.world_mut(),
        Command::DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        },
    );
    run_rounds(app.world_mut(), 1);
    assert_eq!(state(&mut app), TrapState::Disarmed);
    give(
        app.world_mut(),
        Command::RearmTrap {
            who: "Ada".into(),
            at: (4, 1),
        },
    );
    run_rounds(app.world_mut(), 1);
    assert_eq!(state(&mut app), TrapState::Armed);
    give(
        app.world_mut(),
        Command::DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: true,
        },
    );
    run_rounds(app.world_mut(), 1);
    assert_eq!(state(&mut app), TrapState::Discharged);
    give(
        app.world_mut(),
        Command::RearmTrap {
            who: "Ada".into(),
            at: (4, 1),
        },
    );
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains("only a disarmed trap can be re-armed"),
        "{log}"
    );
}

#[test]
fn only_thieves_disarm_hastily_and_unknown_traps_cannot_be_touched() {
    let mut app = app(", kind: Pit(depth_feet: 10), hidden: false", "", 1);
    give(
        app.world_mut(),
        Command::Move {
            who: "Ada".into(),
            to: (3, 1),
            pace: Pace::Combat,
        },
    );
    run_rounds(app.world_mut(), 1);
    give(
        app.world_mut(),
        Command::DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        },
    );
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains("hasty trapbreaking is for those proficient in Trapbreaking"),
        "{log}"
    );
    let mut app = self::app(", kind: Pit(depth_feet: 10)", THIEF, 1);
    give(
        app.world_mut(),
        Command::DisarmTrap {
            who: "Ada".into(),
            at: (4, 1),
            discharge: false,
        },
    );
    run_rounds(app.world_mut(), 1);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(log.contains("it knows of no trap at (4, 1)"), "{log}");
}
