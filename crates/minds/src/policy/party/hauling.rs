//! A companion dying at the bottom of a pit or shaft is hauled up a rope (RULINGS › Carrying and
//! hauling): the party walks to the pit, the one with a rope lowers it from the rim, and the one
//! on the rim the rules offer the hauling to hauls, with the crew the offer names — round after
//! round, 10' a round, until the dying one is out.

use bevy::prelude::*;

use super::fallen::walk_up_to;
use super::round::{Decision, ThisRound};
use super::way::walk_up_and;
use super::{Intent, is_up, name, offered, square};
use delve_ground::level::schema::{ConditionKind, Gear};
use delve_rules::command::Command;
use delve_rules::command::acts::{Haul, LowerRope};
use delve_rules::creature::{Below, Conditions, Equipment};
use delve_rules::rules::caving::climbing::RopesSecured;
use delve_rules::rules::caving::footing::firm_ground;

/// The tactic: a member down and alive at the bottom of a hole is hauled out, if the party has
/// a rope there or with it.
pub(super) fn haul_up_the_dying(t: &mut ThisRound<'_>) -> Option<Decision> {
    let (world, mind, members) = (&*t.world, &*t.mind, t.members);
    let dying = members.iter().copied().find(|&m| {
        !is_up(world, m)
            && world.get::<Below>(m).is_some()
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| !c.has(ConditionKind::Dead))
            && !mind.fallen_memory.left_for_good.contains(&name(world, m))
    })?;
    let pit = square(world, dying)?;
    let whom = name(world, dying);
    let above: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .collect();
    let roped = world.resource::<RopesSecured>().at(pit).is_some();
    if !roped && !above.iter().any(has_rope_in(world)) {
        return None;
    }
    let intent = Intent::HaulUp { whom: whom.clone() };
    if let Err(far) = walk_up_to(t, pit, intent.clone()) {
        return far;
    }
    let (world, members) = (&mut *t.world, t.members);
    if !roped {
        // The one with a rope lowers it from the rim nearest it.
        let roper = above.iter().copied().find(has_rope_in(world))?;
        let at = square(world, roper)?;
        let rim = pit
            .neighbours()
            .into_iter()
            .filter(|&p| firm_ground(world, p))
            .min_by_key(|&p| (p.chebyshev(at), p))?;
        let order = Command::from(LowerRope {
            who: name(world, roper),
            at: (pit.x, pit.y),
        });
        let party = t.mind.party.clone();
        return Some((
            intent,
            walk_up_and(world, &party, members, roper, rim, pit, order),
        ));
    }
    let haul = above.iter().copied().find_map(|m| {
        offered(world, m, |a| {
            a.get::<Haul>().is_some_and(|h| h.whom == whom)
        })
    })?;
    Some((intent, vec![haul]))
}

/// Does a member carry a rope?
fn has_rope_in(world: &World) -> impl Fn(&Entity) -> bool + '_ {
    |m| {
        world
            .get::<Equipment>(*m)
            .is_some_and(|g| g.0.iter().any(|x| matches!(x, Gear::Rope(_))))
    }
}
