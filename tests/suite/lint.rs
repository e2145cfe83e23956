//! `delve check --lint`: design problems planted in small levels are each found, at the line
//! and column they come from; the sample levels have none (the crypt's shrine is behind a
//! secret door by design, and says so as a note).

use delve::lint::{LintProblem, lint};
use delve_ground::grid::GridPos;
use delve_ground::level::load_level_str;

fn lints(src: &str) -> Vec<delve::lint::Lint> {
    let level = load_level_str(src, "lint.ron", None).unwrap().level;
    lint(&level, src)
}

/// Where the lint of this problem points: (line, column).
fn line_col(found: &[delve::lint::Lint], p: &LintProblem) -> Option<(usize, usize)> {
    found
        .iter()
        .find(|l| l.problem == *p)
        .map(|l| (l.at.line, l.at.col))
}

const PLANTED: &str = r#"(
    name: "planted",
    legend: { 'X': Wall(Stone), '.': Floor, '+': Door, 'S': Door },
    map: [
        "XXXXXXXXXXXX",
        "X...+...X..X",
        "X...X...X..X",
        "XXXXXXSXXXXX",
        "X..........X",
        "XXXXXXXXXXXX",
    ],
    doors: [
        (at: (4, 1), lock: Locked(key: Some("brass key"))),
        (at: (6, 3), secret: true),
    ],
    factions: [
        (name: "party", marching_order: ["Ana"]),
        (name: "rats"),
    ],
    creatures: [
        (name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120),
        (name: "Warden", faction: "rats", at: (6, 1), hp: 4, ac: 12, speed_feet: 60,
         gear: [Key("brass key")]),
    ],
)"#;

/// Each planted problem is found, pointing where it comes from: the walled-off room at (9, 1)
/// in its map row, the room behind the secret door, the key behind its own door at the door's
/// entry, and the faction with no enemies at its entry.
#[test]
fn every_planted_problem_is_found_where_it_is() {
    let found = lints(PLANTED);
    let at = |p: &LintProblem| line_col(&found, p);
    assert_eq!(
        at(&LintProblem::Unreachable {
            at: GridPos::new(9, 1),
            squares: 4
        }),
        Some((6, 19)),
        "{found:?}"
    );
    assert_eq!(
        at(&LintProblem::OnlyBySecretDoors {
            at: GridPos::new(1, 4),
            squares: 10
        }),
        Some((9, 11)),
        "{found:?}"
    );
    assert_eq!(
        at(&LintProblem::KeyBehindItsDoor {
            door: GridPos::new(4, 1),
            key: "brass key".into(),
            holder: "Warden".into()
        }),
        Some((13, 9)),
        "{found:?}"
    );
    assert_eq!(
        at(&LintProblem::NoEnemies {
            faction: "rats".into()
        }),
        Some((18, 9)),
        "{found:?}"
    );
}

/// A locked door with no key in the level, no thief and nothing to batter it with is found;
/// an axe in the party is a way through a wooden door.
#[test]
fn a_lock_no_one_can_open() {
    let level = |gear: &str| {
        format!(
            r#"(
    name: "locked",
    legend: {{ 'X': Wall(Stone), '.': Floor, '+': Door }},
    map: ["XXXXXXX", "X..+..X", "XXXXXXX"],
    doors: [(at: (3, 1), lock: Locked(key: None))],
    factions: [(name: "party", marching_order: ["Ana"])],
    creatures: [(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                 carries: [(kind: Torch, lit: true)], gear: [{gear}])],
)"#
        )
    };
    let none = lints(&level("Rope(50)"));
    assert!(
        none.iter().any(|l| l.problem
            == LintProblem::LockNoOneOpens {
                door: GridPos::new(3, 1)
            }
            && l.at.line == 5),
        "{none:?}"
    );
    assert!(lints(&level("Axe")).is_empty());
}

#[test]
fn the_sample_levels_have_no_problems() {
    for file in [
        "levels/crypt.ron",
        "levels/cave.ron",
        "levels/descent.ron",
        "levels/undercroft.ron",
    ] {
        let src = std::fs::read_to_string(file).unwrap();
        let level = load_level_str(&src, file, None).unwrap().level;
        let problems: Vec<_> = lint(&level, &src)
            .into_iter()
            .filter(|l| !matches!(l.problem, LintProblem::OnlyBySecretDoors { .. }))
            .collect();
        assert!(problems.is_empty(), "{file}: {problems:?}");
    }
}

/// A party with no light of its own and no eyes for the dark is blind in a room with no light:
/// the lit room is fine, the dark one is found; a torch carried clears it.
#[test]
fn a_dark_room_for_a_party_without_light() {
    let level = |carries: &str| {
        format!(
            r#"(
    name: "dark",
    legend: {{ 'X': Wall(Stone), '.': Floor, '+': Door }},
    map: ["XXXXXXXXX", "X...+...X", "XXXXXXXXX"],
    doors: [(at: (4, 1), state: Open)],
    lights: [(at: (1, 1), kind: Torch, lit: true)],
    factions: [(name: "party", marching_order: ["Ana"])],
    creatures: [(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120{carries})],
)"#
        )
    };
    let found = lints(&level(""));
    assert_eq!(
        found.iter().map(|l| l.problem.clone()).collect::<Vec<_>>(),
        vec![LintProblem::Dark {
            at: GridPos::new(5, 1),
            squares: 3
        }]
    );
    assert!(lints(&level(", carries: [(kind: Torch, lit: true)]")).is_empty());
}

const OFF_THE_PATHS: &str = r#"(
    name: "off the paths",
    legend: { 'X': Wall(Stone), '.': Floor, ' ': Rock },
    map: [
        "XXXXXXXXXX   XXXX ",
        "X........X   X..X ",
        "X.XXXXXX.X   XXXX ",
        "X.X.X  X.X        ",
        "XXXXX  XXX        ",
    ],
    traps: [
        (at: (4, 1), kind: Pit(depth_feet: 10)),
        (at: (1, 3), kind: Pit(depth_feet: 10)),
        (at: (15, 1), kind: Pit(depth_feet: 10)),
    ],
    factions: [
        (name: "party", marching_order: ["Ana"]),
        (name: "rats", hostile_to: ["party"]),
    ],
    creatures: [
        (name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
         carries: [(kind: Torch, lit: true)]),
        (name: "Hermit", faction: "rats", at: (14, 1), hp: 4, ac: 12, speed_feet: 60),
        (name: "Neighbour", faction: "rats", at: (3, 3), hp: 4, ac: 12, speed_feet: 60),
    ],
)"#;

/// A trap at the tip of a dead end, or where the party cannot go, is off the paths; one in the
/// corridor is not. A creature sealed in rock can never hear nor see the party; one behind a
/// single stone wall (50' of earshot distance, within a loud noise's 180' with a throw in a
/// normal dungeon) hears a fight in the corridor.
#[test]
fn traps_off_the_paths_and_monsters_that_never_meet_the_party() {
    let found = lints(OFF_THE_PATHS);
    let at = |p: &LintProblem| line_col(&found, p);
    assert_eq!(
        at(&LintProblem::TrapOffThePaths {
            at: GridPos::new(1, 3),
            reachable: true
        }),
        Some((13, 9)),
        "{found:?}"
    );
    assert_eq!(
        at(&LintProblem::TrapOffThePaths {
            at: GridPos::new(15, 1),
            reachable: false
        }),
        Some((14, 9)),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|l| matches!(
            l.problem,
            LintProblem::TrapOffThePaths { at, .. } if at == GridPos::new(4, 1)
        )),
        "{found:?}"
    );
    let never: Vec<_> = found
        .iter()
        .filter_map(|l| match &l.problem {
            LintProblem::NeverMeetsTheParty { who } => Some((who.as_str(), l.at.line)),
            _ => None,
        })
        .collect();
    assert_eq!(never, vec![("Hermit", 23)]);
}

/// A party with no weapon in a level with a creature hostile to it is told it cannot fight (the
/// lab of such a level measures flight, not the level); a sword clears it.
#[test]
fn an_unarmed_party_among_foes() {
    let level = |weapons: &str| {
        format!(
            r#"(
    name: "unarmed",
    legend: {{ 'X': Wall(Stone), '.': Floor }},
    map: ["XXXXXXX", "X.....X", "XXXXXXX"],
    factions: [(name: "party", marching_order: ["Ana"]), (name: "rats", hostile_to: ["party"])],
    creatures: [(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                 carries: [(kind: Torch, lit: true)], weapons: [{weapons}]),
                (name: "Rat", faction: "rats", at: (5, 1), hp: 2, ac: 11, speed_feet: 60)],
)"#
        )
    };
    let found = lints(&level(""));
    assert!(
        found.iter().any(|l| l.problem
            == LintProblem::Unarmed {
                party: "party".into(),
                foes: 1
            }
            && l.at.line == 5),
        "{found:?}"
    );
    assert!(
        lints(&level(
            r#"(name: "sword", damage: "1d8", damage_type: Slashing)"#
        ))
        .iter()
        .all(|l| !matches!(l.problem, LintProblem::Unarmed { .. }))
    );
}

/// A faction hostile to itself, empty names and traps stacked on one square load, and are
/// each told at their entry; a name holding a newline does not load (it would forge log
/// lines).
#[test]
fn careless_entries_are_told() {
    let src = r#"(
    name: " ",
    legend: { 'X': Wall(Stone), '.': Floor },
    map: ["XXXXXXX", "X.....X", "XXXXXXX"],
    factions: [(name: "party", marching_order: ["Ana"]),
               (name: "rats", hostile_to: ["party", "rats"])],
    creatures: [(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                 carries: [(kind: Torch, lit: true)]),
                (name: "", faction: "rats", at: (5, 1), hp: 2, ac: 11, speed_feet: 60)],
    traps: [(at: (3, 1), kind: Pit(depth_feet: 10), trigger: Step),
            (at: (3, 1), kind: Pit(depth_feet: 20), trigger: Step),
            (at: (3, 1), kind: Pit(depth_feet: 30), trigger: Step)],
)"#;
    let found = lints(src);
    let at = |p: LintProblem| line_col(&found, &p).map(|(line, _)| line);
    assert_eq!(
        at(LintProblem::EmptyName { what: "the level" }),
        Some(2),
        "{found:?}"
    );
    let rats = "rats".to_owned();
    assert_eq!(at(LintProblem::HostileToItself { faction: rats }), Some(6));
    assert_eq!(at(LintProblem::EmptyName { what: "a creature" }), Some(9));
    let stacked = LintProblem::StackedTraps {
        at: GridPos::new(3, 1),
        traps: 3,
    };
    assert_eq!(at(stacked), Some(10));
    let forged = src.replace(
        "name: \"Ana\"",
        "name: \"Ana\\n[h0 t0 r0] the party reaches its goal\"",
    );
    let forged = forged.replace(
        "[\"Ana\"]",
        "[\"Ana\\n[h0 t0 r0] the party reaches its goal\"]",
    );
    let e = load_level_str(&forged, "lint.ron", None).unwrap_err();
    assert!(
        e.to_string().contains("holds the control character '\\n'"),
        "{e}"
    );
}
