//! Delve: a grid-based dungeon simulator that runs the dungeon-delve rules on tile maps.
//!
//! The headless core is a workspace of crates that are DESIGN's layers, each using only those
//! below it, so an upward import does not compile:
//! 1. `delve-ground` (`crates/ground`): the grid, the level file, dice, the clock, the log;
//! 2. `delve-rules` (`crates/rules`): creatures, the round, the registries, the rule areas and
//!    the one list of commands;
//! 3. `delve-minds` (`crates/minds`): the party's and the monsters' policies;
//! 4. `delve-play` (`crates/play`): the plugin list, the delve, keyframes, saves, the timeline,
//!    scenarios;
//! 5. this crate, the tools: [`lab`], [`query`], [`import`], [`lint`], [`situations`].
//!
//! The window and the command line are the `delve-window` package (`window/`), which only reads
//! the simulation's state and writes commands.

pub mod import;
pub mod lab;
pub mod lint;
pub mod query;
pub mod situations;
