//! "Who heard that?" on the map: after a round with noises, each noise's square says what it
//! was, and each creature within its earshot says whether it heard it — automatically, or with
//! its Listening throw and target, or that it missed (`delve::query::who_heard`). In the Judge's
//! view every listener is labelled; in one creature's view only that creature, with a mark where
//! it heard each noise from. The party's view shows none (the players learn what they heard from
//! the log).

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::squares::square_to_world;
use super::state::RedrawSet;
use super::state::Selected;
use super::state::ShownLevel;
use super::state::ViewMode;
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

/// One line of a who-heard label: the square it tells of, its words and colour.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    at: GridPos,
    text: String,
    colour: Color,
}

/// Squares this near (in squares, either way) put their lines in one label: the lines of a
/// party standing together, and of the noise among them, are stacked, not drawn over each other.
const NEAR: i32 = 2;

/// The lines gathered into labels: each line goes with every line within [`NEAR`] squares of
/// one of its label's (in the order given).
fn gather(lines: Vec<Line>) -> Vec<Vec<Line>> {
    let mut groups: Vec<Vec<Line>> = Vec::new();
    for line in lines {
        let near = |g: &Vec<Line>| {
            g.iter()
                .any(|l| (l.at.x - line.at.x).abs() <= NEAR && (l.at.y - line.at.y).abs() <= NEAR)
        };
        let mut joined: Vec<Line> = Vec::new();
        let mut rest = Vec::new();
        for g in groups {
            if near(&g) {
                joined.extend(g);
            } else {
                rest.push(g);
            }
        }
        joined.push(line);
        rest.push(joined);
        groups = rest;
    }
    groups
}

/// A label of lines, hung below the lowest of their squares, centred on them.
fn label(commands: &mut Commands, h: u32, lines: &[Line]) {
    let Some(lowest) = lines.iter().map(|l| l.at).max_by_key(|p| (p.y, -p.x)) else {
        return;
    };
    let x = lines.iter().map(|l| l.at.x as f32).sum::<f32>() / lines.len() as f32;
    let at = square_to_world(h, 0, lowest.y);
    let t = super::art::TILE_PX as f32;
    let text = |l: &Line, last: bool| {
        let end = if last { "" } else { "\n" };
        (
            TextSpan::new(format!("{}{end}", l.text)),
            TextFont::from_font_size(13.0),
            TextColor(l.colour),
        )
    };
    let label = commands
        .spawn((
            HeardLabel,
            super::labels::screen_text(),
            super::labels::SquareLabel(lowest),
            Text2d::default(),
            bevy::sprite::Anchor::TOP_CENTER,
            Text2dShadow {
                offset: Vec2::new(1.0, -1.0),
                color: Color::BLACK,
            },
            Transform::from_xyz(x * t, at.y - 18.0, 13.0),
        ))
        .id();
    for (i, l) in lines.iter().enumerate() {
        commands.spawn((ChildOf(label), text(l, i + 1 == lines.len())));
    }
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
    let mut lines = Vec::new();
    for noise in &heard {
        let listeners: Vec<_> = noise
            .listeners
            .iter()
            .filter(|l| one.as_ref().is_none_or(|n| *n == l.who))
            .collect();
        if listeners.is_empty() {
            continue;
        }
        let what = if one.is_some() {
            format!("heard from here? {} ({})", noise.what, noise.sound)
        } else {
            format!("noise: {} ({})", noise.what, noise.sound)
        };
        if one.is_none() || listeners.iter().any(|l| l.heard) {
            lines.push(Line {
                at: noise.at,
                text: what,
                colour: Color::srgb(1.0, 0.75, 0.3),
            });
        }
        for l in listeners {
            lines.push(Line {
                at: l.at,
                text: l.to_string(),
                colour: if l.heard {
                    Color::srgb(0.55, 0.85, 1.0)
                } else {
                    Color::srgb(0.75, 0.75, 0.75)
                },
            });
        }
    }
    let mut commands = world.commands();
    for group in gather(lines) {
        label(&mut commands, h, &group);
    }
    world.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(x: i32, y: i32) -> Line {
        Line {
            at: GridPos::new(x, y),
            text: format!("{x},{y}"),
            colour: Color::WHITE,
        }
    }

    /// Lines within two squares of each other share a label, however they chain; lines farther
    /// apart have their own; the order given is kept within a label.
    #[test]
    fn lines_near_each_other_are_gathered_into_one_label() {
        let groups = gather(vec![line(0, 0), line(10, 10), line(4, 0), line(2, 1)]);
        let texts: Vec<Vec<&str>> = groups
            .iter()
            .map(|g| g.iter().map(|l| l.text.as_str()).collect())
            .collect();
        assert_eq!(texts, vec![vec!["10,10"], vec!["0,0", "4,0", "2,1"]]);
    }
}
