//! A member who stays behind (Dungeon Delves › Marching Order: the party marches in its order,
//! each following the one before): it keeps its place in the marching order but drops out of
//! the formation, holding its square while the others march, until it falls in again. A party
//! splits this way to send some of it where the others cannot go (a shaft only its climbers
//! can climb) while the rest wait.

use crate::rules::acting::Cost;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::events::PartyEvent;
use super::parties::Parties;
use super::refusals::PartyRefusal;
use crate::act::{Act, Activity, AnyAct, Choice, Concern, Refusal};
use delve_ground::log::log_in;

/// The member holds its square while its party marches (it takes no place in the formation,
/// and its speed does not slow the march).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StayingBehind;

/// `who` stays behind where it stands while its party marches (`stay: true`), or falls in again
/// behind its leader (`stay: false`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StayBehind {
    pub who: String,
    pub stay: bool,
}

impl fmt::Display for StayBehind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stay {
            write!(f, "stay behind here while the party marches")
        } else {
            write!(f, "fall in with the party again")
        }
    }
}

impl Act for StayBehind {
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
        let who = crate::act::creature(world, &self.who)?;
        let party = world
            .resource::<Parties>()
            .of(who)
            .map(|p| p.name.clone())
            .ok_or(PartyRefusal::NotInAParty)?;
        if self.stay == world.get::<StayingBehind>(who).is_some() {
            return Err(PartyRefusal::AlreadyStaying { stay: self.stay }.into());
        }
        if self.stay {
            world.entity_mut(who).insert(StayingBehind);
        } else {
            world.entity_mut(who).remove::<StayingBehind>();
        }
        log_in(
            world,
            PartyEvent::StaysBehind {
                party,
                who: self.who.clone(),
                stay: self.stay,
            },
        );
        Ok(())
    }
}

/// Staying behind, or falling in again, is offered to every member of a party but its leader
/// (the party marches behind its leader: it cannot stay behind itself).
pub(super) fn staying_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Some(name), Some(party)) = (world.get::<Name>(who), world.resource::<Parties>().of(who))
    else {
        return Vec::new();
    };
    if party.leader() == Some(who) {
        return Vec::new();
    }
    let stay = world.get::<StayingBehind>(who).is_none();
    let act = StayBehind {
        who: name.to_string(),
        stay,
    };
    let way = act.to_string();
    let note = if stay {
        "the others march on without it"
    } else {
        "it follows its leader again"
    };
    vec![(
        Concern::Here,
        Choice::new(&way, "at once", None, note, AnyAct::from(act)),
    )]
}
