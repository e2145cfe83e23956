//! `--player-window`: a second window for the players (a second screen, or a screen the table
//! shares) that shows only the party's view, following the party; the Judge's window keeps
//! everything.
//!
//! The map is drawn twice: the Judge's copy on the default render layer, the players' copy on
//! [`PLAYERS_LAYER`], always shaded as the party's view (`gui::lighting`) — what the party sees
//! now, what it remembers greyed, secret doors as wall, unseen creatures and unknown traps
//! hidden. The players' camera sees only that layer.

use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::{WindowRef, WindowResolution};

use super::state::{PLAYERS_LAYER, PlayerWindow};
use delve::creature::Position;
use delve::grid::DungeonGrid;
use delve::rules::party::Parties;

/// What the Judge shows in the players' window.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayersShow {
    /// The party's own map over what it sees and remembers.
    pub party_map: bool,
}

impl Default for PlayersShow {
    fn default() -> Self {
        Self { party_map: true }
    }
}

/// The players' camera.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayersCamera;

/// How many squares across the players' window shows around the party.
const SQUARES_ACROSS: f32 = 28.0;

pub struct PlayerWindowPlugin;

impl Plugin for PlayerWindowPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, open_player_window)
            .add_systems(Update, follow_the_party.after(super::state::RedrawSet));
    }
}

fn open_player_window(mut commands: Commands, shown: Option<Res<super::state::ShownLevel>>) {
    let title = shown.map_or_else(
        || "Delve - the players' view".to_owned(),
        |s| format!("Delve - {} (the players' view)", s.level.name),
    );
    let window = commands
        .spawn(Window {
            title,
            resolution: WindowResolution::new(960, 640),
            ..default()
        })
        .id();
    commands.spawn((
        Camera2d,
        PlayersCamera,
        RenderTarget::Window(WindowRef::Entity(window)),
        RenderLayers::layer(PLAYERS_LAYER),
    ));
    commands.insert_resource(PlayerWindow { window });
}

/// The players' camera stays on the party: centred on its members still standing (on its
/// leader when they are spread wide), showing about [`SQUARES_ACROSS`] squares.
fn follow_the_party(
    parties: Res<Parties>,
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    windows: Query<&Window>,
    player: Option<Res<PlayerWindow>>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<PlayersCamera>>,
) {
    let Some(player) = player else {
        return;
    };
    let Some(party) = parties.0.first() else {
        return;
    };
    let at: Vec<Vec2> = party
        .marching_order
        .iter()
        .filter_map(|&e| positions.get(e).ok())
        .map(|p| super::squares::square_to_world(grid.height(), p.0.x, p.0.y))
        .collect();
    if at.is_empty() {
        return;
    }
    let centre = at.iter().copied().sum::<Vec2>() / at.len() as f32;
    let width = windows
        .get(player.window)
        .map_or(960.0, |w| w.width().max(100.0));
    let scale = SQUARES_ACROSS * super::art::TILE_PX as f32 / width;
    for (mut tf, mut proj) in &mut cameras {
        if tf.translation.truncate() != centre {
            tf.translation.x = centre.x;
            tf.translation.y = centre.y;
        }
        if let Projection::Orthographic(o) = &mut *proj
            && o.scale != scale
        {
            o.scale = scale;
        }
    }
}
