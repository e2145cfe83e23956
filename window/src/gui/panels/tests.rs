//! The unit tests of the window's panels.

use delve_ground::level::schema::Proficiency;
use delve_ground::log::LogEntry;
use delve_rules::command::{CommandEvent, Journal};
use delve_rules::creature::{Combatant, CreatureIndex};
use delve_rules::rules::combat::gear::ShieldState;
use delve_rules::rules::judge::JudgeRefusal;
use delve_rules::rules::throws::{Skill, ThrowEvent, ThrowKind};

use super::*;
use delve_rules::rules::judge::{DoorSetting, JudgeEvent, SetDoor, SetHitPoints};

/// A side panel given a line of 600 characters keeps its width: the line wraps.
#[test]
fn a_long_line_does_not_widen_a_side_panel() {
    let width_with = |wrap: bool| {
        let ctx = egui::Context::default();
        let mut width = 0.0;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            ..Default::default()
        };
        for _ in 0..3 {
            let mut out = ctx.run_ui(input.clone(), |ui| {
                let shown = egui::Panel::left("judge")
                    .resizable(true)
                    .default_size(300.0)
                    .size_range(120.0..=576.0)
                    .show(ui, |ui| {
                        if wrap {
                            wrap_to_the_panel(ui);
                        }
                        egui::ScrollArea::vertical().show(ui, |ui| {
                            // A row, as the inspector and the timers lay out a name and
                            // what is said of it.
                            ui.horizontal(|ui| {
                                ui.label("Sera:");
                                ui.monospace("a long line of the log ".repeat(26));
                            });
                        });
                    });
                width = shown.response.rect.width();
            });
            // No renderer here: the fonts' texture is dropped, not drawn.
            out.textures_delta.clear();
        }
        width
    };
    assert!(width_with(true) <= 310.0, "{}", width_with(true));
    assert!(
        width_with(false) > 400.0,
        "without wrapping the line widens it"
    );
}

/// At the log's default width in a window of 1280×800, an attack's line shows its outcome: the
/// hit and its damage in its first row, no word of it cut off ("…"), every row within the panel.
#[test]
fn an_attack_line_shows_its_outcome_at_the_default_width() {
    use delve_ground::dice::{Modifier, Throw};
    use delve_rules::rules::combat::CombatEvent;
    use delve_rules::rules::combat::events::Damage;
    let event = CombatEvent::Attacked {
        who: "Brannoc".into(),
        target: "Gnawbone".into(),
        throw: Throw::resolve(
            "Brannoc attacks Gnawbone with the sword".into(),
            14,
            vec![
                Modifier::new(2, "Strength"),
                Modifier::new(1, "Fighting"),
                Modifier::new(-2, "dim light"),
            ],
            13,
        ),
        confirmation: None,
        note: None,
        damage: Some(Box::new(Damage {
            dice: vec![6],
            bonus: 2,
            critical: false,
            reduced_by: 1,
            unproficient_armor: None,
            enchantment: None,
            total: 7,
        })),
    };
    let words = LogEntry::new(3, event).to_string();
    let ctx = egui::Context::default();
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let mut seen = None;
    for _ in 0..3 {
        let mut out = ctx.run_ui(input.clone(), |ui| {
            let (_, log) = layout::side_docks(
                (1280.0, 800.0),
                (1280.0, 700.0),
                Some(LEFT_WIDTH),
                Some(RIGHT_WIDTH),
                layout::First::Log,
            );
            let layout::Dock::Docked { at_most } = log else {
                panic!("the log docks at 1280x800: {log:?}");
            };
            let shown = egui::Panel::right("log")
                .resizable(true)
                .default_size(RIGHT_WIDTH.min(at_most))
                .size_range(120.0..=at_most)
                .show(ui, |ui| {
                    wrap_to_the_panel(ui);
                    log::log_line(ui, words.clone(), false).1
                });
            seen = Some((shown.inner, shown.response.rect));
        });
        out.textures_delta.clear();
    }
    let (galley, panel) = seen.unwrap();
    assert!(!galley.elided, "{words}");
    assert_eq!(galley.text(), words);
    let first_row: String = galley.rows[0].text();
    assert!(
        first_row.contains("hit, 7 damage"),
        "the outcome is in the first row: {first_row:?} of {words}"
    );
    assert!(
        galley.rect.width() <= panel.width(),
        "{} > {}",
        galley.rect.width(),
        panel.width()
    );
    assert!(galley.rows.len() > 1, "the line wraps");
}

/// Ctrl+= and Ctrl+- scale the interface a tenth at a time, within its bounds.
#[test]
fn ctrl_plus_and_minus_scale_the_interface() {
    use leafwing_input_manager::prelude::Buttonlike;
    let mut app = super::super::input::tests::app();
    app.init_resource::<PanelState>()
        .add_systems(Update, scale_interface);
    let chord = |app: &mut App, key: KeyCode| {
        KeyCode::ControlLeft.press(app.world_mut());
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
        KeyCode::ControlLeft.release(app.world_mut());
        app.update();
    };
    let scale = |app: &App| app.world().resource::<PanelState>().ui_scale;
    assert_eq!(scale(&app), 1.0);
    chord(&mut app, KeyCode::Equal);
    assert_eq!(scale(&app), 1.1);
    chord(&mut app, KeyCode::Minus);
    chord(&mut app, KeyCode::Minus);
    assert_eq!(scale(&app), 0.9);
    for _ in 0..10 {
        chord(&mut app, KeyCode::Minus);
    }
    assert_eq!(scale(&app), UI_SCALES.0);
}

/// A command from the Judge's hand is carried out in the frame it is given, with no round
/// played, and goes into the journal as given between rounds.
#[test]
fn the_judges_hand_acts_at_once_and_is_journaled() {
    let mut app = super::super::input::tests::app();
    app.init_resource::<JudgeOrders>()
        .add_systems(Update, carry_out_judge_orders);
    app.world_mut().resource_mut::<JudgeOrders>().0.push(
        SetHitPoints {
            who: "Brannoc".into(),
            hit_points: 5,
        }
        .into(),
    );
    app.update();
    let w = app.world();
    assert_eq!(w.resource::<Clock>().rounds, 0);
    assert!(
        w.resource::<EventLog>()
            .of::<JudgeEvent>()
            .any(|e| matches!(e, JudgeEvent::HitPointsSet { who, to: 5, .. } if who == "Brannoc"))
    );
    let journal = &w.resource::<Journal>().0;
    assert!(
        journal
            .last()
            .is_some_and(|c| c.between_rounds && c.round == 0)
    );
    // A refusal is told in the notice.
    app.world_mut().resource_mut::<JudgeOrders>().0.push(
        SetDoor {
            at: (0, 0),
            to: DoorSetting::Open,
        }
        .into(),
    );
    app.update();
    let w = app.world();
    let log = w.resource::<EventLog>();
    assert!(delve_rules::command::was_refused(
        log,
        delve_rules::rules::judge::THE_JUDGE,
        &JudgeRefusal::Nothing {
            what: "door",
            at: GridPos::new(0, 0)
        }
    ));
    // The notice tells that refusal, as the log does.
    let refused = log.of::<CommandEvent>().last().map(|r| r.to_string());
    assert_eq!(Some(w.resource::<Notice>().0.clone()), refused);
}

/// The log's filter: by kind, by creature, the Judge's secret throws, and the search.
#[test]
fn the_log_filter_keeps_what_is_asked() {
    let mut app = super::super::input::tests::app();
    delve_play::sim::run_rounds(app.world_mut(), 3);
    let sera = app.world().resource::<CreatureIndex>().0["Sera"];
    delve_rules::rules::throws::throw_in(
        app.world_mut(),
        sera,
        ThrowKind::Check,
        Skill::Proficiency(Proficiency::Searching),
        "searching",
        Vec::new(),
        14,
    );
    let log = app.world().resource::<EventLog>();
    let count = |f: &LogFilter| log.entries().iter().filter(|e| f.passes(e)).count();
    let all = LogFilter::default();
    let throws = LogFilter {
        kinds: [LogKind::Throws].into(),
        ..all.clone()
    };
    assert!(count(&throws) > 0, "the search's secret throw");
    assert!(
        log.entries()
            .iter()
            .filter(|e| throws.passes(e))
            .all(|e| e.get::<ThrowEvent>().is_some())
    );
    let no_secrets = LogFilter {
        secret: false,
        ..throws.clone()
    };
    assert_eq!(count(&no_secrets), 0, "the Judge's throws hidden");
    let brannoc = LogFilter {
        who: Some("Brannoc".into()),
        ..all.clone()
    };
    assert!(count(&brannoc) < count(&all));
    let search = LogFilter {
        search: "SEARCH".into(),
        ..all.clone()
    };
    assert!(count(&search) > 0 && count(&search) < count(&all));
}

/// The inspector names what a creature fights with and wears: its weapons with their damage,
/// its armor with a gambeson beneath, and its shield, broken once sacrificed.
#[test]
fn the_inspector_names_arms_and_armor() {
    let src = r#"(name: "arms", legend: { 'X': Wall(Stone), '.': Floor },
        map: ["XXXX", "X..X", "XXXX"],
        factions: [(name: "party")],
        creatures: [(name: "Hild", faction: "party", at: (1, 1), hp: 14, ac: 17,
            encumbrance_stone: 6.0,
            weapons: [(name: "spear", damage: "1d8", damage_type: Piercing)],
            armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4)),
            beneath: Some((name: "gambeson", weight: Light, ac_bonus: 1)),
            shield: Some((weight: Heavy, ac_bonus: 1)))])"#;
    let level = delve_ground::level::load_level_str(src, "arms.ron", None)
        .unwrap()
        .level;
    let hild = Combatant::of(&level.creatures[0]);
    let broken = ShieldState {
        broken: true,
        destroyed: false,
        sacrificed_in: Some(3),
    };
    assert_eq!(
        inspector::arms_words(&hild, None),
        "arms: spear 1d8 piercing; wears: chain mail over a gambeson, heavy shield +1"
    );
    assert_eq!(
        inspector::arms_words(&hild, Some(&broken)),
        "arms: spear 1d8 piercing; wears: chain mail over a gambeson, heavy shield +1 (broken)"
    );
}
