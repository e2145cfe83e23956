//! DESIGN.md › Performance budgets: a round with 50 creatures, all rules, ≥ 5,000 rounds/s.
//! Fifty creatures of the 128×128 sample level walk paths across it (every door open), and the
//! whole `SimRound` schedule runs; walkers that arrive are sent on again outside the timing.

use delve_rules::command::acts::Move;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::grid::DoorState;
use delve_ground::grid::DungeonGrid;
use delve_ground::level::load_level_str;
use delve_play::sim::{give, run_round, sim_app};
use delve_rules::command::Command;
use delve_rules::command::dispatch_commands;
use delve_rules::creature::Position;
use delve_rules::rules::doors::Door;
use delve_rules::rules::movement::{Pace, Walking};

const UNDERCROFT: &str = include_str!("../levels/undercroft.ron");
const WALKERS: usize = 50;

fn send_walkers(world: &mut World, names: &[String], targets: &[(i32, i32)], pace: Pace) {
    let mut idle = Vec::new();
    let mut q = world.query::<(&Name, Option<&Walking>)>();
    for (name, walking) in q.iter(world) {
        if walking.is_none()
            && let Some(i) = names.iter().position(|n| n == name.as_str())
        {
            idle.push(i);
        }
    }
    for i in idle {
        // Alternate between two far targets so nobody stands still for long.
        let to = targets[(i + WALKERS / 2) % WALKERS];
        let here = {
            let e = world.resource::<delve_rules::creature::CreatureIndex>().0[&names[i]];
            world.get::<Position>(e).unwrap().0
        };
        let to = if (here.x, here.y) == to {
            targets[i]
        } else {
            to
        };
        give(
            world,
            Command::Move(Move {
                who: names[i].clone(),
                to,
                pace,
            }),
        );
    }
}

fn rounds(c: &mut Criterion) {
    let level = load_level_str(UNDERCROFT, "undercroft.ron", None)
        .unwrap()
        .level;
    let mut app = sim_app(&level, 1);
    let world = app.world_mut();
    // Every door open, in the grid and on the doors themselves.
    let mut doors = world.query::<(&Position, &mut Door)>();
    let opened: Vec<_> = doors
        .iter_mut(world)
        .map(|(p, mut d)| {
            d.state = DoorState::Open;
            p.0
        })
        .collect();
    for p in opened {
        world
            .resource_mut::<DungeonGrid>()
            .set_door(p, DoorState::Open);
    }
    let names: Vec<String> = level
        .creatures
        .iter()
        .take(WALKERS)
        .map(|c| c.name.clone())
        .collect();
    let targets: Vec<(i32, i32)> = level
        .creatures
        .iter()
        .take(WALKERS)
        .map(|c| (c.at.x, c.at.y))
        .collect();
    for (pace, label) in [(Pace::Exploration, "exploration"), (Pace::Combat, "combat")] {
        send_walkers(app.world_mut(), &names, &targets, pace);
        run_round(app.world_mut());
        c.bench_function(
            &format!("round with {WALKERS} creatures walking at {label} speed, 128x128"),
            |b| {
                b.iter_custom(|iters| {
                    let mut timed = Duration::ZERO;
                    let mut done = 0;
                    while done < iters {
                        send_walkers(app.world_mut(), &names, &targets, pace);
                        // New paths are planned here, outside the timing.
                        dispatch_commands(app.world_mut());
                        let n = (iters - done).min(50);
                        let start = Instant::now();
                        for _ in 0..n {
                            run_round(app.world_mut());
                        }
                        timed += start.elapsed();
                        done += n;
                    }
                    timed
                })
            },
        );
        let walking = app
            .world_mut()
            .query::<&Walking>()
            .iter(app.world())
            .count();
        println!("{walking} of {WALKERS} creatures walking at the end");
    }
}

criterion_group!(movement, rounds);
criterion_main!(movement);
