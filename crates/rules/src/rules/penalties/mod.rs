//! Situational penalties to checks (situational-penalties.md; module `SituationalPenalties`, on
//! by default): being prone, moving, and standing in water. Each penalty is a named modifier in
//! the throw's breakdown. Without the plugin no situational penalty applies.
//!
//! Units (RULINGS › Units in the situational penalties): "movement speed" is the creature's
//! combat speed; "reach (5 meters)" is 15 feet.

pub mod events;
use crate::act::{AnyAct, Choice, Concern};
use crate::creature::{ActingOrder, Creature, Factions, SwimmingSpeed};
use crate::rules::areas::{Rank, RuleArea};
use crate::rules::calls::{Judge, JudgeSettings};
use crate::rules::modules::RuleModule;
use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::Skill;
use crate::schedule::{RoundSet, SimRound};
use delve_ground::level::JudgeCalls;
use delve_ground::level::schema::{JudgeModifier, JudgeModifiers};
use delve_ground::time::Clock;

pub use events::PenaltyEvent;

use bevy::prelude::*;

use crate::act::{Act, Activity, Reason, Refusal, creature, square_of};
use crate::rules::throws::ThrowKind;
use delve_ground::query_cache::read_query;

use crate::creature::{Conditions, Encumbrance, Faction, Position};
use crate::rules::light::LightLevel;
use crate::rules::movement::{MovedThisRound, Pace, Speeds};
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain, WaterDepth};
use delve_ground::level::schema::{ConditionKind, LightKind};

/// Reach: 5 meters, taken as 15 feet.
pub const REACH_FEET: f32 = 15.0;

pub use crate::rules::throws::CheckKind;

/// Where the creature stands and what it has done this round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Situation {
    pub prone: bool,
    /// Feet moved this round.
    pub moved_feet: f32,
    /// Combat speed in feet per round ("movement speed").
    pub movement_speed: f32,
    /// The depth of water the creature stands in, if any.
    pub water: Option<WaterDepth>,
    /// In water over its head, swimming at the surface (RULINGS › Water): the chest's −6, not
    /// the −8 of the fully submerged (sinking or drowning).
    pub afloat: bool,
}

/// The situational modifiers for a check, or why the action cannot be attempted at all.
pub(crate) fn situational_modifiers(
    kind: CheckKind,
    s: &Situation,
) -> Result<Vec<Modifier>, PenaltyRefusal> {
    let mut mods = Vec::new();
    let exempt = matches!(kind, CheckKind::Resistance | CheckKind::Intelligence);
    // Penalty from Being Prone: −4 on all checks but resistance and intelligence checks.
    if s.prone && !exempt {
        mods.push(Modifier::new(-4, "prone"));
    }
    // Penalty from Movement, by distance moved against movement speed.
    let moved = s.moved_feet;
    let speed = s.movement_speed.max(0.0);
    let times = |n: f32| moved <= n * speed;
    let movement = match kind {
        CheckKind::Resistance | CheckKind::Intelligence => None,
        CheckKind::Action => match () {
            _ if times(1.0) => None,
            _ if times(2.0) => Some(-4),
            _ => Some(-8),
        },
        // After moving at all: −4; after running up to twice movement speed: −8; farther: none.
        CheckKind::RangedAttack => match () {
            _ if moved <= 0.0 => None,
            _ if times(1.0) => Some(-4),
            _ if times(2.0) => Some(-8),
            _ => {
                return Err(PenaltyRefusal::NoRangedAttack { moved, speed });
            }
        },
        // Farther than reach: −4 up to movement speed, −8 up to twice it, no spell beyond.
        CheckKind::Spellcasting => match () {
            _ if moved <= REACH_FEET => None,
            _ if times(1.0) => Some(-4),
            _ if times(2.0) => Some(-8),
            _ => {
                return Err(PenaltyRefusal::NoSpell { moved, speed });
            }
        },
        // Farther than reach: −4; running up to twice movement speed: −8; beyond, it ends.
        CheckKind::SpellMaintenance => match () {
            _ if moved <= REACH_FEET => None,
            _ if times(1.0) => Some(-4),
            _ if times(2.0) => Some(-8),
            _ => {
                return Err(PenaltyRefusal::SpellEnds { moved });
            }
        },
    };
    if let Some(v) = movement {
        mods.push(Modifier::new(
            v,
            format!("moved {moved}' this round (movement speed {speed}')"),
        ));
    }
    // Penalties from Being in Water: all checks but resistance and intelligence checks.
    if let Some(depth) = s.water.filter(|_| !exempt) {
        let (v, what) = match depth {
            WaterDepth::Knee => (-2, "in water up to the knees"),
            WaterDepth::Waist => (-4, "in water up to the waist"),
            WaterDepth::Chest => (-6, "in water up to the chest"),
            WaterDepth::Deep if s.afloat => (-6, "swimming at the surface"),
            WaterDepth::Deep => (-8, "fully submerged"),
        };
        mods.push(Modifier::new(v, what));
    }
    Ok(mods)
}

/// Penalty from Poor Vision (RULINGS › Light and vision): a check that needs sight of a target
/// takes the penalty of the target's square: dim −2, dark −4 (when the creature can still act
/// on it, by sound), magical darkness −8. Blindness (−6: "can't see through their eyes") and
/// poor vision do not stack: the worse applies. A square seen by lightless vision takes none
/// (the penalty is for one who "has not acquired Darkvision"; the vision area reports it so).
fn poor_vision(target_square: LightLevel, blinded: bool) -> Option<Modifier> {
    const BLINDED_PENALTY: i32 = -6;
    let light = match target_square {
        LightLevel::Bright => None,
        LightLevel::Dim => Some(Modifier::new(-2, "target in dim light")),
        LightLevel::Dark => Some(Modifier::new(-4, "target in darkness")),
        LightLevel::MagicalDarkness => Some(Modifier::new(-8, "target in magical darkness")),
    };
    // "The character can't see through their eyes": −6 (RULINGS › Vision in the situational
    // penalties).
    let blind = blinded.then(|| Modifier::new(BLINDED_PENALTY, "blinded"));
    match (light, blind) {
        (Some(l), Some(b)) => Some(if l.value <= b.value { l } else { b }),
        (l, b) => l.or(b),
    }
}

/// How a creature sees a square — the light it counts as for poor vision (bright within
/// lightless vision), if it sees it at all — as the vision area registers it ([`SeeingBy`]):
/// the penalties read it for poor vision and distractions without knowing how sight is worked
/// out.
pub type HowSeen = fn(&World, Entity, GridPos) -> Option<LightLevel>;

/// How creatures see, registered by the vision area.
#[derive(Resource, Clone, Copy)]
pub struct SeeingBy(pub HowSeen);

/// The light `who` sees `at` by, if it sees it.
fn how_seen(world: &World, who: Entity, at: GridPos) -> Option<LightLevel> {
    world
        .get_resource::<SeeingBy>()
        .and_then(|s| (s.0)(world, who, at))
}

/// How `who` sees the square `at`: as its sight has it (lightless vision sees darkness as dim),
/// or, unseen, dark (magical darkness stays magical).
fn seen_light(world: &World, who: Entity, at: GridPos) -> LightLevel {
    let seen = how_seen(world, who, at);
    seen.unwrap_or_else(|| {
        let grid = world.resource::<DungeonGrid>();
        match world
            .resource::<crate::rules::light::LightMap>()
            .level(grid, at)
        {
            LightLevel::MagicalDarkness => LightLevel::MagicalDarkness,
            _ => LightLevel::Dark,
        }
    })
}

/// The penalties for how well `who` sees the square a check looks at (an attack's target, a
/// lock, a trap, a hidden feature): with the situational penalties, the poor vision of that
/// square or blindness, whichever is worse (RULINGS › Light and vision), and the Judge's fog
/// and crowds there; without them, blindness alone (Dungeon Delves › Light and Darkness:
/// blinded creatures take −4 on "proficiency throws impacted by sight").
pub(crate) fn sight_penalties(
    world: &World,
    who: Entity,
    at: GridPos,
    blinded: bool,
) -> Vec<Modifier> {
    if world.get_resource::<SituationalPenaltiesOn>().is_none() {
        return blinded
            .then(|| Modifier::new(-4, "blinded"))
            .into_iter()
            .collect();
    }
    let mut mods: Vec<Modifier> = poor_vision(seen_light(world, who, at), blinded)
        .into_iter()
        .collect();
    mods.extend(crate::rules::calls::judge_modifier(
        world,
        JudgeModifier::FogAndCrowds,
        Some(at),
        &[],
    ));
    mods
}

/// The situational penalties of a proficiency throw (RULINGS › Movement penalties: they reach
/// Dungeonbashing, Lockpicking, Searching, Listening, Trapbreaking, Sneaking and Hiding as well
/// as attacks): prone, movement and water for every one; and for one that needs sight of a
/// square (`looks_at`: the lock picked, the trap disabled, the feature searched for), the
/// penalties of how well the creature sees it.
pub fn check_penalties(world: &World, who: Entity, looks_at: Option<GridPos>) -> Vec<Modifier> {
    // An action check is never ruled out by movement, only penalised.
    let mut mods = penalties_for(world, who, CheckKind::Action).unwrap_or_default();
    if let Some(at) = looks_at {
        let blinded = world
            .get::<Conditions>(who)
            .is_some_and(|c| c.has(ConditionKind::Blinded));
        mods.extend(sight_penalties(world, who, at, blinded));
    }
    mods
}

/// Light distraction targets (Situational Penalties › Distractions): a torch 9, a lantern or
/// lamp 11, magical light 13, sunlight reflected by a mirror 15; +2 when focused on the victim.
/// The rules give no number for a candle or a light of another kind.
fn distraction_target(kind: LightKind, focused: bool) -> Option<i32> {
    let base = match kind {
        LightKind::Torch => 9,
        LightKind::Lantern => 11,
        LightKind::Magical { .. } => 13,
        LightKind::Sunlight { .. } => 15,
        LightKind::Candle | LightKind::Custom { .. } => return None,
    };
    Some(base + if focused { 2 } else { 0 })
}

/// Rounds a failed distraction throw blinds for.
pub const DISTRACTION_BLINDS_ROUNDS: u64 = 3;

/// Rounds a failed distraction throw blinds for, given its natural die: three, doubled on a
/// natural 1 with the tactical rules on (Tactical Combat › Natural 20 and Natural 1: "a natural
/// 1 on a save doubles … the duration of effects").
fn distraction_blinds_rounds(natural: u32, tactical: Option<&TacticalCombat>) -> u64 {
    if natural == 1 && tactical.is_some_and(|t| t.natural_20_and_1) {
        2 * DISTRACTION_BLINDS_ROUNDS
    } else {
        DISTRACTION_BLINDS_ROUNDS
    }
}

/// A creature in the dark looks at a light of `kind`: its Strength-resistance throw against the
/// light's number (`focused` +2); failing, it is blinded for three rounds (six on a natural 1).
/// Returns the rounds it is blinded for, or `None` if it looked away in time.
fn glare(world: &mut World, target: Entity, kind: LightKind, number: i32) -> Option<u64> {
    use crate::creature::Abilities;
    use crate::creature::ConditionEnd;
    use crate::rules::conditions::gain_condition;
    use delve_ground::log::EventLog;
    let str_mod = world
        .get::<Abilities>(target)
        .map_or(0, |a| crate::rules::abilities::delve_modifier(a.0.str));
    let round = world.resource::<Clock>().rounds;
    let name = crate::creature::name_of(world, target);
    let what = format!("Strength resistance against a {kind:?}'s glare");
    let mods = vec![Modifier::new(str_mod, "Strength")];
    let throw = crate::rules::throws::throw_in(
        world,
        target,
        ThrowKind::Save,
        Skill::StrengthResistance,
        what,
        mods,
        number,
    );
    if throw.success {
        return None;
    }
    let rounds = distraction_blinds_rounds(throw.natural, world.get_resource::<TacticalCombat>());
    // "For three rounds": three of its initiatives (its faction acted already: a round more).
    let acted = world
        .get::<crate::creature::Faction>(target)
        .is_some_and(|&f| world.resource::<ActingOrder>().has_acted(f));
    let ends = ConditionEnd::EndOfRound(round + rounds - 1 + u64::from(acted));
    world.resource_scope(|world, mut log: Mut<EventLog>| {
        if let Some(mut c) = world.get_mut::<Conditions>(target) {
            gain_condition(
                &mut log,
                round,
                &name,
                &mut c,
                ConditionKind::Blinded,
                "dazzled by a light",
                ends,
            );
        }
    });
    Some(rounds)
}

/// The lit lights a creature saw last round (for the unexpected-light throw).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct LightsInView(pub Vec<Entity>);

/// Situational Penalties › Distractions, with the Judge's unexpected-light throw on: a creature
/// standing in a dark square that sees a lit light it did not see the round before, and that no
/// creature of its own faction carries, makes the Strength-resistance throw without a command
/// (against the strongest such light). Lights in view when the throw is switched on (or at the
/// start) are expected.
pub fn unexpected_lights(world: &mut World) {
    use crate::creature::Faction;
    use crate::rules::light::{CarriedBy, LightMap, LightSource};
    if !world
        .get_resource::<Judge>()
        .is_some_and(|j| j.unexpected_lights)
    {
        return;
    }
    let mut lights = world.query::<(Entity, &LightSource, Option<&Position>, Option<&CarriedBy>)>();
    let lit: Vec<(Entity, LightKind, GridPos, Option<Entity>)> = lights
        .iter(world)
        .filter(|(_, l, ..)| l.lit)
        .filter_map(|(e, l, at, by)| {
            let at = match (at, by) {
                (Some(p), _) => p.0,
                (None, Some(b)) => world.get::<Position>(b.0)?.0,
                (None, None) => return None,
            };
            Some((e, l.kind, at, by.map(|b| b.0)))
        })
        .collect();
    let mut viewers = world.query_filtered::<(
        Entity,
        &Position,
        &Conditions,
        Option<&Faction>,
        Option<&LightsInView>,
    ), With<Creature>>();
    let w: &World = world;
    let grid = w.resource::<DungeonGrid>();
    let light_map = w.resource::<LightMap>();
    let mut glares = Vec::new();
    let mut views = Vec::new();
    for (e, at, conditions, faction, before) in viewers.iter(w) {
        if crate::rules::conditions::is_down(conditions) {
            continue;
        }
        let in_view: Vec<(Entity, LightKind, Option<Entity>)> = lit
            .iter()
            .filter(|(.., p, _)| how_seen(w, e, *p).is_some())
            .map(|&(l, kind, _, by)| (l, kind, by))
            .collect();
        let in_the_dark = light_map.level(grid, at.0) == LightLevel::Dark;
        if let Some(before) = before
            && in_the_dark
            && !conditions.has(ConditionKind::Blinded)
        {
            let strongest = in_view
                .iter()
                .filter(|(l, ..)| !before.0.contains(l))
                .filter(|(.., by)| by.and_then(|b| w.get::<Faction>(b)) != faction || by.is_none())
                .filter_map(|(l, kind, _)| Some((distraction_target(*kind, false)?, *kind, *l)))
                .max_by_key(|(n, _, l)| (*n, std::cmp::Reverse(*l)));
            if let Some(g) = strongest {
                glares.push((e, g));
            }
        }
        views.push((
            e,
            LightsInView(in_view.into_iter().map(|(l, ..)| l).collect()),
        ));
    }
    views.sort_by_key(|(e, _)| *e);
    for (e, view) in views {
        world.entity_mut(e).insert(view);
    }
    glares.sort_by_key(|(e, _)| *e);
    for (e, (number, kind, light)) in glares {
        let at = lit
            .iter()
            .find(|l| l.0 == light)
            .map_or(GridPos::new(0, 0), |l| l.2);
        let blinded = glare(world, e, kind, number);
        let who = crate::creature::name_of(world, e);
        delve_ground::log::log_in(
            world,
            PenaltyEvent::UnexpectedLight {
                who,
                light: kind,
                at,
                blinded_rounds: blinded,
            },
        );
    }
}

/// `Dazzle`: `who` turns a lit light it carries on `target`, who stands in the dark and sees it.
/// The target makes a Strength-resistance throw (d20 + its Strength modifier) against the light's
/// number; failing, it cannot see for three rounds.
fn dazzle(world: &mut World, who: Entity, target: Entity, focused: bool) -> Result<(), Refusal> {
    use crate::rules::light::LightMap;
    use crate::rules::light::{CarriedBy, LightSource};

    let mut q = world.query::<(&LightSource, &CarriedBy)>();
    let kind = q
        .iter(world)
        .find(|(l, c)| c.0 == who && l.lit)
        .map(|(l, _)| l.kind)
        .ok_or(DazzleRefusal::NoLitLight)?;
    let number = distraction_target(kind, focused).ok_or(DazzleRefusal::NoNumber { kind })?;
    let at = square_of(world, who)?;
    let target_at = square_of(world, target)?;
    let grid = world.resource::<DungeonGrid>();
    if world.resource::<LightMap>().level(grid, target_at) != LightLevel::Dark {
        return Err(DazzleRefusal::TargetNotInTheDark.into());
    }
    if how_seen(world, target, at).is_none() {
        return Err(DazzleRefusal::TargetCannotSee.into());
    }
    let blinded = glare(world, target, kind, number);
    let (dazzler, name) = (
        crate::creature::name_of(world, who),
        crate::creature::name_of(world, target),
    );
    delve_ground::log::log_in(
        world,
        PenaltyEvent::Dazzled {
            who: dazzler,
            target: name,
            blinded_rounds: blinded,
        },
    );
    Ok(())
}

/// Dazzling is offered to one carrying a lit light with a distraction number, against each
/// hostile creature it is aware of that stands in the dark and can see it (Situational
/// Penalties › Light distraction), plainly and focused where the light has a number for it.
fn dazzle_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    use crate::rules::light::{CarriedBy, LightMap, LightSource};
    let Some(name) = world.get::<Name>(who) else {
        return Vec::new();
    };
    let Some(kind) = read_query(world, |q: Query<(&LightSource, &CarriedBy)>| {
        q.iter()
            .find(|(l, c)| c.0 == who && l.lit)
            .map(|(l, _)| l.kind)
    })
    .flatten() else {
        return Vec::new();
    };
    let (Ok(at), Some(mine)) = (square_of(world, who), world.get::<Faction>(who)) else {
        return Vec::new();
    };
    let grid = world.resource::<DungeonGrid>();
    let light = world.resource::<LightMap>();
    let factions = world.resource::<Factions>();
    let mut targets: Vec<(String, Entity)> = read_query(
        world,
        |q: Query<(Entity, &Name, &Faction, &Position, &Conditions)>| {
            q.iter()
                .filter(|(e, _, f, p, c)| {
                    *e != who
                        && factions.hostile(*mine, **f)
                        && !crate::rules::conditions::is_down(c)
                        && light.level(grid, p.0) == LightLevel::Dark
                })
                .map(|(e, n, ..)| (n.to_string(), e))
                .collect()
        },
    )
    .unwrap_or_default();
    targets.sort();
    let mut out = Vec::new();
    for (target, e) in targets {
        if how_seen(world, e, at).is_none() {
            continue;
        }
        for (focused, way) in [(false, "dazzle"), (true, "dazzle, focused")] {
            let Some(number) = distraction_target(kind, focused) else {
                continue;
            };
            let dazzle = AnyAct::from(Dazzle {
                who: name.to_string(),
                target: target.clone(),
                focused,
            });
            let note = format!("{kind:?} turned on it: distraction number {number}");
            out.push((
                Concern::Creature(target.clone()),
                Choice::new(way, "its action", None, &note, dazzle),
            ));
        }
    }
    out
}

/// Turns a carried light on a creature standing in the dark (light distraction).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dazzle {
    pub who: String,
    pub target: String,
    #[serde(default)]
    pub focused: bool,
}

impl std::fmt::Display for Dazzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "dazzle {}", self.target)
    }
}

impl Act for Dazzle {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let (who, target) = (creature(world, &self.who)?, creature(world, &self.target)?);
        dazzle(world, who, target, self.focused)
    }
}

/// Why a light cannot dazzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DazzleRefusal {
    NoLitLight,
    NoNumber { kind: LightKind },
    TargetNotInTheDark,
    TargetCannotSee,
}

impl Reason for DazzleRefusal {}

impl std::fmt::Display for DazzleRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DazzleRefusal::NoLitLight => write!(f, "it carries no lit light"),
            DazzleRefusal::NoNumber { kind } => {
                write!(f, "the rules give no distraction number for a {kind:?}")
            }
            DazzleRefusal::TargetNotInTheDark => write!(f, "the target does not stand in the dark"),
            DazzleRefusal::TargetCannotSee => write!(f, "the target cannot see the light"),
        }
    }
}

/// What moving too far rules out (Situational Penalties › Penalty from Movement).
#[derive(Clone, Debug, PartialEq)]
pub enum PenaltyRefusal {
    /// No ranged attack after moving more than twice the movement speed.
    NoRangedAttack { moved: f32, speed: f32 },
    /// No spell after moving more than twice the movement speed.
    NoSpell { moved: f32, speed: f32 },
    /// A maintained spell ends after moving more than twice the movement speed.
    SpellEnds { moved: f32 },
}

impl Reason for PenaltyRefusal {}

impl std::fmt::Display for PenaltyRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PenaltyRefusal::NoRangedAttack { moved, speed } => write!(
                f,
                "no ranged attack after moving {moved}', more than twice its movement speed of \
                 {speed}'"
            ),
            PenaltyRefusal::NoSpell { moved, speed } => write!(
                f,
                "no spell after moving {moved}', more than twice its movement speed of {speed}'"
            ),
            PenaltyRefusal::SpellEnds { moved } => write!(
                f,
                "the spell cannot be maintained after moving {moved}'; it ends"
            ),
        }
    }
}

pub use crate::rules::modules::SituationalPenaltiesOn;

/// The module: with it, [`penalties_for`] applies the penalties; without it, none.
pub struct SituationalPenalties;

impl Plugin for SituationalPenalties {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        RuleArea::offers(app, Rank::Fight, dazzle_choices);
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::penalties::LightsInView>()
            .keeps::<crate::rules::modules::SituationalPenaltiesOn>();
        use crate::rules::modules::ModuleRules;
        app.switches(RuleModule::SituationalPenalties, |world, on| {
            if on {
                world.insert_resource(SituationalPenaltiesOn);
            } else {
                world.remove_resource::<SituationalPenaltiesOn>();
            }
        });
        app.init_resource::<SituationalPenaltiesOn>().add_systems(
            SimRound,
            unexpected_lights
                .in_set(RoundSet::Distractions)
                .run_if(resource_exists::<SituationalPenaltiesOn>),
        );
    }
}

/// The situational modifiers for `e` making a check of `kind` now.
pub fn penalties_for(
    world: &World,
    e: Entity,
    kind: CheckKind,
) -> Result<Vec<Modifier>, PenaltyRefusal> {
    if world.get_resource::<SituationalPenaltiesOn>().is_none() {
        return Ok(Vec::new());
    }
    let no_conditions = Conditions::default();
    let no_judge = JudgeCalls::default();
    let judge = world.get_resource::<Judge>().map_or(&no_judge, |j| &j.0);
    Standing {
        conditions: world.get::<Conditions>(e).unwrap_or(&no_conditions),
        moved: world.get::<MovedThisRound>(e).copied().unwrap_or_default(),
        encumbrance: world.get::<Encumbrance>(e),
        at: world.get::<Position>(e).map(|p| p.0),
        settings: world.get::<JudgeSettings>(e),
        swimming: false,
        at_home_in_water: world.get::<SwimmingSpeed>(e).is_some(),
    }
    .modifiers(kind, world.resource::<DungeonGrid>(), judge)
}

/// The situational penalties of a Swimming throw (Dungeon Delves › Swimming): prone and
/// movement, and the Judge's cold, rough or fast water, but not the depth's own penalty — the
/// Swimming throw is the check of being in water over the head, its target the encumbrance.
pub fn swimming_penalties(world: &World, e: Entity) -> Vec<Modifier> {
    swimming_penalties_at(world, e, world.get::<Position>(e).map(|p| p.0))
}

/// [`swimming_penalties`] as they would be at the square `at`.
pub(crate) fn swimming_penalties_at(
    world: &World,
    e: Entity,
    at: Option<GridPos>,
) -> Vec<Modifier> {
    if world.get_resource::<SituationalPenaltiesOn>().is_none() {
        return Vec::new();
    }
    let no_conditions = Conditions::default();
    let no_judge = JudgeCalls::default();
    let judge = world.get_resource::<Judge>().map_or(&no_judge, |j| &j.0);
    Standing {
        conditions: world.get::<Conditions>(e).unwrap_or(&no_conditions),
        moved: world.get::<MovedThisRound>(e).copied().unwrap_or_default(),
        encumbrance: world.get::<Encumbrance>(e),
        at,
        settings: world.get::<JudgeSettings>(e),
        swimming: true,
        at_home_in_water: world.get::<SwimmingSpeed>(e).is_some(),
    }
    .modifiers(CheckKind::Action, world.resource::<DungeonGrid>(), judge)
    .unwrap_or_default()
}

/// What the situational penalties read of a creature.
struct Standing<'a> {
    conditions: &'a Conditions,
    moved: MovedThisRound,
    encumbrance: Option<&'a Encumbrance>,
    at: Option<GridPos>,
    settings: Option<&'a JudgeSettings>,
    /// A Swimming throw: the depth's own penalty is what the throw itself measures.
    swimming: bool,
    /// It has a swimming speed (RULINGS › Water): at home in water, no water penalty at any
    /// depth.
    at_home_in_water: bool,
}

impl Standing<'_> {
    /// Prone, movement and water, and the Judge's cold, rough or fast water (Situational
    /// Penalties › Water: a further penalty the Judge sets).
    fn modifiers(
        &self,
        kind: CheckKind,
        grid: &DungeonGrid,
        judge: &JudgeCalls,
    ) -> Result<Vec<Modifier>, PenaltyRefusal> {
        let speed = self
            .encumbrance
            .and_then(|enc| Speeds::of(enc.0, self.conditions))
            .map_or(0.0, |s| s.rated(Pace::Combat));
        let water = self.at.and_then(|p| match grid.terrain(p) {
            Some(Terrain::Water(d)) => Some(d),
            _ => None,
        });
        let mut mods = situational_modifiers(
            kind,
            &Situation {
                prone: self.conditions.has(ConditionKind::Prone),
                moved_feet: self.moved.feet as f32,
                movement_speed: speed,
                water: water.filter(|_| !self.swimming && !self.at_home_in_water),
                afloat: water == Some(WaterDepth::Deep)
                    && !self.conditions.has(ConditionKind::Drowning),
            },
        )?;
        if !matches!(kind, CheckKind::Resistance | CheckKind::Intelligence) {
            use delve_ground::level::schema::JudgeModifier::{MuddyFooting, RoughWater};
            if water.is_some() {
                mods.extend(judge_call(judge, RoughWater, self.at, self.settings));
            }
            // Situational Penalties › Water: "Footing is muddy … −2", where the Judge says so.
            mods.extend(judge_call(judge, MuddyFooting, self.at, self.settings));
        }
        Ok(mods)
    }
}

/// The Judge's modifier of this kind at `at` (the level's, the region's, or the creature's own
/// setting), if any.
fn judge_call(
    judge: &JudgeCalls,
    call: JudgeModifier,
    at: Option<GridPos>,
    settings: Option<&JudgeSettings>,
) -> Option<Modifier> {
    let particular: Vec<&JudgeModifiers> = settings.map(|s| &s.0).into_iter().collect();
    let v = judge.value(call, at, &particular);
    (v != 0).then(|| Modifier::new(v, format!("Judge: {}", call.words())))
}

/// The situational penalties from inside a system: what [`penalties_for`] gives with the
/// world at hand.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Situations<'w, 's> {
    on: Option<Res<'w, SituationalPenaltiesOn>>,
    grid: Res<'w, DungeonGrid>,
    judge: Option<Res<'w, Judge>>,
    creatures: Query<'w, 's, StandingQuery>,
}

/// What [`Situations`] reads of each creature.
type StandingQuery = (
    &'static Conditions,
    Option<&'static MovedThisRound>,
    Option<&'static Encumbrance>,
    Option<&'static Position>,
    Option<&'static JudgeSettings>,
    Has<SwimmingSpeed>,
);

impl Situations<'_, '_> {
    /// The penalties of an action check (a proficiency throw that needs no sight of a square:
    /// Listening, Sneaking, Hiding): prone, movement and water.
    pub fn action_check(&self, e: Entity) -> Vec<Modifier> {
        let (Some(_), Ok((conditions, moved, encumbrance, at, settings, at_home_in_water))) =
            (&self.on, self.creatures.get(e))
        else {
            return Vec::new();
        };
        let no_judge = JudgeCalls::default();
        Standing {
            conditions,
            moved: moved.copied().unwrap_or_default(),
            encumbrance,
            at: at.map(|p| p.0),
            settings,
            swimming: false,
            at_home_in_water,
        }
        .modifiers(
            CheckKind::Action,
            &self.grid,
            self.judge.as_deref().map_or(&no_judge, |j| &j.0),
        )
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
