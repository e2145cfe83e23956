//! Delve: a grid-based dungeon simulator that runs the dungeon-delve rules on tile maps.
//!
//! The simulation is headless ([`sim::SimPlugins`], tested with `MinimalPlugins`); the window
//! (`gui` feature) only reads its state and writes [`command::Command`]s.

pub mod command;
pub mod creature;
pub mod dice;
pub mod grid;
pub mod import;
pub mod lab;
pub mod level;
pub mod lint;
pub mod log;
pub mod policy;
pub mod query;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod schedule;
pub mod sim;
pub mod tile_art;
pub mod time;

#[cfg(feature = "gui")]
pub mod gui;
