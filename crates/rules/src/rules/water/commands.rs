//! The water commands and why one is refused.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, creature};

/// Grabs a drowning ally beside it and brings it up (in lieu of moving).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grab {
    pub who: String,
    pub whom: String,
}

impl fmt::Display for Grab {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "grab {}", self.whom)
    }
}

impl Act for Grab {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let (who, whom) = (creature(world, &self.who)?, creature(world, &self.whom)?);
        super::grab(world, who, whom)
    }
}

crate::creature_commands! {
    /// Lets go of the one it holds.
    LetGo: "let go" => super::let_go, activity None, costs MOVEMENT, common Carry;
}

/// Why a water command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaterRefusal {
    DrowningItself,
    NotDrowning,
    NotAnAlly,
    NotBeside,
    /// RULINGS › Water: the drowning one has sunk; only one swimming beside it reaches it.
    MustSwimToIt {
        sunk_feet: u32,
    },
    HandsFull,
    HoldsNoOne,
}

impl Reason for WaterRefusal {}

impl fmt::Display for WaterRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaterRefusal::DrowningItself => write!(f, "it is drowning itself"),
            WaterRefusal::NotDrowning => write!(f, "that one is not drowning"),
            WaterRefusal::NotAnAlly => write!(f, "only an ally grabs a drowning creature"),
            WaterRefusal::NotBeside => write!(f, "it must be beside the drowning one"),
            WaterRefusal::MustSwimToIt { sunk_feet } => write!(
                f,
                "the drowning one has sunk {sunk_feet}': only one swimming beside it reaches it"
            ),
            WaterRefusal::HandsFull => write!(f, "it already holds someone"),
            WaterRefusal::HoldsNoOne => write!(f, "it holds no one"),
        }
    }
}
