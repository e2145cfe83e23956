//! The end of a delve under a policy: when it ends and how, and who was left behind (and whether they could have been brought out).

use delve_ground::level::schema::ConditionKind;
use delve_rules::creature::{Below, Equipment};
use delve_rules::rules::carrying::Holding;
use delve_rules::rules::caving::climbing::RopesSecured;

use super::fallen::{fallen_with_gear, light_in_a_pit};
use super::fighting::foe_at_hand;
use super::light::{has_light_burning, light_to_kindle};
use crate::policy::outcome::Outcome;
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::Goal;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_rules::creature::Conditions;

use super::{
    Homeward, PartyMind, is_up, leader, name, on_hand, square, straggling, with_the_party,
};

/// Has the delve ended for this party, and how?
pub(super) fn the_end(world: &mut World, mind: &PartyMind, members: &[Entity]) -> Option<Outcome> {
    if members.iter().all(|&m| !is_up(world, m)) {
        return Some(Outcome::PartyDead);
    }
    let rounds = world.resource::<Clock>().rounds;
    if rounds >= mind.policy.turn_limit * ROUNDS_PER_TURN {
        return Some(Outcome::OutOfTime);
    }
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    // (Through the way out, as at the way in, none is left awaiting carrying.)
    if let Goal::Exit(exit) = mind.goal
        && here == exit
        && !awaits_carrying(world, mind, members, here)
    {
        return Some(Outcome::GoalReached);
    }
    // Back at the way in: its leader on it, or beside it with a companion on it, and none who
    // could close up left straggling (the party closes up first). (A party whose home is the
    // way out it was to find leaves only by that.)
    if mind.exploring.home.is_none_or(|h| h == mind.way_in)
        && here.within_a_step(mind.way_in)
        && !members
            .iter()
            .any(|&m| straggling(world, mind, members, here, m))
        && !awaits_carrying(world, mind, members, here)
        && !super::fighting::waits_out(world, mind)
        && (here == mind.way_in
            || members
                .iter()
                .any(|&m| is_up(world, m) && square(world, m) == Some(mind.way_in)))
        && let Some(why) = mind.homeward
    {
        return Some(match why {
            Homeward::GoalMet => Outcome::GoalReached,
            Homeward::Fleeing => Outcome::PartyFled,
            Homeward::LightShort => Outcome::OutOfLight,
            Homeward::NothingLeft
                if mind.goal == Goal::ExploreAll
                    && crate::policy::outcome::explored_all(world, mind.faction, mind.way_in) =>
            {
                Outcome::GoalReached
            }
            Homeward::NothingLeft => Outcome::GaveUp,
        });
    }
    // Its last light burnt out with nothing left to light (a party that came without lights
    // delves by other senses).
    if mind.fuel_at_start > 0
        && !has_light_burning(world, members)
        && light_to_kindle(world, members).is_none()
        && fallen_with_gear(world, mind, members, true).is_empty()
        && !light_in_a_pit(world, mind, members)
    {
        return Some(Outcome::OutOfLight);
    }
    None
}

/// As the party leaves the level (its leader at the way in, or at the exit it was to find):
/// the living members it does not bring out — dying, at the bottom of a pit, or up but more
/// than [`WITH_THE_PARTY`] squares from the leader. A party that does not leave leaves no one.
pub(super) fn left_behind(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
) -> Vec<crate::policy::outcome::LeftBehind> {
    use crate::policy::outcome::{LeftBehind, Stayed};
    let Some(here) = leader(world, members).and_then(|l| square(world, l)) else {
        return Vec::new();
    };
    let leaving = here.within_a_step(mind.way_in) || mind.goal == Goal::Exit(here);
    if !leaving {
        return Vec::new();
    }
    let mut left = Vec::new();
    for &m in members {
        let Some((who, at, how)) = (|| {
            let dead = world
                .get::<Conditions>(m)
                .is_none_or(|c| c.has(ConditionKind::Dead));
            let at = square(world, m)?;
            let how = if dead {
                return None;
            } else if world.get::<Below>(m).is_some() {
                Stayed::InAPit
            } else if !is_up(world, m) {
                Stayed::Dying
            } else if at.chebyshev(here) > with_the_party(members) {
                Stayed::Apart
            } else {
                return None;
            };
            // (One carried goes where its carrier goes.)
            let carried = members
                .iter()
                .any(|&c| world.get::<Holding>(c).is_some_and(|h| h.whom == m));
            if carried && at.chebyshev(here) <= with_the_party(members) {
                return None;
            }
            Some((name(world, m), at, how))
        })() else {
            continue;
        };
        let could_be_brought = could_be_brought(world, mind, members, m, at, how);
        left.push(LeftBehind {
            who,
            at,
            how,
            could_be_brought,
        });
    }
    left
}

/// Could the others have brought out `m`, left at `at` as `how` says? See
/// [`crate::policy::outcome::LeftBehind::could_be_brought`].
pub(super) fn could_be_brought(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    m: Entity,
    at: GridPos,
    how: crate::policy::outcome::Stayed,
) -> bool {
    use crate::policy::outcome::Stayed;
    let others: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&o| o != m && on_hand(world, mind, o))
        .filter_map(|o| Some((o, square(world, o)?)))
        .collect();
    let reaches = |world: &mut World, o: Entity, from: GridPos, to: GridPos| {
        from.within_a_step(to)
            || delve_rules::rules::movement::hazards::way(world, o, from, to).is_ok()
    };
    // (A body the party put down before a squeeze was not to be brought through it: its
    // bearer, so laden, would more likely than not have stuck there for good.)
    let through_a_squeeze = |world: &mut World, _o: Entity| {
        mind.fallen_memory
            .put_down
            .contains(&delve_rules::creature::name_of(world, m))
    };
    match how {
        // One bearer, or two sharing the weight (RULINGS › Carrying and hauling).
        Stayed::Dying => {
            use delve_rules::rules::carrying::{half_load_with, load_with};
            let mut bearers: Vec<(Entity, bool, bool)> = Vec::new();
            for &(o, p) in &others {
                if reaches(world, o, p, at) && !through_a_squeeze(world, o) {
                    let alone = load_with(world, o, m).is_ok();
                    bearers.push((o, alone, half_load_with(world, o, m).is_ok()));
                }
            }
            bearers.iter().any(|&(_, alone, _)| alone)
                || bearers.iter().filter(|&&(_, _, half)| half).count() >= 2
        }
        // One up climbs a rope lowered to it; one down is hauled up it by those who reach the
        // rim, each bearing its share (RULINGS › Carrying and hauling).
        Stayed::InAPit => {
            let roped = world.resource::<RopesSecured>().at(at).is_some();
            let rims: Vec<GridPos> = at
                .neighbours()
                .into_iter()
                .filter(|&r| delve_rules::rules::caving::footing::firm_ground(world, r))
                .collect();
            let mut crew = Vec::new();
            for &(o, p) in &others {
                if rims.iter().any(|&r| reaches(world, o, p, r)) {
                    crew.push(o);
                }
            }
            let rope = roped
                || crew
                    .iter()
                    .any(|&o| world.get::<Equipment>(o).is_some_and(|g| g.has_rope(0)));
            rope && (is_up(world, m) || can_haul(world, m, crew))
        }
        // (One stuck in a squeeze walks to no one.)
        Stayed::Apart => {
            !world
                .get::<delve_rules::creature::Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Stuck))
                && others
                    .first()
                    .is_some_and(|&(_, p)| reaches(world, m, at, p))
        }
    }
}

/// Can some of `crew` haul `m` up together, each bearing its share of its weight within 20
/// stone? Those who cannot bear the share are left out and the share worked out again.
fn can_haul(world: &World, m: Entity, mut crew: Vec<Entity>) -> bool {
    use delve_rules::rules::carrying::{load_bearing, weight_of};
    loop {
        if crew.is_empty() {
            return false;
        }
        let share = weight_of(world, m) / crew.len() as f32;
        let before = crew.len();
        crew.retain(|&o| load_bearing(world, o, share).is_ok());
        if crew.len() == before {
            return true;
        }
    }
}

/// A member down and alive on the floor that no one carries yet, and the party has not found
/// it cannot carry ([`carry_the_downed`]): it does not leave the level without it — unless it
/// flees (then only one at hand is waited for, and none with a foe at hand).
pub(super) fn awaits_carrying(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    here: GridPos,
) -> bool {
    let fleeing = mind.homeward == Some(Homeward::Fleeing);
    if fleeing && foe_at_hand(world, mind, members) {
        return false;
    }
    members.iter().any(|&m| {
        !is_up(world, m)
            && (!fleeing
                || square(world, m).is_some_and(|p| p.chebyshev(here) <= with_the_party(members)))
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| !c.has(ConditionKind::Dead))
            && world.get::<Below>(m).is_none()
            && !mind.fallen_memory.left_for_good.contains(&name(world, m))
            && !members
                .iter()
                .any(|&c| world.get::<Holding>(c).is_some_and(|h| h.whom == m))
    })
}
