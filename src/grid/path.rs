//! Shortest walks between squares, measured in feet by the 5-10-5 rule.
//!
//! Because every second diagonal step costs double, the cost of a step depends on the walk so far;
//! the search state is therefore the square plus the parity of the diagonals taken. A diagonal
//! step may not cut a corner: both orthogonal squares beside it must be passable.

use pathfinding::prelude::astar;
use serde::Serialize;

use super::distance::step_feet;
use super::{DungeonGrid, GridPos};

/// A walk from its first square to its last, with its length in feet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Path {
    pub squares: Vec<GridPos>,
    pub feet: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    at: GridPos,
    odd_diagonals: bool,
}

/// The cheapest walk from `from` to `to` over passable squares, or `None` when there is none.
/// `from` itself need not be passable (a creature may stand in an open doorway that then closes).
pub fn find_path(grid: &DungeonGrid, from: GridPos, to: GridPos) -> Option<Path> {
    find_path_with(grid, from, to, |p| grid.is_passable(p))
}

/// [`find_path`] with a caller's notion of which squares may be entered.
pub fn find_path_with(
    grid: &DungeonGrid,
    from: GridPos,
    to: GridPos,
    can_enter: impl Fn(GridPos) -> bool,
) -> Option<Path> {
    if !grid.in_bounds(from) || !grid.in_bounds(to) || !can_enter(to) {
        return None;
    }
    let scale = grid.scale_feet();
    let can_enter = &can_enter;
    let heuristic = |n: &Node| {
        let dx = n.at.x.abs_diff(to.x);
        let dy = n.at.y.abs_diff(to.y);
        let (long, short) = if dx >= dy { (dx, dy) } else { (dy, dx) };
        (long + (short + n.odd_diagonals as u32) / 2) * scale
    };
    let start = Node {
        at: from,
        odd_diagonals: false,
    };
    let (nodes, feet) = astar(
        &start,
        |n| {
            let n = *n;
            n.at.neighbours()
                .into_iter()
                .filter_map(move |p| {
                    if !can_enter(p) {
                        return None;
                    }
                    let diagonal = p.x != n.at.x && p.y != n.at.y;
                    if diagonal
                        && !(can_enter(GridPos::new(p.x, n.at.y))
                            && can_enter(GridPos::new(n.at.x, p.y)))
                    {
                        return None;
                    }
                    let cost = step_feet(diagonal, n.odd_diagonals, scale);
                    Some((
                        Node {
                            at: p,
                            odd_diagonals: n.odd_diagonals ^ diagonal,
                        },
                        cost,
                    ))
                })
                .collect::<Vec<_>>()
        },
        heuristic,
        |n| n.at == to,
    )?;
    Some(Path {
        squares: nodes.into_iter().map(|n| n.at).collect(),
        feet,
    })
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
}
