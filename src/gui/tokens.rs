//! Creatures as tokens: a disc in the faction's colour with a readable name label, moved to
//! follow the creature's square, and a ring around the selected one.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::input::Selected;
use super::map::{Art, MapView};
use super::square_to_world;
use crate::actors::{Creature, Faction, Factions, Position};
use crate::grid::DungeonGrid;

/// A token drawn for a creature.
#[derive(Component, Clone, Copy, Debug)]
pub struct Token {
    pub creature: Entity,
}

/// The ring shown around the selected creature.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SelectionRing;

/// What a token is drawn from.
#[derive(QueryData)]
pub struct TokenSource {
    pub entity: Entity,
    pub name: &'static Name,
    pub position: &'static Position,
    pub faction: &'static Faction,
    _creature: &'static Creature,
}

pub struct TokensPlugin;

impl Plugin for TokensPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (follow_creatures, ring_the_selected).after(super::map::RedrawSet),
        );
    }
}

const TOKEN_PX: f32 = 26.0;

pub fn spawn_tokens(
    commands: &mut Commands,
    art: &Art,
    grid_height: u32,
    creatures: &Query<TokenSource>,
    factions: &Factions,
) {
    for c in creatures {
        let at = square_to_world(grid_height, c.position.0.x, c.position.0.y);
        let [r, g, b] = factions
            .0
            .get(c.faction.0)
            .map_or([200, 200, 200], |f| f.color);
        commands.spawn((
            MapView,
            Token { creature: c.entity },
            Sprite {
                image: art.token.clone(),
                color: Color::srgb_u8(r, g, b),
                custom_size: Some(Vec2::splat(TOKEN_PX)),
                ..default()
            },
            Transform::from_xyz(at.x, at.y, 10.0),
            children![(
                Text2d::new(c.name.to_string()),
                TextFont::from_font_size(13.0),
                TextColor(Color::WHITE),
                Text2dShadow {
                    offset: Vec2::new(1.0, -1.0),
                    color: Color::BLACK,
                },
                Transform::from_xyz(0.0, 21.0, 1.0),
            )],
        ));
    }
    commands.spawn((
        MapView,
        SelectionRing,
        Sprite {
            image: art.ring.clone(),
            custom_size: Some(Vec2::splat(TOKEN_PX + 10.0)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 9.0),
        Visibility::Hidden,
    ));
}

/// Tokens stand on their creature's square.
fn follow_creatures(
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    mut tokens: Query<(&Token, &mut Transform)>,
) {
    for (token, mut tf) in &mut tokens {
        if let Ok(p) = positions.get(token.creature) {
            let at = square_to_world(grid.height(), p.0.x, p.0.y);
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
}

fn ring_the_selected(
    selected: Res<Selected>,
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    mut ring: Query<(&mut Transform, &mut Visibility), With<SelectionRing>>,
) {
    for (mut tf, mut vis) in &mut ring {
        match selected.0.and_then(|e| positions.get(e).ok()) {
            Some(p) => {
                let at = square_to_world(grid.height(), p.0.x, p.0.y);
                tf.translation.x = at.x;
                tf.translation.y = at.y;
                *vis = Visibility::Visible;
            }
            None => *vis = Visibility::Hidden,
        }
    }
}
