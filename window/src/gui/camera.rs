//! The map's camera: where it opens (the party's leader at a legible size, or the whole level
//! in the Judge's view), following the creature it follows, panned, zoomed and fitted by keys.

use delve_ground::grid::GridPos;
use delve_rules::rules::party::Parties;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::controls::{DelveAction, default_input_map};
use super::state::{MapCamera, PlayRounds, RedrawSet, Selected, ShownLevel};
use delve_ground::grid::DungeonGrid;
use delve_rules::creature::{Creature, Position};

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Framing>()
            .add_systems(Startup, spawn_camera)
            .add_systems(
                Update,
                (
                    fit_camera_on_redraw.before(RedrawSet),
                    fit_when_wanted.after(fit_camera_on_redraw),
                    (fit_level_key, follow)
                        .chain()
                        .after(fit_when_wanted)
                        .after(PlayRounds),
                    pan_and_zoom.after(RedrawSet),
                ),
            );
    }
}

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
    followed: Option<(Entity, GridPos)>,
    /// Tab chose a creature: the camera goes to it.
    pub(crate) jump: bool,
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
    area: Option<Res<super::state::MapArea>>,
    grid: Res<DungeonGrid>,
    view: Option<Res<super::state::ViewMode>>,
    selected: Res<Selected>,
    parties: Option<Res<Parties>>,
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
            let at = super::squares::square_to_world(grid.height(), p.x, p.y);
            // The Judge sees the whole map: the view keeps to it. A party's view centres its
            // creature, whose surroundings are what it knows.
            let at = match judges {
                true => keep_on_the_map(at, scale, space, &grid),
                false => at,
            };
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
    parties: Option<&Parties>,
    positions: &Query<&Position>,
) -> Option<(Entity, GridPos)> {
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
    parties: Option<Res<Parties>>,
    positions: Query<&Position>,
    grid: Res<DungeonGrid>,
    area: Option<Res<super::state::MapArea>>,
    view: Option<Res<super::state::ViewMode>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &Projection), With<MapCamera>>,
) {
    let now = followed(&selected, parties.as_deref(), &positions);
    let moved = now.is_some() && now != framing.followed;
    // A new creature followed is not a move (unless Tab chose it): the view stays.
    let same_one = now.map(|n| n.0) == framing.followed.map(|f| f.0);
    if (framing.follow && moved && same_one) || (framing.jump && now.is_some()) {
        let (_, p) = now.expect("followed");
        let at = super::squares::square_to_world(grid.height(), p.x, p.y);
        let space = map_space(area.as_deref(), &windows);
        for (mut tf, proj) in camera.iter_mut() {
            let scale = match proj {
                Projection::Orthographic(o) => o.scale,
                _ => 1.0,
            };
            let judges = view.as_deref().is_none_or(|v| v.judges());
            let at = match judges {
                true => keep_on_the_map(at, scale, space, &grid),
                false => at,
            };
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
    framing.jump = false;
    framing.followed = now;
}

/// Where the Judge's view looks to show `at` without showing past the map's edges: along a side
/// where the map is wider than the view, the view stays within the map; along one where the map
/// is narrower, the map is centred. (A party in the map's corner once left three quarters of
/// the view grey.)
pub(crate) fn keep_on_the_map(at: Vec2, scale: f32, space: Vec2, grid: &DungeonGrid) -> Vec2 {
    let t = super::art::TILE_PX as f32;
    let size = Vec2::new(grid.width() as f32 * t, grid.height() as f32 * t);
    // Squares are centred on multiples of a tile: the map spans half a tile either side.
    let (lo, hi) = (Vec2::splat(-t / 2.0), size - t / 2.0);
    let half_view = space * scale / 2.0;
    let along = |at: f32, lo: f32, hi: f32, half: f32| {
        if hi - lo <= 2.0 * half {
            (lo + hi) / 2.0
        } else {
            at.clamp(lo + half, hi - half)
        }
    };
    Vec2::new(
        along(at.x, lo.x, hi.x, half_view.x),
        along(at.y, lo.y, hi.y, half_view.y),
    )
}

/// Home: the whole level in the map's space.
fn fit_level_key(
    actions: Single<&ActionState<DelveAction>>,
    area: Option<Res<super::state::MapArea>>,
    grid: Res<DungeonGrid>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<MapCamera>>,
) {
    if actions.just_pressed(&DelveAction::FitLevel) {
        fit(&grid, map_space(area.as_deref(), &windows), &mut camera);
    }
}

/// The orthographic scale that fits the whole level in `space`.
pub(crate) fn fit_scale(grid: &DungeonGrid, space: Vec2) -> f32 {
    let t = super::art::TILE_PX as f32;
    let (w, h) = (grid.width() as f32 * t, grid.height() as f32 * t);
    (w / space.x.max(100.0))
        .max(h / space.y.max(100.0))
        .max(0.25)
        * 1.04
}

/// The logical size the map is drawn in: what the panels leave, else the whole window.
fn map_space(
    area: Option<&super::state::MapArea>,
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
        // Centred on the selection as `follow` goes to it: in the Judge's view kept to the map.
        match selected.0.and_then(|e| positions.get(e).ok()) {
            Some(_) => framing.jump = true,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The crypt (41 × 17 squares) at 32 pixels a square in a view of 620 × 700: framed on the
    /// party in its top-left corner, the view starts at the map's left edge rather than
    /// centring the corner, and the map, lower than the view, is centred up and down.
    #[test]
    fn a_view_on_a_corner_keeps_to_the_map() {
        let grid =
            delve_ground::level::load_level_file(std::path::Path::new("../levels/crypt.ron"))
                .unwrap()
                .level
                .grid;
        let t = super::super::art::TILE_PX as f32;
        let scale = t / 32.0;
        let space = Vec2::new(620.0, 700.0);
        let corner = super::super::squares::square_to_world(grid.height(), 2, 2);
        let at = keep_on_the_map(corner, scale, space, &grid);
        let left_edge = at.x - space.x * scale / 2.0;
        assert!((left_edge - (-t / 2.0)).abs() < 0.01, "{left_edge}");
        assert!(
            (at.y - (grid.height() as f32 * t - t) / 2.0).abs() < 0.01,
            "{at}"
        );
        // In the middle of a wide map, the view is on the square itself.
        let middle = super::super::squares::square_to_world(grid.height(), 20, 8);
        assert_eq!(keep_on_the_map(middle, scale, space, &grid).x, middle.x);
    }
}
