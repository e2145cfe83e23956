//! The party's log tells only what the party knows (RULINGS › Knowledge): what happens to its
//! members, what it sees happen, the passing of time; another faction's names only once seen.

use std::collections::BTreeSet;

use bevy::prelude::*;
use delve_ground::log::EventLog;
use delve_rules::creature::{Creature, Faction, Factions, Position};
use delve_rules::rules::doors::DoorEvent;
use delve_rules::rules::vision::Sight;

/// Plays `file` under the default policy and gathers the names of the other factions'
/// creatures some member of the party (faction 0) saw standing, round by round.
fn delve_watching_the_party(file: &str, seed: u64, rounds: u64) -> (App, BTreeSet<String>) {
    let level = delve_ground::level::load_level_file(std::path::Path::new(file))
        .unwrap()
        .level;
    let mut seen = BTreeSet::new();
    let app = delve_play::sim::play_autonomous_watched(
        &level,
        seed,
        &delve_ground::party_policy::PartyPolicy::default(),
        &[],
        rounds,
        |world: &World| {
            let mut eyes = Vec::new();
            let mut others = Vec::new();
            for e in world.iter_entities() {
                let (Some(f), Some(n), Some(p)) =
                    (e.get::<Faction>(), e.get::<Name>(), e.get::<Position>())
                else {
                    continue;
                };
                if !e.contains::<Creature>() {
                    continue;
                }
                if f.0 == 0 {
                    if let Some(s) = e.get::<Sight>() {
                        eyes.push(s.clone());
                    }
                } else {
                    others.push((n.to_string(), p.0));
                }
            }
            for (name, at) in others {
                if eyes.iter().any(|s| s.sees(at)) {
                    seen.insert(name);
                }
            }
        },
    );
    (app, seen)
}

/// Every entry of the party's log, as the party reads it.
fn party_log(app: &App) -> Vec<(usize, String)> {
    let world = app.world();
    let parties = world.resource::<delve_rules::rules::party::Parties>();
    let party = &parties.0[0];
    let members: Vec<String> = party
        .marching_order
        .iter()
        .map(|&e| world.get::<Name>(e).unwrap().to_string())
        .collect();
    let members: Vec<&str> = members.iter().map(String::as_str).collect();
    world
        .resource::<EventLog>()
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.known_to_party(&members, &party.name, 0))
        .map(|(i, e)| (i, e.told_to_party(&members, &party.name)))
        .collect()
}

/// In the crypt, a delve with battles and an evil door that swings shut far from the party:
/// no line of the party's log names a monster no member saw, nor another faction; the door
/// swinging shut out of the party's sight is not in it, and in the Judge's log it is.
#[test]
fn the_party_log_names_only_what_the_party_saw() {
    let mut checked_a_battle = false;
    let mut checked_a_door_unseen = false;
    for seed in 1..=6 {
        let (app, seen) = delve_watching_the_party("levels/crypt.ron", seed, 600);
        let world = app.world();
        let others: Vec<String> = world
            .iter_entities()
            .filter(|e| e.contains::<Creature>() && e.get::<Faction>().is_some_and(|f| f.0 != 0))
            .map(|e| e.get::<Name>().unwrap().to_string())
            .collect();
        let factions: Vec<String> = world.resource::<Factions>().0[1..]
            .iter()
            .map(|f| f.name.clone())
            .collect();
        let told = party_log(&app);
        for (_, line) in &told {
            for name in others.iter().filter(|n| !seen.contains(*n)) {
                assert!(
                    !line.contains(name.as_str()),
                    "seed {seed}: the party's log names {name}, never seen: {line}"
                );
            }
            for f in &factions {
                assert!(
                    !line.contains(&format!("{f}'s")) && !line.contains(&format!("for {f}")),
                    "seed {seed}: the party's log names the faction {f}: {line}"
                );
            }
        }
        let log = world.resource::<EventLog>();
        checked_a_battle |= told.iter().any(|(_, l)| l.contains("acting order"));
        let told_at: BTreeSet<usize> = told.iter().map(|(i, _)| *i).collect();
        for (i, e) in log.entries().iter().enumerate() {
            if matches!(e.get::<DoorEvent>(), Some(DoorEvent::DoorSwungShut { .. }))
                && !told_at.contains(&i)
            {
                checked_a_door_unseen = true;
            }
        }
    }
    assert!(checked_a_battle, "no battle in the party's log to check");
    assert!(
        checked_a_door_unseen,
        "no door swung shut out of the party's sight to check"
    );
}
