//! What the situational penalties put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::level::schema::LightKind;
use delve_ground::log::LogEvent;

/// Situational Penalties › Light distraction.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PenaltyEvent {
    /// A light was turned on a creature in the dark: `blinded` if it failed to look away.
    Dazzled {
        who: String,
        target: String,
        /// Rounds it is blinded for (three, six on a natural 1), if it failed to look away.
        blinded_rounds: Option<u64>,
    },
    /// A creature in the dark saw a light it did not expect (the Judge's unexpected-light
    /// throw).
    UnexpectedLight {
        who: String,
        light: LightKind,
        at: GridPos,
        blinded_rounds: Option<u64>,
    },
}

impl LogEvent for PenaltyEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            PenaltyEvent::Dazzled { who, .. } | PenaltyEvent::UnexpectedLight { who, .. } => {
                Some(who)
            }
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            PenaltyEvent::Dazzled { target, .. } => Some(target),
            PenaltyEvent::UnexpectedLight { .. } => None,
        }
    }
}

impl fmt::Display for PenaltyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PenaltyEvent::Dazzled {
                who,
                target,
                blinded_rounds: Some(rounds),
            } => write!(f, "{who} dazzles {target}: blinded for {rounds} rounds"),
            PenaltyEvent::Dazzled { who, target, .. } => {
                write!(f, "{who} dazzles {target}, who looks away in time")
            }
            PenaltyEvent::UnexpectedLight {
                who,
                light,
                at,
                blinded_rounds,
            } => {
                write!(f, "{who}, in the dark, looks into a {light:?} at {at}")?;
                match blinded_rounds {
                    Some(r) => write!(f, ": blinded for {r} rounds"),
                    None => write!(f, " and looks away in time"),
                }
            }
        }
    }
}
