//! Saving, loading and taking back: a delve is its level, its seed and its journal (DESIGN.md ›
//! Principles: commands in, typed events out), so that is what a save holds, and loading replays
//! it to the same world and the same log. Undo replays the journal to an earlier round, from
//! the nearest keyframe before it when the world keeps them (`crate::keyframe`).
//!
//! A save holds the level's text and the bestiary files it names (so it loads as it was, whatever
//! becomes of the files), their fingerprint (to tell the Judge the level file has changed since),
//! the seed, the rounds played and the journal — every command given from outside, Judge
//! modifiers and rule switches among them. Saves are RON, versioned ([`SAVE_VERSION`]), and
//! written atomically: a temporary file beside the save, then a rename, so a failure midway never
//! loses the save that was there.

use crate::keyframe::Keyframes;
use crate::sim::{JournalFile, Playing};
use delve_ground::dice::Dice;
use delve_ground::level::schema::Modules;
use delve_rules::rules::modules::RunningModules;
use delve_rules::turn_check::{Divergence, TurnCheck};

use std::io::Write;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::keyframe::History;
use crate::sim::run_round;
use delve_ground::level::{Diagnostics, Level, LevelText};
use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_rules::command::{Journal, Script, ScriptedCommand, give_due, give_due_between_rounds};

/// The version of the save format this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// What a save holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Save {
    /// The save format's version ([`SAVE_VERSION`] when written by this build).
    pub version: u32,
    /// The level's fingerprint ([`LevelText::fingerprint`]) when it was saved.
    pub fingerprint: String,
    pub seed: u64,
    /// Rounds played (at most [`delve_ground::time::MAX_ROUNDS`]).
    #[serde(deserialize_with = "delve_ground::time::bounded_round")]
    pub rounds: u64,
    /// The optional rule modules it started with (the level's, or as the command line switched
    /// them); the Judge's switches since are in the journal.
    #[serde(default)]
    pub modules: Modules,
    /// Every command given from outside, with its round.
    pub journal: Vec<ScriptedCommand>,
    /// The check of every turn played (`delve_rules::turn_check`): loading replays the journal and
    /// says where it went another way.
    #[serde(default)]
    pub checks: Vec<TurnCheck>,
    /// The level as it was.
    pub level: LevelText,
}

/// Just the version, read first so that a save of another version says so rather than failing
/// on a field it does not know.
#[derive(Deserialize)]
struct Versioned {
    version: u32,
}

/// Why a save could not be written or read. Nothing in the delve changes when it fails.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SaveError {
    #[error("{path}: cannot read the save: {error}")]
    Unreadable { path: String, error: String },
    #[error("{path}: cannot write the save: {error} (the save that was there, if any, is kept)")]
    Unwritable { path: String, error: String },
    #[error(
        "{path}:{line}:{col}: the save is cut short: the file ends before the save does (was it copied or written only in part?)"
    )]
    CutShort {
        path: String,
        line: usize,
        col: usize,
    },
    #[error("{path}:{line}:{col}: not a delve save: {message}")]
    NotASave {
        path: String,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("{path}: a save of version {found}; this delve reads saves of version {reads}")]
    OtherVersion {
        path: String,
        found: u32,
        reads: u32,
    },
    #[error("the level kept in the save does not load:\n{0}")]
    BrokenLevel(String),
}

impl Save {
    /// The delve in `world`, played on `level`.
    pub fn of(world: &World, level: &LevelText) -> Save {
        Save {
            version: SAVE_VERSION,
            fingerprint: level.fingerprint(),
            seed: world.resource::<Dice>().seed(),
            rounds: world.resource::<Clock>().rounds,
            modules: world
                .get_resource::<RunningModules>()
                .map_or_else(Default::default, |m| m.started),
            journal: world.resource::<Journal>().0.clone(),
            checks: JournalFile::of(world).checks,
            level: level.clone(),
        }
    }

    /// The save as the text of its file.
    pub fn to_text(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .extensions(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        let body = ron::ser::to_string_pretty(self, pretty).expect("a save serializes");
        format!(
            "// A delve save (version {SAVE_VERSION}) of {}: `delve --load THIS_FILE` goes on from it.\n{body}\n",
            self.level.file
        )
    }

    /// Reads a save from its text; `path` names it in messages.
    pub fn from_text(text: &str, path: &str) -> Result<Save, SaveError> {
        let options = delve_rules::command::script_options();
        let located =
            |e: &ron::error::SpannedError| (e.span.start.line.max(1), e.span.start.col.max(1));
        match options.from_str::<Versioned>(text) {
            Ok(v) if v.version != SAVE_VERSION => {
                return Err(SaveError::OtherVersion {
                    path: path.to_owned(),
                    found: v.version,
                    reads: SAVE_VERSION,
                });
            }
            _ => {}
        }
        // The numbers of its commands are held to a level's bound, as a script's are.
        let (from, to) = match text.contains("journal:") {
            true => crate::sim::commands_span(text, "journal:"),
            false => (0, 0),
        };
        if let Some(d) =
            delve_ground::level::numbers_out_of_bounds_within(text, from, to, path).first()
        {
            return Err(SaveError::NotASave {
                path: path.to_owned(),
                line: d.line,
                col: d.col,
                message: d.message.clone(),
            });
        }
        options.from_str::<Save>(text).map_err(|e| {
            let (line, col) = located(&e);
            // The file ends where the save is still open: in a string, a list, a struct.
            let open_at_the_end =
                !text.trim_end().ends_with(')') && e.span.end.line >= text.lines().count();
            if matches!(e.code, ron::Error::Eof | ron::Error::ExpectedStringEnd) || open_at_the_end
            {
                SaveError::CutShort {
                    path: path.to_owned(),
                    line,
                    col,
                }
            } else {
                SaveError::NotASave {
                    path: path.to_owned(),
                    line,
                    col,
                    message: e.code.to_string(),
                }
            }
        })
    }

    /// Reads a save file.
    pub fn read(path: &Path) -> Result<Save, SaveError> {
        let name = path.display().to_string();
        let text = delve_ground::files::read_text(path).map_err(|e| SaveError::Unreadable {
            path: name.clone(),
            error: e.to_string(),
        })?;
        Save::from_text(&text, &name)
    }

    /// Writes the save to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        write_atomic(path, self.to_text().as_bytes())
    }

    /// The level kept in the save, with the rule modules it ran with.
    pub fn load_level(&self) -> Result<Level, SaveError> {
        // Its errors are at lines of the copy in the save, not of the file on disk: named so.
        let kept = LevelText {
            file: format!("{} (the copy kept in the save)", self.level.file),
            ..self.level.clone()
        };
        let mut level = kept
            .load()
            .map(|l| l.level)
            .map_err(|d: Diagnostics| SaveError::BrokenLevel(d.to_string()))?;
        level.modules = self.modules;
        Ok(level)
    }

    /// Has the level file changed since the save? `now` is the level as it reads now.
    pub fn level_changed(&self, now: &LevelText) -> bool {
        now.fingerprint() != self.fingerprint
    }

    /// If the level file the save was made of has changed since (or cannot be read), says so.
    /// The built-in level is embedded: where its file is not at hand (the window opened on it
    /// from another folder), the save is compared with the built-in level itself.
    pub fn level_file_changed(&self) -> Option<String> {
        let file = &self.level.file;
        let now = match LevelText::read(Path::new(file)) {
            Ok(now) => now,
            Err(_) if file == delve_ground::level::DEFAULT_LEVEL_NAME => LevelText::default_level(),
            Err(_) => return Some(format!("the level file {file} cannot be read any more")),
        };
        self.level_changed(&now)
            .then(|| format!("the level file {file} has changed since the save"))
    }

    /// Replays the save into `world` (one that runs the simulation): its level installed anew,
    /// then its journal played to the round it was saved at. Where a turn went another way than
    /// its check (an edited save, another build), says where; the delve is then as replayed.
    pub fn restore_into(&self, world: &mut World, level: &Level) -> Option<Divergence> {
        replay_checked_into(
            world,
            level,
            self.seed,
            &self.journal,
            self.rounds,
            &self.checks,
        )
    }
}

/// Installs `level` anew in `world` with `seed`, and plays `rounds` rounds giving each command of
/// `journal` at its round: the delve as it was after those rounds, the same log included.
pub fn replay_into(
    world: &mut World,
    level: &Level,
    seed: u64,
    journal: &[ScriptedCommand],
    rounds: u64,
) {
    replay_checked_into(world, level, seed, journal, rounds, &[]);
}

/// [`replay_into`], comparing every turn with its check in `checks` (when the world keeps
/// keyframes, which work the checks out): the first turn that went another way is told, and
/// the replay goes on to `rounds` all the same.
pub fn replay_checked_into(
    world: &mut World,
    level: &Level,
    seed: u64,
    journal: &[ScriptedCommand],
    rounds: u64,
    checks: &[TurnCheck],
) -> Option<Divergence> {
    crate::sim::install_level(world, level, seed);
    let playing = Playing {
        script: journal,
        checks,
        go_on: true,
        ..Default::default()
    };
    playing.play_in(world, rounds, |_| {})
}

/// Brings the delve in `world` to `round` as `journal` plays it: from the latest keyframe at or
/// before `round` on the line of `journal` (`crate::keyframe`), the keyframe restored and the
/// rounds after it played with the journal's commands at their rounds; the world is as
/// [`replay_into`] would leave it, log and journal included. Without a keyframe to start from,
/// replays from the start of the delve (`level`, `seed`).
pub fn replay_to(
    world: &mut World,
    level: &Level,
    seed: u64,
    journal: &[ScriptedCommand],
    round: u64,
) {
    let Some((from, given)) = crate::keyframe::restore_latest(world, journal, round) else {
        replay_into(world, level, seed, journal, round);
        return;
    };
    world.insert_resource(Script::new(&journal[given..]));
    for _ in from..round {
        give_due(world);
        run_round(world);
    }
    give_due_between_rounds(world);
    world.insert_resource(Script::default());
}

/// Goes to `round` along the line the keyframes were taken on (no further than its end): the
/// timeline's scrubbing. Returns the round it came to, or `None` when the world keeps no
/// keyframes.
pub fn seek(world: &mut World, level: &Level, round: u64) -> Option<u64> {
    let frames = world.get_resource::<Keyframes>()?;
    let to = round.min(frames.end());
    let line = frames.line().to_vec();
    let seed = world.resource::<Dice>().seed();
    replay_to(world, level, seed, &line, to);
    Some(to)
}

/// Writes `bytes` to `path` whole or not at all ([`delve_ground::files::write_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    write_atomic_with(path, bytes, |p| std::fs::File::create(p))
}

/// [`write_atomic`], opening the temporary file with `open` (tests give one that fails).
pub fn write_atomic_with<W: Write>(
    path: &Path,
    bytes: &[u8],
    open: impl FnOnce(&Path) -> std::io::Result<W>,
) -> Result<(), SaveError> {
    delve_ground::files::write_atomic_with(path, bytes, open).map_err(|e| SaveError::Unwritable {
        path: path.display().to_string(),
        error: e.to_string(),
    })
}

/// The autosaves kept: the newest replaces the oldest.
pub const AUTOSAVES: u64 = 3;

/// The file of the autosave for turn `turn` in `dir`: `autosave-0.ron` … `autosave-2.ron`, in
/// turn.
pub fn autosave_path(dir: &Path, turn: u64) -> PathBuf {
    dir.join(format!("autosave-{}.ron", turn % AUTOSAVES))
}

/// How far back Undo goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Round,
    Turn,
}

/// The round Undo goes back to from `rounds`: one round back, or back to the start of the turn
/// (the one before, at a turn's start).
pub fn undo_target(rounds: u64, step: Step) -> u64 {
    match step {
        Step::Round => rounds.saturating_sub(1),
        Step::Turn => rounds.saturating_sub(1) / ROUNDS_PER_TURN * ROUNDS_PER_TURN,
    }
}

/// Takes back a round or a turn: the delve replayed from its start to the earlier round, without
/// the commands given since. Returns the round it went back to, or `None` at the start.
pub fn undo(world: &mut World, level: &Level, step: Step) -> Option<u64> {
    let rounds = world.resource::<Clock>().rounds;
    let journal = world.resource::<Journal>().0.clone();
    // The Judge's hand since the last round is taken back first, one command at a time.
    let judged_now = journal
        .last()
        .is_some_and(|c| c.between_rounds && c.round == rounds);
    if rounds == 0 && !judged_now {
        return None;
    }
    let to = if judged_now {
        rounds
    } else {
        undo_target(rounds, step)
    };
    let seed = world.resource::<Dice>().seed();
    let mut history = world.remove_resource::<History>().unwrap_or_default();
    if history.still_undone(world).is_none() {
        history.undone = Some((journal.clone(), rounds));
    }
    let kept: Vec<ScriptedCommand> = if judged_now {
        journal[..journal.len() - 1].to_vec()
    } else {
        journal.into_iter().filter(|c| c.round < to).collect()
    };
    replay_to(world, level, seed, &kept, to);
    world.insert_resource(history);
    Some(to)
}

/// Gives back what was undone, a round or a turn at a time, up to where the first undo was made.
/// Returns the round it came to, or `None` if there is nothing to redo.
pub fn redo(world: &mut World, level: &Level, step: Step) -> Option<u64> {
    let mut history = world.remove_resource::<History>().unwrap_or_default();
    let Some((journal, last)) = history.still_undone(world) else {
        world.insert_resource(history);
        return None;
    };
    let rounds = world.resource::<Clock>().rounds;
    let journal_now = world.resource::<Journal>().0.len();
    let to = match step {
        Step::Round => rounds + 1,
        Step::Turn => (rounds / ROUNDS_PER_TURN + 1) * ROUNDS_PER_TURN,
    }
    .min(last);
    let seed = world.resource::<Dice>().seed();
    let kept: Vec<ScriptedCommand> = if to == rounds {
        // At the last round already: the Judge's commands taken back, one at a time.
        journal[..(journal_now + 1).min(journal.len())].to_vec()
    } else if to == last {
        journal.clone()
    } else {
        journal.iter().filter(|c| c.round < to).cloned().collect()
    };
    replay_to(world, level, seed, &kept, to);
    let done = to >= last && kept.len() == journal.len();
    if done {
        history.undone = None;
    }
    world.insert_resource(history);
    Some(to)
}
