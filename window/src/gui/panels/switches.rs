//! The rules' switches: the optional modules and the Judge's modifiers.

use bevy_egui::egui;

use super::{DelveView, JudgeOrders};
use delve_ground::level::schema::JudgeModifier;
use delve_rules::rules::judge::{JudgeScope, SetJudgeModifier, SwitchModule, UnexpectedLights};
use delve_rules::rules::modules::RuleModule;

/// The rule modules on or off, the tactical rules they bring, and the Judge's modifiers for the
/// whole level, each changed by a command.
pub(super) fn switches(ui: &mut egui::Ui, d: &DelveView, orders: &mut JudgeOrders) {
    if let Some(running) = &d.modules {
        for &m in RuleModule::ALL {
            let mut on = m.on_in(running.now);
            if ui.checkbox(&mut on, m.words()).changed() {
                orders.0.push(SwitchModule { module: m, on }.into());
            }
        }
    }
    if let Some(t) = &d.tactical {
        let on: Vec<&str> = t.switches().iter().filter(|s| s.1).map(|s| s.0).collect();
        let off: Vec<&str> = t.switches().iter().filter(|s| !s.1).map(|s| s.0).collect();
        ui.label(format!("tactical rules in force: {}", on.join(", ")));
        if !off.is_empty() {
            ui.label(format!("left out by the level: {}", off.join(", ")));
        }
    }
    let Some(judge) = &d.judge else {
        return;
    };
    let mut unexpected = judge.unexpected_lights;
    if ui
        .checkbox(&mut unexpected, "throws against unexpected lights")
        .changed()
    {
        orders.0.push(UnexpectedLights { on: unexpected }.into());
    }
    ui.label("The Judge's modifiers (the whole level):");
    egui::Grid::new("modifiers").show(ui, |ui| {
        // A table's cells keep their words whole (the panel wraps its text, not its tables).
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        for &jm in JudgeModifier::ALL {
            let value = judge.value(jm, None, &[]);
            ui.label(jm.words());
            ui.label(format!("{value:+}"));
            let mut set = |v: i32| {
                orders.0.push(
                    SetJudgeModifier {
                        modifier: jm,
                        value: v,
                        on: JudgeScope::Level,
                    }
                    .into(),
                )
            };
            if ui.small_button("-").clicked() {
                set(value - 1);
            }
            if ui.small_button("+").clicked() {
                set(value + 1);
            }
            ui.end_row();
        }
    });
}
