//! The quarry: where the goal is gear some creature carries (`Recover`) and the party has not
//! found it, the foes it has seen and judged it can beat (`odds`) are where it may be. Once
//! nothing is left to explore, the party seeks out the nearest of them where it last saw it —
//! a player who has searched a level and not found the relic goes after the eel it saw in the
//! pool. A foe it sees no more where it last saw it is forgotten (it moved off, who knows where).

use delve_rules::creature::CreatureIndex;

use bevy::prelude::*;

use super::standing::in_sight;
use super::way::goal_met;
use super::{PartyMind, is_up};
use crate::policy::knowledge::{Distances, Knowledge};
use delve_ground::grid::GridPos;
use delve_ground::level::Goal;

/// After the party has judged the foes in sight: each it would fight is its quarry where it
/// stands now; one too strong, felled or gone from where it was last seen is not.
pub(super) fn update(
    world: &World,
    mind: &mut PartyMind,
    members: &[Entity],
    in_sight_now: &[(Entity, GridPos)],
) {
    let alive = |name: &str| {
        world
            .resource::<CreatureIndex>()
            .0
            .get(name)
            .is_some_and(|&e| is_up(world, e))
    };
    let seen_now: Vec<(String, GridPos)> = in_sight_now
        .iter()
        .map(|&(e, at)| (delve_rules::creature::name_of(world, e), at))
        .collect();
    mind.quarry.retain(|(name, at)| {
        alive(name)
            && !mind.dangers.iter().any(|(n, _)| n == name)
            && (seen_now.iter().any(|(n, _)| n == name) || !in_sight(world, members, *at))
    });
    for (name, at) in seen_now {
        if !alive(&name) || mind.dangers.iter().any(|(n, _)| *n == name) {
            continue;
        }
        match mind.quarry.iter_mut().find(|(n, _)| *n == name) {
            Some(q) => q.1 = at,
            None => mind.quarry.push((name, at)),
        }
    }
}

/// The nearest quarry the party knows a way to (a square beside where it was last seen), with
/// that square: only for a goal of gear not yet in hand.
pub(super) fn nearest(
    world: &World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &Distances,
) -> Option<(String, GridPos)> {
    if !matches!(mind.goal, Goal::Recover(_)) || goal_met(world, mind, members) {
        return None;
    }
    mind.quarry
        .iter()
        .filter_map(|(name, at)| {
            let (cost, beside) = at
                .neighbours()
                .into_iter()
                .filter_map(|p| Some((from_here.cost(know.grid, p)?, p)))
                .min()?;
            Some((cost, name.clone(), beside))
        })
        .min()
        .map(|(_, name, beside)| (name, beside))
}
