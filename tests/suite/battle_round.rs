//! The battle round (RULINGS › The battle round, › Surprise): factions' turns, disorder, forgone
//! shields, attacking before moving, staggered, vulnerable, heavy shields side by side, surprise.

use super::combat::*;
use bevy::prelude::*;
use delve_ground::level::schema::ConditionKind;
use delve_play::scenario::Scenario;
use delve_rules::command::acts::{Attack, ForgoShield, Move};
use delve_rules::rules::combat::AttackRefusal;
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::combat::attack::attack;
use delve_rules::rules::combat::battle::Battle;
use delve_rules::rules::damage::take_damage;
use delve_rules::rules::tactical::TacticalCombat;

/// RULINGS › The battle round: each faction moves and attacks before the next faction moves, and
/// orders given to the AI take effect in the faction's own turn. The party acts first: Ada closes
/// in on the ghoul in the party's initiative; in the ghouls' initiative of the same round the
/// ghoul, finding her beside it, attacks her where she now stands.
#[test]
fn each_faction_moves_and_attacks_before_the_next_moves() {
    let mut app = duel(1, &format!("{SWORD}, initiative_modifier: 20"), 8, "");
    // Initiative 11 and 9; neither side surprised (6s).
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    assert!(app.world().resource::<Battle>().active);
    assert_eq!(acting_order(&app), vec![0, 1], "party, then ghouls");
    app.run(2);
    let seen = moves_and_blows(&app);
    assert_eq!(
        seen,
        vec![
            (1, "Ada".into(), "moves"),
            (1, "Gnawbone".into(), "attacks"),
            (2, "Ada".into(), "attacks"),
            (2, "Gnawbone".into(), "attacks"),
        ],
        "{}",
        app.log().to_text()
    );
    assert_eq!(app.at("Ada"), delve_ground::grid::GridPos::new(7, 1));
    assert_eq!(
        app.at("Gnawbone"),
        delve_ground::grid::GridPos::new(8, 1),
        "it never moved"
    );
}

/// Dungeon Delves › Running speed: a runner is disordered until its next initiative; RULINGS › The
/// battle round: until the start of its faction's next initiative. The ghouls act first: Ada runs
/// up to the ghoul in the party's initiative; in the next round the ghoul, acting before her
/// faction, attacks her still disordered (−2 AC); the party's initiative ends it.
#[test]
fn disordered_until_the_runners_faction_acts_again() {
    let mut app = duel(
        1,
        &format!("{SWORD}, saves: {{ Paralysis: 14 }}"),
        8,
        ", initiative_modifier: 20",
    );
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.run(1);
    assert_eq!(acting_order(&app), vec![1, 0], "ghouls, then party");
    app.act(Move {
        who: "Ada".into(),
        to: (7, 1),
        pace: delve_rules::rules::movement::Pace::Running,
    });
    assert!(
        has(&app, "Ada", ConditionKind::Disordered),
        "{}",
        app.log().to_text()
    );
    app.act(delve_rules::command::acts::Attack {
        who: "Gnawbone".into(),
        target: "Ada".into(),
        weapon: None,
    });
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Ada disordered (-2 AC)".to_owned(), 2)),
        "still disordered before the party's initiative: {mods:?}"
    );
    assert!(
        !has(&app, "Ada", ConditionKind::Disordered),
        "the party's initiative began"
    );
    app.run(1);
    let mods = last_attack(&app).1;
    assert!(
        !mods.contains(&("Ada disordered (-2 AC)".to_owned(), 2)),
        "{mods:?}"
    );
}

/// Tactical Combat › Shields; RULINGS › The battle round: a forgone shield returns at the start of
/// its bearer's faction's next initiative. The ghouls act first: Gnawbone forgoes its shield; Ada
/// attacks it without its shield in that round, and with it the next (its initiative came first).
#[test]
fn a_forgone_shield_returns_at_the_start_of_its_bearers_next_turn() {
    let mut app = duel(
        1,
        SWORD,
        2,
        ", initiative_modifier: 20, shield: Some((weight: Heavy, ac_bonus: 1))",
    );
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    // Initiative 11 and 9, neither side surprised.
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    app.give(ForgoShield {
        who: "Gnawbone".into(),
    });
    app.act(delve_rules::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: Some("sword".into()),
    });
    let forgone = ("Gnawbone without its shield (forgone)".to_owned(), 1);
    assert!(last_attack(&app).1.contains(&forgone));
    app.run(1);
    let mods = last_attack(&app).1;
    assert!(
        !mods.contains(&forgone),
        "its faction's initiative came: {mods:?}"
    );
}

/// Situational Penalties › Penalty to ranged attacks from movement: "if the character performs
/// the ranged attack first, then moves, they can only move within their reach" (15'). Ada, told
/// to shoot and to walk 30' away, shoots first (no movement penalty) and moves 15'.
#[test]
fn one_that_attacks_first_moves_only_within_reach() {
    let mut app = duel(
        7,
        &format!("{SWORD_AND_SLING}, initiative_modifier: 20"),
        12,
        "",
    );
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.run(1);
    app.script_dice(&[5]);
    app.give(delve_rules::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: Some("sling".into()),
    });
    app.act(Move {
        who: "Ada".into(),
        to: (1, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    let seen = moves_and_blows(&app);
    assert_eq!(
        seen[seen.len() - 2..],
        [(1, "Ada".into(), "attacks"), (1, "Ada".into(), "moves")]
    );
    let mods = last_attack(&app).1;
    assert_eq!(
        mods,
        vec![("attack bonus".to_owned(), 2)],
        "no penalty from movement: it had not moved"
    );
    assert_eq!(
        app.at("Ada"),
        delve_ground::grid::GridPos::new(4, 1),
        "15' of 30'"
    );
}

/// RULINGS › Conditions …: staggered, a creature may move or attack in a round, not both. Having
/// moved, its attack is refused; having attacked first, it does not move.
#[test]
fn staggered_may_move_or_attack_not_both() {
    let mut app = duel(1, SWORD, 3, ", initiative_modifier: 20");
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.run(1);
    let ada = app.entity("Ada");
    delve_rules::rules::conditions::gain_condition_in(
        app.world_mut(),
        ada,
        ConditionKind::Staggered,
        "massive trauma",
        delve_rules::creature::ConditionEnd::UntilRemoved,
    );
    // Moving next to the ghoul, then attacking: the attack is refused.
    app.give(Move {
        who: "Ada".into(),
        to: (2, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    app.act(delve_rules::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    assert_eq!(app.at("Ada"), delve_ground::grid::GridPos::new(2, 1));
    assert!(
        app.events::<CombatEvent>().iter().any(|e| matches!(
            e,
            CombatEvent::AttackOrderLapsed { who, reason, .. }
                if who == "Ada" && reason.is(&AttackRefusal::StaggeredMoved)
        )),
        "{}",
        app.log().to_text()
    );
    assert!(
        !moves_and_blows(&app)
            .iter()
            .any(|(_, w, what)| w == "Ada" && *what == "attacks")
    );
    // Attacking first, then told to walk away: it attacks and stays.
    app.give(delve_rules::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    app.act(Move {
        who: "Ada".into(),
        to: (1, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    let last = moves_and_blows(&app).pop().unwrap();
    assert_eq!((last.1.as_str(), last.2), ("Ada", "attacks"));
    assert_eq!(app.at("Ada"), delve_ground::grid::GridPos::new(2, 1));
}

/// RULINGS › Conditions …: attack throws against a vulnerable creature gain +2, and a vulnerable
/// creature makes no attacks of opportunity.
#[test]
fn the_vulnerable_are_easier_to_hit_and_make_no_attacks_of_opportunity() {
    let mut app = engaged(", conditions: [Vulnerable]");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.script_dice(&[10, 1]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Gnawbone vulnerable".to_owned(), 2)),
        "{mods:?}"
    );
    // Brannoc steps away from the vulnerable ghoul: no attack of opportunity.
    let before = opportunities(&app).len();
    give_now(
        &mut app,
        delve_rules::command::Command::Move(Move {
            who: "Brannoc".into(),
            to: (1, 1),
            pace: delve_rules::rules::movement::Pace::Combat,
        }),
    );
    assert_eq!(app.at("Brannoc"), delve_ground::grid::GridPos::new(1, 1));
    assert_eq!(opportunities(&app).len(), before, "{}", app.log().to_text());
}

/// RULINGS › Dice and throws: the Fortitude save of massive trauma is a saving throw like any
/// other: a natural 20 adds +10 only with the tactical rule on, and bloodied takes −2.
#[test]
fn the_fortitude_save_takes_the_tactical_switches() {
    let fortitude = |natural_20_and_1: bool, bloodied: bool| {
        let mut app = arena(", hp: 60, fortitude: -15", "");
        let g = app.entity("Gnawbone");
        app.world_mut()
            .resource_mut::<TacticalCombat>()
            .natural_20_and_1 = natural_20_and_1;
        if bloodied {
            delve_rules::rules::conditions::gain_condition_in(
                app.world_mut(),
                g,
                ConditionKind::Bloodied,
                "a test",
                delve_rules::creature::ConditionEnd::UntilRemoved,
            );
        }
        app.script_dice(&[20]);
        take_damage(app.world_mut(), g, 30);
        app.throws()
            .into_iter()
            .find(|t| t.what.starts_with("Fortitude"))
            .unwrap()
    };
    let on = fortitude(true, false);
    assert_eq!((on.total, on.success), (15, true), "20 + 10 − 15 ≥ 10");
    let off = fortitude(false, false);
    assert_eq!((off.total, off.success), (5, false), "20 − 15 < 10");
    let bloodied = fortitude(true, true);
    assert_eq!(bloodied.total, 13, "bloodied: −2");
}

/// Tactical Combat › Shields: two heavy-shield bearers fighting by themselves close in side by
/// side, so that each stands in a shield wall (+1 for the companion beside it), and the ghoul's
/// blows against them take it.
#[test]
fn heavy_shields_close_in_side_by_side() {
    let fighter = |name: &str, y: i32| {
        format!(
            r#"(name: "{name}", faction: "party", at: (1, {y}), hp: 30, ac: 14,
                encumbrance_stone: 2.0, attack_bonus: 2, shield: Some((weight: Heavy, ac_bonus: 1)),
                weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#
        )
    };
    let mut app = Scenario::new(&[
        "XXXXXXXXXX",
        "X........X",
        "X........X",
        "X........X",
        "X........X",
        "X........X",
        "XXXXXXXXXX",
    ])
    .light("(at: (4, 3), kind: Custom(bright_feet: 80, dim_feet: 90), lit: true)")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    .creature(&fighter("Brannoc", 1))
    .creature(&fighter("Mirela", 5))
    .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (7, 3), hp: 60)"#)
    .build();
    app.run(4);
    let (b, m) = (app.at("Brannoc"), app.at("Mirela"));
    let g = app.at("Gnawbone");
    let beside = |p: delve_ground::grid::GridPos, q: delve_ground::grid::GridPos| {
        p.x.abs_diff(q.x).max(p.y.abs_diff(q.y)) == 1
    };
    assert!(
        beside(b, g) && beside(m, g),
        "both at the ghoul: {b} {m} {g}"
    );
    assert!(
        beside(b, m),
        "side by side: {b} {m}\n{}",
        app.log().to_text()
    );
    let walled = app.log().entries().iter().any(|e| {
        matches!(e.get::<CombatEvent>(), Some(CombatEvent::Attacked { who, throw, .. })
            if who == "Gnawbone"
                && throw.modifiers.iter().any(|m| m.source.ends_with("in a shield wall") && m.value == -1))
    });
    assert!(walled, "{}", app.log().to_text());
}

/// RULINGS › Surprise: as the battle begins each side throws 1d6, surprised on 1–2; the
/// surprised ghouls do nothing in the battle's first round and are flat-footed to every attack
/// in it (Gnawbone, DEX 16, loses its Dex bonus to AC); in the second round they act.
#[test]
fn a_surprised_faction_loses_the_first_round_and_is_flat_footed() {
    let mut app = duel(6, SWORD, 7, ", dex: 16");
    // Initiative 11 and 9; the party's surprise die a 6, the ghouls' a 1.
    app.script_dice(&[11, 9, 6, 1]);
    app.run(1);
    let s = surprises(&app);
    assert!(
        matches!(&s[1], CombatEvent::Surprise { faction, d6: 1, surprised: true, .. } if faction == "ghouls"),
        "{s:?}"
    );
    assert!(matches!(
        &s[0],
        CombatEvent::Surprise {
            d6: 6,
            surprised: false,
            ..
        }
    ));
    control(&mut app, "Gnawbone");
    let gnawbone_attacks = Attack {
        who: "Gnawbone".into(),
        target: "Ada".into(),
        weapon: None,
    };
    app.give(gnawbone_attacks.clone());
    app.give(Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    control(&mut app, "Ada");
    app.script_dice(&[10, 1]);
    app.run(1);
    let blows = moves_and_blows(&app);
    assert_eq!(
        blows,
        vec![(1, "Ada".into(), "attacks")],
        "{}",
        app.log().to_text()
    );
    // It does nothing in the round it lost: its order is refused, and the log says its initiative
    // was.
    assert!(delve_rules::command::was_refused(
        app.log(),
        "Gnawbone",
        &delve_rules::rules::acting::Hold::Surprised
    ));
    assert!(
        app.events::<CombatEvent>()
            .contains(&CombatEvent::InitiativeLost {
                faction: "ghouls".into()
            })
    );
    app.give(gnawbone_attacks);
    let mods = last_attack(&app).1;
    assert!(
        mods.iter()
            .any(|(s, _)| s == "Gnawbone surprised, flat-footed (no Dex bonus)"),
        "{mods:?}"
    );
    app.run(1);
    assert!(moves_and_blows(&app).contains(&(2, "Gnawbone".into(), "attacks")));
    // The lab's tally of the party's delve: the party was not surprised; seen from the ghouls'
    // side, they were, by the party.
    let (ada, ghoul) = (app.entity("Ada"), app.entity("Gnawbone"));
    let party = delve_minds::policy::outcome::tally(app.world_mut(), &[ada], 0, 0);
    assert!(party.surprised_by.is_empty());
    let ghouls = delve_minds::policy::outcome::tally(app.world_mut(), &[ghoul], 0, 0);
    assert_eq!(ghouls.surprised_by, vec!["party".to_owned()]);
}

/// RULINGS › Surprise: both sides surprised cancel out: no one loses the first round.
#[test]
fn both_sides_surprised_cancel_out() {
    let mut app = duel(6, SWORD, 7, "");
    app.script_dice(&[11, 9, 2, 1]);
    app.run(1);
    let s = surprises(&app);
    assert!(
        matches!(s.last(), Some(CombatEvent::SurpriseCancelled { factions }) if factions.len() == 2),
        "{s:?}"
    );
    assert!(app.world().resource::<Battle>().surprised.is_empty());
}

/// RULINGS › Surprise: +2 when the enemy carries a lit light the faction can see: Ada's torch
/// gives her away, and the ghouls' 1 becomes a 3 — not surprised.
#[test]
fn the_enemys_light_seen_is_plus_2_against_surprise() {
    let mut app = duel(
        6,
        &format!("{SWORD}, carries: [(kind: Torch, lit: true)]"),
        7,
        "",
    );
    app.script_dice(&[11, 9, 6, 1]);
    app.run(1);
    let s = surprises(&app);
    match &s[1] {
        CombatEvent::Surprise {
            faction,
            modifiers,
            total,
            surprised,
            ..
        } => {
            assert_eq!(faction, "ghouls");
            assert_eq!(modifiers[0].value, 2);
            assert_eq!((*total, *surprised), (3, false));
        }
        e => panic!("{e:?}"),
    }
}

/// RULINGS › Surprise: a faction aware of the enemy the round before — it heard one of them —
/// throws no die and is not surprised.
#[test]
fn a_faction_that_heard_the_enemy_is_not_surprised() {
    let mut app = duel(6, SWORD, 7, "");
    app.world_mut()
        .resource_mut::<delve_ground::log::EventLog>()
        .push(
            0,
            delve_rules::rules::sound::HearingEvent::Heard {
                who: "Gnawbone".into(),
                sound: delve_rules::rules::sound::SoundRow::Normal,
                noise: delve_rules::rules::sound::NoiseKind::Action(
                    delve_rules::rules::sound::NoisyAction::Talking,
                ),
                made_by: Some("Ada".into()),
                what: "Ada talking".into(),
                roughly_at: delve_ground::grid::GridPos::new(6, 1),
                how: delve_rules::rules::sound::HowHeard::Automatically,
            },
        );
    app.script_dice(&[11, 9, 1]);
    app.run(1);
    let s = surprises(&app);
    assert!(
        s.contains(&CombatEvent::Forewarned {
            faction: "ghouls".into()
        }),
        "{s:?}"
    );
    assert_eq!(
        app.world().resource::<Battle>().surprised,
        vec![0],
        "the party's 1: surprised"
    );
}

/// Tactical Combat › Activating Weapon Enchantments: with a base attack bonus of 1+ and Use
/// Magic Device, "as a move action instead of as a Standard Action". Ada, told to shoot, to
/// activate her sling's flaming and to walk away, spends her move on it: she shoots (the
/// enchantment burning) and does not move at all — the 15' a missile loosed first allows does
/// not give back the move she spent (it once did: the last limit set won).
#[test]
fn an_enchantment_activated_as_a_move_action_spends_the_move() {
    let sling = r#", proficiencies: [UseMagicDevice], initiative_modifier: 20,
        weapons: [(name: "sword", damage: "1d8", damage_type: Slashing),
        (name: "sling", damage: "1d4", damage_type: Bludgeoning, range_feet: 50,
         enchantment: Some((name: "flaming", damage: "1d6")))]"#;
    let mut app = duel(7, sling, 12, "");
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.run(1);
    app.script_dice(&[15, 2, 3]);
    app.give(delve_rules::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: Some("sling".into()),
    });
    // As her player gives them in her faction's initiative: the activation, then the walk.
    for order in [
        delve_rules::command::Command::from(delve_rules::command::acts::ActivateEnchantment {
            who: "Ada".into(),
            weapon: "sling".into(),
        }),
        delve_rules::command::Command::from(Move {
            who: "Ada".into(),
            to: (1, 1),
            pace: delve_rules::rules::movement::Pace::Combat,
        }),
    ] {
        delve_rules::command::carry_out(app.world_mut(), order.act()).unwrap();
    }
    app.run(1);
    assert!(app.events::<CombatEvent>().iter().any(|e| matches!(
        e,
        CombatEvent::EnchantmentActivated {
            move_action: true,
            ..
        }
    )));
    let d = last_attack(&app).5.expect("a hit");
    assert_eq!(d.enchantment, Some(("flaming".into(), vec![3])));
    assert_eq!(
        app.at("Ada"),
        delve_ground::grid::GridPos::new(7, 1),
        "no move left"
    );
}
