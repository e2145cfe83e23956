//! The optional rule modules: combat and the situational penalties can be switched off from the
//! level file (`modules: (…)`) or the command line (`delve sim --without …`), and a delve runs
//! without them.

use bevy::prelude::*;
use delve_ground::dice::Throw;
use delve_ground::log::EventLog;
use delve_play::scenario::{Delve, Scenario};
use delve_play::sim::{give, run_rounds};
use delve_rules::command::acts::Attack;
use delve_rules::command::{Command, was_refused};
use delve_rules::rules::combat::{CombatEvent, CombatRefusal};

/// Brannoc and a ghoul face each other in a lit hall; the level's `modules` as given.
fn arena(modules: &str, brannoc: &str) -> Delve {
    let mut scenario = Scenario::lit_corridor(15)
        .creature(&format!(
            r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16, str: 16,
                encumbrance_stone: 6.0, attack_bonus: 3,
                weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]{brannoc})"#
        ))
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1))"#);
    if let Some(field) = modules.strip_prefix(", ") {
        scenario = scenario.field(field);
    }
    scenario.build()
}

fn attack(app: &mut App) {
    give(
        app.world_mut(),
        Command::Attack(Attack {
            who: "Brannoc".into(),
            target: "Gnawbone".into(),
            weapon: None,
        }),
    );
    run_rounds(app.world_mut(), 3);
}

/// Brannoc's attack throws.
fn attacks(app: &App) -> Vec<Throw> {
    let log = app.world().resource::<EventLog>();
    log.of::<CombatEvent>()
        .filter_map(|e| match e {
            CombatEvent::Attacked { who, throw, .. } if who == "Brannoc" => Some(throw.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn with_combat_on_foes_face_to_face_fight() {
    let mut app = arena("", "");
    attack(&mut app);
    assert!(!attacks(&app).is_empty());
}

#[test]
fn a_delve_without_combat_has_no_battle_and_refuses_attacks() {
    let mut app = arena(", modules: (combat: false)", "");
    attack(&mut app);
    let log = app.world().resource::<EventLog>();
    assert_eq!(log.of::<CombatEvent>().count(), 0, "{}", log.to_text());
    assert!(was_refused(log, "Brannoc", &CombatRefusal::CombatOff));
    // The rest of the rules go on: the clock, hearing, light.
    assert!(log.len() > 1);
}

/// Situational Penalties › Prone: −4 on an attack; without the module, no situational modifier.
#[test]
fn a_delve_without_situational_penalties_throws_without_them() {
    let prone = ", conditions: [Prone]";
    let mut app = arena("", prone);
    attack(&mut app);
    let with = attacks(&app);
    assert!(
        with[0]
            .modifiers
            .iter()
            .any(|m| m.source == "prone" && m.value == -4),
        "{}",
        with[0]
    );
    let mut app = arena(", modules: (situational_penalties: false)", prone);
    attack(&mut app);
    let without = attacks(&app);
    assert!(!without.is_empty());
    assert!(
        without[0].modifiers.iter().all(|m| m.source != "prone"),
        "{}",
        without[0]
    );
}
