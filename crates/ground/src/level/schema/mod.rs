//! The level file as written (LEVEL_FORMAT.md): serde types that mirror the RON text one to one.
//! `validate` turns a [`RawLevel`] into the [`Level`](super::Level) the simulation uses.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// A square's coordinates as written in the file: `(x, y)`, x the column, y the row, from 0.
pub type RawPos = (i64, i64);

/// The earshot column of the level (Dungeon Delves › Listening: quiet, normal, loud
/// environments).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
pub enum Environment {
    Quiet,
    #[default]
    Normal,
    Loud,
}

use crate::grid::terrain::{DoorState, Terrain};

mod creatures;
pub use creatures::{
    ArmorWeight, ConditionKind, Critical, DamageType, Gear, Proficiency, RawArmor, RawCreature,
    RawEnchantment, RawMind, RawShield, RawStructuralDamage, RawWeapon, ShieldWeight, Size, Stance,
    WeaponKind,
};

/// The legend, in file order. Kept as a list so that a character given twice is reported rather
/// than silently overwritten.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legend(pub Vec<(char, Terrain)>);

impl<'de> Deserialize<'de> for Legend {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct LegendVisitor;
        impl<'de> Visitor<'de> for LegendVisitor {
            type Value = Legend;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from characters to terrain, like { '#': Wall(Stone) }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Legend, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<char, Terrain>()? {
                    entries.push(entry);
                }
                Ok(Legend(entries))
            }
        }
        d.deserialize_map(LegendVisitor)
    }
}

/// Door materials with the AC and structural hit points of the doors table
/// (Dungeon Delves › Doors and Dungeonbashing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DoorMaterial {
    #[default]
    Wooden,
    IronBanded,
    SolidIron,
    /// The iron-banded stone door of 8' × 3' × 6¼" (3,200 lbs).
    IronBandedStone,
    /// The great iron-banded stone door of 10' × 10' × 3½' (50,000 lbs).
    GreatIronBandedStone,
    /// Plain stone: taken as the 8' × 3' iron-banded stone door.
    Stone,
    IronTrapDoor,
    LeadGlassWindow,
}

impl DoorMaterial {
    /// AC on the doors table's own 0-based scale. RULINGS › Armor class: add 10 for the
    /// ascending scale (a wooden door is AC 11).
    pub fn table_ac(self) -> i32 {
        match self {
            DoorMaterial::IronBandedStone
            | DoorMaterial::GreatIronBandedStone
            | DoorMaterial::Stone
            | DoorMaterial::SolidIron
            | DoorMaterial::IronTrapDoor => 6,
            DoorMaterial::IronBanded => 3,
            DoorMaterial::Wooden => 1,
            DoorMaterial::LeadGlassWindow => 0,
        }
    }

    /// Ascending AC (RULINGS › Armor class and attacks).
    pub fn ac(self) -> i32 {
        self.table_ac() + 10
    }

    /// Structural hit points from the doors table; `None` for the lead glass window ("–").
    /// A plain `Stone` door is taken as the small iron-banded stone door (8' × 3' × 6.25").
    pub fn structural_hp(self) -> Option<u32> {
        match self {
            DoorMaterial::GreatIronBandedStone => Some(25),
            DoorMaterial::IronBandedStone | DoorMaterial::Stone => Some(2),
            DoorMaterial::SolidIron
            | DoorMaterial::IronTrapDoor
            | DoorMaterial::IronBanded
            | DoorMaterial::Wooden => Some(1),
            DoorMaterial::LeadGlassWindow => None,
        }
    }

    /// What the doors table's notes harm it as: stone and metal doors as stone structures,
    /// wooden ones (and glass) as wood structures.
    pub fn harmed_as(self) -> Structure {
        match self {
            DoorMaterial::Wooden | DoorMaterial::IronBanded | DoorMaterial::LeadGlassWindow => {
                Structure::Wood
            }
            _ => Structure::Stone,
        }
    }
}

/// The two kinds of structure the doors table harms doors as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    Wood,
    Stone,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lock {
    #[default]
    Unlocked,
    Locked {
        #[serde(default)]
        key: Option<String>,
    },
    /// A lock with a broken pick in it: it cannot be picked any more.
    Jammed,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDoor {
    pub at: RawPos,
    #[serde(default)]
    pub material: DoorMaterial,
    #[serde(default)]
    pub state: DoorState,
    #[serde(default)]
    pub lock: Lock,
    #[serde(default)]
    pub stuck: bool,
    #[serde(default)]
    pub secret: bool,
    #[serde(default)]
    pub evil: bool,
    #[serde(default)]
    pub spikes: u8,
    /// A secret door only partly hidden: anyone may search for it hastily (Dungeon Delves ›
    /// Searching: features that "permit a hasty throw even for non-thieves").
    #[serde(default)]
    pub hasty_for_anyone: bool,
    /// The Judge's modifiers for this door: `{ LockComplexity: -2, UnusualDoor: -4 }`.
    #[serde(default)]
    pub judge: JudgeModifiers,
}

/// The saving throw categories of a stat block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SaveCategory {
    Paralysis,
    Death,
    Blast,
    Implements,
    Spells,
}

/// What a successful save against a trap does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SaveEffect {
    #[default]
    Negates,
    Half,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapSave {
    pub throw: SaveCategory,
    #[serde(default)]
    pub on_success: SaveEffect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrapKind {
    /// Dungeon Delves › Traps: 1d6 bludgeoning per 10' fallen.
    Pit { depth_feet: u32 },
    Custom {
        name: String,
        damage: String,
        #[serde(default)]
        save: Option<TrapSave>,
        /// A trap that "might only damage the adventurers on a successful attack throw"
        /// (Dungeon Delves › Traps): its attack against the victim's armor class.
        #[serde(default)]
        attack: Option<TrapAttack>,
    },
}

/// A trap's attack throw: d20 + `bonus` against the victim's armor class; its damage is the
/// trap's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapAttack {
    pub bonus: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrapTrigger {
    /// Entering the trap's square.
    #[default]
    Step,
    /// Opening the door at `at`.
    OpenDoor {
        at: RawPos,
    },
    Touch,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTrap {
    pub at: RawPos,
    pub kind: TrapKind,
    #[serde(default)]
    pub trigger: TrapTrigger,
    /// Found only by searching. Traps are hidden unless the file says otherwise.
    #[serde(default = "yes")]
    pub hidden: bool,
    #[serde(default)]
    pub search_modifier: i32,
    /// Only partly hidden: anyone may search for it hastily (Dungeon Delves › Searching).
    #[serde(default)]
    pub hasty_for_anyone: bool,
    /// The Judge's modifiers for this trap: `{ TrapComplexity: -2, Concealment: -4 }`.
    #[serde(default)]
    pub judge: JudgeModifiers,
}

/// Light sources (Dungeon Delves › Light and Darkness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LightKind {
    Candle,
    Torch,
    Lantern,
    Custom {
        bright_feet: u32,
        dim_feet: u32,
    },
    /// Magical light (a light spell, a glowing sword): distracts at 13.
    Magical {
        bright_feet: u32,
        dim_feet: u32,
    },
    /// Sunlight reflected by a mirror: distracts at 15.
    Sunlight {
        bright_feet: u32,
        dim_feet: u32,
    },
}

impl LightKind {
    /// The radii a level gives a custom, magical or sunlit source.
    fn given_radii(self) -> Option<(u32, u32)> {
        match self {
            LightKind::Custom {
                bright_feet,
                dim_feet,
            }
            | LightKind::Magical {
                bright_feet,
                dim_feet,
            }
            | LightKind::Sunlight {
                bright_feet,
                dim_feet,
            } => Some((bright_feet, dim_feet)),
            LightKind::Candle | LightKind::Torch | LightKind::Lantern => None,
        }
    }

    /// Bright radius in feet: candles 5', torches and lanterns 15', others as given.
    pub fn bright_feet(self) -> u32 {
        match self {
            LightKind::Candle => 5,
            LightKind::Torch | LightKind::Lantern => 15,
            k => k.given_radii().map_or(0, |r| r.0),
        }
    }

    /// Dim light reaches this far in total: candles 10', torches and lanterns 30', others as
    /// given.
    pub fn dim_feet(self) -> u32 {
        match self {
            LightKind::Candle => 10,
            LightKind::Torch | LightKind::Lantern => 30,
            k => k.given_radii().map_or(0, |r| r.1),
        }
    }

    /// The radii given, if the level gives them (custom, magical, sunlight).
    pub fn radii(self) -> Option<(u32, u32)> {
        self.given_radii()
    }

    /// Default fuel: torches 6 turns, a lantern 24 turns per flask of oil. The rules give no
    /// burning time for candles or custom sources: they burn until doused unless the file gives
    /// `fuel_turns`.
    pub fn default_fuel_turns(self) -> Option<u32> {
        match self {
            LightKind::Torch => Some(6),
            LightKind::Lantern => Some(24),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLight {
    pub at: RawPos,
    pub kind: LightKind,
    #[serde(default = "yes")]
    pub lit: bool,
    #[serde(default)]
    pub fuel_turns: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCarriedLight {
    pub kind: LightKind,
    #[serde(default)]
    pub lit: bool,
    #[serde(default)]
    pub fuel_turns: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFaction {
    pub name: String,
    #[serde(default)]
    pub hostile_to: Vec<String>,
    /// Token colour, `"#rrggbb"`. Factions without one get a colour from a fixed palette.
    #[serde(default)]
    pub color: Option<String>,
    /// A faction with a marching order is a party: its members walk in this order.
    #[serde(default)]
    pub marching_order: Vec<String>,
    /// The party's mapper.
    #[serde(default)]
    pub mapper: Option<String>,
}

fn default_scale() -> u32 {
    5
}

/// A rectangle of the map (corners included) with its own earshot environment: a roaring
/// waterfall's cave, a silent tomb.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRegion {
    pub from: RawPos,
    pub to: RawPos,
    pub environment: Environment,
}

/// An area of magical darkness (or of magical silence): every square within `radius_feet` of
/// `at`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDarkness {
    pub at: RawPos,
    pub radius_feet: u32,
}

/// The optional rule modules a delve runs with: both on unless the level file (`modules:
/// (combat: false)`) or the command line (`--without combat`) switches one off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Modules {
    /// Tactical Combat: battles, initiative, attacks (and their commands).
    pub combat: bool,
    /// Situational Penalties: prone, movement, poor vision and the rest on throws.
    pub situational_penalties: bool,
}

impl Default for Modules {
    fn default() -> Self {
        Self {
            combat: true,
            situational_penalties: true,
        }
    }
}

/// A level file as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_scale")]
    pub scale_feet: u32,
    #[serde(default)]
    pub environment: Environment,
    /// Bestiary files, relative to the level file, searched before the built-in bestiary.
    #[serde(default)]
    pub bestiary: Vec<String>,
    pub legend: Legend,
    pub map: Vec<String>,
    #[serde(default)]
    pub doors: Vec<RawDoor>,
    #[serde(default)]
    pub traps: Vec<RawTrap>,
    #[serde(default)]
    pub lights: Vec<RawLight>,
    #[serde(default)]
    pub magical_darkness: Vec<RawDarkness>,
    /// Areas of magical silence, where shadowy senses fail (as `magical_darkness`).
    #[serde(default)]
    pub magical_silence: Vec<RawDarkness>,
    #[serde(default)]
    pub environment_regions: Vec<RawRegion>,
    #[serde(default)]
    pub factions: Vec<RawFaction>,
    #[serde(default)]
    pub creatures: Vec<RawCreature>,
    /// The optional rule modules, all on when left out.
    #[serde(default)]
    pub modules: Modules,
    /// The Judge's calls for the whole level: modifiers and switches.
    #[serde(default)]
    pub judge: RawJudge,
    /// Rectangles with Judge modifiers of their own (fog, rough water, …); a later one wins.
    #[serde(default)]
    pub judge_regions: Vec<RawJudgeRegion>,
    /// How deep water over the head is, in feet: how far a drowning creature can sink.
    #[serde(default = "default_deep_water_feet")]
    pub deep_water_feet: u32,
    /// How far a lair reaches from where its dweller starts, in feet, when the room it starts in
    /// has no doors (a cave): the lair is the room's squares within this distance.
    #[serde(default = "default_lair_radius_feet")]
    pub lair_radius_feet: u32,
    /// Rectangles whose deep water has a depth of its own; a later one wins.
    #[serde(default)]
    pub deep_water_regions: Vec<RawDepthRegion>,
    /// The sides of chasm squares and pits: their surface and the anchor a grappling hook can
    /// catch above them.
    #[serde(default)]
    pub climbs: Vec<RawClimb>,
    /// What an autonomous party comes for (`delve sim --auto`); exploring it all when left out.
    #[serde(default)]
    pub goal: RawGoal,
    /// An image shown under the grid in the window (`delve import` keeps a map's battlemap
    /// beside the level and names it here).
    #[serde(default)]
    pub battlemap: Option<RawBattlemap>,
}

/// A battlemap: the image (a path relative to the level file) and how many squares it spans
/// from the map's top-left corner (the whole map when left out).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBattlemap {
    pub image: String,
    #[serde(default)]
    pub width: Option<u32>,
    #[serde(default)]
    pub height: Option<u32>,
}

/// What an autonomous party comes for (LEVEL_FORMAT.md › Goal): it pursues it, then leaves by
/// the way in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum RawGoal {
    /// See every square it can reach.
    #[default]
    ExploreAll,
    /// Stand on this square.
    Reach(RawPos),
    /// Stand in the room (the floor enclosed by walls and doors) that holds this square.
    Room(RawPos),
    /// Find the way out at this square, and leave by it.
    Exit(RawPos),
    /// Come away with this gear (a `Key("name")` that a creature carries).
    Recover(Gear),
}

/// A climb's surface (Dungeon Delves › Climbing; written in levels as `Easy` or `Sheer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Surface {
    Easy,
    Sheer,
}

/// The sides of the chasm square or pit at `at` (LEVEL_FORMAT.md › Caving features): `Easy` or
/// `Sheer` (the default), and the AC (on the delve scale, usually 1–3) of a counterweight a
/// grappling hook can catch above it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClimb {
    pub at: RawPos,
    #[serde(default = "sheer")]
    pub surface: Surface,
    #[serde(default)]
    pub anchor_ac: Option<i32>,
}

fn sheer() -> Surface {
    Surface::Sheer
}

/// Deep water's depth where a level does not say: 20'.
pub const DEFAULT_DEEP_WATER_FEET: u32 = 20;

fn default_deep_water_feet() -> u32 {
    DEFAULT_DEEP_WATER_FEET
}

/// A lair's reach in a room without doors where a level does not say: 60'.
pub const DEFAULT_LAIR_RADIUS_FEET: u32 = 60;

fn default_lair_radius_feet() -> u32 {
    DEFAULT_LAIR_RADIUS_FEET
}

/// A rectangle of deep water of its own depth.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDepthRegion {
    pub from: RawPos,
    pub to: RawPos,
    pub depth_feet: u32,
}

/// The numbers the rules leave to the Judge (RULINGS: "anything a rule leaves to the Judge's
/// discretion becomes a named modifier with a default"). Each is added, with its name, to the
/// throws it concerns.
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
pub enum JudgeModifier {
    /// Searching throws, for the searcher's tools (Dungeon Delves › Searching).
    SearchTools,
    /// Searching throws, for how well a feature is hidden: a bonus for a partially hidden one,
    /// a penalty for an obscure one (Dungeon Delves › Searching).
    Concealment,
    /// Lockpicking throws, for the lock's complexity (Dungeon Delves › Doors).
    LockComplexity,
    /// Trapbreaking throws, for the trap's complexity (Dungeon Delves › Traps).
    TrapComplexity,
    /// Dungeonbashing throws, for doors of unusual material or size (Dungeon Delves › Doors).
    UnusualDoor,
    /// Checks that need sight of a target on the square: fog, crowds and the like
    /// (Situational Penalties › Poor Vision).
    FogAndCrowds,
    /// Checks made in water that is cold, rough or fast, −2 or −4 (Situational Penalties ›
    /// Water).
    RoughWater,
    /// Attack throws against a vulnerable creature: +2 unless the Judge says otherwise
    /// (RULINGS › Conditions the sources name without defining).
    Vulnerable,
    /// Climbing throws (climbing, rappelling, traversing): "weather conditions, wind, and other
    /// circumstances" — a wet surface, a wind (a penalty), a very easy slope (+5) (Dungeon
    /// Delves › Climbing, › Rappelling).
    ClimbingConditions,
    /// Checks made where the footing is muddy, −2 (Situational Penalties › Water: "Footing is
    /// muddy, or in water up to the knees −2"): all but resistance and Intelligence checks.
    MuddyFooting,
}

impl JudgeModifier {
    pub const ALL: &'static [JudgeModifier] = <JudgeModifier as strum::VariantArray>::VARIANTS;

    /// Its value where nothing sets it: 0, but +2 for attacks against the vulnerable.
    pub fn default_value(self) -> i32 {
        match self {
            JudgeModifier::Vulnerable => 2,
            _ => 0,
        }
    }

    /// Its name in a throw's breakdown.
    pub fn words(self) -> &'static str {
        match self {
            JudgeModifier::SearchTools => "search tools",
            JudgeModifier::Concealment => "concealment",
            JudgeModifier::LockComplexity => "lock complexity",
            JudgeModifier::TrapComplexity => "trap complexity",
            JudgeModifier::UnusualDoor => "unusual door",
            JudgeModifier::FogAndCrowds => "fog and crowds",
            JudgeModifier::RoughWater => "cold, rough or fast water",
            JudgeModifier::Vulnerable => "vulnerable",
            JudgeModifier::ClimbingConditions => "weather, wind or surface",
            JudgeModifier::MuddyFooting => "muddy footing",
        }
    }
}

/// Judge modifiers by name, as a level writes them: `{ FogAndCrowds: -2 }`.
pub type JudgeModifiers = BTreeMap<JudgeModifier, i32>;

/// The Judge's calls for the whole level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawJudge {
    #[serde(default)]
    pub modifiers: JudgeModifiers,
    /// A creature in the dark that sees a light it did not expect makes the light-distraction
    /// throw by itself (Situational Penalties › Distractions); off unless the Judge enables it.
    #[serde(default)]
    pub unexpected_lights: bool,
    /// The mapper's map may hold errors (Dungeon Delves › Marching and Mapping): each turn it
    /// maps, the Judge's secret 1d6 makes an error on a 1; a mapper with the Mapping proficiency
    /// then throws Mapping (secretly) to notice it. Off unless the Judge enables it.
    #[serde(default)]
    pub mapping_errors: bool,
    /// Situational Penalties › Movement: "the GM may also decide that … the character cannot
    /// perform said action while running": a creature running (its walk under way at running
    /// speed) may take no action of the round (bash, pick, disarm, search, light, …) — it halts
    /// or slows first. Off unless the Judge rules it.
    #[serde(default)]
    pub no_actions_while_running: bool,
}

/// A rectangle with Judge modifiers of its own.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawJudgeRegion {
    pub from: RawPos,
    pub to: RawPos,
    pub modifiers: JudgeModifiers,
}

/// A bestiary file: templates by name.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBestiary {
    pub templates: BTreeMap<String, RawCreature>,
}
