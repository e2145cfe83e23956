//! The situations (`delve generate --situation NAME --seed N`): every one draws, for every seed,
//! a level the loader takes without a warning and expectations the lab can judge on it; the same
//! seed draws the same level, and seeds draw different ones.

use std::collections::BTreeSet;

use delve::situations::{SITUATIONS, generate, situation};

/// Seeds each situation is drawn with here.
const SEEDS: u64 = 40;

#[test]
fn situations_have_names_of_their_own() {
    let names: BTreeSet<&str> = SITUATIONS.iter().map(|s| s.name).collect();
    assert_eq!(names.len(), SITUATIONS.len(), "a situation named twice");
    for s in SITUATIONS {
        assert!(
            s.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{}: a name is lower case words joined by _",
            s.name
        );
        assert!(s.about.len() > 60, "{}: say what it is", s.name);
    }
    let err = situation("no such")
        .err()
        .expect("an unknown name is refused");
    assert!(err.contains("shaft") && err.contains("guard_key"), "{err}");
}

#[test]
fn every_instance_loads_with_expectations_the_lab_can_judge() {
    for s in SITUATIONS {
        let mut levels = BTreeSet::new();
        for seed in 0..SEEDS {
            let drawn = generate(s.name, seed).unwrap();
            let file = format!("{}-{seed}.ron", s.name);
            let loaded = delve_ground::level::load_level_str(&drawn.level, &file, None)
                .unwrap_or_else(|e| panic!("{file}: {e}\n{}", drawn.level));
            assert!(
                loaded.warnings.is_empty(),
                "{file}: {:?}\n{}",
                loaded.warnings,
                drawn.level
            );
            // (A careful party does not delve without light: the party carries torches.)
            assert!(
                drawn.level.contains("(kind: Torch, lit: true"),
                "{file}: the party carries no light\n{}",
                drawn.level
            );
            delve::lab::expect::parse(&drawn.expect, &file, &loaded.level)
                .unwrap_or_else(|e| panic!("{file}: {e}\n{}", drawn.expect));
            assert_eq!(
                generate(s.name, seed).unwrap().level,
                drawn.level,
                "{file}: the same seed draws the same level"
            );
            levels.insert(drawn.level);
        }
        assert!(
            levels.len() as u64 > SEEDS * 3 / 4,
            "{}: {} different levels of {SEEDS} seeds",
            s.name,
            levels.len()
        );
    }
}
