//! The Judge's commands: setting a modifier, switching the unexpected-light throw.

use crate::creature::Position;
use crate::rules::acting::Cost;
use crate::rules::doors::Door;
use crate::rules::traps::Trap;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Offered, Reason, Refusal, at, creature};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, JudgeModifier};
use delve_ground::log::log_in;

use super::{Judge, JudgeEvent, JudgeSettings};

/// What a Judge modifier is set for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JudgeScope {
    /// The whole level.
    Level,
    /// A rectangle of squares, corners included.
    Region { from: (i32, i32), to: (i32, i32) },
    /// The door at a square.
    Door { at: (i32, i32) },
    /// The trap at a square.
    Trap { at: (i32, i32) },
    /// A creature, by name.
    Creature { name: String },
}

impl fmt::Display for JudgeScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeScope::Level => write!(f, "the level"),
            JudgeScope::Region { from, to } => {
                write!(f, "the squares from {} to {}", at(*from), at(*to))
            }
            JudgeScope::Door { at: p } => write!(f, "the door at {}", at(*p)),
            JudgeScope::Trap { at: p } => write!(f, "the trap at {}", at(*p)),
            JudgeScope::Creature { name } => write!(f, "{name}"),
        }
    }
}

/// Sets a Judge modifier for the level, a region, a door, a trap or a creature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetJudgeModifier {
    pub modifier: JudgeModifier,
    pub value: i32,
    #[serde(default = "level_scope")]
    pub on: JudgeScope,
}

fn level_scope() -> JudgeScope {
    JudgeScope::Level
}

impl fmt::Display for SetJudgeModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "set {} to {:+} for {}",
            self.modifier.words(),
            self.value,
            self.on
        )
    }
}

/// The one who gives the Judge's commands.
pub const THE_JUDGE: &str = "the Judge";

impl Act for SetJudgeModifier {
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
        let (m, v) = (self.modifier, self.value);
        match &self.on {
            JudgeScope::Level => {
                world.resource_mut::<Judge>().modifiers.insert(m, v);
            }
            JudgeScope::Region { from, to } => {
                let (from, to) = (on_the_map(world, *from)?, on_the_map(world, *to)?);
                world
                    .resource_mut::<Judge>()
                    .regions
                    .push((from, to, [(m, v)].into()));
            }
            JudgeScope::Door { at: p } => {
                let e = thing_at::<Door>(world, at(*p), "door")?;
                set_on(world, e, m, v);
            }
            JudgeScope::Trap { at: p } => {
                let e = thing_at::<Trap>(world, at(*p), "trap")?;
                set_on(world, e, m, v);
            }
            JudgeScope::Creature { name } => {
                let e = creature(world, name)?;
                set_on(world, e, m, v);
            }
        }
        log_in(
            world,
            JudgeEvent::ModifierSet {
                modifier: m,
                value: v,
                on: self.on.clone(),
            },
        );
        Ok(())
    }
}

/// Creatures in the dark throw against lights they did not expect (`on`), or only against
/// lights turned on them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnexpectedLights {
    pub on: bool,
}

impl fmt::Display for UnexpectedLights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "switch the unexpected-light throw {}",
            if self.on { "on" } else { "off" }
        )
    }
}

impl Act for UnexpectedLights {
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
        world.resource_mut::<Judge>().unexpected_lights = self.on;
        log_in(world, JudgeEvent::UnexpectedLights { on: self.on });
        Ok(())
    }
}

fn set_on(world: &mut World, e: Entity, m: JudgeModifier, v: i32) {
    let mut settings = world.get::<JudgeSettings>(e).cloned().unwrap_or_default();
    settings.insert(m, v);
    world.entity_mut(e).insert(settings);
}

fn on_the_map(world: &World, p: (i32, i32)) -> Result<GridPos, JudgeRefusal> {
    let p = at(p);
    world
        .resource::<DungeonGrid>()
        .terrain(p)
        .map(|_| p)
        .ok_or(JudgeRefusal::OffTheMap { at: p })
}

pub(super) fn thing_at<T: Component>(
    world: &mut World,
    p: GridPos,
    what: &'static str,
) -> Result<Entity, JudgeRefusal> {
    let mut q = world.query_filtered::<(Entity, &Position), With<T>>();
    q.iter(world)
        .find(|(_, pos)| pos.0 == p)
        .map(|(e, _)| e)
        .ok_or(JudgeRefusal::Nothing { what, at: p })
}

/// Why a Judge's command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeRefusal {
    OffTheMap {
        at: GridPos,
    },
    Nothing {
        what: &'static str,
        at: GridPos,
    },
    /// A wall, or what no one can stand on.
    NoFooting {
        at: GridPos,
    },
    /// Another creature stands there.
    Taken {
        at: GridPos,
        by: String,
    },
    /// Not a creature with hit points and conditions.
    NoHitPoints,
    HasItAlready {
        condition: ConditionKind,
    },
    HasItNot {
        condition: ConditionKind,
    },
    /// A broken door does not close.
    BrokenDoor {
        at: GridPos,
    },
    /// No source at the square to light (with fuel) or to douse.
    NoLightToSet {
        at: GridPos,
        lit: bool,
    },
    /// The module is already so.
    SwitchedAlready {
        on: bool,
    },
}

impl Reason for JudgeRefusal {}

impl fmt::Display for JudgeRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeRefusal::OffTheMap { at } => write!(f, "{at} is off the map"),
            JudgeRefusal::Nothing { what, at } => write!(f, "there is no {what} at {at}"),
            JudgeRefusal::NoFooting { at } => write!(f, "nothing can stand at {at}"),
            JudgeRefusal::Taken { at, by } => write!(f, "{by} stands at {at}"),
            JudgeRefusal::NoHitPoints => write!(f, "it has no hit points or conditions"),
            JudgeRefusal::HasItAlready { condition } => write!(f, "it is {condition:?} already"),
            JudgeRefusal::HasItNot { condition } => write!(f, "it is not {condition:?}"),
            JudgeRefusal::BrokenDoor { at } => write!(f, "the door at {at} is broken"),
            JudgeRefusal::NoLightToSet { at, lit: true } => {
                write!(f, "no unlit light with fuel at {at}")
            }
            JudgeRefusal::NoLightToSet { at, lit: false } => write!(f, "no lit light at {at}"),
            JudgeRefusal::SwitchedAlready { on: true } => write!(f, "it is on already"),
            JudgeRefusal::SwitchedAlready { on: false } => write!(f, "it is off already"),
        }
    }
}
