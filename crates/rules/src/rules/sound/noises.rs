//! The noises made in a round, and the fields they carry through (Dungeon Delves › Listening;
//! RULINGS › Noise and hearing): what hearing hears, and what the window and tools show of the
//! last round.

use bevy::prelude::*;
use serde::Serialize;

use super::{Earshot, NoiseKind, SoundRow};
use delve_ground::grid::{DungeonGrid, GridPos};

/// A noise made this round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Noise {
    pub at: GridPos,
    pub sound: SoundRow,
    /// What made it.
    pub kind: NoiseKind,
    pub what: String,
    /// The creature that made it, if any (it does not "hear" itself).
    #[serde(skip)]
    pub maker: Option<Entity>,
    /// A shout that calls the maker's companions: they hear it within its earshot, without a
    /// throw, and come (`policy::monsters`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub call: bool,
}

/// This round's noises.
#[derive(Resource, Clone, Debug, Default)]
pub struct Noises(pub Vec<Noise>);

/// The noises of the last round played, for the window and tools to show.
#[derive(Resource, Clone, Debug, Default)]
pub struct LastRoundNoises(pub Vec<Noise>);

/// The propagation buffers, reused round after round. The last few floods are kept with what
/// they were made from: the same sources, bound and walls give the same flood (the din of a
/// battle where no one moves), so it is not made again.
#[derive(Resource, Clone, Debug, Default)]
pub struct EarshotField {
    floods: Vec<(FloodKey, Earshot)>,
}

/// What a flood was made from: its sources, its bound, and the walls' generation.
type FloodKey = (Vec<GridPos>, u32, u64);

/// How many floods are kept.
const KEPT_FLOODS: usize = 4;

impl EarshotField {
    /// The earshot field of `sources` within `bound`, made now or kept from before.
    pub fn flood(&mut self, grid: &DungeonGrid, sources: &[GridPos], bound: u32) -> &Earshot {
        let key = (sources.to_vec(), bound, grid.generation());
        if let Some(i) = self.floods.iter().position(|(k, _)| *k == key) {
            // Most recently used last.
            let kept = self.floods.remove(i);
            self.floods.push(kept);
        } else {
            let mut field = if self.floods.len() >= KEPT_FLOODS {
                self.floods.remove(0).1
            } else {
                Earshot::default()
            };
            field.propagate_many(grid, sources, bound);
            self.floods.push((key, field));
        }
        &self.floods.last().expect("just pushed").1
    }
}
