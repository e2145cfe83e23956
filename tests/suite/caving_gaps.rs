//! Caving across gaps (Dungeon Delves › Jumping, Ledges): jumps with and without a run-up,
//! precarious landings, leaping out of a hole, narrow and precarious ledges and their falls.

use super::caving::*;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_play::scenario::Scenario;
use delve_rules::command::acts::{Climb, CrawlAcross, Jump, Traverse};
use delve_rules::creature::Below;
use delve_rules::creature::Conditions;
use delve_rules::rules::caving::{CavingEvent, CavingRefusal, ClimbPace, Climbing};

/// Dungeon Delves › Jumping: DEX 13 with no run-up clears (13 + 1d6 − 2) / 2 feet, at best
/// 8½' of a 10' gap: it falls short, into the chasm where it came down (8½' out: the second
/// chasm square), 30' (3d6), and is at its bottom.
#[test]
fn dex_13_with_no_run_up_falls_short_of_a_10_foot_chasm() {
    let mut delve = chasm(", at: (5, 1)", 13, '.');
    delve.script_dice(&[6, 1, 2, 3]);
    jump_across(&mut delve);
    assert_eq!(jumped(&delve), Some((10, 6, 8.5, false)));
    assert!(delve.events::<CavingEvent>().contains(&CavingEvent::Fell {
        who: "Jess".into(),
        feet: 30,
        dice: vec![1, 2, 3],
        damage: 6
    }));
    assert_eq!(delve.get::<Below>("Jess"), Some(&Below { depth_feet: 30 }));
    assert_eq!(delve.at("Jess"), GridPos::new(7, 1));
    // Out only by climbing the chasm's sheer side: not for her without Climbing.
    delve.act(Climb {
        who: "Jess".into(),
        to: (8, 1),
        pace: ClimbPace::Third,
    });
    assert!(delve.was_refused("Jess", &CavingRefusal::SheerNeedsClimbing));
}

/// Dungeon Delves › Jumping: after a moving start of 20' in the same move, the full DEX + 1d6 −
/// stone: 13 + 1 − 2 = 12' clears the 10' gap.
#[test]
fn a_run_up_clears_the_chasm() {
    let mut delve = chasm(", at: (1, 1)", 13, '.');
    delve.script_dice(&[1]);
    delve.act(Jump {
        who: "Jess".into(),
        to: (8, 1),
        from: Some((5, 1)),
        running: false,
    });
    assert_eq!(jumped(&delve), Some((10, 1, 12.0, true)));
    assert_eq!(delve.at("Jess"), GridPos::new(8, 1));
    assert!(delve.get::<Below>("Jess").is_none());
}

/// Dungeon Delves › Jumping: a landing on loose ground is precarious: a Paralysis save, or 1d6'
/// short; a few feet short on the ground, prone.
#[test]
fn a_precarious_landing_may_fall_short() {
    let mut delve = chasm(", at: (5, 1)", 18, ':');
    // (18 + 6 − 2) / 2 = 11: across; the save (12) fails on a 5; 3' short: prone.
    delve.script_dice(&[6, 5, 3]);
    jump_across(&mut delve);
    assert_eq!(delve.at("Jess"), GridPos::new(8, 1));
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::LandedShort {
                who: "Jess".into(),
                feet: 3
            })
    );
    assert!(
        delve
            .get::<Conditions>("Jess")
            .unwrap()
            .has(ConditionKind::Prone)
    );
}

/// Dungeon Delves › Balancing Traverse: a narrow path (6") by Adventuring 8+, at exploration
/// speed outside a battle (12' a round), one throw at the midpoint of 20'; the traverser is on
/// the ledge as it goes.
#[test]
fn a_narrow_ledge_is_crossed_at_exploration_speed() {
    let mut delve = ledge(6, "");
    cross(&mut delve);
    delve.script_dice(&[8]);
    delve.run(1);
    let t = delve.throws().pop().unwrap();
    assert_eq!((t.target, t.success), (8, true));
    assert_eq!(delve.at("Kit"), GridPos::new(5, 1), "12' along");
    // RULINGS › Sound: moving at exploration speed is quiet — balancing along too (it once made
    // combat speed's normal noise).
    let kit = delve.entity("Kit");
    let made: Vec<delve_rules::rules::sound::SoundRow> = delve
        .world()
        .resource::<delve_rules::rules::sound::noises::LastRoundNoises>()
        .0
        .iter()
        .filter(|n| n.maker == Some(kit))
        .map(|n| n.sound)
        .collect();
    assert_eq!(made, vec![delve_rules::rules::sound::SoundRow::Quiet]);
    // Vulnerable on the ledge, said so (it was once "climbing a sheer surface").
    assert_eq!(
        delve
            .get::<Conditions>("Kit")
            .unwrap()
            .get(ConditionKind::Vulnerable)
            .map(|v| v.source.as_str()),
        Some("traversing a ledge")
    );
    delve.run(1);
    assert_eq!(delve.at("Kit"), GridPos::new(7, 1));
    assert!(
        !delve
            .get::<Conditions>("Kit")
            .unwrap()
            .has(ConditionKind::Vulnerable),
        "off the ledge, no longer vulnerable"
    );
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::Traversed {
                who: "Kit".into(),
                at: GridPos::new(7, 1)
            })
    );
}

/// Dungeon Delves › Balancing Traverse: a natural 1 on a narrow path falls, into the chasm
/// beside it (40': 4d6); a precarious path (2") is for the Climbing-proficient only, and any
/// failure there falls.
#[test]
fn falls_from_narrow_and_precarious_paths() {
    let mut delve = ledge(6, "");
    cross(&mut delve);
    delve.script_dice(&[1, 1, 1, 1, 1]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { feet: 40, .. }))
    );
    assert_eq!(delve.get::<Below>("Kit"), Some(&Below { depth_feet: 40 }));

    let mut delve = ledge(2, "");
    delve.act(Traverse {
        who: "Kit".into(),
        to: (7, 1),
        pace: ClimbPace::Third,
    });
    assert!(delve.was_refused("Kit", &CavingRefusal::PrecariousNeedsClimbing));

    let mut delve = ledge(2, ", proficiencies: [Climbing], throws: { Climbing: 7 }");
    cross(&mut delve);
    delve.script_dice(&[5, 1, 1, 1, 1]);
    delve.run(1);
    assert!(
        delve.get::<Below>("Kit").is_some(),
        "a failure on a precarious path falls"
    );
}

/// Dungeon Delves › Balancing Traverse: damage on the path calls for a Paralysis save, or a
/// fall.
#[test]
fn damage_on_a_ledge_calls_for_a_paralysis_save() {
    let mut delve = ledge(6, "");
    cross(&mut delve);
    delve.script_dice(&[8]);
    delve.run(1);
    let kit = delve.entity("Kit");
    delve.script_dice(&[3, 1, 1, 1, 1]);
    delve_rules::rules::damage::take_damage(delve.world_mut(), kit, 1);
    let save = delve.throws().pop().unwrap();
    assert_eq!((save.target, save.success), (12, false));
    assert!(delve.get::<Below>("Kit").is_some());
}

/// The spelunking tables' failed-throw row: on a narrow path and a crawling traverse a failure
/// makes no progress that round (no fall).
#[test]
fn failures_on_a_narrow_path_and_a_rope_make_no_progress() {
    let mut delve = ledge(6, "");
    cross(&mut delve);
    delve.script_dice(&[5]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::NoProgress { who: "Kit".into() })
    );
    assert_eq!(delve.at("Kit"), GridPos::new(2, 1), "still at the start");
    assert!(delve.get::<Below>("Kit").is_none());

    use delve_rules::rules::caving::traverse::{Rigged, RiggedTraverses};
    let mut delve = chasm(", at: (5, 1)", 13, '.');
    delve
        .world_mut()
        .resource_mut::<RiggedTraverses>()
        .0
        .push(Rigged {
            from: GridPos::new(5, 1),
            to: GridPos::new(8, 1),
            ropes: 1,
            by_mountaineer: None,
        });
    delve.give(CrawlAcross {
        who: "Jess".into(),
        to: (8, 1),
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[5]);
    delve.run(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::NoProgress { who: "Jess".into() })
    );
    assert!(delve.get::<Below>("Jess").is_none());
}

/// Dungeon Delves › Jumping and Leaping: the vertical leap is DEX bonus + 1 (at least 1'), less
/// 1' per stone, halved without a run-up. Out of a 1' hollow DEX 13 (+1) at 0 stone leaps 1'
/// standing; a 2' one needs climbing.
#[test]
fn leaping_out_of_a_hole_no_deeper_than_the_leap() {
    let hollow = |depth: u32| {
        let mut delve = Scenario::new(&["XXXXX", "X...X", "XXXXX"])
            .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(
                r#"(name: "Lia", faction: "party", at: (2, 1), hp: 20, ac: 12, dex: 13,
                    encumbrance_stone: 0.0)"#,
            )
            .build();
        // As if fallen into a hollow that deep.
        let lia = delve.entity("Lia");
        delve
            .app
            .world_mut()
            .entity_mut(lia)
            .insert(Below { depth_feet: depth });
        delve.act(Jump {
            who: "Lia".into(),
            to: (3, 1),
            from: None,
            running: false,
        });
        delve
    };
    let delve = hollow(1);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::LeaptOut {
                who: "Lia".into(),
                depth_feet: 1,
                leap_feet: 1.0,
                at: GridPos::new(3, 1)
            })
    );
    assert_eq!(delve.at("Lia"), GridPos::new(3, 1));
    assert!(delve.get::<Below>("Lia").is_none());
    let delve = hollow(2);
    assert!(delve.was_refused(
        "Lia",
        &CavingRefusal::TooHighToLeap {
            depth_feet: 2,
            leap_feet: 1.0
        }
    ));
    assert!(delve.get::<Below>("Lia").is_some());
}

/// Dungeon Delves › Jumping: a bad landing "exactly at the edge of a chasm" leaves the jumper
/// "hanging by his fingers" to "climb or be pulled up": 5' short of the rubble square beyond the
/// chasm, Jess hangs at its edge and climbs the last 5' (8+, an 8) onto the rubble.
#[test]
fn landing_at_the_very_edge_leaves_the_jumper_hanging_by_its_fingers() {
    let mut delve = chasm(", at: (5, 1)", 18, ':');
    // (18 + 6 − 2) / 2 = 11: across; the save (12) fails on a 5; 5' short: the edge.
    delve.script_dice(&[6, 5, 5]);
    jump_across(&mut delve);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::HangingByTheFingers {
                who: "Jess".into(),
                at: GridPos::new(7, 1)
            }),
        "{}",
        delve.log().to_text()
    );
    assert!(delve.get::<Climbing>("Jess").is_some());
    assert!(delve.get::<Below>("Jess").is_none());
    assert!(falls(&delve).is_empty());
    delve.script_dice(&[8]);
    delve.run(1);
    assert_eq!(
        delve.at("Jess"),
        GridPos::new(8, 1),
        "{}",
        delve.log().to_text()
    );
    assert!(delve.get::<Climbing>("Jess").is_none());
}

/// A ledge as [`ledge`], with Bo (Strength 18, `bo` his gear and place) to belay Kit.
fn ledge_with_a_belayer(bo: &str) -> delve_play::scenario::Delve {
    Scenario::new(&["XXXXXXXXXX", "X..LLLL..X", "XCCCCCCCCX", "XXXXXXXXXX"])
        .legend("'L': Ledge(width_inches: 6)")
        .legend("'C': Chasm(depth_feet: 40)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Kit", faction: "party", at: (2, 1), hp: 30, ac: 12,
                encumbrance_stone: 2.0, saves: { Paralysis: 12 })"#,
        )
        .creature(&format!(
            r#"(name: "Bo", faction: "party", hp: 20, ac: 12, str: 18, encumbrance_stone: 1.0{bo})"#
        ))
        .build()
}

/// Dungeon Delves › Belaying: "an adventurer who has already ascended or traversed part or all
/// of an obstacle can provide security to subsequent climbers". Bo, across at the ledge's far
/// end, belays Kit: Kit's natural 1 at the midpoint (10' along, 15' from Bo) is caught by Bo's
/// Dungeonbashing 8 + 12 (Strength 18) − 2 (Kit's 2 stone) = 18, and Kit stays on the path,
/// unhurt. Failing it, Bo drops Kit the length of his 30' rope (3d6) down the 40' chasm's side,
/// where Kit hangs to climb back up. (The rope must reach Kit where he starts, 25' away.) Bo on the near side has traversed nothing: refused.
#[test]
fn a_belayer_across_breaks_a_traversers_fall() {
    let start = |delve: &mut delve_play::scenario::Delve| {
        cross(delve);
        delve.give(delve_rules::command::acts::Belay {
            who: "Bo".into(),
            climber: "Kit".into(),
        });
    };
    let mut delve = ledge_with_a_belayer(", at: (7, 1), gear: [Rope(30)]");
    start(&mut delve);
    delve.script_dice(&[1, 8]);
    delve.run(1);
    let bash = delve.throws().pop().unwrap();
    assert_eq!((bash.target, bash.total), (18, 18), "{:?}", bash.modifiers);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::Belayed {
                who: "Bo".into(),
                climber: "Kit".into(),
                caught: true
            })
    );
    assert!(
        !delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { .. }))
    );
    assert!(delve.get::<Below>("Kit").is_none(), "still on the path");
    assert!(
        delve
            .get::<delve_rules::rules::caving::traverse::Traversing>("Kit")
            .is_some()
    );

    let mut delve = ledge_with_a_belayer(", at: (7, 1), gear: [Rope(30)]");
    start(&mut delve);
    delve.script_dice(&[1, 3, 2, 3, 4]);
    delve.run(1);
    assert!(delve.events::<CavingEvent>().contains(&CavingEvent::Fell {
        who: "Kit".into(),
        feet: 30,
        dice: vec![2, 3, 4],
        damage: 9
    }));
    assert_eq!(delve.get::<Below>("Kit"), Some(&Below { depth_feet: 40 }));
    let hanging = delve.get::<Climbing>("Kit").copied().unwrap();
    assert_eq!(
        (hanging.to, hanging.done_feet, hanging.down),
        (GridPos::new(4, 1), 10.0, false),
        "30' down the 40' side, below the square it fell from"
    );

    let mut delve = ledge_with_a_belayer(", at: (1, 1), gear: [Rope(30)]");
    cross(&mut delve);
    delve.run(1);
    delve.act(delve_rules::command::acts::Belay {
        who: "Bo".into(),
        climber: "Kit".into(),
    });
    assert!(delve.was_refused(
        "Bo",
        &CavingRefusal::BelayFromAcross {
            to: GridPos::new(7, 1)
        }
    ));
}
