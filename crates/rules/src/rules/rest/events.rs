//! What resting puts in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::log::LogEvent;

/// Dungeon Delves › Rest.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RestEvent {
    /// A creature began to rest.
    RestBegan { who: String },
    /// A creature rested a full turn.
    Rested { who: String },
}

impl LogEvent for RestEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            RestEvent::RestBegan { who } | RestEvent::Rested { who } => Some(who),
        }
    }
}

impl fmt::Display for RestEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestEvent::RestBegan { who } => write!(f, "{who} rests"),
            RestEvent::Rested { who } => write!(f, "{who} has rested a turn"),
        }
    }
}
