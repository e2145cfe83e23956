//! The minimap: the whole level small in a corner of the map (the one where it hides least of
//! the level drawn there), with the map camera's rectangle on it; a click or a drag on it moves
//! the camera there. It is the map itself seen by a second camera (the tiles and tokens as the
//! view shades them: in the party's view only what the party knows), without the map's text (`gui::labels`), drawn into a picture when the
//! map may have changed ([`MinimapPicture`]) and shown by the panels' pass. `I` shows or hides
//! it; it is not shown while the whole level is in view already.

use delve_ground::log::EventLog;
use delve_ground::time::Clock;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::controls::DelveAction;
use super::state::{MapCamera, Minimap};
use delve_ground::grid::DungeonGrid;
use leafwing_input_manager::prelude::ActionState;

/// The minimap's longer side at an interface scale of 1, in logical pixels.
pub const MINIMAP_PX: f32 = 200.0;

/// Its margin from the map's edges.
const MARGIN_PX: f32 = 10.0;

/// The level's extent in world units: square centres from 0, a half square beyond each.
pub fn level_extent(grid: &DungeonGrid) -> Rect {
    let t = super::art::TILE_PX as f32;
    Rect::new(
        -t / 2.0,
        -t / 2.0,
        grid.width() as f32 * t - t / 2.0,
        grid.height() as f32 * t - t / 2.0,
    )
}

/// Where the minimap goes in the map's space (`area`, logical pixels) for a level of this
/// extent: the level's shape, its longer side `side` pixels, in the corner of the map's space
/// where it hides least of the level as drawn there now (`drawn`, the level's rectangle on the
/// screen): the lower right unless another hides less. It stays in its corner (`was`) unless
/// another hides less by a tenth of its size, so that it does not hop as the map is panned.
/// None when the map's space is too small to spare it.
pub fn minimap_rect(
    area: Rect,
    level: Rect,
    side: f32,
    drawn: Option<Rect>,
    was: Option<Rect>,
) -> Option<Rect> {
    let aspect = level.width() / level.height().max(1.0);
    let size = if aspect >= 1.0 {
        Vec2::new(side, side / aspect)
    } else {
        Vec2::new(side * aspect, side)
    };
    if area.width() < size.x * 2.0 || area.height() < size.y * 1.5 {
        return None;
    }
    let inner = Rect::from_corners(
        area.min + Vec2::splat(MARGIN_PX),
        area.max - Vec2::splat(MARGIN_PX),
    );
    // Lower right, lower left, upper right, upper left.
    let corners = [
        Rect::from_corners(inner.max - size, inner.max),
        Rect::from_corners(
            Vec2::new(inner.min.x, inner.max.y - size.y),
            Vec2::new(inner.min.x + size.x, inner.max.y),
        ),
        Rect::from_corners(
            Vec2::new(inner.max.x - size.x, inner.min.y),
            Vec2::new(inner.max.x, inner.min.y + size.y),
        ),
        Rect::from_corners(inner.min, inner.min + size),
    ];
    let hides = |r: &Rect| {
        drawn.map_or(0.0, |d| {
            let i = r.intersect(d);
            if i.is_empty() {
                0.0
            } else {
                i.width() * i.height()
            }
        })
    };
    let least = corners
        .iter()
        .copied()
        .min_by(|a, b| hides(a).total_cmp(&hides(b)))
        .unwrap_or(corners[0]);
    let stay = was
        .and_then(|w| {
            corners
                .iter()
                .copied()
                .find(|c| c.min.distance(w.min) < 0.5)
        })
        .filter(|c| hides(c) <= hides(&least) + 0.1 * size.x * size.y);
    Some(stay.unwrap_or(least))
}

/// The level's rectangle on the screen (logical pixels) as the map's camera at `at`, `scale`
/// world units a pixel, draws it in the map's space `area`.
pub fn level_on_screen(area: Rect, level: Rect, at: Vec2, scale: f32) -> Rect {
    let to_screen = |w: Vec2| {
        let d = (w - at) / scale.max(f32::EPSILON);
        Vec2::new(area.center().x + d.x, area.center().y - d.y)
    };
    Rect::from_corners(to_screen(level.min), to_screen(level.max))
}

/// The minimap's camera: the map's default layer only (no text), drawn into the minimap's
/// picture.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct MinimapCamera;

/// The minimap's picture: the image its camera draws into, the picture's size in pixels, and
/// what it was last drawn for. It is drawn anew only when the map may look otherwise (a round
/// played, the view or the selection changed, a command given, the tiles shaded anew, the
/// minimap moved), at most every [`MIN_GAP_FRAMES`] frames for those, and every
/// [`REDRAW_FRAMES`] frames besides: drawing the whole level a second time every frame would cost
/// a software renderer a seventh of its frame.
#[derive(Resource, Clone, Debug, Default)]
pub struct MinimapPicture {
    pub image: Option<Handle<Image>>,
    size: UVec2,
    drawn_for: Option<PictureKey>,
    frames: u32,
    /// Frames its camera is still to draw.
    drawing: u32,
    /// The map changed since it was last drawn.
    stale: bool,
}

/// What the picture shows depends on.
#[derive(Clone, Debug, PartialEq)]
struct PictureKey {
    rounds: u64,
    view: Option<super::state::ViewMode>,
    selected: Option<Entity>,
    log: usize,
    size: UVec2,
}

/// The picture is drawn anew at least this often, in frames.
pub const REDRAW_FRAMES: u32 = 30;

/// Frames a drawing of the picture takes.
const DRAW_FRAMES: u32 = 3;

/// Frames at least between two drawings for a change of the map.
const MIN_GAP_FRAMES: u32 = 10;

pub struct MinimapPlugin;

impl Plugin for MinimapPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Minimap>()
            .init_resource::<MinimapPicture>()
            .add_systems(Startup, spawn_minimap_camera)
            .add_systems(
                Update,
                (
                    place_minimap,
                    draw_the_picture_when_needed,
                    move_camera_by_minimap,
                )
                    .chain()
                    .after(super::state::RedrawSet)
                    .after(super::state::ShadeSet),
            );
        if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
            app.add_systems(EguiPrimaryContextPass, show_the_minimap);
        }
    }
}

fn spawn_minimap_camera(
    mut commands: Commands,
    images: Option<ResMut<Assets<Image>>>,
    mut picture: ResMut<MinimapPicture>,
) {
    let camera = commands
        .spawn((
            Camera2d,
            MinimapCamera,
            Camera {
                is_active: false,
                clear_color: ClearColorConfig::Custom(Color::srgb(0.05, 0.05, 0.07)),
                ..default()
            },
            RenderLayers::layer(0),
        ))
        .id();
    if let Some(mut images) = images {
        let size = UVec2::splat(64);
        let image = images.add(target_image(size));
        commands
            .entity(camera)
            .insert(bevy::camera::RenderTarget::from(image.clone()));
        picture.image = Some(image);
        picture.size = size;
    }
}

/// An image a camera draws into, of this size in pixels.
fn target_image(size: UVec2) -> Image {
    Image::new_target_texture(
        size.x,
        size.y,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        None,
    )
}

/// Lays the minimap out in the map's corner, or hides it: `I`; not while the map's camera shows
/// the whole level; not where the map's space is too small. Its camera looks at the whole level.
#[allow(clippy::too_many_arguments)]
fn place_minimap(
    actions: Query<&ActionState<DelveAction>>,
    mut minimap: ResMut<Minimap>,
    grid: Res<DungeonGrid>,
    area: Option<Res<super::state::MapArea>>,
    panels: Option<Res<super::panels::PanelState>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    map_camera: Query<(&Transform, &Projection), With<MapCamera>>,
) {
    if actions
        .iter()
        .any(|a| a.just_pressed(&DelveAction::ToggleMinimap))
    {
        minimap.wanted = !minimap.wanted;
    }
    let Ok(window) = windows.single() else {
        return;
    };
    let area = area
        .and_then(|a| a.0)
        .unwrap_or(Rect::from_corners(Vec2::ZERO, window.size()));
    let level = level_extent(&grid);
    if minimap.level != level {
        minimap.level = level;
    }
    let scale = panels.map_or(1.0, |p| p.ui_scale);
    let whole_in_view = map_camera.iter().next().is_some_and(|(tf, proj)| {
        let Projection::Orthographic(o) = proj else {
            return false;
        };
        let half = area.size() * o.scale / 2.0;
        let at = tf.translation.truncate();
        let view = Rect::from_corners(at - half, at + half);
        view.contains(level.min) && view.contains(level.max)
    });
    let drawn = map_camera.iter().next().and_then(|(tf, proj)| match proj {
        Projection::Orthographic(o) => Some(level_on_screen(
            area,
            level,
            tf.translation.truncate(),
            o.scale,
        )),
        _ => None,
    });
    let rect = if minimap.wanted && !whole_in_view {
        minimap_rect(area, level, MINIMAP_PX * scale, drawn, minimap.rect)
    } else {
        None
    };
    if minimap.rect != rect {
        minimap.rect = rect;
    }
}

/// Draws the minimap's picture this frame when the map may look otherwise than when it was last
/// drawn (see [`MinimapPicture`]), at the size it is shown at on the screen.
#[allow(clippy::too_many_arguments)]
fn draw_the_picture_when_needed(
    minimap: Res<Minimap>,
    mut picture: ResMut<MinimapPicture>,
    mut images: Option<ResMut<Assets<Image>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    clock: Res<Clock>,
    view: Option<Res<super::state::ViewMode>>,
    selected: Res<super::state::Selected>,
    log: Res<EventLog>,
    shaded: Query<(), Changed<bevy_ecs_tilemap::tiles::TileColor>>,
    mut cameras: Query<(Entity, &mut Camera, &mut Transform, &mut Projection), With<MinimapCamera>>,
    mut commands: Commands,
) {
    let Some(rect) = minimap.rect else {
        for (_, mut camera, ..) in &mut cameras {
            if camera.is_active {
                camera.is_active = false;
            }
        }
        picture.drawn_for = None;
        return;
    };
    let factor = windows.single().map_or(1.0, |w| w.scale_factor());
    let size = (rect.size() * factor).round().as_uvec2().max(UVec2::ONE);
    let key = PictureKey {
        rounds: clock.rounds,
        view: view.as_deref().copied(),
        selected: selected.0,
        log: log.len(),
        size,
    };
    picture.frames += 1;
    // A change is drawn at most every few frames (played on at 16 rounds a second, the map
    // changes every frame); a new size, or none drawn yet, at once.
    let changed = picture.drawn_for.as_ref() != Some(&key) || !shaded.is_empty();
    picture.stale |= changed;
    let new_size = picture.drawn_for.as_ref().is_none_or(|k| k.size != size);
    let wanted = new_size
        || (picture.stale && picture.frames >= MIN_GAP_FRAMES)
        || picture.frames >= REDRAW_FRAMES;
    if wanted {
        picture.stale = false;
    }
    // A camera's first frames draw nothing while the renderer makes ready its view (its
    // pipelines and batches are the view's): once wanted, it draws for a few frames on end.
    if wanted {
        picture.drawing = DRAW_FRAMES;
    }
    let draw = picture.drawing > 0;
    picture.drawing = picture.drawing.saturating_sub(1);
    if wanted {
        picture.frames = 0;
        picture.drawn_for = Some(key);
        // A picture of another size is a new image (egui keeps a texture by its image).
        if picture.size != size
            && let Some(images) = images.as_mut()
        {
            let image = images.add(target_image(size));
            for (camera, ..) in &cameras {
                commands
                    .entity(camera)
                    .insert(bevy::camera::RenderTarget::from(image.clone()));
            }
            picture.image = Some(image);
            picture.size = size;
            // Its texture is made in the render world this frame: drawn again the next.
            picture.drawn_for = None;
        }
    }
    let level = minimap.level;
    for (_, mut camera, mut tf, mut proj) in &mut cameras {
        if camera.is_active != draw {
            camera.is_active = draw;
        }
        if !draw {
            continue;
        }
        let centre = level.center().extend(tf.translation.z);
        if tf.translation != centre {
            tf.translation = centre;
        }
        if let Projection::Orthographic(o) = &mut *proj {
            let fit = (level.width() / size.x as f32).max(level.height() / size.y as f32);
            if o.scale != fit {
                o.scale = fit;
            }
        }
    }
}

/// A click on the minimap, or a drag begun on it, centres the map's camera there.
fn move_camera_by_minimap(
    mut minimap: ResMut<Minimap>,
    mouse: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<&mut Transform, With<MapCamera>>,
) {
    let cursor = windows.single().ok().and_then(|w| w.cursor_position());
    if mouse.just_pressed(MouseButton::Left) {
        minimap.dragging = cursor.is_some_and(|c| minimap.covers(c));
    }
    if !mouse.pressed(MouseButton::Left) {
        minimap.dragging = false;
    }
    if !minimap.dragging {
        return;
    }
    let Some(at) = cursor.and_then(|c| minimap.world_at(c)) else {
        return;
    };
    for mut tf in &mut camera {
        tf.translation.x = at.x;
        tf.translation.y = at.y;
    }
}

/// The minimap on the screen: its picture, its frame, and the map camera's rectangle on it.
fn show_the_minimap(
    mut contexts: EguiContexts,
    minimap: Res<Minimap>,
    picture: Res<MinimapPicture>,
    mut texture: Local<Option<(AssetId<Image>, egui::TextureId)>>,
    area: Option<Res<super::state::MapArea>>,
    map_camera: Query<(&Transform, &Projection), With<MapCamera>>,
) -> Result {
    let (Some(rect), Some(area), Some(image)) =
        (minimap.rect, area.and_then(|a| a.0), picture.image.as_ref())
    else {
        return Ok(());
    };
    let id = match *texture {
        Some((of, id)) if of == image.id() => id,
        _ => {
            if let Some((of, _)) = texture.take() {
                contexts.remove_image(of);
            }
            let id = contexts.add_image(bevy_egui::EguiTextureHandle::Strong(image.clone()));
            *texture = Some((image.id(), id));
            id
        }
    };
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("minimap"),
    ));
    // egui's points are the window's logical pixels over its zoom (the interface's scale).
    let zoom = ctx.zoom_factor();
    let to_egui = |p: Vec2| egui::pos2(p.x / zoom, p.y / zoom);
    let frame = egui::Rect::from_min_max(to_egui(rect.min), to_egui(rect.max));
    painter.image(
        id,
        frame,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    painter.rect_stroke(
        frame.expand(1.0),
        2.0,
        egui::Stroke::new(1.5, egui::Color32::from_gray(150)),
        egui::StrokeKind::Outside,
    );
    if let Ok((tf, Projection::Orthographic(o))) = map_camera.single() {
        let half = area.size() * o.scale / 2.0;
        let at = tf.translation.truncate();
        let (Some(a), Some(b)) = (
            minimap.place_of(at + Vec2::new(-half.x, half.y)),
            minimap.place_of(at + Vec2::new(half.x, -half.y)),
        ) else {
            return Ok(());
        };
        let view = egui::Rect::from_min_max(to_egui(a), to_egui(b)).intersect(frame);
        painter.rect_stroke(
            view,
            0.0,
            egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 220, 90)),
            egui::StrokeKind::Inside,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use leafwing_input_manager::prelude::Buttonlike;

    fn camera_at(app: &mut App) -> Vec2 {
        let mut q = app
            .world_mut()
            .query_filtered::<&Transform, With<MapCamera>>();
        q.single(app.world()).unwrap().translation.truncate()
    }

    fn point_at(app: &mut App, at: Option<Vec2>) {
        let mut q = app
            .world_mut()
            .query_filtered::<&mut Window, With<PrimaryWindow>>();
        q.single_mut(app.world_mut())
            .unwrap()
            .set_cursor_position(at);
    }

    /// A click on the minimap centres the map's camera on the square clicked (and selects
    /// nothing on the map beneath); a drag begun on it moves the camera along; `I` hides it.
    #[test]
    fn a_click_on_the_minimap_moves_the_camera_there() {
        let mut app = super::super::input::tests::app();
        app.add_plugins(MinimapPlugin);
        app.world_mut().spawn((
            Window {
                resolution: bevy::window::WindowResolution::new(1280, 800),
                ..default()
            },
            PrimaryWindow,
        ));
        // Zoomed in: the whole level is not in view, so the minimap is shown.
        {
            let mut q = app
                .world_mut()
                .query_filtered::<&mut Projection, With<MapCamera>>();
            if let Projection::Orthographic(o) = &mut *q.single_mut(app.world_mut()).unwrap() {
                o.scale = 0.25;
            }
        }
        app.update();
        let minimap = *app.world().resource::<Minimap>();
        let rect = minimap.rect.expect("the minimap is shown");
        assert!(rect.max.x <= 1280.0 && rect.max.y <= 800.0 && rect.width() <= MINIMAP_PX);
        let h = app.world().resource::<DungeonGrid>().height();
        let square = |x, y| super::super::squares::square_to_world(h, x, y);
        let target = square(20, 3);
        let cursor = minimap.place_of(target).unwrap();
        assert!(minimap.covers(cursor));
        point_at(&mut app, Some(cursor));
        MouseButton::Left.press(app.world_mut());
        app.update();
        let at = camera_at(&mut app);
        assert!(at.distance(target) < 0.01, "{at} is not {target}");
        assert_eq!(
            app.world()
                .resource::<super::super::state::UiState>()
                .picked,
            None
        );
        // Dragged on: the camera follows; released, it stays.
        let other = square(4, 10);
        point_at(&mut app, minimap.place_of(other));
        app.update();
        assert!(camera_at(&mut app).distance(other) < 0.01);
        MouseButton::Left.release(app.world_mut());
        app.update();
        point_at(&mut app, minimap.place_of(target));
        app.update();
        assert!(camera_at(&mut app).distance(other) < 0.01);
        // I hides it.
        super::super::input::tests::press(&mut app, KeyCode::KeyI);
        assert_eq!(app.world().resource::<Minimap>().rect, None);
    }

    /// The minimap keeps the level's shape, in the lower right corner of the map's space, and
    /// is not shown where the space is too small for it.
    #[test]
    fn the_minimap_has_the_levels_shape_in_the_corner() {
        let area = Rect::new(300.0, 20.0, 1000.0, 760.0);
        let wide = Rect::new(0.0, 0.0, 400.0, 100.0);
        let r = minimap_rect(area, wide, 200.0, None, None).unwrap();
        assert_eq!(r.size(), Vec2::new(200.0, 50.0));
        assert_eq!(r.max, area.max - Vec2::splat(MARGIN_PX));
        let tall = Rect::new(0.0, 0.0, 100.0, 400.0);
        assert_eq!(
            minimap_rect(area, tall, 200.0, None, None).unwrap().size(),
            Vec2::new(50.0, 200.0)
        );
        assert_eq!(
            minimap_rect(Rect::new(0.0, 0.0, 300.0, 250.0), tall, 200.0, None, None),
            None
        );
    }

    /// The minimap goes to the corner where it hides least of the level as drawn, and stays in
    /// its corner while another would hide only a little less.
    #[test]
    fn the_minimap_hides_least_of_the_level() {
        let area = Rect::new(300.0, 20.0, 1000.0, 760.0);
        let level = Rect::new(0.0, 0.0, 400.0, 400.0);
        // The level drawn over all but the upper left of the map's space.
        let drawn = Rect::new(400.0, 150.0, 1000.0, 760.0);
        let r = minimap_rect(area, level, 200.0, Some(drawn), None).unwrap();
        assert_eq!(r.min, area.min + Vec2::splat(MARGIN_PX), "{r:?}");
        // Drawn everywhere: the lower right, and the corner it was in is kept.
        let r = minimap_rect(area, level, 200.0, Some(area), None).unwrap();
        assert_eq!(r.max, area.max - Vec2::splat(MARGIN_PX));
        let upper_left = Rect::from_corners(
            area.min + Vec2::splat(MARGIN_PX),
            area.min + Vec2::splat(MARGIN_PX + 200.0),
        );
        let kept = minimap_rect(area, level, 200.0, Some(area), Some(upper_left)).unwrap();
        assert_eq!(kept, upper_left);
        // On the screen: a level 400 wide at scale 2 is 200 pixels wide about the middle.
        let on = level_on_screen(area, level, Vec2::new(200.0, 200.0), 2.0);
        assert_eq!(on.size(), Vec2::new(200.0, 200.0));
        assert_eq!(on.center(), area.center());
    }
}
