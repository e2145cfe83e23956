//! What every command shares, below the rule areas that define them: the [`Act`] a rule area
//! implements for each of its commands, the typed [`Refusal`] it answers with when the command
//! cannot be carried out, the offer of a command with its chance ([`Choice`]), any one command
//! as its area defines it ([`AnyAct`]), and the commands waiting for their round
//! ([`PendingCommands`]).
//!
//! A rule area defines its commands (one struct each, named as the command word, implementing
//! [`Act`]) with their refusal reasons in its own `commands.rs` (or in its `mod.rs`, for an area
//! of one command): that is the command's one declaration. The rules crate's build script writes
//! the list in `command` from the areas' declarations, which makes each [`Listed`]: only a listed
//! command can be offered or given.

use crate::creature::Position;
use crate::rules::throws::ThrowOdds;
use delve_ground::grid::GridPos;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use bevy::prelude::*;
use serde::Serialize;

use crate::creature::CreatureIndex;
use crate::rules::acting::{Cost, Hold};

/// One command of a rule area: who gives it, what it is in words, and how it is carried out.
pub trait Act: fmt::Display + fmt::Debug + Any + Send + Sync {
    /// The creature or party that acts (`the Judge` for the Judge's own commands).
    fn who(&self) -> &str;

    /// Carries the command out, logging its outcome as the area's typed events; or refuses it,
    /// changing nothing.
    fn carry_out(&self, world: &mut World) -> Result<(), Refusal>;

    /// The holds under which the command may still be given (`rules::acting`): a stuck creature
    /// may wiggle back, a crawling one crawl on. Under any other hold it is refused, the hold
    /// its reason. A command that does not say is allowed under none.
    fn allowed_under(&self) -> &'static [Hold] {
        &[]
    }

    /// What carrying it out costs the creature (`rules::acting::Cost`): exertion, and whether
    /// it takes its action for the round. A command that does not say costs both.
    fn cost(&self) -> Cost {
        Cost::ACTION
    }

    /// The common action it is, if it is one: a player has a key for each (the window's),
    /// which takes the first offer of that kind.
    fn common(&self) -> Option<Common> {
        None
    }

    /// The activity a member's time goes to while it works at the command (the lab's time
    /// budget), or `None` for one that sets it to no work of its own: walking and fighting
    /// are told by the round, and the rest take no time of their own. Every command says: a
    /// new one does not compile until it does.
    fn activity(&self) -> Option<Activity>;

    /// Whether its rule area offers it where a creature stands (`rules::choices_for`), or why
    /// not. A command that does not say is offered: a test fails on one declared offered that
    /// no area offers, and on one offered that is declared otherwise.
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::Offered
    }
}

/// Whether a rule area offers a command where a creature stands, or why not ([`Act::offered`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Among the offers of the area that defines it.
    Offered,
    /// Not offered, and why.
    NotOffered(&'static str),
}

impl Offered {
    /// The Judge's commands.
    pub const JUDGES_HAND: Offered = Offered::NotOffered(
        "the Judge's hand on the world (the Hand panel), not a creature's action",
    );
    /// The party's orders.
    pub const WHOLE_PARTY: Offered = Offered::NotOffered(
        "an order to the whole party (the window's party keys, a policy), not one creature's action",
    );
    /// A walk.
    pub const WALK: Offered = Offered::NotOffered(
        "a walk goes where the map is clicked or the keys point, not to an offer",
    );
}

/// Where a creature's time goes (the lab's time budget), in the order the report lists them.
/// A command names the one its work is ([`Act::activity`]); fighting, being stuck, walking and
/// waiting are told by the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, strum::VariantArray)]
pub enum Activity {
    Fighting,
    Stuck,
    Doors,
    Traps,
    Searching,
    ClimbingAndSwimming,
    Walking,
    Resting,
    Waiting,
}

impl Activity {
    pub const ALL: &'static [Activity] = <Activity as strum::VariantArray>::VARIANTS;

    pub fn words(self) -> &'static str {
        match self {
            Activity::Fighting => "fighting",
            Activity::Stuck => "stuck in a squeeze",
            Activity::Doors => "working doors",
            Activity::Traps => "working traps",
            Activity::Searching => "searching",
            Activity::ClimbingAndSwimming => "climbing and swimming",
            Activity::Walking => "walking",
            Activity::Resting => "resting",
            Activity::Waiting => "waiting",
        }
    }
}

/// An activity as a command macro names it: `None`, or an [`Activity`] by name.
#[doc(hidden)]
#[macro_export]
macro_rules! activity {
    (None) => {
        None
    };
    ($activity:ident) => {
        Some($crate::act::Activity::$activity)
    };
}

/// The common actions, each a key away in the window whatever the rule area that offers it:
/// the command that is one says so ([`Act::common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::VariantArray)]
pub enum Common {
    /// Lighting a light, or dousing one's lights.
    LightOrDouse,
    Listen,
    /// The methodical search where it stands.
    Search,
    Hide,
    /// Taking a fallen companion's gear.
    TakeGear,
    /// Taking up a companion who is down, or letting go of one.
    Carry,
}

impl Common {
    /// Every common action.
    pub const ALL: &[Common] = <Common as strum::VariantArray>::VARIANTS;
}

/// An action of the round refused while something keeps the creature from one
/// (`rules::acting::refused_action`): running, when the Judge rules so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotWhile(pub &'static str);

impl Reason for NotWhile {}

impl fmt::Display for NotWhile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "it can take no such action {}", self.0)
    }
}

/// A reason a rule area gives for refusing a command: an enum of the area's (deriving `Clone`,
/// `PartialEq` and `Debug`), saying itself in words with `Display`.
pub trait Reason: fmt::Display + fmt::Debug + Send + Sync + 'static {}

/// What a refusal needs of its reason beyond [`Reason`]: cloning, comparing, and its type.
trait ErasedReason: Reason {
    fn as_any(&self) -> &dyn Any;
    fn clone_boxed(&self) -> Box<dyn ErasedReason>;
    fn same_as(&self, other: &dyn ErasedReason) -> bool;
}

impl<T: Reason + Clone + PartialEq> ErasedReason for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_boxed(&self) -> Box<dyn ErasedReason> {
        Box::new(self.clone())
    }

    fn same_as(&self, other: &dyn ErasedReason) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// Why a command was refused: one rule area's typed reason. Tests ask for it by type
/// ([`Refusal::get`]); the log shows it in words.
pub struct Refusal(Box<dyn ErasedReason>);

impl Refusal {
    /// The reason, if it is of type `T`.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// Is this the reason?
    pub fn is<T: PartialEq + 'static>(&self, reason: &T) -> bool {
        self.get::<T>() == Some(reason)
    }
}

impl<T: Reason + Clone + PartialEq> From<T> for Refusal {
    fn from(reason: T) -> Self {
        Self(Box::new(reason))
    }
}

impl Clone for Refusal {
    fn clone(&self) -> Self {
        Self(self.0.clone_boxed())
    }
}

impl PartialEq for Refusal {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}

impl fmt::Debug for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The log's JSON gives the reason in words.
impl Serialize for Refusal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A hold is the reason an action is refused: the log says what it allows, if anything.
impl Reason for Hold {}

/// A command named in the one list of commands (`command::list`), which implements this for
/// each and no other: a command left out of the list cannot be made [`AnyAct`], so it cannot be
/// offered, given or journaled.
pub trait Listed: Act {
    /// Is `other` the same command?
    fn same_as(&self, other: &dyn Listed) -> bool;
}

/// Any one command, as the rule area that defines it: what an offer carries and what waits
/// for its round. The list in `command` turns it into its `Command` for scripts and journals;
/// [`AnyAct::get`] asks for it by type.
#[derive(Clone)]
pub struct AnyAct(Arc<dyn Listed>);

impl AnyAct {
    /// The command as its rule area defines it.
    pub fn act(&self) -> &dyn Act {
        &*self.0
    }

    /// The command, if it is of type `T`.
    pub fn get<T: Listed>(&self) -> Option<&T> {
        let any: &dyn Any = &*self.0;
        any.downcast_ref()
    }

    /// The creature or party that acts.
    pub fn who(&self) -> &str {
        self.0.who()
    }
}

impl<T: Listed> From<T> for AnyAct {
    fn from(act: T) -> Self {
        Self(Arc::new(act))
    }
}

impl PartialEq for AnyAct {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(&*other.0)
    }
}

impl Eq for AnyAct {}

impl fmt::Debug for AnyAct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for AnyAct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// What an offer concerns: where the window lists it (its heading) and which square's menu
/// shows it (`gui::square_menu`): a door or trap there, the creature standing there, or, on
/// the chooser's own square, what it does where it stands.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Concern {
    /// What it does where it stands: its light, its senses, its rest, its voice, its climbs.
    Here,
    /// The door at a square.
    Door(GridPos),
    /// The trap at a square.
    Trap(GridPos),
    /// A creature, by name: a foe to strike or step back from, a companion to take from.
    Creature(String),
    /// The squeeze it is stuck in.
    Squeeze,
    /// The drowning it can grab, or the one it holds up.
    Water,
    /// The companion it can take up and carry.
    Carrying,
    /// Something it carries or wields: its shield, its firearm, a weapon by name.
    Gear(String),
}

impl std::fmt::Display for Concern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Concern::Here => write!(f, "here"),
            Concern::Door(at) => write!(f, "door {at}"),
            Concern::Trap(at) => write!(f, "trap {at}"),
            Concern::Creature(name) | Concern::Gear(name) => write!(f, "{name}"),
            Concern::Squeeze => write!(f, "squeeze"),
            Concern::Water => write!(f, "water"),
            Concern::Carrying => write!(f, "carrying"),
        }
    }
}

/// An action open to a creature, with its time and its chance of success: what `delve query`
/// and the window offer before anyone commits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// `open`, `bash`, `disarm methodically`, …
    pub way: String,
    /// `1 round`, `1 turn`, `3 turns`.
    pub time: String,
    /// The throw's target on d20 after modifiers, if a throw is needed.
    pub target: Option<i32>,
    /// Chance of success per attempt, 0–1.
    pub chance: f32,
    /// Modifiers, risks, tools.
    pub note: String,
    /// The command that takes it.
    #[serde(skip)]
    pub command: AnyAct,
}

impl Choice {
    /// A way that takes a throw: its net d20 target and chance counted as the throw will be
    /// (modifiers, bloodied, the natural 20's +10, an attack's natural 1).
    pub fn thrown(
        way: &str,
        time: &str,
        odds: ThrowOdds,
        note: &str,
        command: impl Into<AnyAct>,
    ) -> Self {
        let (net, chance) =
            crate::rules::throws::chance(odds.who, odds.kind, odds.modifiers, odds.target);
        Self {
            chance,
            ..Self::new(way, time, Some(net), note, command)
        }
    }

    pub fn new(
        way: &str,
        time: &str,
        target: Option<i32>,
        note: &str,
        command: impl Into<AnyAct>,
    ) -> Self {
        Self {
            way: way.into(),
            time: time.into(),
            target,
            chance: target.map_or(1.0, delve_ground::dice::d20_chance),
            note: note.into(),
            command: command.into(),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.target {
            Some(t) => write!(
                f,
                "{}: {} {t}+, {:.0}% per attempt",
                self.way,
                self.time,
                self.chance * 100.0
            )?,
            None if self.chance < 1.0 => write!(
                f,
                "{}: {}, {:.0}%",
                self.way,
                self.time,
                self.chance * 100.0
            )?,
            None => write!(f, "{}: {}, certain", self.way, self.time)?,
        }
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
}

/// Commands waiting for the next round. Those given from outside the simulation (a player, a
/// script, the window) go into the journal when they are carried out; those a mind inside it
/// gives (the monsters' reactions, the fighting behaviour) are derived again by a replay, so
/// they are not journaled. A round carries out the derived ones first, then the given ones, each
/// in the order given. In a battle, an action (`rules::acting::Cost::action`) waits for its
/// creature's faction's initiative (RULINGS › The battle round).
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingCommands {
    pub(crate) given: Vec<AnyAct>,
    pub(crate) derived: Vec<AnyAct>,
    pub(crate) in_initiative: Vec<InInitiative>,
}

/// An action given in a battle, waiting for its faction's initiative.
#[derive(Clone, Debug)]
pub(crate) struct InInitiative {
    pub(crate) command: AnyAct,
    pub(crate) faction: usize,
    pub(crate) by_mind: bool,
}

impl PendingCommands {
    /// A command from outside the simulation: a player, a script, the window.
    pub fn push(&mut self, c: impl Into<AnyAct>) {
        self.given.push(c.into());
    }

    /// A command from a mind inside the simulation.
    pub fn push_derived(&mut self, c: impl Into<AnyAct>) {
        self.derived.push(c.into());
    }

    /// The commands given from outside, in order.
    pub fn given(&self) -> &[AnyAct] {
        &self.given
    }

    /// Is a command waiting for this creature or party (for the next round, or for its
    /// faction's initiative)?
    pub fn waiting_for(&self, who: &str) -> bool {
        self.derived
            .iter()
            .chain(&self.given)
            .chain(self.in_initiative.iter().map(|t| &t.command))
            .any(|c| c.who() == who)
    }

    pub fn is_empty(&self) -> bool {
        self.given.is_empty() && self.derived.is_empty() && self.in_initiative.is_empty()
    }
}

/// Refusals every area can meet: a name that names no one, a creature that is down, or one
/// without what every command of its kind needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unable {
    /// No creature has this name (or it is gone).
    NoCreature { name: String },
    /// No party has this name.
    NoParty { name: String },
    /// It has no square on the map.
    NoSquare,
    /// Its stat block gives it no proficiencies.
    NoProficiencies,
    /// It carries no equipment at all.
    CarriesNothing,
    /// A creature or thing the command needs left the level while it was carried out.
    Gone { what: String },
}

impl Reason for Unable {}

impl fmt::Display for Unable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unable::NoCreature { name } => write!(f, "there is no creature named `{name}`"),
            Unable::NoParty { name } => write!(f, "there is no party named `{name}`"),
            Unable::NoSquare => write!(f, "it has no square"),
            Unable::NoProficiencies => write!(f, "it has no proficiencies"),
            Unable::CarriesNothing => write!(f, "it carries nothing"),
            Unable::Gone { what } => write!(f, "{what} is gone"),
        }
    }
}

/// The creature of this name.
pub fn creature(world: &World, name: &str) -> Result<Entity, Unable> {
    world
        .resource::<CreatureIndex>()
        .0
        .get(name)
        .copied()
        .filter(|&e| world.get_entity(e).is_ok())
        .ok_or_else(|| Unable::NoCreature {
            name: name.to_owned(),
        })
}

/// The square a creature stands on.
pub fn square_of(world: &World, who: Entity) -> Result<GridPos, Unable> {
    world
        .get::<Position>(who)
        .map(|p| p.0)
        .ok_or(Unable::NoSquare)
}

/// `(x, y)` of a command as a square.
pub fn at((x, y): (i32, i32)) -> GridPos {
    GridPos::new(x, y)
}

/// Commands whose only field is who acts, each carried out by a rule function taking that
/// creature: `creature_commands! { /// doc  Douse: "douse its lights" => super::douse, activity
/// None, costs REST; }` writes the struct, its words and its [`Act`], with the activity its time
/// goes to ([`Act::activity`]: `None`, or an [`Activity`] by name), its cost (`rules::acting::Cost`,
/// an action if not given), the holds it is allowed under (`, allowed under Stuck`), and the
/// common action it is (`, common Listen`: [`Common`]).
#[macro_export]
macro_rules! creature_commands {
    ($($(#[$doc:meta])* $act:ident: $words:literal => $rule:path, activity $activity:ident
        $(, costs $cost:ident)? $(, allowed under $($hold:ident),+)? $(, common $common:ident)?;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct $act {
                pub who: String,
            }

            impl std::fmt::Display for $act {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, $words)
                }
            }

            impl $crate::act::Act for $act {
                fn who(&self) -> &str {
                    &self.who
                }

                fn carry_out(
                    &self,
                    world: &mut bevy::prelude::World,
                ) -> Result<(), $crate::act::Refusal> {
                    $rule(world, $crate::act::creature(world, &self.who)?)
                }

                fn activity(&self) -> Option<$crate::act::Activity> {
                    $crate::activity!($activity)
                }

                $(fn cost(&self) -> $crate::rules::acting::Cost {
                    $crate::rules::acting::Cost::$cost
                })?

                $(fn allowed_under(&self) -> &'static [$crate::rules::acting::Hold] {
                    &[$($crate::rules::acting::Hold::$hold),+]
                })?

                $(fn common(&self) -> Option<$crate::act::Common> {
                    Some($crate::act::Common::$common)
                })?
            }
        )*
    };
}
