//! Jumping and Leaping (Dungeon Delves).
//!
//! - Horizontally an adventurer jumps up to its DEX score plus 1d6 feet, vertically its DEX
//!   bonus plus 1 (at least 1'); each less 1' per stone of encumbrance; halved, after
//!   encumbrance, without a moving start of at least 20'.
//! - A jump is movement (RULINGS › The battle round, › Rest): the jumper may run up to its take-off
//!   square in the same move, and the run-up is what it moved this round before it jumped; the
//!   distance jumped counts against the round's movement; it jumps in the round's walking (in its
//!   faction's initiative in a battle), makes the noise of moving, and the square it lands on is
//!   stepped on (traps). Acrobatics adds the class level to DEX for this, to at most 24 (the DEX
//!   bonus of 19–20 is +4, 21–23 +5, 24 +6).
//! - A creature without an encumbrance (a monster with a speed) jumps as DEX 10 (unless given)
//!   times its running speed / 120.
//! - A creature at the bottom of a hole no deeper than its leap leaps out onto a square beside
//!   it, without climbing.
//! - A jump across a chasm that falls short drops into it at the point it reached; a landing on
//!   rubble is precarious: a Paralysis save (+2 Acrobatics), or it lands 1d6' short — prone on
//!   the ground, or into the chasm.

use crate::creature::Resting;
use crate::rules::movement::{Footsteps, MoveRefusal, Walking};
use crate::rules::throws::Skill;
use delve_ground::dice::Dice;
use delve_ground::level::schema::Surface;

use bevy::prelude::*;

use super::climbing::fall;
use super::events::CavingEvent;
use super::refusals::CavingRefusal;
use crate::act::Refusal;
use crate::creature::{
    Abilities, Below, ClassLevel, ConditionEnd, Conditions, Encumbrance, Faction, Position,
    Proficiencies, SavingThrows,
};
use crate::rules::conditions::gain_condition_in;
use crate::rules::movement::{MovedThisRound, Pace, Speeds};
use crate::rules::throws::ThrowKind;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain};
use delve_ground::level::SpeedBasis;
use delve_ground::level::schema::{ConditionKind, Proficiency, SaveCategory};
use delve_ground::log::log_in;

/// The moving start a full jump needs.
pub const RUN_UP_FEET: u32 = 20;
/// The most DEX counts for jumping, with Acrobatics.
pub const MAX_JUMPING_DEX: i32 = 24;

/// The DEX for jumping: the score, plus the class level with Acrobatics (at most 24).
fn jumping_dex(dex: i32, acrobatics_level: Option<u32>) -> i32 {
    match acrobatics_level {
        Some(level) => (dex + level as i32).min(MAX_JUMPING_DEX).max(dex),
        None => dex,
    }
}

/// The DEX bonus for leaping: the usual table to 18, and the Acrobatics rows 19–20 +4, 21–23
/// +5, 24 +6.
fn jumping_dex_bonus(dex: i32) -> i32 {
    match dex {
        19..=20 => 4,
        21..=23 => 5,
        24.. => 6,
        _ => crate::rules::abilities::delve_modifier(dex),
    }
}

/// The farthest jump in feet for a d6 of `d6`: DEX + 1d6 − 1' per stone, halved without a run-up,
/// times the speed factor (running speed / 120 for creatures; 1 for adventurers).
fn horizontal_jump_feet(dex: i32, d6: u32, stone: f32, run_up: bool, factor: f32) -> f32 {
    let feet = (dex as f32 + d6 as f32 - stone).max(0.0);
    let feet = if run_up { feet } else { feet / 2.0 };
    feet * factor
}

/// The highest leap in feet: DEX bonus + 1 (at least 1') − 1' per stone, halved without a
/// run-up, times the speed factor.
fn vertical_leap_feet(dex: i32, stone: f32, run_up: bool, factor: f32) -> f32 {
    let feet = ((jumping_dex_bonus(dex) + 1).max(1) as f32 - stone).max(0.0);
    let feet = if run_up { feet } else { feet / 2.0 };
    feet * factor
}

/// What a creature jumps with: its jumping DEX (Acrobatics added), encumbrance and speed
/// factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jumper {
    pub dex: i32,
    pub stone: f32,
    pub factor: f32,
    pub acrobat: bool,
}

impl Jumper {
    /// `None` for a creature that cannot move at all.
    pub fn of(world: &World, who: Entity) -> Option<Self> {
        let dex = world.get::<Abilities>(who).map_or(10, |a| a.0.dex);
        let acrobatics = world
            .get::<Proficiencies>(who)
            .is_some_and(|p| p.has(Proficiency::Acrobatics))
            .then(|| world.get::<ClassLevel>(who).map_or(0, |c| c.level));
        let (stone, factor) = match world.get::<Encumbrance>(who)?.0 {
            SpeedBasis::Encumbrance { stone } => (stone, 1.0),
            SpeedBasis::Explicit { feet } => (0.0, feet as f32 / 120.0),
        };
        Some(Self {
            dex: jumping_dex(dex, acrobatics),
            stone,
            factor,
            acrobat: acrobatics.is_some(),
        })
    }

    /// The chance of clearing `gap` feet (each face of the d6 counted).
    pub fn chance(&self, gap: u32, run_up: bool) -> f32 {
        (1..=6)
            .filter(|&d6| {
                horizontal_jump_feet(self.dex, d6, self.stone, run_up, self.factor) >= gap as f32
            })
            .count() as f32
            / 6.0
    }
}

/// The squares a straight jump from `from` to `to` passes over, and its gap in feet: only
/// holes in between (a chasm, an open pit), on a straight or diagonal line.
pub fn over_the_gap(world: &World, from: GridPos, to: GridPos) -> Option<(Vec<GridPos>, u32)> {
    let grid = world.resource::<DungeonGrid>();
    let between = super::footing::across_a_hole(world, from, to)?;
    let gap = delve_ground::grid::distance_feet(from, to, grid.scale_feet())
        .saturating_sub(grid.scale_feet());
    Some((between, gap))
}

/// How high `who` leaps from a standing start (at the bottom of a hole there is no run-up), in
/// feet.
pub(crate) fn leap_of(world: &World, who: Entity) -> Option<f32> {
    let j = Jumper::of(world, who)?;
    Some(vertical_leap_feet(j.dex, j.stone, false, j.factor))
}

/// A jump ordered: the square it takes off from (run up to in the same move), where it lands,
/// and the pace of the run-up.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct JumpOrder {
    pub take_off: GridPos,
    pub to: GridPos,
    pub pace: Pace,
}

/// `Jump`: across a chasm in a straight line onto the square `to`, from `from` (run up to in
/// the same move) or from where it stands; or, from the bottom of a hole no deeper than its
/// leap, up onto the square `to` beside it. The jump itself happens in the round's walking
/// ([`jumpers_jump`]).
pub fn jump(
    world: &mut World,
    who: Entity,
    to: GridPos,
    from: Option<GridPos>,
    pace: Pace,
) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    if let Some(below) = world.get::<Below>(who).copied() {
        if from.is_some_and(|f| f != here) {
            return Err(MoveRefusal::AtTheBottom {
                depth_feet: below.depth_feet,
            }
            .into());
        }
        return leap_out(world, who, here, below, to);
    }
    let take_off = from.unwrap_or(here);
    if !super::footing::firm_ground(world, to) {
        return Err(CavingRefusal::NoLanding { at: to }.into());
    }
    over_the_gap(world, take_off, to).ok_or(CavingRefusal::NotAcrossAChasm { to })?;
    let grid = world.resource::<DungeonGrid>();
    let jump_feet = delve_ground::grid::distance_feet(take_off, to, grid.scale_feet());
    let conditions = world
        .get::<crate::creature::Conditions>(who)
        .cloned()
        .unwrap_or_default();
    let speeds = world
        .get::<Encumbrance>(who)
        .and_then(|e| Speeds::of(e.0, &conditions))
        .ok_or(MoveRefusal::CannotMove)?;
    let run_up = if take_off == here {
        None
    } else {
        Some(crate::rules::movement::plan_move(
            world, who, take_off, pace,
        )?)
    };
    let needs = run_up.as_ref().map_or(0, |p| p.feet) + jump_feet;
    let has = speeds.rated(pace) as u32;
    if needs > has {
        return Err(CavingRefusal::JumpBeyondMovement { needs, has }.into());
    }
    world
        .entity_mut(who)
        .remove::<(Walking, Resting)>()
        .insert(JumpOrder { take_off, to, pace });
    if run_up.is_some() {
        crate::rules::movement::begin_walk(world, who, take_off, pace)?;
    }
    Ok(())
}

/// Each round's walking: a jumper that has reached its take-off square jumps, its run-up the
/// feet it moved this round; one whose run-up was cut short does not jump.
pub(crate) fn jumpers_jump(
    world: &mut World,
    q: &mut QueryState<(Entity, &JumpOrder, &Conditions, Option<&Faction>)>,
) {
    for (who, order) in super::footing::acting_now(world, q) {
        if world.get::<Walking>(who).is_some() {
            continue;
        }
        world.entity_mut(who).remove::<JumpOrder>();
        let Some(here) = world.get::<Position>(who).map(|p| p.0) else {
            continue;
        };
        if here != order.take_off || world.get::<Below>(who).is_some() {
            let name = crate::creature::name_of(world, who);
            log_in(
                world,
                CavingEvent::JumpCalledOff {
                    who: name,
                    at: here,
                },
            );
            continue;
        }
        let moved = world.get::<MovedThisRound>(who).map_or(0, |m| m.feet);
        take_off(world, who, order, moved >= RUN_UP_FEET);
    }
}

/// The jump: the d6, and a landing on the far side or a drop into the chasm where it came down.
/// The distance jumped is movement (its noise), and the landing square is stepped on.
fn take_off(world: &mut World, who: Entity, order: JumpOrder, run_up: bool) {
    let Some((between, gap)) = over_the_gap(world, order.take_off, order.to) else {
        return;
    };
    let grid = world.resource::<DungeonGrid>();
    let scale = grid.scale_feet().max(1);
    let jump_feet = delve_ground::grid::distance_feet(order.take_off, order.to, grid.scale_feet());
    let Some(j) = Jumper::of(world, who) else {
        return;
    };
    let d6 = world.resource_mut::<Dice>().roll(6);
    let reach = horizontal_jump_feet(j.dex, d6, j.stone, run_up, j.factor);
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::Jumped {
            who: name,
            gap_feet: gap,
            d6,
            reach_feet: reach,
            run_up,
        },
    );
    crate::rules::movement::moved_by_other_means(world, who, jump_feet, order.pace);
    if reach >= gap as f32 {
        if let Some(mut steps) = world.get_mut::<Footsteps>(who) {
            steps.step(order.take_off, order.to);
        }
        land(world, who, order.to, &between, j.acrobat);
    } else {
        // Short: into the chasm where the jump came down.
        let k = ((reach / scale as f32) as usize).min(between.len() - 1);
        drop_into(world, who, between[k]);
    }
}

/// A leap up out of a hole onto the square `to` beside it: its leap must reach the rim.
fn leap_out(
    world: &mut World,
    who: Entity,
    from: GridPos,
    below: Below,
    to: GridPos,
) -> Result<(), Refusal> {
    if !from.is_adjacent(to)
        || !world.resource::<DungeonGrid>().is_passable(to)
        || super::climbing::hole_at(world, to).is_some()
    {
        return Err(CavingRefusal::NoWayUp { to }.into());
    }
    let leap = leap_of(world, who).ok_or(MoveRefusal::CannotMove)?;
    if leap < below.depth_feet as f32 {
        return Err(CavingRefusal::TooHighToLeap {
            depth_feet: below.depth_feet,
            leap_feet: leap,
        }
        .into());
    }
    world.entity_mut(who).remove::<(Below, Walking)>();
    set_square(world, who, to);
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::LeaptOut {
            who: name,
            depth_feet: below.depth_feet,
            leap_feet: leap,
            at: to,
        },
    );
    Ok(())
}

/// A landing on `to`. Dungeon Delves › Jumping: "jumps onto inclined surfaces, loose scree,
/// narrow pillars, or other precarious destinations" — rubble, or a ledge's narrow path — call
/// for a Paralysis save (+2 Acrobatics), or it lands 1d6' short: still on solid ground, prone;
/// "exactly at the edge", hanging by its fingers (a climb up the last 5' of the hole's side);
/// over empty space, a fall.
fn land(world: &mut World, who: Entity, to: GridPos, between: &[GridPos], acrobat: bool) {
    set_square(world, who, to);
    let grid = world.resource::<DungeonGrid>();
    if !matches!(
        grid.terrain(to),
        Some(Terrain::Rubble | Terrain::Ledge { .. })
    ) {
        return;
    }
    let scale = grid.scale_feet().max(1);
    let Some(save) = world
        .get::<SavingThrows>(who)
        .and_then(|s| s.0.get(&SaveCategory::Paralysis).copied())
    else {
        return;
    };
    let mods: Vec<Modifier> = acrobat
        .then(|| Modifier::new(2, "Acrobatics"))
        .into_iter()
        .collect();
    let landed = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Save,
        Skill::Save(delve_ground::level::schema::SaveCategory::Paralysis),
        "Paralysis save landing on loose ground",
        mods,
        save,
    )
    .success;
    if landed {
        return;
    }
    let short = world.resource_mut::<Dice>().roll(6);
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::LandedShort {
            who: name,
            feet: short,
        },
    );
    // Back from the landing square toward the chasm: less than a square short is on the
    // ground; exactly a square, at the edge; more, over the hole.
    if short < scale {
        gain_condition_in(
            world,
            who,
            ConditionKind::Prone,
            "landed short",
            ConditionEnd::StandingUp,
        );
    } else if short == scale
        && let Some(&edge) = between.last()
    {
        hang_by_the_fingers(world, who, edge, to);
    } else {
        let back = (short / scale) as usize;
        let k = between.len().saturating_sub(back);
        drop_into(world, who, between[k.min(between.len() - 1)]);
    }
}

/// Dungeon Delves › Jumping: "exactly at the edge of a chasm, cliff, etc., then he ends his
/// round hanging by his fingers and must climb or be pulled up": on the side of the hole at
/// `edge`, 5' below the rim of `rim`, climbing up — the rim in its hands, an easy climb (a throw
/// for it, 8+ by Adventuring).
fn hang_by_the_fingers(world: &mut World, who: Entity, edge: GridPos, rim: GridPos) {
    let depth = super::climbing::hole_at(world, edge).unwrap_or(0);
    let below_rim = world.resource::<DungeonGrid>().scale_feet().min(depth) as f32;
    set_square(world, who, edge);
    let surface = Surface::Easy;
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::HangingByTheFingers {
            who: name,
            at: edge,
        },
    );
    super::climbing::start_climbing(
        world,
        who,
        super::climbing::Climbing {
            to: rim,
            height_feet: depth,
            done_feet: depth as f32 - below_rim,
            surface,
            pace: super::ClimbPace::Third,
            stretches_thrown: 0,
            down: false,
            rappel: false,
            slowed: false,
        },
    );
}

/// Into the hole at `at` (a chasm, an open pit): a fall of its depth, and at its bottom.
fn drop_into(world: &mut World, who: Entity, at: GridPos) {
    let depth = super::climbing::hole_at(world, at).unwrap_or(0);
    set_square(world, who, at);
    world.entity_mut(who).insert(Below { depth_feet: depth });
    fall(world, who, depth);
}

fn set_square(world: &mut World, who: Entity, at: GridPos) {
    if let Some(mut p) = world.get_mut::<Position>(who) {
        p.0 = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dungeon Delves › Jumping: DEX + 1d6 − 1' per stone, halved without a 20' run-up: DEX 13,
    /// a 3, 2 stone, no run-up: (13 + 3 − 2) / 2 = 7'.
    #[test]
    fn dex_13_with_no_run_up() {
        assert_eq!(horizontal_jump_feet(13, 3, 2.0, false, 1.0), 7.0);
        assert_eq!(horizontal_jump_feet(13, 3, 2.0, true, 1.0), 14.0);
        // A medium horse, running 180': (10 + 1d6) × 1.5.
        assert_eq!(horizontal_jump_feet(10, 4, 0.0, true, 180.0 / 120.0), 21.0);
    }

    /// The Acrobatics table: the class level added to DEX, at most 24; DEX 19–20 +4, 21–23 +5,
    /// 24 +6 for leaping; vertical DEX bonus + 1, at least 1', less encumbrance.
    #[test]
    fn the_acrobatics_rows() {
        assert_eq!(jumping_dex(16, Some(5)), 21);
        assert_eq!(jumping_dex(18, Some(9)), 24, "at most 24");
        assert_eq!(jumping_dex(16, None), 16);
        assert_eq!([19, 20, 21, 23, 24].map(jumping_dex_bonus), [4, 4, 5, 5, 6]);
        assert_eq!(
            vertical_leap_feet(18, 0.0, true, 1.0),
            4.0,
            "DEX 18: +3 + 1"
        );
        assert_eq!(vertical_leap_feet(6, 0.0, true, 1.0), 1.0, "at least 1'");
        assert_eq!(
            vertical_leap_feet(24, 2.0, false, 1.0),
            2.5,
            "(6 + 1 − 2) / 2"
        );
    }
}
