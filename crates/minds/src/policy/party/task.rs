//! Tasks for part of the party: where the planner (`plan`) sends a part of the party the rest
//! cannot follow — those who climb sheer rock down a shaft (Dungeon Delves › Climbing: "Only
//! adventurers proficient in Climbing or Mountaineering, or whose climbing is supervised by an
//! adventurer proficient in Mountaineering, can tackle sheer surfaces"), those who swim without
//! risk across water over the others' heads (› Swimming and Drowning), those who jump, traverse
//! or squeeze where the others would not — the goers go first in the marching order and the
//! others wait, stepping back from where the goers part from them. While the task is under way
//! the goers alone decide, as a party of their own ([`acting_members`]); it ends when they are
//! all back on the waiters' side with nothing left for them beyond (or none of them is up), and
//! the party goes on together. A part goes past a square once.

use delve_rules::act::PendingCommands;

use bevy::prelude::*;

use super::plan::Plan;
use super::round::{Decision, KnownLevel};
use super::{Intent, PartyMind, is_up, name, square};
use crate::policy::knowledge::{Distances, Knowledge};
use delve_ground::grid::GridPos;
use delve_rules::command::Command;
use delve_rules::command::acts::{MarchingOrder, Move, StayBehind};
use delve_rules::creature::Below;
use delve_rules::rules::movement::Pace;

/// Part of the party sent ahead, and those waiting for it.
#[derive(Clone, Debug, Default)]
pub(super) struct Tasks {
    /// The task under way.
    now: Option<Task>,
    /// Squares a part of the party has already gone past: not again.
    done: Vec<GridPos>,
}

impl Tasks {
    /// Is part of the party away?
    pub(super) fn under_way(&self) -> bool {
        self.now.is_some()
    }

    /// Those waiting for the part away, by name.
    pub(super) fn waiting(&self) -> &[String] {
        self.now.as_ref().map_or(&[], |t| &t.waiters)
    }

    /// Has a part already gone past `p`?
    pub(super) fn done(&self, p: GridPos) -> bool {
        self.done.contains(&p)
    }
}

/// The goers, the waiters (by name) and where the goers part from them.
#[derive(Clone, Debug)]
struct Task {
    goers: Vec<String>,
    waiters: Vec<String>,
    past: GridPos,
    /// A goer has gone beyond the waiters.
    gone: bool,
}

fn named(world: &World, members: &[Entity], names: &[String]) -> Vec<Entity> {
    members
        .iter()
        .copied()
        .filter(|&m| names.contains(&name(world, m)))
        .collect()
}

/// The walks the waiters could take from where they stand (over what the faction knows,
/// crossing only what they cross), worked out once for every goer asked about.
struct FromTheWaiters<'a> {
    know: &'a Knowledge<'a>,
    walks: Vec<(GridPos, Distances)>,
}

impl<'a> FromTheWaiters<'a> {
    fn of(world: &World, waiters: &[Entity], know: &'a Knowledge<'a>) -> Self {
        let walks = waiters
            .iter()
            .filter_map(|&w| square(world, w))
            .map(|w| (w, know.distances(w)))
            .collect();
        FromTheWaiters { know, walks }
    }

    /// Is `m` apart from the waiters: at the bottom of a hole, or where no walk of theirs
    /// comes?
    fn apart(&self, world: &World, m: Entity) -> bool {
        if world.get::<Below>(m).is_some() {
            return true;
        }
        let Some(at) = square(world, m) else {
            return true;
        };
        !self
            .walks
            .iter()
            .any(|(w, d)| *w == at || d.cost(self.know.grid, at).is_some())
    }
}

/// The members who decide this round: the goers while a task is under way, else every member.
/// The task ends first when it is done: every goer who is up is back with the waiters after
/// going down, or none is up, or no waiter is.
pub(super) fn acting_members(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Vec<Entity> {
    let Some(task) = mind.tasks.now.as_ref() else {
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
    let (past, sent) = (task.past, named(world, members, &task.goers));
    let sight = KnownLevel::look(world, mind, &waiters);
    let know = sight.knowledge();
    let from_waiters = FromTheWaiters::of(world, &waiters, &know);
    let away: Vec<bool> = goers
        .iter()
        .map(|&g| from_waiters.apart(world, g))
        .collect();
    let Some(task) = mind.tasks.now.as_mut() else {
        return members.to_vec();
    };
    task.gone |= away.iter().any(|&a| a);
    let back = task.gone && !away.iter().any(|&a| a);
    if goers.is_empty()
        || waiters.is_empty()
        || (back && !needed_beyond(world, mind, members, &goers, &from_waiters))
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
        mind.tasks.done.push(past);
        return members.to_vec();
    }
    // (In marching order: the goers as the party lists them, those down too, so that the one
    // leading is one who is up.)
    sent
}

/// Is there still something for the goers beyond, now they are back: a fallen creature beyond
/// with gear or a light not yet taken (a companion, the foe that held the goal), or the goers'
/// best plan still goes where the waiters have no way? (Nothing, once the party is bound home.)
fn needed_beyond(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    goers: &[Entity],
    from_waiters: &FromTheWaiters,
) -> bool {
    if mind.homeward.is_some() {
        return false;
    }
    let fallen = super::fallen::fallen_with_gear(world, mind, members, false);
    if fallen.iter().any(|&(e, _)| {
        from_waiters.apart(world, e) && !mind.fallen_memory.looted.contains(&name(world, e))
    }) {
        return true;
    }
    let (Some(from), Some((_, theirs))) = (
        goers.first().and_then(|&g| square(world, g)),
        from_waiters.walks.first(),
    ) else {
        return false;
    };
    let sight = KnownLevel::look(world, mind, goers);
    let distances = sight.knowledge().distances(from);
    let plans = super::plan::weigh(world, mind, goers, &sight, &distances, from);
    plans.first().is_some_and(|best| {
        best.walk
            .iter()
            .any(|&p| theirs.cost(from_waiters.know.grid, p).is_none())
    })
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

/// The planner sends a part of the party ahead (`plan`: its best plan is one only they can
/// carry out): they go first in the marching order and decide alone until they are back; the
/// others stay behind, stepping back from where the goers part from them to leave them room.
pub(super) fn send_ahead(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    plan: &Plan,
) -> Option<Decision> {
    let past = plan.past?;
    let goers = &plan.goers;
    let others: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|m| !goers.contains(m) && is_up(world, *m) && world.get::<Below>(*m).is_none())
        .collect();
    if goers.is_empty() || others.is_empty() {
        return None;
    }
    // Others stand on the goers' way up to where they part (a passage one square wide): the
    // first goer takes the lead up to there first, passing them, and the party is weighed again.
    let k = plan.walk.iter().position(|&p| p == past)?;
    let on_the_way: Vec<GridPos> = plan.walk[1..k].to_vec();
    if others
        .iter()
        .any(|&m| square(world, m).is_some_and(|p| on_the_way.contains(&p)))
        && let Some(&take_off) = on_the_way.last()
    {
        let party = mind.party.clone();
        return Some((
            Intent::Approach { to: take_off },
            super::take_the_lead(world, &party, members, goers[0], take_off),
        ));
    }
    // Where they part: the hole or ledge a step of two squares goes over, else the square.
    let crossing = plan
        .walk
        .windows(2)
        .find(|w| w[1] == past)
        .filter(|w| w[0].chebyshev(w[1]) >= 2)
        .map_or(past, |w| {
            GridPos::new(
                w[0].x + (w[1].x - w[0].x).signum(),
                w[0].y + (w[1].y - w[0].y).signum(),
            )
        });
    let names = |v: &[Entity]| v.iter().map(|&m| name(world, m)).collect::<Vec<_>>();
    let (who, wait) = (names(goers), names(&others));
    let mut order = who.clone();
    order.extend(
        members
            .iter()
            .filter(|m| !goers.contains(m))
            .map(|&m| name(world, m)),
    );
    let mut orders: Vec<Command> = vec![
        MarchingOrder {
            party: mind.party.clone(),
            order,
        }
        .into(),
    ];
    orders.extend(stay_back(world, &others, know, crossing));
    mind.tasks.now = Some(Task {
        goers: who.clone(),
        waiters: wait.clone(),
        past,
        gone: false,
    });
    Some((
        Intent::SendAhead {
            who,
            wait,
            past,
            aim: Box::new(plan.aim.intent()),
        },
        orders,
    ))
}

/// Those who wait stay behind, each within two squares of where the goers part from them
/// stepping back to the nearest free square out of their way.
fn stay_back(
    world: &mut World,
    others: &[Entity],
    know: &Knowledge,
    crossing: GridPos,
) -> Vec<Command> {
    let mut orders: Vec<Command> = Vec::new();
    let mut taken = super::standing::occupied_squares(world);
    for &w in others {
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
        if at.chebyshev(crossing) >= 2 {
            continue;
        }
        let back = know
            .distances(at)
            .reachable(know.grid)
            .filter(|&(q, _)| q.chebyshev(crossing) >= 2 && know.open(q) && !taken.contains(&q))
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
    orders
}
