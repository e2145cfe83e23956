//! What the situational penalties put in the log.

use std::fmt;

use serde::Serialize;

use crate::log::LogEvent;

/// Situational Penalties › Light distraction.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PenaltyEvent {
    /// A light was turned on a creature in the dark: `blinded` if it failed to look away.
    Dazzled {
        who: String,
        target: String,
        blinded: bool,
    },
}

impl LogEvent for PenaltyEvent {
    fn who(&self) -> Option<&str> {
        match self {
            PenaltyEvent::Dazzled { who, .. } => Some(who),
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            PenaltyEvent::Dazzled { target, .. } => Some(target),
        }
    }
}

impl fmt::Display for PenaltyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PenaltyEvent::Dazzled {
                who,
                target,
                blinded: true,
            } => write!(
                f,
                "{who} dazzles {target}: blinded for {} rounds",
                super::DISTRACTION_BLINDS_ROUNDS
            ),
            PenaltyEvent::Dazzled { who, target, .. } => {
                write!(f, "{who} dazzles {target}, who looks away in time")
            }
        }
    }
}
