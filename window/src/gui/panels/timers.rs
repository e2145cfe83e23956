//! The clock and the timers: lights burning down, rests due, tasks under way.

use super::*;

use bevy_egui::egui;

use delve::rules::rest::needs_rest;

/// The clock, every lit light's fuel, each creature's rest, the tasks under way.
pub(super) fn timers(ui: &mut egui::Ui, d: &DelveView) {
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
    let mut fuel: Vec<String> = d
        .lights
        .iter()
        .filter(|(l, by, _)| l.lit && by.is_none_or(|b| counts(b.0)))
        .filter(|(_, by, _)| ours.is_none() || by.is_some())
        .filter_map(|(l, by, at)| {
            let left = l.fuel_rounds?;
            let whose = match (by, at) {
                (Some(b), _) => format!("{}'s", d.name_of(b.0)),
                (None, Some(p)) => format!("at {}", p.0),
                (None, None) => String::new(),
            };
            Some(format!("{whose} {:?}: {left} rounds", l.kind))
        })
        .collect();
    fuel.sort();
    ui.label(format!("lights burning: {}", or_none(fuel)));
    let mut rows: Vec<(String, String, Option<String>)> = d
        .everyone
        .iter()
        .filter(|(e, ..)| counts(*e))
        .filter_map(|(e, n, _)| {
            let (_, _, _, _, _, _, _, conditions, _, task) = d.creatures.get(e).ok()?;
            if delve::rules::conditions::is_down(conditions) {
                return None;
            }
            let (_, profs, _, fatigue, resting, _) = d.carried.get(e).ok()?;
            let rest =
                fatigue.map(|f| rest_clock(f, resting, profs.is_some_and(|p| !needs_rest(p))));
            let task = task.map(|t| format!("{} ({} rounds left)", t.work, t.rounds_left));
            Some((n.to_string(), rest.unwrap_or_default(), task))
        })
        .collect();
    rows.sort();
    egui::Grid::new("rest").striped(true).show(ui, |ui| {
        for (n, rest, task) in rows {
            ui.label(n);
            ui.label(rest);
            ui.label(task.unwrap_or_default());
            ui.end_row();
        }
    });
}
