//! Running (Dungeon Delves › Speed and Distance): a fall on difficult terrain, disorder, and long
//! runs that wind the runner (Paralysis saves after 10 ± CON modifier rounds).

use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::{Skill, Thrower};

use crate::creature::{
    Abilities, ClassLevel, ConditionEnd, Conditions, Proficiencies, SavingThrows,
};
use crate::rules::abilities::delve_modifier;
use crate::rules::conditions::gain_condition;
use bevy::prelude::*;

use super::speeds::{Pace, is_difficult};
use super::walking::Walking;
use crate::rules::movement::MovedThisRound;
use crate::rules::throws::{ThrowAt, ThrowKind, throw_logged};
use delve_ground::dice::{Dice, Modifier};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, Proficiency, SaveCategory};
use delve_ground::log::EventLog;
use delve_ground::query_cache::in_entity_order;
use delve_ground::time::Clock;

/// Consecutive rounds of running since the creature last rested a turn.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunningTally {
    pub rounds: u32,
}

/// Dungeon Delves › Running: running into difficult terrain calls for a Paralysis save (the
/// class level added with Acrobatics), or the runner falls prone at the half-way point of its
/// movement. `steps` are the round's steps of a runner; on a failed save they are cut at
/// half-way, and the answer is that it fell.
pub(crate) fn falls_running_into_difficult_terrain(
    grid: &DungeonGrid,
    (dice, log, round): (&mut Dice, &mut EventLog, u64),
    thrower: Thrower,
    (saves, profs, class): (&SavingThrows, &Proficiencies, &ClassLevel),
    steps: &mut Vec<(GridPos, u32, bool)>,
) -> bool {
    let Some(&target) = saves.0.get(&SaveCategory::Paralysis) else {
        return false;
    };
    if !steps
        .iter()
        .any(|(p, ..)| grid.terrain(*p).is_some_and(is_difficult))
    {
        return false;
    }
    let mut mods = Vec::new();
    if profs.has(Proficiency::Acrobatics) && class.level > 0 {
        mods.push(Modifier::new(class.level as i32, "Acrobatics: class level"));
    }
    let what = "Paralysis save, running in difficult terrain";
    if throw_logged(
        ThrowAt { dice, log, round },
        thrower,
        ThrowKind::Save,
        Skill::Save(delve_ground::level::schema::SaveCategory::Paralysis),
        what,
        mods,
        target,
    ) {
        return false;
    }
    let total: u32 = steps.iter().map(|s| s.1).sum();
    let mut walked = 0;
    let keep = steps
        .iter()
        .take_while(|s| {
            walked += s.1;
            walked * 2 <= total
        })
        .count();
    steps.truncate(keep);
    true
}

/// Dungeon Delves › Running: a runner that moved is disordered until its next initiative, and
/// one that fell running in difficult terrain lies prone.
pub(crate) fn after_running(
    log: &mut EventLog,
    round: u64,
    who: &str,
    c: &mut Conditions,
    (pace, feet, fell): (Pace, u32, bool),
) {
    if pace == Pace::Running && feet > 0 {
        gain_condition(
            log,
            round,
            who,
            c,
            ConditionKind::Disordered,
            "running",
            ConditionEnd::StartOfNextInitiative,
        );
    }
    if fell {
        gain_condition(
            log,
            round,
            who,
            c,
            ConditionKind::Prone,
            "fell running in difficult terrain",
            ConditionEnd::StandingUp,
        );
    }
}

/// Rounds of running before the Paralysis saves start: 10 ± CON modifier (delve table).
pub(crate) fn rounds_before_saves(con: i32) -> u32 {
    (10 + delve_modifier(con)).max(0) as u32
}

type Runner<'a> = (
    Entity,
    &'a Name,
    Option<&'a mut RunningTally>,
    &'a MovedThisRound,
    &'a Abilities,
    &'a SavingThrows,
    &'a Proficiencies,
    &'a mut Conditions,
);

/// Dungeon Delves › Running: after 10 ± CON modifier rounds of running, and each round run
/// after that, a Paralysis save (+4 with Endurance) or the runner is winded.
pub(crate) fn long_runs(
    clock: Res<Clock>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut runners: Query<Runner>,
    tactical: Option<Res<TacticalCombat>>,
    mut commands: Commands,
) {
    let round = clock.rounds;
    for e in in_entity_order(runners.iter().map(|r| r.0)) {
        let Ok((entity, name, tally, moved, abilities, saves, profs, mut conditions)) =
            runners.get_mut(e)
        else {
            continue;
        };
        if moved.pace != Some(Pace::Running) || moved.feet == 0 {
            continue;
        }
        // Every runner counts its rounds of running: a party's followers as well as its leader.
        let rounds = match tally {
            Some(mut t) => {
                t.rounds += 1;
                t.rounds
            }
            None => {
                commands.entity(entity).insert(RunningTally { rounds: 1 });
                1
            }
        };
        if rounds < rounds_before_saves(abilities.0.con) {
            continue;
        }
        let Some(&target) = saves.0.get(&SaveCategory::Paralysis) else {
            continue;
        };
        let mut mods = Vec::new();
        if profs.has(Proficiency::Endurance) {
            mods.push(Modifier::new(4, "Endurance"));
        }
        let what = format!("Paralysis save after {rounds} rounds of running");
        let thrower = Thrower::new(name, &conditions, tactical.as_deref());
        if !throw_logged(
            ThrowAt {
                dice: &mut dice,
                log: &mut log,
                round,
            },
            thrower,
            ThrowKind::Save,
            Skill::Save(delve_ground::level::schema::SaveCategory::Paralysis),
            what,
            mods,
            target,
        ) {
            gain_condition(
                &mut log,
                round,
                name,
                &mut conditions,
                ConditionKind::Winded,
                "running too long",
                ConditionEnd::RestingATurn,
            );
            commands.entity(entity).remove::<Walking>();
        }
    }
}
