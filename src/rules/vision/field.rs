//! The squares in a creature's line of sight, kept while it stands still: a bit a square over
//! the field's bounding box. A creature on an open floor of a million squares once kept 12 MB
//! of them (a square and its distance each, and as much again reserved for what it saw); as
//! bits it keeps 125 KB, and in a room no more than the room.

use crate::grid::los::shadowcast;
use crate::grid::{DungeonGrid, GridPos};

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
        };
        for &p in stamp.iter() {
            let (word, bit) = field.slot(p).expect("within the box");
            field.bits[word] |= 1 << bit;
        }
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

    /// How many squares are in line of sight.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::test_grid;

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
}
