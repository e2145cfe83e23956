//! Ability modifiers (RULINGS › Ability modifiers): two tables, one per rule source, so that each
//! source's own examples hold.

/// The delve rules' table: 3 → −3, 4–5 → −2, 6–8 → −1, 9–12 → 0, 13–15 → +1, 16–17 → +2,
/// 18 → +3. Used for running and breath-holding (CON) and dungeonbashing (STR).
pub(crate) fn delve_modifier(score: i32) -> i32 {
    match score {
        i32::MIN..=3 => -3,
        4..=5 => -2,
        6..=8 => -1,
        9..=12 => 0,
        13..=15 => 1,
        16..=17 => 2,
        _ => 3,
    }
}

/// The tactical rules' "Dexterity modifier": (score − 10) / 2, rounded down.
pub(crate) fn tactical_modifier(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delve_table() {
        let table = [
            (3, -3),
            (4, -2),
            (5, -2),
            (6, -1),
            (8, -1),
            (9, 0),
            (12, 0),
            (13, 1),
            (15, 1),
            (16, 2),
            (17, 2),
            (18, 3),
        ];
        for (score, m) in table {
            assert_eq!(delve_modifier(score), m, "score {score}");
        }
        // Dungeonbashing: Strength 18 gives +3, ±4 per point: 18 − 12 = 6+.
        assert_eq!(18 - 4 * delve_modifier(18), 6);
    }

    #[test]
    fn tactical_table() {
        assert_eq!(tactical_modifier(18), 4, "Dex 18 ⇒ +4");
        assert_eq!(tactical_modifier(11), 0);
        assert_eq!(tactical_modifier(9), -1);
        assert_eq!(tactical_modifier(3), -4);
    }
}
