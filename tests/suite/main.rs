//! The integration tests of the headless core, one module a rule area or tool, built as one
//! test binary (each file directly under `tests/` would be a crate of its own, compiled and
//! linked on its own). Helpers more than one module uses are in [`common`].

mod common;

mod acting;
mod autonomy;
mod autonomy_caving;
mod autonomy_doors;
mod autonomy_fallen;
mod autonomy_fights;
mod autonomy_ground;
mod autonomy_odds;
mod autonomy_tasks;
mod autonomy_water;
mod battle_round;
mod carrying;
mod caving;
mod caving_gaps;
mod caving_props;
mod caving_ropes;
mod caving_supervision;
mod combat;
mod descent;
mod doors;
mod doors_forcing;
mod gate;
mod gym;
mod hauling;
mod hearing;
mod import;
mod import_bounds;
mod judge;
mod keyframes;
mod lab;
mod lab_folder;
mod lab_why;
mod layers;
mod levels;
mod light;
mod lint;
mod loader_errors;
mod loader_props;
mod marching;
mod modules;
mod monsters;
mod movement;
mod outcomes;
mod party_log;
mod planner;
mod query;
mod registries;
mod rest;
mod rulings;
mod save;
mod scenario;
mod search;
mod situations;
mod source;
mod tidy;

mod tactics;
mod trap_damage;
mod trapbreaking;
mod traps;
mod water;
