//! The unit tests of `rules::penalties`.

use super::*;

fn still() -> Situation {
    Situation {
        prone: false,
        moved_feet: 0.0,
        movement_speed: 30.0,
        water: None,
        afloat: false,
    }
}

fn total(kind: CheckKind, s: Situation) -> i32 {
    situational_modifiers(kind, &s)
        .unwrap()
        .iter()
        .map(|m| m.value)
        .sum()
}

#[test]
fn prone_is_minus_four_except_on_resistance_and_intelligence() {
    let s = Situation {
        prone: true,
        ..still()
    };
    assert_eq!(total(CheckKind::Action, s), -4);
    assert_eq!(total(CheckKind::RangedAttack, s), -4);
    assert_eq!(total(CheckKind::Resistance, s), 0);
    assert_eq!(total(CheckKind::Intelligence, s), 0);
    let m = situational_modifiers(CheckKind::Action, &s).unwrap();
    assert_eq!(m[0].source, "prone");
}

#[test]
fn movement_bands_against_movement_speed() {
    let moved = |feet| Situation {
        moved_feet: feet,
        ..still()
    };
    assert_eq!(total(CheckKind::Action, moved(30.0)), 0, "up to 1×");
    assert_eq!(total(CheckKind::Action, moved(35.0)), -4);
    assert_eq!(total(CheckKind::Action, moved(60.0)), -4, "up to 2×");
    assert_eq!(total(CheckKind::Action, moved(65.0)), -8);
    assert_eq!(total(CheckKind::Action, moved(120.0)), -8, "up to 4×");
    assert_eq!(total(CheckKind::Resistance, moved(120.0)), 0);
}

#[test]
fn ranged_attacks_after_moving() {
    let moved = |feet| Situation {
        moved_feet: feet,
        ..still()
    };
    assert_eq!(total(CheckKind::RangedAttack, moved(0.0)), 0);
    assert_eq!(
        total(CheckKind::RangedAttack, moved(5.0)),
        -4,
        "even within movement speed"
    );
    assert_eq!(total(CheckKind::RangedAttack, moved(60.0)), -8);
    assert!(situational_modifiers(CheckKind::RangedAttack, &moved(65.0)).is_err());
}

#[test]
fn spells_after_moving_beyond_reach() {
    let moved = |feet| Situation {
        moved_feet: feet,
        ..still()
    };
    assert_eq!(
        total(CheckKind::Spellcasting, moved(15.0)),
        0,
        "within reach"
    );
    assert_eq!(total(CheckKind::Spellcasting, moved(20.0)), -4);
    assert_eq!(total(CheckKind::Spellcasting, moved(60.0)), -8);
    assert!(situational_modifiers(CheckKind::Spellcasting, &moved(61.0)).is_err());
    assert_eq!(total(CheckKind::SpellMaintenance, moved(15.0)), 0);
    assert_eq!(total(CheckKind::SpellMaintenance, moved(20.0)), -4);
    assert_eq!(total(CheckKind::SpellMaintenance, moved(45.0)), -8);
    assert!(situational_modifiers(CheckKind::SpellMaintenance, &moved(61.0)).is_err());
}

#[test]
fn poor_vision_bands_and_no_stacking_with_blindness() {
    assert_eq!(poor_vision(LightLevel::Bright, false), None);
    assert_eq!(poor_vision(LightLevel::Dim, false).unwrap().value, -2);
    assert_eq!(poor_vision(LightLevel::Dark, false).unwrap().value, -4);
    assert_eq!(
        poor_vision(LightLevel::MagicalDarkness, false)
            .unwrap()
            .value,
        -8
    );
    assert_eq!(
        poor_vision(LightLevel::Dim, true).unwrap().value,
        -6,
        "the worse: blinded"
    );
    assert_eq!(
        poor_vision(LightLevel::MagicalDarkness, true)
            .unwrap()
            .value,
        -8
    );
}

#[test]
fn distraction_numbers() {
    assert_eq!(distraction_target(LightKind::Torch, false), Some(9));
    assert_eq!(distraction_target(LightKind::Lantern, false), Some(11));
    assert_eq!(
        distraction_target(LightKind::Torch, true),
        Some(11),
        "+2 focused"
    );
    assert_eq!(distraction_target(LightKind::Candle, false), None);
    let radii = (15, 30);
    assert_eq!(
        distraction_target(
            LightKind::Magical {
                bright_feet: radii.0,
                dim_feet: radii.1
            },
            false
        ),
        Some(13),
        "magical light"
    );
    assert_eq!(
        distraction_target(
            LightKind::Sunlight {
                bright_feet: radii.0,
                dim_feet: radii.1
            },
            false
        ),
        Some(15),
        "sunlight reflected by a mirror"
    );
}

#[test]
fn water_by_depth() {
    let wet = |d| Situation {
        water: Some(d),
        afloat: false,
        ..still()
    };
    assert_eq!(total(CheckKind::Action, wet(WaterDepth::Knee)), -2);
    assert_eq!(total(CheckKind::Action, wet(WaterDepth::Waist)), -4);
    assert_eq!(total(CheckKind::Action, wet(WaterDepth::Chest)), -6);
    assert_eq!(total(CheckKind::Action, wet(WaterDepth::Deep)), -8);
    assert_eq!(total(CheckKind::Resistance, wet(WaterDepth::Deep)), 0);
    // Prone in waist-deep water after a hustle: every penalty named.
    let s = Situation {
        prone: true,
        moved_feet: 40.0,
        water: Some(WaterDepth::Waist),
        afloat: false,
        ..still()
    };
    let m = situational_modifiers(CheckKind::Action, &s).unwrap();
    let names: Vec<&str> = m.iter().map(|m| m.source.as_str()).collect();
    assert_eq!(
        names,
        [
            "prone",
            "moved 40' this round (movement speed 30')",
            "in water up to the waist"
        ]
    );
    assert_eq!(m.iter().map(|m| m.value).sum::<i32>(), -12);
}
