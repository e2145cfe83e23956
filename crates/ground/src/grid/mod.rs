//! The dungeon as dense arrays: terrain, what blocks movement, sight and sound, and the geometry
//! the rules measure in feet.

pub mod distance;
pub mod los;
pub mod path;
pub mod terrain;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub use terrain::{DoorState, Terrain, WallMaterial, WaterDepth};

pub use distance::distance_feet;

/// A square: x the column from the left, y the row from the top, both from 0.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct GridPos {
    pub x: i32,
    pub y: i32,
}

impl GridPos {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Squares apart, a diagonal step counting as one (the Chebyshev distance): 0 on the same
    /// square, 1 on any of the eight around it.
    #[inline]
    pub fn chebyshev(self, other: GridPos) -> u32 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// Is `other` one of the eight squares around this one (not this square itself)?
    #[inline]
    pub fn is_adjacent(self, other: GridPos) -> bool {
        self.chebyshev(other) == 1
    }

    /// Is `other` this square or one of the eight around it (within a step, within reach)?
    #[inline]
    pub fn within_a_step(self, other: GridPos) -> bool {
        self.chebyshev(other) <= 1
    }

    /// The eight neighbours, orthogonal ones first.
    #[inline]
    pub fn neighbours(self) -> [GridPos; 8] {
        let GridPos { x, y } = self;
        [
            GridPos::new(x + 1, y),
            GridPos::new(x - 1, y),
            GridPos::new(x, y + 1),
            GridPos::new(x, y - 1),
            GridPos::new(x + 1, y + 1),
            GridPos::new(x - 1, y + 1),
            GridPos::new(x + 1, y - 1),
            GridPos::new(x - 1, y - 1),
        ]
    }
}

impl fmt::Display for GridPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl std::str::FromStr for GridPos {
    type Err = String;

    /// Parses `X,Y` as written on the command line.
    fn from_str(s: &str) -> Result<Self, String> {
        let (x, y) = s
            .split_once(',')
            .ok_or_else(|| format!("`{s}` is not a square: write X,Y (like 3,4)"))?;
        let parse = |v: &str, what: &str| {
            v.trim()
                .parse::<i32>()
                .map_err(|_| format!("`{v}` is not a whole number for {what} in `{s}`"))
        };
        Ok(GridPos::new(parse(x, "X")?, parse(y, "Y")?))
    }
}

/// Sound cost of a square that sound cannot cross (rock).
pub const SOUND_BLOCKED: u16 = u16::MAX;

/// The level's squares as flat arrays, indexed `y * width + x`.
///
/// `passable`, `opaque` and `sound_cost` are derived from the terrain and the state of the doors;
/// door rules call [`DungeonGrid::set_door`] when a door opens or closes.
#[derive(Resource, Clone, Debug)]
pub struct DungeonGrid {
    width: u32,
    height: u32,
    scale_feet: u32,
    terrain: Vec<Terrain>,
    passable: Vec<bool>,
    opaque: Vec<bool>,
    sound_cost: Vec<u16>,
    /// Bumped whenever a door opens or closes, so that cached lines of sight know to renew.
    generation: u64,
}

impl DungeonGrid {
    /// A grid from terrain rows (all of `width`). Door squares start closed.
    pub fn new(width: u32, height: u32, scale_feet: u32, terrain: Vec<Terrain>) -> Self {
        assert_eq!(terrain.len(), (width * height) as usize);
        let n = terrain.len();
        let mut grid = Self {
            width,
            height,
            scale_feet,
            terrain,
            passable: vec![false; n],
            opaque: vec![true; n],
            sound_cost: vec![SOUND_BLOCKED; n],
            generation: 0,
        };
        for i in 0..n {
            grid.derive(i, DoorState::Closed);
        }
        grid
    }

    fn derive(&mut self, i: usize, door: DoorState) {
        let scale = self.scale_feet.min(u16::MAX as u32 / 10) as u16;
        let t = self.terrain[i];
        let closed_door = t == Terrain::Door && door == DoorState::Closed;
        self.passable[i] = match t {
            Terrain::Floor | Terrain::Rubble | Terrain::Water(_) | Terrain::Squeeze => true,
            Terrain::Door => !closed_door,
            Terrain::Chasm { .. } | Terrain::Ledge { .. } | Terrain::Wall(_) | Terrain::Rock => {
                false
            }
        };
        self.opaque[i] = matches!(t, Terrain::Wall(_) | Terrain::Rock) || closed_door;
        // LEVEL_FORMAT.md › Terrain, sound column.
        self.sound_cost[i] = match t {
            Terrain::Rock => SOUND_BLOCKED,
            Terrain::Wall(WallMaterial::Stone) => scale.saturating_mul(10),
            Terrain::Wall(WallMaterial::Wood) => scale + 5,
            Terrain::Door if closed_door => scale + 5,
            _ => scale,
        };
    }

    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Feet per square (LEVEL_FORMAT.md › `scale_feet`).
    #[inline]
    pub fn scale_feet(&self) -> u32 {
        self.scale_feet
    }

    #[inline]
    pub fn in_bounds(&self, p: GridPos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height
    }

    /// The flat index of an in-bounds square.
    #[inline]
    pub fn index(&self, p: GridPos) -> Option<usize> {
        self.in_bounds(p)
            .then(|| p.y as usize * self.width as usize + p.x as usize)
    }

    #[inline]
    pub fn pos_of(&self, i: usize) -> GridPos {
        GridPos::new(
            (i % self.width as usize) as i32,
            (i / self.width as usize) as i32,
        )
    }

    #[inline]
    pub fn terrain(&self, p: GridPos) -> Option<Terrain> {
        self.index(p).map(|i| self.terrain[i])
    }

    /// Can a creature stand here (and step in)? Outside the map: no.
    #[inline]
    pub fn is_passable(&self, p: GridPos) -> bool {
        self.index(p).is_some_and(|i| self.passable[i])
    }

    /// Does this square block sight and light? Outside the map: yes.
    #[inline]
    pub fn is_opaque(&self, p: GridPos) -> bool {
        self.index(p).is_none_or(|i| self.opaque[i])
    }

    /// Feet of earshot distance that crossing this square counts as.
    #[inline]
    pub fn sound_cost(&self, p: GridPos) -> u16 {
        self.index(p).map_or(SOUND_BLOCKED, |i| self.sound_cost[i])
    }

    /// Opens or closes the door on a `Door` square; other squares are left alone.
    pub fn set_door(&mut self, p: GridPos, state: DoorState) {
        if let Some(i) = self.index(p)
            && self.terrain[i] == Terrain::Door
        {
            self.derive(i, state);
            self.generation += 1;
        }
    }

    /// Changes whenever what blocks sight, light, movement or sound changes.
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// All squares, row by row.
    pub fn squares(&self) -> impl Iterator<Item = (GridPos, Terrain)> + '_ {
        self.terrain
            .iter()
            .enumerate()
            .map(|(i, &t)| (self.pos_of(i), t))
    }

    /// Feet between two squares by the 5-10-5 rule.
    #[inline]
    pub fn distance_feet(&self, a: GridPos, b: GridPos) -> u32 {
        distance_feet(a, b, self.scale_feet)
    }
}

/// A grid from rows of `#` (stone wall), `+` (closed door) and anything else (floor), 5' squares:
/// the rules' tests draw their rooms with it.
pub fn test_grid(rows: &[&str]) -> DungeonGrid {
    let w = rows[0].len() as u32;
    let terrain = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '#' => Terrain::Wall(WallMaterial::Stone),
            '+' => Terrain::Door,
            _ => Terrain::Floor,
        })
        .collect();
    DungeonGrid::new(w, rows.len() as u32, 5, terrain)
}

impl DungeonGrid {
    /// The room that holds a square: the floor reached from it without passing a wall or a
    /// door (at most 4,096 squares: a cave's open reaches are not one room).
    pub fn room_of(&self, p: GridPos) -> Vec<GridPos> {
        let mut room = vec![p];
        let mut inside = std::collections::HashSet::from([p]);
        let mut i = 0;
        while i < room.len() && room.len() < 4096 {
            let q = room[i];
            i += 1;
            for r in q.neighbours() {
                let floor = self.is_passable(r) && self.terrain(r) != Some(Terrain::Door);
                if floor && inside.insert(r) {
                    room.push(r);
                }
            }
        }
        room
    }
}
