//! The command line: `check`, `sim` and `query` as a level designer and a Judge use them. These
//! tests run the `delve` binary and read what it prints and writes; they link nothing of the core.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
fn query_los_answers_in_json() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "los",
        "--from",
        "2,2",
        "--to",
        "5,5",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["question"], "los");
    assert_eq!(v["from"]["x"], 2);
    assert_eq!(v["line_of_sight"], true);
    assert_eq!(v["distance_feet"], 20);
    // Through the wall between the entry hall and the pillared hall.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "los",
        "--from",
        "2,2",
        "--to",
        "9,2",
    ]);
    assert!(
        stdout(&o).starts_with("there is no line of sight from (2, 2) to (9, 2); 35' apart"),
        "{}",
        stdout(&o)
    );
}

/// `delve query choices` at round 0 of the crypt: Aldric, with an unlit lantern, may light it;
/// Brannoc, his torch burning, may douse it and rest.
#[test]
fn query_choices_offers_the_lights_and_rest() {
    let ways = |who: &str| -> Vec<String> {
        json(&[
            "query",
            "levels/crypt.ron",
            "choices",
            "--who",
            who,
            "--json",
        ])["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["way"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(ways("Aldric").contains(&"light the lantern".to_owned()));
    let brannoc = ways("Brannoc");
    assert!(
        brannoc.contains(&"douse its lights".to_owned()) && brannoc.contains(&"rest".to_owned()),
        "{brannoc:?}"
    );
}

/// A ghoul beside Brannoc, both in the light: after a round the battle is on, and `query
/// choices --after 1` offers him the battle's actions (the attack with its chance, stepping back
/// cautiously, disengaging, total defense); `query attack` gives the attack's breakdown and its
/// damage with the ghoul's armor DR by type (none: it wears none) — and Gnawbone's claw against
/// Brannoc's chain mail: DR 2 against slashing, 0 against bludgeoning.
#[test]
fn query_choices_and_attack_in_a_battle() {
    let level = scratch_file(
        "duel.ron",
        r#"(name: "duel", legend: { 'X': Wall(Stone), '.': Floor },
            map: ["XXXXXXX", "X.....X", "XXXXXXX"],
            lights: [(at: (3, 1), kind: Custom(bright_feet: 30, dim_feet: 40), lit: true)],
            factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
            creatures: [
                (name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16,
                 encumbrance_stone: 6.0, attack_bonus: 3,
                 weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)],
                 armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4))),
                (name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1)),
            ])"#,
    );
    let level = level.to_str().unwrap();
    let v = json(&[
        "query", level, "choices", "--who", "Brannoc", "--after", "1", "--json",
    ]);
    let ways: Vec<&str> = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["way"].as_str().unwrap())
        .collect();
    for way in [
        "attack with its sword",
        "step back cautiously",
        "disengage",
        "total defense",
    ] {
        assert!(ways.contains(&way), "{way}: {ways:?}");
    }
    let v = json(&[
        "query", level, "attack", "--who", "Brannoc", "--target", "Gnawbone", "--json",
    ]);
    let sword = &v["weapons"][0]["attack"];
    // d20 + 3 against the ghoul's AC 13: 10+, 55%.
    assert_eq!(sword["ac"], 13);
    assert_eq!(sword["need"], 10);
    assert_eq!(sword["modifiers"][0]["source"], "attack bonus");
    let v = json(&[
        "query", level, "attack", "--who", "Gnawbone", "--target", "Brannoc", "--json",
    ]);
    let claw = &v["weapons"][0]["attack"];
    assert_eq!(claw["dr"], 2, "{claw}");
    let by_type = claw["dr_by_type"].as_array().unwrap();
    assert_eq!(by_type[0], serde_json::json!(["Slashing", 2]));
    assert_eq!(by_type[2], serde_json::json!(["Bludgeoning", 0]));
    let text = stdout(&delve(&[
        "query", level, "attack", "--who", "Gnawbone", "--target", "Brannoc",
    ]));
    assert!(
        text.contains("claw: d20 +2 (attack bonus) vs AC 16: needs 14+"),
        "{text}"
    );
    let o = delve(&[
        "query", level, "attack", "--who", "Brannoc", "--target", "Gnawbone", "--weapon", "axe",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no weapon named `axe`"));
}

/// `delve query choices` names what holds a creature: stuck in a squeeze, Tam is told so, and
/// offered only its voice.
#[test]
fn query_choices_names_the_hold() {
    let level = scratch_file(
        "stuck.ron",
        r#"(name: "stuck", legend: { 'X': Wall(Stone), '.': Floor },
            map: ["XXXXX", "X...X", "XXXXX"],
            factions: [(name: "party")],
            creatures: [(name: "Tam", faction: "party", at: (2, 1), hp: 6, ac: 10,
                         encumbrance_stone: 2.0, conditions: [Stuck])])"#,
    );
    let level = level.to_str().unwrap();
    let v = json(&["query", level, "choices", "--who", "Tam", "--json"]);
    assert_eq!(v["held"], "stuck");
    let text = stdout(&delve(&["query", level, "choices", "--who", "Tam"]));
    assert!(
        text.starts_with("Tam at (2, 1): it is stuck in a squeeze"),
        "{text}"
    );
}

/// `delve query choices`: what a creature may do where it stands, as the window lists it: Sera,
/// the crypt's thief, standing in the entry hall, may search methodically (10+) or hastily
/// (14+), probe with her pole, rest, talk or shout, and sneak (14+).
#[test]
fn query_choices_lists_what_the_rules_offer() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "choices",
        "--who",
        "Sera",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["question"], "choices");
    let ways: Vec<(&str, Option<i64>)> = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["way"].as_str().unwrap(), c["target"].as_i64()))
        .collect();
    assert_eq!(
        ways,
        vec![
            ("search methodically", Some(10)),
            ("search hastily", Some(14)),
            ("probe ahead with the pole", None),
            ("rest", None),
            ("talk", None),
            ("shout", None),
            ("sneak", Some(14)),
        ]
    );
    let o = delve(&["query", "levels/crypt.ron", "choices", "--who", "Nobody"]);
    assert!(!o.status.success());
}

#[test]
fn query_path_gives_the_walk_and_its_length() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "path",
        "--from",
        "2,2",
        "--to",
        "12,3",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(v["squares"][0]["x"], 2);
    assert!(v["feet"].as_u64().unwrap() >= 50);
    // The locked iron door stands closed between the pillared hall and the passage.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "path",
        "--from",
        "20,4",
        "--to",
        "25,4",
    ]);
    assert!(stdout(&o).contains("no path"), "{}", stdout(&o));
}

#[test]
fn query_rejects_squares_off_the_map() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "los",
        "--from",
        "2,2",
        "--to",
        "500,5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("outside the map"));
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "los",
        "--from",
        "2;2",
        "--to",
        "5,5",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a malformed square is a usage error"
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
fn query_speeds_gives_the_three_speeds_and_why() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "speeds",
        "--who",
        "Mirela",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["encumbrance_stone"], 7.5);
    assert_eq!(v["exploration_feet_per_turn"], 60.0);
    assert_eq!(v["exploration_feet_per_round"], 6.0);
    assert_eq!(v["combat_feet_per_round"], 20.0);
    assert_eq!(v["running_feet_per_round"], 60.0);
    assert!(
        v["why"][0]
            .as_str()
            .unwrap()
            .contains("over 7, up to 10 stone")
    );
    let o = delve(&["query", "levels/crypt.ron", "speeds", "--who", "Gnawbone"]);
    let text = stdout(&o);
    assert!(text.starts_with("Gnawbone: exploration 90' per turn (9' per round), combat 30' per round, running 90' per round"), "{text}");
    assert!(text.contains("explicit speed 90'"), "{text}");
    let o = delve(&["query", "levels/crypt.ron", "speeds", "--who", "Nobody"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("there is no creature named `Nobody` (there are: Aldric, Ashmaw, Brannoc")
    );
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

#[test]
fn query_light_at_a_square_and_as_a_map() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "light",
        "--at",
        "16,4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["light"], "Bright", "the brazier's square");
    let o = delve(&["query", "levels/crypt.ron", "light", "--at", "35,12"]);
    assert_eq!(
        stdout(&o).trim(),
        "(35, 12) is Dark",
        "the ghouls keep no light"
    );
    let o = delve(&["query", "levels/crypt.ron", "light", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 17);
    assert!(
        rows.iter()
            .all(|r| r.as_str().unwrap().chars().count() == 41)
    );
    assert_eq!(rows[4].as_str().unwrap().chars().nth(16), Some('*'));
}

#[test]
fn query_sees_lists_the_squares_a_creature_sees() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "sees",
        "--who",
        "Gnawbone",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["blinded"], false);
    let seen = v["seen"].as_array().unwrap();
    assert!(
        seen.iter().all(|s| s["light"] == "Dim"),
        "lightless vision: dim only"
    );
    assert!(seen.iter().any(|s| s["x"] == 35 && s["y"] == 12));
    assert!(
        !seen.iter().any(|s| s["x"] == 2 && s["y"] == 2),
        "not the party behind the walls"
    );
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "sees",
        "--who",
        "Warden of Ash",
    ]);
    assert!(
        stdout(&o).starts_with("Warden of Ash at (5, 13) sees"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn query_hear_gives_the_earshot_distance_and_verdict() {
    // The crypt is a quiet environment: talking is heard with a throw out to 80'.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "hear",
        "--from",
        "2,2",
        "--sound",
        "normal",
        "--at",
        "2,5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["earshot_feet"], 15.0);
    assert_eq!(v["verdict"], "throw");
    assert_eq!(v["environment"], "Quiet");
    // In a loud environment talking carries only 10' with a throw.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "hear",
        "--from",
        "2,2",
        "--sound",
        "normal",
        "--at",
        "2,5",
        "--environment",
        "loud",
    ]);
    assert!(
        stdout(&o).contains("out of earshot, inaudible"),
        "{}",
        stdout(&o)
    );
    // The whole map as verdicts.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "hear",
        "--from",
        "7,3",
        "--sound",
        "loud",
    ]);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 18, "a header and 17 rows: {text}");
    let row3 = text.lines().nth(4).unwrap();
    assert!(
        row3.starts_with("AAAAAAAAAAAA") && row3.contains('t'),
        "{text}"
    );
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "hear",
        "--from",
        "7,3",
        "--sound",
        "thunder",
    ]);
    assert_eq!(o.status.code(), Some(2), "an unknown row is a usage error");
}

#[test]
fn query_hear_uses_the_listeners_region() {
    // Around the cave's pool the water is loud: talking 10' away takes a throw there ...
    let o = delve(&[
        "query",
        "levels/cave.ron",
        "hear",
        "--from",
        "27,8",
        "--sound",
        "normal",
        "--at",
        "29,8",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["environment"].as_str(), v["verdict"].as_str()),
        (Some("Loud"), Some("throw")),
        "{v}"
    );
    // ... while in the quiet caves 10' is heard without one.
    let o = delve(&[
        "query",
        "levels/cave.ron",
        "hear",
        "--from",
        "4,3",
        "--sound",
        "normal",
        "--at",
        "6,3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["environment"].as_str(), v["verdict"].as_str()),
        (Some("Quiet"), Some("automatic")),
        "{v}"
    );
}

#[test]
fn query_door_lists_the_ways_through_with_their_chances() {
    // Brannoc, Strength 16 with a crowbar, at the crypt's stuck door: 18 − 8 − 2 = 8+, 65%.
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "door",
        "--at",
        "27,4",
        "--who",
        "Brannoc",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["ways"][0]["way"], "bash");
    assert_eq!(v["ways"][0]["target"], 8);
    assert_eq!(v["ways"][0]["chance"], 0.65);
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "door",
        "--at",
        "10,12",
        "--who",
        "Sera",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("pick hastily: 1 round 14+, 35% per attempt"),
        "{text}"
    );
    assert!(
        text.contains("pick methodically: 1 turn 10+, 55% per attempt"),
        "{text}"
    );
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "door",
        "--at",
        "22,12",
        "--who",
        "Sera",
    ]);
    assert!(stdout(&o).contains("secret door: it must be found by searching first"));
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

/// `query initiative`: each faction's members, modifier (the average rounded up), roll, result
/// and the order; the same seed gives the same answer.
#[test]
fn query_initiative_lists_factions_in_order() {
    let o = delve(&[
        "query",
        "levels/crypt.ron",
        "initiative",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let factions = v["factions"].as_array().unwrap();
    assert_eq!(factions.len(), 3);
    let party = factions.iter().find(|f| f["name"] == "party").unwrap();
    // Aldric +1, Brannoc +1, Mirela +0, Sera +3: 5 / 4 rounds up to 2.
    assert_eq!(party["modifier"], 2);
    assert_eq!(
        party["result"].as_i64().unwrap(),
        party["roll"].as_i64().unwrap() + 2
    );
    let results: Vec<i64> = factions
        .iter()
        .map(|f| f["result"].as_i64().unwrap())
        .collect();
    assert!(results.windows(2).all(|w| w[0] >= w[1]), "highest first");
    let text = stdout(&delve(&[
        "query",
        "levels/crypt.ron",
        "initiative",
        "--seed",
        "3",
    ]));
    assert!(text.contains("order: "), "{text}");
    assert_eq!(
        text,
        stdout(&delve(&[
            "query",
            "levels/crypt.ron",
            "initiative",
            "--seed",
            "3"
        ]))
    );
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

/// `query squeeze` and `query swim`: the throw with its target and chance, as the rules make it
/// (the cave's Orrin: 6 stone; Wren: 3 stone; Dungeon Delves › Squeezing, › Swimming).
#[test]
fn query_squeeze_and_swim_give_the_throw_and_its_chance() {
    let v = json(&[
        "query",
        "levels/cave.ron",
        "squeeze",
        "--at",
        "15,5",
        "--who",
        "Orrin",
        "--json",
    ]);
    assert_eq!(v["throw"]["target"], 6);
    assert_eq!(v["throw"]["chance"], 0.75);
    let v = json(&[
        "query",
        "levels/cave.ron",
        "swim",
        "--at",
        "25,9",
        "--who",
        "Wren",
        "--json",
    ]);
    assert_eq!(v["throw"]["target"], 3);
    assert_eq!(v["throw"]["chance"], 0.9);
    let o = delve(&[
        "query",
        "levels/cave.ron",
        "swim",
        "--at",
        "5,4",
        "--who",
        "Wren",
    ]);
    assert!(!o.status.success(), "a floor square is no water to swim in");
}

/// `query climb` and `query jump` (Dungeon Delves › Climbing, › Jumping): the cave's chasm is
/// 40' of sheer wall, one throw at the midpoint; Wren, no climber, may climb it only supervised
/// by Tamsin (Mountaineering 10), who stands beside her; Wren (DEX 16, 2½ stone) clears its 10'
/// with a run-up always and never without one.
#[test]
fn query_climb_and_jump_give_throws_and_chances() {
    let v = json(&[
        "query",
        "levels/cave.ron",
        "climb",
        "--at",
        "39,9",
        "--who",
        "Wren",
        "--json",
    ]);
    assert_eq!(
        v["permitted"], true,
        "a sheer wall: Wren is no climber, but Tamsin supervises"
    );
    assert!(
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("supervised by Tamsin")),
        "{v}"
    );
    assert_eq!(v["throw"]["target"], 10, "{v}");
    let v = json(&[
        "query",
        "levels/cave.ron",
        "climb",
        "--at",
        "39,9",
        "--who",
        "Tamsin",
        "--json",
    ]);
    assert_eq!(v["permitted"], true);
    assert_eq!(v["throw"]["what"], "Climbing");
    let v = json(&[
        "query",
        "levels/cave.ron",
        "jump",
        "--from",
        "36,14",
        "--at",
        "39,14",
        "--who",
        "Wren",
        "--json",
    ]);
    assert_eq!(v["gap_feet"], 10);
    assert_eq!(v["jump_chances"], serde_json::json!([1.0, 0.0]));
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
