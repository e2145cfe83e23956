//! Carrying a companion who cannot walk (RULINGS › Rest names carrying among the exertions; the
//! delve rules give the weight only for a drowning adventurer, Dungeon Delves › Drowning).
//!
//! Ruling where the sources are silent: a creature beside a companion of its faction who is
//! down and alive (dying) may take it up, in lieu of moving, and bears its whole weight — a
//! body's 15 stone plus the encumbrance of what it still carries (in water the drowning rule's
//! half applies: the water bears the rest). The carrier's speed is the speed table's at the new
//! load; a load over 20 stone cannot be moved, so the rules refuse it. The one carried goes
//! where its carrier goes until it is put down (`LetGo`), and the carrier's hands are full.
//! Carrying is exertion, never rest.

use crate::act::{Common, Concern};
use crate::creature::Below;
use crate::rules::acting::Cost;
use crate::rules::areas::Rank;
use crate::rules::movement::Walking;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::LogKind;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, creature};
use crate::creature::{Conditions, Encumbrance, Faction};
use delve_ground::level::SpeedBasis;
use delve_ground::log::{LogEvent, log_in};

/// A body's own weight in stone (Dungeon Delves › Drowning: a carried adventurer imposes half,
/// "usually 7 3/6 stone plus half of any equipment encumbrance").
pub const BODY_STONE: f32 = 15.0;

/// A creature holding a drowning ally it grabbed, or carrying a downed one
/// (`rules::carrying`): the stone it bears for it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Holding {
    pub whom: Entity,
    pub stone: f32,
}

/// Takes up a companion beside it who cannot walk, to carry it (in lieu of moving), alone or
/// with a second bearer beside it (RULINGS › Carrying and hauling: two bearers share the weight,
/// half each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carry {
    pub who: String,
    pub whom: String,
    /// The second bearer, if two carry it together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
}

impl fmt::Display for Carry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "carry {}", self.whom)?;
        if let Some(with) = &self.with {
            write!(f, " with {with}")?;
        }
        Ok(())
    }
}

impl Act for Carry {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn common(&self) -> Option<Common> {
        Some(Common::Carry)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let (who, whom) = (creature(world, &self.who)?, creature(world, &self.whom)?);
        let with = match &self.with {
            Some(w) => Some(creature(world, w)?),
            None => None,
        };
        carry(world, who, whom, with)
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }
}

/// Why a creature cannot take a companion up.
#[derive(Clone, Debug, PartialEq)]
pub enum CarryingRefusal {
    /// Only a companion who is down and alive is carried (one who can walk walks).
    NotDown,
    Dead,
    NotACompanion,
    NotBeside,
    /// One at the bottom of a pit and one on its rim (RULINGS › Pits and holes).
    NotAtTheSameDepth,
    HandsFull,
    /// The load it would bear, over the 20 stone one can move with.
    TooHeavy {
        stone: f32,
    },
}

impl Reason for CarryingRefusal {}

impl fmt::Display for CarryingRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CarryingRefusal::NotDown => write!(f, "that one can walk"),
            CarryingRefusal::Dead => write!(f, "that one is dead"),
            CarryingRefusal::NotACompanion => write!(f, "only a companion is carried"),
            CarryingRefusal::NotBeside => write!(f, "it must be beside the one it carries"),
            CarryingRefusal::NotAtTheSameDepth => {
                write!(f, "one is down a pit and the other on its rim")
            }
            CarryingRefusal::HandsFull => write!(f, "it already holds someone"),
            CarryingRefusal::TooHeavy { stone } => write!(
                f,
                "it would bear {stone} stone: over 20 stone it cannot move (RULINGS speed table)"
            ),
        }
    }
}

/// What carrying puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CarryingEvent {
    /// It took a companion up, bearing this much stone for it; its load is now `load` stone.
    TakenUp {
        who: String,
        whom: String,
        stone: f32,
        load: f32,
    },
}

impl LogEvent for CarryingEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn who(&self) -> Option<&str> {
        match self {
            CarryingEvent::TakenUp { who, .. } => Some(who),
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            CarryingEvent::TakenUp { whom, .. } => Some(whom),
        }
    }
}

impl fmt::Display for CarryingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CarryingEvent::TakenUp {
                who,
                whom,
                stone,
                load,
            } => write!(
                f,
                "{who} takes up {whom} to carry it, bearing {stone} stone ({load} stone in all)"
            ),
        }
    }
}

/// The stone a carrier bears for `whom`: its body and what it carries.
pub fn weight_of(world: &World, whom: Entity) -> f32 {
    BODY_STONE + crate::rules::throws::stone_of(world.get::<Encumbrance>(whom))
}

/// The load `who` would carry with `whom` on its back, if it can move under it (`Err` when
/// it cannot: over 20 stone). One whose speed is given, not its encumbrance, bears any load.
pub fn load_with(world: &World, who: Entity, whom: Entity) -> Result<f32, f32> {
    load_bearing(world, who, weight_of(world, whom))
}

/// The load `who` would carry sharing `whom` with another bearer, half the weight each
/// (RULINGS › Carrying and hauling), if it can move under it (`Err` when it cannot).
pub fn half_load_with(world: &World, who: Entity, whom: Entity) -> Result<f32, f32> {
    load_bearing(world, who, weight_of(world, whom) / 2.0)
}

/// The load `who` would carry bearing `stone` more, if it can move under it (`Err` when it
/// cannot: over 20 stone).
pub fn load_bearing(world: &World, who: Entity, stone: f32) -> Result<f32, f32> {
    let load = match world.get::<Encumbrance>(who).map(|e| e.0) {
        Some(SpeedBasis::Encumbrance { stone: own }) => own + stone,
        _ => return Ok(0.0),
    };
    match crate::rules::movement::encumbrance_band(load) {
        Some(_) => Ok(load),
        None => Err(load),
    }
}

/// `Carry`: `who` takes up `whom`, a companion beside it who is down and alive — with `with`,
/// a second bearer beside it, half the weight each.
pub fn carry(
    world: &mut World,
    who: Entity,
    whom: Entity,
    with: Option<Entity>,
) -> Result<(), Refusal> {
    let conditions = world.get::<Conditions>(whom).cloned().unwrap_or_default();
    if conditions.has(ConditionKind::Dead) {
        return Err(CarryingRefusal::Dead.into());
    }
    if !crate::rules::conditions::is_down(&conditions) {
        return Err(CarryingRefusal::NotDown.into());
    }
    let bearers: Vec<Entity> = std::iter::once(who).chain(with).collect();
    if with == Some(who) {
        return Err(CarryingRefusal::NotACompanion.into());
    }
    let stone = weight_of(world, whom) / bearers.len() as f32;
    let mut loads = Vec::new();
    for &b in &bearers {
        loads.push(may_bear(world, b, whom, stone)?);
    }
    for (&b, load) in bearers.iter().zip(loads) {
        take_up(world, b, whom, stone);
        let (name, companion) = (
            crate::creature::name_of(world, b),
            crate::creature::name_of(world, whom),
        );
        log_in(
            world,
            CarryingEvent::TakenUp {
                who: name,
                whom: companion,
                stone,
                load,
            },
        );
    }
    Ok(())
}

/// Can `who` bear `stone` of `whom`: a companion beside it, at its depth, hands free, the load
/// within 20 stone? Its load if so.
fn may_bear(world: &World, who: Entity, whom: Entity, stone: f32) -> Result<f32, Refusal> {
    let here = crate::act::square_of(world, who)?;
    let there = crate::act::square_of(world, whom)?;
    if who == whom || world.get::<Faction>(who) != world.get::<Faction>(whom) {
        return Err(CarryingRefusal::NotACompanion.into());
    }
    if here.chebyshev(there) > 1 {
        return Err(CarryingRefusal::NotBeside.into());
    }
    let below = |e: Entity| world.get::<Below>(e).copied();
    if below(who) != below(whom) {
        return Err(CarryingRefusal::NotAtTheSameDepth.into());
    }
    if world.get::<Holding>(who).is_some() {
        return Err(CarryingRefusal::HandsFull.into());
    }
    Ok(load_bearing(world, who, stone).map_err(|stone| CarryingRefusal::TooHeavy { stone })?)
}

/// Who carries or holds `whom`, if anyone.
pub fn carrier_of(world: &mut World, whom: Entity) -> Option<Entity> {
    delve_ground::query_cache::read_query(world, |q: Query<(Entity, &Holding)>| {
        q.iter()
            .filter(|(_, h)| h.whom == whom)
            .map(|(e, _)| e)
            .min()
    })
    .flatten()
}

/// What a creature can do for a companion beside it who is down and alive: take it up (the
/// window's number keys). Letting go is offered with the water's choices (`LetGo`).
pub fn carry_choices(world: &World, who: Entity) -> Vec<crate::act::Choice> {
    use crate::act::AnyAct;
    use crate::act::Choice;
    use crate::creature::Position;
    if world.get::<Holding>(who).is_some() {
        return Vec::new();
    }
    let (Some(here), faction) = (
        world.get::<Position>(who).map(|p| p.0),
        world.get::<Faction>(who).copied(),
    ) else {
        return Vec::new();
    };
    let Some(mut q) =
        world.try_query::<(Entity, &Name, &Position, Option<&Faction>, &Conditions)>()
    else {
        return Vec::new();
    };
    let mut downed: Vec<(Entity, String)> = q
        .iter(world)
        .filter(|(e, _, p, f, c)| {
            *e != who
                && f.copied() == faction
                && p.0.within_a_step(here)
                && crate::rules::conditions::is_down(c)
                && !c.has(ConditionKind::Dead)
        })
        .map(|(e, n, ..)| (e, n.to_string()))
        .collect();
    downed.sort();
    let name = crate::creature::name_of(world, who);
    downed
        .into_iter()
        .map(|(whom_e, whom)| {
            let alone = load_with(world, who, whom_e);
            // Too heavy alone: with the first companion beside it who can bear the other half.
            let half = weight_of(world, whom_e) / 2.0;
            let with = alone.is_err().then(|| {
                companions_beside(world, who, whom_e, faction)
                    .into_iter()
                    .find(|&b| may_bear(world, b, whom_e, half).is_ok())
            });
            let note = match (alone, with) {
                (Ok(load), _) => {
                    format!("bears {} stone ({load} in all)", weight_of(world, whom_e))
                }
                (Err(_), Some(Some(_))) => match load_bearing(world, who, half) {
                    Ok(load) => format!("two bear {half} stone each ({load} in all)"),
                    Err(load) => return too_heavy(&name, &whom, load),
                },
                (Err(load), _) => return too_heavy(&name, &whom, load),
            };
            let with = with.flatten().map(|b| crate::creature::name_of(world, b));
            let way = match &with {
                Some(b) => format!("carry {whom} with {b}"),
                None => format!("carry {whom}"),
            };
            let carry = AnyAct::from(Carry {
                who: name.clone(),
                whom: whom.clone(),
                with,
            });
            Choice::new(&way, "in lieu of moving", None, &note, carry)
        })
        .collect()
}

/// The offer to carry one too heavy to bear, alone and with no one to share it: shown, with
/// why, so the player sees the weight.
fn too_heavy(name: &str, whom: &str, load: f32) -> crate::act::Choice {
    let carry = crate::act::AnyAct::from(Carry {
        who: name.to_owned(),
        whom: whom.to_owned(),
        with: None,
    });
    crate::act::Choice::new(
        &format!("carry {whom}"),
        "in lieu of moving",
        None,
        &format!("too heavy: {load} stone"),
        carry,
    )
}

/// The companions of `who`'s faction beside `whom`, up, but for `who`, in entity order.
fn companions_beside(
    world: &World,
    who: Entity,
    whom: Entity,
    faction: Option<Faction>,
) -> Vec<Entity> {
    use crate::creature::Position;
    let Some(there) = world.get::<Position>(whom).map(|p| p.0) else {
        return Vec::new();
    };
    let mut out: Vec<Entity> = delve_ground::query_cache::read_query(
        world,
        |q: Query<(Entity, &Position, Option<&Faction>, &Conditions)>| {
            q.iter()
                .filter(|(e, p, f, c)| {
                    *e != who
                        && *e != whom
                        && f.copied() == faction
                        && p.0.within_a_step(there)
                        && !crate::rules::conditions::is_down(c)
                })
                .map(|(e, ..)| e)
                .collect()
        },
    )
    .unwrap_or_default();
    out.sort();
    out
}

/// Carrying: the window offers `Carry` beside a downed companion.
pub struct CarryingPlugin;

impl Plugin for CarryingPlugin {
    fn build(&self, app: &mut App) {
        use crate::rules::areas::RuleArea;
        app.offers(Rank::AtHand, |world, who| {
            carry_choices(world, who)
                .into_iter()
                .map(|c| (Concern::Carrying, c))
                .collect()
        });
    }
}

/// `who` takes `whom` up, in lieu of moving, and bears `stone` for it until it lets go; `whom`
/// goes where it goes (`rules::water` moves it along). Grabbing a drowning ally, carrying a downed one
/// (`rules::carrying`).
pub(crate) fn take_up(world: &mut World, who: Entity, whom: Entity, stone: f32) {
    bear(world, who, stone);
    world
        .entity_mut(who)
        .remove::<Walking>()
        .insert(Holding { whom, stone });
    // In lieu of moving: it has spent its move this round.
    crate::rules::movement::limit_moves(world, who, 0);
}

/// Adds `stone` (or takes it off) the creature's encumbrance; one whose speed is given, not its
/// encumbrance, is not slowed.
pub(crate) fn bear(world: &mut World, who: Entity, stone: f32) {
    if let Some(mut enc) = world.get_mut::<Encumbrance>(who)
        && let SpeedBasis::Encumbrance { stone: s } = enc.0
    {
        enc.0 = SpeedBasis::Encumbrance {
            stone: (s + stone).max(0.0),
        };
    }
}
