//! What the party's tactics see each round ([`ThisRound`]): the party, and — once a row needs
//! it — what its faction knows of the level ([`KnownLevel`], RULINGS › Knowledge) and the walks
//! from its leader's square.

use delve_rules::rules::caving::climbing::RopesSecured;
use delve_rules::rules::vision::FactionMemory;

use bevy::prelude::*;

use super::super::knowledge::SeenDoor;
use super::doors::update_doors;
use super::gaps::{party_climbs, party_jumps, party_squeezes, party_traverses};
use super::way::{all_swim, known_traps};
use super::{Intent, PartyMind};
use crate::policy::knowledge::{Distances, Knowledge};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::command::Command;
use std::collections::BTreeMap;

/// A tactic's answer: why, and the orders.
pub type Decision = (Intent, Vec<Command>);

/// What a row needs to know before it is tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Needs {
    /// The party alone: its members, leader and squares.
    Party,
    /// What its faction knows of the level ([`KnownLevel`]).
    KnownLevel,
    /// That, and the costs of walks from the leader's square (the faction's memory must be
    /// ready: until it is, no row from here on is tried).
    Distances,
}

/// What the tactics see this round: the party, and (once a row needs it) what its faction
/// knows and the walks from the leader's square.
pub(super) struct ThisRound<'a> {
    pub world: &'a mut World,
    pub mind: &'a mut PartyMind,
    pub members: &'a [Entity],
    /// The leader ([`leader`]) and its square.
    pub leader: Entity,
    pub here: GridPos,
    pub sight: Option<KnownLevel>,
    pub from_here: Option<Distances>,
}

/// What the party's faction knows of the level this round (RULINGS › Knowledge), owned, for
/// [`Knowledge`] to borrow.
pub(super) struct KnownLevel {
    pub(super) grid: DungeonGrid,
    pub(super) seen: Vec<bool>,
    pub(super) doors: BTreeMap<GridPos, SeenDoor>,
    pub(super) shut_for_good: Vec<GridPos>,
    pub(super) traps: Vec<GridPos>,
    pub(super) holes: Vec<GridPos>,
    pub(super) swims: bool,
    pub(super) jumps: bool,
    pub(super) traverses: bool,
    pub(super) climbs: bool,
    /// Chasms with a rope secured in them.
    pub(super) roped: Vec<GridPos>,
    pub(super) squeezes: bool,
    /// Where the foes too strong for it were last seen.
    /// The squares near foes too strong for it (`Knowledge::near_danger`).
    pub(super) danger: Vec<bool>,
    /// The faction's memory covers the level (it is ready once its members have looked).
    pub(super) all_seen: bool,
}

impl KnownLevel {
    /// Looks: the doors it sees now, the traps and holes it knows.
    pub(super) fn look(world: &mut World, mind: &mut PartyMind, members: &[Entity]) -> KnownLevel {
        update_doors(world, mind, members);
        let seen = world
            .resource::<FactionMemory>()
            .seen
            .get(mind.faction.0)
            .cloned()
            .unwrap_or_default();
        let (traps, holes) = known_traps(world, mind.faction);
        let grid = world.resource::<DungeonGrid>().clone();
        let all_seen = seen.len() == (grid.width() * grid.height()) as usize;
        let mut sight = KnownLevel {
            danger: Vec::new(),
            all_seen,
            seen,
            traps,
            holes,
            doors: mind.door_memory.doors.clone(),
            shut_for_good: mind.door_memory.shut_for_good.clone(),
            swims: all_swim(world, members),
            jumps: party_jumps(world, mind, members),
            traverses: party_traverses(world, mind, members),
            climbs: party_climbs(world, mind, members),
            roped: world
                .resource::<RopesSecured>()
                .0
                .iter()
                .map(|r| r.at)
                .collect(),
            squeezes: party_squeezes(world, mind, members),
            grid,
        };
        let foes: Vec<GridPos> = mind.dangers.iter().map(|&(_, at)| at).collect();
        if !foes.is_empty() {
            sight.danger = sight.knowledge().near_danger(&foes);
        }
        sight
    }

    /// What the distances from `from` depend on, in one number: the squares seen (they only
    /// ever grow, so their count tells the set), the doors as last seen, the doors shut for
    /// good, the known traps and holes, and what the party can cross.
    fn fingerprint(&self, from: GridPos) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        from.hash(&mut h);
        self.seen.iter().filter(|&&s| s).count().hash(&mut h);
        for (p, d) in &self.doors {
            (p, d.open).hash(&mut h);
        }
        self.shut_for_good.hash(&mut h);
        self.traps.hash(&mut h);
        self.holes.hash(&mut h);
        self.roped.hash(&mut h);
        self.danger.hash(&mut h);
        (
            self.swims,
            self.jumps,
            self.traverses,
            self.climbs,
            self.squeezes,
        )
            .hash(&mut h);
        h.finish()
    }

    pub fn knowledge(&self) -> Knowledge<'_> {
        Knowledge {
            grid: &self.grid,
            seen: &self.seen,
            doors: &self.doors,
            shut_for_good: &self.shut_for_good,
            traps: &self.traps,
            holes: &self.holes,
            swims: self.swims,
            jumps: self.jumps,
            traverses: self.traverses,
            climbs: self.climbs,
            roped: &self.roped,
            squeezes: self.squeezes,
            danger: &self.danger,
        }
    }
}

impl ThisRound<'_> {
    /// Learns what a row needs, if not yet known; false when the faction's memory is not ready
    /// for it.
    pub(super) fn prepare(&mut self, needs: Needs) -> bool {
        if needs != Needs::Party && self.sight.is_none() {
            self.sight = Some(KnownLevel::look(self.world, self.mind, self.members));
        }
        if needs == Needs::Distances && self.from_here.is_none() {
            let Some(sight) = self.sight.as_ref().filter(|s| s.all_seen) else {
                return false;
            };
            let know = sight.knowledge();
            // An edge it stands on or beside stays an edge only for what cannot be seen from
            // here (dark walls, corners): walking there again would show no more — unless the
            // party's light is behind its leader (brought up, it shows more).
            let light_here = super::light::light_on(self.world, self.members, self.here);
            for p in std::iter::once(self.here).chain(self.here.neighbours()) {
                if light_here && know.frontier(p) && !self.mind.exploring.exhausted.contains(&p) {
                    self.mind.exploring.exhausted.push(p);
                }
            }
            // (The same knowledge from the same square gives the same distances: kept from
            // the last round that asked.)
            let key = sight.fingerprint(self.here);
            let distances = match &self.mind.deciding.distances {
                Some((k, d)) if *k == key => d.clone(),
                _ => {
                    let d = know.distances(self.here);
                    self.mind.deciding.distances = Some((key, d.clone()));
                    d
                }
            };
            self.from_here = Some(distances);
        }
        true
    }
}
