//! "Who heard that?" on the map: after a round with noises, each noise's square says what it
//! was, and each creature within its earshot says whether it heard it — automatically, or with
//! its Listening throw and target, or that it missed (`delve::query::who_heard`). In the Judge's
//! view every listener is labelled; in one creature's view only that creature, with a mark where
//! it heard each noise from. The party's view shows none (the players learn what they heard from
//! the log).

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::input::Selected;
use super::lighting::ViewMode;
use super::map::RedrawSet;
use super::{ShownLevel, square_to_world};
use delve::grid::GridPos;
use delve::time::Clock;

/// A label of who heard what.
#[derive(Component)]
struct HeardLabel;

/// What the labels were drawn for: the round, the view, the selection.
#[derive(Resource, Default, PartialEq)]
struct Drawn(Option<(u64, ViewMode, Option<Entity>)>);

pub struct HeardPlugin;

impl Plugin for HeardPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Drawn>()
            .add_systems(Update, label_listeners.after(RedrawSet));
    }
}

fn label(commands: &mut Commands, square: GridPos, at: Vec2, text: String, colour: Color, z: f32) {
    commands.spawn((
        HeardLabel,
        super::labels::screen_text(),
        super::labels::SquareLabel(square),
        Text2d::new(text),
        TextFont::from_font_size(11.0),
        TextColor(colour),
        Text2dShadow {
            offset: Vec2::new(1.0, -1.0),
            color: Color::BLACK,
        },
        Transform::from_xyz(at.x, at.y, z),
    ));
}

fn label_listeners(world: &mut World) {
    let view = world
        .get_resource::<ViewMode>()
        .copied()
        .unwrap_or_default();
    let selected = world.resource::<Selected>().0;
    let round = world.resource::<Clock>().rounds;
    let now = Some((round, view, selected));
    if world.resource::<Drawn>().0 == now {
        return;
    }
    world.resource_mut::<Drawn>().0 = now;
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<HeardLabel>>()
        .iter(world)
        .collect();
    for e in old {
        world.despawn(e);
    }
    if view == ViewMode::Party {
        return;
    }
    let one = match view {
        ViewMode::Creature => selected.and_then(|e| world.get::<Name>(e).map(|n| n.to_string())),
        _ => None,
    };
    if view == ViewMode::Creature && one.is_none() {
        return;
    }
    let heard = delve::query::who_heard(world);
    let h = world.resource::<ShownLevel>().level.grid.height();
    let mut commands = world.commands();
    for noise in &heard {
        let listeners: Vec<_> = noise
            .listeners
            .iter()
            .filter(|l| one.as_ref().is_none_or(|n| *n == l.who))
            .collect();
        if listeners.is_empty() {
            continue;
        }
        let at = square_to_world(h, noise.at.x, noise.at.y);
        let what = if one.is_some() {
            format!("heard from here? {} ({})", noise.what, noise.sound)
        } else {
            format!("noise: {} ({})", noise.what, noise.sound)
        };
        let shown = one.is_none() || listeners.iter().any(|l| l.heard);
        if shown {
            label(
                &mut commands,
                noise.at,
                at + Vec2::new(0.0, 14.0),
                what,
                Color::srgb(1.0, 0.75, 0.3),
                13.0,
            );
        }
        for l in listeners {
            let at = square_to_world(h, l.at.x, l.at.y);
            let colour = if l.heard {
                Color::srgb(0.55, 0.85, 1.0)
            } else {
                Color::srgb(0.75, 0.75, 0.75)
            };
            label(
                &mut commands,
                l.at,
                at - Vec2::new(0.0, 18.0),
                l.to_string(),
                colour,
                13.0,
            );
        }
    }
    world.flush();
}
