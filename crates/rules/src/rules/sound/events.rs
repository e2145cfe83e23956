//! What hearing puts in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use super::{NoiseKind, SoundRow};
use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

/// Dungeon Delves › Listening.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HearingEvent {
    /// A creature heard a noise, and roughly from where.
    Heard {
        who: String,
        sound: SoundRow,
        /// What made it, and who (none for a noise of no one's: a trap set off from afar, the
        /// Judge's).
        noise: NoiseKind,
        made_by: Option<String>,
        what: String,
        roughly_at: GridPos,
        how: HowHeard,
    },
}

/// How a noise was heard (Dungeon Delves › Listening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HowHeard {
    /// Within the first number of the earshot table.
    Automatically,
    /// Within the second, with a successful Listening throw.
    WithAThrow,
}

impl fmt::Display for HowHeard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HowHeard::Automatically => "automatically",
            HowHeard::WithAThrow => "with a throw",
        })
    }
}

impl LogEvent for HearingEvent {
    fn kind(&self) -> LogKind {
        LogKind::Noise
    }

    /// A party hears a noise, not who made it: another's noise is "something"'s (RULINGS ›
    /// Knowledge).
    fn told_to_party(&self, members: &[&str], _party: &str) -> Option<String> {
        match self {
            HearingEvent::Heard {
                who,
                sound,
                made_by: Some(maker),
                what,
                roughly_at,
                how,
                ..
            } if !members.contains(&maker.as_str()) => Some(format!(
                "{who} hears a {sound} noise near {roughly_at} ({how}): {}",
                what.replace(maker.as_str(), "something")
            )),
            HearingEvent::Heard { .. } => None,
        }
    }

    fn at(&self) -> Option<delve_ground::grid::GridPos> {
        match self {
            HearingEvent::Heard { roughly_at, .. } => Some(*roughly_at),
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            HearingEvent::Heard { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for HearingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HearingEvent::Heard {
                who,
                sound,
                what,
                roughly_at,
                how,
                ..
            } => write!(
                f,
                "{who} hears a {sound} noise near {roughly_at} ({how}): {what}"
            ),
        }
    }
}
