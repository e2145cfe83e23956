//! Maps from the tools designers already use: Universal VTT (`.dd2vtt`, `.uvtt`, `.df2vtt`:
//! Dungeondraft, DungeonFog, Dungeon Alchemist) and Tiled (`.tmx`) in, as Delve levels
//! ([`import`]); a Delve level out as Universal VTT ([`export`]).
//!
//! An importer reads its format into an [`ImportedMap`] — plain data: the squares, and the
//! doors, lights and other entries it found, each with a comment saying where it came from —
//! which [`ImportedMap::level_text`] writes as a level file. The text is loaded by the level
//! loader before anything is written, and the level and its battlemap image are written
//! atomically: a map that cannot be imported leaves no file behind.

pub mod export;
pub mod raster;
pub mod tiled_map;
mod tmx_data;
pub mod uvtt;

use delve_ground::level::{Diagnostics, LevelText};
use delve_play::save::SaveError;

use std::fmt;
use std::path::{Path, PathBuf};

use delve_ground::grid::{GridPos, Terrain};

/// How a Universal VTT map's cells become squares: a cell is `cell_feet` feet, cut into
/// `squares_per_cell` squares a side (so a square is `cell_feet / squares_per_cell` feet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    pub cell_feet: u32,
    pub squares_per_cell: u32,
}

impl Default for ImportOptions {
    /// 10' cells of 2×2 squares: 5' squares, and room on each cell's edges for the walls the
    /// tools draw along them (see [`raster`]).
    fn default() -> Self {
        Self {
            cell_feet: 10,
            squares_per_cell: 2,
        }
    }
}

/// Where in the map file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spot {
    /// A line and column of a JSON or XML file (from 1).
    LineCol { line: usize, col: usize },
    /// A Tiled object, by its id and name.
    Object { id: u32, name: String },
    /// A tile of a Tiled tileset, where a tile layer uses it.
    Tile {
        layer: String,
        tileset: String,
        id: u32,
    },
    /// A whole part of the file (`resolution.map_size`, the image).
    Part(&'static str),
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spot::LineCol { line, col } => write!(f, "{line}:{col}"),
            Spot::Object { id, name } if name.is_empty() => write!(f, "object {id}"),
            Spot::Object { id, name } => write!(f, "object {id} ({name:?})"),
            Spot::Tile { layer, tileset, id } => {
                write!(f, "layer {layer:?}, tile {id} of tileset {tileset:?}")
            }
            Spot::Part(part) => f.write_str(part),
        }
    }
}

/// What is wrong with a map, or with writing its level.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    Unreadable {
        error: String,
    },
    Unwritable {
        error: String,
    },
    /// Not a kind of file `delve import` reads.
    NotAMap,
    /// Writing the level (or its battlemap beside it) would replace a file that is not an
    /// earlier import's: the map read, or a picture another level or no level names.
    WouldReplace {
        path: String,
        what: &'static str,
    },
    /// Not JSON, not well-formed XML, or not the format's shape.
    Syntax {
        format: &'static str,
        error: String,
    },
    /// A cell that does not cut into whole-foot squares.
    Scale {
        cell_feet: u32,
        squares_per_cell: u32,
    },
    /// A map too small or too large for a level.
    Size {
        width: f64,
        height: f64,
        most: u32,
    },
    NotOrthogonal,
    /// An element of the map that is not what it should be.
    Malformed {
        expected: &'static str,
        error: String,
    },
    /// A portal, light or object beyond the map's edges.
    OutsideTheMap {
        what: String,
    },
    /// A light whose range is missing, zero or not a number.
    NoRange {
        light: usize,
    },
    /// A Tiled tile layer whose data does not hold a tile for each of its squares, or holds
    /// far more once inflated.
    LayerData {
        layer: String,
        why: String,
    },
    /// A light reaching farther than a level's light may.
    TooFar {
        light: usize,
        feet: f64,
    },
    BadImage {
        error: String,
    },
    /// A tile without a `terrain` property.
    NoTerrain,
    UnknownTerrain {
        terrain: String,
        error: String,
    },
    /// An object's properties that do not make the entry its class asks.
    BadEntry {
        what: &'static str,
        error: String,
        read_as: String,
    },
    UnknownClass {
        class: String,
    },
    /// A property of a type Delve reads nothing from.
    BadProperty {
        name: String,
    },
    /// The level made of the map, or the level to export, does not load.
    Level {
        problems: String,
    },
    /// The level's battlemap cannot be read.
    Battlemap {
        path: String,
        error: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable { error } => write!(f, "cannot read it: {error}"),
            Problem::Unwritable { error } => write!(f, "cannot write it: {error}"),
            Problem::WouldReplace { path, what } => write!(
                f,
                "writing the level would replace {path}, {what}: choose another --out"
            ),
            Problem::NotAMap => f.write_str(
                "not a map delve imports: give a .dd2vtt, .uvtt or .df2vtt (Universal VTT) or a \
                 .tmx (Tiled, saved as TMX) file",
            ),
            Problem::Syntax { format, error } => write!(f, "not a {format} file: {error}"),
            Problem::Scale {
                cell_feet,
                squares_per_cell,
            } => write!(
                f,
                "a {cell_feet}' cell does not cut into {squares_per_cell} whole-foot squares a \
                 side: give --cell-feet and --squares-per-cell so that the one divides by the other"
            ),
            Problem::Size {
                width,
                height,
                most,
            } => write!(
                f,
                "a map of {width} × {height} cannot be a level: at most {most} squares a side"
            ),
            Problem::NotOrthogonal => {
                f.write_str("the map is not orthogonal: Delve's squares need an orthogonal map")
            }
            Problem::Malformed { expected, error } => write!(f, "expected {expected}: {error}"),
            Problem::OutsideTheMap { what } => write!(f, "{what} lies outside the map"),
            Problem::NoRange { light } => {
                write!(f, "light {light} has no range: how far does it light?")
            }
            Problem::LayerData { layer, why } => write!(f, "tile layer {layer:?}: {why}"),
            Problem::TooFar { light, feet } => write!(
                f,
                "light {light} reaches {feet}': a light reaches 0' to {}'",
                delve_ground::level::MAX_REACH_FEET
            ),
            Problem::BadImage { error } => write!(f, "the image: {error}"),
            Problem::NoTerrain => {
                f.write_str("the tile has no `terrain` property (a string: Floor, Wall(Stone), …)")
            }
            Problem::UnknownTerrain { terrain, error } => write!(
                f,
                "unknown terrain {terrain:?} ({error}): a terrain as the legend names it, Floor, \
                 Wall(Stone), Water(Deep), …"
            ),
            Problem::BadEntry {
                what,
                error,
                read_as,
            } => write!(
                f,
                "its properties do not make {what}: {error} (read as {read_as})"
            ),
            Problem::UnknownClass { class } => write!(
                f,
                "an object of class {class:?}: Delve knows door, light, trap, creature and climb"
            ),
            Problem::BadProperty { name } => write!(
                f,
                "property {name:?} says nothing to Delve (give a bool, a number or a string)"
            ),
            Problem::Level { problems } => write!(f, "the level does not load:\n{problems}"),
            Problem::Battlemap { path, error } => write!(f, "its battlemap {path}: {error}"),
        }
    }
}

/// A map that cannot be imported (or a level exported), with the file and the place in it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportError {
    pub file: String,
    pub at: Option<Spot>,
    /// Boxed: an error is rare, and the `Result`s that carry it stay small.
    pub problem: Box<Problem>,
}

impl ImportError {
    pub fn new(file: &str, at: Option<Spot>, problem: Problem) -> Self {
        Self {
            file: file.to_owned(),
            at,
            problem: Box::new(problem),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{}: {at}: {}", self.file, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

impl std::error::Error for ImportError {}

/// One entry of a level section (`doors`, `lights`, …) as RON, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `(at: (3, 4), state: Closed)`.
    pub ron: String,
    /// `portal 2 (closed)`: written as a comment above the entry.
    pub origin: String,
}

/// A map read from another tool, before it is written as a level.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedMap {
    pub name: String,
    /// The file it came from and its format, for the level's heading comment.
    pub source: String,
    pub format: String,
    pub scale_feet: u32,
    pub width: u32,
    pub height: u32,
    /// Row by row.
    pub squares: Vec<Terrain>,
    pub doors: Vec<Entry>,
    pub lights: Vec<Entry>,
    pub traps: Vec<Entry>,
    pub factions: Vec<Entry>,
    pub creatures: Vec<Entry>,
    pub climbs: Vec<Entry>,
    /// The battlemap image, as PNG, if the map has one, and the squares it spans from the
    /// top-left corner (the whole map when `None`).
    pub image: Option<Vec<u8>>,
    pub image_squares: Option<(u32, u32)>,
    /// What the format cannot say, for the designer to add (the level's heading comment).
    pub left_to_designer: String,
    /// What lay outside the map and was left out, counted (`"2 portals"`): an export cropped
    /// from a larger canvas keeps the walls, doors and lights of the whole canvas.
    pub left_outside: Vec<String>,
}

impl ImportedMap {
    /// An empty map of `width` × `height` floor squares.
    pub fn new(name: &str, source: &str, format: &str, scale_feet: u32, w: u32, h: u32) -> Self {
        Self {
            name: name.to_owned(),
            source: source.to_owned(),
            format: format.to_owned(),
            scale_feet,
            width: w,
            height: h,
            squares: vec![Terrain::Floor; (w * h) as usize],
            doors: Vec::new(),
            lights: Vec::new(),
            traps: Vec::new(),
            factions: Vec::new(),
            creatures: Vec::new(),
            climbs: Vec::new(),
            image: None,
            image_squares: None,
            left_to_designer: "Factions, creatures, door properties and traps".into(),
            left_outside: Vec::new(),
        }
    }

    /// Keeps the top-left `w` × `h` squares.
    pub fn trim(&mut self, w: u32, h: u32) {
        let squares = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| self.squares[(y * self.width + x) as usize])
            .collect();
        self.squares = squares;
        (self.width, self.height) = (w, h);
    }

    pub fn in_bounds(&self, p: GridPos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height
    }

    pub fn get(&self, p: GridPos) -> Option<Terrain> {
        self.in_bounds(p)
            .then(|| self.squares[(p.y as u32 * self.width + p.x as u32) as usize])
    }

    pub fn set(&mut self, p: GridPos, t: Terrain) {
        if self.in_bounds(p) {
            self.squares[(p.y as u32 * self.width + p.x as u32) as usize] = t;
        }
    }

    /// The level file: a heading comment naming the source, the legend, the map, and each
    /// section with a comment on every imported entry. `battlemap` is the image's file name,
    /// beside the level.
    pub fn level_text(&self, battlemap: Option<&str>) -> String {
        let mut legend: Vec<(char, Terrain)> = Vec::new();
        let mut rows = Vec::with_capacity(self.height as usize);
        for y in 0..self.height {
            let mut row = String::with_capacity(self.width as usize);
            for x in 0..self.width {
                let t = self.squares[(y * self.width + x) as usize];
                let c = match legend.iter().find(|(_, l)| *l == t) {
                    Some((c, _)) => *c,
                    None => {
                        let c = legend_char(t, &legend);
                        legend.push((c, t));
                        c
                    }
                };
                row.push(c);
            }
            rows.push(row);
        }
        let mut s = format!(
            "// Imported by `delve import` from {} ({}): {}.\n\
             // {} are for the designer to add.\n",
            self.source,
            self.format,
            self.imported_parts(),
            self.left_to_designer
        );
        if !self.left_outside.is_empty() {
            s.push_str(&format!(
                "// Left out, lying outside the exported map: {}.\n",
                self.left_outside.join(", ")
            ));
        }
        s.push_str("(\n");
        s.push_str(&format!("    name: {:?},\n", self.name));
        s.push_str(&format!("    scale_feet: {},\n", self.scale_feet));
        if let Some(b) = battlemap {
            let (w, h) = self.image_squares.unwrap_or((self.width, self.height));
            s.push_str(&format!(
                "    battlemap: (image: {b:?}, width: {w}, height: {h}),\n"
            ));
        }
        s.push_str("    legend: {\n");
        for (c, t) in &legend {
            let t = ron::to_string(t).expect("terrain writes as RON");
            s.push_str(&format!("        {c:?}: {t},\n"));
        }
        s.push_str("    },\n    map: [\n");
        for r in rows {
            s.push_str(&format!("        {r:?},\n"));
        }
        s.push_str("    ],\n");
        for (section, entries) in [
            ("doors", &self.doors),
            ("traps", &self.traps),
            ("lights", &self.lights),
            ("climbs", &self.climbs),
            ("factions", &self.factions),
            ("creatures", &self.creatures),
        ] {
            if entries.is_empty() {
                continue;
            }
            s.push_str(&format!("    {section}: [\n"));
            for e in entries.iter() {
                s.push_str(&format!("        // imported: {}\n", e.origin));
                s.push_str(&format!("        {},\n", e.ron));
            }
            s.push_str("    ],\n");
        }
        s.push_str(")\n");
        s
    }

    /// Notes that `count` `what`s lay outside the map (`what` in the singular, `whats` plural).
    pub fn left_out(&mut self, count: usize, what: &str, whats: &str) {
        match count {
            0 => {}
            1 => self.left_outside.push(format!("1 {what}")),
            n => self.left_outside.push(format!("{n} {whats}")),
        }
    }

    fn imported_parts(&self) -> String {
        let mut parts = vec!["the map"];
        for (what, entries) in [
            ("doors", &self.doors),
            ("lights", &self.lights),
            ("traps", &self.traps),
            ("creatures", &self.creatures),
            ("climbs", &self.climbs),
        ] {
            if !entries.is_empty() {
                parts.push(what);
            }
        }
        if self.image.is_some() {
            parts.push("the battlemap image");
        }
        parts.join(", ")
    }
}

/// The usual character for a terrain, or the first free one.
fn legend_char(t: Terrain, taken: &[(char, Terrain)]) -> char {
    use delve_ground::grid::{WallMaterial, WaterDepth};
    let usual = match t {
        Terrain::Floor => '.',
        Terrain::Rubble => ':',
        Terrain::Water(WaterDepth::Knee) => ',',
        Terrain::Water(WaterDepth::Waist) => '~',
        Terrain::Water(WaterDepth::Chest) => '=',
        Terrain::Water(WaterDepth::Deep) => 'W',
        Terrain::Door => '+',
        Terrain::Chasm { .. } => 'O',
        Terrain::Squeeze => 'S',
        Terrain::Ledge { .. } => '_',
        Terrain::Wall(WallMaterial::Stone) => '#',
        Terrain::Wall(WallMaterial::Wood) => 'w',
        Terrain::Rock => ' ',
    };
    let free = |c: &char| !taken.iter().any(|(t, _)| t == c);
    std::iter::once(usual)
        .chain("abcdefghijklmnopqrstuvxyzABCDEFGHIJKLMNPQRTUVXYZ0123456789".chars())
        .find(free)
        .unwrap_or('?')
}

/// The map formats `delve import` reads, by the file's extension.
pub fn format_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "dd2vtt" | "uvtt" | "df2vtt" | "json" => Some("uvtt"),
        "tmx" => Some("tmx"),
        _ => None,
    }
}

/// Reads `map`, makes a level of it, checks that the level loads, and writes it to `out` with
/// its battlemap beside it (`out` with the extension `.png`). Nothing is written unless all of
/// it can be. Returns the paths written.
pub fn import(map: &Path, out: &Path, options: ImportOptions) -> Result<Vec<PathBuf>, ImportError> {
    let file = map.display().to_string();
    // Neither the level nor its picture is written over the map read.
    for target in [out.to_owned(), out.with_extension("png")] {
        if delve_ground::files::same_file(map, &target) {
            return Err(ImportError::new(
                &file,
                None,
                Problem::WouldReplace {
                    path: target.display().to_string(),
                    what: "the map being read",
                },
            ));
        }
    }
    let imported = match format_of(map) {
        Some("uvtt") => {
            let text = delve_ground::files::read_text(map).map_err(|e| {
                ImportError::new(
                    &file,
                    None,
                    Problem::Unreadable {
                        error: e.to_string(),
                    },
                )
            })?;
            uvtt::read(&text, &file, options)?
        }
        Some(_) => tiled_map::read(map, &file)?,
        None => return Err(ImportError::new(&file, None, Problem::NotAMap)),
    };
    write_level(&imported, out)
}

/// Writes the level (and its image) if it loads.
pub fn write_level(imported: &ImportedMap, out: &Path) -> Result<Vec<PathBuf>, ImportError> {
    let out_name = out.display().to_string();
    let image_path = out.with_extension("png");
    let image_name = image_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let battlemap = imported.image.as_ref().and(image_name.as_deref());
    let text = imported.level_text(battlemap);
    let level = LevelText {
        file: out_name.clone(),
        text: text.clone(),
        included: Vec::new(),
    };
    if let Err(problems) = level.load() {
        return Err(ImportError::new(
            &imported.source,
            None,
            Problem::Level {
                problems: traced_to_the_map(&problems, &text),
            },
        ));
    }
    let unwritable = |e: SaveError| {
        let error = match e {
            SaveError::Unwritable { error, .. } => error,
            e => e.to_string(),
        };
        ImportError::new(&out_name, None, Problem::Unwritable { error })
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            ImportError::new(
                &out_name,
                None,
                Problem::Unwritable {
                    error: format!("cannot make {}: {e}", dir.display()),
                },
            )
        })?;
    }
    // A picture already beside the level is replaced only when the level there names it (an
    // earlier import of the same level): another's is kept.
    if imported.image.is_some()
        && image_path.exists()
        && !image_name.as_deref().is_some_and(|name| {
            delve_ground::files::read_text(out).is_ok_and(|t| t.contains(&format!("\"{name}\"")))
        })
    {
        return Err(ImportError::new(
            &out_name,
            None,
            Problem::WouldReplace {
                path: image_path.display().to_string(),
                what: "a picture that is not this level's battlemap",
            },
        ));
    }
    let mut written = Vec::new();
    if let Some(png) = &imported.image {
        delve_play::save::write_atomic(&image_path, png).map_err(unwritable)?;
        written.push(image_path.clone());
    }
    if let Err(e) = delve_play::save::write_atomic(out, text.as_bytes()) {
        // No half an import: the image goes too.
        if !written.is_empty() {
            let _ = std::fs::remove_file(&image_path);
        }
        return Err(unwritable(e));
    }
    written.push(out.to_owned());
    Ok(written)
}

/// The problems of a level made of a map, each told at what in the map it came from — the
/// portal, the light, the Tiled object: the comment above its entry — rather than at a line
/// of a file never written.
fn traced_to_the_map(problems: &Diagnostics, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let origin = |line: usize| -> Option<&str> {
        let above = lines.get(line.checked_sub(2)?)?.trim();
        above.strip_prefix("// imported: ")
    };
    let mut out = String::new();
    for d in &problems.0 {
        let at = origin(d.line).map_or_else(
            || match lines.get(d.line.wrapping_sub(1)) {
                Some(l) if l.trim_start().starts_with('"') => {
                    format!(
                        "the map, row {}",
                        d.line.saturating_sub(map_start(&lines) + 1)
                    )
                }
                _ => "the map".to_owned(),
            },
            str::to_owned,
        );
        out += &format!("  {at}: {}\n", d.message);
    }
    out
}

/// The line number (from 1) of the `map: [` line.
fn map_start(lines: &[&str]) -> usize {
    lines
        .iter()
        .position(|l| l.trim_start().starts_with("map: ["))
        .map_or(0, |i| i + 1)
}

/// The line and column (from 1) of a byte offset in a text.
pub fn line_col(text: &str, offset: usize) -> Spot {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |i| before.len() - i - 1)
        + 1;
    Spot::LineCol { line, col }
}
