//! Conditions (Dungeon Delves, Situational Penalties, Tactical Combat): one [`Conditions`]
//! component per creature holding every condition it is under, each with its source and what
//! ends it. Gaining and losing a condition is an event in the log.

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use crate::level::schema::ConditionKind;
use crate::log::{Event, EventLog};
use crate::sim::{RoundSet, SimRound};
use crate::time::Clock;

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

    pub fn has(&self, kind: ConditionKind) -> bool {
        self.0.iter().any(|c| c.kind == kind)
    }

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

/// Gives `who` a condition and logs it (only when it is new).
pub fn gain_condition(
    log: &mut EventLog,
    round: u64,
    who: &str,
    conditions: &mut Conditions,
    kind: ConditionKind,
    source: &str,
    ends: ConditionEnd,
) {
    if conditions.gain(kind, source, ends) {
        log.push(
            round,
            Event::ConditionGained {
                who: who.to_owned(),
                condition: kind,
                source: source.to_owned(),
                ends: ends.to_string(),
            },
        );
    }
}

/// Takes a condition from `who` and logs why.
pub fn lose_condition(
    log: &mut EventLog,
    round: u64,
    who: &str,
    conditions: &mut Conditions,
    kind: ConditionKind,
    why: &str,
) {
    if conditions.lose(kind).is_some() {
        log.push(
            round,
            Event::ConditionLost {
                who: who.to_owned(),
                condition: kind,
                why: why.to_owned(),
            },
        );
    }
}

/// Ends conditions when their time comes: disorder at the start of the creature's next
/// initiative, and whatever lasts to the end of a round when that round ends.
pub struct ConditionsPlugin;

impl Plugin for ConditionsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(SimRound, start_of_initiative.in_set(RoundSet::Initiative))
            .add_systems(
                SimRound,
                end_of_round
                    .in_set(RoundSet::Conditions)
                    .after(crate::rules::rest::rest_and_fatigue),
            );
    }
}

/// Dungeon Delves › Speed and Distance: a runner is disordered "until the start of their next
/// initiative". Without faction initiative yet, every creature's initiative starts its round.
pub fn start_of_initiative(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut q: Query<(&Name, &mut Conditions)>,
) {
    for (name, mut c) in &mut q {
        for gone in c.lose_where(|c| c.ends == ConditionEnd::StartOfNextInitiative) {
            log.push(
                clock.rounds,
                Event::ConditionLost {
                    who: name.to_string(),
                    condition: gone.kind,
                    why: "its next initiative began".into(),
                },
            );
        }
    }
}

pub fn end_of_round(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut q: Query<(&Name, &mut Conditions)>,
) {
    let round = clock.rounds;
    for (name, mut c) in &mut q {
        for gone in c.lose_where(|c| matches!(c.ends, ConditionEnd::EndOfRound(r) if r <= round)) {
            log.push(
                round,
                Event::ConditionLost {
                    who: name.to_string(),
                    condition: gone.kind,
                    why: format!("round {round} ended"),
                },
            );
        }
    }
}

/// Armour class under the conditions: disordered creatures suffer −2 to AC
/// (Dungeon Delves › Speed and Distance, running). Returns the AC and each modifier.
pub fn effective_ac(base: i32, conditions: &Conditions) -> (i32, Vec<crate::dice::Modifier>) {
    let mut mods = Vec::new();
    if conditions.has(ConditionKind::Disordered) {
        mods.push(crate::dice::Modifier::new(-2, "disordered"));
    }
    (base + mods.iter().map(|m| m.value).sum::<i32>(), mods)
}

/// Standing up (Situational Penalties › Prone): free in combat, but the prone penalty lasts
/// until the end of the round in which the creature stood up.
pub fn stand_up(conditions: &mut Conditions, round: u64) -> Result<String, String> {
    match conditions
        .0
        .iter_mut()
        .find(|c| c.kind == ConditionKind::Prone)
    {
        None => Err("it is not prone".into()),
        Some(c) if matches!(c.ends, ConditionEnd::EndOfRound(_)) => {
            Err("it is already standing up".into())
        }
        Some(c) => {
            c.ends = ConditionEnd::EndOfRound(round);
            Ok(format!(
                "stands up (the prone penalty lasts to the end of round {round})"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_replaces_and_lose_removes() {
        let mut c = Conditions::default();
        assert!(c.gain(ConditionKind::Winded, "running", ConditionEnd::RestingATurn));
        assert!(!c.gain(ConditionKind::Winded, "no rest", ConditionEnd::RestingATurn));
        assert_eq!(c.0.len(), 1);
        assert_eq!(c.get(ConditionKind::Winded).unwrap().source, "no rest");
        assert!(c.lose(ConditionKind::Winded).is_some());
        assert!(!c.has(ConditionKind::Winded));
    }

    #[test]
    fn standing_up_keeps_prone_to_the_end_of_the_round() {
        let mut c = Conditions::from_level(&[ConditionKind::Prone]);
        assert_eq!(
            c.get(ConditionKind::Prone).unwrap().ends,
            ConditionEnd::StandingUp
        );
        assert!(stand_up(&mut c, 7).is_ok());
        assert!(c.has(ConditionKind::Prone), "still prone this round");
        assert_eq!(
            c.get(ConditionKind::Prone).unwrap().ends,
            ConditionEnd::EndOfRound(7)
        );
        assert!(stand_up(&mut c, 7).is_err());
        assert!(stand_up(&mut Conditions::default(), 7).is_err());
    }
}
