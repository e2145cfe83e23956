//! Creatures, doors, traps and lights as entities, the [`Command`]s actors give, and putting a
//! level into a world.

pub mod ai;
pub mod command;
pub mod components;
pub mod party;
pub mod task;

use std::collections::BTreeMap;

use bevy::prelude::*;

pub use crate::rules::conditions::Conditions;
pub use command::{Command, PendingCommands, ScriptedCommand};
pub use components::*;
pub use party::{Parties, Party, PartyMember};

use crate::dice::Dice;
use crate::level::Level;
use crate::log::{Event, EventLog};
use crate::time::{Clock, DelveMode};

/// What the level is, for systems and panels: its name, file and earshot environment.
#[derive(Resource, Clone, Debug)]
pub struct LevelInfo {
    pub name: String,
    pub source: String,
    pub environment: crate::level::schema::Environment,
    pub environment_regions: Vec<(
        crate::grid::GridPos,
        crate::grid::GridPos,
        crate::level::schema::Environment,
    )>,
}

impl LevelInfo {
    /// The earshot environment at a square.
    pub fn environment_at(&self, p: crate::grid::GridPos) -> crate::level::schema::Environment {
        crate::level::environment_at(self.environment, &self.environment_regions, p)
    }

    /// The environment in which noises carry farthest anywhere on the level.
    pub fn widest_environment(&self) -> crate::level::schema::Environment {
        use crate::level::schema::Environment;
        let all =
            std::iter::once(self.environment).chain(self.environment_regions.iter().map(|r| r.2));
        all.min_by_key(|e| match e {
            Environment::Quiet => 0,
            Environment::Normal => 1,
            Environment::Loud => 2,
        })
        .unwrap_or(self.environment)
    }
}

/// The factions of the level, indexed by [`Faction`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Factions(pub Vec<crate::level::FactionDef>);

impl Factions {
    pub fn name(&self, f: Faction) -> &str {
        self.0.get(f.0).map_or("?", |d| d.name.as_str())
    }

    pub fn hostile(&self, a: Faction, b: Faction) -> bool {
        let h =
            |x: Faction, y: Faction| self.0.get(x.0).is_some_and(|d| d.hostile_to.contains(&y.0));
        h(a, b) || h(b, a)
    }
}

/// An entity's name, or an empty string.
pub fn name_of(world: &World, e: Entity) -> String {
    world
        .get::<Name>(e)
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Creatures by name, for commands that name their actor.
#[derive(Resource, Clone, Debug, Default)]
pub struct CreatureIndex(pub BTreeMap<String, Entity>);

/// Replaces whatever delve the world holds with a fresh one on `level`, seeded with `seed`:
/// resources reset, every entity of the old level despawned, the new level's spawned.
pub fn install_level(world: &mut World, level: &Level, seed: u64) {
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<LevelEntity>>()
        .iter(world)
        .collect();
    for e in old {
        world.despawn(e);
    }
    world.insert_resource(level.grid.clone());
    let light = crate::rules::light::level_light_map(level);
    world.insert_resource(light);
    world.insert_resource(Factions(level.factions.clone()));
    world.insert_resource(LevelInfo {
        name: level.name.clone(),
        source: level.source.clone(),
        environment: level.environment,
        environment_regions: level.environment_regions.clone(),
    });
    world.insert_resource(Clock::default());
    world.insert_resource(DelveMode::default());
    world.insert_resource(Dice::seeded(seed));
    world.insert_resource(PendingCommands::default());
    world.insert_resource(crate::rules::sound::hearing::Noises::default());
    let mut log = EventLog::default();
    log.push(
        0,
        Event::DelveBegan {
            level: level.name.clone(),
            seed,
        },
    );
    world.insert_resource(log);

    for d in &level.doors {
        world.spawn((LevelEntity, Position(d.at), d.door.clone()));
    }
    for t in &level.traps {
        world.spawn((LevelEntity, Position(t.at), t.trap.clone()));
    }
    for l in &level.lights {
        world.spawn((
            LevelEntity,
            Position(l.at),
            LightSource::new(l.kind, l.lit, l.fuel_turns),
        ));
    }
    let mut index = CreatureIndex::default();
    let mut spawned = Vec::new();
    for c in &level.creatures {
        let e = world.spawn(creature_bundle(c)).id();
        spawned.push(e);
        world.entity_mut(e).insert((
            Vision {
                lightless_vision_feet: c.lightless_vision_feet,
                shadowy_senses: c.shadowy_senses,
            },
            Combatant {
                attack_bonus: c.attack_bonus,
                initiative_modifier: c.initiative_modifier,
                weapons: c.weapons.clone(),
                armor: c.armor.clone(),
                shield: c.shield.clone(),
                fortitude: c.fortitude,
                touch_ac: c.touch_ac,
                mythic: c.mythic,
                flees_when_bloodied: c.flees_when_bloodied,
            },
        ));
        for l in &c.carries {
            world.spawn((
                LevelEntity,
                CarriedBy(e),
                LightSource::new(l.kind, l.lit, l.fuel_turns),
            ));
        }
        index.0.insert(c.name.clone(), e);
    }
    world.insert_resource(index);
    let mut parties = Parties::default();
    for f in level
        .factions
        .iter()
        .filter(|f| !f.marching_order.is_empty())
    {
        let order: Vec<Entity> = f.marching_order.iter().map(|&k| spawned[k]).collect();
        for (i, &e) in order.iter().enumerate() {
            world.entity_mut(e).insert(PartyMember);
            if i > 0 {
                world.entity_mut(e).insert(party::Following::default());
            }
        }
        parties.0.push(Party {
            name: f.name.clone(),
            marching_order: order,
            mapper: None,
            formation: party::Formation::default(),
            trail: Vec::new(),
            pace: None,
        });
    }
    world.insert_resource(parties);
    world.insert_resource(crate::rules::vision::FactionMemory::default());
    world.insert_resource(crate::rules::vision::PartyMaps::default());
    for f in &level.factions {
        if let Some(m) = f.mapper {
            party::make_mapper(world, spawned[m]);
            if let Some(p) = world.resource_mut::<Parties>().get_mut(&f.name) {
                p.mapper = Some(spawned[m]);
            }
        }
    }
    crate::rules::vision::first_look(world);
}

fn creature_bundle(c: &crate::level::CreatureDef) -> impl Bundle {
    (
        (
            LevelEntity,
            Creature,
            Name::new(c.name.clone()),
            Position(c.at),
            Faction(c.faction),
            ClassLevel {
                class: c.class.clone(),
                level: c.level,
            },
            Abilities(c.abilities),
            HitPoints {
                current: c.hp,
                max: c.hp,
            },
            ArmorClass(c.ac),
        ),
        (
            Encumbrance(c.speed),
            Proficiencies::new(&c.proficiencies, &c.throws),
            SavingThrows(c.saves.clone()),
            Equipment(c.gear.clone()),
            Conditions::from_level(&c.conditions),
            BodySize(c.size),
        ),
        (
            crate::rules::movement::MovedThisRound::default(),
            crate::rules::movement::ExplorationBenefits::default(),
            crate::rules::movement::RunningTally::default(),
            crate::rules::movement::Footsteps::default(),
            crate::rules::rest::Fatigue::default(),
            crate::rules::vision::Sight::default(),
            crate::rules::sound::hearing::Listened::default(),
        ),
    )
}
