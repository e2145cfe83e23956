//! Encounters and combat: faction initiative, attacks and their breakdowns, a whole battle.

use bevy::prelude::*;
use delve::command::acts::{
    ActivateEnchantment, Attack, ClearJam, Disengage, ForgoShield, Move, MoveAcrobatically,
    MoveCautiously, TotalDefense,
};
use delve::creature::{Conditions, Faction, HitPoints};
use delve::level::load_default_level;
use delve::log::EventLog;
use delve::rules::combat::CombatRefusal;
use delve::rules::combat::{AttackNote, CombatEvent};

use crate::common::hp;
use delve::rules::combat::battle::{Battle, is_down};
use delve::scenario::{Delve, Scenario};
use delve::sim::{run_round, sim_app};
use delve::time::DelveMode;

/// The party goes down to the flooded burial room and fights the ghouls to the end.
/// The party comes down the corridor from the evil door into the ghouls' flooded burial room.
fn crypt_battle(seed: u64) -> (App, String) {
    let mut level = load_default_level().unwrap().level;
    for (name, at) in [
        ("Brannoc", (33, 10)),
        ("Mirela", (33, 9)),
        ("Sera", (33, 8)),
        ("Aldric", (34, 11)),
    ] {
        let c = level.creatures.iter_mut().find(|c| c.name == name).unwrap();
        c.at = delve::grid::GridPos::new(at.0, at.1);
    }
    let mut app = sim_app(&level, seed);
    for _ in 0..400 {
        run_round(app.world_mut());
        let w = app.world_mut();
        let battle_over = w.resource::<EventLog>().entries().iter().any(|e| {
            e.get::<CombatEvent>()
                .is_some_and(|ev| matches!(ev, CombatEvent::BattleEnded))
        });
        if battle_over {
            break;
        }
    }
    let text = app.world().resource::<EventLog>().to_text();
    (app, text)
}

#[test]
fn the_party_and_the_ghouls_fight_to_the_end() {
    let (mut app, log) = crypt_battle(7);
    let (_, again) = crypt_battle(7);
    assert_eq!(log, again, "same seed, same battle");
    // The story in order: the encounter, initiative, blows, the end.
    let events: Vec<CombatEvent> = app
        .world()
        .resource::<EventLog>()
        .of::<CombatEvent>()
        .cloned()
        .collect();
    let at = |what: &str, is: &dyn Fn(&CombatEvent) -> bool| {
        events
            .iter()
            .position(is)
            .unwrap_or_else(|| panic!("no {what} in\n{log}"))
    };
    let begins = at("encounter", &|e| {
        matches!(
            e,
            CombatEvent::ModeChanged {
                mode: DelveMode::Encounter
            }
        )
    });
    let party = at(
        "party's initiative",
        &|e| matches!(e, CombatEvent::Initiative { roll } if roll.name == "party"),
    );
    let ghouls = at(
        "ghouls' initiative",
        &|e| matches!(e, CombatEvent::Initiative { roll } if roll.name == "ghouls"),
    );
    let order = at("acting order", &|e| {
        matches!(e, CombatEvent::ActingOrder { .. })
    });
    let first_blow = at("attack", &|e| matches!(e, CombatEvent::Attacked { .. }));
    let ends = at("end", &|e| matches!(e, CombatEvent::BattleEnded));
    let exploring = at("exploration", &|e| {
        matches!(
            e,
            CombatEvent::ModeChanged {
                mode: DelveMode::Exploration
            }
        )
    });
    assert!(
        begins < party
            && party < order
            && ghouls < order
            && order < first_blow
            && first_blow < ends
            && ends <= exploring
    );
    // One side is down: every creature of one of the two factions is dying or dead.
    let w = app.world_mut();
    let mut q = w.query::<(&Name, &Faction, &Conditions, &HitPoints)>();
    let mut down = [0, 0];
    let mut total = [0, 0];
    for (_, f, c, hp) in q.iter(w) {
        if f.0 > 1 {
            continue;
        }
        total[f.0] += 1;
        if is_down(c) {
            down[f.0] += 1;
            assert!(hp.current <= 0);
        }
    }
    assert!(
        down[0] == total[0] || down[1] == total[1],
        "{down:?} of {total:?}\n{log}"
    );
    assert_eq!(*w.resource::<DelveMode>(), DelveMode::Exploration);
    assert!(!w.resource::<Battle>().active);
}

use delve::level::schema::ConditionKind;
use delve::rules::combat::AttackRefusal;
use delve::rules::combat::battle::{Damage, attack};
use delve::rules::combat::initiative::FactionRoll;
use delve::rules::damage::take_damage;
use delve::rules::tactical::TacticalCombat;

/// A lit corridor: Brannoc (attack +3, a sword, chain mail: medium armor, DR 2) next to a ghoul
/// (AC 13, 9 hp, claws); `ghoul` and `more` add fields and creatures.
pub(crate) fn arena(ghoul: &str, more: &str) -> Delve {
    let mut scenario = Scenario::lit_corridor(15)
        .creature(
            r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16, str: 16,
                encumbrance_stone: 6.0, attack_bonus: 3,
                weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)],
                armor: Some((name: "chain mail", weight: Medium, ac_bonus: 4)))"#,
        )
        .creature(&format!(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1){ghoul})"#
        ));
    if !more.is_empty() {
        scenario = scenario.creature(more.trim().trim_end_matches(','));
    }
    scenario.build()
}

/// The last attack in the log: its throw's natural, modifiers by source, total and target, and
/// its damage.
pub(crate) type SeenAttack = (u32, Vec<(String, i32)>, i32, i32, bool, Option<Damage>);

pub(crate) fn last_attack(app: &App) -> SeenAttack {
    app.world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.get::<CombatEvent>()? {
            CombatEvent::Attacked { throw, damage, .. } => Some((
                throw.natural,
                throw
                    .modifiers
                    .iter()
                    .map(|m| (m.source.clone(), m.value))
                    .collect(),
                throw.total,
                throw.target,
                throw.success,
                damage.clone().map(|d| *d),
            )),
            _ => None,
        })
        .expect("an attack")
}

/// The note of the last attack: a natural 1, a misfire, a sacrificed shield.
pub(crate) fn last_note(app: &Delve) -> Option<AttackNote> {
    app.events::<CombatEvent>()
        .into_iter()
        .rev()
        .find_map(|e| match e {
            CombatEvent::Attacked { note, .. } => Some(note),
            _ => None,
        })
        .flatten()
}

fn has(app: &Delve, name: &str, c: ConditionKind) -> bool {
    app.get::<Conditions>(name).unwrap().has(c)
}

/// d20 + attack bonus ≥ AC; the weapon's dice for damage; below half: bloodied.
#[test]
fn an_attack_hits_by_d20_plus_bonus_against_ac_and_deals_its_dice() {
    let mut app = arena("", "");
    app.script_dice(&[10, 6]);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    attack(app.world_mut(), b, g, 0).unwrap();
    let (natural, mods, total, target, hit, damage) = last_attack(&app);
    assert_eq!((natural, total, target, hit), (10, 13, 13, true));
    assert_eq!(mods, vec![("attack bonus".to_owned(), 3)]);
    assert_eq!(damage.unwrap().total, 6);
    assert_eq!(hp(&app, "Gnawbone"), 3);
    assert!(has(&app, "Gnawbone", ConditionKind::Bloodied));
    // 9 misses by one.
    app.script_dice(&[9]);
    attack(app.world_mut(), b, g, 0).unwrap();
    assert!(!last_attack(&app).4);
}

/// Armor as DR: chain mail (medium) takes 2 from a slashing claw.
#[test]
fn medium_armor_reduces_slashing_damage_by_two() {
    let mut app = arena("", "");
    app.script_dice(&[18, 3]);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    attack(app.world_mut(), g, b, 0).unwrap();
    let d = last_attack(&app).5.unwrap();
    assert_eq!((d.dice.clone(), d.reduced_by, d.total), (vec![3], 2, 1));
    assert_eq!(hp(&app, "Brannoc"), 17);
    // With the rule off, all 3 land.
    app.world_mut()
        .resource_mut::<TacticalCombat>()
        .armor_as_damage_reduction = false;
    app.script_dice(&[18, 3]);
    attack(app.world_mut(), g, b, 0).unwrap();
    assert_eq!(hp(&app, "Brannoc"), 14);
}

/// Natural 20: +10, a threat; confirmed, the critical is the base die at its maximum plus the
/// rolled extra die (a sword ×2: 8 + 1d8).
#[test]
fn a_confirmed_natural_20_is_a_critical_at_maximum_plus_a_rolled_die() {
    let mut app = arena(", hp: 40", "");
    app.script_dice(&[20, 12, 5]);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    attack(app.world_mut(), b, g, 0).unwrap();
    let (_, mods, total, ..) = last_attack(&app);
    assert!(mods.contains(&("natural 20".to_owned(), 10)));
    assert_eq!(total, 33);
    let d = last_attack(&app).5.unwrap();
    assert!(d.critical);
    assert_eq!((d.dice.clone(), d.total), (vec![5], 13));
    // Unconfirmed (the second throw misses): a normal hit.
    app.script_dice(&[20, 2, 4]);
    attack(app.world_mut(), b, g, 0).unwrap();
    let d = last_attack(&app).5.unwrap();
    assert!(!d.critical);
    assert_eq!(d.total, 4);
}

/// Natural 1 on an attack roll always misses, whatever the total.
#[test]
fn a_natural_1_misses_even_an_easy_target() {
    let mut app = arena(", ac: 2", "");
    app.script_dice(&[1]);
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    attack(app.world_mut(), b, g, 0).unwrap();
    let (natural, _, total, target, hit, _) = last_attack(&app);
    assert_eq!(natural, 1);
    assert!(total >= target && !hit);
}

/// Before its faction acts, a creature is flat-footed (no Dexterity bonus) only against a
/// faction that beat its result by 5 or more.
#[test]
fn flat_footed_only_against_a_faction_five_ahead() {
    for (party, ghouls, flat) in [(20, 15, true), (19, 15, false)] {
        let mut app = arena(", dex: 16", "");
        let roll = |faction: usize, name: &str, result: i32| FactionRoll {
            faction,
            name: name.into(),
            members: Vec::new(),
            modifier: 0,
            roll: result as u32,
            result,
            roll_offs: Vec::new(),
        };
        *app.world_mut().resource_mut::<Battle>() = Battle {
            active: true,
            began: 0,
            order: vec![roll(0, "party", party), roll(1, "ghouls", ghouls)],
            acted: Vec::new(),
            acting: Some(0),
            struck_first: Vec::new(),
            surprised: Vec::new(),
        };
        app.script_dice(&[10, 1]);
        let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
        attack(app.world_mut(), b, g, 0).unwrap();
        let mods = last_attack(&app).1;
        let flat_footed = mods.contains(&("Gnawbone flat-footed (no Dex bonus)".to_owned(), 3));
        assert_eq!(
            flat_footed, flat,
            "party {party} against ghouls {ghouls}: {mods:?}"
        );
    }
}

/// Massive trauma: one blow of half the total hit points (at least 25) calls for a DC 10
/// Fortitude save; failed, 0 hit points and staggered, not dying (RULINGS › Conditions …); any
/// more damage makes it dying. Several smaller blows do not call for the save.
#[test]
fn massive_trauma_at_exactly_half_and_not_for_smaller_blows() {
    let mut app = arena(", hp: 60", "");
    let g = app.entity("Gnawbone");
    take_damage(app.world_mut(), g, 20);
    take_damage(app.world_mut(), g, 20);
    assert!(
        !app.throws().iter().any(|t| t.what.starts_with("Fortitude")),
        "below half its hit points: no save"
    );
    assert_eq!(hp(&app, "Gnawbone"), 20);

    let mut app = arena(", hp: 60", "");
    let g = app.entity("Gnawbone");
    app.script_dice(&[5]);
    take_damage(app.world_mut(), g, 30);
    let save = app.throws().pop().expect("the Fortitude save");
    assert!(
        save.what
            .starts_with("Fortitude save against massive trauma")
    );
    assert_eq!((save.natural, save.success), (5, false));
    assert_eq!(hp(&app, "Gnawbone"), 0);
    assert!(has(&app, "Gnawbone", ConditionKind::Staggered));
    assert!(
        !has(&app, "Gnawbone", ConditionKind::Dying),
        "staggered, not dying (Tactical Combat › Massive Trauma)"
    );
    // Any further damage makes it dying.
    take_damage(app.world_mut(), g, 1);
    assert!(has(&app, "Gnawbone", ConditionKind::Dying));
    assert!(!has(&app, "Gnawbone", ConditionKind::Staggered));

    // Massive damage: half and at least 50, DC 15 or death; mythic creatures are immune.
    let mut app = arena(", hp: 100", "");
    let g = app.entity("Gnawbone");
    app.script_dice(&[5]);
    take_damage(app.world_mut(), g, 50);
    assert!(has(&app, "Gnawbone", ConditionKind::Dead));
    let mut app = arena(", hp: 100, mythic: Some(true)", "");
    let g = app.entity("Gnawbone");
    take_damage(app.world_mut(), g, 50);
    assert!(!has(&app, "Gnawbone", ConditionKind::Dead));
    assert_eq!(hp(&app, "Gnawbone"), 50);
}

/// At 0 hit points a creature is dying and out of the fight; more damage kills it.
#[test]
fn dying_at_zero_and_dead_on_more_damage() {
    let mut app = arena("", "");
    let g = app.entity("Gnawbone");
    take_damage(app.world_mut(), g, 9);
    assert!(has(&app, "Gnawbone", ConditionKind::Dying));
    let b = app.entity("Brannoc");
    assert!(attack(app.world_mut(), b, g, 0).is_err(), "it is down");
    take_damage(app.world_mut(), g, 1);
    assert!(has(&app, "Gnawbone", ConditionKind::Dead));
}

/// Missiles: range increments beyond the first cost −2 each; no line through another creature.
#[test]
fn missiles_take_range_penalties_and_need_a_free_path() {
    let slinger = r#"(name: "Wren", faction: "party", at: (1, 1), hp: 6, ac: 12,
        encumbrance_stone: 2.0,
        weapons: [(name: "sling", damage: "1d4", damage_type: Bludgeoning, range_feet: 20)])"#;
    let mut app = arena("", slinger);
    let (w, g) = (app.entity("Wren"), app.entity("Gnawbone"));
    // Brannoc stands between Wren (1, 1) and the ghoul (3, 1).
    assert_eq!(
        attack(app.world_mut(), w, g, 0),
        Err(AttackRefusal::InTheWay {
            target: "Gnawbone".into()
        })
    );
    // The ghoul steps to (14, 1), 65' off: the fourth increment of 20', −6.
    let put = |app: &mut App, who: Entity, x: i32| {
        app.world_mut()
            .entity_mut(who)
            .insert(delve::creature::Position(delve::grid::GridPos::new(x, 1)));
    };
    let b = app.entity("Brannoc");
    put(&mut app, g, 14);
    put(&mut app, b, 8);
    assert_eq!(
        attack(app.world_mut(), w, g, 0),
        Err(AttackRefusal::InTheWay {
            target: "Gnawbone".into()
        })
    );
    put(&mut app, b, 15);
    app.script_dice(&[19, 2]);
    attack(app.world_mut(), w, g, 0).unwrap();
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("range increment 4".to_owned(), -6)),
        "{mods:?}"
    );
}

/// Brannoc, under the player's control, in a battle with the ghoul next to him: initiative 11
/// and 9, neither side surprised (6s).
pub(crate) fn engaged(ghoul: &str) -> Delve {
    let mut app = arena(ghoul, "");
    let b = app.entity("Brannoc");
    app.world_mut()
        .entity_mut(b)
        .insert(delve::rules::combat::battle::Controlled);
    app.script_dice(&[11, 9, 6, 6]);
    run_round(app.world_mut());
    assert!(app.world().resource::<Battle>().active);
    app
}

/// The attacks of opportunity in the log: (attacker, modifiers).
pub(crate) fn opportunities(app: &App) -> Vec<(String, Vec<(String, i32)>)> {
    app.world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .filter_map(|e| match e.get::<CombatEvent>()? {
            CombatEvent::Attacked { who, throw, .. }
                if throw.what.contains("attack of opportunity") =>
            {
                Some((
                    who.clone(),
                    throw
                        .modifiers
                        .iter()
                        .map(|m| (m.source.clone(), m.value))
                        .collect(),
                ))
            }
            _ => None,
        })
        .collect()
}

fn give_now(app: &mut App, c: delve::command::Command) {
    delve::sim::give(app.world_mut(), c);
    run_round(app.world_mut());
}

/// Stepping away from a hostile creature provokes its attack of opportunity; moving cautiously
/// (half speed) does not, unless it has Combat Reflexes, and then at −4.
#[test]
fn moving_away_provokes_and_cautious_movement_does_not() {
    let away = |cautious: bool| {
        if cautious {
            delve::command::Command::MoveCautiously(MoveCautiously {
                who: "Brannoc".into(),
                to: (1, 1),
            })
        } else {
            delve::command::Command::Move(Move {
                who: "Brannoc".into(),
                to: (1, 1),
                pace: delve::rules::movement::Pace::Combat,
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

/// Disengaging from a creature makes the first 5' away from it safe.
#[test]
fn disengaging_makes_the_first_step_safe() {
    // Brannoc disengages from the ghoul, then steps away as told.
    let disengaged_then = |step: delve::command::Command| {
        let mut app = engaged("");
        delve::sim::give(
            app.world_mut(),
            delve::command::Command::Disengage(Disengage {
                who: "Brannoc".into(),
                from: "Gnawbone".into(),
            }),
        );
        give_now(&mut app, step);
        app
    };
    let app = disengaged_then(delve::command::Command::Move(Move {
        who: "Brannoc".into(),
        to: (1, 1),
        pace: delve::rules::movement::Pace::Combat,
    }));
    assert!(opportunities(&app).is_empty());
    // Disengaging does not combine with cautious movement.
    let app = disengaged_then(delve::command::Command::MoveCautiously(MoveCautiously {
        who: "Brannoc".into(),
        to: (1, 1),
    }));
    // The cautious walk is an order that stands, given at once; the disengage, a swift action,
    // waits for the party's turn and meets it.
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve::command::was_refused(
            app.world().resource::<EventLog>(),
            "Brannoc",
            &CombatRefusal::CautiousCannotDisengage
        ),
        "{log}"
    );
}

pub(crate) const GUNNER: &str = r#"(name: "Wren", faction: "party", at: (1, 1), hp: 6, ac: 12,
    encumbrance_stone: 2.0,
    weapons: [(name: "pistol", damage: "1d8", damage_type: Piercing, range_feet: 20,
               kind: Some(Firearm(misfire: 2, advanced: true)))])"#;

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
        .insert(delve::creature::Position(delve::grid::GridPos::new(9, 1)));
    app.world_mut()
        .entity_mut(g)
        .insert(delve::creature::Position(delve::grid::GridPos::new(3, 1)));
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
        delve::command::Command::ClearJam(ClearJam { who: "Wren".into() }),
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
    assert!(delve::rules::combat::battle::can_attack(app.world(), w, g, 0).is_ok());
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
        .insert(delve::creature::Position(delve::grid::GridPos::new(5, 1)));
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
        delve::command::Command::ForgoShield(ForgoShield {
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
        .get::<delve::rules::combat::battle::ShieldState>(g)
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
    let at = app.world().get::<delve::creature::Position>(g).unwrap().0;
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
            .insert(delve::rules::combat::battle::Controlled);
        // Initiative 11 and 9, neither side surprised.
        app.script_dice(&[11, 9, 6, 6]);
        run_round(app.world_mut());
        app.script_dice(&[die]);
        give_now(
            &mut app,
            delve::command::Command::MoveAcrobatically(MoveAcrobatically {
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
        delve::sim::give(
            app.world_mut(),
            delve::command::Command::TotalDefense(TotalDefense { who: who.into() }),
        );
    }
    delve::command::dispatch_commands(app.world_mut());
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
    use delve::rules::combat::battle::activation_is_a_move_action;
    assert!(activation_is_a_move_action(1, true));
    assert!(!activation_is_a_move_action(0, true));
    assert!(!activation_is_a_move_action(3, false));

    let flaming = r#", weapons: [(name: "claw", damage: "1d3", damage_type: Slashing,
        enchantment: Some((name: "flaming", damage: "1d6")))]"#;
    let mut app = engaged(flaming);
    give_now(
        &mut app,
        delve::command::Command::ActivateEnchantment(ActivateEnchantment {
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
    let round = app.world().resource::<delve::time::Clock>().rounds - 1;
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
        .insert(delve::rules::combat::battle::Controlled);
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
    let (chance, need) = delve::rules::combat::battle::chance_to_hit(app.world(), b, g, 0).unwrap();
    assert_eq!((need, chance), (16, 0.25));
}

/// What moved and who attacked, in log order: (round, who, what).
pub(crate) fn moves_and_blows(app: &Delve) -> Vec<(u64, String, &'static str)> {
    app.log()
        .entries()
        .iter()
        .filter_map(|e| {
            if let Some(delve::rules::movement::MovementEvent::Moved { who, .. }) = e.get() {
                Some((e.round, who.clone(), "moves"))
            } else if let Some(CombatEvent::Attacked { who, .. }) = e.get() {
                Some((e.round, who.clone(), "attacks"))
            } else {
                None
            }
        })
        .collect()
}

/// A lit corridor with Ada (party; 2 stone: 40' a round at combat speed, 120' running) and the
/// ghoul Gnawbone; `ada` and `ghoul` add fields.
pub(crate) fn duel(ada_x: i32, ada: &str, ghoul_x: i32, ghoul: &str) -> Delve {
    Scenario::lit_corridor(15)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: ({ada_x}, 1), hp: 30, ac: 12,
                encumbrance_stone: 2.0, attack_bonus: 2{ada})"#
        ))
        .creature(&format!(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: ({ghoul_x}, 1), hp: 30{ghoul})"#
        ))
        .build()
}

/// The factions of the battle, in acting order.
fn acting_order(app: &Delve) -> Vec<usize> {
    let battle = app.world().resource::<Battle>();
    battle.order.iter().map(|f| f.faction).collect()
}

pub(crate) const SWORD: &str =
    r#", weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]"#;
const SWORD_AND_SLING: &str = r#", weapons: [(name: "sword", damage: "1d8", damage_type: Slashing),
    (name: "sling", damage: "1d4", damage_type: Bludgeoning, range_feet: 50)]"#;

/// Orders the named creature's player gives (the fighting behaviour leaves it alone).
pub(crate) fn control(app: &mut Delve, name: &str) {
    let e = app.entity(name);
    app.world_mut()
        .entity_mut(e)
        .insert(delve::rules::combat::battle::Controlled);
}

/// RULINGS › The battle round: each faction moves and attacks before the next faction moves,
/// and orders given to the AI take effect in the faction's own turn. The party acts first: Ada
/// closes in on the ghoul in the party's turn; in the ghouls' turn of the same round the ghoul,
/// finding her beside it, attacks her where she now stands.
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
    assert_eq!(app.at("Ada"), delve::grid::GridPos::new(7, 1));
    assert_eq!(
        app.at("Gnawbone"),
        delve::grid::GridPos::new(8, 1),
        "it never moved"
    );
}

/// Dungeon Delves › Running speed: a runner is disordered until its next initiative; RULINGS ›
/// The battle round: until the start of its faction's next turn. The ghouls act first: Ada runs
/// up to the ghoul in the party's turn; in the next round the ghoul, acting before her faction,
/// attacks her still disordered (−2 AC); the party's turn ends it.
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
        pace: delve::rules::movement::Pace::Running,
    });
    assert!(
        has(&app, "Ada", ConditionKind::Disordered),
        "{}",
        app.log().to_text()
    );
    app.act(delve::command::acts::Attack {
        who: "Gnawbone".into(),
        target: "Ada".into(),
        weapon: None,
    });
    let mods = last_attack(&app).1;
    assert!(
        mods.contains(&("Ada disordered (-2 AC)".to_owned(), 2)),
        "still disordered before the party's turn: {mods:?}"
    );
    assert!(
        !has(&app, "Ada", ConditionKind::Disordered),
        "the party's turn began"
    );
    app.run(1);
    let mods = last_attack(&app).1;
    assert!(
        !mods.contains(&("Ada disordered (-2 AC)".to_owned(), 2)),
        "{mods:?}"
    );
}

/// Tactical Combat › Shields; RULINGS › The battle round: a forgone shield returns at the start of
/// its bearer's faction's next turn. The ghouls act first: Gnawbone forgoes its shield; Ada
/// attacks it without its shield in that round, and with it the next (its turn came first).
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
    app.act(delve::command::acts::Attack {
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
        "its faction's turn came: {mods:?}"
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
    app.give(delve::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: Some("sling".into()),
    });
    app.act(Move {
        who: "Ada".into(),
        to: (1, 1),
        pace: delve::rules::movement::Pace::Combat,
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
    assert_eq!(app.at("Ada"), delve::grid::GridPos::new(4, 1), "15' of 30'");
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
    delve::rules::conditions::gain_condition_in(
        app.world_mut(),
        ada,
        ConditionKind::Staggered,
        "massive trauma",
        delve::rules::conditions::ConditionEnd::UntilRemoved,
    );
    // Moving next to the ghoul, then attacking: the attack is refused.
    app.give(Move {
        who: "Ada".into(),
        to: (2, 1),
        pace: delve::rules::movement::Pace::Combat,
    });
    app.act(delve::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    assert_eq!(app.at("Ada"), delve::grid::GridPos::new(2, 1));
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
    app.give(delve::command::acts::Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    app.act(Move {
        who: "Ada".into(),
        to: (1, 1),
        pace: delve::rules::movement::Pace::Combat,
    });
    let last = moves_and_blows(&app).pop().unwrap();
    assert_eq!((last.1.as_str(), last.2), ("Ada", "attacks"));
    assert_eq!(app.at("Ada"), delve::grid::GridPos::new(2, 1));
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
        delve::command::Command::Move(Move {
            who: "Brannoc".into(),
            to: (1, 1),
            pace: delve::rules::movement::Pace::Combat,
        }),
    );
    assert_eq!(app.at("Brannoc"), delve::grid::GridPos::new(1, 1));
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
            delve::rules::conditions::gain_condition_in(
                app.world_mut(),
                g,
                ConditionKind::Bloodied,
                "a test",
                delve::rules::conditions::ConditionEnd::UntilRemoved,
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
    let beside = |p: delve::grid::GridPos, q: delve::grid::GridPos| {
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

/// The surprise events of the log.
fn surprises(app: &Delve) -> Vec<CombatEvent> {
    app.events::<CombatEvent>()
        .into_iter()
        .filter(|e| {
            matches!(
                e,
                CombatEvent::Surprise { .. }
                    | CombatEvent::Forewarned { .. }
                    | CombatEvent::SurpriseCancelled { .. }
            )
        })
        .collect()
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
    // It does nothing in the round it lost: its order is refused, and the log says its turn was.
    assert!(delve::command::was_refused(
        app.log(),
        "Gnawbone",
        &delve::rules::acting::Hold::Surprised
    ));
    assert!(
        app.events::<CombatEvent>()
            .contains(&CombatEvent::TurnLost {
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
    let party = delve::policy::outcome::tally(app.world_mut(), &[ada], 0, 0);
    assert!(party.surprised_by.is_empty());
    let ghouls = delve::policy::outcome::tally(app.world_mut(), &[ghoul], 0, 0);
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
    app.world_mut().resource_mut::<delve::log::EventLog>().push(
        0,
        delve::rules::sound::HearingEvent::Heard {
            who: "Gnawbone".into(),
            sound: delve::rules::sound::SoundRow::Normal,
            noise: delve::rules::sound::NoiseKind::Action(
                delve::rules::sound::NoisyAction::Talking,
            ),
            made_by: Some("Ada".into()),
            what: "Ada talking".into(),
            roughly_at: delve::grid::GridPos::new(6, 1),
            how: delve::rules::sound::HowHeard::Automatically,
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
