//! What light sources put in the log.

use std::fmt;

use serde::Serialize;

use crate::level::schema::LightKind;
use crate::log::LogEvent;

/// Dungeon Delves › Light and Darkness.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LightEvent {
    /// A light source ran out of fuel and went out.
    LightBurnedOut {
        kind: LightKind,
        bearer: Option<String>,
    },
}

impl LogEvent for LightEvent {
    fn who(&self) -> Option<&str> {
        match self {
            LightEvent::LightBurnedOut { bearer, .. } => bearer.as_deref(),
        }
    }
}

impl fmt::Display for LightEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LightEvent::LightBurnedOut { kind, bearer } => match bearer {
                Some(b) => write!(f, "{b}'s {kind:?} burns out"),
                None => write!(f, "a {kind:?} burns out"),
            },
        }
    }
}
