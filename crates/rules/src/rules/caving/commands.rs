//! The caving commands and why one is refused.

use crate::rules::acting::Cost;
use crate::rules::movement::Pace;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::climbing::ClimbPace;
use crate::act::{Act, Activity, Refusal, at, creature};

/// Climbs from the bottom of a pit up onto the square `to` beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Climb {
    pub who: String,
    pub to: (i32, i32),
    #[serde(default)]
    pub pace: ClimbPace,
}

impl fmt::Display for Climb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "climb up to {}", at(self.to))
    }
}

impl Act for Climb {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::climbing::climb(world, who, at(self.to), self.pace)
    }
}

/// Climbs (or, with `rappel`, rappels) down into the pit or chasm square `into` beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClimbDown {
    pub who: String,
    pub into: (i32, i32),
    #[serde(default)]
    pub rappel: bool,
    #[serde(default)]
    pub pace: ClimbPace,
}

impl fmt::Display for ClimbDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.rappel { "rappel" } else { "climb" };
        write!(f, "{how} down into {}", at(self.into))
    }
}

impl Act for ClimbDown {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::climbing::climb_down(world, who, at(self.into), self.rappel, self.pace)
    }
}

/// From beside the hole a climber is on (or across the traverse a traverser is on), with a
/// rope, stands ready to break its fall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Belay {
    pub who: String,
    pub climber: String,
}

impl fmt::Display for Belay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "belay {}", self.climber)
    }
}

impl Act for Belay {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let (who, climber) = (creature(world, &self.who)?, creature(world, &self.climber)?);
        if world.get::<super::traverse::Traversing>(climber).is_some() {
            return super::traverse::belay_traverser(world, who, climber);
        }
        super::climbing::belay(world, who, climber)
    }
}

/// Crosses a ledge by a balancing traverse, in a straight line onto the square `to`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traverse {
    pub who: String,
    pub to: (i32, i32),
    #[serde(default)]
    pub pace: ClimbPace,
}

impl fmt::Display for Traverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "traverse the ledge to {}", at(self.to))
    }
}

impl Act for Traverse {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::traverse::traverse(world, who, at(self.to), self.pace)
    }
}

/// Rigs a crawling traverse across a chasm, straight to the rim square `to`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigTraverse {
    pub who: String,
    pub to: (i32, i32),
}

impl fmt::Display for RigTraverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rig a traverse to {}", at(self.to))
    }
}

impl Act for RigTraverse {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::traverse::rig(world, who, at(self.to))
    }
}

/// Crawls along a rigged traverse to its far end `to`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrawlAcross {
    pub who: String,
    pub to: (i32, i32),
    #[serde(default)]
    pub pace: ClimbPace,
}

impl fmt::Display for CrawlAcross {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "crawl across the traverse to {}", at(self.to))
    }
}

impl Act for CrawlAcross {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::CrawlingATraverse]
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::traverse::crawl_across(world, who, at(self.to), self.pace)
    }
}

/// Jumps across a chasm in a straight line onto the square `to` (or leaps out of a hole onto
/// it). A jump is movement: with `from`, the jumper first runs up to that take-off square in
/// the same move (at running speed if `running`, else combat speed), and 20' of run-up gives
/// the full jump; the run-up and the jump together must fit in the round's movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Jump {
    pub who: String,
    pub to: (i32, i32),
    /// The take-off square, run up to in the same move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<(i32, i32)>,
    /// Run up at running speed rather than combat speed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running: bool,
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "run up to {}", at(from))?;
            if self.running {
                write!(f, " at running speed")?;
            }
            write!(f, " and ")?;
        }
        write!(f, "jump to {}", at(self.to))
    }
}

impl Act for Jump {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        let pace = if self.running {
            Pace::Running
        } else {
            Pace::Combat
        };
        super::jumping::jump(world, who, at(self.to), self.from.map(at), pace)
    }
}

/// From beside an open pit, secures a rope above it and lets it down (one round).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LowerRope {
    pub who: String,
    pub at: (i32, i32),
}

impl fmt::Display for LowerRope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lower a rope into the pit at {}", at(self.at))
    }
}

impl Act for LowerRope {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::climbing::lower_rope(world, who, at(self.at))
    }
}

/// From beside a pit or chasm, hauls up the rope hanging into it (one round).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeUpRope {
    pub who: String,
    pub at: (i32, i32),
}

impl fmt::Display for TakeUpRope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take up the rope at {}", at(self.at))
    }
}

impl Act for TakeUpRope {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::climbing::take_up_rope(world, who, at(self.at))
    }
}

crate::creature_commands! {
    /// From the bottom of a pit or chasm, throw a grappling hook for the anchor above.
    ThrowGrapplingHook: "throw a grappling hook" => super::climbing::throw_grappling_hook, activity ClimbingAndSwimming;
    /// Stuck in a squeeze: wiggle backwards (a Paralysis save; 10' back).
    WiggleBack: "wiggle back out of the squeeze" => wiggle_back, activity ClimbingAndSwimming, allowed under Stuck;
    /// Stuck in a squeeze: push forward (Dungeonbashing; 10' on).
    PushForward: "push forward through the squeeze" => push_forward, activity ClimbingAndSwimming, allowed under Stuck;
}

fn wiggle_back(world: &mut World, who: Entity) -> Result<(), Refusal> {
    super::escape(world, who, super::Escape::Back)
}

fn push_forward(world: &mut World, who: Entity) -> Result<(), Refusal> {
    super::escape(world, who, super::Escape::Forward)
}
