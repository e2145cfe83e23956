//! What the rules' systems share at the table: the map, the clock, the dice and the log
//! (DESIGN.md › Layout: the ground every rule stands on). A rule system that throws and tells
//! takes one [`Table`] rather than four resources.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::dice::Dice;
use crate::grid::DungeonGrid;
use crate::log::EventLog;
use crate::time::Clock;

/// The map the delve is played on, the clock, the dice every throw is made with, and the log
/// every outcome is told in.
#[derive(SystemParam)]
pub struct Table<'w> {
    pub grid: Res<'w, DungeonGrid>,
    pub clock: Res<'w, Clock>,
    pub dice: ResMut<'w, Dice>,
    pub log: ResMut<'w, EventLog>,
}
