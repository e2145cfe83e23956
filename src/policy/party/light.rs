//! The party's light (Dungeon Delves › Light and Darkness): what its members carry burning,
//! and the next light to kindle.

use super::*;

use bevy::prelude::*;

use crate::creature::Equipment;
use crate::level::schema::{Gear, LightKind};
use crate::rules::light::{CarriedBy, LightSource};

/// The lights the members carry: (bearer, light, the light), in a fixed order.
pub(super) fn carried(world: &mut World, members: &[Entity]) -> Vec<(Entity, Entity, LightSource)> {
    crate::policy::kept_query(
        world,
        |world, q: &mut QueryState<(Entity, &LightSource, &CarriedBy)>| {
            let mut out: Vec<_> = q
                .iter(world)
                .filter(|(_, _, c)| members.contains(&c.0))
                .map(|(e, l, c)| (c.0, e, *l))
                .collect();
            out.sort_by_key(|(bearer, e, _)| (*bearer, *e));
            out
        },
    )
}

/// A light that needs no fuel (`fuel_turns` left out) burns on.
pub(super) fn burns_forever(world: &mut World, members: &[Entity]) -> bool {
    carried(world, members)
        .iter()
        .any(|(.., l)| l.fuel_rounds.is_none())
}

pub(super) fn has_light_burning(world: &mut World, members: &[Entity]) -> bool {
    carried(world, members)
        .iter()
        .any(|(b, _, l)| l.lit && is_up(world, *b))
}

/// Who can light a light, and how: an unlit light with fuel, or an empty lantern and a flask.
pub(super) fn light_to_kindle(world: &mut World, members: &[Entity]) -> Option<(Entity, bool)> {
    let lights = carried(world, members);
    let up = |e: Entity| is_up(world, e);
    if let Some((b, ..)) = lights
        .iter()
        .find(|(b, _, l)| !l.lit && l.fuel_rounds != Some(0) && up(*b))
    {
        return Some((*b, false));
    }
    lights
        .iter()
        .find(|(b, _, l)| {
            l.kind == LightKind::Lantern
                && l.fuel_rounds == Some(0)
                && up(*b)
                && world
                    .get::<Equipment>(*b)
                    .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Oil(n) if *n > 0)))
        })
        .map(|(b, ..)| (*b, true))
}
