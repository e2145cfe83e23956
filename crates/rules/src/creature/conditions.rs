//! The conditions a creature is under (Dungeon Delves, Situational Penalties, Tactical Combat):
//! one [`Conditions`] component per creature, each condition with its source and what ends it.
//! The rules that give and take them, and log it, are in `rules::conditions`.

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use delve_ground::level::schema::ConditionKind;

/// What ends a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ConditionEnd {
    /// Lasts until something removes it (a rule, a command, the level file's say-so).
    UntilRemoved,
    /// Ends at the start of the creature's next initiative (running's disorder).
    StartOfNextInitiative,
    /// Ends at the end of the given round (a prone creature that stood up keeps the penalty to
    /// the end of that round).
    EndOfRound(u64),
    /// Ends when the creature stands up.
    StandingUp,
    /// Ends when the creature has rested for one turn.
    RestingATurn,
}

impl fmt::Display for ConditionEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConditionEnd::UntilRemoved => f.write_str("until removed"),
            ConditionEnd::StartOfNextInitiative => f.write_str("until its next initiative"),
            ConditionEnd::EndOfRound(r) => write!(f, "until the end of round {r}"),
            ConditionEnd::StandingUp => f.write_str("until it stands up"),
            ConditionEnd::RestingATurn => f.write_str("until it rests a turn"),
        }
    }
}

/// A condition a creature is under, where it came from, and what ends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ActiveCondition {
    pub kind: ConditionKind,
    pub source: String,
    pub ends: ConditionEnd,
}

/// The conditions a creature is under.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions(pub Vec<ActiveCondition>);

impl Conditions {
    /// Conditions the level file starts a creature under: they last until removed, or, for the
    /// ones the rules end in a set way, as the rules say.
    pub fn from_level(kinds: &[ConditionKind]) -> Self {
        Self(
            kinds
                .iter()
                .map(|&kind| ActiveCondition {
                    kind,
                    source: "level file".into(),
                    ends: match kind {
                        ConditionKind::Prone => ConditionEnd::StandingUp,
                        ConditionKind::Winded => ConditionEnd::RestingATurn,
                        _ => ConditionEnd::UntilRemoved,
                    },
                })
                .collect(),
        )
    }

    #[inline]
    pub fn has(&self, kind: ConditionKind) -> bool {
        self.0.iter().any(|c| c.kind == kind)
    }

    #[inline]
    pub fn get(&self, kind: ConditionKind) -> Option<&ActiveCondition> {
        self.0.iter().find(|c| c.kind == kind)
    }

    /// Adds a condition, or replaces the source and end of one already held. Returns whether it
    /// is new.
    pub fn gain(
        &mut self,
        kind: ConditionKind,
        source: impl Into<String>,
        ends: ConditionEnd,
    ) -> bool {
        let source = source.into();
        match self.0.iter_mut().find(|c| c.kind == kind) {
            Some(c) => {
                c.source = source;
                c.ends = ends;
                false
            }
            None => {
                self.0.push(ActiveCondition { kind, source, ends });
                true
            }
        }
    }

    /// Removes a condition; returns it if it was held.
    pub fn lose(&mut self, kind: ConditionKind) -> Option<ActiveCondition> {
        let i = self.0.iter().position(|c| c.kind == kind)?;
        Some(self.0.remove(i))
    }

    /// Removes every condition that `ends` matches, returning them.
    pub fn lose_where(
        &mut self,
        mut ends: impl FnMut(&ActiveCondition) -> bool,
    ) -> Vec<ActiveCondition> {
        let (gone, kept) = std::mem::take(&mut self.0)
            .into_iter()
            .partition(|c| ends(c));
        self.0 = kept;
        gone
    }
}
