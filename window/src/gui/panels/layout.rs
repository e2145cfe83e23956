//! The map first: how the side panels share the window with the map. Docked, a panel takes its
//! width from the map; the panels dock only while the map keeps [`MAP_SHARE`] of the window,
//! one first — the log for the Judge, who reads it as the delve goes; the left panel (the
//! creature and its actions) for a solo player — then the other. A panel that does
//! not fit is a strip at the window's edge ([`STRIP_WIDTH`]) whose button opens it over the map,
//! where it hides some of the map while it is open and none of it once closed.

use bevy_egui::egui;

/// The share of the window the map keeps with the panels docked beside it.
pub const MAP_SHARE: f32 = 0.6;

/// A collapsed panel's strip, in points.
pub const STRIP_WIDTH: f32 = 26.0;

/// The narrowest a docked side panel is, in points.
pub const NARROWEST: f32 = 200.0;

/// How a side panel is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dock {
    /// Not shown: closed from the top bar.
    Closed,
    /// Beside the map, at most this wide.
    Docked { at_most: f32 },
    /// A strip at the window's edge; the panel opens over the map.
    Strip,
}

impl Dock {
    /// The width it takes from the map, at the panel's own width `width`.
    pub fn takes(self, width: f32) -> f32 {
        match self {
            Dock::Closed => 0.0,
            Dock::Docked { at_most } => width.min(at_most),
            Dock::Strip => STRIP_WIDTH,
        }
    }
}

/// Which side panel docks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    Log,
    Left,
}

/// How the left panel and the log are shown, each at its width (`None`: closed from the top
/// bar), in a window `window` points large whose bars at the top and bottom leave `free` (its
/// width and height) to the map and the side panels.
pub fn side_docks(
    window: (f32, f32),
    free: (f32, f32),
    left: Option<f32>,
    log: Option<f32>,
    first: First,
) -> (Dock, Dock) {
    let (ww, wh) = window;
    let (fw, fh) = free;
    // The map's width that keeps its share of the window at the free height.
    let map_width = MAP_SHARE * ww * wh / fh.max(1.0);
    let room = (fw - map_width).max(0.0);
    let (one, other) = match first {
        First::Log => (log, left),
        First::Left => (left, log),
    };
    // The first docks at its width, or narrower down to the narrowest, with room for the
    // other's strip beside it; the other docks whole in what is left, or is a strip.
    let other_strip = other.map_or(0.0, |_| STRIP_WIDTH);
    let one_dock = match one {
        None => Dock::Closed,
        Some(w) => {
            let at_most = room - other_strip;
            if at_most >= NARROWEST.min(w) {
                Dock::Docked { at_most }
            } else {
                Dock::Strip
            }
        }
    };
    let one_takes = one.map_or(0.0, |w| one_dock.takes(w));
    let other_dock = match other {
        Some(w) if w <= room - one_takes => Dock::Docked {
            at_most: room - one_takes,
        },
        Some(_) => Dock::Strip,
        None => Dock::Closed,
    };
    match first {
        First::Log => (other_dock, one_dock),
        First::Left => (one_dock, other_dock),
    }
}

/// A collapsed side panel: a strip at the window's edge (`left` or right) whose button opens
/// the panel over the map and closes it again. Whether it is open after this frame.
pub(super) fn strip(
    root: &mut egui::Ui,
    id: &'static str,
    left: bool,
    open: bool,
    what: &str,
) -> bool {
    let panel = if left {
        egui::Panel::left(id)
    } else {
        egui::Panel::right(id)
    };
    let mut open = open;
    panel
        .resizable(false)
        .exact_size(STRIP_WIDTH)
        .show(root, |ui| {
            // Pointing away from the edge opens; back towards it closes.
            let arrow = if open == left { "«" } else { "»" };
            let said = if open {
                format!("close {what}")
            } else {
                format!(
                    "open {what} over the map (the window is too small to dock it beside the map)"
                )
            };
            if ui
                .add(egui::Button::new(egui::RichText::new(arrow).strong()).selected(open))
                .on_hover_text(said)
                .clicked()
            {
                open = !open;
            }
        });
    open
}

/// A side panel open over the map (`map`, the space the docked panels leave) along its left or
/// right edge, `width` wide and the map's height.
pub(super) fn over_the_map(
    ctx: &egui::Context,
    id: &str,
    map: egui::Rect,
    left: bool,
    width: f32,
    body: impl FnOnce(&mut egui::Ui),
) {
    let width = width.min(map.width() * 0.9);
    let at = if left {
        map.left_top()
    } else {
        egui::pos2(map.right() - width, map.top())
    };
    egui::Area::new(egui::Id::new(id))
        .order(egui::Order::Middle)
        .fixed_pos(at)
        .show(ctx, |ui| {
            egui::Frame::side_top_panel(ui.style()).show(ui, |ui| {
                ui.set_width(width - 16.0);
                ui.set_height(map.height() - 12.0);
                super::wrap_to_the_panel(ui);
                body(ui);
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map's share of the window with the panels as laid out.
    fn share(
        window: (f32, f32),
        free: (f32, f32),
        left: Option<f32>,
        log: Option<f32>,
        first: First,
    ) -> f32 {
        let (l, r) = side_docks(window, free, left, log, first);
        let taken = l.takes(left.unwrap_or(0.0)) + r.takes(log.unwrap_or(0.0));
        (free.0 - taken) * free.1 / (window.0 * window.1)
    }

    /// At 1280×800 with the keys' help at the bottom the log docks and the left panel is a
    /// strip; the map keeps 60% of the window.
    #[test]
    fn at_1280_by_800_the_log_docks_and_the_left_panel_is_a_strip() {
        let (window, free) = ((1280.0, 800.0), (1280.0, 700.0));
        let (l, r) = side_docks(window, free, Some(310.0), Some(350.0), First::Log);
        assert_eq!(l, Dock::Strip);
        assert!(matches!(r, Dock::Docked { .. }), "{r:?}");
        assert_eq!(r.takes(350.0), 350.0);
        assert!(share(window, free, Some(310.0), Some(350.0), First::Log) >= MAP_SHARE);
    }

    /// In solo play the left panel (the creature and its actions) docks first, the log is a
    /// strip.
    #[test]
    fn in_solo_play_the_creature_docks_first() {
        let (window, free) = ((1280.0, 800.0), (1280.0, 700.0));
        let (l, r) = side_docks(window, free, Some(310.0), Some(350.0), First::Left);
        assert!(matches!(l, Dock::Docked { .. }), "{l:?}");
        assert_eq!(r, Dock::Strip);
        assert_eq!(l.takes(310.0), 310.0);
    }

    /// At 1920×1080 both dock.
    #[test]
    fn at_1920_by_1080_both_dock() {
        let (window, free) = ((1920.0, 1080.0), (1920.0, 1000.0));
        let (l, r) = side_docks(window, free, Some(310.0), Some(350.0), First::Log);
        assert!(matches!(l, Dock::Docked { .. }) && matches!(r, Dock::Docked { .. }));
        assert!(share(window, free, Some(310.0), Some(350.0), First::Log) >= MAP_SHARE);
    }

    /// A log dragged wide is held to what leaves the map its share; on a small window both are
    /// strips; closed panels take nothing.
    #[test]
    fn the_map_keeps_its_share_whatever_the_widths() {
        for window in [
            (800.0, 600.0),
            (1024.0, 768.0),
            (1280.0, 800.0),
            (2560.0, 1440.0),
        ] {
            for free_h in [window.1 - 30.0, window.1 - 250.0] {
                let free = (window.0, free_h);
                for (left, log) in [
                    (Some(310.0), Some(350.0)),
                    (Some(600.0), Some(900.0)),
                    (None, Some(900.0)),
                    (Some(900.0), None),
                    (None, None),
                ] {
                    for first in [First::Log, First::Left] {
                        let s = share(window, free, left, log, first);
                        // Strips are all a window too small for the share keeps beside the map.
                        let floor = (free.0 - 2.0 * STRIP_WIDTH) * free.1 / (window.0 * window.1);
                        assert!(
                            s >= MAP_SHARE.min(floor) - 1e-4,
                            "{window:?} {free:?} {left:?} {log:?} {first:?}: {s}"
                        );
                    }
                }
            }
        }
        // At 800×600 the log docks narrower than it was left.
        let (l, r) = side_docks(
            (800.0, 600.0),
            (800.0, 560.0),
            Some(310.0),
            Some(350.0),
            First::Log,
        );
        assert_eq!(l, Dock::Strip);
        assert!(
            r.takes(350.0) < 350.0 && r.takes(350.0) >= NARROWEST,
            "{r:?}"
        );
        let (l, r) = side_docks(
            (640.0, 480.0),
            (640.0, 400.0),
            Some(310.0),
            Some(350.0),
            First::Log,
        );
        assert_eq!((l, r), (Dock::Strip, Dock::Strip));
        let (l, r) = side_docks((1280.0, 800.0), (1280.0, 700.0), None, None, First::Log);
        assert_eq!((l, r), (Dock::Closed, Dock::Closed));
    }
}
