//! Caving on ropes (Dungeon Delves › Climbing, Rappelling, Belaying, Crawling Traverse): grappling
//! hooks, climbing down and rappelling on a rope, belays and their failures, crawling traverses
//! rigged and crossed, a rope's reach.

use super::caving::*;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::Surface;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{
    Belay, Climb, ClimbDown, CrawlAcross, LowerRope, Move, RigTraverse, ThrowGrapplingHook,
};
use delve_rules::creature::Below;
use delve_rules::rules::acting::Hold;
use delve_rules::rules::caving::{CavingEvent, CavingRefusal, ClimbPace, Climbing};
use delve_rules::rules::movement::Pace;

/// Dungeon Delves › Climbing: a grappling hook thrown for the anchor (AC 2: 12 ascending) 30'
/// above takes −2; caught, the rope makes the side an easy climb. On a natural 1 it only seems
/// to catch, and slips loose at the first failed Climbing throw: a fall from the throw's point.
#[test]
fn a_grappling_hook_out_of_a_chasm() {
    let fall_in = |delve: &mut Delve| {
        delve.script_dice(&[6, 1, 1, 1]);
        jump_across(delve);
        assert!(delve.get::<Below>("Jess").is_some());
    };
    let gear = ", at: (5, 1), attack_bonus: 1, gear: [GrapplingHook, Rope(50)]";
    let mut delve = chasm(gear, 13, '.');
    fall_in(&mut delve);
    delve.script_dice(&[13]);
    delve.act(ThrowGrapplingHook { who: "Jess".into() });
    let t = delve.throws().pop().unwrap();
    assert_eq!(t.target, 12);
    assert!(
        t.modifiers.iter().any(|m| m.value == -2),
        "{:?}",
        t.modifiers
    );
    assert!(t.success, "{:?}", t.modifiers);
    delve.act(Climb {
        who: "Jess".into(),
        to: (8, 1),
        pace: ClimbPace::Third,
    });
    assert!(delve.events::<CavingEvent>().iter().any(|e| matches!(
        e,
        CavingEvent::ClimbBegun {
            surface: Surface::Easy,
            ..
        }
    )));

    let mut delve = chasm(gear, 13, '.');
    fall_in(&mut delve);
    delve.script_dice(&[1]);
    delve.act(ThrowGrapplingHook { who: "Jess".into() });
    assert!(
        delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::HookThrown { caught: true, .. }))
    );
    delve.give(Climb {
        who: "Jess".into(),
        to: (8, 1),
        pace: ClimbPace::Third,
    });
    // 13⅓' a round: the throw at 15' comes in the second round; a 5 fails, the hook slips.
    delve.run(1);
    delve.script_dice(&[5, 2]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::HookSlipped { .. }))
    );
    assert!(delve.events::<CavingEvent>().contains(&CavingEvent::Fell {
        who: "Jess".into(),
        feet: 15,
        dice: vec![2],
        damage: 2
    }));
}

/// Dungeon Delves › Climbing: down an easy rope (8+) a third of combat speed a round, the throw
/// at the middle of the 30'; at the bottom.
#[test]
fn climbing_down_a_rope_into_a_chasm() {
    let mut delve = chasm(", at: (5, 1), gear: [Rope(50)]", 13, '.');
    delve.act(LowerRope {
        who: "Jess".into(),
        at: (6, 1),
    });
    delve.give(ClimbDown {
        who: "Jess".into(),
        into: (6, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.run(1);
    delve.script_dice(&[8]);
    delve.run(2);
    let t: Vec<_> = climbing(&delve);
    assert_eq!((t.len(), t[0].target, t[0].success), (1, 8, true));
    assert_eq!(delve.at("Jess"), GridPos::new(6, 1));
    assert_eq!(delve.get::<Below>("Jess"), Some(&Below { depth_feet: 30 }));
}

/// Dungeon Delves › Rappelling: for the proficient, down a secured rope at running speed; a
/// natural 1 falls from the midpoint (15' of 30' left), unless proficient in both Climbing and
/// Mountaineering.
#[test]
fn rappelling_at_running_speed_and_the_botch() {
    let rappel = |delve: &mut Delve, face: u32| {
        delve.act(LowerRope {
            who: "Jess".into(),
            at: (6, 1),
        });
        delve.give(ClimbDown {
            who: "Jess".into(),
            into: (6, 1),
            rappel: true,
            pace: ClimbPace::Third,
        });
        delve.script_dice(&[face, 4]);
        delve.run(1);
    };
    let climber =
        ", at: (5, 1), gear: [Rope(50)], proficiencies: [Climbing], throws: { Climbing: 6 }";
    let mut delve = chasm(climber, 13, '.');
    rappel(&mut delve, 10);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::ClimbedDown {
                who: "Jess".into(),
                at: GridPos::new(6, 1)
            }),
        "30' in one round at running speed"
    );

    let mut delve = chasm(climber, 13, '.');
    rappel(&mut delve, 1);
    assert!(delve.events::<CavingEvent>().contains(&CavingEvent::Fell {
        who: "Jess".into(),
        feet: 15,
        dice: vec![4],
        damage: 4
    }));
    assert_eq!(delve.get::<Below>("Jess"), Some(&Below { depth_feet: 30 }));

    let both = ", at: (5, 1), gear: [Rope(50)], proficiencies: [Climbing, Mountaineering], throws: { Climbing: 6 }";
    let mut delve = chasm(both, 13, '.');
    rappel(&mut delve, 1);
    assert!(
        !delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { .. }))
    );

    let mut delve = chasm(", at: (5, 1), gear: [Rope(50)]", 13, '.');
    delve.act(LowerRope {
        who: "Jess".into(),
        at: (6, 1),
    });
    delve.act(ClimbDown {
        who: "Jess".into(),
        into: (6, 1),
        rappel: true,
        pace: ClimbPace::Third,
    });
    assert!(delve.was_refused("Jess", &CavingRefusal::RappellingNeedsClimbing));
}

/// Dungeon Delves › Belaying: the belayer's Dungeonbashing 18+ (Strength 18: +12), the
/// climber's 2 stone a penalty: caught, no fall. On a natural 1 the belayer must make a
/// Climbing throw (the climber's stone a penalty) or fall in too.
#[test]
fn a_belayer_breaks_the_fall_or_is_pulled_in() {
    let climber = ", proficiencies: [Climbing], throws: { Climbing: 6 }";
    let start = |delve: &mut Delve| {
        delve.act(Belay {
            who: "Bo".into(),
            climber: "Ada".into(),
        });
        assert!(delve.was_refused("Bo", &CavingRefusal::NotClimbing));
        // Given in one round: Ada starts up, and Bo stands ready, before she climbs.
        delve.give(Climb {
            who: "Ada".into(),
            to: (2, 1),
            pace: ClimbPace::Third,
        });
        delve.give(Belay {
            who: "Bo".into(),
            climber: "Ada".into(),
        });
    };
    let mut delve = ada_in_a_pit(climber, ", str: 18, gear: [Rope(50)]");
    start(&mut delve);
    // The climb's throw at 10' fails (sheer: a fall); Bo throws 8: 8 + 12 − 2 = 18.
    delve.script_dice(&[5, 8]);
    delve.run(1);
    let bash = delve.throws().pop().unwrap();
    assert_eq!((bash.target, bash.total), (18, 18), "{:?}", bash.modifiers);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::Belayed {
                who: "Bo".into(),
                climber: "Ada".into(),
                caught: true
            })
    );
    assert!(
        !delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { .. }))
    );
    assert!(delve.get::<Climbing>("Ada").is_some(), "still on the wall");

    let mut delve = ada_in_a_pit(climber, ", str: 18, gear: [Rope(50)]");
    start(&mut delve);
    delve.script_dice(&[5, 1, 3, 1, 1, 2]);
    delve.run(1);
    let falls: Vec<(String, u32)> = delve
        .events::<CavingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CavingEvent::Fell { who, feet, .. } => Some((who, feet)),
            _ => None,
        })
        .collect();
    assert_eq!(falls, vec![("Bo".into(), 20), ("Ada".into(), 10)]);
    assert_eq!(delve.get::<Below>("Bo"), Some(&Below { depth_feet: 20 }));
}

/// Dungeon Delves › Crawling Traverse: rigging secures the near end (a round), hooks the far
/// counterweight (AC 2: 12, −2 at 15') until it holds, and tightens the rope (a round); then
/// the crossing is 8+ by Adventuring, a throw at the midpoint.
#[test]
fn a_crawling_traverse_is_rigged_and_crossed() {
    let mut delve = chasm(
        ", at: (5, 1), attack_bonus: 1, gear: [GrapplingHook, Rope(50)]",
        13,
        '.',
    );
    delve.act(RigTraverse {
        who: "Jess".into(),
        to: (8, 1),
    });
    delve.script_dice(&[11, 13]);
    delve.run(3);
    let hooks: Vec<(i32, i32, bool)> = delve
        .throws()
        .into_iter()
        .filter(|t| t.what.starts_with("grappling hook"))
        .map(|t| (t.natural as i32, t.target, t.success))
        .collect();
    assert_eq!(
        hooks,
        vec![(11, 12, false), (13, 12, true)],
        "until it holds"
    );
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::TraverseRigged {
                who: "Jess".into(),
                from: GridPos::new(5, 1),
                to: GridPos::new(8, 1)
            })
    );
    delve.give(CrawlAcross {
        who: "Jess".into(),
        to: (8, 1),
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[8]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::Traversed {
                who: "Jess".into(),
                at: GridPos::new(8, 1)
            })
    );
}

/// Dungeon Delves › Balancing Traverse: the Paralysis save for damage is for "an adventurer who
/// suffers damage while on a narrow or precarious path" — not one crawling a rope.
#[test]
fn damage_while_crawling_a_rope_calls_for_no_balance_save() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXXX", "X....CCCCC..X", "XXXXXXXXXXXXX"])
        .field("climbs: [(at: (9, 1), anchor_ac: 2)]")
        .legend("'C': Chasm(depth_feet: 30)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Jess", faction: "party", at: (4, 1), hp: 20, ac: 12, attack_bonus: 1,
                encumbrance_stone: 2.0, saves: { Paralysis: 12 },
                gear: [GrapplingHook, Rope(50)])"#,
        )
        .build();
    delve.act(RigTraverse {
        who: "Jess".into(),
        to: (10, 1),
    });
    delve.script_dice(&[20]);
    delve.run(3);
    delve.give(CrawlAcross {
        who: "Jess".into(),
        to: (10, 1),
        pace: ClimbPace::Third,
    });
    delve.run(1);
    assert!(
        delve
            .get::<delve_rules::rules::caving::traverse::Traversing>("Jess")
            .is_some(),
        "{}",
        delve.log().to_text()
    );
    let before = delve.throws().len();
    let jess = delve.entity("Jess");
    delve_rules::rules::damage::take_damage(delve.world_mut(), jess, 1);
    assert_eq!(delve.throws().len(), before, "no save");
    assert!(delve.get::<Below>("Jess").is_none());
}

/// Dungeon Delves › Crawling Traverse: a rope bears 45 stone.
#[test]
fn a_rope_traverse_bears_45_stone() {
    use delve_rules::rules::caving::traverse::{Rigged, RiggedTraverses};
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXX",
        "X....CCCCCC....X",
        "XXXXXXXXXXXXXXXX",
    ])
        .legend("'C': Chasm(depth_feet: 30)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(r#"(name: "Ox", faction: "party", at: (4, 1), hp: 20, ac: 10, encumbrance_stone: 20.0)"#)
        .creature(r#"(name: "Yak", faction: "party", at: (3, 1), hp: 20, ac: 10, encumbrance_stone: 20.0)"#)
        .creature(r#"(name: "Jess", faction: "party", at: (2, 1), hp: 20, ac: 10, encumbrance_stone: 6.0)"#)
        .build();
    delve
        .world_mut()
        .resource_mut::<RiggedTraverses>()
        .0
        .push(Rigged {
            from: GridPos::new(4, 1),
            to: GridPos::new(11, 1),
            ropes: 1,
            by_mountaineer: None,
        });
    let onto_the_rope = |delve: &mut Delve, who: &str| {
        delve.act(Move {
            who: who.into(),
            to: (4, 1),
            pace: Pace::Combat,
        });
        delve.act(CrawlAcross {
            who: who.into(),
            to: (11, 1),
            pace: ClimbPace::Third,
        });
    };
    onto_the_rope(&mut delve, "Ox");
    onto_the_rope(&mut delve, "Yak");
    assert!(delve.last_refusal().is_none(), "40 stone on one rope");
    onto_the_rope(&mut delve, "Jess");
    assert!(delve.was_refused(
        "Jess",
        &CavingRefusal::TooHeavyForTheRope {
            load: 46.0,
            bears: 45.0
        }
    ));
}

/// Dungeon Delves › Rappelling: a failed throw slows the rappel to combat speed (40' a round
/// at 2 stone) from running speed (120'), down a 300' rope into a 300' chasm.
#[test]
fn a_failed_rappelling_throw_slows_to_combat_speed() {
    let mut delve = Scenario::new(&["XXXXXX", "X..C.X", "XXXXXX"])
        .legend("'C': Chasm(depth_feet: 300)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ro", faction: "party", at: (2, 1), hp: 20, ac: 12, encumbrance_stone: 2.0,
                proficiencies: [Climbing], throws: { Climbing: 6 }, gear: [Rope(300)])"#,
        )
        .build();
    delve.act(LowerRope {
        who: "Ro".into(),
        at: (3, 1),
    });
    delve.give(ClimbDown {
        who: "Ro".into(),
        into: (3, 1),
        rappel: true,
        pace: ClimbPace::Third,
    });
    // The throw at 50' fails (a 3): slowed after it.
    delve.script_dice(&[3]);
    delve.run(1);
    assert_eq!(delve.get::<Climbing>("Ro").unwrap().done_feet, 120.0);
    delve.run(1);
    assert_eq!(
        delve.get::<Climbing>("Ro").unwrap().done_feet,
        160.0,
        "40' at combat speed"
    );
}

/// Gear › Rope: a rope reaches as far as its length. Lowering one that does not reach the
/// bottom is refused; the shortest that reaches is spent, hangs in the pit, and comes back up
/// with `TakeUpRope` — but not while someone is on it.
#[test]
fn a_rope_reaches_as_far_as_its_length_and_stays_where_it_hangs() {
    use delve_ground::level::schema::Gear;
    use delve_rules::command::acts::TakeUpRope;
    use delve_rules::creature::Equipment;
    let mut delve = ada_in_a_pit("", ", gear: [Rope(10)]");
    delve.act(LowerRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    assert!(delve.was_refused(
        "Bo",
        &CavingRefusal::RopeTooShort {
            needs: 20,
            longest: 10
        }
    ));

    let mut delve = ada_in_a_pit("", ", gear: [Rope(100), Rope(10), Rope(50)]");
    delve.act(LowerRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    assert_eq!(
        delve.get::<Equipment>("Bo").unwrap().0,
        vec![Gear::Rope(100), Gear::Rope(10)],
        "the 50' rope, the shortest that reaches, hangs in the pit"
    );
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    delve.give(TakeUpRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    delve.script_dice(&[12]);
    delve.run(1);
    assert!(delve.was_refused(
        "Bo",
        &CavingRefusal::RopeInUse {
            at: GridPos::new(3, 1)
        }
    ));
    delve.run(1);
    assert_eq!(delve.at("Ada"), GridPos::new(2, 1), "climbed out");
    delve.act(TakeUpRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::RopeTakenUp {
                who: "Bo".into(),
                at: GridPos::new(3, 1)
            })
    );
    assert!(delve.get::<Equipment>("Bo").unwrap().has(&Gear::Rope(50)));
    assert!(!delve_rules::rules::caving::climbing::rope_in(
        delve.app.world(),
        GridPos::new(3, 1)
    ));
}

/// Dungeon Delves › Belaying: the rope must cover the distance between belayer and climber:
/// 20' from the rim to the bottom of the pit.
#[test]
fn a_belayer_needs_a_rope_that_reaches_the_climber() {
    let mut delve = ada_in_a_pit(
        ", proficiencies: [Climbing], throws: { Climbing: 6 }",
        ", gear: [Rope(10)]",
    );
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    delve.give(Belay {
        who: "Bo".into(),
        climber: "Ada".into(),
    });
    delve.script_dice(&[15]);
    delve.run(1);
    assert!(delve.was_refused(
        "Bo",
        &CavingRefusal::RopeTooShort {
            needs: 20,
            longest: 10
        }
    ));
}

/// Dungeon Delves › Belaying: a belayer who fails to slow the fall lets the climber fall the
/// length of the rope: Ro falls off 150' above the bottom, and drops the 60' of Bo's rope, to
/// hang at its end (6d6), still on the climb.
#[test]
fn a_failed_belay_drops_the_climber_the_length_of_the_rope() {
    let mut delve = deep_chasm();
    delve.give(ClimbDown {
        who: "Ro".into(),
        into: (3, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.give(Belay {
        who: "Bo".into(),
        climber: "Ro".into(),
    });
    // 12' a round (its exploration speed, outside a battle): 48' in four rounds.
    delve.run(4);
    assert!(falls(&delve).is_empty());
    // At 50' (the middle of the first 100') Ro throws a 5 against 6; Bo 5 + 12 − 2 = 15 < 18.
    delve.script_dice(&[5, 5, 1, 1, 1, 1, 1, 1]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::Belayed {
                who: "Bo".into(),
                climber: "Ro".into(),
                caught: false
            })
    );
    assert_eq!(falls(&delve), vec![("Ro".into(), 60)]);
    let c = delve.get::<Climbing>("Ro").expect("hangs on the rope");
    assert_eq!(c.done_feet, 110.0, "90' above the bottom of the 200'");
    assert_eq!(delve.at("Ro"), GridPos::new(2, 1));
}

/// Dungeon Delves › Belaying: "If the belayer was himself secured by another belayer further
/// along than himself, that belayer must now repeat the steps above." Cy, on the climb above
/// Ro, belays Ro; Bo, at the top, belays Cy. Ro falls; Cy's throw is a natural 1 and its
/// footing throw fails: Cy falls off too, and Bo catches Cy. Ro drops the length of Cy's rope.
#[test]
fn belayers_up_the_rope_each_repeat_the_steps() {
    let mut delve = deep_chasm();
    delve.give(ClimbDown {
        who: "Ro".into(),
        into: (3, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.run(3);
    delve.give(ClimbDown {
        who: "Cy".into(),
        into: (3, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.give(Belay {
        who: "Cy".into(),
        climber: "Ro".into(),
    });
    delve.give(Belay {
        who: "Bo".into(),
        climber: "Cy".into(),
    });
    delve.run(1);
    assert!(falls(&delve).is_empty());
    // Ro's throw at 50': 5 (fails, sheer); Cy's Dungeonbashing: a natural 1; Cy's footing: 2
    // against 6 (fails); Bo for Cy: 15 + 12 − 2 = 25, caught; Ro falls Cy's 60' (6d6).
    delve.script_dice(&[5, 1, 2, 15, 1, 1, 1, 1, 1, 1]);
    delve.run(1);
    let belayed: Vec<(String, String, bool)> = delve
        .events::<CavingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CavingEvent::Belayed {
                who,
                climber,
                caught,
            } => Some((who, climber, caught)),
            _ => None,
        })
        .collect();
    assert_eq!(
        belayed,
        vec![
            ("Cy".into(), "Ro".into(), false),
            ("Bo".into(), "Cy".into(), true)
        ]
    );
    assert_eq!(falls(&delve), vec![("Ro".into(), 60)]);
    assert!(
        delve.get::<Climbing>("Cy").is_some(),
        "Cy hangs on Bo's rope"
    );
}

/// Dungeon Delves › Crawling Traverse: "crawling across the traverse requires both hands and
/// feet": a mapper (both hands on the map) is refused the rope, and a crawler can do nothing
/// but crawl on (nor throw a grappling hook, nor open a door).
#[test]
fn crawling_takes_both_hands() {
    use delve_rules::rules::caving::traverse::{Rigged, RiggedTraverses};
    use delve_rules::rules::movement::Mapper;
    let mut delve = Scenario::new(&["XXXXXXXXXXX", "X...CCC...X", "XXXXXXXXXXX"])
        .legend("'C': Chasm(depth_feet: 30)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Jess", faction: "party", at: (3, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0, gear: [Rope(50), GrapplingHook])"#,
        )
        .build();
    delve
        .world_mut()
        .resource_mut::<RiggedTraverses>()
        .0
        .push(Rigged {
            from: GridPos::new(3, 1),
            to: GridPos::new(7, 1),
            ropes: 1,
            by_mountaineer: None,
        });
    let jess = delve.entity("Jess");
    delve
        .world_mut()
        .entity_mut(jess)
        .insert(Mapper { proficient: false });
    delve.act(CrawlAcross {
        who: "Jess".into(),
        to: (7, 1),
        pace: ClimbPace::Third,
    });
    assert!(delve.was_refused("Jess", &CavingRefusal::HandsBusy { with: "mapping" }));
    delve.world_mut().entity_mut(jess).remove::<Mapper>();
    delve.act(CrawlAcross {
        who: "Jess".into(),
        to: (7, 1),
        pace: ClimbPace::Third,
    });
    assert!(
        delve
            .get::<delve_rules::rules::caving::traverse::Traversing>("Jess")
            .is_some()
    );
    delve.act(LowerRope {
        who: "Jess".into(),
        at: (5, 1),
    });
    assert!(delve.was_refused("Jess", &Hold::CrawlingATraverse));
}

/// Dungeon Delves › Belaying: a belayer who fails on a 1 "must make an immediate Climbing
/// proficiency throw, applying the falling climber's encumbrance as a penalty" — always, even
/// for one proficient in Climbing and Mountaineering (who escapes only the penalty on the
/// Dungeonbashing throw); on a sheer climb it is by the belayer's class value (12), not the
/// easy climb's 8+.
#[test]
fn a_belayer_pulled_off_balance_throws_by_the_climbs_surface_with_the_climbers_weight() {
    let mut delve = Scenario::new(&["XXXXXXX", "X..C..X", "XXX.XXX", "XXXXXXX"])
        .legend("'C': Chasm(depth_feet: 200)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Ro", faction: "party", at: (2, 1), hp: 40, ac: 12, encumbrance_stone: 2.0,
                proficiencies: [Climbing], throws: { Climbing: 6 }, gear: [Rope(60)])"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (3, 2), hp: 40, ac: 12, str: 18,
                encumbrance_stone: 2.0, proficiencies: [Climbing, Mountaineering],
                throws: { Climbing: 12, Mountaineering: 12 }, gear: [Rope(60)])"#,
        )
        .build();
    delve.give(ClimbDown {
        who: "Ro".into(),
        into: (3, 1),
        rappel: false,
        pace: ClimbPace::Third,
    });
    delve.give(Belay {
        who: "Bo".into(),
        climber: "Ro".into(),
    });
    delve.run(4);
    // Ro's throw at 50': 5 (fails, sheer); Bo's Dungeonbashing: a natural 1; Bo's footing: 20.
    delve.script_dice(&[5, 1, 20, 1, 1, 1, 1, 1, 1]);
    delve.run(1);
    let throws = delve.throws_for(delve_rules::rules::throws::Skill::Dungeonbashing);
    let bash = throws.last().unwrap();
    assert!(
        !bash.modifiers.iter().any(|m| m.source.contains("stone")),
        "{:?}",
        bash.modifiers
    );
    let footing = delve
        .throws_for(delve_rules::rules::throws::Skill::Proficiency(
            delve_ground::level::schema::Proficiency::Climbing,
        ))
        .into_iter()
        .find(|t| t.what.contains("footing"))
        .expect("a footing throw");
    assert_eq!(footing.target, 12);
    assert!(
        footing
            .modifiers
            .iter()
            .any(|m| m.value == -2 && m.source == "the climber's 2 stone"),
        "{:?}",
        footing.modifiers
    );
}

/// Dungeon Delves › Crawling Traverse: the grappling hook thrown at the far counterweight is an
/// attack throw, and takes the situational penalties like every attack throw (RULINGS ›
/// Movement penalties): prone, −4.
#[test]
fn the_traverse_hook_takes_the_situational_penalties() {
    let mut delve = chasm(
        ", at: (5, 1), attack_bonus: 1, conditions: [Prone], gear: [GrapplingHook, Rope(50)]",
        13,
        '.',
    );
    delve.act(RigTraverse {
        who: "Jess".into(),
        to: (8, 1),
    });
    delve.script_dice(&[20]);
    delve.run(2);
    let hook = delve
        .throws()
        .into_iter()
        .find(|t| t.what.starts_with("grappling hook"))
        .expect("the hook is thrown");
    let mods: Vec<(String, i32)> = hook
        .modifiers
        .into_iter()
        .map(|m| (m.source, m.value))
        .collect();
    assert!(mods.contains(&("prone".to_owned(), -4)), "{mods:?}");
}
