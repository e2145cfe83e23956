//! Universal VTT in (`.dd2vtt`, `.uvtt`, `.df2vtt`; format 0.2 and 0.3): plain JSON whose every
//! coordinate is in grid cells. `line_of_sight` and `objects_line_of_sight` are wall polylines,
//! `portals` doors (and windows), `lights` light sources, `image` the battlemap (base64 PNG, WebP
//! or JPEG). Unknown fields are ignored; a portal without `closed` is closed.
//!
//! Walls become wall squares ([`super::raster`]); a portal becomes a door on the square at its
//! position (closed or open as it is; a portal that is not `freestanding` and spans less than
//! a cell's side a window — lead glass); a light becomes a source whose dim light reaches its
//! range (its bright light half as far), a torch or a candle where the range is theirs.

use base64::Engine;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Entry, ImportError, ImportOptions, ImportedMap, Problem, Spot, line_col, raster};
use delve_ground::grid::{GridPos, Terrain, WallMaterial};

#[derive(Deserialize)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
struct Resolution {
    #[serde(default = "origin")]
    map_origin: Point,
    map_size: Point,
}

fn origin() -> Point {
    Point { x: 0.0, y: 0.0 }
}

/// The file's top level, its lists kept raw so that a problem in one element can say where the
/// element is.
/// (`format` is not read: versions 0.1 to 0.3 name the fields read here alike.)
#[derive(Deserialize)]
struct File<'a> {
    resolution: Resolution,
    #[serde(default, borrow)]
    line_of_sight: Vec<&'a RawValue>,
    #[serde(default, borrow)]
    objects_line_of_sight: Vec<&'a RawValue>,
    #[serde(default, borrow)]
    portals: Vec<&'a RawValue>,
    #[serde(default, borrow)]
    lights: Vec<&'a RawValue>,
    #[serde(default)]
    image: Option<String>,
}

#[derive(Deserialize)]
struct Portal {
    position: Point,
    #[serde(default)]
    bounds: Vec<Point>,
    #[serde(default)]
    closed: Option<bool>,
    #[serde(default)]
    freestanding: bool,
}

#[derive(Deserialize)]
struct Light {
    position: Point,
    #[serde(default)]
    range: Option<f64>,
}

/// The most squares a side an imported level may have.
const MOST_SQUARES_A_SIDE: u32 = 1024;

/// Reads a Universal VTT file's text (`file` names it in messages).
pub fn read(text: &str, file: &str, options: ImportOptions) -> Result<ImportedMap, ImportError> {
    let ImportOptions {
        cell_feet,
        squares_per_cell: n,
    } = options;
    if n == 0 || cell_feet == 0 || !cell_feet.is_multiple_of(n) {
        return Err(ImportError::new(
            file,
            None,
            Problem::Scale {
                cell_feet,
                squares_per_cell: n,
            },
        ));
    }
    let f: File = serde_json::from_str(text).map_err(|e| {
        let at = (e.line() > 0).then_some(Spot::LineCol {
            line: e.line(),
            col: e.column(),
        });
        let error = e.to_string();
        ImportError::new(
            file,
            at,
            Problem::Syntax {
                format: "Universal VTT",
                error,
            },
        )
    })?;
    let size = &f.resolution.map_size;
    let (cw, ch) = (size.x.round(), size.y.round());
    let most = (MOST_SQUARES_A_SIDE / n) as f64;
    if !(1.0..=most).contains(&cw) || !(1.0..=most).contains(&ch) {
        return Err(ImportError::new(
            file,
            Some(Spot::Part("resolution.map_size")),
            Problem::Size {
                width: size.x * n as f64,
                height: size.y * n as f64,
                most: MOST_SQUARES_A_SIDE,
            },
        ));
    }
    let nf = n as f64;
    // One more column and row than the cells: the map's right and bottom edges have their
    // walls too.
    let (w, h) = (cw as u32 * n + 1, ch as u32 * n + 1);
    let name = std::path::Path::new(file).file_stem().map_or_else(
        || "Imported map".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let mut map = ImportedMap::new(&name, file, "Universal VTT", cell_feet / n, w, h);
    let (ox, oy) = (f.resolution.map_origin.x, f.resolution.map_origin.y);
    let to_squares = |p: &Point| ((p.x - ox) * nf, (p.y - oy) * nf);
    let at_of =
        |raw: &RawValue| line_col(text, raw.get().as_ptr() as usize - text.as_ptr() as usize);
    // Walls.
    let mut squares = Vec::new();
    let mut walls_outside = 0;
    for raw in f.line_of_sight.iter().chain(&f.objects_line_of_sight) {
        let line: Vec<Point> = parse(raw, file, &at_of, "a wall: a list of points")?;
        let before = squares.len();
        match line.as_slice() {
            [] => {}
            [p] => raster::squares_on(to_squares(p), to_squares(p), w, h, &mut squares),
            _ => {
                for pair in line.windows(2) {
                    raster::squares_on(
                        to_squares(&pair[0]),
                        to_squares(&pair[1]),
                        w,
                        h,
                        &mut squares,
                    );
                }
            }
        }
        if squares.len() == before && !line.is_empty() {
            walls_outside += 1;
        }
    }
    map.left_out(walls_outside, "wall", "walls");
    for p in squares.drain(..) {
        map.set(p, Terrain::Wall(WallMaterial::Stone));
    }
    // The column and row beyond the cells are for walls on the map's right and bottom edges;
    // with none there, they go.
    let (last_col, last_row) = (GridPos::new(w as i32 - 1, 0), GridPos::new(0, h as i32 - 1));
    let empty_col =
        (0..h as i32).all(|y| map.get(GridPos::new(last_col.x, y)) == Some(Terrain::Floor));
    let empty_row =
        (0..w as i32).all(|x| map.get(GridPos::new(x, last_row.y)) == Some(Terrain::Floor));
    if empty_col && empty_row {
        map.trim(w - 1, h - 1);
    }
    // Doors. Those outside the map (an export cropped from a larger canvas: `map_origin` is
    // its corner there) are left out and counted.
    let (mw, mh) = (map.width as i32, map.height as i32);
    let square_of = |p: &Point| {
        let (x, y) = to_squares(p);
        (x.is_finite() && y.is_finite())
            .then(|| GridPos::new(x.floor() as i32, y.floor() as i32))
            .filter(|at| (0..mw).contains(&at.x) && (0..mh).contains(&at.y))
    };
    let mut portals_outside = 0;
    for (i, raw) in f.portals.iter().enumerate() {
        let portal: Portal = parse(raw, file, &at_of, "a portal: position, bounds, closed")?;
        let Some(at) = square_of(&portal.position) else {
            portals_outside += 1;
            continue;
        };
        let closed = portal.closed.unwrap_or(true);
        let span = match portal.bounds.as_slice() {
            [a, b, ..] => ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt(),
            _ => 1.0,
        };
        let window = !portal.freestanding && span < 0.99 && portal.bounds.len() >= 2;
        if map.get(at) == Some(Terrain::Door) {
            // A second portal on the same square (a double door drawn as two): one door.
            continue;
        }
        map.set(at, Terrain::Door);
        let state = if closed { "Closed" } else { "Open" };
        let material = if window { "LeadGlassWindow" } else { "Wooden" };
        map.doors.push(Entry {
            ron: format!(
                "(at: ({}, {}), material: {material}, state: {state})",
                at.x, at.y
            ),
            origin: format!(
                "portal {i} ({}{})",
                if closed { "closed" } else { "open" },
                if window { ", a window" } else { "" }
            ),
        });
    }
    map.left_out(portals_outside, "portal", "portals");
    // Lights.
    let mut lights_outside = 0;
    for (i, raw) in f.lights.iter().enumerate() {
        let light: Light = parse(raw, file, &at_of, "a light: position, range")?;
        let Some(range) = light.range.filter(|r| r.is_finite() && *r > 0.0) else {
            return Err(ImportError::new(
                file,
                Some(at_of(raw)),
                Problem::NoRange { light: i },
            ));
        };
        let Some(mut at) = square_of(&light.position) else {
            lights_outside += 1;
            continue;
        };
        // A light hung on a wall lights the floor beside it.
        if matches!(map.get(at), Some(Terrain::Wall(_))) {
            let beside = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .into_iter()
                .map(|(dx, dy)| GridPos::new(at.x + dx, at.y + dy))
                .find(|p| map.get(*p).is_some_and(|t| !matches!(t, Terrain::Wall(_))));
            if let Some(p) = beside {
                at = p;
            }
        }
        let feet = (range * cell_feet as f64).round();
        if feet > delve_ground::level::MAX_REACH_FEET as f64 {
            return Err(ImportError::new(
                file,
                Some(at_of(raw)),
                Problem::TooFar { light: i, feet },
            ));
        }
        let dim_feet = feet as u32;
        let kind = match dim_feet {
            10 => "Candle".to_owned(),
            30 => "Torch".to_owned(),
            _ => format!(
                "Custom(bright_feet: {}, dim_feet: {dim_feet})",
                dim_feet / 2
            ),
        };
        map.lights.push(Entry {
            ron: format!("(at: ({}, {}), kind: {kind}, lit: true)", at.x, at.y),
            origin: format!("light {i}, range {range} cells"),
        });
    }
    map.left_out(lights_outside, "light", "lights");
    if let Some(image) = &f.image {
        map.image = Some(png_of(image, file)?);
        // The picture spans the cells, not the column and row beyond them.
        map.image_squares = Some((cw as u32 * n, ch as u32 * n));
    }
    Ok(map)
}

/// Parses one element of a list, a problem in it placed at the element.
fn parse<'a, T: Deserialize<'a>>(
    raw: &'a RawValue,
    file: &str,
    at_of: &impl Fn(&RawValue) -> Spot,
    expected: &'static str,
) -> Result<T, ImportError> {
    serde_json::from_str(raw.get()).map_err(|e| {
        let error = e.to_string();
        ImportError::new(
            file,
            Some(at_of(raw)),
            Problem::Malformed { expected, error },
        )
    })
}

/// The battlemap image (base64 PNG, WebP or JPEG) as PNG.
fn png_of(base64: &str, file: &str) -> Result<Vec<u8>, ImportError> {
    let bad = |error: String| {
        ImportError::new(file, Some(Spot::Part("image")), Problem::BadImage { error })
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64.trim())
        .map_err(|e| bad(format!("not base64: {e}")))?;
    let format = image::guess_format(&bytes)
        .map_err(|e| bad(format!("not a PNG, WebP or JPEG image: {e}")))?;
    if format == image::ImageFormat::Png {
        // Checked, and kept as it is.
        image::load_from_memory_with_format(&bytes, format)
            .map_err(|e| bad(format!("a broken PNG image: {e}")))?;
        return Ok(bytes);
    }
    let img = image::load_from_memory_with_format(&bytes, format)
        .map_err(|e| bad(format!("a broken {format:?} image: {e}")))?;
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| bad(format!("cannot write it as PNG: {e}")))?;
    Ok(png)
}
