//! A trap's damage (Dungeon Delves › Traps): the save against it and its natural 1 (Tactical
//! Combat › Natural 20 and Natural 1), a pit opening under its whole square, an attacking
//! trap's hit, and the one damage path.

use super::traps::{act, app, walk_to};
use crate::common::hp;
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_play::scenario::Scenario;
use delve_rules::command::Command;
use delve_rules::command::acts::Move;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::traps::TrapEvent;

/// Tactical Combat › Natural 20 and Natural 1: a natural 1 on the save doubles a trap's damage;
/// a natural 20 on a save for half takes none.
#[test]
fn a_natural_1_on_a_save_doubles_a_traps_damage() {
    let blades = ", kind: Custom(name: \"blades\", damage: \"1d4\", save: Some((throw: Death, on_success: Half)))";
    for (save, damage) in [(1, 6), (20, 0), (15, 1), (5, 3)] {
        let mut app = app(blades, ", saves: { Death: 12 }", 1);
        app.script_dice(&[1, 3, save]);
        act(
            &mut app,
            Command::Move(Move {
                who: "Ada".into(),
                to: (8, 1),
                pace: Pace::Combat,
            }),
        );
        assert_eq!(30 - hp(&app, "Ada"), damage, "a save of {save} against 3");
    }
}

/// Tactical Combat › Natural 20 and Natural 1: "A Natural 1 on a save doubles the damage
/// dealt" — what the save's outcome deals. Ada saves on 1+ (a natural 1 is no automatic failure
/// on a save): against blades that a save negates she takes none (a negated 0 stays 0; she once
/// took 6); against blades for half, half of 3 (1) doubled, 2.
#[test]
fn a_natural_1_that_saves_doubles_only_the_damage_dealt() {
    for (effect, damage) in [("Negates", 0), ("Half", 2)] {
        let blades = format!(
            ", kind: Custom(name: \"blades\", damage: \"1d4\", save: Some((throw: Death, on_success: {effect})))"
        );
        let mut app = app(&blades, ", saves: { Death: 1 }", 1);
        app.script_dice(&[1, 3, 1]);
        act(
            &mut app,
            Command::Move(Move {
                who: "Ada".into(),
                to: (8, 1),
                pace: Pace::Combat,
            }),
        );
        let sprung = app
            .events::<delve_rules::rules::traps::TrapEvent>()
            .into_iter()
            .find_map(|e| match e {
                delve_rules::rules::traps::TrapEvent::TrapSprung { damage, saved, .. } => {
                    Some((damage, saved))
                }
                _ => None,
            });
        assert_eq!(sprung, Some((damage, Some(true))), "{effect}");
        assert_eq!(30 - hp(&app, "Ada"), damage, "{effect}");
    }
}

/// A pit opens under its whole square: Bo, sharing Ada's square (carried, or squeezed in
/// beside her) when the pit opens under her, falls in too, with a fall of his own — he once
/// stood on over the open pit.
#[test]
fn a_pit_opening_under_one_takes_everyone_on_its_square() {
    let mut app = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .trap("(at: (4, 1), kind: Pit(depth_feet: 20))")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (4, 1), hp: 30, ac: 10,
                encumbrance_stone: 2.0, carries: [(kind: Torch, lit: true)])"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (3, 1), hp: 30, ac: 10,
                encumbrance_stone: 2.0)"#,
        )
        .build();
    let (ada, bo) = (app.entity("Ada"), app.entity("Bo"));
    app.world_mut()
        .entity_mut(bo)
        .insert(delve_rules::creature::Position(GridPos::new(4, 1)));
    let trap = {
        let world = app.world_mut();
        world
            .query_filtered::<Entity, With<delve_rules::rules::traps::Trap>>()
            .single(world)
            .unwrap()
    };
    app.script_dice(&[3, 4, 5, 6]);
    delve_rules::rules::traps::spring(app.world_mut(), trap, ada);
    for name in ["Ada", "Bo"] {
        assert_eq!(
            app.get::<delve_rules::creature::Below>(name),
            Some(&delve_rules::creature::Below { depth_feet: 20 }),
            "{name} is in the pit"
        );
    }
    let fell: Vec<(String, i32)> = app
        .events::<TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            TrapEvent::TrapSprung { who, damage, .. } => Some((who, damage)),
            _ => None,
        })
        .collect();
    assert_eq!(fell, vec![("Ada".to_owned(), 7), ("Bo".to_owned(), 11)]);
}

/// RULINGS › Conditions …: a trap's damage goes through the one damage path. A pit that takes
/// Ada's last hit points leaves her dying in it (not walking on); one that takes her below half
/// leaves her bloodied.
#[test]
fn a_pits_damage_goes_through_the_one_damage_path() {
    use delve_ground::level::schema::ConditionKind;
    for (hp, faces, condition) in [
        (4, [1, 3, 3], ConditionKind::Dying),
        (20, [1, 6, 5], ConditionKind::Bloodied),
    ] {
        let mut app = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
            .trap("(at: (4, 1), kind: Pit(depth_feet: 20))")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Ada", faction: "party", at: (1, 1), hp: {hp}, ac: 10,
                    encumbrance_stone: 2.0, carries: [(kind: Torch, lit: true)])"#
            ))
            .build();
        app.script_dice(&faces);
        app.give(Move {
            who: "Ada".into(),
            to: (8, 1),
            pace: Pace::Combat,
        });
        app.run(3);
        let conditions = app.get::<delve_rules::creature::Conditions>("Ada").unwrap();
        assert!(conditions.has(condition), "{}", app.log().to_text());
        assert_eq!(app.at("Ada"), GridPos::new(4, 1), "in the pit");
    }
}

/// Dungeon Delves › Traps: some traps "might only damage the adventurers on a successful attack
/// throw": a spear trap (+2) against Ada's AC 10 misses on a 7 (9) and deals nothing; on an 8
/// (10) it hits, and its 1d6 goes through the one damage path.
#[test]
fn a_trap_that_attacks_damages_only_on_a_hit() {
    let spear = r#", kind: Custom(name: "spear", damage: "1d6", attack: (bonus: 2)), hidden: true"#;
    for (die, hit, hurt) in [(7, false, 0), (8, true, 4)] {
        let mut delve = app(spear, "", 1);
        walk_to(&mut delve, "Ada", (8, 1));
        // The Judge's d6 (a 1: it goes off), the trap's d20, its 1d6.
        delve.script_dice(&[1, die, 4]);
        delve.run(1);
        let attack = delve
            .throws_for(delve_rules::rules::throws::Skill::Attack)
            .pop()
            .expect("the trap attacks");
        assert_eq!(
            (attack.natural, attack.target, attack.success),
            (die, 10, hit)
        );
        let sprung = delve
            .events::<TrapEvent>()
            .into_iter()
            .find_map(|e| match e {
                TrapEvent::TrapSprung { damage, hit, .. } => Some((damage, hit)),
                _ => None,
            });
        assert_eq!(sprung, Some((hurt, Some(hit))));
        assert_eq!(hp(&delve, "Ada"), 30 - hurt);
    }
}
