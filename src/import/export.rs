//! A Delve level out as Universal VTT (`delve export LEVEL.ron --uvtt OUT.dd2vtt`), so that it
//! opens in Foundry, MapTool and the others with its walls, doors and lights.
//!
//! One cell is one square. Walls — stone, wooden and rock alike, and secret doors, which are
//! walls to the players — are lines through the middle of their squares, each row's runs of
//! wall as one line, the rest as columns' runs (a wall line through a square's middle gives
//! that square back when the file is imported with one square to a cell). Each other door is a
//! portal across its square, along the wall it stands in, open or closed. Each light is a light
//! whose range is its dim light's. The image is the level's battlemap if it names one, or the
//! level drawn with the window's tile art.

use delve_ground::grid::DoorState;
use delve_ground::level::{Diagnostics, LevelText};
use delve_play::save::SaveError;

use std::path::Path;

use base64::Engine;
use serde_json::{Value, json};

use super::{ImportError, Problem};
use delve_ground::grid::{GridPos, Terrain};
use delve_ground::level::Level;
use delve_ground::tile_art::{TILE_PX, TileArt};

/// Writes `level` (read from `level_file`) as Universal VTT to `out`, atomically.
pub fn export(level_file: &Path, out: &Path) -> Result<(), ImportError> {
    let name = level_file.display().to_string();
    let text = LevelText::read(level_file).map_err(|d| not_a_level(&name, d))?;
    let level = text.load().map_err(|d| not_a_level(&name, d))?.level;
    let image = match &level.battlemap {
        Some(b) => {
            let path = level_file.parent().unwrap_or(Path::new(".")).join(&b.image);
            std::fs::read(&path).map_err(|e| {
                let (path, error) = (path.display().to_string(), e.to_string());
                ImportError::new(&name, None, Problem::Battlemap { path, error })
            })?
        }
        None => drawn(&level),
    };
    let uvtt = to_uvtt(&level, &image);
    let written = serde_json::to_string_pretty(&uvtt).expect("JSON writes");
    delve_play::save::write_atomic(out, written.as_bytes()).map_err(|e| {
        let error = match e {
            SaveError::Unwritable { error, .. } => error,
            e => e.to_string(),
        };
        ImportError::new(
            &out.display().to_string(),
            None,
            Problem::Unwritable { error },
        )
    })
}

fn not_a_level(file: &str, problems: Diagnostics) -> ImportError {
    let problems = problems.to_string();
    ImportError::new(file, None, Problem::Level { problems })
}

/// The squares that are walls to the players, row by row: walls, rock, and secret doors.
fn walls_of(level: &Level) -> Vec<bool> {
    let mut walls: Vec<bool> = level
        .grid
        .squares()
        .map(|(_, t)| matches!(t, Terrain::Wall(_) | Terrain::Rock))
        .collect();
    for d in level.doors.iter().filter(|d| d.door.secret) {
        if let Some(i) = level.grid.index(d.at) {
            walls[i] = true;
        }
    }
    walls
}

/// The level as Universal VTT 0.3, with `image` (PNG bytes) as its picture.
pub fn to_uvtt(level: &Level, image: &[u8]) -> Value {
    let (w, h) = (level.grid.width() as i32, level.grid.height() as i32);
    let wall_squares = walls_of(level);
    let is_wall = |p: GridPos| level.grid.index(p).is_some_and(|i| wall_squares[i]);
    let pt = |x: f64, y: f64| json!({"x": x, "y": y});
    let mut walls: Vec<Value> = Vec::new();
    let mut in_a_row = vec![false; (w * h) as usize];
    // Each row's runs of two or more wall squares.
    for y in 0..h {
        let mut x = 0;
        while x < w {
            if !is_wall(GridPos::new(x, y)) {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && is_wall(GridPos::new(x, y)) {
                x += 1;
            }
            if x - start >= 2 {
                for i in start..x {
                    in_a_row[(y * w + i) as usize] = true;
                }
                let cy = y as f64 + 0.5;
                walls.push(json!([pt(start as f64 + 0.5, cy), pt(x as f64 - 0.5, cy)]));
            }
        }
    }
    // The rest: each column's runs of wall squares not in a row's run.
    let alone = |x: i32, y: i32| is_wall(GridPos::new(x, y)) && !in_a_row[(y * w + x) as usize];
    for x in 0..w {
        let mut y = 0;
        while y < h {
            if !alone(x, y) {
                y += 1;
                continue;
            }
            let start = y;
            while y < h && alone(x, y) {
                y += 1;
            }
            let cx = x as f64 + 0.5;
            if y - start >= 2 {
                walls.push(json!([pt(cx, start as f64 + 0.5), pt(cx, y as f64 - 0.5)]));
            } else {
                // A wall square on its own: a short line inside it.
                let cy = start as f64 + 0.5;
                walls.push(json!([pt(cx - 0.25, cy), pt(cx + 0.25, cy)]));
            }
        }
    }
    let portals: Vec<Value> = level
        .doors
        .iter()
        .filter(|d| !d.door.secret)
        .map(|d| {
            let (x, y) = (d.at.x as f64, d.at.y as f64);
            // Along the wall it stands in: walls left and right make a door across a
            // north-south way.
            let across = is_wall(GridPos::new(d.at.x - 1, d.at.y))
                || is_wall(GridPos::new(d.at.x + 1, d.at.y));
            let (bounds, rotation) = if across {
                (vec![pt(x, y + 0.5), pt(x + 1.0, y + 0.5)], 0.0)
            } else {
                (
                    vec![pt(x + 0.5, y), pt(x + 0.5, y + 1.0)],
                    std::f64::consts::FRAC_PI_2,
                )
            };
            json!({
                "position": pt(x + 0.5, y + 0.5),
                "bounds": bounds,
                "rotation": rotation,
                "closed": d.door.state == DoorState::Closed,
                "freestanding": false,
            })
        })
        .collect();
    let scale = level.grid.scale_feet().max(1) as f64;
    let lights: Vec<Value> = level
        .lights
        .iter()
        .map(|l| {
            json!({
                "position": pt(l.at.x as f64 + 0.5, l.at.y as f64 + 0.5),
                "range": l.kind.dim_feet() as f64 / scale,
                "intensity": if l.lit { 1.0 } else { 0.0 },
                "color": "ffffc080",
                "shadows": true,
            })
        })
        .collect();
    json!({
        "format": 0.3,
        "software": "delve",
        "resolution": {
            "map_origin": pt(0.0, 0.0),
            "map_size": pt(w as f64, h as f64),
            "pixels_per_grid": TILE_PX,
        },
        "line_of_sight": walls,
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": false, "ambient_light": "ff000000"},
        "lights": lights,
        "image": base64::engine::general_purpose::STANDARD.encode(image),
    })
}

/// The level drawn with the window's tile art, as PNG.
pub fn drawn(level: &Level) -> Vec<u8> {
    let (strip_w, strip) = delve_ground::tile_art::tileset_rgba();
    let (w, h) = (level.grid.width(), level.grid.height());
    let mut img = image::RgbaImage::new(w * TILE_PX, h * TILE_PX);
    for (p, t) in level.grid.squares() {
        let door = level
            .doors
            .iter()
            .find(|d| d.at == p)
            .map(|d| (&d.door.state, &d.door.lock, d.door.secret));
        // The players' picture: a secret door is drawn as the wall it looks like.
        let art = match door {
            Some((_, _, true)) => TileArt::WallStone,
            _ => TileArt::for_square(t, door),
        } as u32;
        for y in 0..TILE_PX {
            for x in 0..TILE_PX {
                let i = ((y * strip_w + art * TILE_PX + x) * 4) as usize;
                let px = image::Rgba([strip[i], strip[i + 1], strip[i + 2], strip[i + 3]]);
                img.put_pixel(p.x as u32 * TILE_PX + x, p.y as u32 * TILE_PX + y, px);
            }
        }
    }
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("a PNG writes to memory");
    png
}
