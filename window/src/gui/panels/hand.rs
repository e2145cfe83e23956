//! The Judge's hand: hit points, conditions, a creature's square, doors, traps, lights and noises,
//! each given as a command between rounds.

use delve_ground::level::schema::Lock;

use bevy_egui::egui;

use super::{DelveView, PanelsMut};
use delve_ground::level::schema::ConditionKind;
use delve_rules::creature::Position;
use delve_rules::rules::judge::{
    DoorSetting, GiveCondition, PlaceCreature, SetDoor, SetHitPoints, SetLight, SetTrap,
    TakeCondition, TrapSetting,
};
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::sound::{MakeNoise, SoundRow};

/// The Judge's hand on the world: on the selected creature, and on the square last clicked.
pub(super) fn hand(ui: &mut egui::Ui, d: &DelveView, m: &mut PanelsMut) {
    let orders = &mut m.orders.0;
    let s = &mut m.state;
    if let Some(e) = m.selected.0
        && let Ok((name, _, _, hp, _, _, _, conditions, ..)) = d.creatures.get(e)
    {
        let who = name.to_string();
        ui.label(format!("{who}:"));
        ui.horizontal(|ui| {
            // A creature newly selected starts from its own hit points.
            if s.hit_points_of != Some(e) {
                s.hit_points_of = Some(e);
                s.hit_points = hp.current;
            }
            ui.label("hit points");
            ui.add(egui::DragValue::new(&mut s.hit_points).range(-20..=hp.max));
            if ui.button("Set").clicked() {
                orders.push(
                    SetHitPoints {
                        who: who.clone(),
                        hit_points: s.hit_points,
                    }
                    .into(),
                );
            }
        });
        for c in &conditions.0 {
            ui.horizontal(|ui| {
                ui.label(format!("{:?}", c.kind));
                if ui.small_button("end").clicked() {
                    orders.push(
                        TakeCondition {
                            who: who.clone(),
                            condition: c.kind,
                        }
                        .into(),
                    );
                }
            });
        }
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("condition")
                .selected_text(format!("{:?}", s.condition))
                .show_ui(ui, |ui| {
                    for &k in CONDITIONS {
                        ui.selectable_value(&mut s.condition, k, format!("{k:?}"));
                    }
                });
            if ui.button("Give").clicked() {
                orders.push(
                    GiveCondition {
                        who: who.clone(),
                        condition: s.condition,
                    }
                    .into(),
                );
            }
        });
    }
    ui.separator();
    let Some(at) = m.ui.picked else {
        ui.label("Click a square for its door, trap, lights, or to place the creature there.");
        return;
    };
    let xy = (at.x, at.y);
    ui.label(format!("The square {at}:"));
    if let Some(e) = m.selected.0
        && let Ok((name, ..)) = d.creatures.get(e)
        && ui.button(format!("Place {name} here")).clicked()
    {
        orders.push(
            PlaceCreature {
                who: name.to_string(),
                at: xy,
            }
            .into(),
        );
    }
    if let Some((_, door)) = d.doors.iter().find(|(p, _)| p.0 == at) {
        ui.label(crate::gui::under_pointer::describe_door(door));
        let key = d
            .shown
            .level
            .doors
            .iter()
            .find(|dd| dd.at == at)
            .and_then(|dd| match &dd.door.lock {
                Lock::Locked { key } => key.clone(),
                _ => None,
            });
        ui.horizontal_wrapped(|ui| {
            for (label, to) in [
                ("open", DoorSetting::Open),
                ("close", DoorSetting::Closed),
                ("lock", DoorSetting::Locked { key }),
                ("unlock", DoorSetting::Unlocked),
                ("reveal", DoorSetting::Revealed),
            ] {
                if ui.button(label).clicked() {
                    orders.push(SetDoor { at: xy, to }.into());
                }
            }
        });
    }
    if let Some((_, trap)) = d.traps.iter().find(|(p, _)| p.0 == at) {
        ui.label(crate::gui::under_pointer::describe_trap(trap));
        ui.horizontal(|ui| {
            for (label, to) in [
                ("arm", TrapSetting::Armed),
                ("disarm", TrapSetting::Disarmed),
                ("reveal", TrapSetting::Revealed),
            ] {
                if ui.button(label).clicked() {
                    orders.push(SetTrap { at: xy, to }.into());
                }
            }
        });
    }
    let here = |l: &(&LightSource, Option<&CarriedBy>, Option<&Position>)| {
        l.2.map(|p| p.0)
            .or_else(|| l.1.and_then(|b| d.everyone.get(b.0).ok()).map(|x| x.2.0))
            == Some(at)
    };
    if d.lights.iter().any(|l| here(&l)) {
        ui.horizontal(|ui| {
            if ui.button("light").clicked() {
                orders.push(SetLight { at: xy, lit: true }.into());
            }
            if ui.button("douse").clicked() {
                orders.push(SetLight { at: xy, lit: false }.into());
            }
        });
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("sound")
            .selected_text(s.sound.to_string())
            .show_ui(ui, |ui| {
                for r in [
                    SoundRow::Quiet,
                    SoundRow::Normal,
                    SoundRow::Loud,
                    SoundRow::Blast,
                    SoundRow::DeafeningBlast,
                ] {
                    ui.selectable_value(&mut s.sound, r, r.to_string());
                }
            });
        if ui.button("noise here").clicked() {
            orders.push(
                MakeNoise {
                    at: xy,
                    sound: s.sound,
                    what: "a noise the Judge makes".into(),
                }
                .into(),
            );
        }
    });
}

pub(super) const CONDITIONS: &[ConditionKind] = ConditionKind::ALL;
