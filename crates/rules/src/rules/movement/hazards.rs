//! What a walker knows lies in its way (RULINGS › Pits and holes): holes it will not walk into
//! (an open pit: walking onto it is a fall), and known traps it steps around where there is room
//! and crosses at their trigger chance where there is not (a 5'-wide corridor). The rule areas
//! that own them register what a faction knows ([`HazardRules::knows_hazards`]); a walk's way is
//! planned around them ([`way`]).

use crate::creature::{Factions, Position};

use bevy::prelude::*;

use crate::creature::Faction;
use crate::state::KeepsState;
use delve_ground::grid::path::{Path, find_path, find_path_with};
use delve_ground::grid::{DungeonGrid, GridPos};

use super::events::{HaltReason, MovementEvent};
use super::refusals::MoveRefusal;
use super::walking::Walking;

/// A square a walker knows is dangerous to enter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// A hole (an open pit): never walked into.
    Hole,
    /// A known trap that goes off when stepped on: stepped around where there is room.
    Trap,
}

/// What a faction knows lies on the map (the creature's faction, if it has one).
pub type HazardsOf = fn(&World, Option<Faction>) -> Vec<(GridPos, Hazard)>;

/// Every area's known hazards.
#[derive(Resource, Default)]
pub(crate) struct Hazards(Vec<HazardsOf>);

/// What a rule area declares of the hazards a walker knows, from its plugin.
pub trait HazardRules {
    /// The hazards this area's features make, as a faction knows them.
    fn knows_hazards(&mut self, known: HazardsOf) -> &mut Self;
}

impl HazardRules for App {
    fn knows_hazards(&mut self, known: HazardsOf) -> &mut Self {
        self.init_resource::<Hazards>().not_state::<Hazards>();
        self.world_mut().resource_mut::<Hazards>().0.push(known);
        self
    }
}

/// Stepping around a trap is a detour of at most this many feet (a step aside and back); a
/// longer way round is no room, and the trap is crossed at its chance.
pub const STEP_AROUND_FEET: u32 = 10;

/// The hazards `who`'s faction knows of.
pub fn known_to(world: &World, who: Entity) -> Vec<(GridPos, Hazard)> {
    let faction = world.get::<Faction>(who).copied();
    world
        .get_resource::<Hazards>()
        .map(|h| h.0.iter().flat_map(|known| known(world, faction)).collect())
        .unwrap_or_default()
}

/// The way `who` walks from `from` to `to` (RULINGS › Pits and holes): the shortest walk, unless
/// it crosses a hazard its faction knows. Then around the known traps where there is room (a
/// detour of at most [`STEP_AROUND_FEET`]), else across them; never into a hole (refused, the
/// hole its reason, when every way crosses one).
pub fn way(world: &World, who: Entity, from: GridPos, to: GridPos) -> Result<Path, MoveRefusal> {
    way_knowing(world, &known_to(world, who), from, to)
}

/// [`way`], with the hazards the walker's faction knows already found (for many ways asked at
/// once).
pub fn way_knowing(
    world: &World,
    known: &[(GridPos, Hazard)],
    from: GridPos,
    to: GridPos,
) -> Result<Path, MoveRefusal> {
    let grid = world.resource::<DungeonGrid>();
    let direct = find_path(grid, from, to).ok_or(MoveRefusal::NoPath { from, to })?;
    let on_it = |p: &GridPos| known.iter().find(|(h, _)| h == p).map(|&(_, k)| k);
    if !direct.squares.iter().skip(1).any(|p| on_it(p).is_some()) {
        return Ok(direct);
    }
    let around = find_path_with(grid, from, to, |p| {
        grid.is_passable(p) && on_it(&p).is_none()
    });
    if let Some(around) = &around
        && around.feet <= direct.feet + STEP_AROUND_FEET
    {
        return Ok(around.clone());
    }
    let across = find_path_with(grid, from, to, |p| {
        grid.is_passable(p) && on_it(&p) != Some(Hazard::Hole)
    });
    match (across, around) {
        (Some(across), _) => Ok(across),
        (None, Some(around)) => Ok(around),
        (None, None) => {
            let at = direct
                .squares
                .iter()
                .copied()
                .find(|p| on_it(p) == Some(Hazard::Hole))
                .unwrap_or(to);
            Err(MoveRefusal::HoleInTheWay { at })
        }
    }
}

/// The hazards each faction knows as the round's walking begins: for walks that cannot ask the
/// world (a party's followers closing up).
#[derive(Resource, Clone, Debug, Default)]
pub struct KnownHazards(Vec<(Faction, GridPos, Hazard)>);

impl KnownHazards {
    /// Is there a hole at `at` that `faction` knows of?
    pub fn hole(&self, faction: Option<Faction>, at: GridPos) -> bool {
        faction.is_some_and(|f| {
            self.0
                .iter()
                .any(|&(g, p, h)| g == f && p == at && h == Hazard::Hole)
        })
    }
}

/// The hazards `who`'s faction knows on a path (past its first square).
pub(crate) fn on_the_path(world: &World, who: Entity, path: &[GridPos]) -> Vec<GridPos> {
    let known = known_to(world, who);
    path.iter()
        .skip(1)
        .copied()
        .filter(|p| known.iter().any(|(h, _)| h == p))
        .collect()
}

/// Each round, before the walking (RULINGS › Pits and holes): every walk that would cross a
/// hazard its walker's faction has come to know since it set off (a trap found, a pit opened
/// ahead) takes the way around it where there is room; where there is none it stops, the hazard
/// its reason, so that whoever commands it decides. The factions' knowledge is kept for the
/// round's other walks ([`KnownHazards`]).
pub(crate) fn mind_the_way(world: &mut World) {
    let known: Vec<(Faction, GridPos, Hazard)> = {
        let world: &World = world;
        let Some(hazards) = world.get_resource::<Hazards>() else {
            return;
        };
        let factions = world.get_resource::<Factions>().map_or(0, |f| f.0.len());
        let mut known = Vec::new();
        for f in (0..factions).map(Faction) {
            for k in &hazards.0 {
                known.extend(k(world, Some(f)).into_iter().map(|(p, h)| (f, p, h)));
            }
        }
        known
    };
    if known.is_empty() {
        world.insert_resource(KnownHazards(known));
        return;
    }
    type Walker<'a> = (Entity, &'a Walking, &'a Position, Option<&'a Faction>);
    let mut learned: Vec<(Entity, GridPos, GridPos)> =
        delve_ground::query_cache::read_query(world, |q: Query<Walker>| {
            q.iter()
                .filter_map(|(e, w, at, f)| {
                    let f = f.copied()?;
                    let ahead = w.path.get(w.next..)?;
                    let to = *w.path.last()?;
                    ahead
                        .iter()
                        .any(|p| {
                            !w.knowingly.contains(p)
                                && known.iter().any(|&(g, q, _)| g == f && q == *p)
                        })
                        .then_some((e, at.0, to))
                })
                .collect()
        })
        .unwrap_or_default();
    learned.sort_by_key(|c| c.0);
    world.insert_resource(KnownHazards(known));
    for (who, at, to) in learned {
        let stop = match way(world, who, at, to) {
            Ok(path) => match on_the_path(world, who, &path.squares).first() {
                None => {
                    if let Some(mut w) = world.get_mut::<Walking>(who) {
                        w.path = path.squares;
                        w.next = 1;
                        w.knowingly.clear();
                    }
                    continue;
                }
                Some(&trap) => HaltReason::Trap { at: trap },
            },
            Err(MoveRefusal::HoleInTheWay { at: hole }) => HaltReason::Hole { at: hole },
            Err(_) => continue,
        };
        world.entity_mut(who).remove::<Walking>();
        let name = crate::creature::name_of(world, who);
        delve_ground::log::log_in(
            world,
            MovementEvent::Halted {
                who: name,
                at,
                reason: stop,
            },
        );
    }
}
