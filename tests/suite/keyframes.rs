//! Keyframes (`delve_play::keyframe`): going to any round restores the nearest keyframe and replays
//! the rest, to the same world and log as playing from the start.

use super::common::*;

/// The types a world of Bevy's own plugins registers (the headless ones the delve runs with),
/// after a few frames.
fn bevy_own() -> Vec<std::any::TypeId> {
    let mut app = bevy::prelude::App::new();
    app.add_plugins(bevy::prelude::MinimalPlugins);
    for _ in 0..3 {
        app.update();
    }
    app.world()
        .components()
        .iter_registered()
        .filter_map(|info| info.type_id())
        .collect()
}

/// Every component and resource a delve's world registers (by a plugin, a system's query, a
/// level) is kept in a keyframe, or is the record itself, or a registry, or Bevy's own: a new
/// area cannot forget its state.
#[test]
fn every_piece_of_delve_state_is_kept() {
    let own = bevy_own();
    let mut missing = std::collections::BTreeSet::new();
    for file in ["crypt", "cave", "undercroft", "descent"] {
        let level = sample(&format!("levels/{file}.ron"));
        let policy = delve_ground::party_policy::PartyPolicy::default();
        let mut app = delve_play::sim::play_autonomous(&level, 3, &policy, &[], 300);
        missing.extend(delve_rules::state::not_kept(app.world_mut(), &own));
    }
    assert!(missing.is_empty(), "not kept: {missing:#?}");
}

/// A delve of `level` handed to the default policy, played to its end (or `cap` rounds) in a
/// world that keeps a keyframe every turn.
fn played_with_keyframes(
    level: &delve_ground::level::Level,
    seed: u64,
    cap: u64,
) -> bevy::prelude::App {
    let mut app = delve_play::sim::sim_app(level, seed);
    let world = app.world_mut();
    delve_play::keyframe::keep(world, delve_ground::time::ROUNDS_PER_TURN);
    delve_play::sim::hand_parties_to(world, &delve_ground::party_policy::PartyPolicy::default());
    for _ in 0..cap {
        delve_play::sim::run_round(world);
        if world
            .resource::<delve_minds::policy::party::DelveEnd>()
            .0
            .is_some()
        {
            break;
        }
    }
    app
}

/// Seeking to round k — back and forth, from wherever the delve stands — gives the same world
/// and the same log as playing the delve from its start to k.
#[test]
fn seeking_to_any_round_is_playing_from_the_start_to_it() {
    use rand::{RngExt, SeedableRng};
    for (file, seed) in [("crypt", 5), ("descent", 5), ("crypt", 3), ("cave", 5)] {
        let level = sample(&format!("levels/{file}.ron"));
        let mut app = played_with_keyframes(&level, seed, 3000);
        let world = app.world_mut();
        let frames = world.resource::<delve_play::keyframe::Keyframes>();
        let (end, line) = (frames.end(), frames.line().to_vec());
        assert!(end > 60, "{file}: the delve lasted {end} rounds");
        let mut pick = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut targets: Vec<u64> = (0..12).map(|_| pick.random_range(0..=end)).collect();
        targets.extend([0, end, 1, end - 1]);
        for k in targets {
            assert_eq!(delve_play::save::seek(world, &level, k), Some(k));
            let mut fresh = delve_play::sim::play(&level, seed, &line, k);
            let at = format!("{file}, round {k}");
            let (seeked, played) = (
                world
                    .resource::<delve_ground::log::EventLog>()
                    .to_json_lines(),
                fresh
                    .world()
                    .resource::<delve_ground::log::EventLog>()
                    .to_json_lines(),
            );
            let first = seeked.lines().zip(played.lines()).position(|(a, b)| a != b);
            let around = |log: &str| {
                let i = first.unwrap_or(0);
                log.lines()
                    .skip(i.saturating_sub(4))
                    .take(10)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            assert!(
                seeked == played,
                "{at}: the log differs at line {first:?}:\n{:#?}\nagainst\n{:#?}",
                around(&seeked),
                around(&played),
            );
            assert_eq!(
                world.resource::<delve_rules::command::Journal>(),
                fresh.world().resource::<delve_rules::command::Journal>(),
                "{at}: the journal"
            );
            let differ = delve_rules::state::differences(world, fresh.world_mut());
            assert!(differ.is_empty(), "{at}: {differ:#?}");
        }
    }
}

/// Every component and resource declared in the crate's source is kept or named as not the
/// delve's state — those registered only when first used too (a world that never used them
/// does not know them: [`every_piece_of_delve_state_is_kept`] cannot see them).
#[test]
fn every_component_and_resource_in_the_source_is_kept() {
    let level = sample("levels/crypt.ron");
    let app = delve_play::sim::sim_app(&level, 1);
    let names: Vec<&str> = delve_rules::state::kept_and_not_state(app.world())
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert!(names.contains(&"delve_ground::time::Clock"), "{names:?}");
    let short = |n: &str| {
        let bare = n.split('<').next().unwrap_or(n);
        bare.rsplit("::").next().unwrap_or(bare).to_owned()
    };
    let known: std::collections::BTreeSet<String> = names.iter().map(|n| short(n)).collect();
    let mut missing = Vec::new();
    let mut files = vec![
        std::path::PathBuf::from("src"),
        std::path::PathBuf::from("crates"),
    ];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Up to the unit tests, whose components are the tests' own.
        let text = text.split("#[cfg(test)]").next().unwrap();
        let mut derives = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[derive(") {
                derives = line.contains("Component") || line.contains("Resource");
                continue;
            }
            if derives && !line.starts_with("#[") && !line.starts_with("///") {
                let name = line
                    .split_whitespace()
                    .skip_while(|w| !matches!(*w, "struct" | "enum"))
                    .nth(1)
                    .map(|w| w.split(['(', '<', ';', '{']).next().unwrap().to_owned());
                if let Some(name) = name
                    && !known.contains(&name)
                {
                    missing.push(format!("{}: {name}", path.display()));
                }
                derives = false;
            }
        }
    }
    assert!(missing.is_empty(), "not kept: {missing:#?}");
}

/// A journal keeps the check of every turn; replaying it with one die changed stops at the
/// first turn that went another way and names the first event that differs — the first event
/// where the replay's log leaves the journal's delve's.
#[test]
fn a_replay_with_one_die_changed_stops_at_the_first_event_that_differs() {
    use delve_play::sim::{JournalFile, Playing, check_turn, run_round};
    use delve_rules::command::{Script, give_due};
    let level = sample("levels/crypt.ron");
    let policy = delve_ground::party_policy::PartyPolicy::default();
    let playing = Playing {
        policy: Some(&policy),
        keyframes: true,
        ..Playing::default()
    };
    let (original, _) = playing.play(&level, 6, 300, |_| {});
    let journal = JournalFile::of(original.world());
    let played = original
        .world()
        .resource::<delve_ground::time::Clock>()
        .rounds;
    assert_eq!(journal.checks.len() as u64, played / 10, "a check a turn");
    let original_log: Vec<String> = original
        .world()
        .resource::<delve_ground::log::EventLog>()
        .entries()
        .iter()
        .map(|e| e.to_json())
        .collect();

    // The journal read back from its file is the same journal.
    let text = delve_play::sim::journal_script(original.world());
    assert_eq!(JournalFile::from_text(&text).unwrap(), journal);

    // Unchanged, the replay keeps to every check.
    let replaying = Playing {
        script: &journal.commands,
        checks: &journal.checks,
        ..Playing::default()
    };
    let (_, went) = replaying.play(&level, 6, played, |_| {});
    assert_eq!(went, None);

    // One die changed at the first round from 40 on with a d20 thrown in the open: the next
    // die thrown shows another face.
    let tampered_at = original
        .world()
        .resource::<delve_ground::log::EventLog>()
        .entries()
        .iter()
        .find(|e| e.round >= 40 && !e.event().secret() && e.to_string().contains(": d20 "))
        .expect("a d20 thrown from round 40 on")
        .round;
    for face in [1, 20] {
        let mut app = delve_play::sim::sim_app(&level, 6);
        let world = app.world_mut();
        delve_play::keyframe::keep(world, 10);
        world.insert_resource(Script::new(&journal.commands));
        let mut went = None;
        for round in 0..played {
            if round == tampered_at {
                world
                    .resource_mut::<delve_ground::dice::Dice>()
                    .script([face]);
            }
            give_due(world);
            run_round(world);
            let now = round + 1;
            if now % 10 == 0
                && let Err(w) = check_turn(world, &journal.checks[(now / 10 - 1) as usize])
            {
                went = Some(w);
                break;
            }
        }
        let log = world.resource::<delve_ground::log::EventLog>().entries();
        let first = log
            .iter()
            .zip(&original_log)
            .position(|(e, o)| e.to_json() != *o);
        let Some(first) = first else {
            // The die came up as it would have: no event went another way. The dice stand
            // elsewhere in their stream all the same (a scripted face draws nothing from it),
            // which the turn's check may tell as its state.
            assert!(
                went.as_ref()
                    .is_none_or(|w| w.what == delve_rules::turn_check::Differs::State),
                "face {face}: {went:?}"
            );
            continue;
        };
        let went = went.expect("the replay went another way and said so");
        assert!(log[first].round >= tampered_at);
        assert_eq!(went.round, log[first].round, "face {face}: {went}");
        assert_eq!(went.turn, log[first].round / 10 + 1);
        assert_eq!(
            went.what,
            delve_rules::turn_check::Differs::Event {
                index: first - log.partition_point(|e| e.round < (went.turn - 1) * 10),
                event: log[first].event().to_string(),
            },
            "{went}"
        );
        assert!(
            went.to_string()
                .starts_with("the delve went another way at [h"),
            "{went}"
        );
        return;
    }
    panic!("neither face changed the delve");
}

/// A fork from round k of a lab's delve (the party handed back at k, and ordered on) keeps the
/// rounds before k byte-identical — the log and the journal — and keeps the line it left.
#[test]
fn a_fork_keeps_the_rounds_before_it_byte_identical() {
    use delve_play::sim::Playing;
    let level = sample("levels/crypt.ron");
    let policy = delve_ground::party_policy::PartyPolicy::default();
    let playing = Playing {
        policy: Some(&policy),
        keyframes: true,
        ..Playing::default()
    };
    let (mut app, _) = playing.play(&level, 2, 400, |_| {});
    let world = app.world_mut();
    let before: Vec<String> = world
        .resource::<delve_ground::log::EventLog>()
        .entries()
        .iter()
        .map(|e| e.to_json())
        .collect();
    let line = world
        .resource::<delve_play::keyframe::Keyframes>()
        .line()
        .to_vec();
    let k = 57;
    delve_play::save::seek(world, &level, k);
    delve_play::sim::give(
        world,
        delve_rules::rules::party::Autonomy {
            party: "party".into(),
            policy: None,
        },
    );
    delve_play::sim::give(
        world,
        delve_rules::command::Command::Rest(delve_rules::command::acts::Rest {
            who: "Brannoc".into(),
        }),
    );
    delve_play::sim::run_rounds(world, 20);
    let after: Vec<String> = world
        .resource::<delve_ground::log::EventLog>()
        .entries()
        .iter()
        .map(|e| e.to_json())
        .collect();
    let rounds_of = |log: &[String]| -> Vec<String> {
        log.iter()
            .filter(|l| {
                let round: u64 = l[9..].split(',').next().unwrap().parse().unwrap();
                round < k
            })
            .cloned()
            .collect()
    };
    assert_eq!(rounds_of(&after), rounds_of(&before));
    assert_ne!(after, before[..after.len().min(before.len())].to_vec());
    let journal = &world.resource::<delve_rules::command::Journal>().0;
    let kept = line.iter().filter(|c| c.round < k).count();
    assert_eq!(journal[..kept], line[..kept]);
    let frames = world.resource::<delve_play::keyframe::Keyframes>();
    assert_eq!(frames.left().len(), 1);
    assert_eq!(frames.left()[0], (k, line));
    assert_eq!(frames.end(), k + 20);
}

/// The checks name creatures, not entities: a world that numbers its entities otherwise (the
/// window's, with its own entities spawned first and some gone) checks the same delve the same.
#[test]
fn the_checks_are_the_same_in_a_world_that_numbers_entities_otherwise() {
    let level = sample("levels/crypt.ron");
    let policy = delve_ground::party_policy::PartyPolicy::default();
    let playing = delve_play::sim::Playing {
        policy: Some(&policy),
        keyframes: true,
        ..Default::default()
    };
    let (headless, _) = playing.play(&level, 8, 200, |_| {});
    let mut app = numbered_otherwise(&level, 40);
    let went = playing.play_in(app.world_mut(), 200, |_| {});
    assert_eq!(went, None);
    let (a, b) = (
        delve_play::sim::JournalFile::of(headless.world()),
        delve_play::sim::JournalFile::of(app.world()),
    );
    assert!(!a.checks.is_empty());
    assert_eq!(a.checks, b.checks);
    // Compared turn by turn as it plays, too.
    let replaying = delve_play::sim::Playing {
        script: &a.commands,
        checks: &a.checks,
        ..Default::default()
    };
    let mut app = numbered_otherwise(&level, 7);
    let rounds = headless
        .world()
        .resource::<delve_ground::time::Clock>()
        .rounds;
    assert_eq!(replaying.play_in(app.world_mut(), rounds, |_| {}), None);
}

/// A world keeping keyframes with `others` entities of its own spawned before the level (every
/// third gone again), the level installed with seed 8: its entities numbered otherwise.
fn numbered_otherwise(level: &delve_ground::level::Level, others: usize) -> bevy::prelude::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        delve_play::plugins::SimPlugins::with(level.modules),
    ));
    let world = app.world_mut();
    let spawned: Vec<Entity> = (0..others).map(|_| world.spawn_empty().id()).collect();
    for e in spawned.iter().step_by(3) {
        world.despawn(*e);
    }
    world.insert_resource(delve_play::keyframe::Keyframes::default());
    delve_play::sim::install_level(world, level, 8);
    app
}
