//! Choosing its ground in a fight (`policy::party::ground`): the gym's rat cellar
//! (`levels/gym/doorway.ron`) and the mage's first delve (`levels/gym/frail.ron`).

use delve_ground::log::EventLog;
use delve_minds::policy::party::Intent;
use delve_minds::policy::party::PolicyEvent;
use delve_rules::rules::combat::CombatEvent;

fn gym(file: &str, seed: u64) -> bevy::prelude::App {
    crate::common::play_level(file, seed, 1200)
}

/// Who was struck at all (a hit that dealt damage).
fn struck(log: &EventLog) -> Vec<String> {
    let mut who: Vec<String> = log
        .of::<CombatEvent>()
        .filter_map(|e| match e {
            CombatEvent::Attacked {
                target,
                damage: Some(_),
                ..
            } => Some(target.clone()),
            _ => None,
        })
        .collect();
    who.sort();
    who.dedup();
    who
}

/// Ten giant rats against three adventurers coming down a one-wide passage: the party holds
/// the passage — the sturdiest, Hild (AC 16 with her shield, +2), at its mouth (7, 5) — and the
/// rats come at her one at a time: Pell, the thief at the back, is never bitten.
#[test]
fn outnumbered_the_party_holds_the_passage_its_sturdiest_in_front() {
    for seed in 1..=3 {
        let app = gym("levels/gym/doorway.ron", seed);
        let log = app.world().resource::<EventLog>();
        let held = log.of::<PolicyEvent>().find_map(|e| match e {
            PolicyEvent::Decided {
                intent: Intent::HoldThePassage { front },
                ..
            } => Some(*front),
            _ => None,
        });
        assert_eq!(
            held,
            Some(delve_ground::grid::GridPos::new(7, 5)),
            "seed {seed}\n{}",
            log.to_text()
        );
        assert!(
            !struck(log).contains(&"Pell".to_string()),
            "seed {seed}: {:?}\n{}",
            struck(log),
            log.to_text()
        );
    }
}

/// Three skeletons (a rusty sword, 1d6) before the shrine, and a mage of 3 hit points: any blow
/// could bring Wyn down, so while Hild and Oswin fight she keeps to squares no skeleton stands
/// beside — she is never struck, and makes no blow of her own with her dagger.
#[test]
fn the_frail_keep_out_of_reach_while_the_sturdy_fight() {
    for seed in 1..=3 {
        let app = gym("levels/gym/frail.ron", seed);
        let log = app.world().resource::<EventLog>();
        assert!(
            !struck(log).contains(&"Wyn".to_string()),
            "seed {seed}\n{}",
            log.to_text()
        );
        assert!(
            !log.of::<CombatEvent>()
                .any(|e| matches!(e, CombatEvent::Attacked { who, .. } if who == "Wyn")),
            "seed {seed}: Wyn closes in on no one\n{}",
            log.to_text()
        );
        assert!(
            log.of::<CombatEvent>()
                .any(|e| matches!(e, CombatEvent::Attacked { who, .. } if who == "Hild")),
            "seed {seed}: Hild fights"
        );
    }
}
