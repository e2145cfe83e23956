//! What the walk asks of the areas whose terrain or state stops a walker (kept here so that
//! movement names none of them): the way into a squeeze, as the squeezing rules register it
//! (`rules::caving`: Dungeon Delves › Squeezing), and what forbids setting off at all (a climb).

use crate::rules::tactical::TacticalCombat;

use bevy::prelude::*;

use crate::act::Refusal;
use crate::creature::{Conditions, Encumbrance, Proficiencies};
use crate::state::KeepsState;
use delve_ground::dice::Dice;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::log::EventLog;

/// How far a successful escape moves the stuck creature, back or on.
pub const ESCAPE_FEET: u32 = 10;

/// What a move into or through a squeeze came to this round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SqueezedOn {
    /// No squeeze on the way, or through it: it moves as its pace allows.
    Moves,
    /// No progress this round (logged).
    HeldBack,
    /// Stuck (logged, stuck and vulnerable): where it can get out to.
    Stuck(StuckIn),
    /// Not yet in the squeeze, which lies beyond its first step: it walks only this many steps,
    /// up to the squeeze's mouth, and throws at the start of its next initiative.
    UpToTheSqueeze(usize),
}

/// A creature that wants to move along `path` (entering `path[next]` first) this round,
/// whose steps this round would take it to `steps`.
pub struct SqueezingMover<'a> {
    pub name: &'a str,
    pub at: GridPos,
    pub conditions: &'a mut Conditions,
    pub profs: &'a Proficiencies,
    pub encumbrance: &'a Encumbrance,
    pub path: &'a [GridPos],
    pub next: usize,
    pub steps: &'a [GridPos],
    /// The square before the squeeze's mouth is another's: it cannot stop there, so it
    /// squeezes on this round (the throw now) rather than walking up to the mouth first.
    pub mouth_taken: bool,
}

/// Where a stuck creature can get to: the squares behind it (nearest first) and ahead of it on
/// the way it was going, and how often it has failed to push forward (each −4 to every later
/// attempt).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct StuckIn {
    pub behind: Vec<GridPos>,
    pub ahead: Vec<GridPos>,
    pub failed_pushes: u32,
}

impl StuckIn {
    /// Stuck on a walk along `path` whose next square is `path[next]`: the squares ahead on the
    /// path, and behind it those it walked, or, where it walked fewer, the squares straight back
    /// from the way it was going.
    pub fn on_the_way(grid: &DungeonGrid, path: &[GridPos], next: usize) -> Self {
        let reach = (ESCAPE_FEET / grid.scale_feet().max(1)).max(1) as usize;
        let here = path[next.saturating_sub(1).min(path.len() - 1)];
        let ahead: Vec<GridPos> = path.iter().skip(next).take(reach).copied().collect();
        let mut behind: Vec<GridPos> = path[..next.saturating_sub(1).min(path.len())]
            .iter()
            .rev()
            .take(reach)
            .copied()
            .collect();
        if let Some(&on) = ahead.first() {
            let (dx, dy) = (here.x - on.x, here.y - on.y);
            let mut at = *behind.last().unwrap_or(&here);
            while behind.len() < reach {
                at = GridPos::new(at.x + dx, at.y + dy);
                if !grid.is_passable(at) {
                    break;
                }
                behind.push(at);
            }
        }
        Self {
            behind,
            ahead,
            failed_pushes: 0,
        }
    }
}

/// The squeezing rules' answer to a walker's steps this round.
pub type SqueezeOn = fn(
    &DungeonGrid,
    (&mut Dice, &mut EventLog, u64),
    (Option<&TacticalCombat>, bool),
    SqueezingMover,
) -> SqueezedOn;

/// How a walk meets a squeeze, as the squeezing rules register it.
#[derive(Resource, Clone, Copy)]
pub struct Squeezes(pub SqueezeOn);

impl Squeezes {
    /// How a walk (a walker's, or a follower's in its party) meets a squeeze: as registered,
    /// or, where no squeezing rules run, it walks on.
    pub fn on(registered: Option<&Squeezes>) -> SqueezeOn {
        registered.map_or(no_squeezes, |s| s.0)
    }
}

/// Without squeezing rules a squeeze does not hold a walker back.
fn no_squeezes(
    _: &DungeonGrid,
    _: (&mut Dice, &mut EventLog, u64),
    _: (Option<&TacticalCombat>, bool),
    _: SqueezingMover,
) -> SqueezedOn {
    SqueezedOn::Moves
}

/// What forbids a creature to set off walking, as the areas register it: a reason, or none.
#[derive(Resource, Clone, Default)]
pub struct WalkBlockers(pub Vec<fn(&World, Entity) -> Option<Refusal>>);

/// What an area registers with the walk, from its plugin.
pub trait WalkingRules {
    /// How a walk meets a squeeze.
    fn squeezes_by(&mut self, on: SqueezeOn) -> &mut Self;
    /// Something that forbids setting off.
    fn blocks_walking(&mut self, block: fn(&World, Entity) -> Option<Refusal>) -> &mut Self;
}

impl WalkingRules for App {
    fn squeezes_by(&mut self, on: SqueezeOn) -> &mut Self {
        self.insert_resource(Squeezes(on)).not_state::<Squeezes>()
    }

    fn blocks_walking(&mut self, block: fn(&World, Entity) -> Option<Refusal>) -> &mut Self {
        self.init_resource::<WalkBlockers>()
            .not_state::<WalkBlockers>();
        self.world_mut()
            .resource_mut::<WalkBlockers>()
            .0
            .push(block);
        self
    }
}
