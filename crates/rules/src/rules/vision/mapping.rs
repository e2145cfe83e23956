//! The party's map (Dungeon Delves › Marching and Mapping): what its mapper draws while it
//! stands in bright light with its hands free, and the Judge's secret errors in it.

use crate::creature::Proficiencies;
use crate::rules::calls::Judge;
use crate::rules::movement::Pace;
use crate::rules::throws::Skill;
use delve_ground::dice::Dice;
use delve_ground::level::schema::Proficiency;

use bevy::prelude::*;

use super::{Sight, VisionEvent};
use crate::creature::Position;
use crate::rules::light::{LightLevel, LightMap};
use crate::rules::movement::{Mapper, MovedThisRound};
use crate::rules::party::Parties;
use crate::rules::throws::ThrowKind;
use delve_ground::grid::DungeonGrid;
use delve_ground::time::Clock;

/// A party's map: the squares seen while its mapper stood in bright light.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartyMap {
    pub party: String,
    pub mapped: Vec<bool>,
    /// Whether the mapper has the Mapping proficiency (accurate measurements).
    pub proficient: bool,
    /// Squares mapped this turn (the Judge's check for errors is by the turn).
    pub this_turn: Vec<usize>,
    /// Squares drawn wrong, the error not noticed (Dungeon Delves › Marching and Mapping).
    pub errors: Vec<usize>,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct PartyMaps(pub Vec<PartyMap>);

/// Dungeon Delves › Marching and Mapping: the mapper maps what it sees while it stands in bright
/// light; moving at combat or running speed, it cannot map (Dungeon Delves › Combat speed); nor
/// in a round its hands did something else (`acting::hands_used`: "he must use both hands for
/// mapping").
pub(super) fn map_where_bright(world: &mut World) {
    let round = world.resource::<Clock>().rounds;
    let mappers: Vec<(String, Entity)> = world
        .resource::<Parties>()
        .0
        .iter()
        .filter_map(|p| p.mapper.map(|m| (p.name.clone(), m)))
        .collect();
    world.resource_scope(|world, mut maps: Mut<PartyMaps>| {
        let grid = world.resource::<DungeonGrid>();
        let light = world.resource::<LightMap>();
        let n = (grid.width() * grid.height()) as usize;
        for (party, m) in mappers {
            let (Some(pos), Some(sight), Some(mapper), Some(moved)) = (
                world.get::<Position>(m),
                world.get::<Sight>(m),
                world.get::<Mapper>(m),
                world.get::<MovedThisRound>(m),
            ) else {
                continue;
            };
            if light.level(grid, pos.0) != LightLevel::Bright {
                continue;
            }
            if moved.feet > 0 && moved.pace != Some(Pace::Exploration) {
                continue;
            }
            // "He must use both hands for mapping": a mapper whose hands did something else
            // this round maps nothing.
            if crate::rules::acting::hands_used(world, m, round) {
                continue;
            }
            let i = match maps.0.iter().position(|p| p.party == party) {
                Some(i) => i,
                None => {
                    maps.0.push(PartyMap {
                        party: party.clone(),
                        mapped: vec![false; n],
                        proficient: mapper.proficient,
                        ..PartyMap::default()
                    });
                    maps.0.len() - 1
                }
            };
            let map = &mut maps.0[i];
            map.proficient = mapper.proficient;
            for (p, _) in &sight.seen {
                if let Some(k) = grid.index(*p)
                    && !map.mapped[k]
                {
                    map.mapped[k] = true;
                    map.this_turn.push(k);
                }
            }
        }
    });
}

/// Dungeon Delves › Marching and Mapping, with the Judge's `mapping_errors` on: at the end of
/// each turn in which a party's mapper mapped new squares, the Judge's secret 1d6 makes an error
/// on a 1. A mapper with the Mapping proficiency gets the Judge's secret Mapping throw (its
/// class value) to realize it; one without it "has no opportunity to passively detect errors".
/// An error not noticed stays on the map, on the squares mapped that turn.
pub(super) fn judge_the_maps(world: &mut World) {
    let clock = world.resource::<Clock>().rounds;
    if !(clock + 1).is_multiple_of(delve_ground::time::ROUNDS_PER_TURN) {
        return;
    }
    let on = world
        .get_resource::<Judge>()
        .is_some_and(|j| j.0.mapping_errors);
    let parties: Vec<(String, Option<Entity>)> = world
        .resource::<Parties>()
        .0
        .iter()
        .map(|p| (p.name.clone(), p.mapper))
        .collect();
    for (party, mapper) in parties {
        let Some(i) = world
            .resource::<PartyMaps>()
            .0
            .iter()
            .position(|m| m.party == party)
        else {
            continue;
        };
        let squares = std::mem::take(&mut world.resource_mut::<PartyMaps>().0[i].this_turn);
        let (true, Some(mapper), false) = (on, mapper, squares.is_empty()) else {
            continue;
        };
        let d6 = world.resource_mut::<Dice>().roll(6);
        if d6 > 1 {
            continue;
        }
        let class = world
            .get::<Proficiencies>(mapper)
            .filter(|p| p.has(Proficiency::Mapping))
            .and_then(|p| p.throws.get(&Proficiency::Mapping).copied());
        let noticed = class.map(|target| {
            crate::rules::throws::throw_in(
                world,
                mapper,
                ThrowKind::Check,
                Skill::Proficiency(Proficiency::Mapping),
                "Mapping (the Judge's, in secret) to notice an error",
                Vec::new(),
                target,
            )
            .success
        });
        if noticed != Some(true) {
            world.resource_mut::<PartyMaps>().0[i]
                .errors
                .extend(squares.iter().copied());
        }
        let who = crate::creature::name_of(world, mapper);
        delve_ground::log::log_in(
            world,
            VisionEvent::MapError {
                who,
                squares: squares.len(),
                noticed,
            },
        );
    }
}
