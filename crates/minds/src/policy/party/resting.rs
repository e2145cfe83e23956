//! Resting (Dungeon Delves › Rest): the party rests a turn once five have passed, or when a
//! member is winded — or before a turn's work that would carry a member past five.

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
    if !needs_rest(t.world, t.members, 0) {
        return None;
    }
    Some(rest_now(t))
}

/// Dungeon Delves › Rest: "all adventurers must rest for 1 turn for every 5 turns … more than
/// 5 turns without stopping to rest, they become winded". A careful party about to begin a
/// turn's work — a methodical search, pick or disarm — that would carry a member past five
/// turns without rest rests first, rather than become winded at it (and rest after).
pub(super) fn rest_before(t: &mut ThisRound<'_>, next: &Decision) -> Option<Decision> {
    let a_turns_work = next.1.iter().any(|c| {
        matches!(
            c,
            Command::Search(_)
                | Command::PickLockMethodically(_)
                | Command::DisarmTrapMethodically(_)
        )
    });
    // (Five whole turns is not yet more than five: work that ends on the fifth turn is done first.)
    (a_turns_work && needs_rest(t.world, t.members, ROUNDS_PER_TURN - 1)).then(|| rest_now(t))
}

fn rest_now(t: &mut ThisRound<'_>) -> Decision {
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
    (Intent::Rest, orders)
}

/// A member who needs rest will have had five whole turns without it `within` rounds from now,
/// or is winded (Dungeon Delves › Rest).
pub(super) fn needs_rest(world: &World, members: &[Entity], within: u64) -> bool {
    members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Proficiencies>(m)
                .is_some_and(delve_rules::rules::rest::needs_rest)
            && (world.get::<Fatigue>(m).is_some_and(|f| {
                f.rounds_without_rest + within
                    >= delve_rules::rules::rest::TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN
            }) || world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Winded)))
    })
}
