//! What vision puts in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::log::LogEvent;

/// Dungeon Delves › Vision (hiding from lightless vision).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum VisionEvent {
    /// A creature tried to hide: `hidden` if its Hiding throw succeeded.
    HideAttempted { who: String, hidden: bool },
    /// The Judge's secret 1d6 put an error in the map of the turn's `squares`; `noticed`: the
    /// mapper's secret Mapping throw (none without the proficiency).
    MapError {
        who: String,
        squares: usize,
        noticed: Option<bool>,
    },
}

impl LogEvent for VisionEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            VisionEvent::HideAttempted { who, .. } | VisionEvent::MapError { who, .. } => Some(who),
        }
    }

    /// The Judge's alone: a mapper does not know of the error it did not notice.
    fn secret(&self) -> bool {
        matches!(self, VisionEvent::MapError { .. })
    }
}

impl fmt::Display for VisionEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VisionEvent::HideAttempted { who, hidden: true } => write!(f, "{who} hides"),
            VisionEvent::HideAttempted { who, .. } => write!(f, "{who} tries to hide, and fails"),
            VisionEvent::MapError {
                who,
                squares,
                noticed,
            } => write!(
                f,
                "an error creeps into {who}'s map of {squares} square(s): {}",
                match noticed {
                    Some(true) => "noticed and put right",
                    Some(false) => "not noticed",
                    None => "not noticed (no Mapping proficiency)",
                }
            ),
        }
    }
}
