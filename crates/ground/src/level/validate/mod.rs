//! From the file to the level: parse, then check everything LEVEL_FORMAT.md › Errors lists, and
//! report every problem at its line and column.

use crate::level::schema::RawDarkness;
use crate::level::{Battlemap, ClimbDef, Climbs, JudgeCalls, WaterDepths};

use std::cell::OnceCell;
use std::path::Path;

use super::bestiary::{self};
use super::diagnostic::{Diagnostic, Diagnostics, SourcePos};
use super::spans::{Seg, SpanIndex};
use crate::grid::{DungeonGrid, Terrain};
use crate::level::schema::{RawCreature, RawGoal, RawLevel, RawPos};
use crate::level::{CreatureDef, DiagnosticKind, Level, Loaded, TrapKind};

/// The largest map side accepted: keeps a mistyped file from asking for gigabytes.
pub const MAX_MAP_SIDE: usize = 4096;

/// The deepest depth (and highest height) a level may give (RULINGS › Pits and holes).
pub const MAX_DEPTH_FEET: u32 = 1000;

/// The widest square a level may have, in feet (a dungeon's squares are 5' or 10'; beyond this
/// a walk's feet would no longer be a dungeon's).
pub const MAX_SCALE_FEET: i64 = 100;

/// The farthest a light reaches, in feet, as the depths and heights (a light's footprint is
/// worked out square by square within its reach).
pub const MAX_REACH_FEET: i64 = 1000;

/// The largest attack bonus, either way (a throw's modifiers are summed in 32 bits).
pub const MAX_ATTACK_BONUS: i64 = 100;

/// The most hit points a creature may have (the rules' mightiest have a few hundred; sums of
/// a party's are taken in 32 bits).
pub const MAX_HIT_POINTS: i64 = 100_000;

/// The largest armour class, either way (an attack throw is compared with it in 32 bits).
pub const MAX_ARMOR_CLASS: i64 = 100;

/// The largest critical multiplier (the rules' weapons are ×2 to ×4: Tactical Combat › Critical
/// Hits); a critical's dice are rolled that many times.
pub const MAX_CRITICAL_MULTIPLIER: i64 = 10;

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
    match crate::files::read_text(path) {
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
    // Under the fields' own ranges, the bound of every number: told where no error of the
    // line says more (a critical multiplier of 4294967295 is told as such).
    for wild in numbers::out_of_bounds(src, file) {
        if !v
            .problems
            .0
            .iter()
            .any(|d| d.file == file && d.line == wild.line)
        {
            v.problems.push(wild);
        }
    }
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

// After `path!`, which they use.
mod creature;
mod creatures;
mod map;
mod numbers;
pub use numbers::{
    MAX_NUMBER, out_of_bounds as numbers_out_of_bounds,
    out_of_bounds_within as numbers_out_of_bounds_within,
};

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
        self.within(
            i64::from(raw.scale_feet),
            1..=MAX_SCALE_FEET,
            path!["scale_feet"],
            "`scale_feet`, the side of a square in feet,",
        );
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
                    ClimbDef {
                        surface: c.surface,
                        anchor_ac: c.anchor_ac,
                    },
                ))
            })
            .collect();
        let mut areas = |list: &[RawDarkness], field, what| {
            list.iter()
                .enumerate()
                .filter_map(|(i, d)| {
                    self.square(d.at, path![field, i, "at"], &grid, what)
                        .map(|p| (p, d.radius_feet))
                })
                .collect::<Vec<_>>()
        };
        let magical_darkness = areas(
            &raw.magical_darkness,
            "magical_darkness",
            "magical darkness",
        );
        let magical_silence = areas(&raw.magical_silence, "magical_silence", "magical silence");
        let factions = self.factions(&raw.factions);
        let bestiary = self.bestiary(&raw.bestiary, includes);
        let creatures = self.creatures(&raw.creatures, &grid, &factions, &bestiary);
        let factions = self.parties(&raw.factions, factions, &creatures);
        self.keys(&raw.doors, &doors, &creatures);
        let goal = self.goal(&raw.goal, &grid, &creatures);
        let battlemap = raw.battlemap.map(|b| Battlemap {
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
            magical_silence,
            factions,
            creatures,
            modules: raw.modules,
            judge: JudgeCalls {
                modifiers: raw.judge.modifiers,
                regions: judge_regions,
                unexpected_lights: raw.judge.unexpected_lights,
                mapping_errors: raw.judge.mapping_errors,
                no_actions_while_running: raw.judge.no_actions_while_running,
            },
            deep_water: WaterDepths {
                feet: raw.deep_water_feet,
                regions: depth_regions,
            },
            climbs: Climbs(climbs),
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
    /// A number the simulator takes only within `range` (it would overflow, or allocate without
    /// bound, beyond it): an error at `path` naming `what` and the range otherwise.
    pub(super) fn within(
        &mut self,
        value: i64,
        range: std::ops::RangeInclusive<i64>,
        path: &[Seg],
        what: &str,
    ) -> bool {
        if range.contains(&value) {
            return true;
        }
        let at = self.at(path);
        self.error(
            DiagnosticKind::BadValue,
            at,
            format!("{what} {value}: it is {} to {}", range.start(), range.end()),
        );
        false
    }

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
        beneath,
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
