//! The clock and the timers: lights burning down, rests due, tasks under way.

use bevy_egui::egui;

use super::DelveView;
use super::inspector::rest_clock;
use bevy::prelude::Entity;
use delve_rules::rules::rest::needs_rest;

/// The clock, every lit light's fuel (a table), each creature's rest and task under way, by
/// faction: the party's first and open, the others folded; `filter` keeps the creatures whose
/// name holds it.
pub(super) fn timers(ui: &mut egui::Ui, d: &DelveView, filter: &mut String) {
    ui.label(format!("{} ({} rounds played)", *d.clock, d.clock.rounds));
    // The party's view shows what the party knows: its own lights and rest.
    let ours: Option<Vec<Entity>> = d.party_view().then(|| {
        d.parties
            .0
            .iter()
            .flat_map(|p| p.marching_order.clone())
            .collect()
    });
    let counts = |e: Entity| ours.as_ref().is_none_or(|o| o.contains(&e));
    // Carried lights by their bearer; those that stand alone by their square.
    let mut fuel: Vec<(String, String, u64)> = d
        .lights
        .iter()
        .filter(|(l, by, _)| l.lit && by.is_none_or(|b| counts(b.0)))
        .filter(|(_, by, _)| ours.is_none() || by.is_some())
        .filter_map(|(l, by, at)| {
            let left = l.fuel_rounds?;
            let whose = match (by, at) {
                (Some(b), _) => d.name_of(b.0),
                (None, Some(p)) => format!("at {}", p.0),
                (None, None) => String::new(),
            };
            Some((whose, format!("{:?}", l.kind), left))
        })
        .collect();
    fuel.sort_by(|a, b| (a.2, &a.0).cmp(&(b.2, &b.0)));
    egui::CollapsingHeader::new(format!("lights burning ({})", fuel.len()))
        .id_salt("lights burning")
        .default_open(fuel.len() <= 8)
        .show(ui, |ui| {
            if fuel.is_empty() {
                ui.label("none");
                return;
            }
            egui::Grid::new("lights").striped(true).show(ui, |ui| {
                // A table's cells keep their words whole (the panel wraps its text, not its tables).
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                ui.strong("who or where");
                ui.strong("light");
                ui.strong("fuel left");
                ui.end_row();
                for (whose, kind, left) in fuel {
                    ui.label(whose);
                    ui.label(kind);
                    ui.label(format!("{left} rounds"));
                    ui.end_row();
                }
            });
        });
    ui.horizontal(|ui| {
        ui.label("creatures:");
        // The rest of the row, not egui's 280 points: a narrow panel stays narrow.
        ui.add(
            egui::TextEdit::singleline(filter)
                .hint_text("filter by name")
                .desired_width(f32::INFINITY),
        );
    });
    let wanted = filter.to_lowercase();
    // (faction, name, rest, task), by faction, the party's first.
    let mut rows: Vec<(usize, String, String, Option<String>)> = d
        .everyone
        .iter()
        .filter(|(e, ..)| counts(*e))
        .filter(|(_, n, _)| n.as_str().to_lowercase().contains(&wanted))
        .filter_map(|(e, n, _)| {
            let (_, faction, _, _, _, _, _, conditions, _, task) = d.creatures.get(e).ok()?;
            if delve_rules::rules::conditions::is_down(conditions) {
                return None;
            }
            let (_, profs, _, fatigue, resting, ..) = d.carried.get(e).ok()?;
            let rest =
                fatigue.map(|f| rest_clock(f, resting, profs.is_some_and(|p| !needs_rest(p))));
            let task = task.map(|t| format!("{} ({} rounds left)", t.work, t.rounds_left));
            Some((faction.0, n.to_string(), rest.unwrap_or_default(), task))
        })
        .collect();
    let party_factions: Vec<usize> = d
        .parties
        .0
        .iter()
        .filter_map(|p| p.leader())
        .filter_map(|l| d.creatures.get(l).ok().map(|c| c.1.0))
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &(usize, String, String, Option<String>)| {
            (!party_factions.contains(&r.0), r.0, r.1.clone())
        };
        key(a).cmp(&key(b))
    });
    let mut factions: Vec<usize> = rows.iter().map(|r| r.0).collect();
    factions.dedup();
    for f in factions {
        let members: Vec<_> = rows.iter().filter(|r| r.0 == f).collect();
        let name = d
            .factions
            .0
            .get(f)
            .map_or_else(|| format!("faction {f}"), |x| x.name.clone());
        egui::CollapsingHeader::new(format!("{name} ({})", members.len()))
            .id_salt(("timers", f))
            .default_open(party_factions.contains(&f) || !wanted.is_empty())
            .show(ui, |ui| {
                egui::Grid::new(("rest", f)).striped(true).show(ui, |ui| {
                    // A table's cells keep their words whole (the panel wraps its text, not its tables).
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    for (_, n, rest, task) in members {
                        ui.label(n);
                        ui.label(rest);
                        ui.label(task.clone().unwrap_or_default());
                        ui.end_row();
                    }
                });
            });
    }
}
