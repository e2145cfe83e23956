//! Conditions (Dungeon Delves, Situational Penalties, Tactical Combat): one [`Conditions`]
//! component per creature holding every condition it is under, each with its source and what
//! ends it. Gaining and losing a condition is an event in the log.

pub mod events;
use crate::act::{AnyAct, Choice, Concern};
use crate::rules::acting::Cost;
use crate::rules::areas::{Rank, RuleArea};
use crate::schedule::{FactionInitiative, InitiativeSet};
use delve_ground::dice::Modifier;

pub use events::ConditionEvent;

use bevy::prelude::*;

use delve_ground::query_cache::in_entity_order;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, creature};
use crate::creature::{ActingOrder, ActiveCondition, ConditionEnd, Conditions, Faction};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

/// Is this creature out of the fight (dying or dead)?
#[inline]
pub fn is_down(conditions: &Conditions) -> bool {
    conditions.has(ConditionKind::Dying) || conditions.has(ConditionKind::Dead)
}

/// Gives `who` a condition and logs it (only when it is new).
pub(crate) fn gain_condition(
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
            ConditionEvent::ConditionGained {
                who: who.to_owned(),
                condition: kind,
                source: source.to_owned(),
                ends: ends.to_string(),
            },
        );
    }
}

/// Gives the creature `who` a condition in the world, and logs it (only when it is new).
pub fn gain_condition_in(
    world: &mut World,
    who: Entity,
    kind: ConditionKind,
    source: &str,
    ends: ConditionEnd,
) {
    let round = world.resource::<Clock>().rounds;
    let name = crate::creature::name_of(world, who);
    let Some(mut c) = world.get::<Conditions>(who).cloned() else {
        return;
    };
    gain_condition(
        &mut world.resource_mut::<EventLog>(),
        round,
        &name,
        &mut c,
        kind,
        source,
        ends,
    );
    world.entity_mut(who).insert(c);
}

/// Takes a condition from the creature `who` in the world, and logs why.
pub(crate) fn lose_condition_in(world: &mut World, who: Entity, kind: ConditionKind, why: &str) {
    let round = world.resource::<Clock>().rounds;
    let name = crate::creature::name_of(world, who);
    let Some(mut c) = world.get::<Conditions>(who).cloned() else {
        return;
    };
    lose_condition(
        &mut world.resource_mut::<EventLog>(),
        round,
        &name,
        &mut c,
        kind,
        why,
    );
    world.entity_mut(who).insert(c);
}

/// Takes a condition from `who` and logs why.
pub(crate) fn lose_condition(
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
            ConditionEvent::ConditionLost {
                who: who.to_owned(),
                condition: kind,
                why: why.to_owned(),
            },
        );
    }
}

/// Ends conditions when their time comes: disorder at the start of the creature's next
/// initiative (its faction's next initiative in a battle, the next round outside one), and whatever
/// lasts to the end of a round when that round ends.
pub struct ConditionsPlugin;

impl Plugin for ConditionsPlugin {
    fn build(&self, app: &mut App) {
        use crate::rules::acting::{ActingRules, Hold};
        app.declare_hold(Hold::Down, |world, who| {
            world.get::<Conditions>(who).is_some_and(is_down)
        })
        .init_resource::<ActingOrder>()
        .add_systems(SimRound, start_of_initiative.in_set(RoundSet::StartOfRound))
        .add_systems(
            FactionInitiative,
            start_of_initiative.in_set(InitiativeSet::StartOfInitiative),
        )
        .add_systems(SimRound, end_of_round.in_set(RoundSet::EndOfRound));
        RuleArea::offers(app, Rank::Escape, stand_up_choices);
    }
}

/// A prone creature not yet standing up is offered to stand up: it is up at the round's end
/// (Dungeon Delves › Combat: standing up).
fn stand_up_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let standing_up = |c: &ActiveCondition| matches!(c.ends, ConditionEnd::EndOfRound(_));
    let prone = world.get::<Conditions>(who).and_then(|c| {
        c.0.iter()
            .find(|c| c.kind == ConditionKind::Prone)
            .filter(|c| !standing_up(c))
    });
    let (Some(_), Some(name)) = (prone, world.get::<Name>(who)) else {
        return Vec::new();
    };
    let stand = AnyAct::from(StandUp {
        who: name.to_string(),
    });
    let choice = Choice::new("stand up", "the round", None, "", stand);
    vec![(Concern::Here, choice)]
}

/// Dungeon Delves › Speed and Distance: a runner is disordered "until the start of their next
/// initiative"; RULINGS › The battle round: until the start of the runner's faction's next
/// initiative. Outside a battle a creature's initiative starts each round; in one, its faction's
/// initiative does.
fn start_of_initiative(
    clock: Res<Clock>,
    acting: Res<ActingOrder>,
    mut log: ResMut<EventLog>,
    mut q: Query<(Entity, &Name, &mut Conditions, Option<&Faction>)>,
) {
    let mut ending: Vec<Entity> = q
        .iter()
        .filter(|(_, _, c, f)| {
            acting.acts_now(f.copied())
                && c.0
                    .iter()
                    .any(|c| c.ends == ConditionEnd::StartOfNextInitiative)
        })
        .map(|(e, ..)| e)
        .collect();
    ending.sort();
    for e in ending {
        let Ok((_, name, mut c, _)) = q.get_mut(e) else {
            continue;
        };
        for gone in c.lose_where(|c| c.ends == ConditionEnd::StartOfNextInitiative) {
            log.push(
                clock.rounds,
                ConditionEvent::ConditionLost {
                    who: name.to_string(),
                    condition: gone.kind,
                    why: "its next initiative began".into(),
                },
            );
        }
    }
}

fn end_of_round(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut q: Query<(Entity, &Name, &mut Conditions)>,
) {
    let round = clock.rounds;
    for e in in_entity_order(q.iter().map(|c| c.0)) {
        let Ok((_, name, mut c)) = q.get_mut(e) else {
            continue;
        };
        for gone in c.lose_where(|c| matches!(c.ends, ConditionEnd::EndOfRound(r) if r <= round)) {
            log.push(
                round,
                ConditionEvent::ConditionLost {
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
pub fn effective_ac(base: i32, conditions: &Conditions) -> (i32, Vec<Modifier>) {
    let mut mods = Vec::new();
    if conditions.has(ConditionKind::Disordered) {
        mods.push(Modifier::new(-2, "disordered"));
    }
    (base + mods.iter().map(|m| m.value).sum::<i32>(), mods)
}

/// Standing up (Situational Penalties › Prone): free in combat, but the prone penalty lasts
/// until the end of the round in which the creature stood up.
fn stand_up(conditions: &mut Conditions, round: u64) -> Result<(), StandUpRefusal> {
    match conditions
        .0
        .iter_mut()
        .find(|c| c.kind == ConditionKind::Prone)
    {
        None => Err(StandUpRefusal::NotProne),
        Some(c) if matches!(c.ends, ConditionEnd::EndOfRound(_)) => {
            Err(StandUpRefusal::AlreadyStandingUp)
        }
        Some(c) => {
            c.ends = ConditionEnd::EndOfRound(round);
            Ok(())
        }
    }
}

/// Stand up from prone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandUp {
    pub who: String,
}

impl std::fmt::Display for StandUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stand up")
    }
}

impl Act for StandUp {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let e = creature(world, &self.who)?;
        let round = world.resource::<Clock>().rounds;
        let mut c = world
            .get_mut::<Conditions>(e)
            .ok_or(StandUpRefusal::NotProne)?;
        Ok(stand_up(&mut c, round)?)
    }
}

/// Why a creature cannot stand up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandUpRefusal {
    NotProne,
    AlreadyStandingUp,
}

impl Reason for StandUpRefusal {}

impl std::fmt::Display for StandUpRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StandUpRefusal::NotProne => write!(f, "it is not prone"),
            StandUpRefusal::AlreadyStandingUp => write!(f, "it is already standing up"),
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
