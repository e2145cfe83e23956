//! What walking and running put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use super::speeds::Pace;
use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

/// Dungeon Delves › Speed and Distance: a creature's walk, round by round.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MovementEvent {
    /// A creature set off on a walk of `feet` by the shortest path.
    WalkBegun {
        who: String,
        to: GridPos,
        pace: Pace,
        feet: u32,
    },
    /// A creature walked this round.
    Moved {
        who: String,
        from: GridPos,
        to: GridPos,
        feet: u32,
    },
    /// A creature reached the end of its walk.
    Arrived { who: String, at: GridPos },
    /// A creature stopped short of its destination.
    Halted {
        who: String,
        at: GridPos,
        #[serde(serialize_with = "in_words")]
        reason: HaltReason,
    },
}

/// Why a walk stopped short of its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaltReason {
    /// Dungeon Delves › Running: a winded creature cannot run.
    Winded,
    /// It fell prone half-way (a failed save for difficult terrain, running).
    FellProne,
    /// The square ahead cannot be entered (a wall, a closed door).
    Blocked { at: GridPos },
    /// Someone stands on the square ahead: a foe, or anyone on the square it would end on.
    Occupied { at: GridPos },
    /// A hole it knows of lies ahead (RULINGS › Pits and holes): it stops at the edge.
    Hole { at: GridPos },
    /// A trap it has come to know of since it set off lies ahead, with no room to step around:
    /// it stops, so that whoever commands it decides (disarm it, or cross at its chance).
    Trap { at: GridPos },
    /// A hidden trap on its way, noticed this round by a thief's search while exploring: it
    /// stops short of it (Dungeon Delves › Searching: "he notices it before triggering it").
    Noticed { at: GridPos },
}

impl fmt::Display for HaltReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HaltReason::Winded => write!(f, "winded: it cannot run"),
            HaltReason::FellProne => write!(f, "fell prone half-way"),
            HaltReason::Blocked { at } => write!(f, "{at} is blocked"),
            HaltReason::Occupied { at } => write!(f, "someone stands at {at}"),
            HaltReason::Hole { at } => write!(f, "an open hole at {at}: it stops at the edge"),
            HaltReason::Trap { at } => write!(
                f,
                "a trap it has just learned of lies ahead at {at}, with no room to step around"
            ),
            HaltReason::Noticed { at } => write!(
                f,
                "a hidden trap at {at} was noticed before it was set off: it stops short of it"
            ),
        }
    }
}

/// The log's JSON gives the reason in words, as the text log does.
fn in_words<S: serde::Serializer>(r: &HaltReason, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(r)
}

impl LogEvent for MovementEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn at(&self) -> Option<delve_ground::grid::GridPos> {
        match self {
            MovementEvent::Moved { to: at, .. }
            | MovementEvent::Arrived { at, .. }
            | MovementEvent::Halted { at, .. } => Some(*at),
            MovementEvent::WalkBegun { .. } => None,
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            MovementEvent::WalkBegun { who, .. }
            | MovementEvent::Moved { who, .. }
            | MovementEvent::Arrived { who, .. }
            | MovementEvent::Halted { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for MovementEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovementEvent::WalkBegun {
                who,
                to,
                pace,
                feet,
            } => write!(
                f,
                "{who} sets off for {to} at {pace} speed, {feet}' by the shortest path"
            ),
            MovementEvent::Moved {
                who,
                from,
                to,
                feet,
            } => write!(f, "{who} moves {from} -> {to}, {feet}'"),
            MovementEvent::Arrived { who, at } => write!(f, "{who} arrives at {at}"),
            MovementEvent::Halted { who, at, reason } => write!(f, "{who} halts at {at}: {reason}"),
        }
    }
}
