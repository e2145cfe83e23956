//! Turn checks: at the end of every turn, a hash of the delve so far — the check before it, every
//! event of the turn, and the state at its end as a world of any maker holds it (where the dice's
//! stream stands; each creature by name: its square, hit points and conditions) — with a hash of
//! each of the turn's events. (The state is read by names, not by entities: the window's world
//! and a headless one number their entities differently.) The journal keeps them; a
//! replay works them out again and, at the first turn whose check differs, stops and names the
//! first event that went another way, instead of drifting on silently (DESIGN.md › Principles:
//! same level + seed + commands ⇒ the same log).

use crate::creature::CreatureIndex;
use delve_ground::dice::Dice;

use serde::{Deserialize, Serialize};

use delve_ground::log::LogEntry;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};

/// The check of one turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnCheck {
    /// The turn that ended (1 for the first).
    pub turn: u64,
    /// The hash of the delve to the end of the turn (16 hexadecimal digits).
    pub hash: String,
    /// A hash of each event of the turn, in order ([`LogEntry::digest`]).
    pub events: Vec<u32>,
}

/// The events of turn `turn` in a log (in round order): those of its ten rounds.
pub fn events_of(log: &[LogEntry], turn: u64) -> &[LogEntry] {
    let from = (turn - 1) * ROUNDS_PER_TURN;
    let start = log.partition_point(|e| e.round < from);
    let end = log.partition_point(|e| e.round < from + ROUNDS_PER_TURN);
    &log[start..end]
}

/// The state of the delve in `world` that a check hashes, in words: where the dice's stream
/// stands, and each creature by name with its square, hit points and conditions.
pub fn state_of(world: &bevy::prelude::World) -> String {
    use crate::creature::{Conditions, HitPoints, Position};
    let mut words = format!("{:?}", world.resource::<Dice>().position());
    for (name, e) in &world.resource::<CreatureIndex>().0 {
        let at = world.get::<Position>(*e).map(|p| p.0);
        let hp = world.get::<HitPoints>(*e).map(|h| (h.current, h.max));
        let conditions = world.get::<Conditions>(*e);
        words.push_str(&format!("|{name} {at:?} {hp:?} {conditions:?}"));
    }
    words
}

/// The check of turn `turn`: after `previous` (the turn before's; none for the first), with the
/// turn's `events` and the `state` at its end ([`state_of`]).
pub fn check(
    previous: Option<&TurnCheck>,
    turn: u64,
    events: &[LogEntry],
    state: &str,
) -> TurnCheck {
    let mut h = blake3::Hasher::new();
    h.update(previous.map_or("", |p| p.hash.as_str()).as_bytes());
    let events: Vec<u32> = events.iter().map(LogEntry::digest).collect();
    for e in &events {
        h.update(&e.to_le_bytes());
    }
    h.update(state.as_bytes());
    let hash = h.finalize();
    TurnCheck {
        turn,
        hash: hash.to_hex()[..16].to_owned(),
        events,
    }
}

/// Where a replay went another way than the delve its journal was written by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The turn whose check differed.
    pub turn: u64,
    /// The round of the first event that differs (the turn's last round when every event was
    /// the same but the state at its end was not).
    pub round: u64,
    /// What differs.
    pub what: Differs,
}

/// What of a turn differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Differs {
    /// The replay logged this event where the journal's delve logged another (its index in the
    /// turn's events).
    Event { index: usize, event: String },
    /// The replay's turn ended before the journal's: it logged fewer events.
    Missing { index: usize },
    /// Every event the same, but not the state at the turn's end.
    State,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = Clock { rounds: self.round };
        let at = format!(
            "[h{} t{} r{}]",
            c.hours(),
            c.turn_of_hour(),
            c.round_of_turn()
        );
        match &self.what {
            Differs::Event { index, event } => write!(
                f,
                "the delve went another way at {at}: {event} (event {} of turn {}; the journal's delve logged another there)",
                index + 1,
                self.turn
            ),
            Differs::Missing { index } => write!(
                f,
                "the delve went another way at {at}: the journal's delve logged more in turn {} (from its event {} on)",
                self.turn,
                index + 1
            ),
            Differs::State => write!(
                f,
                "the delve went another way at {at}: every event of turn {} is the same, but not the state at its end",
                self.turn
            ),
        }
    }
}

/// Compares a replayed turn's check with the journal's; `events` are the replay's events of the
/// turn.
pub fn compare(
    expected: &TurnCheck,
    got: &TurnCheck,
    events: &[LogEntry],
) -> Result<(), Divergence> {
    if expected == got {
        return Ok(());
    }
    let last = expected.turn * ROUNDS_PER_TURN - 1;
    let first = expected
        .events
        .iter()
        .zip(&got.events)
        .position(|(a, b)| a != b);
    let what = match first {
        Some(index) => Differs::Event {
            index,
            event: events[index].event().to_string(),
        },
        None if got.events.len() > expected.events.len() => Differs::Event {
            index: expected.events.len(),
            event: events[expected.events.len()].event().to_string(),
        },
        None if got.events.len() < expected.events.len() => Differs::Missing {
            index: got.events.len(),
        },
        None => Differs::State,
    };
    let round = match &what {
        Differs::Event { index, .. } => events[*index].round,
        _ => last,
    };
    Err(Divergence {
        turn: expected.turn,
        round,
        what,
    })
}
