//! What traps put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

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
        /// For a trap that attacks: whether its attack throw hit (a miss deals nothing).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hit: Option<bool>,
    },
    /// A trap went off with no one in its way (set off by a pole, or a door opened from afar).
    TrapSprungHarmlessly {
        who: String,
        trap: String,
        at: GridPos,
    },
    /// A creature touched what is on a square, by hand or with a 10' pole.
    Touched {
        who: String,
        at: GridPos,
        with_pole: bool,
    },
    /// A Trapbreaking throw succeeded: the trap is disarmed, or discharged harmlessly.
    TrapDisabled {
        who: String,
        at: GridPos,
        discharged: bool,
    },
    /// A Trapbreaking throw failed and set nothing off: methodically it may be tried again,
    /// hastily not until the thief's level rises.
    DisablingFailed {
        who: String,
        at: GridPos,
        may_retry: bool,
    },
    /// A thief tried to re-arm a disarmed trap.
    Rearming {
        who: String,
        at: GridPos,
        rearmed: bool,
    },
}

impl LogEvent for TrapEvent {
    fn kind(&self) -> LogKind {
        LogKind::Traps
    }

    fn at(&self) -> Option<delve_ground::grid::GridPos> {
        match self {
            TrapEvent::TrapChance { at, .. }
            | TrapEvent::TrapSprung { at, .. }
            | TrapEvent::TrapSprungHarmlessly { at, .. }
            | TrapEvent::Touched { at, .. }
            | TrapEvent::TrapDisabled { at, .. }
            | TrapEvent::DisablingFailed { at, .. }
            | TrapEvent::Rearming { at, .. } => Some(*at),
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            TrapEvent::TrapChance { .. } => None,
            TrapEvent::TrapSprung { who, .. }
            | TrapEvent::TrapSprungHarmlessly { who, .. }
            | TrapEvent::Touched { who, .. }
            | TrapEvent::TrapDisabled { who, .. }
            | TrapEvent::DisablingFailed { who, .. }
            | TrapEvent::Rearming { who, .. } => Some(who),
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
                hit,
            } => {
                if *hit == Some(false) {
                    return write!(f, "{trap} at {at} goes off at {who}, and misses");
                }
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
            TrapEvent::Touched { who, at, with_pole } => {
                if *with_pole {
                    write!(f, "{who} prods {at} with its pole")
                } else {
                    write!(f, "{who} touches {at}")
                }
            }
            TrapEvent::TrapDisabled {
                who,
                at,
                discharged,
            } => {
                let done = if *discharged { "discharges" } else { "disarms" };
                write!(f, "{who} {done} the trap at {at}")
            }
            TrapEvent::DisablingFailed {
                who,
                at,
                may_retry: true,
            } => write!(
                f,
                "{who} fails to disable the trap at {at}, but may try again"
            ),
            TrapEvent::DisablingFailed { who, at, .. } => write!(
                f,
                "{who} cannot see how to disable the trap at {at} quickly, and cannot try \
                 hastily again until its level rises"
            ),
            TrapEvent::Rearming { who, at, rearmed } => {
                if *rearmed {
                    write!(f, "{who} re-arms the trap at {at}")
                } else {
                    write!(f, "{who} fails to re-arm the trap at {at}")
                }
            }
        }
    }
}
