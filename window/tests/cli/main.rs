//! The command line: `check`, `sim` and `query` as a level designer and a Judge use them. These
//! tests run the `delve` binary and read what it prints and writes; they link nothing of the core.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod query;

fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve"))
        .args(args)
        // The workspace root, where the sample levels are.
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("delve runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A file in the scratch folder with this text.
fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn check_passes_the_sample_levels() {
    let o = delve(&[
        "check",
        "levels/crypt.ron",
        "levels/cave.ron",
        "levels/undercroft.ron",
    ]);
    assert!(
        o.status.success(),
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout(&o).contains("levels/crypt.ron: ok: \"Crypt of the Ash Kings\""));
}

#[test]
fn check_reports_every_problem_of_every_file_and_fails() {
    let bad = scratch_file(
        "bad.ron",
        "(\n    name: \"bad\",\n    legend: { '.': Floor },\n    map: [\n        \"..\",\n        \".x\",\n    ],\n    factions: [(name: \"a\")],\n    creatures: [(name: \"z\", faction: \"b\", at: (0, 0), hp: 1, ac: 10, speed_feet: 30)],\n)\n",
    );
    let bad = bad.to_str().unwrap();
    let o = delve(&["check", bad, "levels/crypt.ron"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("{bad}:6:11: error: unknown legend character 'x'")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{bad}:9:38: error: unknown faction `b`")),
        "{out}"
    );
    assert!(
        out.contains("levels/crypt.ron: ok"),
        "the other file is still checked: {out}"
    );
}

#[test]
fn sim_runs_a_script_and_writes_json_lines() {
    let script = scratch_file(
        "script.ron",
        "[\n    (round: 0, command: Move(who: \"Sera\", to: (5, 2))),\n    (round: 3, command: Move(who: \"Nobody\", to: (1, 1))),\n]\n",
    );
    let log = scratch("log.jsonl");
    let args = [
        "sim",
        "levels/crypt.ron",
        "--seed",
        "5",
        "--rounds",
        "12",
        "--commands",
        script.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ];
    let o = delve(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains("Sera arrives at (5, 2)"), "{text}");
    assert!(text.contains("Nobody cannot move to (1, 1)"), "{text}");
    assert!(text.contains("turn 1 ends"), "{text}");
    let lines = std::fs::read_to_string(&log).unwrap();
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["round"].is_u64() && v["event"].is_string(), "{line}");
    }
    let again = delve(&args);
    assert_eq!(stdout(&again), text, "same seed and script, same log");
    // The second run wrote over the first one's log, and said so.
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains(&format!(
            "note: the log replaces the file that was at {}",
            log.display()
        )),
        "{said}"
    );
}

#[test]
fn sim_reports_a_broken_script_at_its_line() {
    let script = scratch_file(
        "broken.ron",
        "[\n    (round: 0, command: Fly(who: \"Sera\")),\n]\n",
    );
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--rounds",
        "1",
        "--commands",
        script.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}:2:", script.display())) && err.contains("Fly"),
        "{err}"
    );
}

#[test]
fn every_subcommand_has_help() {
    for args in [
        &["--help"][..],
        &["check", "--help"],
        &["sim", "--help"],
        &["query", "x", "los", "--help"],
    ] {
        let o = delve(args);
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).contains("Usage"), "{args:?}");
    }
}

#[test]
fn sim_marches_the_party_in_formation() {
    let script = scratch_file(
        "party.ron",
        "[(round: 0, command: MoveParty(party: \"party\", to: (17, 4), pace: Combat))]",
    );
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--rounds",
        "8",
        "--commands",
        script.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    // Mirela, at 7.5 stone, sets the pace: 20' a round.
    assert!(
        text.contains("the party marches behind Brannoc at 20' per round"),
        "{text}"
    );
    assert!(text.contains("Brannoc arrives at (17, 4)"), "{text}");
    assert!(
        text.contains("Aldric is Vulnerable (mapping: both hands busy"),
        "{text}"
    );
}

/// The window refuses an unknown `--select`, naming the creatures it could have been, before it
/// opens anything.
#[cfg(feature = "gui")]
#[test]
fn the_window_names_the_creatures_when_select_misses() {
    let o = delve(&["levels/crypt.ron", "--select", "Nobody"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no creature named \"Nobody\""), "{err}");
    assert!(err.contains("\"Brannoc\""), "{err}");
}

/// `--without combat` plays a level with no battle, whatever its file says.
#[test]
fn sim_without_combat_plays_no_battle() {
    let level = scratch_file(
        "arena.ron",
        r#"(name: "arena", legend: { 'X': Wall(Stone), '.': Floor },
            map: ["XXXXXXX", "X.....X", "XXXXXXX"],
            lights: [(at: (3, 1), kind: Custom(bright_feet: 30, dim_feet: 40), lit: true)],
            factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
            creatures: [
                (name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16,
                 encumbrance_stone: 6.0, attack_bonus: 3,
                 weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]),
                (name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1)),
            ])"#,
    );
    let level = level.to_str().unwrap();
    let events = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["sim", level, "--rounds", "12", "--json"];
        args.extend(extra);
        let o = delve(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["event"].as_str().unwrap_or_default().to_owned()
            })
            .collect()
    };
    let with = events(&[]);
    assert!(with.iter().any(|e| e == "attacked"), "{with:?}");
    let without = events(&["--without", "combat"]);
    assert!(without.len() > 1);
    assert!(
        without.iter().all(|e| e != "initiative" && e != "attacked"),
        "{without:?}"
    );
}

/// The JSON answer `delve` prints for these arguments.
fn json(args: &[&str]) -> serde_json::Value {
    let o = delve(args);
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

/// `--auto` on a level with no party (no faction with a marching order) says so, and plays
/// nothing.
#[test]
fn auto_needs_a_party() {
    let level = scratch_file(
        "no-party.ron",
        "(\n    name: \"no party\",\n    legend: { '.': Floor },\n    map: [\"...\"],\n    factions: [(name: \"a\")],\n    creatures: [(name: \"z\", faction: \"a\", at: (0, 0), hp: 1, ac: 10, speed_feet: 30)],\n)\n",
    );
    let o = delve(&["sim", level.to_str().unwrap(), "--auto"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty(), "no log: {}", stdout(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("marching_order"), "{err}");
}

/// `delve lab` writes `runs.jsonl` (a delve a line, with its seed) and `report.md`.
#[test]
fn lab_writes_its_runs_and_report() {
    let out = scratch("lab-crypt");
    let _ = std::fs::remove_dir_all(&out);
    let o = delve(&[
        "lab",
        "levels/crypt.ron",
        "--runs",
        "4",
        "--seed",
        "7",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let runs = std::fs::read_to_string(out.join("runs.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = runs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seeds: Vec<u64> = records
        .iter()
        .map(|r| r["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, vec![7, 8, 9, 10]);
    assert!(records.iter().all(|r| r.get("outcome").is_some()));
    assert!(out.join("report.md").exists());
}

/// `delve --load SAVE`: a save of a level file changed since says so and how to load it anyway;
/// a save cut short says so; neither opens anything.
#[cfg(feature = "gui")]
#[test]
fn the_window_tells_a_bad_save_before_it_opens() {
    let level = scratch("saved-level.ron");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../levels/crypt.ron"),
        &level,
    )
    .unwrap();
    let save = scratch("delve.save.ron");
    let o = delve(&[
        "sim",
        level.to_str().unwrap(),
        "--rounds",
        "4",
        "--seed",
        "3",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&level).unwrap();
    let edited = text.replacen("Ash Kings", "Ash Queens", 1);
    std::fs::write(&level, edited).unwrap();
    let o = delve(&["--load", save.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("has changed since the save"), "{err}");
    assert!(err.contains("--anyway"), "{err}");
    let whole = std::fs::read_to_string(&save).unwrap();
    let cut = scratch_file("cut.save.ron", &whole[..whole.len() / 3]);
    let o = delve(&["--load", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cut short"), "{err}");
}

/// `delve play` on a level without a party says so before it opens anything.
#[cfg(feature = "gui")]
#[test]
fn play_needs_a_party() {
    let level = scratch_file(
        "no-party.ron",
        r#"(
    name: "empty",
    legend: { 'X': Wall(Stone), '.': Floor },
    map: ["XXXX", "X..X", "XXXX"],
)"#,
    );
    let o = delve(&["play", level.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no party to play"), "{err}");
}

/// A corridor whose far end is the goal; `walled` puts a wall across it.
fn goal_corridor(name: &str, walled: bool) -> PathBuf {
    let middle = if walled { "X...X...X" } else { "X.......X" };
    scratch_file(
        name,
        &format!(
            r#"(name: "corridor", legend: {{ 'X': Wall(Stone), '.': Floor }},
    map: ["XXXXXXXXX", "{middle}", "XXXXXXXXX"],
    goal: Exit((7, 1)),
    factions: [(name: "party", marching_order: ["Ana"])],
    creatures: [(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
        carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])],
)
"#
        ),
    )
}

/// `--expect`: a level built to keep its expectation passes, one built to miss it fails with
/// status 3, and each stops as soon as the sequential test decides — far fewer delves than the
/// cap — and `merge --expect` judges a sharded lab the same way.
#[test]
fn lab_expect_passes_fails_and_stops_early() {
    let expect = scratch_file(
        "goal.expect.ron",
        "// the goal, most of the time\n{ goal_reached: (at_least: 0.8) }\n",
    );
    let run = |level: &Path, out: &str| {
        let out = scratch(out);
        let _ = std::fs::remove_dir_all(&out);
        let o = delve(&[
            "lab",
            level.to_str().unwrap(),
            "--runs",
            "500",
            "--jobs",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--expect",
            expect.to_str().unwrap(),
        ]);
        let played = std::fs::read_to_string(out.join("runs.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        (o, played)
    };
    let (open, played) = run(&goal_corridor("open.ron", false), "lab-expect-open");
    assert!(open.status.success(), "{}", stdout(&open));
    assert!(
        stdout(&open).contains("1 of 1 expectations kept"),
        "{}",
        stdout(&open)
    );
    assert!(played < 500, "played {played} of the cap");
    let (walled, played) = run(&goal_corridor("walled.ron", true), "lab-expect-walled");
    assert_eq!(walled.status.code(), Some(3), "{}", stdout(&walled));
    assert!(played < 500, "played {played} of the cap");

    // Sharded: the shards play their seeds; the merge judges them.
    let level = goal_corridor("open-sharded.ron", false);
    let mut parts = Vec::new();
    for i in 0..2 {
        let part = scratch(&format!("lab-expect-shard{i}"));
        let _ = std::fs::remove_dir_all(&part);
        let o = delve(&[
            "lab",
            level.to_str().unwrap(),
            "--runs",
            "40",
            "--shard",
            &format!("{i}/2"),
            "--out",
            part.to_str().unwrap(),
            "--expect",
            expect.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        parts.push(part);
    }
    let merged = scratch("lab-expect-merged");
    let o = delve(&[
        "lab",
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--expect",
        expect.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("1 of 1 expectations kept"),
        "{}",
        stdout(&o)
    );

    // A broken file says where.
    let broken = scratch_file("broken.expect.ron", "{ goal_reached: (at_lest: 0.8) }\n");
    let o = delve(&[
        "lab",
        "levels/crypt.ron",
        "--expect",
        broken.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.expect.ron:1:"), "{err}");
}

/// A journal keeps the check of every turn: `sim --commands` of it replays the same log; with
/// one of its events changed, it stops at the first event that differs, names it and its
/// round, and exits 3.
#[test]
fn sim_stops_where_a_tampered_journal_goes_another_way() {
    let journal = scratch("checked.journal.ron");
    let j = journal.to_str().unwrap();
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--auto",
        "--seed",
        "4",
        "--journal",
        j,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.contains("checks: ["), "{text}");
    assert!(text.contains("level: \"levels/crypt.ron\""), "{text}");
    let rounds = text
        .split("--rounds ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_owned();
    let replay = |file: &str| {
        delve(&[
            "sim",
            "levels/crypt.ron",
            "--seed",
            "4",
            "--rounds",
            &rounds,
            "--commands",
            file,
        ])
    };
    let same = replay(j);
    assert!(
        same.status.success(),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
    assert_eq!(stdout(&same), stdout(&o), "the same log");

    // The second event of turn 3, as the journal's delve logged it, changed.
    let at = text.find("turn: 3,").unwrap();
    let events = at + text[at..].find("events: [").unwrap() + "events: [".len();
    let numbers: Vec<&str> = text[events..]
        .split(']')
        .next()
        .unwrap()
        .split(',')
        .collect();
    let second = numbers[1].trim();
    let changed = format!("{}", second.parse::<u64>().unwrap() ^ 1);
    let start = events + text[events..].find(second).unwrap();
    let tampered = format!(
        "{}{changed}{}",
        &text[..start],
        &text[start + second.len()..]
    );
    let file = scratch_file("tampered.journal.ron", &tampered);
    let o = replay(file.to_str().unwrap());
    assert_eq!(o.status.code(), Some(3));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("the delve went another way at [h0 t2 r")
            && said.contains("event 2 of turn 3"),
        "{said}"
    );
    // The log stops at the end of that turn.
    assert!(!stdout(&o).contains("turn 4 ends"), "{}", stdout(&o));
}

/// A reader that stops after the first line (`delve check … | head -1`, `delve sim --auto … |
/// head`) ends delve quietly: no panic on the broken pipe.
#[test]
fn a_reader_that_stops_early_ends_delve_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    for args in [
        &[
            "check",
            "levels/crypt.ron",
            "levels/cave.ron",
            "levels/undercroft.ron",
        ][..],
        &["sim", "levels/crypt.ron", "--auto", "--seed", "3"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_delve"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("delve runs");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}");
        // (The reader is dropped here: the pipe closes.)
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A lab of no delves, or of seeds past the largest, is refused before anything is played:
/// `--runs 0` (it reported "Every delve reached the goal"), `--seed 18446744073709551615
/// --runs 3` (it played none and reported three).
#[test]
fn a_lab_of_no_delves_or_of_seeds_past_the_largest_is_refused() {
    let out = std::env::temp_dir().join(format!("delve-lab-bounds-{}", std::process::id()));
    let out = out.to_str().unwrap();
    let o = delve(&["lab", "levels/descent.ron", "--runs", "0", "--out", out]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--runs"),
        "{o:?}"
    );
    let o = delve(&[
        "lab",
        "levels/descent.ron",
        "--seed",
        "18446744073709551615",
        "--runs",
        "3",
        "--out",
        out,
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("the last seed would pass"),
        "{o:?}"
    );
    assert!(!std::path::Path::new(out).join("report.html").exists());
}

/// `--commands J --journal J` would write a replay cut short over the journal it replays: it
/// is refused, and the journal is left as it was.
#[test]
fn a_journal_is_not_written_over_the_script_it_replays() {
    let dir = std::env::temp_dir().join(format!("delve-journal-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("j.ron");
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--rounds",
        "3",
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let before = std::fs::read_to_string(&journal).unwrap();
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--rounds",
        "1",
        "--commands",
        journal.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("is the --commands file"),
        "{o:?}"
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level named that is a pipe (a FIFO no one writes to) or a device is refused at once with
/// why, instead of a read that waits forever, or one that fills the memory (`/dev/zero`).
#[cfg(unix)]
#[test]
fn a_pipe_or_a_device_named_as_a_level_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("delve-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("level.ron");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for named in [fifo.to_str().unwrap(), "/dev/zero"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_delve"))
            .args(["check", named])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("delve check {named} still reading after 20 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        assert!(!out.status.success());
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("not a regular file"), "{named}: {said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--policy` implies `--auto`, as the help says (it once demanded `--rounds`); rounds past the
/// longest delve (60,000 rounds) are refused with the range.
#[test]
fn sim_policy_implies_auto_and_rounds_are_bounded() {
    let o = delve(&[
        "sim",
        "levels/crypt.ron",
        "--policy",
        "careful",
        "--seed",
        "3",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).contains("the delve of party is over"),
        "{}",
        stdout(&o)
    );
    let o = delve(&["sim", "levels/crypt.ron", "--rounds", "1000000000"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("0..=60001"), "{err}");
}

/// `delve generate --situation`: the instance's level and expectations are written where asked,
/// the level passes `check`, the lab judges it by its expectations; the same seed writes the same
/// level; an unknown situation is refused with the names there are.
#[test]
fn generate_writes_a_situation_a_lab_can_judge() {
    let out = scratch("situations");
    let _ = std::fs::remove_dir_all(&out);
    let dir = out.to_str().unwrap();
    let o = delve(&[
        "generate",
        "--situation",
        "stuck_door",
        "--seed",
        "7",
        "--out",
        dir,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let level = out.join("stuck_door-7.ron");
    let expect = out.join("stuck_door-7.expect.ron");
    assert!(
        stdout(&o).contains("stuck_door-7.expect.ron"),
        "{}",
        stdout(&o)
    );
    let first = std::fs::read_to_string(&level).unwrap();
    let o = delve(&["check", level.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
    let again = delve(&[
        "generate",
        "--situation",
        "stuck_door",
        "--seed",
        "7",
        "--out",
        dir,
    ]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&level).unwrap(), first);
    let lab = out.join("lab");
    let o = delve(&[
        "lab",
        level.to_str().unwrap(),
        "--expect",
        expect.to_str().unwrap(),
        "--runs",
        "4",
        "--jobs",
        "2",
        "--out",
        lab.to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).contains("GoalReached at least 90.0%"),
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    let listed = delve(&["generate", "--situations"]);
    assert!(
        stdout(&listed).contains("stuck_door: "),
        "{}",
        stdout(&listed)
    );
    let o = delve(&["generate", "--situation", "no_such", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no_such") && err.contains("stuck_door"),
        "{err}"
    );
}
