//! Saving its own from the water (Dungeon Delves › Swimming and Drowning; RULINGS › Water): a
//! member drowning is the party's first business. An ally beside it grabs it as the rules offer
//! (one that has sunk is reached only by one swimming beside it), the best swimmer goes to it
//! when no one is beside it, and the one holding it brings it out of water over the head and
//! lets go there.

use delve_rules::act::AnyAct;
use delve_rules::rules::water::SwimmingSpeed;

use bevy::prelude::*;

use super::standing::occupied_squares;
use super::{Intent, free_to_act, is_up, name, offered, square};
use delve_ground::grid::{DungeonGrid, GridPos, Terrain, WaterDepth};
use delve_rules::command::Command;
use delve_rules::command::acts::{Grab, LetGo, Move};
use delve_rules::rules::carrying::Holding;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::water::Drowning;

fn deep(grid: &DungeonGrid, p: GridPos) -> bool {
    grid.terrain(p) == Some(Terrain::Water(WaterDepth::Deep))
}

/// The party's orders to save a member from drowning, if one is drowning or being brought out.
pub(super) fn save_the_drowning(
    world: &mut World,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    if let Some(orders) = bring_out(world, members) {
        return Some(orders);
    }
    let held: Vec<Entity> = members
        .iter()
        .filter_map(|&m| world.get::<Holding>(m).map(|h| h.whom))
        .collect();
    let drowning = members
        .iter()
        .copied()
        .find(|&m| world.get::<Drowning>(m).is_some() && is_up(world, m) && !held.contains(&m))?;
    let whom = name(world, drowning);
    let intent = Intent::Rescue { who: whom.clone() };
    let grab = |a: &AnyAct| a.get::<Grab>().is_some_and(|g| g.whom == whom);
    let rescuers: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| m != drowning && may_rescue(world, m))
        .collect();
    if let Some(order) = rescuers.iter().find_map(|&m| offered(world, m, grab)) {
        return Some((intent, vec![order]));
    }
    // No one beside it: one at home in the water (a swimming speed) goes to it, at the surface
    // or down where it sank. (Any other would reach it only after it sank further than it could
    // bring it up from in the breath left, and at its own peril: RULINGS › Water.)
    let at = square(world, drowning)?;
    let occupied = occupied_squares(world);
    let grid = world.resource::<DungeonGrid>();
    let (rescuer, to) = rescuers
        .iter()
        .copied()
        .filter(|&m| world.get::<SwimmingSpeed>(m).is_some())
        .filter_map(|m| {
            let from = square(world, m)?;
            let to = at
                .neighbours()
                .into_iter()
                .filter(|&p| grid.is_passable(p) && !occupied.contains(&p))
                .min_by_key(|&p| (from.chebyshev(p), p))?;
            Some((m, to, from.chebyshev(to)))
        })
        .min_by_key(|&(m, _, steps)| (steps, m))
        .map(|(m, to, _)| (m, to))?;
    let order = Move {
        who: name(world, rescuer),
        to: (to.x, to.y),
        pace: Pace::Combat,
    };
    Some((intent, vec![order.into()]))
}

/// The one holding a member it saved carries it out of water over the head (the nearest square
/// that is not), and lets go there. (One holding a companion that is down carries it: that is
/// `fallen`'s business.)
fn bring_out(world: &mut World, members: &[Entity]) -> Option<(Intent, Vec<Command>)> {
    let (holder, held) = members.iter().copied().find_map(|m| {
        let whom = world.get::<Holding>(m)?.whom;
        let rescued = world.get::<Drowning>(whom).is_some() || is_up(world, whom);
        (members.contains(&whom) && rescued).then_some((m, whom))
    })?;
    let intent = Intent::Rescue {
        who: name(world, held),
    };
    let here = square(world, holder)?;
    let in_water = |p: Option<GridPos>| p.is_none_or(|p| deep(world.resource::<DungeonGrid>(), p));
    let out = !in_water(Some(here)) && !in_water(square(world, held));
    if out && world.get::<Drowning>(held).is_none() {
        let let_go = offered(world, holder, |a| a.get::<LetGo>().is_some())?;
        return Some((intent, vec![let_go]));
    }
    let occupied = occupied_squares(world);
    let shore = nearest_shore(world.resource::<DungeonGrid>(), here, &occupied)?;
    let order = Move {
        who: name(world, holder),
        to: (shore.x, shore.y),
        pace: Pace::Combat,
    };
    Some((intent, vec![order.into()]))
}

/// The nearest free square out of water over the head, by steps over passable squares from
/// `from` (breadth first; none within the map).
fn nearest_shore(grid: &DungeonGrid, from: GridPos, occupied: &[GridPos]) -> Option<GridPos> {
    let mut seen = vec![false; (grid.width() * grid.height()) as usize];
    let mut queue = std::collections::VecDeque::from([from]);
    seen[grid.index(from)?] = true;
    while let Some(p) = queue.pop_front() {
        if p != from && !deep(grid, p) && !occupied.contains(&p) {
            return Some(p);
        }
        for q in p.neighbours() {
            if let Some(i) = grid.index(q)
                && !seen[i]
                && grid.is_passable(q)
            {
                seen[i] = true;
                queue.push_back(q);
            }
        }
    }
    None
}

/// Up, free to act, not drowning itself and holding no one.
fn may_rescue(world: &World, m: Entity) -> bool {
    is_up(world, m)
        && free_to_act(world, m)
        && world.get::<Drowning>(m).is_none()
        && world.get::<Holding>(m).is_none()
}
