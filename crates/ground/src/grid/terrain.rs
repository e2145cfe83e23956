//! What a square is made of (LEVEL_FORMAT.md › Terrain): the plain terrain types the grid is
//! built from. The level file uses them as they are.

use serde::{Deserialize, Serialize};

/// What a legend character stands for (LEVEL_FORMAT.md › Terrain).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Floor,
    /// Difficult terrain.
    Rubble,
    Water(WaterDepth),
    /// A door; its properties are in `doors`.
    Door,
    Chasm {
        depth_feet: u32,
    },
    /// A chokepoint or squeeze (Dungeon Delves › Squeezing).
    Squeeze,
    /// A narrow path along a drop, this many inches wide (LEVEL_FORMAT.md › Caving features): 4"
    /// to 8" a narrow balancing traverse, 1" to 3" a precarious one, 0 (under ½") impassable.
    /// Crossed only by a traverse (Dungeon Delves › Balancing Traverse).
    Ledge {
        width_inches: u32,
    },
    Wall(WallMaterial),
    /// Unexcavated rock: never passable, blocks sight, light and sound.
    Rock,
}

/// How deep water stands (Situational Penalties › Being in Water). `Deep` is over the head and
/// needs swimming.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WaterDepth {
    Knee,
    Waist,
    Chest,
    Deep,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WallMaterial {
    Stone,
    Wood,
}

/// Whether a door stands open or closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DoorState {
    Open,
    #[default]
    Closed,
}
