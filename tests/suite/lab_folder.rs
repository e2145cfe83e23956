//! A lab's folder is checked before it is trusted: `--resume` refuses a level edited since the
//! interruption, leaves out seeds twice or not its own, keeps the heat only of the delves it
//! keeps, keeps what it can of a last line cut short, and a record past the longest delve is
//! refused when read; `merge` refuses shards of other labs. Each was once taken as it came (a
//! lab of 201 records out of 200, heat counted twice, 32 GB for one record's turns).

use std::path::{Path, PathBuf};

use delve::lab::{LabPlan, LabResult, read_partial, resume, run_lab, write_partial};
use delve_ground::party_policy::PartyPolicy;

/// A folder holding a copy of the crypt (`crypt.ron`) and a lab of `runs` of its delves,
/// `played` of them played and written.
fn interrupted(name: &str, runs: u64, played: u64) -> (LabPlan, PathBuf, String, LabResult) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lab-folder-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let level_file = dir.join("crypt.ron");
    std::fs::copy("levels/crypt.ron", &level_file).unwrap();
    let plan = LabPlan {
        level: delve_ground::level::load_level_file(&level_file)
            .unwrap()
            .level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs,
        jobs: 1,
    };
    let file = level_file.display().to_string();
    let first = LabPlan {
        runs: played,
        ..plan.clone()
    };
    let kept = run_lab(&first, |_| {}).unwrap();
    let out = dir.join("lab");
    std::fs::create_dir_all(&out).unwrap();
    write_partial(&plan, &file, &kept, &out).unwrap();
    (plan, out, file, kept)
}

fn runs_lines(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("runs.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The level edited since the interruption: nothing is resumed (the delves of two levels
/// would mix).
#[test]
fn resume_refuses_a_level_edited_since() {
    let (plan, out, file, _) = interrupted("edited", 4, 2);
    assert!(resume(&out, &plan, &file).is_ok());
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("name:", "// edited\n    name:", 1)).unwrap();
    let e = resume(&out, &plan, &file).unwrap_err();
    assert!(e.contains("has changed since the lab"), "{e}");
}

/// A seed twice and a seed of another lab in `runs.jsonl` are left out, each with a warning
/// naming its line; what is kept is the three delves played, and with the rest played it comes
/// to the lab played at once.
#[test]
fn resume_leaves_out_seeds_twice_and_foreign_seeds() {
    let (plan, out, file, kept) = interrupted("seeds", 5, 3);
    let mut lines = runs_lines(&out);
    let foreign = lines[0].replacen("{\"seed\":1,", "{\"seed\":77,", 1);
    assert_ne!(foreign, lines[0]);
    lines.push(lines[1].clone());
    lines.push(foreign);
    std::fs::write(out.join("runs.jsonl"), lines.join("\n") + "\n").unwrap();
    let (resumed, warnings) = resume(&out, &plan, &file).unwrap();
    assert_eq!(resumed, kept);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].ends_with(":4: seed 2 a second time: left out"),
        "{warnings:?}"
    );
    assert!(warnings[1].contains(":5: a delve of seed 77, not one of this lab's seeds 1 to 5"));
    let rest: Vec<u64> = (4..=5).collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let more = delve::lab::run_seeds(&plan, &rest, |_| {}, &stop).unwrap();
    assert_eq!(
        delve::lab::join(resumed, more),
        run_lab(&plan, |_| {}).unwrap()
    );
}

/// The heat of two delves beside the records of three: the third is played again rather than
/// its heat counted wrong; a last line cut short is played again, the others kept.
#[test]
fn resume_keeps_the_heat_only_of_the_delves_it_keeps() {
    let (plan, out, file, kept) = interrupted("heat", 4, 3);
    let two = run_lab(
        &LabPlan {
            runs: 2,
            ..plan.clone()
        },
        |_| {},
    )
    .unwrap();
    std::fs::write(
        out.join("heat.json"),
        serde_json::to_string(&two.heat).unwrap(),
    )
    .unwrap();
    let (resumed, warnings) = resume(&out, &plan, &file).unwrap();
    assert_eq!(resumed, two);
    assert!(
        warnings[0].contains("the heat maps hold 2 of the 3 delves kept"),
        "{warnings:?}"
    );
    // The heat of all three again, and the last line cut short.
    write_partial(&plan, &file, &kept, &out).unwrap();
    let text = std::fs::read_to_string(out.join("runs.jsonl")).unwrap();
    std::fs::write(out.join("runs.jsonl"), &text[..text.len() - 40]).unwrap();
    let (resumed, warnings) = resume(&out, &plan, &file).unwrap();
    assert_eq!(
        resumed, kept,
        "the delve of the line cut short is played again for it"
    );
    assert!(
        warnings[0].contains(":3: the last line is cut short"),
        "{warnings:?}"
    );
    assert!(warnings[1].contains("hold 1 delves whose records were lost"));
    // Heat of another size: none of it is trusted.
    let mut wrong = kept.heat.clone();
    wrong.visited.pop();
    write_partial(
        &plan,
        &file,
        &LabResult {
            heat: wrong,
            ..kept.clone()
        },
        &out,
    )
    .unwrap();
    let (resumed, _) = resume(&out, &plan, &file).unwrap();
    assert!(resumed.records.is_empty());
}

/// A record of a billion turns is refused where it is read (it once made `compare`, `merge`
/// and `--resume` allocate 32 GB), naming its line; `--resume` plays that delve again.
#[test]
fn a_record_past_the_longest_delve_is_refused() {
    let (plan, out, file, kept) = interrupted("turns", 3, 2);
    let mut lines = runs_lines(&out);
    let at = lines[1].find("\"turns\":").unwrap() + "\"turns\":".len();
    let end = at + lines[1][at..].find(',').unwrap();
    lines[1].replace_range(at..end, "1000000000.0");
    std::fs::write(out.join("runs.jsonl"), lines.join("\n") + "\n").unwrap();
    let e = read_partial(&out).unwrap_err();
    assert!(
        e.contains("line 2: turns 1000000000 is not 0 to 6001 turns"),
        "{e}"
    );
    let (resumed, warnings) = resume(&out, &plan, &file).unwrap();
    assert_eq!(resumed, kept, "the delve is played again for its record");
    assert!(warnings[0].contains(":2: turns 1000000000"), "{warnings:?}");
}

/// A shard holding a seed not its own, or heat maps not of its delves, is not merged.
#[test]
fn merge_refuses_shards_that_are_not_whole() {
    let (plan, out, file, kept) = interrupted("merge", 2, 2);
    let whole = read_partial(&out).unwrap();
    assert!(delve::lab::merge(vec![whole.clone()]).is_ok());
    let mut foreign = whole.clone();
    foreign.1.records[1].seed = 9;
    let e = delve::lab::merge(vec![foreign]).unwrap_err();
    assert!(e.contains("holds a delve of seed 9"), "{e}");
    let mut heat = whole.clone();
    heat.1.heat.seeds.pop();
    let e = delve::lab::merge(vec![heat]).unwrap_err();
    assert!(e.contains("its heat maps are not of its delves"), "{e}");
    let mut short = whole;
    short.1.heat.deaths.pop();
    let e = delve::lab::merge(vec![short]).unwrap_err();
    assert!(e.contains("another size"), "{e}");
    let _ = (plan, file, kept);
}
