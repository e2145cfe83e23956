//! `delve LEVEL --screenshot FILE.png`: render the level in a real window, save the image, exit.

use std::path::PathBuf;

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

/// Frames rendered before the picture is taken, so the tilemap and text are in place.
const SETTLE_FRAMES: u32 = 20;
/// Frames to wait for the picture before giving up.
const GIVE_UP_FRAMES: u32 = 2000;

pub struct ScreenshotPlugin {
    pub path: PathBuf,
}

#[derive(Resource, Debug)]
struct Plan {
    path: PathBuf,
    frames: u32,
    requested: bool,
    /// Each picture asked for (the window's; the players' window's beside it, `NAME-players.png`)
    /// with `Some(Ok)` once saved, `Some(Err)` when saving failed.
    outcomes: Vec<(PathBuf, Option<Result<(), String>>)>,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Plan {
            path: self.path.clone(),
            frames: 0,
            requested: false,
            outcomes: Vec::new(),
        })
        .add_systems(Last, take_and_exit);
    }
}

/// `judge.png` → `judge-players.png`.
fn players_path(path: &std::path::Path) -> PathBuf {
    let stem = path.file_stem().map_or_else(
        || "screenshot".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    path.with_file_name(format!("{stem}-players.png"))
}

fn take_and_exit(
    mut commands: Commands,
    mut plan: ResMut<Plan>,
    players: Option<Res<super::state::PlayerWindow>>,
    area: Option<Res<super::state::MapArea>>,
    players_shown: Option<Res<super::players::PlayersShown>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut exit: MessageWriter<AppExit>,
) {
    plan.frames += 1;
    if plan.requested && plan.outcomes.iter().all(|(_, o)| o.is_some()) {
        let failed: Vec<&String> = plan
            .outcomes
            .iter()
            .filter_map(|(_, o)| o.as_ref().and_then(|r| r.as_ref().err()))
            .collect();
        if failed.is_empty() {
            for (path, _) in &plan.outcomes {
                info!("screenshot saved to {}", path.display());
            }
            exit.write(AppExit::Success);
        } else {
            for e in failed {
                error!("{e}");
            }
            exit.write(AppExit::from_code(1));
        }
        return;
    }
    if plan.frames >= SETTLE_FRAMES && !plan.requested {
        plan.requested = true;
        // The map's space in the picture, for the checks that it comes first (`.ci/run`).
        if let (Some(r), Ok(w)) = (area.and_then(|a| a.0), window.single()) {
            let f = w.scale_factor();
            let (x0, y0, x1, y1) = (r.min.x * f, r.min.y * f, r.max.x * f, r.max.y * f);
            let (ww, wh) = (w.physical_width() as f32, w.physical_height() as f32);
            println!(
                "the map's space: {x0:.0} {y0:.0} {x1:.0} {y1:.0} of {ww:.0}x{wh:.0} ({:.0}% of the window)",
                100.0 * (x1 - x0) * (y1 - y0) / (ww * wh)
            );
        }
        if let Some(shown) = players_shown {
            println!("{}", *shown);
        }
        let path = plan.path.clone();
        plan.outcomes.push((path, None));
        commands
            .spawn(Screenshot::primary_window())
            .observe(save(0));
        if let Some(p) = players {
            let path = players_path(&plan.path);
            plan.outcomes.push((path, None));
            commands
                .spawn(Screenshot::window(p.window))
                .observe(save(1));
        }
    }
    if plan.frames > GIVE_UP_FRAMES {
        error!("no screenshot after {GIVE_UP_FRAMES} frames");
        exit.write(AppExit::from_code(1));
    }
}

/// Saves the picture asked for `n`th.
fn save(n: usize) -> impl FnMut(On<ScreenshotCaptured>, ResMut<Plan>) {
    move |captured: On<ScreenshotCaptured>, mut plan: ResMut<Plan>| {
        let path = plan.outcomes[n].0.clone();
        let outcome = match captured.image.clone().try_into_dynamic() {
            Ok(img) => img
                .to_rgb8()
                .save(&path)
                .map_err(|e| format!("cannot save {}: {e}", path.display())),
            Err(e) => Err(format!("cannot convert the screenshot: {e}")),
        };
        plan.outcomes[n].1 = Some(outcome);
    }
}

/// Measures the window's frame times: after the window has settled, the time of each of
/// `frames` frames; then prints their mean, median and 95th percentile and exits.
pub struct FrameTimesPlugin {
    pub frames: u32,
}

#[derive(Resource, Clone, Debug, Default)]
struct FrameTimes {
    wanted: u32,
    seen: u32,
    times: Vec<f64>,
}

impl Plugin for FrameTimesPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(FrameTimes {
            wanted: self.frames,
            ..default()
        })
        .add_systems(Last, time_frames);
    }
}

fn time_frames(time: Res<Time<Real>>, mut t: ResMut<FrameTimes>, mut exit: MessageWriter<AppExit>) {
    t.seen += 1;
    if t.seen <= SETTLE_FRAMES {
        return;
    }
    let dt = time.delta_secs_f64() * 1000.0;
    t.times.push(dt);
    if t.times.len() as u32 >= t.wanted.max(1) {
        let mut v = t.times.clone();
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        println!(
            "frame time over {} frames: mean {mean:.1} ms, median {:.1} ms, p95 {:.1} ms",
            v.len(),
            at(0.5),
            at(0.95)
        );
        exit.write(AppExit::Success);
    }
}
