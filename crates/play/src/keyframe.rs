//! Keyframes: the delve's state kept every turn, so that going to any round of a delve (the
//! timeline's scrubbing, undo, redo) restores the nearest keyframe before it and replays only the
//! rounds after, instead of the whole delve from its start (DESIGN.md › Principles: level + seed
//! + journal replay the delve; the keyframes only make it quick).
//!
//! What a keyframe holds is what the areas registered as their state (`delve_rules::state`): every
//! resource and every component of the level's entities that changes from round to round.
//! Going to a round (`save::replay_to`) restores the latest keyframe before it
//! ([`restore_latest`]) and plays the rounds after.
//!
//! The delve's record — its journal, its log — only grows along one line of play, so a
//! keyframe keeps how long they were; [`Keyframes`] holds them whole for the line the keyframes
//! were taken on. Giving another command than the line gave at a round (a fork) drops the
//! keyframes after that round. A resource or component that did not change since the last
//! keyframe is shared with it, not copied.

use std::sync::Arc;

use bevy::prelude::*;

use delve_ground::log::{EventLog, LogEntry};
use delve_ground::time::{Clock, ROUNDS_PER_HOUR, ROUNDS_PER_TURN};
use delve_rules::command::{Journal, ScriptedCommand};
use delve_rules::state::{Kept, forget_state, take_state};
use delve_rules::turn_check::TurnCheck;

/// The delve at one round: taken at the end of the round before it (at the start of the delve
/// for round 0), before the Judge's hand between rounds.
pub struct Keyframe {
    /// The round about to be played.
    pub round: u64,
    /// How many commands of the journal had been given.
    journal_len: usize,
    /// How long the log was.
    log_len: usize,
    state: Vec<Arc<dyn Kept>>,
}

impl Keyframe {
    /// The bytes this keyframe holds that no keyframe before it shares.
    fn own_bytes(&self, before: Option<&Keyframe>) -> usize {
        self.state
            .iter()
            .enumerate()
            .filter(|(i, s)| before.is_none_or(|b| !Arc::ptr_eq(s, &b.state[*i])))
            .map(|(_, s)| s.bytes())
            .sum::<usize>()
            + size_of::<Self>()
    }
}

/// The keyframes of the delve in a world, and the line of play they were taken on. Insert it
/// (with [`Keyframes::every`]) to have a world keep them; a world without it keeps none.
///
/// Over the last hour of the line a keyframe every `every` rounds is kept; before that, one an
/// hour (going there replays up to an hour of rounds: milliseconds, and a sixth of the memory).
#[derive(Resource)]
pub struct Keyframes {
    /// Rounds between keyframes.
    every: u64,
    frames: Vec<Keyframe>,
    /// Every command given along the line, as far as it was played.
    line: Vec<ScriptedCommand>,
    /// The log along the line, as far as it was played.
    log: Vec<LogEntry>,
    /// The check of every turn along the line, as far as it was played.
    checks: Vec<TurnCheck>,
    /// The lines left at a fork, each with the round it was left at: kept, not played.
    left: Vec<(u64, Vec<ScriptedCommand>)>,
    /// The last round played along the line.
    end: u64,
}

impl Default for Keyframes {
    fn default() -> Self {
        Self::every(ROUNDS_PER_TURN)
    }
}

impl Keyframes {
    /// Keyframes every `rounds` rounds (at least 1).
    pub fn every(rounds: u64) -> Self {
        Self {
            every: rounds.max(1),
            frames: Vec::new(),
            line: Vec::new(),
            log: Vec::new(),
            checks: Vec::new(),
            left: Vec::new(),
            end: 0,
        }
    }

    /// The lines left at a fork (a command given where the line gave another, or none), each
    /// with the round it was left at, oldest first.
    pub fn left(&self) -> &[(u64, Vec<ScriptedCommand>)] {
        &self.left
    }

    /// The checks of the turns that ended by `round` along the line (`delve_rules::turn_check`).
    pub fn checks_to(&self, round: u64) -> &[TurnCheck] {
        let n = self
            .checks
            .partition_point(|c| c.turn * ROUNDS_PER_TURN <= round);
        &self.checks[..n]
    }

    /// The rounds of the keyframes kept.
    pub fn rounds(&self) -> impl Iterator<Item = u64> + '_ {
        self.frames.iter().map(|f| f.round)
    }

    /// The last round played along the line the keyframes were taken on.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Every command given along the line, the rounds not played now included (after going
    /// back, the line still holds what came after).
    pub fn line(&self) -> &[ScriptedCommand] {
        &self.line
    }

    /// The log of the whole line.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The bytes the keyframes hold (each resource and component copied once, shared where it
    /// did not change; not counting what their values hold on the heap), and the log's entries.
    pub fn bytes(&self) -> usize {
        self.frames
            .iter()
            .enumerate()
            .map(|(i, f)| f.own_bytes(i.checked_sub(1).map(|j| &self.frames[j])))
            .sum()
    }

    /// The commands of the line given before `round`.
    fn before(&self, round: u64) -> &[ScriptedCommand] {
        let n = self.line.partition_point(|c| c.round < round);
        &self.line[..n]
    }

    /// Is the keyframe `f` on the line of `journal` (the commands it gives before its round are
    /// the line's)?
    fn on_line_of(&self, f: &Keyframe, journal: &[ScriptedCommand]) -> bool {
        journal.len() >= f.journal_len
            && journal[..f.journal_len] == self.line[..f.journal_len]
            && journal
                .get(f.journal_len)
                .is_none_or(|c| c.round >= f.round)
    }

    /// The world's journal and log at the end of a round take the line's place where they
    /// differ from it: the keyframes after the first round they differ at are dropped.
    fn follow(&mut self, journal: &[ScriptedCommand], log: &[LogEntry], rounds: u64) {
        let same = journal
            .iter()
            .zip(&self.line)
            .take_while(|(a, b)| a == b)
            .count();
        let line_before = self.before(rounds).len();
        // A command where the line gave another, a command at a round the line was played
        // past without it, or the line's commands before this round not all given: a fork.
        // (A command given at the line's end is the line going on.)
        let differs = same < journal.len().min(self.line.len());
        let added = journal.get(same).is_some_and(|c| c.round < self.end);
        if differs || added || same < line_before {
            // A fork at the round of the first command that differs.
            let at = [journal.get(same), self.line.get(same)]
                .into_iter()
                .flatten()
                .map(|c| c.round)
                .min()
                .unwrap_or(rounds);
            self.frames.retain(|f| f.round <= at);
            let left = std::mem::replace(&mut self.line, journal.to_vec());
            self.left.push((at, left));
            let kept = self.frames.last().map_or(0, |f| f.log_len);
            self.log.truncate(kept);
            self.end = self.frames.last().map_or(0, |f| f.round);
            let end = self.end;
            self.checks.retain(|c| c.turn * ROUNDS_PER_TURN <= end);
        } else if journal.len() > self.line.len() {
            self.line = journal.to_vec();
        }
        if log.len() > self.log.len() {
            self.log.extend(log[self.log.len()..].iter().cloned());
        }
        self.end = self.end.max(rounds);
    }
}

impl Keyframes {
    /// Works out the check of turn `turn`, which ends with the log `log_len` long and the
    /// world in `world`.
    fn check(&mut self, turn: u64, log_len: usize, world: &World) {
        let events = delve_rules::turn_check::events_of(&self.log[..log_len], turn);
        let state = delve_rules::turn_check::state_of(world);
        let check = delve_rules::turn_check::check(self.checks.last(), turn, events, &state);
        self.checks.push(check);
    }
}

/// Takes a keyframe of the world if it keeps them and one is due: at every `every`-th round
/// (the end of a turn, by default), once per round along the line. In `SimRound` after the
/// clock, and when a level is installed.
pub fn take_keyframe(world: &mut World) {
    let Some(mut frames) = world.remove_resource::<Keyframes>() else {
        return;
    };
    let rounds = world.resource::<Clock>().rounds;
    let journal = world.resource::<Journal>();
    frames.follow(&journal.0, world.resource::<EventLog>().entries(), rounds);
    let due = rounds.is_multiple_of(frames.every)
        && frames.frames.last().is_none_or(|f| f.round < rounds);
    // At a turn's end, its check, when the checks before it are all there.
    let turn = rounds / ROUNDS_PER_TURN;
    let checked = rounds > 0
        && rounds.is_multiple_of(ROUNDS_PER_TURN)
        && frames.checks.len() as u64 == turn - 1;
    if checked {
        let log_len = world.resource::<EventLog>().len();
        frames.check(turn, log_len, world);
    }
    if due {
        let frame = take(world);
        frames.frames.push(frame);
        // Older than an hour: one an hour.
        let recent = rounds.saturating_sub(ROUNDS_PER_HOUR);
        frames
            .frames
            .retain(|f| f.round >= recent || f.round.is_multiple_of(ROUNDS_PER_HOUR));
    }
    world.insert_resource(frames);
}

fn take(world: &mut World) -> Keyframe {
    let state = take_state(world);
    Keyframe {
        round: world.resource::<Clock>().rounds,
        journal_len: world.resource::<Journal>().0.len(),
        log_len: world.resource::<EventLog>().len(),
        state,
    }
}

/// A new delve in the world: the keyframes of the old one are gone, and the new one's first
/// keyframe is taken (when the world keeps keyframes).
pub(crate) fn begin(world: &mut World) {
    if let Some(mut frames) = world.get_resource_mut::<Keyframes>() {
        let every = frames.every;
        *frames = Keyframes::every(every);
    }
    forget_state(world);
    take_keyframe(world);
}

/// Puts back the latest keyframe at or before `round` on the line of `journal`, with the
/// journal and the log as they were then: the round it is at, and how many of the journal's
/// commands were given by then. `None` (and the world unchanged) when the world keeps no
/// keyframes or none is on that line (`save::replay_to` then replays from the start).
pub fn restore_latest(
    world: &mut World,
    journal: &[ScriptedCommand],
    round: u64,
) -> Option<(u64, usize)> {
    let frames = world.remove_resource::<Keyframes>()?;
    let start = frames
        .frames
        .iter()
        .rposition(|f| f.round <= round && frames.on_line_of(f, journal));
    let Some(start) = start else {
        world.insert_resource(frames);
        return None;
    };
    let frame = &frames.frames[start];
    for kept in &frame.state {
        kept.restore(world);
    }
    world.insert_resource(Journal(journal[..frame.journal_len].to_vec()));
    world.insert_resource(EventLog::from_entries(frames.log[..frame.log_len].to_vec()));
    let restored = (frame.round, frame.journal_len);
    world.insert_resource(frames);
    Some(restored)
}

/// Has `world` keep keyframes every `every` rounds from now on, the first taken now (a world
/// keeps none unless asked: the lab's delves do without).
pub fn keep(world: &mut World, every: u64) {
    world.insert_resource(Keyframes::every(every));
    take_keyframe(world);
}

/// Undo and redo (`save::undo`, `save::redo`) replay the journal: what was taken back, until a
/// new command is given.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// The journal and rounds before the first undo since the last command: redo replays toward
    /// them.
    pub(crate) undone: Option<(Vec<ScriptedCommand>, u64)>,
}

impl History {
    /// Can anything be redone?
    pub fn can_redo(&self) -> bool {
        self.undone.is_some()
    }

    /// What was undone, if the delve is still on its way back toward it: the journal so far is
    /// the undone one up to this round. A command given since an undo (or a delve loaded) makes
    /// it gone.
    pub(crate) fn still_undone(&mut self, world: &World) -> Option<(Vec<ScriptedCommand>, u64)> {
        let rounds = world.resource::<Clock>().rounds;
        let journal = &world.resource::<Journal>().0;
        // The journal so far is the undone one's beginning, and nothing the undone one gave
        // before this round is missing from it.
        let on_the_way = self.undone.as_ref().is_some_and(|(undone, last)| {
            rounds <= *last
                && undone.starts_with(journal)
                && undone[journal.len()..].iter().all(|c| c.round >= rounds)
        });
        if !on_the_way {
            self.undone = None;
        }
        self.undone.clone()
    }
}
