//! Delve's rules, on the ground ([`delve_ground`]) and beneath the minds (DESIGN.md › Layout):
//! 1. creatures, throws and the round: [`creature`], `rules::{abilities, tactical, calls,
//!    throws}`, [`schedule`], [`turn_check`];
//! 2. what the rule areas register into, naming none of them: [`state`], `rules::{acting,
//!    modules, areas}`, [`act`];
//! 3. the rule areas, `rules::<area>`, each using only the areas the rules tie it to (the test
//!    `layers` holds the table, with why);
//! 4. the one list of commands, the dispatcher and the journal: [`command`].
//!
//! The rules offer and refuse; the minds, above, choose.

pub mod act;
pub mod command;
pub mod creature;
pub mod rules;
pub mod schedule;
pub mod state;
pub mod turn_check;
