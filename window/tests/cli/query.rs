//! The command line's answers to a Judge's questions (`delve query`): line of sight, paths,
//! speeds, light, sight, hearing, doors, caving throws, initiative, the choices a creature is
//! offered and the attack it would make.

use super::*;

/// The ways a `query choices --json` answer offers, in order.
fn ways_offered(v: &serde_json::Value) -> Vec<String> {
    v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["way"].as_str().unwrap().to_owned())
        .collect()
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
        ways_offered(&json(&[
            "query",
            "levels/crypt.ron",
            "choices",
            "--who",
            who,
            "--json",
        ]))
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
    let ways = ways_offered(&v);
    for way in [
        "attack with its sword",
        "step back cautiously",
        "disengage",
        "total defense",
    ] {
        assert!(ways.contains(&way.to_owned()), "{way}: {ways:?}");
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
/// (14+), probe with her pole, rest, talk or shout, sneak (14+), go to the front of her party,
/// stay behind while it marches, and — the party standing at its way in — leave the level
/// with it.
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
            ("go to the front and lead the march", None),
            ("stay behind here while the party marches", None),
            ("leave the level with the party", None),
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
