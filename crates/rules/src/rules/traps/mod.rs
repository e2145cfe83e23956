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

mod commands;
pub mod events;
use crate::act::{AnyAct, Choice, Concern};
use crate::creature::LevelEntity;
use crate::rules::areas::Rank;
use crate::rules::doors::DoorsOpened;
use crate::rules::movement::Walking;
use crate::rules::movement::hazards::HazardRules;
use crate::rules::vision::Sight;
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::DungeonGrid;
use delve_ground::time::Clock;

pub use commands::{DisarmTrap, DisarmTrapMethodically, Probe, RearmTrap, Touch, TrapRefusal};
pub use events::TrapEvent;

use bevy::prelude::*;
use serde::Serialize;

use crate::act::{Refusal, square_of};
use crate::creature::{Creature, Equipment, Faction, Position};
use crate::rules::movement::hazards::Hazard;
use crate::rules::movement::{Footsteps, HaltReason, MovedThisRound, MovementEvent, Pace};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{Gear, TrapKind};
use delve_ground::level::{TrapSpec, TrapTriggerDef};
use delve_ground::log::log_in;
use delve_ground::query_cache::{in_entity_order, read_query};

mod breaking;
mod springing;

use breaking::choices_at_known_traps;
pub use breaking::{BreakingTrap, FailedHastyDisarms, choices_at_trap, disarm_methodically};
pub(crate) use breaking::{disarm_hastily, rearm};
use springing::risk;
pub use springing::spring;

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
    /// The round a search found it (`rules::search`): those who walked onto it that round
    /// stop short of it — Dungeon Delves › Searching: the thief "notices it before triggering
    /// it".
    pub found_in_round: Option<u64>,
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
            found_in_round: None,
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

/// Probing with a 10' pole is offered to its bearer (Dungeon Delves › Traps: the pole enters
/// each square a step before its bearer, so a trap there meets the pole), and stopping to one
/// probing.
fn probe_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let has_pole = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::TenFootPole));
    let (true, Some(name)) = (has_pole, world.get::<Name>(who)) else {
        return Vec::new();
    };
    let on = world.get::<Probing>(who).is_none();
    let (way, note) = if on {
        (
            "probe ahead with the pole",
            "at exploration speed: a trap ahead meets the pole",
        )
    } else {
        ("stop probing", "")
    };
    let probe = AnyAct::from(Probe {
        who: name.to_string(),
        on,
    });
    let choice = Choice::new(way, "as it walks", None, note, probe);
    vec![(Concern::Here, choice)]
}

/// A known armed trap within the 10' pole's reach (Dungeon Delves › Traps: a pole "within 10'")
/// may be set off with it from a distance, on whoever stands there.
fn touch_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let has_pole = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::TenFootPole));
    let (true, Some(name), Some(here)) = (
        has_pole,
        world.get::<Name>(who),
        world.get::<Position>(who).map(|p| p.0),
    ) else {
        return Vec::new();
    };
    let faction = world.get::<Faction>(who).copied();
    let scale = world.resource::<DungeonGrid>().scale_feet();
    let mut near: Vec<GridPos> = read_query(world, |q: Query<(&Position, &Trap)>| {
        q.iter()
            .filter(|(p, t)| {
                t.known_to(faction)
                    && t.state == TrapState::Armed
                    && p.0 != here
                    && delve_ground::grid::distance_feet(here, p.0, scale) <= 10
            })
            .map(|(p, _)| p.0)
            .collect()
    })
    .unwrap_or_default();
    near.sort_by_key(|p| (p.y, p.x));
    near.into_iter()
        .map(|at| {
            let touch = AnyAct::from(Touch {
                who: name.to_string(),
                at: (at.x, at.y),
            });
            let note = "springs a touch or step trap on whoever stands there";
            (
                Concern::Trap(at),
                Choice::new("set it off with the pole", "1 round", None, note, touch),
            )
        })
        .collect()
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
        .remove::<Walking>()
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
    // Walkers a companion's pole dropped into a pit this round, before their own steps were
    // looked at: they are at the bottom, and their steps end there.
    let mut dropped: Vec<Entity> = Vec::new();
    for (who, steps, careful, faction) in walkers {
        if !dropped.contains(&who) {
            dropped.extend(walk_over_traps(world, who, &steps, careful, faction));
        }
    }
}

/// One walker's steps of the round over the traps on them ([`step_on_traps`]); the companion
/// its pole dropped into a pit, if any.
fn walk_over_traps(
    world: &mut World,
    who: Entity,
    steps: &Footsteps,
    careful: bool,
    faction: Option<Faction>,
) -> Option<Entity> {
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
                stop_short(world, who, steps, i, HaltReason::Hole { at });
            } else {
                spring(world, trap, who);
            }
            return None;
        }
        if t.state != TrapState::Armed {
            continue;
        }
        // RULINGS › Knowledge, › Pits and holes: creatures step around the traps their
        // faction knows where there is room (the way is planned so), and cross them at
        // their trigger chance where there is not.
        if t.known_to(faction) {
            // Dungeon Delves › Searching: a thief's search while exploring "notices it
            // before triggering it" — found this round, after the walk that reached it
            // (searching comes after walking in the round), the walkers who know of it
            // stop short of it rather than cross it at its chance.
            if t.found_in_round == Some(world.resource::<Clock>().rounds) {
                stop_short(world, who, steps, i, HaltReason::Noticed { at });
                return None;
            }
            if t.trigger == TrapTriggerDef::Step && risk(world, trap, at, (&name, false), Some(who))
            {
                return None;
            }
            continue;
        }
        if probing && matches!(t.trigger, TrapTriggerDef::Step | TrapTriggerDef::Touch) {
            let victim = creature_on(world, at).filter(|&v| v != who);
            if risk(world, trap, at, (&name, true), victim) {
                if let Some(back) = steps.before(i) {
                    world
                        .entity_mut(who)
                        .remove::<Walking>()
                        .insert(Position(back));
                }
                return victim;
            }
        }
        if t.trigger == TrapTriggerDef::Step && risk(world, trap, at, (&name, false), Some(who)) {
            return None;
        }
    }
    // Dungeon Delves › Traps: "the pole is treated as an adventurer moving 5' ahead of its
    // bearer": a bearer that stops with its pole out has probed the square 5' beyond, ahead
    // in the way it went (each square it entered was probed just before it stepped in).
    if probing && world.get::<Walking>(who).is_none() {
        return probe_beyond(world, who, steps, &name);
    }
    None
}

/// The square 5' beyond the last a bearer entered, ahead in its last step's direction: a hidden
/// step or touch trap there is risked by its pole (on whoever stands there, or on no one). The
/// one it went off on, if any.
fn probe_beyond(world: &mut World, who: Entity, steps: &Footsteps, name: &str) -> Option<Entity> {
    let (Some(&last), Some(before)) = (
        steps.entered.last(),
        steps.before(steps.entered.len().saturating_sub(1)),
    ) else {
        return None;
    };
    let beyond = GridPos::new(2 * last.x - before.x, 2 * last.y - before.y);
    let faction = world.get::<Faction>(who).copied();
    let (trap, t) = trap_at(world, beyond)?;
    if t.state == TrapState::Armed
        && !t.is_hole()
        && !t.known_to(faction)
        && matches!(t.trigger, TrapTriggerDef::Step | TrapTriggerDef::Touch)
    {
        let victim = creature_on(world, beyond);
        if risk(world, trap, beyond, (name, true), victim) {
            return victim;
        }
    }
    None
}

/// Each round: every door opened this round risks every armed trap set to go off when it
/// opens.
fn doors_opened(world: &mut World) {
    let opened = std::mem::take(&mut world.resource_mut::<DoorsOpened>().0);
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
    let scale = world.resource::<DungeonGrid>().scale_feet();
    let by_hand = here.within_a_step(at);
    let pole = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::TenFootPole));
    let by_pole = pole && delve_ground::grid::distance_feet(here, at, scale) <= 10;
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

/// RULINGS › Knowledge: a trap in plain sight (written `hidden: false`, or an opened pit)
/// becomes known to every faction with a member who sees its square.
fn learn_traps_in_sight(
    mut traps: Query<(Entity, &Position, &mut Trap)>,
    seers: Query<(&Faction, &Sight)>,
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
    let mut out: Vec<Faction> = read_query(world, |q: Query<(&Faction, &Sight)>| {
        q.iter()
            .filter(|(_, s)| s.sees(at))
            .map(|(f, _)| *f)
            .collect()
    })
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
        crate::rules::areas::RuleArea::offers(app, Rank::AtHand, choices_at_known_traps);
        crate::rules::areas::RuleArea::offers(app, Rank::Senses, probe_choices);
        crate::rules::areas::RuleArea::offers(app, Rank::Senses, touch_choices);
        HazardRules::knows_hazards(app, hazards_known_to);
        use crate::rules::areas::RuleArea;
        app.installs(|world, level| {
            for t in &level.traps {
                world.spawn((LevelEntity, Position(t.at), Trap::from(&t.trap)));
            }
        })
        // What everyone sees as the delve begins: traps in plain sight are known from the start.
        .installs_after_creatures(|world, _| {
            use bevy::ecs::system::RunSystemOnce;
            let learned = world.run_system_once(learn_traps_in_sight);
            debug_assert!(learned.is_ok(), "{learned:?}");
        });
        app.add_systems(
            SimRound,
            (doors_opened, step_on_traps)
                .chain()
                .in_set(RoundSet::Traps),
        )
        .add_systems(SimRound, learn_traps_in_sight.in_set(RoundSet::Knowledge));
    }
}

#[cfg(test)]
mod tests;
