//! What the Judge's calls put in the log.

use std::fmt;

use serde::Serialize;

use crate::level::schema::JudgeModifier;
use crate::log::LogEvent;

use super::JudgeScope;

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
}

impl LogEvent for JudgeEvent {
    fn who(&self) -> Option<&str> {
        None
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
        }
    }
}
