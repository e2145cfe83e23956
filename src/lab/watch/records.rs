//! What the lab records of a delve: each door, secret door and trap, each casualty and its fate, and where the time went (the time budget by activity).

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_rules::act::Activity;
use delve_rules::command::Command;
use serde::{Deserialize, Serialize};

/// A way of trying a door (Dungeon Delves › Doors).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum DoorWay {
    /// Opening it by hand (a stuck door will not give).
    ByHand,
    /// Unlocking it with a key.
    Key,
    /// Picking its lock hastily (a round).
    HastyPick,
    /// Picking its lock methodically (a turn, +4).
    MethodicalPick,
    /// Bashing it (a round; Dungeonbashing).
    Bash,
    /// Battering it down (turns, with an axe or a ram).
    Batter,
}

impl DoorWay {
    pub const ALL: &'static [DoorWay] = <DoorWay as strum::VariantArray>::VARIANTS;

    /// The way a door command tries, and the door's square.
    pub(super) fn of(command: &Command) -> Option<(DoorWay, GridPos)> {
        let (way, at) = match command {
            Command::OpenDoor(c) => (DoorWay::ByHand, c.at),
            Command::Unlock(c) => (DoorWay::Key, c.at),
            Command::PickLock(c) => (DoorWay::HastyPick, c.at),
            Command::PickLockMethodically(c) => (DoorWay::MethodicalPick, c.at),
            Command::Bash(c) => (DoorWay::Bash, c.at),
            Command::Batter(c) => (DoorWay::Batter, c.at),
            _ => return None,
        };
        Some((way, GridPos::new(at.0, at.1)))
    }
}

impl std::fmt::Display for DoorWay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DoorWay::ByHand => "by hand",
            DoorWay::Key => "key",
            DoorWay::HastyPick => "hasty pick",
            DoorWay::MethodicalPick => "methodical pick",
            DoorWay::Bash => "bash",
            DoorWay::Batter => "batter",
        })
    }
}

/// One door in one delve: when the party first stood beside it, how it tried it, and how that
/// went (whether and how it opened it is `Features::opened`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DoorRecord {
    pub at: GridPos,
    /// The turn a member first stood beside it (or on it); none: never reached.
    pub reached: Option<f32>,
    /// Each way the party tried it, and how many times.
    pub tried: Vec<(DoorWay, u32)>,
    /// Its lock jammed by a failed pick.
    pub jammed: bool,
    /// Bashes that failed.
    pub bashes_failed: u32,
    /// Picks that failed.
    pub picks_failed: u32,
    /// Turns the party's members spent trying it (a bash a round, a methodical pick a turn).
    pub turns: f32,
}

impl DoorRecord {
    pub fn times_tried(&self, way: DoorWay) -> u32 {
        self.tried
            .iter()
            .find(|(w, _)| *w == way)
            .map_or(0, |(_, n)| *n)
    }

    pub(super) fn try_it(&mut self, way: DoorWay) {
        match self.tried.iter_mut().find(|(w, _)| *w == way) {
            Some((_, n)) => *n += 1,
            None => self.tried.push((way, 1)),
        }
    }
}

/// One secret door in one delve.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SecretDoorRecord {
    pub at: GridPos,
    /// The turn a member first stood within a search's reach of it.
    pub reached: Option<f32>,
    /// Searches (methodical or hasty) whose reach took it in.
    pub searched: u32,
    /// The turn it was found.
    pub found: Option<f32>,
}

/// One trap in one delve: what it did to the party, its harmless discharges apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrapRecord {
    pub at: GridPos,
    /// Times it went off on a member.
    pub sprung: u32,
    /// Times it went off with no one in its way: a pole's touch, a disarm that discharged it.
    pub discharged: u32,
    /// Hit points it took from members.
    pub hit_points: i32,
    /// Members it brought down (dying or dead), or who fell into it and stayed at its bottom.
    pub downed: Vec<String>,
}

impl TrapRecord {
    /// Did it harm anyone: hit points, or a member brought down?
    pub fn harmful(&self) -> bool {
        self.hit_points > 0 || !self.downed.is_empty()
    }
}

/// What brought a member down.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Harm {
    /// A foe's blow.
    Foe { name: String },
    /// A trap (a pit's fall too), named as it went off.
    Trap { name: String, at: GridPos },
    /// A fall (a climb, a jump, a ledge, an open pit).
    Fall { at: GridPos },
    /// Water: its breath ran out.
    Drowning,
    /// Nothing the log names (the Judge's hand).
    Unknown,
    /// Never brought down: left behind standing, apart from the party.
    NotBroughtDown,
}

impl std::fmt::Display for Harm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Harm::Foe { name } => write!(f, "{name}"),
            Harm::Trap { name, at } => write!(f, "{name} at {at}"),
            Harm::Fall { at } => write!(f, "a fall at {at}"),
            Harm::Drowning => f.write_str("drowning"),
            Harm::Unknown => f.write_str("nothing the log names"),
            Harm::NotBroughtDown => f.write_str("not brought down"),
        }
    }
}

/// How a member brought down came out of the delve.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Dead.
    Dead,
    /// Dying still when the delve ended with the party on the level (every member down).
    Dying,
    /// Left behind alive as the party left (`tally.left_behind`).
    Abandoned,
    /// Brought down, and out alive with the party.
    Rescued,
}

impl Fate {
    pub const ALL: &'static [Fate] = <Fate as strum::VariantArray>::VARIANTS;
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fate::Dead => "dead",
            Fate::Dying => "dying",
            Fate::Abandoned => "abandoned",
            Fate::Rescued => "rescued",
        })
    }
}

/// A member brought down (dying, dead, or left at the bottom of a pit) or left behind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Casualty {
    pub who: String,
    /// What brought it down (the last harm before it went down).
    pub by: Harm,
    /// Where it went down (or was left).
    pub at: GridPos,
    /// The turn it went down: none if it was left behind standing.
    pub turn: Option<f32>,
    pub fate: Fate,
}

/// Turns of a delve by what the party was doing. Each round counts once, for the first of
/// these any member was at: fighting (a battle), stuck in a squeeze, working a door, a trap,
/// searching, climbing or swimming or crossing, walking, resting; else waiting.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimeBudget {
    pub fighting: f32,
    pub stuck: f32,
    /// Picking, bashing, battering, unlocking, opening doors.
    pub doors: f32,
    /// Probing, touching and disarming traps.
    pub traps: f32,
    pub searching: f32,
    /// Climbing, swimming, jumping, traversing, rigging ropes.
    pub climbing_and_swimming: f32,
    pub walking: f32,
    pub resting: f32,
    pub waiting: f32,
}

impl TimeBudget {
    pub fn get(&self, a: Activity) -> f32 {
        match a {
            Activity::Fighting => self.fighting,
            Activity::Stuck => self.stuck,
            Activity::Doors => self.doors,
            Activity::Traps => self.traps,
            Activity::Searching => self.searching,
            Activity::ClimbingAndSwimming => self.climbing_and_swimming,
            Activity::Walking => self.walking,
            Activity::Resting => self.resting,
            Activity::Waiting => self.waiting,
        }
    }

    pub(super) fn add(&mut self, a: Activity, turns: f32) {
        let slot = match a {
            Activity::Fighting => &mut self.fighting,
            Activity::Stuck => &mut self.stuck,
            Activity::Doors => &mut self.doors,
            Activity::Traps => &mut self.traps,
            Activity::Searching => &mut self.searching,
            Activity::ClimbingAndSwimming => &mut self.climbing_and_swimming,
            Activity::Walking => &mut self.walking,
            Activity::Resting => &mut self.resting,
            Activity::Waiting => &mut self.waiting,
        };
        *slot += turns;
    }
}
