//! The Judge's hand: the commands that set the Judge's calls (`rules::calls`) and put the
//! Judge's hand on the world (hit points, conditions, doors, traps, lights, modules), and how
//! the level's calls are installed.

mod commands;
pub mod events;
mod hand;
use crate::creature::Position;
use crate::rules::doors::Door;
use crate::rules::traps::Trap;
use delve_ground::level::Level;

use commands::thing_at;
pub use commands::{JudgeRefusal, JudgeScope, SetJudgeModifier, THE_JUDGE, UnexpectedLights};
pub use events::JudgeEvent;
pub use hand::{
    DoorSetting, GiveCondition, PlaceCreature, SetDoor, SetHitPoints, SetLight, SetTrap,
    SwitchModule, TakeCondition, TrapSetting,
};

use bevy::prelude::*;

pub use crate::rules::calls::{Judge, JudgeSettings, judge_modifier};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::JudgeModifiers;

/// The Judge's modifiers the level sets for its doors and traps, on each of them.
fn judge_settings_of_doors_and_traps(world: &mut World, level: &Level) {
    let mut doors = world.query_filtered::<(Entity, &Position), With<Door>>();
    let doors: Vec<(Entity, GridPos)> = doors.iter(world).map(|(e, p)| (e, p.0)).collect();
    let mut traps = world.query_filtered::<(Entity, &Position), With<Trap>>();
    let traps: Vec<(Entity, GridPos)> = traps.iter(world).map(|(e, p)| (e, p.0)).collect();
    let settings =
        level
            .doors
            .iter()
            .filter_map(|d| Some((doors.iter().find(|(_, at)| *at == d.at)?.0, &d.door.judge)))
            .chain(level.traps.iter().filter_map(|t| {
                Some((traps.iter().find(|(_, at)| *at == t.at)?.0, &t.trap.judge))
            }));
    let settings: Vec<(Entity, JudgeModifiers)> = settings.map(|(e, m)| (e, m.clone())).collect();
    for (e, m) in settings {
        world.entity_mut(e).insert(JudgeSettings(m));
    }
}

/// The Judge's calls: settable by command, read by every rule area.
pub struct JudgePlugin;

impl Plugin for JudgePlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps::<crate::rules::calls::Judge>()
            .keeps_component::<crate::rules::calls::JudgeSettings>();
        use crate::rules::areas::RuleArea;
        app.installs(|world, level| world.insert_resource(Judge(level.judge.clone())))
            .installs_creature(|world, e, c| {
                world.entity_mut(e).insert(JudgeSettings(c.judge.clone()));
            })
            .installs_after_creatures(judge_settings_of_doors_and_traps);
        app.init_resource::<Judge>();
    }
}
