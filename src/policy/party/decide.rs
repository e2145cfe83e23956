//! The party's decision each round, in the order of the module's list (`policy::party`): the
//! end, light, flight, rest, turning back, where next, and what is on the way.

use super::*;

use bevy::prelude::*;

use crate::command::Command;
use crate::command::acts::*;
use crate::creature::{Conditions, Proficiencies};
use crate::grid::DungeonGrid;
use crate::level::schema::ConditionKind;
use crate::policy::knowledge::Knowledge;
use crate::rules::movement::Walking;
use crate::rules::party::Parties;
use crate::time::ROUNDS_PER_TURN;

/// Busy: walking, closing up, climbing, resting, at work, or in a battle (not fleeing).
pub(super) fn busy(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let fighting = world
        .get_resource::<crate::rules::combat::battle::Battle>()
        .is_some_and(|b| b.active);
    if fighting && mind.homeward != Some(Homeward::Fleeing) && !too_many_down(world, mind, members)
    {
        return true;
    }
    let marching = world
        .resource::<Parties>()
        .get(&mind.party)
        .is_some_and(|p| p.pace.is_some());
    marching
        || members.iter().any(|&m| {
            is_up(world, m)
                && (world.get::<Walking>(m).is_some()
                    || world
                        .get::<crate::rules::caving::climbing::Climbing>(m)
                        .is_some()
                    || world.get::<crate::rules::task::Task>(m).is_some()
                    || world.get::<crate::creature::Resting>(m).is_some())
        })
}

pub(super) fn too_many_down(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let down = members.iter().filter(|&&m| !is_up(world, m)).count();
    down > 0 && down as f32 >= mind.policy.flee_when_down * members.len() as f32
}

/// The party's decision this round: why, and its orders.
pub(super) fn decide(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    if !mind.set_out {
        mind.set_out = true;
        let orders = setting_out(world, mind, members);
        if !orders.is_empty() {
            return Some((Intent::SetOut, orders));
        }
    }
    // The leader is down, or at the bottom of a hole: the others go first.
    if members.first() != Some(&leader) {
        let below = |m: Entity| world.get::<crate::creature::Below>(m).is_some();
        let mut order: Vec<Entity> = members
            .iter()
            .copied()
            .filter(|&m| is_up(world, m) && !below(m))
            .collect();
        order.extend(
            members
                .iter()
                .copied()
                .filter(|&m| is_up(world, m) && below(m)),
        );
        order.extend(members.iter().copied().filter(|&m| !is_up(world, m)));
        let order = order.iter().map(|&m| name(world, m)).collect();
        return Some((
            Intent::SetOut,
            vec![
                MarchingOrder {
                    party: mind.party.clone(),
                    order,
                }
                .into(),
            ],
        ));
    }
    // Stuck in a squeeze, before anything else (a stuck member can do nothing but escape):
    // push forward (Dungeonbashing) while that is at least as likely as wiggling back (a
    // Paralysis save) and the way it was going lies ahead; else wiggle back. Each failed push
    // makes the next −4 (Dungeon Delves › Squeezing), so a hopeless push gives way to the
    // wiggle.
    if let Some(stuck) = members.iter().copied().find(|&m| {
        is_up(world, m)
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Stuck))
    }) {
        let who = name(world, stuck);
        let chances = crate::rules::caving::escape_choices(world, stuck);
        let chance_of = |back: bool| {
            chances
                .iter()
                .find(|c| matches!(c.command, Command::WiggleBack(_)) == back)
                .map_or(0.0, |c| c.chance)
        };
        let forward = mind.homeward.is_none() && chance_of(false) >= chance_of(true);
        let order: Command = if forward {
            PushForward { who: who.clone() }.into()
        } else {
            WiggleBack { who: who.clone() }.into()
        };
        return Some((Intent::GetUnstuck { who }, vec![order]));
    }
    if mind.homeward != Some(Homeward::Fleeing)
        && let Some(order) = take_from_the_fallen(world, mind, members)
    {
        return Some(order);
    }
    // Dungeon Delves › Light and Darkness: the next light is lit before the last one dies (a
    // round to light it), so the party is never in the dark between them.
    if (!has_light_burning(world, members) || light_dying(world, members))
        && let Some((who, refuel)) = light_to_kindle(world, members)
    {
        let n = name(world, who);
        return Some(if refuel {
            (
                Intent::Refuel { who: n.clone() },
                vec![Refuel { who: n }.into()],
            )
        } else {
            let mut orders: Vec<Command> = vec![LightUp { who: n.clone() }.into()];
            // The light goes second in the marching order, to light the leader's way.
            if members.first() != Some(&who) && members.get(1) != Some(&who) {
                let mut order: Vec<String> = members
                    .iter()
                    .filter(|&&m| m != who)
                    .map(|&m| name(world, m))
                    .collect();
                order.insert(1.min(order.len()), n.clone());
                orders.push(
                    MarchingOrder {
                        party: mind.party.clone(),
                        order,
                    }
                    .into(),
                );
            }
            (Intent::Relight { who: n }, orders)
        });
    }
    update_doors(world, mind, members);
    let seen = world
        .resource::<crate::rules::vision::FactionMemory>()
        .seen
        .get(mind.faction.0)
        .cloned()
        .unwrap_or_default();
    let (traps, holes) = known_traps(world, mind.faction);
    let grid = world.resource::<DungeonGrid>().clone();
    let all_seen = seen.len() == (grid.width() * grid.height()) as usize;
    let (doors, shut) = (mind.doors.clone(), mind.shut_for_good.clone());
    let know = Knowledge {
        grid: &grid,
        seen: &seen,
        doors: &doors,
        shut_for_good: &shut,
        traps: &traps,
        holes: &holes,
        swims: all_swim(world, members),
        jumps: party_jumps(world, mind, members),
        traverses: party_traverses(world, mind, members),
        climbs: party_climbs(world, members),
    };
    if let Some(order) = close_up(world, mind, members, leader, here) {
        return Some(order);
    }
    if mind.homeward != Some(Homeward::Fleeing)
        && let Some(order) = fetch_from_the_pit(world, mind, members)
    {
        return Some(order);
    }
    if let Some(order) = out_of_the_pit(world, mind, members) {
        return Some(order);
    }
    if all_seen && let Some(order) = rejoin_across(world, mind, members, leader, &know) {
        return Some(order);
    }
    if mind.homeward != Some(Homeward::Fleeing) && too_many_down(world, mind, members) {
        mind.homeward = Some(Homeward::Fleeing);
        for &m in members {
            world
                .entity_mut(m)
                .insert(crate::rules::combat::behaviour::Retreating);
        }
        return Some((
            Intent::TurnBack {
                why: Homeward::Fleeing,
            },
            Vec::new(),
        ));
    }
    if mind.homeward == Some(Homeward::Fleeing)
        && let Some(order) = spike_behind(world, mind, members, here)
    {
        return Some(order);
    }
    if mind.homeward != Some(Homeward::Fleeing) && needs_rest(world, members) {
        return Some((
            Intent::Rest,
            vec![
                RestParty {
                    party: mind.party.clone(),
                }
                .into(),
            ],
        ));
    }
    if !all_seen {
        return None;
    }
    let from_here = know.distances(here);
    // An edge it stands on or beside stays an edge only for what cannot be seen from here (dark
    // walls, corners): walking there again would show no more.
    for p in std::iter::once(here).chain(here.neighbours()) {
        if know.frontier(p) && !mind.exhausted.contains(&p) {
            mind.exhausted.push(p);
        }
    }
    if mind.homeward.is_none()
        && let Some(order) = take_a_light(world, mind, members, &know, &from_here)
    {
        return Some(order);
    }
    if mind.homeward.is_none()
        && let Some(why) = turn_back(world, mind, members, &know, &from_here)
    {
        mind.homeward = Some(why);
        mind.heading_for = None;
        return Some((Intent::TurnBack { why }, Vec::new()));
    }
    // Where to, and why.
    let (target, intent) = if mind.homeward.is_some() {
        (mind.way_in, Intent::GoHome { to: mind.way_in })
    } else if let Some(goal) = goal_square(mind, &know, &from_here) {
        (goal, Intent::MakeForGoal { to: goal })
    } else if let Some(edge) = nearest_edge(mind, &know, &from_here, here) {
        (edge, Intent::Explore { to: edge })
    } else if let Some(end) = dead_end_to_search(mind, &know, &from_here) {
        if members
            .iter()
            .any(|&m| is_up(world, m) && square(world, m) == Some(end))
        {
            return Some(search_here(world, mind, members, end));
        }
        // The best searcher goes first to the dead end (in a corridor no one passes the one on
        // it).
        let up: Vec<Entity> = members
            .iter()
            .copied()
            .filter(|&m| is_up(world, m))
            .collect();
        if let Some(searcher) = best_searcher(world, &up)
            && searcher != leader
        {
            return Some((
                Intent::Search { at: end },
                take_the_lead(world, &mind.party, members, searcher, end),
            ));
        }
        (end, Intent::Search { at: end })
    } else {
        mind.homeward = Some(Homeward::NothingLeft);
        return Some((
            Intent::TurnBack {
                why: Homeward::NothingLeft,
            },
            Vec::new(),
        ));
    };
    if target == here {
        // Arrived where it was bound, and it is still an edge: it is not tried again.
        mind.exhausted.push(target);
        return None;
    }
    let walk = from_here.walk_to(&grid, target)?;
    on_the_way(world, mind, members, &know, &walk, target, intent)
}

/// A member who needs rest has had five whole turns without it, or is winded (Dungeon Delves ›
/// Rest).
pub(super) fn needs_rest(world: &World, members: &[Entity]) -> bool {
    members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Proficiencies>(m)
                .is_some_and(crate::rules::rest::needs_rest)
            && (world
                .get::<crate::rules::rest::Fatigue>(m)
                .is_some_and(|f| {
                    f.rounds_without_rest
                        >= crate::rules::rest::TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN
                })
                || world
                    .get::<Conditions>(m)
                    .is_some_and(|c| c.has(ConditionKind::Winded)))
    })
}
