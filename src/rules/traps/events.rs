//! What traps put in the log.

use std::fmt;

use serde::Serialize;

use crate::grid::GridPos;
use crate::log::LogEvent;

/// Dungeon Delves › Traps and Trapbreaking.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TrapEvent {
    /// The Judge's secret 1d6 for a trap a creature might set off (1–2 sets it off).
    TrapChance {
        who: String,
        at: GridPos,
        d6: u32,
        sprung: bool,
    },
    /// A trap went off.
    TrapSprung {
        who: String,
        trap: String,
        at: GridPos,
        dice: Vec<u32>,
        damage: i32,
        saved: Option<bool>,
    },
    /// A trap went off with no one in its way (set off by a pole, or a door opened from afar).
    TrapSprungHarmlessly {
        who: String,
        trap: String,
        at: GridPos,
    },
}

impl LogEvent for TrapEvent {
    fn who(&self) -> Option<&str> {
        match self {
            TrapEvent::TrapChance { .. } => None,
            TrapEvent::TrapSprung { who, .. } | TrapEvent::TrapSprungHarmlessly { who, .. } => {
                Some(who)
            }
        }
    }

    fn secret(&self) -> bool {
        matches!(self, TrapEvent::TrapChance { .. })
    }
}

impl fmt::Display for TrapEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapEvent::TrapChance {
                who,
                at,
                d6,
                sprung,
            } => write!(
                f,
                "{who} might set off the trap at {at}: 1d6 {d6}, {}",
                if *sprung {
                    "it goes off"
                } else {
                    "it does not"
                }
            ),
            TrapEvent::TrapSprung {
                who,
                trap,
                at,
                dice,
                damage,
                saved,
            } => {
                write!(f, "{trap} at {at} goes off on {who}: dice {dice:?}")?;
                if let Some(s) = saved {
                    write!(f, ", save {}", if *s { "made" } else { "failed" })?;
                }
                write!(f, ", {damage} damage")
            }
            TrapEvent::TrapSprungHarmlessly { who, trap, at } => write!(
                f,
                "{trap} at {at} goes off, set off by {who}, with no one in its way"
            ),
        }
    }
}
