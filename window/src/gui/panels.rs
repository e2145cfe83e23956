//! The Judge's panels (egui, through bevy_egui): the clock and the view on a bar at the top, the
//! selected creature's inspector, the Judge's hand, the clock and timers and the rules' switches
//! on the left, the log on the right, the keys at the bottom. Each can be collapsed from the
//! top bar; the map takes the space they leave ([`MapArea`]).
//!
//! The panels read the world and give the Judge's commands through [`JudgeOrders`], carried out
//! at once between rounds ([`delve::command::dispatch_now`]): logged, journaled, replayed and
//! undone like every other command. In solo play the Judge's hand and switches are not shown,
//! and the log shows what the party knows.

use std::collections::BTreeSet;

use bevy::camera::Viewport;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::ShownLevel;
use super::input::{Selected, UiState};
use super::lighting::ViewMode;
use delve::command::Command;
use delve::creature::{
    Abilities, ArmorClass, ClassLevel, Conditions, Creature, Encumbrance, Equipment, Faction,
    Factions, HitPoints, Position, Proficiencies,
};
use delve::grid::GridPos;
use delve::level::SpeedBasis;
use delve::level::schema::{ConditionKind, JudgeModifier};
use delve::log::{EventLog, LogKind};
use delve::rules::doors::Door;
use delve::rules::judge::{
    DoorSetting, GiveCondition, Judge, JudgeScope, PlaceCreature, SetDoor, SetHitPoints,
    SetJudgeModifier, SetLight, SetTrap, SwitchModule, TakeCondition, TrapSetting,
    UnexpectedLights,
};
use delve::rules::light::{CarriedBy, LightSource};
use delve::rules::modules::{RuleModule, RunningModules};
use delve::rules::movement::{Speeds, Walking};
use delve::rules::party::Parties;
use delve::rules::rest::{Fatigue, Resting, needs_rest};
use delve::rules::sound::{MakeNoise, SoundRow};
use delve::rules::task::Task;
use delve::rules::traps::Trap;
use delve::rules::vision::Sight;
use delve::time::{Clock, DelveMode, ROUNDS_PER_TURN};

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
    rows_for: Option<(usize, LogFilter, bool)>,
}

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
        }
    }
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
            kinds: LogKind::ALL.into_iter().collect(),
            secret: true,
            search: String::new(),
        }
    }
}

impl LogFilter {
    /// Does the entry pass?
    pub fn passes(&self, e: &delve::log::LogEntry) -> bool {
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

/// The part of the window the panels leave to the map, in logical pixels.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct MapArea(pub Option<Rect>);

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
                (panels, map_viewport)
                    .chain()
                    .run_if(resource_exists::<ShownLevel>),
            )
            .add_systems(
                Update,
                carry_out_judge_orders.before(super::input::play_rounds),
            );
    }
}

fn spawn_panels_camera(mut commands: Commands) {
    commands.spawn((
        bevy_egui::PrimaryEguiContext,
        Camera2d,
        bevy::camera::visibility::RenderLayers::none(),
        Camera {
            order: 1,
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
        &mut leafwing_input_manager::prelude::ActionState<super::input::DelveAction>,
    >,
) {
    use super::input::DelveAction as A;
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
        delve::command::dispatch_now(world, c);
    }
    // A refusal is told in the notice as well as in the log.
    let refused = world.resource::<EventLog>().entries()[before..]
        .iter()
        .rev()
        .find_map(|e| match e.get::<delve::command::CommandEvent>() {
            Some(r @ delve::command::CommandEvent::CommandRefused { .. }) => Some(r.to_string()),
            _ => None,
        });
    if let Some(mut ui) = world.get_resource_mut::<UiState>() {
        ui.notice = refused.unwrap_or_default();
    }
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
    tactical: Option<Res<'w, delve::rules::tactical::TacticalCombat>>,
    offered: Res<'w, super::actions::Offered>,
    battle: Option<Res<'w, super::battle::BattleText>>,
    under: Res<'w, super::under_pointer::UnderPointer>,
    creatures: Query<'w, 's, Inspected>,
    carried: Query<'w, 's, Carried>,
    everyone: Query<'w, 's, (Entity, &'static Name, &'static Position), With<Creature>>,
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
        self.view.as_deref() == Some(&ViewMode::Party)
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
        &'static mut leafwing_input_manager::prelude::InputMap<super::input::DelveAction>,
        With<super::input::MapCamera>,
    >,
    selected: ResMut<'w, Selected>,
    ui: ResMut<'w, UiState>,
    orders: ResMut<'w, JudgeOrders>,
    centre: ResMut<'w, CentreOn>,
    area: ResMut<'w, MapArea>,
}

const PANEL_WIDTH: f32 = 310.0;

fn panels(mut contexts: EguiContexts, d: DelveView, mut m: PanelsMut) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    top_bar(&mut root, &d, &mut m);
    if !m.ui.notice.is_empty() || m.ui.show_help {
        egui::Panel::bottom("help").show(&mut root, |ui| help(ui, &m));
    }
    if let Some(battle) = d.battle.as_ref().filter(|b| !b.0.is_empty()) {
        egui::Panel::bottom("battle")
            .resizable(true)
            .default_size(150.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| ui.monospace(&battle.0));
            });
    }
    let solo = m.state.solo;
    let left_open =
        m.state.inspector || (!solo && (m.state.hand || m.state.switches)) || m.state.timers;
    if left_open {
        egui::Panel::left("judge")
            .resizable(true)
            .default_size(PANEL_WIDTH)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if m.state.inspector {
                        egui::CollapsingHeader::new("Creature")
                            .default_open(true)
                            .show(ui, |ui| inspector(ui, &d, &m.selected));
                    }
                    if m.state.hand && !solo {
                        egui::CollapsingHeader::new("The Judge's hand")
                            .default_open(true)
                            .show(ui, |ui| hand(ui, &d, &mut m));
                    }
                    if m.state.timers {
                        egui::CollapsingHeader::new("Clock and timers")
                            .default_open(true)
                            .show(ui, |ui| timers(ui, &d));
                    }
                    if m.state.switches && !solo {
                        egui::CollapsingHeader::new("Rules")
                            .default_open(false)
                            .show(ui, |ui| switches(ui, &d, &mut m.orders));
                    }
                });
            });
    }
    if m.state.log {
        egui::Panel::right("log")
            .resizable(true)
            .default_size(PANEL_WIDTH + 40.0)
            .show(&mut root, |ui| log_panel(ui, &d, &mut m));
    }
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
    let free = root.available_rect_before_wrap();
    let area = Rect::new(free.min.x, free.min.y, free.max.x, free.max.y);
    if m.area.0 != Some(area) {
        m.area.0 = Some(area);
    }
    Ok(())
}

fn top_bar(root: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    egui::Panel::top("clock").show(root, |ui| {
        ui.horizontal_wrapped(|ui| {
            let view = if d.party_view() {
                "the party's view"
            } else {
                "the Judge's view"
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
    if !m.ui.notice.is_empty() {
        ui.colored_label(egui::Color32::from_rgb(250, 210, 120), &m.ui.notice);
    }
    if m.ui.show_help
        && let Some(b) = &m.bindings
    {
        ui.label(super::keys::help_line(&b.keys));
    }
}

/// A key being bound: the action, and the press with the actions it clashes with, waiting for
/// the player to bind it anyway.
#[derive(Clone, Debug, Default)]
pub struct Rebinding {
    pub action: Option<super::input::DelveAction>,
    pub clash: Option<(super::keys::KeyPress, Vec<super::input::DelveAction>)>,
}

/// Rebinding: each action with its keys; "change" waits for a key (with Ctrl, Alt or Shift if
/// held), names the actions already on it, and binds it; "restore defaults". Each change is
/// written to the keys file at once.
fn keys_panel(ui: &mut egui::Ui, m: &mut PanelsMut) {
    use super::keys::{KeyPress, conflicts, keys_of, rebind, rebindable};
    let Some(bindings) = m.bindings.as_deref_mut() else {
        ui.label("No keys to change.");
        return;
    };
    let mut changed = None;
    let what = |a: &super::input::DelveAction| {
        super::input::HELP
            .iter()
            .find(|(h, _)| h == a)
            .map_or_else(|| format!("{a:?}"), |(_, w)| (*w).to_owned())
    };
    let rb = &mut m.state.rebinding;
    if let Some(action) = rb.action {
        match &rb.clash {
            None => {
                ui.strong(format!(
                    "Press a key for \"{}\" (Esc: cancel)",
                    what(&action)
                ));
                let modifiers: Vec<ModifierKeyOf> = MODIFIERS
                    .iter()
                    .filter(|(keys, _)| keys.iter().any(|k| m.pressed.pressed(*k)))
                    .map(|(_, m)| *m)
                    .collect();
                let key = m
                    .pressed
                    .get_just_pressed()
                    .find(|k| !MODIFIERS.iter().any(|(keys, _)| keys.contains(k)))
                    .copied();
                match key {
                    Some(KeyCode::Escape) => *rb = Rebinding::default(),
                    Some(key) => {
                        let press = KeyPress { key, modifiers };
                        let clashes = conflicts(&bindings.keys, &action, &press);
                        if clashes.is_empty() {
                            changed = Some((action, press));
                        } else {
                            rb.clash = Some((press, clashes));
                        }
                    }
                    None => {}
                }
            }
            Some((press, clashes)) => {
                let names: Vec<String> = clashes.iter().map(&what).collect();
                ui.colored_label(
                    egui::Color32::from_rgb(250, 160, 110),
                    format!("{} is bound to: {}", press.name(), names.join(", ")),
                );
                let press = press.clone();
                let mut cancel = false;
                ui.horizontal(|ui| {
                    if ui.button("bind it anyway").clicked() {
                        changed = Some((action, press));
                    }
                    cancel = ui.button("cancel").clicked();
                });
                if cancel {
                    *rb = Rebinding::default();
                }
            }
        }
    }
    egui::Grid::new("keys").striped(true).show(ui, |ui| {
        for a in rebindable(&bindings.keys) {
            ui.label(what(&a));
            ui.monospace(keys_of(&bindings.keys, &a));
            if ui.small_button("change").clicked() {
                *rb = Rebinding {
                    action: Some(a),
                    clash: None,
                };
            }
            ui.end_row();
        }
    });
    let mut restore = false;
    ui.horizontal(|ui| {
        restore = ui.button("restore defaults").clicked();
        if let Some(f) = &bindings.file {
            ui.weak(format!("kept in {}", f.display()));
        }
    });
    if let Some((action, press)) = changed {
        rebind(&mut bindings.keys, action, &press);
        *rb = Rebinding::default();
    } else if !restore {
        return;
    }
    if restore {
        bindings.keys = super::input::default_input_map();
        if m.state.solo {
            for judge_only in super::input::JUDGE_ONLY {
                bindings.keys.clear_action(&judge_only);
            }
        }
    }
    for mut map in &mut m.maps {
        *map = bindings.keys.clone();
    }
    m.ui.notice = match &bindings.file {
        Some(f) => match super::keys::write_keys(f, &bindings.keys) {
            Ok(()) => format!("keys written to {}", f.display()),
            Err(e) => e,
        },
        None => "keys changed for this session".into(),
    };
}

type ModifierKeyOf = leafwing_input_manager::prelude::ModifierKey;

/// The modifier keys, each with its left and right keys.
const MODIFIERS: [([KeyCode; 2], ModifierKeyOf); 3] = [
    (
        [KeyCode::ControlLeft, KeyCode::ControlRight],
        ModifierKeyOf::Control,
    ),
    ([KeyCode::AltLeft, KeyCode::AltRight], ModifierKeyOf::Alt),
    (
        [KeyCode::ShiftLeft, KeyCode::ShiftRight],
        ModifierKeyOf::Shift,
    ),
];

fn rest_clock(fatigue: &Fatigue, resting: Option<&Resting>, exempt: bool) -> String {
    match (resting, exempt) {
        (Some(r), _) => format!("resting, {} of 10 rounds", r.rounds),
        (None, true) => "needs no rest (Endurance)".into(),
        (None, false) if fatigue.overdue() => "overdue for rest".into(),
        (None, false) => format!(
            "rest due in {} rounds",
            fatigue.turns_until_rest() * ROUNDS_PER_TURN
        ),
    }
}

/// The selected creature's stat block and state (the inspector).
fn inspector(ui: &mut egui::Ui, d: &DelveView, selected: &Selected) {
    let Some(e) = selected.0 else {
        ui.label("No creature selected (Tab, or click a token).");
        return;
    };
    let (Ok(c), Ok(k)) = (d.creatures.get(e), d.carried.get(e)) else {
        ui.label("The selected creature is gone.");
        return;
    };
    let (name, faction, class, hp, ac, pos, enc, conditions, walking, task) = c;
    let (abilities, profs, gear, fatigue, resting, sight) = k;
    let class = match &class.class {
        Some(c) => format!("{c} {}", class.level),
        None => format!("monster, level {}", class.level),
    };
    ui.heading(name.as_str());
    ui.label(format!("{class} of the {}", d.factions.name(*faction)));
    ui.label(format!(
        "HP {}/{}  AC {}  at {}",
        hp.current, hp.max, ac.0, pos.0
    ));
    if let Some(a) = abilities {
        let a = a.0;
        ui.label(format!(
            "Str {} Int {} Wis {} Dex {} Con {} Cha {}",
            a.str, a.int, a.wis, a.dex, a.con, a.cha
        ));
    }
    let basis = match enc.0 {
        SpeedBasis::Encumbrance { stone } => format!("{stone} stone carried"),
        SpeedBasis::Explicit { feet } => format!("speed {feet}' (its stat block)"),
    };
    match Speeds::from_basis(enc.0) {
        Some(sp) => ui.label(format!(
            "{basis}: exploration {}'/turn, combat {}'/round, running {}'/round",
            sp.exploration, sp.combat, sp.running
        )),
        None => ui.label(format!("{basis}: too encumbered to move")),
    };
    if let Some(w) = walking
        && let Some(to) = w.destination()
    {
        ui.label(format!("walking to {to} at {} speed", w.pace));
    }
    if let Some(t) = task {
        ui.label(format!("busy: {} ({} rounds left)", t.work, t.rounds_left));
    }
    if let Some(f) = fatigue {
        let exempt = profs.is_some_and(|p| !needs_rest(p));
        ui.label(rest_clock(f, resting, exempt));
    }
    ui.separator();
    if conditions.0.is_empty() {
        ui.label("conditions: none");
    }
    for c in &conditions.0 {
        ui.label(format!("{:?}: from {}, {}", c.kind, c.source, c.ends));
    }
    if let Some(p) = profs {
        let list: Vec<String> = p
            .list
            .iter()
            .map(|x| match p.throws.get(x) {
                Some(t) => format!("{x:?} {t}+"),
                None => format!("{x:?}"),
            })
            .collect();
        ui.label(format!("proficiencies: {}", or_none(list)));
    }
    if let Some(g) = gear {
        let list: Vec<String> = g.0.iter().map(|x| format!("{x:?}")).collect();
        ui.label(format!("gear: {}", or_none(list)));
    }
    let lights: Vec<String> = d
        .lights
        .iter()
        .filter(|(_, by, _)| by.is_some_and(|b| b.0 == e))
        .map(|(l, ..)| light_words(l))
        .collect();
    ui.label(format!("lights: {}", or_none(lights)));
    if let Some(s) = sight {
        let seen: BTreeSet<GridPos> = s.seen.iter().map(|(p, _)| *p).collect();
        let others: Vec<String> = d
            .everyone
            .iter()
            .filter(|(o, _, p)| *o != e && seen.contains(&p.0))
            .map(|(_, n, _)| n.to_string())
            .collect();
        ui.label(format!(
            "sees {} squares; sees {}",
            seen.len(),
            or_none(others)
        ));
    }
    let turn_start = d.clock.rounds / ROUNDS_PER_TURN * ROUNDS_PER_TURN;
    let heard: Vec<String> = d
        .log
        .entries()
        .iter()
        .rev()
        .take_while(|en| en.round >= turn_start)
        .filter_map(|en| match en.get::<delve::rules::sound::HearingEvent>() {
            Some(h @ delve::rules::sound::HearingEvent::Heard { who, .. })
                if who.as_str() == name.as_str() =>
            {
                Some(h.to_string())
            }
            _ => None,
        })
        .collect();
    ui.label(format!("heard this turn: {}", or_none(heard)));
    if !d.offered.0.is_empty() {
        ui.separator();
        ui.label(super::actions::describe(&d.offered).trim());
    }
    if !d.under.0.is_empty() {
        ui.label(d.under.0.trim());
    }
}

fn or_none(list: Vec<String>) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

fn light_words(l: &LightSource) -> String {
    let state = if l.lit { "lit" } else { "unlit" };
    match l.fuel_rounds {
        Some(r) => format!("{:?} ({state}, {r} rounds of fuel)", l.kind),
        None => format!("{:?} ({state})", l.kind),
    }
}

/// The Judge's hand on the world: on the selected creature, and on the square last clicked.
fn hand(ui: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    let orders = &mut m.orders.0;
    let s = &mut m.state;
    if let Some(e) = m.selected.0
        && let Ok((name, _, _, hp, _, _, _, conditions, ..)) = d.creatures.get(e)
    {
        let who = name.to_string();
        ui.label(format!("{who}:"));
        ui.horizontal(|ui| {
            // A creature newly selected starts from its own hit points.
            if s.hit_points_of != Some(e) {
                s.hit_points_of = Some(e);
                s.hit_points = hp.current;
            }
            ui.label("hit points");
            ui.add(egui::DragValue::new(&mut s.hit_points).range(-20..=hp.max));
            if ui.button("Set").clicked() {
                orders.push(
                    SetHitPoints {
                        who: who.clone(),
                        hit_points: s.hit_points,
                    }
                    .into(),
                );
            }
        });
        for c in &conditions.0 {
            ui.horizontal(|ui| {
                ui.label(format!("{:?}", c.kind));
                if ui.small_button("end").clicked() {
                    orders.push(
                        TakeCondition {
                            who: who.clone(),
                            condition: c.kind,
                        }
                        .into(),
                    );
                }
            });
        }
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("condition")
                .selected_text(format!("{:?}", s.condition))
                .show_ui(ui, |ui| {
                    for k in CONDITIONS {
                        ui.selectable_value(&mut s.condition, k, format!("{k:?}"));
                    }
                });
            if ui.button("Give").clicked() {
                orders.push(
                    GiveCondition {
                        who: who.clone(),
                        condition: s.condition,
                    }
                    .into(),
                );
            }
        });
    }
    ui.separator();
    let Some(at) = m.ui.picked else {
        ui.label("Click a square for its door, trap, lights, or to place the creature there.");
        return;
    };
    let xy = (at.x, at.y);
    ui.label(format!("The square {at}:"));
    if let Some(e) = m.selected.0
        && let Ok((name, ..)) = d.creatures.get(e)
        && ui.button(format!("Place {name} here")).clicked()
    {
        orders.push(
            PlaceCreature {
                who: name.to_string(),
                at: xy,
            }
            .into(),
        );
    }
    if let Some((_, door)) = d.doors.iter().find(|(p, _)| p.0 == at) {
        ui.label(super::under_pointer::describe_door(door));
        let key = d
            .shown
            .level
            .doors
            .iter()
            .find(|dd| dd.at == at)
            .and_then(|dd| match &dd.door.lock {
                delve::level::schema::Lock::Locked { key } => key.clone(),
                _ => None,
            });
        ui.horizontal_wrapped(|ui| {
            for (label, to) in [
                ("open", DoorSetting::Open),
                ("close", DoorSetting::Closed),
                ("lock", DoorSetting::Locked { key }),
                ("unlock", DoorSetting::Unlocked),
                ("reveal", DoorSetting::Revealed),
            ] {
                if ui.button(label).clicked() {
                    orders.push(SetDoor { at: xy, to }.into());
                }
            }
        });
    }
    if let Some((_, trap)) = d.traps.iter().find(|(p, _)| p.0 == at) {
        ui.label(super::under_pointer::describe_trap(trap));
        ui.horizontal(|ui| {
            for (label, to) in [
                ("arm", TrapSetting::Armed),
                ("disarm", TrapSetting::Disarmed),
                ("reveal", TrapSetting::Revealed),
            ] {
                if ui.button(label).clicked() {
                    orders.push(SetTrap { at: xy, to }.into());
                }
            }
        });
    }
    let here = |l: &(&LightSource, Option<&CarriedBy>, Option<&Position>)| {
        l.2.map(|p| p.0)
            .or_else(|| l.1.and_then(|b| d.everyone.get(b.0).ok()).map(|x| x.2.0))
            == Some(at)
    };
    if d.lights.iter().any(|l| here(&l)) {
        ui.horizontal(|ui| {
            if ui.button("light").clicked() {
                orders.push(SetLight { at: xy, lit: true }.into());
            }
            if ui.button("douse").clicked() {
                orders.push(SetLight { at: xy, lit: false }.into());
            }
        });
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("sound")
            .selected_text(s.sound.to_string())
            .show_ui(ui, |ui| {
                for r in [
                    SoundRow::Quiet,
                    SoundRow::Normal,
                    SoundRow::Loud,
                    SoundRow::Blast,
                    SoundRow::DeafeningBlast,
                ] {
                    ui.selectable_value(&mut s.sound, r, r.to_string());
                }
            });
        if ui.button("noise here").clicked() {
            orders.push(
                MakeNoise {
                    at: xy,
                    sound: s.sound,
                    what: "a noise the Judge makes".into(),
                }
                .into(),
            );
        }
    });
}

const CONDITIONS: [ConditionKind; 13] = [
    ConditionKind::Blinded,
    ConditionKind::Bloodied,
    ConditionKind::Deafened,
    ConditionKind::Disordered,
    ConditionKind::Drowning,
    ConditionKind::FlatFooted,
    ConditionKind::Prone,
    ConditionKind::Staggered,
    ConditionKind::Dying,
    ConditionKind::Dead,
    ConditionKind::Stuck,
    ConditionKind::Vulnerable,
    ConditionKind::Winded,
];

/// The clock, every lit light's fuel, each creature's rest, the tasks under way.
fn timers(ui: &mut egui::Ui, d: &DelveView) {
    ui.label(format!("{} ({} rounds played)", *d.clock, d.clock.rounds));
    // The party's view shows what the party knows: its own lights and rest.
    let ours: Option<Vec<Entity>> = d.party_view().then(|| {
        d.parties
            .0
            .iter()
            .flat_map(|p| p.marching_order.clone())
            .collect()
    });
    let counts = |e: Entity| ours.as_ref().is_none_or(|o| o.contains(&e));
    let mut fuel: Vec<String> = d
        .lights
        .iter()
        .filter(|(l, by, _)| l.lit && by.is_none_or(|b| counts(b.0)))
        .filter(|(_, by, _)| ours.is_none() || by.is_some())
        .filter_map(|(l, by, at)| {
            let left = l.fuel_rounds?;
            let whose = match (by, at) {
                (Some(b), _) => format!("{}'s", d.name_of(b.0)),
                (None, Some(p)) => format!("at {}", p.0),
                (None, None) => String::new(),
            };
            Some(format!("{whose} {:?}: {left} rounds", l.kind))
        })
        .collect();
    fuel.sort();
    ui.label(format!("lights burning: {}", or_none(fuel)));
    let mut rows: Vec<(String, String, Option<String>)> = d
        .everyone
        .iter()
        .filter(|(e, ..)| counts(*e))
        .filter_map(|(e, n, _)| {
            let (_, _, _, _, _, _, _, conditions, _, task) = d.creatures.get(e).ok()?;
            if delve::rules::conditions::is_down(conditions) {
                return None;
            }
            let (_, profs, _, fatigue, resting, _) = d.carried.get(e).ok()?;
            let rest =
                fatigue.map(|f| rest_clock(f, resting, profs.is_some_and(|p| !needs_rest(p))));
            let task = task.map(|t| format!("{} ({} rounds left)", t.work, t.rounds_left));
            Some((n.to_string(), rest.unwrap_or_default(), task))
        })
        .collect();
    rows.sort();
    egui::Grid::new("rest").striped(true).show(ui, |ui| {
        for (n, rest, task) in rows {
            ui.label(n);
            ui.label(rest);
            ui.label(task.unwrap_or_default());
            ui.end_row();
        }
    });
}

/// The rule modules on or off, the tactical rules they bring, and the Judge's modifiers for the
/// whole level, each changed by a command.
fn switches(ui: &mut egui::Ui, d: &DelveView, orders: &mut JudgeOrders) {
    if let Some(running) = &d.modules {
        for m in RuleModule::ALL {
            let mut on = m.on_in(running.now);
            if ui.checkbox(&mut on, m.words()).changed() {
                orders.0.push(SwitchModule { module: m, on }.into());
            }
        }
    }
    if let Some(t) = &d.tactical {
        let on: Vec<&str> = t.switches().iter().filter(|s| s.1).map(|s| s.0).collect();
        let off: Vec<&str> = t.switches().iter().filter(|s| !s.1).map(|s| s.0).collect();
        ui.label(format!("tactical rules in force: {}", on.join(", ")));
        if !off.is_empty() {
            ui.label(format!("left out by the level: {}", off.join(", ")));
        }
    }
    let Some(judge) = &d.judge else {
        return;
    };
    let mut unexpected = judge.unexpected_lights;
    if ui
        .checkbox(&mut unexpected, "throws against unexpected lights")
        .changed()
    {
        orders.0.push(UnexpectedLights { on: unexpected }.into());
    }
    ui.label("The Judge's modifiers (the whole level):");
    egui::Grid::new("modifiers").show(ui, |ui| {
        for jm in JudgeModifier::ALL {
            let value = judge.value(jm, None, &[]);
            ui.label(jm.words());
            ui.label(format!("{value:+}"));
            let mut set = |v: i32| {
                orders.0.push(
                    SetJudgeModifier {
                        modifier: jm,
                        value: v,
                        on: JudgeScope::Level,
                    }
                    .into(),
                )
            };
            if ui.small_button("-").clicked() {
                set(value - 1);
            }
            if ui.small_button("+").clicked() {
                set(value + 1);
            }
            ui.end_row();
        }
    });
}

/// The log: filtered by creature and kind, the secret throws shown or not, searched; a click on
/// an entry selects its creature and centres the map where it happened.
fn log_panel(ui: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    let party_view = d.party_view() || m.state.solo;
    ui.heading(if party_view {
        "What the party knows"
    } else {
        "The log"
    });
    let f = &mut m.state.filter;
    let mut names: Vec<String> = d.everyone.iter().map(|(_, n, _)| n.to_string()).collect();
    names.sort();
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("who")
            .selected_text(f.who.clone().unwrap_or_else(|| "everyone".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut f.who, None, "everyone");
                for n in names {
                    ui.selectable_value(&mut f.who, Some(n.clone()), n);
                }
            });
        ui.add(egui::TextEdit::singleline(&mut f.search).hint_text("search"));
    });
    ui.horizontal_wrapped(|ui| {
        for k in LogKind::ALL {
            let mut on = f.kinds.contains(&k);
            if ui.checkbox(&mut on, k.words()).changed() {
                if on {
                    f.kinds.insert(k);
                } else {
                    f.kinds.remove(&k);
                }
            }
        }
        if !party_view {
            ui.checkbox(&mut f.secret, "secret throws");
        }
    });
    ui.separator();
    // The rows are worked out again only when the log or the filter changes.
    let key = (d.log.len(), f.clone(), party_view);
    if m.state.rows_for.as_ref() != Some(&key) {
        let (members, party_name) = party_members(d);
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        m.state.rows = d
            .log
            .entries()
            .iter()
            .enumerate()
            .filter(|(_, e)| !party_view || e.event().known_to_party(&members, &party_name))
            .filter(|(_, e)| m.state.filter.passes(e))
            .map(|(i, _)| i)
            .collect();
        m.state.rows_for = Some(key);
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body);
    let rows = &m.state.rows;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink(false)
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for &i in &rows[range] {
                let entry = &d.log.entries()[i];
                let secret = entry.event().secret();
                let text = egui::RichText::new(entry.to_string());
                let text = if secret { text.italics().weak() } else { text };
                if ui
                    .add(
                        egui::Label::new(text)
                            .truncate()
                            .sense(egui::Sense::click()),
                    )
                    .on_hover_text(entry.to_string())
                    .clicked()
                {
                    clicked = Some(i);
                }
            }
        });
    if let Some(i) = clicked {
        let ev = d.log.entries()[i].event();
        let who = ev
            .who()
            .and_then(|w| d.everyone.iter().find(|(_, n, _)| n.as_str() == w));
        if let Some((e, _, p)) = who {
            m.selected.0 = Some(e);
            m.centre.0 = ev.at().or(Some(p.0));
        } else {
            m.centre.0 = ev.at();
        }
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
    grid: Res<delve::grid::DungeonGrid>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Camera, &mut Transform), With<super::input::MapCamera>>,
) {
    let Some(rect) = area.0 else {
        return;
    };
    let scale = window.scale_factor();
    let (ww, wh) = (window.physical_width(), window.physical_height());
    let pos = (rect.min * scale).as_uvec2().min(UVec2::new(ww, wh));
    let size = (rect.size() * scale)
        .as_uvec2()
        .min(UVec2::new(ww, wh) - pos)
        .max(UVec2::ONE);
    for (mut cam, mut tf) in &mut camera {
        let viewport = Viewport {
            physical_position: pos,
            physical_size: size,
            ..default()
        };
        if cam
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size))
            != Some((pos, size))
        {
            cam.viewport = Some(viewport);
        }
        if let Some(p) = centre.0 {
            let at = super::square_to_world(grid.height(), p.x, p.y);
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
    centre.0 = None;
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve::rules::judge::JudgeEvent;

    /// A command from the Judge's hand is carried out in the frame it is given, with no round
    /// played, and goes into the journal as given between rounds.
    #[test]
    fn the_judges_hand_acts_at_once_and_is_journaled() {
        let mut app = super::super::input::tests::app();
        app.init_resource::<JudgeOrders>()
            .add_systems(Update, carry_out_judge_orders);
        app.world_mut().resource_mut::<JudgeOrders>().0.push(
            SetHitPoints {
                who: "Brannoc".into(),
                hit_points: 5,
            }
            .into(),
        );
        app.update();
        let w = app.world();
        assert_eq!(w.resource::<Clock>().rounds, 0);
        assert!(
            w.resource::<EventLog>().of::<JudgeEvent>().any(
                |e| matches!(e, JudgeEvent::HitPointsSet { who, to: 5, .. } if who == "Brannoc")
            )
        );
        let journal = &w.resource::<delve::command::Journal>().0;
        assert!(
            journal
                .last()
                .is_some_and(|c| c.between_rounds && c.round == 0)
        );
        // A refusal is told in the notice.
        app.world_mut().resource_mut::<JudgeOrders>().0.push(
            SetDoor {
                at: (0, 0),
                to: DoorSetting::Open,
            }
            .into(),
        );
        app.update();
        let w = app.world();
        let log = w.resource::<EventLog>();
        assert!(delve::command::was_refused(
            log,
            delve::rules::judge::THE_JUDGE,
            &delve::rules::judge::JudgeRefusal::Nothing {
                what: "door",
                at: GridPos::new(0, 0)
            }
        ));
        // The notice tells that refusal, as the log does.
        let refused = log
            .of::<delve::command::CommandEvent>()
            .last()
            .map(|r| r.to_string());
        assert_eq!(Some(w.resource::<UiState>().notice.clone()), refused);
    }

    /// The log's filter: by kind, by creature, the Judge's secret throws, and the search.
    #[test]
    fn the_log_filter_keeps_what_is_asked() {
        let mut app = super::super::input::tests::app();
        delve::sim::run_rounds(app.world_mut(), 3);
        let sera = app.world().resource::<delve::creature::CreatureIndex>().0["Sera"];
        delve::rules::throws::throw_in(
            app.world_mut(),
            sera,
            delve::rules::throws::ThrowKind::Check,
            "searching",
            Vec::new(),
            14,
        );
        let log = app.world().resource::<EventLog>();
        let count = |f: &LogFilter| log.entries().iter().filter(|e| f.passes(e)).count();
        let all = LogFilter::default();
        let throws = LogFilter {
            kinds: [LogKind::Throws].into(),
            ..all.clone()
        };
        assert!(count(&throws) > 0, "the search's secret throw");
        assert!(
            log.entries()
                .iter()
                .filter(|e| throws.passes(e))
                .all(|e| e.get::<delve::rules::throws::ThrowEvent>().is_some())
        );
        let no_secrets = LogFilter {
            secret: false,
            ..throws.clone()
        };
        assert_eq!(count(&no_secrets), 0, "the Judge's throws hidden");
        let brannoc = LogFilter {
            who: Some("Brannoc".into()),
            ..all.clone()
        };
        assert!(count(&brannoc) < count(&all));
        let search = LogFilter {
            search: "SEARCH".into(),
            ..all.clone()
        };
        assert!(count(&search) > 0 && count(&search) < count(&all));
    }
}
