//! The map's part of a level: its legend and rows, and the doors, traps and lights on its squares.

use crate::dice::DiceExpr;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::spans::Seg;
use std::collections::{BTreeMap, HashMap};

use super::{MAX_DEPTH_FEET, MAX_MAP_SIDE};
use crate::grid::Terrain;
use crate::level::schema::{
    Legend, LightKind, RawDoor, RawLight, RawPos, RawTrap, TrapKind, TrapTrigger,
};
use crate::level::validate::Validator;
use crate::level::{
    DiagnosticKind, DoorDef, DoorSpec, LightDef, TrapDef, TrapSpec, TrapTriggerDef, falling_damage,
};

impl Validator<'_> {
    pub(super) fn legend(&mut self, legend: &Legend) -> HashMap<char, Terrain> {
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
    pub(super) fn map(
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
    pub(super) fn square(
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

    pub(super) fn doors(&mut self, raw: &[RawDoor], grid: &DungeonGrid) -> Vec<DoorDef> {
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
                    hasty_for_anyone: d.hasty_for_anyone,
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

    pub(super) fn traps(&mut self, raw: &[RawTrap], grid: &DungeonGrid) -> Vec<TrapDef> {
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
                    falling_damage(*depth_feet)
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
                    hasty_for_anyone: t.hasty_for_anyone,
                    judge: t.judge.clone(),
                },
            });
        }
        traps
    }

    pub(super) fn light_kind(&mut self, kind: LightKind, path: &[Seg]) -> bool {
        if let Some((bright_feet, dim_feet)) = kind.radii() {
            for (feet, what) in [
                (bright_feet, "its bright light's reach"),
                (dim_feet, "its reach"),
            ] {
                if !self.within(
                    i64::from(feet),
                    0..=super::MAX_REACH_FEET,
                    path,
                    &format!("a light: {what} in feet,"),
                ) {
                    return false;
                }
            }
        }
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

    pub(super) fn lights(&mut self, raw: &[RawLight], grid: &DungeonGrid) -> Vec<LightDef> {
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
}
