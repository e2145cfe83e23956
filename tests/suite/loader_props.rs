//! The loader never panics: arbitrary text, and valid levels with random damage.

use delve_ground::level::load_level_str;
use delve_ground::level::spans::{Seg, SpanIndex};
use proptest::prelude::*;

const CRYPT: &str = include_str!("../../levels/crypt.ron");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,400}") {
        let _ = load_level_str(&src, "fuzz.ron", None);
        let ix = SpanIndex::build(&src);
        let _ = ix.pos(&[Seg::Field("map"), Seg::Index(2)]);
    }

    #[test]
    fn ron_shaped_text_never_panics(src in "[(){}\\[\\]:,'\"a-z0-9 .#+~\n-]{0,300}") {
        let _ = load_level_str(&src, "fuzz.ron", None);
    }

    #[test]
    fn damaged_levels_never_panic(
        edits in proptest::collection::vec((0usize..CRYPT.len(), 0usize..4, any::<char>()), 1..6)
    ) {
        let mut s: Vec<char> = CRYPT.chars().collect();
        for (at, kind, c) in edits {
            let at = at % s.len().max(1);
            match kind {
                0 => { s.remove(at); }
                1 => s.insert(at, c),
                2 => s[at] = c,
                _ => { let digit = char::from(b'0' + (at % 10) as u8); s[at] = digit; }
            }
        }
        let src: String = s.into_iter().collect();
        match load_level_str(&src, "damaged.ron", None) {
            Ok(_) => {}
            Err(problems) => {
                prop_assert!(problems.has_errors());
                for d in &problems.0 {
                    prop_assert!(d.line >= 1 && d.col >= 1, "{d}");
                }
            }
        }
    }
}

/// A small level with a chasm, a pit and deep water of the given depths.
fn with_depths(chasm: i64, pit: i64, water: i64) -> String {
    format!(
        r#"(name: "depths", legend: {{ 'X': Wall(Stone), '.': Floor, 'C': Chasm(depth_feet: {chasm}), '~': Water(Deep) }},
 map: ["XXXXXX", "X.C.~X", "XXXXXX"],
 deep_water_feet: {water},
 traps: [(at: (3, 1), kind: Pit(depth_feet: {pit}))],
 factions: [(name: "party")],
 creatures: [(name: "Bo", faction: "party", at: (1, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)])"#
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// RULINGS › Pits and holes: depths and heights are 1' to 1,000'; anything else is an error
    /// at its line (a negative one says which field and what it takes).
    #[test]
    fn depths_are_one_to_a_thousand_feet(
        chasm in -5i64..5_000_000_000,
        pit in -5i64..2000,
        water in -5i64..2000,
    ) {
        let ok = |d: i64| (1..=1000).contains(&d);
        let src = with_depths(chasm, pit, water);
        match load_level_str(&src, "depths.ron", None) {
            Ok(_) => prop_assert!(ok(chasm) && ok(pit) && ok(water)),
            Err(problems) => {
                prop_assert!(!(ok(chasm) && ok(pit) && ok(water)), "{problems}");
                for d in &problems.0 {
                    prop_assert!(d.line >= 1 && d.col >= 1, "{d}");
                    if d.message.contains("out of its range") {
                        prop_assert!(d.message.contains("depth_feet") || d.message.contains("deep_water_feet"), "{d}");
                    }
                }
            }
        }
    }
}

/// A negative width or depth names the field and what it takes, at its line and column.
#[test]
fn a_negative_number_says_what_its_field_takes() {
    let src = with_depths(20, 10, -5);
    let problems = load_level_str(&src, "depths.ron", None).unwrap_err();
    let d = &problems.0[0];
    assert_eq!(
        (d.line, d.kind),
        (3, delve_ground::level::diagnostic::DiagnosticKind::Syntax)
    );
    assert!(
        d.message.starts_with(
            "`deep_water_feet` is -5, out of its range: it takes a depth in whole feet, 1 to 1,000"
        ),
        "{d}"
    );
    let src = with_depths(0, 10, 20);
    let problems = load_level_str(&src, "depths.ron", None).unwrap_err();
    assert!(
        problems.0.iter().any(|d| d.kind
            == delve_ground::level::diagnostic::DiagnosticKind::BadValue
            && d.line == 1
            && d.message.contains("depths and heights are 1' to 1,000'")),
        "{problems}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A trap that attacks (`attack: (bonus: N)`) loads with any bonus; a field it does not know
    /// is an error at its line.
    #[test]
    fn attack_traps_load_with_any_bonus(bonus in -50i32..50, unknown in any::<bool>()) {
        let extra = if unknown { ", reach: 5" } else { "" };
        let src = format!(
            r#"(name: "spears", legend: {{ 'X': Wall(Stone), '.': Floor }},
 map: ["XXXXX", "X...X", "XXXXX"],
 traps: [(at: (2, 1), kind: Custom(name: "spear", damage: "1d6", attack: (bonus: {bonus}{extra})))],
 factions: [(name: "party")],
 creatures: [(name: "Bo", faction: "party", at: (1, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)])"#
        );
        match load_level_str(&src, "spears.ron", None) {
            Ok(loaded) => {
                prop_assert!(!unknown);
                let loaded_bonus = match &loaded.level.traps[0].trap.kind {
                    delve_ground::level::schema::TrapKind::Custom { attack: Some(a), .. } => Some(a.bonus),
                    _ => None,
                };
                prop_assert_eq!(loaded_bonus, Some(bonus));
            }
            Err(problems) => {
                prop_assert!(unknown, "{problems}");
                prop_assert_eq!(problems.0[0].line, 3);
            }
        }
    }
}
