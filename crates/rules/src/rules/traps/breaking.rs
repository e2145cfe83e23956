//! Breaking a trap: the choices at a known trap, disarming it hastily or methodically, rearming it (Dungeon Delves › Traps, Trapbreaking).

use crate::rules::task::Work;
use crate::rules::throws::Skill;
use delve_ground::level::schema::JudgeModifier;

use crate::act::{AnyAct, Choice, Concern, Refusal, square_of};
use crate::creature::{ClassLevel, Equipment, Faction, Position, Proficiencies};
use crate::rules::throws::{ThrowKind, Thrower};
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{Gear, Proficiency};
use delve_ground::log::log_in;
use delve_ground::query_cache::read_query;
use delve_ground::time::ROUNDS_PER_TURN;

use super::{
    DisarmTrap, DisarmTrapMethodically, RearmTrap, Trap, TrapEvent, TrapRefusal, TrapState, spring,
    trap_at,
};
use crate::rules::throws::ThrowOdds;

/// Hasty disarms that failed: (trap square, level then).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedHastyDisarms(pub Vec<(GridPos, u32)>);

/// The Trapbreaking throw by the "Disabling Traps" table: those proficient in Trapbreaking, with
/// thieves' tools, throw their class value (+4 methodically); anyone else may disable a trap
/// methodically only, at 18+ by Adventuring.
pub(super) fn trapbreaking_target(
    profs: Option<&Proficiencies>,
    gear: Option<&Equipment>,
    methodical: bool,
) -> Result<(i32, Vec<Modifier>), TrapRefusal> {
    let class = profs
        .filter(|p| p.has(Proficiency::Trapbreaking))
        .and_then(|p| p.throws.get(&Proficiency::Trapbreaking))
        .copied();
    let tools = gear.is_some_and(|g| g.has(&Gear::ThievesTools));
    match (class, tools, methodical) {
        (Some(t), true, true) => Ok((t, vec![Modifier::new(4, "methodical trapbreaking")])),
        (Some(t), true, false) => Ok((t, Vec::new())),
        (Some(_), false, false) => Err(TrapRefusal::HastyNeedsTools),
        (None, _, false) => Err(TrapRefusal::HastyNotProficient),
        (_, _, true) => Ok((18, Vec::new())),
    }
}

/// The choices at every trap within a step of `who` that its faction knows of (RULINGS ›
/// Knowledge), nearest rows first.
pub(super) fn choices_at_known_traps(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let Some(here) = world.get::<Position>(who).map(|p| p.0) else {
        return Vec::new();
    };
    let mut near: Vec<GridPos> =
        delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Trap)>| {
            q.iter()
                .filter(|(p, _)| p.0.within_a_step(here))
                .map(|(p, _)| p.0)
                .collect()
        })
        .unwrap_or_default();
    near.sort_by_key(|p| (p.y, p.x));
    near.dedup();
    near.into_iter()
        .flat_map(|at| {
            choices_at_trap(world, who, at)
                .into_iter()
                .map(move |c| (Concern::Trap(at), c))
        })
        .collect()
}

/// What `who` can do about the traps at `at` that its faction knows of, each with its time and
/// chance (the "Disabling Traps" table): disarm or discharge hastily (unless a hasty try failed
/// there at its level) or methodically, or re-arm a disarmed trap. Taken as it would stand
/// within a step of it (the party's mind asks this before a thief walks up to a trap).
pub fn choices_at_trap(world: &World, who: Entity, at: GridPos) -> Vec<Choice> {
    let Some(thrower) = crate::rules::throws::Thrower::of(world, who) else {
        return Vec::new();
    };
    let faction = world.get::<Faction>(who).copied();
    let level = world
        .get::<crate::creature::ClassLevel>(who)
        .map_or(0, |c| c.level);
    let barred = world
        .get::<FailedHastyDisarms>(who)
        .is_some_and(|f| f.0.contains(&(at, level)));
    let situation = trapbreaking_situation(world, who, at);
    delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Trap)>| {
        q.iter()
            .filter(|(p, t)| p.0 == at && t.known_to(faction))
            .flat_map(|(_, t)| {
                trap_choices(
                    t,
                    at,
                    &thrower,
                    world.get::<Proficiencies>(who),
                    world.get::<Equipment>(who),
                    barred,
                    &situation,
                )
            })
            .collect()
    })
    .unwrap_or_default()
}

pub(super) fn trap_choices(
    t: &Trap,
    at: GridPos,
    thrower: &Thrower,
    profs: Option<&Proficiencies>,
    gear: Option<&Equipment>,
    hasty_barred: bool,
    situation: &[Modifier],
) -> Vec<Choice> {
    let mut out = Vec::new();
    if t.hidden {
        return out;
    }
    let who = thrower.name;
    let xy = (at.x, at.y);
    let thrown =
        |way: &str, time: &str, (target, mut mods): (i32, Vec<Modifier>), note: &str, command| {
            mods.extend(situation.iter().cloned());
            Choice::thrown(
                way,
                time,
                ThrowOdds {
                    who: thrower,
                    kind: ThrowKind::Check,
                    modifiers: &mods,
                    target,
                },
                note,
                command,
            )
        };
    match t.state {
        TrapState::Armed => {
            if let Ok(hasty) = trapbreaking_target(profs, gear, false)
                && !hasty_barred
            {
                for (way, discharge) in [("disarm hastily", false), ("discharge hastily", true)] {
                    let command = AnyAct::from(DisarmTrap {
                        who: who.into(),
                        at: xy,
                        discharge,
                    });
                    let note = "a 1-3 on a failure sets it off";
                    out.push(thrown(way, "1 round", hasty.clone(), note, command));
                }
            }
            if let Ok(methodical) = trapbreaking_target(profs, gear, true) {
                let note = if methodical.1.is_empty() {
                    "by Adventuring; a 1 sets it off"
                } else {
                    "+4; a 1 sets it off"
                };
                for (way, discharge) in [
                    ("disarm methodically", false),
                    ("discharge methodically", true),
                ] {
                    let command = AnyAct::from(DisarmTrapMethodically {
                        who: who.into(),
                        at: xy,
                        discharge,
                    });
                    out.push(thrown(way, "1 turn", methodical.clone(), note, command));
                }
            }
        }
        TrapState::Disarmed => {
            if let Ok(target) = trapbreaking_target(profs, gear, false) {
                let command = AnyAct::from(RearmTrap {
                    who: who.into(),
                    at: xy,
                });
                out.push(thrown("re-arm", "1 round", target, "", command));
            }
        }
        TrapState::Discharged => {}
    }
    out
}

/// The target and modifiers of `who`'s Trapbreaking throw at the trap at `at`: its own
/// (proficiency, methodical) and the situation's.
pub(super) fn target_of(
    world: &World,
    who: Entity,
    at: GridPos,
    methodical: bool,
) -> Result<(i32, Vec<Modifier>), TrapRefusal> {
    let (target, mut mods) = trapbreaking_target(
        world.get::<Proficiencies>(who),
        world.get::<Equipment>(who),
        methodical,
    )?;
    mods.extend(trapbreaking_situation(world, who, at));
    Ok((target, mods))
}

/// What a Trapbreaking throw at the trap at `at` takes beyond the breaker's own numbers: the
/// situational penalties with sight of the trap (RULINGS › Movement penalties), and the
/// Judge's trap complexity.
pub(super) fn trapbreaking_situation(world: &World, who: Entity, at: GridPos) -> Vec<Modifier> {
    let trap: Vec<Entity> = read_query(world, |q: Query<(Entity, &Position), With<Trap>>| {
        q.iter().find(|(_, p)| p.0 == at).map(|(e, _)| e)
    })
    .flatten()
    .into_iter()
    .collect();
    let mut mods = crate::rules::penalties::check_penalties(world, who, Some(at));
    mods.extend(crate::rules::calls::judge_modifier(
        world,
        JudgeModifier::TrapComplexity,
        Some(at),
        &trap,
    ));
    mods
}

pub(super) fn reach_trap(
    world: &mut World,
    who: Entity,
    at: GridPos,
) -> Result<(Entity, Trap), Refusal> {
    let here = square_of(world, who)?;
    let faction = world.get::<Faction>(who).copied();
    let (e, t) = trap_at(world, at)
        .filter(|(_, t)| t.known_to(faction))
        .ok_or(TrapRefusal::NoKnownTrap { at })?;
    if here.chebyshev(at) > 1 {
        return Err(TrapRefusal::NotNextTo { at }.into());
    }
    Ok((e, t))
}

/// A known, armed trap within reach: what disabling needs.
pub(super) fn reach_armed_trap(
    world: &mut World,
    who: Entity,
    at: GridPos,
) -> Result<Entity, Refusal> {
    let (e, t) = reach_trap(world, who, at)?;
    if t.state != TrapState::Armed {
        return Err(TrapRefusal::NotArmed.into());
    }
    Ok(e)
}

/// A successful Trapbreaking throw: the trap is disarmed, or discharged harmlessly.
pub(super) fn disable(world: &mut World, who: Entity, trap: Entity, at: GridPos, discharge: bool) {
    let state = if discharge {
        TrapState::Discharged
    } else {
        TrapState::Disarmed
    };
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.state = state;
    }
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        TrapEvent::TrapDisabled {
            who,
            at,
            discharged: discharge,
        },
    );
}

/// A failed Trapbreaking throw that set nothing off: methodically it may be tried again,
/// hastily not until the thief's level rises.
pub(super) fn failed_to_disable(world: &mut World, who: Entity, at: GridPos, may_retry: bool) {
    let who = crate::creature::name_of(world, who);
    log_in(world, TrapEvent::DisablingFailed { who, at, may_retry });
}

/// `DisarmTrap`: a hasty attempt (one round) to disarm, or to discharge harmlessly.
pub(crate) fn disarm_hastily(
    world: &mut World,
    who: Entity,
    at: GridPos,
    discharge: bool,
) -> Result<(), Refusal> {
    let e = reach_armed_trap(world, who, at)?;
    let (target, mods) = target_of(world, who, at, false)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    if world
        .get::<FailedHastyDisarms>(who)
        .is_some_and(|f| f.0.contains(&(at, level)))
    {
        return Err(TrapRefusal::HastyBarred.into());
    }
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Proficiency(delve_ground::level::schema::Proficiency::Trapbreaking),
        "Trapbreaking (hasty)",
        mods,
        target,
    );
    if throw.success {
        disable(world, who, e, at, discharge);
    } else if throw.natural <= 3 {
        spring(world, e, who);
    } else {
        let mut failed = world
            .get::<FailedHastyDisarms>(who)
            .cloned()
            .unwrap_or_default();
        failed.0.push((at, level));
        world.entity_mut(who).insert(failed);
        failed_to_disable(world, who, at, false);
    }
    Ok(())
}

/// `DisarmTrapMethodically`: sets to disabling a known trap methodically (a turn).
pub fn disarm_methodically(
    world: &mut World,
    who: Entity,
    at: GridPos,
    discharge: bool,
) -> Result<(), Refusal> {
    reach_armed_trap(world, who, at)?;
    target_of(world, who, at, true)?;
    crate::rules::task::begin(
        world,
        who,
        BreakingTrap {
            trap: at,
            discharge,
        },
        ROUNDS_PER_TURN,
    );
    Ok(())
}

/// Disabling a trap methodically (Dungeon Delves › Traps): a turn's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakingTrap {
    pub trap: GridPos,
    pub discharge: bool,
}

impl std::fmt::Display for BreakingTrap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.discharge {
            "discharging"
        } else {
            "disarming"
        };
        write!(f, "{how} the trap at {} methodically", self.trap)
    }
}

impl Work for BreakingTrap {
    /// The end of a turn of methodical trapbreaking: the throw (+4 for the proficient); an
    /// unmodified 1 sets the trap off, and any other failure may be tried again.
    fn finish(&self, world: &mut World, who: Entity) {
        let at = self.trap;
        let Some((e, t)) = trap_at(world, at) else {
            return;
        };
        if t.state != TrapState::Armed {
            return;
        }
        let Ok((target, mods)) = target_of(world, who, at, true) else {
            return;
        };
        let throw = crate::rules::throws::throw_in(
            world,
            who,
            ThrowKind::Check,
            Skill::Proficiency(delve_ground::level::schema::Proficiency::Trapbreaking),
            "Trapbreaking (methodical)",
            mods,
            target,
        );
        if throw.success {
            disable(world, who, e, at, self.discharge);
        } else if throw.natural == 1 {
            spring(world, e, who);
        } else {
            failed_to_disable(world, who, at, true);
        }
    }
}

/// `RearmTrap`: a thief re-arms a disarmed (not discharged) trap with a Trapbreaking throw.
pub(crate) fn rearm(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, t) = reach_trap(world, who, at)?;
    if t.state != TrapState::Disarmed {
        return Err(TrapRefusal::NotDisarmed.into());
    }
    let (target, mods) =
        target_of(world, who, at, false).map_err(|_| TrapRefusal::RearmingIsForThieves)?;
    let rearmed = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Proficiency(delve_ground::level::schema::Proficiency::Trapbreaking),
        "Trapbreaking (re-arm)",
        mods,
        target,
    )
    .success;
    if rearmed && let Some(mut t) = world.get_mut::<Trap>(e) {
        t.state = TrapState::Armed;
    }
    let who = crate::creature::name_of(world, who);
    log_in(world, TrapEvent::Rearming { who, at, rearmed });
    Ok(())
}
