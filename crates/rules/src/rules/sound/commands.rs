//! The commands of noise and hearing (Dungeon Delves › Listening, Sneaking) and why one is
//! refused.

use crate::act::Common;
use crate::rules::acting::Cost;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{NoiseKind, NoisyAction, SoundRow, hearing};
use crate::act::{Act, Activity, Offered, Reason, Refusal, at, creature};
use delve_ground::grid::GridPos;

/// Makes the noise of an action at its square: `Talking`, `Shouting`, `Screaming`, …
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noise {
    pub who: String,
    pub action: NoisyAction,
}

/// Starts (`on: true`) or stops moving silently (proficient in Sneaking).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sneak {
    pub who: String,
    pub on: bool,
}

/// Listens actively for a round (once per turn while its party moves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listen {
    pub who: String,
}

/// The Judge makes a noise of any row of the earshot table at a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MakeNoise {
    pub at: (i32, i32),
    pub sound: SoundRow,
    pub what: String,
}

impl fmt::Display for Noise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "make a {} noise ({:?})", self.action.row(), self.action)
    }
}

impl Act for Noise {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::Stuck, Hold::CrawlingATraverse]
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        hearing::creature_noise(world, creature(world, &self.who)?, self.action)
    }
}

impl fmt::Display for Sneak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on {
            write!(f, "sneak")
        } else {
            write!(f, "stop sneaking")
        }
    }
}

impl Act for Sneak {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        hearing::sneak(world, creature(world, &self.who)?, self.on)
    }
}

impl fmt::Display for Listen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "listen")
    }
}

impl Act for Listen {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn common(&self) -> Option<Common> {
        Some(Common::Listen)
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        hearing::listen(world, creature(world, &self.who)?)
    }
}

impl fmt::Display for MakeNoise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "make a {} noise at {}: {}",
            self.sound,
            at(self.at),
            self.what
        )
    }
}

impl Act for MakeNoise {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        "the Judge"
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        hearing::make_noise(world, at(self.at), self.sound, NoiseKind::Judge, &self.what)
    }
}

/// Why a command of noise or hearing is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoundRefusal {
    /// Sneaking is for those proficient in it, with a Sneaking throw.
    NotASneak,
    Deafened,
    /// Active listening: once per turn while the party moves.
    ListenedThisTurn,
    /// Active listening is "at a door, passageway, or intersection" (Dungeon Delves ›
    /// Listening), not in the open of a room.
    NotAtADoorOrPassage {
        at: GridPos,
    },
    OutsideTheMap {
        at: GridPos,
    },
}

impl Reason for SoundRefusal {}

impl fmt::Display for SoundRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoundRefusal::NotASneak => write!(
                f,
                "only those proficient in Sneaking, with a Sneaking throw in their stat block, \
                 move silently"
            ),
            SoundRefusal::Deafened => write!(f, "deafened creatures hear nothing"),
            SoundRefusal::ListenedThisTurn => {
                write!(
                    f,
                    "it has listened this turn already, and the party is moving"
                )
            }
            SoundRefusal::OutsideTheMap { at } => write!(f, "{at} is outside the map"),
            SoundRefusal::NotAtADoorOrPassage { at } => write!(
                f,
                "{at} is in the open: one listens actively at a door, a passageway or an \
                 intersection (passive hearing goes on everywhere)"
            ),
        }
    }
}
