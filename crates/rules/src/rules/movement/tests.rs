//! The unit tests of `rules::movement`.

use super::running::rounds_before_saves;
use super::*;
use delve_ground::grid::{Terrain, WaterDepth};
use delve_ground::level::SpeedBasis;

/// Speed and Distance: 5-10-5 diagonals; rubble costs double (the path's cost is what a
/// walker spends, and what the window's preview shows).
#[test]
fn a_paths_cost_counts_diagonals_5_10_5_and_rubble_double() {
    let floor = DungeonGrid::new(4, 4, 5, vec![Terrain::Floor; 16]);
    let diagonal: Vec<GridPos> = (0..4).map(|i| GridPos::new(i, i)).collect();
    let water = WaterCost::default();
    assert_eq!(path_cost(&floor, &diagonal, water), (5 + 10 + 5) * 10);
    let mut terrain = vec![Terrain::Floor; 16];
    terrain[1] = Terrain::Rubble;
    let rubble = DungeonGrid::new(4, 4, 5, terrain);
    let straight: Vec<GridPos> = (0..3).map(|x| GridPos::new(x, 0)).collect();
    assert_eq!(path_cost(&rubble, &straight, water), (10 + 5) * 10);
}

/// Dungeon Delves › Swimming: water over the head is crossed at a quarter speed by the
/// Swimming throw (four times its width); a creature with a swimming speed crosses it at
/// that speed: running 60' and swimming 120' pays half its width, running 120' and swimming
/// 40' three times.
#[test]
fn deep_water_costs_a_quarter_speed_or_the_swimming_speed() {
    use crate::creature::SwimmingSpeed;
    let pool = DungeonGrid::new(3, 1, 5, vec![Terrain::Water(WaterDepth::Deep); 3]);
    let across: Vec<GridPos> = (0..3).map(|x| GridPos::new(x, 0)).collect();
    let cost = |basis, swim: Option<u32>| {
        path_cost(
            &pool,
            &across,
            WaterCost::of(basis, swim.map(SwimmingSpeed).as_ref()),
        )
    };
    let walker = SpeedBasis::Encumbrance { stone: 2.0 };
    assert_eq!(cost(walker, None), 10 * 4 * 10);
    assert_eq!(cost(SpeedBasis::Explicit { feet: 60 }, Some(120)), 10 * 5);
    assert_eq!(cost(SpeedBasis::Explicit { feet: 120 }, Some(40)), 10 * 30);
}

fn speeds(stone: f32) -> Option<Speeds> {
    Speeds::from_basis(SpeedBasis::Encumbrance { stone })
}

#[test]
fn speed_table_by_encumbrance() {
    let s = |e, c, r| {
        Some(Speeds {
            exploration: e,
            combat: c,
            running: r,
            blinded: false,
        })
    };
    assert_eq!(speeds(0.0), s(120, 40, 120));
    assert_eq!(speeds(5.0), s(120, 40, 120));
    assert_eq!(speeds(5.5), s(90, 30, 90));
    assert_eq!(speeds(7.0), s(90, 30, 90));
    assert_eq!(speeds(7.5), s(60, 20, 60));
    assert_eq!(speeds(10.0), s(60, 20, 60));
    assert_eq!(speeds(10.5), s(30, 10, 30));
    assert_eq!(speeds(20.0), s(30, 10, 30));
    assert_eq!(speeds(20.5), None);
}

#[test]
fn explicit_speed_has_a_third_as_combat_speed() {
    let s = Speeds::from_basis(SpeedBasis::Explicit { feet: 90 }).unwrap();
    assert_eq!((s.exploration, s.combat, s.running), (90, 30, 90));
}

#[test]
fn exploration_moves_a_tenth_per_round() {
    let s = speeds(3.0).unwrap();
    assert_eq!(s.tenths_per_round(Pace::Exploration), 120);
    assert_eq!(s.tenths_per_round(Pace::Combat), 400);
    assert_eq!(s.tenths_per_round(Pace::Running), 1200);
}

#[test]
fn blinded_creatures_move_at_one_third() {
    let blind = Conditions::from_level(&[ConditionKind::Blinded]);
    let s = Speeds::of(SpeedBasis::Encumbrance { stone: 3.0 }, &blind).unwrap();
    assert_eq!(s.tenths_per_round(Pace::Exploration), 40);
    assert_eq!(s.tenths_per_round(Pace::Combat), 133);
    assert_eq!(s.rated(Pace::Running), 40.0);
}

#[test]
fn terrain_costs() {
    assert_eq!(terrain_cost(Terrain::Floor), 1);
    assert_eq!(terrain_cost(Terrain::Rubble), 2);
    assert_eq!(terrain_cost(Terrain::Water(WaterDepth::Waist)), 1);
    assert_eq!(terrain_cost(Terrain::Water(WaterDepth::Deep)), 4);
}

#[test]
fn saves_start_after_ten_rounds_plus_or_minus_con() {
    assert_eq!(rounds_before_saves(7), 9, "CON modifier −1");
    assert_eq!(rounds_before_saves(10), 10, "CON modifier 0");
    assert_eq!(rounds_before_saves(16), 12, "CON modifier +2");
}

#[test]
fn gentle_curves_and_sharp_turns() {
    let p = |v: &[(i32, i32)]| {
        v.iter()
            .map(|&(x, y)| GridPos::new(x, y))
            .collect::<Vec<_>>()
    };
    assert_eq!(sharp_turn(&p(&[(0, 0), (1, 0), (2, 0), (3, 0)])), None);
    assert_eq!(
        sharp_turn(&p(&[(0, 0), (1, 0), (2, 1), (3, 2), (4, 2)])),
        None,
        "45° bends"
    );
    assert_eq!(
        sharp_turn(&p(&[(0, 0), (1, 0), (1, 1), (1, 2)])),
        Some(GridPos::new(1, 0)),
        "a right angle"
    );
    assert_eq!(
        sharp_turn(&p(&[(0, 0), (1, 0), (0, 0)])),
        Some(GridPos::new(1, 0)),
        "turning back"
    );
}
