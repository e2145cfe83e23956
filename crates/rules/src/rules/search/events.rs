//! What searching puts in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

/// Dungeon Delves › Searching.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SearchEvent {
    /// A search found a hidden feature.
    Found {
        who: String,
        feature: String,
        at: GridPos,
    },
}

impl LogEvent for SearchEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            SearchEvent::Found { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for SearchEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchEvent::Found { who, feature, at } => write!(f, "{who} finds {feature} at {at}"),
        }
    }
}
