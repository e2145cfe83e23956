//! The unit tests of `rules::vision`.

use super::*;
use delve_ground::grid::test_grid;
use delve_ground::level::schema::LightKind;

fn room() -> DungeonGrid {
    test_grid(&[
        "###########",
        "#.........#",
        "#.........#",
        "#.........#",
        "###########",
    ])
}

#[test]
fn a_dark_room_shows_nothing_without_senses() {
    let g = room();
    let light = LightMap::new(&g);
    assert!(sight_of(&g, &light, GridPos::new(1, 1), Senses::default()).is_empty());
}

#[test]
fn lightless_vision_shows_dim_within_its_range() {
    let g = room();
    let light = LightMap::new(&g);
    let senses = Senses {
        lightless_vision_feet: 10,
        ..Senses::default()
    };
    let seen = sight_of(&g, &light, GridPos::new(5, 2), senses);
    assert!(
        seen.iter().all(|(_, how)| *how == LightLevel::Dim),
        "no colours: dim only"
    );
    assert!(seen.iter().any(|(p, _)| *p == GridPos::new(7, 2)));
    assert!(
        !seen.iter().any(|(p, _)| *p == GridPos::new(8, 2)),
        "15' is beyond 10'"
    );
}

#[test]
fn a_lit_creature_is_seen_from_the_dark_across_the_room() {
    let g = room();
    let mut light = LightMap::new(&g);
    light.place(&g, 1, Some((GridPos::new(9, 2), LightKind::Candle)));
    // From the far end, in the dark, the candle-bearer's square is seen bright.
    let seen = sight_of(&g, &light, GridPos::new(1, 2), Senses::default());
    assert!(seen.contains(&(GridPos::new(9, 2), LightLevel::Bright)));
    assert!(
        !seen.iter().any(|(p, _)| *p == GridPos::new(1, 2)),
        "but not its own dark square"
    );
}

#[test]
fn sight_is_symmetric_in_lit_rooms() {
    let g = room();
    let mut light = LightMap::new(&g);
    light.place(&g, 1, Some((GridPos::new(5, 2), LightKind::Lantern)));
    for a in [GridPos::new(1, 1), GridPos::new(9, 3), GridPos::new(4, 2)] {
        for b in [GridPos::new(2, 3), GridPos::new(8, 1), GridPos::new(6, 2)] {
            let ab = sight_of(&g, &light, a, Senses::default())
                .iter()
                .any(|(p, _)| *p == b);
            let ba = sight_of(&g, &light, b, Senses::default())
                .iter()
                .any(|(p, _)| *p == a);
            assert_eq!(ab, ba, "{a} and {b}");
        }
    }
}

#[test]
fn blinded_creatures_make_no_missile_attacks() {
    assert!(missile_attack_allowed(&Conditions::default()));
    let blind = Conditions::from_level(&[ConditionKind::Blinded]);
    assert!(!missile_attack_allowed(&blind));
}

#[test]
fn shadowy_senses_switch_off_when_running_or_deafened() {
    let v = Vision {
        lightless_vision_feet: 0,
        shadowy_senses: true,
    };
    let still = MovedThisRound::default();
    let running = MovedThisRound {
        feet: 60,
        pace: Some(Pace::Running),
    };
    let combat = MovedThisRound {
        feet: 30,
        pace: Some(Pace::Combat),
    };
    let fine = Conditions::default();
    let deaf = Conditions::from_level(&[ConditionKind::Deafened]);
    assert!(shadowy_senses_work(&v, &fine, &still, false));
    assert!(shadowy_senses_work(&v, &fine, &combat, false));
    assert!(!shadowy_senses_work(&v, &fine, &running, false));
    assert!(!shadowy_senses_work(&v, &deaf, &still, false));
    assert!(
        !shadowy_senses_work(&v, &fine, &still, true),
        "magical darkness"
    );
    let g = room();
    let light = LightMap::new(&g);
    let senses = Senses {
        shadowy_senses: true,
        ..Senses::default()
    };
    let seen = sight_of(&g, &light, GridPos::new(1, 2), senses);
    assert!(seen.iter().any(|(p, _)| *p == GridPos::new(7, 2)), "30'");
    assert!(!seen.iter().any(|(p, _)| *p == GridPos::new(8, 2)), "35'");
    assert!(
        seen.iter().all(|(_, how)| *how == LightLevel::Dim),
        "never bright"
    );
}
