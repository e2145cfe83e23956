//! What vision puts in the log.

use std::fmt;

use serde::Serialize;

use crate::log::LogEvent;

/// Dungeon Delves › Vision (hiding from lightless vision).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum VisionEvent {
    /// A creature tried to hide: `hidden` if its Hiding throw succeeded.
    HideAttempted { who: String, hidden: bool },
}

impl LogEvent for VisionEvent {
    fn who(&self) -> Option<&str> {
        match self {
            VisionEvent::HideAttempted { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for VisionEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VisionEvent::HideAttempted { who, hidden: true } => write!(f, "{who} hides"),
            VisionEvent::HideAttempted { who, .. } => write!(f, "{who} tries to hide, and fails"),
        }
    }
}
