//! The end of a delve no policy plays (solo play), told as a party under its policy ends it
//! ([`DelveEnd`]), its numbers counted from the level's start: a party whose every member is
//! down is dead; a party that left the level (`rules::party::Leave`) reached its goal if it
//! met it — stood on the goal's square or in its room, carries the gear it came for, saw every
//! square it could reach, or left by the way out — and else gave up. Those down it did not
//! carry out are left behind.

use crate::policy::outcome::{LeftBehind, Stayed};
use delve_ground::grid::DungeonGrid;
use delve_ground::level::Level;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_rules::creature::{Conditions, Equipment, Faction, Position};
use delve_rules::rules::carrying::Holding;
use delve_rules::rules::party::PartyEvent;

use bevy::prelude::*;

use super::{DelveEnd, PartyMinds, is_up};
use crate::policy::outcome::Outcome;
use delve_ground::grid::GridPos;
use delve_ground::level::Goal;
use delve_ground::log::log_in;
use delve_rules::rules::party::Parties;

/// The fuel each party carried as the level opened, by party name: the light its delve burns is
/// counted from it.
#[derive(Resource, Clone, Debug, Default)]
pub struct FuelAtStart(pub Vec<(String, u64)>);

/// As the level opens, after its creatures: each party's fuel.
pub(super) fn count_fuel(world: &mut World, _level: &Level) {
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
    world.insert_resource(GoalsStoodOn::default());
}

/// The parties no policy plays that have stood on their goal's square, or in its room.
#[derive(Resource, Clone, Debug, Default)]
pub struct GoalsStoodOn(pub Vec<String>);

/// Has `party` (members `members`) met the level's goal, leaving at `at`?
fn goal_met(world: &World, party: &str, members: &[Entity], at: Option<GridPos>) -> bool {
    let Some(goal) = world
        .get_resource::<super::LevelGoal>()
        .map(|g| g.0.clone())
    else {
        return false;
    };
    match goal {
        Goal::Exit(p) => at == Some(p),
        Goal::Reach(_) | Goal::Room(_) => world
            .get_resource::<GoalsStoodOn>()
            .is_some_and(|g| g.0.iter().any(|n| n == party)),
        Goal::Recover(gear) => members
            .iter()
            .any(|&m| is_up(world, m) && world.get::<Equipment>(m).is_some_and(|g| g.has(&gear))),
        Goal::ExploreAll => {
            let (Some(&first), Some(way_in)) = (
                members.first(),
                world
                    .resource::<Parties>()
                    .get(party)
                    .and_then(|p| p.way_in),
            ) else {
                return false;
            };
            world
                .get::<Faction>(first)
                .is_some_and(|&f| crate::policy::outcome::explored_all(world, f, way_in))
        }
    }
}

/// Notes a party that stands on its goal's square or in its room.
fn note_the_goal(world: &mut World, party: &str, members: &[Entity]) {
    let Some(goal) = world
        .get_resource::<super::LevelGoal>()
        .map(|g| g.0.clone())
    else {
        return;
    };
    let squares: Vec<GridPos> = match goal {
        Goal::Reach(p) => vec![p],
        Goal::Room(p) => world.resource::<DungeonGrid>().room_of(p),
        _ => return,
    };
    let there = members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Position>(m)
                .is_some_and(|p| squares.contains(&p.0))
    });
    if there {
        let mut stood = world.get_resource_or_insert_with(GoalsStoodOn::default);
        if !stood.0.iter().any(|n| n == party) {
            stood.0.push(party.to_owned());
        }
    }
}

/// Each round: a party no policy plays whose every member is down ends the delve, dead; one
/// that left the level ends it as its goal was met or not.
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
        note_the_goal(world, &party, &members);
        let left = world
            .resource::<Parties>()
            .get(&party)
            .is_some_and(|p| p.left);
        let all_down = !members.iter().any(|&m| is_up(world, m));
        if !(left || all_down) {
            continue;
        }
        let fuel = world
            .get_resource::<FuelAtStart>()
            .and_then(|f| f.0.iter().find(|(n, _)| *n == party).map(|(_, f)| *f))
            .unwrap_or(0);
        let mut tally = crate::policy::outcome::tally(world, &members, 0, fuel);
        let outcome = if all_down {
            Outcome::PartyDead
        } else {
            let at = left_at(world, &party);
            tally.left_behind = left_behind(world, &members);
            if goal_met(world, &party, &members, at) {
                Outcome::GoalReached.leaving(&tally.left_behind)
            } else {
                Outcome::GaveUp
            }
        };
        if outcome == Outcome::PartyDead {
            tally.count_the_dying(world, &members);
        }
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

/// Where the party left the level (its last `LeftTheLevel`).
fn left_at(world: &World, party: &str) -> Option<GridPos> {
    world
        .resource::<EventLog>()
        .of::<PartyEvent>()
        .filter_map(|e| match e {
            PartyEvent::LeftTheLevel { party: p, at, .. } if p == party => Some(*at),
            _ => None,
        })
        .last()
}

/// Those down and alive the party did not carry out: each could have been brought out if one
/// of the others up could bear it (`rules::carrying::load_with`).
fn left_behind(world: &World, members: &[Entity]) -> Vec<LeftBehind> {
    let carried = |m: Entity| {
        members
            .iter()
            .any(|&b| world.get::<Holding>(b).is_some_and(|h| h.whom == m))
    };
    members
        .iter()
        .copied()
        .filter(|&m| {
            !is_up(world, m)
                && !carried(m)
                && world
                    .get::<Conditions>(m)
                    .is_some_and(|c| !c.has(ConditionKind::Dead))
        })
        .filter_map(|m| {
            let at = world.get::<Position>(m)?.0;
            let could_be_brought = members.iter().any(|&o| {
                o != m
                    && is_up(world, o)
                    && delve_rules::rules::carrying::load_with(world, o, m).is_ok()
            });
            Some(LeftBehind {
                who: delve_rules::creature::name_of(world, m),
                at,
                how: Stayed::Dying,
                could_be_brought,
            })
        })
        .collect()
}
