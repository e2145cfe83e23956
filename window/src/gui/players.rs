//! `--player-window`: a second window for the players (a second screen, or a screen the table
//! shares) that shows only the party's view, following the party at a legible zoom; the Judge's
//! window keeps everything. Around the map it shows what the players know
//! ([`PlayersShow`], the Judge's to choose in the Judge's panels): the clock, the party's names
//! with their hit points, conditions and lights (fuel left), the last lines of what the party
//! saw and heard, and the party's own map. `--players-size` gives it a size of its own, or the
//! whole of the second screen (`full`).
//!
//! The map is drawn twice: the Judge's copy on the default render layer, the players' copy on
//! [`PLAYERS_LAYER`], always shaded as the party's view (`gui::lighting`) — what the party sees
//! now, what it remembers greyed, secret doors as wall, unseen creatures and unknown traps
//! hidden. The players' camera sees only that layer.

use delve_ground::log::EventLog;
use delve_ground::time::{Clock, DelveMode};
use delve_rules::creature::{Conditions, HitPoints};
use delve_rules::rules::light::{CarriedBy, LightSource};

use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, WindowMode, WindowRef, WindowResolution};
use bevy_egui::{EguiContext, EguiSchedule, egui};

use super::state::{PLAYERS_LAYER, PlayerWindow};
use delve_ground::grid::DungeonGrid;
use delve_rules::creature::Position;
use delve_rules::rules::party::Parties;

/// What the Judge shows in the players' window.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayersShow {
    /// The clock.
    pub clock: bool,
    /// The party: names, hit points, conditions, lights.
    pub party: bool,
    /// The last lines of what the party saw and heard.
    pub log: bool,
    /// The party's own map over what it sees and remembers.
    pub party_map: bool,
}

impl Default for PlayersShow {
    fn default() -> Self {
        Self {
            clock: true,
            party: true,
            log: true,
            party_map: true,
        }
    }
}

/// The players' window's size: logical pixels, or the whole of a screen (the second when there
/// are two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayersSize {
    Window(u32, u32),
    Full,
}

impl Default for PlayersSize {
    fn default() -> Self {
        PlayersSize::Window(1280, 800)
    }
}

/// The camera of the players' panels.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayersPanelsCamera;

/// The players' window's own pass of the panels.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayersPass;

/// How many of the party's latest log lines the players' window shows.
const LOG_LINES: usize = 6;

/// The least a square is wide in the players' window, in pixels.
pub const LEAST_SQUARE_PX: f32 = 32.0;

/// The players' camera.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayersCamera;

/// How many squares across the players' window shows around the party.
const SQUARES_ACROSS: f32 = 28.0;

pub struct PlayerWindowPlugin {
    pub size: PlayersSize,
}

/// The size asked for.
#[derive(Resource, Clone, Copy, Debug)]
struct AskedSize(PlayersSize);

impl Plugin for PlayerWindowPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(AskedSize(self.size))
            .init_resource::<PlayersShow>()
            .init_resource::<PlayersArea>()
            .init_resource::<PlayersShown>()
            .add_systems(Startup, open_player_window)
            .add_systems(PlayersPass, players_panels)
            .add_systems(
                Update,
                (players_viewport, follow_the_party)
                    .chain()
                    .after(super::state::RedrawSet),
            );
    }
}

fn open_player_window(
    mut commands: Commands,
    shown: Option<Res<super::state::ShownLevel>>,
    asked: Res<AskedSize>,
    monitors: Query<Entity, With<bevy::window::Monitor>>,
) {
    let title = shown.map_or_else(
        || "Delve - the players' view".to_owned(),
        |s| format!("Delve - {} (the players' view)", s.level.name),
    );
    let (resolution, mode) = match asked.0 {
        PlayersSize::Window(w, h) => (WindowResolution::new(w, h), WindowMode::Windowed),
        PlayersSize::Full => {
            // The second screen when there is one.
            let screen = monitors
                .iter()
                .nth(1)
                .map_or(MonitorSelection::Primary, MonitorSelection::Entity);
            (
                WindowResolution::default(),
                WindowMode::BorderlessFullscreen(screen),
            )
        }
    };
    let window = commands
        .spawn(Window {
            title,
            resolution,
            mode,
            ..default()
        })
        .id();
    commands.spawn((
        Camera2d,
        PlayersCamera,
        // Black past the level's edge, as unknown squares are: the players' view does not
        // show where the level ends.
        Camera {
            clear_color: ClearColorConfig::Custom(Color::BLACK),
            ..default()
        },
        RenderTarget::Window(WindowRef::Entity(window)),
        RenderLayers::layer(PLAYERS_LAYER),
    ));
    // The players' panels have a camera of their own over the whole window (the map's draws
    // the space they leave: an egui context takes its camera's viewport for its screen).
    commands.spawn((
        Camera2d,
        PlayersPanelsCamera,
        Camera {
            order: 3,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        RenderTarget::Window(WindowRef::Entity(window)),
        RenderLayers::none(),
        EguiSchedule::new(PlayersPass),
    ));
    commands.insert_resource(PlayerWindow { window });
}

/// What the players' window showed in its last frame: the clock, the party's names, how wide a
/// square is (pixels); said with the screenshot (`gui::screenshot`) for the checks.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PlayersShown {
    pub clock: Option<String>,
    pub names: Vec<String>,
    pub square_px: f32,
}

impl std::fmt::Display for PlayersShown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the players' window: the clock {}; the party {}; squares {:.0} px",
            self.clock.as_deref().unwrap_or("not shown"),
            if self.names.is_empty() {
                "not shown".to_owned()
            } else {
                self.names.join(", ")
            },
            self.square_px
        )
    }
}

/// The space the players' panels leave to the map, in the players' window's logical pixels.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayersArea(pub Option<Rect>);

/// What the players' window reads of the delve.
#[derive(SystemParam)]
pub struct PartyKnows<'w, 's> {
    shown: Option<Res<'w, super::state::ShownLevel>>,
    clock: Res<'w, Clock>,
    mode: Res<'w, DelveMode>,
    parties: Res<'w, Parties>,
    log: Res<'w, EventLog>,
    show: Res<'w, PlayersShow>,
    members: Query<'w, 's, (&'static Name, &'static HitPoints, &'static Conditions)>,
    lights: Query<'w, 's, (&'static LightSource, &'static CarriedBy)>,
}

/// The party's members as the players' window lists them: name, hit points, conditions, and
/// each light carried with its fuel.
pub fn party_lines(k: &PartyKnows) -> Vec<(String, String, String)> {
    let Some(party) = k.parties.0.first() else {
        return Vec::new();
    };
    party
        .marching_order
        .iter()
        .filter_map(|&e| {
            let (name, hp, conditions) = k.members.get(e).ok()?;
            let mut state: Vec<String> = conditions
                .0
                .iter()
                .map(|c| format!("{:?}", c.kind).to_lowercase())
                .collect();
            state.dedup();
            let lights: Vec<String> = k
                .lights
                .iter()
                .filter(|(_, by)| by.0 == e)
                .map(|(l, _)| {
                    let kind = format!("{:?}", l.kind).to_lowercase();
                    match (l.lit, l.fuel_rounds) {
                        (true, Some(f)) => format!("{kind} lit, {f} rounds left"),
                        (true, None) => format!("{kind} lit"),
                        (false, Some(f)) => format!("{kind} unlit ({f} rounds of fuel)"),
                        (false, None) => format!("{kind} unlit"),
                    }
                })
                .collect();
            let hp = format!("{} of {} hp", hp.current, hp.max);
            let hp = if state.is_empty() {
                hp
            } else {
                format!("{hp}, {}", state.join(", "))
            };
            Some((name.to_string(), hp, lights.join("; ")))
        })
        .collect()
}

/// The players' panels: the clock at the top, the party on the right, the last of what it saw
/// and heard at the bottom; the map takes what is left.
fn players_panels(
    mut ctx: Single<&mut EguiContext, With<PlayersPanelsCamera>>,
    k: PartyKnows,
    mut area: ResMut<PlayersArea>,
    mut shown: ResMut<PlayersShown>,
    camera: Query<&Projection, With<PlayersCamera>>,
) {
    let mut now = PlayersShown {
        square_px: camera
            .iter()
            .find_map(|p| match p {
                Projection::Orthographic(o) => {
                    Some(super::art::TILE_PX as f32 / o.scale.max(f32::EPSILON))
                }
                _ => None,
            })
            .unwrap_or(0.0),
        ..default()
    };
    let ctx = ctx.get_mut();
    // Large enough to read across the table.
    let body = ctx
        .global_style()
        .text_styles
        .get(&egui::TextStyle::Body)
        .map_or(0.0, |f| f.size);
    if body != 18.0 {
        ctx.all_styles_mut(|s| {
            for (style, font) in s.text_styles.iter_mut() {
                font.size = match style {
                    egui::TextStyle::Heading => 26.0,
                    egui::TextStyle::Small => 14.0,
                    _ => 18.0,
                };
            }
        });
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "players".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    if k.show.clock {
        egui::Panel::top("players clock").show(&mut root, |ui| {
            ui.horizontal_wrapped(|ui| {
                if let Some(s) = &k.shown {
                    ui.heading(&s.level.name);
                }
                ui.heading(format!("{}", *k.clock));
                ui.label(format!("{:?}", *k.mode));
            });
        });
        now.clock = Some(k.clock.to_string());
    }
    if k.show.log {
        let party = k.parties.0.first();
        let members: Vec<String> = party
            .map(|p| {
                p.marching_order
                    .iter()
                    .filter_map(|&e| k.members.get(e).ok().map(|m| m.0.to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        let name = party.map_or("", |p| p.name.as_str());
        let lines: Vec<String> = k
            .log
            .entries()
            .iter()
            .rev()
            .filter(|e| e.known_to_party(&members, name, 0))
            .take(LOG_LINES)
            .map(|e| e.words_for_party(&members, name))
            .collect();
        egui::Panel::bottom("players log").show(&mut root, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            for line in lines.iter().rev() {
                ui.label(line);
            }
        });
    }
    if k.show.party {
        let rows = party_lines(&k);
        egui::Panel::right("players party")
            .resizable(false)
            .exact_size((ctx.viewport_rect().width() * 0.28).clamp(220.0, 420.0))
            .show(&mut root, |ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                ui.heading("The party");
                for (name, hp, lights) in rows {
                    now.names.push(name.clone());
                    ui.separator();
                    ui.strong(name);
                    ui.label(hp);
                    if !lights.is_empty() {
                        ui.label(lights);
                    }
                }
            });
    }
    let free = root.available_rect_before_wrap();
    let zoom = ctx.zoom_factor();
    let rect = Rect::new(
        free.min.x * zoom,
        free.min.y * zoom,
        free.max.x * zoom,
        free.max.y * zoom,
    );
    if area.0 != Some(rect) {
        area.0 = Some(rect);
    }
    if *shown != now {
        *shown = now;
    }
}

/// The players' camera draws the map in the space their panels leave.
fn players_viewport(
    area: Res<PlayersArea>,
    player: Option<Res<PlayerWindow>>,
    windows: Query<&Window>,
    mut cameras: Query<&mut Camera, With<PlayersCamera>>,
) {
    let (Some(rect), Some(player)) = (area.0, player) else {
        return;
    };
    let Ok(window) = windows.get(player.window) else {
        return;
    };
    for mut cam in &mut cameras {
        super::state::draw_within(&mut cam, window, rect);
    }
}

/// The players' camera stays on the party: centred on its members, showing about
/// [`SQUARES_ACROSS`] squares across the map's space, each at least [`LEAST_SQUARE_PX`] wide.
fn follow_the_party(
    parties: Res<Parties>,
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    windows: Query<&Window>,
    area: Res<PlayersArea>,
    player: Option<Res<PlayerWindow>>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<PlayersCamera>>,
) {
    let Some(player) = player else {
        return;
    };
    let Some(party) = parties.0.first() else {
        return;
    };
    let at: Vec<Vec2> = party
        .marching_order
        .iter()
        .filter_map(|&e| positions.get(e).ok())
        .map(|p| super::squares::square_to_world(grid.height(), p.0.x, p.0.y))
        .collect();
    if at.is_empty() {
        return;
    }
    let centre = at.iter().copied().sum::<Vec2>() / at.len() as f32;
    let width = area.0.map_or_else(
        || {
            windows
                .get(player.window)
                .map_or(960.0, |w| w.width().max(100.0))
        },
        |a| a.width().max(100.0),
    );
    let tile = super::art::TILE_PX as f32;
    let scale = (SQUARES_ACROSS * tile / width).min(tile / LEAST_SQUARE_PX);
    for (mut tf, mut proj) in &mut cameras {
        if tf.translation.truncate() != centre {
            tf.translation.x = centre.x;
            tf.translation.y = centre.y;
        }
        if let Projection::Orthographic(o) = &mut *proj
            && o.scale != scale
        {
            o.scale = scale;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The party as the players' window lists it: the crypt's four in marching order, with
    /// their hit points, conditions, and lights and fuel.
    #[test]
    fn the_players_see_their_party_with_hit_points_and_lights() {
        use bevy::ecs::system::RunSystemOnce;
        let level = delve_ground::level::load_default_level().unwrap().level;
        let mut app = delve_play::sim::sim_app(&level, 1);
        app.init_resource::<PlayersShow>();
        app.update();
        let rows = app
            .world_mut()
            .run_system_once(|k: PartyKnows| party_lines(&k))
            .unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(names, ["Brannoc", "Mirela", "Aldric", "Sera"]);
        assert_eq!(rows[0].1, "18 of 18 hp");
        assert_eq!(rows[0].2, "torch lit, 60 rounds left");
        assert_eq!(rows[2].1, "5 of 5 hp, vulnerable");
        assert_eq!(rows[2].2, "lantern unlit (240 rounds of fuel)");
        let shown = PlayersShown {
            clock: Some("hour 0, turn 0, round 0".into()),
            names: names.iter().map(|n| n.to_string()).collect(),
            square_px: 33.0,
        };
        assert_eq!(
            shown.to_string(),
            "the players' window: the clock hour 0, turn 0, round 0; the party Brannoc, \
             Mirela, Aldric, Sera; squares 33 px"
        );
    }
}
