//! Noise in the Judge's view: when a noise of normal loudness or more happens, the squares where
//! it is heard automatically glow orange and those where it takes a Listening throw glow blue,
//! fading over a few seconds (F3 hides or shows them: `gui::overlays`, whose legend says what
//! the colours mean). N makes a loud noise at the pointer.

use bevy::prelude::*;
use delve_rules::command::acts::MakeNoise;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::pointer::Pointer;
use super::squares::square_to_world;
use super::state::{RedrawSet, Tell, ViewMode};
use delve_ground::grid::DungeonGrid;
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::creature::LevelInfo;
use delve_rules::rules::sound::noises::LastRoundNoises;
use delve_rules::rules::sound::{Earshot, SoundRow, Verdict, verdicts_from};

/// Seconds an overlay takes to fade.
const FADE_SECONDS: f32 = 3.0;

/// A square of the noise overlay, fading.
#[derive(Component, Clone, Copy, Debug)]
pub struct NoiseMark {
    age: f32,
    alpha: f32,
}

pub struct NoiseViewPlugin;

impl Plugin for NoiseViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (make_noise, show_noises, fade).chain().after(RedrawSet),
        );
    }
}

fn make_noise(
    actions: Single<&ActionState<DelveAction>>,
    pointer: Pointer,
    mut pending: ResMut<PendingCommands>,
    mut tell: MessageWriter<Tell>,
) {
    if !actions.just_pressed(&DelveAction::MakeNoise) {
        return;
    }
    let Some(at) = pointer.square() else {
        return;
    };
    let command = Command::MakeNoise(MakeNoise {
        at: (at.x, at.y),
        sound: SoundRow::Loud,
        what: "a crash the Judge made".into(),
    });
    tell.write(Tell(format!("{command} - press Space to play the round")));
    pending.push(command);
}

fn show_noises(
    mut commands: Commands,
    noises: Res<LastRoundNoises>,
    (view, grid, info): (Res<ViewMode>, Res<DungeonGrid>, Res<LevelInfo>),
    overlays: Res<super::overlays::Overlays>,
    shown: Query<Entity, With<NoiseMark>>,
    (mut earshot, mut was): (Local<Earshot>, Local<Option<bool>>),
) {
    // Hidden (F3): gone at once; shown again: the last round's noises anew.
    let toggled = was.is_some_and(|w| w != overlays.noise);
    *was = Some(overlays.noise);
    if toggled && !overlays.noise {
        for e in &shown {
            commands.entity(e).despawn();
        }
    }
    let again = toggled && overlays.noise;
    if !(noises.is_changed() || again) || *view != ViewMode::Judge || !overlays.noise {
        return;
    }
    let h = grid.height();
    for noise in noises.0.iter().filter(|n| n.sound >= SoundRow::Normal) {
        let verdicts = verdicts_from(
            &grid,
            &mut earshot,
            noise.at,
            noise.sound,
            info.widest_environment(),
            |p| info.environment_at(p),
        );
        for ((p, _), v) in grid.squares().zip(verdicts) {
            let rgb = |[r, g, b]: [u8; 3]| Color::srgb_u8(r, g, b);
            let (color, alpha) = match v {
                Verdict::Automatic => (rgb(super::overlays::HEARD_AUTOMATICALLY), 0.45),
                Verdict::Throw => (rgb(super::overlays::HEARD_WITH_A_THROW), 0.3),
                Verdict::Inaudible => continue,
            };
            let at = square_to_world(h, p.x, p.y);
            commands.spawn((
                NoiseMark { age: 0.0, alpha },
                Sprite {
                    color: color.with_alpha(alpha),
                    custom_size: Some(Vec2::splat(super::art::TILE_PX as f32)),
                    ..default()
                },
                Transform::from_xyz(at.x, at.y, 7.0),
            ));
        }
    }
}

fn fade(
    mut commands: Commands,
    time: Res<Time>,
    mut marks: Query<(Entity, &mut NoiseMark, &mut Sprite)>,
) {
    for (e, mut m, mut sprite) in &mut marks {
        m.age += time.delta_secs();
        if m.age >= FADE_SECONDS {
            commands.entity(e).despawn();
        } else {
            sprite
                .color
                .set_alpha(m.alpha * (1.0 - m.age / FADE_SECONDS));
        }
    }
}
