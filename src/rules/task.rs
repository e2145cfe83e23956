//! Actions that take longer than a round. The delve rules give several actions "one turn
//! (10 minutes)" or more: searching methodically, picking a lock or disabling a trap
//! methodically, battering a door down with an axe. A creature has at most one such task; it
//! goes on round by round while the creature stays put, and moving abandons it. When the time
//! is up, the rule area that owns the action settles the outcome.

use crate::command::CommandEvent;
use bevy::prelude::*;

use crate::grid::GridPos;
use crate::log::EventLog;
use crate::rules::movement::MovedThisRound;
use crate::time::Clock;

/// The action in progress and the rounds it still needs.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub kind: TaskKind,
    pub rounds_left: u64,
}

/// What a creature is busy with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// Dungeon Delves › Searching: a methodical search of the squares around.
    Search,
    /// Dungeon Delves › Doors: picking the lock of the door at a square methodically.
    PickLock { door: GridPos },
    /// Dungeon Delves › Doors: battering the door at a square down with an axe.
    BatterDoor { door: GridPos },
    /// Dungeon Delves › Traps: disabling the trap at a square methodically.
    BreakTrap { trap: GridPos, discharge: bool },
}

impl std::fmt::Display for TaskKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskKind::Search => write!(f, "searching methodically"),
            TaskKind::PickLock { door } => write!(f, "picking the lock at {door}"),
            TaskKind::BatterDoor { door } => write!(f, "battering the door at {door}"),
            TaskKind::BreakTrap {
                trap,
                discharge: false,
            } => write!(f, "disarming the trap at {trap}"),
            TaskKind::BreakTrap {
                trap,
                discharge: true,
            } => write!(f, "discharging the trap at {trap}"),
        }
    }
}

/// Sets `who` to a task of `rounds`: it stops walking, and any task it had is dropped.
pub fn begin(world: &mut World, who: Entity, kind: TaskKind, rounds: u64) {
    world
        .entity_mut(who)
        .remove::<crate::rules::movement::Walking>()
        .insert(Task {
            kind,
            rounds_left: rounds,
        });
}

/// What a task does each round it goes on: battering is loud every round.
fn each_round(world: &mut World, who: Entity, kind: TaskKind) {
    if let TaskKind::BatterDoor { .. } = kind {
        // A creature at work has a square, so the noise is always made.
        let _ = crate::rules::sound::hearing::creature_noise(
            world,
            who,
            crate::rules::sound::NoisyAction::BatteringADoor,
        );
    }
}

/// The outcome of a finished task, told by the rule area that owns it; `None` when that area
/// logs the outcome itself (the Judge's secret search throws) or there is nothing left to do.
fn finish(world: &mut World, who: Entity, kind: TaskKind) -> Option<String> {
    match kind {
        TaskKind::Search => {
            crate::rules::search::finish_methodical_search(world, who);
            None
        }
        TaskKind::PickLock { door } => crate::rules::doors::finish_picking(world, who, door),
        TaskKind::BatterDoor { door } => crate::rules::doors::finish_battering(world, who, door),
        TaskKind::BreakTrap { trap, discharge } => {
            crate::rules::traps::finish_methodical_trapbreaking(world, who, trap, discharge)
        }
    }
}

/// Each round: tasks go on, are abandoned by those who moved, and are settled when done.
pub fn carry_on_tasks(world: &mut World) {
    let mut q = world.query::<(Entity, &Task)>();
    let mut busy: Vec<(Entity, Task)> = q.iter(world).map(|(e, t)| (e, *t)).collect();
    busy.sort_by_key(|(e, _)| *e);
    let round = world.resource::<Clock>().rounds;
    for (who, mut task) in busy {
        if world.get::<MovedThisRound>(who).is_some_and(|m| m.feet > 0) {
            world.entity_mut(who).remove::<Task>();
            continue;
        }
        each_round(world, who, task.kind);
        task.rounds_left = task.rounds_left.saturating_sub(1);
        if task.rounds_left > 0 {
            world.entity_mut(who).insert(task);
            continue;
        }
        world.entity_mut(who).remove::<Task>();
        if let Some(outcome) = finish(world, who, task.kind) {
            let name = crate::creature::name_of(world, who);
            world.resource_mut::<EventLog>().push(
                round,
                CommandEvent::CommandAccepted {
                    who: name,
                    command: outcome,
                },
            );
        }
    }
}

pub struct TaskPlugin;

impl Plugin for TaskPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            crate::schedule::SimRound,
            carry_on_tasks.in_set(crate::schedule::RoundSet::Tasks),
        );
    }
}
