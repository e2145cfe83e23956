//! What every command shares: the [`Act`] a rule area implements for each of its commands, and
//! the typed [`Refusal`] it answers with when the command cannot be carried out.
//!
//! A rule area defines its commands (one struct each, named as the command word) with their
//! refusal reasons in its own `commands.rs` (or in its `mod.rs`, for an area of one command);
//! the list in `command` names each once.

use std::any::Any;
use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use crate::creature::CreatureIndex;
use crate::rules::acting::{Cost, Hold};

/// One command of a rule area: who gives it, what it is in words, and how it is carried out.
pub trait Act: fmt::Display {
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
pub fn square_of(world: &World, who: Entity) -> Result<crate::grid::GridPos, Unable> {
    world
        .get::<crate::creature::Position>(who)
        .map(|p| p.0)
        .ok_or(Unable::NoSquare)
}

/// `(x, y)` of a command as a square.
pub fn at((x, y): (i32, i32)) -> crate::grid::GridPos {
    crate::grid::GridPos::new(x, y)
}

/// Commands whose only field is who acts, each carried out by a rule function taking that
/// creature: `creature_commands! { /// doc  Douse: "douse its lights" => super::douse, costs
/// REST; }` writes the struct, its words and its [`Act`], with its cost (`rules::acting::Cost`,
/// an action if not given) and the holds it is allowed under (`, allowed under Stuck`).
#[macro_export]
macro_rules! creature_commands {
    ($($(#[$doc:meta])* $act:ident: $words:literal => $rule:path
        $(, costs $cost:ident)? $(, allowed under $($hold:ident),+)?;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
            pub struct $act {
                pub who: String,
            }

            impl std::fmt::Display for $act {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    write!(f, $words)
                }
            }

            impl $crate::command::Act for $act {
                fn who(&self) -> &str {
                    &self.who
                }

                fn carry_out(
                    &self,
                    world: &mut bevy::prelude::World,
                ) -> Result<(), $crate::command::Refusal> {
                    $rule(world, $crate::command::creature(world, &self.who)?)
                }

                $(fn cost(&self) -> $crate::rules::acting::Cost {
                    $crate::rules::acting::Cost::$cost
                })?

                $(fn allowed_under(&self) -> &'static [$crate::rules::acting::Hold] {
                    &[$($crate::rules::acting::Hold::$hold),+]
                })?
            }
        )*
    };
}
