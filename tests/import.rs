//! Maps from other tools: Universal VTT files made by hand to the format (walls as long
//! polylines with shared corners, doors across corridor mouths, a diagonal wall, a file of
//! format 0.2), each imported and checked square by square; errors that point at the line and
//! column and write nothing; arbitrary input never panics and never writes a file.

use std::path::{Path, PathBuf};

use delve::grid::{GridPos, Terrain};
use delve::import::{ImportError, ImportOptions, Spot, import};
use delve::level::LevelText;
use delve::level::schema::{DoorState, LightKind};
use proptest::prelude::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("delve-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The map rows of a level, `#` wall, `+` door, `.` floor.
fn rows(level: &delve::level::Level) -> Vec<String> {
    let g = &level.grid;
    (0..g.height() as i32)
        .map(|y| {
            (0..g.width() as i32)
                .map(|x| match g.terrain(GridPos::new(x, y)).unwrap() {
                    Terrain::Wall(_) | Terrain::Rock => '#',
                    Terrain::Door => '+',
                    Terrain::Floor => '.',
                    _ => '?',
                })
                .collect()
        })
        .collect()
}

fn imported(map: &str, name: &str) -> (delve::level::Level, PathBuf) {
    let dir = scratch(name);
    let out = dir.join(format!("{name}.ron"));
    import(Path::new(map), &out, ImportOptions::default()).unwrap();
    let level = LevelText::read(&out).unwrap().load().unwrap().level;
    (level, dir)
}

/// Two rooms joined by a corridor one cell wide, with a closed door at one end and an open one
/// at the other, a torch, and a diagonal wall across a corner; 10' cells of 2×2 squares. Each
/// cell's first row and column of squares take the walls drawn along its edges, so the
/// corridor keeps one open square.
#[test]
fn two_rooms_and_a_corridor_square_by_square() {
    let (level, dir) = imported("tests/maps/two_rooms.dd2vtt", "two_rooms");
    let expected = [
        "...................",
        "...................",
        "..#######...#####..",
        "..#.....#...#..##..",
        "..#.....#####...#..",
        "..#.....+...+...#..",
        "..#.....#####...#..",
        "..#.....#...#...#..",
        "..#######...#####..",
        "...................",
        "...................",
    ];
    assert_eq!(rows(&level), expected);
    assert_eq!(level.grid.scale_feet(), 5);
    let doors: Vec<(GridPos, DoorState)> =
        level.doors.iter().map(|d| (d.at, d.door.state)).collect();
    assert_eq!(
        doors,
        [
            (GridPos::new(8, 5), DoorState::Closed),
            (GridPos::new(12, 5), DoorState::Open)
        ]
    );
    // Range 3 cells of 10': 30' of dim light, a torch's.
    assert_eq!(level.lights.len(), 1);
    assert_eq!(level.lights[0].kind, LightKind::Torch);
    assert_eq!(level.lights[0].at, GridPos::new(5, 5));
    // The battlemap beside the level, named by it.
    assert_eq!(level.battlemap.as_deref(), Some("two_rooms.png"));
    let png = std::fs::read(dir.join("two_rooms.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The level says what was imported.
    let text = std::fs::read_to_string(dir.join("two_rooms.ron")).unwrap();
    assert!(text.contains("// imported: portal 0 (closed)"));
}

/// Format 0.2: no `objects_line_of_sight`, a portal with no `closed` (closed), fields the
/// format does not have (ignored).
#[test]
fn a_format_0_2_file_with_a_portal_without_closed() {
    let (level, _) = imported("tests/maps/format02.uvtt", "format02");
    assert_eq!(
        rows(&level),
        [
            "#########",
            "#...#...#",
            "#...#...#",
            "#...+...#",
            "#.......#",
            "#.......#",
            "#########",
        ]
    );
    assert_eq!(level.doors[0].door.state, DoorState::Closed);
    assert_eq!(level.battlemap, None);
}

fn import_text(text: &str, name: &str) -> (Result<Vec<PathBuf>, ImportError>, PathBuf) {
    let dir = scratch(name);
    let map = dir.join(format!("{name}.dd2vtt"));
    std::fs::write(&map, text).unwrap();
    let out = dir.join("out").join("level.ron");
    (import(&map, &out, ImportOptions::default()), dir)
}

fn written(dir: &Path) -> bool {
    dir.join("out").exists() && std::fs::read_dir(dir.join("out")).unwrap().next().is_some()
}

/// Errors name the file, the line and the column, and nothing is written.
#[test]
fn errors_point_at_the_line_and_write_nothing() {
    let (r, dir) = import_text(
        "{\n  \"resolution\": {\n    \"map_size\": {\"x\": 4, }\n",
        "broken",
    );
    let e = r.unwrap_err();
    assert_eq!(e.at, Some(Spot::LineCol { line: 3, col: 26 }), "{e}");
    assert!(!written(&dir));

    let outside = r#"{
  "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}},
  "line_of_sight": [],
  "portals": [
    {"position": {"x": 1, "y": 1}, "bounds": [], "closed": true},
    {"position": {"x": 9, "y": 1}, "bounds": [], "closed": true}
  ]
}"#;
    let (r, dir) = import_text(outside, "outside");
    let e = r.unwrap_err();
    assert_eq!(e.at, Some(Spot::LineCol { line: 6, col: 5 }), "{e}");
    assert!(e.message.contains("portal 1"), "{e}");
    assert!(!written(&dir));

    let no_range = r#"{
  "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}},
  "lights": [{"position": {"x": 1, "y": 1}, "intensity": 1}]
}"#;
    let (r, dir) = import_text(no_range, "no_range");
    let e = r.unwrap_err();
    assert_eq!(e.at, Some(Spot::LineCol { line: 3, col: 14 }), "{e}");
    assert!(e.message.contains("no range"), "{e}");
    assert!(!written(&dir));
}

/// A JSON value of any shape, numbers small and large.
fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{Value, json};
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1.0e6f64..1.0e6).prop_map(|f| json!(f)),
        (-5i64..40).prop_map(|i| json!(i)),
        "[a-z_]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("resolution".to_owned()),
                        Just("map_size".to_owned()),
                        Just("map_origin".to_owned()),
                        Just("x".to_owned()),
                        Just("y".to_owned()),
                        Just("line_of_sight".to_owned()),
                        Just("portals".to_owned()),
                        Just("lights".to_owned()),
                        Just("position".to_owned()),
                        Just("range".to_owned()),
                        Just("image".to_owned()),
                        "[a-z]{1,6}",
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Arbitrary JSON never panics the importer, and what it refuses writes nothing.
    #[test]
    fn arbitrary_json_never_panics(v in json()) {
        let (r, dir) = import_text(&v.to_string(), "fuzz-json");
        if r.is_err() {
            prop_assert!(!written(&dir));
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Arbitrary bytes neither.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let dir = scratch("fuzz-bytes");
        let map = dir.join("map.uvtt");
        std::fs::write(&map, &bytes).unwrap();
        let r = import(&map, &dir.join("out").join("level.ron"), ImportOptions::default());
        prop_assert!(r.is_err());
        prop_assert!(!written(&dir));
        let _ = std::fs::remove_dir_all(dir);
    }
}
