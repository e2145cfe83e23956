//! Delve: a grid-based dungeon simulator that runs the dungeon-delve rules on tile maps.
//!
//! This crate is the headless core: the simulation ([`sim::SimPlugins`], tested with
//! `MinimalPlugins`), levels, delves that play themselves and the lab. The window and the command
//! line are the `delve-window` package beside it (`window/`), which only reads the simulation's
//! state and writes [`command::Command`]s.

pub mod command;
pub mod creature;
pub mod dice;
pub mod grid;
pub mod import;
pub mod kept;
pub mod keyframe;
pub mod lab;
pub mod level;
pub mod lint;
pub mod log;
pub mod plugins;
pub mod policy;
pub mod query;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod schedule;
pub mod sim;
pub mod tile_art;
pub mod time;
pub mod timeline;
pub mod turn_check;
