//! Hauling a companion up a secured rope (RULINGS › Carrying and hauling): "A creature at the
//! bottom of a pit or shaft that cannot climb can be hauled up a secured rope by those at the
//! top: they move it 10' a round if their combined loads, each with its share of the hauled
//! weight, stay within 20 stone apiece; hauling is exertion and takes each hauler's action in a
//! battle."
//!
//! One that cannot climb is one down and alive (dying). `Haul` is a round's hauling, given by
//! one hauler and naming those who haul with it; each shares the hauled one's weight (its body
//! and what it carries, as carrying weighs it), and each load with its share must be one it can
//! move under. The rope holds the hauled where it is between rounds; once it has come up the
//! pit's whole depth it is on the rim, on the square of the one who gave the order.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, creature};
use crate::creature::{Below, Conditions, Exerted, Faction, Position};
use crate::rules::acting::{ActionTaken, Cost};
use crate::rules::carrying::{Holding, load_bearing};
use crate::rules::caving::climbing::RopesSecured;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::{LogEvent, LogKind, log_in};
use delve_ground::time::Clock;

/// Feet a hauled creature comes up in a round.
pub const HAULED_FEET_PER_ROUND: u32 = 10;

/// How far up its pit a creature being hauled has come, in feet.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HauledUp {
    pub feet: u32,
}

/// Hauls `whom` 10' up the rope secured in its pit, `who` and `with` hauling together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Haul {
    pub who: String,
    pub whom: String,
    /// Those who haul with it this round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
}

impl fmt::Display for Haul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "haul {} up", self.whom)?;
        if !self.with.is_empty() {
            write!(f, " with {}", self.with.join(" and "))?;
        }
        Ok(())
    }
}

impl Act for Haul {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::ClimbingAndSwimming)
    }

    fn cost(&self) -> Cost {
        Cost::ACTION
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        let whom = creature(world, &self.whom)?;
        let mut with = Vec::new();
        for w in &self.with {
            with.push(creature(world, w)?);
        }
        haul(world, who, whom, &with)
    }
}

/// Why a hauling is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum HaulingRefusal {
    /// The one to haul is not at the bottom of a pit or shaft.
    NotInAPit,
    /// It is up: it climbs the rope itself.
    ItClimbs,
    Dead,
    /// No rope is secured in its pit.
    NoRope,
    /// A hauler is not on the pit's rim (beside it, at the top).
    NotOnTheRim {
        who: String,
    },
    NotACompanion {
        who: String,
    },
    /// A hauler is down, or holds someone already.
    CannotHaul {
        who: String,
    },
    /// A hauler named twice.
    Twice {
        who: String,
    },
    /// A hauler's load with its share, over the 20 stone one can move with.
    TooHeavy {
        who: String,
        stone: f32,
    },
}

impl Reason for HaulingRefusal {}

impl fmt::Display for HaulingRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HaulingRefusal::NotInAPit => write!(f, "that one is not at the bottom of a pit"),
            HaulingRefusal::ItClimbs => write!(f, "that one can climb the rope itself"),
            HaulingRefusal::Dead => write!(f, "that one is dead"),
            HaulingRefusal::NoRope => write!(f, "no rope is secured in the pit"),
            HaulingRefusal::NotOnTheRim { who } => {
                write!(f, "{who} is not on the pit's rim")
            }
            HaulingRefusal::NotACompanion { who } => {
                write!(f, "{who} is not a companion of the one hauled")
            }
            HaulingRefusal::CannotHaul { who } => {
                write!(f, "{who} cannot haul: down, or its hands full")
            }
            HaulingRefusal::Twice { who } => write!(f, "{who} is named twice"),
            HaulingRefusal::TooHeavy { who, stone } => write!(
                f,
                "{who} would bear {stone} stone with its share: over 20 stone it cannot move \
                 (RULINGS › Carrying and hauling)"
            ),
        }
    }
}

/// What hauling puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HaulingEvent {
    /// `by` hauled `whom` up, `stone` each: it has come `feet` of the pit's `depth`.
    Hauled {
        whom: String,
        by: Vec<String>,
        stone: f32,
        feet: u32,
        depth: u32,
    },
    /// `whom` is up on the rim, at `to`.
    HauledOut { whom: String, to: GridPos },
}

impl LogEvent for HaulingEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn who(&self) -> Option<&str> {
        match self {
            HaulingEvent::Hauled { by, .. } => by.first().map(String::as_str),
            HaulingEvent::HauledOut { whom, .. } => Some(whom),
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            HaulingEvent::Hauled { whom, .. } => Some(whom),
            HaulingEvent::HauledOut { .. } => None,
        }
    }
}

impl fmt::Display for HaulingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HaulingEvent::Hauled {
                whom,
                by,
                stone,
                feet,
                depth,
            } => {
                let (verb, each) = if by.len() == 1 {
                    ("hauls", "")
                } else {
                    ("haul", " each")
                };
                write!(
                    f,
                    "{} {verb} {whom} up the rope, bearing {stone} stone{each}: {feet}' of {depth}'",
                    by.join(" and ")
                )
            }
            HaulingEvent::HauledOut { whom, to } => {
                write!(f, "{whom} is hauled out of the pit onto {to}")
            }
        }
    }
}

/// The one to haul: down and alive at the bottom of a pit with a rope secured in it. Its pit's
/// square and depth.
fn to_haul(world: &World, whom: Entity) -> Result<(GridPos, u32), HaulingRefusal> {
    let below = world
        .get::<Below>(whom)
        .copied()
        .ok_or(HaulingRefusal::NotInAPit)?;
    let conditions = world.get::<Conditions>(whom).cloned().unwrap_or_default();
    if conditions.has(ConditionKind::Dead) {
        return Err(HaulingRefusal::Dead);
    }
    if !crate::rules::conditions::is_down(&conditions) {
        return Err(HaulingRefusal::ItClimbs);
    }
    let pit = world
        .get::<Position>(whom)
        .map(|p| p.0)
        .ok_or(HaulingRefusal::NotInAPit)?;
    if world.resource::<RopesSecured>().at(pit).is_none() {
        return Err(HaulingRefusal::NoRope);
    }
    Ok((pit, below.depth_feet))
}

/// Can `hauler` haul from the rim of `pit` for `whom`, bearing `stone`? Its name if so.
fn may_haul(
    world: &World,
    hauler: Entity,
    whom: Entity,
    pit: GridPos,
    stone: f32,
) -> Result<String, HaulingRefusal> {
    let who = crate::creature::name_of(world, hauler);
    let at = world.get::<Position>(hauler).map(|p| p.0);
    if world.get::<Below>(hauler).is_some() || !at.is_some_and(|p| p.is_adjacent(pit)) {
        return Err(HaulingRefusal::NotOnTheRim { who });
    }
    if world.get::<Faction>(hauler) != world.get::<Faction>(whom) {
        return Err(HaulingRefusal::NotACompanion { who });
    }
    let down = world
        .get::<Conditions>(hauler)
        .is_none_or(crate::rules::conditions::is_down);
    if down || world.get::<Holding>(hauler).is_some() {
        return Err(HaulingRefusal::CannotHaul { who });
    }
    load_bearing(world, hauler, stone).map_err(|stone| HaulingRefusal::TooHeavy {
        who: who.clone(),
        stone,
    })?;
    Ok(who)
}

/// The share each of `haulers` bears for `whom`, if every one of them may haul it now.
pub fn hauling_share(
    world: &World,
    whom: Entity,
    haulers: &[Entity],
) -> Result<f32, HaulingRefusal> {
    let (pit, _) = to_haul(world, whom)?;
    let stone = crate::rules::carrying::weight_of(world, whom) / haulers.len().max(1) as f32;
    for (i, &h) in haulers.iter().enumerate() {
        if haulers[..i].contains(&h) {
            return Err(HaulingRefusal::Twice {
                who: crate::creature::name_of(world, h),
            });
        }
        may_haul(world, h, whom, pit, stone)?;
    }
    Ok(stone)
}

/// `Haul`: `who` and `with` haul `whom` 10' up; each spends its action and exerts itself. Up
/// the whole depth, `whom` is on `who`'s square, out of the pit.
pub fn haul(world: &mut World, who: Entity, whom: Entity, with: &[Entity]) -> Result<(), Refusal> {
    let haulers: Vec<Entity> = std::iter::once(who).chain(with.iter().copied()).collect();
    let stone = hauling_share(world, whom, &haulers)?;
    let (_, depth) = to_haul(world, whom)?;
    let round = world.resource::<Clock>().rounds;
    // (The one who gave the order is counted by the gate; those hauling with it, here.)
    for &h in with {
        world
            .entity_mut(h)
            .insert((Exerted { round }, ActionTaken { round }));
    }
    let feet = world.get::<HauledUp>(whom).map_or(0, |h| h.feet) + HAULED_FEET_PER_ROUND;
    let by: Vec<String> = haulers
        .iter()
        .map(|&h| crate::creature::name_of(world, h))
        .collect();
    let name = crate::creature::name_of(world, whom);
    log_in(
        world,
        HaulingEvent::Hauled {
            whom: name.clone(),
            by,
            stone,
            feet: feet.min(depth),
            depth,
        },
    );
    if feet < depth {
        world.entity_mut(whom).insert(HauledUp { feet });
        return Ok(());
    }
    let to = world
        .get::<Position>(who)
        .map(|p| p.0)
        .expect("a hauler on the rim stands somewhere");
    world
        .entity_mut(whom)
        .remove::<(Below, HauledUp)>()
        .insert(Position(to));
    log_in(world, HaulingEvent::HauledOut { whom: name, to });
    Ok(())
}

/// What a creature on a pit's rim can do for a companion down at its bottom, a rope secured
/// there: haul it up, with every companion beside the pit who can share the weight.
pub fn haul_choices(world: &World, who: Entity) -> Vec<crate::act::Choice> {
    use crate::act::{AnyAct, Choice};
    let Some(here) = world.get::<Position>(who).map(|p| p.0) else {
        return Vec::new();
    };
    if world.get::<Below>(who).is_some() {
        return Vec::new();
    }
    let faction = world.get::<Faction>(who).copied();
    let mut in_pits: Vec<(Entity, GridPos)> = delve_ground::query_cache::read_query(
        world,
        |q: Query<(Entity, &Position, Option<&Faction>), With<Below>>| {
            q.iter()
                .filter(|(e, p, f)| *e != who && f.copied() == faction && p.0.is_adjacent(here))
                .map(|(e, p, _)| (e, p.0))
                .collect()
        },
    )
    .unwrap_or_default();
    in_pits.sort();
    let name = crate::creature::name_of(world, who);
    in_pits
        .into_iter()
        .filter(|&(whom, _)| to_haul(world, whom).is_ok())
        .map(|(whom, pit)| {
            // Those beside the pit who could share the hauling, fewest first that suffice.
            let mut others: Vec<Entity> = delve_ground::query_cache::read_query(
                world,
                |q: Query<(Entity, &Position, Option<&Faction>)>| {
                    q.iter()
                        .filter(|(e, p, f)| {
                            *e != who && *e != whom && f.copied() == faction && p.0.is_adjacent(pit)
                        })
                        .map(|(e, ..)| e)
                        .collect()
                },
            )
            .unwrap_or_default();
            others.sort();
            others.retain(|&o| may_haul(world, o, whom, pit, 0.0).is_ok());
            let whom_name = crate::creature::name_of(world, whom);
            let mut crew = vec![who];
            let mut share = hauling_share(world, whom, &crew);
            for &o in &others {
                if share.is_ok() {
                    break;
                }
                crew.push(o);
                share = hauling_share(world, whom, &crew);
            }
            let with: Vec<String> = crew[1..]
                .iter()
                .map(|&h| crate::creature::name_of(world, h))
                .collect();
            let note = match &share {
                Ok(stone) => format!("10' a round, {stone} stone each"),
                Err(why) => format!("{why}"),
            };
            let haul = AnyAct::from(Haul {
                who: name.clone(),
                whom: whom_name.clone(),
                with,
            });
            Choice::new(
                &format!("haul {whom_name} up"),
                "an action",
                None,
                &note,
                haul,
            )
        })
        .collect()
}
