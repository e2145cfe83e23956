//! Monsters that live in the dungeon (`policy::monsters`): a patrol route walked round and round,
//! a guard that keeps its post, a lair-dweller that keeps to its lair, a wanderer, a shout that
//! calls the faction, and pursuit of intruders who slip out of sight.

use delve_ground::grid::GridPos;
use delve_minds::policy::monsters::MonsterEvent;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{MakeNoise, Move};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::sound::{HearingEvent, HowHeard, NoiseKind, SoundRow};

/// A corridor with a guard (speed 120': 12' a round at exploration speed) whose route runs
/// between (2, 1) and (8, 1).
fn corridor(route: &str) -> Scenario {
    Scenario::new(&["XXXXXXXXXXX", "X.........X", "XXXXXXXXXXX"])
        .light("(at: (5, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "guards")"#)
        .creature(&format!(
            r#"(name: "Guard", faction: "guards", at: (2, 1), hp: 8, ac: 12, speed_feet: 120,
                patrol: {route})"#
        ))
}

/// The guard walks to the far end of its route, then back to the first square, and on again,
/// at exploration speed (a tenth of its 120' a turn: 12' a round, two 5' squares and a bit).
#[test]
fn a_patrol_walks_its_route_round_and_round() {
    let mut delve: Delve = corridor("[(2, 1), (8, 1)]").build();
    let mut visits = Vec::new();
    // It sets off after the first round, and takes three rounds each way.
    for _ in 0..9 {
        delve.run(1);
        let at = delve.at("Guard");
        if visits.last() != Some(&at) && (at == GridPos::new(8, 1) || at == GridPos::new(2, 1)) {
            visits.push(at);
        }
    }
    assert_eq!(
        visits,
        vec![GridPos::new(2, 1), GridPos::new(8, 1), GridPos::new(2, 1)],
        "{}",
        delve.log().to_text()
    );
    // 12' a round: two 5' squares, the rest kept for the next round.
    let moved: Vec<u32> = delve
        .events::<delve_rules::rules::movement::MovementEvent>()
        .iter()
        .filter_map(|e| match e {
            delve_rules::rules::movement::MovementEvent::Moved { feet, .. } => Some(*feet),
            _ => None,
        })
        .take(2)
        .collect();
    assert_eq!(moved, vec![10, 10], "two squares a round");
}

/// A route through a wall is an error that points at the square.
#[test]
fn a_patrol_route_through_a_wall_is_an_error() {
    let problems = corridor("[(2, 1), (4, 0)]")
        .try_build()
        .err()
        .expect("a route through a wall");
    let p = problems
        .0
        .iter()
        .find(|d| d.message.contains("patrol route"))
        .expect("the patrol's problem");
    assert!(p.message.contains("(4, 0)"), "{}", p.message);
    assert!(p.line > 0 && p.col > 0);
}

/// A goblin's stat line: 120' (two squares a round at exploration speed, four at combat speed),
/// no lightless vision.
const GOBLIN: &str = "faction: \"goblins\", hp: 8, ac: 12, speed_feet: 120";

/// A corridor from (1, 1) to (20, 1) lit bright and a shaft from (20, 2) down to (20, `depth`),
/// dark, round the corner from the corridor: whoever stands in it sees nothing of the corridor.
fn corner(depth: i32) -> Scenario {
    let width = 22;
    let mut rows = vec!["X".repeat(width), format!("X{}X", ".".repeat(width - 2))];
    for _ in 2..=depth {
        rows.push(format!("{}.X", "X".repeat(width - 2)));
    }
    rows.push("X".repeat(width));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Scenario::new(&rows)
        .light("(at: (5, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "goblins", hostile_to: ["party"])"#)
}

fn answered(delve: &Delve, who: &str) -> Option<GridPos> {
    delve
        .events::<MonsterEvent>()
        .into_iter()
        .find_map(|e| match e {
            MonsterEvent::AnsweredCall { who: w, to, .. } if w == who => Some(to),
            _ => None,
        })
}

/// RULINGS › Surprise: a lookout whose faction is surprised does nothing in the round it loses,
/// its shout neither; its mind shouts again, and the shout is made the round after.
#[test]
fn a_surprised_lookout_shouts_when_its_faction_acts() {
    let mut delve = corner(42)
        .creature(r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 20, speed_feet: 120)"#)
        .creature(&format!(
            r#"(name: "Lookout", {GOBLIN}, at: (9, 1), mind: (stance: Guard, shouts: true))"#
        ))
        .creature(&format!(r#"(name: "Runner", {GOBLIN}, at: (20, 5))"#))
        .build();
    // Initiative 11 and 9; the goblins' surprise die a 1.
    delve.script_dice(&[11, 9, 6, 1]);
    delve.run(3);
    assert!(delve.was_refused("Lookout", &delve_rules::rules::acting::Hold::Surprised));
    let made: Vec<u64> = delve
        .log()
        .entries()
        .iter()
        .filter(|e| {
            matches!(e.get::<delve_rules::command::CommandEvent>(),
                Some(delve_rules::command::CommandEvent::CommandAccepted { who, .. }) if who == "Lookout")
        })
        .map(|e| e.round)
        .collect();
    assert_eq!(made, vec![2], "{}", delve.log().to_text());
    assert!(answered(&delve, "Runner").is_some());
}

/// A lookout that sees an intruder shouts (a loud noise the intruder hears too); a companion
/// round the corner, within the shout's earshot (45' / 180' for a loud noise in a normal
/// dungeon), comes to the square beside it; one 250' away along the passages does not.
#[test]
fn a_shout_calls_the_faction() {
    let mut delve = corner(42)
        .creature(r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 20, speed_feet: 120)"#)
        .creature(&format!(
            r#"(name: "Lookout", {GOBLIN}, at: (9, 1), mind: (stance: Guard, shouts: true))"#
        ))
        .creature(&format!(r#"(name: "Runner", {GOBLIN}, at: (20, 5))"#))
        .creature(&format!(r#"(name: "Sleeper", {GOBLIN}, at: (20, 42))"#))
        .build();
    // Initiative 11 and 9; neither side surprised.
    delve.script_dice(&[11, 9, 6, 6]);
    delve.run(3);
    let shouted: Vec<MonsterEvent> = delve
        .events::<MonsterEvent>()
        .into_iter()
        .filter(|e| matches!(e, MonsterEvent::Shouted { .. }))
        .collect();
    assert_eq!(
        shouted,
        vec![MonsterEvent::Shouted {
            who: "Lookout".into(),
            saw: vec!["Ada".into()]
        }],
        "{}",
        delve.log().to_text()
    );
    // The runner, 75' of passages away, comes to the lookout's side; the sleeper stays.
    let to = answered(&delve, "Runner").expect("the runner answers the shout");
    assert_eq!(
        to.x.abs_diff(9).max(to.y.abs_diff(1)),
        1,
        "beside the lookout"
    );
    assert_eq!(answered(&delve, "Sleeper"), None);
    delve.run(6);
    let runner = delve.at("Runner");
    assert!(runner.y == 1 && runner.x < 20, "the runner came: {runner}");
    assert_eq!(delve.at("Sleeper"), GridPos::new(20, 42));
}

/// The shout is a noise like any other: the intruder the lookout saw hears it (35' away, within
/// the 45' a loud noise is heard without a throw), outside a battle as in one.
#[test]
fn the_intruders_hear_the_shout() {
    let mut delve = corner(5)
        .field("modules: (combat: false)")
        .creature(r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 20, speed_feet: 120)"#)
        .creature(&format!(
            r#"(name: "Lookout", {GOBLIN}, at: (9, 1), mind: (stance: Guard, shouts: true))"#
        ))
        .build();
    delve.run(3);
    assert!(
        delve.events::<HearingEvent>().iter().any(|e| matches!(
            e,
            HearingEvent::Heard { who, sound: SoundRow::Loud, how: HowHeard::Automatically, .. }
                if who == "Ada"
        )),
        "{}",
        delve.log().to_text()
    );
}

/// A guard does not leave its post to look at a noise, where one who roams goes to look; moved
/// off it, the guard walks back.
#[test]
fn a_guard_keeps_its_post() {
    let mut delve = corner(5)
        .creature(&format!(
            r#"(name: "Guard", {GOBLIN}, at: (20, 4), mind: (stance: Guard))"#
        ))
        .creature(&format!(r#"(name: "Roamer", {GOBLIN}, at: (20, 5))"#))
        .build();
    // A loud noise 20' and 25' away: both hear it without a throw.
    delve.give(MakeNoise {
        at: (18, 1),
        sound: SoundRow::Loud,
        what: "a dropped shield".into(),
    });
    delve.run(4);
    assert_eq!(
        delve.at("Guard"),
        GridPos::new(20, 4),
        "{}",
        delve.log().to_text()
    );
    assert!(
        delve.at("Roamer").y == 1,
        "the roamer went to look: {}",
        delve.at("Roamer")
    );
    // The log says who went to look, at what: the Judge's noise, made by no one.
    let looked: Vec<(String, NoiseKind, Option<String>)> = delve
        .events::<MonsterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            MonsterEvent::WentToLook {
                who,
                noise,
                made_by,
                ..
            } => Some((who, noise, made_by)),
            _ => None,
        })
        .collect();
    assert_eq!(looked, vec![("Roamer".into(), NoiseKind::Judge, None)]);
    delve.give(Move {
        who: "Guard".into(),
        to: (18, 1),
        pace: Pace::Combat,
    });
    delve.run(8);
    assert_eq!(delve.at("Guard"), GridPos::new(20, 4), "back at its post");
}

/// A lair-dweller goes to look at a noise in its lair, but not at one outside it.
#[test]
fn a_lair_dweller_keeps_to_its_lair() {
    let build = || {
        Scenario::new(&[
            "XXXXXXXXXXXX",
            "X....X.....X",
            "X....+.....X",
            "X....X.....X",
            "XXXXXXXXXXXX",
        ])
        .legend("'+': Door")
        .door("(at: (5, 2), state: Open)")
        .faction(r#"(name: "goblins")"#)
        .creature(&format!(
            r#"(name: "Bear", {GOBLIN}, at: (9, 2), mind: (stance: Lair))"#
        ))
        .build()
    };
    // Loud: heard without a throw within 45'.
    let noise = |at: (i32, i32)| MakeNoise {
        at,
        sound: SoundRow::Loud,
        what: "footsteps".into(),
    };
    let mut outside = build();
    outside.give(noise((2, 2))).run(4);
    assert_eq!(
        outside.at("Bear"),
        GridPos::new(9, 2),
        "it stays in its lair"
    );
    let mut inside = build();
    inside.give(noise((7, 1))).run(2);
    let bear = inside.at("Bear");
    assert!(
        bear.x.abs_diff(7) <= 1 && bear.y.abs_diff(1) <= 1,
        "it went to look: {bear}\n{}",
        inside.log().to_text()
    );
    // And then back to the heart of its lair.
    inside.run(6);
    assert_eq!(inside.at("Bear"), GridPos::new(9, 2));
}

/// A wanderer walks about within its range of where it started, the same way for the same
/// seed.
#[test]
fn a_wanderer_wanders_within_its_range() {
    let walk = |seed: u64| {
        let mut delve = Scenario::new(&[
            "XXXXXXXXXXXXXXXX",
            "X..............X",
            "X..............X",
            "X..............X",
            "X..............X",
            "X..............X",
            "XXXXXXXXXXXXXXXX",
        ])
        .light("(at: (7, 3), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "goblins")"#)
        .creature(&format!(
            r#"(name: "Wanderer", {GOBLIN}, at: (7, 3), mind: (stance: Wander(10)))"#
        ))
        .seed(seed)
        .build();
        let mut squares = Vec::new();
        for _ in 0..60 {
            delve.run(1);
            squares.push(delve.at("Wanderer"));
        }
        squares
    };
    let squares = walk(3);
    assert!(
        squares
            .iter()
            .all(|p| p.x.abs_diff(7) <= 2 && p.y.abs_diff(3) <= 2),
        "within 10' of (7, 3): {squares:?}"
    );
    let mut distinct = squares.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 4, "it moves about: {distinct:?}");
    assert_eq!(squares, walk(3), "the same seed, the same wandering");
}

/// An intruder seen and then lost round a corner is followed to where it was last seen.
#[test]
fn a_monster_pursues_to_where_it_last_saw_an_intruder() {
    let mut delve = corner(8)
        .field("modules: (combat: false)")
        .creature(
            r#"(name: "Ada", faction: "party", at: (18, 1), hp: 30, ac: 20, speed_feet: 120,
                mind: (pursues: false))"#,
        )
        .creature(&format!(r#"(name: "Hunter", {GOBLIN}, at: (3, 1))"#))
        .build();
    delve.run(1);
    // Ada slips round the corner into the dark shaft.
    delve.give(Move {
        who: "Ada".into(),
        to: (20, 8),
        pace: Pace::Combat,
    });
    delve.run(12);
    let pursued: Vec<GridPos> = delve
        .events::<MonsterEvent>()
        .into_iter()
        .filter_map(|e| match e {
            MonsterEvent::Pursued { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    assert!(!pursued.is_empty(), "{}", delve.log().to_text());
    assert!(
        pursued.iter().all(|p| p.x >= 18),
        "to where Ada was last seen: {pursued:?}"
    );
}

/// A patrol is walked only by a creature that roams: a guard with a route is an error at its
/// stance.
#[test]
fn a_guard_with_a_patrol_route_is_an_error() {
    let problems = corridor("[(2, 1), (8, 1)], mind: (stance: Guard)")
        .try_build()
        .err()
        .expect("a guard on patrol");
    let p = problems
        .0
        .iter()
        .find(|d| d.message.contains("stance"))
        .expect("the stance's problem");
    assert!(p.line > 0 && p.col > 0);
}

const SWORD: &str =
    r#"attack_bonus: 2, weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]"#;

/// In a battle a guard holds its post: it does not come out to the intruder it sees at the far
/// end of the lit hall, and strikes the one who comes within its reach.
#[test]
fn a_guard_holds_its_post_in_a_battle() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"])
        .light("(at: (5, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "goblins", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
                {SWORD})"#
        ))
        .creature(&format!(
            r#"(name: "Guard", {GOBLIN}, at: (9, 1), mind: (stance: Guard), {SWORD})"#
        ))
        .build();
    delve.run(4);
    assert!(
        delve
            .world()
            .resource::<delve_rules::rules::combat::battle::Battle>()
            .active,
        "{}",
        delve.log().to_text()
    );
    assert_eq!(
        delve.at("Guard"),
        GridPos::new(9, 1),
        "{}",
        delve.log().to_text()
    );
    // Ana walks up to it: it strikes her.
    delve.give(Move {
        who: "Ana".into(),
        to: (8, 1),
        pace: Pace::Combat,
    });
    delve.run(6);
    assert_eq!(delve.at("Guard"), GridPos::new(9, 1));
    assert!(
        delve
            .log()
            .of::<delve_rules::rules::combat::CombatEvent>()
            .any(|e| matches!(e, delve_rules::rules::combat::CombatEvent::Attacked { who, .. } if who == "Guard")),
        "{}",
        delve.log().to_text()
    );
}

/// A lair in a cave (a room with no doors) reaches the level's `lair_radius_feet` from where its
/// dweller starts (60' when not given); a lair behind doors is the whole room.
#[test]
fn a_lair_without_doors_reaches_its_radius() {
    let cave = |field: &str| {
        let mut s = Scenario::new(&[
            "XXXXXXXXXXXXXXXXXXXXXX",
            "X....................X",
            "XXXXXXXXXXXXXXXXXXXXXX",
        ])
        .faction(r#"(name: "goblins")"#)
        .creature(&format!(
            r#"(name: "Bear", {GOBLIN}, at: (1, 1), mind: (stance: Lair))"#
        ));
        if !field.is_empty() {
            s = s.field(field);
        }
        s.build()
    };
    let lair = |delve: &Delve| {
        let mut xs: Vec<i32> = delve
            .get::<delve_minds::policy::monsters::Mind>("Bear")
            .unwrap()
            .lair
            .iter()
            .map(|p| p.x)
            .collect();
        xs.sort();
        xs
    };
    assert_eq!(
        lair(&cave("")),
        (1..=13).collect::<Vec<_>>(),
        "60': 12 squares on"
    );
    assert_eq!(
        lair(&cave("lair_radius_feet: 20")),
        (1..=5).collect::<Vec<_>>()
    );
    // Noise beyond its reach is not looked at.
    let mut delve = cave("lair_radius_feet: 20");
    delve.give(MakeNoise {
        at: (9, 1),
        sound: SoundRow::Loud,
        what: "footsteps".into(),
    });
    delve.run(4);
    assert_eq!(delve.at("Bear"), GridPos::new(1, 1));
}

/// Two rooms and a closed door between them; a goblin in the east room, the Judge's noise in
/// the west (loud: heard without a throw within 45', the door counting 5').
fn rooms_with_door(door: &str, goblin: &str) -> Scenario {
    Scenario::new(&[
        "XXXXXXXXXXXX",
        "X....X.....X",
        "X....+.....X",
        "X....X.....X",
        "XXXXXXXXXXXX",
    ])
    .legend("'+': Door")
    .door(door)
    .faction(r#"(name: "goblins")"#)
    .creature(&format!(r#"(name: "Snik", {GOBLIN}, at: (8, 2){goblin})"#))
}

fn noise_west(delve: &mut Delve) {
    delve.give(MakeNoise {
        at: (2, 2),
        sound: SoundRow::Loud,
        what: "a dropped shield".into(),
    });
}

fn opened(delve: &Delve) -> Vec<(String, delve_rules::rules::doors::DoorOpening)> {
    delve
        .events::<delve_rules::rules::doors::DoorEvent>()
        .into_iter()
        .filter_map(|e| match e {
            delve_rules::rules::doors::DoorEvent::DoorOpened { who, how, .. } => Some((who, how)),
            _ => None,
        })
        .collect()
}

/// A monster that goes to look at a noise beyond a closed door walks up to the door, opens it,
/// and goes on through.
#[test]
fn a_monster_opens_a_door_to_look_at_a_noise() {
    use delve_rules::rules::doors::DoorOpening;
    let mut delve = rooms_with_door("(at: (5, 2))", "").build();
    noise_west(&mut delve);
    delve.run(8);
    assert_eq!(
        opened(&delve),
        vec![("Snik".into(), DoorOpening::ByHand)],
        "{}",
        delve.log().to_text()
    );
    assert!(delve.at("Snik").x < 5, "{}", delve.log().to_text());
    // An evil door yields easily to it, stuck though it is (Dungeon Delves › Doors).
    let mut delve = rooms_with_door("(at: (5, 2), stuck: true, evil: true)", "").build();
    noise_west(&mut delve);
    delve.run(8);
    assert_eq!(
        opened(&delve),
        vec![("Snik".into(), DoorOpening::YieldedToEvil)]
    );
    // A locked door: only with its key.
    let locked = "(at: (5, 2), lock: Locked(key: Some(\"brass\")))";
    let mut delve = rooms_with_door(locked, "").build();
    noise_west(&mut delve);
    delve.run(8);
    assert!(opened(&delve).is_empty());
    assert!(delve.at("Snik").x > 5, "it stays on its side");
    let mut delve = rooms_with_door(locked, r#", gear: [Key("brass")]"#).build();
    noise_west(&mut delve);
    delve.run(10);
    assert_eq!(
        opened(&delve),
        vec![("Snik".into(), DoorOpening::ByHand)],
        "{}",
        delve.log().to_text()
    );
    // A stuck door: a goblin of Strength 10 would need 18+ to bash it, so it leaves it shut.
    let mut delve = rooms_with_door("(at: (5, 2), stuck: true)", "").build();
    noise_west(&mut delve);
    delve.run(8);
    assert!(opened(&delve).is_empty());
    assert!(
        !delve
            .events::<delve_rules::rules::doors::DoorEvent>()
            .iter()
            .any(|e| matches!(e, delve_rules::rules::doors::DoorEvent::BashFailed { .. })),
        "no bash"
    );
}

/// A patroller hears a noise behind it while walking its route, breaks off to look, and then
/// walks its route again.
#[test]
fn a_patroller_goes_to_look_at_a_noise_and_back_to_its_route() {
    let mut delve = corridor("[(5, 1), (9, 1)]").build();
    // On its way from (5, 1) to (9, 1).
    assert!(run_to(&mut delve, 12, |d| (6..9).contains(&d.at("Guard").x)));
    delve.give(MakeNoise {
        at: (1, 1),
        sound: SoundRow::Loud,
        what: "a dropped shield".into(),
    });
    delve.run(1);
    let looked = delve
        .events::<MonsterEvent>()
        .iter()
        .any(|e| matches!(e, MonsterEvent::WentToLook { who, .. } if who == "Guard"));
    assert!(looked, "{}", delve.log().to_text());
    assert!(
        run_to(&mut delve, 8, |d| d.at("Guard").x <= 2),
        "{}",
        delve.log().to_text()
    );
    assert!(
        run_to(&mut delve, 20, |d| d.at("Guard") == GridPos::new(9, 1)),
        "back on its round: {}",
        delve.log().to_text()
    );
}

fn run_to(delve: &mut Delve, max: u64, done: impl Fn(&Delve) -> bool) -> bool {
    for _ in 0..max {
        if done(delve) {
            return true;
        }
        delve.run(1);
    }
    done(delve)
}

/// Aware of no enemy itself, a creature in a battle goes for the one its companions point out:
/// Bo, who sees nothing in the dark, closes in on the guard that Ana (60' of lightless vision)
/// sees at the far end of the hall.
#[test]
fn a_creature_closes_in_on_the_enemy_a_companion_points_out() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXX",
        "X..........X",
        "X..........X",
        "X..........X",
        "XXXXXXXXXXXX",
    ])
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "goblins", hostile_to: ["party"])"#)
    .creature(&format!(
        r#"(name: "Ana", faction: "party", at: (2, 1), hp: 30, ac: 12, speed_feet: 120,
            lightless_vision_feet: 60, {SWORD})"#
    ))
    .creature(&format!(
        r#"(name: "Bo", faction: "party", at: (2, 3), hp: 30, ac: 12, speed_feet: 120,
            {SWORD})"#
    ))
    .creature(&format!(
        r#"(name: "Guard", {GOBLIN}, at: (9, 2), mind: (stance: Guard), {SWORD})"#
    ))
    .build();
    delve.run(1);
    let aware = |d: &Delve, who: &str| {
        let e = d.entity(who);
        !d.world()
            .resource::<delve_rules::rules::combat::battle::Awareness>()
            .of(e)
            .is_empty()
    };
    assert!(aware(&delve, "Ana"), "{}", delve.log().to_text());
    assert!(!aware(&delve, "Bo"), "{}", delve.log().to_text());
    delve.run(6);
    assert!(
        delve.at("Bo").within_a_step(GridPos::new(9, 2)),
        "{}",
        delve.log().to_text()
    );
}

/// A party under its policy fights together (issue 33's "protect the vulnerable"): of two
/// goblins, Bo goes for the one beside Ana, the party's mapper (vulnerable at her map: Dungeon
/// Delves › Mapping), 15' off, rather than the one 10' off at his own flank.
#[test]
fn a_party_member_goes_for_the_foe_beside_its_vulnerable_mapper() {
    let build = |together: bool| {
        let mut delve = Scenario::new(&[
            "XXXXXXXXXXX",
            "X.........X",
            "X.........X",
            "X.........X",
            "X.........X",
            "X.........X",
            "XXXXXXXXXXX",
        ])
        .light("(at: (5, 3), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Bo", "Ana"], mapper: "Ana")"#)
        .faction(r#"(name: "goblins", hostile_to: ["party"])"#)
        .creature(&format!(
            r#"(name: "Ana", faction: "party", at: (8, 1), hp: 30, ac: 12, speed_feet: 120,
                {SWORD})"#
        ))
        .creature(&format!(
            r#"(name: "Bo", faction: "party", at: (4, 3), hp: 30, ac: 12, speed_feet: 120,
                {SWORD})"#
        ))
        .creature(&format!(
            r#"(name: "Gob", {GOBLIN}, at: (7, 1), mind: (stance: Guard), {SWORD})"#
        ))
        .creature(&format!(
            r#"(name: "Nab", {GOBLIN}, at: (2, 5), mind: (stance: Guard), {SWORD})"#
        ))
        .build();
        if together {
            let bo = delve.entity("Bo");
            delve
                .world_mut()
                .entity_mut(bo)
                .insert(delve_minds::policy::behaviour::FightsTogether);
        }
        delve.run(3);
        delve
    };
    let delve = build(true);
    assert!(
        delve
            .get::<delve_rules::creature::Conditions>("Ana")
            .is_some_and(|c| c.has(delve_ground::level::schema::ConditionKind::Vulnerable))
    );
    assert!(
        delve.at("Bo").within_a_step(GridPos::new(7, 1)),
        "{}",
        delve.log().to_text()
    );
    // Left to the plain behaviour, Bo goes for the nearest: not Gob.
    let alone = build(false);
    assert!(
        !alone.at("Bo").within_a_step(GridPos::new(7, 1)),
        "{}",
        alone.log().to_text()
    );
}
