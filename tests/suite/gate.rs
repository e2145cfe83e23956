//! The one gate in a battle (RULINGS › The battle round, › Surprise; Tactical Combat): who may
//! strike at the moment it would, what happens in the faction's initiative, and what an action
//! takes. Each test is a leak the gate once had, with scripted dice.

use delve_ground::grid::GridPos;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{Attack, ClearJam, Disengage, ForgoShield, Move, TotalDefense};
use delve_rules::rules::acting::Hold;
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::combat::events::NoOpportunity;
use delve_rules::rules::movement::Pace;

use crate::combat::{
    GUNNER, SWORD, arena, control, duel, engaged, last_attack, moves_and_blows, opportunities,
};

/// Why each attack of opportunity this round was not made: (threatener, mover, why).
fn not_taken(app: &Delve) -> Vec<(String, String, NoOpportunity)> {
    app.events::<CombatEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CombatEvent::OpportunityNotTaken { who, mover, why } => Some((who, mover, why)),
            _ => None,
        })
        .collect()
}

fn attacks_by(app: &Delve, who: &str, round: u64) -> usize {
    moves_and_blows(app)
        .iter()
        .filter(|(r, w, what)| *r == round && w == who && *what == "attacks")
        .count()
}

fn step(who: &str, to: (i32, i32)) -> Move {
    Move {
        who: who.into(),
        to,
        pace: Pace::Combat,
    }
}

/// Dungeon Delves › Drowning: a drowning creature "cannot take any actions"; RULINGS › The battle
/// round: one that cannot act makes no attack. The ghouls act first (initiative +20): Gnawbone,
/// afloat beside the bank in 10 stone of gear, fails its Swimming throw at the start of its
/// faction's initiative and goes under; in the party's initiative Ada steps away from it. It was
/// able to strike when the round began; at the moment the attack would be made it is drowning.
#[test]
fn a_creature_that_goes_under_makes_no_attack_of_opportunity() {
    let mut app = Scenario::new(&["XXXXXXXXXX", "X...~~~..X", "XXXXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (3, 1), hp: 30, ac: 12,
                encumbrance_stone: 2.0, attack_bonus: 2{SWORD})"#
        ))
        .creature(
            r#"(name: "Gnawbone", faction: "ghouls", at: (4, 1), hp: 30, ac: 13,
                lightless_vision_feet: 60, attack_bonus: 2, encumbrance_stone: 10.0,
                initiative_modifier: 20,
                weapons: [(name: "claw", damage: "1d3", damage_type: Slashing)])"#,
        )
        .build();
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    // Round 0: Gnawbone swims (a 20); initiative 9 and 11 + 20; neither side surprised.
    app.script_dice(&[20, 9, 11, 6, 6]);
    app.run(1);
    // Round 1: its Swimming throw a 1 against 10: it goes under.
    app.script_dice(&[1]);
    app.act(step("Ada", (1, 1)));
    assert!(
        app.get::<delve_rules::rules::water::Drowning>("Gnawbone")
            .is_some(),
        "{}",
        app.log().to_text()
    );
    assert_eq!(app.at("Ada"), GridPos::new(1, 1));
    assert!(opportunities(&app).is_empty(), "{}", app.log().to_text());
    assert_eq!(
        not_taken(&app),
        vec![(
            "Gnawbone".into(),
            "Ada".into(),
            NoOpportunity::Held {
                hold: Hold::Drowning
            }
        )]
    );
}

/// RULINGS › Surprise: "a surprised faction does nothing in the battle's first round". The
/// ghouls' 1 surprises them: the log says their initiative is lost; Gnawbone makes no attack of
/// opportunity as Brannoc steps away; its orders that do not take the action (forgoing its
/// shield, total defense, a walk) are refused, the hold the reason; in the next round it acts.
#[test]
fn a_surprised_faction_does_nothing_in_the_round_it_loses() {
    let mut app = arena(", shield: Some((weight: Heavy, ac_bonus: 1))", "");
    control(&mut app, "Brannoc");
    control(&mut app, "Gnawbone");
    // Initiative 11 and 9; the party's surprise die a 6, the ghouls' a 1.
    app.script_dice(&[11, 9, 6, 1]);
    app.run(1);
    // Between the rounds, the round to come is the one it loses: it is offered nothing.
    let offers = |app: &Delve| delve_rules::rules::choices_for(app.world(), app.entity("Gnawbone"));
    assert!(offers(&app).is_empty(), "{:?}", offers(&app));
    app.give(ForgoShield {
        who: "Gnawbone".into(),
    });
    app.give(TotalDefense {
        who: "Gnawbone".into(),
    });
    app.give(step("Gnawbone", (5, 1)));
    app.act(step("Brannoc", (1, 1)));
    assert!(
        app.events::<CombatEvent>()
            .contains(&CombatEvent::InitiativeLost {
                faction: "ghouls".into()
            })
    );
    assert!(opportunities(&app).is_empty());
    assert_eq!(
        not_taken(&app),
        vec![(
            "Gnawbone".into(),
            "Brannoc".into(),
            NoOpportunity::Held {
                hold: Hold::Surprised
            }
        )]
    );
    let refused = delve_rules::command::refusals(app.log())
        .filter(|(who, r)| *who == "Gnawbone" && r.is(&Hold::Surprised))
        .count();
    assert_eq!(refused, 3, "{}", app.log().to_text());
    assert_eq!(app.at("Gnawbone"), GridPos::new(3, 1), "it did not walk");
    assert!(
        app.get::<delve_rules::rules::combat::gear::ShieldForgone>("Gnawbone")
            .is_none()
    );
    // Its next round it acts, and is offered what the battle allows.
    assert!(!offers(&app).is_empty());
    app.act(step("Gnawbone", (5, 1)));
    assert_eq!(app.at("Gnawbone"), GridPos::new(5, 1));
}

/// RULINGS › Surprise: a walk under way when the battle began goes no farther in the round
/// the walker's faction loses. Ada sets off down the corridor towards the ghoul; the battle
/// begins as she sees it; surprised, she stands still the next round.
#[test]
fn a_surprised_walker_stands_still_in_the_lost_round() {
    let mut app = duel(1, SWORD, 14, "");
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.give(Move {
        who: "Ada".into(),
        to: (10, 1),
        pace: Pace::Exploration,
    });
    // Initiative 11 and 9; the party's surprise die a 1, the ghouls' a 6.
    app.script_dice(&[11, 9, 1, 6]);
    app.run(1);
    let at = app.at("Ada");
    app.run(1);
    assert_eq!(app.at("Ada"), at, "{}", app.log().to_text());
    app.run(1);
    assert_ne!(app.at("Ada"), at, "the round after, the walk goes on");
}

/// The same for a whole party on the march: surprised as the battle begins, neither its leader
/// nor its followers take a step in the round the party loses, and a march ordered in that
/// round is refused; the march under way goes on the round after.
#[test]
fn a_surprised_party_does_not_march_in_the_lost_round() {
    let floor = format!("X{}X", ".".repeat(20));
    let wall = "X".repeat(22);
    let mut app = Scenario::new(&[&wall, &floor, &wall])
        .light("(at: (10, 1), kind: Custom(bright_feet: 80, dim_feet: 90), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Ada", "Bo"])"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 12,
                encumbrance_stone: 2.0, attack_bonus: 2{SWORD})"#
        ))
        .creature(
            r#"(name: "Bo", faction: "party", at: (1, 1), hp: 30, ac: 12, encumbrance_stone: 2.0)"#,
        )
        .creature(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (19, 1), hp: 30)"#,
        )
        .build();
    control(&mut app, "Gnawbone");
    let march = delve_rules::command::acts::MoveParty {
        party: "party".into(),
        to: (12, 1),
        pace: Pace::Exploration,
    };
    app.give(march.clone());
    // Initiative 11 and 9; the party's surprise die a 1, the ghouls' a 6.
    app.script_dice(&[11, 9, 1, 6]);
    app.run(1);
    assert!(
        app.world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active
    );
    let (ada, bo) = (app.at("Ada"), app.at("Bo"));
    app.give(march);
    app.run(1);
    assert_eq!(
        (app.at("Ada"), app.at("Bo")),
        (ada, bo),
        "{}",
        app.log().to_text()
    );
    // The march ordered in the lost round is refused, the surprise the reason.
    assert!(app.was_refused("party", &Hold::Surprised));
    app.run(1);
    assert_ne!(app.at("Ada"), ada, "the round after, the party marches on");
}

/// The standard rules' total defense, a standard action taken in the faction's initiative (RULINGS
/// › The battle round): +4 AC and no attacks — none of opportunity either — until the start of its
/// faction's next initiative. The party acts first. In round 1 Ada's blow comes before the ghouls'
/// turn and meets no total defense; in their initiative Gnawbone takes it, and its own mind's order
/// to attack makes no attack. In round 2 Ada strikes it in total defense and steps away from it
/// unanswered; in the ghouls' initiative its total defense ends and it strikes again.
#[test]
fn total_defense_ends_the_creatures_attacks_until_its_next_turn() {
    let mut app = duel(6, SWORD, 7, "");
    control(&mut app, "Ada");
    // Initiative 11 and 9; neither side surprised.
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    app.give(Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    app.act(TotalDefense {
        who: "Gnawbone".into(),
    });
    let in_defense = ("Gnawbone in total defense".to_owned(), -4);
    let ada_first = app
        .log()
        .entries()
        .iter()
        .find_map(|e| match e.get::<CombatEvent>() {
            Some(CombatEvent::Attacked { who, throw, .. }) if who == "Ada" && e.round == 1 => {
                Some(throw.clone())
            }
            _ => None,
        })
        .unwrap();
    assert!(
        !ada_first.modifiers.iter().any(|m| m.source == in_defense.0),
        "the party's initiative came before the ghouls'"
    );
    assert_eq!(
        attacks_by(&app, "Gnawbone", 1),
        0,
        "{}",
        app.log().to_text()
    );
    // Round 2: Ada attacks, then walks away 25' (a melee blow sets no limit on the move).
    app.act(step("Ada", (1, 1)));
    let ada_second = app
        .log()
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.get::<CombatEvent>() {
            Some(CombatEvent::Attacked { who, throw, .. }) if who == "Ada" => Some(throw.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        ada_second
            .modifiers
            .iter()
            .any(|m| (m.source.clone(), m.value) == in_defense),
        "{:?}",
        ada_second.modifiers
    );
    assert_eq!(
        not_taken(&app),
        vec![("Gnawbone".into(), "Ada".into(), NoOpportunity::TotalDefense)]
    );
    assert_eq!(app.at("Ada"), GridPos::new(1, 1));
    assert!(
        app.events::<CombatEvent>()
            .contains(&CombatEvent::TotalDefenseEnded {
                who: "Gnawbone".into()
            })
    );
}

/// Tactical Combat › Firearm Misfires: "a full round action is spent clearing the jam"; with
/// Gunsmithing, a standard action. Either way Wren makes no attack that round (her standing
/// order waits for the next); without Gunsmithing she does not move either.
#[test]
fn clearing_a_jam_takes_the_round_or_the_standard_action() {
    for gunsmith in [false, true] {
        let wren = GUNNER.replace(
            "encumbrance_stone: 2.0,",
            if gunsmith {
                "encumbrance_stone: 2.0, proficiencies: [Gunsmithing],"
            } else {
                "encumbrance_stone: 2.0,"
            },
        );
        let mut app = arena("", &wren);
        control(&mut app, "Wren");
        control(&mut app, "Brannoc");
        control(&mut app, "Gnawbone");
        // Brannoc out of Wren's line of fire.
        let b = app.entity("Brannoc");
        app.world_mut()
            .entity_mut(b)
            .insert(delve_rules::creature::Position(GridPos::new(9, 1)));
        app.script_dice(&[11, 9, 6, 6]);
        app.run(1);
        let w = app.entity("Wren");
        app.world_mut()
            .entity_mut(w)
            .insert(delve_rules::rules::combat::gear::Jammed);
        app.give(Attack {
            who: "Wren".into(),
            target: "Gnawbone".into(),
            weapon: None,
        });
        app.act(ClearJam { who: "Wren".into() });
        let round = 1;
        assert_eq!(
            attacks_by(&app, "Wren", round),
            0,
            "{}",
            app.log().to_text()
        );
        assert!(
            app.events::<CombatEvent>()
                .contains(&CombatEvent::JamCleared {
                    who: "Wren".into(),
                    whole_round: !gunsmith
                })
        );
        app.run(1);
        assert_eq!(attacks_by(&app, "Wren", 2), 1, "the order stood");
    }
    // Without Gunsmithing, a walk given with the clearing goes nowhere that round.
    let mut app = arena("", GUNNER);
    control(&mut app, "Wren");
    control(&mut app, "Brannoc");
    control(&mut app, "Gnawbone");
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    let w = app.entity("Wren");
    app.world_mut()
        .entity_mut(w)
        .insert(delve_rules::rules::combat::gear::Jammed);
    let b = app.entity("Brannoc");
    app.world_mut()
        .entity_mut(b)
        .insert(delve_rules::creature::Position(GridPos::new(9, 1)));
    app.give(ClearJam { who: "Wren".into() });
    app.act(step("Wren", (2, 1)));
    assert_eq!(
        app.at("Wren"),
        GridPos::new(1, 1),
        "{}",
        app.log().to_text()
    );
}

/// RULINGS › The battle round: "every action a creature takes in a battle happens in its
/// faction's initiative". The party acts first; Gnawbone forgoes its shield in round 1: Ada's blow
/// of round 1 comes before, and meets the shield; her blow of round 2 comes before the ghouls'
/// next turn and meets none; at that turn the shield returns, and the log says so.
#[test]
fn forgoing_a_shield_happens_in_the_faction_turn() {
    let mut app = duel(6, SWORD, 7, ", shield: Some((weight: Heavy, ac_bonus: 1))");
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    app.give(Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    app.act(ForgoShield {
        who: "Gnawbone".into(),
    });
    let forgone = ("Gnawbone without its shield (forgone)".to_owned(), 1);
    assert!(!last_attack(&app).1.contains(&forgone));
    app.run(1);
    assert!(
        last_attack(&app).1.contains(&forgone),
        "{:?}",
        last_attack(&app).1
    );
    assert!(
        app.events::<CombatEvent>()
            .contains(&CombatEvent::ShieldReturned {
                who: "Gnawbone".into()
            })
    );
    app.run(1);
    assert!(!last_attack(&app).1.contains(&forgone));
}

/// Situational Penalties › Penalty to ranged attacks from movement: only "if the character
/// performs the ranged attack first, then moves, they can only move within their reach". Ada,
/// told to strike the ghoul beside her with her sword and to walk 25' away, strikes and walks
/// the whole way, provoking its attack of opportunity.
#[test]
fn a_melee_blow_before_moving_sets_no_limit() {
    let mut app = duel(6, &format!("{SWORD}, initiative_modifier: 20"), 7, "");
    control(&mut app, "Ada");
    control(&mut app, "Gnawbone");
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    app.give(Attack {
        who: "Ada".into(),
        target: "Gnawbone".into(),
        weapon: Some("sword".into()),
    });
    app.act(step("Ada", (1, 1)));
    let seen = moves_and_blows(&app);
    assert_eq!(seen[0], (1, "Ada".into(), "attacks"), "{seen:?}");
    assert_eq!(app.at("Ada"), GridPos::new(1, 1), "25', not 15'");
    assert_eq!(opportunities(&app).len(), 1);
}

/// Tactical Combat › Shields: a forgone shield gives "all bonuses and benefits" up until the
/// next turn, and a destroyed one is gone: neither stands in a shield wall, and a forgone one
/// cannot be sacrificed to a critical.
#[test]
fn a_forgone_or_destroyed_shield_stands_in_no_wall_and_is_not_sacrificed() {
    let shield = ", shield: Some((weight: Heavy, ac_bonus: 1))";
    let second = r#"(name: "Ashmaw", template: "ghoul", faction: "ghouls", at: (4, 1),
        shield: Some((weight: Heavy, ac_bonus: 1)))"#;
    let wall = ("Gnawbone in a shield wall".to_owned(), -1);
    for (forgone, destroyed) in [(true, false), (false, true)] {
        let mut app = arena(shield, second);
        let (b, g, a) = (
            app.entity("Brannoc"),
            app.entity("Gnawbone"),
            app.entity("Ashmaw"),
        );
        if forgone {
            delve_rules::command::dispatch_now(
                app.world_mut(),
                ForgoShield {
                    who: "Ashmaw".into(),
                },
            );
        }
        if destroyed {
            app.world_mut()
                .entity_mut(a)
                .insert(delve_rules::rules::combat::gear::ShieldState {
                    broken: true,
                    destroyed: true,
                    sacrificed_in: None,
                });
        }
        app.script_dice(&[10, 3]);
        delve_rules::rules::combat::attack::attack(app.world_mut(), b, g, 0).unwrap();
        assert!(
            !last_attack(&app).1.contains(&wall),
            "{:?}",
            last_attack(&app).1
        );
    }
    // Gnawbone forgoes its own shield: a critical that could put it down stands.
    let mut app = arena(shield, "");
    let (b, g) = (app.entity("Brannoc"), app.entity("Gnawbone"));
    delve_rules::command::dispatch_now(
        app.world_mut(),
        ForgoShield {
            who: "Gnawbone".into(),
        },
    );
    app.script_dice(&[20, 15, 4]);
    delve_rules::rules::combat::attack::attack(app.world_mut(), b, g, 0).unwrap();
    let d = last_attack(&app).5.unwrap();
    assert!(d.critical, "a forgone shield is not sacrificed");
    assert!(
        app.get::<delve_rules::rules::combat::gear::ShieldState>("Gnawbone")
            .is_none()
    );
}

/// The Judge sees the gate: each attack of opportunity not made says why — a cautious mover
/// and no Combat Reflexes, the allowance used (one a round), a disengaged step.
#[test]
fn an_attack_of_opportunity_not_made_says_why() {
    let mut app = engaged("");
    app.act(delve_rules::command::acts::MoveCautiously {
        who: "Brannoc".into(),
        to: (1, 1),
    });
    assert_eq!(
        not_taken(&app),
        vec![(
            "Gnawbone".into(),
            "Brannoc".into(),
            NoOpportunity::CautiousMover
        )]
    );

    let mut app = engaged("");
    app.give(Disengage {
        who: "Brannoc".into(),
        from: "Gnawbone".into(),
    });
    app.act(step("Brannoc", (1, 1)));
    assert_eq!(
        not_taken(&app),
        vec![(
            "Gnawbone".into(),
            "Brannoc".into(),
            NoOpportunity::Disengaged
        )]
    );

    // Two step away from one ghoul: its one attack of opportunity goes to the first.
    let mut app = Scenario::new(&["XXXXXXX", "X.....X", "X.....X", "XXXXXXX"])
        .light("(at: (5, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16, encumbrance_stone: 2.0)"#)
        .creature(r#"(name: "Mirela", faction: "party", at: (2, 2), hp: 12, ac: 12, encumbrance_stone: 2.0)"#)
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1), hp: 30)"#)
        .build();
    control(&mut app, "Brannoc");
    control(&mut app, "Mirela");
    control(&mut app, "Gnawbone");
    app.script_dice(&[11, 9, 6, 6]);
    app.run(1);
    app.give(step("Mirela", (1, 2)));
    app.act(step("Brannoc", (1, 1)));
    assert_eq!(opportunities(&app).len(), 1, "{}", app.log().to_text());
    assert_eq!(
        not_taken(&app)
            .iter()
            .map(|n| n.2.clone())
            .collect::<Vec<_>>(),
        vec![NoOpportunity::AllowanceUsed { allowed: 1 }]
    );
}

/// Situational Penalties › Movement: "the GM may also decide that, based on the situation,
/// objective, or type of action, the character cannot perform said action while running". With
/// the Judge's `no_actions_while_running`, Ada running down the hall is refused a methodical
/// search (an action of the round), and is not offered one; she may still halt, and once she
/// walks, search. Without the call, she searches on the run.
#[test]
fn the_judge_may_rule_out_actions_while_running() {
    let hall = |judge: &str| {
        Scenario::lit_corridor(80)
            .creature(
                r#"(name: "Ada", faction: "party", at: (1, 1), hp: 10, ac: 12,
                    encumbrance_stone: 2.0, saves: { Paralysis: 14 })"#,
            )
            .field(judge)
            .build()
    };
    let run = |app: &mut Delve, pace: Pace| {
        app.give(Move {
            who: "Ada".into(),
            to: (75, 1),
            pace,
        });
    };
    let searching = |app: &Delve| {
        delve_rules::rules::choices_for(app.world(), app.entity("Ada"))
            .iter()
            .any(|(_, c)| c.way == "search methodically")
    };
    let not_while = delve_rules::act::NotWhile("while running (the Judge's call)");
    let mut app = hall("judge: (no_actions_while_running: true)");
    run(&mut app, Pace::Running);
    app.run(1);
    assert!(!searching(&app), "not offered while she runs");
    app.act(delve_rules::command::acts::Search { who: "Ada".into() });
    assert!(app.was_refused("Ada", &not_while));
    assert!(app.get::<delve_rules::rules::task::Task>("Ada").is_none());

    let mut app = hall("judge: (no_actions_while_running: true)");
    run(&mut app, Pace::Exploration);
    app.run(1);
    assert!(searching(&app));
    app.act(delve_rules::command::acts::Search { who: "Ada".into() });
    assert!(app.get::<delve_rules::rules::task::Task>("Ada").is_some());

    let mut app = hall("judge: ()");
    run(&mut app, Pace::Running);
    app.run(1);
    app.act(delve_rules::command::acts::Search { who: "Ada".into() });
    assert!(app.get::<delve_rules::rules::task::Task>("Ada").is_some());
}
