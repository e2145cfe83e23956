//! The map put away for a fight (Dungeon Delves › Marching and Mapping: the mapper "must use
//! both hands for mapping … and suffers from the vulnerable condition due to distraction"): a
//! careful party's mapper puts the map away when a fight begins — both hands for the fight, no
//! longer vulnerable — and takes it up again once the fight is over (`stow_map_in_fights`).

use delve_ground::level::schema::ConditionKind;
use delve_rules::act::AnyAct;
use delve_rules::creature::{Conditions, CreatureIndex};

use bevy::prelude::*;

use super::{PartyMind, is_up};
use delve_rules::act::PendingCommands;
use delve_rules::command::acts::Mapper;
use delve_rules::rules::party::Parties;

/// With a foe at hand (in a fight, or a foe up in sight: the order is carried out the round
/// after, before the foe's blows), the mapper's map is put away; after, the one who put it away
/// takes it up again if it is up (a mapper killed in the fight leaves the party without one).
pub(super) fn stow_the_map(world: &mut World, mind: &mut PartyMind, foe_at_hand: bool) {
    if !mind.policy.stow_map_in_fights {
        return;
    }
    let mapper = world
        .resource::<Parties>()
        .get(&mind.party)
        .and_then(|p| p.mapper);
    let who = match (foe_at_hand, mapper, &mind.map_stowed_by) {
        (true, Some(m), None) => {
            mind.map_stowed_by = Some(super::name(world, m));
            None
        }
        (false, None, Some(name)) => {
            let index = world.resource::<CreatureIndex>();
            let Some(&e) = index.0.get(name) else {
                mind.map_stowed_by = None;
                return;
            };
            if world
                .get::<Conditions>(e)
                .is_some_and(|c| c.has(ConditionKind::Dead))
            {
                mind.map_stowed_by = None;
                return;
            }
            if !is_up(world, e) {
                return;
            }
            mind.map_stowed_by.take()
        }
        _ => return,
    };
    world
        .resource_mut::<PendingCommands>()
        .push_derived(AnyAct::from(Mapper {
            party: mind.party.clone(),
            who,
        }));
}
