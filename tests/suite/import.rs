//! Maps from other tools: Universal VTT files made by hand to the format (walls as long
//! polylines with shared corners, doors across corridor mouths, a diagonal wall, a file of
//! format 0.2), each imported and checked square by square; errors that point at the line and
//! column and write nothing; arbitrary input never panics and never writes a file.

use std::path::{Path, PathBuf};

use delve::import::{ImportError, ImportOptions, Problem, Spot, import};
use delve_ground::grid::DoorState;
use delve_ground::grid::{GridPos, Terrain};
use delve_ground::level::LevelText;
use delve_ground::level::schema::LightKind;
use proptest::prelude::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("delve-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The map rows of a level, `#` wall, `+` door, `.` floor.
fn rows(level: &delve_ground::level::Level) -> Vec<String> {
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

fn imported(map: &str, name: &str) -> (delve_ground::level::Level, PathBuf) {
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
    // 9 × 5 cells: 18 × 10 squares (the column and row beyond the cells, for walls on the
    // map's right and bottom edges, are dropped when empty).
    let expected = [
        "..................",
        "..................",
        "..#######...#####.",
        "..#.....#...#..##.",
        "..#.....#####...#.",
        "..#.....+...+...#.",
        "..#.....#####...#.",
        "..#.....#...#...#.",
        "..#######...#####.",
        "..................",
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
    let battlemap = level.battlemap.as_ref().unwrap();
    assert_eq!(
        (battlemap.image.as_str(), battlemap.width, battlemap.height),
        ("two_rooms.png", 18, 10)
    );
    let png = std::fs::read(dir.join("two_rooms.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Each entry says where it came from: the map read again gives the portals' origins.
    let text = std::fs::read_to_string("tests/maps/two_rooms.dd2vtt").unwrap();
    let map =
        delve::import::uvtt::read(&text, "two_rooms.dd2vtt", ImportOptions::default()).unwrap();
    let origins: Vec<&str> = map.doors.iter().map(|d| d.origin.as_str()).collect();
    assert_eq!(origins, ["portal 0 (closed)", "portal 1 (open)"]);
    let written = std::fs::read_to_string(dir.join("two_rooms.ron")).unwrap();
    assert!(map.doors.iter().all(|d| written.contains(&d.ron)));
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

/// Dungeondraft exports a region cropped from a larger canvas: `map_origin` is the region's
/// corner on the canvas, and the walls, portals and lights of the whole canvas come along.
/// Those outside the region are left out, and the level's heading says how many (such
/// exports were refused outright: "portal 1 lies outside the map").
#[test]
fn a_cropped_export_keeps_its_region_and_says_what_it_left_out() {
    let (level, dir) = imported("tests/maps/cropped.dd2vtt", "cropped");
    assert_eq!(
        rows(&level),
        [
            "######+##",
            "#.......#",
            "#.......#",
            "#####...#",
            "#.......#",
            "#.......#",
            "#########",
        ]
    );
    assert_eq!(level.doors.len(), 1);
    assert_eq!(level.doors[0].at, GridPos::new(6, 0));
    assert_eq!(level.lights.len(), 1);
    assert_eq!(level.lights[0].at, GridPos::new(3, 5));
    let text = std::fs::read_to_string(dir.join("cropped.ron")).unwrap();
    assert!(
        text.contains("// Left out, lying outside the exported map: 1 wall, 2 portals, 1 light."),
        "{text}"
    );
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
    assert!(matches!(*e.problem, Problem::Syntax { .. }), "{e}");
    assert!(!written(&dir));

    let no_range = r#"{
  "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}},
  "lights": [{"position": {"x": 1, "y": 1}, "intensity": 1}]
}"#;
    let (r, dir) = import_text(no_range, "no_range");
    let e = r.unwrap_err();
    assert_eq!(e.at, Some(Spot::LineCol { line: 3, col: 14 }), "{e}");
    assert_eq!(*e.problem, Problem::NoRange { light: 0 }, "{e}");
    assert!(!written(&dir));

    // A light's range of a billion cells once made a level whose light reserved gigabytes.
    let far = r#"{
  "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 3}},
  "lights": [{"position": {"x": 1, "y": 1}, "range": 1e9}]
}"#;
    let (r, dir) = import_text(far, "far");
    let e = r.unwrap_err();
    assert_eq!(e.at, Some(Spot::LineCol { line: 3, col: 14 }), "{e}");
    assert!(e.to_string().contains("a light reaches 0' to 1000'"), "{e}");
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

/// A Tiled map with an external tileset whose tiles name their terrain, a second tile layer of
/// water over the first, and objects for a door, a light, a trap and a creature.
#[test]
fn a_tiled_map_with_terrain_tiles_and_objects() {
    let (level, _) = imported("tests/maps/flooded_cell.tmx", "flooded");
    assert_eq!(level.name, "The Flooded Cell");
    let terrain = |x, y| level.grid.terrain(GridPos::new(x, y)).unwrap();
    assert_eq!(
        rows(&level),
        [
            "########", "#....??#", "#...+..#", "#...#..#", "#...#.?#", "########"
        ]
    );
    assert_eq!(
        terrain(5, 1),
        Terrain::Water(delve_ground::grid::WaterDepth::Deep)
    );
    assert_eq!(terrain(6, 4), Terrain::Chasm { depth_feet: 30 });
    let door = &level.doors[0];
    assert_eq!(door.at, GridPos::new(4, 2));
    assert_eq!(
        door.door.material,
        delve_ground::level::schema::DoorMaterial::IronBanded
    );
    assert!(matches!(
        &door.door.lock,
        delve_ground::level::schema::Lock::Locked { key: Some(k) } if k == "ash key"
    ));
    assert_eq!(level.lights[0].at, GridPos::new(1, 1));
    assert_eq!(level.lights[0].kind, LightKind::Torch);
    assert_eq!(level.traps[0].at, GridPos::new(2, 3));
    assert!(level.traps[0].trap.hidden);
    let ghoul = level.creature("Gnawbone").unwrap();
    assert_eq!(ghoul.at, GridPos::new(2, 3));
    assert_eq!(level.factions[ghoul.faction].name, "ghouls");
}

fn tiled_error(tmx: &str, tsx: Option<&str>, name: &str) -> (ImportError, PathBuf) {
    let dir = scratch(name);
    std::fs::write(
        dir.join("delve.tsx"),
        tsx.map_or_else(
            || std::fs::read_to_string("tests/maps/delve.tsx").unwrap(),
            str::to_owned,
        ),
    )
    .unwrap();
    let map = dir.join("map.tmx");
    std::fs::write(&map, tmx).unwrap();
    let e = import(
        &map,
        &dir.join("out").join("level.ron"),
        ImportOptions::default(),
    )
    .unwrap_err();
    (e, dir)
}

/// A Tiled map's problems name the tile or the object (by id and name), or the line and column
/// of broken XML; nothing is written.
#[test]
fn tiled_errors_name_the_object_or_the_tile() {
    let good = std::fs::read_to_string("tests/maps/flooded_cell.tmx").unwrap();
    // An object whose property is not the level's.
    let bad_door = good.replace("value=\"IronBanded\"", "value=\"Cardboard\"");
    let (e, dir) = tiled_error(&bad_door, None, "bad_door");
    assert_eq!(
        e.at,
        Some(Spot::Object {
            id: 1,
            name: "iron door".into()
        }),
        "{e}"
    );
    assert!(
        matches!(&*e.problem, Problem::BadEntry { what: "a door", .. }),
        "{e}"
    );
    assert!(!written(&dir));
    // A tile whose terrain the legend does not know.
    let tsx = std::fs::read_to_string("tests/maps/delve.tsx")
        .unwrap()
        .replace("Wall(Stone)", "Wall(Glass)");
    let (e, dir) = tiled_error(&good, Some(&tsx), "bad_terrain");
    assert_eq!(
        e.at,
        Some(Spot::Tile {
            layer: "floor and walls".into(),
            tileset: "delve".into(),
            id: 1
        }),
        "{e}"
    );
    assert!(
        matches!(&*e.problem, Problem::UnknownTerrain { terrain, .. } if terrain == "Wall(Glass)"),
        "{e}"
    );
    assert!(!written(&dir));
    // Broken XML: the line and column.
    let broken = good.replace(
        "<layer id=\"2\" name=\"water\"",
        "<layer id=\"2\" name=\"water",
    );
    let (e, dir) = tiled_error(&broken, None, "broken_xml");
    assert_eq!(e.at, Some(Spot::LineCol { line: 18, col: 3 }), "{e}");
    assert!(!written(&dir));
}

/// A level exported as Universal VTT and imported again (one square to a cell of the level's
/// scale) has the same walls, doors (open or closed) and lights; secret doors go out as walls.
#[test]
fn export_then_import_gives_the_same_walls_doors_and_lights() {
    for file in ["levels/crypt.ron", "levels/cave.ron"] {
        let original = LevelText::read(Path::new(file))
            .unwrap()
            .load()
            .unwrap()
            .level;
        let dir = scratch(&format!("round-{}", original.name.len()));
        let uvtt = dir.join("out.dd2vtt");
        delve::import::export::export(Path::new(file), &uvtt).unwrap();
        let level_out = dir.join("back.ron");
        let scale = original.grid.scale_feet();
        import(
            &uvtt,
            &level_out,
            ImportOptions {
                cell_feet: scale,
                squares_per_cell: 1,
            },
        )
        .unwrap();
        let back = LevelText::read(&level_out).unwrap().load().unwrap().level;
        assert_eq!(
            (back.grid.width(), back.grid.height()),
            (original.grid.width(), original.grid.height()),
            "{file}"
        );
        let secret: Vec<GridPos> = original
            .doors
            .iter()
            .filter(|d| d.door.secret)
            .map(|d| d.at)
            .collect();
        for (p, t) in original.grid.squares() {
            let wall = matches!(t, Terrain::Wall(_) | Terrain::Rock) || secret.contains(&p);
            let back_t = back.grid.terrain(p).unwrap();
            assert_eq!(
                matches!(back_t, Terrain::Wall(_) | Terrain::Rock),
                wall,
                "{file} {p}: {t:?} came back as {back_t:?}"
            );
        }
        let doors = |l: &delve_ground::level::Level| -> Vec<(GridPos, DoorState)> {
            let mut v: Vec<_> = l
                .doors
                .iter()
                .filter(|d| !d.door.secret)
                .map(|d| (d.at, d.door.state))
                .collect();
            v.sort_by_key(|d| (d.0.y, d.0.x));
            v
        };
        assert_eq!(doors(&back), doors(&original), "{file}");
        let lights = |l: &delve_ground::level::Level| -> Vec<(GridPos, u32)> {
            let mut v: Vec<_> = l.lights.iter().map(|x| (x.at, x.kind.dim_feet())).collect();
            v.sort_by_key(|x| (x.0.y, x.0.x));
            v
        };
        assert_eq!(lights(&back), lights(&original), "{file}");
        // The picture: the level drawn with the tile art.
        let png = std::fs::read(dir.join("back.png")).unwrap();
        let img = image::load_from_memory(&png).unwrap();
        assert_eq!(img.width(), original.grid.width() * 32);
    }
}

/// An import writes nothing over what is not its own: `--out` onto the map being read (the
/// level's text would replace the map) is refused; a picture beside the level that the level
/// there does not name (another's) is kept and the import refused; an earlier import of the
/// same level is written over, its picture with it.
#[test]
fn an_import_replaces_only_its_own_earlier_files() {
    let dir = scratch("replace");
    let map = dir.join("cellar.dd2vtt");
    std::fs::copy("tests/maps/two_rooms.dd2vtt", &map).unwrap();
    let before = std::fs::read(&map).unwrap();
    let e = import(&map, &map, ImportOptions::default()).unwrap_err();
    assert!(matches!(*e.problem, Problem::WouldReplace { .. }), "{e}");
    assert!(e.to_string().contains("the map being read"), "{e}");
    assert_eq!(std::fs::read(&map).unwrap(), before, "the map is kept");
    // Another picture where the battlemap would go.
    let out = dir.join("level.ron");
    std::fs::write(dir.join("level.png"), b"someone's picture").unwrap();
    let e = import(&map, &out, ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("not this level's battlemap"), "{e}");
    assert_eq!(
        std::fs::read(dir.join("level.png")).unwrap(),
        b"someone's picture"
    );
    assert!(!out.exists());
    // Its own earlier import is replaced.
    std::fs::remove_file(dir.join("level.png")).unwrap();
    import(&map, &out, ImportOptions::default()).unwrap();
    import(&map, &out, ImportOptions::default()).unwrap();
    assert!(dir.join("level.png").exists());
}
