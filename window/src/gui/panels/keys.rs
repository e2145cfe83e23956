//! The keys panel: every action with the keys bound to it, rebinding a key, and saving the keys
//! file (`gui::keys`).

use crate::gui::controls::{DelveAction, HELP};

use super::PanelsMut;
use crate::gui::state::Tell;
use bevy::prelude::KeyCode;
use bevy_egui::egui;

/// A key being bound: the action, and the press with the actions it clashes with, waiting for
/// the player to bind it anyway.
#[derive(Clone, Debug, Default)]
pub struct Rebinding {
    pub action: Option<DelveAction>,
    pub clash: Option<(crate::gui::keys::KeyPress, Vec<DelveAction>)>,
}

/// Rebinding: each action with its keys; "change" waits for a key (with Ctrl, Alt or Shift if
/// held), names the actions already on it, and binds it; "restore defaults". Each change is
/// written to the keys file at once.
pub(super) fn keys_panel(ui: &mut egui::Ui, m: &mut PanelsMut) {
    use crate::gui::keys::{KeyPress, conflicts, keys_of, rebind, rebindable};
    let Some(bindings) = m.bindings.as_deref_mut() else {
        ui.label("No keys to change.");
        return;
    };
    let mut changed = None;
    let what = |a: &DelveAction| {
        HELP.iter()
            .find(|(h, _)| h == a)
            .map_or_else(|| format!("{a:?}"), |(_, w)| (*w).to_owned())
    };
    let rb = &mut m.state.rebinding;
    if let Some(action) = rb.action {
        match &rb.clash {
            None => {
                ui.strong(format!(
                    "Press a key for \"{}\" (Esc: cancel)",
                    what(&action)
                ));
                let modifiers: Vec<ModifierKeyOf> = MODIFIERS
                    .iter()
                    .filter(|(keys, _)| keys.iter().any(|k| m.pressed.pressed(*k)))
                    .map(|(_, m)| *m)
                    .collect();
                let key = m
                    .pressed
                    .get_just_pressed()
                    .find(|k| !MODIFIERS.iter().any(|(keys, _)| keys.contains(k)))
                    .copied();
                match key {
                    Some(KeyCode::Escape) => *rb = Rebinding::default(),
                    Some(key) => {
                        let press = KeyPress { key, modifiers };
                        let clashes = conflicts(&bindings.keys, &action, &press);
                        if clashes.is_empty() {
                            changed = Some((action, press));
                        } else {
                            rb.clash = Some((press, clashes));
                        }
                    }
                    None => {}
                }
            }
            Some((press, clashes)) => {
                let names: Vec<String> = clashes.iter().map(&what).collect();
                ui.colored_label(
                    egui::Color32::from_rgb(250, 160, 110),
                    format!("{} is bound to: {}", press.name(), names.join(", ")),
                );
                let press = press.clone();
                let mut cancel = false;
                ui.horizontal(|ui| {
                    if ui.button("bind it anyway").clicked() {
                        changed = Some((action, press));
                    }
                    cancel = ui.button("cancel").clicked();
                });
                if cancel {
                    *rb = Rebinding::default();
                }
            }
        }
    }
    egui::Grid::new("keys").striped(true).show(ui, |ui| {
        for a in rebindable(&bindings.keys) {
            ui.label(what(&a));
            ui.monospace(keys_of(&bindings.keys, &a));
            if ui.small_button("change").clicked() {
                *rb = Rebinding {
                    action: Some(a),
                    clash: None,
                };
            }
            ui.end_row();
        }
    });
    let mut restore = false;
    ui.horizontal(|ui| {
        restore = ui.button("restore defaults").clicked();
        if let Some(f) = &bindings.file {
            ui.weak(format!("kept in {}", f.display()));
        }
    });
    if let Some((action, press)) = changed {
        rebind(&mut bindings.keys, action, &press);
        *rb = Rebinding::default();
    } else if !restore {
        return;
    }
    if restore {
        bindings.keys = crate::gui::controls::default_input_map();
        if m.state.solo {
            for judge_only in crate::gui::controls::JUDGE_ONLY {
                bindings.keys.clear_action(&judge_only);
            }
        }
    }
    for mut map in &mut m.maps {
        *map = bindings.keys.clone();
    }
    let told = match &bindings.file {
        Some(f) => match crate::gui::keys::write_keys(f, &bindings.keys) {
            Ok(()) => format!("keys written to {}", f.display()),
            Err(e) => e,
        },
        None => "keys changed for this session".into(),
    };
    m.tell.write(Tell(told));
}

pub(super) type ModifierKeyOf = leafwing_input_manager::prelude::ModifierKey;

/// The modifier keys, each with its left and right keys.
pub(super) const MODIFIERS: [([KeyCode; 2], ModifierKeyOf); 3] = [
    (
        [KeyCode::ControlLeft, KeyCode::ControlRight],
        ModifierKeyOf::Control,
    ),
    ([KeyCode::AltLeft, KeyCode::AltRight], ModifierKeyOf::Alt),
    (
        [KeyCode::ShiftLeft, KeyCode::ShiftRight],
        ModifierKeyOf::Shift,
    ),
];
