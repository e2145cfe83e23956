//! Editing the level file while the window is open reloads it: the file is polled twice a
//! second; a good version replaces the delve, a broken one is reported on screen and the last
//! good version stays.

use std::path::Path;
use std::time::{Duration, SystemTime};

use bevy::prelude::*;

use super::state::ShownLevel;
use delve_ground::level;
use delve_play::sim::install_level;

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
    match level::LevelText::read(&path).and_then(|t| t.load().map(|l| (t, l))) {
        Ok((text, loaded)) => {
            let seed = world.resource::<ShownLevel>().seed;
            install_level(world, &loaded.level, seed);
            let mut shown = world.resource_mut::<ShownLevel>();
            shown.level = loaded.level;
            shown.text = text;
            shown.keep_view = false;
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;

    use super::*;
    use delve_ground::level::Diagnostics;
    use delve_play::sim::sim_app;

    const LEVEL: &str = r#"(name: "before", legend: { '.': Floor, 'X': Wall(Stone) }, map: ["XXXXX", "X...X", "XXXXX"])"#;

    fn touch(path: &Path, text: &str, seconds: u64) {
        std::fs::write(path, text).unwrap();
        let f = std::fs::File::options().write(true).open(path).unwrap();
        f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + seconds))
            .unwrap();
    }

    #[test]
    fn editing_the_file_reloads_it_and_a_broken_edit_keeps_the_last_good_level() {
        let dir = std::env::temp_dir().join(format!("delve-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("level.ron");
        touch(&path, LEVEL, 0);
        let text = level::LevelText::read(&path).unwrap();
        let level = text.load().unwrap().level;
        let mut app = sim_app(&level, 1);
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            300,
        )))
        .insert_resource(ShownLevel {
            path: Some(path.clone()),
            seed: 1,
            level,
            text,
            problems: None,
            warnings: Diagnostics::default(),
            redraw: false,
            keep_view: false,
        })
        .add_plugins(ReloadPlugin);
        app.update();
        app.update();

        touch(&path, &LEVEL.replace("before", "after"), 10);
        for _ in 0..4 {
            app.update();
        }
        let shown = app.world().resource::<ShownLevel>();
        assert_eq!(shown.level.name, "after");
        assert!(shown.redraw && shown.problems.is_none());
        assert_eq!(
            app.world()
                .resource::<delve_rules::creature::LevelInfo>()
                .name,
            "after"
        );

        touch(&path, &LEVEL.replace("X...X", "X..?X"), 20);
        for _ in 0..4 {
            app.update();
        }
        let shown = app.world().resource::<ShownLevel>();
        assert_eq!(shown.level.name, "after", "the last good level stays");
        let problems = shown.problems.as_ref().expect("the problems are shown");
        assert!(
            problems
                .to_string()
                .contains("unknown legend character '?'"),
            "{problems}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
