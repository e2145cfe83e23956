//! How the party fights (issue 33's "protect the vulnerable, focus on one foe"): in a battle the
//! fighting behaviour (`rules::combat::behaviour`) moves and strikes for every creature; a party
//! under its policy fights together ([`FightsTogether`]): of the enemies about as near as the
//! nearest, each member goes first for one next to a vulnerable companion (the mapper at his
//! map, the stuck, the drowning: Dungeon Delves › Mapping, › Squeezing, › Swimming and
//! Drowning) or a bloodied one, then for one a companion is already attacking.

use delve_rules::creature::Factions;
use delve_rules::rules::combat::battle::{Awareness, Battle};

use bevy::prelude::*;

use super::PartyMind;
use super::standing::in_sight;
use crate::policy::behaviour::FightsTogether;
use delve_ground::grid::GridPos;
use delve_rules::creature::{Conditions, Faction, Position};

/// Every member of the party fights together while the party is under its policy.
pub(super) fn fight_together(world: &mut World, members: &[Entity]) {
    for &m in members {
        if world.get::<FightsTogether>(m).is_none() {
            world.entity_mut(m).insert(FightsTogether);
        }
    }
}

/// In a fight: a battle is on and a member is aware of an enemy in it (a party watched from the
/// dark by a guard at its post knows of no fight, and goes about its delve).
pub(super) fn in_a_fight(world: &World, members: &[Entity]) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.active)
        && world
            .get_resource::<Awareness>()
            .is_some_and(|a| members.iter().any(|&m| !a.of(m).is_empty()))
}

/// A foe at hand: the party is in a fight, or a member sees a creature hostile to the party
/// that is up.
pub(super) fn foe_at_hand(world: &mut World, mind: &PartyMind, members: &[Entity]) -> bool {
    if in_a_fight(world, members) {
        return true;
    }
    type Others = QueryState<(&'static Position, &'static Faction, &'static Conditions)>;
    let foes: Vec<GridPos> =
        delve_ground::query_cache::cached_query(world, |world, q: &mut Others| {
            let factions = world.resource::<Factions>();
            q.iter(world)
                .filter(|(_, f, c)| {
                    factions.hostile(**f, mind.faction)
                        && !delve_rules::rules::conditions::is_down(c)
                })
                .map(|(p, ..)| p.0)
                .collect()
        });
    foes.into_iter().any(|p| in_sight(world, members, p))
}
