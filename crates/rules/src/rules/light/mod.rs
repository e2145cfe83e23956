//! Light and Darkness (Dungeon Delves; RULINGS › Light and vision).
//!
//! Candles shed bright light 5' and dim light to 10'; torches and lanterns bright 15' and dim to
//! 30'. Torches burn 6 turns; a flask of oil keeps a lantern lit 24 turns. A source lights the
//! squares in its line of sight (symmetric shadowcasting): bright within its bright radius, dim
//! out to its dim radius. Walls, rock and closed doors block light; the strongest source wins.
//!
//! The [`LightMap`] keeps, for every square, how many sources light it bright and how many dim,
//! and each source's footprint, so that a moved, lit or doused source updates only its own
//! squares. A change in the walls (a door opening) recomputes everything.

mod commands;
pub mod events;
use crate::creature::LevelEntity;
use crate::rules::areas::Rank;
use crate::schedule::{FactionInitiative, InitiativeSet};
use delve_ground::level::Level;

pub use commands::{Douse, DropLight, LightRefusal, LightUp, PickUpLight, Refuel};
pub use events::{LightDescription, LightEvent};

use std::collections::HashMap;

use bevy::prelude::*;

use delve_ground::query_cache::in_entity_order;
use serde::Serialize;

use crate::act::{Refusal, Unable, square_of};
use crate::creature::{Equipment, Position};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::los::shadowcast;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{Gear, LightKind};
use delve_ground::log::{EventLog, log_in};
use delve_ground::time::{Clock, ROUNDS_PER_TURN};

mod offers;
pub use offers::light_choices;

/// A light source (Dungeon Delves › Light and Darkness), placed or carried.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightSource {
    pub kind: LightKind,
    pub lit: bool,
    /// Rounds of fuel left; `None` burns until doused.
    pub fuel_rounds: Option<u64>,
}

impl LightSource {
    pub fn new(kind: LightKind, lit: bool, fuel_turns: Option<u32>) -> Self {
        Self {
            kind,
            lit,
            fuel_rounds: fuel_turns.map(|t| t as u64 * ROUNDS_PER_TURN),
        }
    }
}

/// A light carried by a creature. It has no [`Position`] of its own: it is where its bearer is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarriedBy(pub Entity);

/// How lit a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum LightLevel {
    Dark,
    Dim,
    Bright,
    /// Magical darkness: no light shows in it.
    MagicalDarkness,
}

impl LightLevel {
    /// One character per level, for maps printed as text.
    pub fn symbol(self) -> char {
        match self {
            LightLevel::Bright => '*',
            LightLevel::Dim => ':',
            LightLevel::Dark => '.',
            LightLevel::MagicalDarkness => 'X',
        }
    }
}

/// Turns a lantern burns on one flask of oil.
pub const LANTERN_TURNS_PER_FLASK: u32 = 24;

/// The squares one source lights: flat indices, and whether bright.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub origin: GridPos,
    pub kind: Option<LightKind>,
    pub squares: Vec<(u32, bool)>,
}

/// The light level of every square, kept up to date source by source.
#[derive(Resource, Clone)]
pub struct LightMap {
    width: u32,
    height: u32,
    bright: Vec<u16>,
    dim: Vec<u16>,
    darkness: Vec<bool>,
    stamp: Vec<u32>,
    stamp_now: u32,
    footprints: HashMap<u64, Footprint>,
    /// Bumped whenever any square's light may have changed.
    pub generation: u64,
}

/// The light of every square and what each source lights; the stamps and the generation are
/// the bookkeeping of its updates (a world restored from a keyframe recomputes the map once:
/// `crate::state::differences` compares worlds by this).
impl std::fmt::Debug for LightMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let footprints: std::collections::BTreeMap<_, _> = self.footprints.iter().collect();
        f.debug_struct("LightMap")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("bright", &self.bright)
            .field("dim", &self.dim)
            .field("darkness", &self.darkness)
            .field("footprints", &footprints)
            .finish_non_exhaustive()
    }
}

impl LightMap {
    /// An unlit map the size of the grid, with magical darkness over the given squares.
    pub fn new(grid: &DungeonGrid) -> Self {
        let n = (grid.width() * grid.height()) as usize;
        Self {
            width: grid.width(),
            height: grid.height(),
            bright: vec![0; n],
            dim: vec![0; n],
            darkness: vec![false; n],
            stamp: vec![0; n],
            stamp_now: 0,
            footprints: HashMap::new(),
            generation: 0,
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Covers squares with magical darkness.
    pub fn set_magical_darkness(&mut self, squares: impl IntoIterator<Item = usize>) {
        for i in squares {
            if let Some(d) = self.darkness.get_mut(i) {
                *d = true;
            }
        }
        self.generation += 1;
    }

    /// The light level of a square; off the map is dark.
    #[inline]
    pub fn level_at(&self, i: usize) -> LightLevel {
        match (self.darkness.get(i), self.bright.get(i), self.dim.get(i)) {
            (Some(true), ..) => LightLevel::MagicalDarkness,
            (_, Some(&b), _) if b > 0 => LightLevel::Bright,
            (_, _, Some(&d)) if d > 0 => LightLevel::Dim,
            _ => LightLevel::Dark,
        }
    }

    pub fn level(&self, grid: &DungeonGrid, p: GridPos) -> LightLevel {
        grid.index(p).map_or(LightLevel::Dark, |i| self.level_at(i))
    }

    /// The footprint of a source of `kind` at `origin`: the squares in its line of sight within
    /// its dim reach (5-10-5 feet), bright within its bright radius.
    pub fn footprint(&mut self, grid: &DungeonGrid, origin: GridPos, kind: LightKind) -> Footprint {
        let (bright_feet, dim_feet) = (kind.bright_feet(), kind.dim_feet());
        let radius = i32::try_from(dim_feet / grid.scale_feet().max(1)).unwrap_or(i32::MAX);
        self.stamp_now = self.stamp_now.wrapping_add(1);
        if self.stamp_now == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp_now = 1;
        }
        let now = self.stamp_now;
        let stamp = &mut self.stamp;
        // The squares it can reach are those of its square of reach clipped to the map (off the
        // map is opaque, so the cast stops at the edge): a reach of 1,000' on a small map
        // reserves the map, not four million squares.
        let span = |o: i32, len: u32| {
            let (lo, hi) = (o.saturating_sub(radius).max(0), o.saturating_add(radius));
            (hi.min(len as i32 - 1) - lo + 1).max(0) as usize
        };
        let mut squares =
            Vec::with_capacity(span(origin.x, grid.width()) * span(origin.y, grid.height()));
        shadowcast(grid, origin, radius, |p| {
            let d = grid.distance_feet(origin, p);
            if d <= dim_feet
                && let Some(i) = grid.index(p)
                && stamp[i] != now
            {
                stamp[i] = now;
                squares.push((i as u32, d <= bright_feet));
            }
        });
        Footprint {
            origin,
            kind: Some(kind),
            squares,
        }
    }

    fn apply(&mut self, fp: &Footprint, add: bool) {
        for &(i, bright) in &fp.squares {
            let counts = if bright {
                &mut self.bright
            } else {
                &mut self.dim
            };
            let c = &mut counts[i as usize];
            *c = if add { *c + 1 } else { c.saturating_sub(1) };
        }
    }

    /// Puts source `id` at `origin` (lit), or takes it away (`None`). Only its own squares change.
    pub fn place(&mut self, grid: &DungeonGrid, id: u64, at: Option<(GridPos, LightKind)>) {
        let old = self.footprints.get(&id);
        if old.map(|f| (f.origin, f.kind)) == at.map(|(p, k)| (p, Some(k))) {
            return;
        }
        if let Some(old) = self.footprints.remove(&id) {
            self.apply(&old, false);
        }
        if let Some((origin, kind)) = at {
            let fp = self.footprint(grid, origin, kind);
            self.apply(&fp, true);
            self.footprints.insert(id, fp);
        }
        self.generation += 1;
    }

    /// Lights every source anew (after the walls changed).
    pub fn recompute(
        &mut self,
        grid: &DungeonGrid,
        sources: impl IntoIterator<Item = (u64, GridPos, LightKind)>,
    ) {
        self.bright.iter_mut().for_each(|c| *c = 0);
        self.dim.iter_mut().for_each(|c| *c = 0);
        self.footprints.clear();
        for (id, origin, kind) in sources {
            let fp = self.footprint(grid, origin, kind);
            self.apply(&fp, true);
            self.footprints.insert(id, fp);
        }
        self.generation += 1;
    }

    /// Each lit source's footprint.
    pub fn footprints(&self) -> impl Iterator<Item = &Footprint> {
        self.footprints.values()
    }

    /// Ids of the sources currently shown.
    pub fn sources(&self) -> impl Iterator<Item = u64> + '_ {
        self.footprints.keys().copied()
    }

    /// The whole map as text, one character per square ([`LightLevel::symbol`]).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(((self.width + 1) * self.height) as usize);
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(self.level_at((y * self.width + x) as usize).symbol());
            }
            s.push('\n');
        }
        s
    }
}

/// The light of a level as the file sets it: placed and carried lights that are lit, and its
/// areas of magical darkness.
fn level_light_map(level: &Level) -> LightMap {
    let grid = &level.grid;
    let mut map = LightMap::new(grid);
    for &(centre, radius) in &level.magical_darkness {
        map.set_magical_darkness(
            grid.squares()
                .filter(|&(p, _)| grid.distance_feet(centre, p) <= radius)
                .filter_map(|(p, _)| grid.index(p)),
        );
    }
    let placed = level
        .lights
        .iter()
        .filter(|l| l.lit)
        .map(|l| (l.at, l.kind));
    let carried = level.creatures.iter().flat_map(|c| {
        c.carries
            .iter()
            .filter(|l| l.lit)
            .map(move |l| (c.at, l.kind))
    });
    let sources: Vec<_> = placed
        .chain(carried)
        .enumerate()
        .map(|(i, (p, k))| (i as u64, p, k))
        .collect();
    map.recompute(grid, sources);
    map
}

/// Where a source is and whether it sheds light: its own square, or its bearer's.
fn lit_at(
    light: &LightSource,
    own: Option<&Position>,
    bearer: Option<&Position>,
) -> Option<(GridPos, LightKind)> {
    let at = own.or(bearer)?.0;
    light.lit.then_some((at, light.kind))
}

pub struct LightPlugin;

impl Plugin for LightPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::light::CarriedBy>()
            .keeps::<crate::rules::light::LightMap>()
            .keeps_component::<crate::rules::light::LightSource>();
        use crate::rules::areas::RuleArea;
        app.offers(Rank::Light, light_choices);
        app.installs(|world, level| {
            world.insert_resource(level_light_map(level));
            for l in &level.lights {
                world.spawn((
                    LevelEntity,
                    Position(l.at),
                    LightSource::new(l.kind, l.lit, l.fuel_turns),
                ));
            }
        })
        .installs_creature(|world, e, c| {
            for l in &c.carries {
                world.spawn((
                    LevelEntity,
                    CarriedBy(e),
                    LightSource::new(l.kind, l.lit, l.fuel_turns),
                ));
            }
        });
        app.add_systems(
            SimRound,
            (burn_out, update_light_map).chain().in_set(RoundSet::Light),
        )
        .add_systems(SimRound, burn_fuel.in_set(RoundSet::Fuel))
        // In a battle, lights carried along are where their bearers are before anyone attacks.
        .add_systems(
            FactionInitiative,
            update_light_map.in_set(InitiativeSet::Light),
        );
    }
}

/// A source with no fuel left goes out.
fn burn_out(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut lights: Query<(Entity, &mut LightSource, Option<&CarriedBy>)>,
    names: Query<&Name>,
) {
    for e in in_entity_order(lights.iter().map(|l| l.0)) {
        let Ok((_, mut l, carried)) = lights.get_mut(e) else {
            continue;
        };
        if l.lit && l.fuel_rounds == Some(0) {
            l.lit = false;
            let bearer = carried
                .and_then(|c| names.get(c.0).ok())
                .map(|n| n.to_string());
            log.push(
                clock.rounds,
                LightEvent::LightBurnedOut {
                    kind: l.kind,
                    bearer,
                },
            );
        }
    }
}

/// Every lit source burns a round of fuel (each its own, so in any order).
fn burn_fuel(mut lights: Query<&mut LightSource>) {
    for mut l in &mut lights {
        if l.lit
            && let Some(f) = l.fuel_rounds.as_mut()
        {
            *f = f.saturating_sub(1);
        }
    }
}

/// Brings the light map up to date: a changed grid recomputes everything; otherwise each source
/// that moved, was lit or went out updates only its own squares.
pub(crate) fn update_light_map(
    grid: Res<DungeonGrid>,
    mut map: ResMut<LightMap>,
    lights: Query<(Entity, &LightSource, Option<&Position>, Option<&CarriedBy>)>,
    positions: Query<&Position>,
) {
    let source =
        |(e, l, own, carried): (Entity, &LightSource, Option<&Position>, Option<&CarriedBy>)| {
            let bearer = carried.and_then(|c| positions.get(c.0).ok());
            lit_at(l, own, bearer).map(|(p, k)| (e.to_bits(), p, k))
        };
    if grid.is_changed() || map.width != grid.width() || map.height != grid.height() {
        if map.width != grid.width() || map.height != grid.height() {
            *map = LightMap::new(&grid);
        }
        let all: Vec<_> = lights.iter().filter_map(source).collect();
        map.recompute(&grid, all);
        return;
    }
    let mut present = Vec::new();
    for item in &lights {
        let id = item.0.to_bits();
        present.push(id);
        let at = source(item).map(|(_, p, k)| (p, k));
        map.place(&grid, id, at);
    }
    let gone: Vec<u64> = map.sources().filter(|id| !present.contains(id)).collect();
    for id in gone {
        map.place(&grid, id, None);
    }
}

/// The carried lights of a creature.
fn carried(world: &World, bearer: Entity) -> Vec<Entity> {
    let mut v: Vec<Entity> =
        delve_ground::query_cache::read_query(world, |q: Query<(Entity, &CarriedBy)>| {
            q.iter()
                .filter(|(_, c)| c.0 == bearer)
                .map(|(e, _)| e)
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A light as the log tells it: its kind and the turns of fuel it has left.
/// A light as the log names it: its kind and the turns of fuel left.
pub(crate) fn described(l: &LightSource) -> LightDescription {
    LightDescription {
        kind: l.kind,
        turns_left: l.fuel_rounds.map(|r| r.div_ceil(ROUNDS_PER_TURN)),
    }
}

fn gone() -> Unable {
    Unable::Gone {
        what: "its light".into(),
    }
}

/// `LightUp`: lights the first unlit carried source that has fuel.
pub(crate) fn light_up(world: &mut World, who: Entity) -> Result<(), Refusal> {
    for e in carried(world, who) {
        let mut l = world.get_mut::<LightSource>(e).ok_or_else(gone)?;
        if !l.lit && l.fuel_rounds != Some(0) {
            l.lit = true;
            let light = described(&l);
            let who = crate::creature::name_of(world, who);
            log_in(world, LightEvent::LightLit { who, light });
            return Ok(());
        }
    }
    Err(LightRefusal::NoUnlitLight.into())
}

/// `Douse`: douses every lit source it carries.
pub fn douse(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let mut lights = Vec::new();
    for e in carried(world, who) {
        let mut l = world.get_mut::<LightSource>(e).ok_or_else(gone)?;
        if l.lit {
            l.lit = false;
            lights.push(described(&l));
        }
    }
    if lights.is_empty() {
        return Err(LightRefusal::NoLitLight.into());
    }
    let who = crate::creature::name_of(world, who);
    log_in(world, LightEvent::LightsDoused { who, lights });
    Ok(())
}

/// `DropLight`: drops a carried source on its square, lit or not: it stays where it falls.
pub(crate) fn drop_light(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let at = square_of(world, who)?;
    let e = *carried(world, who)
        .first()
        .ok_or(LightRefusal::CarriesNoLight)?;
    world
        .entity_mut(e)
        .remove::<CarriedBy>()
        .insert(Position(at));
    let light = described(world.get::<LightSource>(e).ok_or_else(gone)?);
    let who = crate::creature::name_of(world, who);
    log_in(world, LightEvent::LightDropped { who, light, at });
    Ok(())
}

/// `PickUpLight`: picks up a source lying on its square.
pub(crate) fn pick_up_light(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let at = square_of(world, who)?;
    let mut q =
        world.query_filtered::<(Entity, &Position), (With<LightSource>, Without<CarriedBy>)>();
    let mut here: Vec<Entity> = q
        .iter(world)
        .filter(|(_, p)| p.0 == at)
        .map(|(e, _)| e)
        .collect();
    here.sort();
    let e = *here.first().ok_or(LightRefusal::NoLightHere { at })?;
    world
        .entity_mut(e)
        .remove::<Position>()
        .insert(CarriedBy(who));
    let light = described(world.get::<LightSource>(e).ok_or_else(gone)?);
    let who = crate::creature::name_of(world, who);
    log_in(world, LightEvent::LightPickedUp { who, light });
    Ok(())
}

/// `Refuel`: fills a carried lantern from a flask of oil (RULINGS › Fuel): a lantern holds one
/// flask, so it is filled to 24 turns of light and oil beyond that is not used; a full lantern
/// takes no more.
pub(crate) fn refuel(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let lantern = carried(world, who)
        .into_iter()
        .find(|&e| {
            world
                .get::<LightSource>(e)
                .is_some_and(|l| l.kind == LightKind::Lantern)
        })
        .ok_or(LightRefusal::NoLantern)?;
    // RULINGS › Fuel: a lantern holds one flask.
    let full = LANTERN_TURNS_PER_FLASK as u64 * ROUNDS_PER_TURN;
    if world
        .get::<LightSource>(lantern)
        .is_some_and(|l| l.fuel_rounds.is_some_and(|f| f >= full))
    {
        return Err(LightRefusal::LanternFull.into());
    }
    let mut gear = world
        .get_mut::<Equipment>(who)
        .ok_or(Unable::CarriesNothing)?;
    let flask = gear
        .0
        .iter_mut()
        .find_map(|g| match g {
            Gear::Oil(n) if *n > 0 => Some(n),
            _ => None,
        })
        .ok_or(LightRefusal::NoOil)?;
    *flask -= 1;
    let flasks_left = *flask;
    let mut l = world.get_mut::<LightSource>(lantern).ok_or_else(gone)?;
    l.fuel_rounds = Some(full);
    let light = described(&l);
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        LightEvent::LanternFilled {
            who,
            light,
            flasks_left,
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::grid::test_grid;

    fn open(n: usize) -> DungeonGrid {
        let row = ".".repeat(n);
        let rows: Vec<&str> = (0..n).map(|_| row.as_str()).collect();
        test_grid(&rows)
    }

    /// Distances of the farthest bright and dim squares straight east of the source.
    fn reach(grid: &DungeonGrid, kind: LightKind, origin: GridPos) -> (i32, i32) {
        let mut map = LightMap::new(grid);
        map.place(grid, 1, Some((origin, kind)));
        let mut bright = 0;
        let mut dim = 0;
        for dx in 0..grid.width() as i32 - origin.x {
            match map.level(grid, GridPos::new(origin.x + dx, origin.y)) {
                LightLevel::Bright => bright = dx,
                LightLevel::Dim => dim = dx,
                _ => {}
            }
        }
        (bright, dim)
    }

    #[test]
    fn radii_at_five_foot_squares() {
        let g = open(20);
        let o = GridPos::new(2, 10);
        assert_eq!(
            reach(&g, LightKind::Candle, o),
            (1, 2),
            "candle: 5' bright, dim to 10'"
        );
        assert_eq!(
            reach(&g, LightKind::Torch, o),
            (3, 6),
            "torch: 15' bright, dim to 30'"
        );
        assert_eq!(
            reach(&g, LightKind::Lantern, o),
            (3, 6),
            "lantern: as a torch"
        );
    }

    #[test]
    fn radii_at_ten_foot_squares() {
        let row = ".".repeat(12);
        let rows: Vec<&str> = (0..12).map(|_| row.as_str()).collect();
        let g5 = test_grid(&rows);
        let g = DungeonGrid::new(12, 12, 10, g5.squares().map(|(_, t)| t).collect());
        let o = GridPos::new(2, 6);
        assert_eq!(
            reach(&g, LightKind::Candle, o),
            (0, 1),
            "candle: its own square bright, dim to 10'"
        );
        assert_eq!(
            reach(&g, LightKind::Torch, o),
            (1, 3),
            "torch: 15' bright (one square), dim to 30'"
        );
    }

    #[test]
    fn light_stops_at_a_closed_door_and_passes_when_it_opens() {
        let mut g = test_grid(&["#########", "#...+...#", "#########"]);
        let mut map = LightMap::new(&g);
        map.place(&g, 1, Some((GridPos::new(2, 1), LightKind::Torch)));
        assert_eq!(
            map.level(&g, GridPos::new(4, 1)),
            LightLevel::Bright,
            "the door itself is lit"
        );
        assert_eq!(map.level(&g, GridPos::new(5, 1)), LightLevel::Dark);
        g.set_door(GridPos::new(4, 1), delve_ground::grid::DoorState::Open);
        map.recompute(&g, [(1, GridPos::new(2, 1), LightKind::Torch)]);
        assert_eq!(
            map.level(&g, GridPos::new(5, 1)),
            LightLevel::Bright,
            "15' away"
        );
        assert_eq!(
            map.level(&g, GridPos::new(6, 1)),
            LightLevel::Dim,
            "20' away"
        );
    }

    #[test]
    fn moving_a_light_updates_only_its_footprint_and_the_strongest_wins() {
        let g = open(30);
        let mut map = LightMap::new(&g);
        map.place(&g, 1, Some((GridPos::new(5, 5), LightKind::Torch)));
        map.place(&g, 2, Some((GridPos::new(9, 5), LightKind::Candle)));
        assert_eq!(map.level(&g, GridPos::new(9, 5)), LightLevel::Bright);
        assert_eq!(
            map.level(&g, GridPos::new(10, 5)),
            LightLevel::Bright,
            "the candle's bright beats the torch's dim"
        );
        map.place(&g, 1, Some((GridPos::new(20, 20), LightKind::Torch)));
        assert_eq!(map.level(&g, GridPos::new(5, 5)), LightLevel::Dark);
        assert_eq!(
            map.level(&g, GridPos::new(9, 5)),
            LightLevel::Bright,
            "the candle still burns"
        );
        let mut fresh = LightMap::new(&g);
        fresh.recompute(
            &g,
            [
                (1, GridPos::new(20, 20), LightKind::Torch),
                (2, GridPos::new(9, 5), LightKind::Candle),
            ],
        );
        assert_eq!(map.to_text(), fresh.to_text(), "incremental equals full");
        map.place(&g, 2, None);
        assert_eq!(map.level(&g, GridPos::new(9, 5)), LightLevel::Dark);
    }

    /// A light of the widest reach a level may give (1,000') on a small map reserves the map's
    /// squares, not the (2r+1)² of its reach: a thousand such lights once took 1.4 GB.
    #[test]
    fn a_far_reaching_light_reserves_no_more_than_the_map() {
        let g = open(12);
        let mut map = LightMap::new(&g);
        let kind = LightKind::Custom {
            bright_feet: 1000,
            dim_feet: 1000,
        };
        let fp = map.footprint(&g, GridPos::new(3, 4), kind);
        assert_eq!(fp.squares.len(), 144, "the whole open map is lit");
        assert!(
            fp.squares.capacity() <= 144,
            "reserved {}",
            fp.squares.capacity()
        );
    }
}
