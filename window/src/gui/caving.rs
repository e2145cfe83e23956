//! The caving features the tiles do not show: the anchors a grappling hook can catch, the easy
//! climbs the level describes, the ropes hanging into pits and chasms, and the crawling
//! traverses rigged across them (Dungeon Delves › Caving and Spelunking).

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::TileStorage;

use super::art::TILE_PX;
use super::squares::square_to_world;
use super::state::{Marker, RedrawSet};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::Climbs;
use delve_ground::level::schema::Surface;
use delve_rules::rules::caving::climbing::RopesSecured;
use delve_rules::rules::caving::traverse::RiggedTraverses;

/// A drawn caving mark; all are drawn anew when the ropes change or the map is redrawn.
#[derive(Component, Clone, Copy, Debug)]
pub struct CavingMark;

/// Draws the caving marks.
pub struct CavingMarksPlugin;

impl Plugin for CavingMarksPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            draw_caving_marks
                .in_set(RedrawSet)
                .after(super::map::redraw),
        );
    }
}

/// A rope's colour: hemp.
const ROPE: Color = Color::srgb(0.86, 0.72, 0.45);
/// An anchor's colour: a dark rock horn.
const ANCHOR: Color = Color::srgb(0.55, 0.42, 0.3);
/// An easy climb's holds.
const HOLDS: Color = Color::srgb(0.7, 0.62, 0.5);

#[allow(clippy::too_many_arguments)]
fn draw_caving_marks(
    mut commands: Commands,
    grid: Res<DungeonGrid>,
    climbs: Option<Res<Climbs>>,
    ropes: Option<Res<RopesSecured>>,
    rigged: Option<Res<RiggedTraverses>>,
    new_map: Query<(), Added<TileStorage>>,
    old: Query<Entity, With<CavingMark>>,
) {
    let changed = ropes.as_ref().is_some_and(|r| r.is_changed())
        || rigged.as_ref().is_some_and(|r| r.is_changed());
    if !changed && new_map.is_empty() {
        return;
    }
    for e in &old {
        commands.entity(e).try_despawn();
    }
    let h = grid.height();
    let t = TILE_PX as f32;
    let mut mark = |at: GridPos, sprite: Sprite, offset: Vec2, turn: f32| {
        let c = square_to_world(h, at.x, at.y) + offset;
        commands.spawn((
            CavingMark,
            Marker { at, trap: false },
            sprite,
            Transform::from_xyz(c.x, c.y, 4.0).with_rotation(Quat::from_rotation_z(turn)),
        ));
    };
    for (at, climb) in climbs.iter().flat_map(|c| c.0.iter()) {
        // An anchor: a diamond at the top edge of the square.
        if climb.anchor_ac.is_some() {
            mark(
                *at,
                Sprite::from_color(ANCHOR, Vec2::splat(t * 0.25)),
                Vec2::new(0.0, t * 0.32),
                std::f32::consts::FRAC_PI_4,
            );
        }
        // An easy climb: three holds up the square.
        if climb.surface == Surface::Easy {
            for k in [-1.0, 0.0, 1.0] {
                mark(
                    *at,
                    Sprite::from_color(HOLDS, Vec2::new(t * 0.4, t * 0.06)),
                    Vec2::new(0.0, k * t * 0.22),
                    0.0,
                );
            }
        }
    }
    // A rope hanging into a hole: a line down the square.
    for rope in ropes.iter().flat_map(|r| r.0.iter()) {
        mark(
            rope.at,
            Sprite::from_color(ROPE, Vec2::new(t * 0.1, t * 0.9)),
            Vec2::ZERO,
            0.0,
        );
    }
    // A traverse: a line from rim to rim.
    for r in rigged.iter().flat_map(|r| r.0.iter()) {
        let (a, b) = (
            square_to_world(h, r.from.x, r.from.y),
            square_to_world(h, r.to.x, r.to.y),
        );
        let span = b - a;
        mark(
            r.from,
            Sprite::from_color(ROPE, Vec2::new(span.length(), t * 0.08 * r.ropes as f32)),
            span / 2.0,
            span.y.atan2(span.x),
        );
    }
}
