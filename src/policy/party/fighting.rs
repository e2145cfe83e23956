//! How the party fights (issue 33's "protect the vulnerable, focus on one foe"): in a battle the
//! fighting behaviour (`rules::combat::behaviour`) moves and strikes for every creature; a party
//! under its policy fights together ([`FightsTogether`]): of the enemies about as near as the
//! nearest, each member goes first for one next to a vulnerable companion (the mapper at his
//! map, the stuck, the drowning: Dungeon Delves › Mapping, › Squeezing, › Swimming and
//! Drowning) or a bloodied one, then for one a companion is already attacking.

use bevy::prelude::*;

use crate::rules::combat::behaviour::FightsTogether;

/// Every member of the party fights together while the party is under its policy.
pub(super) fn fight_together(world: &mut World, members: &[Entity]) {
    for &m in members {
        if world.get::<FightsTogether>(m).is_none() {
            world.entity_mut(m).insert(FightsTogether);
        }
    }
}
