//! Wall lines onto squares. The tools draw walls as thin lines, mostly along the edges of their
//! grid's cells, and a one-cell corridor is the space between two such lines; Delve's walls are
//! whole squares. With `n` squares to a cell side (n ≥ 2), each cell's first column and first
//! row of squares lie on its left and top edges: a line along a cell edge fills the squares on
//! that edge, and a one-cell corridor between two lines keeps `n - 1` open squares. A point on
//! the edge between two squares belongs to the square right of it (below it): a line along an
//! edge fills one line of squares, not two.
//!
//! A line is walked square by square (Amanatides & Woo's traversal): every square it passes
//! through is filled, its end squares too.

use delve_ground::grid::GridPos;

/// A point in square units (cells × n).
pub type Point = (f64, f64);

/// Every square the segment from `a` to `b` passes through, in order, clipped to `w` × `h`.
pub fn squares_on(a: Point, b: Point, w: u32, h: u32, out: &mut Vec<GridPos>) {
    // Walked only within the map (and a square around it): a wall with a point at 1e12 once
    // walked every square of the segment off the map.
    let Some((a, b)) = clip(a, b, (-1.0, -1.0), (w as f64 + 1.0, h as f64 + 1.0)) else {
        return;
    };
    let cell = |v: f64| v.floor() as i64;
    let (mut x, mut y) = (cell(a.0), cell(a.1));
    let (ex, ey) = (cell(b.0), cell(b.1));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let step_x = if dx > 0.0 { 1 } else { -1 };
    let step_y = if dy > 0.0 { 1 } else { -1 };
    // How far along the segment (0..1) the next vertical and horizontal edges are.
    let next = |p: f64, d: f64, i: i64, step: i64| -> (f64, f64) {
        if d == 0.0 {
            return (f64::INFINITY, f64::INFINITY);
        }
        let edge = if step > 0 { (i + 1) as f64 } else { i as f64 };
        ((edge - p) / d, (1.0 / d).abs())
    };
    let (mut t_x, delta_x) = next(a.0, dx, x, step_x);
    let (mut t_y, delta_y) = next(a.1, dy, y, step_y);
    let push = |x: i64, y: i64, out: &mut Vec<GridPos>| {
        if x >= 0 && y >= 0 && x < w as i64 && y < h as i64 {
            out.push(GridPos::new(x as i32, y as i32));
        }
    };
    push(x, y, out);
    // Bounded: a segment crosses at most |ex - x| + |ey - y| edges.
    let mut steps = (ex - x).abs() + (ey - y).abs();
    while (x, y) != (ex, ey) && steps > 0 {
        if t_x < t_y {
            x += step_x;
            t_x += delta_x;
        } else if t_y < t_x {
            y += step_y;
            t_y += delta_y;
        } else {
            // Through a corner: the two squares beside it are touched only at a point.
            x += step_x;
            y += step_y;
            t_x += delta_x;
            t_y += delta_y;
            steps -= 1;
        }
        steps -= 1;
        push(x, y, out);
    }
}

/// The part of the segment from `a` to `b` inside the box from `lo` to `hi` (Liang–Barsky), or
/// none when it misses the box or a point is not a number.
fn clip(a: Point, b: Point, lo: Point, hi: Point) -> Option<(Point, Point)> {
    if ![a.0, a.1, b.0, b.1].iter().all(|v| v.is_finite()) {
        return None;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - lo.0),
        (dx, hi.0 - a.0),
        (-dy, a.1 - lo.1),
        (dy, hi.1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then(|| {
        let at = |t: f64| (a.0 + t * dx, a.1 + t * dy);
        (
            if t0 > 0.0 { at(t0) } else { a },
            if t1 < 1.0 { at(t1) } else { b },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(a: Point, b: Point) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        squares_on(a, b, 20, 20, &mut v);
        v.into_iter().map(|p| (p.x, p.y)).collect()
    }

    #[test]
    fn a_line_along_an_edge_fills_one_line_of_squares() {
        assert_eq!(on((2.0, 4.0), (5.0, 4.0)), [(2, 4), (3, 4), (4, 4), (5, 4)]);
        assert_eq!(on((3.0, 1.0), (3.0, 3.0)), [(3, 1), (3, 2), (3, 3)]);
        // Drawn the other way, the same squares.
        assert_eq!(on((5.0, 4.0), (2.0, 4.0)), [(5, 4), (4, 4), (3, 4), (2, 4)]);
    }

    #[test]
    fn a_diagonal_fills_the_squares_it_crosses() {
        assert_eq!(on((0.5, 0.5), (2.5, 2.5)), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!(on((0.2, 0.5), (2.2, 1.5)), [(0, 0), (1, 0), (1, 1), (2, 1)]);
    }

    #[test]
    fn squares_off_the_map_are_left_out() {
        assert_eq!(on((-2.0, 1.0), (1.0, 1.0)), [(0, 1), (1, 1)]);
    }

    /// A wall reaching a trillion squares off the map is walked only where the map is: the
    /// same squares on it, at once (it once ran for minutes).
    #[test]
    fn a_wall_reaching_far_off_the_map_is_walked_only_on_it() {
        let t = std::time::Instant::now();
        assert_eq!(on((2.0, 4.0), (1e12, 4.0)).len(), 18);
        assert_eq!(on((-1e12, 3.0), (1e12, 3.0)).len(), 20);
        assert_eq!(on((1e12, 1e12), (2e12, 5.0)), []);
        assert_eq!(on((f64::NAN, 1.0), (3.0, 1.0)), []);
        // Diagonal, clipped at both ends: the squares of the same line.
        assert_eq!(
            on((-100.5, -100.0), (200.5, 201.0)),
            on((-0.5, 0.0), (19.5, 20.0))
                .into_iter()
                .filter(|&(x, y)| x < 20 && y < 20)
                .collect::<Vec<_>>()
        );
        assert!(t.elapsed().as_secs() < 1);
    }
}
