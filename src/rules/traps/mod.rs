//! Traps and Trapbreaking (Dungeon Delves).
//!
//! Whenever a creature takes an action that might set a trap off, the Judge rolls 1d6 in secret:
//! on 1–2 the trap goes off. A step trap is risked by entering its square, an open-door trap by
//! opening its door, a touch trap by touching what is on its square. A 10' pole probing ahead
//! enters each square one step before its bearer, as if an adventurer walked 5' ahead; it sets
//! off step and touch traps, and whatever goes off, goes off where the pole is. A trap the
//! creature's side has found is stepped around and not rolled for (a ruling: the rules leave
//! known traps to the Judge); opening a door or touching something on purpose is risked whether
//! the trap is known or not. A pit deals 1d6 bludgeoning damage per 10' fallen; other traps deal
//! their dice, and may offer a saving throw.
//!
//! Trapbreaking: a thief with thieves' tools disarms (or discharges) a trap hastily in a round
//! with a Trapbreaking throw, where an unmodified 1–3 on a failure sets it off and another
//! failure bars a hasty retry until the thief's level rises; or methodically in a turn at +4,
//! where only an unmodified 1 sets it off and retries are allowed. Anyone else may try
//! methodically only, by Adventuring at 18+. A disarmed trap can be re-armed by a thief with a
//! successful throw.

pub mod commands;
pub mod events;
pub use commands::*;
pub use events::TrapEvent;

use bevy::prelude::*;
use serde::Serialize;

use crate::rules::throws::{ThrowKind, Thrower};

use crate::act::AnyAct;
use crate::act::{Choice, Refusal, square_of};
use crate::creature::{
    ClassLevel, Creature, Equipment, Faction, Position, Proficiencies, SavingThrows,
};
use crate::dice::Modifier;
use crate::grid::GridPos;
use crate::kept::{in_entity_order, read_query};
use crate::level::schema::{Gear, Proficiency, SaveEffect, TrapKind};
use crate::level::{TrapSpec, TrapTriggerDef};
use crate::log::{EventLog, log_in};
use crate::rules::movement::hazards::Hazard;
use crate::rules::movement::{Footsteps, HaltReason, MovedThisRound, MovementEvent, Pace};
use crate::rules::sound::NoisyAction;
use crate::time::{Clock, ROUNDS_PER_TURN};

/// A trap (Dungeon Delves › Traps and Trapbreaking): as the level file describes it (its
/// fields are read through it: `trap.kind`, `trap.hidden`), and whether it can go off.
#[derive(Component, Clone, Debug, PartialEq, Eq, Deref, DerefMut)]
pub struct Trap {
    #[deref]
    pub spec: TrapSpec,
    pub state: TrapState,
    /// The factions that know the trap (RULINGS › Knowledge): its finder's and its victim's,
    /// those who saw it found, and, while it is in plain sight, any whose member sees it. They
    /// step around it; others risk it.
    pub known_to: Vec<Faction>,
    /// In plain sight: written `hidden: false`, or a pit that has opened.
    pub plain_sight: bool,
}

impl Trap {
    /// Does a creature of this faction know the trap?
    pub fn known_to(&self, faction: Option<Faction>) -> bool {
        faction.is_some_and(|f| self.known_to.contains(&f))
    }

    /// Is it a hole (RULINGS › Pits and holes): a pit in plain sight (sprung, or written
    /// uncovered)? Walking onto it is a fall.
    pub fn is_hole(&self) -> bool {
        matches!(self.kind, TrapKind::Pit { .. }) && self.plain_sight
    }

    /// The faction learns of the trap.
    pub fn learned_by(&mut self, faction: Option<Faction>) {
        if let Some(f) = faction
            && !self.known_to.contains(&f)
        {
            self.known_to.push(f);
        }
    }
}

/// Whether a trap can go off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum TrapState {
    #[default]
    Armed,
    /// Made safe, and can be re-armed.
    Disarmed,
    /// Set off harmlessly, or gone off: spent.
    Discharged,
}

impl From<&TrapSpec> for Trap {
    /// The trap as the level file describes it, armed.
    fn from(spec: &TrapSpec) -> Self {
        Self {
            spec: spec.clone(),
            state: TrapState::Armed,
            known_to: Vec::new(),
            plain_sight: !spec.hidden,
        }
    }
}

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
    read_query(world, |q: Query<(Entity, &Position, &Trap)>| {
        q.iter()
            .find(|(_, p, _)| p.0 == at)
            .map(|(e, _, t)| (e, t.clone()))
    })
    .flatten()
}

/// The creature standing on a square, if any (the lowest entity, for determinism).
fn creature_on(world: &mut World, at: GridPos) -> Option<Entity> {
    read_query(world, |q: Query<(Entity, &Position), With<Creature>>| {
        q.iter().filter(|(_, p)| p.0 == at).map(|(e, _)| e).min()
    })
    .flatten()
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
    let who = crate::creature::name_of(world, victim);
    // Dungeon Delves › Traps: some "might only damage the adventurers on a successful attack
    // throw": the trap's attack against the victim's armor class first.
    let hit = match &t.kind {
        TrapKind::Custom {
            attack: Some(a), ..
        } => Some(trap_attack(world, &t, *a, victim)),
        _ => None,
    };
    if hit == Some(false) {
        go_off(world, trap);
        let _ =
            crate::rules::sound::hearing::creature_noise(world, victim, NoisyAction::ATrapGoingOff);
        world.resource_mut::<EventLog>().push(
            round,
            TrapEvent::TrapSprung {
                who,
                trap: trap_name(&t),
                at,
                dice: Vec::new(),
                damage: 0,
                saved: None,
                hit,
            },
        );
        let faction = world.get::<Faction>(victim).copied();
        if let Some(mut t) = world.get_mut::<Trap>(trap) {
            t.learned_by(faction);
        }
        return;
    }
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
        let throw = crate::rules::throws::throw_in(
            world,
            victim,
            ThrowKind::Save,
            crate::rules::throws::Skill::Save(save.throw),
            what,
            Vec::new(),
            target,
        );
        let half = save.on_success == SaveEffect::Half;
        // Tactical Combat › Natural 20 and Natural 1: a natural 1 on a save doubles the damage;
        // a natural 20 on a save for half takes none.
        let tactical = world
            .get_resource::<crate::rules::tactical::TacticalCombat>()
            .is_some_and(|t| t.natural_20_and_1);
        damage = if tactical {
            crate::rules::tactical::damage_after_save(damage, throw.natural, throw.success, half)
        } else {
            match (throw.success, half) {
                (true, true) => damage / 2,
                (true, false) => 0,
                (false, _) => damage,
            }
        };
        saved = Some(throw.success);
    }
    go_off(world, trap);
    let noise = if let TrapKind::Pit { depth_feet } = t.kind {
        // At the bottom of the pit: out only by climbing (Dungeon Delves › Climbing).
        world
            .entity_mut(victim)
            .remove::<crate::rules::movement::Walking>()
            .insert((Position(at), crate::creature::Below { depth_feet }));
        NoisyAction::AFall
    } else {
        NoisyAction::ATrapGoingOff
    };
    // A victim always has a square, so the noise is always made.
    let _ = crate::rules::sound::hearing::creature_noise(world, victim, noise);
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapSprung {
            who,
            trap: trap_name(&t),
            at,
            dice: roll.dice,
            damage,
            saved,
            hit,
        },
    );
    let faction = world.get::<Faction>(victim).copied();
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.learned_by(faction);
    }
    // RULINGS › Conditions …: a trap's damage goes through the one damage path.
    crate::rules::damage::take_damage(world, victim, damage);
}

/// A trap's attack throw against its victim (Dungeon Delves › Traps): d20 + its bonus against
/// the victim's armor class (disordered −2), logged under the trap's name; true on a hit.
fn trap_attack(
    world: &mut World,
    t: &Trap,
    attack: crate::level::schema::TrapAttack,
    victim: Entity,
) -> bool {
    let base = world
        .get::<crate::creature::ArmorClass>(victim)
        .map_or(10, |ac| ac.0);
    // The victim's condition lowers its armor class: shown, as in combat, as the attacker's
    // bonus.
    let (_, mut mods) = crate::rules::conditions::effective_ac(
        base,
        &world
            .get::<crate::rules::conditions::Conditions>(victim)
            .cloned()
            .unwrap_or_default(),
    );
    for m in &mut mods {
        m.value = -m.value;
    }
    mods.insert(0, Modifier::new(attack.bonus, "the trap's attack bonus"));
    let name = trap_name(t);
    let victim_name = crate::creature::name_of(world, victim);
    let tactical = world
        .get_resource::<crate::rules::tactical::TacticalCombat>()
        .copied();
    let untouched = crate::rules::conditions::Conditions::default();
    let thrower = crate::rules::throws::Thrower::new(&name, &untouched, tactical.as_ref());
    let throw = world.resource_scope(|_, mut dice: Mut<crate::dice::Dice>| {
        crate::rules::throws::throw(
            &mut dice,
            &thrower,
            ThrowKind::Attack { ranged: false },
            format!("{name} attacks {victim_name}"),
            mods,
            base,
        )
    });
    let hit = throw.success;
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        crate::rules::throws::ThrowEvent::Threw {
            who: name,
            skill: crate::rules::throws::Skill::Attack,
            throw,
        },
    );
    hit
}

/// The trap is in plain sight once it has gone off (known to whoever sees it), and spent unless
/// it is a pit (a pit stays open).
fn go_off(world: &mut World, trap: Entity) {
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.hidden = false;
        if matches!(t.kind, TrapKind::Pit { .. }) {
            t.plain_sight = true;
        } else {
            t.state = TrapState::Discharged;
        }
    }
}

/// A trap goes off with no one in its way (set off by a pole, or by a door opened from afar):
/// it is revealed, and its noise is heard.
fn spring_on_no_one(world: &mut World, trap: Entity, set_off_by: &str) {
    let Some(t) = world.get::<Trap>(trap).cloned() else {
        return;
    };
    let at = world
        .get::<Position>(trap)
        .map_or(GridPos::default(), |p| p.0);
    go_off(world, trap);
    let what = format!("{} going off", trap_name(&t));
    // The trap's square is on the map, so the noise is always made.
    let _ = crate::rules::sound::hearing::make_noise(
        world,
        at,
        NoisyAction::ATrapGoingOff.row(),
        crate::rules::sound::NoiseKind::Action(NoisyAction::ATrapGoingOff),
        &what,
    );
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapSprungHarmlessly {
            who: set_off_by.to_owned(),
            trap: trap_name(&t),
            at,
        },
    );
}

/// The Judge's secret 1d6 for an action of `who` (with its pole, if `pole`) that might set
/// `trap` off; on 1–2 it goes off on `victim`, or on no one.
fn risk(
    world: &mut World,
    trap: Entity,
    at: GridPos,
    (who, pole): (&str, bool),
    victim: Option<Entity>,
) -> bool {
    let d6 = world.resource_mut::<crate::dice::Dice>().roll(6);
    let sprung = sets_off(d6);
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapChance {
            who: if pole {
                format!("{who}'s 10' pole")
            } else {
                who.to_owned()
            },
            at,
            d6,
            sprung,
        },
    );
    if sprung {
        match victim {
            Some(v) => spring(world, trap, v),
            None => spring_on_no_one(world, trap, who),
        }
    }
    sprung
}

/// Probing with a 10' pole ahead as it walks (Dungeon Delves › Traps): the pole enters each
/// square one step before its bearer. The bearer needs a pole and must be exploring: at combat
/// or running speed the pole is lost (Dungeon Delves › Combat speed).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probing;

/// `Probe`: starts or stops probing ahead with a 10' pole.
pub(crate) fn probe(world: &mut World, who: Entity, on: bool) -> Result<(), Refusal> {
    if !on {
        world.entity_mut(who).remove::<Probing>();
        return Ok(());
    }
    if !world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::TenFootPole))
    {
        return Err(TrapRefusal::NeedsPole.into());
    }
    world.entity_mut(who).insert(Probing);
    Ok(())
}

/// What a faction knows lies in a walker's way (RULINGS › Pits and holes): the open pits it
/// knows (holes), and the armed step traps it knows (stepped around where there is room).
fn hazards_known_to(world: &World, faction: Option<Faction>) -> Vec<(GridPos, Hazard)> {
    read_query(world, |q: Query<(&Position, &Trap)>| {
        q.iter()
            .filter(|(_, t)| t.known_to(faction))
            .filter_map(|(p, t)| {
                if t.is_hole() {
                    Some((p.0, Hazard::Hole))
                } else {
                    (t.state == TrapState::Armed && t.trigger == TrapTriggerDef::Step)
                        .then_some((p.0, Hazard::Trap))
                }
            })
            .collect()
    })
    .unwrap_or_default()
}

/// The walker stops on the square before `i` of its steps, and the log says why.
fn stop_short(world: &mut World, who: Entity, steps: &Footsteps, i: usize, reason: HaltReason) {
    let Some(back) = steps.before(i) else {
        return;
    };
    world
        .entity_mut(who)
        .remove::<crate::rules::movement::Walking>()
        .insert(Position(back));
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        MovementEvent::Halted {
            who,
            at: back,
            reason,
        },
    );
}

/// Each round: every square a creature entered that holds an armed step trap is a 1d6 roll —
/// one it does not know of, or one it knows and crosses because there was no room to step
/// around it (RULINGS › Pits and holes); a probing pole rolls for the hidden step and touch
/// traps of each square just before its bearer enters it, and a trap the pole sets off stops
/// the bearer short of it. An open pit is a hole: one who did not know of it falls in, one who
/// does stops at the edge.
fn step_on_traps(world: &mut World) {
    type Walkers<'w, 's> = Query<
        'w,
        's,
        (
            Entity,
            &'static Footsteps,
            &'static MovedThisRound,
            Option<&'static Faction>,
        ),
        With<Creature>,
    >;
    let mut walkers: Vec<(Entity, Footsteps, bool, Option<Faction>)> =
        read_query(world, |q: Walkers| {
            q.iter()
                .filter(|(_, f, ..)| !f.entered.is_empty())
                // Dungeon Delves › Combat speed: at combat or running speed a party loses its
                // 10' poles.
                .map(|(e, f, m, faction)| {
                    (
                        e,
                        f.clone(),
                        m.pace == Some(Pace::Exploration),
                        faction.copied(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    walkers.sort_by_key(|(e, ..)| *e);
    for (who, steps, careful, faction) in walkers {
        let probing = careful
            && world.get::<Probing>(who).is_some()
            && world
                .get::<Equipment>(who)
                .is_some_and(|g| g.has(&Gear::TenFootPole));
        let name = crate::creature::name_of(world, who);
        for (i, &at) in steps.entered.iter().enumerate() {
            let Some((trap, t)) = trap_at(world, at) else {
                continue;
            };
            // RULINGS › Pits and holes: walking onto an open pit is a fall.
            if t.is_hole() {
                if t.known_to(faction) {
                    stop_short(world, who, &steps, i, HaltReason::Hole { at });
                } else {
                    spring(world, trap, who);
                }
                break;
            }
            if t.state != TrapState::Armed {
                continue;
            }
            // RULINGS › Knowledge, › Pits and holes: creatures step around the traps their
            // faction knows where there is room (the way is planned so), and cross them at
            // their trigger chance where there is not.
            if t.known_to(faction) {
                if t.trigger == TrapTriggerDef::Step
                    && risk(world, trap, at, (&name, false), Some(who))
                {
                    break;
                }
                continue;
            }
            if probing && matches!(t.trigger, TrapTriggerDef::Step | TrapTriggerDef::Touch) {
                let victim = creature_on(world, at).filter(|&v| v != who);
                if risk(world, trap, at, (&name, true), victim) {
                    if let Some(back) = steps.before(i) {
                        world
                            .entity_mut(who)
                            .remove::<crate::rules::movement::Walking>()
                            .insert(Position(back));
                    }
                    break;
                }
            }
            if t.trigger == TrapTriggerDef::Step && risk(world, trap, at, (&name, false), Some(who))
            {
                break;
            }
        }
    }
}

/// Each round: every door opened this round risks every armed trap set to go off when it
/// opens.
fn doors_opened(world: &mut World) {
    let opened = std::mem::take(&mut world.resource_mut::<crate::rules::doors::DoorsOpened>().0);
    for (opener, door) in opened {
        door_opened(world, opener, door);
    }
}

/// Opening a door risks every armed trap set to go off when it opens, known or not. A pit goes
/// off under whoever stands on it; any other trap on the one who opened the door.
fn door_opened(world: &mut World, opener: Entity, door: GridPos) {
    let mut traps: Vec<(Entity, GridPos, bool)> =
        read_query(world, |q: Query<(Entity, &Position, &Trap)>| {
            q.iter()
                .filter(|(_, _, t)| {
                    t.state == TrapState::Armed && t.trigger == TrapTriggerDef::OpenDoor(door)
                })
                .map(|(e, p, t)| (e, p.0, matches!(t.kind, TrapKind::Pit { .. })))
                .collect()
        })
        .unwrap_or_default();
    traps.sort_by_key(|(e, ..)| *e);
    let name = crate::creature::name_of(world, opener);
    for (trap, at, pit) in traps {
        let victim = if pit {
            creature_on(world, at)
        } else {
            Some(opener)
        };
        risk(world, trap, at, (&name, false), victim);
    }
}

/// `Touch`: handles what is on a square by hand (on it or next to it), or prods it with a 10'
/// pole (within 10'). A touch trap there is risked, known or not; a pole also risks a step
/// trap, as if an adventurer stepped there. What goes off by hand goes off on the toucher; what
/// goes off at the end of a pole, on whoever stands on the square.
pub fn touch(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let here = square_of(world, who)?;
    let scale = world.resource::<crate::grid::DungeonGrid>().scale_feet();
    let by_hand = here.within_a_step(at);
    let pole = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::TenFootPole));
    let by_pole = pole && crate::grid::distance_feet(here, at, scale) <= 10;
    if !(by_hand || by_pole) {
        return Err(TrapRefusal::OutOfReach { at }.into());
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        TrapEvent::Touched {
            who: name.clone(),
            at,
            with_pole: !by_hand,
        },
    );
    let (victim, risky): (Option<Entity>, &[TrapTriggerDef]) = if by_hand {
        (Some(who), &[TrapTriggerDef::Touch])
    } else {
        (
            creature_on(world, at),
            &[TrapTriggerDef::Touch, TrapTriggerDef::Step],
        )
    };
    if let Some((trap, t)) = trap_at(world, at)
        && t.state == TrapState::Armed
        && risky.contains(&t.trigger)
    {
        risk(world, trap, at, (&name, !by_hand), victim);
    }
    Ok(())
}

/// Hasty disarms that failed: (trap square, level then).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedHastyDisarms(pub Vec<(GridPos, u32)>);

/// The Trapbreaking throw by the "Disabling Traps" table: those proficient in Trapbreaking, with
/// thieves' tools, throw their class value (+4 methodically); anyone else may disable a trap
/// methodically only, at 18+ by Adventuring.
fn trapbreaking_target(
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

/// What a creature can do about a trap it knows of, each with its time and chance (the
/// "Disabling Traps" table): disarm or discharge hastily (unless a hasty try failed at its
/// level) or methodically, or re-arm a disarmed trap.
/// The choices at every trap within a step of `who` that its faction knows of (RULINGS ›
/// Knowledge).
fn choices_at_known_traps(world: &World, who: Entity) -> Vec<(String, Choice)> {
    let (Some(here), Some(thrower)) = (
        world.get::<Position>(who).map(|p| p.0),
        crate::rules::throws::Thrower::of(world, who),
    ) else {
        return Vec::new();
    };
    let Some(mut q) = world.try_query::<(&Position, &Trap)>() else {
        return Vec::new();
    };
    let faction = world.get::<Faction>(who).copied();
    let mut near: Vec<(GridPos, &Trap)> = q
        .iter(world)
        .filter(|(p, t)| p.0.within_a_step(here) && t.known_to(faction))
        .map(|(p, t)| (p.0, t))
        .collect();
    near.sort_by_key(|(p, _)| (p.y, p.x));
    let level = world
        .get::<crate::creature::ClassLevel>(who)
        .map_or(0, |c| c.level);
    let mut out = Vec::new();
    for (at, t) in near {
        let barred = world
            .get::<FailedHastyDisarms>(who)
            .is_some_and(|f| f.0.contains(&(at, level)));
        let situation = trapbreaking_situation(world, who, at);
        let choices = trap_choices(
            t,
            at,
            &thrower,
            world.get::<Proficiencies>(who),
            world.get::<Equipment>(who),
            barred,
            &situation,
        );
        out.extend(choices.into_iter().map(|c| (format!("trap {at}"), c)));
    }
    out
}

fn trap_choices(
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
                thrower,
                ThrowKind::Check,
                &mods,
                target,
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
fn target_of(
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
fn trapbreaking_situation(world: &World, who: Entity, at: GridPos) -> Vec<Modifier> {
    let trap: Vec<Entity> = read_query(world, |q: Query<(Entity, &Position), With<Trap>>| {
        q.iter().find(|(_, p)| p.0 == at).map(|(e, _)| e)
    })
    .flatten()
    .into_iter()
    .collect();
    let mut mods = crate::rules::penalties::check_penalties(world, who, Some(at));
    mods.extend(crate::rules::calls::judge_modifier(
        world,
        crate::level::schema::JudgeModifier::TrapComplexity,
        Some(at),
        &trap,
    ));
    mods
}

fn reach_trap(world: &mut World, who: Entity, at: GridPos) -> Result<(Entity, Trap), Refusal> {
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
fn reach_armed_trap(world: &mut World, who: Entity, at: GridPos) -> Result<Entity, Refusal> {
    let (e, t) = reach_trap(world, who, at)?;
    if t.state != TrapState::Armed {
        return Err(TrapRefusal::NotArmed.into());
    }
    Ok(e)
}

/// A successful Trapbreaking throw: the trap is disarmed, or discharged harmlessly.
fn disable(world: &mut World, who: Entity, trap: Entity, at: GridPos, discharge: bool) {
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
fn failed_to_disable(world: &mut World, who: Entity, at: GridPos, may_retry: bool) {
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
        crate::rules::throws::Skill::Proficiency(crate::level::schema::Proficiency::Trapbreaking),
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

impl crate::rules::task::Work for BreakingTrap {
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
            crate::rules::throws::Skill::Proficiency(
                crate::level::schema::Proficiency::Trapbreaking,
            ),
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
        crate::rules::throws::Skill::Proficiency(crate::level::schema::Proficiency::Trapbreaking),
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

/// RULINGS › Knowledge: a trap in plain sight (written `hidden: false`, or an opened pit)
/// becomes known to every faction with a member who sees its square.
fn learn_traps_in_sight(
    mut traps: Query<(Entity, &Position, &mut Trap)>,
    seers: Query<(&Faction, &crate::rules::vision::Sight)>,
) {
    for e in in_entity_order(traps.iter().map(|t| t.0)) {
        let Ok((_, at, mut trap)) = traps.get_mut(e) else {
            continue;
        };
        if !trap.plain_sight {
            continue;
        }
        for (faction, sight) in &seers {
            if !trap.known_to.contains(faction) && sight.sees(at.0) {
                trap.known_to.push(*faction);
            }
        }
    }
}

/// The factions with a member who sees the square now: those who see a trap found.
pub(crate) fn witnesses(world: &mut World, at: GridPos) -> Vec<Faction> {
    let mut out: Vec<Faction> = read_query(
        world,
        |q: Query<(&Faction, &crate::rules::vision::Sight)>| {
            q.iter()
                .filter(|(_, s)| s.sees(at))
                .map(|(f, _)| *f)
                .collect()
        },
    )
    .unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

pub struct TrapsPlugin;

impl Plugin for TrapsPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::traps::FailedHastyDisarms>()
            .keeps_component::<crate::rules::traps::Probing>()
            .keeps_component::<crate::rules::traps::Trap>();
        crate::rules::areas::RuleArea::offers(app, choices_at_known_traps);
        crate::rules::movement::hazards::HazardRules::knows_hazards(app, hazards_known_to);
        use crate::rules::areas::RuleArea;
        app.installs(|world, level| {
            for t in &level.traps {
                world.spawn((
                    crate::creature::LevelEntity,
                    Position(t.at),
                    Trap::from(&t.trap),
                ));
            }
        })
        // What everyone sees as the delve begins: traps in plain sight are known from the start.
        .installs_after_creatures(|world, _| {
            use bevy::ecs::system::RunSystemOnce;
            let learned = world.run_system_once(learn_traps_in_sight);
            debug_assert!(learned.is_ok(), "{learned:?}");
        });
        app.add_systems(
            crate::schedule::SimRound,
            (doors_opened, step_on_traps)
                .chain()
                .in_set(crate::schedule::RoundSet::Traps),
        )
        .add_systems(
            crate::schedule::SimRound,
            learn_traps_in_sight.in_set(crate::schedule::RoundSet::Knowledge),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The "Disabling Traps" table's throws.
    #[test]
    fn trapbreaking_targets_by_the_table() {
        let mut thief = Proficiencies::default();
        thief.list.push(Proficiency::Trapbreaking);
        thief.throws.insert(Proficiency::Trapbreaking, 13);
        let tools = Equipment(vec![Gear::ThievesTools]);
        let total = |r: Result<(i32, Vec<Modifier>), TrapRefusal>| {
            r.map(|(t, m)| (t, m.iter().map(|m| m.value).sum::<i32>()))
        };
        // Using Trapbreaking: hasty by class level, methodical by class level +4.
        assert_eq!(
            total(trapbreaking_target(Some(&thief), Some(&tools), false)),
            Ok((13, 0))
        );
        assert_eq!(
            total(trapbreaking_target(Some(&thief), Some(&tools), true)),
            Ok((13, 4))
        );
        // Using Adventuring: hasty not permitted, methodical 18+.
        let anyone = Proficiencies::default();
        assert_eq!(
            trapbreaking_target(Some(&anyone), None, false),
            Err(TrapRefusal::HastyNotProficient)
        );
        assert_eq!(
            total(trapbreaking_target(Some(&anyone), None, true)),
            Ok((18, 0))
        );
        // A thief without tools cannot work hastily, and falls back on Adventuring.
        assert_eq!(
            trapbreaking_target(Some(&thief), None, false),
            Err(TrapRefusal::HastyNeedsTools)
        );
        assert_eq!(
            total(trapbreaking_target(Some(&thief), None, true)),
            Ok((18, 0))
        );
    }

    #[test]
    fn a_thief_is_offered_hasty_and_methodical_ways_and_anyone_else_methodical_only() {
        let t = Trap::from(&TrapSpec {
            kind: TrapKind::Pit { depth_feet: 10 },
            damage: crate::dice::DiceExpr::new(1, 6, 0),
            trigger: TrapTriggerDef::Step,
            hidden: false,
            search_modifier: 0,
            judge: Default::default(),
        });
        let at = GridPos::new(4, 1);
        let mut thief = Proficiencies::default();
        thief.list.push(Proficiency::Trapbreaking);
        thief.throws.insert(Proficiency::Trapbreaking, 13);
        let tools = Equipment(vec![Gear::ThievesTools]);
        let (sera, bo) = (
            Thrower {
                name: "Sera",
                bloodied: false,
                tactical: None,
            },
            Thrower {
                name: "Bo",
                bloodied: false,
                tactical: None,
            },
        );
        let offered = |c: Vec<Choice>| -> Vec<(String, Option<i32>)> {
            c.into_iter().map(|c| (c.way, c.target)).collect()
        };
        assert_eq!(
            offered(trap_choices(
                &t,
                at,
                &sera,
                Some(&thief),
                Some(&tools),
                false,
                &[]
            )),
            vec![
                ("disarm hastily".into(), Some(13)),
                ("discharge hastily".into(), Some(13)),
                ("disarm methodically".into(), Some(9)),
                ("discharge methodically".into(), Some(9)),
            ]
        );
        assert_eq!(
            offered(trap_choices(
                &t,
                at,
                &sera,
                Some(&thief),
                Some(&tools),
                true,
                &[]
            ))
            .len(),
            2,
            "no hasty ways once a hasty try failed at this level"
        );
        let c = trap_choices(&t, at, &bo, None, None, false, &[]);
        assert_eq!(
            offered(c.clone()),
            vec![
                ("disarm methodically".into(), Some(18)),
                ("discharge methodically".into(), Some(18)),
            ]
        );
        assert_eq!(c[0].chance, 0.15);
        let mut hidden = t;
        hidden.hidden = true;
        assert!(trap_choices(&hidden, at, &bo, None, None, false, &[]).is_empty());
    }

    #[test]
    fn one_or_two_on_a_d6_sets_a_trap_off() {
        let off: Vec<u32> = (1..=6).filter(|&d| sets_off(d)).collect();
        assert_eq!(off, vec![1, 2]);
    }
}
