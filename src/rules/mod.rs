//! One module and one plugin per rule area.

pub mod movement;
