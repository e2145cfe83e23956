//! Each kind of level error names the file, the line and the column of what is wrong
//! (LEVEL_FORMAT.md › Errors). Positions are asserted against the text they must point at.

use delve_ground::level::{Diagnostic, DiagnosticKind, Severity, load_level_file, load_level_str};

const BASE: &str = r#######"(
    name: "test",
    legend: { '#': Wall(Stone), '.': Floor, '+': Door },
    map: [
        "######",
        "#..+.#",
        "######",
    ],
    doors: [(at: (3, 1), material: Wooden)],
    factions: [(name: "party"), (name: "foes", hostile_to: ["party"])],
    creatures: [
        (name: "Ada", faction: "party", at: (1, 1), hp: 5, ac: 10, speed_feet: 60),
        (name: "Bo", faction: "foes", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 3.0),
    ],
)"#######;

/// Line and column (from 1) of the `nth` occurrence of `needle`, plus `skip` characters.
fn pos_of(src: &str, needle: &str, nth: usize, skip: usize) -> (usize, usize) {
    let at = src
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} not in the source"))
        .0;
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.chars().rev().take_while(|&c| c != '\n').count() + 1 + skip;
    (line, col)
}

fn problems(src: &str) -> Vec<Diagnostic> {
    match load_level_str(src, "test.ron", None) {
        Ok(l) => l.warnings.0,
        Err(p) => p.0,
    }
}

/// The only error of a broken level.
fn the_error(src: &str) -> Diagnostic {
    let errors: Vec<Diagnostic> = problems(src).into_iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "expected one error, got {errors:#?}");
    errors.into_iter().next().unwrap()
}

fn assert_at(d: &Diagnostic, (line, col): (usize, usize), words: &str) {
    assert_eq!(d.file, "test.ron");
    assert_eq!((d.line, d.col), (line, col), "{d}");
    assert!(d.message.contains(words), "`{words}` not in: {d}");
    assert!(
        d.to_string()
            .starts_with(&format!("test.ron:{line}:{col}: "))
    );
}

#[test]
fn the_base_level_loads() {
    let l = load_level_str(BASE, "test.ron", None).unwrap();
    assert!(l.warnings.is_empty(), "{}", l.warnings);
    assert_eq!(l.level.creatures.len(), 2);
}

#[test]
fn ron_syntax_error() {
    let src = BASE.replace("name: \"test\",", "name: \"test\" oops,");
    let d = the_error(&src);
    assert_eq!(d.line, 2, "{d}");
    assert!(d.col >= 18 && d.col <= 19, "{d}");
    assert_eq!(d.kind, DiagnosticKind::Syntax);
}

#[test]
fn unknown_field_is_a_ron_error_at_the_field() {
    let src = BASE.replace("doors:", "dors:");
    let d = the_error(&src);
    assert_eq!(d.line, pos_of(&src, "dors:", 0, 0).0, "{d}");
    assert!(d.message.contains("dors"), "{d}");
    assert_eq!(d.kind, DiagnosticKind::Syntax);
}

#[test]
fn unknown_enum_variant() {
    let src = BASE.replace("Wall(Stone)", "Wall(Granite)");
    let d = the_error(&src);
    assert_eq!(d.line, 3, "{d}");
    assert!(d.message.contains("Granite"), "{d}");
}

#[test]
fn unknown_legend_character() {
    let src = BASE.replace("\"#..+.#\"", "\"#.x+.#\"");
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "#.x+.#", 0, 2),
        "unknown legend character 'x' at square (2, 1)",
    );
}

#[test]
fn unknown_legend_character_counted_once() {
    let src = BASE
        .replace(
            "\"######\",\n        \"#..+.#\"",
            "\"##?###\",\n        \"#..+?#\"",
        )
        .replace(
            "(name: \"Bo\", faction: \"foes\", at: (4, 1)",
            "(name: \"Bo\", faction: \"foes\", at: (2, 1)",
        );
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "##?###", 0, 2), "1 more times");
}

#[test]
fn ragged_row() {
    let src = BASE.replace("\"#..+.#\"", "\"#..+.\"");
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "\"#..+.\"", 0, 0),
        "row 1 is 5 characters wide, but row 0 is 6",
    );
}

#[test]
fn position_outside_the_map() {
    let src = BASE.replace("at: (1, 1), hp", "at: (9, 1), hp");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "(9, 1)", 0, 0), "outside the map");
    assert_eq!(d.kind, DiagnosticKind::OutsideTheMap);
}

#[test]
fn position_inside_a_wall() {
    let src = BASE.replace("at: (1, 1), hp", "at: (0, 1), hp");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "(0, 1)", 0, 0), "stands in Wall(Stone)");
}

#[test]
fn creature_in_a_closed_door() {
    let src = BASE.replace("at: (1, 1), hp", "at: (3, 1), hp");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "(3, 1), hp", 0, 0), "a closed door");
}

#[test]
fn door_entry_on_a_square_that_is_not_a_door() {
    let src = BASE.replace("doors: [(at: (3, 1)", "doors: [(at: (2, 1)");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "(2, 1)", 0, 0), "not on a door square");
}

#[test]
fn too_many_spikes() {
    let src = BASE.replace("material: Wooden", "material: Wooden, spikes: 5");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "5)]", 0, 0), "at most 4 spikes");
}

#[test]
fn unknown_faction() {
    let src = BASE.replace("faction: \"foes\"", "faction: \"orcs\"");
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "\"orcs\"", 0, 0),
        "unknown faction `orcs` (known: party, foes)",
    );
}

#[test]
fn unknown_hostile_faction() {
    let src = BASE.replace(
        "hostile_to: [\"party\"]",
        "hostile_to: [\"party\", \"elves\"]",
    );
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "\"elves\"", 0, 0),
        "unknown faction `elves`",
    );
}

#[test]
fn unknown_template() {
    let src = BASE.replace("(name: \"Bo\",", "(name: \"Bo\", template: \"dragon\",");
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "\"dragon\"", 0, 0),
        "unknown template `dragon`",
    );
    assert_eq!(d.kind, DiagnosticKind::UnknownName);
    assert!(
        d.message.contains("ghoul"),
        "lists the known templates: {d}"
    );
}

#[test]
fn templates_fill_in_the_stat_block() {
    let src = BASE.replace(
        "(name: \"Bo\", faction: \"foes\", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 3.0)",
        "(name: \"Bo\", template: \"ghoul\", faction: \"foes\", at: (4, 1), hp: 12)",
    );
    let l = load_level_str(&src, "test.ron", None).unwrap();
    let bo = l.level.creature("Bo").unwrap();
    assert_eq!(bo.hp, 12, "the entry overrides the template");
    assert_eq!(bo.ac, 13, "the template supplies what the entry leaves out");
    assert_eq!(bo.lightless_vision_feet, 60);
}

#[test]
fn duplicate_creature_names() {
    let src = BASE.replace("(name: \"Bo\"", "(name: \"Ada\"");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "\"Ada\"", 1, 0), "`Ada` is used twice");
}

#[test]
fn duplicate_faction_names() {
    let src = BASE.replace("(name: \"foes\"", "(name: \"party\"");
    let errors: Vec<_> = problems(&src)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert_at(
        &errors[0],
        pos_of(&src, "\"party\"", 1, 0),
        "faction `party` is named twice",
    );
}

#[test]
fn duplicate_legend_character() {
    let src = BASE.replace("'+': Door", "'+': Door, '.': Rubble");
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "'.'", 1, 0), "'.' is given twice");
}

#[test]
fn bad_dice_in_a_trap() {
    let src = BASE.replace(
        "factions:",
        "traps: [(at: (2, 1), kind: Custom(name: \"blade\", damage: \"2x6\"))],\n    factions:",
    );
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "\"2x6\"", 0, 0), "not a dice expression");
}

#[test]
fn trap_that_opens_with_a_door_that_is_not_there() {
    let src = BASE.replace(
        "factions:",
        "traps: [(at: (2, 1), kind: Pit(depth_feet: 10), trigger: OpenDoor(at: (4, 1)))],\n    factions:",
    );
    let d = the_error(&src);
    assert_at(&d, pos_of(&src, "(4, 1)))", 0, 0), "no door there");
}

#[test]
fn creature_without_a_speed() {
    let src = BASE.replace(", speed_feet: 60", "");
    let d = the_error(&src);
    assert_at(
        &d,
        pos_of(&src, "(name: \"Ada\"", 0, 0),
        "needs `speed_feet` or `encumbrance_stone`",
    );
}

#[test]
fn key_that_no_one_carries_is_a_warning() {
    let src = BASE.replace(
        "material: Wooden",
        "material: Wooden, lock: Locked(key: Some(\"brass key\"))",
    );
    let loaded = load_level_str(&src, "test.ron", None).expect("a warning does not stop loading");
    let w = &loaded.warnings.0;
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert_at(
        &w[0],
        pos_of(&src, "Locked(", 0, 0),
        "no creature carries it",
    );
    // Give Ada the key and the warning goes.
    let src = src.replace(
        "speed_feet: 60)",
        "speed_feet: 60, gear: [Key(\"brass key\")])",
    );
    assert!(
        load_level_str(&src, "test.ron", None)
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let src = BASE
        .replace("faction: \"foes\"", "faction: \"orcs\"")
        .replace("\"#..+.#\"", "\"#.x+.#\"")
        .replace("(name: \"Bo\"", "(name: \"Ada\"");
    let errors: Vec<_> = problems(&src)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(
        errors
            .windows(2)
            .all(|w| (w[0].line, w[0].col) <= (w[1].line, w[1].col)),
        "in file order"
    );
}

#[test]
fn missing_file() {
    let err = load_level_file(std::path::Path::new("no/such/level.ron")).unwrap_err();
    let d = &err.0[0];
    assert_eq!(
        (d.file.as_str(), d.line, d.col),
        ("no/such/level.ron", 1, 1)
    );
    assert!(d.message.contains("cannot read level file"), "{d}");
    assert_eq!(d.kind, DiagnosticKind::Unreadable);
}

#[test]
fn empty_map() {
    let src = BASE.replace(
        "map: [\n        \"######\",\n        \"#..+.#\",\n        \"######\",\n    ],",
        "map: [],",
    );
    let errors: Vec<_> = problems(&src)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert_at(&errors[0], pos_of(&src, "[],", 0, 0), "the map has no rows");
}

/// Numbers the simulator would overflow on, or allocate without bound for, are refused at the
/// door with their range, on the line of the field: a critical multiplier of 4294967295 (one
/// critical would roll its dice that many times), a light's reach of 4294967295' (its footprint
/// is worked out square by square), an attack bonus of 2147483647 (the throw's sum wraps), a
/// damage of `2147483647+1` (it parsed as −2147483648), squares 4294967295' wide.
#[test]
fn numbers_beyond_what_the_simulator_takes_are_refused_with_their_range() {
    let weapon = r#"weapons: [(name: "axe", damage: "1d8", damage_type: Slashing, critical: (threat: 20, multiplier: 4294967295))]"#;
    let cases: [(String, &str, &str); 8] = [
        (
            BASE.replace("speed_feet: 60)", "speed_feet: 60, throws: { Climbing: -2147483648 })"),
            "throws",
            "the number -2147483648 is out of bounds: a number in a level is -100000 to 100000",
        ),
        (
            BASE.replace("hp: 5, ac: 10, speed_feet: 60", "hp: 5, ac: -2147483648, speed_feet: 60"),
            "ac: -2147483648",
            "an armour class -2147483648: it is -100 to 100",
        ),
        (
            BASE.replace("hp: 5, ac: 10, speed_feet: 60", "hp: 999999, ac: 10, speed_feet: 60"),
            "hp: 999999",
            "hit points 999999: it is 1 to 100000",
        ),
        (
            BASE.replace("speed_feet: 60)", &format!("speed_feet: 60, {weapon})")),
            "critical: (",
            "a critical multiplier 4294967295: it is 2 to 10",
        ),
        (
            BASE.replace(
                "creatures: [",
                "lights: [(at: (1, 1), kind: Custom(bright_feet: 10, dim_feet: 4294967295), lit: true)],\n    creatures: [",
            ),
            "kind: Custom",
            "its reach in feet, 4294967295: it is 0 to 1000",
        ),
        (
            BASE.replace("speed_feet: 60)", "speed_feet: 60, attack_bonus: 2147483647)"),
            "attack_bonus",
            "an attack bonus 2147483647: it is -100 to 100",
        ),
        (
            BASE.replace(
                "speed_feet: 60)",
                r#"speed_feet: 60, weapons: [(name: "axe", damage: "2147483647+1", damage_type: Slashing)])"#,
            ),
            "damage: \"2147",
            "a number in dice is -1000 to 1000",
        ),
        (
            BASE.replace("name: \"test\",", "name: \"test\",\n    scale_feet: 4294967295,"),
            "scale_feet",
            "`scale_feet`, the side of a square in feet, 4294967295: it is 1 to 100",
        ),
    ];
    for (src, field, words) in cases {
        let d = the_error(&src);
        assert_eq!(d.kind, DiagnosticKind::BadValue, "{d}");
        assert_eq!(d.line, pos_of(&src, field, 0, 0).0, "{d}");
        assert!(d.message.contains(words), "`{words}` not in: {d}");
    }
}

/// A file saved with a byte-order mark and Windows line endings loads; one with old Mac line
/// endings (CR alone) reports its error at the line an editor shows (both once gave "Expected
/// opening `(`" at 1:1, or every error on line 1).
#[test]
fn a_byte_order_mark_and_cr_line_endings_read_as_the_editor_shows() {
    let dir = std::env::temp_dir().join(format!("delve-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let windows = dir.join("windows.ron");
    std::fs::write(&windows, format!("\u{feff}{}", BASE.replace('\n', "\r\n"))).unwrap();
    let loaded = load_level_file(&windows).unwrap();
    assert_eq!(loaded.level.name, "test");
    let mac = dir.join("mac.ron");
    let typo = BASE.replace("hp: 5, ac: 10, speed", "hp: 5, ac: 1O, speed");
    std::fs::write(&mac, format!("\u{feff}{}", typo.replace('\n', "\r"))).unwrap();
    let e = load_level_file(&mac).unwrap_err().0;
    assert_eq!(e[0].line, pos_of(&typo, "1O", 0, 0).0, "{e:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
