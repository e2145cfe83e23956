//! Why a caving command is refused.

use std::fmt;

use crate::act::Reason;
use delve_ground::grid::GridPos;

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
