//! Line of sight by symmetric shadowcasting (Albert Ford's algorithm): a square is seen when
//! its centre lies inside the lit sector of its row, so that if A sees B then B sees A for every
//! pair of squares that do not themselves block sight. Walls bounding a room are seen too.
//!
//! Slopes are kept as exact fractions of integers, and rows are scanned with an explicit stack.

use super::{DungeonGrid, GridPos};

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i32,
    den: i32,
}

#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i32,
    start: Slope,
    end: Slope,
}

/// floor(a / b) for b > 0.
#[inline]
fn div_floor(a: i32, b: i32) -> i32 {
    a.div_euclid(b)
}

impl Row {
    /// round_ties_up(depth * start) ..= round_ties_down(depth * end)
    #[inline]
    fn cols(&self) -> (i32, i32) {
        let Slope { num: sn, den: sd } = self.start;
        let Slope { num: en, den: ed } = self.end;
        // floor(depth*sn/sd + 1/2) = floor((2*depth*sn + sd) / (2*sd))
        let min = div_floor(2 * self.depth * sn + sd, 2 * sd);
        // ceil(depth*en/ed - 1/2) = -floor((ed - 2*depth*en) / (2*ed))
        let max = -div_floor(ed - 2 * self.depth * en, 2 * ed);
        (min, max)
    }

    /// Is the centre of column `col` within this row's sector?
    #[inline]
    fn is_symmetric(&self, col: i32) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }
}

/// The slope of a square's near left edge: (2·col − 1) / (2·depth).
#[inline]
fn edge_slope(depth: i32, col: i32) -> Slope {
    Slope {
        num: 2 * col - 1,
        den: 2 * depth,
    }
}

/// Calls `visit` once per square seen from `origin` within `radius` squares of depth (Chebyshev
/// distance), `origin` included. Squares outside the map block sight and are never visited.
/// Squares on the boundary between two quadrants may be visited twice.
pub fn shadowcast(
    grid: &DungeonGrid,
    origin: GridPos,
    radius: i32,
    mut visit: impl FnMut(GridPos),
) {
    shadowcast_with(
        |p| grid.is_opaque(p),
        |p| grid.in_bounds(p),
        origin,
        radius,
        &mut visit,
    );
}

/// [`shadowcast`] over any opacity function.
pub fn shadowcast_with(
    is_opaque: impl Fn(GridPos) -> bool,
    in_bounds: impl Fn(GridPos) -> bool,
    origin: GridPos,
    radius: i32,
    visit: &mut impl FnMut(GridPos),
) {
    if !in_bounds(origin) {
        return;
    }
    visit(origin);
    let mut stack: Vec<Row> = Vec::with_capacity(32);
    // North, east, south, west: (depth, col) → square.
    let transforms: [fn(GridPos, i32, i32) -> GridPos; 4] = [
        |o, d, c| GridPos::new(o.x + c, o.y - d),
        |o, d, c| GridPos::new(o.x + d, o.y + c),
        |o, d, c| GridPos::new(o.x + c, o.y + d),
        |o, d, c| GridPos::new(o.x - d, o.y + c),
    ];
    for transform in transforms {
        stack.push(Row {
            depth: 1,
            start: Slope { num: -1, den: 1 },
            end: Slope { num: 1, den: 1 },
        });
        while let Some(mut row) = stack.pop() {
            if row.depth > radius {
                continue;
            }
            let (min_col, max_col) = row.cols();
            let mut prev_wall: Option<bool> = None;
            for col in min_col..=max_col {
                let p = transform(origin, row.depth, col);
                let wall = is_opaque(p);
                if (wall || row.is_symmetric(col)) && in_bounds(p) {
                    visit(p);
                }
                if prev_wall == Some(true) && !wall {
                    row.start = edge_slope(row.depth, col);
                }
                if prev_wall == Some(false) && wall {
                    stack.push(Row {
                        depth: row.depth + 1,
                        start: row.start,
                        end: edge_slope(row.depth, col),
                    });
                }
                prev_wall = Some(wall);
            }
            if prev_wall == Some(false) {
                stack.push(Row {
                    depth: row.depth + 1,
                    start: row.start,
                    end: row.end,
                });
            }
        }
    }
}

/// Is there line of sight between two squares? Symmetric for squares that do not block sight.
pub fn line_of_sight(grid: &DungeonGrid, from: GridPos, to: GridPos) -> bool {
    if !grid.in_bounds(from) || !grid.in_bounds(to) {
        return false;
    }
    let radius = from.chebyshev(to) as i32;
    let mut seen = false;
    shadowcast(grid, from, radius, |p| seen |= p == to);
    seen
}

/// Every square seen from `origin` within `radius_feet` (5-10-5 distance), sorted row by row.
pub fn field_of_view(grid: &DungeonGrid, origin: GridPos, radius_feet: u32) -> Vec<GridPos> {
    let mut seen = Vec::new();
    let radius_squares = (radius_feet / grid.scale_feet().max(1)) as i32;
    shadowcast(grid, origin, radius_squares, |p| {
        if grid.distance_feet(origin, p) <= radius_feet {
            seen.push(p);
        }
    });
    seen.sort_unstable_by_key(|p| (p.y, p.x));
    seen.dedup();
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::test_grid as grid;

    #[test]
    fn open_room_is_all_visible() {
        let g = grid(&["#####", "#...#", "#...#", "#...#", "#####"]);
        let fov = field_of_view(&g, GridPos::new(2, 2), 100);
        assert_eq!(fov.len(), 25, "every square of a lit room, walls too");
    }

    #[test]
    fn walls_and_closed_doors_block() {
        let g = grid(&["#######", "#..#..#", "#..+..#", "#######"]);
        let a = GridPos::new(1, 2);
        assert!(line_of_sight(&g, a, GridPos::new(2, 1)));
        assert!(
            line_of_sight(&g, a, GridPos::new(3, 2)),
            "the door itself is seen"
        );
        assert!(!line_of_sight(&g, a, GridPos::new(4, 2)));
        let mut open = g.clone();
        open.set_door(GridPos::new(3, 2), crate::grid::DoorState::Open);
        assert!(line_of_sight(&open, a, GridPos::new(5, 2)));
    }

    #[test]
    fn pillar_casts_a_shadow_both_ways() {
        let g = grid(&[
            "...........",
            "...........",
            ".....#.....",
            "...........",
            "...........",
        ]);
        let a = GridPos::new(2, 2);
        let b = GridPos::new(8, 2);
        assert!(!line_of_sight(&g, a, b));
        assert!(!line_of_sight(&g, b, a));
        assert!(line_of_sight(&g, a, GridPos::new(8, 0)));
        assert!(line_of_sight(&g, GridPos::new(8, 0), a));
    }

    #[test]
    fn radius_limits_the_field() {
        let g = grid(&[".........................."]);
        let fov = field_of_view(&g, GridPos::new(0, 0), 50);
        assert_eq!(fov.len(), 11);
        assert_eq!(fov.last(), Some(&GridPos::new(10, 0)));
    }
}
