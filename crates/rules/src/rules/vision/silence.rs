//! Magical silence (Dungeon Delves › Light and Darkness: shadowy senses do not function "in an
//! area of magical darkness or magical silence"): the Judge's areas, set in the level file like
//! magical darkness, where a creature's shadowy senses fail.

use bevy::prelude::*;

use delve_ground::grid::{DungeonGrid, GridPos};

/// The squares of the level in magical silence.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct MagicalSilence(Vec<bool>);

impl MagicalSilence {
    /// The squares within `radius_feet` of each centre (the level file's `magical_silence`).
    pub fn of_areas(grid: &DungeonGrid, areas: &[(GridPos, u32)]) -> Self {
        let mut silent = vec![false; (grid.width() * grid.height()) as usize];
        for &(centre, radius) in areas {
            for (p, _) in grid.squares() {
                if grid.distance_feet(centre, p) <= radius
                    && let Some(i) = grid.index(p)
                {
                    silent[i] = true;
                }
            }
        }
        MagicalSilence(silent)
    }

    /// Whether the square `at` is in magical silence.
    pub fn at(&self, grid: &DungeonGrid, at: GridPos) -> bool {
        grid.index(at)
            .is_some_and(|i| self.0.get(i).copied().unwrap_or(false))
    }
}
