//! The squares in a creature's line of sight, kept while it stands still, and those of them it
//! sees. The field is a bit a square over its bounding box. A creature on an open floor of a million squares once kept 12 MB
//! of them (a square and its distance each, and as much again reserved for what it saw); as
//! bits it keeps 125 KB, and in a room no more than the room.

use super::Senses;
use crate::rules::light::{LightLevel, LightMap};
use delve_ground::grid::los::shadowcast;
use delve_ground::grid::{DungeonGrid, GridPos};

/// Every square in line of sight of a square, once each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LosField {
    /// The bounding box's top-left corner and width (in squares; its height is the rows of
    /// `bits`).
    x0: i32,
    y0: i32,
    width: u32,
    /// Row by row, each row `words` words of bits.
    words: u32,
    bits: Vec<u64>,
    /// How many bits are set.
    count: usize,
}

impl LosField {
    /// The squares in line of sight of `at`. `stamp` is scratch space (reused between calls;
    /// its contents do not matter).
    pub fn of(grid: &DungeonGrid, at: GridPos, stamp: &mut Vec<GridPos>) -> Self {
        stamp.clear();
        let radius = grid.width().max(grid.height()) as i32;
        let (mut lo, mut hi) = (at, at);
        shadowcast(grid, at, radius, |p| {
            if grid.in_bounds(p) {
                stamp.push(p);
                lo = GridPos::new(lo.x.min(p.x), lo.y.min(p.y));
                hi = GridPos::new(hi.x.max(p.x), hi.y.max(p.y));
            }
        });
        if stamp.is_empty() {
            return Self::default();
        }
        let width = (hi.x - lo.x + 1) as u32;
        let words = width.div_ceil(64);
        let rows = (hi.y - lo.y + 1) as usize;
        let mut field = Self {
            x0: lo.x,
            y0: lo.y,
            width,
            words,
            bits: vec![0; rows * words as usize],
            count: 0,
        };
        for &p in stamp.iter() {
            let (word, bit) = field.slot(p).expect("within the box");
            field.bits[word] |= 1 << bit;
        }
        field.count = field.bits.iter().map(|w| w.count_ones() as usize).sum();
        field
    }

    fn slot(&self, p: GridPos) -> Option<(usize, u32)> {
        let (dx, dy) = (p.x - self.x0, p.y - self.y0);
        let rows = self.bits.len() / self.words.max(1) as usize;
        if dx < 0 || dy < 0 || dx as u32 >= self.width || dy as usize >= rows {
            return None;
        }
        let word = dy as usize * self.words as usize + dx as usize / 64;
        Some((word, dx as u32 % 64))
    }

    /// Is the square in line of sight?
    pub fn contains(&self, p: GridPos) -> bool {
        self.slot(p)
            .is_some_and(|(word, bit)| self.bits[word] & (1 << bit) != 0)
    }

    /// The squares in line of sight, row by row.
    pub fn squares(&self) -> impl Iterator<Item = GridPos> + '_ {
        let words = self.words.max(1) as usize;
        self.bits.iter().enumerate().flat_map(move |(i, &w)| {
            let (row, col) = ((i / words) as i32, (i % words) as i32 * 64);
            Bits(w).map(move |b| GridPos::new(self.x0 + col + b as i32, self.y0 + row))
        })
    }

    /// Calls `visit` with each square in line of sight and its index in a grid `width` squares
    /// wide, row by row.
    pub fn for_each(&self, width: u32, mut visit: impl FnMut(GridPos, usize)) {
        let words = self.words.max(1) as usize;
        for (row, chunk) in self.bits.chunks(words).enumerate() {
            let y = self.y0 + row as i32;
            let row_start = y as usize * width as usize;
            for (k, &word) in chunk.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let b = w.trailing_zeros() as i32;
                    w &= w - 1;
                    let x = self.x0 + k as i32 * 64 + b;
                    visit(GridPos::new(x, y), row_start + x as usize);
                }
            }
        }
    }

    /// How many squares are in line of sight.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// Of the squares in line of sight of `at`, those seen, and as how lit.
pub(super) fn seen_in(
    grid: &DungeonGrid,
    light: &LightMap,
    field: &LosField,
    at: GridPos,
    senses: Senses,
) -> Vec<(GridPos, LightLevel)> {
    if senses.blinded {
        return Vec::new();
    }
    // What it can see is lit, or dark within its senses' reach. Where those are fewer than the
    // squares in its line of sight (a dark floor of a million squares and a torch), they are
    // looked at rather than the whole field: the same squares, in the same order (row by row).
    let reach = (senses.dark_reach_feet() / grid.scale_feet().max(1)) as i32;
    let lit: usize = light.footprints().map(|f| f.squares.len()).sum();
    let around = ((2 * reach + 1) * (2 * reach + 1)) as usize;
    if lit + around < field.len() / 4 {
        seen_by_light(grid, light, field, at, senses, reach)
    } else {
        seen_by_field(grid, light, field, at, senses)
    }
}

/// [`seen_in`] from the lit squares and those within `reach` squares.
fn seen_by_light(
    grid: &DungeonGrid,
    light: &LightMap,
    field: &LosField,
    at: GridPos,
    senses: Senses,
    reach: i32,
) -> Vec<(GridPos, LightLevel)> {
    let mut seen: Vec<(GridPos, LightLevel)> = Vec::new();
    for fp in light.footprints() {
        for &(i, _) in &fp.squares {
            let p = grid.pos_of(i as usize);
            if field.contains(p)
                && let how @ (LightLevel::Bright | LightLevel::Dim) = light.level_at(i as usize)
            {
                seen.push((p, how));
            }
        }
    }
    for y in at.y - reach..=at.y + reach {
        for x in at.x - reach..=at.x + reach {
            let p = GridPos::new(x, y);
            if field.contains(p)
                && light.level(grid, p) == LightLevel::Dark
                && senses.see_in_the_dark(grid.distance_feet(at, p))
            {
                seen.push((p, LightLevel::Dim));
            }
        }
    }
    seen.sort_unstable_by_key(|(p, _)| (p.y, p.x));
    seen.dedup_by_key(|(p, _)| *p);
    seen
}

/// [`seen_in`] square by square of the line of sight.
fn seen_by_field(
    grid: &DungeonGrid,
    light: &LightMap,
    field: &LosField,
    at: GridPos,
    senses: Senses,
) -> Vec<(GridPos, LightLevel)> {
    // (Reserved for a room's worth, not for the whole field: in the dark a creature sees a few
    // of its squares.)
    let mut seen = Vec::with_capacity(field.len().min(256));
    let senses_the_dark = senses.dark_reach_feet() > 0;
    field.for_each(grid.width(), |p, i| {
        let how = match light.level_at(i) {
            LightLevel::Bright => Some(LightLevel::Bright),
            LightLevel::Dim => Some(LightLevel::Dim),
            LightLevel::MagicalDarkness => None,
            LightLevel::Dark if !senses_the_dark => None,
            LightLevel::Dark => senses
                .see_in_the_dark(grid.distance_feet(at, p))
                .then_some(LightLevel::Dim),
        };
        if let Some(how) = how {
            seen.push((p, how));
        }
    });
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::grid::test_grid;

    /// The field holds exactly the squares the cast visits, and a big open floor's field is a
    /// bit a square of its box.
    #[test]
    fn the_field_is_the_cast_in_bits() {
        let g = test_grid(&["#######", "#..#..#", "#.....#", "#######"]);
        let at = GridPos::new(1, 1);
        let mut cast = Vec::new();
        shadowcast(&g, at, 10, |p| {
            if !cast.contains(&p) {
                cast.push(p)
            }
        });
        let field = LosField::of(&g, at, &mut Vec::new());
        let mut got: Vec<GridPos> = field.squares().collect();
        got.sort_by_key(|p| (p.y, p.x));
        cast.sort_by_key(|p| (p.y, p.x));
        assert_eq!(got, cast);
        assert_eq!(field.len(), cast.len());
        assert!(field.contains(at) && !field.contains(GridPos::new(6, 1)));
        let row = ".".repeat(300);
        let rows: Vec<&str> = (0..300).map(|_| row.as_str()).collect();
        let open = test_grid(&rows);
        let field = LosField::of(&open, GridPos::new(150, 150), &mut Vec::new());
        assert_eq!(field.len(), 90_000);
        assert_eq!(
            field.bits.capacity(),
            300 * 5,
            "five words a row of 300 squares"
        );
    }

    /// Seen from the lit squares and those within reach, or square by square of the line of
    /// sight: the same squares in the same order, on the crypt's creatures where they stand
    /// and on an open floor with a torch, with every kind of senses.
    #[test]
    fn seen_by_light_is_seen_by_field() {
        let crypt = delve_ground::level::load_level_file(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../levels/crypt.ron"
        )))
        .unwrap()
        .level;
        let row = ".".repeat(60);
        let rows: Vec<&str> = (0..60).map(|_| row.as_str()).collect();
        let open = test_grid(&rows);
        let mut open_light = LightMap::new(&open);
        open_light.place(
            &open,
            1,
            Some((
                GridPos::new(50, 40),
                delve_ground::level::schema::LightKind::Torch,
            )),
        );
        let mut places: Vec<(&DungeonGrid, LightMap, GridPos)> = Vec::new();
        for c in &crypt.creatures {
            places.push((&crypt.grid, LightMap::new(&crypt.grid), c.at));
        }
        let mut lit = LightMap::new(&crypt.grid);
        lit.place(
            &crypt.grid,
            1,
            Some((
                GridPos::new(2, 2),
                delve_ground::level::schema::LightKind::Lantern,
            )),
        );
        places.push((&crypt.grid, lit, GridPos::new(4, 2)));
        places.push((&open, open_light.clone(), GridPos::new(3, 3)));
        places.push((&open, open_light, GridPos::new(45, 45)));
        for (grid, light, at) in &places {
            let field = LosField::of(grid, *at, &mut Vec::new());
            for senses in [
                Senses::default(),
                Senses {
                    lightless_vision_feet: 60,
                    ..Senses::default()
                },
                Senses {
                    shadowy_senses: true,
                    ..Senses::default()
                },
            ] {
                let reach = (senses.lightless_vision_feet.max(30) / grid.scale_feet()) as i32;
                assert_eq!(
                    seen_by_light(grid, light, &field, *at, senses, reach),
                    seen_by_field(grid, light, &field, *at, senses),
                    "{at} {senses:?}"
                );
            }
        }
    }
}
