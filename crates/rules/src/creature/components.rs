//! Components that carry the rules' own names and hold what the level file gives them.

use delve_ground::level::CreatureDef;

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::level::schema::{Gear, Proficiency, RawArmor, RawShield, SaveCategory, Size};
use delve_ground::level::{AbilityScores, SpeedBasis, WeaponDef};

/// Everything spawned from a level; despawned when another level replaces it.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct LevelEntity;

/// A creature: an adventurer or a monster.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Creature;

/// The last round in which the creature exerted itself by a command it gave (opening, searching,
/// fighting, …); keeping watch, talking and listening are rest (RULINGS › Rest).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exerted {
    pub round: u64,
}

/// The square an entity stands on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position(pub GridPos);

/// Index into the level's [`Factions`](super::Factions).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Faction(pub usize);

#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct ClassLevel {
    pub class: Option<String>,
    pub level: u32,
}

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abilities(pub AbilityScores);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitPoints {
    pub current: i32,
    pub max: i32,
}

/// Ascending armour class (RULINGS › Armor class and attacks).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmorClass(pub i32);

/// What a creature's speeds come from: encumbrance in stone, or an explicit speed
/// (RULINGS › Encumbrance and speed).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Encumbrance(pub SpeedBasis);

/// A creature's proficiencies and its class throw values (target numbers) for them.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Proficiencies {
    pub list: Vec<Proficiency>,
    pub throws: BTreeMap<Proficiency, i32>,
}

impl Proficiencies {
    pub fn new(list: &[Proficiency], throws: &BTreeMap<Proficiency, i32>) -> Self {
        Self {
            list: list.to_vec(),
            throws: throws.clone(),
        }
    }

    pub fn has(&self, p: Proficiency) -> bool {
        self.list.contains(&p)
    }
}

/// Saving throw targets by category.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct SavingThrows(pub BTreeMap<SaveCategory, i32>);

/// Gear the rules read (poles, crowbars, thieves' tools, keys, …).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Equipment(pub Vec<Gear>);

impl Equipment {
    pub fn has(&self, g: &Gear) -> bool {
        self.0.contains(g)
    }

    /// The longest rope carried, in feet.
    pub fn longest_rope(&self) -> Option<u32> {
        self.0
            .iter()
            .filter_map(|g| match g {
                Gear::Rope(feet) => Some(*feet),
                _ => None,
            })
            .max()
    }

    /// Whether it carries a rope of at least `feet`.
    pub fn has_rope(&self, feet: u32) -> bool {
        self.longest_rope().is_some_and(|l| l >= feet)
    }

    /// Takes out the shortest rope of at least `feet` (it is spent: secured, hung or rigged),
    /// and answers its length.
    pub fn take_rope(&mut self, feet: u32) -> Option<u32> {
        let (i, length) = self
            .0
            .iter()
            .enumerate()
            .filter_map(|(i, g)| match g {
                Gear::Rope(l) if *l >= feet => Some((i, *l)),
                _ => None,
            })
            .min_by_key(|(i, l)| (*l, *i))?;
        self.0.remove(i);
        Some(length)
    }

    /// Takes out one of `g`; whether there was one.
    pub fn take(&mut self, g: &Gear) -> bool {
        let Some(i) = self.0.iter().position(|x| x == g) else {
            return false;
        };
        self.0.remove(i);
        true
    }
}

/// A swimming speed in feet (the stat block's `swim_feet`): it makes no Swimming throws, and
/// deep water costs it its speed over this (Dungeon Delves › Swimming).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwimmingSpeed(pub u32);

/// Man-sized or not, for dungeonbashing.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodySize(pub Size);

/// Lightless vision range and shadowy senses (Dungeon Delves › Light and Darkness).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vision {
    pub lightless_vision_feet: u32,
    pub shadowy_senses: bool,
}

/// What a creature fights with.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Combatant {
    pub attack_bonus: i32,
    pub initiative_modifier: Option<i32>,
    pub weapons: Vec<WeaponDef>,
    pub armor: Option<RawArmor>,
    /// A gambeson layered beneath `armor` (Tactical Combat › Armor as Damage Reduction).
    pub beneath: Option<RawArmor>,
    pub shield: Option<RawShield>,
    pub fortitude: Option<i32>,
    pub touch_ac: Option<i32>,
    pub mythic: bool,
    pub flees_when_bloodied: bool,
}

impl Combatant {
    /// The fighting numbers of a creature as the level gives them.
    pub fn of(c: &CreatureDef) -> Self {
        Combatant {
            attack_bonus: c.attack_bonus,
            initiative_modifier: c.initiative_modifier,
            weapons: c.weapons.clone(),
            armor: c.armor.clone(),
            beneath: c.beneath.clone(),
            shield: c.shield.clone(),
            fortitude: c.fortitude,
            touch_ac: c.touch_ac,
            mythic: c.mythic,
            flees_when_bloodied: c.flees_when_bloodied,
        }
    }

    /// The armor it wears: its armor, and a gambeson beneath it.
    pub fn worn(&self) -> Vec<&RawArmor> {
        self.armor.iter().chain(self.beneath.iter()).collect()
    }
}

/// A creature resting (Dungeon Delves › Rest and Recuperation; `rules::rest`), and for how
/// many rounds so far: a command that moves it on ends the rest.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resting {
    pub rounds: u64,
}

/// At the bottom of a pit or chasm at its square, this deep (`rules::caving`, `rules::traps`):
/// it leaves only by climbing (or a leap, if the hole is shallow enough).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Below {
    pub depth_feet: u32,
}
