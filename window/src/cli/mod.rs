//! The command line's subcommands that are more than a call: `delve sim`, `delve lab` and
//! `delve query`, each with its arguments.

pub mod lab;
pub mod query;
pub mod sim;
