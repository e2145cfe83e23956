//! Text on the map that can be read at any zoom: creatures' names and the who-heard labels are
//! drawn at a fixed size on the screen, not scaled with the map; below a zoom where they would
//! run into each other they are hidden, and shown again for the square under the pointer (and
//! the selected creature's name). The walk to the square under the pointer and what it holds are
//! told in the tooltip beside the pointer (`gui::under_pointer`).
//!
//! The labels are on a render layer of their own that only the map's camera draws, so the
//! minimap (`gui::minimap`) shows the level without them.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

use super::state::MapCamera;
use delve_ground::grid::GridPos;

/// The render layer of the map's text (the map's camera draws it; the minimap's does not).
pub const LABELS_LAYER: usize = 2;

/// Squares narrower than this on the screen leave no room for text beside their tokens: the
/// labels that may be hidden are shown only for the square under the pointer.
pub const ROOMY_SQUARE_PX: f32 = 24.0;

/// Squares this wide hold a name each: creatures side by side are all named.
pub const NAME_WIDE_SQUARE_PX: f32 = 64.0;

/// Text drawn at a fixed size on the screen: its scale follows the map camera's, so its font
/// size is in screen pixels.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ScreenSized;

/// Screen-sized text that shrinks with the squares: at most [`SHRUNK_SHARE`] of a square's width
/// high, and never below [`LEGIBLE_PX`] (a token's initials and mark at every zoom).
#[derive(Component, Clone, Copy, Debug)]
pub struct ShrinkWithSquares {
    /// Its font's size, in screen pixels, at full size.
    pub font_px: f32,
}

/// The share of a square's width shrinking text keeps to.
pub const SHRUNK_SHARE: f32 = 0.6;

/// The least text is drawn, in screen pixels.
pub const LEGIBLE_PX: f32 = 8.0;

impl ShrinkWithSquares {
    /// Its scale at squares `square_px` wide on the screen.
    pub fn factor(self, square_px: f32) -> f32 {
        (square_px * SHRUNK_SHARE).clamp(LEGIBLE_PX, self.font_px) / self.font_px
    }
}

/// A label of a square that is hidden while the map is zoomed out too far for text, unless the
/// pointer is over its square.
#[derive(Component, Clone, Copy, Debug)]
pub struct SquareLabel(pub GridPos);

/// What a map label carries: drawn at a fixed size on the screen, on the labels' layer.
pub fn screen_text() -> impl Bundle {
    (ScreenSized, RenderLayers::layer(LABELS_LAYER))
}

/// How many screen pixels a square is wide at the map camera's zoom.
pub fn square_px(camera_scale: f32) -> f32 {
    super::art::TILE_PX as f32 / camera_scale.max(f32::EPSILON)
}

/// Is there room for labels at this zoom?
pub fn roomy(camera_scale: f32) -> bool {
    square_px(camera_scale) >= ROOMY_SQUARE_PX
}

/// The map camera's zoom (world units a screen pixel), 1 when there is none.
pub fn camera_scale(camera: &Query<&Projection, With<MapCamera>>) -> f32 {
    camera
        .iter()
        .find_map(|p| match p {
            Projection::Orthographic(o) => Some(o.scale),
            _ => None,
        })
        .unwrap_or(1.0)
}

pub struct LabelsPlugin;

impl Plugin for LabelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PostUpdate,
            (keep_text_screen_sized, hide_labels_when_cramped)
                .before(bevy::transform::TransformSystems::Propagate),
        );
    }
}

/// Where a camera looks and how far it is zoomed.
pub type CameraView = (&'static Transform, &'static Projection);

/// A screen-sized text: its transform, its parent, whether it shrinks with the squares.
type ScreenText = (
    &'static mut Transform,
    Option<&'static ChildOf>,
    Option<&'static ShrinkWithSquares>,
);

/// The labels' scale is the camera's: a font of 13 is 13 pixels on the screen at every zoom
/// (under a parent drawn smaller, a token sharing its square, as large all the same).
fn keep_text_screen_sized(
    camera: Query<&Projection, With<MapCamera>>,
    mut labels: Query<ScreenText, With<ScreenSized>>,
    parents: Query<&Transform, Without<ScreenSized>>,
) {
    let camera = camera_scale(&camera);
    let square = square_px(camera);
    for (mut tf, parent, shrink) in &mut labels {
        let under = parent
            .and_then(|p| parents.get(p.parent()).ok())
            .map_or(1.0, |t| t.scale.x.max(0.01));
        let shrunk = shrink.map_or(1.0, |s| s.factor(square));
        let scale = Vec3::splat(camera * shrunk / under);
        if tf.scale != scale {
            tf.scale = scale;
        }
    }
}

/// Squares' labels are hidden when the squares are too small for them, except under the
/// pointer.
fn hide_labels_when_cramped(
    camera: Query<&Projection, With<MapCamera>>,
    pointer: super::pointer::Pointer,
    mut labels: Query<(&SquareLabel, &mut Visibility)>,
) {
    let roomy = roomy(camera_scale(&camera));
    let hovered = pointer.square();
    for (label, mut vis) in &mut labels {
        let want = if roomy || hovered == Some(label.0) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zoom(app: &mut App, scale: f32) {
        let mut q = app
            .world_mut()
            .query_filtered::<&mut Projection, With<MapCamera>>();
        if let Projection::Orthographic(o) = &mut *q.single_mut(app.world_mut()).unwrap() {
            o.scale = scale;
        }
        app.update();
    }

    /// A label's scale is the camera's (its font size stays in screen pixels), and a square's
    /// label is hidden while squares are narrower than 24 pixels.
    #[test]
    fn labels_keep_their_size_on_the_screen_and_hide_when_cramped() {
        let mut app = super::super::input::tests::app();
        app.add_plugins(LabelsPlugin);
        let label = app
            .world_mut()
            .spawn((
                screen_text(),
                SquareLabel(GridPos::new(3, 3)),
                Transform::default(),
                Visibility::default(),
            ))
            .id();
        let seen = |app: &App| {
            (
                app.world().get::<Transform>(label).unwrap().scale.x,
                *app.world().get::<Visibility>(label).unwrap(),
            )
        };
        zoom(&mut app, 0.5);
        assert_eq!(seen(&app), (0.5, Visibility::Inherited));
        zoom(&mut app, 2.0);
        assert_eq!(square_px(2.0), 16.0);
        assert_eq!(seen(&app), (2.0, Visibility::Hidden));
        zoom(&mut app, 32.0 / 24.0);
        assert_eq!(seen(&app).1, Visibility::Inherited);
    }

    /// Initials of 11 pixels keep to 60% of a square's width, down to 8 pixels.
    #[test]
    fn shrinking_text_keeps_to_its_square_and_stays_legible() {
        let s = ShrinkWithSquares { font_px: 11.0 };
        assert_eq!(s.factor(64.0), 1.0);
        assert!((s.factor(15.0) * 11.0 - 9.0).abs() < 1e-4);
        assert!((s.factor(8.0) * 11.0 - LEGIBLE_PX).abs() < 1e-4);
    }
}
