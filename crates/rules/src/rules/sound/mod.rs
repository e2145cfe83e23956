//! Noise (Dungeon Delves › Listening; RULINGS › Noise and hearing; LEVEL_FORMAT.md › Terrain).
//!
//! Earshot distance is the cheapest path from a noise to a listener, where crossing a square
//! counts as its width, +5' for a closed door (secret ones too) or a wooden wall, 10' per foot of
//! stone in place of its width, and rock stops sound. Diagonal steps count 5-10-5 as for walking
//! (RULINGS › Noise and hearing): every second diagonal adds one more square's width. Distances
//! are kept in half-feet so that the loud environment's 2.5' is exact.
//!
//! Propagation is Dial's algorithm: a bucket queue over integer distances, bounded by the
//! farthest distance that can matter, resetting only what it touched. Because a diagonal's cost
//! depends on how many diagonals came before, the search state is a square and the parity of the
//! diagonals taken to reach it (as in `grid::path`).

mod commands;
pub mod events;
use crate::rules::movement::Pace;

pub use commands::{Listen, MakeNoise, Noise, Sneak, SoundRefusal};
pub use events::{HearingEvent, HowHeard};

pub mod hearing;
pub mod noises;

use std::fmt;

use serde::{Deserialize, Serialize};

use delve_ground::grid::{DungeonGrid, GridPos, SOUND_BLOCKED};
use delve_ground::level::schema::Environment;

/// The rows of the Earshot by Sound and Environment table.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
pub enum SoundRow {
    /// Exploring, quiet spellcasting, sneaking, whispering.
    Quiet,
    /// Spellcasting, talking, walking.
    Normal,
    /// Fighting, hustling, shouting, singing.
    Loud,
    /// A blast spell.
    Blast,
    /// A deafening blast spell.
    #[value(name = "deafening")]
    DeafeningBlast,
}

impl fmt::Display for SoundRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SoundRow::Quiet => "quiet",
            SoundRow::Normal => "normal",
            SoundRow::Loud => "loud",
            SoundRow::Blast => "blast",
            SoundRow::DeafeningBlast => "deafening",
        })
    }
}

/// What makes noise (RULINGS › Noise and hearing, the earshot table's rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NoisyAction {
    Whispering,
    QuietSpellcasting,
    Talking,
    Spellcasting,
    Walking,
    Fighting,
    Shouting,
    Singing,
    Screaming,
    BashingADoor,
    BatteringADoor,
    ATrapGoingOff,
    AFall,
    BlastSpell,
    DeafeningBlastSpell,
}

impl NoisyAction {
    /// The action in words: "bashing a door".
    pub fn words(self) -> &'static str {
        use NoisyAction::*;
        match self {
            Whispering => "whispering",
            QuietSpellcasting => "casting a spell quietly",
            Talking => "talking",
            Spellcasting => "casting a spell",
            Walking => "walking",
            Fighting => "fighting",
            Shouting => "shouting",
            Singing => "singing",
            Screaming => "screaming",
            BashingADoor => "bashing a door",
            BatteringADoor => "battering a door",
            ATrapGoingOff => "setting off a trap",
            AFall => "falling",
            BlastSpell => "casting a blast spell",
            DeafeningBlastSpell => "casting a deafening blast",
        }
    }

    /// The earshot table's row for the action.
    pub fn row(self) -> SoundRow {
        use NoisyAction::*;
        match self {
            Whispering | QuietSpellcasting => SoundRow::Quiet,
            Talking | Spellcasting | Walking => SoundRow::Normal,
            Fighting | Shouting | Singing | Screaming | BashingADoor | BatteringADoor
            | ATrapGoingOff | AFall => SoundRow::Loud,
            BlastSpell => SoundRow::Blast,
            DeafeningBlastSpell => SoundRow::DeafeningBlast,
        }
    }
}

/// What made a noise: a creature moving at a pace, an action of the earshot table's rows, or the
/// Judge (any row, at any square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseKind {
    /// Moving: quiet at exploration speed, normal at combat speed, loud running.
    Moving(Pace),
    /// A creature's action: talking, shouting, fighting, bashing a door, a trap going off, …
    Action(NoisyAction),
    /// A noise the Judge (or a script) made.
    Judge,
}

impl fmt::Display for NoiseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoiseKind::Moving(pace) => write!(f, "moving at {pace} speed"),
            NoiseKind::Action(action) => f.write_str(action.words()),
            NoiseKind::Judge => f.write_str("the Judge's noise"),
        }
    }
}

const MILE: u32 = 5280;

/// The table in half-feet: (heard automatically within, heard with a Listening throw within).
/// `None` for "NA".
fn earshot_half_feet(row: SoundRow, env: Environment) -> (Option<u32>, u32) {
    use Environment as E;
    use SoundRow as S;
    let (auto, throw) = match (row, env) {
        (S::Quiet, E::Quiet) => (None, 20),
        (S::Quiet, E::Normal) => (None, 10),
        (S::Quiet, E::Loud) => (None, 5),
        (S::Normal, E::Quiet) => (Some(20), 160),
        (S::Normal, E::Normal) => (Some(10), 40),
        (S::Normal, E::Loud) => (Some(5), 20),
        (S::Loud, E::Quiet) => (Some(180), 1440),
        (S::Loud, E::Normal) => (Some(90), 360),
        (S::Loud, E::Loud) => (Some(60), 240),
        (S::Blast, E::Quiet) => (Some(360), 2400),
        (S::Blast, E::Normal) => (Some(180), 720),
        (S::Blast, E::Loud) => (Some(90), 360),
        (S::DeafeningBlast, E::Quiet) => (Some(8 * MILE), 30 * MILE),
        (S::DeafeningBlast, E::Normal) => (Some(2 * MILE), 8 * MILE),
        (S::DeafeningBlast, E::Loud) => (Some(2400), 2 * MILE),
    };
    (auto, throw)
}

/// How a noise reaches a listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Heard without a throw.
    Automatic,
    /// Heard only with a Listening throw.
    Throw,
    Inaudible,
}

impl Verdict {
    pub fn symbol(self) -> char {
        match self {
            Verdict::Automatic => 'A',
            Verdict::Throw => 't',
            Verdict::Inaudible => '.',
        }
    }
}

/// The verdict for a noise of `row` heard at an earshot distance (half-feet) in `env`.
pub fn verdict(row: SoundRow, env: Environment, half_feet: Option<u32>) -> Verdict {
    let Some(d) = half_feet else {
        return Verdict::Inaudible;
    };
    let (auto, throw) = earshot_half_feet(row, env);
    match auto {
        Some(a) if d <= a => Verdict::Automatic,
        _ if d <= throw => Verdict::Throw,
        _ => Verdict::Inaudible,
    }
}

const UNREACHED: u32 = u32::MAX;

/// Earshot distances from one noise, kept between noises so that only touched states are reset.
/// A state is a square and the parity of the diagonal steps taken to reach it: index
/// `2 × square + parity`.
#[derive(Clone, Debug, Default)]
pub struct Earshot {
    dist: Vec<u32>,
    /// For each state reached, which source (by index) it was reached from.
    origin: Vec<u16>,
    touched: Vec<u32>,
    buckets: Vec<Vec<u32>>,
    width: u32,
}

impl Earshot {
    fn cost(grid: &DungeonGrid, p: GridPos) -> Option<u32> {
        let c = grid.sound_cost(p);
        (c != SOUND_BLOCKED).then_some(c as u32 * 2)
    }

    /// Earshot distances from `source` to every square within `bound` half-feet.
    pub fn propagate(&mut self, grid: &DungeonGrid, source: GridPos, bound: u32) {
        self.propagate_many(grid, &[source], bound);
    }

    /// Earshot distances from the nearest of several sources of the same noise row (the blows
    /// of one side in a battle), with which source is nearest: one flood for them all.
    pub fn propagate_many(&mut self, grid: &DungeonGrid, sources: &[GridPos], bound: u32) {
        let n = 2 * (grid.width() * grid.height()) as usize;
        if self.dist.len() != n {
            self.dist = vec![UNREACHED; n];
            self.origin = vec![0; n];
            self.touched.clear();
        }
        for &i in &self.touched {
            self.dist[i as usize] = UNREACHED;
        }
        self.touched.clear();
        self.width = grid.width();
        // A second diagonal adds one square's width (5-10-5), in half-feet.
        let second_diagonal = grid.scale_feet() * 2;
        // The largest step: a second diagonal into stone, 10' per foot of a square's width plus
        // the width, in half-feet.
        let max_step = (grid.scale_feet() * 10 * 2 + second_diagonal) as usize + 1;
        if self.buckets.len() < max_step + 1 {
            self.buckets = vec![Vec::new(); max_step + 1];
        }
        let nb = self.buckets.len();
        for b in &mut self.buckets {
            b.clear();
        }
        let mut pending = 0usize;
        for (k, &source) in sources.iter().enumerate() {
            let Some(s) = grid.index(source) else {
                continue;
            };
            let s = 2 * s;
            if self.dist[s] == 0 {
                continue;
            }
            self.dist[s] = 0;
            self.origin[s] = k as u16;
            self.touched.push(s as u32);
            self.buckets[0].push(s as u32);
            pending += 1;
        }
        let mut d = 0u32;
        while pending > 0 && d <= bound {
            let slot = d as usize % nb;
            while let Some(state) = self.buckets[slot].pop() {
                pending -= 1;
                if self.dist[state as usize] != d {
                    continue;
                }
                let odd = state & 1;
                let p = grid.pos_of(state as usize / 2);
                for (k, q) in p.neighbours().into_iter().enumerate() {
                    let Some(j) = grid.index(q) else { continue };
                    let Some(c) = Self::cost(grid, q) else {
                        continue;
                    };
                    let diagonal = k >= 4;
                    if diagonal
                        && Self::cost(grid, GridPos::new(q.x, p.y)).is_none()
                        && Self::cost(grid, GridPos::new(p.x, q.y)).is_none()
                    {
                        continue;
                    }
                    let (step, parity) = match (diagonal, odd) {
                        (false, _) => (c, odd),
                        (true, 0) => (c, 1),
                        (true, _) => (c + second_diagonal, 0),
                    };
                    let nd = d + step;
                    let next = 2 * j + parity as usize;
                    if nd > bound || nd >= self.dist[next] {
                        continue;
                    }
                    if self.dist[next] == UNREACHED {
                        self.touched.push(next as u32);
                    }
                    self.dist[next] = nd;
                    self.origin[next] = self.origin[state as usize];
                    self.buckets[nd as usize % nb].push(next as u32);
                    pending += 1;
                }
            }
            d += 1;
        }
    }

    /// The nearer of a square's two states, if the last noise reached it.
    fn nearest_state(&self, grid: &DungeonGrid, p: GridPos) -> Option<usize> {
        let i = 2 * grid.index(p)?;
        let (even, odd) = (*self.dist.get(i)?, *self.dist.get(i + 1)?);
        let s = if odd < even { i + 1 } else { i };
        (self.dist[s] != UNREACHED).then_some(s)
    }

    /// The earshot distance in half-feet to a square, if the last noise reached it.
    pub fn half_feet(&self, grid: &DungeonGrid, p: GridPos) -> Option<u32> {
        self.nearest_state(grid, p).map(|s| self.dist[s])
    }

    /// Which source of the last propagation is nearest to a square it reached.
    pub fn nearest_source(&self, grid: &DungeonGrid, p: GridPos) -> Option<usize> {
        self.nearest_state(grid, p).map(|s| self.origin[s] as usize)
    }

    /// How many states (square and diagonal parity) the last propagation touched.
    pub fn touched(&self) -> usize {
        self.touched.len()
    }
}

/// The farthest a noise of this row can matter in this environment (its throw distance).
pub fn bound(row: SoundRow, env: Environment) -> u32 {
    earshot_half_feet(row, env).1
}

/// How a noise of `row` at `from` reaches every square of the grid (indexed like it): heard
/// automatically, with a Listening throw, or not at all, each by the earshot environment where
/// a listener there would stand (Dungeon Delves › Listening). `widest` is the environment in
/// which noises carry farthest anywhere on the level. The earshot field is left in `earshot`.
pub fn verdicts_from(
    grid: &DungeonGrid,
    earshot: &mut Earshot,
    from: GridPos,
    row: SoundRow,
    widest: Environment,
    environment_at: impl Fn(GridPos) -> Environment,
) -> Vec<Verdict> {
    earshot.propagate(grid, from, bound(row, widest));
    grid.squares()
        .map(|(p, _)| verdict(row, environment_at(p), earshot.half_feet(grid, p)))
        .collect()
}

/// Formats half-feet as feet: `15'` or `2.5'`.
pub fn feet(half_feet: u32) -> String {
    if half_feet.is_multiple_of(2) {
        format!("{}'", half_feet / 2)
    } else {
        format!("{}.5'", half_feet / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::grid::Terrain;
    use delve_ground::grid::WallMaterial;
    use delve_ground::grid::test_grid;

    #[test]
    fn actions_make_the_noise_of_their_row() {
        use NoisyAction::*;
        for a in [Whispering, QuietSpellcasting] {
            assert_eq!(a.row(), SoundRow::Quiet);
        }
        for a in [Talking, Spellcasting, Walking] {
            assert_eq!(a.row(), SoundRow::Normal);
        }
        for a in [
            Fighting,
            Shouting,
            Singing,
            Screaming,
            BashingADoor,
            BatteringADoor,
            ATrapGoingOff,
            AFall,
        ] {
            assert_eq!(a.row(), SoundRow::Loud, "{a:?}");
        }
        assert_eq!(BlastSpell.row(), SoundRow::Blast);
        assert_eq!(DeafeningBlastSpell.row(), SoundRow::DeafeningBlast);
    }

    #[test]
    fn every_cell_of_the_earshot_table() {
        use Environment::{Loud, Normal, Quiet};
        let mi = 5280;
        // (row, environment, automatic within, throw within), in half-feet: the book × 2.
        let table: [(SoundRow, Environment, Option<u32>, u32); 15] = [
            (SoundRow::Quiet, Quiet, None, 20),
            (SoundRow::Quiet, Normal, None, 10),
            (SoundRow::Quiet, Loud, None, 5),
            (SoundRow::Normal, Quiet, Some(20), 160),
            (SoundRow::Normal, Normal, Some(10), 40),
            (SoundRow::Normal, Loud, Some(5), 20),
            (SoundRow::Loud, Quiet, Some(180), 1440),
            (SoundRow::Loud, Normal, Some(90), 360),
            (SoundRow::Loud, Loud, Some(60), 240),
            (SoundRow::Blast, Quiet, Some(360), 2400),
            (SoundRow::Blast, Normal, Some(180), 720),
            (SoundRow::Blast, Loud, Some(90), 360),
            (SoundRow::DeafeningBlast, Quiet, Some(8 * mi), 30 * mi),
            (SoundRow::DeafeningBlast, Normal, Some(2 * mi), 8 * mi),
            (SoundRow::DeafeningBlast, Loud, Some(2400), 2 * mi),
        ];
        for (row, env, auto, throw) in table {
            assert_eq!(
                earshot_half_feet(row, env),
                (auto, throw),
                "{row} in {env:?}"
            );
            // At each boundary the verdict changes.
            if let Some(a) = auto {
                assert_eq!(verdict(row, env, Some(a)), Verdict::Automatic);
                assert_eq!(verdict(row, env, Some(a + 1)), Verdict::Throw);
            } else {
                assert_eq!(
                    verdict(row, env, Some(0)),
                    Verdict::Throw,
                    "NA: never automatic"
                );
            }
            assert_eq!(verdict(row, env, Some(throw)), Verdict::Throw);
            assert_eq!(verdict(row, env, Some(throw + 1)), Verdict::Inaudible);
        }
        // The book's numbers, in feet: talking 5'/20' in a normal dungeon, whispering NA/2.5'
        // in a loud one.
        assert_eq!(feet(earshot_half_feet(SoundRow::Normal, Normal).1), "20'");
        assert_eq!(feet(earshot_half_feet(SoundRow::Quiet, Loud).1), "2.5'");
    }

    fn distance(rows: &[&str], from: (i32, i32), to: (i32, i32)) -> Option<u32> {
        let g = test_grid(rows);
        let mut e = Earshot::default();
        e.propagate(&g, GridPos::new(from.0, from.1), 10_000);
        e.half_feet(&g, GridPos::new(to.0, to.1)).map(|d| d / 2)
    }

    #[test]
    fn a_closed_door_adds_five_feet_and_opening_it_removes_them() {
        assert_eq!(distance(&["....."], (0, 0), (4, 0)), Some(20));
        assert_eq!(distance(&["..+.."], (0, 0), (4, 0)), Some(25));
        // Talking behind one closed door in a normal dungeon: heard with a throw up to 15' of
        // true distance (20' of earshot), not at 20'.
        let g = test_grid(&["#######", "#..+..#", "#######"]);
        let mut e = Earshot::default();
        e.propagate(&g, GridPos::new(1, 1), 10_000);
        let v = |x| {
            verdict(
                SoundRow::Normal,
                Environment::Normal,
                e.half_feet(&g, GridPos::new(x, 1)),
            )
        };
        assert_eq!(
            v(4),
            Verdict::Throw,
            "15' of true distance: 5' + 10' (door) + 5' = 20'"
        );
        assert_eq!(
            v(5),
            Verdict::Inaudible,
            "20' of true distance: 25' of earshot"
        );
        let mut open = g.clone();
        open.set_door(GridPos::new(3, 1), delve_ground::grid::DoorState::Open);
        e.propagate(&open, GridPos::new(1, 1), 10_000);
        assert_eq!(
            e.half_feet(&open, GridPos::new(5, 1)),
            Some(40),
            "20' once it opens"
        );
    }

    /// RULINGS › Noise and hearing: diagonal steps count 5-10-5 for sound as for walking. A
    /// diagonal neighbour is 5' away, so talking beside someone diagonally in a normal dungeon is
    /// heard automatically (within 5').
    #[test]
    fn diagonals_count_five_ten_five() {
        let open = [".....", ".....", ".....", ".....", "....."];
        assert_eq!(distance(&open, (0, 0), (1, 1)), Some(5));
        assert_eq!(distance(&open, (0, 0), (2, 2)), Some(15));
        assert_eq!(distance(&open, (0, 0), (3, 3)), Some(20));
        assert_eq!(distance(&open, (0, 0), (4, 4)), Some(30));
        assert_eq!(
            distance(&open, (0, 0), (4, 2)),
            Some(25),
            "2 straight + 2 diagonal"
        );
        let g = test_grid(&open);
        let mut e = Earshot::default();
        e.propagate(&g, GridPos::new(0, 0), 10_000);
        assert_eq!(
            verdict(
                SoundRow::Normal,
                Environment::Normal,
                e.half_feet(&g, GridPos::new(1, 1))
            ),
            Verdict::Automatic
        );
    }

    #[test]
    fn walls_and_rock() {
        let wood = Terrain::Wall(WallMaterial::Wood);
        let stone = Terrain::Wall(WallMaterial::Stone);
        let line = |t: Terrain| DungeonGrid::new(3, 1, 5, vec![Terrain::Floor, t, Terrain::Floor]);
        for (t, expect) in [(wood, Some(15)), (stone, Some(55)), (Terrain::Rock, None)] {
            let g = line(t);
            let mut e = Earshot::default();
            e.propagate(&g, GridPos::new(0, 0), 10_000);
            assert_eq!(
                e.half_feet(&g, GridPos::new(2, 0)).map(|d| d / 2),
                expect,
                "{t:?}"
            );
        }
        // One square of 5'-thick stone counts 50': talking never crosses it in a normal dungeon,
        // fighting does (with a throw).
        let g = line(stone);
        let mut e = Earshot::default();
        e.propagate(&g, GridPos::new(0, 0), 10_000);
        let d = e.half_feet(&g, GridPos::new(2, 0));
        assert_eq!(
            verdict(SoundRow::Normal, Environment::Normal, d),
            Verdict::Inaudible
        );
        assert_eq!(
            verdict(SoundRow::Loud, Environment::Normal, d),
            Verdict::Throw
        );
    }

    #[test]
    fn the_bound_stops_the_flood_and_reuse_resets_only_what_was_touched() {
        let row = ".".repeat(200);
        let g = test_grid(&[row.as_str()]);
        let mut e = Earshot::default();
        e.propagate(&g, GridPos::new(0, 0), 40);
        assert_eq!(e.touched(), 5, "0', 5', 10', 15', 20'");
        assert_eq!(e.half_feet(&g, GridPos::new(5, 0)), None);
        e.propagate(&g, GridPos::new(199, 0), 40);
        assert_eq!(
            e.half_feet(&g, GridPos::new(0, 0)),
            None,
            "the old noise is gone"
        );
        assert_eq!(e.half_feet(&g, GridPos::new(197, 0)), Some(20));
    }
}
