//! The gym (`levels/gym/`): small levels, each one situation a careful party meets, with the
//! expectations of what a careful party achieves there (`NAME.expect.ron`). Here each level is
//! played a few delves, and no expectation may be failed by them (the sequential test decides
//! a failure only on clear evidence); `.ci/run` plays each until every expectation is decided.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The delves each gym level is played here.
const DELVES: u64 = 8;

/// Every gym level and its expectation file (one without is an error that says so).
fn gym() -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/gym");
    let mut levels: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("levels/gym")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "ron")
                && !p.to_string_lossy().ends_with(".expect.ron")
        })
        .collect();
    levels.sort();
    levels
        .into_iter()
        .map(|level| {
            let expect = level.with_extension("expect.ron");
            assert!(
                expect.exists(),
                "{}: a gym level needs its expectations in {}",
                level.display(),
                expect.display()
            );
            (level, expect)
        })
        .collect()
}

#[test]
fn the_gym_has_levels_each_with_its_expectations() {
    assert!(gym().len() >= 8, "{:?}", gym());
}

#[test]
fn no_gym_level_fails_its_expectations_in_a_few_delves() {
    for (file, expect) in gym() {
        let level = delve_ground::level::load_level_file(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .level;
        let text = std::fs::read_to_string(&expect).unwrap();
        let expectations =
            delve::lab::expect::parse(&text, &expect.display().to_string(), &level).unwrap();
        let plan = delve::lab::LabPlan {
            level,
            policy: delve_ground::party_policy::PartyPolicy::default(),
            seed: 1,
            runs: DELVES,
            jobs: 2,
        };
        let seeds: Vec<u64> = plan.seeds().collect();
        let result = delve::lab::run_seeds(&plan, &seeds, |_| {}, &AtomicBool::new(false)).unwrap();
        for v in expectations.judge(&result.records) {
            assert!(
                !matches!(v.decision, delve::lab::expect::Decision::Failed { .. }),
                "{}: {} failed in {DELVES} delves ({:?})",
                file.display(),
                v.what,
                v.share
            );
        }
    }
}
