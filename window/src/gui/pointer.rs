//! Where the mouse pointer is on the map.

use delve_ground::grid::GridPos;

use bevy::prelude::*;

use super::squares::world_to_square;
use super::state::MapCamera;
use delve_ground::grid::DungeonGrid;

/// Where the mouse pointer is on the map.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Pointer<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<MapCamera>>,
    pub grid: Res<'w, DungeonGrid>,
    minimap: Option<Res<'w, super::state::Minimap>>,
}

impl Pointer<'_, '_> {
    /// The square under the mouse pointer, if it is on the map.
    pub fn square(&self) -> Option<GridPos> {
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
