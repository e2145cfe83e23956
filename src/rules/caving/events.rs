//! What caving puts in the log.

use std::fmt;

use serde::Serialize;

use super::Escape;
use crate::grid::GridPos;
use crate::log::LogEvent;

/// Dungeon Delves › Caving and Spelunking.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CavingEvent {
    /// A failed Squeezing throw: no progress this round.
    SqueezeHeldBack { who: String, at: GridPos },
    /// A Squeezing throw failed on an unmodified 1: stuck.
    StuckInASqueeze { who: String, at: GridPos },
    /// An attempt to escape failed: still stuck, and the next attempt is harder.
    EscapeFailed { who: String, way: Escape },
    /// Free of the squeeze, back or on.
    Escaped {
        who: String,
        way: Escape,
        from: GridPos,
        to: GridPos,
    },
}

impl LogEvent for CavingEvent {
    fn who(&self) -> Option<&str> {
        match self {
            CavingEvent::SqueezeHeldBack { who, .. }
            | CavingEvent::StuckInASqueeze { who, .. }
            | CavingEvent::EscapeFailed { who, .. }
            | CavingEvent::Escaped { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for CavingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CavingEvent::SqueezeHeldBack { who, at } => {
                write!(f, "{who} cannot squeeze on from {at} this round")
            }
            CavingEvent::StuckInASqueeze { who, at } => {
                write!(f, "{who} is stuck fast in the squeeze at {at}")
            }
            CavingEvent::EscapeFailed { who, .. } => {
                write!(f, "{who} struggles in the squeeze and is still stuck")
            }
            CavingEvent::Escaped { who, way, from, to } => match way {
                Escape::Back => write!(f, "{who} wiggles back out of the squeeze, {from} -> {to}"),
                Escape::Forward => write!(f, "{who} pushes on through the squeeze, {from} -> {to}"),
            },
        }
    }
}
