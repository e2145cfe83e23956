//! DESIGN.md › Performance budgets and issue 7: a battle of 50 creatures, rounds per second in
//! release (target ≥ 5,000). Twenty-five adventurers and twenty-five ghouls meet in a lit hall;
//! their hit points are raised so that the battle goes on for the whole measurement, and the
//! whole `SimRound` schedule runs: awareness, initiative order, attacks and their logs, the
//! fighting behaviour, movement, light, vision and the noise of the fight.

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::level::load_level_str;
use delve_ground::log::EventLog;
use delve_rules::rules::combat::CombatEvent;

use delve_play::sim::{run_round, sim_app};

const SIDE: usize = 25;

fn hall() -> String {
    let (w, h) = (40usize, 20usize);
    let mut map = Vec::new();
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| {
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    'X'
                } else {
                    '.'
                }
            })
            .collect();
        map.push(format!("\"{row}\""));
    }
    let mut creatures = Vec::new();
    for i in 0..SIDE {
        let (x, y) = (2 + i % 5, 3 + 2 * (i / 5));
        creatures.push(format!(
            "(name: \"Fighter {i}\", faction: \"company\", at: ({x}, {y}), hp: 100000, ac: 15, \
             encumbrance_stone: 5.0, attack_bonus: 3, \
             weapons: [(name: \"sword\", damage: \"1d8\", damage_type: Slashing)], \
             armor: Some((name: \"chain\", weight: Medium, ac_bonus: 4)))"
        ));
        let (x, y) = (w - 3 - i % 5, 3 + 2 * (i / 5));
        creatures.push(format!(
            "(name: \"Ghoul {i}\", template: \"ghoul\", faction: \"ghouls\", at: ({x}, {y}), hp: 100000)"
        ));
    }
    format!(
        "(name: \"battle hall\", legend: {{ 'X': Wall(Stone), '.': Floor }}, map: [{}], \
         lights: [(at: (10, 10), kind: Custom(bright_feet: 120, dim_feet: 180), lit: true), \
                  (at: (30, 10), kind: Custom(bright_feet: 120, dim_feet: 180), lit: true)], \
         factions: [(name: \"company\"), (name: \"ghouls\", hostile_to: [\"company\"])], \
         creatures: [{}])",
        map.join(", "),
        creatures.join(", ")
    )
}

fn battle(c: &mut Criterion) {
    let level = load_level_str(&hall(), "hall.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    // The two sides close in and engage before the measurement.
    for _ in 0..30 {
        run_round(app.world_mut());
    }
    let attacks = |app: &App| {
        app.world()
            .resource::<EventLog>()
            .entries()
            .iter()
            .filter(|e| {
                e.get::<CombatEvent>()
                    .is_some_and(|ev| matches!(ev, CombatEvent::Attacked { .. }))
            })
            .count()
    };
    let before = attacks(&app);
    run_round(app.world_mut());
    println!(
        "{} attacks in one round of the engaged battle",
        attacks(&app) - before
    );
    c.bench_function(&format!("battle round, {} creatures", 2 * SIDE), |b| {
        b.iter(|| run_round(app.world_mut()))
    });
}

criterion_group!(benches, battle);
criterion_main!(benches);
