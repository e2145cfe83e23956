//! Why a delve ended short of its goal ([`Cause`]): read at its end from the party's state and
//! the Judge's map, for the lab (it never guides the policy).

use delve_ground::grid::DungeonGrid;
use delve_rules::creature::Below;
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::traps::Trap;
use delve_rules::rules::vision::FactionMemory;

use bevy::prelude::*;

use super::super::outcome::Outcome;
use super::light::carried;
use super::{DoorWork, PartyMind, is_up, name, square};
use crate::policy::outcome::Cause;
use delve_ground::grid::terrain::Terrain;
use delve_ground::grid::{DoorState, GridPos, WaterDepth};
use delve_ground::level::Goal;
use delve_ground::level::schema::{ConditionKind, Gear};
use delve_ground::log::EventLog;
use delve_rules::creature::{Conditions, Equipment, Position};
use delve_rules::rules::doors::Door;
use std::collections::BTreeMap;

/// The cause of an outcome other than the goal.
pub(super) fn why_it_ended(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    outcome: Outcome,
) -> Option<Cause> {
    Some(match outcome {
        Outcome::GoalReached | Outcome::GoalReachedMembersLeft => return None,
        Outcome::PartyDead => Cause::Overwhelmed {
            by: last_attackers(world, members),
        },
        Outcome::PartyFled => Cause::FledFrom {
            foes: last_attackers(world, members),
            down: members
                .iter()
                .filter(|&&m| !is_up(world, m))
                .map(|&m| name(world, m))
                .collect(),
        },
        Outcome::OutOfLight => out_of_light(world, members),
        Outcome::OutOfTime => match stuck(world, members) {
            Some(c) => c,
            None => blocked_on_the_way(world, mind).unwrap_or(Cause::TurnLimit),
        },
        Outcome::GaveUp => blocked_on_the_way(world, mind).unwrap_or(Cause::NothingLeftToTry),
    })
}

/// The foes whose attacks on members are the last ten in the log, by name.
fn last_attackers(world: &World, members: &[Entity]) -> Vec<String> {
    let names: Vec<String> = members.iter().map(|&m| name(world, m)).collect();
    let mut foes: Vec<String> = world
        .resource::<EventLog>()
        .entries()
        .iter()
        .rev()
        .filter_map(|e| match e.get::<CombatEvent>() {
            Some(CombatEvent::Attacked { who, target, .. })
                if names.contains(target) && !names.contains(who) =>
            {
                Some(who.clone())
            }
            _ => None,
        })
        .take(10)
        .collect();
    foes.sort();
    foes.dedup();
    foes
}

fn out_of_light(world: &mut World, members: &[Entity]) -> Cause {
    let flasks = |world: &World, m: Entity| {
        world.get::<Equipment>(m).map_or(0, |g| {
            g.0.iter()
                .map(|g| match g {
                    Gear::Oil(n) => *n,
                    _ => 0,
                })
                .sum::<u32>()
        })
    };
    for &m in members {
        if world.get::<Below>(m).is_some()
            && (flasks(world, m) > 0
                || carried(world, &[m])
                    .iter()
                    .any(|(.., l)| l.fuel_rounds != Some(0)))
            && let Some(at) = square(world, m)
        {
            return Cause::LightBearerInAPit {
                who: name(world, m),
                at,
            };
        }
    }
    // Home with light still in hand: it turned back short of light, as a careful party does.
    let left = crate::policy::outcome::fuel_rounds(world, members);
    if left > 0 && super::light::has_light_burning(world, members) {
        return Cause::TurnedBackShortOfLight {
            turns_left: (left / delve_ground::time::ROUNDS_PER_TURN) as u32,
        };
    }
    let oil: u32 = members.iter().map(|&m| flasks(world, m)).sum();
    if oil > 0 {
        Cause::OilButNoLantern { flasks: oil }
    } else {
        Cause::LightSpent
    }
}

fn stuck(world: &World, members: &[Entity]) -> Option<Cause> {
    members.iter().find_map(|&m| {
        let stuck = is_up(world, m)
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Stuck));
        stuck.then(|| Cause::StuckInASqueeze {
            who: name(world, m),
            at: square(world, m).unwrap_or_default(),
        })
    })
}

/// On the Judge's map, the shortest way from the way in to the goal (through every door and
/// over every caving obstacle); along it, the first door still shut — a secret one never found,
/// or one left shut and how it was tried — or else the first caving obstacle whose far side the
/// party never saw. `None` with no goal square, no way at all, or nothing found in the way.
fn blocked_on_the_way(world: &mut World, mind: &PartyMind) -> Option<Cause> {
    let goal = match mind.goal {
        Goal::Reach(p) | Goal::Room(p) | Goal::Exit(p) => p,
        Goal::ExploreAll | Goal::Recover(_) => return None,
    };
    let grid = world.resource::<DungeonGrid>().clone();
    let doors: BTreeMap<GridPos, Door> =
        delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Door)>| {
            q.iter().map(|(p, d)| (p.0, d.clone())).collect()
        })
        .unwrap_or_default();
    let holes: Vec<GridPos> = open_holes(world);
    let caving = |p: GridPos| -> Option<&'static str> {
        match grid.terrain(p) {
            Some(Terrain::Chasm { .. }) => Some("chasm"),
            Some(Terrain::Ledge { .. }) => Some("ledge"),
            Some(Terrain::Squeeze) => Some("squeeze"),
            Some(Terrain::Water(WaterDepth::Deep)) => Some("deep water"),
            _ if holes.contains(&p) => Some("open pit"),
            _ => None,
        }
    };
    let way = delve_ground::grid::path::find_path_with(&grid, mind.way_in, goal, |p| {
        doors.contains_key(&p) || grid.is_passable(p) || caving(p).is_some()
    })?
    .squares;
    let memory = world.resource::<FactionMemory>();
    let seen: &[bool] = memory.seen.get(mind.faction.0).map_or(&[], Vec::as_slice);
    let seen_at = |p: GridPos| grid.index(p).is_some_and(|i| seen.get(i) == Some(&true));
    for &p in &way {
        if let Some(d) = doors.get(&p)
            && d.state != DoorState::Open
            && !d.broken
        {
            if d.secret {
                return Some(Cause::SecretDoorNotFound { at: p });
            }
            return Some(Cause::DoorLeftShut {
                at: p,
                tried: mind
                    .door_memory
                    .door_work
                    .get(&p)
                    .map(tried_at)
                    .unwrap_or_default(),
            });
        }
    }
    // No door shut on the way: the first obstacle whose far side the party never saw.
    way.iter().enumerate().find_map(|(k, &p)| {
        let what = caving(p)?;
        let beyond = way[k + 1..].iter().find(|&&q| caving(q).is_none())?;
        (!seen_at(*beyond)).then(|| Cause::CavingNotTaken {
            at: p,
            what: what.to_owned(),
        })
    })
}

/// Every open pit on the level (the Judge's map).
fn open_holes(world: &mut World) -> Vec<GridPos> {
    delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Trap)>| {
        q.iter()
            .filter(|(_, t)| t.is_hole())
            .map(|(p, _)| p.0)
            .collect()
    })
    .unwrap_or_default()
}

/// How the party tried a door, in words.
fn tried_at(w: &DoorWork) -> Vec<String> {
    let mut tried = Vec::new();
    if w.listened {
        tried.push("listened".to_owned());
    }
    if w.tried_open {
        tried.push("by_hand".to_owned());
    }
    if w.key_tried {
        tried.push("key".to_owned());
    }
    if w.picked {
        tried.push("pick_failed".to_owned());
    }
    for _ in 0..w.methodical_picks {
        tried.push("methodical_pick".to_owned());
    }
    for _ in 0..w.bashes {
        tried.push("bash".to_owned());
    }
    if w.jammed {
        tried.push("jammed".to_owned());
    }
    tried
}
