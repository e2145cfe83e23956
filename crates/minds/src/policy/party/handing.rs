//! Handing a party to its policy (the Autonomy command, as the rules' party area asks the mind to take it up) and taking it back.

use crate::policy::behaviour::{FightsTogether, Retreating};
use delve_rules::act::Reason;

use super::gaps::{has_squeezes, narrowest_ledge};
use bevy::prelude::*;
use delve_ground::grid::DungeonGrid;
use delve_ground::level::Goal;
use delve_ground::log::EventLog;
use delve_ground::party_policy::PartyPolicy;
use delve_rules::act::{Refusal, Unable};
use delve_rules::creature::Faction;
use delve_rules::rules::party::Parties;
use std::fmt;

use super::{
    Deciding, DelveEnd, DoorMemory, Exploring, FallenMemory, GapMemory, LevelGoal, LightMemory,
    PartyMind, PartyMinds, WalkMemory, party_members,
};

/// Why a party cannot be handed to a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutonomyRefusal {
    /// The policy names someone who is not in the party.
    NotInParty { name: String },
    /// The party is not under a policy.
    NotAutonomous,
    /// The delve has ended.
    DelveOver,
}

impl Reason for AutonomyRefusal {}

impl fmt::Display for AutonomyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutonomyRefusal::NotInParty { name } => {
                write!(f, "the policy names {name}, who is not in the party")
            }
            AutonomyRefusal::NotAutonomous => write!(f, "the party is not under its policy"),
            AutonomyRefusal::DelveOver => write!(f, "the delve is over"),
        }
    }
}

/// The party hands itself to its policy: the way in is where its leader stands now.
pub(super) fn hand_over(
    world: &mut World,
    party: &str,
    policy: PartyPolicy,
) -> Result<(), Refusal> {
    if world.resource::<DelveEnd>().0.is_some() {
        return Err(AutonomyRefusal::DelveOver.into());
    }
    let p = world
        .resource::<Parties>()
        .get(party)
        .cloned()
        .ok_or_else(|| Unable::NoParty {
            name: party.to_owned(),
        })?;
    let names: Vec<String> = p
        .marching_order
        .iter()
        .map(|&m| delve_rules::creature::name_of(world, m))
        .collect();
    for n in policy
        .marching_order
        .iter()
        .flatten()
        .chain(&policy.light_bearer)
    {
        if !names.contains(n) {
            return Err(AutonomyRefusal::NotInParty { name: n.clone() }.into());
        }
    }
    let leader = p.leader().ok_or(Unable::NoParty {
        name: party.to_owned(),
    })?;
    let way_in = delve_rules::act::square_of(world, leader)?;
    let faction = *world.get::<Faction>(leader).ok_or(Unable::NoSquare)?;
    // A party led by its policy does not wait for orders in a battle: the policy leaves the
    // blows to its members' battle minds (`WaitForOrders` given before is let go).
    delve_rules::rules::combat::battle::wait_for_orders(world, party, false)?;
    let goal = world.resource::<LevelGoal>().0.clone();
    let fuel_at_start = crate::policy::outcome::fuel_rounds(world, &p.marching_order);
    let since = world.resource::<EventLog>().len();
    let goal_room = match goal {
        Goal::Room(p) => world.resource::<DungeonGrid>().room_of(p),
        _ => Vec::new(),
    };
    let mind = PartyMind {
        party: party.to_owned(),
        faction,
        policy,
        goal,
        way_in,
        since,
        fuel_at_start,
        cursor: since,
        alarm: false,
        dangers: Vec::new(),
        beyond: Vec::new(),
        coming_on: None,
        falling_back: None,
        fell_back: Default::default(),
        judged: Vec::new(),
        quarry: Vec::new(),
        held: None,
        homeward: None,
        door_memory: DoorMemory::default(),
        exploring: Exploring {
            goal_room,
            ..Exploring::default()
        },
        walking: WalkMemory::default(),
        fallen_memory: FallenMemory::default(),
        gap_memory: GapMemory {
            narrowest_ledge: narrowest_ledge(world),
            has_squeezes: has_squeezes(world),
            ..GapMemory::default()
        },
        light_memory: LightMemory::default(),
        tasks: Default::default(),
        deciding: Deciding::default(),
        map_stowed_by: None,
    };
    let mut minds = world.resource_mut::<PartyMinds>();
    minds.0.retain(|m| m.party != party);
    minds.0.push(mind);
    Ok(())
}

pub(super) fn take_back(world: &mut World, party: &str) -> Result<(), Refusal> {
    let mut minds = world.resource_mut::<PartyMinds>();
    let before = minds.0.len();
    minds.0.retain(|m| m.party != party);
    if minds.0.len() == before {
        return Err(AutonomyRefusal::NotAutonomous.into());
    }
    let members = party_members(world, party);
    for m in members {
        world.entity_mut(m).remove::<(Retreating, FightsTogether)>();
    }
    Ok(())
}
