//! Delve: a grid-based dungeon simulator that runs the dungeon-delve rules on tile maps.
//!
//! This crate is the headless core: the simulation ([`plugins::SimPlugins`], tested with
//! `MinimalPlugins`), levels, delves that play themselves and the lab. The window and the command
//! line are the `delve-window` package beside it (`window/`), which only reads the simulation's
//! state and writes [`command::Command`]s.
//!
//! The modules are layers that import only downward (the test `layers` in `tests/suite` holds
//! the table, with the rule areas each may use and why), lowest first:
//! 1. the ground: [`grid`], [`level`], [`dice`], [`time`], [`log`], [`query_cache`], [`tile_art`],
//!    [`party_policy`];
//! 2. creatures, throws and the round: [`creature`], `rules::{abilities, tactical, calls,
//!    throws}`, [`schedule`], [`turn_check`];
//! 3. what the rule areas register into, naming none of them: [`state`], `rules::{acting,
//!    modules, areas}`, [`act`];
//! 4. the rule areas, `rules::<area>`, each using only the areas the rules tie it to;
//! 5. the one list of commands, the dispatcher and the journal: [`command`];
//! 6. the minds: [`policy`];
//! 7. playing delves: [`keyframe`], [`plugins`] (the one list of plugins), [`sim`], [`save`],
//!    [`timeline`], [`scenario`];
//! 8. the tools: [`lab`], [`query`], [`import`], [`lint`].

pub mod act;
pub mod command;
pub mod creature;
pub mod dice;
pub mod files;
pub mod grid;
pub mod import;
pub mod keyframe;
pub mod lab;
pub mod level;
pub mod lint;
pub mod log;
pub mod party_policy;
pub mod plugins;
pub mod policy;
pub mod query;
pub mod query_cache;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod schedule;
pub mod sim;
pub mod state;
pub mod tile_art;
pub mod time;
pub mod timeline;
pub mod turn_check;
