//! The map's overlays, each with a key to show or hide it, and the colours they are drawn in
//! (the legend, `gui::legend`, says what they mean; F6 hides it).
//!
//! - **Noise** (F3, the Judge's view): where a noise was heard with no throw (orange) and where
//!   only with a Listening throw (blue), fading over a few seconds (`gui::noise`).
//! - **Who heard** (F4): who heard each noise, and how (`gui::heard`), fading after eight
//!   seconds; F4 shows them again.
//! - **The party's knowledge** (F5): the squares the party has seen, those its mapper has drawn
//!   (Dungeon Delves › Marching and Mapping), and — for the Judge only — those drawn wrong, the
//!   error not yet noticed.
//! - **Light** (F7): each square bright, dim or in magical darkness, tinted (the map's shading
//!   says it too, more softly).
//! - **Marks on tokens**: a creature's gravest state (`gui::tokens::StateMark`).

use delve_rules::rules::light::LightMap;
use delve_rules::rules::vision::FactionMemory;

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::controls::DelveAction;
use super::squares::square_to_world;
use super::state::{PLAYERS_LAYER, RedrawSet, Tell};
use delve_ground::grid::DungeonGrid;
use delve_rules::rules::vision::PartyMaps;

/// Which overlays are shown.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    pub noise: bool,
    pub hearing: bool,
    pub party_map: bool,
    pub light: bool,
    pub legend: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            noise: true,
            hearing: true,
            party_map: false,
            light: false,
            legend: true,
        }
    }
}

/// The noise overlay's colours (`gui::noise` paints with them).
pub const HEARD_AUTOMATICALLY: [u8; 3] = [255, 140, 26];
pub const HEARD_WITH_A_THROW: [u8; 3] = [77, 153, 255];

/// The who-heard labels' colours (`gui::heard` writes in them).
pub const THE_NOISE: [u8; 3] = [255, 191, 77];
pub const HEARD_IT: [u8; 3] = [140, 217, 255];
pub const MISSED_IT: [u8; 3] = [191, 191, 191];

/// The party's knowledge: the squares seen, drawn on its map, and drawn wrong.
pub const SEEN: [u8; 3] = [120, 170, 255];
pub const MAPPED: [u8; 3] = [240, 215, 140];
pub const MAPPED_WRONG: [u8; 3] = [255, 60, 60];

/// Their opacity.
const SEEN_ALPHA: f32 = 0.16;
const MAPPED_ALPHA: f32 = 0.22;
const WRONG_ALPHA: f32 = 0.5;

/// Light: bright, dim, magical darkness, and their opacity.
pub const BRIGHT: [u8; 3] = [255, 235, 110];
pub const DIM: [u8; 3] = [200, 120, 40];
pub const MAGICAL_DARKNESS: [u8; 3] = [150, 60, 220];
const LIGHT_ALPHA: f32 = 0.3;

/// The who-heard labels are there but have faded (`gui::heard` says so): F4 shows them again
/// rather than hiding them.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HearingFaded(pub bool);

/// Show the faded who-heard labels again (F4).
#[derive(Message, Clone, Copy, Debug)]
pub struct ShowHeardAgain;

/// A square of the party's knowledge drawn over the map.
#[derive(Component, Clone, Copy, Debug)]
pub struct PartyMapMark;

/// A square of the light overlay.
#[derive(Component, Clone, Copy, Debug)]
pub struct LightMark;

pub struct OverlaysPlugin;

impl Plugin for OverlaysPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Overlays>()
            .init_resource::<HearingFaded>()
            .add_message::<ShowHeardAgain>()
            .add_systems(
                Update,
                (toggle_overlays, draw_the_party_map, draw_the_light)
                    .chain()
                    .after(RedrawSet),
            );
    }
}

/// F3, F4, F5, F6, F7: the noise, who heard, the party's knowledge, the legend, the light.
fn toggle_overlays(
    actions: Query<&ActionState<DelveAction>>,
    mut overlays: ResMut<Overlays>,
    faded: Res<HearingFaded>,
    mut again: MessageWriter<ShowHeardAgain>,
    mut tell: MessageWriter<Tell>,
) {
    let pressed = |a: DelveAction| actions.iter().any(|s| s.just_pressed(&a));
    let mut o = *overlays;
    let onoff = |on: bool| if on { "shown" } else { "hidden" };
    if pressed(DelveAction::ToggleNoise) {
        o.noise = !o.noise;
        tell.write(Tell(format!("the noise overlay {}", onoff(o.noise))));
    }
    if pressed(DelveAction::ToggleHearing) {
        // Faded, they are shown again; else hidden or shown.
        if o.hearing && faded.0 {
            again.write(ShowHeardAgain);
            tell.write(Tell("who heard what, again".to_owned()));
        } else {
            o.hearing = !o.hearing;
            tell.write(Tell(format!("who heard what {}", onoff(o.hearing))));
        }
    }
    if pressed(DelveAction::TogglePartyMap) {
        o.party_map = !o.party_map;
        tell.write(Tell(format!(
            "the party's knowledge {}",
            onoff(o.party_map)
        )));
    }
    if pressed(DelveAction::ToggleLight) {
        o.light = !o.light;
        tell.write(Tell(format!("the light overlay {}", onoff(o.light))));
    }
    if pressed(DelveAction::ToggleLegend) {
        o.legend = !o.legend;
        tell.write(Tell(format!("the legend {}", onoff(o.legend))));
    }
    if *overlays != o {
        *overlays = o;
    }
}

/// The first party's knowledge over the map while F5 shows it: the squares it has seen (the
/// party's faction's memory), those on its map, and in the Judge's view those drawn wrong;
/// and its map over the
/// players' window's as the party's own (its errors unmarked) while the Judge shows it there
/// (`players::PlayersShow`).
fn draw_the_party_map(
    mut commands: Commands,
    overlays: Res<Overlays>,
    maps: Res<PartyMaps>,
    memory: Res<FactionMemory>,
    (grid, view): (Res<DungeonGrid>, Option<Res<super::state::ViewMode>>),
    players: Option<Res<super::players::PlayersShow>>,
    drawn: Query<Entity, With<PartyMapMark>>,
) {
    let for_players = players.as_deref().is_some_and(|p| p.party_map);
    let judges = view.as_deref().is_none_or(|v| v.judges());
    let changed = overlays.is_changed()
        || maps.is_changed()
        || view.as_ref().is_some_and(|v| v.is_changed())
        || (overlays.party_map && memory.is_changed())
        || grid.is_changed()
        || players.as_ref().is_some_and(|p| p.is_changed());
    if !changed {
        return;
    }
    for e in &drawn {
        commands.entity(e).despawn();
    }
    let Some(map) = maps.0.first() else {
        return;
    };
    let square =
        |i: usize, color: [u8; 3], alpha: f32| (PartyMapMark, tint(&grid, i, color, alpha, 6.0));
    let mapped = map
        .mapped
        .iter()
        .enumerate()
        .filter(|(_, m)| **m)
        .map(|(i, _)| i);
    for i in mapped {
        if overlays.party_map {
            commands.spawn(square(i, MAPPED, MAPPED_ALPHA));
        }
        if for_players {
            commands.spawn((
                square(i, MAPPED, MAPPED_ALPHA),
                bevy::camera::visibility::RenderLayers::layer(PLAYERS_LAYER),
            ));
        }
    }
    if overlays.party_map {
        // Its errors are the Judge's to know.
        for &i in map.errors.iter().filter(|_| judges) {
            commands.spawn(square(i, MAPPED_WRONG, WRONG_ALPHA));
        }
        // Seen by the party (faction 0), not on its map.
        let seen = memory.seen.first().map_or(&[][..], Vec::as_slice);
        for (i, _) in seen.iter().enumerate().filter(|(_, s)| **s) {
            if !map.mapped.get(i).copied().unwrap_or(false) {
                commands.spawn(square(i, SEEN, SEEN_ALPHA));
            }
        }
    }
}

/// Each square's light over the Judge's map while F7 shows it: bright, dim, magical darkness.
fn draw_the_light(
    mut commands: Commands,
    overlays: Res<Overlays>,
    light: Res<LightMap>,
    grid: Res<DungeonGrid>,
    drawn: Query<Entity, With<LightMark>>,
) {
    use delve_rules::rules::light::LightLevel as L;
    let changed = overlays.is_changed() || light.is_changed() || grid.is_changed();
    if !changed {
        return;
    }
    for e in &drawn {
        commands.entity(e).despawn();
    }
    if !overlays.light {
        return;
    }
    for i in 0..(grid.width() * grid.height()) as usize {
        let color = match light.level_at(i) {
            L::Bright => BRIGHT,
            L::Dim => DIM,
            L::MagicalDarkness => MAGICAL_DARKNESS,
            L::Dark => continue,
        };
        commands.spawn((LightMark, tint(&grid, i, color, LIGHT_ALPHA, 6.5)));
    }
}

/// A square (by its index) tinted in a colour, over the tiles at height `z`.
fn tint(grid: &DungeonGrid, i: usize, color: [u8; 3], alpha: f32, z: f32) -> impl Bundle {
    let p = grid.pos_of(i);
    let at = square_to_world(grid.height(), p.x, p.y);
    (
        Sprite {
            color: Color::srgb_u8(color[0], color[1], color[2]).with_alpha(alpha),
            custom_size: Some(Vec2::splat(super::art::TILE_PX as f32)),
            ..default()
        },
        Transform::from_xyz(at.x, at.y, z),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// F3, F5, F7 and F6 show and hide their overlays; F4 hides who heard what, and with the
    /// labels faded shows them again instead; F5 draws the party's knowledge over the map and
    /// F7 the light.
    #[test]
    fn the_overlay_keys_show_and_hide_them() {
        use super::super::input::tests::{app, press};
        let mut app = app();
        app.add_plugins(OverlaysPlugin);
        app.add_systems(
            Update,
            (super::super::heard::show_again, super::super::heard::fade).chain(),
        );
        app.update();
        let overlays = |app: &App| *app.world().resource::<Overlays>();
        assert_eq!(overlays(&app), Overlays::default());
        press(&mut app, KeyCode::F3);
        assert!(!overlays(&app).noise);
        press(&mut app, KeyCode::F6);
        assert!(!overlays(&app).legend);
        let count = |app: &mut App, f: fn(&mut World) -> usize| f(app.world_mut());
        press(&mut app, KeyCode::F5);
        assert!(overlays(&app).party_map);
        let mapped = count(&mut app, |w| {
            w.query_filtered::<(), With<PartyMapMark>>().iter(w).count()
        });
        assert!(mapped > 0, "the party has seen its first room");
        press(&mut app, KeyCode::F7);
        assert!(overlays(&app).light);
        let lit = count(&mut app, |w| {
            w.query_filtered::<(), With<LightMark>>().iter(w).count()
        });
        assert!(lit > 0, "Brannoc's torch lights the room");
        press(&mut app, KeyCode::F7);
        let lit = count(&mut app, |w| {
            w.query_filtered::<(), With<LightMark>>().iter(w).count()
        });
        assert_eq!(lit, 0);
        // A faded label: F4 shows it again, and who heard what stays shown.
        let label = app
            .world_mut()
            .spawn(super::super::heard::HeardLabel::faded_for_tests())
            .id();
        app.update();
        assert!(app.world().resource::<HearingFaded>().0);
        press(&mut app, KeyCode::F4);
        assert!(overlays(&app).hearing);
        let shown = app
            .world()
            .get::<super::super::heard::HeardLabel>(label)
            .unwrap()
            .showing();
        assert!(shown, "shown again");
        press(&mut app, KeyCode::F4);
        assert!(!overlays(&app).hearing, "shown, F4 hides them");
    }
}
