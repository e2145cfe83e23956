//! Delve's ground, the lowest layer of the core (DESIGN.md › Layout): what every rule stands on
//! and that names no rule — the dungeon's grid and its paths, the level file with its types and
//! validation, dice, the clock, the log's entries, the table the rules' systems share (all four), query caches, the tile art, the party's
//! policy file and reading a user's files.

pub mod dice;
pub mod files;
pub mod grid;
pub mod level;
pub mod log;
pub mod party_policy;
pub mod query_cache;
pub mod table;
pub mod tile_art;
pub mod time;
