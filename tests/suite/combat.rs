//! Encounters and combat: faction initiative, attacks and their breakdowns, a whole battle.

use bevy::prelude::*;
use delve_ground::level::load_default_level;
use delve_ground::log::EventLog;
use delve_rules::creature::{Conditions, Faction, HitPoints};
use delve_rules::rules::combat::{AttackNote, CombatEvent};

use crate::common::hp;
use delve_ground::time::DelveMode;
use delve_play::scenario::{Delve, Scenario};
use delve_play::sim::{run_round, sim_app};
use delve_rules::rules::combat::battle::Battle;
use delve_rules::rules::conditions::is_down;

/// The party goes down to the flooded burial room and fights the ghouls to the end.
/// The party comes down the corridor from the evil door into the ghouls' flooded burial room.
pub(crate) fn crypt_battle(seed: u64) -> (App, String) {
    let mut level = load_default_level().unwrap().level;
    for (name, at) in [
        ("Brannoc", (33, 10)),
        ("Mirela", (33, 9)),
        ("Sera", (33, 8)),
        ("Aldric", (34, 11)),
    ] {
        let c = level.creatures.iter_mut().find(|c| c.name == name).unwrap();
        c.at = delve_ground::grid::GridPos::new(at.0, at.1);
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

use delve_ground::level::schema::ConditionKind;
use delve_rules::rules::combat::AttackRefusal;
use delve_rules::rules::combat::attack::attack;
use delve_rules::rules::combat::events::Damage;
use delve_rules::rules::combat::initiative::FactionRoll;
use delve_rules::rules::damage::take_damage;
use delve_rules::rules::tactical::TacticalCombat;

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

pub(crate) fn has(app: &Delve, name: &str, c: ConditionKind) -> bool {
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

/// RULINGS › Carrying and hauling, Pits and holes: one down in a pit or shaft and one on its rim
/// do not reach each other — no blow either way (30' apart, whatever the squares); at the same
/// depth they fight as any two.
#[test]
fn one_down_a_hole_and_one_on_its_rim_do_not_reach_each_other() {
    let mut app = arena("", "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    app.world_mut()
        .entity_mut(g)
        .insert(delve_rules::creature::Below { depth_feet: 30 });
    let refused = Err(AttackRefusal::AtAnotherDepth {
        target: "Gnawbone".into(),
    });
    assert_eq!(attack(app.world_mut(), b, g, 0), refused);
    assert_eq!(
        attack(app.world_mut(), g, b, 0),
        Err(AttackRefusal::AtAnotherDepth {
            target: "Brannoc".into()
        })
    );
    app.world_mut()
        .entity_mut(b)
        .insert(delve_rules::creature::Below { depth_feet: 30 });
    app.script_dice(&[19, 2]);
    assert!(attack(app.world_mut(), b, g, 0).is_ok());
}

/// RULINGS › Knowledge: a faction's initiative names its members, so the party learns only its
/// own — the ghouls' line (Gnawbone, Ashmaw, …) is not in the party's log.
#[test]
fn the_party_learns_only_its_own_initiative() {
    use delve_ground::log::LogEvent;
    use delve_rules::rules::combat::initiative::FactionRoll;
    let roll = |name: &str, member: &str| CombatEvent::Initiative {
        roll: FactionRoll {
            faction: 0,
            name: name.into(),
            members: vec![(member.into(), 0)],
            modifier: 0,
            roll: 10,
            result: 10,
            roll_offs: Vec::new(),
        },
    };
    let members = ["Brannoc", "Sera"];
    assert!(roll("party", "Brannoc").known_to_party(&members, "party"));
    assert!(!roll("ghouls", "Gnawbone").known_to_party(&members, "party"));
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
            .insert(delve_rules::creature::Position(
                delve_ground::grid::GridPos::new(x, 1),
            ));
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
        .insert(delve_rules::rules::combat::battle::Controlled);
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

pub(crate) fn give_now(app: &mut App, c: delve_rules::command::Command) {
    delve_play::sim::give(app.world_mut(), c);
    run_round(app.world_mut());
}

pub(crate) const GUNNER: &str = r#"(name: "Wren", faction: "party", at: (1, 1), hp: 6, ac: 12,
    encumbrance_stone: 2.0,
    weapons: [(name: "pistol", damage: "1d8", damage_type: Piercing, range_feet: 20,
               kind: Some(Firearm(misfire: 2, advanced: true)))])"#;

/// What moved and who attacked, in log order: (round, who, what).
pub(crate) fn moves_and_blows(app: &Delve) -> Vec<(u64, String, &'static str)> {
    app.log()
        .entries()
        .iter()
        .filter_map(|e| {
            if let Some(delve_rules::rules::movement::MovementEvent::Moved { who, .. }) = e.get() {
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
pub(crate) fn acting_order(app: &Delve) -> Vec<usize> {
    let battle = app.world().resource::<Battle>();
    battle.order.iter().map(|f| f.faction).collect()
}

pub(crate) const SWORD: &str =
    r#", weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]"#;
pub(crate) const SWORD_AND_SLING: &str = r#", weapons: [(name: "sword", damage: "1d8", damage_type: Slashing),
    (name: "sling", damage: "1d4", damage_type: Bludgeoning, range_feet: 50)]"#;

/// Orders the named creature's player gives (the fighting behaviour leaves it alone).
pub(crate) fn control(app: &mut Delve, name: &str) {
    let e = app.entity(name);
    app.world_mut()
        .entity_mut(e)
        .insert(delve_rules::rules::combat::battle::Controlled);
}

/// The surprise events of the log.
pub(crate) fn surprises(app: &Delve) -> Vec<CombatEvent> {
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

/// Situational Penalties › Prone: "During combat, standing back up from a prone position is a free
/// action. However, the penalty from being prone lasts until the end of the round in which the
/// character stood up." The ghoul, prone beside Brannoc, stands up in its initiative and attacks at
/// −4 that round; it is prone no more after it (no mind once stood up: the −4 lasted the whole
/// fight).
#[test]
fn a_prone_fighter_stands_up_and_strikes_at_minus_4_that_round() {
    let mut app = engaged(", conditions: [Prone]");
    for _ in 0..3 {
        if !app
            .get::<Conditions>("Gnawbone")
            .unwrap()
            .has(ConditionKind::Prone)
        {
            break;
        }
        run_round(app.world_mut());
    }
    let log = app.world().resource::<EventLog>();
    let stood = log
        .of_with_round::<delve_rules::rules::conditions::ConditionEvent>()
        .find_map(|(round, e)| match e {
            delve_rules::rules::conditions::ConditionEvent::ConditionLost {
                who,
                condition: ConditionKind::Prone,
                ..
            } if who == "Gnawbone" => Some(round),
            _ => None,
        })
        .unwrap_or_else(|| panic!("Gnawbone never stood up:\n{}", log.to_text()));
    // Its blows of the round it stood up carry the prone −4.
    let prone_blows: Vec<bool> = log
        .of_with_round::<CombatEvent>()
        .filter_map(|(round, e)| match e {
            CombatEvent::Attacked { who, throw, .. } if who == "Gnawbone" && round == stood => {
                Some(
                    throw
                        .modifiers
                        .iter()
                        .any(|m| m.source == "prone" && m.value == -4),
                )
            }
            _ => None,
        })
        .collect();
    assert!(
        !prone_blows.is_empty() && prone_blows.iter().all(|&p| p),
        "{prone_blows:?}\n{}",
        log.to_text()
    );
    assert!(
        !app.get::<Conditions>("Gnawbone")
            .unwrap()
            .has(ConditionKind::Prone)
    );
}
