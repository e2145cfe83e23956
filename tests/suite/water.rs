//! Swimming and Drowning (Dungeon Delves).

use delve_ground::level::SpeedBasis;
use delve_ground::level::schema::ConditionKind;
use delve_ground::level::schema::Proficiency;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{Grab, LetGo, Move};
use delve_rules::creature::Conditions;
use delve_rules::creature::Encumbrance;
use delve_rules::rules::acting::Hold;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::throws::Skill;
use delve_rules::rules::water::{Drowning, WaterEvent, WaterRefusal};

/// A pool over the head from (3, 1) to (5, 1), 40' deep; Pip (`pip`) swims in it at (3, 1);
/// Bo (2 stone) stands on the bank at (2, 1).
pub(crate) fn pool(pip: &str, extra: &str) -> Delve {
    Scenario::new(&["XXXXXXXX", "X..~~~.X", "XXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .field(extra)
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Pip", faction: "party", at: (3, 1), hp: 6, ac: 10{pip})"#
        ))
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .build()
}

fn swimming(delve: &Delve) -> Vec<delve_ground::dice::Throw> {
    delve.throws_for(Skill::Proficiency(Proficiency::Swimming))
}

/// Dungeon Delves › Swimming: a throw each round against the encumbrance in stone; failing, it
/// is drowning (vulnerable, 5 + CON modifier rounds of breath).
#[test]
fn swimming_is_a_throw_against_the_encumbrance_in_stone() {
    let mut delve = pool(", encumbrance_stone: 3.0", "judge: ()");
    delve.script_dice(&[3]);
    delve.run(1);
    let t = swimming(&delve);
    assert_eq!((t[0].natural, t[0].target, t[0].success), (3, 3, true));
    assert!(t[0].modifiers.is_empty(), "{:?}", t[0].modifiers);
    delve.script_dice(&[2]);
    delve.run(1);
    assert!(!swimming(&delve)[1].success);
    assert!(
        delve
            .events::<WaterEvent>()
            .contains(&WaterEvent::Drowning {
                who: "Pip".into(),
                breath_rounds: 5
            })
    );
    let c = delve.get::<Conditions>("Pip").unwrap();
    assert!(c.has(ConditionKind::Drowning) && c.has(ConditionKind::Vulnerable));
    delve.run(1);
    assert_eq!(
        swimming(&delve).len(),
        2,
        "no more Swimming throws once drowning"
    );
}

/// Dungeon Delves › Swimming: +4 with the proficiency, and no throw at all when that brings the
/// target to 0 or less; the Judge's cold, rough or fast water is a penalty.
#[test]
fn the_swimming_proficiency_and_rough_water() {
    let mut delve = pool(
        ", encumbrance_stone: 4.0, proficiencies: [Swimming]",
        "judge: ()",
    );
    delve.run(3);
    assert!(swimming(&delve).is_empty(), "4 stone − 4: no throw");

    let mut delve = pool(
        ", encumbrance_stone: 5.0, proficiencies: [Swimming]",
        "judge_regions: [(from: (3, 1), to: (5, 1), modifiers: { RoughWater: -2 })]",
    );
    delve.run(1);
    let mods: Vec<(String, i32)> = swimming(&delve)[0]
        .modifiers
        .iter()
        .map(|m| (m.source.clone(), m.value))
        .collect();
    assert_eq!(
        mods,
        vec![
            ("Swimming".into(), 4),
            ("Judge: cold, rough or fast water".into(), -2)
        ]
    );
}

/// Dungeon Delves › Swimming: "If the water is cold, rough, or fast-moving, the Judge might
/// impose a penalty on the swimming throw" — the delve rules' own: it holds with the
/// situational penalties switched off (it once went with them).
#[test]
fn rough_water_holds_without_the_situational_penalties() {
    let mut delve = pool(
        ", encumbrance_stone: 5.0, proficiencies: [Swimming]",
        "judge_regions: [(from: (3, 1), to: (5, 1), modifiers: { RoughWater: -2 })], \
         modules: (situational_penalties: false)",
    );
    delve.run(1);
    let mods: Vec<(String, i32)> = swimming(&delve)[0]
        .modifiers
        .iter()
        .map(|m| (m.source.clone(), m.value))
        .collect();
    assert_eq!(
        mods,
        vec![
            ("Swimming".into(), 4),
            ("Judge: cold, rough or fast water".into(), -2)
        ]
    );
}

/// Dungeon Delves › Drowning: it sinks 10' per stone each round, to the water's depth, takes no
/// action, and dies when its 5 + CON modifier rounds of breath are gone.
#[test]
fn drowning_sinks_ten_feet_per_stone_until_the_breath_is_gone() {
    let mut delve = pool(", encumbrance_stone: 3.0, con: 10", "judge: ()");
    delve.script_dice(&[1]);
    delve.run(1);
    assert!(delve.get::<Drowning>("Pip").is_some());
    delve.act(Move {
        who: "Pip".into(),
        to: (6, 1),
        pace: Pace::Combat,
    });
    assert!(delve.was_refused("Pip", &Hold::Drowning));
    delve.run(4);
    let sank: Vec<(u32, u32)> = delve
        .events::<WaterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            WaterEvent::Sank {
                depth_feet,
                breath_left,
                ..
            } => Some((depth_feet, breath_left)),
            _ => None,
        })
        .collect();
    assert_eq!(sank, vec![(30, 4), (40, 3), (40, 2), (40, 1), (40, 0)]);
    assert!(
        delve
            .events::<WaterEvent>()
            .contains(&WaterEvent::Drowned { who: "Pip".into() })
    );
    assert!(
        delve
            .get::<Conditions>("Pip")
            .unwrap()
            .has(ConditionKind::Dead)
    );
}

/// Dungeon Delves › Drowning: an ally not drowning grabs it (in lieu of moving) and brings it
/// up; it bears half its weight, 7½ stone plus half its encumbrance.
#[test]
fn an_ally_grabs_the_drowning_and_bears_half_its_weight() {
    let mut delve = pool(", encumbrance_stone: 3.0", "judge: ()");
    delve.script_dice(&[1]);
    delve.run(1);
    let bo = delve.entity("Bo");
    let offered: Vec<String> = delve_rules::rules::water::rescue_choices(delve.world(), bo)
        .into_iter()
        .map(|c| c.way)
        .collect();
    assert_eq!(offered, vec!["grab Pip".to_owned()]);
    delve.act(Grab {
        who: "Bo".into(),
        whom: "Pip".into(),
    });
    let c = delve.get::<Conditions>("Pip").unwrap();
    assert!(!c.has(ConditionKind::Drowning) && !c.has(ConditionKind::Vulnerable));
    let stone = |delve: &Delve| match delve.get::<Encumbrance>("Bo").unwrap().0 {
        SpeedBasis::Encumbrance { stone } => stone,
        SpeedBasis::Explicit { .. } => unreachable!("Bo's speed is his encumbrance"),
    };
    assert_eq!(stone(&delve), 2.0 + 9.0);
    // Bo carries Pip along to the far bank.
    delve.act(Move {
        who: "Bo".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    assert_eq!(delve.at("Pip"), delve.at("Bo"));
    delve.act(LetGo { who: "Bo".into() });
    assert_eq!(stone(&delve), 2.0);
    delve.act(Grab {
        who: "Bo".into(),
        whom: "Pip".into(),
    });
    assert!(delve.was_refused("Bo", &WaterRefusal::NotDrowning));
}

/// Dungeon Delves › Swimming: only "an adventurer without a swimming speed" throws; a creature
/// whose stat block gives one (`swim_feet`) does not.
#[test]
fn a_creature_with_a_swimming_speed_makes_no_swimming_throws() {
    let mut delve = pool(", encumbrance_stone: 5.0, swim_feet: 40", "judge: ()");
    delve.run(3);
    assert!(swimming(&delve).is_empty(), "5 stone, but it swims");
    let mut delve = pool(", encumbrance_stone: 5.0", "judge: ()");
    delve.run(1);
    assert_eq!(swimming(&delve).len(), 1, "without one, it throws");
}

/// Dungeon Delves › Swimming: without a swimming speed a creature swims at a quarter of its
/// speed; with one, at that speed. Along a flooded passage an eel (speed 30', swimming 60')
/// swims its 20' of swimming combat speed, four 5' squares, where Pip (0 stone, combat 40',
/// Swimming: no throw needed) makes a quarter, 10', two squares.
#[test]
fn a_swimming_speed_is_how_fast_it_swims() {
    let swim = |pip: &str| {
        let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X~~~~~~~~~.X", "XXXXXXXXXXXX"])
            .legend("'~': Water(Deep)")
            .light("(at: (10, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Pip", faction: "party", at: (1, 1), hp: 6, ac: 10{pip})"#
            ))
            .build();
        delve.act(Move {
            who: "Pip".into(),
            to: (10, 1),
            pace: Pace::Combat,
        });
        assert!(swimming(&delve).is_empty());
        delve.at("Pip")
    };
    assert_eq!(
        swim(", speed_feet: 30, swim_feet: 60"),
        delve_ground::grid::GridPos::new(5, 1)
    );
    assert_eq!(
        swim(", encumbrance_stone: 0.0, proficiencies: [Swimming]"),
        delve_ground::grid::GridPos::new(3, 1)
    );
}

/// RULINGS › Water, › The battle round: one Swimming throw a round, at the start of the
/// swimmer's own initiative — outside a battle each round, in one in its faction's initiative: none
/// twice in the battle's first round, none missed in the round after it ends. Pip (1 stone: a
/// target of 1, which every die makes) swims while a ghoul across the pool comes and goes.
#[test]
fn one_swimming_throw_a_round_through_a_battle() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X..~~~...X", "XXXXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(r#"(name: "Pip", faction: "party", at: (3, 1), hp: 30, ac: 10, encumbrance_stone: 1.0)"#)
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (8, 1))"#)
        .build();
    for e in [delve.entity("Pip"), delve.entity("Gnawbone")] {
        delve
            .world_mut()
            .entity_mut(e)
            .insert(delve_rules::rules::combat::battle::Controlled);
    }
    delve.run(4);
    assert!(
        delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    // The ghoul leaves the level: the battle ends after a round with no one aware.
    let ghoul = delve.entity("Gnawbone");
    delve.world_mut().entity_mut(ghoul).despawn();
    delve.run(4);
    assert!(
        !delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    let mut per_round = std::collections::BTreeMap::<u64, u32>::new();
    for e in delve.log().entries() {
        if let Some(delve_rules::rules::throws::ThrowEvent::Threw { skill, .. }) = e.get()
            && *skill == Skill::Proficiency(Proficiency::Swimming)
        {
            *per_round.entry(e.round).or_default() += 1;
        }
    }
    let rounds: Vec<(u64, u32)> = per_round.into_iter().collect();
    assert_eq!(
        rounds,
        (0..8).map(|r| (r, 1)).collect::<Vec<_>>(),
        "{}",
        delve.log().to_text()
    );
}

/// The situational penalties of an action check for `who` now, by source.
fn action_penalties(delve: &Delve, who: &str) -> Vec<(String, i32)> {
    delve_rules::rules::penalties::penalties_for(
        delve.world(),
        delve.entity(who),
        delve_rules::rules::penalties::CheckKind::Action,
    )
    .unwrap()
    .into_iter()
    .map(|m| (m.source, m.value))
    .collect()
}

/// RULINGS › Water: a swimmer at the surface of deep water takes −6 (chest) on its checks other
/// than its Swimming throw, which takes none; a creature with a swimming speed takes no water
/// penalty at any depth.
#[test]
fn a_swimmer_at_the_surface_takes_minus_6_and_one_at_home_in_water_none() {
    let mut delve = pool(", encumbrance_stone: 1.0", "judge: ()");
    delve.run(1);
    assert_eq!(
        action_penalties(&delve, "Pip"),
        vec![("swimming at the surface".to_owned(), -6)]
    );
    assert!(swimming(&delve)[0].modifiers.is_empty());
    let delve = pool(", speed_feet: 30, swim_feet: 60", "judge: ()");
    assert_eq!(action_penalties(&delve, "Pip"), vec![]);
}

/// RULINGS › Water: sinking is 10' a round per stone, fractions included: 4½ stone sinks 45',
/// not 50'.
#[test]
fn sinking_counts_fractions_of_a_stone() {
    let mut delve = pool(", encumbrance_stone: 4.5", "judge: ()");
    delve.script_dice(&[1]);
    delve.run(2);
    let sank: Vec<u32> = delve
        .events::<WaterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            WaterEvent::Sank { depth_feet, .. } => Some(depth_feet),
            _ => None,
        })
        .collect();
    assert_eq!(sank, vec![40], "40' deep: stopped at the bottom");
    let mut deep = Scenario::new(&["XXXXXXXX", "X..~~~.X", "XXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 100")
        .field("judge: ()")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Pip", faction: "party", at: (3, 1), hp: 6, ac: 10, encumbrance_stone: 4.5)"#,
        )
        .build();
    deep.script_dice(&[1]);
    deep.run(3);
    let sank: Vec<u32> = deep
        .events::<WaterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            WaterEvent::Sank { depth_feet, .. } => Some(depth_feet),
            _ => None,
        })
        .collect();
    assert_eq!(sank, vec![45, 90]);
}

/// RULINGS › Water: one without the Swimming proficiency always throws, and succeeds at a net
/// target of 1 or less (1 stone: a 1 on the die still keeps it afloat); the throw is logged.
#[test]
fn one_without_swimming_always_throws() {
    let mut delve = pool(", encumbrance_stone: 1.0", "judge: ()");
    delve.script_dice(&[1]);
    delve.run(1);
    let t = swimming(&delve);
    assert_eq!(
        (t.len(), t[0].natural, t[0].target, t[0].success),
        (1, 1, 1, true)
    );
    let mut delve = pool(", encumbrance_stone: 0.0", "judge: ()");
    delve.run(2);
    assert_eq!(swimming(&delve).len(), 2, "0 stone: it still throws");
}

/// RULINGS › Water: an ally must swim to one that has sunk: from the bank the grab is refused;
/// a swimmer beside it grabs it and carries it up at its swimming combat pace (speed 60',
/// swimming 60': 20' a round), its breath counted until it is at the surface, where it is saved.
#[test]
fn a_sunk_ally_is_reached_by_swimming_and_carried_up() {
    let mut delve = Scenario::new(&["XXXXXXXX", "X..~~~.X", "XXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .field("judge: ()")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Pip", faction: "party", at: (3, 1), hp: 6, ac: 10, encumbrance_stone: 4.0)"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .creature(
            r#"(name: "Cal", faction: "party", at: (4, 1), hp: 6, ac: 10, speed_feet: 60,
                swim_feet: 60)"#,
        )
        .build();
    delve.script_dice(&[1]);
    delve.run(2);
    assert_eq!(delve.get::<Drowning>("Pip").unwrap().sunk_feet, 40);
    delve.act(Grab {
        who: "Bo".into(),
        whom: "Pip".into(),
    });
    assert!(delve.was_refused("Bo", &WaterRefusal::MustSwimToIt { sunk_feet: 40 }));
    let bo = delve.entity("Bo");
    assert!(delve_rules::rules::water::rescue_choices(delve.world(), bo).is_empty());
    delve.act(Grab {
        who: "Cal".into(),
        whom: "Pip".into(),
    });
    assert!(
        delve.get::<Drowning>("Pip").is_some(),
        "{}",
        delve.log().to_text()
    );
    let up: Vec<(u32, u32)> = delve
        .events::<WaterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            WaterEvent::BroughtUp {
                depth_feet,
                breath_left,
                ..
            } => Some((depth_feet, breath_left)),
            _ => None,
        })
        .collect();
    // Sank to 40' (4 left, then 3); grabbed at 40': no more sinking, 20' up (2 left).
    assert_eq!(up, vec![(20, 2)]);
    delve.run(1);
    assert!(
        delve.get::<Drowning>("Pip").is_none(),
        "{}",
        delve.log().to_text()
    );
    let c = delve.get::<Conditions>("Pip").unwrap();
    assert!(!c.has(ConditionKind::Drowning) && !c.has(ConditionKind::Dead));
    assert_eq!(
        swimming(&delve).len(),
        1,
        "held at the surface: no throw of its own"
    );
}

/// RULINGS › Water: a swimmer at running speed cannot attack — its attack order lapses, the
/// typed reason given; swimming at combat speed (speed 120', swimming 120': 40' a round) up to
/// the ghoul on the bank, it attacks.
#[test]
fn a_swimmer_at_running_speed_cannot_attack() {
    let fight = |pace: Pace| {
        let mut delve = Scenario::new(&["XXXXXXXXXXXXXX", "X~~~~~~~~~...X", "XXXXXXXXXXXXXX"])
            .legend("'~': Water(Deep)")
            .light("(at: (11, 1), kind: Custom(bright_feet: 90, dim_feet: 90), lit: true)")
            .field("deep_water_feet: 40")
            .faction(r#"(name: "party")"#)
            .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
            .creature(
                r#"(name: "Pip", faction: "party", at: (1, 1), hp: 30, ac: 10,
                    speed_feet: 120, swim_feet: 120, saves: { Paralysis: 10 },
                    weapons: [(name: "dagger", damage: "1d4", damage_type: Piercing)])"#,
            )
            .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (10, 1))"#)
            .build();
        for e in [delve.entity("Pip"), delve.entity("Gnawbone")] {
            delve
                .world_mut()
                .entity_mut(e)
                .insert(delve_rules::rules::combat::battle::Controlled);
        }
        delve.run(1);
        delve.give(delve_rules::command::acts::Attack {
            who: "Pip".into(),
            target: "Gnawbone".into(),
            weapon: None,
        });
        delve.give(Move {
            who: "Pip".into(),
            to: (9, 1),
            pace,
        });
        delve.run(1);
        let events = delve.events::<delve_rules::rules::combat::CombatEvent>();
        let lapsed: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                delve_rules::rules::combat::CombatEvent::AttackOrderLapsed {
                    who, reason, ..
                } if who == "Pip" => Some(reason.clone()),
                _ => None,
            })
            .collect();
        let attacked = events.iter().any(|e| {
            matches!(e, delve_rules::rules::combat::CombatEvent::Attacked { who, .. } if who == "Pip")
        });
        (lapsed, attacked)
    };
    assert_eq!(
        fight(Pace::Running),
        (
            vec![delve_rules::act::Refusal::from(
                Hold::SwimmingAtRunningSpeed
            )],
            false
        )
    );
    assert_eq!(fight(Pace::Combat), (vec![], true));
}
