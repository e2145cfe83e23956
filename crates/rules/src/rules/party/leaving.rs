//! Leaving the level: a party goes out the way it came in (its leader's square as the level
//! opened), or by the level's way out (an `Exit` goal), all together — every member who is up
//! within 10' of it. Those down are left behind unless carried. The delve is then over (the
//! policy area tells how it went: `policy::party::solo`).

use crate::act::Unable;
use crate::creature::{Conditions, Position};
use crate::rules::acting::Cost;
use delve_ground::grid::DungeonGrid;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::events::PartyEvent;
use super::parties::{Parties, Party};
use super::refusals::PartyRefusal;
use crate::act::{Act, Activity, AnyAct, Choice, Concern, Refusal};
use delve_ground::grid::GridPos;
use delve_ground::log::log_in;

/// Feet from the way out within which every member who is up must stand.
const TOGETHER_FEET: u32 = 10;

/// `who`'s party leaves the level by its way in or the level's way out, where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    pub who: String,
}

impl fmt::Display for Leave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "leave the level with the party")
    }
}

/// The squares a party may leave the level by: its way in, and the level's way out (an `Exit`
/// goal).
pub fn way_out(party: &Party) -> Vec<GridPos> {
    party.way_in.into_iter().chain(party.exit).collect()
}

/// The way out `who`'s party stands at, every member who is up within 10' of it; or why not.
fn at_the_way_out(world: &World, who: Entity) -> Result<(String, GridPos, Vec<Entity>), Refusal> {
    let party = world
        .resource::<Parties>()
        .of(who)
        .cloned()
        .ok_or(PartyRefusal::NotInAParty)?;
    if party.left {
        return Err(PartyRefusal::AlreadyLeft.into());
    }
    let scale = world.resource::<DungeonGrid>().scale_feet();
    let square = |e: Entity| world.get::<Position>(e).map(|p| p.0);
    let up = |e: Entity| {
        world
            .get::<Conditions>(e)
            .is_some_and(|c| !crate::rules::conditions::is_down(c))
    };
    let here = square(who).ok_or(Unable::NoSquare)?;
    let Some(out) = way_out(&party)
        .into_iter()
        .min_by_key(|&o| o.chebyshev(here))
    else {
        return Err(PartyRefusal::NotAtTheWayOut {
            name: crate::creature::name_of(world, who),
        }
        .into());
    };
    let far = |m: Entity| {
        square(m).is_none_or(|p| delve_ground::grid::distance_feet(p, out, scale) > TOGETHER_FEET)
    };
    if let Some(&m) = party.marching_order.iter().find(|&&m| up(m) && far(m)) {
        let name = crate::creature::name_of(world, m);
        return Err(PartyRefusal::NotAtTheWayOut { name }.into());
    }
    // Those down and not with it (one carried is on its bearer's square) are left behind.
    let behind: Vec<Entity> = party
        .marching_order
        .iter()
        .copied()
        .filter(|&m| !up(m) && far(m))
        .collect();
    Ok((party.name, out, behind))
}

impl Act for Leave {
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
        let (party, at, behind) = at_the_way_out(world, who)?;
        if let Some(p) = world.resource_mut::<Parties>().get_mut(&party) {
            p.left = true;
        }
        let left_behind = behind
            .into_iter()
            .map(|e| crate::creature::name_of(world, e))
            .collect();
        log_in(
            world,
            PartyEvent::LeftTheLevel {
                party,
                at,
                left_behind,
            },
        );
        Ok(())
    }
}

/// Leaving is offered to a member whose party stands together at a way out.
pub(super) fn leaving_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    if at_the_way_out(world, who).is_err() {
        return Vec::new();
    }
    let act = Leave {
        who: crate::creature::name_of(world, who),
    };
    vec![(
        Concern::Here,
        Choice::new(
            &act.to_string(),
            "at once",
            None,
            "the delve is over; those down and not carried are left",
            AnyAct::from(act),
        ),
    )]
}
