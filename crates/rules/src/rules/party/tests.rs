//! The unit tests of `rules::party`.

use super::formation::{formation_for, formation_slots, passage_width_feet};
use super::*;
use delve_ground::grid::test_grid;

#[test]
fn width_decides_the_formation() {
    let g = test_grid(&[
        "#########",
        "#.......#",
        "#.......#",
        "####.####",
        "####.####",
    ]);
    // In the corridor (one square wide), going south.
    assert_eq!(passage_width_feet(&g, GridPos::new(4, 4), (0, 1)), 5);
    assert_eq!(formation_for(5), Formation::SingleFile);
    // In the room, going east: two squares across.
    assert_eq!(passage_width_feet(&g, GridPos::new(3, 1), (1, 0)), 10);
    assert_eq!(formation_for(10), Formation::TwoColumns);
    assert_eq!(formation_for(6), Formation::TwoColumns);
}

#[test]
fn slots_single_file_and_two_columns() {
    let g = test_grid(&[
        "#########",
        "#.......#",
        "#.......#",
        "#.......#",
        "#########",
    ]);
    let trail: Vec<GridPos> = (1..=6).map(|x| GridPos::new(x, 2)).collect();
    let single = formation_slots(&g, &trail, 3, Formation::SingleFile);
    assert_eq!(
        single,
        vec![
            Some(GridPos::new(5, 2)),
            Some(GridPos::new(4, 2)),
            Some(GridPos::new(3, 2))
        ]
    );
    let two = formation_slots(&g, &trail, 3, Formation::TwoColumns);
    // Beside the leader, then the second rank and its partner.
    assert_eq!(two[0].map(|p| (p.x, (p.y - 2).abs())), Some((6, 1)));
    assert_eq!(two[1], Some(GridPos::new(5, 2)));
    assert_eq!(two[2].map(|p| (p.x, (p.y - 2).abs())), Some((5, 1)));
}
