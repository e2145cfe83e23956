//! The legend of the map's overlays: what is on the map now and what its colours and marks
//! mean (`gui::overlays`, `gui::noise`, `gui::heard`, `gui::tokens::StateMark`), in the corner of
//! the map's space where it hides least of the level, never over the minimap (F6 hides it).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::overlays::{
    BRIGHT, DIM, HEARD_AUTOMATICALLY, HEARD_IT, HEARD_WITH_A_THROW, MAGICAL_DARKNESS, MAPPED,
    MAPPED_WRONG, MISSED_IT, Overlays, SEEN, THE_NOISE,
};
use super::state::ViewMode;
use delve_ground::grid::DungeonGrid;

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
    // The marks with an overlay, or when one graver than the dark is on the map: the dark
    // alone (monsters waiting unlit, on almost every level) does not call up the legend.
    let grave = marks
        .iter()
        .any(|m| *m != super::tokens::StateMark::InTheDark);
    if !marks.is_empty() && (grave || !out.is_empty()) {
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

pub struct LegendPlugin;

impl Plugin for LegendPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            EguiPrimaryContextPass,
            legend
                .after(super::panels::PanelsPass)
                .run_if(resource_exists::<super::state::ShownLevel>),
        );
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
    /// Judge; the marks on tokens with an overlay, or when one graver than the dark is shown.
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
        // The dark alone calls up no legend; a graver mark does.
        assert!(
            legend_sections(false, false, false, false, true, &[StateMark::InTheDark]).is_empty()
        );
        let down = legend_sections(
            false,
            false,
            false,
            false,
            true,
            &[StateMark::Down, StateMark::InTheDark],
        );
        assert_eq!(down.len(), 1);
        assert_eq!(down[0].1.len(), 2);
        let players = legend_sections(false, false, true, false, false, &[]);
        assert_eq!(players[0].1.len(), 2, "no errors but to the Judge");
    }
}
