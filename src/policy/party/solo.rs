//! The end of a delve no policy plays (solo play): a party whose every member is down is dead,
//! and the delve is over ([`DelveEnd`], as a party under its policy ends it), with its numbers
//! counted from the level's start. (Leaving the level by the way in is the player's own end,
//! not yet told.)

use bevy::prelude::*;

use super::{DelveEnd, PartyMinds, is_up};
use crate::log::log_in;
use crate::policy::outcome::Outcome;
use crate::rules::party::Parties;

/// The fuel each party carried as the level opened, by party name: the light its delve burns is
/// counted from it.
#[derive(Resource, Clone, Debug, Default)]
pub struct FuelAtStart(pub Vec<(String, u64)>);

/// As the level opens, after its creatures: each party's fuel.
pub(super) fn count_fuel(world: &mut World, _level: &crate::level::Level) {
    let parties: Vec<(String, Vec<Entity>)> = world
        .resource::<Parties>()
        .0
        .iter()
        .map(|p| (p.name.clone(), p.marching_order.clone()))
        .collect();
    let fuel = parties
        .into_iter()
        .map(|(name, members)| (name, crate::policy::outcome::fuel_rounds(world, &members)))
        .collect();
    world.insert_resource(FuelAtStart(fuel));
}

/// Each round: a party no policy plays whose every member is down ends the delve, dead.
pub(super) fn the_end_of_solo_play(world: &mut World) {
    if world.resource::<DelveEnd>().0.is_some() {
        return;
    }
    let minded: Vec<String> = world
        .resource::<PartyMinds>()
        .0
        .iter()
        .map(|m| m.party.clone())
        .collect();
    let parties: Vec<(String, Vec<Entity>)> = world
        .resource::<Parties>()
        .0
        .iter()
        .filter(|p| !minded.contains(&p.name) && !p.marching_order.is_empty())
        .map(|p| (p.name.clone(), p.marching_order.clone()))
        .collect();
    for (party, members) in parties {
        if members.iter().any(|&m| is_up(world, m)) {
            continue;
        }
        let fuel = world
            .get_resource::<FuelAtStart>()
            .and_then(|f| f.0.iter().find(|(n, _)| *n == party).map(|(_, f)| *f))
            .unwrap_or(0);
        let tally = crate::policy::outcome::tally(world, &members, 0, fuel);
        let outcome = Outcome::PartyDead;
        log_in(
            world,
            super::PolicyEvent::DelveEnded {
                party: party.clone(),
                outcome,
                tally: tally.clone(),
            },
        );
        world.resource_mut::<DelveEnd>().0 = Some((party, outcome, tally));
        return;
    }
}
