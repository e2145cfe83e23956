//! From the file to the level: parse, then check everything LEVEL_FORMAT.md › Errors lists, and
//! report every problem at its line and column.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use super::bestiary::{self, Bestiary};
use super::diagnostic::{Diagnostic, Diagnostics, SourcePos};
use super::schema::*;
use super::spans::{Seg, SpanIndex};
use super::*;
use crate::dice::DiceExpr;
use crate::grid::{DungeonGrid, GridPos};

/// The largest map side accepted: keeps a mistyped file from asking for gigabytes.
pub const MAX_MAP_SIDE: usize = 4096;

/// The deepest depth (and highest height) a level may give (RULINGS › Pits and holes).
pub const MAX_DEPTH_FEET: u32 = 1000;

/// The RON dialect of level, bestiary and script files: optional fields are written bare
/// (`hp: 9`, not `hp: Some(9)`); `Some(..)` is still accepted.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Turns a RON error in `src` into a diagnostic at its position. A number out of its field's
/// range (a negative width) names the field and what it takes, as the other level errors do.
pub(crate) fn ron_diagnostic(
    file: &str,
    src: &str,
    e: &ron::error::SpannedError,
    what: &str,
) -> Diagnostic {
    let at = SourcePos::new(e.span.start.line.max(1), e.span.start.col.max(1));
    let explained = match e.code {
        ron::Error::IntegerOutOfBounds => number_out_of_bounds(src, at),
        _ => None,
    };
    Diagnostic::error(
        DiagnosticKind::Syntax,
        file,
        at,
        format!(
            "{} (while reading {what})",
            explained.unwrap_or_else(|| e.code.to_string())
        ),
    )
}

/// What the fields that take whole numbers take, by name, for errors.
fn what_a_field_takes(field: &str) -> &'static str {
    match field {
        "width_inches" => {
            "the path's width in whole inches, 0 or more (4 to 8: narrow; under 4: precarious; 0: too narrow to cross)"
        }
        "deep_water_feet" | "depth_feet" => "a depth in whole feet, 1 to 1,000",
        "scale_feet" => "the side of a square in whole feet, 1 or more",
        "lair_radius_feet" => "a distance in whole feet, 1 to 1,000",
        "spikes" => "the number of iron spikes driven in, 0 to 4",
        _ => "a whole number in its range (most: 0 or more)",
    }
}

/// The field whose number ends at `at` in `src`, and what it takes: `width_inches: -3`.
fn number_out_of_bounds(src: &str, at: SourcePos) -> Option<String> {
    let line = src.lines().nth(at.line.checked_sub(1)?)?;
    let end = line
        .char_indices()
        .nth(at.col.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i);
    let before = &line[..end];
    let number_at = before
        .trim_end_matches(|c: char| c.is_ascii_digit() || "-+._".contains(c))
        .len();
    let rest = &line[end..];
    let digits = rest
        .find(|c: char| !(c.is_ascii_digit() || "._".contains(c)))
        .unwrap_or(rest.len());
    let value = format!("{}{}", before[number_at..].trim(), &rest[..digits]);
    let head = before[..number_at].trim_end().strip_suffix(':')?.trim_end();
    let field_at = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let field = &head[field_at..];
    (!field.is_empty() && !value.is_empty()).then(|| {
        format!(
            "`{field}` is {value}, out of its range: it takes {}",
            what_a_field_takes(field)
        )
    })
}

/// Reads and validates a level file. Bestiary files it names are read relative to it.
pub fn load_level_file(path: &Path) -> Result<Loaded, Diagnostics> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(src) => load_level_str(&src, &file, path.parent()),
        Err(e) => Err(Diagnostics(vec![Diagnostic::error(
            DiagnosticKind::Unreadable,
            &file,
            SourcePos::START,
            format!("cannot read level file: {e}"),
        )])),
    }
}

/// Where a level's bestiary files come from: read from a directory (the level file's), or given
/// with their texts (a save keeps them).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Includes<'a> {
    Dir(Option<&'a Path>),
    Given(&'a [(String, String)]),
}

/// Validates level text. `file` names it in messages; `base_dir` is where its bestiary files are
/// looked for.
pub fn load_level_str(
    src: &str,
    file: &str,
    base_dir: Option<&Path>,
) -> Result<Loaded, Diagnostics> {
    load_level_with(src, file, Includes::Dir(base_dir))
}

/// Validates level text whose bestiary files come from `includes`.
pub(crate) fn load_level_with(
    src: &str,
    file: &str,
    includes: Includes,
) -> Result<Loaded, Diagnostics> {
    let raw: RawLevel = match ron_options().from_str(src) {
        Ok(raw) => raw,
        Err(e) => {
            return Err(Diagnostics(vec![ron_diagnostic(file, src, &e, "a level")]));
        }
    };
    let mut v = Validator {
        file,
        src,
        spans: OnceCell::new(),
        problems: Diagnostics::default(),
    };
    let level = v.level(raw, includes);
    let problems = v.problems.sorted();
    if problems.has_errors() {
        Err(problems)
    } else {
        Ok(Loaded {
            level: level.expect("a level is built whenever there is no error"),
            warnings: problems,
        })
    }
}

struct Validator<'a> {
    file: &'a str,
    src: &'a str,
    spans: OnceCell<SpanIndex>,
    problems: Diagnostics,
}

/// `doors[3].at` as a path.
macro_rules! path {
    ($($seg:expr),* $(,)?) => { &[$(Seg::from($seg)),*][..] };
}

impl<'s> From<&'s str> for Seg<'s> {
    fn from(s: &'s str) -> Self {
        Seg::Field(s)
    }
}

impl From<usize> for Seg<'_> {
    fn from(i: usize) -> Self {
        Seg::Index(i)
    }
}

impl Validator<'_> {
    fn spans(&self) -> &SpanIndex {
        self.spans.get_or_init(|| SpanIndex::build(self.src))
    }

    fn at(&self, path: &[Seg]) -> SourcePos {
        self.spans().pos(path)
    }

    fn error(&mut self, kind: DiagnosticKind, at: SourcePos, msg: impl Into<String>) {
        let d = Diagnostic::error(kind, self.file, at, msg);
        self.problems.push(d);
    }

    fn warning(&mut self, kind: DiagnosticKind, at: SourcePos, msg: impl Into<String>) {
        let d = Diagnostic::warning(kind, self.file, at, msg);
        self.problems.push(d);
    }

    fn level(&mut self, raw: RawLevel, includes: Includes) -> Option<Level> {
        if raw.scale_feet == 0 {
            let at = self.at(path!["scale_feet"]);
            self.error(
                DiagnosticKind::BadValue,
                at,
                "`scale_feet` must be at least 1 (feet per square)",
            );
        }
        let legend = self.legend(&raw.legend);
        self.depth(raw.deep_water_feet, path!["deep_water_feet"], "deep water");
        if !(1..=MAX_DEPTH_FEET).contains(&raw.lair_radius_feet) {
            let at = self.at(path!["lair_radius_feet"]);
            self.error(
                DiagnosticKind::BadValue,
                at,
                format!(
                    "a lair's reach of {}': it is 1' to 1,000'",
                    raw.lair_radius_feet
                ),
            );
        }
        for (i, r) in raw.deep_water_regions.iter().enumerate() {
            self.depth(
                r.depth_feet,
                path!["deep_water_regions", i, "depth_feet"],
                "deep water",
            );
        }
        let grid = self.map(&raw.map, &legend, raw.scale_feet.max(1))?;
        let doors = self.doors(&raw.doors, &grid);
        let mut grid = grid;
        for d in &doors {
            grid.set_door(d.at, d.door.state);
        }
        let traps = self.traps(&raw.traps, &grid);
        let lights = self.lights(&raw.lights, &grid);
        let environment_regions = raw
            .environment_regions
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let from = self.square(
                    r.from,
                    path!["environment_regions", i, "from"],
                    &grid,
                    "region corner",
                )?;
                let to = self.square(
                    r.to,
                    path!["environment_regions", i, "to"],
                    &grid,
                    "region corner",
                )?;
                Some((from, to, r.environment))
            })
            .collect();
        let judge_regions = raw
            .judge_regions
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let from = self.square(
                    r.from,
                    path!["judge_regions", i, "from"],
                    &grid,
                    "region corner",
                )?;
                let to = self.square(
                    r.to,
                    path!["judge_regions", i, "to"],
                    &grid,
                    "region corner",
                )?;
                Some((from, to, r.modifiers.clone()))
            })
            .collect();
        let depth_regions = raw
            .deep_water_regions
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let from = self.square(
                    r.from,
                    path!["deep_water_regions", i, "from"],
                    &grid,
                    "region corner",
                )?;
                let to = self.square(
                    r.to,
                    path!["deep_water_regions", i, "to"],
                    &grid,
                    "region corner",
                )?;
                Some((from, to, r.depth_feet))
            })
            .collect();
        let climbs = raw
            .climbs
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let at = self.square(c.at, path!["climbs", i, "at"], &grid, "climb")?;
                let pit = traps
                    .iter()
                    .any(|t| t.at == at && matches!(t.trap.kind, TrapKind::Pit { .. }));
                let chasm = matches!(grid.terrain(at), Some(Terrain::Chasm { .. }));
                if !(pit || chasm) {
                    let pos = self.at(path!["climbs", i, "at"]);
                    self.error(DiagnosticKind::InTheWay,
                        pos,
                        format!("climb at {at} is neither a chasm square nor a pit: its sides are what a climb describes"),
                    );
                    return None;
                }
                Some((
                    at,
                    crate::level::ClimbDef {
                        surface: c.surface,
                        anchor_ac: c.anchor_ac,
                    },
                ))
            })
            .collect();
        let magical_darkness = raw
            .magical_darkness
            .iter()
            .enumerate()
            .filter_map(|(i, d)| {
                self.square(
                    d.at,
                    path!["magical_darkness", i, "at"],
                    &grid,
                    "magical darkness",
                )
                .map(|p| (p, d.radius_feet))
            })
            .collect();
        let factions = self.factions(&raw.factions);
        let bestiary = self.bestiary(&raw.bestiary, includes);
        let creatures = self.creatures(&raw.creatures, &grid, &factions, &bestiary);
        let factions = self.parties(&raw.factions, factions, &creatures);
        self.keys(&raw.doors, &doors, &creatures);
        let goal = self.goal(&raw.goal, &grid, &creatures);
        let battlemap = raw.battlemap.map(|b| crate::level::Battlemap {
            image: b.image,
            width: b.width.unwrap_or(grid.width()),
            height: b.height.unwrap_or(grid.height()),
        });
        Some(Level {
            name: raw.name,
            description: raw.description,
            source: self.file.to_owned(),
            environment: raw.environment,
            environment_regions,
            grid,
            doors,
            traps,
            lights,
            magical_darkness,
            factions,
            creatures,
            modules: raw.modules,
            judge: crate::level::JudgeCalls {
                modifiers: raw.judge.modifiers,
                regions: judge_regions,
                unexpected_lights: raw.judge.unexpected_lights,
                mapping_errors: raw.judge.mapping_errors,
            },
            deep_water: crate::level::WaterDepths {
                feet: raw.deep_water_feet,
                regions: depth_regions,
            },
            climbs: crate::level::Climbs(climbs),
            lair_radius_feet: raw.lair_radius_feet,
            goal: goal?,
            battlemap,
        })
    }

    /// The goal: a square one can stand on (or a door), or gear that some creature carries.
    fn goal(
        &mut self,
        raw: &RawGoal,
        grid: &DungeonGrid,
        creatures: &[CreatureDef],
    ) -> Option<crate::level::Goal> {
        use crate::level::Goal;
        let here = path!["goal"];
        let square = |me: &mut Self, xy: RawPos, what: &str| {
            let p = me.square(xy, here, grid, what)?;
            if grid.is_passable(p) || grid.terrain(p) == Some(Terrain::Door) {
                Some(p)
            } else {
                let pos = me.at(here);
                let t = grid.terrain(p).expect("in bounds");
                me.error(
                    DiagnosticKind::InTheWay,
                    pos,
                    format!("{what} {p} is {t:?}, where no one can stand"),
                );
                None
            }
        };
        Some(match raw {
            RawGoal::ExploreAll => Goal::ExploreAll,
            RawGoal::Reach(xy) => Goal::Reach(square(self, *xy, "the goal's square")?),
            RawGoal::Room(xy) => Goal::Room(square(self, *xy, "the goal's room, at")?),
            RawGoal::Exit(xy) => Goal::Exit(square(self, *xy, "the way out,")?),
            RawGoal::Recover(gear) => {
                if !creatures.iter().any(|c| c.gear.contains(gear)) {
                    let pos = self.at(here);
                    self.error(
                        DiagnosticKind::Inconsistent,
                        pos,
                        format!("the goal is to recover {gear:?}, but no creature carries it"),
                    );
                    return None;
                }
                Goal::Recover(gear.clone())
            }
        })
    }

    /// RULINGS › Pits and holes: depths and heights in a level are 1' to 1,000'.
    fn depth(&mut self, feet: u32, path: &[Seg], what: &str) {
        if !(1..=MAX_DEPTH_FEET).contains(&feet) {
            let at = self.at(path);
            self.error(
                DiagnosticKind::BadValue,
                at,
                format!("{what} {feet}' deep: depths and heights are 1' to 1,000'"),
            );
        }
    }

    fn legend(&mut self, legend: &Legend) -> HashMap<char, Terrain> {
        let mut out = HashMap::new();
        for (i, &(c, t)) in legend.0.iter().enumerate() {
            if let Terrain::Chasm { depth_feet } = t
                && !(1..=MAX_DEPTH_FEET).contains(&depth_feet)
            {
                let at = self.spans().key_pos(path!["legend"], i);
                self.error(
                    DiagnosticKind::BadValue,
                    at,
                    format!("a chasm {depth_feet}' deep (legend {c:?}): depths and heights are 1' to 1,000'"),
                );
            }
            if out.insert(c, t).is_some() {
                let at = self.spans().key_pos(path!["legend"], i);
                self.error(
                    DiagnosticKind::Duplicate,
                    at,
                    format!("legend character {c:?} is given twice"),
                );
            }
        }
        out
    }

    /// The map rows into terrain. Returns `None` when there is no map at all.
    fn map(
        &mut self,
        rows: &[String],
        legend: &HashMap<char, Terrain>,
        scale: u32,
    ) -> Option<DungeonGrid> {
        if rows.is_empty() {
            let at = self.at(path!["map"]);
            self.error(DiagnosticKind::Map, at, "the map has no rows");
            return None;
        }
        let width = rows[0].chars().count();
        if width == 0 {
            let at = self.at(path!["map", 0usize]);
            self.error(DiagnosticKind::Map, at, "map row 0 is empty");
            return None;
        }
        if width > MAX_MAP_SIDE || rows.len() > MAX_MAP_SIDE {
            let at = self.at(path!["map"]);
            self.error(DiagnosticKind::Map,
                at,
                format!(
                    "the map is {width}x{} squares; at most {MAX_MAP_SIDE} squares a side are accepted",
                    rows.len()
                ),
            );
            return None;
        }
        let mut known: Vec<char> = legend.keys().copied().collect();
        known.sort_unstable();
        let known = known
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        // First place and count of each unknown character.
        let mut unknown: BTreeMap<char, (usize, usize, usize)> = BTreeMap::new();
        let mut terrain = Vec::with_capacity(width * rows.len());
        for (y, row) in rows.iter().enumerate() {
            let mut n = 0;
            for c in row.chars() {
                n += 1;
                if n > width {
                    continue;
                }
                terrain.push(match legend.get(&c) {
                    Some(&t) => t,
                    None => {
                        unknown.entry(c).or_insert((y, n - 1, 0)).2 += 1;
                        Terrain::Rock
                    }
                });
            }
            if n != width {
                let at = self.at(path!["map", y]);
                self.error(DiagnosticKind::Map,
                    at,
                    format!(
                        "map row {y} is {n} characters wide, but row 0 is {width}: every row must have the same width"
                    ),
                );
                terrain.extend(std::iter::repeat_n(Terrain::Rock, width.saturating_sub(n)));
            }
        }
        for (c, (y, x, count)) in unknown {
            let at = self.spans().char_pos(path!["map", y], x);
            let more = if count > 1 {
                format!(" ({} more times in the map)", count - 1)
            } else {
                String::new()
            };
            self.error(DiagnosticKind::Map,
                at,
                format!(
                    "unknown legend character {c:?} at square ({x}, {y}){more}; the legend has {known}"
                ),
            );
        }
        Some(DungeonGrid::new(
            width as u32,
            rows.len() as u32,
            scale,
            terrain,
        ))
    }

    /// Checks an `at` and returns the square, or `None` (with an error) when it is off the map.
    fn square(
        &mut self,
        at: RawPos,
        path: &[Seg],
        grid: &DungeonGrid,
        what: &str,
    ) -> Option<GridPos> {
        let (x, y) = at;
        let p = GridPos::new(
            x.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            y.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        );
        if grid.in_bounds(p) && p.x as i64 == x && p.y as i64 == y {
            Some(p)
        } else {
            let pos = self.at(path);
            self.error(DiagnosticKind::OutsideTheMap,
                pos,
                format!(
                    "{what} at ({x}, {y}) is outside the map, which is {} wide and {} high (x 0-{}, y 0-{})",
                    grid.width(),
                    grid.height(),
                    grid.width() - 1,
                    grid.height() - 1
                ),
            );
            None
        }
    }

    fn doors(&mut self, raw: &[RawDoor], grid: &DungeonGrid) -> Vec<DoorDef> {
        let mut by_square: HashMap<GridPos, usize> = HashMap::new();
        let mut doors = Vec::new();
        for (i, d) in raw.iter().enumerate() {
            let Some(at) = self.square(d.at, path!["doors", i, "at"], grid, "door") else {
                continue;
            };
            let terrain = grid.terrain(at).expect("in bounds");
            if terrain != Terrain::Door {
                let pos = self.at(path!["doors", i, "at"]);
                self.error(DiagnosticKind::InTheWay,
                    pos,
                    format!("door entry at {at} stands on {terrain:?}, not on a door square (give that square a legend character for `Door`)"),
                );
                continue;
            }
            if let Some(first) = by_square.insert(at, i) {
                let pos = self.at(path!["doors", i, "at"]);
                self.error(
                    DiagnosticKind::Duplicate,
                    pos,
                    format!("door at {at} is given twice (also doors[{first}])"),
                );
                continue;
            }
            if d.spikes > 4 {
                let pos = self.at(path!["doors", i, "spikes"]);
                self.error(
                    DiagnosticKind::BadValue,
                    pos,
                    format!("a door can have at most 4 spikes, not {}", d.spikes),
                );
            }
            doors.push(DoorDef {
                at,
                door: DoorSpec {
                    material: d.material,
                    state: d.state,
                    lock: d.lock.clone(),
                    stuck: d.stuck,
                    secret: d.secret,
                    evil: d.evil,
                    spikes: d.spikes.min(4),
                    judge: d.judge.clone(),
                },
            });
        }
        for (p, t) in grid.squares() {
            if t == Terrain::Door && !by_square.contains_key(&p) {
                doors.push(DoorDef::plain(p));
            }
        }
        doors.sort_by_key(|d| (d.at.y, d.at.x));
        doors
    }

    fn traps(&mut self, raw: &[RawTrap], grid: &DungeonGrid) -> Vec<TrapDef> {
        let mut traps = Vec::new();
        for (i, t) in raw.iter().enumerate() {
            let Some(at) = self.square(t.at, path!["traps", i, "at"], grid, "trap") else {
                continue;
            };
            let terrain = grid.terrain(at).expect("in bounds");
            if matches!(terrain, Terrain::Wall(_) | Terrain::Rock) {
                let pos = self.at(path!["traps", i, "at"]);
                self.error(
                    DiagnosticKind::InTheWay,
                    pos,
                    format!("trap at {at} is inside {terrain:?}"),
                );
                continue;
            }
            let damage = match &t.kind {
                TrapKind::Pit { depth_feet } => {
                    if !(1..=MAX_DEPTH_FEET).contains(depth_feet) {
                        let pos = self.at(path!["traps", i, "kind"]);
                        self.error(
                            DiagnosticKind::BadValue,
                            pos,
                            format!(
                                "a pit {depth_feet}' deep: depths and heights are 1' to 1,000'"
                            ),
                        );
                        continue;
                    }
                    if *depth_feet < 10 {
                        let pos = self.at(path!["traps", i, "kind"]);
                        self.warning(
                            DiagnosticKind::BadValue,
                            pos,
                            format!(
                                "a pit {depth_feet}' deep deals no damage (1d6 per 10' fallen)"
                            ),
                        );
                    }
                    super::falling_damage(*depth_feet)
                }
                TrapKind::Custom { damage, .. } => match DiceExpr::parse(damage) {
                    Ok(d) => d,
                    Err(e) => {
                        let pos = self.at(path!["traps", i, "kind", "damage"]);
                        self.error(DiagnosticKind::BadValue, pos, e);
                        continue;
                    }
                },
            };
            let trigger = match t.trigger {
                TrapTrigger::Step => TrapTriggerDef::Step,
                TrapTrigger::Touch => TrapTriggerDef::Touch,
                TrapTrigger::OpenDoor { at: door } => {
                    let path = path!["traps", i, "trigger", "at"];
                    let Some(d) = self.square(door, path, grid, "trap trigger door") else {
                        continue;
                    };
                    if grid.terrain(d) != Some(Terrain::Door) {
                        let pos = self.at(path);
                        self.error(DiagnosticKind::UnknownName, pos, format!("trap triggers on opening the door at {d}, but there is no door there"));
                        continue;
                    }
                    TrapTriggerDef::OpenDoor(d)
                }
            };
            traps.push(TrapDef {
                at,
                trap: TrapSpec {
                    kind: t.kind.clone(),
                    damage,
                    trigger,
                    hidden: t.hidden,
                    search_modifier: t.search_modifier,
                    judge: t.judge.clone(),
                },
            });
        }
        traps
    }

    fn light_kind(&mut self, kind: LightKind, path: &[Seg]) -> bool {
        if let Some((bright_feet, dim_feet)) = kind.radii()
            && dim_feet < bright_feet
        {
            let pos = self.at(path);
            self.error(DiagnosticKind::BadValue,
                pos,
                format!("dim light reaches {dim_feet}', less than the bright radius {bright_feet}': `dim_feet` is the whole reach, bright included"),
            );
            return false;
        }
        true
    }

    fn lights(&mut self, raw: &[RawLight], grid: &DungeonGrid) -> Vec<LightDef> {
        let mut lights = Vec::new();
        for (i, l) in raw.iter().enumerate() {
            let Some(at) = self.square(l.at, path!["lights", i, "at"], grid, "light") else {
                continue;
            };
            let terrain = grid.terrain(at).expect("in bounds");
            if matches!(terrain, Terrain::Wall(_) | Terrain::Rock) {
                let pos = self.at(path!["lights", i, "at"]);
                self.error(
                    DiagnosticKind::InTheWay,
                    pos,
                    format!("light at {at} is inside {terrain:?}"),
                );
                continue;
            }
            if !self.light_kind(l.kind, path!["lights", i, "kind"]) {
                continue;
            }
            lights.push(LightDef {
                at,
                kind: l.kind,
                lit: l.lit,
                fuel_turns: l.fuel_turns.or(l.kind.default_fuel_turns()),
            });
        }
        lights
    }

    fn factions(&mut self, raw: &[RawFaction]) -> Vec<FactionDef> {
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, f) in raw.iter().enumerate() {
            if index.insert(&f.name, i).is_some() {
                let pos = self.at(path!["factions", i, "name"]);
                self.error(
                    DiagnosticKind::Duplicate,
                    pos,
                    format!("faction `{}` is named twice", f.name),
                );
            }
        }
        let mut out = Vec::new();
        for (i, f) in raw.iter().enumerate() {
            let mut hostile_to = Vec::new();
            for (j, h) in f.hostile_to.iter().enumerate() {
                match index.get(h.as_str()) {
                    Some(&k) => hostile_to.push(k),
                    None => {
                        let pos = self.at(path!["factions", i, "hostile_to", j]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            unknown("faction", h, raw.iter().map(|f| f.name.as_str())),
                        );
                    }
                }
            }
            let color = match &f.color {
                None => PALETTE[i % PALETTE.len()],
                Some(c) => parse_color(c).unwrap_or_else(|| {
                    let pos = self.at(path!["factions", i, "color"]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("colour `{c}` is not of the form \"#rrggbb\""),
                    );
                    PALETTE[i % PALETTE.len()]
                }),
            };
            out.push(FactionDef {
                name: f.name.clone(),
                hostile_to,
                color,
                marching_order: Vec::new(),
                mapper: None,
            });
        }
        out
    }

    fn bestiary(&mut self, files: &[String], includes: Includes) -> Bestiary {
        let mut b = Bestiary::builtin();
        for (i, f) in files.iter().enumerate() {
            let (path, text) = match includes {
                Includes::Dir(base_dir) => {
                    let path = base_dir.map_or_else(|| Path::new(f).to_path_buf(), |d| d.join(f));
                    let text = std::fs::read_to_string(&path);
                    (path, text)
                }
                Includes::Given(given) => (
                    Path::new(f).to_path_buf(),
                    given
                        .iter()
                        .find(|(name, _)| name == f)
                        .map(|(_, text)| text.clone())
                        .ok_or_else(|| {
                            std::io::Error::new(
                                std::io::ErrorKind::NotFound,
                                "not among the files kept with the level",
                            )
                        }),
                ),
            };
            match text {
                Ok(src) => b.add_source(&src, &path.display().to_string(), &mut self.problems),
                Err(e) => {
                    let pos = self.at(path!["bestiary", i]);
                    let d = bestiary::unreadable(self.file, pos, &path.display().to_string(), &e);
                    self.problems.push(d);
                }
            }
        }
        b
    }

    fn creatures(
        &mut self,
        raw: &[RawCreature],
        grid: &DungeonGrid,
        factions: &[FactionDef],
        bestiary: &Bestiary,
    ) -> Vec<CreatureDef> {
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut occupied: HashMap<GridPos, String> = HashMap::new();
        let mut out = Vec::new();
        for (i, entry) in raw.iter().enumerate() {
            let c = match &entry.template {
                None => entry.clone(),
                Some(t) => match bestiary.get(t) {
                    Some(template) => merge(entry, template, t),
                    None => {
                        let pos = self.at(path!["creatures", i, "template"]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            unknown("template", t, bestiary.names()),
                        );
                        continue;
                    }
                },
            };
            let here = self.at(path!["creatures", i]);
            let Some(name) = c.name.clone() else {
                self.error(
                    DiagnosticKind::Missing,
                    here,
                    "creature has no `name` (give one, or a `template`)",
                );
                continue;
            };
            if let Some(first) = names.insert(name.clone(), i) {
                let pos = self.at(path!["creatures", i, "name"]);
                self.error(DiagnosticKind::Duplicate,
                    pos,
                    format!("creature name `{name}` is used twice (also creatures[{first}]); names must be unique"),
                );
            }
            let faction = match &c.faction {
                None => {
                    self.error(
                        DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` has no `faction`"),
                    );
                    None
                }
                Some(f) => {
                    let found = factions.iter().position(|x| &x.name == f);
                    if found.is_none() {
                        let pos = self.at(path!["creatures", i, "faction"]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            unknown("faction", f, factions.iter().map(|f| f.name.as_str())),
                        );
                    }
                    found
                }
            };
            let at = match c.at {
                None => {
                    self.error(
                        DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` has no `at` square"),
                    );
                    None
                }
                Some(at) => self
                    .square(
                        at,
                        path!["creatures", i, "at"],
                        grid,
                        &format!("creature `{name}`"),
                    )
                    .filter(|&p| {
                        if grid.is_passable(p) {
                            return true;
                        }
                        let pos = self.at(path!["creatures", i, "at"]);
                        let t = grid.terrain(p).expect("in bounds");
                        let what = if t == Terrain::Door {
                            "a closed door".into()
                        } else {
                            format!("{t:?}")
                        };
                        self.error(
                            DiagnosticKind::InTheWay,
                            pos,
                            format!(
                                "creature `{name}` at {p} stands in {what}, where no one can stand"
                            ),
                        );
                        false
                    }),
            };
            if let Some(p) = at
                && let Some(other) = occupied.insert(p, name.clone())
            {
                let pos = self.at(path!["creatures", i, "at"]);
                self.warning(
                    DiagnosticKind::Duplicate,
                    pos,
                    format!("creature `{name}` shares {p} with `{other}`"),
                );
            }
            let (Some(hp), Some(ac)) = (c.hp, c.ac) else {
                self.error(
                    DiagnosticKind::Missing,
                    here,
                    format!(
                        "creature `{name}` needs `hp` and `ac` (from its entry or its template)"
                    ),
                );
                continue;
            };
            if hp < 1 {
                let pos = self.at(path!["creatures", i, "hp"]);
                self.error(
                    DiagnosticKind::BadValue,
                    pos,
                    format!("creature `{name}` has {hp} hit points; at least 1 is needed"),
                );
            }
            // A patrol route goes through squares one can stand on.
            let mut patrol = Vec::new();
            for (k, &xy) in c.patrol.iter().flatten().enumerate() {
                let route = path!["creatures", i, "patrol", k];
                let what = format!("the patrol route of `{name}`");
                let Some(p) = self.square(xy, route, grid, &what) else {
                    continue;
                };
                // A door on the way is walked through once it is open.
                if grid.is_passable(p) || grid.terrain(p) == Some(Terrain::Door) {
                    patrol.push(p);
                } else {
                    let pos = self.at(route);
                    let t = grid.terrain(p).expect("in bounds");
                    self.error(
                        DiagnosticKind::InTheWay,
                        pos,
                        format!("{what} goes through {p}, which is {t:?}, where no one can walk"),
                    );
                }
            }
            // A route is walked by one who roams; a guard, a wanderer and a lair-dweller keep
            // to their own places.
            let mind = c.mind.clone().unwrap_or_default();
            if !patrol.is_empty() && mind.stance != Stance::Roam {
                let pos = self.at(path!["creatures", i, "mind", "stance"]);
                self.error(
                    DiagnosticKind::Inconsistent,
                    pos,
                    format!(
                        "`{name}` has a patrol route and the stance {:?}: a patrol is walked \
                         only by a creature that roams (leave `stance` out)",
                        mind.stance
                    ),
                );
            }
            let speed = match (c.speed_feet, c.encumbrance_stone) {
                (Some(feet), _) => SpeedBasis::Explicit { feet },
                (None, Some(stone)) if stone.is_finite() && stone >= 0.0 => {
                    SpeedBasis::Encumbrance { stone }
                }
                (None, Some(stone)) => {
                    let pos = self.at(path!["creatures", i, "encumbrance_stone"]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("encumbrance of {stone} stone is not a weight"),
                    );
                    continue;
                }
                (None, None) => {
                    self.error(DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` needs `speed_feet` or `encumbrance_stone` to move (RULINGS: Encumbrance and speed)"),
                    );
                    continue;
                }
            };
            let mut scores = [0; 6];
            for (k, (field, value)) in [
                ("str", c.str),
                ("int", c.int),
                ("wis", c.wis),
                ("dex", c.dex),
                ("con", c.con),
                ("cha", c.cha),
            ]
            .into_iter()
            .enumerate()
            {
                // "Creatures are assumed to have DEX scores of 10 if not otherwise noted"
                // (Dungeon Delves › Jumping); the same for every score.
                let v = value.unwrap_or(10);
                if !(3..=18).contains(&v) {
                    let pos = self.at(path!["creatures", i, field]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("`{field}` {v} is outside the ability score range 3-18"),
                    );
                }
                scores[k] = v;
            }
            let mut weapons = Vec::new();
            for (j, w) in c.weapons.iter().flatten().enumerate() {
                let enchantment = match &w.enchantment {
                    None => None,
                    Some(e) => match DiceExpr::parse(&e.damage) {
                        Ok(d) => Some((e.name.clone(), d)),
                        Err(why) => {
                            let pos = self.at(path![
                                "creatures",
                                i,
                                "weapons",
                                j,
                                "enchantment",
                                "damage"
                            ]);
                            self.error(DiagnosticKind::BadValue, pos, why);
                            None
                        }
                    },
                };
                let mut structural_dice =
                    |field: &'static str, dice: &str| match DiceExpr::parse(dice) {
                        Ok(d) => Some(d),
                        Err(why) => {
                            let pos = self.at(path![
                                "creatures",
                                i,
                                "weapons",
                                j,
                                "structural_damage",
                                field
                            ]);
                            self.error(DiagnosticKind::BadValue, pos, why);
                            None
                        }
                    };
                let structural = w.structural_damage.as_ref().and_then(|s| {
                    let wood = structural_dice("wood", &s.wood);
                    let stone = s.stone.as_ref().map(|d| structural_dice("stone", d));
                    Some(crate::level::StructuralDamage {
                        wood: wood?,
                        stone: match stone {
                            Some(d) => Some(d?),
                            None => None,
                        },
                    })
                });
                match DiceExpr::parse(&w.damage) {
                    Ok(damage) => weapons.push(WeaponDef {
                        name: w.name.clone(),
                        damage,
                        damage_type: w.damage_type,
                        range_feet: w.range_feet,
                        critical: w.critical.unwrap_or_default(),
                        kind: w.kind,
                        enchantment,
                        structural,
                    }),
                    Err(e) => {
                        let pos = self.at(path!["creatures", i, "weapons", j, "damage"]);
                        self.error(DiagnosticKind::BadValue, pos, e);
                    }
                }
            }
            let mut carries = Vec::new();
            for (j, l) in c.carries.iter().flatten().enumerate() {
                if self.light_kind(l.kind, path!["creatures", i, "carries", j, "kind"]) {
                    carries.push(CarriedLightDef {
                        kind: l.kind,
                        lit: l.lit,
                        fuel_turns: l.fuel_turns.or(l.kind.default_fuel_turns()),
                    });
                }
            }
            let (Some(faction), Some(at)) = (faction, at) else {
                continue;
            };
            out.push(CreatureDef {
                name,
                template: c.template.clone(),
                faction,
                at,
                level: c.level.unwrap_or(0),
                class: c.class.clone(),
                abilities: AbilityScores {
                    str: scores[0],
                    int: scores[1],
                    wis: scores[2],
                    dex: scores[3],
                    con: scores[4],
                    cha: scores[5],
                },
                hp,
                ac,
                speed,
                proficiencies: c.proficiencies.clone().unwrap_or_default(),
                throws: c.throws.clone().unwrap_or_default(),
                saves: c.saves.clone().unwrap_or_default(),
                carries,
                gear: c.gear.clone().unwrap_or_default(),
                lightless_vision_feet: c.lightless_vision_feet.unwrap_or(0),
                shadowy_senses: c.shadowy_senses.unwrap_or(false),
                size: c.size.unwrap_or_default(),
                attack_bonus: c.attack_bonus.unwrap_or(0),
                initiative_modifier: c.initiative_modifier,
                weapons,
                armor: c.armor.clone(),
                shield: c.shield.clone(),
                conditions: c.conditions.clone().unwrap_or_default(),
                fortitude: c.fortitude,
                touch_ac: c.touch_ac,
                mythic: c.mythic.unwrap_or(false),
                flees_when_bloodied: c.flees_when_bloodied.unwrap_or(false),
                judge: c.judge.clone().unwrap_or_default(),
                swim_feet: c.swim_feet,
                patrol,
                mind,
            });
        }
        out
    }

    /// Marching orders and mappers name creatures of their own faction, each member once.
    fn parties(
        &mut self,
        raw: &[RawFaction],
        mut factions: Vec<FactionDef>,
        creatures: &[CreatureDef],
    ) -> Vec<FactionDef> {
        for (i, (f, def)) in raw.iter().zip(factions.iter_mut()).enumerate() {
            let member = |name: &str| {
                creatures
                    .iter()
                    .position(|c| c.name == name && c.faction == i)
            };
            for (j, name) in f.marching_order.iter().enumerate() {
                match member(name) {
                    Some(k) if def.marching_order.contains(&k) => {
                        let pos = self.at(path!["factions", i, "marching_order", j]);
                        self.error(
                            DiagnosticKind::Duplicate,
                            pos,
                            format!("`{name}` is in the marching order twice"),
                        );
                    }
                    Some(k) => def.marching_order.push(k),
                    None => {
                        let pos = self.at(path!["factions", i, "marching_order", j]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            format!(
                                "`{name}` in the marching order is not a creature of faction `{}`",
                                f.name
                            ),
                        );
                    }
                }
            }
            if !f.marching_order.is_empty() {
                let missing: Vec<&str> = creatures
                    .iter()
                    .enumerate()
                    .filter(|(k, c)| c.faction == i && !def.marching_order.contains(k))
                    .map(|(_, c)| c.name.as_str())
                    .collect();
                if !missing.is_empty() {
                    let pos = self.at(path!["factions", i, "marching_order"]);
                    self.error(
                        DiagnosticKind::Inconsistent,
                        pos,
                        format!("the marching order leaves out {}", missing.join(", ")),
                    );
                }
            }
            if let Some(m) = &f.mapper {
                match member(m) {
                    Some(k) if f.marching_order.is_empty() || def.marching_order.contains(&k) => {
                        def.mapper = Some(k)
                    }
                    _ => {
                        let pos = self.at(path!["factions", i, "mapper"]);
                        self.error(
                            DiagnosticKind::Inconsistent,
                            pos,
                            format!("mapper `{m}` is not a member of party `{}`", f.name),
                        );
                    }
                }
            }
        }
        factions
    }

    /// A key for a door that no one can ever hold is worth a warning.
    fn keys(&mut self, raw: &[RawDoor], doors: &[DoorDef], creatures: &[CreatureDef]) {
        let held: HashSet<&str> = creatures
            .iter()
            .flat_map(|c| c.gear.iter())
            .filter_map(|g| match g {
                Gear::Key(k) => Some(k.as_str()),
                _ => None,
            })
            .collect();
        for d in doors {
            if let Lock::Locked { key: Some(k) } = &d.door.lock
                && !held.contains(k.as_str())
            {
                let i = raw
                    .iter()
                    .position(|r| r.at == (d.at.x as i64, d.at.y as i64))
                    .unwrap_or(0);
                let pos = self.at(path!["doors", i, "lock"]);
                self.warning(DiagnosticKind::Inconsistent,
                    pos,
                    format!("door at {} opens with the key `{k}`, but no creature carries it (gear: [Key(\"{k}\")])", d.at),
                );
            }
        }
    }
}

/// `unknown faction `x` (known: a, b)`.
fn unknown<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.collect();
    if known.is_empty() {
        format!("unknown {what} `{name}` (none are defined)")
    } else {
        format!("unknown {what} `{name}` (known: {})", known.join(", "))
    }
}

/// Faction colours for factions that give none: readable on dark floors, distinct at a glance.
const PALETTE: [[u8; 3]; 6] = [
    [70, 150, 255],
    [220, 60, 60],
    [90, 200, 90],
    [230, 180, 40],
    [190, 90, 220],
    [60, 200, 200],
];

fn parse_color(s: &str) -> Option<[u8; 3]> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The entry's fields over the template's. The name defaults to the template's name.
fn merge(entry: &RawCreature, t: &RawCreature, template_name: &str) -> RawCreature {
    macro_rules! pick {
        ($($f:ident),*) => {
            RawCreature { $($f: entry.$f.clone().or_else(|| t.$f.clone()),)* ..RawCreature::default() }
        };
    }
    let mut c = pick!(
        faction,
        at,
        level,
        class,
        str,
        int,
        wis,
        dex,
        con,
        cha,
        hp,
        ac,
        encumbrance_stone,
        speed_feet,
        proficiencies,
        throws,
        saves,
        carries,
        gear,
        lightless_vision_feet,
        shadowy_senses,
        size,
        attack_bonus,
        initiative_modifier,
        weapons,
        armor,
        shield,
        conditions,
        fortitude,
        touch_ac,
        mythic,
        flees_when_bloodied,
        judge,
        swim_feet,
        patrol,
        mind
    );
    c.name = entry
        .name
        .clone()
        .or_else(|| Some(template_name.to_owned()));
    c.template = Some(template_name.to_owned());
    c
}
