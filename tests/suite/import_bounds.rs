//! Tiled maps that would take the importer down, each refused with where and why before the
//! `tiled` crate reads them: layer data cut short (the crate indexed past its end and
//! panicked), a layer that inflates to gigabytes, a tileset `source` that is a FIFO (read for
//! ever).

use std::io::Write;
use std::path::{Path, PathBuf};

use delve::import::{ImportError, ImportOptions, Problem, Spot, import};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("delve-tmx-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The flooded cell's map with its first layer's data replaced by `data` (the whole `<data …>
/// … </data>` element), imported; with its tileset beside it.
fn import_with_data(data: &str, name: &str) -> Result<Vec<PathBuf>, ImportError> {
    let good = std::fs::read_to_string("tests/maps/flooded_cell.tmx").unwrap();
    let start = good.find("<data").unwrap();
    let end = good.find("</data>").unwrap() + "</data>".len();
    let tmx = format!("{}{data}{}", &good[..start], &good[end..]);
    let dir = scratch(name);
    std::fs::copy("tests/maps/delve.tsx", dir.join("delve.tsx")).unwrap();
    std::fs::write(dir.join("map.tmx"), tmx).unwrap();
    let out = dir.join("out").join("level.ron");
    import(&dir.join("map.tmx"), &out, ImportOptions::default())
}

fn layer_problem(r: Result<Vec<PathBuf>, ImportError>) -> (Spot, String) {
    let e = r.expect_err("imported");
    match &*e.problem {
        Problem::LayerData { layer, why } => {
            assert_eq!(layer, "floor and walls");
            (e.at.clone().unwrap(), why.clone())
        }
        other => panic!("{other:?}: {e}"),
    }
}

fn zlib(bytes: &[u8]) -> String {
    use base64::Engine;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(bytes).unwrap();
    base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap())
}

/// An 8 × 6 layer whose data holds 20 tiles (CSV), 47 (Base64), 47 (zlib) or none.
#[test]
fn layer_data_cut_short_is_refused_at_the_layer() {
    let (at, why) = layer_problem(import_with_data(
        "<data encoding=\"csv\">\n2,2,2,2,2,2,2,2,2,2,\n2,2,2,2,2,2,2,2,2,2\n</data>",
        "csv",
    ));
    assert_eq!(at, Spot::LineCol { line: 9, col: 3 });
    assert_eq!(
        why,
        "its data holds 20 tiles for its 48 squares (was the file cut short?)"
    );
    let tiles: Vec<u8> = std::iter::repeat_n(2u32.to_le_bytes(), 47)
        .flatten()
        .collect();
    use base64::Engine;
    let plain = base64::engine::general_purpose::STANDARD.encode(&tiles);
    let (_, why) = layer_problem(import_with_data(
        &format!("<data encoding=\"base64\">{plain}</data>"),
        "base64",
    ));
    assert!(why.starts_with("its data holds 47 tiles"), "{why}");
    let (_, why) = layer_problem(import_with_data(
        &format!(
            "<data encoding=\"base64\" compression=\"zlib\">{}</data>",
            zlib(&tiles)
        ),
        "zlib",
    ));
    assert!(why.starts_with("its data holds 47 tiles"), "{why}");
    let (_, why) = layer_problem(import_with_data("<data encoding=\"csv\"/>", "empty"));
    assert_eq!(why, "its data holds no tiles for its 48 squares");
}

/// 64 MB of zeros compress to about 64 KB; the layer needs 192 bytes. Refused after reading
/// one byte past those, without inflating the rest.
#[test]
fn a_layer_that_inflates_past_its_squares_is_refused() {
    let bomb = zlib(&vec![0u8; 64 << 20]);
    let t = std::time::Instant::now();
    let (_, why) = layer_problem(import_with_data(
        &format!("<data encoding=\"base64\" compression=\"zlib\">{bomb}</data>"),
        "bomb",
    ));
    assert_eq!(
        why,
        "its data inflates past the 192 bytes of its 48 squares"
    );
    assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
}

/// A layer of a million squares a side is refused before its data is read.
#[test]
fn a_layer_too_large_is_refused() {
    let good = std::fs::read_to_string("tests/maps/flooded_cell.tmx").unwrap();
    let tmx = good.replacen(
        "name=\"floor and walls\" width=\"8\" height=\"6\"",
        "name=\"floor and walls\" width=\"1000000\" height=\"6\"",
        1,
    );
    let dir = scratch("wide");
    std::fs::copy("tests/maps/delve.tsx", dir.join("delve.tsx")).unwrap();
    std::fs::write(dir.join("map.tmx"), tmx).unwrap();
    let r = import(
        &dir.join("map.tmx"),
        &dir.join("out.ron"),
        ImportOptions::default(),
    );
    let (_, why) = layer_problem(r);
    assert_eq!(why, "1000000 × 6 squares: at most 1024 a side");
}

/// A tileset whose `source` is a FIFO is refused at once (it was read for ever), and the map's
/// error says why.
#[cfg(unix)]
#[test]
fn a_tileset_that_is_a_fifo_is_refused_at_once() {
    let dir = scratch("fifo");
    let tsx = dir.join("delve.tsx");
    let made = std::process::Command::new("mkfifo").arg(&tsx).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    std::fs::copy("tests/maps/flooded_cell.tmx", dir.join("map.tmx")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let map = dir.join("map.tmx");
    std::thread::spawn(move || {
        let r = import(
            &map,
            Path::new("/nonexistent/out.ron"),
            ImportOptions::default(),
        );
        let _ = tx.send(r.map_err(|e| e.to_string()));
    });
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the import hangs on the FIFO");
    let e = r.unwrap_err();
    assert!(e.contains("not a regular file"), "{e}");
}

/// A level made of a map that does not load names what in the map its problem comes from (the
/// Tiled object), not a line of the level file that was never written (`out.ron:19:14`).
#[test]
fn a_level_that_does_not_load_names_the_object() {
    let good = std::fs::read_to_string("tests/maps/flooded_cell.tmx").unwrap();
    let twin = r#"  <object id="6" name="Gnawbone" type="creature" x="176" y="112">
   <properties>
    <property name="faction" value="ghouls"/>
    <property name="template" value="ghoul"/>
   </properties>
   <point/>
  </object>
 </objectgroup>"#;
    let tmx = good.replacen(" </objectgroup>", twin, 1);
    let dir = scratch("twin");
    std::fs::copy("tests/maps/delve.tsx", dir.join("delve.tsx")).unwrap();
    std::fs::write(dir.join("map.tmx"), tmx).unwrap();
    let e = import(
        &dir.join("map.tmx"),
        &dir.join("out.ron"),
        ImportOptions::default(),
    )
    .unwrap_err();
    let Problem::Level { problems } = &*e.problem else {
        panic!("{e}");
    };
    assert!(
        problems
            .contains("object 6 \"Gnawbone\" (creature): creature name `Gnawbone` is used twice"),
        "{problems}"
    );
    assert!(!problems.contains("out.ron"), "{problems}");
}
