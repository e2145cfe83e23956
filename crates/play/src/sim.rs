//! The headless simulation: putting a level into a world, playing and replaying delves (the
//! plugins in order, the core's among them, are `crate::plugins`).
//!
//! DESIGN.md › Principles: rounds are the tick; one seeded RNG; the schedule runs on the
//! single-threaded executor with chained system sets, so the order of every draw is fixed.

use crate::keyframe::Keyframes;
use delve_ground::level::CreatureDef;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::party::DelveEnd;
use delve_rules::rules::party::Autonomy;
use delve_rules::turn_check::{Divergence, TurnCheck};

use bevy::prelude::*;

use serde::Serialize;

use crate::plugins::SimPlugins;
use delve_ground::dice::Dice;
use delve_ground::level::Level;
use delve_ground::log::EventLog;
use delve_ground::time::{Clock, DelveMode, ROUNDS_PER_TURN};
use delve_rules::act::{AnyAct, PendingCommands};
use delve_rules::command::{Journal, Script, ScriptedCommand, give_due, give_due_between_rounds};
use delve_rules::creature::{
    Abilities, ActingOrder, ArmorClass, BodySize, ClassLevel, Conditions, Creature, CreatureIndex,
    Encumbrance, Equipment, Faction, Factions, HitPoints, LevelEntity, LevelInfo, Position,
    Proficiencies, SavingThrows,
};
use delve_rules::rules::party::Parties;
use delve_rules::schedule::{DelveEvent, SimRound};

/// A headless app running `level` with dice seeded by `seed`: `MinimalPlugins` + the rule
/// plugins of the modules the level runs with.
pub fn sim_app(level: &Level, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SimPlugins::with(level.modules)));
    install_level(app.world_mut(), level, seed);
    app
}

/// Plays one round.
pub fn run_round(world: &mut World) {
    world.run_schedule(SimRound);
}

/// Plays `n` rounds.
pub fn run_rounds(world: &mut World, n: u64) {
    for _ in 0..n {
        run_round(world);
    }
}

/// Queues a command for the next round, as a player or a script gives it (it goes into the
/// journal).
pub fn give(world: &mut World, command: impl Into<AnyAct>) {
    world.resource_mut::<PendingCommands>().push(command);
}

/// Plays a delve headless: `level` with dice seeded by `seed`, each scripted command given at
/// the start of its round, for `rounds` rounds. Commands for later rounds are not given.
pub fn play(level: &Level, seed: u64, script: &[ScriptedCommand], rounds: u64) -> App {
    let playing = Playing {
        script,
        ..Playing::default()
    };
    playing.play(level, seed, rounds, |_| {}).0
}

/// Plays a delve headless with every party of the level handed to `policy` from the first
/// round (the [`delve_rules::rules::party::Autonomy`] command, journaled) and the scripted commands given
/// at their rounds, until the delve ends or `max_rounds` have been played.
pub fn play_autonomous(
    level: &Level,
    seed: u64,
    policy: &PartyPolicy,
    script: &[ScriptedCommand],
    max_rounds: u64,
) -> App {
    play_autonomous_watched(level, seed, policy, script, max_rounds, |_| {})
}

/// [`play_autonomous`], with `watch` called after every round (the lab gathers where things
/// happened this way).
pub fn play_autonomous_watched(
    level: &Level,
    seed: u64,
    policy: &PartyPolicy,
    script: &[ScriptedCommand],
    max_rounds: u64,
    watch: impl FnMut(&World),
) -> App {
    let playing = Playing {
        policy: Some(policy),
        script,
        ..Playing::default()
    };
    playing.play(level, seed, max_rounds, watch).0
}

/// How a delve is played headless ([`Playing::play`]).
#[derive(Clone, Copy, Default)]
pub struct Playing<'a> {
    /// Hand every party to this policy from the first round, and stop when the delve ends.
    pub policy: Option<&'a PartyPolicy>,
    /// The commands given at their rounds.
    pub script: &'a [ScriptedCommand],
    /// The checks of the delve the script was the journal of (`delve_rules::turn_check`): the play
    /// stops at the first turn that went another way.
    pub checks: &'a [TurnCheck],
    /// Keep keyframes (and so the checks of every turn, for a journal): `crate::keyframe`.
    pub keyframes: bool,
    /// Play on past a turn that went another way than its check (a save loaded, a delve
    /// watched): the first is told all the same.
    pub go_on: bool,
}

impl Playing<'_> {
    /// Plays `level` with dice seeded by `seed` for `rounds` rounds (fewer when the delve ends
    /// under a policy), `watch` called after every round. With checks, stops at the first turn
    /// that went another way (unless `go_on`), and says where.
    pub fn play(
        self,
        level: &Level,
        seed: u64,
        rounds: u64,
        watch: impl FnMut(&World),
    ) -> (App, Option<Divergence>) {
        let mut app = sim_app(level, seed);
        let world = app.world_mut();
        if self.keyframes || !self.checks.is_empty() {
            crate::keyframe::keep(world, ROUNDS_PER_TURN);
        }
        let went = self.play_in(world, rounds, watch);
        (app, went)
    }

    /// [`Playing::play`] in a world where the delve is installed already (the window's; a save
    /// being loaded).
    pub fn play_in(
        self,
        world: &mut World,
        rounds: u64,
        mut watch: impl FnMut(&World),
    ) -> Option<Divergence> {
        if let Some(policy) = self.policy {
            hand_parties_to(world, policy);
        }
        world.insert_resource(Script::new(self.script));
        let mut went = None;
        for _ in 0..rounds {
            give_due(world);
            run_round(world);
            watch(world);
            let now = world.resource::<delve_ground::time::Clock>().rounds;
            if went.is_none()
                && now.is_multiple_of(ROUNDS_PER_TURN)
                && let Some(expected) = self.checks.iter().find(|c| c.turn * ROUNDS_PER_TURN == now)
                && let Err(w) = check_turn(world, expected)
            {
                went = Some(w);
                if !self.go_on {
                    return went;
                }
            }
            if self.policy.is_some() && world.resource::<DelveEnd>().0.is_some() {
                break;
            }
        }
        if self.policy.is_none() {
            give_due_between_rounds(world);
        }
        // Commands kept for rounds not played are not given later.
        world.insert_resource(Script::default());
        went
    }
}

/// Compares the check of the turn that just ended in `world` (which keeps keyframes) with the
/// journal's.
pub fn check_turn(world: &World, expected: &TurnCheck) -> Result<(), Divergence> {
    let Some(frames) = world.get_resource::<Keyframes>() else {
        return Ok(());
    };
    let Some(got) = frames
        .checks_to(u64::MAX)
        .iter()
        .find(|c| c.turn == expected.turn)
    else {
        return Ok(());
    };
    let events = delve_rules::turn_check::events_of(frames.log(), expected.turn);
    delve_rules::turn_check::compare(expected, got, events)
}

/// Gives every party of the level to `policy` (a command for the next round).
pub fn hand_parties_to(world: &mut World, policy: &PartyPolicy) {
    let parties: Vec<String> = world
        .resource::<Parties>()
        .0
        .iter()
        .map(|p| p.name.clone())
        .collect();
    for party in parties {
        give(
            world,
            Autonomy {
                party,
                policy: Some(policy.clone()),
            },
        );
    }
}

/// A journal as its file holds it: the commands given, and the check of every turn played
/// (`delve_rules::turn_check`; none when the delve kept no keyframes). A bare list of commands (a
/// script written by hand, or a journal of an earlier version) reads as a journal without checks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalFile {
    /// The level file the delve was played on, its seed and the rounds played (`delve replay
    /// JOURNAL` needs no more; a script written by hand leaves them out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "delve_ground::time::bounded_round_opt"
    )]
    pub rounds: Option<u64>,
    pub commands: Vec<ScriptedCommand>,
    #[serde(default)]
    pub checks: Vec<TurnCheck>,
}

/// Where a script's commands are in its text (byte offsets): the whole of a bare list, else
/// the list after `list` (`commands:`; a save's `journal:`), to the end if it is cut short.
pub(crate) fn commands_span(text: &str, list: &str) -> (usize, usize) {
    let key = text.match_indices(list).map(|(i, _)| i).find(|&i| {
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        !text[line_start..i].contains("//")
    });
    let Some(key) = key else {
        return (0, text.len());
    };
    let Some(open) = text[key..].find('[').map(|o| key + o) else {
        return (key, text.len());
    };
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in text[open..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '(' | '{' if !in_string => depth += 1,
            ']' | ')' | '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return (open, open + i + 1);
                }
            }
            _ => {}
        }
    }
    (open, text.len())
}

impl JournalFile {
    /// Reads a journal or a command script; the error has the line and column RON gives.
    pub fn from_text(text: &str) -> Result<Self, ron::error::SpannedError> {
        let options = delve_rules::command::script_options();
        // The first thing after the comments: `[` opens a bare list.
        let bare = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("//"))
            .is_some_and(|l| l.starts_with('['));
        let read = if bare {
            options
                .from_str::<Vec<ScriptedCommand>>(text)
                .map(|commands| Self {
                    commands,
                    ..Self::default()
                })
        } else {
            options.from_str::<Self>(text)
        };
        // The numbers of the commands are held to a level's bound: a square at -2147483648
        // or hit points of -2147483648 once overflowed the rules' arithmetic.
        let read = read.and_then(|journal| {
            let (from, to) = commands_span(text, "commands:");
            match delve_ground::level::numbers_out_of_bounds_within(text, from, to, "").first() {
                Some(d) => Err(ron::error::SpannedError {
                    code: ron::Error::Message(d.message.clone()),
                    span: ron::error::Span {
                        start: ron::error::Position {
                            line: d.line,
                            col: d.col,
                        },
                        end: ron::error::Position {
                            line: d.line,
                            col: d.col,
                        },
                    },
                }),
                None => Ok(journal),
            }
        });
        read.map_err(|mut e| {
            // In a script `Some((5, 2))` reads as `Some(5, 2)` (commands are written unwrapped,
            // `Move(who: …)`, and so is what `Some` holds): say how to write it.
            let line = text.lines().nth(e.span.start.line.saturating_sub(1));
            if line.is_some_and(|l| l.contains("Some((")) {
                e.code = ron::Error::Message(format!(
                    "{}: in a script an optional value is written bare: `from: (5, 2)`, \
                     `policy: (…)`, not `Some((…))`",
                    e.code
                ));
            }
            e
        })
    }

    /// The journal of the delve in `world`, with the checks of the turns played.
    pub fn of(world: &World) -> Self {
        let rounds = world.resource::<delve_ground::time::Clock>().rounds;
        Self {
            level: Some(world.resource::<LevelInfo>().source.clone()),
            seed: Some(world.resource::<Dice>().seed()),
            rounds: Some(rounds),
            commands: world.resource::<Journal>().0.clone(),
            checks: world
                .get_resource::<Keyframes>()
                .map(|k| k.checks_to(rounds).to_vec())
                .unwrap_or_default(),
        }
    }

    /// The journal of the whole line the delve in `world` is on: back on its timeline, the
    /// rounds after the one shown too (the journal as played, whichever round is shown).
    pub fn of_line(world: &World) -> Self {
        let Some(frames) = world.get_resource::<Keyframes>() else {
            return Self::of(world);
        };
        let end = frames
            .end()
            .max(world.resource::<delve_ground::time::Clock>().rounds);
        Self {
            rounds: Some(end),
            commands: frames.line().to_vec(),
            checks: frames.checks_to(end).to_vec(),
            ..Self::of(world)
        }
    }
}

/// The journal of the line the delve is on ([`JournalFile::of_line`]) as a command script for
/// `delve sim --commands`, headed by the command line that replays it: the window writes this
/// after every round it plays (`--journal FILE`).
pub fn journal_script(world: &World) -> String {
    let source = &world.resource::<LevelInfo>().source;
    let seed = world.resource::<Dice>().seed();
    let journal = JournalFile::of_line(world);
    let rounds = journal.rounds.unwrap_or(0);
    let pretty = ron::ser::PrettyConfig::default().extensions(
        ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
            | ron::extensions::Extensions::IMPLICIT_SOME,
    );
    let body = ron::ser::to_string_pretty(&journal, pretty).expect("commands serialize");
    format!(
        "// The journal of a delve: `delve sim {source} --seed {seed} --rounds {rounds} --commands THIS_FILE`\n\
         // replays it with the same log (and stops where a turn goes another way than its check).\n{body}\n"
    )
}

/// Replays a delve from its journal: the same level, seed and journal, played for as many
/// rounds as the delve had, give the same log byte for byte (DESIGN.md › Principles: commands
/// in, typed events out).
pub fn replay(level: &Level, seed: u64, journal: &Journal, rounds: u64) -> App {
    play(level, seed, &journal.0, rounds)
}

/// Replaces whatever delve the world holds with a fresh one on `level`, seeded with `seed`:
/// resources reset, every entity of the old level despawned, the new level's spawned.
pub fn install_level(world: &mut World, level: &Level, seed: u64) {
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<LevelEntity>>()
        .iter(world)
        .collect();
    for e in old {
        world.despawn(e);
    }
    world.insert_resource(level.grid.clone());
    world.insert_resource(Factions(level.factions.clone()));
    world.insert_resource(LevelInfo {
        name: level.name.clone(),
        source: level.source.clone(),
        environment: level.environment,
        environment_regions: level.environment_regions.clone(),
    });
    world.insert_resource(Clock::default());
    world.insert_resource(DelveMode::default());
    world.insert_resource(Dice::seeded(seed));
    world.insert_resource(PendingCommands::default());
    world.insert_resource(Journal::default());
    world.insert_resource(ActingOrder::default());
    let mut log = EventLog::default();
    log.push(
        0,
        DelveEvent::DelveBegan {
            level: level.name.clone(),
            seed,
        },
    );
    world.insert_resource(log);
    // Every rule area's part, in the order the areas registered (`rules::areas`).
    delve_rules::rules::areas::install_level(world, level);
    delve_rules::rules::modules::start_modules(world, level.modules);
    let mut index = CreatureIndex::default();
    for c in &level.creatures {
        let e = world.spawn(creature_bundle(c)).id();
        index.0.insert(c.name.clone(), e);
        delve_rules::rules::areas::install_creature(world, e, c);
    }
    world.insert_resource(index);
    delve_rules::rules::areas::install_after_creatures(world, level);
    crate::keyframe::begin(world);
}

fn creature_bundle(c: &CreatureDef) -> impl Bundle {
    (
        (
            LevelEntity,
            Creature,
            Name::new(c.name.clone()),
            Position(c.at),
            Faction(c.faction),
            ClassLevel {
                class: c.class.clone(),
                level: c.level,
            },
            Abilities(c.abilities),
            HitPoints {
                current: c.hp,
                max: c.hp,
            },
            ArmorClass(c.ac),
        ),
        (
            Encumbrance(c.speed),
            Proficiencies::new(&c.proficiencies, &c.throws),
            SavingThrows(c.saves.clone()),
            Equipment(c.gear.clone()),
            Conditions::from_level(&c.conditions),
            BodySize(c.size),
        ),
    )
}
