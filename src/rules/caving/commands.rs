//! The caving commands and why one is refused.

use std::fmt;

use crate::command::{Reason, Refusal};
use bevy::prelude::*;

crate::creature_commands! {
    /// Stuck in a squeeze: wiggle backwards (a Paralysis save; 10' back).
    WiggleBack: "wiggle back out of the squeeze" => wiggle_back;
    /// Stuck in a squeeze: push forward (Dungeonbashing; 10' on).
    PushForward: "push forward through the squeeze" => push_forward;
}

fn wiggle_back(world: &mut World, who: Entity) -> Result<(), Refusal> {
    super::escape(world, who, super::Escape::Back)
}

fn push_forward(world: &mut World, who: Entity) -> Result<(), Refusal> {
    super::escape(world, who, super::Escape::Forward)
}

/// Why a caving command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CavingRefusal {
    /// Only a stuck creature escapes.
    NotStuck,
    /// Wiggling back is a Paralysis save, and its stat block gives none.
    NoParalysisSave,
    /// Stuck, it can do nothing but try to escape.
    Stuck,
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
            CavingRefusal::Stuck => write!(
                f,
                "it is stuck in a squeeze: it can only wiggle back or push forward"
            ),
        }
    }
}
