//! The party's commands (Dungeon Delves › Marching Order, Rest, Mapping).

use crate::act::Common;
use crate::rules::acting::Cost;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Offered, Refusal, at};

use super::refusals::PartyRefusal;
use crate::rules::movement::Pace;
use delve_ground::party_policy::PartyPolicy;

/// The party walks to a square behind its leader, in formation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveParty {
    pub party: String,
    pub to: (i32, i32),
    #[serde(default)]
    pub pace: Pace,
}

/// The whole party rests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestParty {
    pub party: String,
}

/// Sets the party's marching order (every member, once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarchingOrder {
    pub party: String,
    pub order: Vec<String>,
}

/// Designates the party's mapper, or none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapper {
    pub party: String,
    pub who: Option<String>,
}

impl fmt::Display for MoveParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move to {} at {} speed", at(self.to), self.pace)
    }
}

impl Act for MoveParty {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::order_party_move(world, &self.party, at(self.to), self.pace)
    }
}

impl fmt::Display for RestParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rest")
    }
}

impl Act for RestParty {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        Some(Activity::Resting)
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::rest_party(world, &self.party)
    }
}

impl fmt::Display for MarchingOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "march in the order {}", self.order.join(", "))
    }
}

impl Act for MarchingOrder {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::set_marching_order(world, &self.party, &self.order)
    }
}

impl fmt::Display for Mapper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.who {
            Some(w) => write!(f, "have {w} map"),
            None => write!(f, "stop mapping"),
        }
    }
}

impl Act for Mapper {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::set_mapper(world, &self.party, self.who.as_deref())
    }
}

/// Takes the gear and the lights of a fallen creature beside it, or of a companion who hands
/// them over (Dungeon Delves › Mapping: the map passes from a fallen mapper to one still alive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeFrom {
    pub who: String,
    pub from: String,
}

impl fmt::Display for TakeFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take the gear of {}", self.from)
    }
}

impl Act for TakeFrom {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn common(&self) -> Option<Common> {
        Some(Common::TakeGear)
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let (who, from) = (
            crate::act::creature(world, &self.who)?,
            crate::act::creature(world, &self.from)?,
        );
        super::take_from(world, who, from)
    }
}

/// Hands a party to its policy (`policy: Some(..)`), or takes it back (`None`): the party's
/// mind (`policy::party`) takes it up ([`PartyMindHandler`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Autonomy {
    pub party: String,
    #[serde(default)]
    pub policy: Option<PartyPolicy>,
}

impl fmt::Display for Autonomy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.policy {
            Some(_) => write!(f, "hand the party to its policy"),
            None => write!(f, "take the party back from its policy"),
        }
    }
}

impl Act for Autonomy {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let Some(&mind) = world.get_resource::<PartyMindHandler>() else {
            return Err(PartyRefusal::NoMind.into());
        };
        match &self.policy {
            Some(policy) => (mind.hand_over)(world, &self.party, policy.clone()),
            None => (mind.take_back)(world, &self.party),
        }
    }
}

/// How the party's mind takes a party handed to it ([`Autonomy`]) and gives it back: the mind
/// registers it from its plugin, so the rules name no mind.
#[derive(Resource, Clone, Copy)]
pub struct PartyMindHandler {
    pub hand_over: fn(&mut World, &str, PartyPolicy) -> Result<(), Refusal>,
    pub take_back: fn(&mut World, &str) -> Result<(), Refusal>,
}
