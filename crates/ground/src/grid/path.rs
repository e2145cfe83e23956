//! Shortest walks between squares, measured in feet by the 5-10-5 rule.
//!
//! Every second diagonal step costs double (see [`find_path_with`] for how the search counts
//! them). A diagonal step may not cut a corner: both orthogonal squares beside it must be
//! passable.

use std::cell::RefCell;

use serde::Serialize;

use super::distance::step_feet;
use super::{DungeonGrid, GridPos};

/// A walk from its first square to its last, with its length in feet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Path {
    pub squares: Vec<GridPos>,
    pub feet: u32,
}

/// The cheapest walk from `from` to `to` over passable squares, or `None` when there is none.
/// `from` itself need not be passable (a creature may stand in an open doorway that then closes).
pub fn find_path(grid: &DungeonGrid, from: GridPos, to: GridPos) -> Option<Path> {
    find_path_with(grid, from, to, |p| grid.is_passable(p))
}

/// What the search knows of a square. It counts only when `search` is this search's, so nothing
/// is cleared between searches.
#[derive(Clone, Copy, Default)]
struct Node {
    search: u32,
    closed: bool,
    /// The cheapest cost found to it, in half squares.
    best: u32,
    /// The square it was reached from (`u32::MAX` for the start).
    parent: u32,
}

/// The search's working arrays, kept between searches on a thread.
#[derive(Default)]
struct Scratch {
    search: u32,
    nodes: Vec<Node>,
    /// Open squares by their estimated total in half squares; each bucket is taken last in,
    /// first out, so among equal estimates the newest — the nearest the goal — goes first.
    buckets: Vec<Vec<u32>>,
}

impl Scratch {
    fn begin(&mut self, squares: usize) {
        if self.nodes.len() < squares {
            self.nodes.resize(squares, Node::default());
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.nodes.fill(Node::default());
            self.search = 1;
        }
        for b in &mut self.buckets {
            b.clear();
        }
    }

    fn push(&mut self, estimate: u32, square: u32) {
        let f = estimate as usize;
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        self.buckets[f].push(square);
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// [`find_path`] with a caller's notion of which squares may be entered.
///
/// A jump point search (A* that skips the squares of straight runs where no other way could be
/// shorter) over the grid's dense arrays. It counts an orthogonal step as 2 half squares and a
/// diagonal as 3: a walk of `o` orthogonal and `d` diagonal steps then counts `2o + 3d`, and its
/// length by the 5-10-5 rule is `o + d + ⌊d/2⌋` squares — half the count, rounded down. The walk
/// of least count is therefore also the shortest by the 5-10-5 rule, without tracking the
/// parity of the diagonals; the octile estimate `2·long + short` never overestimates, and with
/// integer estimates the open squares sit in buckets. Diagonal steps never cut a corner, so the
/// jumps follow the rules for grids where a diagonal needs both sides open.
pub fn find_path_with(
    grid: &DungeonGrid,
    from: GridPos,
    to: GridPos,
    can_enter: impl Fn(GridPos) -> bool,
) -> Option<Path> {
    if !grid.in_bounds(from) || !grid.in_bounds(to) || !can_enter(to) {
        return None;
    }
    let width = grid.width() as usize;
    let square_of = |i: usize| GridPos::new((i % width) as i32, (i / width) as i32);
    let index_of = |p: GridPos| p.y as usize * width + p.x as usize;
    let estimate = |p: GridPos| {
        let dx = p.x.abs_diff(to.x);
        let dy = p.y.abs_diff(to.y);
        2 * dx.max(dy) + dx.min(dy)
    };
    let open = |x: i32, y: i32| {
        let p = GridPos::new(x, y);
        grid.in_bounds(p) && can_enter(p)
    };
    let mut next_steps: Vec<(i32, i32)> = Vec::with_capacity(8);
    SCRATCH.with_borrow_mut(|s| {
        s.begin(width * grid.height() as usize);
        let search = s.search;
        let start = index_of(from);
        s.nodes[start] = Node {
            search,
            closed: false,
            best: 0,
            parent: u32::MAX,
        };
        let mut cursor = estimate(from) as usize;
        s.push(cursor as u32, start as u32);
        let goal = index_of(to);
        loop {
            while cursor < s.buckets.len() && s.buckets[cursor].is_empty() {
                cursor += 1;
            }
            let i = s.buckets.get_mut(cursor)?.pop()? as usize;
            if s.nodes[i].closed {
                continue;
            }
            s.nodes[i].closed = true;
            if i == goal {
                return Some(walk_back(s, goal, square_of, grid.scale_feet()));
            }
            let at = square_of(i);
            let cost = s.nodes[i].best;
            let came = match s.nodes[i].parent {
                u32::MAX => None,
                k => {
                    let p = square_of(k as usize);
                    Some(((at.x - p.x).signum(), (at.y - p.y).signum()))
                }
            };
            pruned_steps(at, came, &open, &mut next_steps);
            for &(dx, dy) in &next_steps {
                let Some(jp) = jump(at, (dx, dy), to, &open) else {
                    continue;
                };
                let n = at.chebyshev(jp);
                let next = cost + n * if dx != 0 && dy != 0 { 3 } else { 2 };
                let j = index_of(jp);
                let node = &mut s.nodes[j];
                if node.search == search && (node.closed || node.best <= next) {
                    continue;
                }
                *node = Node {
                    search,
                    closed: false,
                    best: next,
                    parent: i as u32,
                };
                let f = (next + estimate(jp)) as usize;
                s.push(f as u32, j as u32);
                cursor = cursor.min(f);
            }
        }
    })
}

/// The directions worth trying from `at`, having come in direction `came` (all open ones from
/// the start): straight on, and the turns that the walls beside the way in force.
fn pruned_steps(
    at: GridPos,
    came: Option<(i32, i32)>,
    open: &impl Fn(i32, i32) -> bool,
    out: &mut Vec<(i32, i32)>,
) {
    out.clear();
    let (x, y) = (at.x, at.y);
    match came {
        None => {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if open(x + dx, y + dy) {
                    out.push((dx, dy));
                }
            }
            for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                if open(x + dx, y) && open(x, y + dy) && open(x + dx, y + dy) {
                    out.push((dx, dy));
                }
            }
        }
        Some((dx, dy)) if dx != 0 && dy != 0 => {
            let (side_y, side_x) = (open(x, y + dy), open(x + dx, y));
            if side_y {
                out.push((0, dy));
            }
            if side_x {
                out.push((dx, 0));
            }
            if side_y && side_x {
                out.push((dx, dy));
            }
        }
        Some((dx, 0)) => {
            let (up, down) = (open(x, y + 1), open(x, y - 1));
            if open(x + dx, y) {
                out.push((dx, 0));
                if up {
                    out.push((dx, 1));
                }
                if down {
                    out.push((dx, -1));
                }
            }
            if up {
                out.push((0, 1));
            }
            if down {
                out.push((0, -1));
            }
        }
        Some((_, dy)) => {
            let (right, left) = (open(x + 1, y), open(x - 1, y));
            if open(x, y + dy) {
                out.push((0, dy));
                if right {
                    out.push((1, dy));
                }
                if left {
                    out.push((-1, dy));
                }
            }
            if right {
                out.push((1, 0));
            }
            if left {
                out.push((-1, 0));
            }
        }
    }
}

/// From `at` one step in `(dx, dy)` and on in that direction to the next jump point: the goal,
/// a square where a wall beside the way forces a turn, or (going diagonally) a square from which
/// a straight run finds one. `None` if the way ends first.
fn jump(
    at: GridPos,
    (dx, dy): (i32, i32),
    to: GridPos,
    open: &impl Fn(i32, i32) -> bool,
) -> Option<GridPos> {
    let (mut x, mut y) = (at.x + dx, at.y + dy);
    loop {
        if !open(x, y) {
            return None;
        }
        if (x, y) == (to.x, to.y) {
            return Some(to);
        }
        let here = GridPos::new(x, y);
        if dx != 0 && dy != 0 {
            if jump(here, (dx, 0), to, open).is_some() || jump(here, (0, dy), to, open).is_some() {
                return Some(here);
            }
            if !(open(x + dx, y) && open(x, y + dy)) {
                return None;
            }
        } else if dx != 0 {
            if (open(x, y - 1) && !open(x - dx, y - 1)) || (open(x, y + 1) && !open(x - dx, y + 1))
            {
                return Some(here);
            }
        } else if (open(x - 1, y) && !open(x - 1, y - dy))
            || (open(x + 1, y) && !open(x + 1, y - dy))
        {
            return Some(here);
        }
        x += dx;
        y += dy;
    }
}

/// The walk to `goal` by its parents (each jump filled in square by square), and its length by
/// the 5-10-5 rule.
fn walk_back(s: &Scratch, goal: usize, square_of: impl Fn(usize) -> GridPos, scale: u32) -> Path {
    let mut points = vec![square_of(goal)];
    let mut k = s.nodes[goal].parent;
    while k != u32::MAX {
        points.push(square_of(k as usize));
        k = s.nodes[k as usize].parent;
    }
    points.reverse();
    let mut squares = vec![points[0]];
    for w in points.windows(2) {
        let (dx, dy) = ((w[1].x - w[0].x).signum(), (w[1].y - w[0].y).signum());
        let mut p = w[0];
        while p != w[1] {
            p = GridPos::new(p.x + dx, p.y + dy);
            squares.push(p);
        }
    }
    let mut odd = false;
    let mut feet = 0;
    for w in squares.windows(2) {
        let diagonal = w[0].x != w[1].x && w[0].y != w[1].y;
        feet += step_feet(diagonal, odd, scale);
        odd ^= diagonal;
    }
    Path { squares, feet }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::test_grid as grid;

    #[test]
    fn open_floor_path_matches_the_distance() {
        let g = grid(&["......", "......", "......", "......", "......"]);
        let p = find_path(&g, GridPos::new(0, 0), GridPos::new(5, 3)).unwrap();
        assert_eq!(
            p.feet,
            g.distance_feet(GridPos::new(0, 0), GridPos::new(5, 3))
        );
        assert_eq!(p.feet, 30);
        assert_eq!(p.squares.first(), Some(&GridPos::new(0, 0)));
        assert_eq!(p.squares.last(), Some(&GridPos::new(5, 3)));
        assert_eq!(p.squares.len(), 6);
    }

    #[test]
    fn walks_around_walls_and_not_through_closed_doors() {
        let g = grid(&["#######", "#..#..#", "#..+..#", "#..#..#", "#######"]);
        assert_eq!(find_path(&g, GridPos::new(1, 1), GridPos::new(5, 1)), None);
        let mut open = g.clone();
        open.set_door(GridPos::new(3, 2), crate::grid::DoorState::Open);
        let p = find_path(&open, GridPos::new(1, 1), GridPos::new(5, 1)).unwrap();
        assert!(p.squares.contains(&GridPos::new(3, 2)));
        // (1,1) → (2,2)? No: the corner at (3,1)/(2,1) … the walk is 1,1 → 2,2 (5') → 3,2 (5')
        // → 4,2 (5') → 5,1 (10', the second diagonal).
        assert_eq!(p.feet, 25);
    }

    #[test]
    fn no_corner_cutting() {
        let g = grid(&["..", "#."]);
        let p = find_path(&g, GridPos::new(0, 0), GridPos::new(1, 1)).unwrap();
        assert_eq!(p.squares.len(), 3, "around the corner, not across it");
        assert_eq!(p.feet, 10);
    }

    #[test]
    fn unreachable_or_outside_is_none() {
        let g = grid(&["..#.."]);
        assert_eq!(find_path(&g, GridPos::new(0, 0), GridPos::new(4, 0)), None);
        assert_eq!(find_path(&g, GridPos::new(0, 0), GridPos::new(9, 0)), None);
        assert_eq!(find_path(&g, GridPos::new(0, 0), GridPos::new(2, 0)), None);
    }

    /// The cheapest cost by a plain Dijkstra over (square, parity) states: what the A* must
    /// match.
    fn dijkstra_feet(g: &DungeonGrid, from: GridPos, to: GridPos) -> Option<u32> {
        use std::cmp::Reverse;
        use std::collections::{BTreeMap, BinaryHeap};
        let mut best: BTreeMap<(i32, i32, bool), u32> = BTreeMap::new();
        let mut open = BinaryHeap::new();
        open.push(Reverse((0u32, from.x, from.y, false)));
        while let Some(Reverse((cost, x, y, odd))) = open.pop() {
            if best.get(&(x, y, odd)).is_some_and(|b| *b <= cost) {
                continue;
            }
            best.insert((x, y, odd), cost);
            let at = GridPos::new(x, y);
            if at == to {
                return Some(cost);
            }
            for p in at.neighbours() {
                let diagonal = p.x != x && p.y != y;
                if !g.is_passable(p)
                    || (diagonal
                        && !(g.is_passable(GridPos::new(p.x, y))
                            && g.is_passable(GridPos::new(x, p.y))))
                {
                    continue;
                }
                let step = step_feet(diagonal, odd, g.scale_feet());
                open.push(Reverse((cost + step, p.x, p.y, odd ^ diagonal)));
            }
        }
        None
    }

    /// On random grids, open to cave-like, the search finds walks exactly as short as an
    /// exhaustive search, and each walk's squares are neighbours that add up to its length.
    #[test]
    fn as_short_as_an_exhaustive_search() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..300 {
            // From open halls to tight caves.
            let walls = round % 5;
            let rows: Vec<String> = (0..16)
                .map(|_| {
                    (0..16)
                        .map(|_| {
                            if rng.random_range(0..10) < walls {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let g = grid(&rows);
            for _ in 0..10 {
                let a = GridPos::new(rng.random_range(0..16), rng.random_range(0..16));
                let b = GridPos::new(rng.random_range(0..16), rng.random_range(0..16));
                if !g.is_passable(a) {
                    continue;
                }
                let found = find_path(&g, a, b);
                assert_eq!(found.as_ref().map(|p| p.feet), dijkstra_feet(&g, a, b));
                if let Some(p) = found {
                    let mut odd = false;
                    let mut feet = 0;
                    for w in p.squares.windows(2) {
                        assert!(w[0].x.abs_diff(w[1].x) <= 1 && w[0].y.abs_diff(w[1].y) <= 1);
                        let diagonal = w[0].x != w[1].x && w[0].y != w[1].y;
                        feet += step_feet(diagonal, odd, 5);
                        odd ^= diagonal;
                    }
                    assert_eq!(feet, p.feet);
                }
            }
        }
    }
}
