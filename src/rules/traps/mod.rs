//! Traps and Trapbreaking (Dungeon Delves).
//!
//! Whenever a creature takes an action that might set a trap off (for a trap triggered by
//! stepping, entering its square) the Judge rolls 1d6 in secret: on 1–2 the trap goes off. A
//! trap the creature's side has found is stepped around and not rolled for (a ruling: the rules
//! leave known traps to the Judge). A pit deals 1d6 bludgeoning damage per 10' fallen; other
//! traps deal their dice, and may offer a saving throw.
//!
//! Trapbreaking: a thief with thieves' tools disarms (or discharges) a trap hastily in a round
//! with a Trapbreaking throw; an unmodified 1–3 on a failure sets it off, and another failure
//! bars a hasty retry until the thief's level rises. A disarmed trap can be re-armed with a
//! successful throw.

use bevy::prelude::*;

use crate::actors::{
    ClassLevel, Creature, Equipment, HitPoints, Position, Proficiencies, SavingThrows, Trap,
    TrapState,
};
use crate::grid::GridPos;
use crate::level::TrapTriggerDef;
use crate::level::schema::{Gear, Proficiency, SaveEffect, TrapKind};
use crate::log::{Event, EventLog};
use crate::rules::movement::Footsteps;
use crate::rules::sound::NoisyAction;
use crate::time::Clock;

/// Dungeon Delves › Traps: a roll of 1–2 on 1d6 sets the trap off.
pub fn sets_off(d6: u32) -> bool {
    d6 <= 2
}

fn trap_name(t: &Trap) -> String {
    match &t.kind {
        TrapKind::Pit { depth_feet } => format!("a {depth_feet}' pit"),
        TrapKind::Custom { name, .. } => name.clone(),
    }
}

/// The trap at a square.
fn trap_at(world: &mut World, at: GridPos) -> Option<(Entity, Trap)> {
    let mut q = world.query::<(Entity, &Position, &Trap)>();
    q.iter(world)
        .find(|(_, p, _)| p.0 == at)
        .map(|(e, _, t)| (e, t.clone()))
}

/// A trap goes off on `victim`: damage (with a save if the trap offers one), noise, and the trap
/// is known and, unless it is a pit, spent.
pub fn spring(world: &mut World, trap: Entity, victim: Entity) {
    let Some(t) = world.get::<Trap>(trap).cloned() else {
        return;
    };
    let at = world
        .get::<Position>(trap)
        .map_or(GridPos::default(), |p| p.0);
    let round = world.resource::<Clock>().rounds;
    let who = crate::actors::name_of(world, victim);
    let roll = world
        .resource_mut::<crate::dice::Dice>()
        .roll_expr(&t.damage);
    let mut damage = roll.total.max(0);
    let mut saved = None;
    if let TrapKind::Custom {
        save: Some(save), ..
    } = &t.kind
        && let Some(&target) = world
            .get::<SavingThrows>(victim)
            .and_then(|s| s.0.get(&save.throw))
    {
        let what = format!("{:?} save against {}", save.throw, trap_name(&t));
        let ok = crate::log::throw_in(world, &who, what, Vec::new(), target).success;
        if ok {
            damage = match save.on_success {
                SaveEffect::Negates => 0,
                SaveEffect::Half => damage / 2,
            };
        }
        saved = Some(ok);
    }
    if let Some(mut hp) = world.get_mut::<HitPoints>(victim) {
        hp.current -= damage;
    }
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.hidden = false;
        if !matches!(t.kind, TrapKind::Pit { .. }) {
            t.state = TrapState::Discharged;
        }
    }
    let noise = if matches!(t.kind, TrapKind::Pit { .. }) {
        world
            .entity_mut(victim)
            .remove::<crate::rules::movement::Walking>()
            .insert(Position(at));
        NoisyAction::AFall
    } else {
        NoisyAction::ATrapGoingOff
    };
    // A victim always has a square, so the noise is always made.
    let _ = crate::rules::sound::hearing::creature_noise(world, victim, noise);
    world.resource_mut::<EventLog>().push(
        round,
        Event::TrapSprung {
            who,
            trap: trap_name(&t),
            at,
            dice: roll.dice,
            damage,
            saved,
        },
    );
}

/// Each round: every square a creature entered that holds an armed step trap it does not know
/// of is a 1d6 roll.
pub fn step_on_traps(world: &mut World) {
    let mut q = world.query_filtered::<(Entity, &Footsteps), With<Creature>>();
    let mut walkers: Vec<(Entity, Vec<GridPos>)> = q
        .iter(world)
        .filter(|(_, f)| !f.0.is_empty())
        .map(|(e, f)| (e, f.0.clone()))
        .collect();
    walkers.sort_by_key(|(e, _)| *e);
    let round = world.resource::<Clock>().rounds;
    for (who, squares) in walkers {
        for at in squares {
            let Some((trap, t)) = trap_at(world, at) else {
                continue;
            };
            if t.state != TrapState::Armed || t.trigger != TrapTriggerDef::Step || !t.hidden {
                continue;
            }
            let d6 = world.resource_mut::<crate::dice::Dice>().roll(6);
            let sprung = sets_off(d6);
            let name = crate::actors::name_of(world, who);
            world.resource_mut::<EventLog>().push(
                round,
                Event::TrapChance {
                    who: name,
                    at,
                    d6,
                    sprung,
                },
            );
            if sprung {
                spring(world, trap, who);
                break;
            }
        }
    }
}

/// Hasty disarms that failed: (trap square, level then).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedHastyDisarms(pub Vec<(GridPos, u32)>);

fn trapbreaking_target(world: &World, who: Entity) -> Result<i32, String> {
    let profs = world
        .get::<Proficiencies>(who)
        .ok_or("it has no proficiencies")?;
    let target = *profs
        .throws
        .get(&Proficiency::Trapbreaking)
        .filter(|_| profs.has(Proficiency::Trapbreaking))
        .ok_or(
            "hasty trapbreaking is for those proficient in Trapbreaking, with a Trapbreaking throw",
        )?;
    if !world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::ThievesTools))
    {
        return Err("disabling a trap needs thieves' tools".into());
    }
    Ok(target)
}

fn reach_trap(world: &mut World, who: Entity, at: GridPos) -> Result<(Entity, Trap), String> {
    let here = world.get::<Position>(who).ok_or("it has no square")?.0;
    let (e, t) = trap_at(world, at)
        .filter(|(_, t)| !t.hidden)
        .ok_or_else(|| format!("it knows of no trap at {at}"))?;
    if here.x.abs_diff(at.x).max(here.y.abs_diff(at.y)) > 1 {
        return Err(format!("it must stand at or next to the trap at {at}"));
    }
    Ok((e, t))
}

/// `DisarmTrap`: a hasty attempt (one round) to disarm, or to discharge harmlessly.
pub fn disarm_hastily(
    world: &mut World,
    who: Entity,
    at: GridPos,
    discharge: bool,
) -> Result<String, String> {
    let (e, t) = reach_trap(world, who, at)?;
    if t.state != TrapState::Armed {
        return Err("it is not armed".into());
    }
    let target = trapbreaking_target(world, who)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    if world
        .get::<FailedHastyDisarms>(who)
        .is_some_and(|f| f.0.contains(&(at, level)))
    {
        return Err("it failed to disable this trap hastily at this level, and cannot try hastily again until its level rises".into());
    }
    let name = crate::actors::name_of(world, who);
    let throw = crate::log::throw_in(world, &name, "Trapbreaking (hasty)", Vec::new(), target);
    if throw.success {
        let state = if discharge {
            TrapState::Discharged
        } else {
            TrapState::Disarmed
        };
        if let Some(mut t) = world.get_mut::<Trap>(e) {
            t.state = state;
        }
        let done = if discharge { "discharges" } else { "disarms" };
        return Ok(format!("{done} the trap at {at}"));
    }
    if throw.natural <= 3 {
        spring(world, e, who);
        return Ok(format!("sets off the trap at {at}"));
    }
    let mut failed = world
        .get::<FailedHastyDisarms>(who)
        .cloned()
        .unwrap_or_default();
    failed.0.push((at, level));
    world.entity_mut(who).insert(failed);
    Ok(format!(
        "cannot see how to disable the trap at {at} quickly"
    ))
}

/// `RearmTrap`: re-arms a disarmed (not discharged) trap with a Trapbreaking throw.
pub fn rearm(world: &mut World, who: Entity, at: GridPos) -> Result<String, String> {
    let (e, t) = reach_trap(world, who, at)?;
    if t.state != TrapState::Disarmed {
        return Err("only a disarmed trap can be re-armed".into());
    }
    let target = trapbreaking_target(world, who)?;
    let name = crate::actors::name_of(world, who);
    let ok =
        crate::log::throw_in(world, &name, "Trapbreaking (re-arm)", Vec::new(), target).success;
    if ok && let Some(mut t) = world.get_mut::<Trap>(e) {
        t.state = TrapState::Armed;
    }
    Ok(if ok {
        format!("re-arms the trap at {at}")
    } else {
        format!("fails to re-arm the trap at {at}")
    })
}

pub struct TrapsPlugin;

impl Plugin for TrapsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            crate::sim::SimRound,
            step_on_traps.in_set(crate::sim::RoundSet::Traps),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_or_two_on_a_d6_sets_a_trap_off() {
        let off: Vec<u32> = (1..=6).filter(|&d| sets_off(d)).collect();
        assert_eq!(off, vec![1, 2]);
    }
}
