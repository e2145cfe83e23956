//! What a faction knows of a door (RULINGS › Knowledge: doors as last seen or tried; a lock is
//! known only once tried). Its state — closed or open, broken, secret — is seen; whether it is
//! locked, jammed, stuck or spiked is learned only by trying it, and is then known as it was
//! last tried. The offers at a door are made from the door as the worker's faction knows it.

use std::collections::BTreeMap;

use bevy::prelude::*;

use crate::creature::{Faction, Position};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::Lock;

use super::door::{Door, door_at};

/// A door as a faction found it when it last tried it: its lock, whether it was stuck, and
/// its spikes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tried {
    pub lock: Lock,
    pub stuck: bool,
    pub spikes: u8,
}

/// Each faction's last try of a door, by the faction's index: on the door's entity.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct TriedBy(pub BTreeMap<usize, Tried>);

impl Door {
    /// The door as `faction` knows it: what it found when it last tried it, else as it looks —
    /// a door that yields to the hand (unlocked, not stuck, no spikes).
    pub fn as_known_to(&self, tried: Option<&TriedBy>, faction: Option<Faction>) -> Door {
        let mut known = self.clone();
        let last = faction.and_then(|f| tried.and_then(|t| t.0.get(&f.0)));
        match last {
            Some(t) => {
                known.lock = t.lock.clone();
                known.stuck = t.stuck;
                known.spikes = t.spikes;
            }
            None => {
                known.lock = Lock::Unlocked;
                known.stuck = false;
                known.spikes = 0;
            }
        }
        known
    }
}

/// `who` tried the door at `at` (opened, unlocked, picked, bashed, spiked, closed or struck it,
/// or was refused for what the door is): its faction now knows the door as it is. Nothing is
/// learned by one not beside the door, nor of a door not yet found.
pub(super) fn learn(world: &mut World, who: Entity, at: GridPos) {
    let Some(faction) = world.get::<Faction>(who).copied() else {
        return;
    };
    if !world
        .get::<Position>(who)
        .is_some_and(|p| p.0.is_adjacent(at))
    {
        return;
    }
    let Some((e, d)) = door_at(world, at) else {
        return;
    };
    if d.secret {
        return;
    }
    let found = Tried {
        lock: d.lock.clone(),
        stuck: d.stuck,
        spikes: d.spikes,
    };
    let mut entity = world.entity_mut(e);
    match entity.get_mut::<TriedBy>() {
        Some(mut t) => {
            t.0.insert(faction.0, found);
        }
        None => {
            entity.insert(TriedBy(BTreeMap::from([(faction.0, found)])));
        }
    }
}

/// `who` closed (or held shut) the door at `at`: its faction sees the spikes in it now (a
/// wedge knocked out), and learns nothing of its lock.
pub(super) fn learn_spikes(world: &mut World, who: Entity, at: GridPos) {
    let Some(faction) = world.get::<Faction>(who).copied() else {
        return;
    };
    let Some((e, d)) = door_at(world, at) else {
        return;
    };
    if let Some(mut t) = world.get_mut::<TriedBy>(e)
        && let Some(last) = t.0.get_mut(&faction.0)
    {
        last.spikes = d.spikes;
    }
}

/// The door at `at` as `who`'s faction knows it.
pub fn known_door(world: &World, who: Entity, at: GridPos) -> Option<Door> {
    let faction = world.get::<Faction>(who).copied();
    // (A query naming `TriedBy` would find nothing before any door was tried: the component
    // is registered only once it is first inserted.)
    delve_ground::query_cache::read_query(world, |q: Query<(Entity, &Position, &Door)>| {
        q.iter()
            .find(|(_, p, _)| p.0 == at)
            .map(|(e, _, d)| d.as_known_to(world.get::<TriedBy>(e), faction))
    })
    .flatten()
}
