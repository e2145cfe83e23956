//! A member goes to the front (Dungeon Delves › Marching Order: the party marches in its order,
//! its leader first): it takes the leader's square and the head of the marching order, and
//! those it passes each step back one place — in a corridor one square wide the thief comes
//! forward to the lock and the fighter makes way, in one order, not by hand.

use crate::creature::Below;
use crate::rules::acting::Cost;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::events::PartyEvent;
use super::formation::free_to_follow;
use super::parties::{Following, Parties};
use super::refusals::PartyRefusal;
use super::staying::StayingBehind;
use crate::act::{Act, Activity, AnyAct, Choice, Concern, Refusal};
use crate::creature::{Conditions, Encumbrance, Position};
use crate::rules::movement::{MovedThisRound, Pace, Speeds};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::log::log_in;

/// `who` goes to the front of its party: it leads the march from the leader's square, and the
/// members it passes step back one place each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToTheFront {
    pub who: String,
}

impl fmt::Display for ToTheFront {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go to the front and lead the march")
    }
}

impl Act for ToTheFront {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = crate::act::creature(world, &self.who)?;
        let moves = the_moves(world, who)?;
        let party = world
            .resource::<Parties>()
            .of(who)
            .map(|p| p.name.clone())
            .ok_or(PartyRefusal::NotInAParty)?;
        let round = world.resource::<Clock>().rounds;
        for &(e, from, to, feet) in &moves {
            world.get_mut::<Position>(e).expect("a member stands").0 = to;
            let name = crate::creature::name_of(world, e);
            world.resource_scope(|world, mut log: Mut<EventLog>| {
                if let Some(mut moved) = world.get_mut::<MovedThisRound>(e) {
                    moved.record(&mut log, round, &name, Pace::Combat, (from, to), feet);
                }
            });
        }
        let mut parties = world.resource_mut::<Parties>();
        let p = parties.get_mut(&party).expect("its party");
        p.marching_order.retain(|&e| e != who);
        p.marching_order.insert(0, who);
        // The march goes on from the new leader's square.
        p.trail = vec![moves[0].2];
        let order = p.marching_order.clone();
        for (i, &e) in order.iter().enumerate() {
            if i == 0 {
                world.entity_mut(e).remove::<Following>();
            } else if world.get::<Following>(e).is_none() {
                world.entity_mut(e).insert(Following::default());
            }
        }
        log_in(
            world,
            PartyEvent::WentToTheFront {
                party,
                who: self.who.clone(),
            },
        );
        Ok(())
    }
}

/// Who moves where, and how far: `who` to the leader's square, and each member from the
/// leader to the one before `who` (in the marching order, those not staying behind) to the
/// square of the one after it. Refused when one of them cannot move now (down, stuck, in a
/// hole, drowning), or has not the combat speed to cover its way (through its fellows).
fn the_moves(world: &World, who: Entity) -> Result<Vec<(Entity, GridPos, GridPos, u32)>, Refusal> {
    let party = world
        .resource::<Parties>()
        .of(who)
        .ok_or(PartyRefusal::NotInAParty)?;
    let line: Vec<Entity> = party
        .marching_order
        .iter()
        .copied()
        .filter(|&e| world.get::<StayingBehind>(e).is_none())
        .collect();
    let k = line
        .iter()
        .position(|&e| e == who)
        .ok_or(PartyRefusal::StaysBehindFirst)?;
    if k == 0 {
        return Err(PartyRefusal::LeadsAlready.into());
    }
    let at = |e: Entity| world.get::<Position>(e).map(|p| p.0);
    let squares: Vec<GridPos> = line[..=k].iter().filter_map(|&e| at(e)).collect();
    if squares.len() != k + 1 {
        return Err(PartyRefusal::NoMembers.into());
    }
    let grid = world.resource::<DungeonGrid>();
    let mut moves = vec![(who, squares[k], squares[0])];
    moves.extend((0..k).map(|i| (line[i], squares[i], squares[i + 1])));
    moves
        .into_iter()
        .map(|(e, from, to)| {
            let name = crate::creature::name_of(world, e);
            let free = world
                .get::<Conditions>(e)
                .is_some_and(|c| free_to_follow(c, false))
                && world.get::<Below>(e).is_none();
            if !free {
                return Err(PartyRefusal::CannotStepAside { name }.into());
            }
            let feet = delve_ground::grid::path::find_path(grid, from, to)
                .map(|p| p.feet)
                .ok_or_else(|| PartyRefusal::CannotStepAside { name: name.clone() })?;
            let speed = world
                .get::<Encumbrance>(e)
                .zip(world.get::<Conditions>(e))
                .and_then(|(enc, c)| Speeds::of(enc.0, c))
                .map_or(0, |s| s.combat);
            if feet > speed {
                return Err(PartyRefusal::TooFarToStepAside { name, feet, speed }.into());
            }
            Ok((e, from, to, feet))
        })
        .collect()
}

/// Going to the front is offered to every member but the leader that could make the moves.
pub(super) fn front_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let Some(name) = world.get::<Name>(who) else {
        return Vec::new();
    };
    let Ok(moves) = the_moves(world, who) else {
        return Vec::new();
    };
    let act = ToTheFront {
        who: name.to_string(),
    };
    let passed: Vec<String> = moves[1..]
        .iter()
        .map(|m| crate::creature::name_of(world, m.0))
        .collect();
    let note = format!("{} step back a place", passed.join(" and "));
    vec![(
        Concern::Here,
        Choice::new(&act.to_string(), "its move", None, &note, AnyAct::from(act)),
    )]
}
