//! A creature as the level file writes it: its proficiencies, gear, weapons, armour and shield, conditions, mind and stance.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::{JudgeModifiers, RawCarriedLight, RawPos, SaveCategory, yes};

/// Proficiencies the rules read (Dungeon Delves, Tactical Combat). Every adventurer also has
/// Adventuring, which needs no entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Proficiency {
    Acrobatics,
    Alertness,
    CatBurglary,
    Climbing,
    CombatReflexes,
    Contortionism,
    Endurance,
    Gunsmithing,
    Hiding,
    Listening,
    Lockpicking,
    Mapping,
    Mountaineering,
    Searching,
    Sneaking,
    Swimming,
    Trapbreaking,
    UseMagicDevice,
}

/// Gear the rules read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gear {
    TenFootPole,
    Crowbar,
    ThievesTools,
    Axe,
    /// A rope of this many feet (a coil is 50'): lowered into a pit, hooked above, rigged across
    /// a chasm or paid out to belay, as far as it reaches.
    Rope(u32),
    GrapplingHook,
    MountaineeringGear,
    /// Iron spikes, by count.
    Spikes(u32),
    /// Flasks of oil, by count.
    Oil(u32),
    /// A named key, matching a door's `Locked(key: Some(..))`.
    Key(String),
}

/// Creature size, for dungeonbashing (±8 per size category from man-sized).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Size {
    Tiny,
    Small,
    #[default]
    Medium,
    Large,
    Huge,
    Gargantuan,
}

impl Size {
    /// Size categories above (positive) or below (negative) man-sized.
    pub fn categories_from_man_sized(self) -> i32 {
        self as i32 - Size::Medium as i32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageType {
    Bludgeoning,
    Piercing,
    Slashing,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeapon {
    pub name: String,
    /// Damage dice, like `"1d8"` or `"2d4+1"`.
    pub damage: String,
    pub damage_type: DamageType,
    /// Range increment in feet for missile weapons; melee weapons have none.
    #[serde(default)]
    pub range_feet: Option<u32>,
    /// Critical threat range and multiplier: `(threat: 19, multiplier: 2)` threatens on 19–20
    /// and deals ×2. Default 20, ×2.
    #[serde(default)]
    pub critical: Option<Critical>,
    /// Crossbows and firearms have their own tactical rules; other weapons leave it out.
    #[serde(default)]
    pub kind: Option<WeaponKind>,
    /// A magical enchantment that must be activated, like flaming: its extra damage on a hit.
    #[serde(default)]
    pub enchantment: Option<RawEnchantment>,
    /// Structural damage on a hit against a structure, such as a door (Dungeon Delves › Doors:
    /// "harmed as wood structure", "as stone structure"): `(wood: "1d10", stone: "1d2")`.
    /// Weapons without it cannot harm structures.
    #[serde(default)]
    pub structural_damage: Option<RawStructuralDamage>,
}

/// Structural hit points a weapon deals to wood and to stone structures; no `stone` means it
/// cannot harm stone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStructuralDamage {
    pub wood: String,
    #[serde(default)]
    pub stone: Option<String>,
}

/// A weapon enchantment activated in play (Tactical Combat › Activating Weapon Enchantments):
/// `(name: "flaming", damage: "1d6")`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnchantment {
    pub name: String,
    pub damage: String,
}

/// A weapon's critical threat range (the lowest natural roll that threatens) and multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Critical {
    pub threat: u32,
    pub multiplier: u32,
}

impl Default for Critical {
    fn default() -> Self {
        Self {
            threat: 20,
            multiplier: 2,
        }
    }
}

/// Weapons with rules of their own (Tactical Combat › Armor as DR, Shields, Firearm Misfires).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    Crossbow,
    /// A firearm misfires on a natural roll up to `misfire`; an advanced one then jams.
    Firearm {
        misfire: u32,
        advanced: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArmorWeight {
    Light,
    Medium,
    Heavy,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArmor {
    /// Its name; a "gambeson" is DR against bludgeoning only.
    pub name: String,
    pub weight: ArmorWeight,
    pub ac_bonus: i32,
    #[serde(default)]
    pub enhancement: i32,
    /// Proficient with it (Tactical Combat › Armor as Damage Reduction: "to benefit from any
    /// of these effects, you must be proficient with the armor used"); yes unless written.
    #[serde(default = "yes")]
    pub proficient: bool,
}

impl RawArmor {
    /// A gambeson (Tactical Combat › Armor as Damage Reduction).
    pub fn is_gambeson(&self) -> bool {
        self.name.eq_ignore_ascii_case("gambeson")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShieldWeight {
    Light,
    Heavy,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawShield {
    pub weight: ShieldWeight,
    pub ac_bonus: i32,
    /// Proficient with it (Tactical Combat › Shields: "in order to use any of these actions or
    /// benefits you must be proficient with the shield used"); yes unless written.
    #[serde(default = "yes")]
    pub proficient: bool,
}

/// The conditions the rules name (Dungeon Delves, Situational Penalties, Tactical Combat).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
pub enum ConditionKind {
    Blinded,
    Bloodied,
    Deafened,
    Disordered,
    Drowning,
    FlatFooted,
    Prone,
    Staggered,
    /// At 0 hit points or fewer: down and out of the fight; more damage kills.
    Dying,
    Dead,
    Stuck,
    Vulnerable,
    Winded,
}

impl ConditionKind {
    /// Every ConditionKind, in the order declared.
    pub const ALL: &'static [ConditionKind] = <ConditionKind as strum::VariantArray>::VARIANTS;
}

/// A creature as written: every field optional so that a `template` from a bestiary can supply
/// what the entry leaves out.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreature {
    pub name: Option<String>,
    pub template: Option<String>,
    pub faction: Option<String>,
    pub at: Option<RawPos>,
    pub level: Option<u32>,
    pub class: Option<String>,
    pub str: Option<i32>,
    pub int: Option<i32>,
    pub wis: Option<i32>,
    pub dex: Option<i32>,
    pub con: Option<i32>,
    pub cha: Option<i32>,
    pub hp: Option<i32>,
    pub ac: Option<i32>,
    pub encumbrance_stone: Option<f32>,
    pub speed_feet: Option<u32>,
    pub proficiencies: Option<Vec<Proficiency>>,
    /// Class throw values by proficiency (a thief's Lockpicking 14+ is `{ Lockpicking: 14 }`).
    pub throws: Option<BTreeMap<Proficiency, i32>>,
    pub saves: Option<BTreeMap<SaveCategory, i32>>,
    pub carries: Option<Vec<RawCarriedLight>>,
    pub gear: Option<Vec<Gear>>,
    pub lightless_vision_feet: Option<u32>,
    pub shadowy_senses: Option<bool>,
    pub size: Option<Size>,
    pub attack_bonus: Option<i32>,
    pub initiative_modifier: Option<i32>,
    pub weapons: Option<Vec<RawWeapon>>,
    pub armor: Option<RawArmor>,
    /// A gambeson layered beneath `armor` (Tactical Combat › Armor as Damage Reduction: "It can
    /// be worn alone as light armor or layered under other armor … both DR types apply").
    pub beneath: Option<RawArmor>,
    pub shield: Option<RawShield>,
    pub conditions: Option<Vec<ConditionKind>>,
    /// Fortitude save bonus for the tactical rules' saves (massive trauma and damage); the
    /// tactical Constitution modifier when left out.
    pub fortitude: Option<i32>,
    /// Touch AC (firearms); AC less armor and shield bonuses when left out.
    pub touch_ac: Option<i32>,
    /// Mythic creatures are immune to massive trauma and massive damage.
    pub mythic: Option<bool>,
    /// Flees once bloodied, in the simulator's monster behaviour.
    pub flees_when_bloodied: Option<bool>,
    /// The Judge's modifiers for this creature: `{ SearchTools: 2 }`.
    pub judge: Option<JudgeModifiers>,
    /// A swimming speed in feet: it swims without Swimming throws (Dungeon Delves › Swimming).
    pub swim_feet: Option<u32>,
    /// A route it walks round and round at exploration speed while nothing draws it away:
    /// `patrol: [(3, 4), (12, 4), (12, 9)]`.
    pub patrol: Option<Vec<RawPos>>,
    /// How it lives in the dungeon outside a battle: `mind: (stance: Guard, shouts: true)`.
    pub mind: Option<RawMind>,
}

/// A monster's mind (the simulator's monster policies): where it keeps, whether it calls its
/// faction when it sees intruders, and whether it follows them out of sight. Every field may
/// be left out: `mind: (stance: Lair)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawMind {
    pub stance: Stance,
    /// Shouts when it sees a hostile creature (a loud noise its faction answers).
    pub shouts: bool,
    /// Goes to where it last saw a hostile creature that slipped out of sight (default true).
    pub pursues: Option<bool>,
    /// Answers its faction's shouts by coming to the one who shouted (default true, but for
    /// guards and lair-dwellers, who keep their place).
    pub answers_calls: Option<bool>,
}

/// Where a monster keeps when nothing draws it away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stance {
    /// Stays where it is until a noise or a light draws it; walks its `patrol` route if it has
    /// one.
    #[default]
    Roam,
    /// Keeps its post (its starting square): it does not leave it to look at noises or lights,
    /// fights whoever comes, and walks back to it afterwards.
    Guard,
    /// Wanders about within this many feet of where it started, at exploration speed.
    Wander(u32),
    /// Keeps to its lair (the room it starts in): it looks at noises and lights only inside,
    /// and goes back to where it started when nothing is there.
    Lair,
}
