//! Tactical Combat's actions and gear: attacks of opportunity, cautious movement, disengaging,
//! tumbling, firearms, shields and walls, total defense, enchantments.

use super::combat::*;
use bevy::prelude::*;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_play::scenario::Scenario;
use delve_play::sim::run_round;
use delve_rules::command::acts::{
    ActivateEnchantment, ClearJam, Disengage, ForgoShield, Move, MoveAcrobatically, MoveCautiously,
    TotalDefense,
};
use delve_rules::rules::combat::AttackRefusal;
use delve_rules::rules::combat::CombatRefusal;
use delve_rules::rules::combat::attack::attack;
use delve_rules::rules::combat::{AttackNote, CombatEvent};
use delve_rules::rules::damage::take_damage;

/// Stepping away from a hostile creature provokes its attack of opportunity; moving cautiously
/// (half speed) does not, unless it has Combat Reflexes, and then at −4.
#[test]
fn moving_away_provokes_and_cautious_movement_does_not() {
    let away = |cautious: bool| {
        if cautious {
            delve_rules::command::Command::MoveCautiously(MoveCautiously {
                who: "Brannoc".into(),
                to: (1, 1),
            })
        } else {
            delve_rules::command::Command::Move(Move {
                who: "Brannoc".into(),
                to: (1, 1),
                pace: delve_rules::rules::movement::Pace::Combat,
            })
        }
    };
    let mut app = engaged("");
    give_now(&mut app, away(false));
    let aoo = opportunities(&app);
    assert_eq!(aoo.len(), 1, "{aoo:?}");
    assert_eq!(aoo[0].0, "Gnawbone");

    let mut app = engaged("");
    give_now(&mut app, away(true));
    assert!(opportunities(&app).is_empty());

    let mut app = engaged(", proficiencies: [CombatReflexes], dex: 18");
    give_now(&mut app, away(true));
    let aoo = opportunities(&app);
    assert_eq!(aoo.len(), 1);
    assert!(
        aoo[0]
            .1
            .contains(&("against cautious movement (Combat Reflexes)".to_owned(), -4))
    );
}

/// Attacks of opportunity are the standard rules': with the cautious movement rule switched
/// off (Tactical Combat › Cautious Movement lets a half-speed mover through without provoking)
/// a step away from the ghoul still provokes it — switching the rule off once ended every
/// attack of opportunity, and with them Combat Reflexes, Disengage and Acrobatics.
#[test]
fn without_cautious_movement_stepping_away_still_provokes() {
    let mut app = engaged("");
    app.world_mut()
        .resource_mut::<delve_rules::rules::tactical::TacticalCombat>()
        .cautious_movement = false;
    give_now(
        &mut app,
        delve_rules::command::Command::Move(Move {
            who: "Brannoc".into(),
            to: (1, 1),
            pace: delve_rules::rules::movement::Pace::Combat,
        }),
    );
    let aoo = opportunities(&app);
    assert_eq!(aoo.len(), 1, "{aoo:?}");
    assert_eq!(aoo[0].0, "Gnawbone");
}

/// Tactical Combat › Disengage: "to escape a single threatening opponent" — from a foe that does
/// not threaten it (not beside it) there is nothing to disengage from: refused, where it was
/// once taken.
#[test]
fn one_disengages_only_from_a_foe_that_threatens_it() {
    let mut app = engaged("");
    let g = app.entity("Gnawbone");
    app.world_mut()
        .entity_mut(g)
        .insert(delve_rules::creature::Position(
            delve_ground::grid::GridPos::new(6, 1),
        ));
    give_now(
        &mut app,
        delve_rules::command::Command::Disengage(Disengage {
            who: "Brannoc".into(),
            from: "Gnawbone".into(),
        }),
    );
    let log = app.world().resource::<EventLog>();
    assert!(
        delve_rules::command::was_refused(
            log,
            "Brannoc",
            &CombatRefusal::DoesNotThreaten {
                name: "Gnawbone".into()
            }
        ),
        "{}",
        log.to_text()
    );
}

/// Disengaging from a creature makes the first 5' away from it safe.
#[test]
fn disengaging_makes_the_first_step_safe() {
    // Brannoc disengages from the ghoul, then steps away as told.
    let disengaged_then = |step: delve_rules::command::Command| {
        let mut app = engaged("");
        delve_play::sim::give(
            app.world_mut(),
            delve_rules::command::Command::Disengage(Disengage {
                who: "Brannoc".into(),
                from: "Gnawbone".into(),
            }),
        );
        give_now(&mut app, step);
        app
    };
    let app = disengaged_then(delve_rules::command::Command::Move(Move {
        who: "Brannoc".into(),
        to: (1, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    }));
    assert!(opportunities(&app).is_empty());
    // Disengaging does not combine with cautious movement.
    let app = disengaged_then(delve_rules::command::Command::MoveCautiously(
        MoveCautiously {
            who: "Brannoc".into(),
            to: (1, 1),
        },
    ));
    // The cautious walk is an order that stands, given at once; the disengage, a swift action,
    // waits for the party's initiative and meets it.
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Brannoc",
            &CombatRefusal::CautiousCannotDisengage
        ),
        "{log}"
    );
}

/// Firearms: within the first increment, against touch AC (+ shield) and through armor's DR; a
/// natural roll within the misfire value misses and jams an advanced firearm until cleared.
#[test]
fn firearms_go_against_touch_ac_bypass_dr_and_misfire() {
    let mut app = arena("", GUNNER);
    let (w, b, g) = (
        app.entity("Wren"),
        app.entity("Brannoc"),
        app.entity("Gnawbone"),
    );
    // Wren shoots the ghoul over no one: put Brannoc out of the line.
    app.world_mut()
        .entity_mut(b)
        .insert(delve_rules::creature::Position(
            delve_ground::grid::GridPos::new(9, 1),
        ));
    app.world_mut()
        .entity_mut(g)
        .insert(delve_rules::creature::Position(
            delve_ground::grid::GridPos::new(3, 1),
        ));
    app.script_dice(&[10]);
    attack(app.world_mut(), w, g, 0).unwrap();
    let (_, _, _, target, hit, damage) = last_attack(&app);
    // The ghoul wears no armor and bears no shield: touch AC is its AC, 13.
    assert_eq!((target, hit), (13, false));
    assert!(damage.is_none());
    app.script_dice(&[2]);
    attack(app.world_mut(), w, g, 0).unwrap();
    assert_eq!(
        last_note(&app),
        Some(AttackNote::Misfire {
            weapon: "pistol".into(),
            jammed: true
        })
    );
    assert_eq!(
        attack(app.world_mut(), w, g, 0),
        Err(AttackRefusal::Jammed {
            weapon: "pistol".into()
        })
    );
    give_now(
        &mut app,
        delve_rules::command::Command::ClearJam(ClearJam { who: "Wren".into() }),
    );
    let log = app.world().resource::<EventLog>();
    let cleared = CombatEvent::JamCleared {
        who: "Wren".into(),
        whole_round: true,
    };
    assert!(
        log.of::<CombatEvent>().any(|e| *e == cleared),
        "{}",
        log.to_text()
    );
    assert!(delve_rules::rules::combat::attack::can_attack(app.world(), w, g, 0).is_ok());
}

/// Shields: a firearm in its first increment goes "versus the target's Touch AC + Shield bonus
/// if they have one". A ghoul whose stat block gives touch AC 11 and a shield +2: the pistol
/// needs 13; its shield destroyed, 11 — the shield taken off once (it was once taken off twice,
/// leaving 9).
#[test]
fn a_firearm_against_a_stat_blocks_touch_ac_and_a_destroyed_shield() {
    let ghoul = ", touch_ac: Some(11), shield: Some((weight: Heavy, ac_bonus: 2))";
    let aim = |destroyed: bool| {
        let mut app = arena(ghoul, GUNNER);
        let (w, b, g) = (
            app.entity("Wren"),
            app.entity("Brannoc"),
            app.entity("Gnawbone"),
        );
        app.world_mut()
            .entity_mut(b)
            .insert(delve_rules::creature::Position(
                delve_ground::grid::GridPos::new(9, 1),
            ));
        app.world_mut()
            .entity_mut(g)
            .insert(delve_rules::creature::Position(
                delve_ground::grid::GridPos::new(3, 1),
            ));
        if destroyed {
            app.world_mut()
                .entity_mut(g)
                .insert(delve_rules::rules::combat::gear::ShieldState {
                    broken: true,
                    destroyed: true,
                    sacrificed_in: None,
                });
        }
        let f = delve_rules::rules::combat::attack::forecast(app.world(), w, g, 0).unwrap();
        let shield_off: i32 = f
            .modifiers
            .iter()
            .filter(|m| m.source == "Gnawbone without its shield (destroyed)")
            .map(|m| m.value)
            .sum();
        f.ac - shield_off
    };
    assert_eq!(aim(false), 13, "touch AC 11 + shield 2");
    assert_eq!(aim(true), 11, "touch AC 11, the shield destroyed");
}

/// Against chain mail (AC 16, armor +4): a pistol in its first increment goes against touch AC
/// 12 and its damage is not reduced.
#[test]
fn a_pistol_shot_at_chain_mail() {
    let ghoul_gun = r#", weapons: [(name: "pistol", damage: "1d8", damage_type: Piercing,
        range_feet: 20, kind: Some(Firearm(misfire: 1, advanced: false)))]"#;
    let mut app = arena(ghoul_gun, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.world_mut()
        .entity_mut(g)
        .insert(delve_rules::creature::Position(
            delve_ground::grid::GridPos::new(5, 1),
        ));
    app.script_dice(&[10, 5]);
    attack(app.world_mut(), g, b, 0).unwrap();
    let (_, _, _, target, hit, damage) = last_attack(&app);
    assert_eq!((target, hit), (12, true));
    let d = damage.unwrap();
    assert_eq!((d.reduced_by, d.total), (0, 5));
}

/// Shields: forgoing the shield for a free hand gives up its bonus until the next turn; a
/// critical that could put the bearer down is turned into a normal hit by breaking the shield.
#[test]
fn shields_forgone_and_sacrificed() {
    let shield = ", shield: Some((weight: Heavy, ac_bonus: 1))";
    let mut app = arena(shield, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    give_now(
        &mut app,
        delve_rules::command::Command::ForgoShield(ForgoShield {
            who: "Gnawbone".into(),
        }),
    );
    app.script_dice(&[10, 3]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Gnawbone without its shield (forgone)".to_owned(), 1)),
        "{mods:?}"
    );

    let mut app = arena(shield, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[20, 15, 4]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let d = last_attack(&app).5.unwrap();
    assert!(!d.critical, "turned into a normal hit");
    assert_eq!(d.total, 4);
    let state = app
        .world()
        .get::<delve_rules::rules::combat::gear::ShieldState>(g)
        .copied()
        .unwrap();
    assert!(state.broken && !state.destroyed);
    assert_eq!(
        last_note(&app),
        Some(AttackNote::ShieldSacrificed {
            who: "Gnawbone".into(),
            destroyed: false
        })
    );
}

/// Tactical Combat › Shields: "as an immediate action you can choose to give the shield the
/// broken condition to convert the attack to a standard hit" — the bearer's choice, once a
/// round. Gnawbone (40 hit points: no critical of Brannoc's could put him down) keeps his
/// shield by default and when he says never; saying always, he breaks it at the first
/// critical, not at a second in the same round, and it is destroyed at one the next round.
#[test]
fn a_shield_is_sacrificed_by_its_bearers_choice_once_a_round() {
    use delve_rules::command::acts::SacrificeShield;
    use delve_rules::rules::combat::gear::{ShieldSacrifice, ShieldState};
    let tough = ", hp: 40, shield: Some((weight: Heavy, ac_bonus: 1))";
    // The throw, its confirmation, and the damage die (a critical's base dice at maximum).
    let critical = |app: &mut delve_play::scenario::Delve| {
        let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
        app.script_dice(&[20, 15, 4]);
        attack(app.world_mut(), b, g, 0).unwrap();
        (
            last_attack(app).5.unwrap().critical,
            app.get::<ShieldState>("Gnawbone").copied(),
        )
    };
    for when in [None, Some(ShieldSacrifice::Never)] {
        let mut app = arena(tough, "");
        if let Some(when) = when {
            app.act(SacrificeShield {
                who: "Gnawbone".into(),
                when,
            });
        }
        assert_eq!(critical(&mut app), (true, None), "{when:?}");
    }
    let mut app = arena(tough, "");
    app.act(SacrificeShield {
        who: "Gnawbone".into(),
        when: ShieldSacrifice::Always,
    });
    let round = app.world().resource::<delve_ground::time::Clock>().rounds;
    let broken = ShieldState {
        broken: true,
        destroyed: false,
        sacrificed_in: Some(round),
    };
    assert_eq!(critical(&mut app), (false, Some(broken)));
    assert_eq!(
        critical(&mut app),
        (true, Some(broken)),
        "an immediate action: once a round"
    );
    app.world_mut()
        .resource_mut::<delve_ground::time::Clock>()
        .rounds += 1;
    let (crit, state) = critical(&mut app);
    assert!(!crit && state.is_some_and(|s| s.destroyed));
    assert_eq!(
        last_note(&app),
        Some(AttackNote::ShieldSacrificed {
            who: "Gnawbone".into(),
            destroyed: true
        })
    );
}

/// Tactical Combat › Shields: "a character wielding a shield may perform actions that require a
/// free hand if they forgo all bonuses and benefits of the shield". Gnawbone on a climb (a hand
/// on the wall) has none of his shield's +1 against Brannoc's blow, and his shield is not his to
/// sacrifice to a critical; off the wall, it is back.
#[test]
fn a_shield_is_forgone_while_its_bearers_hands_climb() {
    let shield = ", hp: 40, shield: Some((weight: Heavy, ac_bonus: 1))";
    let mut app = arena(shield, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.world_mut()
        .entity_mut(g)
        .insert(delve_rules::rules::caving::Climbing {
            to: delve_ground::grid::GridPos::new(3, 1),
            height_feet: 20,
            done_feet: 5.0,
            surface: delve_ground::level::schema::Surface::Sheer,
            pace: delve_rules::rules::caving::ClimbPace::Third,
            stretches_thrown: 0,
            down: true,
            rappel: false,
            slowed: false,
        });
    app.act(delve_rules::command::acts::SacrificeShield {
        who: "Gnawbone".into(),
        when: delve_rules::rules::combat::gear::ShieldSacrifice::Always,
    });
    app.script_dice(&[20, 15, 4]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let (_, mods, _, _, _, damage) = last_attack(&app);
    assert!(
        mods.contains(&(
            "Gnawbone without its shield (forgone, its hands busy climbing)".to_owned(),
            1
        )),
        "{mods:?}"
    );
    assert!(damage.unwrap().critical, "no shield to give up");
    app.world_mut()
        .entity_mut(g)
        .remove::<delve_rules::rules::caving::Climbing>();
    app.script_dice(&[10, 3]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert_eq!(
        mods,
        vec![("attack bonus".to_owned(), 3)],
        "off the wall, the shield is back"
    );
}

/// A monster whose stat block says so flees once bloodied, and stops attacking.
#[test]
fn a_bloodied_monster_that_flees_runs_away() {
    let mut app = engaged(", flees_when_bloodied: Some(true)");
    let g = app.entity("Gnawbone");
    take_damage(app.world_mut(), g, 5);
    assert!(has(&app, "Gnawbone", ConditionKind::Bloodied));
    let attacks = |app: &App| {
        app.world()
            .resource::<EventLog>()
            .entries()
            .iter()
            .filter(|e| {
                e.get::<CombatEvent>().is_some_and(
                    |ev| matches!(ev, CombatEvent::Attacked { who, .. } if who == "Gnawbone"),
                )
            })
            .count()
    };
    let attacks_before = attacks(&app);
    for _ in 0..3 {
        run_round(app.world_mut());
    }
    let at = app
        .world()
        .get::<delve_rules::creature::Position>(g)
        .unwrap()
        .0;
    assert!(at.x >= 6, "it got away from Brannoc at (2, 1): {at}");
    assert_eq!(attacks_before, attacks(&app));
}

/// Acrobatics: full speed through threatened squares; a successful check (here a Paralysis save
/// with the class level added) avoids the attack of opportunity, a failed one still provokes.
#[test]
fn tumbling_past_with_acrobatics() {
    for (die, provokes) in [(11, false), (10, true)] {
        let src_brannoc = ", proficiencies: [Acrobatics], level: 3, saves: { Paralysis: 14 }";
        // The arena, with Brannoc proficient in Acrobatics (and no armor).
        let mut app = Scenario::lit_corridor(15)
            .creature(&format!(
                r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16,
                    encumbrance_stone: 6.0, attack_bonus: 3{src_brannoc},
                    weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#
            ))
            .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1))"#)
            .build();
        let b = app.entity("Brannoc");
        app.world_mut()
            .entity_mut(b)
            .insert(delve_rules::rules::combat::battle::Controlled);
        // Initiative 11 and 9, neither side surprised.
        app.script_dice(&[11, 9, 6, 6]);
        run_round(app.world_mut());
        app.script_dice(&[die]);
        give_now(
            &mut app,
            delve_rules::command::Command::MoveAcrobatically(MoveAcrobatically {
                who: "Brannoc".into(),
                to: (1, 1),
            }),
        );
        assert!(
            app.throws()
                .iter()
                .any(|t| t.what == "Acrobatics (Paralysis save) to tumble past Gnawbone"),
            "the tumble is a Paralysis save"
        );
        assert_eq!(!opportunities(&app).is_empty(), provokes, "a {die}");
    }
}

/// Shield walls: +1 per adjacent ally with a heavy shield; doubled when the whole wall takes
/// total defense (which also gives +4 AC of its own).
#[test]
fn shield_walls_and_total_defense() {
    let shield = ", shield: Some((weight: Heavy, ac_bonus: 1))";
    let second = r#"(name: "Ashmaw", template: "ghoul", faction: "ghouls", at: (4, 1),
        shield: Some((weight: Heavy, ac_bonus: 1)))"#;
    let mut app = arena(shield, second);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[10, 3]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Gnawbone in a shield wall".to_owned(), -1)),
        "{mods:?}"
    );

    let mut app = arena(shield, second);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    for who in ["Gnawbone", "Ashmaw"] {
        delve_play::sim::give(
            app.world_mut(),
            delve_rules::command::Command::TotalDefense(TotalDefense { who: who.into() }),
        );
    }
    delve_rules::command::dispatch_commands(app.world_mut());
    app.script_dice(&[10, 3]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Gnawbone in total defense".to_owned(), -4)),
        "{mods:?}"
    );
    assert!(
        mods.contains(&("Gnawbone in a shield wall (total defense)".to_owned(), -2)),
        "{mods:?}"
    );
}

/// Activating a weapon's enchantment: a move action with a base attack bonus of 1+ and Use
/// Magic Device, otherwise a standard action (no attack that round); its extra damage is added
/// to each hit, past armor.
#[test]
fn activating_a_weapon_enchantment() {
    use delve_rules::rules::combat::gear::activation_is_a_move_action;
    assert!(activation_is_a_move_action(1, true));
    assert!(!activation_is_a_move_action(0, true));
    assert!(!activation_is_a_move_action(3, false));

    let flaming = r#", weapons: [(name: "claw", damage: "1d3", damage_type: Slashing,
        enchantment: Some((name: "flaming", damage: "1d6")))]"#;
    let mut app = engaged(flaming);
    give_now(
        &mut app,
        delve_rules::command::Command::ActivateEnchantment(ActivateEnchantment {
            who: "Gnawbone".into(),
            weapon: "claw".into(),
        }),
    );
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains(
            "activates its claw's flaming enchantment (a standard action: no attack this round)"
        ),
        "{log}"
    );
    let round = app.world().resource::<delve_ground::time::Clock>().rounds - 1;
    let struck = app
        .world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .any(|e| {
            e.round == round
                && e.get::<CombatEvent>().is_some_and(
                    |ev| matches!(ev, CombatEvent::Attacked { who, .. } if who == "Gnawbone"),
                )
        });
    assert!(
        !struck,
        "no attack in the round of a standard-action activation: {log}"
    );
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[18, 3, 4]);
    attack(app.world_mut(), g, b, 0).unwrap();
    let d = last_attack(&app).5.unwrap();
    // 3 slashing less chain mail's DR 2, and 4 fire.
    assert_eq!(
        (d.reduced_by, d.enchantment.clone(), d.total),
        (2, Some(("flaming".into(), vec![4])), 5)
    );
}

/// Poor vision by how the attacker sees the target's square: a ghoul sees the dark by its
/// lightless vision and takes no poor-vision penalty (RULINGS › Vision in the situational
/// penalties: the penalty is for one who "has not acquired Darkvision"); Brannoc, with no light
/// and no such vision, sees nothing and is blinded: −6 ("can't see through their eyes"), not
/// also the darkness's −4 (they do not stack).
#[test]
fn attacks_in_the_dark_by_how_the_attacker_sees() {
    let mut app = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16, encumbrance_stone: 6.0,
                attack_bonus: 3, weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#,
        )
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1))"#)
        .build();
    let b = app.entity("Brannoc");
    app.world_mut()
        .entity_mut(b)
        .insert(delve_rules::rules::combat::battle::Controlled);
    run_round(app.world_mut());
    let g = app.entity("Gnawbone");
    app.script_dice(&[10, 1]);
    attack(app.world_mut(), g, b, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        !mods.iter().any(|(s, _)| s.starts_with("target in")),
        "{mods:?}"
    );
    app.script_dice(&[10, 1]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(mods.contains(&("blinded".to_owned(), -6)), "{mods:?}");
    assert!(
        !mods.iter().any(|(s, _)| s.starts_with("target in")),
        "{mods:?}"
    );
    // The window's chance to hit counts the same modifiers: 3 - 6 against AC 13 needs 16+.
    let (chance, need) =
        delve_rules::rules::combat::attack::chance_to_hit(app.world(), b, g, 0).unwrap();
    assert_eq!((need, chance), (16, 0.25));
}

/// Tactical Combat › Armor as Damage Reduction, › Shields: "to benefit from any of these
/// effects, you must be proficient with the armor used" (and the shield): chain mail worn
/// without proficiency reduces nothing and the damage says so; a heavy shield borne without
/// proficiency makes no shield wall, and it cannot be forgone for a free hand.
#[test]
fn armor_and_shields_give_their_tactical_benefits_only_to_the_proficient() {
    let mail = r#", weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)],
        armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4, proficient: false))"#;
    let mut app = arena(mail, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[20, 6]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let damage = last_attack(&app).5.expect("a hit");
    assert_eq!(
        (damage.reduced_by, damage.unproficient_armor.as_deref()),
        (0, Some("chain mail"))
    );

    let clumsy = ", shield: Some((weight: Heavy, ac_bonus: 1, proficient: false))";
    let second = r#"(name: "Ashmaw", template: "ghoul", faction: "ghouls", at: (4, 1),
        shield: Some((weight: Heavy, ac_bonus: 1)))"#;
    let mut app = arena(clumsy, second);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[10, 3]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        !mods.iter().any(|(s, _)| s.contains("shield wall")),
        "{mods:?}"
    );
    app.act(ForgoShield {
        who: "Gnawbone".into(),
    });
    assert!(app.was_refused("Gnawbone", &CombatRefusal::NotProficientWithShield));
}

/// Tactical Combat › Firearm Misfires: a jammed firearm is cleared before it can shoot again.
/// In a battle, Wren's fighting behaviour, with nothing to strike with, clears the jam in her
/// turn (the whole round, without Gunsmithing); out of one, the party's policy has her clear
/// it as the rules offer it (a round).
#[test]
fn a_jammed_firearm_is_cleared_in_a_battle_and_after_it() {
    let cleared = CombatEvent::JamCleared {
        who: "Wren".into(),
        whole_round: true,
    };
    let mut app = arena("", GUNNER);
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    let w = app.entity("Wren");
    app.world_mut()
        .entity_mut(w)
        .insert(delve_rules::rules::combat::gear::Jammed);
    app.run(1);
    assert!(
        app.events::<CombatEvent>().contains(&cleared),
        "{}",
        app.log().to_text()
    );

    let mut quiet = Scenario::new(&["XXXXXXXX", "X......X", "XXXXXXXX"])
        .light("(at: (4, 1), kind: Custom(bright_feet: 80, dim_feet: 90), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Wren"])"#)
        .creature(GUNNER)
        .build();
    let w = quiet.entity("Wren");
    quiet
        .world_mut()
        .entity_mut(w)
        .insert(delve_rules::rules::combat::gear::Jammed);
    crate::autonomy::hand_over(
        &mut quiet,
        delve_ground::party_policy::PartyPolicy::default(),
    );
    quiet.run(3);
    assert!(
        quiet.events::<CombatEvent>().contains(&cleared),
        "{}",
        quiet.log().to_text()
    );
    assert!(
        crate::autonomy::intents(&quiet)
            .contains(&delve_minds::policy::party::Intent::ClearJam { who: "Wren".into() })
    );
}

/// Tactical Combat › Armor as Damage Reduction: a gambeson "can be worn alone as light armor or
/// layered under other armor. When layered beneath armor that grants DR vs Piercing & Slashing,
/// both DR types apply": Gnawbone in chain mail (DR 2 against slashing) over a gambeson (DR 3
/// against bludgeoning) takes Brannoc's sword's 6 as 4 and Hild's mace's 6 as 3. Only a
/// gambeson goes beneath, and only beneath armor: the level says where it is wrong.
#[test]
fn a_gambeson_layered_beneath_armor_adds_its_bludgeoning_dr() {
    let layered = r#", armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4)),
        beneath: Some((name: "gambeson", weight: Light, ac_bonus: 1))"#;
    let hild = r#"(name: "Hild", faction: "party", at: (4, 1), hp: 12, ac: 14, str: 13,
        encumbrance_stone: 5.0, attack_bonus: 3,
        weapons: [(name: "mace", damage: "1d6", damage_type: Bludgeoning)])"#;
    let mut app = arena(layered, hild);
    let (b, h, g) = (
        app.entity("Brannoc"),
        app.entity("Hild"),
        app.entity("Gnawbone"),
    );
    for (who, dr, total) in [(b, 2, 4), (h, 3, 3)] {
        app.script_dice(&[19, 6]);
        attack(app.world_mut(), who, g, 0).unwrap();
        let damage = last_attack(&app).5.expect("a hit");
        assert_eq!((damage.reduced_by, damage.total), (dr, total));
    }

    use delve_ground::level::DiagnosticKind;
    for (wrong, kind) in [
        (
            r#", armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4)),
            beneath: Some((name: "leather", weight: Light, ac_bonus: 2))"#,
            DiagnosticKind::BadValue,
        ),
        (
            r#", beneath: Some((name: "gambeson", weight: Light, ac_bonus: 1))"#,
            DiagnosticKind::Missing,
        ),
    ] {
        let scenario = Scenario::lit_corridor(15).creature(&format!(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1){wrong})"#
        ));
        // The line of the level that says `beneath`.
        let line = scenario
            .source()
            .lines()
            .position(|l| l.contains("beneath:"))
            .expect("written")
            + 1;
        let problems = scenario.try_build().err().expect("refused");
        let found: Vec<(DiagnosticKind, usize)> = problems
            .0
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.kind, d.line))
            .collect();
        assert_eq!(found, vec![(kind, line)], "{problems}");
    }
}
