//! Editing the level file while the window is open reloads it: the file is polled twice a
//! second; a good version replaces the delve, a broken one is reported on screen and the last
//! good version stays.

use std::path::Path;
use std::time::{Duration, SystemTime};

use bevy::prelude::*;

use super::ShownLevel;
use crate::actors::install_level;
use crate::level;

/// When the file was last seen modified, and when to look again.
#[derive(Resource, Debug)]
struct Watch {
    modified: Option<SystemTime>,
    timer: Timer,
}

pub struct ReloadPlugin;

impl Plugin for ReloadPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, start_watch)
            .add_systems(Update, reload_when_changed);
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn start_watch(mut commands: Commands, shown: Res<ShownLevel>) {
    commands.insert_resource(Watch {
        modified: shown.path.as_deref().and_then(modified),
        timer: Timer::new(Duration::from_millis(500), TimerMode::Repeating),
    });
}

fn reload_when_changed(world: &mut World) {
    let delta = world.resource::<Time>().delta();
    let Some(path) = world.resource::<ShownLevel>().path.clone() else {
        return;
    };
    let mut watch = world.resource_mut::<Watch>();
    if !watch.timer.tick(delta).just_finished() {
        return;
    }
    let now = modified(&path);
    if now == watch.modified {
        return;
    }
    watch.modified = now;
    match level::load_level_file(&path) {
        Ok(loaded) => {
            let seed = world.resource::<ShownLevel>().seed;
            install_level(world, &loaded.level, seed);
            let mut shown = world.resource_mut::<ShownLevel>();
            shown.level = loaded.level;
            shown.warnings = loaded.warnings;
            shown.problems = None;
            shown.redraw = true;
            info!("reloaded {}", path.display());
        }
        Err(problems) => {
            warn!("{} has problems:\n{problems}", path.display());
            world.resource_mut::<ShownLevel>().problems = Some(problems);
        }
    }
}
