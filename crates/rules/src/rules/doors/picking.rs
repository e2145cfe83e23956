//! Picking a lock, hastily (a round, a jam on a natural 1-3) or methodically (a turn, +4) (Dungeon Delves › Doors).

use crate::rules::throws::Skill;

use crate::act::{Refusal, Unable};
use crate::creature::{ClassLevel, Equipment, Proficiencies};
use crate::rules::task::{self, Work};
use crate::rules::throws::ThrowKind;
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{Gear, Lock, Proficiency};
use delve_ground::log::log_in;

use super::{Door, DoorEvent, DoorRefusal, DoorThrowMods, LockOpening, door_at, reach_door};

/// Hasty picks that failed: (door square, the thief's level then). No hasty retry of that lock
/// until the thief's level rises.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedHastyPicks(pub Vec<(GridPos, u32)>);

/// A lock that can be picked: locked, not jammed.
pub(super) fn pickable(d: &Door) -> Result<(), DoorRefusal> {
    match d.lock {
        Lock::Unlocked => Err(DoorRefusal::NotLocked),
        Lock::Jammed => Err(DoorRefusal::Jammed),
        Lock::Locked { .. } => Ok(()),
    }
}

/// `PickLock`: picks a lock hastily (one round): a Lockpicking throw with thieves' tools; an
/// unmodified 1–3 on a failure jams the lock.
pub(crate) fn pick_hastily(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    pickable(&d)?;
    let target = lockpicking_target(world, who)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    if world
        .get::<FailedHastyPicks>(who)
        .is_some_and(|f| f.0.contains(&(at, level)))
    {
        return Err(DoorRefusal::HastyPickBarred.into());
    }
    let mods = DoorThrowMods::of(world, who, at).pick;
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Proficiency(delve_ground::level::schema::Proficiency::Lockpicking),
        "Lockpicking (hasty)",
        mods,
        target,
    );
    if !throw.success && throw.natural > 3 {
        let mut failed = world
            .get::<FailedHastyPicks>(who)
            .cloned()
            .unwrap_or_default();
        failed.0.push((at, level));
        world.entity_mut(who).insert(failed);
    }
    settle_pick(world, who, e, at, throw.success, throw.natural <= 3, false);
    Ok(())
}

/// The outcome of a Lockpicking throw: the lock opens, jams, or holds (methodically, the thief
/// may try again).
pub(super) fn settle_pick(
    world: &mut World,
    who: Entity,
    e: Entity,
    at: GridPos,
    success: bool,
    jams: bool,
    may_retry: bool,
) {
    let lock = if success {
        Lock::Unlocked
    } else if jams {
        Lock::Jammed
    } else {
        Lock::Locked { key: None }
    };
    let name = crate::creature::name_of(world, who);
    let event = match lock {
        Lock::Unlocked => DoorEvent::LockOpened {
            who: name,
            at,
            by: LockOpening::Picked,
        },
        Lock::Jammed => DoorEvent::LockJammed { who: name, at },
        Lock::Locked { .. } => DoorEvent::PickFailed {
            who: name,
            at,
            may_retry,
        },
    };
    if !matches!(lock, Lock::Locked { .. })
        && let Some(mut door) = world.get_mut::<Door>(e)
    {
        door.lock = lock;
    }
    log_in(world, event);
    super::known::learn(world, who, at);
}

/// `PickLockMethodically`: sets to picking a lock methodically: one turn, then a Lockpicking
/// throw at +4.
pub(crate) fn pick_methodically(
    world: &mut World,
    who: Entity,
    at: GridPos,
) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    pickable(&d)?;
    lockpicking_target(world, who)?;
    task::begin(
        world,
        who,
        PickingLock { door: at },
        delve_ground::time::ROUNDS_PER_TURN,
    );
    Ok(())
}

pub(super) fn lockpicking_target(world: &World, who: Entity) -> Result<i32, Refusal> {
    let profs = world
        .get::<Proficiencies>(who)
        .ok_or(Unable::NoProficiencies)?;
    let target = *profs
        .throws
        .get(&Proficiency::Lockpicking)
        .filter(|_| profs.has(Proficiency::Lockpicking))
        .ok_or(DoorRefusal::NotALockpicker)?;
    if !world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::ThievesTools))
    {
        return Err(DoorRefusal::NoThievesTools.into());
    }
    Ok(target)
}

/// Picking a lock methodically (Dungeon Delves › Doors): a turn's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickingLock {
    pub door: GridPos,
}

impl std::fmt::Display for PickingLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "picking the lock at {} methodically", self.door)
    }
}

impl Work for PickingLock {
    /// The end of a turn of methodical lockpicking: a Lockpicking throw at +4; an unmodified 1
    /// jams the lock, and any other failure may be tried again.
    fn finish(&self, world: &mut World, who: Entity) {
        let at = self.door;
        let Ok(target) = lockpicking_target(world, who) else {
            return;
        };
        let Some((e, d)) = door_at(world, at) else {
            return;
        };
        if !matches!(d.lock, Lock::Locked { .. }) {
            return;
        }
        let mut mods = DoorThrowMods::of(world, who, at).pick;
        mods.push(Modifier::new(4, "methodical"));
        let throw = crate::rules::throws::throw_in(
            world,
            who,
            ThrowKind::Check,
            Skill::Proficiency(delve_ground::level::schema::Proficiency::Lockpicking),
            "Lockpicking (methodical)",
            mods,
            target,
        );
        settle_pick(world, who, e, at, throw.success, throw.natural == 1, true);
    }
}
