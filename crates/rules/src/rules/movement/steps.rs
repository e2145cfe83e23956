//! The walk's steps in a round: the feet to spend, who stands in the way, the steps taken, and how the walk ended (Dungeon Delves › Movement).

use crate::creature::{Creature, Faction, Factions};
use delve_ground::grid::terrain::Terrain;

use crate::creature::Conditions;
use bevy::prelude::*;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;

use super::{
    Footsteps, HaltReason, MoveLimit, MovementEvent, Occupant, Speeds, Standing, Step, StepsTaken,
    Walker, Walking, WaterCost, barred, step_cost,
};

/// How a walk ended this round, if it did: halted by a fall running, or by what barred it, or
/// arrived.
pub(super) fn walk_ended(
    who: String,
    at: GridPos,
    (fell, blocked, arrived): (bool, Option<HaltReason>, bool),
) -> Option<MovementEvent> {
    let reason = if fell {
        Some(HaltReason::FellProne)
    } else {
        blocked
    };
    match reason {
        Some(reason) => Some(MovementEvent::Halted { who, at, reason }),
        None => arrived.then_some(MovementEvent::Arrived { who, at }),
    }
}

/// Who stands where as the round's walking begins: every creature up (not dying or dead), in
/// entity order, whatever order the world stores them in (a restored keyframe's differs).
pub(super) fn occupants(
    standing: &Query<Standing, (With<Creature>, Without<Walking>)>,
    walkers: &Query<Walker>,
) -> Vec<Occupant> {
    let up = |c: &Conditions| !c.has(ConditionKind::Dying) && !c.has(ConditionKind::Dead);
    let mut occupants: Vec<Occupant> = standing
        .iter()
        .filter(|(.., c)| up(c))
        .map(|(e, p, f, _)| (e, p.0, f.copied()))
        .collect();
    occupants.extend(
        walkers
            .iter()
            .filter(|w| up(w.conditions))
            .map(|w| (w.entity, w.pos.0, w.faction.copied())),
    );
    occupants.sort_by_key(|o| o.0);
    occupants
}

/// Takes the steps of a walk this round: each recorded (for the attacks of opportunity) and
/// left in the walker's footsteps, the walker and its place among the occupants moved on, its
/// walk advanced. The feet walked.
pub(super) fn take_the_steps(
    steps: &[(GridPos, u32, bool)],
    (entity, faction): (Entity, Option<Faction>),
    (w, at, footsteps): (&mut Walking, &mut GridPos, &mut Footsteps),
    (occupants, taken): (&mut [Occupant], &mut StepsTaken),
) -> u32 {
    let mut feet = 0;
    for &(next, step, diagonal) in steps {
        taken.steps.push(Step {
            who: entity,
            faction,
            from: *at,
            to: next,
            cautious: w.cautious,
            acrobatic: w.acrobatic,
        });
        footsteps.step(*at, next);
        *at = next;
        if let Some(o) = occupants.iter_mut().find(|o| o.0 == entity) {
            o.1 = next;
        }
        w.next += 1;
        w.odd_diagonals ^= diagonal;
        feet += step;
    }
    feet
}

/// The tenths of a foot a walker may spend this round: what it banked, and its pace's (a
/// cautious mover's, by the tactical rules) up to its cap, no more than a limit set on it this
/// round.
pub(super) fn tenths_to_spend(
    w: &Walking,
    speeds: &Speeds,
    limit: Option<&MoveLimit>,
    round: u64,
) -> u32 {
    let gain = if w.cautious {
        crate::rules::tactical::cautious_feet(speeds.combat) * 10
    } else {
        speeds.tenths_per_round(w.pace)
    };
    let mut banked = w.banked_tenths + w.cap_tenths.map_or(gain, |cap| gain.min(cap));
    if let Some(limit) = limit.filter(|l| l.round == round) {
        banked = banked.min(limit.feet * 10);
    }
    banked
}

/// The square before a squeeze's mouth another stands on: the walker squeezes on at once.
pub(super) fn mouth_taken(
    grid: &DungeonGrid,
    squares: &[GridPos],
    occupants: &[Occupant],
    who: Entity,
) -> bool {
    squares
        .iter()
        .position(|&p| grid.terrain(p) == Some(Terrain::Squeeze))
        .is_some_and(|n| {
            n > 0
                && occupants
                    .iter()
                    .any(|o| o.0 != who && o.1 == squares[n - 1])
        })
}

/// Creatures in the way stop the walk short of them (why, if one bars it); it passes its
/// allies but does not end its move on another's square: it stops before, and keeps the feet
/// for the next round.
pub(super) fn stop_short_of_others(
    (grid, occupants, factions): (&DungeonGrid, &[Occupant], &Factions),
    (entity, faction): (Entity, Option<Faction>),
    w: &Walking,
    (steps, banked, water): (&mut Vec<(GridPos, u32, bool)>, &mut u32, WaterCost),
) -> Option<HaltReason> {
    let mut blocked = None;
    if let Some(i) = steps.iter().enumerate().position(|(i, (p, ..))| {
        let last = w.next + i + 1 == w.path.len();
        barred(occupants, factions, entity, faction, *p, last).is_some()
    }) {
        let to = steps[i].0;
        let last = w.next + i + 1 == w.path.len();
        blocked = barred(occupants, factions, entity, faction, to, last);
        steps.truncate(i);
    }
    while let Some(&(p, step, _)) = steps.last()
        && occupants.iter().any(|o| o.0 != entity && o.1 == p)
    {
        steps.pop();
        *banked += step_cost(grid, p, step, water);
    }
    blocked
}
