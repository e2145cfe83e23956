//! Tasks for part of the party (Dungeon Delves › Climbing: "Only adventurers proficient in
//! Climbing or Mountaineering, or whose climbing is supervised by an adventurer proficient in
//! Mountaineering, can tackle sheer surfaces"). Where the way on — the goal, or what is left to
//! explore — lies down a shaft that only some members can climb, and the party has no rope to
//! make the climb easy for all (`gaps::party_climbs`), those who can climb go down; the others
//! wait at the top. While the task is under way the goers alone decide, as a party of their
//! own ([`acting_members`]); it ends when they are all back on the waiters' side (or none of
//! them is up), and the party goes on together. A shaft is gone down by part of the party once.

use delve_rules::act::PendingCommands;

use bevy::prelude::*;

use super::gaps::{Over, first_jump};
use super::round::{Decision, KnownLevel, ThisRound};
use super::way::{goal_square, nearest_edge};
use super::{Intent, PartyMind, is_up, name, square};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::Surface;
use delve_rules::command::Command;
use delve_rules::command::acts::{MarchingOrder, Move, StayBehind};
use delve_rules::creature::{Below, Proficiencies};
use delve_rules::rules::caving::climbing::climbing_target;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::movement::hazards::way;

/// Part of the party sent down a shaft, and those waiting for it.
#[derive(Clone, Debug, Default)]
pub(super) struct Tasks {
    /// The task under way.
    now: Option<Task>,
    /// Shafts already gone down by part of the party: not again.
    done: Vec<GridPos>,
}

/// The goers, the waiters (by name) and the shaft.
#[derive(Clone, Debug)]
struct Task {
    goers: Vec<String>,
    waiters: Vec<String>,
    shaft: GridPos,
    /// A goer has gone down the shaft, or beyond it.
    gone: bool,
}

fn named(world: &World, members: &[Entity], names: &[String]) -> Vec<Entity> {
    members
        .iter()
        .copied()
        .filter(|&m| names.contains(&name(world, m)))
        .collect()
}

/// Can `m` climb a sheer surface by itself (Climbing or Mountaineering)?
fn climbs_sheer(world: &World, m: Entity) -> bool {
    world
        .get::<Proficiencies>(m)
        .is_some_and(|p| climbing_target(p, Surface::Sheer).is_some())
}

/// Is `m` apart from the waiters: at the bottom of a hole, or with no walk to any of them?
fn apart(world: &World, m: Entity, waiters: &[Entity]) -> bool {
    if world.get::<Below>(m).is_some() {
        return true;
    }
    let Some(at) = square(world, m) else {
        return true;
    };
    !waiters
        .iter()
        .filter_map(|&w| square(world, w))
        .any(|w| w == at || way(world, m, at, w).is_ok())
}

/// The members who decide this round: the goers while a task is under way, else every member.
/// The task ends first when it is done: every goer who is up is back with the waiters after
/// going down, or none is up, or no waiter is.
pub(super) fn acting_members(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Vec<Entity> {
    let Some(task) = mind.tasks.now.as_mut() else {
        return members.to_vec();
    };
    let goers: Vec<Entity> = named(world, members, &task.goers)
        .into_iter()
        .filter(|&m| is_up(world, m))
        .collect();
    let waiters: Vec<Entity> = named(world, members, &task.waiters)
        .into_iter()
        .filter(|&m| is_up(world, m))
        .collect();
    let away: Vec<bool> = goers.iter().map(|&g| apart(world, g, &waiters)).collect();
    task.gone |= away.iter().any(|&a| a);
    let back = task.gone && !away.iter().any(|&a| a);
    let (shaft, sent) = (task.shaft, named(world, members, &task.goers));
    if goers.is_empty()
        || waiters.is_empty()
        || (back && !needed_beyond(world, mind, members, &goers, &waiters, shaft))
    {
        let Some(task) = mind.tasks.now.as_mut() else {
            return members.to_vec();
        };
        // Those who waited fall in again.
        let mut pending = world.resource_mut::<PendingCommands>();
        for who in std::mem::take(&mut task.waiters) {
            pending.push_derived(Command::from(StayBehind { who, stay: false }));
        }
        mind.tasks.now = None;
        mind.tasks.done.push(shaft);
        return members.to_vec();
    }
    // (In marching order: the goers as the party lists them, those down too, so that the one
    // leading is one who is up.)
    sent
}

/// Is there still something for the goers down the shaft, now they are back: a fallen creature
/// beyond with gear or a light not yet taken (a companion, the foe that held the goal), or the
/// goal or the nearest edge of what it has seen, reached through the shaft? (Nothing, once the
/// party is bound home.)
fn needed_beyond(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    goers: &[Entity],
    waiters: &[Entity],
    shaft: GridPos,
) -> bool {
    if mind.homeward.is_some() {
        return false;
    }
    let fallen = super::fallen::fallen_with_gear(world, mind, members, false);
    if fallen.iter().any(|&(e, _)| {
        apart(world, e, waiters) && !mind.fallen_memory.looted.contains(&name(world, e))
    }) {
        return true;
    }
    through_the_shaft(world, mind, goers) == Some(shaft)
}

/// The shaft the walk of `climbers` to the goal, or to the nearest edge of what the party has
/// seen, goes down first, if it goes down one.
fn through_the_shaft(
    world: &mut World,
    mind: &mut PartyMind,
    climbers: &[Entity],
) -> Option<GridPos> {
    let from = square(world, *climbers.first()?)?;
    let sight = KnownLevel::look(world, mind, climbers);
    let know = sight.knowledge();
    if !know.climbs {
        return None;
    }
    let distances = know.distances(from);
    let target = goal_square(mind, &know, &distances)
        .or_else(|| nearest_edge(mind, &know, &distances, from))
        .or_else(|| {
            super::quarry::nearest(world, mind, climbers, &know, &distances).map(|(_, to)| to)
        })?;
    let walk = distances.walk_to(know.grid, target)?;
    let k = first_jump(&walk)?;
    match Over::of(world, walk[k], walk[k + 1], know.jumps) {
        Over::Shaft(shaft) => Some(shaft),
        _ => None,
    }
}

/// Every marching order the goers give names the waiters too, after them (the rules' marching
/// order is the whole party's).
pub(super) fn name_the_waiters(mind: &PartyMind, orders: &mut [Command]) {
    let Some(task) = &mind.tasks.now else {
        return;
    };
    for order in orders {
        if let Command::MarchingOrder(o) = order {
            for w in task.goers.iter().chain(&task.waiters) {
                if !o.order.contains(w) {
                    o.order.push(w.clone());
                }
            }
        }
    }
}

/// With nowhere left to go, the party sends down a shaft those who can climb it, where the goal
/// or the nearest edge of what it has seen lies down it for them: they go first in the
/// marching order, and decide alone until they are back.
pub(super) fn send_the_climbers(t: &mut ThisRound<'_>) -> Option<Decision> {
    if t.mind.homeward.is_some() || t.mind.tasks.now.is_some() {
        return None;
    }
    // (Only where the party as a whole has no goal in sight and no edge to explore.)
    {
        let (sight, from_here) = (t.sight.as_ref()?, t.from_here.as_ref()?);
        let know = sight.knowledge();
        if goal_square(t.mind, &know, from_here).is_some()
            || nearest_edge(t.mind, &know, from_here, t.here).is_some()
            || super::quarry::nearest(t.world, t.mind, t.members, &know, from_here).is_some()
        {
            return None;
        }
    }
    let (world, mind, members) = (&mut *t.world, &mut *t.mind, t.members);
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .collect();
    let (climbers, others): (Vec<Entity>, Vec<Entity>) =
        up.iter().partition(|&&m| climbs_sheer(world, m));
    if climbers.is_empty() || others.is_empty() {
        return None;
    }
    let shaft = through_the_shaft(world, mind, &climbers)?;
    let know = t.sight.as_ref()?.knowledge();
    if mind.tasks.done.contains(&shaft) {
        return None;
    }
    let names = |v: &[Entity]| v.iter().map(|&m| name(world, m)).collect::<Vec<_>>();
    let (who, wait) = (names(&climbers), names(&others));
    let mut order = who.clone();
    order.extend(
        members
            .iter()
            .filter(|m| !climbers.contains(m))
            .map(|&m| name(world, m)),
    );
    // The others stay behind, stepping back from the rim to leave it to the climbers.
    let mut orders: Vec<Command> = vec![
        MarchingOrder {
            party: mind.party.clone(),
            order,
        }
        .into(),
    ];
    let mut taken = super::standing::occupied_squares(world);
    for &w in &others {
        orders.push(
            StayBehind {
                who: name(world, w),
                stay: true,
            }
            .into(),
        );
        let Some(at) = square(world, w) else {
            continue;
        };
        if at.chebyshev(shaft) >= 2 {
            continue;
        }
        let back = know
            .distances(at)
            .reachable(know.grid)
            .filter(|&(q, _)| q.chebyshev(shaft) >= 2 && know.open(q) && !taken.contains(&q))
            .min_by_key(|&(q, c)| (c, q));
        if let Some((to, _)) = back {
            taken.push(to);
            orders.push(
                Move {
                    who: name(world, w),
                    to: (to.x, to.y),
                    pace: Pace::Exploration,
                }
                .into(),
            );
        }
    }
    mind.tasks.now = Some(Task {
        goers: who.clone(),
        waiters: wait.clone(),
        shaft,
        gone: false,
    });
    Some((Intent::SendAhead { who, wait, shaft }, orders))
}
