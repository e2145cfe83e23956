//! Delves that play themselves: a party handed to its policy explores by what its faction
//! knows, keeps its light burning, rests, deals with doors, traps and dead ends, flees, and
//! ends the delve with an outcome.

use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::PolicyEvent;
use delve_minds::policy::party::{Homeward, Intent};
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::*;
use delve_rules::rules::doors::DoorEvent;
use delve_rules::rules::light::LightEvent;

pub(crate) fn hand_over(delve: &mut Delve, policy: PartyPolicy) {
    delve.give(Autonomy {
        party: "party".into(),
        policy: Some(policy),
    });
}

pub(crate) fn intents(delve: &Delve) -> Vec<Intent> {
    delve
        .events::<PolicyEvent>()
        .into_iter()
        .filter_map(|e| match e {
            PolicyEvent::Decided { intent, .. } => Some(intent),
            _ => None,
        })
        .collect()
}

/// Plays rounds until `done` holds (at most `max`); answers whether it did.
pub(crate) fn run_until(delve: &mut Delve, max: u64, done: impl Fn(&Delve) -> bool) -> bool {
    for _ in 0..max {
        if done(delve) {
            return true;
        }
        delve.run(1);
    }
    done(delve)
}

pub(crate) fn outcome(delve: &Delve) -> Option<Outcome> {
    delve
        .events::<PolicyEvent>()
        .into_iter()
        .find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(outcome),
            _ => None,
        })
}

/// A fighter (Strength 18) with a torch, alone in a party.
pub(crate) const FIGHTER: &str = r#"(name: "Brannoc", faction: "party", at: (1, 1), level: 3, class: "fighter",
    str: 18, hp: 18, ac: 16, speed_feet: 120, saves: { Paralysis: 14 }, gear: [Spikes(4)],
    carries: [(kind: Torch, lit: true)])"#;

pub(crate) const THIEF: &str = r#"(name: "Sera", faction: "party", at: (1, 2), level: 3, class: "thief",
    dex: 17, hp: 9, ac: 14, speed_feet: 120,
    proficiencies: [Searching, Lockpicking, Trapbreaking],
    throws: { Searching: 14, Lockpicking: 14, Trapbreaking: 14 },
    gear: [ThievesTools])"#;

/// A room with a door east into a short corridor, walled round.
pub(crate) fn room_with_door(door: &str, party: &[&str]) -> Scenario {
    let order: Vec<String> = party
        .iter()
        .map(|c| {
            let name = c.split('"').nth(1).unwrap();
            format!("\"{name}\"")
        })
        .collect();
    let mut s = Scenario::new(&[
        "XXXXXXXXXX",
        "X...X....X",
        "X...+....X",
        "X...X....X",
        "XXXXXXXXXX",
    ])
    .legend("'+': Door")
    .door(door)
    .faction(&format!(
        r#"(name: "party", marching_order: [{}])"#,
        order.join(", ")
    ));
    for c in party {
        s = s.creature(c);
    }
    s
}

/// Dungeon Delves › Light and Darkness: as the torch burns out, the next one is lit (just
/// before it dies: `the_next_light_is_lit_before_the_last_dies`).
#[test]
fn relights_when_the_torch_burns_out() {
    let mut delve = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true, fuel_turns: 1), (kind: Torch, lit: false)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(14);
    let light: Vec<LightEvent> = delve.events();
    assert!(
        light
            .iter()
            .any(|e| matches!(e, LightEvent::LightBurnedOut { .. })),
        "the torch burns out after its turn"
    );
    assert!(
        light
            .iter()
            .any(|e| matches!(e, LightEvent::LightLit { who, .. } if who == "Ana")),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::Relight { who: "Ana".into() }));
}

/// With 3 turns of torch and a margin of 2, the party turns back once the light left would
/// not cover the walk back and the margin, and gets out: the delve ends out of light.
#[test]
fn turns_back_when_light_runs_short() {
    let corridor = format!("X{}X", ".".repeat(60));
    let wall = "X".repeat(62);
    let mut delve = Scenario::new(&[&wall, &corridor, &wall])
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true, fuel_turns: 3)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(run_until(&mut delve, 40, |d| outcome(d).is_some()));
    assert!(
        intents(&delve).contains(&Intent::TurnBack {
            why: Homeward::LightShort
        }),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(outcome(&delve), Some(Outcome::OutOfLight));
    assert_eq!(delve.at("Ana"), GridPos::new(1, 1), "back at the way in");
}

/// A dead end at the end of a corridor, nothing else to explore: the party searches it, and a
/// throw of 20 finds the secret door there. (Once each: the dead end it starts on is searched
/// first.)
#[test]
fn searches_a_dead_end() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X......+X", "XXXXXXXXX"])
        .legend("'+': Door")
        .door("(at: (7, 1), secret: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc"])"#)
        .creature(FIGHTER)
        .build();
    hand_over(
        &mut delve,
        PartyPolicy {
            dead_end_searches: 1,
            ..PartyPolicy::default()
        },
    );
    let search = Intent::Search {
        at: GridPos::new(6, 1),
    };
    assert!(
        run_until(&mut delve, 40, |d| intents(d).contains(&search)),
        "{}",
        delve.log().to_text()
    );
    delve.script_dice(&[20]);
    assert!(run_until(&mut delve, 15, |d| {
        !d.events::<delve_rules::rules::search::SearchEvent>()
            .is_empty()
    }));
}

/// Dungeon Delves › Rest: five turns of exploring, then a turn of rest.
#[test]
fn rests_after_five_turns() {
    let corridor = format!("X{}X", ".".repeat(150));
    let wall = "X".repeat(152);
    let mut delve = Scenario::new(&[&wall, &corridor, &wall])
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                carries: [(kind: Lantern, lit: true)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(
        run_until(&mut delve, 70, |d| intents(d).contains(&Intent::Rest)),
        "{}",
        delve.log().to_text()
    );
    let round = delve.world().resource::<delve_ground::time::Clock>().rounds;
    assert!((48..=52).contains(&round), "rested at round {round}");
    let rests = delve.events::<delve_rules::rules::party::PartyEvent>();
    assert!(
        rests
            .iter()
            .any(|e| matches!(e, delve_rules::rules::party::PartyEvent::PartyRests { .. }))
            || run_until(&mut delve, 2, |d| {
                d.events::<delve_rules::rules::party::PartyEvent>()
                    .iter()
                    .any(|e| matches!(e, delve_rules::rules::party::PartyEvent::PartyRests { .. }))
            })
    );
}

/// A known trap on the only way (a 5'-wide corridor, no room to step around it): without a
/// thief the party crosses it at its trigger chance (RULINGS › Pits and holes); with one, the
/// thief disarms it.
#[test]
fn known_traps_are_crossed_at_their_chance_or_disarmed() {
    let corridor = |party: &[&str]| {
        let order: Vec<String> = party
            .iter()
            .map(|c| format!("\"{}\"", c.split('"').nth(1).unwrap()))
            .collect();
        let mut s = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
            .trap(
                r#"(at: (4, 1), kind: Custom(name: "tripwire", damage: "1d4"), trigger: Step,
                    hidden: false)"#,
            )
            .faction(&format!(
                r#"(name: "party", marching_order: [{}])"#,
                order.join(", ")
            ));
        for c in party {
            s = s.creature(&c.replace("at: (1, 2)", "at: (2, 1)"));
        }
        s.build()
    };
    let mut alone = corridor(&[FIGHTER]);
    // (One search of the dead end it starts on, not the default four.)
    hand_over(
        &mut alone,
        PartyPolicy {
            dead_end_searches: 1,
            ..PartyPolicy::default()
        },
    );
    assert!(
        run_until(&mut alone, 40, |d| d.at("Brannoc").x >= 7),
        "{}",
        alone.log().to_text()
    );
    let rolls: Vec<String> = alone
        .events::<delve_rules::rules::traps::TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            delve_rules::rules::traps::TrapEvent::TrapChance { who, at, .. }
                if at == GridPos::new(4, 1) =>
            {
                Some(who)
            }
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec!["Brannoc".to_string()]);

    let mut with_thief = corridor(&[FIGHTER, THIEF]);
    hand_over(
        &mut with_thief,
        PartyPolicy {
            dead_end_searches: 1,
            ..PartyPolicy::default()
        },
    );
    assert!(run_until(&mut with_thief, 40, |d| {
        intents(d).contains(&Intent::Disarm {
            at: GridPos::new(4, 1),
        })
    }));
}

/// The policy reads only what its faction knows: a ghoul behind a closed door (which the
/// Judge sees) changes nothing the party decides before the door is opened.
#[test]
fn the_policy_does_not_read_the_judges_map() {
    let level = |ghoul: bool| {
        let mut s = room_with_door("(at: (4, 2))", &[FIGHTER])
            .faction(r#"(name: "ghouls", hostile_to: ["party"])"#);
        if ghoul {
            s = s.creature(r#"(name: "Gnawbone", faction: "ghouls", at: (8, 2), hp: 9, ac: 13, speed_feet: 90)"#);
        }
        let mut delve = s.build();
        hand_over(
            &mut delve,
            PartyPolicy {
                listen_at_doors: false,
                ..PartyPolicy::default()
            },
        );
        run_until(&mut delve, 30, |d| {
            d.events::<DoorEvent>()
                .iter()
                .any(|e| matches!(e, DoorEvent::DoorOpened { .. }))
        });
        intents(&delve)
    };
    let without = level(false);
    assert!(!without.is_empty());
    assert_eq!(level(true), without);
}

/// The same level, seed and policy give the same delve, and its journal replays it.
#[test]
fn an_autonomous_delve_replays_from_its_journal() {
    let level = delve_ground::level::load_level_file(std::path::Path::new("levels/crypt.ron"))
        .unwrap()
        .level;
    let policy = PartyPolicy::default();
    let first = delve_play::sim::play_autonomous(&level, 4, &policy, &[], 400);
    let again = delve_play::sim::play_autonomous(&level, 4, &policy, &[], 400);
    let log = |app: &bevy::app::App| {
        app.world()
            .resource::<delve_ground::log::EventLog>()
            .to_json_lines()
    };
    assert_eq!(log(&first), log(&again));
    let world = first.world();
    let journal = world.resource::<delve_rules::command::Journal>().clone();
    let rounds = world.resource::<delve_ground::time::Clock>().rounds;
    let replayed = delve_play::sim::replay(&level, 4, &journal, rounds);
    assert_eq!(log(&replayed), log(&first));
}

/// On the crypt, from several seeds, every delve ends with an outcome; one that reaches the
/// shrine has found the secret door by a search; none asks the rules for a walk they refuse
/// (through a wall or a closed door). How often the shrine is reached is the lab's measure of
/// the policy; these seeds are played to the policy's turn limit, and the shrine is reached in
/// several of them (the party jumps the sprung pit, picks the locks methodically, and searches
/// the dead end until it finds the secret door).
#[test]
fn crypt_delves_end_with_an_outcome_and_a_found_shrine() {
    let level = delve_ground::level::load_level_file(std::path::Path::new("levels/crypt.ron"))
        .unwrap()
        .level;
    let policy = PartyPolicy::default();
    let mut reached = 0;
    for seed in 1..=20 {
        let cap = policy.turn_limit * delve_ground::time::ROUNDS_PER_TURN + 1;
        let app = delve_play::sim::play_autonomous(&level, seed, &policy, &[], cap);
        let log = app.world().resource::<delve_ground::log::EventLog>();
        let end = log.of::<PolicyEvent>().find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
            _ => None,
        });
        assert!(end.is_some(), "seed {seed} has no outcome");
        if end == Some(Outcome::GoalReached) {
            reached += 1;
            assert!(
                log.of::<delve_rules::rules::search::SearchEvent>()
                    .next()
                    .is_some(),
                "seed {seed}: the shrine is reached only through the secret door"
            );
        }
        // A walk the rules refuse: only when a door it saw open swung shut by itself.
        let party = ["party", "Brannoc", "Sera", "Aldric", "Mirela"];
        let swung = log
            .of::<DoorEvent>()
            .filter(|e| matches!(e, DoorEvent::DoorSwungShut { .. }))
            .count();
        let refused = delve_rules::command::refusals(log)
            .filter(|(who, r)| {
                party.contains(who)
                    && matches!(
                        r.get::<delve_rules::rules::movement::MoveRefusal>(),
                        Some(delve_rules::rules::movement::MoveRefusal::NoPath { .. })
                    )
            })
            .count();
        assert!(
            refused <= swung,
            "seed {seed}: a walk through a wall or a shut door"
        );
    }
    assert!(reached >= 5, "the shrine reached in {reached} of 20 seeds");
}

/// On every sample level the autonomous party ends its delve with an outcome, from several
/// seeds.
#[test]
fn every_sample_level_ends_with_an_outcome() {
    let policy = PartyPolicy::default();
    let cap = policy.turn_limit * delve_ground::time::ROUNDS_PER_TURN + 1;
    for file in [
        "levels/cave.ron",
        "levels/descent.ron",
        "levels/undercroft.ron",
    ] {
        let level = delve_ground::level::load_level_file(std::path::Path::new(file))
            .unwrap()
            .level;
        for seed in 1..=3 {
            let app = delve_play::sim::play_autonomous(&level, seed, &policy, &[], cap);
            let end = &app
                .world()
                .resource::<delve_minds::policy::party::DelveEnd>()
                .0;
            assert!(end.is_some(), "{file}, seed {seed}: no outcome");
        }
    }
}

/// `creature` (named `who`, at (3, 1)) alone in a party that walks into a squeeze on its way to
/// the exit, stuck there by a natural 1 on its first Squeezing throw; the next dice come up
/// `then`.
pub(crate) fn stuck_in_a_squeeze(who: &str, creature: &str, then: &[u32]) -> Delve {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X...SS...X", "XXXXXXXXXX"])
        .legend("'S': Squeeze")
        .field("goal: Exit((8, 1))")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(&format!(r#"(name: "party", marching_order: ["{who}"])"#))
        .creature(creature)
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    let mut dice = vec![1];
    dice.extend_from_slice(then);
    delve.script_dice(&dice);
    assert!(
        run_until(&mut delve, 10, |d| {
            d.get::<delve_rules::creature::Conditions>(who)
                .is_some_and(|c| c.has(delve_ground::level::schema::ConditionKind::Stuck))
        }),
        "{}",
        delve.log().to_text()
    );
    delve
}

/// Short of light (a torch with 3 turns left), the party takes the lantern standing in the
/// corridor it has seen rather than turn back at once (Dungeon Delves › Light and Darkness).
#[test]
fn a_party_short_of_light_takes_a_lantern_it_sees() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"])
        .light("(at: (6, 1), kind: Lantern, lit: true)")
        .faction(r#"(name: "party", marching_order: ["Tam"])"#)
        .creature(
            r#"(name: "Tam", faction: "party", at: (1, 1), hp: 10, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true, fuel_turns: 3)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(
        run_until(&mut delve, 30, |d| {
            d
            .events::<delve_rules::rules::light::LightEvent>()
            .iter()
            .any(|e| matches!(e, delve_rules::rules::light::LightEvent::LightPickedUp { who, .. } if who == "Tam"))
        }),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::TakeALight {
        at: GridPos::new(6, 1)
    }));
}

/// Dungeon Delves › Light and Darkness: the party lights its next light before the torch it
/// carries burns out, not after — no round in the dark between the two.
#[test]
fn the_next_light_is_lit_before_the_last_dies() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Tam"])"#)
        .creature(
            r#"(name: "Tam", faction: "party", at: (1, 1), hp: 10, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true, fuel_turns: 1), (kind: Torch, lit: false)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    use delve_rules::rules::light::LightEvent;
    assert!(
        run_until(&mut delve, 20, |d| d
            .events::<LightEvent>()
            .iter()
            .any(|e| matches!(e, LightEvent::LightBurnedOut { .. }))),
        "{}",
        delve.log().to_text()
    );
    let events = delve.events::<LightEvent>();
    let lit = events
        .iter()
        .position(|e| matches!(e, LightEvent::LightLit { .. }));
    let out = events
        .iter()
        .position(|e| matches!(e, LightEvent::LightBurnedOut { .. }));
    assert!(lit.is_some() && lit < out, "{events:?}");
    assert_eq!(outcome(&delve), None, "not out of light");
}

/// The party's tactics are rows of a table, each tried alone here (`try_tactic`), and the log
/// names the row that decided.
#[test]
fn each_tactic_is_a_row_tried_alone_and_named_in_the_log() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X.......X", "XXXXXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana", "Bo"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true, fuel_turns: 1), (kind: Torch, lit: false)])"#,
        )
        .creature(r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(1);
    let names: Vec<&str> = delve_minds::policy::party::tactic_names().collect();
    for (i, n) in names.iter().enumerate() {
        assert!(!names[i + 1..].contains(n), "{n} is named twice");
    }
    let tried = |delve: &mut Delve, tactic: &str| {
        delve_minds::policy::party::try_tactic(delve.world_mut(), "party", tactic).map(|(i, _)| i)
    };
    // A torch with a turn left: not yet dying; no one has toiled five turns; no one is down.
    assert_eq!(tried(&mut delve, "relight"), None);
    assert_eq!(tried(&mut delve, "rest"), None);
    assert_eq!(tried(&mut delve, "flee"), None);
    assert_eq!(tried(&mut delve, "get unstuck"), None);
    assert!(matches!(
        tried(&mut delve, "where next"),
        Some(Intent::Explore { .. } | Intent::TurnBack { .. })
    ));
    // Nine rounds on, the torch has a round left: the next is lit now.
    delve.run(8);
    assert_eq!(
        tried(&mut delve, "relight"),
        Some(Intent::Relight { who: "Ana".into() })
    );
    // Tried alone, a row leaves the party's mind as it was: asked again, it answers the same.
    assert_eq!(
        tried(&mut delve, "relight"),
        Some(Intent::Relight { who: "Ana".into() })
    );
    delve.run(3);
    let decided: Vec<(&str, Intent)> = delve
        .events::<PolicyEvent>()
        .into_iter()
        .filter_map(|e| match e {
            PolicyEvent::Decided { tactic, intent, .. } => Some((tactic, intent)),
            _ => None,
        })
        .collect();
    assert!(decided.iter().all(|(t, _)| names.contains(t)));
    assert!(
        decided
            .iter()
            .any(|(t, i)| *t == "relight" && *i == Intent::Relight { who: "Ana".into() }),
        "{}",
        delve.log().to_text()
    );
}

/// Half the party down, but the foe is beaten (none fights, none is in sight): the party does
/// not flee.
#[test]
fn no_flight_from_a_beaten_foe() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X...+......X", "XXXXXXXXXXXX"])
        .legend("'+': Door")
        .door("(at: (4, 1), state: Open)")
        .faction(r#"(name: "party", marching_order: ["Brannoc", "Ana"])"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(FIGHTER)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (9, 1))"#)
        .build();
    // The ghoul has fallen, and Ana with it: half the party is down.
    let (ghoul, ana) = (delve.entity("Gnawbone"), delve.entity("Ana"));
    delve_rules::rules::damage::take_damage(delve.world_mut(), ghoul, 40);
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(2);
    delve_rules::rules::damage::take_damage(delve.world_mut(), ana, 7);
    delve.run(20);
    let fled = Intent::TurnBack {
        why: Homeward::Fleeing,
    };
    assert!(
        !intents(&delve).contains(&fled),
        "{}",
        delve.log().to_text()
    );
    // A foe that is up and in sight again: now it flees.
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X...+......X", "XXXXXXXXXXXX"])
        .legend("'+': Door")
        .door("(at: (4, 1), state: Open)")
        .light("(at: (9, 1), kind: Custom(bright_feet: 20, dim_feet: 20), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc", "Ana"])"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(FIGHTER)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(
            r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (9, 1),
                mind: (stance: Guard))"#,
        )
        .build();
    let ana = delve.entity("Ana");
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(2);
    delve_rules::rules::damage::take_damage(delve.world_mut(), ana, 7);
    delve.run(4);
    assert!(intents(&delve).contains(&fled), "{}", delve.log().to_text());
}

/// Dungeon Delves › Traps: a 10' pole probing ahead enters each square before its bearer. With
/// `pole_ahead`, the pole's bearer leads down a passage no member has walked (the pole meets a
/// trap there before a foot does); without it the fighter leads as before.
#[test]
fn the_poles_bearer_leads_down_a_passage_no_one_has_walked() {
    const POLER: &str = r#"(name: "Sera", faction: "party", at: (1, 2), level: 3, class: "thief",
        dex: 17, hp: 9, ac: 14, speed_feet: 120, gear: [TenFootPole])"#;
    let ahead = |pole_ahead: bool| {
        let mut delve = Scenario::new(&[
            "XXXXXXXXXXXX",
            "X...XXXXXXXX",
            "X..........X",
            "X...XXXXXXXX",
            "XXXXXXXXXXXX",
        ])
        .field("goal: Exit((10, 2))")
        .light("(at: (2, 2), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .light("(at: (10, 2), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc", "Sera"])"#)
        .creature(FIGHTER)
        .creature(POLER)
        .build();
        hand_over(
            &mut delve,
            PartyPolicy {
                pole_ahead,
                ..PartyPolicy::default()
            },
        );
        assert!(
            run_until(&mut delve, 80, |d| d.at("Sera").x >= 7
                || d.at("Brannoc").x >= 7),
            "{}",
            delve.log().to_text()
        );
        delve.at("Sera").x > delve.at("Brannoc").x
    };
    assert!(ahead(true), "the pole's bearer leads with pole_ahead");
    assert!(!ahead(false), "the fighter leads without it");
}

/// The end of a delve, with its numbers.
pub(crate) fn ended(delve: &Delve) -> Option<(Outcome, delve_minds::policy::outcome::Tally)> {
    delve
        .events::<PolicyEvent>()
        .into_iter()
        .find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, tally, .. } => Some((outcome, tally)),
            _ => None,
        })
}

/// A party told to wait for orders in a battle, then handed to its policy, waits no more: the
/// policy leaves the blows to its members' battle minds, so a party that waited would stand
/// while it was struck. Taken back, it stays let go until told to wait again.
#[test]
fn a_party_handed_to_its_policy_no_longer_waits_for_orders() {
    use delve_rules::rules::combat::battle::Controlled;
    let mut delve = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .build();
    delve.act(WaitForOrders {
        party: "party".into(),
        on: true,
    });
    assert!(delve.get::<Controlled>("Ana").is_some());
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(1);
    assert!(delve.get::<Controlled>("Ana").is_none());
    delve.act(Autonomy {
        party: "party".into(),
        policy: None,
    });
    assert!(delve.get::<Controlled>("Ana").is_none());
}

/// A delve no policy plays (solo play) ends too: once every member of the party is down, the
/// party is dead ([`PolicyEvent::DelveEnded`], `PartyDead`), its wounds counted from the
/// level's start.
#[test]
fn a_solo_party_with_every_member_down_is_dead() {
    let mut delve = Scenario::new(&["XXXXXX", "X....X", "XXXXXX"])
        .light("(at: (1, 1), kind: Custom(bright_feet: 30, dim_feet: 30), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Ana", "Cy"])"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(r#"(name: "Cy", faction: "party", at: (2, 1), hp: 4, ac: 12, speed_feet: 120)"#)
        .build();
    delve.act(SetHitPoints {
        who: "Ana".into(),
        hit_points: 0,
    });
    delve.run(1);
    assert_eq!(outcome(&delve), None, "Cy still stands");
    delve.act(SetHitPoints {
        who: "Cy".into(),
        hit_points: -1,
    });
    delve.run(1);
    assert_eq!(outcome(&delve), Some(Outcome::PartyDead));
    let (_, tally) = ended(&delve).unwrap();
    assert_eq!(tally.wounds, 6 + 4);
}

/// Solo play ends when the party leaves the level together by the way it came in
/// (`rules::party::Leave`, offered there): a party that stood on its goal's square reached its
/// goal; one that did not gave up. One not yet at the way in keeps the party from leaving.
#[test]
fn a_solo_party_leaves_by_its_way_in_with_its_goal_met_or_not() {
    let scene = |goal: &str| {
        Scenario::new(&["XXXXXXXX", "X......X", "XXXXXXXX"])
            .light("(at: (3, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
            .faction(r#"(name: "party", marching_order: ["Ana", "Cy"])"#)
            .creature(
                r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#,
            )
            .creature(
                r#"(name: "Cy", faction: "party", at: (2, 1), hp: 4, ac: 12, speed_feet: 120)"#,
            )
            .field(goal)
            .build()
    };
    let mut delve = scene("goal: Reach((6, 1))");
    delve.act(Move {
        who: "Cy".into(),
        to: (6, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    delve.run(1);
    delve.act(Leave { who: "Ana".into() });
    assert!(delve.was_refused(
        "Ana",
        &delve_rules::rules::party::PartyRefusal::NotAtTheWayOut { name: "Cy".into() }
    ));
    delve.act(Move {
        who: "Cy".into(),
        to: (2, 1),
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    delve.run(1);
    let offered: Vec<String> = delve_rules::rules::choices_for(delve.world(), delve.entity("Ana"))
        .into_iter()
        .map(|(_, c)| c.way)
        .collect();
    assert!(
        offered.contains(&"leave the level with the party".to_string()),
        "{offered:?}"
    );
    delve.act(Leave { who: "Ana".into() });
    delve.run(1);
    assert_eq!(outcome(&delve), Some(Outcome::GoalReached));

    let mut delve = scene("goal: Reach((6, 1))");
    delve.act(Leave { who: "Ana".into() });
    delve.run(1);
    assert_eq!(outcome(&delve), Some(Outcome::GaveUp));
}
