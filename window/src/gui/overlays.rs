//! The map's overlays, each with a key to show or hide it, and their legend: what is on the map
//! now and what its colours and marks mean, in the map's corner (F6 hides it).
//!
//! - **Noise** (F3, the Judge's view): where a noise was heard with no throw (orange) and where
//!   only with a Listening throw (blue), fading over a few seconds (`gui::noise`).
//! - **Who heard** (F4): who heard each noise, and how (`gui::heard`), fading after
//!   [`super::heard::SHOWN_SECONDS`]; F4 shows them again.
//! - **The party's knowledge** (F5): the squares the party has seen, those its mapper has drawn
//!   (Dungeon Delves › Marching and Mapping), and — for the Judge only — those drawn wrong, the
//!   error not yet noticed.
//! - **Light** (F7): each square bright, dim or in magical darkness, tinted (the map's shading
//!   says it too, more softly).
//! - **Marks on tokens**: a creature's gravest state (`gui::tokens::StateMark`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::ActionState;

use super::controls::DelveAction;
use super::squares::square_to_world;
use super::state::{PLAYERS_LAYER, RedrawSet, Tell, ViewMode};
use delve::grid::DungeonGrid;
use delve::rules::vision::PartyMaps;

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

/// What the legend explains: an overlay's entries, each a colour (or a glyph in a colour) and
/// what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub glyph: Option<&'static str>,
    pub color: [u8; 3],
    pub words: &'static str,
}

const fn swatch(color: [u8; 3], words: &'static str) -> LegendEntry {
    LegendEntry {
        glyph: None,
        color,
        words,
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

/// What the legend shows now: a title (with its key) and its entries, for each overlay on the
/// map.
pub fn legend_sections(
    noise_shown: bool,
    hearing_shown: bool,
    party_map_shown: bool,
    light_shown: bool,
    judges: bool,
    marks: &[super::tokens::StateMark],
) -> Vec<(String, Vec<LegendEntry>)> {
    let mut out = Vec::new();
    if noise_shown {
        out.push((
            "Noise (F3)".to_owned(),
            vec![
                swatch(HEARD_AUTOMATICALLY, "heard with no throw"),
                swatch(HEARD_WITH_A_THROW, "heard only with a Listening throw"),
            ],
        ));
    }
    if hearing_shown {
        out.push((
            "Who heard (F4)".to_owned(),
            vec![
                swatch(THE_NOISE, "the noise, and how loud"),
                swatch(HEARD_IT, "heard it (d20 throw vs target)"),
                swatch(MISSED_IT, "did not hear it"),
            ],
        ));
    }
    if party_map_shown {
        let mut entries = vec![
            swatch(SEEN, "seen by the party, not on its map"),
            swatch(MAPPED, "drawn on the party's map"),
        ];
        if judges {
            entries.push(swatch(
                MAPPED_WRONG,
                "drawn wrong, not yet noticed (the Judge's eyes only)",
            ));
        }
        out.push(("The party's knowledge (F5)".to_owned(), entries));
    }
    if light_shown {
        out.push((
            "Light (F7)".to_owned(),
            vec![
                swatch(BRIGHT, "bright light"),
                swatch(DIM, "dim light"),
                swatch(MAGICAL_DARKNESS, "magical darkness"),
                swatch([40, 40, 40], "untinted: dark"),
            ],
        ));
    }
    if !marks.is_empty() {
        out.push((
            "Marks on tokens".to_owned(),
            marks
                .iter()
                .map(|m| LegendEntry {
                    glyph: Some(m.glyph()),
                    color: m.color(),
                    words: m.words(),
                })
                .collect(),
        ));
    }
    out
}

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
            .add_systems(
                Update,
                (toggle_overlays, draw_the_party_map, draw_the_light)
                    .chain()
                    .after(RedrawSet),
            )
            .add_systems(
                EguiPrimaryContextPass,
                legend
                    .after(super::panels::PanelsPass)
                    .run_if(resource_exists::<super::state::ShownLevel>),
            );
    }
}

/// F3, F4, F5, F6, F7: the noise, who heard, the party's knowledge, the legend, the light.
fn toggle_overlays(
    actions: Query<&ActionState<DelveAction>>,
    mut overlays: ResMut<Overlays>,
    mut heard: Query<&mut super::heard::HeardLabel>,
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
        let faded = !heard.is_empty() && heard.iter().all(|h| !h.showing());
        if o.hearing && faded {
            for mut h in &mut heard {
                h.age = 0.0;
            }
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

/// The first party's knowledge over the Judge's map while F5 shows it: the squares it has seen
/// (the party's faction's memory), those on its map, those drawn wrong; and its map over the
/// players' window's as the party's own (its errors unmarked) while the Judge shows it there
/// (`players::PlayersShow`).
fn draw_the_party_map(
    mut commands: Commands,
    overlays: Res<Overlays>,
    maps: Res<PartyMaps>,
    memory: Res<delve::rules::vision::FactionMemory>,
    grid: Res<DungeonGrid>,
    players: Option<Res<super::players::PlayersShow>>,
    drawn: Query<Entity, With<PartyMapMark>>,
) {
    let for_players = players.as_deref().is_some_and(|p| p.party_map);
    let changed = overlays.is_changed()
        || maps.is_changed()
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
    let t = super::art::TILE_PX as f32;
    let h = grid.height();
    let square = |i: usize, color: [u8; 3], alpha: f32| {
        let p = grid.pos_of(i);
        let at = square_to_world(h, p.x, p.y);
        (
            PartyMapMark,
            Sprite {
                color: Color::srgb_u8(color[0], color[1], color[2]).with_alpha(alpha),
                custom_size: Some(Vec2::splat(t)),
                ..default()
            },
            Transform::from_xyz(at.x, at.y, 6.0),
        )
    };
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
        for &i in &map.errors {
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
    light: Res<delve::rules::light::LightMap>,
    grid: Res<DungeonGrid>,
    drawn: Query<Entity, With<LightMark>>,
) {
    use delve::rules::light::LightLevel as L;
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
    let t = super::art::TILE_PX as f32;
    let h = grid.height();
    for i in 0..(grid.width() * grid.height()) as usize {
        let color = match light.level_at(i) {
            L::Bright => BRIGHT,
            L::Dim => DIM,
            L::MagicalDarkness => MAGICAL_DARKNESS,
            L::Dark => continue,
        };
        let p = grid.pos_of(i);
        let at = square_to_world(h, p.x, p.y);
        commands.spawn((
            LightMark,
            Sprite {
                color: Color::srgb_u8(color[0], color[1], color[2]).with_alpha(LIGHT_ALPHA),
                custom_size: Some(Vec2::splat(t)),
                ..default()
            },
            Transform::from_xyz(at.x, at.y, 6.5),
        ));
    }
}

/// The legend in the corner of the map's space where it hides least of the level (never over
/// the minimap): what each overlay on the map now means.
#[allow(clippy::too_many_arguments)]
fn legend(
    mut contexts: EguiContexts,
    overlays: Res<Overlays>,
    view: Option<Res<ViewMode>>,
    area: Res<super::state::MapArea>,
    minimap: Option<Res<super::state::Minimap>>,
    noise: Query<(), With<super::noise::NoiseMark>>,
    heard: Query<(&super::heard::HeardLabel, &Visibility)>,
    marks: Query<(&Text2d, &InheritedVisibility), With<super::tokens::TokenMark>>,
    (camera, grid, mut size): (
        Query<super::labels::CameraView, With<super::state::MapCamera>>,
        Res<DungeonGrid>,
        Local<egui::Vec2>,
    ),
) -> Result {
    if !overlays.legend {
        return Ok(());
    }
    let Some(area) = area.0 else {
        return Ok(());
    };
    let judges = view.as_deref().is_none_or(|v| v.judges());
    let mut present: Vec<super::tokens::StateMark> = super::tokens::StateMark::ALL
        .iter()
        .copied()
        .filter(|m| marks.iter().any(|(t, v)| v.get() && t.0 == m.glyph()))
        .collect();
    present.dedup();
    let sections = legend_sections(
        overlays.noise && !noise.is_empty(),
        overlays.hearing
            && heard
                .iter()
                .any(|(h, v)| h.showing() && *v != Visibility::Hidden),
        overlays.party_map,
        overlays.light,
        judges,
        &present,
    );
    if sections.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let to_egui = |r: Rect| {
        egui::Rect::from_min_max(
            egui::pos2(r.min.x / zoom, r.min.y / zoom),
            egui::pos2(r.max.x / zoom, r.max.y / zoom),
        )
    };
    let map = to_egui(area);
    // In the corner where it hides least of the level, away from the minimap (its size is the
    // last frame's).
    let level = camera.single().ok().and_then(|(tf, proj)| match proj {
        Projection::Orthographic(o) => Some(to_egui(super::minimap::level_on_screen(
            area,
            super::minimap::level_extent(&grid),
            tf.translation.truncate(),
            o.scale,
        ))),
        _ => None,
    });
    let minimap = minimap.and_then(|m| m.rect).map(to_egui);
    let inner = map.shrink(8.0);
    let corners = [
        (egui::Align2::LEFT_TOP, inner.left_top()),
        (egui::Align2::LEFT_BOTTOM, inner.left_bottom()),
        (egui::Align2::RIGHT_TOP, inner.right_top()),
        (egui::Align2::RIGHT_BOTTOM, inner.right_bottom()),
    ];
    let hides = |r: egui::Rect, of: Option<egui::Rect>| {
        of.map_or(0.0, |o| {
            let i = r.intersect(o);
            if i.is_positive() { i.area() } else { 0.0 }
        })
    };
    let (pivot, at) = corners
        .iter()
        .copied()
        .map(|(pivot, at)| {
            let r = pivot.anchor_size(at, *size);
            // The minimap is never covered; then the least of the level.
            (hides(r, minimap) * 1e6 + hides(r, level), pivot, at)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or((egui::Align2::LEFT_TOP, inner.left_top()), |(_, p, a)| {
            (p, a)
        });
    let shown = egui::Area::new(egui::Id::new("legend"))
        .order(egui::Order::Middle)
        .pivot(pivot)
        .fixed_pos(at)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .fill(egui::Color32::from_black_alpha(200))
                .show(ui, |ui| {
                    ui.set_max_width(300.0);
                    for (title, entries) in &sections {
                        ui.strong(title);
                        for e in entries {
                            let [r, g, b] = e.color;
                            let c = egui::Color32::from_rgb(r, g, b);
                            ui.horizontal(|ui| {
                                match e.glyph {
                                    Some(glyph) => {
                                        ui.label(egui::RichText::new(glyph).color(c).strong());
                                    }
                                    None => {
                                        let (rect, _) = ui.allocate_exact_size(
                                            egui::vec2(12.0, 12.0),
                                            egui::Sense::hover(),
                                        );
                                        ui.painter().rect_filled(rect, 2.0, c);
                                    }
                                }
                                ui.label(e.words);
                            });
                        }
                    }
                    ui.weak(
                        "F3 noise, F4 who heard, F5 the party's knowledge, F7 light, \
                         F6 this legend",
                    );
                });
        });
    *size = shown.response.rect.size();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::tokens::StateMark;

    /// The legend lists only what is on the map, and the party's map's errors only to the
    /// Judge.
    #[test]
    fn the_legend_explains_what_is_shown() {
        assert!(legend_sections(false, false, false, false, true, &[]).is_empty());
        let all = legend_sections(true, true, true, true, true, &[StateMark::Prone]);
        let titles: Vec<&str> = all.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Noise (F3)",
                "Who heard (F4)",
                "The party's knowledge (F5)",
                "Light (F7)",
                "Marks on tokens"
            ]
        );
        assert_eq!(all[0].1[1].words, "heard only with a Listening throw");
        assert_eq!(all[2].1.len(), 3);
        assert_eq!(all[4].1[0].glyph, Some("p"));
        let players = legend_sections(false, false, true, false, false, &[]);
        assert_eq!(players[0].1.len(), 2, "no errors but to the Judge");
    }
}
