//! The log panel: the events by kind and creature, searched, in the Judge's view, the party's,
//! or one creature's (what it knows: what happened to it, and the passing of time).

use bevy_egui::egui;

use super::{DelveView, PanelsMut, ViewMode, party_members};
use delve_ground::log::LogKind;

/// How many of the latest entries that pass the filter the log lays out.
const LOG_LINES_SHOWN: usize = 400;

/// The log: filtered by creature and kind, the secret throws shown or not, searched; a click on
/// an entry selects its creature and centres the map where it happened.
pub(super) fn log_panel(ui: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    let party_view = d.party_view() || m.state.solo;
    // In one creature's view, what that creature knows.
    let one = (d.view.as_deref() == Some(&ViewMode::Creature))
        .then(|| m.selected.0.map(|e| d.name_of(e)))
        .flatten();
    let knower = match &one {
        Some(name) => Some(name.clone()),
        None if party_view => Some(party_members(d).1),
        None => None,
    };
    ui.heading(match &one {
        Some(name) => format!("What {name} knows"),
        None if party_view => "What the party knows".to_owned(),
        None => "The log".to_owned(),
    });
    let f = &mut m.state.filter;
    let mut names: Vec<String> = d.everyone.iter().map(|(_, n, _)| n.to_string()).collect();
    names.sort();
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("who")
            .selected_text(f.who.clone().unwrap_or_else(|| "everyone".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut f.who, None, "everyone");
                for n in names {
                    ui.selectable_value(&mut f.who, Some(n.clone()), n);
                }
            });
        ui.add(
            egui::TextEdit::singleline(&mut f.search)
                .hint_text("search")
                .desired_width(f32::INFINITY),
        );
    });
    ui.horizontal_wrapped(|ui| {
        for &k in LogKind::ALL {
            let mut on = f.kinds.contains(&k);
            if ui.checkbox(&mut on, k.words()).changed() {
                if on {
                    f.kinds.insert(k);
                } else {
                    f.kinds.remove(&k);
                }
            }
        }
        if !party_view {
            ui.checkbox(&mut f.secret, "secret throws");
        }
    });
    ui.separator();
    // The rows are worked out again only when the log or the filter changes.
    // The faction whose knowledge the view shows: the party's (faction 0), or the creature's.
    let faction = one
        .as_ref()
        .and(m.selected.0)
        .and_then(|e| d.faction_of.get(e).ok())
        .map_or(0, |f| f.0);
    let (members, party_name) = match &one {
        Some(name) => (vec![name.clone()], String::new()),
        None => party_members(d),
    };
    let members: Vec<&str> = members.iter().map(String::as_str).collect();
    let key = (d.log.len(), f.clone(), knower);
    if m.state.rows_for.as_ref() != Some(&key) {
        m.state.rows = d
            .log
            .entries()
            .iter()
            .enumerate()
            .filter(|(_, e)| !party_view || e.known_to_party(&members, &party_name, faction))
            .filter(|(_, e)| m.state.filter.passes(e))
            .map(|(i, _)| i)
            .collect();
        m.state.rows_for = Some(key);
    }
    // Lines wrap, so no outcome is cut off at the panel's width; the latest entries are laid
    // out (the search and filters reach the earlier ones).
    let rows = &m.state.rows;
    let shown = &rows[rows.len().saturating_sub(LOG_LINES_SHOWN)..];
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink(false)
        .show(ui, |ui| {
            if shown.len() < rows.len() {
                ui.weak(format!(
                    "{} earlier entries: search or filter to see them",
                    rows.len() - shown.len()
                ));
            }
            for &i in shown {
                let entry = &d.log.entries()[i];
                let secret = entry.event().secret();
                let words = if party_view {
                    entry.told_to_party(&members, &party_name)
                } else {
                    entry.to_string()
                };
                if log_line(ui, words, secret).0.clicked() {
                    clicked = Some(i);
                }
            }
        });
    if let Some(i) = clicked {
        let ev = d.log.entries()[i].event();
        let who = ev
            .who()
            .and_then(|w| d.everyone.iter().find(|(_, n, _)| n.as_str() == w));
        if let Some((e, _, p)) = who {
            m.selected.0 = Some(e);
            m.centre.0 = ev.at().or(Some(p.0));
        } else {
            m.centre.0 = ev.at();
        }
    }
}

/// One entry of the log, wrapped at the panel's width (never cut: a throw's outcome is in its
/// first words, `delve_rules::rules::combat::CombatEvent`), the Judge's secret throws in italics; a
/// click on it is for the caller. Its laid-out text too, for the tests.
pub(super) fn log_line(
    ui: &mut egui::Ui,
    words: String,
    secret: bool,
) -> (egui::Response, std::sync::Arc<egui::Galley>) {
    let text = egui::RichText::new(words);
    let text = if secret { text.italics().weak() } else { text };
    let (at, galley, response) = egui::Label::new(text)
        .wrap()
        .sense(egui::Sense::click())
        .layout_in_ui(ui);
    if ui.is_rect_visible(response.rect) {
        let color = if response.hovered() {
            ui.visuals().strong_text_color()
        } else {
            ui.visuals().text_color()
        };
        ui.painter().galley(at, galley.clone(), color);
    }
    (response, galley)
}
