//! The movement commands (Dungeon Delves › Speed and Distance) and why one is refused.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Pace, Walking};
use crate::act::{Act, Activity, Reason, Refusal, at, creature};
use delve_ground::grid::GridPos;

/// Walk to a square along the cheapest path, at a pace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub who: String,
    pub to: (i32, i32),
    #[serde(default)]
    pub pace: Pace,
}

/// Stop walking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Halt {
    pub who: String,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move to {} at {} speed", at(self.to), self.pace)
    }
}

impl Act for Move {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::begin_walk(world, creature(world, &self.who)?, at(self.to), self.pace)
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "halt")
    }
}

impl Act for Halt {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::Stuck, Hold::CrawlingATraverse, Hold::Drowning]
    }

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        world
            .entity_mut(e)
            .take::<Walking>()
            .map(|_| ())
            .ok_or_else(|| MoveRefusal::NotWalking.into())
    }
}

/// Why a walk cannot start (or stop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRefusal {
    /// Over 20 stone of encumbrance.
    OverEncumbered,
    /// It has no speeds at all (no encumbrance in its stat block).
    CannotMove,
    NoSpeed {
        pace: Pace,
    },
    Stuck,
    WindedCannotRun,
    NoParalysisSave,
    OutsideTheMap {
        at: GridPos,
    },
    NoPath {
        from: GridPos,
        to: GridPos,
    },
    /// Running keeps to a straight line or gentle curve.
    SharpTurn {
        at: GridPos,
    },
    NotWalking,
    /// Halfway up or down a climb.
    OnAClimb,
    /// At the bottom of a pit: it must climb out.
    AtTheBottom {
        depth_feet: u32,
    },
    /// Every way there crosses a hole it knows of (RULINGS › Pits and holes: an open pit is a
    /// hole, not floor): it must climb down, jump it, or cross on a rope.
    HoleInTheWay {
        at: GridPos,
    },
}

impl Reason for MoveRefusal {}

impl fmt::Display for MoveRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MoveRefusal::*;
        match self {
            OverEncumbered => write!(f, "over 20 stone of encumbrance, it cannot move"),
            CannotMove => write!(f, "it cannot move"),
            NoSpeed { pace } => write!(f, "its {pace} speed is 0'"),
            Stuck => write!(f, "it is stuck"),
            OnAClimb => write!(f, "it is on a climb: it must finish it first"),
            HoleInTheWay { at } => write!(
                f,
                "an open hole at {at} lies across every way there: climb down, jump it or cross on a rope"
            ),
            AtTheBottom { depth_feet } => {
                write!(
                    f,
                    "it is at the bottom of a {depth_feet}' pit: it must climb out"
                )
            }
            WindedCannotRun => write!(f, "winded creatures cannot run until they rest a turn"),
            NoParalysisSave => write!(
                f,
                "running calls for Paralysis saves, and its stat block gives none"
            ),
            OutsideTheMap { at } => write!(f, "{at} is outside the map"),
            NoPath { from, to } => write!(f, "there is no open path from {from} to {to}"),
            SharpTurn { at } => write!(
                f,
                "runners keep to a straight line or gentle curve, and this path turns sharply \
                 at {at}"
            ),
            NotWalking => write!(f, "it is not walking"),
        }
    }
}
