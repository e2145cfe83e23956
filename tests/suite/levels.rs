//! The sample levels load, run headless, and keep the grid's promises.

use delve_rules::command::acts::Move;
use std::path::{Path, PathBuf};

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::grid::los::line_of_sight;
use delve_ground::grid::path::find_path;
use delve_ground::level::{Level, load_level_file, load_level_str};
use delve_ground::log::EventLog;
use delve_rules::command::Command;
use delve_rules::creature::Position;
use delve_rules::rules::movement::MovementEvent;
use delve_rules::schedule::DelveEvent;

use delve_ground::time::Clock;
use delve_play::sim::{give, run_rounds, sim_app};
use delve_rules::rules::movement::Pace;
use delve_rules::schedule::SimRound;

fn sample_levels() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
    v.sort();
    v
}

fn load(name: &str) -> Level {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("levels")
        .join(name);
    load_level_file(&p).unwrap_or_else(|e| panic!("{e}")).level
}

#[test]
fn there_are_at_least_three_sample_levels_and_all_check_clean() {
    let levels = sample_levels();
    assert!(levels.len() >= 3, "{levels:?}");
    for p in &levels {
        let loaded = load_level_file(p).unwrap_or_else(|e| panic!("{}:\n{e}", p.display()));
        assert!(
            loaded.warnings.is_empty(),
            "{}:\n{}",
            p.display(),
            loaded.warnings
        );
    }
    let large = levels
        .iter()
        .map(|p| load_level_file(p).unwrap().level)
        .find(|l| l.grid.width() >= 128 && l.grid.height() >= 128);
    assert!(large.is_some(), "a 128×128 sample level");
}

#[test]
fn the_embedded_default_level_is_the_crypt() {
    let l = delve_ground::level::load_default_level().unwrap().level;
    assert_eq!(l.name, "Crypt of the Ash Kings");
    assert!(
        l.doors.iter().any(|d| d.door.secret),
        "the crypt has a secret door"
    );
}

#[test]
fn the_cave_has_water_rubble_and_a_chasm() {
    use delve_ground::grid::Terrain;
    let l = load("cave.ron");
    let has = |f: fn(Terrain) -> bool| l.grid.squares().any(|(_, t)| f(t));
    assert!(has(|t| matches!(t, Terrain::Water(_))));
    assert!(has(|t| t == Terrain::Rubble));
    assert!(has(|t| matches!(t, Terrain::Chasm { .. })));
    assert!(has(|t| t == Terrain::Squeeze));
}

/// Every sample level runs 100 rounds headless, with the first creature walking somewhere.
#[test]
fn sample_levels_run_a_hundred_rounds_headless() {
    for p in sample_levels() {
        let level = load_level_file(&p).unwrap().level;
        let mut app = sim_app(&level, 7);
        let walker = &level.creatures[0];
        // The farthest square it can reach within 30 squares.
        let target = level
            .grid
            .squares()
            .map(|(q, _)| q)
            .filter(|&q| level.grid.distance_feet(walker.at, q) <= 150)
            .filter_map(|q| find_path(&level.grid, walker.at, q).map(|path| (path.feet, q)))
            .max()
            .map(|(_, q)| q)
            .unwrap();
        // The player walks it: if a battle begins, the fighting behaviour leaves it alone.
        let e = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0[&walker.name];
        app.world_mut()
            .entity_mut(e)
            .insert(delve_rules::rules::combat::battle::Controlled);
        give(
            app.world_mut(),
            Command::Move(Move {
                who: walker.name.clone(),
                to: (target.x, target.y),
                pace: Pace::Combat,
            }),
        );
        run_rounds(app.world_mut(), 100);
        let world = app.world_mut();
        assert_eq!(world.resource::<Clock>().rounds, 100);
        let log = world.resource::<EventLog>();
        let turns = log
            .entries()
            .iter()
            .filter(|e| {
                e.get::<DelveEvent>()
                    .is_some_and(|ev| matches!(ev, DelveEvent::TurnEnded { .. }))
            })
            .count();
        assert_eq!(turns, 10, "{}", p.display());
        assert!(
            log.entries()
                .iter()
                .any(|e| e.get::<MovementEvent>().is_some_and(|ev| matches!(ev, MovementEvent::Arrived { who, at } if *who == walker.name && *at == target))),
            "{}: {} reaches {target}\n{}",
            p.display(),
            walker.name,
            log.to_text()
        );
    }
}

/// Symmetric shadowcasting: A sees B exactly when B sees A, for squares that do not block sight.
#[test]
fn line_of_sight_is_symmetric_on_the_sample_levels() {
    for p in sample_levels() {
        let level = load_level_file(&p).unwrap().level;
        let g = &level.grid;
        let open: Vec<GridPos> = g
            .squares()
            .map(|(q, _)| q)
            .filter(|&q| !g.is_opaque(q))
            .collect();
        // Every pair within 12 squares on small levels; a fixed stride of origins on large ones.
        let stride = (open.len() / 150).max(1);
        let mut checked = 0;
        for &a in open.iter().step_by(stride) {
            for &b in &open {
                if a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)) > 12 {
                    continue;
                }
                assert_eq!(
                    line_of_sight(g, a, b),
                    line_of_sight(g, b, a),
                    "{}: {a} and {b}",
                    p.display()
                );
                checked += 1;
            }
        }
        // Not vacuous: more pairs than open squares (each square with its neighbours).
        assert!(
            checked > open.len(),
            "{}: {checked} pairs for {} open squares",
            p.display(),
            open.len()
        );
    }
}

fn scripted_run(seed: u64) -> String {
    let level = load("crypt.ron");
    let mut app = sim_app(&level, seed);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (20, 6),
            pace: Pace::Exploration,
        }),
    );
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Brannoc".into(),
            to: (99, 99),
            pace: Pace::Combat,
        }),
    );
    run_rounds(app.world_mut(), 30);
    app.world().resource::<EventLog>().to_json_lines()
}

#[test]
fn same_level_seed_and_commands_give_the_same_log() {
    let a = scripted_run(11);
    assert_eq!(a, scripted_run(11));
    assert!(a.contains("\"event\":\"command_refused\""), "{a}");
    assert!(a.contains("outside the map"), "{a}");
}

/// RULINGS › Time: exploration moves a tenth of exploration speed per round, leftover feet carried,
/// so 120' per turn is exactly 120' per turn.
#[test]
fn exploration_walks_exactly_120_feet_in_a_turn() {
    let corridor = ".".repeat(40);
    let src = format!(
        r#"(name: "corridor", legend: {{ '.': Floor }}, map: ["{corridor}"],
            factions: [(name: "party")],
            creatures: [(name: "Ada", faction: "party", at: (0, 0), hp: 5, ac: 10, encumbrance_stone: 4.0,
                          carries: [(kind: Torch, lit: true)])])"#
    );
    let level = load_level_str(&src, "corridor.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Ada".into(),
            to: (39, 0),
            pace: Pace::Exploration,
        }),
    );
    let world = app.world_mut();
    let mut per_round = Vec::new();
    for _ in 0..10 {
        run_rounds(world, 1);
        let x = world.query::<&Position>().single(world).unwrap().0.x;
        per_round.push(x);
    }
    // 12' a round: 10' moved, 2' carried; the carried feet add up to a square every 5 rounds'
    // worth, so after 10 rounds 120' = 24 squares.
    assert_eq!(per_round, vec![2, 4, 7, 9, 12, 14, 16, 19, 21, 24]);
}

/// DESIGN.md › Examples: the round's schedule and a faction's initiative's have no unordered
/// conflicting systems.
#[test]
fn the_round_schedule_has_no_ambiguities() {
    let level = load("crypt.ron");
    let mut app = sim_app(&level, 1);
    let world = app.world_mut();
    world.schedule_scope(SimRound, |world, schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
        schedule.initialize(world).expect("no ambiguities");
    });
    world.schedule_scope(
        delve_rules::schedule::FactionInitiative,
        |world, schedule| {
            schedule.set_build_settings(ScheduleBuildSettings {
                ambiguity_detection: LogLevel::Error,
                ..default()
            });
            schedule
                .initialize(world)
                .expect("no ambiguities in a faction turn");
        },
    );
}
