//! Where creatures stand: the squares a walk or a step aside must keep clear of, and the
//! squares the party sees now.

use delve_rules::creature::Creature;
use delve_rules::rules::vision::Sight;

use bevy::prelude::*;

use delve_ground::grid::GridPos;
use delve_rules::creature::{Conditions, Position};

/// The squares where a creature that is up stands.
pub(super) fn occupied_squares(world: &mut World) -> Vec<GridPos> {
    type Up = QueryState<(&'static Position, &'static Conditions), With<Creature>>;
    delve_ground::query_cache::cached_query(world, |world, q: &mut Up| {
        q.iter(world)
            .filter(|(_, c)| !delve_rules::rules::conditions::is_down(c))
            .map(|(p, _)| p.0)
            .collect()
    })
}

/// Does a member see this square now?
pub(super) fn in_sight(world: &World, members: &[Entity], p: GridPos) -> bool {
    members
        .iter()
        .any(|&m| world.get::<Sight>(m).is_some_and(|s| s.sees(p)))
}
