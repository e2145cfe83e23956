//! Delves that play themselves: a party handed to its policy explores by what its faction
//! knows, keeps its light burning, rests, deals with doors, traps and dead ends, flees, and
//! ends the delve with an outcome.

use delve::command::acts::*;
use delve::grid::GridPos;
use delve::policy::party::{DoorPlan, Homeward, Intent};
use delve::policy::{Outcome, PartyPolicy, PolicyEvent};
use delve::rules::doors::{DoorEvent, DoorOpening, LockOpening};
use delve::rules::light::LightEvent;
use delve::scenario::{Delve, Scenario};

fn hand_over(delve: &mut Delve, policy: PartyPolicy) {
    delve.give(Autonomy {
        party: "party".into(),
        policy: Some(policy),
    });
}

fn intents(delve: &Delve) -> Vec<Intent> {
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
fn run_until(delve: &mut Delve, max: u64, done: impl Fn(&Delve) -> bool) -> bool {
    for _ in 0..max {
        if done(delve) {
            return true;
        }
        delve.run(1);
    }
    done(delve)
}

fn outcome(delve: &Delve) -> Option<Outcome> {
    delve
        .events::<PolicyEvent>()
        .into_iter()
        .find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(outcome),
            _ => None,
        })
}

/// A fighter (Strength 18) with a torch, alone in a party.
const FIGHTER: &str = r#"(name: "Brannoc", faction: "party", at: (1, 1), level: 3, class: "fighter",
    str: 18, hp: 18, ac: 16, speed_feet: 120, saves: { Paralysis: 14 }, gear: [Spikes(4)],
    carries: [(kind: Torch, lit: true)])"#;

const THIEF: &str = r#"(name: "Sera", faction: "party", at: (1, 2), level: 3, class: "thief",
    dex: 17, hp: 9, ac: 14, speed_feet: 120,
    proficiencies: [Searching, Lockpicking, Trapbreaking],
    throws: { Searching: 14, Lockpicking: 14, Trapbreaking: 14 },
    gear: [ThievesTools])"#;

/// A room with a door east into a short corridor, walled round.
fn room_with_door(door: &str, party: &[&str]) -> Scenario {
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

/// A stuck door is bashed by the strongest: Strength 18 bashes doors on 6+ (a 5 fails).
#[test]
fn bashes_a_stuck_door() {
    let mut delve = room_with_door("(at: (4, 2), stuck: true)", &[FIGHTER]).build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let bash = Intent::Door {
        at: GridPos::new(4, 2),
        how: DoorPlan::Bash,
    };
    assert!(
        run_until(&mut delve, 30, |d| intents(d).contains(&bash)),
        "{}",
        delve.log().to_text()
    );
    assert!(delve.was_refused("Brannoc", &delve::rules::doors::DoorRefusal::Stuck));
    delve.script_dice(&[5]).run(1);
    assert!(
        delve
            .events::<DoorEvent>()
            .iter()
            .any(|e| matches!(e, DoorEvent::BashFailed { .. }))
    );
    assert!(run_until(&mut delve, 5, |d| {
        intents(d).iter().filter(|i| **i == bash).count() == 2
    }));
    delve.script_dice(&[6]).run(1);
    assert!(delve.events::<DoorEvent>().iter().any(|e| matches!(
        e,
        DoorEvent::DoorOpened {
            how: DoorOpening::Bashed,
            ..
        }
    )));
}

/// A locked door with no key: a careful party's thief picks it methodically, risking no jam
/// on a 1–3 (Dungeon Delves › Doors: a turn, Lockpicking 14+ with +4, a 1 jams it).
#[test]
fn a_careful_thief_picks_a_lock_methodically() {
    let mut delve =
        room_with_door("(at: (4, 2), lock: Locked(key: None))", &[FIGHTER, THIEF]).build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let methodically = Intent::Door {
        at: GridPos::new(4, 2),
        how: DoorPlan::PickMethodically,
    };
    assert!(
        run_until(&mut delve, 30, |d| intents(d).contains(&methodically)),
        "{}",
        delve.log().to_text()
    );
    // A throw of 10 (+4) opens it at the end of the turn.
    delve.script_dice(&[10]);
    assert!(
        run_until(&mut delve, 15, |d| d.events::<DoorEvent>().iter().any(
            |e| matches!(
                e,
                DoorEvent::LockOpened {
                    by: LockOpening::Picked,
                    ..
                }
            )
        )),
        "{}",
        delve.log().to_text()
    );
    assert!(
        !delve
            .log()
            .of::<delve::command::CommandEvent>()
            .any(|e| matches!(
                e,
                delve::command::CommandEvent::CommandAccepted {
                    command: delve::command::Command::PickLock(_),
                    ..
                }
            )),
        "no hasty pick"
    );
}

/// A locked door with no key: a party that takes the risk (`hasty_picks`) has its thief pick
/// it hastily first (Lockpicking 14+).
#[test]
fn a_thief_picks_a_locked_door() {
    let mut delve =
        room_with_door("(at: (4, 2), lock: Locked(key: None))", &[FIGHTER, THIEF]).build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            hasty_picks: true,
            ..PartyPolicy::default()
        },
    );
    let pick = Intent::Door {
        at: GridPos::new(4, 2),
        how: DoorPlan::Pick,
    };
    assert!(
        run_until(&mut delve, 30, |d| {
            d.log().of::<delve::command::CommandEvent>().any(|e| {
                matches!(
                    e,
                    delve::command::CommandEvent::CommandAccepted {
                        command: delve::command::Command::PickLock(_),
                        ..
                    }
                )
            }) || intents(d).iter().filter(|i| **i == pick).count() > 2
        }),
        "{}",
        delve.log().to_text()
    );
    // The pick was given last round: its throw comes up 14.
    let picked = delve.events::<DoorEvent>().iter().any(|e| {
        matches!(
            e,
            DoorEvent::LockOpened {
                by: LockOpening::Picked,
                ..
            }
        )
    });
    let failed = delve
        .events::<DoorEvent>()
        .iter()
        .any(|e| matches!(e, DoorEvent::PickFailed { .. }));
    assert!(picked || failed, "{}", delve.log().to_text());
    assert!(delve.was_refused("Brannoc", &delve::rules::doors::DoorRefusal::Locked));
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
        !d.events::<delve::rules::search::SearchEvent>().is_empty()
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
    let round = delve.world().resource::<delve::time::Clock>().rounds;
    assert!((48..=52).contains(&round), "rested at round {round}");
    let rests = delve.events::<delve::rules::party::PartyEvent>();
    assert!(
        rests
            .iter()
            .any(|e| matches!(e, delve::rules::party::PartyEvent::PartyRests { .. }))
            || run_until(&mut delve, 2, |d| {
                d.events::<delve::rules::party::PartyEvent>()
                    .iter()
                    .any(|e| matches!(e, delve::rules::party::PartyEvent::PartyRests { .. }))
            })
    );
}

/// Half the party down with a foe in sight (a guard come out of the dark): it flees for the way
/// in, spiking shut the door it passes.
#[test]
fn flees_past_a_spiked_door() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXX",
        "X...+..............X",
        "XXXXXXXXXXXXXXXXXXXX",
    ])
    .legend("'+': Door")
    .door("(at: (4, 1), state: Open)")
    .faction(r#"(name: "party", marching_order: ["Brannoc", "Ana"])"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    .creature(FIGHTER)
    .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
    .creature(
        r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (18, 1),
            mind: (stance: Guard))"#,
    )
    .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(
        run_until(&mut delve, 40, |d| d.at("Brannoc").x >= 7),
        "{}",
        delve.log().to_text()
    );
    // The guard steps into the torchlight, and Ana falls: half the party is down.
    delve.give(Move {
        who: "Gnawbone".into(),
        to: (11, 1),
        pace: delve::rules::movement::Pace::Combat,
    });
    delve.run(2);
    let ana = delve.entity("Ana");
    delve::rules::damage::take_damage(delve.world_mut(), ana, 7);
    assert!(
        run_until(&mut delve, 40, |d| outcome(d).is_some()),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::TurnBack {
        why: Homeward::Fleeing
    }));
    assert!(
        delve
            .events::<DoorEvent>()
            .iter()
            .any(|e| matches!(e, DoorEvent::DoorSpiked { at, .. } if *at == GridPos::new(4, 1))),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(outcome(&delve), Some(Outcome::PartyFled));
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
        .events::<delve::rules::traps::TrapEvent>()
        .into_iter()
        .filter_map(|e| match e {
            delve::rules::traps::TrapEvent::TrapChance { who, at, .. }
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
    let level = delve::level::load_level_file(std::path::Path::new("levels/crypt.ron"))
        .unwrap()
        .level;
    let policy = PartyPolicy::default();
    let first = delve::sim::play_autonomous(&level, 4, &policy, &[], 400);
    let again = delve::sim::play_autonomous(&level, 4, &policy, &[], 400);
    let log = |app: &bevy::app::App| {
        app.world()
            .resource::<delve::log::EventLog>()
            .to_json_lines()
    };
    assert_eq!(log(&first), log(&again));
    let world = first.world();
    let journal = world.resource::<delve::command::Journal>().clone();
    let rounds = world.resource::<delve::time::Clock>().rounds;
    let replayed = delve::sim::replay(&level, 4, &journal, rounds);
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
    let level = delve::level::load_level_file(std::path::Path::new("levels/crypt.ron"))
        .unwrap()
        .level;
    let policy = PartyPolicy::default();
    let mut reached = 0;
    for seed in 1..=20 {
        let cap = policy.turn_limit * delve::time::ROUNDS_PER_TURN + 1;
        let app = delve::sim::play_autonomous(&level, seed, &policy, &[], cap);
        let log = app.world().resource::<delve::log::EventLog>();
        let end = log.of::<PolicyEvent>().find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
            _ => None,
        });
        assert!(end.is_some(), "seed {seed} has no outcome");
        if end == Some(Outcome::GoalReached) {
            reached += 1;
            assert!(
                log.of::<delve::rules::search::SearchEvent>()
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
        let refused = delve::command::refusals(log)
            .filter(|(who, r)| {
                party.contains(who)
                    && matches!(
                        r.get::<delve::rules::movement::MoveRefusal>(),
                        Some(delve::rules::movement::MoveRefusal::NoPath { .. })
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

/// The lantern does not die with its bearer: with no other light, the one still up takes the
/// fallen bearer's lantern (still lit) and the delve goes on.
#[test]
fn takes_the_light_from_a_fallen_bearer() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X.......X", "X.......X", "XXXXXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana", "Bo"])"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(
            r#"(name: "Bo", faction: "party", at: (3, 2), hp: 6, ac: 12, speed_feet: 120,
                conditions: [Dying], gear: [Oil(1)],
                carries: [(kind: Lantern, lit: true, fuel_turns: 24)])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(run_until(&mut delve, 12, |d| {
        d.events::<delve::rules::party::PartyEvent>()
            .iter()
            .any(|e| matches!(e, delve::rules::party::PartyEvent::TookFrom { .. }))
    }));
    assert!(intents(&delve).contains(&Intent::TakeFromTheFallen { from: "Bo".into() }));
    let took = delve
        .events::<delve::rules::party::PartyEvent>()
        .into_iter()
        .find_map(|e| match e {
            delve::rules::party::PartyEvent::TookFrom {
                who,
                from,
                gear,
                lights,
            } => Some((who, from, gear, lights)),
            _ => None,
        })
        .unwrap();
    assert_eq!((took.0.as_str(), took.1.as_str()), ("Ana", "Bo"));
    assert_eq!(took.2, vec![delve::level::schema::Gear::Oil(1)]);
    assert_eq!(took.3.len(), 1);
    assert_eq!(
        took.3[0].kind,
        delve::level::schema::LightKind::Lantern,
        "the lantern, still burning"
    );
    assert_ne!(outcome(&delve), Some(Outcome::OutOfLight));
}

/// A `Recover` goal: the party takes the key from the skeleton it sees fallen, turns back with
/// the goal met, and leaves by the way in.
#[test]
fn recovers_the_key_from_a_fallen_foe() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "X........X", "XXXXXXXXXX"])
        .field(r#"goal: Recover(Key("ash key"))"#)
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .faction(r#"(name: "the dead", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                carries: [(kind: Torch, lit: true)])"#,
        )
        .creature(
            r#"(name: "Warden", faction: "the dead", at: (7, 2), hp: 4, ac: 12, speed_feet: 60,
                conditions: [Dead], gear: [Key("ash key")])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(run_until(&mut delve, 40, |d| outcome(d).is_some()));
    assert!(
        intents(&delve).contains(&Intent::TurnBack {
            why: Homeward::GoalMet
        }),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(outcome(&delve), Some(Outcome::GoalReached));
    assert_eq!(delve.at("Ana"), GridPos::new(1, 1), "back at the way in");
    let ana: &delve::creature::Equipment = delve.get("Ana").unwrap();
    assert!(ana.has(&delve::level::schema::Gear::Key("ash key".into())));
}

/// `TakeFrom` takes only from one beside it who is fallen or a companion.
#[test]
fn gear_is_taken_from_the_fallen_beside_or_a_companion() {
    use delve::rules::party::PartyRefusal;
    let mut delve = Scenario::new(&["XXXXXXXX", "X......X", "XXXXXXXX"])
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "the dead", hostile_to: ["party"])"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(
            r#"(name: "Cy", faction: "party", at: (2, 1), hp: 6, ac: 12, speed_feet: 120,
                gear: [Rope(50)])"#,
        )
        .creature(
            r#"(name: "Foe", faction: "the dead", at: (3, 1), hp: 4, ac: 12, speed_feet: 60,
                gear: [Crowbar])"#,
        )
        .creature(
            r#"(name: "Far", faction: "the dead", at: (6, 1), hp: 4, ac: 12, speed_feet: 60,
                conditions: [Dead],
                gear: [Spikes(2)])"#,
        )
        .field("modules: (combat: false)")
        .build();
    let take = |who: &str, from: &str| TakeFrom {
        who: who.into(),
        from: from.into(),
    };
    delve.act(take("Cy", "Foe"));
    assert!(delve.was_refused(
        "Cy",
        &PartyRefusal::NeitherDownNorCompanion { name: "Foe".into() }
    ));
    delve.act(take("Cy", "Far"));
    assert!(delve.was_refused("Cy", &PartyRefusal::NotBeside { name: "Far".into() }));
    delve.act(take("Ana", "Cy"));
    let ana: &delve::creature::Equipment = delve.get("Ana").unwrap();
    assert!(ana.has(&delve::level::schema::Gear::Rope(50)));
    delve.act(take("Ana", "Cy"));
    assert!(delve.was_refused("Ana", &PartyRefusal::NothingToTake { name: "Cy".into() }));
}

/// One at the bottom of a pit is out of reach of one on its rim (RULINGS › Pits and holes): gear
/// is taken from it only by one down there with it.
#[test]
fn gear_is_not_taken_from_one_down_a_pit_by_one_on_its_rim() {
    use delve::rules::party::PartyRefusal;
    let mut delve = Scenario::new(&["XXXXXX", "X....X", "XXXXXX"])
        .faction(r#"(name: "party")"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120)"#)
        .creature(
            r#"(name: "Cy", faction: "party", at: (2, 1), hp: 6, ac: 12, speed_feet: 120,
                conditions: [Dead], gear: [Rope(50)])"#,
        )
        .field("modules: (combat: false)")
        .build();
    let cy = delve.entity("Cy");
    delve
        .world_mut()
        .entity_mut(cy)
        .insert(delve::creature::Below { depth_feet: 20 });
    let take = TakeFrom {
        who: "Ana".into(),
        from: "Cy".into(),
    };
    delve.act(take.clone());
    assert!(delve.was_refused(
        "Ana",
        &PartyRefusal::NotAtTheSameDepth { name: "Cy".into() }
    ));
    // Down in the pit beside it, she takes it.
    let ana = delve.entity("Ana");
    delve
        .world_mut()
        .entity_mut(ana)
        .insert(delve::creature::Below { depth_feet: 20 });
    delve.act(take);
    let gear: &delve::creature::Equipment = delve.get("Ana").unwrap();
    assert!(gear.has(&delve::level::schema::Gear::Rope(50)));
}

/// On every sample level the autonomous party ends its delve with an outcome, from several
/// seeds.
#[test]
fn every_sample_level_ends_with_an_outcome() {
    let policy = PartyPolicy::default();
    let cap = policy.turn_limit * delve::time::ROUNDS_PER_TURN + 1;
    for file in [
        "levels/cave.ron",
        "levels/descent.ron",
        "levels/undercroft.ron",
    ] {
        let level = delve::level::load_level_file(std::path::Path::new(file))
            .unwrap()
            .level;
        for seed in 1..=3 {
            let app = delve::sim::play_autonomous(&level, seed, &policy, &[], cap);
            let end = &app.world().resource::<delve::policy::DelveEnd>().0;
            assert!(end.is_some(), "{file}, seed {seed}: no outcome");
        }
    }
}

/// `creature` (named `who`, at (3, 1)) alone in a party that walks into a squeeze on its way to
/// the exit, stuck there by a natural 1 on its first Squeezing throw; the next dice come up
/// `then`.
fn stuck_in_a_squeeze(who: &str, creature: &str, then: &[u32]) -> Delve {
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
            d.get::<delve::rules::conditions::Conditions>(who)
                .is_some_and(|c| c.has(delve::level::schema::ConditionKind::Stuck))
        }),
        "{}",
        delve.log().to_text()
    );
    delve
}

/// A member stuck in a squeeze gets out before anything else, by the likelier way (issue 33's
/// "wiggle back from a squeeze when forward is hopeless"): Tam (Strength 10, 5 stone) pushes
/// forward on 23+ — never — and wiggles back on 17+ (Paralysis 12 + 5): the policy wiggles.
#[test]
fn a_stuck_member_wiggles_back_when_forward_is_hopeless() {
    let mut delve = stuck_in_a_squeeze(
        "Tam",
        r#"(name: "Tam", faction: "party", at: (3, 1), hp: 30, ac: 12, str: 10,
            encumbrance_stone: 5.0, saves: { Paralysis: 12 })"#,
        &[],
    );
    delve.run(3);
    use delve::rules::throws::Skill;
    let wiggles = delve.throws_for(Skill::Save(delve::level::schema::SaveCategory::Paralysis));
    assert!(!wiggles.is_empty(), "{}", delve.log().to_text());
    assert!(
        delve.throws_for(Skill::Dungeonbashing).is_empty(),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::GetUnstuck { who: "Tam".into() }));
}

/// A failed push forward makes every later escape −4, a failed wiggle back does not (Dungeon
/// Delves › Squeezing), so the party pushes only while a failed push would leave a wiggle that
/// can work. Orrin (Strength 17: +8; 6 stone: −6; Paralysis 14) pushes on 16+ (25%) and
/// wiggles only on a natural 20 (+10: 5%); after one failed push each is a natural 20 alone,
/// so it wiggles from then on, and never pushes the wiggle out of reach.
#[test]
fn a_stuck_member_pushes_once_then_wiggles() {
    // After the natural 1: a failed push, then failed wiggles.
    let mut delve = stuck_in_a_squeeze(
        "Orrin",
        r#"(name: "Orrin", faction: "party", at: (3, 1), hp: 30, ac: 12, str: 17,
            encumbrance_stone: 6.0, saves: { Paralysis: 14 })"#,
        &[2, 3, 3, 3, 3],
    );
    delve.run(6);
    use delve::rules::throws::Skill;
    let pushes = delve.throws_for(Skill::Dungeonbashing);
    let wiggles = delve.throws_for(Skill::Save(delve::level::schema::SaveCategory::Paralysis));
    assert_eq!(pushes.len(), 1, "{}", delve.log().to_text());
    assert!(wiggles.len() >= 4, "{}", delve.log().to_text());
}

/// Cut off from the way in by a squeeze it would not take at its usual risk — most likely the
/// one it came in by — a party going home takes it. Orrin crosses the squeeze light (2 stone:
/// its wiggle back works on 12+, so it is never stuck for good) and takes up a load beyond it
/// (8 stone: stuck for good 5.2% a crossing, over the careful party's 5%); with nothing left to
/// explore it turns back, and goes home through the squeeze (the level explored: its goal).
#[test]
fn a_party_going_home_takes_the_squeeze_it_came_in_by() {
    let mut delve = Scenario::new(&["XXXXXXXXXXX", "X..SS.....X", "XXXXXXXXXXX"])
        .legend("'S': Squeeze")
        .light("(at: (5, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Orrin"])"#)
        .creature(
            r#"(name: "Orrin", faction: "party", at: (1, 1), hp: 30, ac: 12, str: 17,
                encumbrance_stone: 2.0, saves: { Paralysis: 14 })"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(
        run_until(&mut delve, 60, |d| d.at("Orrin").x >= 6),
        "{}",
        delve.log().to_text()
    );
    let orrin = delve.entity("Orrin");
    delve
        .world_mut()
        .get_mut::<delve::creature::Encumbrance>(orrin)
        .expect("Orrin has an encumbrance")
        .0 = delve::level::SpeedBasis::Encumbrance { stone: 8.0 };
    assert!(
        delve::rules::caving::stuck_for_good_chance(delve.world(), orrin)
            > PartyPolicy::default().squeeze_risk
    );
    assert!(
        run_until(&mut delve, 300, |d| outcome(d).is_some()),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::TurnBack {
        why: Homeward::NothingLeft
    }));
    assert_eq!(
        delve.at("Orrin"),
        GridPos::new(1, 1),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(outcome(&delve), Some(Outcome::GoalReached));
}

/// An open pit one square across in a 5'-wide corridor, the only way to the exit (RULINGS › Pits
/// and holes; Dungeon Delves › Jumping and Leaping): the party does not walk into it nor give
/// up, it jumps it one at a time — Tam (DEX 16, 1 stone) from a standing start, (16 + 1d6 − 1)
/// ÷ 2 ≥ 8 clears the 5' gap always; Bo (DEX 10, 5 stone) needs a 20' run-up, 5 + 1d6 ≥ 5
/// always, and backs up for it — and both reach the far side.
#[test]
fn the_party_jumps_an_open_pit_in_its_way() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXXX", "X...........X", "XXXXXXXXXXXXX"])
        .trap("(at: (7, 1), kind: Pit(depth_feet: 20), hidden: false)")
        .field("goal: Exit((11, 1))")
        .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .light("(at: (11, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Tam", "Bo"])"#)
        .creature(
            r#"(name: "Tam", faction: "party", at: (5, 1), hp: 10, ac: 12, dex: 16,
                encumbrance_stone: 1.0)"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (4, 1), hp: 10, ac: 12, dex: 10,
                encumbrance_stone: 5.0)"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(
        run_until(&mut delve, 60, |d| outcome(d).is_some()),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(outcome(&delve), Some(Outcome::GoalReached));
    let jumps: Vec<(String, bool)> = delve
        .events::<delve::rules::caving::CavingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            delve::rules::caving::CavingEvent::Jumped { who, run_up, .. } => Some((who, run_up)),
            _ => None,
        })
        .collect();
    assert_eq!(
        jumps,
        vec![("Tam".to_string(), false), ("Bo".to_string(), true)],
        "{}",
        delve.log().to_text()
    );
    assert!(
        delve
            .events::<delve::rules::traps::TrapEvent>()
            .iter()
            .all(|e| !matches!(e, delve::rules::traps::TrapEvent::TrapSprung { .. })),
        "no one fell in"
    );
    assert!(intents(&delve).contains(&Intent::JumpTheGap {
        who: "Bo".into(),
        over: GridPos::new(7, 1),
    }));
}

/// The descent's ledge and shaft (Dungeon Delves › Climbing): the party does not search the
/// ledge's end as a dead end; each member crosses the 6" ledge by a balancing traverse (Ada
/// 6+, Pim 8+: both at least the careful policy's odds), Ada lowers her rope into the shaft,
/// and each climbs down it and out into the lower gallery, then back the same way.
#[test]
fn the_party_traverses_the_ledge_and_climbs_down_the_shaft() {
    let level = delve::level::load_level_file(std::path::Path::new("levels/descent.ron"))
        .unwrap()
        .level;
    let policy = PartyPolicy::default();
    let cap = policy.turn_limit * delve::time::ROUNDS_PER_TURN + 1;
    let app = delve::sim::play_autonomous(&level, 1, &policy, &[], cap);
    let log = app.world().resource::<delve::log::EventLog>();
    let intents: Vec<Intent> = log
        .of::<PolicyEvent>()
        .filter_map(|e| match e {
            PolicyEvent::Decided { intent, .. } => Some(intent.clone()),
            _ => None,
        })
        .collect();
    for who in ["Ada", "Pim"] {
        assert!(intents.contains(&Intent::Traverse {
            who: who.into(),
            to: GridPos::new(14, 1),
        }));
        assert!(intents.contains(&Intent::ClimbThrough {
            who: who.into(),
            shaft: GridPos::new(16, 2),
        }));
    }
    let out = |who: &str| {
        log.of::<delve::rules::caving::CavingEvent>()
            .any(|e| matches!(e, delve::rules::caving::CavingEvent::ClimbedOut { who: w, at } if w == who && *at == GridPos::new(17, 3)))
    };
    assert!(
        out("Ada") && out("Pim"),
        "both climbed out into the lower gallery"
    );
    assert!(!intents.contains(&Intent::Search {
        at: GridPos::new(16, 1)
    }));
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
            .events::<delve::rules::light::LightEvent>()
            .iter()
            .any(|e| matches!(e, delve::rules::light::LightEvent::LightPickedUp { who, .. } if who == "Tam"))
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
    use delve::rules::light::LightEvent;
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
    let names: Vec<&str> = delve::policy::party::tactic_names().collect();
    for (i, n) in names.iter().enumerate() {
        assert!(!names[i + 1..].contains(n), "{n} is named twice");
    }
    let tried = |delve: &mut Delve, tactic: &str| {
        delve::policy::party::try_tactic(delve.world_mut(), "party", tactic).map(|(i, _)| i)
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

/// The fighter in front at a door: the thief leads, but the fighter (armour class 16, 18 hit
/// points) steps up and opens the door; once the thief has picked its lock, the fighter opens
/// it and goes through first.
#[test]
fn the_fighter_opens_a_door_and_goes_through_first() {
    let thief_first = THIEF.replace("at: (1, 2)", "at: (3, 2)");
    let fighter_behind = FIGHTER.replace("at: (1, 1)", "at: (2, 2)");
    let mut delve = room_with_door(
        "(at: (4, 2), lock: Locked(key: None))",
        &[&thief_first, &fighter_behind],
    )
    .build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let opened_by = |d: &Delve| {
        d.events::<DoorEvent>().into_iter().find_map(|e| match e {
            DoorEvent::DoorOpened { who, .. } => Some(who),
            _ => None,
        })
    };
    let tried_by = |d: &Delve, who: &str| {
        d.log().of::<delve::command::CommandEvent>().any(|e| {
            matches!(e,
                delve::command::CommandEvent::CommandRefused {
                    command: delve::command::Command::OpenDoor(o), ..
                } if o.who == who)
        })
    };
    assert!(
        run_until(&mut delve, 10, |d| tried_by(d, "Brannoc")),
        "{}",
        delve.log().to_text()
    );
    assert!(!tried_by(&delve, "Sera"), "the thief does not try the door");
    // The thief picks it methodically: a throw of 10 (+4) opens it at the end of the turn.
    delve.script_dice(&[10]);
    assert!(
        run_until(&mut delve, 40, |d| opened_by(d).is_some()),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(opened_by(&delve).as_deref(), Some("Brannoc"));
    let leader = delve
        .world()
        .resource::<delve::rules::party::Parties>()
        .get("party")
        .unwrap()
        .marching_order[0];
    assert_eq!(
        leader,
        delve.entity("Brannoc"),
        "the fighter leads through the door"
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
    delve::rules::damage::take_damage(delve.world_mut(), ghoul, 40);
    hand_over(&mut delve, PartyPolicy::default());
    delve.run(2);
    delve::rules::damage::take_damage(delve.world_mut(), ana, 7);
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
    delve::rules::damage::take_damage(delve.world_mut(), ana, 7);
    delve.run(4);
    assert!(intents(&delve).contains(&fled), "{}", delve.log().to_text());
}

/// The key taken and used: a locked door whose key a fallen foe carries in the room; the party
/// takes the key from it and unlocks the door with it (no thief needed).
#[test]
fn a_key_taken_from_the_fallen_opens_its_door() {
    let mut delve = room_with_door(
        "(at: (4, 2), lock: Locked(key: Some(\"brass\")))",
        &[FIGHTER],
    )
    .faction(r#"(name: "goblins", hostile_to: ["party"])"#)
    .creature(
        r#"(name: "Snik", faction: "goblins", at: (2, 3), hp: 4, ac: 10, speed_feet: 120,
                conditions: [Dead], gear: [Key("brass")])"#,
    )
    .light("(at: (2, 2), kind: Custom(bright_feet: 30, dim_feet: 30), lit: true)")
    .build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let unlocked = |d: &Delve| {
        d.events::<DoorEvent>().iter().any(
            |e| matches!(e, DoorEvent::LockOpened { by: LockOpening::Key(k), .. } if k == "brass"),
        )
    };
    assert!(
        run_until(&mut delve, 40, unlocked),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::TakeFromTheFallen {
        from: "Snik".into()
    }));
}

/// An evil door that swung shut behind the party is wedged open with a spike as it is opened
/// again, in the same round (Dungeon Delves › Doors).
#[test]
fn an_evil_door_that_swung_shut_is_wedged_open() {
    let mut delve = room_with_door("(at: (4, 2), evil: true)", &[FIGHTER]).build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let wedged = |d: &Delve| {
        d.events::<DoorEvent>().iter().any(|e| {
            matches!(e, DoorEvent::DoorSpiked { who, wedged_open: true, .. } if who == "Brannoc")
        })
    };
    assert!(
        run_until(&mut delve, 60, wedged),
        "{}",
        delve.log().to_text()
    );
    assert!(
        delve
            .events::<DoorEvent>()
            .iter()
            .any(|e| matches!(e, DoorEvent::DoorSwungShut { .. })),
        "it swung shut first"
    );
    assert!(intents(&delve).contains(&Intent::Door {
        at: GridPos::new(4, 2),
        how: DoorPlan::Wedge
    }));
}

/// Dungeon Delves › Doors: "a pair of adventurers working together" bash with the stronger one's
/// Strength adjustment +4. Brannoc (Strength 18: +12) bashes the stuck door, and Orrin, the
/// other member, steps up beside it to bash with him: a natural 2 opens it (2 + 12 + 4 = 18),
/// where alone it would not (14).
#[test]
fn two_bash_a_stuck_door_together() {
    const SECOND: &str = r#"(name: "Orrin", faction: "party", at: (1, 3), hp: 12, ac: 14,
        str: 13, speed_feet: 120)"#;
    let mut delve = room_with_door("(at: (4, 2), stuck: true)", &[FIGHTER, SECOND]).build();
    hand_over(
        &mut delve,
        PartyPolicy {
            listen_at_doors: false,
            ..PartyPolicy::default()
        },
    );
    let bashed = |d: &Delve| {
        d.events::<PolicyEvent>().iter().any(|e| {
            matches!(
                e,
                PolicyEvent::Decided {
                    intent: Intent::Door {
                        how: DoorPlan::Bash,
                        ..
                    },
                    ..
                }
            )
        })
    };
    assert!(
        run_until(&mut delve, 40, bashed),
        "{}",
        delve.log().to_text()
    );
    // The helper steps up, then the pair bash.
    assert!(
        run_until(&mut delve, 6, |d| {
            d.at("Orrin").chebyshev(GridPos::new(4, 2)) == 1
                && d.at("Brannoc").chebyshev(GridPos::new(4, 2)) == 1
        }),
        "{}",
        delve.log().to_text()
    );
    let throws = |d: &Delve| {
        d.throws_for(delve::rules::throws::Skill::Dungeonbashing)
            .len()
    };
    let before = throws(&delve);
    for _ in 0..6 {
        if throws(&delve) > before {
            break;
        }
        delve.script_dice(&[2]).run(1);
    }
    let t = delve
        .throws_for(delve::rules::throws::Skill::Dungeonbashing)
        .last()
        .cloned()
        .expect("a bash");
    assert_eq!((t.natural, t.success), (2, true), "{t:?}");
    assert!(delve.events::<DoorEvent>().iter().any(|e| matches!(
        e,
        DoorEvent::DoorOpened {
            how: DoorOpening::Bashed,
            ..
        }
    )));
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
fn ended(delve: &Delve) -> Option<(Outcome, delve::policy::Tally)> {
    delve
        .events::<PolicyEvent>()
        .into_iter()
        .find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, tally, .. } => Some((outcome, tally)),
            _ => None,
        })
}

/// A party that gives up says why (issue 34): the goal's room lies behind a door; a secret one
/// it never searched for is "never found", a locked one it cannot open is "left shut", with
/// how it was tried.
#[test]
fn a_party_that_gives_up_says_which_door_stopped_it() {
    let why = |door: &str, policy: PartyPolicy| {
        let mut delve = room_with_door(door, &[FIGHTER])
            .field("goal: Room((6, 2))")
            .light("(at: (2, 2), kind: Custom(bright_feet: 30, dim_feet: 30), lit: true)")
            .build();
        hand_over(&mut delve, policy);
        assert!(run_until(&mut delve, 600, |d| ended(d).is_some()));
        let (outcome, tally) = ended(&delve).unwrap();
        assert_eq!(outcome, Outcome::GaveUp, "{}", delve.log().to_text());
        tally.cause.expect("a cause")
    };
    let no_searching = PartyPolicy {
        dead_end_searches: 0,
        ..PartyPolicy::default()
    };
    assert_eq!(
        why("(at: (4, 2), secret: true)", no_searching),
        delve::policy::outcome::Cause::SecretDoorNotFound {
            at: GridPos::new(4, 2)
        }
    );
    match why(
        "(at: (4, 2), lock: Locked(key: None))",
        PartyPolicy::default(),
    ) {
        delve::policy::outcome::Cause::DoorLeftShut { at, tried } => {
            assert_eq!(at, GridPos::new(4, 2));
            assert!(tried.contains(&"by_hand".to_owned()), "{tried:?}");
        }
        other => panic!("{other:?}"),
    }
}

/// A party told to wait for orders in a battle, then handed to its policy, waits no more: the
/// policy leaves the blows to its members' battle minds, so a party that waited would stand
/// while it was struck. Taken back, it stays let go until told to wait again.
#[test]
fn a_party_handed_to_its_policy_no_longer_waits_for_orders() {
    use delve::rules::combat::battle::Controlled;
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
