//! What the Judge's calls put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::level::schema::JudgeModifier;
use delve_ground::log::LogEvent;

use super::{DoorSetting, JudgeScope, TrapSetting};
use crate::rules::light::LightDescription;
use crate::rules::modules::RuleModule;
use delve_ground::grid::GridPos;

/// The Judge changed a call.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum JudgeEvent {
    /// A Judge modifier was set.
    ModifierSet {
        modifier: JudgeModifier,
        value: i32,
        on: JudgeScope,
    },
    /// Creatures in the dark now do (or no longer do) throw against unexpected lights.
    UnexpectedLights { on: bool },
    /// The Judge set a creature's hit points.
    HitPointsSet { who: String, from: i32, to: i32 },
    /// The Judge put a creature on a square.
    Placed {
        who: String,
        from: GridPos,
        to: GridPos,
    },
    /// The Judge opened, closed, locked, unlocked or revealed a door.
    DoorSet { at: GridPos, to: DoorSetting },
    /// The Judge armed, disarmed or revealed a trap.
    TrapSet { at: GridPos, to: TrapSetting },
    /// The Judge lit or doused the lights at a square.
    LightsSet {
        at: GridPos,
        lit: bool,
        lights: Vec<LightDescription>,
    },
    /// The Judge switched a rule module on or off.
    ModuleSwitched { module: RuleModule, on: bool },
}

impl LogEvent for JudgeEvent {
    fn kind(&self) -> LogKind {
        LogKind::Judge
    }

    fn at(&self) -> Option<delve_ground::grid::GridPos> {
        match self {
            JudgeEvent::Placed { to: at, .. }
            | JudgeEvent::DoorSet { at, .. }
            | JudgeEvent::TrapSet { at, .. }
            | JudgeEvent::LightsSet { at, .. } => Some(*at),
            _ => None,
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            JudgeEvent::HitPointsSet { who, .. } | JudgeEvent::Placed { who, .. } => Some(who),
            _ => None,
        }
    }
}

impl fmt::Display for JudgeEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeEvent::ModifierSet {
                modifier,
                value,
                on,
            } => write!(
                f,
                "the Judge sets {} to {value:+} for {on}",
                modifier.words()
            ),
            JudgeEvent::UnexpectedLights { on: true } => write!(
                f,
                "the Judge rules that creatures in the dark throw against lights they did not \
                 expect"
            ),
            JudgeEvent::UnexpectedLights { on: false } => write!(
                f,
                "the Judge rules that lights distract only when turned on someone"
            ),
            JudgeEvent::HitPointsSet { who, from, to } => {
                write!(f, "the Judge sets {who}'s hit points from {from} to {to}")
            }
            JudgeEvent::Placed { who, from, to } => {
                write!(f, "the Judge moves {who} from {from} to {to}")
            }
            JudgeEvent::DoorSet { at, to } => write!(f, "the Judge makes the door at {at} {to}"),
            JudgeEvent::TrapSet { at, to } => write!(f, "the Judge makes the trap at {at} {to}"),
            JudgeEvent::LightsSet { at, lit, lights } => {
                let lights: Vec<String> = lights.iter().map(ToString::to_string).collect();
                let how = if *lit { "lights" } else { "douses" };
                write!(f, "the Judge {how} {} at {at}", lights.join(", "))
            }
            JudgeEvent::ModuleSwitched { module, on } => write!(
                f,
                "the Judge switches {} {}",
                module.words(),
                if *on { "on" } else { "off" }
            ),
        }
    }
}
