//! A door as the rules keep it (Dungeon Delves › Doors and Dungeonbashing), and the door at a
//! square.

use bevy::prelude::*;

use crate::creature::Position;
use delve_ground::grid::GridPos;
use delve_ground::level::DoorSpec;
use delve_ground::query_cache::read_query;

/// A door (Dungeon Delves › Doors and Dungeonbashing): as the level file describes it (its
/// fields are read through it: `door.lock`, `door.spikes`), and whether it was battered down.
#[derive(Component, Clone, Debug, PartialEq, Eq, Deref, DerefMut)]
pub struct Door {
    #[deref]
    pub spec: DoorSpec,
    /// Battered or broken down: it stands open for good.
    pub broken: bool,
    /// Structural hit points it has lost to attacks (the doors table's SHP).
    pub structural_damage: u32,
}

impl From<&DoorSpec> for Door {
    /// The door as the level file describes it, not yet battered down.
    fn from(spec: &DoorSpec) -> Self {
        Self {
            spec: spec.clone(),
            broken: false,
            structural_damage: 0,
        }
    }
}

impl Door {
    /// Structural hit points left; `None` for a door the table gives none (a lead glass
    /// window: any damaging hit breaks it).
    pub fn structural_hp_left(&self) -> Option<u32> {
        self.material
            .structural_hp()
            .map(|hp| hp.saturating_sub(self.structural_damage))
    }
}

/// The door at `at`, as it is now.
pub fn door_here(world: &mut World, at: GridPos) -> Option<Door> {
    door_at(world, at).map(|(_, d)| d)
}

/// The door a creature stands next to at `at`, with its entity.
pub(super) fn door_at(world: &mut World, at: GridPos) -> Option<(Entity, Door)> {
    read_query(world, |q: Query<(Entity, &Position, &Door)>| {
        q.iter()
            .find(|(_, p, _)| p.0 == at)
            .map(|(e, _, d)| (e, d.clone()))
    })
    .flatten()
}
