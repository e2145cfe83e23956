//! The level-design lab: many delves in parallel, the same records on any number of threads,
//! and numbers that match the rules' odds.

use delve::lab::report::Summary;
use delve::lab::tables::Share;
use delve::lab::{LabPlan, read_runs_jsonl, run_lab, runs_jsonl};
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Outcome;
use delve_play::scenario::Scenario;

fn crypt_plan(runs: u64, jobs: usize) -> LabPlan {
    LabPlan {
        level: delve_ground::level::load_level_file(std::path::Path::new("levels/crypt.ron"))
            .unwrap()
            .level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs,
        jobs,
    }
}

/// The same level, seeds and policy give byte-identical `runs.jsonl` on one thread and on two,
/// in the order of the seeds; and the file reads back to the same records.
#[test]
fn the_same_records_on_one_thread_and_on_two() {
    let one = run_lab(&crypt_plan(12, 1), |_| {}).unwrap();
    let heat_one = one.heat.clone();
    let one = one.records;
    let two = run_lab(&crypt_plan(12, 2), |_| {}).unwrap();
    assert_eq!(two.heat, heat_one, "the same heat too");
    let two = two.records;
    assert_eq!(runs_jsonl(&one), runs_jsonl(&two));
    let seeds: Vec<u64> = one.iter().map(|r| r.seed).collect();
    assert_eq!(seeds, (1..=12).collect::<Vec<_>>());
    assert!(one.iter().all(|r| r.outcome.is_some() && r.error.is_none()));
    assert_eq!(read_runs_jsonl(&runs_jsonl(&one)).unwrap(), one);
}

/// Dungeon Delves › Traps: a creature stepping on a hidden pit sets it off on 1–2 in 6. A lone
/// delver walks a corridor over one hidden pit to the way out beyond it, once: the share of
/// delves that spring the pit is a third, within the 95% interval of 300 delves.
#[test]
fn a_hidden_pit_is_sprung_in_a_third_of_the_delves() {
    let level = Scenario::new(&["XXXXXXXXXXX", "X.........X", "XXXXXXXXXXX"])
        .field("goal: Exit((9, 1))")
        .trap("(at: (5, 1), kind: Pit(depth_feet: 10), trigger: Step, hidden: true)")
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
                proficiencies: [Climbing], throws: { Climbing: 4 },
                carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])"#,
        )
        .level()
        .unwrap();
    let plan = LabPlan {
        level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs: 300,
        jobs: 2,
    };
    let records = run_lab(&plan, |_| {}).unwrap().records;
    let summary = Summary::of(&records);
    assert_eq!(summary.failed, vec![], "every delve ends");
    assert_eq!(summary.share(Outcome::GoalReached).count, 300);
    let sprung = records.iter().filter(|r| r.tally.traps_sprung > 0).count() as u64;
    assert!(
        records.iter().all(|r| r.tally.traps_sprung <= 1),
        "passed over once"
    );
    // Each delve's record names the pit it sprang, where it is.
    for r in records.iter().filter(|r| r.tally.traps_sprung > 0) {
        assert_eq!(r.features.sprung.len(), 1);
        assert_eq!(
            r.features.sprung[0].0,
            delve_ground::grid::GridPos::new(5, 1)
        );
    }
    let share = Share::new(sprung, 300);
    assert!(
        share.low <= 1.0 / 3.0 && 1.0 / 3.0 <= share.high,
        "{share:?}"
    );
}

/// The report names every outcome with its interval, and the delves that failed.
#[test]
fn the_report_lists_the_outcomes() {
    let plan = crypt_plan(6, 2);
    let result = run_lab(&plan, |_| {}).unwrap();
    let records = &result.records;
    let summary = Summary::of(records);
    assert_eq!(summary.runs, 6);
    assert_eq!(
        summary.outcomes.iter().map(|(_, s)| s.count).sum::<u64>(),
        6
    );
    // Every delve starts in the entry hall, the room named (1, 1), and came into it at once.
    for r in records {
        assert_eq!(
            r.features.reached.first(),
            Some(&(delve_ground::grid::GridPos::new(1, 1), 0.1))
        );
    }
    // Every delve stood on the way in; none saw the squares no one can reach.
    // Each table has an id of its own, which `lab compare` matches tables by.
    let tables = delve::lab::report::tables(&plan, "", records);
    let ids: std::collections::BTreeSet<&str> = tables.iter().map(|t| t.id).collect();
    assert_eq!(ids.len(), tables.len(), "{ids:?}");
    let heat = &result.heat;
    let way_in = (2 * heat.width + 2) as usize;
    assert_eq!(heat.visited[way_in], 6);
    assert_eq!(heat.unseen[0], 0, "a wall is not a square to see");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lab-report");
    std::fs::create_dir_all(&dir).unwrap();
    delve::lab::report::write_all(&plan, "levels/crypt.ron", &result, &dir).unwrap();
    for file in [
        "runs.jsonl",
        "report.md",
        "report.html",
        "visited.png",
        "turns.png",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    let png = std::fs::read(dir.join("visited.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

/// A lab played as three shards and merged is the lab played at once: the same records, the
/// same heat, the same report, byte for byte.
#[test]
fn sharded_then_merged_equals_the_whole_lab() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lab-shards");
    let _ = std::fs::remove_dir_all(&tmp);
    let whole = crypt_plan(9, 2);
    let mut parts = Vec::new();
    for i in 0..3 {
        let plan = whole.shard(i, 3).unwrap();
        let result = run_lab(&plan, |_| {}).unwrap();
        let dir = tmp.join(format!("shard-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        delve::lab::write_partial(&plan, "levels/crypt.ron", &result, &dir).unwrap();
        parts.push(delve::lab::read_partial(&dir).unwrap());
    }
    // The shards are merged in any order.
    parts.reverse();
    let (meta, merged) = delve::lab::merge(parts).unwrap();
    assert_eq!((meta.seed, meta.runs), (1, 9));
    let at_once = run_lab(&whole, |_| {}).unwrap();
    assert_eq!(merged, at_once);
    let (a, b) = (tmp.join("merged"), tmp.join("at-once"));
    for (dir, result) in [(&a, &merged), (&b, &at_once)] {
        std::fs::create_dir_all(dir).unwrap();
        delve::lab::report::write_all(&whole, "levels/crypt.ron", result, dir).unwrap();
    }
    // The same but for the folder the report names (`delve replay FOLDER --seed S`).
    let read = |dir: &std::path::Path, file: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap()
            .replace(&dir.display().to_string(), "LAB")
    };
    for file in ["runs.jsonl", "report.md", "heat.json"] {
        assert_eq!(read(&a, file), read(&b, file), "{file}");
    }
    assert!(read(&a, "report.md").contains("`delve replay LAB --seed "));
}

/// Shards of different labs, or with seeds missing between them, are not merged.
#[test]
fn shards_that_do_not_fit_are_not_merged() {
    let whole = crypt_plan(6, 1);
    let meta = |plan: &LabPlan| delve::lab::LabMeta {
        level_file: "levels/crypt.ron".into(),
        seed: plan.seed,
        runs: plan.runs,
        policy: plan.policy.clone(),
        level_fingerprint: None,
    };
    let empty = delve::lab::LabResult::default();
    let (s0, s2) = (whole.shard(0, 3).unwrap(), whole.shard(2, 3).unwrap());
    assert!(
        delve::lab::merge(vec![(meta(&s0), empty.clone()), (meta(&s2), empty.clone())]).is_err()
    );
    assert!(whole.shard(3, 3).is_err());
}

/// Comparing a lab with itself moves nothing; taking the hidden pit out of the corridor moves
/// the traps sprung beyond their intervals.
#[test]
fn compare_shows_what_an_edit_moved() {
    let corridor = |trap: bool| {
        let mut s = Scenario::new(&["XXXXXXXXXXX", "X.........X", "XXXXXXXXXXX"])
            .field("goal: Exit((9, 1))")
            .faction(r#"(name: "party", marching_order: ["Ana"])"#)
            .creature(
                r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
                    proficiencies: [Climbing], throws: { Climbing: 4 },
                    carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])"#,
            );
        if trap {
            s = s.trap("(at: (5, 1), kind: Pit(depth_feet: 10), trigger: Step, hidden: true)");
        }
        let plan = LabPlan {
            level: s.level().unwrap(),
            policy: PartyPolicy::default(),
            seed: 1,
            runs: 60,
            jobs: 2,
        };
        let records = run_lab(&plan, |_| {}).unwrap().records;
        (plan, records)
    };
    let (before, after) = (corridor(true), corridor(false));
    let same = delve::lab::compare::compare((&before.0, &before.1), (&before.0, &before.1));
    assert!(same.iter().all(|c| !c.moved));
    assert!(same.iter().all(|c| c.paired.is_some() || c.before == "—"));
    let edit = delve::lab::compare::compare((&before.0, &before.1), (&after.0, &after.1));
    let sprung = edit
        .iter()
        .find(|c| c.table == "A delve" && c.row == "traps sprung on a member")
        .unwrap();
    assert!(sprung.moved, "{edit:?}");
    assert!(sprung.paired.is_some_and(|p| p.mean < 0.0));
    let goal = edit
        .iter()
        .find(|c| c.table == "Outcomes" && c.row == "GoalReached" && c.column == "share")
        .unwrap();
    assert!(!goal.moved, "{goal:?}");
    // The trap's row is only before.
    assert!(edit.iter().any(|c| c.table == "Traps" && c.after == "—"));
}

/// A lab stopped midway (Ctrl-C) keeps the delves it played; resumed, it plays only the rest,
/// and comes to the lab played at once.
#[test]
fn an_interrupted_lab_resumes_to_the_same_result() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let plan = crypt_plan(8, 1);
    let seeds: Vec<u64> = plan.seeds().collect();
    let stop = AtomicBool::new(false);
    let played = AtomicUsize::new(0);
    let kept = delve::lab::run_seeds(
        &plan,
        &seeds,
        |_| {
            if played.fetch_add(1, Ordering::Relaxed) + 1 == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        },
        &stop,
    )
    .unwrap();
    assert_eq!(kept.records.len(), 3, "stopped after three");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lab-interrupted");
    std::fs::create_dir_all(&dir).unwrap();
    delve::lab::write_partial(&plan, "levels/crypt.ron", &kept, &dir).unwrap();
    let (meta, kept) = delve::lab::read_partial(&dir).unwrap();
    assert_eq!((meta.seed, meta.runs), (1, 8));
    // An unfinished lab is not merged as if it were whole.
    assert!(delve::lab::merge(vec![(meta, kept.clone())]).is_err());
    let rest: Vec<u64> = seeds
        .iter()
        .copied()
        .filter(|s| !kept.records.iter().any(|r| r.seed == *s))
        .collect();
    let more = delve::lab::run_seeds(&plan, &rest, |_| {}, &AtomicBool::new(false)).unwrap();
    let resumed = delve::lab::join(kept, more);
    assert_eq!(resumed, run_lab(&plan, |_| {}).unwrap());
}

/// Which noises brought which monsters, from the typed events: a rat around the corner hears
/// the delver bash a stuck door (a loud noise, heard without a throw within 45' in a normal
/// dungeon) and goes to look, and the delve's record says so.
#[test]
fn the_record_names_the_noise_that_brought_a_monster() {
    use delve::lab::{Brought, MadeBy};
    use delve_rules::rules::sound::{NoiseKind, NoisyAction};
    let level = Scenario::new(&[
        "XXXXXXXXXXX",
        "X....+....X",
        "XXXXXXXX.XX",
        "XXXXXXXX.XX",
        "XXXXXXXX.XX",
        "XXXXXXXXXXX",
    ])
    .legend("'+': Door")
    .field("goal: Exit((8, 4))")
    .door("(at: (5, 1), stuck: true)")
    .faction(r#"(name: "party", marching_order: ["Ana"])"#)
    .faction(r#"(name: "rats", hostile_to: ["party"])"#)
    .creature(
        r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
            str: 18, weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)],
            carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])"#,
    )
    .creature(
        r#"(name: "Rat", faction: "rats", at: (8, 3), hp: 2, ac: 10, speed_feet: 120,
            weapons: [(name: "bite", damage: "1d3", damage_type: Piercing)])"#,
    );
    std::fs::write("/tmp/rat.ron", level.source()).unwrap();
    let level = level.level().unwrap();
    let plan = LabPlan {
        level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs: 10,
        jobs: 2,
    };
    let records = run_lab(&plan, |_| {}).unwrap().records;
    for r in &records {
        assert!(r.error.is_none(), "{r:?}");
        eprintln!(
            "{} {:?} {:?}",
            r.seed, r.features.brought, r.features.fought
        );
        assert_eq!(
            r.features.brought.first(),
            Some(&Brought {
                monster: "Rat".into(),
                noise: NoiseKind::Action(NoisyAction::BashingADoor),
                made_by: MadeBy::TheParty,
            }),
            "seed {}",
            r.seed
        );
        assert_eq!(r.features.fought, vec!["Rat".to_owned()]);
    }
}

/// No tactic gives a refused command more than twice in a row (issue 33): in 48 delves of the
/// crypt (seeds 34 and 42 gave one member's move from the bottom of the pit 9 and 4 times before
/// the fighting behaviour let those in a hole be) and 16 of each other sample level with the
/// default policy, the longest run of the same refused command of the party's is at most 2 (the
/// lab reports it for any number of delves). And no delve ends with a living member left
/// behind whom the others could have brought out (carried, or roped out of a pit), unless the
/// party fled a foe at hand.
#[test]
fn no_refused_command_is_repeated_and_no_one_who_could_be_brought_out_is_left() {
    for (level, runs) in [
        ("crypt", 48),
        ("cave", 16),
        ("undercroft", 16),
        ("descent", 16),
    ] {
        let plan = LabPlan {
            level: delve_ground::level::load_level_file(std::path::Path::new(&format!(
                "levels/{level}.ron"
            )))
            .unwrap()
            .level,
            policy: PartyPolicy::default(),
            seed: 1,
            runs,
            jobs: 2,
        };
        for r in run_lab(&plan, |_| {}).unwrap().records {
            assert!(
                r.outcome == Some(Outcome::PartyFled)
                    || r.tally.left_behind.iter().all(|l| !l.could_be_brought),
                "{level}, seed {}: left behind {:?}",
                r.seed,
                r.tally.left_behind
            );
            assert!(
                r.tally.repeated_refusals <= 2,
                "{level}, seed {}: the same refused command {} times in a row",
                r.seed,
                r.tally.repeated_refusals
            );
        }
    }
}

/// The report counts the living left behind, and those the others could have brought out
/// (issue 34: "No one died" hid 107 crypt delves that left a member at 0 hit points).
#[test]
fn the_report_counts_the_living_left_behind() {
    use delve::lab::RunRecord;
    use delve_ground::grid::GridPos;
    use delve_minds::policy::outcome::{LeftBehind, Stayed};
    let left = |could: bool| LeftBehind {
        who: "Aldric".into(),
        at: GridPos::new(15, 10),
        how: Stayed::InAPit,
        could_be_brought: could,
    };
    let record = |seed: u64, left_behind: Vec<LeftBehind>| RunRecord {
        seed,
        outcome: Some(Outcome::GoalReached),
        tally: delve_minds::policy::outcome::Tally {
            left_behind,
            ..Default::default()
        },
        features: Default::default(),
        error: None,
    };
    let summary = Summary::of(&[
        record(1, vec![left(false)]),
        record(2, vec![left(true)]),
        record(3, Vec::new()),
    ]);
    assert_eq!(
        summary.left_behind,
        vec![(
            (
                "Aldric".to_owned(),
                GridPos::new(15, 10),
                "in a pit".to_owned()
            ),
            2,
            1
        )]
    );
}

/// Every foe of the party is listed, those never met at zero (issue 34: "foes never met are
/// missing"): a ghost walled off where no one can reach it.
#[test]
fn the_report_lists_a_foe_never_met_at_zero() {
    let level = Scenario::new(&["XXXXXXXXX", "X.....X.X", "XXXXXXXXX"])
        .field("goal: Exit((5, 1))")
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .faction(r#"(name: "dead", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
                carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])"#,
        )
        .creature(r#"(name: "Ghost", faction: "dead", at: (7, 1), hp: 5, ac: 10, speed_feet: 60)"#)
        .level()
        .unwrap();
    let plan = LabPlan {
        level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs: 2,
        jobs: 1,
    };
    let records = run_lab(&plan, |_| {}).unwrap().records;
    assert!(records.iter().all(|r| r.features.fought.is_empty()));
    let tables = delve::lab::report::tables(&plan, "ghost.ron", &records);
    let foes = tables.iter().find(|t| t.title == "Foes").unwrap();
    let fought = foes
        .cell("Ghost", "fought")
        .and_then(|c| c.share())
        .unwrap();
    assert_eq!((fought.count, fought.of), (0, 2));
    let never = foes
        .cell("Ghost", "never met")
        .and_then(|c| c.share())
        .unwrap();
    assert_eq!((never.count, never.of), (2, 2));
}
