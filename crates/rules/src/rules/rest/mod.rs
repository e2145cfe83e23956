//! Rest and Recuperation (Dungeon Delves): one turn of rest for every five turns of exploration
//! and combat, or the adventurer becomes winded; a turn of rest ends winded. Adventurers with
//! Endurance need no rest and can keep watch meanwhile.
//!
//! RULINGS › Rest: only turns of exploration and combat count. A turn (of the clock) in which a
//! creature moved or took an action — opening, searching, fighting — counts whole. Every kind of
//! exertion counts, whether or not the square changes: what a command costs (`rules::acting`),
//! and what the creature is doing over rounds, as each area declares it (climbing, crawling,
//! treading water, stuck, a task under way). Ten rounds in a row with no exertion, counted from
//! the last, are a turn of rest, as is a turn of `Rest`; keeping watch, talking and listening are
//! rest. A monster waiting in its lair rests.

pub mod events;
use crate::act::{AnyAct, Choice, Concern};
use crate::rules::acting::Cost;
use crate::rules::areas::Rank;
use crate::rules::movement::Walking;

pub use events::RestEvent;

use bevy::prelude::*;

use delve_ground::query_cache::in_entity_order;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, creature};
use crate::creature::{ActingOrder, ConditionEnd, Conditions, Exerted, Faction, Proficiencies};
use crate::rules::conditions::{gain_condition, lose_condition};
use crate::rules::movement::{MovedThisRound, RunningTally};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::level::schema::{ConditionKind, Proficiency};
use delve_ground::log::EventLog;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};

/// Turns of exploration and combat allowed between rests.
pub const TURNS_BETWEEN_RESTS: u64 = 5;

/// Exploration and combat since the creature last rested a full turn.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fatigue {
    /// Rounds of the turns of exploration and combat since the last rest (a turn with any
    /// exertion counts from its first round).
    pub rounds_without_rest: u64,
    /// Whole turns of exploration and combat since the last rest.
    pub turns_without_rest: u64,
    /// The creature moved or acted in the turn under way.
    pub exerted_this_turn: bool,
    /// Rounds in a row without exertion, since the last.
    pub still_rounds: u64,
}

impl Fatigue {
    /// Whole turns left before the creature must rest (0 once it is overdue).
    pub fn turns_until_rest(&self) -> u64 {
        (TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN).saturating_sub(self.rounds_without_rest)
            / ROUNDS_PER_TURN
    }

    /// More than five turns without rest: it is winded (or, with Endurance, would be).
    pub fn overdue(&self) -> bool {
        self.rounds_without_rest > TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN
    }
}

use crate::creature::Resting;

/// Does this creature need rest at all? Endurance exempts it.
pub fn needs_rest(profs: &Proficiencies) -> bool {
    !profs.has(Proficiency::Endurance)
}

/// Begins a rest: the creature stops walking and rests until it has rested a full turn (or a
/// command moves it on).
pub(crate) fn begin_rest(world: &mut World, e: Entity) -> Result<(), Refusal> {
    if world.get::<Resting>(e).is_some() {
        return Err(RestRefusal::AlreadyResting.into());
    }
    // RULINGS › Rest: a creature that is stuck or drowning is not resting.
    if let Some(hold) = crate::rules::acting::held(world, e) {
        return Err(hold.into());
    }
    let name = crate::creature::name_of(world, e);
    let round = world.resource::<Clock>().rounds;
    world
        .entity_mut(e)
        .remove::<Walking>()
        .insert(Resting::default());
    world
        .resource_mut::<EventLog>()
        .push(round, RestEvent::RestBegan { who: name });
    Ok(())
}

/// A creature not resting, under no hold and not in a battle is offered to rest (RULINGS › Rest): a full turn
/// of rest ends winded and resets the count of turns without rest.
fn rest_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    if world.get::<Resting>(who).is_some()
        || crate::rules::acting::held(world, who).is_some()
        || crate::creature::in_battle(world, who)
    {
        return Vec::new();
    }
    let Some(name) = world.get::<Name>(who) else {
        return Vec::new();
    };
    let note = match world.get::<Proficiencies>(who) {
        Some(p) if !needs_rest(p) => "needs none: Endurance".to_owned(),
        _ => world.get::<Fatigue>(who).map_or(String::new(), |f| {
            let due = TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN;
            match due.checked_sub(f.rounds_without_rest) {
                Some(left) if left > 0 => format!("due in {left} rounds"),
                _ => "overdue".to_owned(),
            }
        }),
    };
    let rest = AnyAct::from(Rest {
        who: name.to_string(),
    });
    vec![(
        Concern::Here,
        Choice::new("rest", "1 turn", None, &note, rest),
    )]
}

/// Rest: a full turn of rest ends winded and resets the count of turns without rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rest {
    pub who: String,
}

impl std::fmt::Display for Rest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rest")
    }
}

impl Act for Rest {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Resting)
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        begin_rest(world, creature(world, &self.who)?)
    }
}

/// Why a creature cannot begin a rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestRefusal {
    AlreadyResting,
}

impl Reason for RestRefusal {}

impl std::fmt::Display for RestRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RestRefusal::AlreadyResting => write!(f, "it is already resting"),
        }
    }
}

pub struct RestPlugin;

impl Plugin for RestPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::rest::Fatigue>();
        use crate::rules::areas::RuleArea;
        app.installs_creature(|world, e, _| {
            world.entity_mut(e).insert(Fatigue::default());
        });
        app.offers(Rank::Rest, rest_choices);
        // After the long-run saves of this round, before conditions that end with the round.
        app.init_resource::<ActingOrder>().add_systems(
            SimRound,
            (exertion_of_the_round, rest_and_fatigue)
                .chain()
                .in_set(RoundSet::Rest),
        );
    }
}

/// RULINGS › Rest: what a creature is doing over rounds (climbing, treading water, stuck, at a
/// task, …: `rules::acting::exertion`) exerts it this round, whether or not its square changes.
fn exertion_of_the_round(
    world: &mut World,
    q: &mut QueryState<(Entity, &MovedThisRound, Option<&Exerted>), With<Fatigue>>,
) {
    let round = world.resource::<Clock>().rounds;
    let exerted: Vec<Entity> = q
        .iter(world)
        // Those that moved or acted this round have exerted themselves already.
        .filter(|(_, moved, exerted)| moved.feet == 0 && !exerted.is_some_and(|x| x.round == round))
        .filter(|&(e, ..)| crate::rules::acting::exertion(world, e).is_some())
        .map(|(e, ..)| e)
        .collect();
    for e in exerted {
        world.entity_mut(e).insert(Exerted { round });
    }
}

type Restful<'a> = (
    Entity,
    &'a Name,
    &'a Proficiencies,
    &'a mut Fatigue,
    Option<&'a mut Resting>,
    &'a MovedThisRound,
    (Option<&'a Exerted>, Option<&'a Faction>),
    &'a mut Conditions,
    Option<&'a mut RunningTally>,
);

/// Each round: resting goes on; exertion counts toward the five turns, and more winds the
/// creature; ten rounds in a row without exertion, and the creature has rested.
fn rest_and_fatigue(
    clock: Res<Clock>,
    acting: Res<ActingOrder>,
    mut log: ResMut<EventLog>,
    mut q: Query<Restful>,
    mut commands: Commands,
) {
    let round = clock.rounds;
    let round_in_turn = round % ROUNDS_PER_TURN;
    let turn_ends = round_in_turn == ROUNDS_PER_TURN - 1;
    for e in in_entity_order(q.iter().map(|r| r.0)) {
        let Ok((
            entity,
            name,
            profs,
            mut fatigue,
            resting,
            moved,
            doing,
            mut conditions,
            mut tally,
        )) = q.get_mut(e)
        else {
            continue;
        };
        // A creature that is down (dying, dead) does nothing: it neither exerts itself nor
        // rests (a drowned one was once "no longer Winded: rested a turn" four rounds on).
        if crate::rules::conditions::is_down(&conditions) {
            if resting.is_some() {
                commands.entity(entity).remove::<Resting>();
            }
            continue;
        }
        let rested = |fatigue: &mut Fatigue,
                      tally: &mut Option<Mut<RunningTally>>,
                      conditions: &mut Conditions,
                      log: &mut EventLog| {
            *fatigue = Fatigue::default();
            if let Some(t) = tally {
                t.rounds = 0;
            }
            lose_condition(
                log,
                round,
                name,
                conditions,
                ConditionKind::Winded,
                "rested a turn",
            );
        };
        if let Some(mut resting) = resting {
            resting.rounds += 1;
            if resting.rounds >= ROUNDS_PER_TURN {
                log.push(
                    round,
                    RestEvent::Rested {
                        who: name.to_string(),
                    },
                );
                rested(&mut fatigue, &mut tally, &mut conditions, &mut log);
                commands.entity(entity).remove::<Resting>();
            }
            continue;
        }
        // Endurance: no rest is needed after five turns; but one winded by running (Dungeon
        // Delves › Running) rests it off like anyone, by a still turn.
        let endurance = !needs_rest(profs);
        let (exerted, faction) = doing;
        let fighting = faction.is_some_and(|f| acting.fighting(*f));
        if moved.feet > 0 || fighting || exerted.is_some_and(|x| x.round == round) {
            fatigue.exerted_this_turn = true;
            fatigue.still_rounds = 0;
        } else {
            fatigue.still_rounds += 1;
        }
        let ran =
            conditions.has(ConditionKind::Winded) || tally.as_ref().is_some_and(|t| t.rounds > 0);
        if endurance {
            if fatigue.still_rounds >= ROUNDS_PER_TURN && ran {
                log.push(
                    round,
                    RestEvent::Rested {
                        who: name.to_string(),
                    },
                );
                rested(&mut fatigue, &mut tally, &mut conditions, &mut log);
            } else if turn_ends {
                fatigue.exerted_this_turn = false;
            }
            continue;
        }
        if fatigue.exerted_this_turn {
            fatigue.rounds_without_rest =
                fatigue.turns_without_rest * ROUNDS_PER_TURN + round_in_turn + 1;
            if fatigue.overdue() {
                gain_condition(
                    &mut log,
                    round,
                    name,
                    &mut conditions,
                    ConditionKind::Winded,
                    "more than 5 turns without rest",
                    ConditionEnd::RestingATurn,
                );
            }
        }
        if fatigue.still_rounds >= ROUNDS_PER_TURN
            && (fatigue.turns_without_rest > 0
                || fatigue.exerted_this_turn
                || conditions.has(ConditionKind::Winded)
                || tally.as_ref().is_some_and(|t| t.rounds > 0))
        {
            log.push(
                round,
                RestEvent::Rested {
                    who: name.to_string(),
                },
            );
            rested(&mut fatigue, &mut tally, &mut conditions, &mut log);
        } else if turn_ends && fatigue.exerted_this_turn {
            fatigue.turns_without_rest += 1;
            fatigue.exerted_this_turn = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_until_rest_counts_down() {
        let f = |r| {
            Fatigue {
                rounds_without_rest: r,
                ..Fatigue::default()
            }
            .turns_until_rest()
        };
        assert_eq!(f(0), 5);
        assert_eq!(f(9), 4);
        assert_eq!(f(10), 4);
        assert_eq!(f(49), 0);
        assert_eq!(f(60), 0);
    }
}
