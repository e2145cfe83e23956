//! Squares of the level and points of the world the map is drawn in.

use delve_ground::grid::GridPos;

use bevy::prelude::*;

use super::art;

/// Where a square's centre is in the world: one tile is [`art::TILE_PX`] units, row 0 on top.
pub fn square_to_world(grid_height: u32, x: i32, y: i32) -> Vec2 {
    let t = art::TILE_PX as f32;
    Vec2::new(x as f32 * t, (grid_height as i32 - 1 - y) as f32 * t)
}

/// The square under a world point.
pub fn world_to_square(grid_height: u32, p: Vec2) -> GridPos {
    let t = art::TILE_PX as f32;
    let x = (p.x / t).round() as i32;
    let y = grid_height as i32 - 1 - (p.y / t).round() as i32;
    GridPos::new(x, y)
}
