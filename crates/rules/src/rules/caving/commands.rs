//! The caving commands and why one is refused.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::climbing::ClimbPace;
use crate::act::{Act, Activity, Reason, Refusal, at, creature};
use delve_ground::grid::GridPos;

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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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
            crate::rules::movement::Pace::Running
        } else {
            crate::rules::movement::Pace::Combat
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

/// Why a caving command is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum CavingRefusal {
    /// Only a stuck creature escapes.
    NotStuck,
    /// Wiggling back is a Paralysis save, and its stat block gives none.
    NoParalysisSave,
    /// Only one at the bottom of a pit climbs (today).
    NothingToClimb,
    NoWayUp {
        to: GridPos,
    },
    /// A sheer surface is for those proficient in Climbing or Mountaineering.
    SheerNeedsClimbing,
    /// Climbing faster than a third of combat speed is for those proficient in Climbing.
    FasterNeedsClimbing,
    RopeFromAbove,
    NotBesideThePit {
        at: GridPos,
    },
    NoRope,
    /// The longest rope it carries does not reach.
    RopeTooShort {
        needs: u32,
        longest: u32,
    },
    RopeHangsThere {
        at: GridPos,
    },
    NoRopeThere {
        at: GridPos,
    },
    /// Someone is on the rope.
    RopeInUse {
        at: GridPos,
    },
    NoOpenPit {
        at: GridPos,
    },
    /// At the bottom of a hole, it must climb out first.
    AtTheBottom,
    /// The hole is deeper than its leap.
    TooHighToLeap {
        depth_feet: u32,
        leap_feet: f32,
    },
    NotRigged {
        to: GridPos,
    },
    TooHeavyForTheRope {
        load: f32,
        bears: f32,
    },
    NotAlongALedge {
        to: GridPos,
    },
    TooNarrow,
    PrecariousNeedsClimbing,
    /// Both hands are needed, and they are busy.
    HandsBusy {
        with: &'static str,
    },
    /// A belayer holds the rope from above the climber.
    BelayFromAbove,
    /// A traverser's belayer has crossed already: at the traverse's far end `to`, or further
    /// along it.
    BelayFromAcross {
        to: GridPos,
    },
    NotClimbing,
    AlreadyBelow,
    NoRopeToRappel {
        at: GridPos,
    },
    RappellingNeedsClimbing,
    NoGrapplingHook,
    NoAnchor,
    OutOfHookRange {
        feet: u32,
    },
    /// The run-up and the jump together are more than the round's movement.
    JumpBeyondMovement {
        needs: u32,
        has: u32,
    },
    NoLanding {
        at: GridPos,
    },
    NotAcrossAChasm {
        to: GridPos,
    },
}

impl Reason for CavingRefusal {}

impl fmt::Display for CavingRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CavingRefusal::NotStuck => write!(f, "it is not stuck"),
            CavingRefusal::NoParalysisSave => {
                write!(
                    f,
                    "its stat block gives no Paralysis save to wiggle back with"
                )
            }
            CavingRefusal::NothingToClimb => write!(f, "it is at the bottom of nothing to climb"),
            CavingRefusal::NoWayUp { to } => {
                write!(f, "{to} is not a square beside it to climb up onto")
            }
            CavingRefusal::SheerNeedsClimbing => write!(
                f,
                "the wall is sheer: only those proficient in Climbing or Mountaineering climb \
                 it (a rope lowered from above makes it easy)"
            ),
            CavingRefusal::FasterNeedsClimbing => write!(
                f,
                "only those proficient in Climbing climb faster than a third of combat speed"
            ),
            CavingRefusal::RopeFromAbove => write!(f, "a rope is secured from above"),
            CavingRefusal::NotBesideThePit { at } => {
                write!(f, "it must stand beside the pit at {at}")
            }
            CavingRefusal::NoRope => write!(f, "it carries no rope"),
            CavingRefusal::RopeTooShort { needs, longest } => write!(
                f,
                "it needs {needs}' of rope, and its longest is {longest}'"
            ),
            CavingRefusal::RopeHangsThere { at } => {
                write!(f, "a rope already hangs into {at}")
            }
            CavingRefusal::NoRopeThere { at } => write!(f, "no rope hangs into {at}"),
            CavingRefusal::RopeInUse { at } => {
                write!(f, "someone is on the rope at {at}")
            }
            CavingRefusal::NoOpenPit { at } => write!(f, "there is no open pit or chasm at {at}"),
            CavingRefusal::NoGrapplingHook => write!(f, "it needs a grappling hook and a rope"),
            CavingRefusal::NoAnchor => write!(f, "there is nothing above for a hook to catch"),
            CavingRefusal::OutOfHookRange { feet } => {
                write!(f, "the anchor is {feet}' away: beyond a hook's 100'")
            }
            CavingRefusal::AlreadyBelow => write!(f, "it is at the bottom already"),
            CavingRefusal::NoRopeToRappel { at } => {
                write!(f, "no rope is secured above {at} to rappel down")
            }
            CavingRefusal::RappellingNeedsClimbing => write!(
                f,
                "rappelling is for those proficient in Climbing or Mountaineering"
            ),
            CavingRefusal::HandsBusy { with } => {
                write!(f, "it needs both hands, and they are busy {with}")
            }
            CavingRefusal::BelayFromAbove => write!(
                f,
                "a belayer holds the rope from above the climber: beside the hole at the top, or \
                 higher on the same climb"
            ),
            CavingRefusal::BelayFromAcross { to } => write!(
                f,
                "a belayer on a traverse has crossed already: at its far end {to} or beside it, \
                 or further along the same traverse"
            ),
            CavingRefusal::NotClimbing => write!(f, "that one is not on a climb or a traverse"),
            CavingRefusal::NotAlongALedge { to } => write!(
                f,
                "a traverse goes straight (or diagonally) along ledge squares only, and {to} is \
                 not at the end of one"
            ),
            CavingRefusal::TooNarrow => {
                write!(f, "the path is under ½\" wide: it cannot be crossed")
            }
            CavingRefusal::PrecariousNeedsClimbing => write!(
                f,
                "a precarious path (under 4\") is for those proficient in Climbing"
            ),
            CavingRefusal::NotRigged { to } => {
                write!(f, "no traverse is rigged from here to {to}")
            }
            CavingRefusal::TooHeavyForTheRope { load, bears } => write!(
                f,
                "the traverse bears {bears} stone, and {load} would be on it"
            ),
            CavingRefusal::AtTheBottom => write!(f, "it is at the bottom: it must climb"),
            CavingRefusal::TooHighToLeap {
                depth_feet,
                leap_feet,
            } => write!(
                f,
                "it leaps {leap_feet}' and the hole is {depth_feet}' deep: it must climb"
            ),
            CavingRefusal::NoLanding { at } => write!(f, "there is nothing to land on at {at}"),
            CavingRefusal::JumpBeyondMovement { needs, has } => write!(
                f,
                "the run-up and the jump take {needs}' of movement, and it has {has}' a round"
            ),
            CavingRefusal::NotAcrossAChasm { to } => write!(
                f,
                "a jump goes straight (or diagonally) across chasm squares only, and {to} is not \
                 across one"
            ),
        }
    }
}
