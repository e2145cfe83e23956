//! Resting (Dungeon Delves › Rest): the party rests a turn once five have passed, or when a
//! member is winded.

use delve_rules::rules::rest::Fatigue;

use bevy::prelude::*;

use super::light::carried;
use super::round::{Decision, ThisRound};
use super::{Intent, is_up, offered};
use delve_ground::level::schema::ConditionKind;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::command::Command;
use delve_rules::command::acts::{Douse, RestParty};
use delve_rules::creature::{Conditions, Proficiencies};

/// Dungeon Delves › Rest: a turn once five have passed, or when a member is winded; resting in
/// the dark (`douse_while_resting`) saves the turn's fuel, the next light lit after.
pub(super) fn rest(t: &mut ThisRound<'_>) -> Option<Decision> {
    if !needs_rest(t.world, t.members) {
        return None;
    }
    let mut orders: Vec<Command> = vec![
        RestParty {
            party: t.mind.party.clone(),
        }
        .into(),
    ];
    // Resting in the dark saves the turn's fuel; the next light is lit after.
    if t.mind.policy.douse_while_resting {
        // (A light that needs no fuel burns on.)
        let mut bearers: Vec<Entity> = carried(t.world, t.members)
            .iter()
            .filter(|(_, _, l)| l.lit && l.fuel_rounds.is_some())
            .map(|(b, ..)| *b)
            .collect();
        bearers.dedup();
        orders.extend(
            bearers
                .into_iter()
                .filter_map(|b| offered(t.world, b, |a| a.get::<Douse>().is_some())),
        );
    }
    Some((Intent::Rest, orders))
}

/// A member who needs rest has had five whole turns without it, or is winded (Dungeon Delves ›
/// Rest).
pub(super) fn needs_rest(world: &World, members: &[Entity]) -> bool {
    members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Proficiencies>(m)
                .is_some_and(delve_rules::rules::rest::needs_rest)
            && (world.get::<Fatigue>(m).is_some_and(|f| {
                f.rounds_without_rest
                    >= delve_rules::rules::rest::TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN
            }) || world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Winded)))
    })
}
