//! What hearing puts in the log.

use std::fmt;

use serde::Serialize;

use super::SoundRow;
use crate::grid::GridPos;
use crate::log::LogEvent;

/// Dungeon Delves › Listening.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HearingEvent {
    /// A creature heard a noise, and roughly from where.
    Heard {
        who: String,
        sound: SoundRow,
        what: String,
        roughly_at: GridPos,
        how: String,
    },
}

impl LogEvent for HearingEvent {
    fn who(&self) -> Option<&str> {
        match self {
            HearingEvent::Heard { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for HearingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HearingEvent::Heard {
                who,
                sound,
                what,
                roughly_at,
                how,
            } => write!(
                f,
                "{who} hears a {sound} noise near {roughly_at} ({how}): {what}"
            ),
        }
    }
}
