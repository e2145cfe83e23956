//! The battlemap under the grid: a level that names an image (`battlemap: (image: "…png",
//! width, height)`, as `delve import` writes it) shows it beneath the tiles, spanning its squares
//! from the map's top-left corner. The tiles over it are drawn faint (the default), not at all,
//! or in full: M cycles. In the party's view what the party does not see stays black, so the
//! picture shows only what it sees and remembers.

use std::path::{Path, PathBuf};

use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use leafwing_input_manager::prelude::ActionState;

use super::art::TILE_PX;
use super::controls::DelveAction;
use super::state::{BattlemapShown, ShownLevel, Tell, TilesOver};

/// A battlemap's sprite.
#[derive(Component, Clone, Copy, Debug)]
struct BattlemapSprite;

pub struct BattlemapPlugin;

impl Plugin for BattlemapPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TilesOver>()
            .init_resource::<BattlemapShown>()
            .add_systems(
                Update,
                (show_battlemap, toggle_tiles).after(super::state::RedrawSet),
            );
    }
}

/// The image's file: relative to the level file.
fn image_path(shown: &ShownLevel, image: &str) -> PathBuf {
    shown
        .path
        .as_deref()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .join(image)
}

fn read_image(path: &Path) -> Result<Image, String> {
    let img = image::open(path)
        .map_err(|e| format!("the battlemap {}: {e}", path.display()))?
        .to_rgba8();
    let (w, h) = img.dimensions();
    Ok(Image::new(
        Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        img.into_raw(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    ))
}

/// Shows the level's battlemap (again when the level is drawn anew), under the tiles of each
/// copy of the map (the players' window's too).
fn show_battlemap(
    mut commands: Commands,
    shown: Res<ShownLevel>,
    mut current: ResMut<BattlemapShown>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<BattlemapSprite>>,
    players: Option<Res<super::state::PlayerWindow>>,
    mut tell: MessageWriter<Tell>,
) {
    if !shown.is_changed() {
        return;
    }
    let wanted = shown
        .level
        .battlemap
        .as_ref()
        .map(|b| (image_path(&shown, &b.image), b.width, b.height));
    if wanted.as_ref().map(|w| &w.0) == current.0.as_ref() && !old.is_empty() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    current.0 = None;
    let Some((path, w, h)) = wanted else {
        return;
    };
    let image = match read_image(&path) {
        Ok(i) => images.add(i),
        Err(e) => {
            tell.write(Tell(e));
            return;
        }
    };
    let t = TILE_PX as f32;
    let grid_h = shown.level.grid.height() as f32;
    // Square (0, 0)'s centre is at (0, (grid height - 1) × tile); the picture's top-left corner
    // is half a tile up and left of it.
    let (left, top) = (-t / 2.0, (grid_h - 1.0) * t + t / 2.0);
    let size = Vec2::new(w as f32 * t, h as f32 * t);
    let centre = Vec2::new(left + size.x / 2.0, top - size.y / 2.0);
    let mut layers = vec![RenderLayers::layer(0)];
    if players.is_some() {
        layers.push(RenderLayers::layer(super::state::PLAYERS_LAYER));
    }
    for layer in layers {
        commands.spawn((
            BattlemapSprite,
            layer,
            Sprite {
                image: image.clone(),
                custom_size: Some(size),
                ..default()
            },
            Transform::from_xyz(centre.x, centre.y, -1.0),
        ));
    }
    current.0 = Some(path);
}

fn toggle_tiles(
    actions: Single<&ActionState<DelveAction>>,
    shown: Res<BattlemapShown>,
    mut over: ResMut<TilesOver>,
    mut tell: MessageWriter<Tell>,
) {
    if !actions.just_pressed(&DelveAction::ToggleBattlemap) {
        return;
    }
    if shown.0.is_none() {
        tell.write(Tell("this level has no battlemap".into()));
        return;
    }
    *over = over.next();
    tell.write(Tell(
        match *over {
            TilesOver::Faint => "tiles drawn faint over the battlemap",
            TilesOver::Hidden => "the battlemap alone",
            TilesOver::Full => "tiles drawn in full over the battlemap",
        }
        .into(),
    ));
}
