//! Distances in feet (LEVEL_FORMAT.md › Coordinates and scale): a straight step is one square;
//! diagonal steps alternate one and two squares (5-10-5 with 5' squares).

use super::GridPos;

/// Feet between two squares by the 5-10-5 rule: every second diagonal step counts double.
///
/// With `dx`, `dy` the steps along each axis, the shortest walk takes `max(dx, dy)` steps of which
/// `min(dx, dy)` are diagonal, and `min / 2` of those count a second square.
pub fn distance_feet(a: GridPos, b: GridPos, scale_feet: u32) -> u32 {
    let dx = a.x.abs_diff(b.x);
    let dy = a.y.abs_diff(b.y);
    let (long, short) = if dx >= dy { (dx, dy) } else { (dy, dx) };
    (long + short / 2) * scale_feet
}

/// Cost in feet of one step from a square to a neighbour, given whether an odd number of
/// diagonal steps has been taken so far on the walk (the next diagonal then counts double).
#[inline]
pub fn step_feet(diagonal: bool, odd_diagonals: bool, scale_feet: u32) -> u32 {
    if diagonal && odd_diagonals {
        2 * scale_feet
    } else {
        scale_feet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: i32, y: i32) -> u32 {
        distance_feet(GridPos::new(0, 0), GridPos::new(x, y), 5)
    }

    #[test]
    fn straight_steps_are_five_feet() {
        assert_eq!(d(0, 0), 0);
        assert_eq!(d(1, 0), 5);
        assert_eq!(d(0, 4), 20);
        assert_eq!(d(-3, 0), 15);
    }

    #[test]
    fn diagonals_alternate_five_and_ten() {
        // 5, 10, 5, 10: one, two, three, four diagonal steps.
        assert_eq!(d(1, 1), 5);
        assert_eq!(d(2, 2), 15);
        assert_eq!(d(3, 3), 20);
        assert_eq!(d(4, -4), 30);
        // Mixed: 3 diagonal steps and 2 straight ones.
        assert_eq!(d(5, 3), 30);
    }

    #[test]
    fn scale_multiplies() {
        assert_eq!(
            distance_feet(GridPos::new(0, 0), GridPos::new(2, 2), 10),
            30
        );
    }

    #[test]
    fn step_costs_follow_the_parity() {
        let mut odd = false;
        let mut total = 0;
        for _ in 0..4 {
            total += step_feet(true, odd, 5);
            odd = !odd;
        }
        assert_eq!(total, 30);
        assert_eq!(step_feet(false, true, 5), 5);
    }
}
