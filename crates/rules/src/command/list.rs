//! The one list of every command: each is written in its rule area and named here once; the
//! macro makes the [`Command`] enum, [`acts`], `From` each struct, and each struct
//! [`Listed`](crate::act::Listed). The dispatcher knows commands only as
//! [`AnyAct`](crate::act::AnyAct)s.

use serde::{Deserialize, Serialize};

use crate::act::{Act, AnyAct, Listed};

/// Whether a rule area offers a command where a creature stands, or why not (a command is
/// declared one or the other: the list does not compile without it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Among the offers of the area that defines it.
    Offered,
    /// Not offered, and why.
    NotOffered(&'static str),
}

macro_rules! offered {
    (offered) => {
        Offered::Offered
    };
    (not_offered($why:expr)) => {
        Offered::NotOffered($why)
    };
}

/// Why the Judge's commands are not offered.
const HAND: &str = "the Judge's hand on the world (the Hand panel), not a creature's action";
/// Why the party's orders are not offered.
const WHOLE_PARTY: &str =
    "an order to the whole party (the window's party keys, a policy), not one creature's action";
/// Why a walk is not offered.
const WALK: &str = "a walk goes where the map is clicked or the keys point, not to an offer";

/// The list of every command, each defined in its rule area (`rules::<area>::<Command>`, in
/// the area's `commands.rs`): this is the one place a new command is added besides its area.
/// It makes the [`Command`] enum (written in scripts and journals as `OpenDoor(who: "Sera", at:
/// (15, 8))`), [`acts`] (every command struct in one module), `From` each struct, each struct
/// [`Listed`], without which it cannot be offered or given ([`AnyAct`]), and [`OFFERS`]: each
/// command is declared `offered` by its area, or `not_offered("why")`.
macro_rules! commands {
    ($($root:ident :: $area:ident :: $act:ident => $offer:ident $(($why:expr))?),* $(,)?) => {
        /// Every command by name, with whether a rule area offers it where a creature stands
        /// (`rules::choices_for`), or why not.
        pub const OFFERS: &[(&str, Offered)] = &[
            $((stringify!($act), offered!($offer $(($why))?)),)*
        ];

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

commands! {
    rules::movement::Move => not_offered(WALK),
    rules::movement::Halt => not_offered("stopping a walk under way: a key, a mind"),
    rules::rest::Rest => offered,
    rules::conditions::StandUp => offered,
    rules::light::LightUp => offered,
    rules::light::Douse => offered,
    rules::light::DropLight => offered,
    rules::light::PickUpLight => offered,
    rules::light::Refuel => offered,
    rules::doors::OpenDoor => offered,
    rules::doors::CloseDoor => offered,
    rules::doors::HoldShut => offered,
    rules::doors::Unlock => offered,
    rules::doors::PickLock => offered,
    rules::doors::PickLockMethodically => offered,
    rules::doors::Bash => offered,
    rules::doors::Batter => offered,
    rules::doors::Spike => offered,
    rules::doors::AttackDoor => offered,
    rules::traps::DisarmTrap => offered,
    rules::traps::DisarmTrapMethodically => offered,
    rules::traps::Touch => offered,
    rules::traps::Probe => offered,
    rules::traps::RearmTrap => offered,
    rules::search::Search => offered,
    rules::search::SearchHastily => offered,
    rules::sound::Noise => offered,
    rules::sound::Sneak => offered,
    rules::sound::Listen => offered,
    rules::sound::MakeNoise => not_offered(HAND),
    rules::vision::Hide => offered,
    rules::penalties::Dazzle => offered,
    rules::combat::Attack => offered,
    rules::combat::MoveCautiously => offered,
    rules::combat::MoveAcrobatically => offered,
    rules::combat::Disengage => offered,
    rules::combat::ClearJam => offered,
    rules::combat::TotalDefense => offered,
    rules::combat::ActivateEnchantment => offered,
    rules::combat::ForgoShield => offered,
    rules::combat::SacrificeShield => offered,
    rules::combat::WaitForOrders => not_offered(WHOLE_PARTY),
    rules::party::MoveParty => not_offered(WHOLE_PARTY),
    rules::party::RestParty => not_offered(WHOLE_PARTY),
    rules::party::MarchingOrder => not_offered(WHOLE_PARTY),
    rules::party::Mapper => not_offered(WHOLE_PARTY),
    rules::party::TakeFrom => offered,
    rules::party::StayBehind => offered,
    rules::party::ToTheFront => offered,
    rules::party::Leave => offered,
    rules::party::Autonomy => not_offered(WHOLE_PARTY),
    rules::caving::WiggleBack => offered,
    rules::caving::PushForward => offered,
    rules::caving::Climb => offered,
    rules::caving::ClimbDown => offered,
    rules::caving::Belay => offered,
    rules::caving::LowerRope => offered,
    rules::caving::TakeUpRope => offered,
    rules::caving::Jump => offered,
    rules::caving::Traverse => offered,
    rules::caving::RigTraverse => offered,
    rules::caving::CrawlAcross => offered,
    rules::caving::ThrowGrapplingHook => offered,
    rules::water::Grab => offered,
    rules::water::LetGo => offered,
    rules::carrying::Carry => offered,
    rules::judge::SetJudgeModifier => not_offered(HAND),
    rules::judge::UnexpectedLights => not_offered(HAND),
    rules::judge::SetHitPoints => not_offered(HAND),
    rules::judge::GiveCondition => not_offered(HAND),
    rules::judge::TakeCondition => not_offered(HAND),
    rules::judge::PlaceCreature => not_offered(HAND),
    rules::judge::SetDoor => not_offered(HAND),
    rules::judge::SetTrap => not_offered(HAND),
    rules::judge::SetLight => not_offered(HAND),
    rules::judge::SwitchModule => not_offered(HAND),
}
