//! Encounters and combat (Tactical Combat, RULINGS › Faction initiative): battles begin when a
//! creature becomes aware of a hostile one and end when none has been for a round; factions act
//! in initiative order; attacks, damage and the tactical rules.

mod commands;
pub mod events;
pub use commands::{
    ActivateEnchantment, Attack, ClearJam, Disengage, ForgoShield, MoveAcrobatically,
    MoveCautiously, SacrificeShield, TotalDefense, WaitForOrders,
};
pub use events::{AttackNote, CombatEvent};
mod refusals;
pub use refusals::{AttackRefusal, CombatRefusal};

pub mod attack;
pub mod battle;
pub mod gear;
pub mod initiative;
mod offers;
pub use offers::jam_choices;
pub mod opportunity;
pub mod surprise;
