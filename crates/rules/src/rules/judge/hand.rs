//! The Judge's hand on the world: what the Judge may change at the table without a throw (set a
//! creature's hit points, give or take a condition, place a creature, open, close, lock or
//! reveal a door, arm or reveal a trap, light or douse a source, switch a rule module). Each is
//! a command like any other — logged, journaled, replayed and undone — given by
//! [`THE_JUDGE`](super::THE_JUDGE). The window gives them between rounds
//! (`command::dispatch_now`); a script may give them at a round's start.

use crate::act::Unable;
use crate::rules::acting::Cost;
use crate::rules::modules::RunningModules;
use crate::rules::movement::Walking;
use crate::rules::tactical::TacticalCombat;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Offered, Refusal, at, creature};
use crate::creature::{ConditionEnd, Conditions, HitPoints, Position};
use crate::rules::conditions::{gain_condition_in, is_down, lose_condition_in};
use crate::rules::doors::Door;
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::modules::RuleModule;
use crate::rules::traps::{Trap, TrapState};
use delve_ground::grid::{DoorState, DungeonGrid};
use delve_ground::level::schema::{ConditionKind, Lock};
use delve_ground::log::log_in;

use super::{JudgeEvent, JudgeRefusal, THE_JUDGE, thing_at};

/// What the log names as the source of what the Judge does.
const BY_THE_JUDGE: &str = "the Judge";

/// The light map takes a door opened or a light lit at once, not at the next round.
fn relight(world: &mut World) {
    let updated = world.run_system_cached(crate::rules::light::update_light_map);
    debug_assert!(updated.is_ok(), "{updated:?}");
}

/// Sets a creature's hit points (no more than its maximum). At 0 or below it is dying (Dungeon
/// Delves › Hit Points); brought above 0 it is no longer dying; the tactical rules' bloodied
/// follows its hit points where they are on. Dead stays dead until the Judge takes it away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetHitPoints {
    pub who: String,
    pub hit_points: i32,
}

impl fmt::Display for SetHitPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "set {}'s hit points to {}", self.who, self.hit_points)
    }
}

impl Act for SetHitPoints {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        let hp = *world.get::<HitPoints>(e).ok_or(JudgeRefusal::NoHitPoints)?;
        let to = self.hit_points.min(hp.max);
        if let Some(mut h) = world.get_mut::<HitPoints>(e) {
            h.current = to;
        }
        log_in(
            world,
            JudgeEvent::HitPointsSet {
                who: self.who.clone(),
                from: hp.current,
                to,
            },
        );
        let conditions = world.get::<Conditions>(e).cloned().unwrap_or_default();
        if to <= 0 && !is_down(&conditions) {
            crate::rules::damage::falls_dying(world, e, BY_THE_JUDGE);
        } else if to > 0 && conditions.has(ConditionKind::Dying) {
            lose_condition_in(world, e, ConditionKind::Dying, BY_THE_JUDGE);
        }
        let bloodied_rule = world
            .get_resource::<TacticalCombat>()
            .is_some_and(|t| t.bloodied);
        if bloodied_rule {
            if crate::rules::tactical::is_bloodied(to, hp.max) {
                gain_condition_in(
                    world,
                    e,
                    ConditionKind::Bloodied,
                    "below half its hit points",
                    ConditionEnd::UntilRemoved,
                );
            } else {
                lose_condition_in(
                    world,
                    e,
                    ConditionKind::Bloodied,
                    "above half its hit points",
                );
            }
        }
        Ok(())
    }
}

/// Gives a creature a condition until the Judge takes it away (prone until it stands up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GiveCondition {
    pub who: String,
    pub condition: ConditionKind,
}

impl fmt::Display for GiveCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "make {} {:?}", self.who, self.condition)
    }
}

impl Act for GiveCondition {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        let conditions = world
            .get::<Conditions>(e)
            .ok_or(JudgeRefusal::NoHitPoints)?;
        if conditions.has(self.condition) {
            return Err(JudgeRefusal::HasItAlready {
                condition: self.condition,
            }
            .into());
        }
        let ends = match self.condition {
            ConditionKind::Prone => ConditionEnd::StandingUp,
            _ => ConditionEnd::UntilRemoved,
        };
        gain_condition_in(world, e, self.condition, BY_THE_JUDGE, ends);
        Ok(())
    }
}

/// Takes a condition away from a creature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeCondition {
    pub who: String,
    pub condition: ConditionKind,
}

impl fmt::Display for TakeCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "end {}'s {:?}", self.who, self.condition)
    }
}

impl Act for TakeCondition {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        if !world
            .get::<Conditions>(e)
            .is_some_and(|c| c.has(self.condition))
        {
            return Err(JudgeRefusal::HasItNot {
                condition: self.condition,
            }
            .into());
        }
        lose_condition_in(world, e, self.condition, BY_THE_JUDGE);
        Ok(())
    }
}

/// Puts a creature on a square (any square it could stand on, not another's): it stops where
/// it was going.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceCreature {
    pub who: String,
    pub at: (i32, i32),
}

impl fmt::Display for PlaceCreature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "place {} at {}", self.who, at(self.at))
    }
}

impl Act for PlaceCreature {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        let to = at(self.at);
        let grid = world.resource::<DungeonGrid>();
        if grid.terrain(to).is_none() {
            return Err(JudgeRefusal::OffTheMap { at: to }.into());
        }
        if !grid.is_passable(to) {
            return Err(JudgeRefusal::NoFooting { at: to }.into());
        }
        let mut q = world.query::<(Entity, &Position, &Conditions)>();
        if let Some((other, ..)) = q
            .iter(world)
            .find(|(o, p, c)| *o != e && p.0 == to && !c.has(ConditionKind::Dead))
        {
            return Err(JudgeRefusal::Taken {
                at: to,
                by: crate::creature::name_of(world, other),
            }
            .into());
        }
        let from = world
            .get::<Position>(e)
            .map(|p| p.0)
            .ok_or(Unable::NoSquare)?;
        world.entity_mut(e).insert(Position(to)).remove::<Walking>();
        log_in(
            world,
            JudgeEvent::Placed {
                who: self.who.clone(),
                from,
                to,
            },
        );
        relight(world);
        Ok(())
    }
}

/// What the Judge makes of a door.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DoorSetting {
    Open,
    Closed,
    /// Locked, opened by this key if any.
    Locked {
        #[serde(default)]
        key: Option<String>,
    },
    Unlocked,
    /// A secret door no longer secret: anyone can see it is a door.
    Revealed,
}

impl fmt::Display for DoorSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DoorSetting::Open => f.write_str("open"),
            DoorSetting::Closed => f.write_str("closed"),
            DoorSetting::Locked { key: Some(k) } => write!(f, "locked (the {k} opens it)"),
            DoorSetting::Locked { key: None } => f.write_str("locked"),
            DoorSetting::Unlocked => f.write_str("unlocked"),
            DoorSetting::Revealed => f.write_str("revealed"),
        }
    }
}

/// Opens, closes, locks, unlocks or reveals the door at a square, with no throw and no time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetDoor {
    pub at: (i32, i32),
    pub to: DoorSetting,
}

impl fmt::Display for SetDoor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "make the door at {} {}", at(self.at), self.to)
    }
}

impl Act for SetDoor {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let p = at(self.at);
        let e = thing_at::<Door>(world, p, "door")?;
        let mut door = world.get::<Door>(e).cloned().ok_or(JudgeRefusal::Nothing {
            what: "door",
            at: p,
        })?;
        match &self.to {
            DoorSetting::Open => door.state = DoorState::Open,
            DoorSetting::Closed if door.broken => {
                return Err(JudgeRefusal::BrokenDoor { at: p }.into());
            }
            DoorSetting::Closed => door.state = DoorState::Closed,
            DoorSetting::Locked { key } => door.lock = Lock::Locked { key: key.clone() },
            DoorSetting::Unlocked => door.lock = Lock::Unlocked,
            DoorSetting::Revealed => door.secret = false,
        }
        let state = door.state;
        world.entity_mut(e).insert(door);
        world.resource_mut::<DungeonGrid>().set_door(p, state);
        log_in(
            world,
            JudgeEvent::DoorSet {
                at: p,
                to: self.to.clone(),
            },
        );
        relight(world);
        Ok(())
    }
}

/// What the Judge makes of a trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrapSetting {
    /// Armed again (a spent or disarmed trap too).
    Armed,
    Disarmed,
    /// In plain sight: whoever sees its square knows it.
    Revealed,
}

impl fmt::Display for TrapSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrapSetting::Armed => "armed",
            TrapSetting::Disarmed => "disarmed",
            TrapSetting::Revealed => "in plain sight",
        })
    }
}

/// Arms, disarms or reveals the trap at a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetTrap {
    pub at: (i32, i32),
    pub to: TrapSetting,
}

impl fmt::Display for SetTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "make the trap at {} {}", at(self.at), self.to)
    }
}

impl Act for SetTrap {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let p = at(self.at);
        let e = thing_at::<Trap>(world, p, "trap")?;
        if let Some(mut t) = world.get_mut::<Trap>(e) {
            match self.to {
                TrapSetting::Armed => t.state = TrapState::Armed,
                TrapSetting::Disarmed => t.state = TrapState::Disarmed,
                TrapSetting::Revealed => {
                    t.hidden = false;
                    t.plain_sight = true;
                }
            }
        }
        log_in(world, JudgeEvent::TrapSet { at: p, to: self.to });
        Ok(())
    }
}

/// Lights or douses every source at a square: those lying there and those carried by the
/// creature standing there. A source with no fuel left does not light.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetLight {
    pub at: (i32, i32),
    pub lit: bool,
}

impl fmt::Display for SetLight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.lit { "light" } else { "douse" };
        write!(f, "{what} the lights at {}", at(self.at))
    }
}

impl Act for SetLight {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let p = at(self.at);
        let mut q = world.query::<(Entity, &LightSource, Option<&Position>, Option<&CarriedBy>)>();
        let mut here: Vec<Entity> = q
            .iter(world)
            .filter(|(.., own, bearer)| {
                own.map(|o| o.0)
                    .or_else(|| bearer.and_then(|b| world.get::<Position>(b.0)).map(|o| o.0))
                    == Some(p)
            })
            .filter(|(_, l, ..)| l.lit != self.lit && (!self.lit || l.fuel_rounds != Some(0)))
            .map(|(e, ..)| e)
            .collect();
        if here.is_empty() {
            return Err(JudgeRefusal::NoLightToSet {
                at: p,
                lit: self.lit,
            }
            .into());
        }
        here.sort();
        let mut lights = Vec::new();
        for e in here {
            if let Some(mut l) = world.get_mut::<LightSource>(e) {
                l.lit = self.lit;
                lights.push(crate::rules::light::described(&l));
            }
        }
        log_in(
            world,
            JudgeEvent::LightsSet {
                at: p,
                lit: self.lit,
                lights,
            },
        );
        relight(world);
        Ok(())
    }
}

/// Switches an optional rule module on or off for the rest of the delve (RULINGS: the modules
/// are optional).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchModule {
    pub module: RuleModule,
    pub on: bool,
}

impl fmt::Display for SwitchModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = if self.on { "on" } else { "off" };
        write!(f, "switch {} {on}", self.module.words())
    }
}

impl Act for SwitchModule {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::JUDGES_HAND
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        THE_JUDGE
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let now = world
            .get_resource::<RunningModules>()
            .map(|m| self.module.on_in(m.now));
        if now == Some(self.on) {
            return Err(JudgeRefusal::SwitchedAlready { on: self.on }.into());
        }
        crate::rules::modules::switch_module(world, self.module, self.on);
        log_in(
            world,
            JudgeEvent::ModuleSwitched {
                module: self.module,
                on: self.on,
            },
        );
        Ok(())
    }
}
