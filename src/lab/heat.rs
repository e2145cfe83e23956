//! Where things happened over many delves: counts for each square of the level, summed over the
//! delves (so the sum is the same whatever order the delves finish in), drawn as heatmaps.

use delve_ground::grid::WaterDepth;
use delve_ground::level::Level;
use delve_ground::level::schema::TrapKind;
use delve_ground::time::Clock;
use delve_minds::policy::outcome::Tally;
use delve_rules::creature::{Equipment, Faction};
use delve_rules::rules::search::SearchEvent;
use delve_rules::rules::vision::FactionMemory;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_minds::policy::monsters::MonsterEvent;
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::conditions::ConditionEvent;
use delve_rules::rules::movement::MovementEvent;
use delve_rules::rules::sound::{HearingEvent, NoiseKind, NoisyAction};

use super::{Brought, MadeBy};

/// Counts a square at a time, indexed like the grid (row by row from the top left).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heat {
    pub width: u32,
    pub height: u32,
    /// Delves in which a member of the party stood on the square.
    pub visited: Vec<u32>,
    /// Delves in which the party never saw the square.
    pub unseen: Vec<u32>,
    /// Blows struck at a creature standing on the square.
    pub fights: Vec<u32>,
    /// Noises monsters heard, roughly from the square.
    pub noise_heard: Vec<u32>,
    /// Members of the party brought down (dying or dead) on the square, or left behind there.
    pub deaths: Vec<u32>,
    /// The seeds of the delves summed here (a failed delve's adds only its seed): a lab's
    /// folder is resumed or merged only where its heat and its records are of the same delves.
    #[serde(default)]
    pub seeds: Vec<u64>,
}

/// One of the heat maps, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum HeatKind {
    Visited,
    Unseen,
    Fights,
    NoiseHeard,
    Deaths,
}

impl HeatKind {
    pub const ALL: &'static [HeatKind] = <HeatKind as strum::VariantArray>::VARIANTS;

    /// The file the map is drawn to, and its title.
    pub fn file_and_title(self) -> (&'static str, &'static str) {
        match self {
            HeatKind::Visited => ("visited.png", "squares the party stood on (delves)"),
            HeatKind::Unseen => ("unseen.png", "squares the party never saw (delves)"),
            HeatKind::Fights => ("fights.png", "blows struck (creatures on the square)"),
            HeatKind::NoiseHeard => ("noise.png", "noises monsters heard (from roughly here)"),
            HeatKind::Deaths => ("deaths.png", "members brought down or left behind"),
        }
    }
}

impl Heat {
    pub fn new(grid: &DungeonGrid) -> Self {
        let n = (grid.width() * grid.height()) as usize;
        Self {
            width: grid.width(),
            height: grid.height(),
            visited: vec![0; n],
            unseen: vec![0; n],
            fights: vec![0; n],
            noise_heard: vec![0; n],
            deaths: vec![0; n],
            seeds: Vec::new(),
        }
    }

    pub fn counts(&self, kind: HeatKind) -> &[u32] {
        match kind {
            HeatKind::Visited => &self.visited,
            HeatKind::Unseen => &self.unseen,
            HeatKind::Fights => &self.fights,
            HeatKind::NoiseHeard => &self.noise_heard,
            HeatKind::Deaths => &self.deaths,
        }
    }

    fn index(&self, p: GridPos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height)
            .then(|| (p.y as u32 * self.width + p.x as u32) as usize)
    }

    /// Adds another delve's (or lab's) counts to these.
    /// Are its maps all of its size (or all empty: no delve yet)?
    pub fn is_whole(&self) -> bool {
        let n = self.width as usize * self.height as usize;
        let maps = [
            &self.visited,
            &self.unseen,
            &self.fights,
            &self.noise_heard,
            &self.deaths,
        ];
        maps.iter().all(|m| m.is_empty()) || maps.iter().all(|m| m.len() == n)
    }

    pub fn add(&mut self, other: &Heat) {
        self.seeds.extend(&other.seeds);
        if self.visited.is_empty() {
            let seeds = std::mem::take(&mut self.seeds);
            *self = Heat {
                seeds,
                ..other.clone()
            };
            return;
        }
        for &kind in HeatKind::ALL {
            let theirs = other.counts(kind).to_vec();
            let mine = match kind {
                HeatKind::Visited => &mut self.visited,
                HeatKind::Unseen => &mut self.unseen,
                HeatKind::Fights => &mut self.fights,
                HeatKind::NoiseHeard => &mut self.noise_heard,
                HeatKind::Deaths => &mut self.deaths,
            };
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
}

/// The level's rooms: each stretch of floor that walls, doors and caving terrain (a squeeze,
/// deep water, a ledge, a chasm) bound — a corridor between two doors is one too —, with caves
/// split into chambers at their necks (a square of cave floor with rock on both sides across
/// it and floor on both sides along it; the squares of a tunnel belong to no chamber, nor do
/// pockets of fewer than [`LEAST_ROOM`] squares); each named by its first square in reading
/// order; and for each square, the room it is in.
pub fn rooms(grid: &DungeonGrid) -> (Vec<GridPos>, Vec<Option<usize>>) {
    use delve_ground::grid::terrain::Terrain;
    let (w, h) = (grid.width(), grid.height());
    let rock = |p: GridPos| grid.terrain(p) == Some(Terrain::Rock);
    let floor = |p: GridPos| {
        grid.is_passable(p)
            && !matches!(
                grid.terrain(p),
                Some(Terrain::Door | Terrain::Squeeze | Terrain::Water(WaterDepth::Deep))
            )
    };
    let neck = |p: GridPos| {
        let (n, s, e, west) = (
            GridPos::new(p.x, p.y - 1),
            GridPos::new(p.x, p.y + 1),
            GridPos::new(p.x + 1, p.y),
            GridPos::new(p.x - 1, p.y),
        );
        (rock(n) && rock(s) && floor(e) && floor(west))
            || (rock(e) && rock(west) && floor(n) && floor(s))
    };
    let inside = |p: GridPos| floor(p) && !neck(p);
    let mut room_of = vec![None; (w * h) as usize];
    let mut names = Vec::new();
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let p = GridPos::new(x, y);
            let i = (y as u32 * w + x as u32) as usize;
            if !inside(p) || room_of[i].is_some() {
                continue;
            }
            let k = names.len();
            let mut squares = vec![p];
            room_of[i] = Some(k);
            let mut at = 0;
            while at < squares.len() {
                let q = squares[at];
                at += 1;
                for r in q.neighbours() {
                    if let Some(j) = grid.index(r)
                        && room_of[j].is_none()
                        && inside(r)
                    {
                        room_of[j] = Some(k);
                        squares.push(r);
                    }
                }
            }
            if squares.len() < LEAST_ROOM {
                // A pocket, not a room: its squares stay out (marked apart while scanning).
                for q in squares {
                    if let Some(j) = grid.index(q) {
                        room_of[j] = Some(usize::MAX);
                    }
                }
            } else {
                names.push(p);
            }
        }
    }
    for r in &mut room_of {
        if *r == Some(usize::MAX) {
            *r = None;
        }
    }
    (names, room_of)
}

/// The fewest squares a room (or a cave's chamber) has: fewer is a pocket of a passage.
pub const LEAST_ROOM: usize = 4;

/// How a room can be reached from the way in, by the Judge's map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reach {
    /// On foot, through doors (stuck and locked ones too: they can be forced).
    OnFoot,
    /// Only through a secret door.
    BehindASecretDoor,
    /// Only across caving terrain: a squeeze, deep water, a ledge, a chasm, an open pit.
    CavingNeeded,
    /// Only through a secret door and across caving terrain.
    SecretDoorAndCaving,
    /// Not at all.
    Unreachable,
}

impl std::fmt::Display for Reach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reach::OnFoot => "on foot",
            Reach::BehindASecretDoor => "behind a secret door",
            Reach::CavingNeeded => "caving needed",
            Reach::SecretDoorAndCaving => "secret door and caving",
            Reach::Unreachable => "unreachable",
        })
    }
}

/// For each room of [`rooms`], how it can be reached from `from` (the way in).
pub fn reach_of_rooms(level: &Level, from: GridPos) -> Vec<Reach> {
    use delve_ground::grid::terrain::Terrain;
    let grid = &level.grid;
    let (names, room_of) = rooms(grid);
    let secret: Vec<GridPos> = level
        .doors
        .iter()
        .filter(|d| d.door.secret)
        .map(|d| d.at)
        .collect();
    let holes: Vec<GridPos> = level
        .traps
        .iter()
        .filter(|t| !t.trap.hidden && matches!(t.trap.kind, TrapKind::Pit { .. }))
        .map(|t| t.at)
        .collect();
    let caving = |p: GridPos| {
        holes.contains(&p)
            || matches!(
                grid.terrain(p),
                Some(
                    Terrain::Squeeze
                        | Terrain::Water(WaterDepth::Deep)
                        | Terrain::Chasm { .. }
                        | Terrain::Ledge { .. }
                )
            )
    };
    let reached = |secrets: bool, cave: bool| -> Vec<bool> {
        let mut seen = vec![false; room_of.len()];
        let mut todo = vec![from];
        let mut rooms = vec![false; names.len()];
        while let Some(p) = todo.pop() {
            let Some(i) = grid.index(p) else { continue };
            if seen[i] {
                continue;
            }
            let door = grid.terrain(p) == Some(Terrain::Door);
            let ok = if door {
                secrets || !secret.contains(&p)
            } else if caving(p) {
                cave
            } else {
                grid.is_passable(p)
            };
            if !ok {
                continue;
            }
            seen[i] = true;
            if let Some(k) = room_of[i] {
                rooms[k] = true;
            }
            todo.extend(p.neighbours());
        }
        rooms
    };
    let (plain, with_secrets, with_caving, with_both) = (
        reached(false, false),
        reached(true, false),
        reached(false, true),
        reached(true, true),
    );
    (0..names.len())
        .map(|k| {
            if plain[k] {
                Reach::OnFoot
            } else if with_secrets[k] {
                Reach::BehindASecretDoor
            } else if with_caving[k] {
                Reach::CavingNeeded
            } else if with_both[k] {
                Reach::SecretDoorAndCaving
            } else {
                Reach::Unreachable
            }
        })
        .collect()
}

/// Gathers one delve's heat as it is played, round by round, from the typed events of its log
/// and where creatures stand when the round ends.
pub struct HeatCollector {
    heat: Heat,
    features: super::Features,
    visited: Vec<bool>,
    cursor: usize,
    party: Vec<String>,
    faction: Option<Faction>,
    /// The room of each square, and the rooms' names.
    rooms: (Vec<GridPos>, Vec<Option<usize>>),
    reached: Vec<bool>,
    /// The last noise each monster heard (or the companion's shout it answered), and who made it.
    last_heard: std::collections::HashMap<String, (NoiseKind, MadeBy)>,
    /// Doors, traps, casualties and the time budget.
    watch: super::watch::DelveWatch,
}

impl HeatCollector {
    /// For the delve in `world`, whose party is made of `party` of faction `faction`.
    pub fn new(world: &World, party: Vec<String>, faction: Option<Faction>) -> Self {
        let heat = Heat::new(world.resource::<DungeonGrid>());
        let n = heat.visited.len();
        let rooms = rooms(world.resource::<DungeonGrid>());
        let reached = vec![false; rooms.0.len()];
        let watch = super::watch::DelveWatch::new(world, party.clone());
        let mut collector = Self {
            heat,
            features: super::Features::default(),
            visited: vec![false; n],
            cursor: 0,
            party,
            faction,
            rooms,
            reached,
            last_heard: Default::default(),
            watch,
        };
        collector.mark_where_the_party_stands(world);
        collector
    }

    /// A member stood on square `i` in `round`: its room is reached then, if not before, and
    /// the doors beside it; the secret doors within `reach_feet` (its search's reach).
    fn stood(&mut self, i: usize, round: u64, reach_feet: u32, scale_feet: u32) {
        self.visited[i] = true;
        let w = self.heat.width.max(1);
        let p = GridPos::new((i as u32 % w) as i32, (i as u32 / w) as i32);
        self.watch.stood(p, round, reach_feet, scale_feet);
        if let Some(Some(room)) = self.rooms.1.get(i).copied()
            && !self.reached[room]
        {
            self.reached[room] = true;
            let turns = round as f32 / delve_ground::time::ROUNDS_PER_TURN as f32;
            self.features.reached.push((self.rooms.0[room], turns));
        }
    }

    /// The party fights `foe`: if this is the first time, the foe is met, and the last noise it
    /// heard before is what brought it.
    fn met(&mut self, foe: &str) {
        if self.features.fought.iter().any(|f| f == foe) {
            return;
        }
        self.features.fought.push(foe.to_owned());
        if let Some(&(noise, made_by)) = self.last_heard.get(foe) {
            self.features.brought.push(Brought {
                monster: foe.to_owned(),
                noise,
                made_by,
            });
        }
    }

    /// The squares the party's members stand on now count as visited.
    fn mark_where_the_party_stands(&mut self, world: &World) {
        let round = world.resource::<Clock>().rounds;
        let scale = world.resource::<DungeonGrid>().scale_feet();
        let squares: Vec<(usize, u32)> = self
            .party
            .iter()
            .filter_map(|n| {
                let e = *world.resource::<CreatureIndex>().0.get(n)?;
                let i = self.heat.index(world.get::<Position>(e)?.0)?;
                Some((i, search_reach(world, e)))
            })
            .collect();
        for (i, reach) in squares {
            self.stood(i, round, reach, scale);
        }
    }

    /// Reads the entries logged since the last call.
    pub fn after_round(&mut self, world: &World) {
        let log = world.resource::<EventLog>();
        let index = world.resource::<CreatureIndex>();
        let square = |who: &str| {
            index
                .0
                .get(who)
                .and_then(|&e| world.get::<Position>(e))
                .map(|p| p.0)
        };
        let scale = world.resource::<DungeonGrid>().scale_feet();
        for entry in &log.entries()[self.cursor.min(log.len())..] {
            self.watch.entry(world, entry);
            if let Some(MovementEvent::Moved { who, to, .. }) = entry.get()
                && self.party.contains(who)
                && let Some(i) = self.heat.index(*to)
            {
                let reach = index.0.get(who).map_or(5, |&e| search_reach(world, e));
                self.stood(i, entry.round, reach, scale);
            } else if let Some(CombatEvent::Attacked { who, target, .. }) = entry.get() {
                if let Some(i) = square(target).and_then(|p| self.heat.index(p)) {
                    self.heat.fights[i] += 1;
                }
                let foe = match (self.party.contains(who), self.party.contains(target)) {
                    (true, false) => Some(target),
                    (false, true) => Some(who),
                    _ => None,
                };
                if let Some(foe) = foe {
                    self.met(foe);
                }
            } else if let Some(ConditionEvent::ConditionGained {
                who,
                condition: ConditionKind::Dying | ConditionKind::Dead,
                ..
            }) = entry.get()
                && self.features.fought.contains(who)
                && !self.features.felled.contains(who)
            {
                self.features.felled.push(who.clone());
            } else if let Some(MonsterEvent::AnsweredCall { who, .. }) = entry.get() {
                self.last_heard.insert(
                    who.clone(),
                    (
                        NoiseKind::Action(NoisyAction::Shouting),
                        MadeBy::ItsCompanion,
                    ),
                );
            } else if let Some(e) = entry.get::<delve_rules::rules::traps::TrapEvent>() {
                use delve_rules::rules::traps::TrapEvent;
                match e {
                    TrapEvent::TrapSprung { trap, at, .. }
                    | TrapEvent::TrapSprungHarmlessly { trap, at, .. } => {
                        self.features.sprung.push((*at, trap.clone()))
                    }
                    TrapEvent::TrapDisabled { who, at, .. } if self.party.contains(who) => {
                        self.features.disarmed.push(*at)
                    }
                    _ => {}
                }
            } else if let Some(SearchEvent::Found { who, feature, at }) = entry.get()
                && self.party.contains(who)
            {
                self.features.found.push((*at, feature.clone()));
            } else if let Some(e) = entry.get::<delve_rules::rules::doors::DoorEvent>() {
                use delve_rules::rules::doors::{DoorEvent, LockOpening};
                match e {
                    DoorEvent::DoorOpened { who, at, how } if self.party.contains(who) => {
                        self.features.opened.push((*at, *how))
                    }
                    DoorEvent::LockOpened {
                        who,
                        at,
                        by: LockOpening::Picked,
                    } if self.party.contains(who) => self.features.picked.push(*at),
                    _ => {}
                }
            } else if let Some(HearingEvent::Heard {
                who,
                roughly_at,
                noise,
                made_by,
                ..
            }) = entry.get()
                && !self.party.contains(who)
            {
                if let Some(i) = self.heat.index(*roughly_at) {
                    self.heat.noise_heard[i] += 1;
                }
                let made_by = match made_by {
                    Some(m) if self.party.contains(m) => MadeBy::TheParty,
                    Some(_) => MadeBy::SomeoneElse,
                    None => MadeBy::NoOne,
                };
                self.last_heard.insert(who.clone(), (*noise, made_by));
            }
        }
        self.cursor = log.len();
        self.watch.end_of_round(world);
    }

    /// The delve's heat and the features it met, once it has ended with this tally.
    pub fn finish(mut self, world: &World, tally: &Tally) -> (Heat, super::Features) {
        self.mark_where_the_party_stands(world);
        self.watch
            .finish(world, &tally.left_behind, &mut self.features);
        for (i, v) in self.visited.iter().enumerate() {
            self.heat.visited[i] += *v as u32;
        }
        let grid = world.resource::<DungeonGrid>();
        let memory = world.resource::<FactionMemory>();
        let seen = self.faction.and_then(|f| memory.seen.get(f.0));
        for (i, count) in self.heat.unseen.iter_mut().enumerate() {
            let p = GridPos::new(
                (i as u32 % self.heat.width) as i32,
                (i as u32 / self.heat.width) as i32,
            );
            let open = grid.is_passable(p)
                || grid.terrain(p) == Some(delve_ground::grid::terrain::Terrain::Door);
            if open && !seen.is_some_and(|s| s.get(i).copied().unwrap_or(false)) {
                *count += 1;
            }
        }
        for c in &self.features.casualties {
            if let Some(i) = self.heat.index(c.at) {
                self.heat.deaths[i] += 1;
            }
        }
        (self.heat, self.features)
    }
}

/// How far a member's search reaches (Dungeon Delves › Searching).
fn search_reach(world: &World, member: Entity) -> u32 {
    delve_rules::rules::search::reach_feet(world.get::<Equipment>(member))
}
