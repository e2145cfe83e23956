//! What doors put in the log.

use std::fmt;

use serde::Serialize;

use crate::grid::GridPos;
use crate::log::LogEvent;

/// Dungeon Delves › Doors and Dungeonbashing.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DoorEvent {
    /// An evil door, released, swung shut.
    DoorSwungShut { at: GridPos },
}

impl LogEvent for DoorEvent {}

impl fmt::Display for DoorEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DoorEvent::DoorSwungShut { at } => write!(f, "the door at {at} swings shut by itself"),
        }
    }
}
