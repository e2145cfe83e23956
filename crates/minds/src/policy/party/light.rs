//! The party's light (Dungeon Delves › Light and Darkness): what its members carry burning,
//! and the next light to kindle.

use crate::policy::knowledge::{Distances, Knowledge};
use delve_rules::act::AnyAct;
use delve_rules::command::acts::{MoveParty, PickUpLight};
use delve_rules::creature::Position;
use delve_rules::rules::movement::Pace;

use bevy::prelude::*;

use super::{Homeward, Intent, PartyMind, is_up, leader, name, square};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::LightKind;
use delve_rules::command::Command;
use delve_rules::rules::light::{CarriedBy, LightSource, LightUp, Refuel};

/// The lights the members carry: (bearer, light, the light), in a fixed order.
pub(super) fn carried(world: &mut World, members: &[Entity]) -> Vec<(Entity, Entity, LightSource)> {
    delve_ground::query_cache::cached_query(
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

/// Does the party see at `at` by all the light it has: a lit light is carried by a member up
/// there, or none burns (it sees by what is there, or in the dark)?
pub(super) fn light_on(world: &mut World, members: &[Entity], at: GridPos) -> bool {
    let burning: Vec<Entity> = carried(world, members)
        .iter()
        .filter(|(b, _, l)| l.lit && is_up(world, *b))
        .map(|(b, ..)| *b)
        .collect();
    burning.is_empty() || burning.iter().any(|&b| square(world, b) == Some(at))
}

/// Rounds of fuel left in the party's burning lights below which it lights the next.
const DYING_ROUNDS: u64 = 2;

/// Every light the party has burning dies within [`DYING_ROUNDS`] (none burns on).
pub(super) fn light_dying(world: &mut World, members: &[Entity]) -> bool {
    let burning: Vec<Option<u64>> = carried(world, members)
        .iter()
        .filter(|(b, _, l)| l.lit && is_up(world, *b))
        .map(|(.., l)| l.fuel_rounds)
        .collect();
    !burning.is_empty()
        && burning
            .iter()
            .all(|f| f.is_some_and(|rounds| rounds <= DYING_ROUNDS))
}

/// The light a member is offered to kindle (Dungeon Delves › Light and Darkness; the light
/// area's offers, as the member will have them in the round its order is carried out): the first
/// member, in a fixed order, offered to light an unlit light with fuel; else the first offered to
/// refuel a lantern from a flask. The member and the offered command.
pub(super) fn light_to_kindle(world: &mut World, members: &[Entity]) -> Option<(Entity, Command)> {
    let mut members = members.to_vec();
    members.sort();
    // Only the light area's offers: this is asked every round the party has no light burning.
    let first_offered = |takes: fn(&AnyAct) -> bool| {
        members.iter().find_map(|&m| {
            delve_rules::rules::areas::area_choices_next_round(
                world,
                m,
                delve_rules::rules::light::light_choices,
            )
            .into_iter()
            .find(|(_, c)| takes(&c.command))
            .map(|(_, c)| (m, Command::from(&c.command)))
        })
    };
    first_offered(|a| a.get::<LightUp>().is_some())
        .or_else(|| first_offered(|a| a.get::<Refuel>().is_some()))
}

/// Turns of light below which the party takes a lantern or torch it finds on the level.
const SHORT_OF_LIGHT_TURNS: u64 = 12;

/// Short of light (less than [`SHORT_OF_LIGHT_TURNS`] turns of fuel, and nothing that burns
/// on), the party takes a lantern or torch it has seen standing on the level, within 40 squares
/// of walking (Dungeon Delves › Light and Darkness: it carries its light on): the leader walks
/// there and picks it up.
pub(super) fn take_a_light(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &Distances,
) -> Option<(Intent, Vec<Command>)> {
    if mind.homeward == Some(Homeward::Fleeing)
        || burns_forever(world, members)
        || crate::policy::outcome::fuel_rounds(world, members)
            >= SHORT_OF_LIGHT_TURNS * delve_ground::time::ROUNDS_PER_TURN
    {
        return None;
    }
    let standing: Vec<GridPos> = delve_ground::query_cache::cached_query(
        world,
        |world, q: &mut QueryState<(&LightSource, &Position), Without<CarriedBy>>| {
            q.iter(world)
                .filter(|(l, _)| {
                    matches!(l.kind, LightKind::Lantern | LightKind::Torch)
                        && l.fuel_rounds != Some(0)
                })
                .map(|(_, p)| p.0)
                .collect()
        },
    );
    let (at, _) = standing
        .into_iter()
        .filter(|p| {
            know.has_seen(*p)
                && !mind.light_memory.lights_given_up.contains(p)
                && !mind.exploring.exhausted.contains(p)
        })
        .filter_map(|p| Some((p, from_here.cost(know.grid, p)?)))
        .filter(|&(_, cost)| cost <= 80)
        .min_by_key(|&(p, cost)| (cost, p))?;
    let leader = leader(world, members)?;
    let intent = Intent::TakeALight { at };
    if square(world, leader) == Some(at) {
        mind.light_memory.lights_given_up.push(at);
        return Some((
            intent,
            vec![
                PickUpLight {
                    who: name(world, leader),
                }
                .into(),
            ],
        ));
    }
    Some((
        intent,
        vec![
            MoveParty {
                party: mind.party.clone(),
                to: (at.x, at.y),
                pace: Pace::Exploration,
            }
            .into(),
        ],
    ))
}

/// Lights on the level taken, or given up taking.
#[derive(Clone, Debug, Default)]
pub(super) struct LightMemory {
    /// Lights on the level it took, or gave up taking.
    pub(super) lights_given_up: Vec<GridPos>,
}
