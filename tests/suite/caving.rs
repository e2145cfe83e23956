//! Caving and Spelunking (Dungeon Delves): squeezes.

use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{
    Climb, ClimbDown, Jump, LowerRope, Move, PushForward, Traverse, WiggleBack,
};
use delve_rules::creature::Below;
use delve_rules::creature::Conditions;
use delve_rules::rules::acting::Hold;
use delve_rules::rules::caving::events::Escape;
use delve_rules::rules::caving::{CavingEvent, CavingRefusal, ClimbPace, Climbing};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::movement::squeezes::StuckIn;
use delve_rules::rules::throws::Skill;

/// A passage with a squeeze 10' long at (4, 1)–(5, 1), lit; Tam (5 stone, or 7.5) starts at
/// (2, 1) and is told to walk to (8, 1) at combat speed.
pub(crate) fn squeeze(tam: &str) -> Delve {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X...SS...X", "XXXXXXXXXX"])
        .legend("'S': Squeeze")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Tam", faction: "party", at: (3, 1), hp: 8, ac: 12, str: 13,
                saves: {{ Paralysis: 12 }}{tam})"#
        ))
        .build();
    delve.give(Move {
        who: "Tam".into(),
        to: (8, 1),
        pace: Pace::Combat,
    });
    delve
}

pub(crate) fn squeezing(delve: &Delve) -> Vec<delve_ground::dice::Throw> {
    delve.throws_for(Skill::Squeezing)
}

/// Dungeon Delves › Squeezing: the throw's target is the encumbrance in stone; failing, no
/// progress that round; succeeding, it moves on.
#[test]
fn squeezing_is_a_throw_against_the_encumbrance_in_stone() {
    let mut delve = squeeze(", encumbrance_stone: 5.0");
    delve.script_dice(&[4]);
    delve.run(1);
    let t = squeezing(&delve);
    assert_eq!((t[0].natural, t[0].target, t[0].success), (4, 5, false));
    assert_eq!(delve.at("Tam"), GridPos::new(3, 1), "no progress");
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::SqueezeHeldBack {
                who: "Tam".into(),
                at: GridPos::new(3, 1)
            })
    );
    delve.script_dice(&[5]);
    delve.run(1);
    assert!(squeezing(&delve)[1].success);
    assert_ne!(delve.at("Tam"), GridPos::new(3, 1), "through it goes");
}

/// Dungeon Delves › Squeezing: the throw is made "at the start of his initiative": one still
/// short of the squeeze walks up to its mouth without a throw, stopping there, and throws at the
/// start of the next round (a natural 1 sticks it in the squeeze's mouth, not in the passage
/// before it).
#[test]
fn the_squeezing_throw_is_made_at_the_squeezes_mouth() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X.....SS...X", "XXXXXXXXXXXX"])
        .legend("'S': Squeeze")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Tam", faction: "party", at: (1, 1), hp: 8, ac: 12, encumbrance_stone: 2.0)"#,
        )
        .build();
    delve.give(Move {
        who: "Tam".into(),
        to: (10, 1),
        pace: Pace::Combat,
    });
    delve.run(1);
    assert!(
        squeezing(&delve).is_empty(),
        "no throw short of the squeeze"
    );
    assert_eq!(delve.at("Tam"), GridPos::new(5, 1), "at the mouth");
    delve.script_dice(&[15]);
    delve.run(1);
    assert_eq!(squeezing(&delve).len(), 1);
    assert!(delve.at("Tam").x > 5, "through: {}", delve.at("Tam"));
}

/// Dungeon Delves › Squeezing: Contortionism adds +4; 7.5 stone is a target of 8.
#[test]
fn contortionism_adds_four_to_squeezing() {
    let mut delve = squeeze(", encumbrance_stone: 7.5, proficiencies: [Contortionism]");
    delve.script_dice(&[4]);
    delve.run(1);
    let t = &squeezing(&delve)[0];
    assert_eq!(t.target, 8);
    assert!(
        t.modifiers
            .iter()
            .any(|m| m.source == "Contortionism" && m.value == 4)
    );
    assert!(t.success, "4 + 4 reaches 8");
}

/// Dungeon Delves › Squeezing: failing on an unmodified 1, it is stuck and vulnerable, and can
/// do nothing but try to escape; pushing forward is Dungeonbashing with the encumbrance as a
/// penalty, and each failed push forward makes every later attempt −4 (a failed wiggle back
/// does not); wiggling back is a Paralysis save and takes it 10' back, free.
#[test]
fn a_natural_1_leaves_it_stuck_until_it_escapes() {
    let mut delve = squeeze(", encumbrance_stone: 5.0");
    delve.script_dice(&[1]);
    delve.run(1);
    let conditions = delve.get::<Conditions>("Tam").unwrap();
    assert!(conditions.has(ConditionKind::Stuck) && conditions.has(ConditionKind::Vulnerable));
    delve.act(Move {
        who: "Tam".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    assert!(delve.was_refused("Tam", &Hold::Stuck));
    // The window offers the two ways out with their chances: Paralysis 12 + 5 stone = 17+
    // (20%); Dungeonbashing 18 − 4 (Strength 13) + 5 = 19+ (10%).
    let tam = delve.entity("Tam");
    let offered: Vec<(String, Option<i32>, f32)> =
        delve_rules::rules::caving::escape_choices(delve.world(), tam)
            .into_iter()
            .map(|c| (c.way, c.target, c.chance))
            .collect();
    assert_eq!(
        offered,
        vec![
            ("wiggle back 10'".into(), Some(17), 0.2),
            ("push forward 10'".into(), Some(19), 0.1)
        ]
    );

    // Strength 13 (+1 × 4), 5 stone: 18 − 4 + 5 = 19 to push forward; a 10 fails.
    delve.script_dice(&[10]);
    delve.act(PushForward { who: "Tam".into() });
    let push = delve.throws().pop().unwrap();
    assert_eq!(push.target, 18);
    let mods: Vec<(String, i32)> = push
        .modifiers
        .into_iter()
        .map(|m| (m.source, m.value))
        .collect();
    assert!(
        mods.contains(&("encumbrance 5 stone".into(), -5)),
        "{mods:?}"
    );
    assert!(
        mods.contains(&("Strength 13 (+1 x 4)".into(), 4)),
        "{mods:?}"
    );
    assert_eq!(delve.get::<StuckIn>("Tam").unwrap().failed_pushes, 1);

    // A failed wiggle back (a 2) leaves it stuck and no worse: still one failed push.
    delve.script_dice(&[2]);
    delve.act(WiggleBack { who: "Tam".into() });
    assert!(!delve.throws().pop().unwrap().success);
    assert_eq!(delve.get::<StuckIn>("Tam").unwrap().failed_pushes, 1);

    // Paralysis 12: a 20 − 5 − 4 = 11 would fail; 20 with the natural 20's +10 does it.
    delve.script_dice(&[20]);
    delve.act(WiggleBack { who: "Tam".into() });
    let wiggle = delve.throws().pop().unwrap();
    assert!(
        wiggle
            .modifiers
            .iter()
            .any(|m| m.value == -4 && m.source == "1 failed push(es) forward")
    );
    assert!(wiggle.success);
    let escaped = delve
        .events::<CavingEvent>()
        .into_iter()
        .find_map(|e| match e {
            CavingEvent::Escaped { way, from, to, .. } => Some((way, from, to)),
            _ => None,
        });
    let (way, from, to) = escaped.expect("escaped");
    assert_eq!(way, Escape::Back);
    assert_eq!(from.x - to.x, 2, "10' back");
    let conditions = delve.get::<Conditions>("Tam").unwrap();
    assert!(!conditions.has(ConditionKind::Stuck) && !conditions.has(ConditionKind::Vulnerable));
}

/// A corridor with a hidden 20' pit at (3, 1); Ada (2 stone: combat speed 40') walks over it
/// and falls in (the Judge's d6 a 1, the pit's 2d6 two 1s). Bo stands beyond it at (4, 1).
pub(crate) fn ada_in_a_pit(ada: &str, bo: &str) -> Delve {
    let mut delve = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .trap("(at: (3, 1), kind: Pit(depth_feet: 20), trigger: Step, hidden: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 12, ac: 10,
                encumbrance_stone: 2.0{ada})"#
        ))
        .creature(&format!(
            r#"(name: "Bo", faction: "party", at: (4, 1), hp: 12, ac: 10,
                encumbrance_stone: 2.0{bo})"#
        ))
        .build();
    delve.script_dice(&[1, 1, 1]);
    delve.act(Move {
        who: "Ada".into(),
        to: (4, 1),
        pace: Pace::Combat,
    });
    assert_eq!(
        delve.get::<Below>("Ada"),
        Some(&Below { depth_feet: 20 }),
        "{}",
        delve.log().to_text()
    );
    delve
}

pub(crate) fn climbing(delve: &Delve) -> Vec<delve_ground::dice::Throw> {
    delve.throws_for(Skill::Proficiency(
        delve_ground::level::schema::Proficiency::Climbing,
    ))
}

/// Dungeon Delves › Climbing: a pit's victim stays at its bottom until it climbs out; its
/// walls are sheer (the proficient only) until a rope is lowered from above, which makes them an
/// easy 8+ climb; its exploration speed a round outside a battle, one throw at the midpoint of
/// the 20'.
#[test]
fn a_pit_holds_its_victim_until_it_climbs_out() {
    let mut delve = ada_in_a_pit("", ", gear: [Rope(50)]");
    delve.act(Move {
        who: "Ada".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    assert!(delve.was_refused(
        "Ada",
        &delve_rules::rules::movement::MoveRefusal::AtTheBottom { depth_feet: 20 }
    ));
    let climb = || Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    };
    delve.act(climb());
    assert!(delve.was_refused("Ada", &CavingRefusal::SheerNeedsClimbing));
    delve.act(LowerRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    delve.give(climb());
    delve.script_dice(&[8]);
    delve.run(1);
    let t = climbing(&delve);
    assert_eq!((t.len(), t[0].target, t[0].success), (1, 8, true));
    assert!(delve.get::<Below>("Ada").is_some(), "12' up of 20'");
    delve.run(1);
    assert_eq!(climbing(&delve).len(), 1, "one throw for 20'");
    assert_eq!(delve.at("Ada"), GridPos::new(2, 1));
    assert!(delve.get::<Below>("Ada").is_none());
}

/// Dungeon Delves › Climbing: a natural 1 on an easy climb falls from the point of the throw
/// (10' of a 20' climb: 1d6).
#[test]
fn a_botched_easy_climb_falls_from_the_midpoint() {
    let mut delve = ada_in_a_pit("", ", gear: [Rope(50)]");
    delve.act(LowerRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[1, 4]);
    delve.run(1);
    assert!(delve.events::<CavingEvent>().contains(&CavingEvent::Fell {
        who: "Ada".into(),
        feet: 10,
        dice: vec![4],
        damage: 4
    }));
    assert!(delve.get::<Below>("Ada").is_some() && delve.get::<Climbing>("Ada").is_none());
}

/// Dungeon Delves › Climbing: a sheer wall by the class value; a failure falls. Proficient in
/// Climbing, it may climb at half combat speed for −5.
#[test]
fn a_sheer_wall_falls_on_a_failure_and_speed_costs_five() {
    let mut delve = ada_in_a_pit(", proficiencies: [Climbing], throws: { Climbing: 6 }", "");
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Half,
    });
    delve.script_dice(&[10, 2]);
    delve.run(1);
    let t = &climbing(&delve)[0];
    assert_eq!(t.target, 6);
    assert!(t.modifiers.iter().any(|m| m.value == -5));
    assert!(!t.success, "10 − 5 misses 6");
    assert!(
        delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { feet: 10, .. }))
    );
}

/// Dungeon Delves › Climbing: proficient in Climbing and Mountaineering, with mountaineering
/// gear, at a third of combat speed, a climber never falls from an easy surface.
#[test]
fn the_sure_climber_does_not_fall_from_an_easy_surface() {
    let mut delve = ada_in_a_pit(
        ", proficiencies: [Climbing, Mountaineering], throws: { Climbing: 6 }, gear: [MountaineeringGear]",
        ", gear: [Rope(50)]",
    );
    delve.act(LowerRope {
        who: "Bo".into(),
        at: (3, 1),
    });
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[1]);
    delve.run(1);
    assert!(!climbing(&delve)[0].success);
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::NoProgress { who: "Ada".into() })
    );
    assert!(delve.get::<Climbing>("Ada").is_some(), "still on the rope");
}

/// A chasm 10' wide and 30' deep at (6, 1)–(7, 1), its near edge (5, 1), its far side (8, 1)
/// (floor, or rubble); Jess (2 stone, `dex`) stands where `jess` puts her.
pub(crate) fn chasm(jess: &str, dex: i32, landing: char) -> Delve {
    let row = format!("X.....CC{landing}...X");
    Scenario::new(&["XXXXXXXXXXXXX", &row, "XXXXXXXXXXXXX"])
        .field("climbs: [(at: (7, 1), anchor_ac: 2)]")
        .legend("'C': Chasm(depth_feet: 30)")
        .legend("':': Rubble")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Jess", faction: "party", hp: 20, ac: 12, dex: {dex},
                encumbrance_stone: 2.0, saves: {{ Paralysis: 12 }}{jess})"#
        ))
        .build()
}

pub(crate) fn jumped(delve: &Delve) -> Option<(u32, u32, f32, bool)> {
    delve
        .events::<CavingEvent>()
        .into_iter()
        .find_map(|e| match e {
            CavingEvent::Jumped {
                gap_feet,
                d6,
                reach_feet,
                run_up,
                ..
            } => Some((gap_feet, d6, reach_feet, run_up)),
            _ => None,
        })
}

pub(crate) fn jump_across(delve: &mut Delve) {
    delve.act(Jump {
        who: "Jess".into(),
        to: (8, 1),
        from: None,
        running: false,
    });
}

/// A ledge 20' long (`width`" wide) from (3, 1) to (6, 1) over a 40' chasm; Kit (2 stone)
/// stands at (2, 1).
pub(crate) fn ledge(width: u32, kit: &str) -> Delve {
    Scenario::new(&["XXXXXXXXXX", "X..LLLL..X", "XCCCCCCCCX", "XXXXXXXXXX"])
        .legend(&format!("'L': Ledge(width_inches: {width})"))
        .legend("'C': Chasm(depth_feet: 40)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Kit", faction: "party", at: (2, 1), hp: 30, ac: 12,
                encumbrance_stone: 2.0, saves: {{ Paralysis: 12 }}{kit})"#
        ))
        .build()
}

pub(crate) fn cross(delve: &mut Delve) {
    delve.give(Traverse {
        who: "Kit".into(),
        to: (7, 1),
        pace: ClimbPace::Third,
    });
}

/// The spelunking tables' last row: vulnerable in combat climbing a sheer surface, rappelling,
/// crawling a traverse and on either balancing path; not climbing an easy one.
#[test]
fn the_spelunking_tables_vulnerable_row() {
    // Vulnerable, and from what (each situation named as it is: a rappel was once "climbing a
    // sheer surface" too).
    let vulnerable_from = |delve: &Delve| {
        delve
            .events::<delve_rules::rules::conditions::ConditionEvent>()
            .iter()
            .find_map(|e| match e {
                delve_rules::rules::conditions::ConditionEvent::ConditionGained {
                    who,
                    condition: ConditionKind::Vulnerable,
                    source,
                    ..
                } if who == "Jess" => Some(source.clone()),
                _ => None,
            })
    };
    let vulnerable = |delve: &Delve| {
        delve
            .events::<delve_rules::rules::conditions::ConditionEvent>()
            .iter()
            .any(|e| {
                matches!(e, delve_rules::rules::conditions::ConditionEvent::ConditionGained {
                    who,
                    condition: ConditionKind::Vulnerable,
                    ..
                } if who == "Jess")
            })
    };
    let climber = ", at: (5, 1), gear: [Rope(50), MountaineeringGear], \
                   proficiencies: [Climbing, Mountaineering], throws: { Climbing: 6 }";
    let down = |delve: &mut Delve, rope: bool, rappel: bool| {
        if rope {
            delve.act(LowerRope {
                who: "Jess".into(),
                at: (6, 1),
            });
        }
        delve.act(ClimbDown {
            who: "Jess".into(),
            into: (6, 1),
            rappel,
            pace: ClimbPace::Third,
        });
    };
    let mut delve = chasm(climber, 13, '.');
    down(&mut delve, true, false);
    assert!(!vulnerable(&delve), "an easy climb (a rope) is not");
    let mut delve = chasm(climber, 13, '.');
    down(&mut delve, false, false);
    assert!(vulnerable(&delve), "a sheer surface is");
    assert_eq!(
        vulnerable_from(&delve).as_deref(),
        Some("climbing a sheer surface")
    );
    let mut delve = chasm(climber, 13, '.');
    down(&mut delve, true, true);
    assert!(vulnerable(&delve), "rappelling is");
    assert_eq!(vulnerable_from(&delve).as_deref(), Some("rappelling"));
}

/// Dungeon Delves › Squeezing: a party marching through a squeeze squeezes one by one — its
/// followers throw as its leader does.
#[test]
fn followers_squeeze_through_as_their_leader_does() {
    use delve_rules::command::acts::MoveParty;
    use delve_rules::rules::throws::ThrowEvent;
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXX",
        "X...SS.............X",
        "XXXXXXXXXXXXXXXXXXXX",
    ])
    .legend("'S': Squeeze")
    .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
    .faction(r#"(name: "party", marching_order: ["Tam", "Uma"])"#)
    .creature(
        r#"(name: "Tam", faction: "party", at: (3, 1), hp: 8, ac: 12, encumbrance_stone: 1.0)"#,
    )
    .creature(
        r#"(name: "Uma", faction: "party", at: (2, 1), hp: 8, ac: 12, encumbrance_stone: 1.0)"#,
    )
    .build();
    delve.give(MoveParty {
        party: "party".into(),
        to: (18, 1),
        pace: Pace::Combat,
    });
    delve.run(4);
    let squeezers: Vec<String> = delve
        .log()
        .of::<ThrowEvent>()
        .filter(|ThrowEvent::Threw { throw, .. }| throw.what == "Squeezing")
        .map(|ThrowEvent::Threw { who, .. }| who.clone())
        .collect();
    assert!(squeezers.contains(&"Tam".to_owned()), "{squeezers:?}");
    assert!(squeezers.contains(&"Uma".to_owned()), "{squeezers:?}");
}

/// The window's caving choices at a chasm's edge: lowering a rope, jumping (with its chance,
/// DEX 13 without a run-up: never 10'), and climbing down only for those who may.
#[test]
fn the_caving_choices_at_a_chasm_edge() {
    use delve_rules::rules::caving::choices::caving_choices;
    let ways = |delve: &Delve| -> Vec<(String, f32)> {
        let jess = delve.entity("Jess");
        caving_choices(delve.world(), jess)
            .into_iter()
            .map(|c| (c.way, c.chance))
            .collect()
    };
    let delve = chasm(", at: (5, 1), gear: [Rope(50)]", 13, '.');
    assert_eq!(
        ways(&delve),
        vec![
            ("lower a rope into (6, 1)".into(), 1.0),
            ("jump the 10' gap to (8, 1)".into(), 0.0)
        ]
    );
    let delve = chasm(
        ", at: (5, 1), proficiencies: [Climbing], throws: { Climbing: 6 }",
        18,
        '.',
    );
    let ways = ways(&delve);
    assert_eq!(ways[0].0, "climb down into (6, 1)");
    assert_eq!(ways[0].1, 0.75, "6+ on the d20");
    assert_eq!(
        ways[1],
        ("jump the 10' gap to (8, 1)".into(), 0.5),
        "(18 + 1d6 − 2) / 2 ≥ 10 on a 4, 5 or 6"
    );
}

/// A 200' sheer chasm at (3, 1); Ro (Climbing 6, 2 stone) at (2, 1), Cy at (4, 1), Bo (Str 18)
/// at (3, 2), each with a 60' rope.
pub(crate) fn deep_chasm() -> Delve {
    let climber = |name: &str, at: &str| {
        format!(
            r#"(name: "{name}", faction: "party", at: {at}, hp: 40, ac: 12, encumbrance_stone: 2.0,
                proficiencies: [Climbing], throws: {{ Climbing: 6 }}, gear: [Rope(60)])"#
        )
    };
    Scenario::new(&["XXXXXXX", "X..C..X", "XXX.XXX", "XXXXXXX"])
        .legend("'C': Chasm(depth_feet: 200)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(&climber("Ro", "(2, 1)"))
        .creature(&climber("Cy", "(4, 1)"))
        .creature(
            r#"(name: "Bo", faction: "party", at: (3, 2), hp: 40, ac: 12, str: 18,
                encumbrance_stone: 2.0, gear: [Rope(60)])"#,
        )
        .build()
}

pub(crate) fn falls(delve: &Delve) -> Vec<(String, u32)> {
    delve
        .events::<CavingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            CavingEvent::Fell { who, feet, .. } => Some((who, feet)),
            _ => None,
        })
        .collect()
}

/// Dungeon Delves › Climbing: one climbs "at his exploration speed or, if action is being
/// tracked in rounds, one-third his combat speed": Jess (2 stone: 120' a turn, 40' a round in
/// combat) climbs 12' a round exploring, 13⅓' a round while a ghoul across the chasm makes it
/// a battle.
#[test]
fn climbing_is_at_exploration_speed_outside_a_battle_and_a_third_of_combat_speed_in_one() {
    let climbed = |ghoul: bool| {
        let mut s = Scenario::new(&["XXXXXXXXXX", "X....C...X", "XXXXXXXXXX"])
            .legend("'C': Chasm(depth_feet: 150)")
            .light("(at: (1, 1), kind: Custom(bright_feet: 90, dim_feet: 90), lit: true)")
            .faction(r#"(name: "party")"#)
            .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
            .creature(
                r#"(name: "Jess", faction: "party", at: (4, 1), hp: 20, ac: 10,
                    encumbrance_stone: 2.0, gear: [Rope(200)])"#,
            );
        if ghoul {
            s = s.creature(
                r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (8, 1))"#,
            );
        }
        let mut delve = s.build();
        if ghoul {
            let g = delve.entity("Gnawbone");
            delve
                .world_mut()
                .entity_mut(g)
                .insert(delve_rules::rules::combat::battle::Controlled);
        }
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
        delve.run(3);
        delve.get::<Climbing>("Jess").unwrap().done_feet
    };
    assert_eq!(climbed(false), 36.0);
    assert!((climbed(true) - 40.0).abs() < 0.01, "{}", climbed(true));
}

/// Dungeon Delves › Rappelling: "the Judge can impose other modifiers to the mechanics above to
/// reflect weather conditions, wind, and other circumstances": a named Judge modifier on
/// Climbing throws — a very easy slope, +5, for the level; a wind on Ada, −2, set by command,
/// the most particular winning — shown in the throw's breakdown.
#[test]
fn the_judges_climbing_conditions_are_named_in_the_breakdown() {
    let climb_out = |delve: &mut Delve| {
        delve.act(LowerRope {
            who: "Bo".into(),
            at: (3, 1),
        });
        delve.give(Climb {
            who: "Ada".into(),
            to: (2, 1),
            pace: ClimbPace::Third,
        });
        delve.script_dice(&[8]);
        delve.run(1);
        let t = climbing(delve).pop().unwrap();
        t.modifiers
            .into_iter()
            .map(|m| (m.source, m.value))
            .collect::<Vec<_>>()
    };
    let judge = "Judge: weather, wind or surface".to_owned();
    let mut delve = ada_in_a_pit("", ", gear: [Rope(50)]");
    delve.act(delve_rules::command::acts::SetJudgeModifier {
        modifier: delve_ground::level::schema::JudgeModifier::ClimbingConditions,
        value: 5,
        on: delve_rules::rules::judge::JudgeScope::Level,
    });
    assert_eq!(climb_out(&mut delve), vec![(judge.clone(), 5)]);
    let mut delve = ada_in_a_pit("", ", gear: [Rope(50)]");
    delve.act(delve_rules::command::acts::SetJudgeModifier {
        modifier: delve_ground::level::schema::JudgeModifier::ClimbingConditions,
        value: 5,
        on: delve_rules::rules::judge::JudgeScope::Level,
    });
    delve.act(delve_rules::command::acts::SetJudgeModifier {
        modifier: delve_ground::level::schema::JudgeModifier::ClimbingConditions,
        value: -2,
        on: delve_rules::rules::judge::JudgeScope::Creature { name: "Ada".into() },
    });
    assert_eq!(climb_out(&mut delve), vec![(judge, -2)]);
}

/// The chance of being stuck for good in one squeeze, as the party's policy reckons it: a 1 on
/// the Squeezing throw before it gets through, then every push forward failed (each −4 on the
/// next), with no wiggle back to speak of (a Paralysis save of 14 with 8 stone against it: only
/// a natural 20). Strength 17, 8 stone: through on 8+ (65%), stuck 5%, so 5/70 stuck first;
/// pushes at 15%, then 5% three times (the natural 20's +10), then none: 0.0714 × 0.85 × 0.95³
/// ≈ 5.2%. At 6 stone: 5/80 × 0.75 × 0.95³ ≈ 4.0%.
#[test]
fn the_chance_of_being_stuck_for_good_in_a_squeeze() {
    let chance = |stone: f32| {
        let delve = Scenario::new(&["XXXXXX", "X.SS.X", "XXXXXX"])
            .legend("'S': Squeeze")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Orrin", faction: "party", at: (1, 1), hp: 22, ac: 14, str: 17,
                    encumbrance_stone: {stone:.1}, saves: {{ Paralysis: 14 }})"#
            ))
            .build();
        let orrin = delve.entity("Orrin");
        delve_rules::rules::caving::stuck_for_good_chance(delve.world(), orrin)
    };
    let eight = chance(8.0);
    assert!((eight - 0.0714 * 0.85 * 0.857).abs() < 0.001, "{eight}");
    let six = chance(6.0);
    assert!((six - 0.0625 * 0.75 * 0.857).abs() < 0.001, "{six}");
    // At 2 stone it wiggles back on 16+ (25%): never stuck for good.
    assert_eq!(chance(2.0), 0.0);
}
