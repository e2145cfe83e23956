//! The Judge's panels (egui, through bevy_egui): the clock and the view on a bar at the top, the
//! selected creature's inspector, the Judge's hand, the clock and timers and the rules' switches
//! on the left, the log on the right, the keys at the bottom. Each can be collapsed from the
//! top bar; the map takes the space they leave ([`MapArea`]).
//!
//! The panels read the world and give the Judge's commands through [`JudgeOrders`], carried out
//! at once between rounds ([`delve_rules::command::dispatch_now`]): logged, journaled, replayed and
//! undone like every other command. In solo play the Judge's hand and switches are not shown,
//! and the log shows what the party knows.
//!
//! This file lays the panels out (the top bar, the help line, the map's area); each panel is its
//! own file: `inspector`, `hand` (the Judge's hand), `timers`, `switches`, `log`, `keys`.

use delve_ground::grid::DungeonGrid;
use delve_ground::log::LogEntry;
use delve_play::keyframe::Keyframes;
use delve_rules::command::CommandEvent;
use delve_rules::creature::Combatant;
use delve_rules::rules::combat::gear::ShieldState;
use delve_rules::rules::tactical::TacticalCombat;

use std::collections::{BTreeMap, BTreeSet};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::state::{MapArea, Notice, Selected, ShownLevel, Tell, UiState, ViewMode};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::{EventLog, LogKind};
use delve_ground::time::{Clock, DelveMode};
use delve_rules::command::Command;
use delve_rules::creature::{
    Abilities, ArmorClass, ClassLevel, Conditions, Creature, Encumbrance, Equipment, Faction,
    Factions, HitPoints, Position, Proficiencies, Resting,
};
use delve_rules::rules::doors::Door;
use delve_rules::rules::judge::Judge;
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::modules::RunningModules;
use delve_rules::rules::movement::Walking;
use delve_rules::rules::party::Parties;
use delve_rules::rules::rest::Fatigue;
use delve_rules::rules::sound::SoundRow;
use delve_rules::rules::task::Task;
use delve_rules::rules::traps::Trap;
use delve_rules::rules::vision::Sight;

mod hand;
mod inspector;
mod keys;
pub mod layout;
mod log;
mod switches;
mod timers;
use hand::hand;
use inspector::inspector;
use keys::{Rebinding, keys_panel};
use log::log_panel;
use switches::switches;
use timers::timers;

/// Which panels are open, and the log panel's filter.
#[derive(Resource, Clone, Debug)]
pub struct PanelState {
    pub inspector: bool,
    pub hand: bool,
    pub timers: bool,
    pub switches: bool,
    pub log: bool,
    pub keys: bool,
    pub filter: LogFilter,
    /// Solo play: no Judge's hand, no switches.
    pub solo: bool,
    /// An action waiting for its new key.
    pub rebinding: Rebinding,
    /// The hit points the Judge is about to set, and whose they are.
    hit_points: i32,
    hit_points_of: Option<Entity>,
    /// The condition the Judge is about to give.
    condition: ConditionKind,
    sound: SoundRow,
    /// The log's rows that pass the filter, and what they were worked out for.
    rows: Vec<usize>,
    /// The log's length, the filter and whose knowledge (none: the Judge's) the rows are for.
    rows_for: Option<(usize, LogFilter, Option<String>)>,
    /// The interface's scale over the screen's (Ctrl+= and Ctrl+-): the panels' text and
    /// widgets.
    pub ui_scale: f32,
    /// The timers shown: the creatures whose name holds this.
    timer_filter: String,
    /// The side panels' widths, in the interface's points (remembered: `gui::settings`).
    pub left_width: f32,
    pub right_width: f32,
    /// A side panel collapsed to a strip (`layout`) is open over the map: the left, the log.
    pub left_over_map: bool,
    pub log_over_map: bool,
    /// The panels' sections opened or closed against their default, by title.
    pub sections: BTreeMap<String, bool>,
}

/// The interface's scale: from this to that, in these steps.
pub const UI_SCALES: (f32, f32, f32) = (0.6, 2.5, 0.1);

impl Default for PanelState {
    fn default() -> Self {
        Self::new(false)
    }
}

impl PanelState {
    /// Every panel closed: the map takes the whole window.
    pub fn close_all(&mut self) {
        self.inspector = false;
        self.hand = false;
        self.timers = false;
        self.switches = false;
        self.log = false;
        self.keys = false;
    }

    /// Every panel open; in solo play (`solo`) the Judge's hand and switches are not shown.
    pub fn new(solo: bool) -> Self {
        Self {
            inspector: true,
            hand: true,
            timers: true,
            switches: true,
            log: true,
            keys: false,
            filter: LogFilter::default(),
            solo,
            rebinding: Rebinding::default(),
            hit_points: 0,
            hit_points_of: None,
            condition: ConditionKind::Prone,
            sound: SoundRow::Loud,
            rows: Vec::new(),
            rows_for: None,
            ui_scale: 1.0,
            timer_filter: String::new(),
            left_width: super::panels::LEFT_WIDTH,
            right_width: super::panels::RIGHT_WIDTH,
            left_over_map: false,
            log_over_map: false,
            sections: BTreeMap::new(),
        }
    }
}

/// Ctrl+= and Ctrl+-: the interface larger or smaller (the screen's scale factor times this).
pub fn scale_interface(
    actions: Single<&leafwing_input_manager::prelude::ActionState<super::controls::DelveAction>>,
    mut state: ResMut<PanelState>,
    mut tell: MessageWriter<Tell>,
) {
    use super::controls::DelveAction as A;
    let (least, most, step) = UI_SCALES;
    let by = if actions.just_pressed(&A::UiLarger) {
        step
    } else if actions.just_pressed(&A::UiSmaller) {
        -step
    } else {
        return;
    };
    let scale = ((state.ui_scale + by).clamp(least, most) * 10.0).round() / 10.0;
    state.ui_scale = scale;
    tell.write(Tell(format!("the interface at {:.0}%", scale * 100.0)));
}

/// What the log panel shows: one creature's entries or everyone's, the kinds ticked, the
/// Judge's secret throws or not, the entries whose words hold the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFilter {
    pub who: Option<String>,
    pub kinds: BTreeSet<LogKind>,
    pub secret: bool,
    pub search: String,
}

impl Default for LogFilter {
    fn default() -> Self {
        Self {
            who: None,
            kinds: LogKind::ALL.iter().copied().collect(),
            secret: true,
            search: String::new(),
        }
    }
}

impl LogFilter {
    /// Does the entry pass?
    pub fn passes(&self, e: &LogEntry) -> bool {
        let ev = e.event();
        if !self.kinds.contains(&ev.kind()) || (!self.secret && ev.secret()) {
            return false;
        }
        if let Some(who) = &self.who
            && ev.who() != Some(who.as_str())
            && ev.also_concerns() != Some(who.as_str())
        {
            return false;
        }
        self.search.is_empty()
            || e.to_string()
                .to_lowercase()
                .contains(&self.search.to_lowercase())
    }
}

/// The Judge's commands from the panels, carried out at once (between rounds) by
/// [`carry_out_judge_orders`].
#[derive(Resource, Clone, Debug, Default)]
pub struct JudgeOrders(pub Vec<Command>);

/// The panels' pass: what is drawn over the map after it (the legend) knows the map's space.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PanelsPass;

/// The map should centre on this square (a log entry clicked).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct CentreOn(pub Option<GridPos>);

pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy_egui::EguiPlugin>() {
            app.add_plugins(bevy_egui::EguiPlugin::default());
        }
        // The panels have a camera of their own over the whole window; the map's draws only the
        // space they leave.
        app.world_mut()
            .resource_mut::<bevy_egui::EguiGlobalSettings>()
            .auto_create_primary_context = false;
        app.init_resource::<PanelState>()
            .add_systems(Startup, spawn_panels_camera)
            .init_resource::<JudgeOrders>()
            .init_resource::<MapArea>()
            .init_resource::<CentreOn>()
            .add_systems(
                PreUpdate,
                gate_game_input
                    .after(leafwing_input_manager::plugin::InputManagerSystem::ManualControl),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (panels, map_viewport, keys_stay_with_the_game)
                    .chain()
                    .in_set(PanelsPass)
                    .run_if(resource_exists::<ShownLevel>),
            )
            .add_systems(
                Update,
                (
                    carry_out_judge_orders.before(super::state::PlayRounds),
                    scale_interface,
                ),
            );
    }
}

/// The keyboard belongs to the game but while text is typed: a button or checkbox that took
/// the focus (egui moves it with Tab and the arrows, which are the game's next creature and
/// pan) gives it up at once, or every game key would wait on it and Space would press it.
fn keys_stay_with_the_game(mut contexts: EguiContexts) {
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    if ctx.text_edit_focused() {
        return;
    }
    if let Some(id) = ctx.memory(|m| m.focused()) {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
}

fn spawn_panels_camera(mut commands: Commands) {
    commands.spawn((
        bevy_egui::PrimaryEguiContext,
        Camera2d,
        bevy::camera::visibility::RenderLayers::none(),
        Camera {
            // Over the map's camera (0) and the minimap's (1).
            order: 2,
            clear_color: ClearColorConfig::None,
            ..default()
        },
    ));
}

/// Game keys and clicks are not for the map while egui has them: typing in the log's search
/// presses no action, and a click or the wheel on a panel does nothing on the map beneath it.
fn gate_game_input(
    panels: Res<PanelState>,
    wants: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut actions: Query<
        &mut leafwing_input_manager::prelude::ActionState<super::controls::DelveAction>,
    >,
) {
    use super::controls::DelveAction as A;
    let Some(wants) = wants else {
        return;
    };
    for mut state in &mut actions {
        // A key pressed to be bound is not an order.
        if wants.wants_any_keyboard_input() || panels.rebinding.action.is_some() {
            state.reset_all();
        } else if wants.wants_any_pointer_input() {
            for a in [A::Select, A::MoveHere, A::Zoom, A::Attack, A::MakeNoise] {
                state.reset(&a);
            }
        }
    }
}

/// Carries out the Judge's commands from the panels at once, between rounds.
pub fn carry_out_judge_orders(world: &mut World) {
    if world.resource::<JudgeOrders>().0.is_empty() {
        return;
    }
    let orders = std::mem::take(&mut world.resource_mut::<JudgeOrders>().0);
    let before = world.resource::<EventLog>().len();
    for c in orders {
        delve_rules::command::dispatch_now(world, c);
    }
    // A refusal is told in the notice as well as in the log.
    let refused = world.resource::<EventLog>().entries()[before..]
        .iter()
        .rev()
        .find_map(|e| match e.get::<CommandEvent>() {
            Some(r @ CommandEvent::CommandRefused { .. }) => Some(r.to_string()),
            _ => None,
        });
    world.write_message(Tell(refused.unwrap_or_default()));
}

type Inspected = (
    &'static Name,
    &'static Faction,
    &'static ClassLevel,
    &'static HitPoints,
    &'static ArmorClass,
    &'static Position,
    &'static Encumbrance,
    &'static Conditions,
    Option<&'static Walking>,
    Option<&'static Task>,
);

type Carried = (
    Option<&'static Abilities>,
    Option<&'static Proficiencies>,
    Option<&'static Equipment>,
    Option<&'static Fatigue>,
    Option<&'static Resting>,
    Option<&'static Sight>,
    Option<&'static Combatant>,
    Option<&'static ShieldState>,
);

/// What the panels read of the delve.
#[derive(SystemParam)]
pub struct DelveView<'w, 's> {
    shown: Res<'w, ShownLevel>,
    clock: Res<'w, Clock>,
    mode: Res<'w, DelveMode>,
    factions: Res<'w, Factions>,
    parties: Res<'w, Parties>,
    log: Res<'w, EventLog>,
    view: Option<Res<'w, ViewMode>>,
    modules: Option<Res<'w, RunningModules>>,
    judge: Option<Res<'w, Judge>>,
    tactical: Option<Res<'w, TacticalCombat>>,
    offered: Res<'w, super::actions::Offered>,
    battle: Option<Res<'w, super::battle::BattleText>>,
    frames: Option<Res<'w, Keyframes>>,
    creatures: Query<'w, 's, Inspected>,
    carried: Query<'w, 's, Carried>,
    everyone: Query<'w, 's, (Entity, &'static Name, &'static Position), With<Creature>>,
    faction_of: Query<'w, 's, &'static delve_rules::creature::Faction>,
    lights: Query<
        'w,
        's,
        (
            &'static LightSource,
            Option<&'static CarriedBy>,
            Option<&'static Position>,
        ),
    >,
    doors: Query<'w, 's, (&'static Position, &'static Door)>,
    traps: Query<'w, 's, (&'static Position, &'static Trap)>,
}

impl DelveView<'_, '_> {
    fn name_of(&self, e: Entity) -> String {
        self.everyone
            .get(e)
            .map_or_else(|_| "?".to_owned(), |(_, n, _)| n.to_string())
    }

    fn party_view(&self) -> bool {
        self.view.as_deref().is_some_and(|v| !v.judges())
    }
}

/// What the panels change: the selection, the notice, the orders, the panels' own state.
#[derive(SystemParam)]
pub struct PanelsMut<'w, 's> {
    state: ResMut<'w, PanelState>,
    bindings: Option<ResMut<'w, super::keys::Bindings>>,
    pressed: Res<'w, ButtonInput<KeyCode>>,
    maps: Query<
        'w,
        's,
        &'static mut leafwing_input_manager::prelude::InputMap<super::controls::DelveAction>,
        With<super::state::MapCamera>,
    >,
    selected: ResMut<'w, Selected>,
    ui: ResMut<'w, UiState>,
    notice: Res<'w, Notice>,
    tell: MessageWriter<'w, Tell>,
    orders: ResMut<'w, JudgeOrders>,
    centre: ResMut<'w, CentreOn>,
    area: ResMut<'w, MapArea>,
    timeline: Option<ResMut<'w, super::timeline::Timeline>>,
    /// What the players' window shows, when there is one.
    players: Option<ResMut<'w, super::players::PlayersShow>>,
}

fn panels(mut contexts: EguiContexts, d: DelveView, mut m: PanelsMut) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The interface's scale is the keys' (`scale_interface`), not egui's own Ctrl+= too.
    if (ctx.zoom_factor() - m.state.ui_scale).abs() > 0.001 {
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
        ctx.set_zoom_factor(m.state.ui_scale);
        // The new scale holds from the next frame: the panels are laid out then, at their
        // remembered widths in the new points.
        return Ok(());
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    top_bar(&mut root, &d, &mut m);
    if !m.notice.0.is_empty() || m.ui.show_help {
        egui::Panel::bottom("help").show(&mut root, |ui| help(ui, &m));
    }
    // The timeline, once a round has been played.
    if let (Some(frames), Some(timeline)) = (d.frames.as_ref(), m.timeline.as_mut())
        && frames.end() > 0
    {
        let (now, end) = (d.clock.rounds, frames.end());
        egui::Panel::bottom("timeline").show(&mut root, |ui| {
            super::timeline::timeline_panel(ui, now, end, timeline);
        });
    }
    if let Some(battle) = d.battle.as_ref().filter(|b| !b.0.is_empty()) {
        // Tall enough for the whole acting order, up to two fifths of the window at first (the
        // chance to hit offered is its first line); dragged, up to half.
        let height = ctx.viewport_rect().height();
        let line = ctx.global_style().text_styles[&egui::TextStyle::Monospace].size * 1.3;
        let fits = battle.0.lines().count() as f32 * line + 16.0;
        egui::Panel::bottom("battle")
            .resizable(true)
            .default_size(fits.clamp(80.0, height * 0.4))
            .size_range(60.0..=height * 0.5)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| ui.monospace(&battle.0));
            });
    }
    let solo = m.state.solo;
    let left_open =
        m.state.inspector || (!solo && (m.state.hand || m.state.switches)) || m.state.timers;
    // The map first (`layout`): the panels dock while the map keeps its share of the window,
    // else they are strips that open over it. A panel's width is the user's drag, at least the
    // narrowest and at most what leaves the map its share.
    let window = ctx.viewport_rect();
    let free = root.available_rect_before_wrap();
    let (left_dock, log_dock) = layout::side_docks(
        (window.width(), window.height()),
        (free.width(), free.height()),
        left_open.then_some(m.state.left_width),
        m.state.log.then_some(m.state.right_width),
        // The Judge reads the log as the delve goes; a solo player the creature's actions.
        if solo {
            layout::First::Left
        } else {
            layout::First::Log
        },
    );
    // The sections' open states are the settings' (`gui::settings`); taken out while the
    // sections borrow the rest.
    let mut sections = std::mem::take(&mut m.state.sections);
    match left_dock {
        layout::Dock::Docked { at_most } => {
            let shown = egui::Panel::left("judge")
                .resizable(true)
                .default_size(m.state.left_width.min(at_most))
                .size_range(120.0_f32.min(at_most)..=at_most)
                .show(&mut root, |ui| {
                    wrap_to_the_panel(ui);
                    left_panel(ui, &d, &mut m, &mut sections);
                });
            m.state.left_width = shown.response.rect.width();
        }
        layout::Dock::Strip => {
            let open = m.state.left_over_map;
            m.state.left_over_map = layout::strip(
                &mut root,
                "judge strip",
                true,
                open,
                "the creature, the Judge's hand, the timers and the rules",
            );
        }
        layout::Dock::Closed => {}
    }
    match log_dock {
        layout::Dock::Docked { at_most } => {
            let shown = egui::Panel::right("log")
                .resizable(true)
                .default_size(m.state.right_width.min(at_most))
                .size_range(120.0_f32.min(at_most)..=at_most)
                .show(&mut root, |ui| {
                    wrap_to_the_panel(ui);
                    log_panel(ui, &d, &mut m)
                });
            m.state.right_width = shown.response.rect.width();
        }
        layout::Dock::Strip => {
            let open = m.state.log_over_map;
            m.state.log_over_map = layout::strip(&mut root, "log strip", false, open, "the log");
        }
        layout::Dock::Closed => {}
    }
    // A strip's panel open over the map, at its width, along the map's edge.
    let map = root.available_rect_before_wrap();
    if left_dock == layout::Dock::Strip && m.state.left_over_map {
        let width = m.state.left_width;
        layout::over_the_map(ctx, "judge over the map", map, true, width, |ui| {
            left_panel(ui, &d, &mut m, &mut sections)
        });
    }
    if log_dock == layout::Dock::Strip && m.state.log_over_map {
        let width = m.state.right_width;
        layout::over_the_map(ctx, "log over the map", map, false, width, |ui| {
            log_panel(ui, &d, &mut m)
        });
    }
    m.state.sections = sections;
    if m.state.keys {
        let mut open = true;
        egui::Window::new("Keys")
            .open(&mut open)
            .default_pos(ctx.viewport_rect().center() - egui::vec2(220.0, 200.0))
            .show(ctx, |ui| keys_panel(ui, &mut m));
        m.state.keys &= open;
    }
    if let Some(problems) = &d.shown.problems {
        egui::Window::new("The level file has problems")
            .collapsible(false)
            .default_pos(ctx.viewport_rect().center() - egui::vec2(200.0, 100.0))
            .show(ctx, |ui| {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 120, 100),
                    "Still showing the last good version.",
                );
                ui.monospace(problems.to_string());
            });
    }
    // In the window's logical pixels (egui's points are those over the interface's scale).
    let free = root.available_rect_before_wrap();
    let zoom = ctx.zoom_factor();
    let area = Rect::new(free.min.x, free.min.y, free.max.x, free.max.y);
    let area = Rect::from_corners(area.min * zoom, area.max * zoom);
    if m.area.0 != Some(area) {
        m.area.0 = Some(area);
    }
    Ok(())
}

/// A side panel's text wraps at the panel's width, monospace too: its width is the user's drag
/// (or the default), never its longest line's. A long line once widened the panel, and that
/// width was saved as the user's.
fn wrap_to_the_panel(ui: &mut egui::Ui) {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
}

/// The left panel's sections: the selected creature, the Judge's hand (not in solo play), the
/// clock and timers, the rules' switches (not in solo play).
fn left_panel(
    ui: &mut egui::Ui,
    d: &DelveView,
    m: &mut PanelsMut,
    sections: &mut BTreeMap<String, bool>,
) {
    let solo = m.state.solo;
    egui::ScrollArea::vertical().show(ui, |ui| {
        if m.state.inspector {
            section(ui, sections, "Creature", true, |ui| {
                inspector(ui, d, &m.selected)
            });
        }
        if m.state.hand && !solo {
            section(ui, sections, "The Judge's hand", true, |ui| hand(ui, d, m));
        }
        if m.state.timers {
            section(ui, sections, "Clock and timers", true, |ui| {
                timers(ui, d, &mut m.state.timer_filter)
            });
        }
        if m.state.switches && !solo {
            section(ui, sections, "Rules", false, |ui| {
                switches(ui, d, &mut m.orders)
            });
        }
        if let Some(show) = m.players.as_mut() {
            section(ui, sections, "The players' window", true, |ui| {
                players_show(ui, show)
            });
        }
    });
}

/// What the players' window shows, the Judge's to choose.
fn players_show(ui: &mut egui::Ui, show: &mut super::players::PlayersShow) {
    let mut s = *show;
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut s.clock, "the clock");
        ui.checkbox(&mut s.party, "the party");
        ui.checkbox(&mut s.log, "what it saw and heard");
        ui.checkbox(&mut s.party_map, "its map");
    });
    if s != *show {
        *show = s;
    }
}

/// A section of a panel that can be folded, open at first as `default_open` says or as it was
/// left (`open`, by title: only those left otherwise than their default).
fn section<R>(
    ui: &mut egui::Ui,
    open: &mut BTreeMap<String, bool>,
    title: &str,
    default_open: bool,
    body: impl FnOnce(&mut egui::Ui) -> R,
) {
    let was = open.get(title).copied().unwrap_or(default_open);
    let shown = egui::CollapsingHeader::new(title)
        .default_open(was)
        .show(ui, body);
    let now = shown.openness > 0.5;
    if now == default_open {
        open.remove(title);
    } else {
        open.insert(title.to_owned(), now);
    }
}

fn top_bar(root: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    egui::Panel::top("clock").show(root, |ui| {
        ui.horizontal_wrapped(|ui| {
            let view = match d.view.as_deref() {
                Some(ViewMode::Creature) => m.selected.0.map_or_else(
                    || "no one's view".to_owned(),
                    |e| format!("{}'s view", d.name_of(e)),
                ),
                Some(ViewMode::Party) => "the party's view".to_owned(),
                _ => "the Judge's view".to_owned(),
            };
            ui.strong(&d.shown.level.name);
            ui.label(format!("{} | {:?} | {view}", *d.clock, *d.mode));
            ui.separator();
            let solo = m.state.solo;
            let s = &mut m.state;
            ui.toggle_value(&mut s.inspector, "Creature");
            if !solo {
                ui.toggle_value(&mut s.hand, "Hand");
            }
            ui.toggle_value(&mut s.timers, "Timers");
            if !solo {
                ui.toggle_value(&mut s.switches, "Rules");
            }
            ui.toggle_value(&mut s.log, "Log");
            ui.toggle_value(&mut m.ui.show_help, "Help");
            ui.toggle_value(&mut s.keys, "Keys");
        });
    });
}

fn help(ui: &mut egui::Ui, m: &PanelsMut) {
    if !m.notice.0.is_empty() {
        ui.colored_label(egui::Color32::from_rgb(250, 210, 120), &m.notice.0);
    }
    if m.ui.show_help
        && let Some(b) = &m.bindings
    {
        ui.label(super::keys::help_line(&b.keys));
    }
}

fn party_members(d: &DelveView) -> (Vec<String>, String) {
    let party = d.parties.0.first();
    let members = party
        .map(|p| p.marching_order.iter().map(|&e| d.name_of(e)).collect())
        .unwrap_or_default();
    (members, party.map_or(String::new(), |p| p.name.clone()))
}

/// The camera draws the map in the space the panels leave, and centres on a clicked entry.
fn map_viewport(
    area: Res<MapArea>,
    mut centre: ResMut<CentreOn>,
    grid: Res<DungeonGrid>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Camera, &mut Transform), With<super::state::MapCamera>>,
) {
    let Some(rect) = area.0 else {
        return;
    };
    for (mut cam, mut tf) in &mut camera {
        super::state::draw_within(&mut cam, &window, rect);
        if let Some(p) = centre.0 {
            let at = super::squares::square_to_world(grid.height(), p.x, p.y);
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
    centre.0 = None;
}

/// The left panel's width at first.
pub const LEFT_WIDTH: f32 = 310.0;

/// The log's.
pub const RIGHT_WIDTH: f32 = 350.0;

#[cfg(test)]
mod tests;
