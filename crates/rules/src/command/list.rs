//! The one list of every command, written by the rules crate's build script from the rule
//! areas' own declarations (each `impl Act` in `rules::<area>`, and each entry of the areas'
//! command macros): a command is declared once, in its area. The macro makes the [`Command`]
//! enum, [`acts`], `From` each struct, and each struct [`Listed`](crate::act::Listed). The
//! dispatcher knows commands only as [`AnyAct`](crate::act::AnyAct)s.

use serde::{Deserialize, Serialize};

use crate::act::{Act, AnyAct, Listed, Offered};

/// Makes, from the list of every command (`rules::<area>::<Command>`, as each area declares
/// it), the [`Command`] enum (written in scripts and journals as `OpenDoor(who: "Sera", at:
/// (15, 8))`), [`acts`] (every command struct in one module), `From` each struct, each struct
/// [`Listed`], without which it cannot be offered or given ([`AnyAct`]), and [`offers`]: whether
/// each is offered by its area, or why not ([`Act::offered`]).
macro_rules! commands {
    ($($root:ident :: $area:ident :: $act:ident),* $(,)?) => {
        /// Every command by name, with whether a rule area offers it where a creature stands
        /// (`rules::choices_for`), or why not.
        pub fn offers() -> Vec<(&'static str, Offered)> {
            vec![$((stringify!($act), <crate::$root::$area::$act as Act>::offered()),)*]
        }

        /// Every command struct, for scripts and tests: `use delve_rules::command::acts::*`.
        pub mod acts {
            $(pub use crate::$root::$area::$act;)*
        }

        /// What an actor wants to do. Creatures and parties are named as in the level.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub enum Command {
            $($act(crate::$root::$area::$act),)*
        }

        impl Command {
            /// The command as its rule area defines it.
            pub fn act(&self) -> &dyn Act {
                match self {
                    $(Command::$act(a) => a,)*
                }
            }

            /// The command's name, as scripts write it (`OpenDoor`).
            pub fn name(&self) -> &'static str {
                match self {
                    $(Command::$act(_) => stringify!($act),)*
                }
            }
        }

        $(impl From<crate::$root::$area::$act> for Command {
            fn from(a: crate::$root::$area::$act) -> Self {
                Command::$act(a)
            }
        }

        impl Listed for crate::$root::$area::$act {
            fn same_as(&self, other: &dyn Listed) -> bool {
                let other: &dyn std::any::Any = other;
                other.downcast_ref::<Self>() == Some(self)
            }
        })*

        impl From<Command> for AnyAct {
            fn from(c: Command) -> Self {
                match c {
                    $(Command::$act(a) => AnyAct::from(a),)*
                }
            }
        }

        /// The command an [`AnyAct`] holds, as scripts and journals write it. Every [`AnyAct`]
        /// holds a listed command: only this list makes a command [`Listed`].
        impl From<&AnyAct> for Command {
            fn from(a: &AnyAct) -> Self {
                $(if let Some(a) = a.get::<crate::$root::$area::$act>() {
                    return Command::$act(a.clone());
                })*
                unreachable!("only the list makes a command Listed")
            }
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/commands.rs"));
