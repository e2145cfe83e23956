//! Actions that take longer than a round. The delve rules give several actions "one turn
//! (10 minutes)" or more: searching methodically, picking a lock or disabling a trap
//! methodically, battering a door down with an axe. A creature has at most one such task; it
//! goes on round by round while the creature stays put, and moving abandons it. When the time
//! is up, the rule area that owns the action settles the outcome: each area defines its work
//! ([`Work`]) beside its commands.

use crate::rules::movement::Walking;
use crate::schedule::{RoundSet, SimRound};
use delve_ground::log::LogKind;

use std::fmt;
use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use crate::rules::movement::MovedThisRound;
use delve_ground::log::LogEvent;

/// A rule area's work that takes rounds: what it does each round, and how it ends.
pub trait Work: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// What the work does each round it goes on (battering a door is loud every round).
    fn each_round(&self, _world: &mut World, _who: Entity) {}

    /// The time is up: the area settles the outcome and logs it.
    fn finish(&self, world: &mut World, who: Entity);
}

/// The action in progress and the rounds it still needs.
#[derive(Component, Clone, Debug)]
pub struct Task {
    pub work: Arc<dyn Work>,
    pub rounds_left: u64,
}

/// What tasks put in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TaskEvent {
    /// A creature set to work that takes `rounds` rounds.
    TaskBegun {
        who: String,
        task: String,
        rounds: u64,
    },
}

impl LogEvent for TaskEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            TaskEvent::TaskBegun { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for TaskEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskEvent::TaskBegun { who, task, rounds } => {
                write!(f, "{who} sets to {task} ({})", time_words(*rounds))
            }
        }
    }
}

/// `1 round`, `1 turn`, `3 turns`.
pub(crate) fn time_words(rounds: u64) -> String {
    let turn = delve_ground::time::ROUNDS_PER_TURN;
    match rounds {
        1 => "1 round".into(),
        r if r % turn == 0 && r / turn == 1 => "1 turn".into(),
        r if r % turn == 0 => format!("{} turns", r / turn),
        r => format!("{r} rounds"),
    }
}

/// Sets `who` to work for `rounds`: it stops walking, and any task it had is dropped.
pub(crate) fn begin(world: &mut World, who: Entity, work: impl Work, rounds: u64) {
    let task = work.to_string();
    world.entity_mut(who).remove::<Walking>().insert(Task {
        work: Arc::new(work),
        rounds_left: rounds,
    });
    let who = crate::creature::name_of(world, who);
    delve_ground::log::log_in(world, TaskEvent::TaskBegun { who, task, rounds });
}

/// Each round: tasks go on, are abandoned by those who moved, and are settled when done.
fn carry_on_tasks(world: &mut World) {
    let mut busy: Vec<(Entity, Task)> =
        delve_ground::query_cache::read_query(world, |q: Query<(Entity, &Task)>| {
            q.iter().map(|(e, t)| (e, t.clone())).collect()
        })
        .unwrap_or_default();
    busy.sort_by_key(|(e, _)| *e);
    for (who, mut task) in busy {
        if world.get::<MovedThisRound>(who).is_some_and(|m| m.feet > 0) {
            world.entity_mut(who).remove::<Task>();
            continue;
        }
        task.work.each_round(world, who);
        task.rounds_left = task.rounds_left.saturating_sub(1);
        if task.rounds_left > 0 {
            world.entity_mut(who).insert(task);
            continue;
        }
        world.entity_mut(who).remove::<Task>();
        task.work.finish(world, who);
    }
}

pub struct TaskPlugin;

impl Plugin for TaskPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::task::Task>();
        use crate::rules::acting::{ActingRules, Hold};
        // RULINGS › Rest: every task that takes rounds is exertion; one at work does nothing
        // else (RULINGS › The battle round).
        app.declare_exertion_of::<Task>("at work")
            .declare_hold(Hold::AtWork, |world, who| world.get::<Task>(who).is_some())
            .add_systems(SimRound, carry_on_tasks.in_set(RoundSet::Tasks));
    }
}
