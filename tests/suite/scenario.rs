//! A delve told by its log: Sera, the party's scout, goes alone down the corridor toward the
//! crypt's hidden shrine, falls into the hidden pit on the way (and climbs out by the rope Mirela
//! lowers), finds the secret door by searching, picks its lock, and opens it.

use bevy::prelude::*;
use delve_ground::grid::DoorState;
use delve_ground::grid::GridPos;
use delve_ground::level::load_level_file;
use delve_ground::level::schema::Lock;
use delve_ground::log::{EventLog, LogEntry};
use delve_rules::command::Command;
use delve_rules::command::acts::{
    Climb, LowerRope, MarchingOrder, Move, OpenDoor, PickLockMethodically, Search,
};
use delve_rules::creature::Below;
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::caving::{CavingEvent, ClimbPace, Climbing};
use delve_rules::rules::doors::Door;
use delve_rules::rules::doors::{DoorEvent, DoorOpening, LockOpening};
use delve_rules::rules::search::SearchEvent;
use delve_rules::rules::traps::TrapEvent;

use delve_play::sim::{give, run_round, sim_app};
use delve_rules::rules::movement::{Pace, Walking};

const SECRET: GridPos = GridPos::new(22, 12);

fn door_at(app: &mut App, at: GridPos) -> Door {
    let w = app.world_mut();
    let mut q = w.query::<(&Position, &Door)>();
    q.iter(w)
        .find(|(p, _)| p.0 == at)
        .map(|(_, d)| d.clone())
        .unwrap()
}

/// Plays the scenario with a seed; returns the log if the story was told to its end.
fn play(seed: u64) -> Option<EventLog> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/crypt.ron");
    let level = load_level_file(&path).unwrap().level;
    let mut app = sim_app(&level, seed);
    let sera = app.world().resource::<CreatureIndex>().0["Sera"];
    let at = |app: &App| app.world().get::<Position>(sera).unwrap().0;
    let order = ["Sera", "Mirela", "Brannoc", "Aldric"]
        .map(String::from)
        .to_vec();
    give(
        app.world_mut(),
        Command::MarchingOrder(MarchingOrder {
            party: "party".into(),
            order,
        }),
    );
    let mut phase = 0;
    let mut wait: u32 = 0;
    let mirela = app.world().resource::<CreatureIndex>().0["Mirela"];
    for _ in 0..300 {
        let walking = app.world().get::<Walking>(sera).is_some();
        // In the pit: Mirela, beside it, lowers her rope, and Sera climbs out onward.
        if app.world().get::<Below>(sera).is_some() {
            let (pit, beside, onward) = ((15, 10), GridPos::new(15, 9), (15, 11));
            let mirela_at = app.world().get::<Position>(mirela).unwrap().0;
            let command = if mirela_at != beside {
                Command::Move(Move {
                    who: "Mirela".into(),
                    to: (beside.x, beside.y),
                    pace: Pace::Combat,
                })
            } else if !delve_rules::rules::caving::climbing::rope_in(
                app.world_mut(),
                GridPos::new(15, 10),
            ) {
                Command::LowerRope(LowerRope {
                    who: "Mirela".into(),
                    at: pit,
                })
            } else {
                Command::Climb(Climb {
                    who: "Sera".into(),
                    to: onward,
                    pace: ClimbPace::Third,
                })
            };
            if app.world().get::<Climbing>(sera).is_none()
                && app.world().get::<Walking>(mirela).is_none()
            {
                give(app.world_mut(), command);
            }
            run_round(app.world_mut());
            continue;
        }
        match phase {
            0 => {
                give(
                    app.world_mut(),
                    Command::Move(Move {
                        who: "Sera".into(),
                        to: (15, 7),
                        pace: Pace::Combat,
                    }),
                );
                phase = 1;
            }
            1 if at(&app) == GridPos::new(15, 7) => {
                give(
                    app.world_mut(),
                    Command::OpenDoor(OpenDoor {
                        who: "Sera".into(),
                        at: (15, 8),
                    }),
                );
                give(
                    app.world_mut(),
                    Command::Move(Move {
                        who: "Sera".into(),
                        to: (21, 12),
                        pace: Pace::Combat,
                    }),
                );
                phase = 2;
            }
            1 | 2 if !walking && at(&app) != GridPos::new(21, 12) => {
                let to = if phase == 1 { (15, 7) } else { (21, 12) };
                give(
                    app.world_mut(),
                    Command::Move(Move {
                        who: "Sera".into(),
                        to,
                        pace: Pace::Combat,
                    }),
                );
            }
            2 if at(&app) == GridPos::new(21, 12) => {
                give(
                    app.world_mut(),
                    Command::Search(Search { who: "Sera".into() }),
                );
                phase = 3;
                wait = 11;
            }
            3 if wait == 0 => {
                if door_at(&mut app, SECRET).secret {
                    give(
                        app.world_mut(),
                        Command::Search(Search { who: "Sera".into() }),
                    );
                    wait = 11;
                } else {
                    give(
                        app.world_mut(),
                        Command::PickLockMethodically(PickLockMethodically {
                            who: "Sera".into(),
                            at: (22, 12),
                        }),
                    );
                    phase = 4;
                    wait = 11;
                }
            }
            4 if wait == 0 => match door_at(&mut app, SECRET).lock {
                Lock::Unlocked => {
                    give(
                        app.world_mut(),
                        Command::OpenDoor(OpenDoor {
                            who: "Sera".into(),
                            at: (22, 12),
                        }),
                    );
                    phase = 5;
                }
                Lock::Jammed => return None,
                Lock::Locked { .. } => {
                    give(
                        app.world_mut(),
                        Command::PickLockMethodically(PickLockMethodically {
                            who: "Sera".into(),
                            at: (22, 12),
                        }),
                    );
                    wait = 11;
                }
            },
            5 => {
                run_round(app.world_mut());
                if door_at(&mut app, SECRET).state != DoorState::Open {
                    return None;
                }
                let log = app.world().resource::<EventLog>();
                return Some(log.clone());
            }
            _ => {}
        }
        wait = wait.saturating_sub(1);
        run_round(app.world_mut());
    }
    None
}

#[test]
fn the_party_finds_the_secret_door_picks_its_lock_and_someone_falls_into_the_pit() {
    let story = (1..200)
        .filter_map(play)
        .find(|log| {
            // Sera leads, and the pit opens under her (the others step around it then).
            log.of::<TrapEvent>()
                .any(|e| matches!(e, TrapEvent::TrapSprung { who, .. } if who == "Sera"))
        })
        .expect("some seed tells the whole story");
    let index = |f: &dyn Fn(&LogEntry) -> bool| story.entries().iter().position(f);
    let fell = index(&|e| e.get::<TrapEvent>().is_some_and(|e| matches!(e, TrapEvent::TrapSprung { trap, at, .. } if trap == "a 20' pit" && *at == GridPos::new(15, 10)))).unwrap();
    let found = index(&|e| e.get::<SearchEvent>().is_some_and(|e| matches!(e, SearchEvent::Found { who, feature, at } if who == "Sera" && feature == "a secret door" && *at == SECRET))).unwrap();
    let lock = GridPos::new(22, 12);
    let picked = index(&|e| e.get::<DoorEvent>().is_some_and(|e| matches!(e, DoorEvent::LockOpened { who, at, by: LockOpening::Picked } if who == "Sera" && *at == lock))).unwrap();
    let opened = index(&|e| e.get::<DoorEvent>().is_some_and(|e| matches!(e, DoorEvent::DoorOpened { who, at, how: DoorOpening::ByHand } if who == "Sera" && *at == lock))).unwrap();
    let out = index(&|e| {
        e.get::<CavingEvent>()
            .is_some_and(|e| matches!(e, CavingEvent::ClimbedOut { who, .. } if who == "Sera"))
    })
    .unwrap();
    assert!(
        fell < out && out < found && found < picked && picked < opened,
        "in order: {fell} {out} {found} {picked} {opened}"
    );
    // The same seed tells the same story.
    let seed = (1..200)
        .find(|&s| play(s).is_some_and(|ev| ev == story))
        .unwrap();
    assert_eq!(play(seed).unwrap(), story);
}
