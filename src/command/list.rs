//! The one list of every command: each is written in its rule area and named here once; the
//! macro makes the [`Command`] enum, [`acts`], `From` each struct, and each struct
//! [`Listed`](crate::act::Listed). The dispatcher knows commands only as
//! [`AnyAct`](crate::act::AnyAct)s.

use serde::{Deserialize, Serialize};

use crate::act::{Act, AnyAct, Listed};

/// The list of every command, each defined in its rule area (`rules::<area>::<Command>`, in
/// the area's `commands.rs`): this is the one place a new command is added besides its area.
/// It makes the [`Command`] enum (written in scripts and journals as `OpenDoor(who: "Sera", at:
/// (15, 8))`), [`acts`] (every command struct in one module), `From` each struct, and each
/// struct [`Listed`], without which it cannot be offered or given ([`AnyAct`]).
macro_rules! commands {
    ($($root:ident :: $area:ident :: $act:ident),* $(,)?) => {
        /// Every command struct, for scripts and tests: `use delve::command::acts::*`.
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
    rules::movement::Move,
    rules::movement::Halt,
    rules::rest::Rest,
    rules::conditions::StandUp,
    rules::light::LightUp,
    rules::light::Douse,
    rules::light::DropLight,
    rules::light::PickUpLight,
    rules::light::Refuel,
    rules::doors::OpenDoor,
    rules::doors::CloseDoor,
    rules::doors::HoldShut,
    rules::doors::Unlock,
    rules::doors::PickLock,
    rules::doors::PickLockMethodically,
    rules::doors::Bash,
    rules::doors::Batter,
    rules::doors::Spike,
    rules::doors::AttackDoor,
    rules::traps::DisarmTrap,
    rules::traps::DisarmTrapMethodically,
    rules::traps::Touch,
    rules::traps::Probe,
    rules::traps::RearmTrap,
    rules::search::Search,
    rules::search::SearchHastily,
    rules::sound::Noise,
    rules::sound::Sneak,
    rules::sound::Listen,
    rules::sound::MakeNoise,
    rules::vision::Hide,
    rules::penalties::Dazzle,
    rules::combat::Attack,
    rules::combat::MoveCautiously,
    rules::combat::MoveAcrobatically,
    rules::combat::Disengage,
    rules::combat::ClearJam,
    rules::combat::TotalDefense,
    rules::combat::ActivateEnchantment,
    rules::combat::ForgoShield,
    rules::combat::WaitForOrders,
    rules::party::MoveParty,
    rules::party::RestParty,
    rules::party::MarchingOrder,
    rules::party::Mapper,
    rules::party::TakeFrom,
    rules::party::Autonomy,
    rules::caving::WiggleBack,
    rules::caving::PushForward,
    rules::caving::Climb,
    rules::caving::ClimbDown,
    rules::caving::Belay,
    rules::caving::LowerRope,
    rules::caving::TakeUpRope,
    rules::caving::Jump,
    rules::caving::Traverse,
    rules::caving::RigTraverse,
    rules::caving::CrawlAcross,
    rules::caving::ThrowGrapplingHook,
    rules::water::Grab,
    rules::water::LetGo,
    rules::carrying::Carry,
    rules::judge::SetJudgeModifier,
    rules::judge::UnexpectedLights,
    rules::judge::SetHitPoints,
    rules::judge::GiveCondition,
    rules::judge::TakeCondition,
    rules::judge::PlaceCreature,
    rules::judge::SetDoor,
    rules::judge::SetTrap,
    rules::judge::SetLight,
    rules::judge::SwitchModule,
}
