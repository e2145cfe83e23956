//! Level files (LEVEL_FORMAT.md): the RON schema, loading, validation and diagnostics.
//!
//! [`schema::RawLevel`] mirrors the file; [`load_level_str`] validates it once into a [`Level`],
//! the types the simulation uses, or returns every problem found with its file, line and column.

pub mod bestiary;
pub mod diagnostic;
pub mod generate;
pub mod schema;
pub mod spans;
mod validate;

use crate::level::schema::{Critical, Modules, WeaponKind};

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

pub use diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, Severity, SourcePos};

use crate::dice::DiceExpr;
use crate::grid::{DoorState, DungeonGrid, GridPos};
use crate::level::schema::{
    ConditionKind, DamageType, DoorMaterial, Environment, Gear, JudgeModifier, JudgeModifiers,
    LightKind, Lock, Proficiency, RawArmor, RawShield, SaveCategory, Size, TrapKind,
};
pub use validate::{
    MAX_ATTACK_BONUS, MAX_CRITICAL_MULTIPLIER, MAX_DEPTH_FEET, MAX_MAP_SIDE, MAX_NUMBER,
    MAX_REACH_FEET, MAX_SCALE_FEET, load_level_file, load_level_str, numbers_out_of_bounds_within,
    ron_options,
};

/// The default level, embedded so the binary works from any directory.
/// The most dice a fall deals (RULINGS › Pits and holes: 1d6 per 10', at most 20d6).
pub const MAX_FALL_DICE: u32 = 20;

/// A fall's damage: 1d6 per 10' fallen (Dungeon Delves › Climbing, › Traps), at most 20d6. A
/// pit's damage is this for its depth, read as the level loads; the rules' falls use it too.
pub fn falling_damage(feet: u32) -> crate::dice::DiceExpr {
    crate::dice::DiceExpr::new((feet / 10).min(MAX_FALL_DICE), 6, 0)
}

pub const DEFAULT_LEVEL: &str = include_str!("../../../../levels/crypt.ron");
/// The name the embedded default level is reported under.
pub const DEFAULT_LEVEL_NAME: &str = "levels/crypt.ron";

/// A validated level, ready to be spawned into a simulation.
#[derive(Clone, Debug)]
pub struct Level {
    pub name: String,
    pub description: String,
    /// The file it came from, as given (for messages).
    pub source: String,
    pub environment: Environment,
    /// Rectangles with their own environment; a later one wins where they overlap.
    pub environment_regions: Vec<(GridPos, GridPos, Environment)>,
    pub grid: DungeonGrid,
    pub doors: Vec<DoorDef>,
    pub traps: Vec<TrapDef>,
    pub lights: Vec<LightDef>,
    /// Areas of magical darkness: centre and radius in feet.
    pub magical_darkness: Vec<(GridPos, u32)>,
    /// Areas of magical silence (shadowy senses fail there): centre and radius in feet.
    pub magical_silence: Vec<(GridPos, u32)>,
    pub factions: Vec<FactionDef>,
    pub creatures: Vec<CreatureDef>,
    /// The optional rule modules it runs with.
    pub modules: Modules,
    /// The Judge's calls for the level and its regions.
    pub judge: JudgeCalls,
    /// Deep water's depth in feet: the level's, and rectangles of their own (a later one wins).
    pub deep_water: WaterDepths,
    /// The sides of chasm squares and pits the level describes (others are sheer, no anchor).
    pub climbs: Climbs,
    /// How far a lair in a room without doors reaches from its dweller's start, in feet.
    pub lair_radius_feet: u32,
    /// What an autonomous party comes for.
    pub goal: Goal,
    /// An image of the map drawn under the grid in the window: a battlemap from the tool the
    /// map was drawn in.
    pub battlemap: Option<Battlemap>,
}

/// A battlemap under the grid: its image (a path relative to the level file) spanning `width` ×
/// `height` squares from the map's top-left corner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battlemap {
    pub image: String,
    pub width: u32,
    pub height: u32,
}

/// What an autonomous party comes for (LEVEL_FORMAT.md › Goal).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Goal {
    /// See every square it can reach.
    #[default]
    ExploreAll,
    /// Stand on this square.
    Reach(GridPos),
    /// Stand in the room that holds this square: the floor reached from it without passing a
    /// wall or a door.
    Room(GridPos),
    /// Find the way out at this square, and leave by it.
    Exit(GridPos),
    /// Come away with this gear.
    Recover(schema::Gear),
}

/// The sides of a chasm square or pit: their surface, and the AC (delve scale) of an anchor a
/// grappling hook can catch above them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClimbDef {
    pub surface: schema::Surface,
    pub anchor_ac: Option<i32>,
}

/// The climbs a level describes, by square.
#[derive(Clone, Debug, Default, PartialEq, Eq, bevy::prelude::Resource)]
pub struct Climbs(pub Vec<(GridPos, ClimbDef)>);

impl Climbs {
    /// The sides at a square: as described, or sheer with no anchor.
    pub fn at(&self, p: GridPos) -> ClimbDef {
        self.0.iter().find(|(q, _)| *q == p).map_or(
            ClimbDef {
                surface: schema::Surface::Sheer,
                anchor_ac: None,
            },
            |c| c.1,
        )
    }
}

/// How deep the deep water is (Dungeon Delves › Drowning: how far a drowning creature sinks).
#[derive(Clone, Debug, PartialEq, Eq, bevy::prelude::Resource)]
pub struct WaterDepths {
    pub feet: u32,
    pub regions: Vec<(GridPos, GridPos, u32)>,
}

impl Default for WaterDepths {
    fn default() -> Self {
        Self {
            feet: schema::DEFAULT_DEEP_WATER_FEET,
            regions: Vec::new(),
        }
    }
}

impl WaterDepths {
    /// The depth of deep water at a square.
    pub fn at(&self, p: GridPos) -> u32 {
        self.regions
            .iter()
            .rev()
            .find(|(a, b, _)| {
                (a.x.min(b.x)..=a.x.max(b.x)).contains(&p.x)
                    && (a.y.min(b.y)..=a.y.max(b.y)).contains(&p.y)
            })
            .map_or(self.feet, |r| r.2)
    }
}

/// The Judge's calls for a level: modifiers for the whole level and for rectangles of it (a
/// later rectangle wins where they overlap), and the switches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JudgeCalls {
    pub modifiers: JudgeModifiers,
    pub regions: Vec<(GridPos, GridPos, JudgeModifiers)>,
    pub unexpected_lights: bool,
    /// The mapper's map may hold errors (the Judge's setting).
    pub mapping_errors: bool,
    /// No action of the round while running (the Judge's call).
    pub no_actions_while_running: bool,
}

fn in_rect(a: GridPos, b: GridPos, p: GridPos) -> bool {
    (a.x.min(b.x)..=a.x.max(b.x)).contains(&p.x) && (a.y.min(b.y)..=a.y.max(b.y)).contains(&p.y)
}

/// The Judge's calls as the rules read them (RULINGS, first section: the most particular setting
/// wins).
impl JudgeCalls {
    /// The value at a square (if the throw concerns one) for things with these settings: the
    /// first of them that sets it, else the last region holding the square that sets it, else
    /// the level's, else the default.
    pub fn value(
        &self,
        m: JudgeModifier,
        at: Option<GridPos>,
        particular: &[&JudgeModifiers],
    ) -> i32 {
        particular
            .iter()
            .find_map(|s| s.get(&m).copied())
            .or_else(|| {
                let at = at?;
                self.regions
                    .iter()
                    .rev()
                    .filter(|(a, b, _)| in_rect(*a, *b, at))
                    .find_map(|(.., s)| s.get(&m).copied())
            })
            .or_else(|| self.modifiers.get(&m).copied())
            .unwrap_or_else(|| m.default_value())
    }
}

/// The earshot environment at a square: the last region that holds it, or the level's.
pub fn environment_at(
    level: Environment,
    regions: &[(GridPos, GridPos, Environment)],
    p: GridPos,
) -> Environment {
    regions
        .iter()
        .rev()
        .find(|(a, b, _)| {
            (a.x.min(b.x)..=a.x.max(b.x)).contains(&p.x)
                && (a.y.min(b.y)..=a.y.max(b.y)).contains(&p.y)
        })
        .map_or(level, |r| r.2)
}

impl Level {
    pub fn door_at(&self, p: GridPos) -> Option<&DoorDef> {
        self.doors.iter().find(|d| d.at == p)
    }

    pub fn creature(&self, name: &str) -> Option<&CreatureDef> {
        self.creatures.iter().find(|c| c.name == name)
    }
}

/// A door and its square. Every `Door` square has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoorDef {
    pub at: GridPos,
    pub door: DoorSpec,
}

/// A door as the level file describes it (Dungeon Delves › Doors and Dungeonbashing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoorSpec {
    pub material: DoorMaterial,
    pub state: DoorState,
    pub lock: Lock,
    pub stuck: bool,
    pub secret: bool,
    pub evil: bool,
    pub spikes: u8,
    /// Partly hidden (a secret door): anyone may search for it hastily.
    pub hasty_for_anyone: bool,
    pub judge: JudgeModifiers,
}

impl DoorDef {
    /// A door square with no entry: a closed, unlocked, wooden door.
    pub fn plain(at: GridPos) -> Self {
        Self {
            at,
            door: DoorSpec {
                material: DoorMaterial::Wooden,
                state: DoorState::Closed,
                lock: Lock::Unlocked,
                stuck: false,
                secret: false,
                evil: false,
                spikes: 0,
                hasty_for_anyone: false,
                judge: JudgeModifiers::new(),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TrapTriggerDef {
    Step,
    OpenDoor(GridPos),
    Touch,
}

/// A trap and its square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrapDef {
    pub at: GridPos,
    pub trap: TrapSpec,
}

/// A trap as the level file describes it (Dungeon Delves › Traps and Trapbreaking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrapSpec {
    pub kind: TrapKind,
    pub damage: DiceExpr,
    pub trigger: TrapTriggerDef,
    pub hidden: bool,
    pub search_modifier: i32,
    /// Partly hidden: anyone may search for it hastily.
    pub hasty_for_anyone: bool,
    pub judge: JudgeModifiers,
}

/// A light source placed in the level (carried ones are on their creature).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightDef {
    pub at: GridPos,
    pub kind: LightKind,
    pub lit: bool,
    /// Turns of fuel left; `None` burns until doused.
    pub fuel_turns: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactionDef {
    pub name: String,
    /// Indices into [`Level::factions`].
    pub hostile_to: Vec<usize>,
    pub color: [u8; 3],
    /// For a party: its members in marching order, as indices into [`Level::creatures`].
    pub marching_order: Vec<usize>,
    /// For a party: its mapper, an index into [`Level::creatures`].
    pub mapper: Option<usize>,
}

/// The six ability scores, 3–18.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AbilityScores {
    pub str: i32,
    pub int: i32,
    pub wis: i32,
    pub dex: i32,
    pub con: i32,
    pub cha: i32,
}

/// Where a creature's speeds come from (RULINGS › Encumbrance and speed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum SpeedBasis {
    /// Encumbrance in stone, read against the speed table.
    Encumbrance { stone: f32 },
    /// An explicit exploration and running speed in feet; combat speed is a third of it.
    Explicit { feet: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WeaponDef {
    pub name: String,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    pub range_feet: Option<u32>,
    pub critical: Critical,
    pub kind: Option<WeaponKind>,
    /// An enchantment to activate: its name and extra damage on a hit.
    pub enchantment: Option<(String, DiceExpr)>,
    /// Structural damage on a hit against wood and (if any) stone structures.
    pub structural: Option<StructuralDamage>,
}

/// The structural hit points a weapon deals on a hit (Dungeon Delves › Doors: doors are
/// "harmed as" wood or stone structures).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StructuralDamage {
    pub wood: DiceExpr,
    pub stone: Option<DiceExpr>,
}

impl StructuralDamage {
    /// The dice against a structure of this kind, if the weapon can harm it.
    pub fn against(&self, structure: schema::Structure) -> Option<&DiceExpr> {
        match structure {
            schema::Structure::Wood => Some(&self.wood),
            schema::Structure::Stone => self.stone.as_ref(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CarriedLightDef {
    pub kind: LightKind,
    pub lit: bool,
    pub fuel_turns: Option<u32>,
}

/// A creature with its template applied and every field checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CreatureDef {
    pub name: String,
    pub template: Option<String>,
    /// Index into [`Level::factions`].
    pub faction: usize,
    pub at: GridPos,
    pub level: u32,
    pub class: Option<String>,
    pub abilities: AbilityScores,
    pub hp: i32,
    pub ac: i32,
    pub speed: SpeedBasis,
    pub proficiencies: Vec<Proficiency>,
    pub throws: BTreeMap<Proficiency, i32>,
    pub saves: BTreeMap<SaveCategory, i32>,
    pub carries: Vec<CarriedLightDef>,
    pub gear: Vec<Gear>,
    pub lightless_vision_feet: u32,
    pub shadowy_senses: bool,
    pub size: Size,
    pub attack_bonus: i32,
    pub initiative_modifier: Option<i32>,
    pub weapons: Vec<WeaponDef>,
    pub armor: Option<RawArmor>,
    /// A gambeson layered beneath `armor`.
    pub beneath: Option<RawArmor>,
    pub shield: Option<RawShield>,
    pub conditions: Vec<ConditionKind>,
    pub fortitude: Option<i32>,
    pub touch_ac: Option<i32>,
    pub mythic: bool,
    pub flees_when_bloodied: bool,
    pub judge: JudgeModifiers,
    pub swim_feet: Option<u32>,
    /// The squares of its patrol route, in order (empty: it keeps its place).
    pub patrol: Vec<GridPos>,
    /// How it lives in the dungeon outside a battle.
    pub mind: schema::RawMind,
}

/// A level and the warnings found while loading it.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub level: Level,
    pub warnings: Diagnostics,
}

/// A level's text as read, with the texts of the bestiary files it names: what a save keeps to
/// load the level exactly as it was, whatever becomes of the files.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LevelText {
    /// The level file, as given (for messages and to compare with the file now).
    pub file: String,
    pub text: String,
    /// Each bestiary file the level names, as it names it, with its text.
    #[serde(default)]
    pub included: Vec<(String, String)>,
}

impl LevelText {
    /// Reads a level file and the bestiary files it names (those it cannot read are left out:
    /// loading says so, at the line that names them).
    pub fn read(path: &Path) -> Result<LevelText, Diagnostics> {
        let file = path.display().to_string();
        let text = crate::files::read_text(path).map_err(|e| {
            Diagnostics(vec![Diagnostic::error(
                DiagnosticKind::Unreadable,
                &file,
                SourcePos::START,
                format!("cannot read level file: {e}"),
            )])
        })?;
        Ok(Self::with_includes(file, text, path.parent()))
    }

    /// The embedded default level.
    pub fn default_level() -> LevelText {
        Self::with_includes(
            DEFAULT_LEVEL_NAME.to_owned(),
            DEFAULT_LEVEL.to_owned(),
            Some(Path::new("levels")),
        )
    }

    fn with_includes(file: String, text: String, dir: Option<&Path>) -> LevelText {
        let names = ron_options()
            .from_str::<schema::RawLevel>(&text)
            .map(|raw| raw.bestiary)
            .unwrap_or_default();
        let included = names
            .into_iter()
            .filter_map(|name| {
                let path = dir.map_or_else(|| Path::new(&name).to_path_buf(), |d| d.join(&name));
                crate::files::read_text(path).ok().map(|t| (name, t))
            })
            .collect();
        LevelText {
            file,
            text,
            included,
        }
    }

    /// Loads the level from these texts.
    pub fn load(&self) -> Result<Loaded, Diagnostics> {
        validate::load_level_with(
            &self.text,
            &self.file,
            validate::Includes::Given(&self.included),
        )
    }

    /// A fingerprint of the level and its bestiary files (BLAKE3, in hex): the same texts give
    /// the same fingerprint on any machine.
    pub fn fingerprint(&self) -> String {
        let mut h = blake3::Hasher::new();
        for part in std::iter::once(("", self.text.as_str()))
            .chain(self.included.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        {
            h.update(&(part.0.len() as u64).to_le_bytes());
            h.update(part.0.as_bytes());
            h.update(&(part.1.len() as u64).to_le_bytes());
            h.update(part.1.as_bytes());
        }
        h.finalize().to_hex().to_string()
    }
}

/// Loads the embedded default level.
pub fn load_default_level() -> Result<Loaded, Diagnostics> {
    load_level_str(DEFAULT_LEVEL, DEFAULT_LEVEL_NAME, Some(Path::new("levels")))
}
