//! The level as a tilemap, with the Judge's markers for traps and light sources.

use delve_rules::creature::Factions;
use delve_rules::rules::traps::TrapState;

use std::collections::HashMap;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::art::{self, TILE_PX, TileArt};
use super::squares::square_to_world;
use super::state::{Art, Drawn, MapView, RedrawSet, ShownLevel};
use super::tokens;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::creature::Position;
use delve_rules::rules::doors::Door;
use delve_rules::rules::light::LightSource;
use delve_rules::rules::traps::Trap;

/// Draws the map whenever the shown level changes, and keeps door tiles in step with doors.
pub struct MapViewPlugin;

impl Plugin for MapViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, paint_art).add_systems(
            Update,
            (redraw, sync_door_tiles, sync_trap_rings)
                .chain()
                .in_set(RedrawSet),
        );
    }
}

fn paint_art(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    array_texture_loader: Res<ArrayTextureLoader>,
) {
    let tileset = images.add(art::tileset_image());
    let tile_size = TilemapTileSize {
        x: TILE_PX as f32,
        y: TILE_PX as f32,
    };
    array_texture_loader.add(TilemapArrayTexture {
        texture: TilemapTexture::Single(tileset.clone()),
        tile_size,
        filter: Some(bevy::render::render_resource::FilterMode::Nearest),
        ..default()
    });
    commands.insert_resource(Art {
        tileset,
        token: images.add(art::token_image(64)),
        ring: images.add(art::ring_image(64)),
    });
}

/// Draws the level anew when [`ShownLevel::redraw`] is set: tiles, markers and tokens; twice
/// with a players' window (`gui::players`), the players' copy on their render layer.
#[allow(clippy::too_many_arguments)]
pub(super) fn redraw(
    mut commands: Commands,
    mut shown: ResMut<ShownLevel>,
    art: Res<Art>,
    grid: Res<DungeonGrid>,
    old: Query<Entity, With<MapView>>,
    doors: Query<(&Position, &Door)>,
    traps: Query<(&Position, &Trap)>,
    lights: Query<(&Position, &LightSource)>,
    creatures: Query<tokens::TokenSource>,
    factions: Res<Factions>,
    players: Option<Res<super::state::PlayerWindow>>,
) {
    if !shown.redraw {
        return;
    }
    shown.redraw = false;
    shown.keep_view = false;
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut copies = vec![(RenderLayers::layer(0), false)];
    if players.is_some() {
        copies.push((RenderLayers::layer(super::state::PLAYERS_LAYER), true));
    }
    for (layer, for_players) in copies {
        let drawn = Drawn { layer, for_players };
        draw(
            &mut commands,
            &drawn,
            &art,
            &grid,
            &doors,
            &traps,
            &lights,
            &creatures,
            &factions,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn draw(
    commands: &mut Commands,
    drawn: &Drawn,
    art: &Art,
    grid: &DungeonGrid,
    doors: &Query<(&Position, &Door)>,
    traps: &Query<(&Position, &Trap)>,
    lights: &Query<(&Position, &LightSource)>,
    creatures: &Query<tokens::TokenSource>,
    factions: &Factions,
) {
    let (w, h) = (grid.width(), grid.height());
    let map_size = TilemapSize { x: w, y: h };
    let tilemap = commands.spawn(drawn.marks()).id();
    drawn.mark_players(commands, tilemap);
    let mut storage = TileStorage::empty(map_size);
    let door_at: HashMap<GridPos, &Door> = doors.iter().map(|(p, d)| (p.0, d)).collect();
    for (p, t) in grid.squares() {
        let door = door_at.get(&p).map(|d| (&d.state, &d.lock, d.secret));
        let pos = TilePos {
            x: p.x as u32,
            y: h - 1 - p.y as u32,
        };
        let tile = commands
            .spawn((
                MapView,
                TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(TileArt::for_square(t, door) as u32),
                    ..default()
                },
            ))
            .id();
        storage.set(&pos, tile);
    }
    let tile_size = TilemapTileSize {
        x: TILE_PX as f32,
        y: TILE_PX as f32,
    };
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size: map_size,
        storage,
        texture: TilemapTexture::Single(art.tileset.clone()),
        tile_size,
        anchor: TilemapAnchor::None,
        ..default()
    });
    // The Judge's markers: traps as red rings, placed lights as flames.
    for (p, t) in traps {
        let at = square_to_world(h, p.0.x, p.0.y);
        let e = commands
            .spawn((
                drawn.marks(),
                super::state::Marker {
                    at: p.0,
                    trap: true,
                },
                Sprite {
                    image: art.ring.clone(),
                    color: trap_color(t),
                    custom_size: Some(Vec2::splat(22.0)),
                    ..default()
                },
                Transform::from_xyz(at.x, at.y, 5.0),
            ))
            .id();
        drawn.mark_players(commands, e);
    }
    for (p, l) in lights {
        let at = square_to_world(h, p.0.x, p.0.y);
        let color = if l.lit {
            Color::srgb(1.0, 0.75, 0.2)
        } else {
            Color::srgb(0.35, 0.3, 0.25)
        };
        let e = commands
            .spawn((
                drawn.marks(),
                super::state::Marker {
                    at: p.0,
                    trap: false,
                },
                Sprite {
                    image: art.token.clone(),
                    color,
                    custom_size: Some(Vec2::splat(12.0)),
                    ..default()
                },
                Transform::from_xyz(at.x, at.y, 5.0),
            ))
            .id();
        drawn.mark_players(commands, e);
    }
    tokens::spawn_tokens(commands, drawn, art, h, creatures, factions);
}

/// A trap's ring by its state: red while hidden and armed, orange once found, grey-blue when
/// disarmed, dark grey when spent.
pub fn trap_color(t: &Trap) -> Color {
    match (t.state, t.hidden) {
        (TrapState::Armed, true) => Color::srgb(0.95, 0.15, 0.1),
        (TrapState::Armed, false) => Color::srgb(1.0, 0.6, 0.1),
        (TrapState::Disarmed, _) => Color::srgb(0.45, 0.55, 0.75),
        (TrapState::Discharged, _) => Color::srgb(0.3, 0.3, 0.3),
    }
}

/// Keeps trap rings in step with the traps (found, disarmed, gone off).
fn sync_trap_rings(
    traps: Query<(&Position, &Trap), Changed<Trap>>,
    mut rings: Query<(&super::state::Marker, &mut Sprite)>,
) {
    for (p, t) in &traps {
        for (m, mut sprite) in &mut rings {
            if m.trap && m.at == p.0 {
                sprite.color = trap_color(t);
            }
        }
    }
}

/// Keeps door tiles in step with the doors (opened, closed, unlocked, found).
fn sync_door_tiles(
    grid: Res<DungeonGrid>,
    doors: Query<(&Position, &Door), Changed<Door>>,
    storages: Query<(&TileStorage, Has<super::state::PlayersCopy>)>,
    mut tiles: Query<&mut TileTextureIndex>,
) {
    for (p, d) in &doors {
        for (storage, for_players) in &storages {
            sync_door_tile(&grid, storage, &mut tiles, p.0, d, for_players);
        }
    }
}

/// A door's tile; on the players' copy a secret door is wall.
fn sync_door_tile(
    grid: &DungeonGrid,
    storage: &TileStorage,
    tiles: &mut Query<&mut TileTextureIndex>,
    at: GridPos,
    d: &Door,
    for_players: bool,
) {
    let pos = TilePos {
        x: at.x as u32,
        y: grid.height() - 1 - at.y as u32,
    };
    if let Some(tile) = storage.get(&pos)
        && let Ok(mut index) = tiles.get_mut(tile)
        && let Some(t) = grid.terrain(at)
    {
        index.0 = if for_players && d.secret {
            TileArt::WallStone as u32
        } else {
            TileArt::for_square(t, Some((&d.state, &d.lock, d.secret))) as u32
        };
    }
}
