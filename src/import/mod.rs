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
pub mod uvtt;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::grid::{GridPos, Terrain};

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
    /// A whole part of the file (`line_of_sight`, the image).
    Part(String),
}

/// A map that cannot be imported, with the file and the place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub file: String,
    pub at: Option<Spot>,
    pub message: String,
}

impl ImportError {
    pub fn new(file: &str, at: Option<Spot>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            at,
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(Spot::LineCol { line, col }) => {
                write!(f, "{}:{line}:{col}: {}", self.file, self.message)
            }
            Some(Spot::Object { id, name }) if name.is_empty() => {
                write!(f, "{}: object {id}: {}", self.file, self.message)
            }
            Some(Spot::Object { id, name }) => {
                write!(f, "{}: object {id} ({name:?}): {}", self.file, self.message)
            }
            Some(Spot::Part(part)) => write!(f, "{}: {part}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
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
             // {} are for the designer to add.\n(\n",
            self.source,
            self.format,
            self.imported_parts(),
            self.left_to_designer
        );
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
    use crate::grid::{WallMaterial, WaterDepth};
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
    let imported = match format_of(map) {
        Some("uvtt") => {
            let text = std::fs::read_to_string(map)
                .map_err(|e| ImportError::new(&file, None, format!("cannot read it: {e}")))?;
            uvtt::read(&text, &file, options)?
        }
        Some(_) => tiled_map::read(map, &file)?,
        None => {
            return Err(ImportError::new(
                &file,
                None,
                "not a map delve imports: give a .dd2vtt, .uvtt or .df2vtt (Universal VTT) or a \
                 .tmx (Tiled, saved as TMX) file",
            ));
        }
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
    let level = crate::level::LevelText {
        file: out_name.clone(),
        text: text.clone(),
        included: Vec::new(),
    };
    if let Err(problems) = level.load() {
        return Err(ImportError::new(
            &imported.source,
            None,
            format!("the level made of it does not load:\n{problems}"),
        ));
    }
    let unwritable = |e: crate::save::SaveError| {
        let why = match e {
            crate::save::SaveError::Unwritable { path, error } => {
                format!("cannot write {path}: {error}")
            }
            e => e.to_string(),
        };
        ImportError::new(&out_name, None, why)
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            ImportError::new(
                &out_name,
                None,
                format!("cannot make {}: {e}", dir.display()),
            )
        })?;
    }
    let mut written = Vec::new();
    if let Some(png) = &imported.image {
        crate::save::write_atomic(&image_path, png).map_err(unwritable)?;
        written.push(image_path.clone());
    }
    if let Err(e) = crate::save::write_atomic(out, text.as_bytes()) {
        // No half an import: the image goes too.
        if !written.is_empty() {
            let _ = std::fs::remove_file(&image_path);
        }
        return Err(unwritable(e));
    }
    written.push(out.to_owned());
    Ok(written)
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
