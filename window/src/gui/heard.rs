//! "Who heard that?" on the map: after a round with noises, each noise's square says what it
//! was, and each creature within its earshot says whether it heard it — automatically, or with
//! its Listening throw and target, or that it missed (`delve::query::who_heard`). In the Judge's
//! view every listener is labelled; in one creature's view only that creature, with a mark where
//! it heard each noise from. The party's view shows none (the players learn what they heard from
//! the log).
//!
//! The labels fade after [`SHOWN_SECONDS`] (F4 shows them again, or hides them: `gui::overlays`,
//! whose legend says what their colours mean), and are laid out so that none covers another or
//! runs off the map's edge ([`lay_out`]).

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::squares::square_to_world;
use super::state::{RedrawSet, Selected, ShownLevel, ViewMode};
use delve_ground::grid::GridPos;
use delve_ground::time::Clock;

/// A label of who heard what: how long it has been shown, and where it hangs (in the world, its
/// top's middle) before it is moved off the others.
#[derive(Component, Clone, Copy, Debug)]
pub struct HeardLabel {
    pub age: f32,
    hangs: Vec2,
}

/// Seconds the labels are shown after a round, the last [`FADE_SECONDS`] of them fading.
pub const SHOWN_SECONDS: f32 = 8.0;
const FADE_SECONDS: f32 = 2.0;

impl HeardLabel {
    /// Is it still to be read?
    pub fn showing(&self) -> bool {
        self.age < SHOWN_SECONDS
    }

    /// A label shown long ago, faded (for the tests of the keys that show it again).
    #[cfg(test)]
    pub fn faded_for_tests() -> (Self, Text2dShadow, Children) {
        (
            Self {
                age: SHOWN_SECONDS + 1.0,
                hangs: Vec2::ZERO,
            },
            Text2dShadow::default(),
            Children::default(),
        )
    }

    /// Its opacity now.
    fn opacity(&self) -> f32 {
        ((SHOWN_SECONDS - self.age) / FADE_SECONDS).clamp(0.0, 1.0)
    }
}

/// What the labels were drawn for: the round, the view, the selection.
#[derive(Resource, Default, PartialEq)]
struct Drawn(Option<(u64, ViewMode, Option<Entity>)>);

pub struct HeardPlugin;

impl Plugin for HeardPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Drawn>()
            .add_systems(
                Update,
                (label_listeners, show_again, fade).chain().after(RedrawSet),
            )
            .add_systems(
                PostUpdate,
                lay_out.before(bevy::transform::TransformSystems::Propagate),
            );
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
    let hangs = Vec2::new(x * t, at.y - 18.0);
    let label = commands
        .spawn((
            HeardLabel { age: 0.0, hangs },
            super::labels::screen_text(),
            super::labels::SquareLabel(lowest),
            Text2d::default(),
            bevy::sprite::Anchor::TOP_CENTER,
            Text2dShadow {
                offset: Vec2::new(1.0, -1.0),
                color: Color::BLACK,
            },
            Transform::from_xyz(hangs.x, hangs.y, 13.0),
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
    let shown = world
        .get_resource::<super::overlays::Overlays>()
        .is_none_or(|o| o.hearing);
    let now = Some((round, view, selected)).filter(|_| shown);
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
    if view == ViewMode::Party || !shown {
        return;
    }
    let one = match view {
        ViewMode::Creature => selected.and_then(|e| world.get::<Name>(e).map(|n| n.to_string())),
        _ => None,
    };
    if view == ViewMode::Creature && one.is_none() {
        return;
    }
    let rgb = |[r, g, b]: [u8; 3]| Color::srgb_u8(r, g, b);
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
                colour: rgb(super::overlays::THE_NOISE),
            });
        }
        for l in listeners {
            lines.push(Line {
                at: l.at,
                text: l.to_string(),
                colour: rgb(if l.heard {
                    super::overlays::HEARD_IT
                } else {
                    super::overlays::MISSED_IT
                }),
            });
        }
    }
    let mut commands = world.commands();
    for group in gather(lines) {
        label(&mut commands, h, &group);
    }
    world.flush();
}

/// F4 with the labels faded: shown again, from the start.
pub(crate) fn show_again(
    mut again: MessageReader<super::overlays::ShowHeardAgain>,
    mut labels: Query<&mut HeardLabel>,
) {
    if again.read().count() > 0 {
        for mut l in &mut labels {
            l.age = 0.0;
        }
    }
}

/// The labels age, and fade over their last [`FADE_SECONDS`]; whether all have faded is told
/// to the overlays' keys (`gui::overlays::HearingFaded`).
pub(crate) fn fade(
    time: Res<Time<Real>>,
    mut labels: Query<(&mut HeardLabel, &mut Text2dShadow, &Children)>,
    mut spans: Query<&mut TextColor>,
    mut faded: ResMut<super::overlays::HearingFaded>,
) {
    let all_faded = !labels.is_empty() && labels.iter().all(|(l, ..)| !l.showing());
    if faded.0 != all_faded {
        faded.0 = all_faded;
    }
    for (mut label, mut shadow, children) in &mut labels {
        label.age += time.delta_secs();
        let now = label.opacity();
        if shadow.color.alpha() == now {
            continue;
        }
        shadow.color.set_alpha(now);
        for &c in children {
            if let Ok(mut color) = spans.get_mut(c) {
                color.0.set_alpha(now);
            }
        }
    }
}

/// The space kept between labels, and between a label and the map's sides, in pixels.
const MARGIN: f32 = 3.0;

/// A label's box on the screen: its top's middle and its size, in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placed {
    top_middle: Vec2,
    size: Vec2,
}

impl Placed {
    fn rect(&self) -> Rect {
        Rect::from_corners(
            self.top_middle - Vec2::new(self.size.x / 2.0, 0.0),
            self.top_middle + Vec2::new(self.size.x / 2.0, self.size.y),
        )
    }
}

/// Labels (screen pixels, y down) moved so that none covers another nor what stays where it is
/// (`fixed`: the creatures' tokens and names) — each, from the top, moved down below any it would cover —
/// and kept within `view` across.
fn place(mut labels: Vec<Placed>, view: Rect, fixed: Vec<Rect>) -> Vec<Placed> {
    let order = {
        let mut o: Vec<usize> = (0..labels.len()).collect();
        o.sort_by(|&a, &b| labels[a].top_middle.y.total_cmp(&labels[b].top_middle.y));
        o
    };
    let mut placed: Vec<Rect> = fixed;
    for i in order {
        let l = &mut labels[i];
        let half = l.size.x / 2.0 + MARGIN;
        if view.width() > 2.0 * half {
            l.top_middle.x = l.top_middle.x.clamp(view.min.x + half, view.max.x - half);
        }
        let hangs = l.top_middle.y;
        let covers = |l: &Placed| {
            placed
                .iter()
                .filter(|p| !p.intersect(l.rect()).is_empty())
                .copied()
                .collect::<Vec<Rect>>()
        };
        // Down past whatever it covers, until it covers nothing.
        loop {
            let under = covers(l);
            let Some(lowest) = under.iter().map(|p| p.max.y).reduce(f32::max) else {
                break;
            };
            l.top_middle.y = lowest + MARGIN;
        }
        // Pushed off the bottom of the map: up past whatever it covers instead, if that keeps
        // it on the map.
        if l.rect().max.y > view.max.y {
            let mut up = *l;
            up.top_middle.y = hangs;
            loop {
                let over = covers(&up);
                let Some(highest) = over.iter().map(|p| p.min.y).reduce(f32::min) else {
                    break;
                };
                up.top_middle.y = highest - up.size.y - MARGIN;
            }
            if up.rect().min.y >= view.min.y {
                *l = up;
            }
        }
        placed.push(l.rect());
    }
    labels
}

/// A creature's name on the map: where it is, how large, whether it is shown.
type ShownName = (
    &'static GlobalTransform,
    &'static bevy::text::TextLayoutInfo,
    &'static InheritedVisibility,
);

/// A creature's token: where it is, whether it is shown.
type ShownToken = (&'static GlobalTransform, &'static InheritedVisibility);

/// The Judge's map's tokens.
type JudgesTokens = (
    With<super::state::Token>,
    Without<super::state::PlayersCopy>,
    Without<HeardLabel>,
);

/// Lays the labels out on the screen at the map camera's zoom: none covers another, none runs
/// off the map's sides.
fn lay_out(
    camera: Query<super::labels::CameraView, (With<super::state::MapCamera>, Without<HeardLabel>)>,
    area: Option<Res<super::state::MapArea>>,
    mut labels: Query<(
        &HeardLabel,
        &bevy::text::TextLayoutInfo,
        &mut Transform,
        &Visibility,
    )>,
    names: Query<ShownName, (With<super::tokens::TokenLabel>, Without<HeardLabel>)>,
    tokens: Query<ShownToken, JudgesTokens>,
) {
    let Ok((cam, Projection::Orthographic(o))) = camera.single() else {
        return;
    };
    let Some(area) = area.and_then(|a| a.0) else {
        return;
    };
    let scale = o.scale.max(f32::EPSILON);
    let centre = cam.translation.truncate();
    // World to screen (y down) about the map's space's middle, and back.
    let to_screen = |w: Vec2| {
        let d = (w - centre) / scale;
        Vec2::new(area.center().x + d.x, area.center().y - d.y)
    };
    let to_world = |p: Vec2| {
        let d = p - area.center();
        centre + Vec2::new(d.x, -d.y) * scale
    };
    let laid = |l: &HeardLabel, v: &Visibility| l.showing() && *v != Visibility::Hidden;
    let shown: Vec<_> = labels
        .iter()
        .filter(|(l, _, _, v)| laid(l, v))
        .map(|(l, info, ..)| Placed {
            top_middle: to_screen(l.hangs),
            size: info.size,
        })
        .collect();
    // The creatures' tokens and names shown (centred on their place) stay where they are.
    let token = Vec2::splat(super::tokens::TOKEN_PX / scale);
    let fixed =
        names
            .iter()
            .filter(|(_, _, v)| v.get())
            .map(|(tf, info, _)| {
                Rect::from_center_size(to_screen(tf.translation().truncate()), info.size)
            })
            .chain(tokens.iter().filter(|(_, v)| v.get()).map(|(tf, _)| {
                Rect::from_center_size(to_screen(tf.translation().truncate()), token)
            }))
            .collect();
    let mut placed = place(shown, area, fixed).into_iter();
    for (_, _, mut tf, _) in labels.iter_mut().filter(|(l, _, _, v)| laid(l, v)) {
        let Some(p) = placed.next() else {
            break;
        };
        let at = to_world(p.top_middle);
        if (tf.translation.x, tf.translation.y) != (at.x, at.y) {
            tf.translation.x = at.x;
            tf.translation.y = at.y;
        }
    }
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

    /// Labels that would cover each other, or a creature's name, are moved down until none
    /// does (up, where down would take them off the map); one past the map's side is brought
    /// back within it.
    #[test]
    fn labels_are_laid_out_without_overlap_within_the_map() {
        let label = |x: f32, y: f32| Placed {
            top_middle: Vec2::new(x, y),
            size: Vec2::new(200.0, 40.0),
        };
        let view = Rect::new(0.0, 0.0, 1000.0, 800.0);
        // A creature's name under the third.
        let name = Rect::from_center_size(Vec2::new(900.0, 410.0), Vec2::new(80.0, 16.0));
        let out = place(
            vec![
                label(500.0, 100.0),
                label(550.0, 110.0),
                label(990.0, 400.0),
            ],
            view,
            vec![name],
        );
        assert!(out[0].rect().intersect(out[1].rect()).is_empty());
        assert_eq!(out[0], label(500.0, 100.0), "the upper one stays");
        assert!(out[1].top_middle.y >= 140.0);
        assert_eq!(out[2].rect().max.x, 1000.0 - MARGIN);
        assert!(out[2].rect().intersect(name).is_empty(), "{:?}", out[2]);
        // At the map's bottom, one that would be pushed off it goes up instead.
        let out = place(
            vec![label(500.0, 740.0), label(520.0, 750.0)],
            view,
            Vec::new(),
        );
        assert!(out[0].rect().intersect(out[1].rect()).is_empty());
        assert!(out.iter().all(|l| l.rect().max.y <= 800.0), "{out:?}");
    }
}
