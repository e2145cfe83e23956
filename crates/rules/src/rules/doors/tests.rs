//! The unit tests of `rules::doors`.

use super::*;
use crate::rules::task::time_words;

fn total(mods: &[Modifier]) -> i32 {
    mods.iter().map(|m| m.value).sum()
}

/// The doors table: AC (its own scale, +10 ascending), structural hit points, battering.
#[test]
fn the_doors_table() {
    use delve_ground::level::schema::DoorMaterial::*;
    let rows: Vec<(i32, Option<u32>, Option<u64>)> = [
        GreatIronBandedStone,
        IronBandedStone,
        SolidIron,
        IronTrapDoor,
        IronBanded,
        Wooden,
        LeadGlassWindow,
    ]
    .into_iter()
    .map(|m| (m.table_ac(), m.structural_hp(), battering_rounds(m)))
    .collect();
    assert_eq!(
        rows,
        vec![
            (6, Some(25), None),
            (6, Some(2), None),
            (6, Some(1), None),
            (6, Some(1), None),
            (3, Some(1), Some(30)),
            (1, Some(1), Some(10)),
            (0, None, Some(1)),
        ]
    );
    assert_eq!(Wooden.ac(), 11);
    use delve_ground::level::schema::Structure;
    assert_eq!(
        [GreatIronBandedStone, SolidIron, IronBanded, Wooden].map(|m| m.harmed_as()),
        [
            Structure::Stone,
            Structure::Stone,
            Structure::Wood,
            Structure::Wood
        ],
        "harmed as stone or wood structure, by the table's notes"
    );
    assert!(can_batter(LeadGlassWindow, false, true));
    assert!(
        !can_batter(Wooden, false, true),
        "a wooden door needs an axe"
    );
    assert_eq!(
        (time_words(1), time_words(10), time_words(30)),
        ("1 round".into(), "1 turn".into(), "3 turns".into())
    );
}

#[test]
fn strength_18_bashes_on_6_plus() {
    let m = bashing_modifiers(18, None, false, 0, 0);
    assert_eq!(18 - total(&m), 6);
    assert_eq!(
        18 - total(&bashing_modifiers(10, None, false, 0, 0)),
        18,
        "no adjustment: 18+"
    );
    assert_eq!(
        18 - total(&bashing_modifiers(7, None, false, 0, 0)),
        22,
        "−1 adjustment: 22+"
    );
}

#[test]
fn a_pair_uses_the_stronger_plus_four_and_a_crowbar_adds_two() {
    let m = bashing_modifiers(13, Some(16), false, 0, 0);
    assert_eq!(total(&m), 8 + 4, "Strength 16 (+2 × 4) and +4 for the pair");
    assert_eq!(total(&bashing_modifiers(10, None, true, 0, 0)), 2);
}

#[test]
fn size_and_spikes() {
    assert_eq!(
        total(&bashing_modifiers(10, None, false, 1, 0)),
        8,
        "one size larger"
    );
    assert_eq!(
        total(&bashing_modifiers(10, None, false, -1, 0)),
        -8,
        "one size smaller"
    );
    assert_eq!(
        total(&bashing_modifiers(10, None, false, 0, 1)),
        0,
        "the first spike is free"
    );
    assert_eq!(
        total(&bashing_modifiers(10, None, false, 0, 3)),
        -8,
        "three spikes give −8"
    );
}
