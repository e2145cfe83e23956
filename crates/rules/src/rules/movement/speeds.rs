//! Speeds (Dungeon Delves › Speed and Distance; RULINGS › Encumbrance and speed): the three
//! paces, the speed table by encumbrance, and what terrain costs to cross.

use crate::creature::SwimmingSpeed;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::creature::Conditions;
use delve_ground::grid::distance::step_feet;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain, WaterDepth};
use delve_ground::level::SpeedBasis;
use delve_ground::level::schema::ConditionKind;
use delve_ground::time::ROUNDS_PER_TURN;

/// The three basic speeds (Dungeon Delves › Speed and Distance).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
pub enum Pace {
    /// Feet per turn: cautious, quiet, mapping.
    #[default]
    Exploration,
    /// Feet per round: a brief hustle.
    Combat,
    /// Feet per round: the fastest pace.
    Running,
}

impl fmt::Display for Pace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pace::Exploration => "exploration",
            Pace::Combat => "combat",
            Pace::Running => "running",
        })
    }
}

impl Pace {
    pub const ALL: &'static [Pace] = <Pace as strum::VariantArray>::VARIANTS;

    /// The next pace, for a key that cycles through them.
    pub fn next(self) -> Pace {
        match self {
            Pace::Exploration => Pace::Combat,
            Pace::Combat => Pace::Running,
            Pace::Running => Pace::Exploration,
        }
    }
}

/// A creature's three speeds in feet (exploration per turn, combat and running per round),
/// after blindness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Speeds {
    /// Feet per turn.
    pub exploration: u32,
    /// Feet per round.
    pub combat: u32,
    /// Feet per round.
    pub running: u32,
    /// Blinded creatures move at one third speed (Dungeon Delves › Light and Darkness).
    pub blinded: bool,
}

impl Speeds {
    /// RULINGS › Encumbrance and speed: the speed table by encumbrance in stone, or an explicit
    /// speed used as exploration and running speed with a third of it as combat speed.
    /// `None` when the creature cannot move (over 20 stone).
    pub fn from_basis(basis: SpeedBasis) -> Option<Speeds> {
        let (exploration, combat, running) = match basis {
            SpeedBasis::Explicit { feet } => (feet, feet / 3, feet),
            SpeedBasis::Encumbrance { stone } => {
                let band = encumbrance_band(stone)?;
                (band.exploration, band.combat, band.running)
            }
        };
        Some(Speeds {
            exploration,
            combat,
            running,
            blinded: false,
        })
    }

    /// The speeds of a creature under its conditions.
    pub fn of(basis: SpeedBasis, conditions: &Conditions) -> Option<Speeds> {
        Speeds::from_basis(basis).map(|s| Speeds {
            blinded: conditions.has(ConditionKind::Blinded),
            ..s
        })
    }

    /// Tenths of a foot gained per round at a pace: exploration moves one tenth of its per-turn
    /// speed each round; blindness divides by three.
    pub fn tenths_per_round(&self, pace: Pace) -> u32 {
        let tenths = match pace {
            Pace::Exploration => self.exploration * 10 / ROUNDS_PER_TURN as u32,
            Pace::Combat => self.combat * 10,
            Pace::Running => self.running * 10,
        };
        if self.blinded { tenths / 3 } else { tenths }
    }

    /// Feet per round at a pace, as a number for people (blinded speeds are thirds).
    pub fn feet_per_round(&self, pace: Pace) -> f32 {
        self.tenths_per_round(pace) as f32 / 10.0
    }

    /// Feet per turn at exploration pace, per round at the others, after blindness.
    pub fn rated(&self, pace: Pace) -> f32 {
        let base = match pace {
            Pace::Exploration => self.exploration,
            Pace::Combat => self.combat,
            Pace::Running => self.running,
        } as f32;
        if self.blinded { base / 3.0 } else { base }
    }
}

/// A row of the speed table (RULINGS › Encumbrance and speed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EncumbranceBand {
    /// The most stone carried in this row.
    pub most_stone: f32,
    /// Feet per turn.
    pub exploration: u32,
    /// Feet per round.
    pub combat: u32,
    /// Feet per round.
    pub running: u32,
    /// The row in words.
    pub words: &'static str,
}

/// The speed table: over 20 stone, a creature cannot move.
pub const SPEED_TABLE: [EncumbranceBand; 4] = [
    EncumbranceBand {
        most_stone: 5.0,
        exploration: 120,
        combat: 40,
        running: 120,
        words: "up to 5 stone",
    },
    EncumbranceBand {
        most_stone: 7.0,
        exploration: 90,
        combat: 30,
        running: 90,
        words: "over 5, up to 7 stone",
    },
    EncumbranceBand {
        most_stone: 10.0,
        exploration: 60,
        combat: 20,
        running: 60,
        words: "over 7, up to 10 stone",
    },
    EncumbranceBand {
        most_stone: 20.0,
        exploration: 30,
        combat: 10,
        running: 30,
        words: "over 10, up to 20 stone",
    },
];

/// The speed table's row for a load, or `None` over 20 stone (it cannot move).
pub fn encumbrance_band(stone: f32) -> Option<&'static EncumbranceBand> {
    SPEED_TABLE.iter().find(|b| stone <= b.most_stone)
}

/// How many times its width entering a square costs: difficult terrain (rubble) double
/// (RULINGS › Encumbrance and speed); water over the head four times, since swimming is at
/// one quarter of the normal rate (Dungeon Delves › Swimming). The rules give no slowing for
/// wading, so shallower water costs its width.
pub fn terrain_cost(t: Terrain) -> u32 {
    match t {
        Terrain::Rubble => 2,
        Terrain::Water(WaterDepth::Deep) => 4,
        _ => 1,
    }
}

/// What a foot of water over the head costs a creature, in tenths of a foot of movement
/// (Dungeon Delves › Swimming): 40 — four times its width — for one that swims by the
/// Swimming throw at a quarter of its speed; for one with a swimming speed, its (running) speed
/// over its swimming speed, so it swims at that speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaterCost(pub u32);

impl Default for WaterCost {
    fn default() -> Self {
        Self(10 * terrain_cost(Terrain::Water(WaterDepth::Deep)))
    }
}

impl WaterCost {
    /// The share of its speed a swimmer makes afloat: a quarter, or its swimming speed's share.
    pub fn share(self) -> f32 {
        10.0 / self.0 as f32
    }

    /// The cost for a creature of these speeds and this swimming speed, if any.
    pub fn of(basis: SpeedBasis, swim: Option<&SwimmingSpeed>) -> Self {
        match (swim, Speeds::from_basis(basis)) {
            (Some(s), Some(speeds)) if s.0 > 0 => Self((speeds.running * 10).div_ceil(s.0).max(1)),
            _ => Self::default(),
        }
    }
}

/// The throw a walker makes to enter a square of this terrain, if any: a squeeze (Dungeon
/// Delves › Squeezing) or water over its head (› Swimming).
pub fn throw_to_enter(t: Terrain) -> Option<&'static str> {
    match t {
        Terrain::Squeeze => Some("Squeezing"),
        Terrain::Water(WaterDepth::Deep) => Some("Swimming"),
        _ => None,
    }
}

/// What a step of `step` feet into `to` costs, in tenths of a foot of movement: its length
/// times the terrain's cost (deep water's cost the mover's own).
pub(crate) fn step_cost(grid: &DungeonGrid, to: GridPos, step: u32, water: WaterCost) -> u32 {
    match grid.terrain(to).unwrap_or(Terrain::Rock) {
        Terrain::Water(WaterDepth::Deep) => step * water.0,
        t => step * 10 * terrain_cost(t),
    }
}

/// What walking a whole path costs, in tenths of a foot of movement (the 5-10-5 rule for
/// diagonals, the terrain's cost for each square entered): what [`take_steps`] spends.
pub fn path_cost(grid: &DungeonGrid, path: &[GridPos], water: WaterCost) -> u32 {
    let mut odd = false;
    let mut cost = 0;
    for w in path.windows(2) {
        let diagonal = w[0].x != w[1].x && w[0].y != w[1].y;
        cost += step_cost(
            grid,
            w[1],
            step_feet(diagonal, odd, grid.scale_feet()),
            water,
        );
        odd ^= diagonal;
    }
    cost
}

/// Is this difficult terrain (for running)?
pub(crate) fn is_difficult(t: Terrain) -> bool {
    t == Terrain::Rubble
}
