//! What swimming and drowning put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::log::LogEvent;

/// Dungeon Delves › Swimming and Drowning.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WaterEvent {
    /// A failed Swimming throw: drowning, with this many rounds of breath.
    Drowning { who: String, breath_rounds: u32 },
    /// A drowning creature sank: how deep it is now and the rounds of breath it has left.
    Sank {
        who: String,
        depth_feet: u32,
        breath_left: u32,
    },
    /// Out of breath: drowned.
    Drowned { who: String },
    /// A drowning creature in its carrier's grip was brought up: how deep it is now and the
    /// rounds of breath it has left (RULINGS › Water).
    BroughtUp {
        who: String,
        by: String,
        depth_feet: u32,
        breath_left: u32,
    },
    /// An ally grabbed a drowning creature to carry it to the surface, bearing this much of its
    /// weight.
    Grabbed {
        who: String,
        whom: String,
        stone: f32,
    },
    /// It let go of the one it held.
    LetGo { who: String, whom: String },
}

impl LogEvent for WaterEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn who(&self) -> Option<&str> {
        match self {
            WaterEvent::Drowning { who, .. }
            | WaterEvent::Sank { who, .. }
            | WaterEvent::Drowned { who }
            | WaterEvent::BroughtUp { who, .. }
            | WaterEvent::Grabbed { who, .. }
            | WaterEvent::LetGo { who, .. } => Some(who),
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            WaterEvent::Grabbed { whom, .. } | WaterEvent::LetGo { whom, .. } => Some(whom),
            WaterEvent::BroughtUp { by, .. } => Some(by),
            _ => None,
        }
    }
}

impl fmt::Display for WaterEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaterEvent::Drowning { who, breath_rounds } => write!(
                f,
                "{who} goes under and is drowning ({breath_rounds} rounds of breath)"
            ),
            WaterEvent::Sank {
                who,
                depth_feet,
                breath_left,
            } => write!(
                f,
                "{who} sinks to {depth_feet}' ({breath_left} round(s) of breath left)"
            ),
            WaterEvent::Drowned { who } => write!(f, "{who} drowns"),
            WaterEvent::BroughtUp {
                who,
                by,
                depth_feet,
                breath_left,
            } => write!(
                f,
                "{by} carries {who} up to {depth_feet}' below the surface ({breath_left} round(s) of breath left)"
            ),
            WaterEvent::Grabbed { who, whom, stone } => write!(
                f,
                "{who} grabs {whom} to carry it to the surface, bearing {stone} stone of it"
            ),
            WaterEvent::LetGo { who, whom } => write!(f, "{who} lets go of {whom}"),
        }
    }
}
