//! The party itself (Dungeon Delves › Marching and Mapping): who belongs to one, its marching
//! order, mapper, formation and march, and the pace of its slowest member. The area's other
//! files read and change these; this file names none of them.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::movement::{Pace, Speeds};
use delve_ground::grid::GridPos;

/// Marks a creature that belongs to a party (an adventurer).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartyMember;

/// How the party walks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    /// One behind another: corridors 5' wide or less.
    #[default]
    SingleFile,
    /// Side by side in pairs: passages 6' wide or wider.
    TwoColumns,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formation::SingleFile => "single file",
            Formation::TwoColumns => "two columns",
        })
    }
}

/// A party: its members in marching order, its mapper, and its march if it is moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    pub name: String,
    pub marching_order: Vec<Entity>,
    pub mapper: Option<Entity>,
    pub formation: Formation,
    /// The squares the leader has stood on during the march, oldest first.
    pub trail: Vec<GridPos>,
    /// The pace of the march, while the leader walks.
    pub pace: Option<Pace>,
    /// Where it came in: its leader's square as the level opened. It leaves the level there
    /// ([`Leave`](super::Leave)).
    pub way_in: Option<GridPos>,
    /// The level's way out (an `Exit` goal): it may leave there too.
    pub exit: Option<GridPos>,
    /// It has left the level ([`Leave`](super::Leave)).
    pub left: bool,
}

impl Party {
    pub fn leader(&self) -> Option<Entity> {
        self.marching_order.first().copied()
    }
}

/// Every party of the level, by name.
#[derive(Resource, Clone, Debug, Default)]
pub struct Parties(pub Vec<Party>);

impl Parties {
    pub fn get(&self, name: &str) -> Option<&Party> {
        self.0.iter().find(|p| p.name == name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Party> {
        self.0.iter_mut().find(|p| p.name == name)
    }

    /// The party a creature belongs to.
    pub fn of(&self, e: Entity) -> Option<&Party> {
        self.0.iter().find(|p| p.marching_order.contains(&e))
    }
}

/// A follower's walk toward its place in the formation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Following {
    pub banked_tenths: u32,
}

/// The slowest member's speeds set the party's pace.
pub fn party_tenths_per_round(
    members: &[Entity],
    pace: Pace,
    speeds: impl Fn(Entity) -> Option<Speeds>,
) -> Option<u32> {
    members
        .iter()
        .map(|&e| speeds(e).map(|s| s.tenths_per_round(pace)))
        .collect::<Option<Vec<u32>>>()?
        .into_iter()
        .min()
}
