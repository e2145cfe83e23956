//! Delves that play themselves, at doors: bashing a stuck door (alone and two together), picking a
//! lock, the key taken from the fallen, the evil door wedged open, flight past a spiked door.

use super::autonomy::*;
use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::PolicyEvent;
use delve_minds::policy::party::{DoorPlan, Homeward, Intent};
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::*;
use delve_rules::rules::doors::{DoorEvent, DoorOpening, LockOpening};

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
    assert!(delve.was_refused("Brannoc", &delve_rules::rules::doors::DoorRefusal::Stuck));
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
            .of::<delve_rules::command::CommandEvent>()
            .any(|e| matches!(
                e,
                delve_rules::command::CommandEvent::CommandAccepted {
                    command: delve_rules::command::Command::PickLock(_),
                    ..
                }
            )),
        "no hasty pick"
    );
}

/// The party takes its ways through a door from what the rules offer: a fighter whose key fits
/// another lock is not offered to unlock this one (RULINGS › Knowledge: the lock known once
/// tried), so the thief goes to her picks with no round spent on the wrong key.
#[test]
fn a_key_that_fits_no_lock_here_is_not_tried() {
    let fighter = FIGHTER.replace("gear: [Spikes(4)]", r#"gear: [Spikes(4), Key("iron key")]"#);
    let mut delve = room_with_door(
        "(at: (4, 2), lock: Locked(key: None))",
        &[fighter.as_str(), THIEF],
    )
    .build();
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
    let key = Intent::Door {
        at: GridPos::new(4, 2),
        how: DoorPlan::Key,
    };
    assert!(!intents(&delve).contains(&key), "{}", delve.log().to_text());
    assert!(delve.was_refused("Brannoc", &delve_rules::rules::doors::DoorRefusal::Locked));
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
            d.log().of::<delve_rules::command::CommandEvent>().any(|e| {
                matches!(
                    e,
                    delve_rules::command::CommandEvent::CommandAccepted {
                        command: delve_rules::command::Command::PickLock(_),
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
    assert!(delve.was_refused("Brannoc", &delve_rules::rules::doors::DoorRefusal::Locked));
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
        pace: delve_rules::rules::movement::Pace::Combat,
    });
    delve.run(2);
    let ana = delve.entity("Ana");
    delve_rules::rules::damage::take_damage(delve.world_mut(), ana, 7);
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
        d.log().of::<delve_rules::command::CommandEvent>().any(|e| {
            matches!(e,
                delve_rules::command::CommandEvent::CommandRefused {
                    command: delve_rules::command::Command::OpenDoor(o), ..
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
        .resource::<delve_rules::rules::party::Parties>()
        .get("party")
        .unwrap()
        .marching_order[0];
    assert_eq!(
        leader,
        delve.entity("Brannoc"),
        "the fighter leads through the door"
    );
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
        d.throws_for(delve_rules::rules::throws::Skill::Dungeonbashing)
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
        .throws_for(delve_rules::rules::throws::Skill::Dungeonbashing)
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
        delve_minds::policy::outcome::Cause::SecretDoorNotFound {
            at: GridPos::new(4, 2)
        }
    );
    match why(
        "(at: (4, 2), lock: Locked(key: None))",
        PartyPolicy::default(),
    ) {
        delve_minds::policy::outcome::Cause::DoorLeftShut { at, tried } => {
            assert_eq!(at, GridPos::new(4, 2));
            assert!(tried.contains(&"by_hand".to_owned()), "{tried:?}");
        }
        other => panic!("{other:?}"),
    }
}

/// Dungeon Delves › Traps: a trap in plain sight across the only passage is prodded with the
/// pole before anyone steps on it — and the pole's bearer prods it from its own side, never
/// walking over it to a square beyond (the fighter leads, the bearer follows; seeds 1–4).
#[test]
fn a_trap_in_plain_sight_is_prodded_from_its_own_side() {
    use delve_rules::rules::traps::TrapEvent;
    const POLER: &str = r#"(name: "Sera", faction: "party", at: (1, 2), level: 3, class: "fighter",
        str: 12, hp: 12, ac: 14, speed_feet: 120, saves: { Paralysis: 14 }, gear: [TenFootPole])"#;
    let trap = GridPos::new(7, 2);
    for seed in 1..=4 {
        let mut delve = Scenario::new(&[
            "XXXXXXXXXXXXXX",
            "X...XXXXXXX..X",
            "X............X",
            "X...XXXXXXX..X",
            "XXXXXXXXXXXXXX",
        ])
        .seed(seed)
        .field("goal: Reach((12, 2))")
        .field(
            r#"traps: [(at: (7, 2), kind: Custom(name: "swinging blade", damage: "2d6", attack: (bonus: 5)), trigger: Step, hidden: false)]"#,
        )
        .light("(at: (2, 2), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .light("(at: (11, 2), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc", "Sera"])"#)
        .creature(FIGHTER)
        .creature(POLER)
        .build();
        hand_over(&mut delve, PartyPolicy::default());
        run_until(&mut delve, 300, |d| d.at("Brannoc").x >= 10);
        let first = delve.events::<TrapEvent>().into_iter().find(|e| {
            matches!(e, TrapEvent::TrapChance { at, .. } | TrapEvent::Touched { at, .. }
                if *at == trap)
        });
        assert!(
            matches!(first, Some(TrapEvent::Touched { ref who, with_pole: true, .. }) if who == "Sera"),
            "seed {seed}: the first to meet the blade is Sera's pole, not a foot: {first:?}\n{}",
            delve.log().to_text()
        );
    }
}

/// A stuck door left shut after its bashes is not given up for good: each bash is a fresh throw
/// (Dungeon Delves › Doors), and with no better use of its time the planner weighs bashing it
/// again by the chance the bashes open it (`plan::Aim::DoorAgain`). With one bash allowed a
/// try, the gym's stuck door on the only way to the shrine is left shut and bashed again, and
/// every delve reaches the goal.
#[test]
fn a_stuck_door_left_shut_is_bashed_again() {
    let level =
        delve_ground::level::load_level_file(std::path::Path::new("levels/gym/stuck_door.ron"))
            .unwrap()
            .level;
    let policy = PartyPolicy {
        bash_attempts: 1,
        ..PartyPolicy::default()
    };
    let mut again = 0;
    for seed in 1..=6 {
        let app = delve_play::sim::play_autonomous(&level, seed, &policy, &[], 600);
        let log = app.world().resource::<delve_ground::log::EventLog>();
        let hows: Vec<DoorPlan> = log
            .of::<PolicyEvent>()
            .filter_map(|e| match e {
                PolicyEvent::Decided {
                    intent: Intent::Door { how, .. },
                    ..
                } => Some(*how),
                _ => None,
            })
            .collect();
        if let Some(i) = hows.iter().position(|h| *h == DoorPlan::LeaveShut) {
            assert!(
                hows[i..].contains(&DoorPlan::Bash),
                "seed {seed}: left shut and never bashed again\n{}",
                log.to_text()
            );
            again += 1;
        }
        let ended = log.of::<PolicyEvent>().find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
            _ => None,
        });
        assert_eq!(ended, Some(Outcome::GoalReached), "seed {seed}");
    }
    assert!(again > 0, "no door was left shut in six delves");
}
