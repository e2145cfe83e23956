//! One module and one plugin per rule area.

pub mod abilities;
pub mod acting;
pub mod areas;
pub mod calls;
pub mod carrying;
pub mod caving;
pub mod combat;
pub mod conditions;
pub mod damage;
pub mod doors;
pub mod judge;
pub mod light;
pub mod modules;
pub mod movement;
pub mod party;
pub mod penalties;
pub mod rest;
pub mod search;
pub mod sound;
pub mod tactical;
pub mod task;
pub mod throws;
pub mod traps;
pub mod vision;
pub mod water;

pub use areas::{choices_for, choices_next_round};
