//! One gate for acting (RULINGS › The battle round, › Rest): holds that stop a creature acting,
//! what an action costs, and when in a battle it happens.

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::act::{Act, Activity, Refusal};
use delve_rules::command::CommandEvent;
use delve_rules::command::acts::{Attack, Bash, Move, PushForward};
use delve_rules::creature::Conditions;
use delve_rules::rules::acting::{Cost, Hold};
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::combat::battle::Controlled;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::throws::Skill;

const SLING: &str = r#", weapons: [(name: "sling", damage: "1d4", damage_type: Bludgeoning,
    range_feet: 50)]"#;

/// The player commands these creatures (the fighting behaviour leaves them alone).
fn control(delve: &mut Delve, names: &[&str]) {
    for name in names {
        let e = delve.entity(name);
        delve.world_mut().entity_mut(e).insert(Controlled);
    }
}

/// Attacks `who` made, by round.
fn attacks_by(delve: &Delve, who: &str) -> Vec<u64> {
    delve
        .log()
        .entries()
        .iter()
        .filter(|e| matches!(e.get::<CombatEvent>(), Some(CombatEvent::Attacked { who: w, .. }) if w == who))
        .map(|e| e.round)
        .collect()
}

/// Why `who`'s attack orders lapsed, in order.
fn lapses(delve: &Delve, who: &str) -> Vec<Refusal> {
    delve
        .events::<CombatEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CombatEvent::AttackOrderLapsed { who: w, reason, .. } if w == who => Some(reason),
            _ => None,
        })
        .collect()
}

fn attack(who: &str, target: &str) -> Attack {
    Attack {
        who: who.into(),
        target: target.into(),
        weapon: None,
    }
}

/// RULINGS › The battle round: a drowning creature (Dungeon Delves › Drowning: it "cannot take
/// any actions") makes no attack, though it was ordered to attack before; the order lapses and
/// the log says why.
#[test]
fn a_drowning_creature_makes_no_attack() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X.~~.....X", "XXXXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (4, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Pip", faction: "party", at: (2, 1), hp: 30, ac: 10,
                encumbrance_stone: 3.0{SLING})"#
        ))
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (7, 1))"#)
        .build();
    control(&mut delve, &["Pip", "Gnawbone"]);
    // The order is given, then the Swimming throw (a 1) fails: Pip is drowning.
    delve.give(attack("Pip", "Gnawbone"));
    delve.script_dice(&[1]);
    delve.run(3);
    assert!(
        delve
            .get::<Conditions>("Pip")
            .unwrap()
            .has(ConditionKind::Drowning)
    );
    assert!(
        delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    assert_eq!(
        attacks_by(&delve, "Pip"),
        Vec::<u64>::new(),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(lapses(&delve, "Pip"), vec![Refusal::from(Hold::Drowning)]);
    // A new order is refused, the hold its reason.
    delve.act(attack("Pip", "Gnawbone"));
    assert!(delve.was_refused("Pip", &Hold::Drowning));
    assert!(attacks_by(&delve, "Pip").is_empty());
}

/// A corridor with a squeeze at (4, 1)–(5, 1); Tam (sling, 5 stone) walks into it from (3, 1)
/// and, on a natural 1, is stuck; the ghoul Gnawbone waits at (8, 1).
fn stuck_in_a_battle() -> Delve {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X...SS...X", "XXXXXXXXXX"])
        .legend("'S': Squeeze")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Tam", faction: "party", at: (3, 1), hp: 30, ac: 12, str: 13,
                encumbrance_stone: 5.0, saves: {{ Paralysis: 12 }}{SLING})"#
        ))
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (8, 1))"#)
        .build();
    control(&mut delve, &["Tam", "Gnawbone"]);
    delve.give(Move {
        who: "Tam".into(),
        to: (8, 1),
        pace: Pace::Combat,
    });
    delve.give(attack("Tam", "Gnawbone"));
    // The squeeze's throw a 1: stuck; initiative 11 and 9, neither side surprised.
    delve.script_dice(&[1, 11, 9, 6, 6]);
    delve.run(1);
    assert!(
        delve
            .get::<Conditions>("Tam")
            .unwrap()
            .has(ConditionKind::Stuck),
        "{}",
        delve.log().to_text()
    );
    delve
}

/// Dungeon Delves › Squeezing: a stuck creature "cannot attack, cast spells, move, or take any
/// other action except to attempt to escape": its attack order lapses, saying why, and its
/// escape throws are carried out (in its faction's initiative).
#[test]
fn a_stuck_creature_makes_no_attack_but_tries_to_escape() {
    let mut delve = stuck_in_a_battle();
    delve.run(2);
    assert!(
        attacks_by(&delve, "Tam").is_empty(),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(lapses(&delve, "Tam"), vec![Refusal::from(Hold::Stuck)]);
    delve.script_dice(&[2]);
    delve.act(PushForward { who: "Tam".into() });
    let push = delve.throws_for(Skill::Dungeonbashing).pop().unwrap();
    assert_eq!((push.natural, push.success), (2, false));
    assert!(attacks_by(&delve, "Tam").is_empty());
}

/// A command a new rule area might add, which says nothing of holds or costs.
#[derive(Debug)]
struct Whistle {
    who: String,
}

impl std::fmt::Display for Whistle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "whistle")
    }
}

/// How many whistles were carried out.
#[derive(Resource, Default)]
struct Whistled(u32);

impl Act for Whistle {
    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        world.get_resource_or_insert_with(Whistled::default).0 += 1;
        Ok(())
    }

    fn activity(&self) -> Option<Activity> {
        None
    }
}

/// `rules::acting`: a command that declares no holds is refused under every hold, the hold its
/// reason; it costs exertion and the action.
#[test]
fn a_new_command_is_refused_while_stuck_naming_the_hold() {
    let mut delve = stuck_in_a_battle();
    let whistle = Whistle { who: "Tam".into() };
    assert_eq!(whistle.cost(), Cost::ACTION);
    let refused = delve_rules::command::carry_out(delve.world_mut(), &whistle).unwrap_err();
    assert_eq!(refused.get::<Hold>(), Some(&Hold::Stuck));
    assert!(delve.world().get_resource::<Whistled>().is_none());
    let free = Whistle {
        who: "Gnawbone".into(),
    };
    delve_rules::command::carry_out(delve.world_mut(), &free).unwrap();
    assert_eq!(delve.world().resource::<Whistled>().0, 1);
}

/// Dungeon Delves › Crawling Traverse: a crawler's hands and feet are on the rope; it makes no
/// attack, and its order lapses, saying why.
#[test]
fn a_creature_crawling_a_traverse_makes_no_attack() {
    use delve_rules::command::acts::CrawlAcross;
    use delve_rules::rules::caving::ClimbPace;
    use delve_rules::rules::caving::traverse::{Rigged, RiggedTraverses};
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXXX",
        "X...CCCCCCCCCCCCCCCC..X",
        "XXXXXXXXXXXXXXXXXXXXXXX",
    ])
    .legend("'C': Chasm(depth_feet: 30)")
    .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    .creature(&format!(
        r#"(name: "Jess", faction: "party", at: (3, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0{SLING})"#
    ))
    .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (21, 1))"#)
    .build();
    control(&mut delve, &["Jess", "Gnawbone"]);
    // Ordered to attack before she sets out, in the battle's first round; then she crawls.
    delve.act(attack("Jess", "Gnawbone"));
    assert_eq!(attacks_by(&delve, "Jess"), Vec::<u64>::new());
    delve
        .world_mut()
        .resource_mut::<RiggedTraverses>()
        .0
        .push(Rigged {
            from: GridPos::new(3, 1),
            to: GridPos::new(20, 1),
            ropes: 1,
            by_mountaineer: None,
        });
    delve.give(CrawlAcross {
        who: "Jess".into(),
        to: (20, 1),
        pace: ClimbPace::Third,
    });
    delve.run(2);
    assert!(
        delve
            .get::<delve_rules::rules::caving::traverse::Traversing>("Jess")
            .is_some(),
        "{}",
        delve.log().to_text()
    );
    assert!(
        attacks_by(&delve, "Jess").is_empty(),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(
        lapses(&delve, "Jess"),
        vec![Refusal::from(Hold::CrawlingATraverse)]
    );
}

/// RULINGS › The battle round: a bash given in a battle is carried out in the basher's
/// faction's initiative, after the faction that won initiative has acted, and takes the basher's
/// action: it makes no attack that round (it attacks again the next).
#[test]
fn a_bash_in_a_battle_waits_for_the_faction_turn_and_takes_the_action() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X...+...X", "X.......X", "XXXXXXXXX"])
        .legend("'+': Door")
        .door("(at: (4, 1), stuck: true)")
        .light("(at: (2, 2), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 30, ac: 12, str: 18, encumbrance_stone: 2.0,
                attack_bonus: 2, weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#,
        )
        .creature(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 2), hp: 40,
                initiative_modifier: 20)"#,
        )
        .build();
    control(&mut delve, &["Ada", "Gnawbone"]);
    delve.run(1);
    assert!(
        delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    delve.give(attack("Ada", "Gnawbone"));
    delve.run(1);
    assert_eq!(attacks_by(&delve, "Ada"), vec![1], "she fights");
    delve.give(Bash {
        who: "Ada".into(),
        at: (4, 1),
        helper: None,
    });
    delve.run(1);
    // In round 2: the ghouls' initiative, then the party's, in which Ada bashes.
    let round_2: Vec<String> = delve
        .log()
        .entries()
        .iter()
        .filter(|e| e.round == 2)
        .filter_map(|e| {
            if let Some(CombatEvent::InitiativeBegan { faction }) = e.get::<CombatEvent>() {
                Some(format!("{faction}'s initiative"))
            } else if let Some(CommandEvent::CommandAccepted { who, .. }) = e.get() {
                Some(format!("{who} acts"))
            } else {
                e.get::<delve_rules::rules::doors::DoorEvent>()
                    .map(|_| "the door".to_owned())
            }
        })
        .collect();
    assert_eq!(
        round_2,
        vec![
            "ghouls's initiative",
            "party's initiative",
            "Ada acts",
            "the door"
        ],
        "{}",
        delve.log().to_text()
    );
    assert_eq!(attacks_by(&delve, "Ada"), vec![1], "no attack in round 2");
    assert!(lapses(&delve, "Ada").is_empty(), "the order stands");
    delve.run(1);
    assert_eq!(attacks_by(&delve, "Ada"), vec![1, 3], "she fights on");
}

/// RULINGS › Rest: climbing is exertion whether or not the square changes, and makes the noise
/// of moving. A winded climber going down a 150' rope (outside a battle at its exploration speed,
/// 12' a round: 13 rounds) does not rest on the way and is still winded at the bottom.
#[test]
fn climbing_for_a_turn_is_not_rest() {
    use delve_rules::command::acts::{ClimbDown, LowerRope};
    use delve_rules::creature::Below;
    use delve_rules::rules::caving::{ClimbPace, Climbing};
    use delve_rules::rules::movement::MovedThisRound;
    use delve_rules::rules::rest::RestEvent;
    let mut delve = Scenario::new(&["XXXXXXXX", "X....C.X", "XXXXXXXX"])
        .legend("'C': Chasm(depth_feet: 150)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Jess", faction: "party", at: (4, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0, conditions: [Winded], gear: [Rope(200)])"#,
        )
        .build();
    delve.act(LowerRope {
        who: "Jess".into(),
        at: (5, 1),
    });
    delve.give(ClimbDown {
        who: "Jess".into(),
        into: (5, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[15, 15]);
    delve.run(3);
    assert!(delve.get::<Climbing>("Jess").is_some());
    assert_eq!(
        delve.at("Jess"),
        GridPos::new(4, 1),
        "on the wall, off no square"
    );
    assert_eq!(
        delve.get::<MovedThisRound>("Jess").unwrap().feet,
        12,
        "climbing is movement"
    );
    delve.run(10);
    assert_eq!(delve.get::<Below>("Jess"), Some(&Below { depth_feet: 150 }));
    let rested = delve
        .events::<RestEvent>()
        .into_iter()
        .any(|e| matches!(e, RestEvent::Rested { who } if who == "Jess"));
    assert!(!rested, "{}", delve.log().to_text());
    assert!(
        delve
            .get::<Conditions>("Jess")
            .unwrap()
            .has(ConditionKind::Winded)
    );
}

/// RULINGS › Rest: a still turn is ten rounds in a row with no exertion, counted from the last,
/// not only a turn that starts on the clock's boundary: Ada, winded, stops in the fourth round
/// of a turn and has rested ten rounds later, in the turn after.
#[test]
fn ten_still_rounds_from_the_last_exertion_are_a_rest() {
    use delve_rules::rules::rest::RestEvent;
    let mut delve = Scenario::lit_corridor(15)
        .creature(
            r#"(name: "Ada", faction: "party", at: (1, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0, conditions: [Winded])"#,
        )
        .build();
    delve.run(2);
    delve.act(Move {
        who: "Ada".into(),
        to: (2, 1),
        pace: Pace::Combat,
    });
    // Round 2 she moved; rounds 3 to 12 are still.
    delve.run(9);
    assert!(delve.events::<RestEvent>().is_empty());
    delve.run(1);
    let rests: Vec<(u64, RestEvent)> = delve
        .log()
        .entries()
        .iter()
        .filter_map(|e| e.get::<RestEvent>().map(|r| (e.round, r.clone())))
        .collect();
    assert_eq!(
        rests,
        vec![(12, RestEvent::Rested { who: "Ada".into() })],
        "{}",
        delve.log().to_text()
    );
    assert!(
        !delve
            .get::<Conditions>("Ada")
            .unwrap()
            .has(ConditionKind::Winded)
    );
}

/// A 10' chasm at (7, 1)–(8, 1): its near edge (6, 1), its far side (9, 1), where a hidden 10'
/// pit waits. Ada (DEX 13, `ada` for her encumbrance) stands at (2, 1), 20' back from the edge.
fn a_gap_to_jump(ada: &str) -> Delve {
    Scenario::new(&["XXXXXXXXXXXXXX", "X......CC....X", "XXXXXXXXXXXXXX"])
        .legend("'C': Chasm(depth_feet: 30)")
        .light("(at: (4, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .trap("(at: (9, 1), kind: Pit(depth_feet: 10), trigger: Step, hidden: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 10, dex: 13{ada})"#
        ))
        .build()
}

fn jump(from: Option<(i32, i32)>, running: bool) -> delve_rules::command::acts::Jump {
    delve_rules::command::acts::Jump {
        who: "Ada".into(),
        to: (9, 1),
        from,
        running,
    }
}

/// What the jumps were: (d6, reach, with a run-up).
fn jumps(delve: &Delve) -> Vec<(u32, f32, bool)> {
    use delve_rules::rules::caving::CavingEvent;
    delve
        .events::<CavingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CavingEvent::Jumped {
                d6,
                reach_feet,
                run_up,
                ..
            } => Some((d6, reach_feet, run_up)),
            _ => None,
        })
        .collect()
}

/// Dungeon Delves › Jumping, RULINGS › The battle round: a jump is movement. Ada runs up 20' to
/// the edge and jumps in the same move (13 + 1 − 2 = 12' clears the 10' gap): 20' + the 15'
/// jumped = 35' of her 40' combat speed; she lands on the hidden pit, which goes off at its
/// chance (the d6 a 1) and drops her 10'.
#[test]
fn a_jump_spends_movement_and_lands_on_its_square() {
    use delve_rules::creature::Below;
    use delve_rules::rules::movement::MovedThisRound;
    let mut delve = a_gap_to_jump(", encumbrance_stone: 2.0");
    delve.script_dice(&[1, 1, 1]);
    delve.act(jump(Some((6, 1)), false));
    assert_eq!(
        jumps(&delve),
        vec![(1, 12.0, true)],
        "{}",
        delve.log().to_text()
    );
    assert_eq!(delve.get::<MovedThisRound>("Ada").unwrap().feet, 35);
    assert_eq!(delve.at("Ada"), GridPos::new(9, 1));
    assert_eq!(
        delve.get::<Below>("Ada"),
        Some(&Below { depth_feet: 10 }),
        "the landing square is stepped on: {}",
        delve.log().to_text()
    );
}

/// The run-up must be in the same move: 20' walked the round before is no run-up, and the jump
/// is halved ((13 + 6 − 2) / 2 = 8½': short, into the chasm). A run-up and jump beyond the
/// round's movement is refused: at 8 stone (combat speed 20') 35' is too much; running (60') it
/// is not.
#[test]
fn a_jump_needs_its_run_up_in_the_same_move() {
    use delve_rules::creature::Below;
    use delve_rules::rules::caving::CavingRefusal;
    let mut delve = a_gap_to_jump(", encumbrance_stone: 2.0");
    delve.act(Move {
        who: "Ada".into(),
        to: (6, 1),
        pace: Pace::Combat,
    });
    assert_eq!(delve.at("Ada"), GridPos::new(6, 1));
    delve.script_dice(&[6, 1, 1, 1]);
    delve.act(jump(None, false));
    assert_eq!(jumps(&delve), vec![(6, 8.5, false)]);
    assert_eq!(delve.get::<Below>("Ada"), Some(&Below { depth_feet: 30 }));

    let mut delve = a_gap_to_jump(", encumbrance_stone: 8.0, saves: { Paralysis: 12 }");
    delve.act(jump(Some((6, 1)), false));
    assert!(delve.was_refused(
        "Ada",
        &CavingRefusal::JumpBeyondMovement { needs: 35, has: 20 }
    ));
    assert_eq!(delve.at("Ada"), GridPos::new(2, 1), "nothing changed");
    delve.script_dice(&[6, 6]);
    delve.act(jump(Some((6, 1)), true));
    assert_eq!(jumps(&delve), vec![(6, 11.0, true)], "13 + 6 − 8 = 11'");
    assert_eq!(
        delve.at("Ada"),
        GridPos::new(9, 1),
        "the pit's d6 a 6: it holds"
    );
}

/// `rules::choices_for`: what a creature is offered passes the gate; stuck in a squeeze, only
/// its ways out (Dungeon Delves › Squeezing), though it stands where it could search — and its
/// voice, which is no action (it may call for help).
#[test]
fn a_stuck_creature_is_offered_only_its_ways_out() {
    let delve = stuck_in_a_battle();
    let tam = delve.entity("Tam");
    let offered: Vec<(String, String)> = delve_rules::rules::choices_for(delve.world(), tam)
        .into_iter()
        .map(|(what, c)| (what.to_string(), c.way))
        .collect();
    assert_eq!(
        offered,
        vec![
            ("squeeze".to_owned(), "wiggle back 10'".to_owned()),
            ("squeeze".to_owned(), "push forward 10'".to_owned()),
            ("here".to_owned(), "talk".to_owned()),
            ("here".to_owned(), "shout".to_owned()),
        ]
    );
    let ghoul = delve.entity("Gnawbone");
    let ways: Vec<String> = delve_rules::rules::choices_for(delve.world(), ghoul)
        .into_iter()
        .map(|(_, c)| c.way)
        .collect();
    assert!(ways.contains(&"total defense".to_owned()), "{ways:?}");
}

/// RULINGS › The battle round and › Time: one at work on a task that takes rounds (a methodical
/// search) does nothing else while it works: its standing attack order lapses, the work the
/// reason; an order to attack sets the work aside.
#[test]
fn a_creature_at_work_makes_no_attack_until_ordered_to() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .light("(at: (4, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Pip", faction: "party", at: (2, 1), hp: 30, ac: 10,
                encumbrance_stone: 3.0{SLING})"#
        ))
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (7, 1))"#)
        .build();
    control(&mut delve, &["Pip", "Gnawbone"]);
    delve.give(attack("Pip", "Gnawbone"));
    delve.run(1);
    assert!(
        delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    let before = attacks_by(&delve, "Pip").len();
    delve.give(delve_rules::command::acts::Search { who: "Pip".into() });
    delve.run(2);
    assert!(delve.get::<delve_rules::rules::task::Task>("Pip").is_some());
    assert_eq!(
        attacks_by(&delve, "Pip").len(),
        before,
        "{}",
        delve.log().to_text()
    );
    assert_eq!(lapses(&delve, "Pip"), vec![Refusal::from(Hold::AtWork)]);
    // An order to attack is not refused: it sets the search aside, and Pip attacks again.
    delve.give(attack("Pip", "Gnawbone"));
    delve.run(1);
    assert!(delve.get::<delve_rules::rules::task::Task>("Pip").is_none());
    assert_eq!(attacks_by(&delve, "Pip").len(), before + 1);
}

/// The rest and standing up offered to `who` where it stands, in words.
fn ways(delve: &Delve, who: &str) -> Vec<String> {
    delve_rules::rules::choices_for(delve.world(), delve.entity(who))
        .into_iter()
        .map(|(_, c)| c.way)
        .filter(|w| w == "rest" || w == "stand up")
        .collect()
}

/// RULINGS › Rest and Dungeon Delves › Combat: a creature up and under no hold is offered a
/// rest (not while resting); a prone one is offered to stand up (not once it stands); the
/// offer taken is carried out.
#[test]
fn rest_and_standing_up_are_offered_where_the_rules_allow_them() {
    let mut delve = Scenario::lit_corridor(15)
        .creature(
            r#"(name: "Ada", faction: "party", at: (1, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0, conditions: [Prone])"#,
        )
        .build();
    assert_eq!(ways(&delve, "Ada"), ["stand up", "rest"]);
    let stand = delve_rules::rules::choices_for(delve.world(), delve.entity("Ada"))
        .into_iter()
        .map(|(_, c)| c)
        .find(|c| c.way == "stand up")
        .unwrap();
    let stand = stand
        .command
        .get::<delve_rules::command::acts::StandUp>()
        .unwrap()
        .clone();
    delve.act(stand);
    assert!(
        !delve
            .get::<Conditions>("Ada")
            .unwrap()
            .has(ConditionKind::Prone)
    );
    assert_eq!(ways(&delve, "Ada"), ["rest"]);
    delve.act(delve_rules::command::acts::Rest { who: "Ada".into() });
    assert!(ways(&delve, "Ada").is_empty(), "resting: no rest offered");
}
