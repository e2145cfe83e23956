//! Throws (RULINGS › Dice and throws): d20 + modifiers ≥ target, with the tactical rules'
//! natural 20 and bloodied where they are on, logged with the die, each modifier and its source,
//! the target and the outcome.

use crate::creature::Encumbrance;
use delve_ground::level::SpeedBasis;
use delve_ground::level::schema::{Proficiency, SaveCategory};
use delve_ground::log::LogKind;

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use crate::creature::Conditions;
use crate::rules::tactical::{self, TacticalCombat};
use delve_ground::dice::{Dice, Modifier, Throw};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::{EventLog, LogEvent};
use delve_ground::time::Clock;

/// What kind of check is made: the penalties treat them differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// Resistance checks (saving throws): no prone or water penalty.
    Resistance,
    /// Intelligence checks: no prone or water penalty.
    Intelligence,
    /// A melee attack or any other action check (proficiency throws, ability checks).
    Action,
    /// A ranged attack.
    RangedAttack,
    /// Casting a spell.
    Spellcasting,
    /// A spell maintenance check.
    SpellMaintenance,
}

/// A throw in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ThrowEvent {
    /// A throw with its die, modifiers and outcome, and what it was for (typed; its words are
    /// the throw's `what`).
    Threw {
        who: String,
        #[serde(skip)]
        skill: Skill,
        throw: Throw,
    },
}

/// What a throw is for, as the rules name it: the typed counterpart of the throw's words, for
/// tests and tools to ask by type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skill {
    /// A proficiency's throw (or the Adventuring throw that stands in for it): Climbing,
    /// Swimming, Lockpicking, Trapbreaking, Searching, Listening, Sneaking, Hiding.
    Proficiency(Proficiency),
    /// Dungeonbashing (Strength): forcing a door, pushing forward through a squeeze, belaying.
    Dungeonbashing,
    /// Squeezing: the encumbrance in stone.
    Squeezing,
    /// A saving throw of this category.
    Save(SaveCategory),
    /// A Fortitude save (Tactical Combat › Massive Trauma, › Massive Damage).
    Fortitude,
    /// Strength resistance (Situational Penalties › Distractions).
    StrengthResistance,
    /// An attack throw: a grappling hook at its anchor, a blow at a door.
    Attack,
}

impl LogEvent for ThrowEvent {
    fn kind(&self) -> LogKind {
        LogKind::Throws
    }

    fn who(&self) -> Option<&str> {
        match self {
            ThrowEvent::Threw { who, .. } => Some(who),
        }
    }

    /// The Judge rolls behind the screen: the party learns what a throw led to, not the throw.
    fn secret(&self) -> bool {
        true
    }
}

impl fmt::Display for ThrowEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThrowEvent::Threw { who, throw, .. } => write!(f, "{who} throws {throw}"),
        }
    }
}

/// What kind of throw is made (RULINGS › Dice and throws): the kinds take different rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ThrowKind {
    /// A melee or missile attack throw: a natural 1 misses (Tactical Combat › Natural 20 and
    /// Natural 1), and without the tactical rules a natural 20 hits.
    Attack { ranged: bool },
    /// A saving throw or other resistance check: no prone, movement or water penalty.
    Save,
    /// A proficiency throw or ability check (Dungeonbashing, Lockpicking, Searching, Listening,
    /// Trapbreaking, Hiding, …).
    Check,
}

impl ThrowKind {
    /// How the situational penalties see this throw.
    pub fn check_kind(self) -> CheckKind {
        match self {
            ThrowKind::Attack { ranged: false } | ThrowKind::Check => CheckKind::Action,
            ThrowKind::Attack { ranged: true } => CheckKind::RangedAttack,
            ThrowKind::Save => CheckKind::Resistance,
        }
    }
}

/// Who makes a throw, as the tactical rules see it: its name, whether it is bloodied, and the
/// tactical rules in force (`None` when the `TacticalCombat` module is off).
#[derive(Clone, Copy, Debug)]
pub struct Thrower<'a> {
    pub name: &'a str,
    pub bloodied: bool,
    pub tactical: Option<TacticalCombat>,
}

impl<'a> Thrower<'a> {
    /// A creature of the world as it throws now: its name, conditions and the tactical rules
    /// in force.
    pub fn of(world: &'a World, who: Entity) -> Option<Self> {
        let name = world.get::<Name>(who)?.as_str();
        let bloodied = world
            .get::<Conditions>(who)
            .is_some_and(|c| c.has(ConditionKind::Bloodied));
        Some(Self {
            name,
            bloodied,
            tactical: world.get_resource::<TacticalCombat>().copied(),
        })
    }

    /// A creature of these conditions, under these tactical rules (`None`: the module is off).
    pub fn new(name: &'a str, conditions: &Conditions, tactical: Option<&TacticalCombat>) -> Self {
        Self {
            name,
            bloodied: conditions.has(ConditionKind::Bloodied),
            tactical: tactical.copied(),
        }
    }
}

/// The one throw: d20 + modifiers ≥ target (RULINGS › Dice and throws). With the tactical rules
/// on, a bloodied thrower takes −2 (Tactical Combat › Bloodied) and a natural 20 adds +10 to the
/// total (› Natural 20 and Natural 1); an attack's natural 1 misses, and without the tactical
/// rules an attack's natural 20 hits. Every modifier stays in the throw's breakdown.
pub fn throw(
    dice: &mut Dice,
    who: &Thrower,
    kind: ThrowKind,
    what: impl Into<String>,
    mut modifiers: Vec<Modifier>,
    target: i32,
) -> Throw {
    if who.bloodied && who.tactical.is_some_and(|t| t.bloodied) {
        modifiers.push(tactical::bloodied_modifier());
    }
    let natural = dice.roll(20);
    resolve(who, kind, what.into(), natural, modifiers, target)
}

/// The throw's outcome for a natural die: [`throw`] once the die is rolled (bloodied is already
/// among the modifiers).
fn resolve(
    who: &Thrower,
    kind: ThrowKind,
    what: String,
    natural: u32,
    mut modifiers: Vec<Modifier>,
    target: i32,
) -> Throw {
    let natural_20_and_1 = who.tactical.is_some_and(|t| t.natural_20_and_1);
    if natural_20_and_1 && let Some(m) = tactical::natural_20_modifier(natural) {
        modifiers.push(m);
    }
    let mut throw = Throw::resolve(what, natural, modifiers, target);
    if let ThrowKind::Attack { .. } = kind {
        if natural == 1 {
            throw.success = false;
        } else if natural == 20 && !natural_20_and_1 {
            throw.success = true;
        }
    }
    throw
}

/// The chance a throw succeeds, counted face by face as [`throw`] resolves it: bloodied, the
/// natural 20's +10 and the attack's natural 1 and 20 included. With it, the net d20 target
/// the throw needs before those (the target less the modifiers and bloodied).
pub fn chance(who: &Thrower, kind: ThrowKind, modifiers: &[Modifier], target: i32) -> (i32, f32) {
    let mut modifiers = modifiers.to_vec();
    if who.bloodied && who.tactical.is_some_and(|t| t.bloodied) {
        modifiers.push(tactical::bloodied_modifier());
    }
    let net = target - modifiers.iter().map(|m| m.value).sum::<i32>();
    let succeeds = (1..=20)
        .filter(|&n| resolve(who, kind, String::new(), n, modifiers.clone(), target).success)
        .count();
    (net, succeeds as f32 / 20.0)
}

/// Where a system's throw is made and told: its dice, its log and the round.
pub(crate) struct ThrowAt<'a> {
    pub dice: &'a mut Dice,
    pub log: &'a mut EventLog,
    pub round: u64,
}

/// The odds of a throw: who throws, what kind of throw, its modifiers and its target.
pub struct ThrowOdds<'a> {
    pub who: &'a Thrower<'a>,
    pub kind: ThrowKind,
    pub modifiers: &'a [Modifier],
    pub target: i32,
}

/// A creature's throw from inside a system (dice and log at hand), logged; its success.
pub(crate) fn throw_logged(
    ThrowAt { dice, log, round }: ThrowAt,
    who: Thrower,
    kind: ThrowKind,
    skill: Skill,
    what: impl Into<String>,
    modifiers: Vec<Modifier>,
    target: i32,
) -> bool {
    let throw = throw(dice, &who, kind, what, modifiers, target);
    let success = throw.success;
    log.push(
        round,
        ThrowEvent::Threw {
            who: who.name.to_owned(),
            skill,
            throw,
        },
    );
    success
}

/// A creature's throw with the world's dice, logged at the current round: [`throw`] with the
/// creature's conditions and the tactical rules in force.
pub fn throw_in(
    world: &mut World,
    who: Entity,
    kind: ThrowKind,
    skill: Skill,
    what: impl Into<String>,
    modifiers: Vec<Modifier>,
    target: i32,
) -> Throw {
    let natural = world.resource_mut::<Dice>().roll(20);
    throw_in_with_die(world, who, (kind, skill), what, modifiers, target, natural)
}

/// [`throw_in`] for a die already rolled: one throw read against each of several features (a
/// search "notices any hidden features within the area": Dungeon Delves › Searching), each with
/// its own modifiers, logged each.
pub(crate) fn throw_in_with_die(
    world: &mut World,
    who: Entity,
    (kind, skill): (ThrowKind, Skill),
    what: impl Into<String>,
    mut modifiers: Vec<Modifier>,
    target: i32,
    natural: u32,
) -> Throw {
    let name = crate::creature::name_of(world, who);
    let conditions = world.get::<Conditions>(who).cloned().unwrap_or_default();
    let thrower = Thrower::new(&name, &conditions, world.get_resource::<TacticalCombat>());
    if thrower.bloodied && thrower.tactical.is_some_and(|t| t.bloodied) {
        modifiers.push(tactical::bloodied_modifier());
    }
    let throw = resolve(&thrower, kind, what.into(), natural, modifiers, target);
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        ThrowEvent::Threw {
            who: name,
            skill,
            throw: throw.clone(),
        },
    );
    throw
}

/// A creature's encumbrance in stone: what a Squeezing (or Swimming) throw must reach. A
/// creature whose stat block gives a speed instead of an encumbrance carries nothing to speak
/// of: 0.
pub fn stone_of(enc: Option<&Encumbrance>) -> f32 {
    match enc.map(|e| e.0) {
        Some(SpeedBasis::Encumbrance { stone }) => stone,
        _ => 0.0,
    }
}

/// The target of a throw "equal to the encumbrance in stone" (RULINGS › Dice and throws): the
/// total must reach the stone, so a fraction rounds up.
pub fn stone_target(stone: f32) -> i32 {
    stone.ceil() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULINGS › Dice and throws: "target value equal to the encumbrance in stone" is a target
    /// of that number; a fraction of a stone must still be reached.
    #[test]
    fn the_target_is_the_encumbrance_in_stone() {
        assert_eq!(stone_target(5.0), 5);
        assert_eq!(stone_target(6.5), 7);
        assert_eq!(stone_target(0.0), 0);
    }

    /// Every creature's throw takes bloodied and the natural 20 the same way, and neither
    /// without the tactical rules.
    #[test]
    fn throws_take_bloodied_and_natural_20_by_the_switches() {
        let mut dice = Dice::seeded(1);
        dice.script([20, 20, 12, 20]);
        let on = TacticalCombat::default();
        let who = |bloodied, tactical| Thrower {
            name: "Ada",
            bloodied,
            tactical,
        };
        let t = throw(
            &mut dice,
            &who(true, Some(on)),
            ThrowKind::Check,
            "Listening",
            vec![],
            18,
        );
        assert_eq!(t.total, 20 - 2 + 10);
        let off = TacticalCombat {
            natural_20_and_1: false,
            bloodied: false,
            ..on
        };
        let t = throw(
            &mut dice,
            &who(true, Some(off)),
            ThrowKind::Save,
            "Fortitude",
            vec![],
            18,
        );
        assert_eq!(t.total, 20);
        let t = throw(
            &mut dice,
            &who(false, Some(on)),
            ThrowKind::Check,
            "Listening",
            vec![],
            18,
        );
        assert_eq!((t.total, t.success), (12, false));
        let t = throw(
            &mut dice,
            &who(true, None),
            ThrowKind::Check,
            "Listening",
            vec![],
            18,
        );
        assert_eq!(t.total, 20, "no tactical rules: no bloodied, no +10");
    }

    /// Tactical Combat › Natural 20 and Natural 1: an attack's natural 1 misses whatever the
    /// total; without the tactical rules a natural 20 hits.
    #[test]
    fn an_attacks_natural_1_misses_and_without_tactical_rules_its_natural_20_hits() {
        let mut dice = Dice::seeded(1);
        dice.script([1, 20]);
        let who = Thrower {
            name: "Ada",
            bloodied: false,
            tactical: None,
        };
        let attack = ThrowKind::Attack { ranged: false };
        let big = vec![Modifier::new(30, "attack bonus")];
        assert!(!throw(&mut dice, &who, attack, "a swing", big, 10).success);
        assert!(throw(&mut dice, &who, attack, "a swing", vec![], 40).success);
    }
}
