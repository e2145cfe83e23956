//! The one list of every command: each is written in its rule area (or the mind that gives
//! it) and named here once; the macro makes the [`Command`] enum, [`acts`] and `From` each
//! struct. The dispatcher (`command`) knows commands only through [`Command::act`].

use serde::{Deserialize, Serialize};

use super::Act;

/// The list of every command, each defined in its rule area (`rules::<area>::<Command>`, in
/// the area's `commands.rs`) or in the policy that gives it (`policy::<mind>::<Command>`): this
/// is the one place a new command is added besides its area. It makes the [`Command`] enum
/// (written in scripts and journals as `OpenDoor(who: "Sera", at: (15, 8))`), [`acts`] (every
/// command struct in one module) and `From` each struct.
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
        })*
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
    policy::party::Autonomy,
}
