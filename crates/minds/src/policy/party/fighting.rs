//! How the party fights (issue 33's "protect the vulnerable, focus on one foe"): in a battle the
//! fighting behaviour (`rules::combat::behaviour`) moves and strikes for every creature; a party
//! under its policy fights together ([`FightsTogether`]): of the enemies about as near as the
//! nearest, each member goes first for one next to a vulnerable companion (the mapper at his
//! map, the stuck, the drowning: Dungeon Delves › Mapping, › Squeezing, › Swimming and
//! Drowning) or a bloodied one, then for one a companion is already attacking. After a battle
//! a jammed firearm is cleared (Tactical Combat › Firearm Misfires: in one, the fighting
//! behaviour clears it).

use delve_rules::creature::Factions;
use delve_rules::rules::combat::battle::{Awareness, Battle};

use bevy::prelude::*;

use super::standing::in_sight;
use super::{Intent, PartyMind, is_up, name};
use crate::policy::behaviour::FightsTogether;
use delve_ground::grid::GridPos;
use delve_rules::command::Command;
use delve_rules::creature::{Conditions, Faction, Position};
use delve_rules::rules::combat::gear::Jammed;

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

/// A battle whose foes the party cannot come to blows with (`in_a_fight` holds, yet no member
/// can reach one): no member could attack a foe it is aware of now, nor that foe it
/// (`rules::combat::attack::can_attack`, whatever their weapons), and no walk over what the
/// faction knows — on foot or swimming, never climbing, jumping, traversing or squeezing, which
/// the fighting behaviour never does — brings one beside the other. An eel in its pool at the
/// foot of a shaft, a guard across a chasm: the party keeps clear of it and goes about its
/// delve (`odds::hold_back`), until one can reach the other.
pub(super) fn beyond_reach(world: &mut World, mind: &mut PartyMind, members: &[Entity]) -> bool {
    use delve_rules::creature::Combatant;
    use delve_rules::rules::combat::attack::can_attack;
    let Some(awareness) = world.get_resource::<Awareness>() else {
        return false;
    };
    let pairs: Vec<(Entity, Entity)> = members
        .iter()
        .flat_map(|&m| awareness.of(m).iter().copied())
        .collect();
    if pairs.is_empty() {
        return false;
    }
    let weapons = |e: Entity| world.get::<Combatant>(e).map_or(0, |c| c.weapons.len());
    let blows = pairs.iter().any(|&(m, foe)| {
        (0..weapons(m)).any(|i| can_attack(world, m, foe, i).is_ok())
            || (0..weapons(foe)).any(|i| can_attack(world, foe, m, i).is_ok())
    });
    if blows {
        return false;
    }
    let sight = super::round::KnownLevel::look(world, mind, members);
    let on_foot = crate::policy::knowledge::Knowledge {
        swims: true,
        jumps: false,
        traverses: false,
        climbs: false,
        squeezes: false,
        roped: &[],
        ..sight.knowledge()
    };
    let mut walks = std::collections::BTreeMap::new();
    !pairs.iter().any(|&(m, foe)| {
        let (Some(from), Some(at)) = (super::square(world, m), super::square(world, foe)) else {
            return false;
        };
        if world.get::<delve_rules::creature::Below>(m).is_some() {
            return false;
        }
        let d = walks.entry(from).or_insert_with(|| on_foot.distances(from));
        at.neighbours()
            .into_iter()
            .any(|p| d.cost(on_foot.grid, p).is_some())
    })
}

/// The first member up with a jammed firearm clears it, as the combat area offers it. (Only
/// that area's offer, and only for a jammed member: this is asked at every decision.)
pub(super) fn clear_a_jam(world: &mut World, members: &[Entity]) -> Option<(Intent, Vec<Command>)> {
    let (who, order) = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Jammed>(m).is_some())
        .find_map(|m| {
            delve_rules::rules::areas::area_choices_next_round(
                world,
                m,
                delve_rules::rules::combat::jam_choices,
            )
            .into_iter()
            .map(|(_, c)| Command::from(&c.command))
            .find(|c| matches!(c, Command::ClearJam(_)))
            .map(|o| (m, o))
        })?;
    Some((
        Intent::ClearJam {
            who: name(world, who),
        },
        vec![order],
    ))
}
