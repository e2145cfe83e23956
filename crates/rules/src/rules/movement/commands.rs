//! The movement commands (Dungeon Delves › Speed and Distance) and why one is refused.

use crate::rules::acting::Cost;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::refusals::MoveRefusal;
use super::{Pace, Walking};
use crate::act::{Act, Activity, Offered, Refusal, at, creature};

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
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WALK
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
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
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::NotOffered("stopping a walk under way: a key, a mind")
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::Stuck, Hold::CrawlingATraverse, Hold::Drowning]
    }

    fn cost(&self) -> Cost {
        Cost::REST
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
