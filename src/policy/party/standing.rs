//! Where creatures stand: the squares a walk or a step aside must keep clear of.

use bevy::prelude::*;

use crate::creature::{Conditions, Position};
use crate::grid::GridPos;

/// The squares where a creature that is up stands.
pub(super) fn occupied_squares(world: &mut World) -> Vec<GridPos> {
    type Up = QueryState<(&'static Position, &'static Conditions), With<crate::creature::Creature>>;
    crate::query_cache::cached_query(world, |world, q: &mut Up| {
        q.iter(world)
            .filter(|(_, c)| !crate::rules::conditions::is_down(c))
            .map(|(p, _)| p.0)
            .collect()
    })
}
