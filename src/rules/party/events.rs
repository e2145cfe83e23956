//! What the party's marching puts in the log.

use std::fmt;

use serde::Serialize;

use super::Formation;
use crate::log::LogEvent;

/// Dungeon Delves › Marching Order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PartyEvent {
    /// A party's formation changed with the width of the passage.
    FormationChanged { party: String, formation: Formation },
}

impl LogEvent for PartyEvent {
    fn who(&self) -> Option<&str> {
        match self {
            PartyEvent::FormationChanged { party, .. } => Some(party),
        }
    }
}

impl fmt::Display for PartyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartyEvent::FormationChanged { party, formation } => {
                write!(f, "the {party} goes on in {formation}")
            }
        }
    }
}
