//! The window (feature `gui`): the level drawn with bevy_ecs_tilemap, creatures as tokens, the
//! clock, the selection and the log in panels, keyboard and mouse through leafwing actions.
//!
//! The window only reads simulation state and writes [`Command`](delve_rules::command::Command)s; the
//! rules run in the headless `SimRound` schedule, one run per round the Judge advances.

pub mod actions;
pub mod art;
pub mod battle;
pub mod battlemap;
pub mod briefing;
pub mod camera;
pub mod caving;
pub mod config_file;
pub mod controls;
pub mod heard;
pub mod input;
pub mod keys;
pub mod labels;
pub mod legend;
pub mod lighting;
pub mod map;
pub mod minimap;
pub mod noise;
pub mod orders;
pub mod overlays;
pub mod panels;
pub mod players;
pub mod pointer;
pub mod preview;
pub mod reload;
pub mod rounds;
pub mod saving;
pub mod screenshot;
pub mod settings;
pub mod square_menu;
pub mod squares;
pub mod state;
pub mod timeline;
pub mod tokens;
pub mod under_pointer;

use delve_ground::level::Level;
use delve_ground::log::EventLog;
use delve_ground::party_policy::PartyPolicy;
use delve_ground::time::Clock;
use delve_play::keyframe::Keyframes;
use delve_play::save::Save;
use delve_play::sim::Playing;
use delve_play::timeline::MarkKind;
use delve_rules::command::{Script, ScriptedCommand};
use delve_rules::creature::CreatureIndex;
use delve_rules::turn_check::TurnCheck;

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::app::{AppExit, PluginGroupBuilder};
use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_ecs_tilemap::TilemapPlugin;

use delve_ground::level;
use delve_play::plugins::SimPlugins;
use delve_play::sim::install_level;

/// What `delve [LEVEL]` asks of the window.
#[derive(Clone, Debug, Default)]
pub struct WindowOptions {
    /// The level file; the embedded crypt when `None`.
    pub level: Option<PathBuf>,
    pub seed: u64,
    /// Save a screenshot here and exit.
    pub screenshot: Option<PathBuf>,
    /// The view to open in.
    pub view: state::ViewMode,
    /// The creature selected at the start.
    pub select: Option<String>,
    /// Write the journal here after every round played (a command script that `delve sim`
    /// replays with the same log).
    pub journal: Option<PathBuf>,
    /// A journal to replay: its commands are given at their rounds as rounds are played.
    pub replay: Vec<ScriptedCommand>,
    /// The policy the A key hands a party to.
    pub policy: PartyPolicy,
    /// A save to go on from, and whether to load it though its level file changed since.
    pub load: Option<PathBuf>,
    pub anyway: bool,
    /// Where Ctrl+S saves; where the autosaves go.
    pub save: Option<PathBuf>,
    pub autosave: Option<PathBuf>,
    /// The keys file (`<config dir>/delve/keys.ron` when none is given).
    pub keys: Option<PathBuf>,
    /// The settings file: panels' widths and sections, the interface's scale
    /// (`<config dir>/delve/window.ron` when none is given).
    pub settings: Option<PathBuf>,
    /// Solo play (`delve play`): the party's view, its first member selected, orders to the
    /// whole party, and none of the Judge's keys (the view switch, a noise anywhere).
    pub solo: bool,
    /// In solo play, the level's briefing as it opens (`gui::briefing`).
    pub briefing: bool,
    /// Open with every panel closed.
    pub no_panels: bool,
    /// Print the frame times of this many frames and exit.
    pub measure_frames: Option<u32>,
    /// Open a second window for the players, of this size: the party's view, following the
    /// party.
    pub player_window: Option<players::PlayersSize>,
    /// A delve to watch on the timeline (`delve replay`): played to its end before the window
    /// opens, then shown at a round of it.
    pub watch: Option<Watch>,
    /// The window's size in logical pixels; the screen's when `None`.
    pub window_size: Option<(u32, u32)>,
}

/// A delve to watch: how it is played, and where the window opens on it.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// Hand the parties to this policy from the first round (a lab's delve).
    pub policy: Option<PartyPolicy>,
    /// The journal's commands, and the checks of its turns.
    pub script: Vec<ScriptedCommand>,
    pub checks: Vec<TurnCheck>,
    /// Rounds to play at most (a policy's delve ends sooner).
    pub rounds: u64,
    /// Where to open: a round, or the first mark of a kind.
    pub at: WatchAt,
}

/// Where `delve replay` opens the delve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WatchAt {
    #[default]
    Start,
    Round(u64),
    /// The round after the first mark of this kind (the end when there is none).
    Mark(MarkKind),
}

/// Everything the window adds on top of `SimPlugins`.
pub struct GuiPlugins;

impl PluginGroup for GuiPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(TilemapPlugin)
            .add(map::MapViewPlugin)
            .add(caving::CavingMarksPlugin)
            .add(tokens::TokensPlugin)
            .add(state::StatePlugin)
            .add(input::InputPlugin)
            .add(camera::CameraPlugin)
            .add(orders::OrdersPlugin)
            .add(rounds::RoundsPlugin)
            .add(panels::PanelsPlugin)
            .add(minimap::MinimapPlugin)
            .add(actions::ActionsPlugin)
            .add(square_menu::SquareMenuPlugin)
            .add(under_pointer::UnderPointerPlugin)
            .add(battle::BattleViewPlugin)
            .add(preview::PreviewPlugin)
            .add(lighting::LightingPlugin)
            .add(noise::NoiseViewPlugin)
            .add(reload::ReloadPlugin)
            .add(saving::SavingPlugin)
            .add(timeline::TimelinePlugin)
            .add(heard::HeardPlugin)
            .add(overlays::OverlaysPlugin)
            .add(legend::LegendPlugin)
            .add(labels::LabelsPlugin)
            .add(settings::SettingsPlugin)
            .add(battlemap::BattlemapPlugin)
    }
}

/// Opens the window and runs until it is closed (or the screenshot is saved).
/// What the window opens on: the save it goes on from (if any), the level's text and the
/// level loaded from it, and the member solo play selects first; or why it cannot open.
struct Opened {
    save: Option<Save>,
    text: level::LevelText,
    loaded: level::Loaded,
    solo_pick: Option<String>,
}

/// Reads the save or the level, checks the selection and the display: what the window opens
/// on, or the exit code after saying why not.
fn open(options: &WindowOptions) -> Result<Opened, ExitCode> {
    // A save brings its own level; else the level file, or the built-in crypt.
    let save = match options.load.as_deref().map(Save::read).transpose() {
        Ok(save) => save,
        Err(e) => {
            eprintln!("{e}");
            return Err(ExitCode::from(1));
        }
    };
    if let Some(save) = &save
        && !options.anyway
        && let Some(changed) = save.level_file_changed()
    {
        eprintln!("{changed}; add --anyway to load it as it was saved");
        return Err(ExitCode::from(2));
    }
    let text = match (&save, &options.level) {
        (Some(save), _) => Ok(save.level.clone()),
        (None, Some(path)) => level::LevelText::read(path),
        (None, None) => Ok(level::LevelText::default_level()),
    };
    let loaded = match text.and_then(|t| t.load().map(|l| (t, l))) {
        Ok(l) => l,
        Err(problems) => {
            eprint!("{problems}");
            return Err(ExitCode::from(1));
        }
    };
    let (text, mut loaded) = loaded;
    if let Some(save) = &save {
        loaded.level.modules = save.modules;
    }
    eprint!("{}", loaded.warnings);
    if let Some(name) = &options.select
        && loaded.level.creature(name).is_none()
    {
        let mut known: Vec<&String> = loaded.level.creatures.iter().map(|c| &c.name).collect();
        known.sort();
        eprintln!("--select: no creature named {name:?} in this level (it has: {known:?})");
        return Err(ExitCode::from(2));
    }
    // Solo play needs a party to play.
    let solo_pick = if options.solo {
        let first = loaded
            .level
            .factions
            .iter()
            .find_map(|f| f.marching_order.first())
            .map(|&i| loaded.level.creatures[i].name.clone());
        match first {
            Some(name) => Some(name),
            None => {
                eprintln!(
                    "{}: no party to play (no faction has a marching order)",
                    text.file
                );
                return Err(ExitCode::from(2));
            }
        }
    } else {
        None
    };
    // The window is built for X11 only (no Wayland): without a display it cannot open.
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        eprintln!(
            "no display to open the window on (DISPLAY is not set): run it under X11, or headless \
             under `xvfb-run -a`; `delve check`, `delve sim` and `delve query` need no display"
        );
        return Err(ExitCode::from(2));
    }
    Ok(Opened {
        save,
        text,
        loaded,
        solo_pick,
    })
}

/// The player's preferences put into the window: its keys (the file's, or the defaults; the
/// Judge's taken away in solo play), its panels and minimap as last left, and the warnings of
/// files that could not be read.
fn preferences(app: &mut App, options: &WindowOptions) {
    let keys_file = options.keys.clone().or_else(keys::default_keys_file);
    let (mut bound, warning) = keys_file
        .as_deref()
        .map_or_else(|| (controls::default_input_map(), None), keys::read_keys);
    let mut panel_state = panels::PanelState::new(options.solo);
    let mut minimap = state::Minimap::default();
    let settings_file = options
        .settings
        .clone()
        .or_else(settings::default_settings_file);
    let (remembered, settings_warning) = match settings_file.as_deref() {
        Some(path) => match settings::WindowSettings::read(path) {
            Ok(s) => (Some(s), None),
            Err(warning) => (None, Some(warning)),
        },
        None => (None, None),
    };
    if let Some(s) = &remembered {
        s.apply(&mut panel_state, &mut minimap);
    }
    if options.no_panels {
        panel_state.close_all();
    }
    // Written when changed; not when it could not be read (left as it is), nor in a run with
    // its panels closed, nor in one that takes a screenshot or measures frames and exits.
    let passing =
        options.no_panels || options.screenshot.is_some() || options.measure_frames.is_some();
    app.insert_resource(settings::SettingsFile {
        file: settings_file.filter(|_| remembered.is_some() && !passing),
        saved: remembered.unwrap_or_default(),
    });
    app.insert_resource(panel_state);
    app.insert_resource(minimap);
    if options.solo {
        // The Judge's keys are not the player's.
        for judge_only in controls::JUDGE_ONLY {
            bound.clear_action(&judge_only);
        }
    }
    app.insert_resource(keys::Bindings {
        keys: bound,
        file: keys_file,
    });
    if options.no_panels {
        app.world_mut().resource_mut::<state::UiState>().show_help = false;
    }
    for warning in [warning, settings_warning].into_iter().flatten() {
        eprintln!("{warning}");
        app.world_mut().write_message(state::Tell(warning));
    }
}

pub fn run(options: WindowOptions) -> ExitCode {
    let opened = match open(&options) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let mut app = App::new();
    app.add_plugins((
        window_plugins(&options, &opened.loaded.level.name),
        SimPlugins::with(opened.loaded.level.modules),
        GuiPlugins,
        briefing::BriefingPlugin {
            at_start: options.solo && options.briefing,
        },
    ));
    if options.window_size.is_none() {
        app.add_systems(Update, fit_window_to_screen);
    }
    preferences(&mut app, &options);
    start_delve(&mut app, options, opened);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Bevy's plugins for one window of the size asked (1280×800 until it fits the screen), its
/// title the level's name, pixel art drawn sharp.
fn window_plugins(options: &WindowOptions, level_name: &str) -> impl PluginGroup {
    let title = if options.solo {
        format!("Delve - {level_name} (solo)")
    } else {
        format!("Delve - {level_name}")
    };
    let (w, h) = options.window_size.unwrap_or((1280, 800));
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title,
                resolution: WindowResolution::new(w, h),
                present_mode: PresentMode::AutoVsync,
                ..default()
            }),
            ..default()
        })
        .set(ImagePlugin::default_nearest())
}

/// Puts the delve in the window: the level installed (or the save restored), a keyframe every
/// turn, the creature selected, the saves and journal, the tools asked for (a players' window,
/// frame times, a screenshot), and a notice of where it went on from.
fn start_delve(app: &mut App, options: WindowOptions, opened: Opened) {
    let Opened {
        save,
        text,
        loaded,
        solo_pick,
    } = opened;
    let seed = save.as_ref().map_or(options.seed, |s| s.seed);
    // A keyframe every turn: the timeline, undo and redo go to any round from the nearest.
    app.insert_resource(Keyframes::default());
    let went = match &save {
        Some(save) => save.restore_into(app.world_mut(), &loaded.level),
        None => {
            install_level(app.world_mut(), &loaded.level, seed);
            None
        }
    };
    if let Some(name) = options.select.as_ref().or(solo_pick.as_ref()) {
        let chosen = app.world().resource::<CreatureIndex>().0.get(name).copied();
        app.insert_resource(state::Selected(chosen));
    }
    let path = match &save {
        Some(save) => Some(PathBuf::from(&save.level.file)),
        None => options.level.clone(),
    };
    app.insert_resource(saving::SaveFiles::new(
        options.save.or(options.load.clone()),
        options.autosave,
        &text,
        app.world(),
    ));
    if let Some(size) = options.player_window {
        app.add_plugins(players::PlayerWindowPlugin { size });
    }
    if let Some(frames) = options.measure_frames {
        app.add_plugins(screenshot::FrameTimesPlugin { frames });
    }
    if let Some(path) = options.screenshot {
        app.add_plugins(screenshot::ScreenshotPlugin { path });
    }
    if let Some(file) = &options.load {
        let notice = match &went {
            Some(went) => format!("went on from {}, but {went}", file.display()),
            None => format!("went on from {}", file.display()),
        };
        if went.is_some() {
            eprintln!("{notice}");
        }
        app.world_mut().write_message(state::Tell(notice));
    }
    if let Some(watch) = &options.watch {
        let notice = watch_delve(app.world_mut(), &loaded.level, watch);
        app.world_mut().write_message(state::Tell(notice));
    }
    app.insert_resource(state::ShownLevel {
        path,
        seed,
        level: loaded.level,
        text,
        problems: None,
        warnings: loaded.warnings,
        redraw: true,
        keep_view: false,
    });
    app.insert_resource(options.view);
    app.insert_resource(state::JournalFile(options.journal));
    app.insert_resource(Script::new(&options.replay));
    app.insert_resource(state::WindowPolicy(options.policy));
}

/// The window takes the whole screen it opens on (its size in logical pixels: the screen's
/// scale factor is honoured), once the screen is known; `--window` chooses instead.
fn fit_window_to_screen(
    mut done: Local<bool>,
    monitors: Query<(&bevy::window::Monitor, Has<bevy::window::PrimaryMonitor>)>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if *done {
        return;
    }
    let Some((monitor, _)) = monitors.iter().max_by_key(|(_, primary)| *primary) else {
        return;
    };
    let Ok(mut window) = windows.single_mut() else {
        return;
    };
    let scale = monitor.scale_factor.max(0.5) as f32;
    let (w, h) = (
        monitor.physical_width as f32 / scale,
        monitor.physical_height as f32 / scale,
    );
    if w >= 200.0 && h >= 200.0 {
        window.resolution.set(w, h);
        window.position = bevy::window::WindowPosition::At(monitor.physical_position);
    }
    *done = true;
}

/// Plays the delve to watch to its end in `world` (keyframes kept: the timeline), its checks
/// compared turn by turn, and goes to the round to open at. Says what it did, or where the
/// delve went another way than its journal.
fn watch_delve(world: &mut World, level: &Level, watch: &Watch) -> String {
    let playing = Playing {
        policy: watch.policy.as_ref(),
        script: &watch.script,
        checks: &watch.checks,
        go_on: true,
        ..Default::default()
    };
    let went = playing.play_in(world, watch.rounds, |_| {});
    let end = world.resource::<Clock>().rounds;
    let marks = delve_play::timeline::marks(world.resource::<EventLog>().entries());
    let at = match watch.at {
        WatchAt::Start => 0,
        WatchAt::Round(r) => r.min(end),
        WatchAt::Mark(kind) => marks
            .iter()
            .find(|m| m.kind == kind)
            .map_or(end, |m| (m.round + 1).min(end)),
    };
    delve_play::save::seek(world, level, at);
    match went {
        Some(went) => {
            eprintln!("{went}");
            format!("{went}; the timeline shows the delve as replayed")
        }
        None => format!(
            "the delve's {end} rounds on the timeline, {} marks; at round {at}: drag the bar, or , . [ ] and K to play",
            marks.len()
        ),
    }
}
