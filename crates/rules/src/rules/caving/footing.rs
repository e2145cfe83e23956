//! Where a caver stands and what lies between two squares: firm ground, the squares on a
//! straight line, a hole to jump or cross; and who is under way with a climb or a traverse now.

use crate::creature::{ActingOrder, Faction};

use bevy::prelude::*;

use super::climbing;
use crate::creature::Conditions;
use delve_ground::grid::{DungeonGrid, GridPos};

/// Those under way with `T` (a climb, a traverse) whose initiative it is and who are up, in
/// entity order, each with a copy of its `T`.
pub(crate) fn acting_now<T: Component + Copy>(
    world: &World,
    q: &mut QueryState<(Entity, &T, &Conditions, Option<&Faction>)>,
) -> Vec<(Entity, T)> {
    let acting = world.resource::<ActingOrder>();
    let mut out: Vec<(Entity, T)> = q
        .iter(world)
        .filter(|(_, _, c, f)| acting.acts_now(f.copied()) && !crate::rules::conditions::is_down(c))
        .map(|(e, t, ..)| (e, *t))
        .collect();
    out.sort_by_key(|(e, _)| *e);
    out
}

/// The squares strictly between `from` and `to` on a straight or diagonal line, if they are so
/// aligned with at least one square between: what a jump, a traverse or a rope crosses.
pub(crate) fn straight_between(from: GridPos, to: GridPos) -> Option<Vec<GridPos>> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let steps = dx.abs().max(dy.abs());
    if steps < 2 || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
        return None;
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    Some(
        (1..steps)
            .map(|k| GridPos::new(from.x + sx * k, from.y + sy * k))
            .collect(),
    )
}

/// The hole squares straight (or diagonally) between two squares, if holes are all there is: a
/// chasm, or an open pit (RULINGS › Pits and holes), to jump or to cross on a rope.
pub(crate) fn across_a_hole(world: &World, from: GridPos, to: GridPos) -> Option<Vec<GridPos>> {
    straight_between(from, to).filter(|between| {
        between
            .iter()
            .all(|&p| climbing::hole_at(world, p).is_some())
    })
}

/// Can a creature stand on the square: it is passable and no hole (RULINGS › Pits and holes).
pub fn firm_ground(world: &World, at: GridPos) -> bool {
    world.resource::<DungeonGrid>().is_passable(at) && climbing::hole_at(world, at).is_none()
}
