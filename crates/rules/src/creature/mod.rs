//! Creatures below the rules: the components that carry the rules' own names (position,
//! faction, abilities, hit points, proficiencies, gear, conditions), creatures by name, the
//! level's factions, and what the level is. Every rule area reads these; none of them imports a
//! rule.

mod components;
mod conditions;

use delve_ground::grid::GridPos;
use delve_ground::level::FactionDef;

use std::collections::BTreeMap;

use bevy::prelude::*;

pub use components::{
    Abilities, ArmorClass, Below, BodySize, ClassLevel, Combatant, Creature, Encumbrance,
    Equipment, Exerted, Faction, HitPoints, LevelEntity, Position, Proficiencies, Resting,
    SavingThrows, SwimmingSpeed, Vision,
};
pub use conditions::{ActiveCondition, ConditionEnd, Conditions};

/// What the level is, for systems and panels: its name, file and earshot environment.
#[derive(Resource, Clone, Debug)]
pub struct LevelInfo {
    pub name: String,
    pub source: String,
    pub environment: delve_ground::level::schema::Environment,
    pub environment_regions: Vec<(GridPos, GridPos, delve_ground::level::schema::Environment)>,
}

impl LevelInfo {
    /// The earshot environment at a square.
    pub fn environment_at(&self, p: GridPos) -> delve_ground::level::schema::Environment {
        delve_ground::level::environment_at(self.environment, &self.environment_regions, p)
    }

    /// The environment in which noises carry farthest anywhere on the level.
    pub fn widest_environment(&self) -> delve_ground::level::schema::Environment {
        use delve_ground::level::schema::Environment;
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
pub struct Factions(pub Vec<FactionDef>);

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

/// The factions in a battle, in the order they act (RULINGS › Faction initiative), and whose
/// initiative it is (RULINGS › The battle round); empty when no battle is on. The combat module
/// keeps the order; the round's factions' initiatives are taken one by one; the core rules read
/// both without knowing combat: a fighting faction's members walk in their faction's initiative,
/// and the noises of a fighting faction are one din its members do not listen to passively.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActingOrder {
    /// Factions, by index, in acting order.
    pub order: Vec<usize>,
    /// The faction whose initiative it is, while the battle's factions act one by one.
    pub initiative: Option<usize>,
    /// Factions surprised this round (the battle's first: RULINGS › Surprise): they do nothing.
    pub surprised: Vec<usize>,
}

impl ActingOrder {
    /// Where a faction acts in the battle, if it is in it.
    pub fn place(&self, f: Faction) -> Option<usize> {
        self.order.iter().position(|&g| g == f.0)
    }

    /// Whether a faction is in the battle.
    pub fn fighting(&self, f: Faction) -> bool {
        self.place(f).is_some()
    }

    /// Whether a faction has acted this round already: it acts before the faction whose
    /// initiative it is.
    pub fn has_acted(&self, f: Faction) -> bool {
        match (
            self.place(f),
            self.initiative.and_then(|t| self.place(Faction(t))),
        ) {
            (Some(mine), Some(now)) => mine < now,
            _ => false,
        }
    }

    /// Whether a creature of this faction acts now: in its faction's initiative when its faction is
    /// in the battle, in the round's own phases when it is not.
    pub fn acts_now(&self, f: Option<Faction>) -> bool {
        if f.is_some_and(|f| self.surprised.contains(&f.0)) {
            return false;
        }
        match (self.initiative, f) {
            (Some(now), Some(f)) => f.0 == now,
            (Some(_), None) => false,
            (None, Some(f)) => !self.fighting(f),
            (None, None) => true,
        }
    }
}

/// Is the creature's faction in a battle (RULINGS › Faction initiative)? Work that takes a turn
/// is not begun in one (RULINGS › Time: an encounter interrupts it).
pub fn in_battle(world: &World, who: Entity) -> bool {
    match (
        world.get::<Faction>(who),
        world.get_resource::<ActingOrder>(),
    ) {
        (Some(f), Some(a)) => a.fighting(*f),
        _ => false,
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
