//! Why a walk cannot start (or stop).

use std::fmt;

use crate::act::Reason;
use delve_ground::grid::GridPos;

use super::speeds::Pace;

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
