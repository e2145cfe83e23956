//! What the party remembers of its own going: where it has been and is bound ([`Exploring`]),
//! and the walks that did not move its leader ([`WalkMemory`]).

use delve_ground::grid::GridPos;
use std::collections::BTreeMap;

/// Where the party has been and is bound: the goal's room, the dead ends searched, the edges that stayed edges, the traps tried, where its last walk was bound, the squares trodden (`pole_ahead`).
#[derive(Clone, Debug, Default)]
pub(super) struct Exploring {
    /// The squares of the goal's room (for a `Room` goal), found once.
    pub(super) goal_room: Vec<GridPos>,
    /// Dead ends, and how often they were searched methodically.
    pub(super) searched: BTreeMap<GridPos, u32>,
    /// Edges it walked to that stayed edges: not tried again.
    pub(super) exhausted: Vec<GridPos>,
    /// Traps a thief has tried to disarm.
    pub(super) traps_tried: Vec<GridPos>,
    /// Known traps prodded with a pole, once a prod (`PRODS`).
    pub(super) prods: Vec<GridPos>,
    /// Where its last walk was bound.
    pub(super) heading_for: Option<GridPos>,
    /// Where searches were made, and the chance all of them there missed what lies within
    /// their reach (the searchers' chances as the rules offered them).
    pub(super) missed: BTreeMap<GridPos, f32>,
    /// Walks given to spread the party along a wall to search it (`searching::search_along`).
    pub(super) spreading: u32,
    /// Squares a member has stood on (kept with `pole_ahead`).
    pub(super) trodden: std::collections::BTreeSet<GridPos>,
    /// Where it makes for when it turns for home, once it has (`home`).
    pub(super) home: Option<GridPos>,
}

/// Walks that did not move the leader: how many in a row, and from where the last was given.
#[derive(Clone, Debug, Default)]
pub(super) struct WalkMemory {
    /// Walks given in a row that did not move the leader: three, and the square is given up.
    pub(super) stalls: u32,
    /// The leader's square when the last walk was given.
    pub(super) last_walk_from: Option<GridPos>,
}
