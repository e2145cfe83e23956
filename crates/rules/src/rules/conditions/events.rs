//! What gaining and losing conditions put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::level::schema::ConditionKind;
use delve_ground::log::LogEvent;

/// A creature came under a condition, or a condition ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ConditionEvent {
    /// A creature came under a condition.
    ConditionGained {
        who: String,
        condition: ConditionKind,
        source: String,
        ends: String,
    },
    /// A condition ended.
    ConditionLost {
        who: String,
        condition: ConditionKind,
        why: String,
    },
}

impl LogEvent for ConditionEvent {
    fn kind(&self) -> LogKind {
        LogKind::Combat
    }

    fn who(&self) -> Option<&str> {
        match self {
            ConditionEvent::ConditionGained { who, .. }
            | ConditionEvent::ConditionLost { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for ConditionEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConditionEvent::ConditionGained {
                who,
                condition,
                source,
                ends,
            } => write!(f, "{who} is {condition:?} ({source}; {ends})"),
            ConditionEvent::ConditionLost {
                who,
                condition,
                why,
            } => write!(f, "{who} is no longer {condition:?}: {why}"),
        }
    }
}
