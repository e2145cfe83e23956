//! Commands: everything an actor can do, from any source (keyboard, monster AI, a script, a
//! replay). Each is accepted or refused with a reason in the log; a refused command changes
//! nothing.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::movement::Pace;

/// What an actor wants to do. Actors are named as in the level (names are unique).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Walk to a square along the cheapest path, at a pace.
    Move {
        who: String,
        to: (i32, i32),
        #[serde(default)]
        pace: Pace,
    },
    /// Stop walking.
    Halt { who: String },
}

impl Command {
    pub fn who(&self) -> &str {
        match self {
            Command::Move { who, .. } | Command::Halt { who } => who,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move { to, pace, .. } => {
                write!(f, "move to ({}, {}) at {pace} speed", to.0, to.1)
            }
            Command::Halt { .. } => write!(f, "halt"),
        }
    }
}

/// Commands waiting for the next round, in the order given.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingCommands(pub Vec<Command>);

impl PendingCommands {
    pub fn push(&mut self, c: Command) {
        self.0.push(c);
    }
}

/// A command in a script file for `delve sim --commands`: given at the start of `round`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCommand {
    pub round: u64,
    pub command: Command,
}
