//! Keyboard and mouse as leafwing actions. Input only writes intents: camera moves, a selection,
//! [`Command`]s for the simulation, or a request to play rounds.

use bevy::prelude::*;
use delve::command::acts::{Move, MoveParty, Rest, RestParty, StandUp};
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;

use super::map::RedrawSet;
use super::{ShownLevel, world_to_square};
use delve::act::PendingCommands;
use delve::command::Command;
use delve::creature::{Creature, Position};
use delve::grid::DungeonGrid;
use delve::rules::movement::Pace;
use delve::rules::party::Parties;
use delve::schedule::SimRound;
use delve::time::ROUNDS_PER_TURN;

/// Everything the window's user can do.
#[derive(
    Actionlike,
    PartialEq,
    Eq,
    Clone,
    Copy,
    Hash,
    Debug,
    Reflect,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum DelveAction {
    /// Move the camera.
    #[actionlike(DualAxis)]
    Pan,
    /// Zoom the camera in (positive) or out.
    #[actionlike(Axis)]
    Zoom,
    /// Select the next creature.
    NextCreature,
    /// Select the creature under the pointer.
    Select,
    /// Send the selected creature to the square under the pointer.
    MoveHere,
    /// Play one round.
    AdvanceRound,
    /// Play one turn (10 rounds).
    AdvanceTurn,
    /// Centre the camera on the selection, or fit the whole map.
    Recentre,
    /// Show or hide the key help.
    ToggleHelp,
    /// Cycle the pace for the next move: exploration, combat, running.
    CyclePace,
    /// Give orders to the selected creature's whole party, or to the creature alone.
    TogglePartyOrders,
    /// The selection (or its party) rests a turn.
    Rest,
    /// The selected creature stands up.
    StandUp,
    /// Switch between the Judge's view and the party's.
    ToggleView,
    /// Make a loud noise at the pointer (the Judge's doing).
    MakeNoise,
    /// Take the selected creature's choice of this number (0 is key 1); see `gui::actions`.
    Choose(u8),
    /// The selected creature attacks the creature under the pointer.
    Attack,
    /// The party fights by itself, or waits for orders.
    PartyFightsAlone,
    /// Hand the selected creature's party (or the first party) to its policy, or take it back.
    Autonomy,
    /// Save the delve (`gui::saving`).
    Save,
    /// Go on from the save.
    Load,
    /// Take back a round.
    Undo,
    /// Take back a turn.
    UndoTurn,
    /// Give back a round taken back.
    Redo,
    /// The tiles over a level's battlemap: faint, hidden, or drawn in full (`gui::battlemap`).
    ToggleBattlemap,
    /// The timeline (`gui::timeline`): a round back.
    RoundBack,
    /// A round on along the timeline.
    RoundOn,
    /// A turn back.
    TurnBack,
    /// A turn on.
    TurnOn,
    /// The previous mark on the timeline (of the kind chosen).
    PreviousMark,
    /// The next mark.
    NextMark,
    /// Play on along the timeline, or pause.
    PlayPause,
    /// The timeline's speed: 1, 4 or 16 rounds a second.
    PlaySpeed,
    /// The kind of mark the previous and next mark go to.
    MarkKind,
    /// Fit the whole level in the map's space.
    FitLevel,
    /// The camera follows the selected creature (or the party's leader) as it moves, or stays.
    ToggleFollow,
    /// Show or hide the minimap (`gui::minimap`).
    ToggleMinimap,
    /// The interface larger (the panels' text and widgets).
    UiLarger,
    /// The interface smaller.
    UiSmaller,
}

/// The Judge's actions, not bound in solo play: the view switch and a noise anywhere.
pub const JUDGE_ONLY: [DelveAction; 2] = [DelveAction::ToggleView, DelveAction::MakeNoise];

/// The actions the help line lists, in its order, with what each does (the keys are those bound
/// now: `gui::keys`).
pub const HELP: &[(DelveAction, &str)] = &[
    (DelveAction::Pan, "pan"),
    (DelveAction::Zoom, "zoom"),
    (DelveAction::NextCreature, "next creature"),
    (DelveAction::Select, "select"),
    (DelveAction::MoveHere, "move there"),
    (DelveAction::AdvanceRound, "+1 round"),
    (DelveAction::AdvanceTurn, "+1 turn"),
    (DelveAction::CyclePace, "pace"),
    (DelveAction::TogglePartyOrders, "party/single"),
    (DelveAction::Rest, "rest"),
    (DelveAction::StandUp, "stand up"),
    (DelveAction::ToggleView, "Judge/party/creature view"),
    (DelveAction::ToggleBattlemap, "tiles over the battlemap"),
    (DelveAction::MakeNoise, "noise at pointer"),
    (
        DelveAction::Choose(0),
        "the listed actions (doors, traps, searching, caving)",
    ),
    (DelveAction::Attack, "attack at pointer"),
    (DelveAction::PartyFightsAlone, "party fights alone"),
    (DelveAction::Autonomy, "party delves by itself / back"),
    (DelveAction::Save, "save"),
    (DelveAction::Load, "load"),
    (DelveAction::Undo, "undo a round"),
    (DelveAction::UndoTurn, "undo a turn"),
    (DelveAction::Redo, "redo"),
    (DelveAction::RoundBack, "timeline: a round back"),
    (DelveAction::RoundOn, "a round on"),
    (DelveAction::TurnBack, "a turn back"),
    (DelveAction::TurnOn, "a turn on"),
    (DelveAction::PreviousMark, "previous mark"),
    (DelveAction::NextMark, "next mark"),
    (DelveAction::MarkKind, "which marks"),
    (DelveAction::PlayPause, "play/pause"),
    (DelveAction::PlaySpeed, "speed"),
    (DelveAction::UiLarger, "interface larger"),
    (DelveAction::UiSmaller, "interface smaller"),
    (DelveAction::Recentre, "centre"),
    (DelveAction::FitLevel, "whole level"),
    (DelveAction::ToggleFollow, "follow/stay"),
    (DelveAction::ToggleMinimap, "minimap"),
    (DelveAction::ToggleHelp, "hide help"),
];

pub fn default_input_map() -> InputMap<DelveAction> {
    InputMap::default()
        .with_dual_axis(DelveAction::Pan, VirtualDPad::arrow_keys())
        .with_axis(
            DelveAction::Zoom,
            VirtualAxis::new(KeyCode::KeyQ, KeyCode::KeyE),
        )
        .with_axis(DelveAction::Zoom, MouseScrollAxis::Y)
        .with(DelveAction::NextCreature, KeyCode::Tab)
        .with(DelveAction::Select, MouseButton::Left)
        .with(DelveAction::MoveHere, MouseButton::Right)
        .with(DelveAction::AdvanceRound, KeyCode::Space)
        .with(DelveAction::AdvanceTurn, KeyCode::KeyT)
        .with(DelveAction::Recentre, KeyCode::KeyC)
        .with(DelveAction::FitLevel, KeyCode::Home)
        .with(DelveAction::ToggleFollow, KeyCode::KeyO)
        .with(DelveAction::ToggleMinimap, KeyCode::KeyI)
        .with(DelveAction::ToggleHelp, KeyCode::F1)
        .with(DelveAction::CyclePace, KeyCode::KeyP)
        .with(DelveAction::TogglePartyOrders, KeyCode::KeyG)
        .with(DelveAction::Rest, KeyCode::KeyR)
        .with(DelveAction::StandUp, KeyCode::KeyU)
        .with(DelveAction::ToggleView, KeyCode::KeyV)
        .with(DelveAction::ToggleBattlemap, KeyCode::KeyM)
        .with(DelveAction::MakeNoise, KeyCode::KeyN)
        .with(DelveAction::Attack, KeyCode::KeyF)
        .with(DelveAction::PartyFightsAlone, KeyCode::KeyB)
        .with(DelveAction::Autonomy, KeyCode::KeyA)
        .with(
            DelveAction::Save,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyS),
        )
        .with(
            DelveAction::Load,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyO),
        )
        .with(
            DelveAction::Undo,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ),
        )
        .with(
            DelveAction::UndoTurn,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ).with(ModifierKey::Shift),
        )
        .with(
            DelveAction::Redo,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyY),
        )
        .with(DelveAction::RoundBack, KeyCode::Comma)
        .with(DelveAction::RoundOn, KeyCode::Period)
        .with(
            DelveAction::TurnBack,
            ButtonlikeChord::modified(ModifierKey::Shift, KeyCode::Comma),
        )
        .with(
            DelveAction::TurnOn,
            ButtonlikeChord::modified(ModifierKey::Shift, KeyCode::Period),
        )
        .with(DelveAction::PreviousMark, KeyCode::BracketLeft)
        .with(DelveAction::NextMark, KeyCode::BracketRight)
        .with(DelveAction::PlayPause, KeyCode::KeyK)
        .with(DelveAction::PlaySpeed, KeyCode::KeyL)
        .with(DelveAction::MarkKind, KeyCode::KeyJ)
        .with(
            DelveAction::UiLarger,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::Equal),
        )
        .with(
            DelveAction::UiSmaller,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::Minus),
        )
        .with_multiple(
            [
                KeyCode::Digit1,
                KeyCode::Digit2,
                KeyCode::Digit3,
                KeyCode::Digit4,
                KeyCode::Digit5,
                KeyCode::Digit6,
                KeyCode::Digit7,
                KeyCode::Digit8,
                KeyCode::Digit9,
            ]
            .into_iter()
            .enumerate()
            .map(|(i, k)| (DelveAction::Choose(i as u8), k)),
        )
}

/// The selected creature.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Selected(pub Option<Entity>);

/// Whether the key help is shown, the last thing the user was told, and how orders are given.
#[derive(Resource, Clone, Debug)]
pub struct UiState {
    pub show_help: bool,
    pub notice: String,
    /// The pace of the next move order.
    pub pace: Pace,
    /// Orders go to the selected creature's whole party.
    pub whole_party: bool,
    /// The square last clicked: the Judge's hand acts on it.
    pub picked: Option<delve::grid::GridPos>,
}

impl Default for UiState {
    fn default() -> Self {
        Self {
            show_help: true,
            notice: String::new(),
            pace: Pace::Exploration,
            whole_party: true,
            picked: None,
        }
    }
}

/// The party the orders go to: the selected creature's, when orders go to whole parties.
pub fn ordered_party(
    world_parties: &Parties,
    ui: &UiState,
    selected: Option<Entity>,
) -> Option<String> {
    let e = selected?;
    ui.whole_party
        .then(|| world_parties.of(e).map(|p| p.name.clone()))
        .flatten()
}

/// Rounds the user asked to play this frame.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RoundsRequested(pub u64);

pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(InputManagerPlugin::<DelveAction>::default())
            .init_resource::<Selected>()
            .init_resource::<UiState>()
            .init_resource::<RoundsRequested>()
            .init_resource::<Framing>()
            .add_systems(Startup, spawn_camera)
            .add_systems(
                PreUpdate,
                taps_within_a_frame.in_set(InputManagerSystem::ManualControl),
            )
            .add_systems(
                Update,
                (
                    fit_camera_on_redraw.before(RedrawSet),
                    fit_when_wanted.after(fit_camera_on_redraw),
                    (fit_level_key, follow)
                        .chain()
                        .after(fit_when_wanted)
                        .after(play_rounds),
                    (
                        pan_and_zoom,
                        select,
                        move_here,
                        request_rounds,
                        toggle_help,
                        orders,
                        autonomy,
                    )
                        .after(RedrawSet),
                    play_rounds.after(request_rounds),
                ),
            );
    }
}

/// A key or mouse button pressed and let go within one frame (a short tap on a slow frame: under
/// software rendering a 150 ms tap of Space played nothing) is not held when leafwing looks, so
/// its action would be lost. Each action a tapped input would have pressed (alone, or with the
/// modifiers held, as in Ctrl+S) is pressed here, once.
fn taps_within_a_frame(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut store: ResMut<leafwing_input_manager::user_input::updating::CentralInputStore>,
    mut players: Query<(&InputMap<DelveAction>, &mut ActionState<DelveAction>)>,
) {
    use leafwing_input_manager::buttonlike::ButtonValue;
    let tapped_keys: Vec<KeyCode> = keys
        .get_just_pressed()
        .filter(|k| !keys.pressed(**k))
        .copied()
        .collect();
    let tapped_buttons: Vec<MouseButton> = buttons
        .get_just_pressed()
        .filter(|b| !buttons.pressed(**b))
        .copied()
        .collect();
    if tapped_keys.is_empty() && tapped_buttons.is_empty() {
        return;
    }
    let none = Entity::PLACEHOLDER;
    for (map, mut state) in &mut players {
        let pressed_by_tap =
            |store: &mut leafwing_input_manager::user_input::updating::CentralInputStore,
             hold: &dyn Fn(
                &mut leafwing_input_manager::user_input::updating::CentralInputStore,
                bool,
            )| {
                let before: Vec<bool> = map
                    .buttonlike_bindings()
                    .map(|(_, b)| b.pressed(store, none))
                    .collect();
                hold(store, true);
                let tapped: Vec<DelveAction> = map
                    .buttonlike_bindings()
                    .zip(before)
                    .filter(|((_, b), was)| !was && b.pressed(store, none))
                    .map(|((a, _), _)| *a)
                    .collect();
                hold(store, false);
                tapped
            };
        let mut actions = Vec::new();
        for &k in &tapped_keys {
            actions.extend(pressed_by_tap(&mut store, &|s, on| {
                s.update_buttonlike(k, ButtonValue::from_pressed(on))
            }));
        }
        for &b in &tapped_buttons {
            actions.extend(pressed_by_tap(&mut store, &|s, on| {
                s.update_buttonlike(b, ButtonValue::from_pressed(on))
            }));
        }
        for action in actions {
            if !state.pressed(&action) {
                state.press(&action);
            }
        }
    }
}

/// The camera that draws the map (in the space the panels leave it).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct MapCamera;

/// The camera carries the input map (the keys file's, or the defaults): leafwing keeps the
/// action state beside it. It draws the map and the map's text ([`super::labels`]).
fn spawn_camera(mut commands: Commands, bindings: Option<Res<super::keys::Bindings>>) {
    let keys = bindings.map_or_else(default_input_map, |b| b.keys.clone());
    commands.spawn((
        Camera2d,
        MapCamera,
        keys,
        bevy::camera::visibility::RenderLayers::from_layers(&[0, super::labels::LABELS_LAYER]),
    ));
}

/// Whether the map must be framed anew, and the space it was last framed in; whether the
/// camera follows the selected creature (or the party's leader), and where it last was.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Framing {
    pub wanted: bool,
    framed_in: Option<Vec2>,
    pub follow: bool,
    followed: Option<(Entity, delve::grid::GridPos)>,
    /// Tab chose a creature: the camera goes to it.
    jump: bool,
}

impl Default for Framing {
    fn default() -> Self {
        Self {
            wanted: false,
            framed_in: None,
            follow: true,
            followed: None,
            jump: false,
        }
    }
}

/// A square this many pixels wide at most zoomed out before a view opens on the party rather
/// than the whole level (the Judge's view), and the size the party's view opens at.
pub const LEGIBLE_SQUARE_PX: (f32, f32) = (16.0, 32.0);

/// Frames the whole map when a level is (re)drawn (not an undo or a save of it: the view
/// stays), and again when the space the panels leave it changes size (the window resized, a
/// panel opened, closed or dragged).
fn fit_camera_on_redraw(
    shown: Res<ShownLevel>,
    mut framing: ResMut<Framing>,
    mut selected: ResMut<Selected>,
    creatures: Query<(), With<Creature>>,
) {
    if !shown.redraw {
        return;
    }
    // A reloaded level has new creatures: a selection of the old level's is dropped.
    if selected.0.is_some_and(|e| !creatures.contains(e)) {
        selected.0 = None;
    }
    if !shown.keep_view {
        framing.wanted = true;
    }
}

/// Frames the map when it is wanted: the Judge's view on the whole level when it fits with a
/// square at least 16 pixels wide; the party's and one creature's view (and the Judge's on a
/// level too large) on the creature followed, a square 32 pixels wide.
#[allow(clippy::too_many_arguments)]
fn fit_when_wanted(
    mut framing: ResMut<Framing>,
    area: Option<Res<super::panels::MapArea>>,
    grid: Res<DungeonGrid>,
    view: Option<Res<super::lighting::ViewMode>>,
    selected: Res<Selected>,
    parties: Option<Res<delve::rules::party::Parties>>,
    positions: Query<&Position>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    let space = map_space(area.as_deref(), &windows);
    if framing.framed_in.is_some_and(|f| f != space) {
        framing.wanted = true;
    }
    if !framing.wanted {
        return;
    }
    framing.wanted = false;
    framing.framed_in = Some(space);
    let judges = view.as_deref().is_none_or(|v| v.judges());
    let whole = fit_scale(&grid, space);
    let t = super::art::TILE_PX as f32;
    let target = followed(&selected, parties.as_deref(), &positions);
    match target {
        Some((_, p)) if !judges || whole > t / LEGIBLE_SQUARE_PX.0 => {
            let scale = t / LEGIBLE_SQUARE_PX.1;
            let at = super::square_to_world(grid.height(), p.x, p.y);
            for (mut tf, mut proj) in camera.iter_mut() {
                tf.translation.x = at.x;
                tf.translation.y = at.y;
                if let Projection::Orthographic(o) = &mut *proj {
                    o.scale = scale;
                }
            }
        }
        _ => fit(&grid, space, &mut camera),
    }
}

/// The creature the camera follows: the selected one, else the first party's leader; and its
/// square.
fn followed(
    selected: &Selected,
    parties: Option<&delve::rules::party::Parties>,
    positions: &Query<&Position>,
) -> Option<(Entity, delve::grid::GridPos)> {
    let e = selected
        .0
        .or_else(|| parties.and_then(|p| p.0.first()).and_then(|p| p.leader()))?;
    positions.get(e).ok().map(|p| (e, p.0))
}

/// Follows the creature followed as it moves (when following), and goes to the one Tab chose.
#[allow(clippy::too_many_arguments)]
fn follow(
    mut framing: ResMut<Framing>,
    selected: Res<Selected>,
    parties: Option<Res<delve::rules::party::Parties>>,
    positions: Query<&Position>,
    grid: Res<DungeonGrid>,
    mut camera: Query<&mut Transform, With<MapCamera>>,
) {
    let now = followed(&selected, parties.as_deref(), &positions);
    let moved = now.is_some() && now != framing.followed;
    // A new creature followed is not a move (unless Tab chose it): the view stays.
    let same_one = now.map(|n| n.0) == framing.followed.map(|f| f.0);
    if (framing.follow && moved && same_one) || (framing.jump && now.is_some()) {
        let (_, p) = now.expect("followed");
        let at = super::square_to_world(grid.height(), p.x, p.y);
        for mut tf in camera.iter_mut() {
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
    framing.jump = false;
    framing.followed = now;
}

/// Home: the whole level in the map's space.
fn fit_level_key(
    actions: Single<&ActionState<DelveAction>>,
    area: Option<Res<super::panels::MapArea>>,
    grid: Res<DungeonGrid>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    if actions.just_pressed(&DelveAction::FitLevel) {
        fit(&grid, map_space(area.as_deref(), &windows), &mut camera);
    }
}

/// The orthographic scale that fits the whole level in `space`.
fn fit_scale(grid: &DungeonGrid, space: Vec2) -> f32 {
    let t = super::art::TILE_PX as f32;
    let (w, h) = (grid.width() as f32 * t, grid.height() as f32 * t);
    (w / space.x.max(100.0))
        .max(h / space.y.max(100.0))
        .max(0.25)
        * 1.04
}

/// The logical size the map is drawn in: what the panels leave, else the whole window.
fn map_space(
    area: Option<&super::panels::MapArea>,
    windows: &Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Vec2 {
    area.and_then(|a| a.0).map(|r| r.size()).unwrap_or_else(|| {
        windows
            .iter()
            .next()
            .map_or(Vec2::new(1280.0, 800.0), |w| w.size())
    })
}

fn fit(
    grid: &DungeonGrid,
    space: Vec2,
    camera: &mut Query<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    let t = super::art::TILE_PX as f32;
    let (w, h) = (grid.width() as f32 * t, grid.height() as f32 * t);
    for (mut tf, mut proj) in camera.iter_mut() {
        tf.translation.x = (w - t) / 2.0;
        tf.translation.y = (h - t) / 2.0;
        if let Projection::Orthographic(o) = &mut *proj {
            o.scale = fit_scale(grid, space);
        }
    }
}

fn pan_and_zoom(
    time: Res<Time>,
    actions: Single<&ActionState<DelveAction>>,
    selected: Res<Selected>,
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    mut framing: ResMut<Framing>,
    mut camera: Query<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    let pan = actions.clamped_axis_pair(&DelveAction::Pan);
    let zoom = actions.value(&DelveAction::Zoom);
    if actions.just_pressed(&DelveAction::ToggleFollow) {
        framing.follow = !framing.follow;
    }
    if actions.just_pressed(&DelveAction::Recentre) {
        match selected.0.and_then(|e| positions.get(e).ok()) {
            Some(p) => {
                let at = super::square_to_world(grid.height(), p.0.x, p.0.y);
                for (mut tf, _) in camera.iter_mut() {
                    tf.translation.x = at.x;
                    tf.translation.y = at.y;
                }
            }
            None => framing.wanted = true,
        }
    }
    for (mut tf, mut proj) in camera.iter_mut() {
        let Projection::Orthographic(o) = &mut *proj else {
            continue;
        };
        tf.translation += (pan * 700.0 * o.scale * time.delta_secs()).extend(0.0);
        if zoom != 0.0 {
            let factor =
                (1.0 - zoom.clamp(-3.0, 3.0) * 2.0 * time.delta_secs().max(0.05)).clamp(0.5, 2.0);
            // From a square 128 pixels wide to the whole level at a third of the space.
            let widest = (grid.width().max(grid.height()) as f32 / 10.0).max(2.0);
            o.scale = (o.scale * factor).clamp(0.25, widest);
        }
    }
}

/// Where the mouse pointer is on the map.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Pointer<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<MapCamera>>,
    pub grid: Res<'w, DungeonGrid>,
    minimap: Option<Res<'w, super::minimap::Minimap>>,
}

impl Pointer<'_, '_> {
    /// The square under the mouse pointer, if it is on the map.
    pub fn square(&self) -> Option<delve::grid::GridPos> {
        let cursor = self.windows.iter().next()?.cursor_position()?;
        let (camera, at) = self.cameras.iter().next()?;
        // Over a panel, or over the minimap in the map's corner, the pointer is not on a square.
        if camera
            .logical_viewport_rect()
            .is_some_and(|r| !r.contains(cursor))
            || self.minimap.as_ref().is_some_and(|m| m.covers(cursor))
        {
            return None;
        }
        let world = camera.viewport_to_world_2d(at, cursor).ok()?;
        let p = world_to_square(self.grid.height(), world);
        self.grid.in_bounds(p).then_some(p)
    }
}

/// Tab and a click select a creature the view shows (in the party's view, the party's own and
/// those it sees: an unseen monster is not picked out by the keys or the inspector).
#[allow(clippy::too_many_arguments)]
fn select(
    actions: Single<&ActionState<DelveAction>>,
    pointer: Pointer,
    creatures: Query<(Entity, &Position, &Name), With<Creature>>,
    facts: super::under_pointer::SquareFacts,
    view: Option<Res<super::lighting::ViewMode>>,
    mut selected: ResMut<Selected>,
    mut ui: ResMut<UiState>,
    mut framing: ResMut<Framing>,
) {
    let tab = actions.just_pressed(&DelveAction::NextCreature);
    let click = actions.just_pressed(&DelveAction::Select);
    if !tab && !click {
        return;
    }
    // One creature's view is the Judge's look through its eyes: any creature may be chosen.
    let shown = match view.as_deref() {
        Some(super::lighting::ViewMode::Party) => Some(facts.shown_creatures(selected.0)),
        _ => None,
    };
    let selectable = |e: Entity| shown.as_ref().is_none_or(|s| s.contains(&e));
    if tab {
        // The camera goes to the creature Tab chose.
        framing.jump = true;
        let mut all: Vec<(Entity, String)> = creatures
            .iter()
            .filter(|(e, ..)| selectable(*e))
            .map(|(e, _, n)| (e, n.to_string()))
            .collect();
        all.sort_by(|a, b| a.1.cmp(&b.1));
        let next = match selected
            .0
            .and_then(|s| all.iter().position(|(e, _)| *e == s))
        {
            Some(i) => all.get((i + 1) % all.len().max(1)),
            None => all.first(),
        };
        selected.0 = next.map(|(e, _)| *e);
    }
    if click && let Some(p) = pointer.square() {
        // A creature there is selected; an empty square is picked for the Judge's hand
        // (`gui::panels`), the selection kept, so that it can be placed there.
        ui.picked = Some(p);
        let there = creatures
            .iter()
            .find(|(e, pos, _)| pos.0 == p && selectable(*e))
            .map(|(e, _, _)| e);
        if there.is_some() {
            selected.0 = there;
        } else if let Some(report) = facts.describe(p, selected.0) {
            // What the view knows of the square (a square the party never saw tells nothing).
            ui.notice = report.lines().join("; ");
        }
    }
}

/// Right click: the selected creature is told to walk there (given at the next round).
fn move_here(
    actions: Single<&ActionState<DelveAction>>,
    pointer: Pointer,
    selected: Res<Selected>,
    names: Query<&Name>,
    parties: Res<Parties>,
    mut pending: ResMut<PendingCommands>,
    mut ui: ResMut<UiState>,
) {
    if !actions.just_pressed(&DelveAction::MoveHere) {
        return;
    }
    let Some(who) = selected.0.and_then(|e| names.get(e).ok()) else {
        ui.notice = "select a creature first (Tab or left click)".into();
        return;
    };
    let Some(to) = pointer.square() else {
        return;
    };
    let command = match ordered_party(&parties, &ui, selected.0) {
        Some(party) => Command::MoveParty(MoveParty {
            party,
            to: (to.x, to.y),
            pace: ui.pace,
        }),
        None => Command::Move(Move {
            who: who.to_string(),
            to: (to.x, to.y),
            pace: ui.pace,
        }),
    };
    ui.notice = format!("{}: {command} - press Space to play rounds", command.who());
    pending.push(command);
}

/// P, G, R, U: pace, party orders, rest, stand up.
fn orders(
    actions: Single<&ActionState<DelveAction>>,
    selected: Res<Selected>,
    names: Query<&Name>,
    parties: Res<Parties>,
    mut pending: ResMut<PendingCommands>,
    mut ui: ResMut<UiState>,
) {
    if actions.just_pressed(&DelveAction::CyclePace) {
        ui.pace = ui.pace.next();
        ui.notice = format!("moves at {} speed", ui.pace);
    }
    if actions.just_pressed(&DelveAction::TogglePartyOrders) {
        ui.whole_party = !ui.whole_party;
        ui.notice = if ui.whole_party {
            "orders go to the whole party".into()
        } else {
            "orders go to the selected creature alone".into()
        };
    }
    let who = selected
        .0
        .and_then(|e| names.get(e).ok())
        .map(|n| n.to_string());
    for (action, make) in [(DelveAction::Rest, true), (DelveAction::StandUp, false)] {
        if !actions.just_pressed(&action) {
            continue;
        }
        let Some(who) = who.clone() else {
            ui.notice = "select a creature first (Tab or left click)".into();
            continue;
        };
        let command = match (make, ordered_party(&parties, &ui, selected.0)) {
            (true, Some(party)) => Command::RestParty(RestParty { party }),
            (true, None) => Command::Rest(Rest { who }),
            (false, _) => Command::StandUp(StandUp { who }),
        };
        ui.notice = format!("{}: {command} - press Space to play rounds", command.who());
        pending.push(command);
    }
}

/// The policy the A key hands a party to (`delve LEVEL --policy FILE`; the defaults without).
#[derive(Resource, Clone, Debug, Default)]
pub struct WindowPolicy(pub delve::policy::PartyPolicy);

/// A: the selected creature's party (or the level's first) delves by itself under its policy,
/// or is taken back under the player's orders. Either is a journaled command.
fn autonomy(
    actions: Single<&ActionState<DelveAction>>,
    selected: Res<Selected>,
    parties: Res<Parties>,
    minds: Res<delve::policy::PartyMinds>,
    policy: Option<Res<WindowPolicy>>,
    mut pending: ResMut<PendingCommands>,
    mut ui: ResMut<UiState>,
) {
    if !actions.just_pressed(&DelveAction::Autonomy) {
        return;
    }
    let party = selected
        .0
        .and_then(|e| parties.of(e))
        .or_else(|| parties.0.first())
        .map(|p| p.name.clone());
    let Some(party) = party else {
        ui.notice = "this level has no party to hand to a policy".into();
        return;
    };
    let under_policy = minds.0.iter().any(|m| m.party == party);
    let command = delve::rules::party::Autonomy {
        party: party.clone(),
        policy: (!under_policy).then(|| policy.map(|p| p.0.clone()).unwrap_or_default()),
    };
    ui.notice = format!("{party}: {command} - press Space or T to play rounds");
    pending.push(command);
}

fn request_rounds(
    actions: Single<&ActionState<DelveAction>>,
    mut requested: ResMut<RoundsRequested>,
) {
    if actions.just_pressed(&DelveAction::AdvanceRound) {
        requested.0 += 1;
    }
    if actions.just_pressed(&DelveAction::AdvanceTurn) {
        requested.0 += ROUNDS_PER_TURN;
    }
}

/// Plays the rounds asked for, in the headless schedule; then writes the journal if asked to.
pub fn play_rounds(world: &mut World) {
    let n = std::mem::take(&mut world.resource_mut::<RoundsRequested>().0);
    // The notice tells of the last thing done: rounds played, it is told anew (or not at all).
    if n > 0 {
        world.resource_mut::<UiState>().notice.clear();
    }
    let ended = world.resource::<delve::policy::DelveEnd>().0.is_some();
    let forks = world
        .get_resource::<delve::keyframe::Keyframes>()
        .map_or(0, |k| k.left().len());
    for _ in 0..n {
        if along_the_line(world) {
            // Back on the timeline and no new order: the line's next round, as it was played.
            let level = world.resource::<ShownLevel>().level.clone();
            let to = world.resource::<delve::time::Clock>().rounds + 1;
            delve::save::seek(world, &level, to);
            world.resource_mut::<ShownLevel>().keep_view = true;
            continue;
        }
        // A journal being replayed (`--replay FILE`) gives its commands at their rounds.
        delve::command::give_due(world);
        super::battle::give_the_control_wished(world);
        let fighting = in_battle(world);
        world.run_schedule(SimRound);
        // A battle begun with the party waiting for orders stops a turn played (T): the player
        // gives the orders (F), or lets the party fight by itself (B).
        if n > 1 && !fighting && in_battle(world) && party_waits_for_orders(world) {
            let round = world.resource::<delve::time::Clock>().rounds;
            world.resource_mut::<UiState>().notice = format!(
                "a battle began at round {round}: the party waits for your orders (F attacks, B lets it fight by itself)"
            );
            break;
        }
    }
    keep_the_line_left(world, forks);
    if !ended && let Some((party, outcome, tally)) = &world.resource::<delve::policy::DelveEnd>().0
    {
        let told = format!("the delve of the {party} is over: {outcome} ({tally})");
        world.resource_mut::<UiState>().notice = told;
    }
    let file = world
        .get_resource::<super::JournalFile>()
        .and_then(|f| f.0.clone());
    if n > 0
        && let Some(path) = file
        && let Err(e) = std::fs::write(&path, delve::sim::journal_script(world))
    {
        world.resource_mut::<UiState>().notice =
            format!("cannot write the journal to {}: {e}", path.display());
    }
}

/// Is a battle on?
fn in_battle(world: &World) -> bool {
    world
        .get_resource::<delve::rules::combat::battle::Battle>()
        .is_some_and(|b| b.active)
}

/// Do a party's members wait for the player's orders in a battle (`gui::battle`)? Not a party
/// under its policy: it is let go at the next round.
fn party_waits_for_orders(world: &World) -> bool {
    world
        .resource::<delve::rules::party::Parties>()
        .0
        .iter()
        .filter(|p| !super::battle::under_its_policy(world, &p.name))
        .filter_map(|p| p.marching_order.first())
        .any(|&leader| {
            world
                .get::<delve::rules::combat::battle::Controlled>(leader)
                .is_some()
        })
}

/// Is the world behind the end of its timeline's line, with no order given since (so that the
/// next round is the line's)?
fn along_the_line(world: &World) -> bool {
    let Some(frames) = world.get_resource::<delve::keyframe::Keyframes>() else {
        return false;
    };
    let now = world.resource::<delve::time::Clock>().rounds;
    now < frames.end()
        && world
            .resource::<delve::act::PendingCommands>()
            .given()
            .is_empty()
        && world
            .get_resource::<delve::command::Script>()
            .is_none_or(|s| s.is_empty())
}

/// A fork of the timeline's line since `before` forks were known: with `--journal FILE`, the
/// journal of the line left is written beside it (`FILE.left-at-round-R.ron`) and told.
fn keep_the_line_left(world: &mut World, before: usize) {
    let Some(frames) = world.get_resource::<delve::keyframe::Keyframes>() else {
        return;
    };
    let Some((at, left)) = frames.left().get(before).cloned() else {
        return;
    };
    let file = world
        .get_resource::<super::JournalFile>()
        .and_then(|f| f.0.clone());
    let notice = match file {
        Some(path) => {
            let kept = path.with_extension(format!("left-at-round-{at}.ron"));
            let journal = delve::sim::JournalFile {
                commands: left,
                ..Default::default()
            };
            let pretty = ron::ser::PrettyConfig::default()
                .extensions(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
            let text = ron::ser::to_string_pretty(&journal, pretty).expect("commands serialize");
            match std::fs::write(
                &kept,
                format!("// The journal of the line left at round {at}.\n{text}\n"),
            ) {
                Ok(()) => format!(
                    "the delve forks at round {at}: the line left is kept in {}",
                    kept.display()
                ),
                Err(e) => format!("cannot keep the line left in {}: {e}", kept.display()),
            }
        }
        None => format!(
            "the delve forks at round {at}: the line left is kept (Ctrl+Z and the timeline go back on the new one)"
        ),
    };
    world.resource_mut::<UiState>().notice = notice;
}

fn toggle_help(
    actions: Single<&ActionState<DelveAction>>,
    mut ui: ResMut<UiState>,
    view: Option<ResMut<super::lighting::ViewMode>>,
    selected: Res<Selected>,
) {
    if actions.just_pressed(&DelveAction::ToggleHelp) {
        ui.show_help = !ui.show_help;
    }
    if actions.just_pressed(&DelveAction::ToggleView)
        && let Some(mut view) = view
    {
        use super::lighting::ViewMode;
        // The Judge's, the party's, the selected creature's.
        *view = match *view {
            ViewMode::Judge => ViewMode::Party,
            ViewMode::Party if selected.0.is_some() => ViewMode::Creature,
            ViewMode::Party | ViewMode::Creature => ViewMode::Judge,
        };
        ui.notice = format!("{:?} view", *view);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use bevy::input::InputPlugin as BevyInputPlugin;

    use super::*;
    use delve::level::Diagnostics;
    use delve::sim::sim_app;
    use delve::time::Clock;

    /// A headless app with the window's input plugin: keys are pressed the way leafwing's own
    /// tests press them.
    pub(crate) fn app() -> App {
        let level = delve::level::LevelText::default_level()
            .load()
            .unwrap()
            .level;
        app_with(level, 1)
    }

    /// The same, on a level of the test's own (the crypt's text is kept as the level's).
    pub(crate) fn app_with(level: delve::level::Level, seed: u64) -> App {
        let text = delve::level::LevelText::default_level();
        let mut app = sim_app(&level, seed);
        let registry = crate::gui::keys::input_registry();
        app.add_plugins((BevyInputPlugin, InputPlugin));
        drop(registry);
        app.insert_resource(ShownLevel {
            path: None,
            seed,
            level,
            text,
            problems: None,
            warnings: Diagnostics::default(),
            redraw: false,
            keep_view: false,
        });
        app.update();
        app
    }

    pub(crate) fn press(app: &mut App, key: KeyCode) {
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
        app.update();
    }

    fn selected_name(app: &mut App) -> Option<String> {
        let e = app.world().resource::<Selected>().0?;
        Some(app.world().get::<Name>(e)?.to_string())
    }

    fn camera_at(app: &mut App) -> Vec2 {
        let mut q = app
            .world_mut()
            .query_filtered::<&Transform, With<MapCamera>>();
        q.single(app.world()).unwrap().translation.truncate()
    }

    fn square_at(app: &App, name: &str) -> Vec2 {
        let world = app.world();
        let e = world.resource::<delve::creature::CreatureIndex>().0[name];
        let p = world.get::<Position>(e).unwrap().0;
        let h = world.resource::<DungeonGrid>().height();
        crate::gui::square_to_world(h, p.x, p.y)
    }

    /// Where the camera shows that creature: centred on its square.
    fn showing(app: &App, name: &str) -> Vec2 {
        square_at(app, name)
    }

    fn zoom_in(app: &mut App) {
        let mut q = app
            .world_mut()
            .query_filtered::<&mut Projection, With<MapCamera>>();
        if let Projection::Orthographic(o) = &mut *q.single_mut(app.world_mut()).unwrap() {
            o.scale = 0.25;
        }
    }

    /// Tab moves the camera to the creature it selects.
    #[test]
    fn tab_moves_the_camera_to_the_creature() {
        let mut app = app();
        zoom_in(&mut app);
        press(&mut app, KeyCode::Tab);
        assert_eq!(camera_at(&mut app), showing(&app, "Aldric"));
        press(&mut app, KeyCode::Tab);
        assert_eq!(camera_at(&mut app), showing(&app, "Ashmaw"));
        assert_ne!(showing(&app, "Aldric"), showing(&app, "Ashmaw"));
    }

    /// The party's view opens centred on the party's leader with a square 32 pixels wide; the
    /// Judge's view of a level that fits at 16 pixels a square or more opens on the whole level.
    #[test]
    fn the_partys_view_opens_on_the_leader_at_32_px_a_square() {
        let mut app = app();
        let scale = |app: &mut App| {
            let mut q = app
                .world_mut()
                .query_filtered::<&Projection, With<MapCamera>>();
            match q.single(app.world()).unwrap() {
                Projection::Orthographic(o) => o.scale,
                _ => unreachable!("the map's camera is orthographic"),
            }
        };
        let leader = {
            let world = app.world();
            let e = world.resource::<delve::rules::party::Parties>().0[0]
                .leader()
                .unwrap();
            world.get::<Name>(e).unwrap().to_string()
        };
        app.insert_resource(super::super::lighting::ViewMode::Party);
        app.world_mut().resource_mut::<Framing>().wanted = true;
        app.update();
        let px = super::super::labels::square_px(scale(&mut app));
        assert_eq!(px, LEGIBLE_SQUARE_PX.1);
        assert_eq!(camera_at(&mut app), square_at(&app, &leader));
        // The crypt fits a 1280x800 space (no panels in this app) at 16 px a square or more.
        app.insert_resource(super::super::lighting::ViewMode::Judge);
        app.world_mut().resource_mut::<Framing>().wanted = true;
        app.update();
        let grid = app.world().resource::<DungeonGrid>().clone();
        let whole = fit_scale(&grid, Vec2::new(1280.0, 800.0));
        assert!(super::super::labels::square_px(whole) >= LEGIBLE_SQUARE_PX.0);
        assert_eq!(scale(&mut app), whole);
    }

    /// The camera follows the party's leader as it walks (none selected); O stops it following.
    #[test]
    fn the_camera_follows_the_moving_leader() {
        let mut app = app();
        zoom_in(&mut app);
        let leader = {
            let world = app.world();
            let parties = world.resource::<delve::rules::party::Parties>();
            let e = parties.0[0].leader().unwrap();
            world.get::<Name>(e).unwrap().to_string()
        };
        delve::sim::give(
            app.world_mut(),
            delve::command::Command::Move(delve::command::acts::Move {
                who: leader.clone(),
                to: (16, 4),
                pace: delve::rules::movement::Pace::Exploration,
            }),
        );
        let before = square_at(&app, &leader);
        for _ in 0..3 {
            press(&mut app, KeyCode::Space);
        }
        let after = square_at(&app, &leader);
        assert_ne!(before, after, "the leader walked");
        assert_eq!(camera_at(&mut app), showing(&app, &leader));
        press(&mut app, KeyCode::KeyO);
        let stayed = camera_at(&mut app);
        for _ in 0..3 {
            press(&mut app, KeyCode::Space);
        }
        assert_ne!(square_at(&app, &leader), after, "the leader walked on");
        assert_eq!(camera_at(&mut app), stayed);
    }

    /// In the party's view Tab goes round the creatures the party sees — at the crypt's start,
    /// its own four, not the ghouls and the skeleton beyond the walls; the Judge's view, all.
    #[test]
    fn tab_in_the_partys_view_selects_only_what_the_party_sees() {
        let mut app = app();
        app.insert_resource(super::super::lighting::ViewMode::Party);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..8 {
            press(&mut app, KeyCode::Tab);
            seen.insert(selected_name(&mut app).unwrap());
        }
        let party: std::collections::BTreeSet<String> = ["Aldric", "Brannoc", "Mirela", "Sera"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(seen, party);
        app.insert_resource(super::super::lighting::ViewMode::Judge);
        for _ in 0..8 {
            press(&mut app, KeyCode::Tab);
            seen.insert(selected_name(&mut app).unwrap());
        }
        assert!(
            seen.contains("Gnawbone") && seen.contains("Warden of Ash"),
            "{seen:?}"
        );
    }

    #[test]
    fn tab_selects_creatures_in_name_order() {
        let mut app = app();
        assert_eq!(selected_name(&mut app), None);
        press(&mut app, KeyCode::Tab);
        assert_eq!(selected_name(&mut app).as_deref(), Some("Aldric"));
        press(&mut app, KeyCode::Tab);
        assert_eq!(selected_name(&mut app).as_deref(), Some("Ashmaw"));
    }

    /// The number keys take the listed actions: Sera, a thief, is offered a methodical search
    /// as her first.
    #[test]
    fn a_number_key_takes_that_action() {
        let mut app = app();
        app.add_plugins(crate::gui::actions::ActionsPlugin);
        for _ in 0..7 {
            press(&mut app, KeyCode::Tab);
        }
        assert_eq!(selected_name(&mut app).as_deref(), Some("Sera"));
        let first = app.world().resource::<crate::gui::actions::Offered>().0[0]
            .1
            .way
            .clone();
        assert_eq!(first, "search methodically");
        press(&mut app, KeyCode::Digit1);
        press(&mut app, KeyCode::Space);
        let log = app.world().resource::<delve::log::EventLog>();
        assert!(
            log.of::<delve::rules::task::TaskEvent>().any(|e| *e
                == delve::rules::task::TaskEvent::TaskBegun {
                    who: "Sera".into(),
                    task: "searching methodically within 10'".into(),
                    rounds: 10
                }),
            "{}",
            log.to_text()
        );
    }

    /// A tap pressed and let go between two frames still plays its round, once; and a Ctrl+Z
    /// whose Z is tapped so takes back that round.
    #[test]
    fn a_tap_within_one_frame_acts_once() {
        let mut app = app();
        KeyCode::Space.press(app.world_mut());
        KeyCode::Space.release(app.world_mut());
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 1);
        app.update();
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 1, "once");
        app.add_plugins(crate::gui::saving::SavingPlugin);
        let scratch = std::env::temp_dir().join(format!("delve-tap-{}", std::process::id()));
        let files = crate::gui::saving::SaveFiles::new(
            Some(scratch.join("tap.save.ron")),
            Some(scratch.join("autosave")),
            &app.world().resource::<ShownLevel>().text.clone(),
            app.world(),
        );
        app.insert_resource(files);
        KeyCode::ControlLeft.press(app.world_mut());
        app.update();
        KeyCode::KeyZ.press(app.world_mut());
        KeyCode::KeyZ.release(app.world_mut());
        app.update();
        KeyCode::ControlLeft.release(app.world_mut());
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 0, "taken back");
    }

    #[test]
    fn space_plays_a_round_and_t_a_turn() {
        let mut app = app();
        press(&mut app, KeyCode::Space);
        assert_eq!(app.world().resource::<Clock>().rounds, 1);
        press(&mut app, KeyCode::KeyT);
        assert_eq!(app.world().resource::<Clock>().rounds, 11);
    }

    #[test]
    fn p_cycles_the_pace_g_switches_party_orders_and_r_rests() {
        let mut app = app();
        assert_eq!(app.world().resource::<UiState>().pace, Pace::Exploration);
        press(&mut app, KeyCode::KeyP);
        assert_eq!(app.world().resource::<UiState>().pace, Pace::Combat);
        press(&mut app, KeyCode::Tab); // Aldric, of the party
        press(&mut app, KeyCode::KeyR);
        let pending = app.world().resource::<PendingCommands>().given().to_vec();
        assert_eq!(
            pending,
            vec![delve::act::AnyAct::from(RestParty {
                party: "party".into()
            })]
        );
        press(&mut app, KeyCode::KeyG);
        assert!(!app.world().resource::<UiState>().whole_party);
        press(&mut app, KeyCode::KeyR);
        let pending = app.world().resource::<PendingCommands>().given().to_vec();
        assert_eq!(
            pending.last(),
            Some(&delve::act::AnyAct::from(Rest {
                who: "Aldric".into()
            }))
        );
        // Space plays the round: the commands are carried out.
        press(&mut app, KeyCode::Space);
        assert!(app.world().resource::<PendingCommands>().is_empty());
    }

    /// DESIGN.md › Principles: the window changes the simulation only through commands, and
    /// every command it gives is journaled, so replaying the journal gives the identical log.
    #[test]
    fn a_window_sessions_journal_replays_to_the_same_log() {
        let mut app = app();
        app.add_plugins((
            crate::gui::actions::ActionsPlugin,
            crate::gui::battle::BattleViewPlugin,
        ));
        for _ in 0..7 {
            press(&mut app, KeyCode::Tab);
        }
        assert_eq!(selected_name(&mut app).as_deref(), Some("Sera"));
        press(&mut app, KeyCode::Digit1); // a methodical search
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::KeyP); // combat pace
        press(&mut app, KeyCode::KeyR); // the party rests
        press(&mut app, KeyCode::KeyB); // the party fights by itself
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::Space);
        let world = app.world();
        let journal = world.resource::<delve::command::Journal>().clone();
        assert!(
            journal.0.len() >= 4,
            "the search, the rest and the orders: {journal:?}"
        );
        let rounds = world.resource::<Clock>().rounds;
        let level = delve::level::load_default_level().unwrap().level;
        let replayed = delve::sim::replay(&level, 1, &journal, rounds);
        let log = world.resource::<delve::log::EventLog>();
        let again = replayed.world().resource::<delve::log::EventLog>();
        assert_eq!(again.to_text(), log.to_text());
        assert_eq!(again.to_json_lines(), log.to_json_lines());
        // The journal the window writes is a command script for `delve sim`.
        let script = delve::sim::journal_script(app.world());
        let parsed = delve::sim::JournalFile::from_text(&script).unwrap();
        assert_eq!(parsed.commands, journal.0);
    }

    /// A hands the party to its policy (a journaled command); the policy's orders come as the
    /// rounds are played, marked in the log as its mind's; a second A takes the party back.
    #[test]
    fn a_hands_the_party_to_its_policy_and_takes_it_back() {
        let mut app = app();
        press(&mut app, KeyCode::KeyA);
        press(&mut app, KeyCode::KeyT);
        let minds = app.world().resource::<delve::policy::PartyMinds>();
        assert_eq!(minds.0.len(), 1, "the party is under its policy");
        let log = app.world().resource::<delve::log::EventLog>();
        assert!(log.of::<delve::policy::PolicyEvent>().next().is_some());
        assert!(log.of::<delve::command::CommandEvent>().any(|e| matches!(
            e,
            delve::command::CommandEvent::CommandAccepted { who, by_mind: true, .. }
                if who == "party"
        )));
        press(&mut app, KeyCode::KeyA);
        press(&mut app, KeyCode::Space);
        assert!(
            app.world()
                .resource::<delve::policy::PartyMinds>()
                .0
                .is_empty()
        );
        let journal = &app.world().resource::<delve::command::Journal>().0;
        let handed: Vec<bool> = journal
            .iter()
            .filter_map(|c| match &c.command {
                Command::Autonomy(a) => Some(a.policy.is_some()),
                _ => None,
            })
            .collect();
        assert_eq!(handed, vec![true, false]);
    }

    /// A journal replayed in the window (`--replay FILE`) gives its commands at their rounds:
    /// the window's log is the log of the delve it came from.
    #[test]
    fn a_journal_replays_in_the_window() {
        let level = delve::level::load_default_level().unwrap().level;
        let policy = delve::policy::PartyPolicy::default();
        let played = delve::sim::play_autonomous(&level, 1, &policy, &[], 40);
        let journal = played
            .world()
            .resource::<delve::command::Journal>()
            .0
            .clone();
        let mut app = app();
        app.insert_resource(delve::command::Script::new(&journal));
        for _ in 0..4 {
            press(&mut app, KeyCode::KeyT);
        }
        let log = app.world().resource::<delve::log::EventLog>();
        let original = played.world().resource::<delve::log::EventLog>();
        assert_eq!(log.to_json_lines(), original.to_json_lines());
    }

    #[test]
    fn f1_hides_and_shows_the_key_help() {
        let mut app = app();
        assert!(app.world().resource::<UiState>().show_help);
        press(&mut app, KeyCode::F1);
        assert!(!app.world().resource::<UiState>().show_help);
        press(&mut app, KeyCode::F1);
        assert!(app.world().resource::<UiState>().show_help);
    }
}
