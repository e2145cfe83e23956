//! Tiled maps in (`.tmx`, with their `.tsx` tilesets; saved as TMX, not JSON): a square for
//! each tile of the map's tile layers, and the level's entries from its object layers.
//!
//! - Each tile of a tileset carries a `terrain` property naming its terrain as a level's
//!   legend does (`Floor`, `Wall(Stone)`, `Water(Deep)`, `Chasm(depth_feet: 30)`, …). A later
//!   tile layer covers an earlier one where it has tiles; a square no layer covers is `Rock`.
//! - Each object of an object layer whose class (type) is `door`, `light`, `trap`, `creature`
//!   or `climb` becomes an entry of that section at the square under the object (a rectangle's
//!   centre, a point), its custom properties its fields: booleans and numbers as they are, and
//!   strings as RON (`IronBanded`, `Locked(key: Some("ash key"))`, `Pit(depth_feet: 20)`) but
//!   for the fields that are text (`name`, `template`, `faction`, `class`), which are quoted. A
//!   creature's name is the object's unless a property gives it. The factions the creatures
//!   name are added, hostile to none (the designer says who fights whom).
//! - The map's own properties `name` and `scale_feet` name the level and its scale (5').
//!
//! Each entry is read as the level reads it before anything is written: a problem names the
//! object by its id and name.

use std::collections::BTreeSet;
use std::path::Path;

use serde::de::DeserializeOwned;
use tiled::{LayerType, ObjectShape, PropertyValue};

use super::{Entry, ImportError, ImportedMap, Problem, Spot, line_col};
use delve_ground::grid::{GridPos, Terrain};
use delve_ground::level::schema::{RawClimb, RawCreature, RawDoor, RawLight, RawTrap};

/// Fields whose values are text: a string property for them is quoted.
const TEXT_FIELDS: [&str; 4] = ["name", "template", "faction", "class"];

/// Reads a TMX map (`file` names it in messages).
pub fn read(path: &Path, file: &str) -> Result<ImportedMap, ImportError> {
    let text = delve_ground::files::read_text(path).map_err(|e| {
        ImportError::new(
            file,
            None,
            Problem::Unreadable {
                error: e.to_string(),
            },
        )
    })?;
    well_formed(&text, file)?;
    super::tmx_data::check(&text, file)?;
    let map = tiled::Loader::with_reader(Limited)
        .load_tmx_map(path)
        .map_err(|e| {
            let error = e.to_string();
            ImportError::new(
                file,
                None,
                Problem::Syntax {
                    format: "Tiled",
                    error,
                },
            )
        })?;
    if map.orientation != tiled::Orientation::Orthogonal {
        return Err(ImportError::new(file, None, Problem::NotOrthogonal));
    }
    let (w, h) = (map.width, map.height);
    if w == 0 || h == 0 || w > 1024 || h > 1024 {
        return Err(ImportError::new(
            file,
            None,
            Problem::Size {
                width: w as f64,
                height: h as f64,
                most: 1024,
            },
        ));
    }
    let name = match map.properties.get("name") {
        Some(PropertyValue::StringValue(s)) => s.clone(),
        _ => path.file_stem().map_or_else(
            || "Imported map".into(),
            |s| s.to_string_lossy().into_owned(),
        ),
    };
    let scale = match map.properties.get("scale_feet") {
        Some(PropertyValue::IntValue(i)) if *i > 0 => *i as u32,
        Some(PropertyValue::StringValue(s)) => s.parse().unwrap_or(5),
        _ => 5,
    };
    let mut out = ImportedMap::new(&name, file, "Tiled", scale, w, h);
    out.left_to_designer = "Who is hostile to whom, and what the objects do not say,".into();
    out.squares = vec![Terrain::Rock; (w * h) as usize];
    let (tw, th) = (map.tile_width.max(1) as f32, map.tile_height.max(1) as f32);
    let mut factions = BTreeSet::new();
    for layer in map.layers() {
        match layer.layer_type() {
            LayerType::Tiles(tiles) => {
                for y in 0..h as i32 {
                    for x in 0..w as i32 {
                        let Some(t) = tiles.get_tile(x, y) else {
                            continue;
                        };
                        let tileset = t.get_tileset();
                        let at = || {
                            Some(Spot::Tile {
                                layer: layer.name.clone(),
                                tileset: tileset.name.clone(),
                                id: t.id(),
                            })
                        };
                        let terrain = match t
                            .get_tile()
                            .and_then(|tile| tile.properties.get("terrain").cloned())
                        {
                            Some(PropertyValue::StringValue(s)) => {
                                delve_ground::level::ron_options()
                                    .from_str::<Terrain>(&s)
                                    .map_err(|e| {
                                        ImportError::new(
                                            file,
                                            at(),
                                            Problem::UnknownTerrain {
                                                terrain: s.clone(),
                                                error: e.to_string(),
                                            },
                                        )
                                    })?
                            }
                            _ => {
                                return Err(ImportError::new(file, at(), Problem::NoTerrain));
                            }
                        };
                        out.set(GridPos::new(x, y), terrain);
                    }
                }
            }
            LayerType::Objects(objects) => {
                for o in objects.objects() {
                    let spot = Spot::Object {
                        id: o.id(),
                        name: o.name.clone(),
                    };
                    let (px, py) = match &o.shape {
                        ObjectShape::Rect { width, height }
                        | ObjectShape::Ellipse { width, height } => {
                            // A tile object stands on its bottom-left corner.
                            let top = if o.tile_data().is_some() {
                                o.y - height
                            } else {
                                o.y
                            };
                            (o.x + width / 2.0, top + height / 2.0)
                        }
                        _ => (o.x, o.y),
                    };
                    let at = GridPos::new((px / tw).floor() as i32, (py / th).floor() as i32);
                    let class = o.user_type.to_ascii_lowercase();
                    if class.is_empty() {
                        continue;
                    }
                    if !out.in_bounds(at) {
                        return Err(ImportError::new(
                            file,
                            Some(spot),
                            Problem::OutsideTheMap {
                                what: format!("the {class} at {at}"),
                            },
                        ));
                    }
                    let mut fields = vec![format!("at: ({}, {})", at.x, at.y)];
                    if class == "creature" && !o.properties.contains_key("name") {
                        fields.push(format!("name: {:?}", o.name));
                    }
                    let mut props: Vec<(&String, &PropertyValue)> = o.properties.iter().collect();
                    props.sort_by(|a, b| a.0.cmp(b.0));
                    for (k, v) in props {
                        fields.push(format!("{k}: {}", ron_value(k, v, file, &spot)?));
                        if class == "creature"
                            && k == "faction"
                            && let PropertyValue::StringValue(f) = v
                        {
                            factions.insert(f.clone());
                        }
                    }
                    let entry = Entry {
                        ron: format!("({})", fields.join(", ")),
                        origin: format!("object {} {:?} ({class})", o.id(), o.name),
                    };
                    // Each class's entry is read as the level reads that section's entries.
                    type Reads = fn(&str) -> Result<(), ron::error::SpannedError>;
                    let (reads, what, section): (Reads, _, _) = match class.as_str() {
                        "door" => (reads_as::<RawDoor>, "a door", &mut out.doors),
                        "light" => (reads_as::<RawLight>, "a light", &mut out.lights),
                        "trap" => (reads_as::<RawTrap>, "a trap", &mut out.traps),
                        "creature" => (reads_as::<RawCreature>, "a creature", &mut out.creatures),
                        "climb" => (reads_as::<RawClimb>, "a climb", &mut out.climbs),
                        other => {
                            return Err(ImportError::new(
                                file,
                                Some(spot),
                                Problem::UnknownClass {
                                    class: other.to_owned(),
                                },
                            ));
                        }
                    };
                    reads(&entry.ron).map_err(|e| {
                        ImportError::new(
                            file,
                            Some(spot.clone()),
                            Problem::BadEntry {
                                what,
                                error: e.code.to_string(),
                                read_as: entry.ron.clone(),
                            },
                        )
                    })?;
                    section.push(entry);
                }
            }
            _ => {}
        }
    }
    for f in factions {
        out.factions.push(Entry {
            ron: format!("(name: {f:?})"),
            origin: "a faction a creature names".into(),
        });
    }
    Ok(out)
}

/// A property's value as RON.
fn ron_value(
    field: &str,
    v: &PropertyValue,
    file: &str,
    spot: &Spot,
) -> Result<String, ImportError> {
    Ok(match v {
        PropertyValue::BoolValue(b) => b.to_string(),
        PropertyValue::IntValue(i) => i.to_string(),
        PropertyValue::FloatValue(f) => f.to_string(),
        PropertyValue::StringValue(s) if TEXT_FIELDS.contains(&field) => format!("{s:?}"),
        PropertyValue::StringValue(s) => s.clone(),
        other => {
            return Err(ImportError::new(
                file,
                Some(spot.clone()),
                Problem::BadProperty {
                    name: format!("{field} ({other:?})"),
                },
            ));
        }
    })
}

/// Does the RON read as the level reads a `T`?
fn reads_as<T: DeserializeOwned>(ron: &str) -> Result<(), ron::error::SpannedError> {
    delve_ground::level::ron_options()
        .from_str::<T>(ron)
        .map(|_| ())
}

/// The map and the tilesets and templates it names, read as every file a user names is
/// (`delve_ground::files`): regular files of bounded size only, so that a tileset `source` naming a
/// FIFO or `/dev/zero` is refused rather than read for ever.
struct Limited;

impl tiled::ResourceReader for Limited {
    type Resource = std::io::Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> std::io::Result<Self::Resource> {
        delve_ground::files::read_bytes(path).map(std::io::Cursor::new)
    }
}

/// The XML is well formed, or the line and column where it is not.
fn well_formed(text: &str, file: &str) -> Result<(), ImportError> {
    let mut reader = quick_xml::Reader::from_str(text);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => return Ok(()),
            Ok(_) => {}
            Err(e) => {
                let at = line_col(text, reader.buffer_position());
                return Err(ImportError::new(
                    file,
                    Some(at),
                    Problem::Syntax {
                        format: "well-formed XML",
                        error: e.to_string(),
                    },
                ));
            }
        }
    }
}
