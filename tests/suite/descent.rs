//! A delve told by its log, through every caving feature of `levels/descent.ron`: Ada and Pim
//! squeeze through the squeeze, swim the flooded passage, balance along the ledge over the
//! chasm, and go down the shaft by the rope Ada lowers, out into the lower gallery.

use delve_ground::grid::GridPos;
use delve_ground::level::load_level_file;
use delve_ground::log::EventLog;
use delve_play::scenario::Delve;
use delve_rules::command::Command;
use delve_rules::command::acts::{Climb, ClimbDown, LowerRope, Move, Traverse};
use delve_rules::rules::caving::traverse::Traversing;
use delve_rules::rules::caving::{CavingEvent, ClimbPace, Climbing};
use delve_rules::rules::movement::{Pace, Walking};
use delve_rules::rules::throws::ThrowEvent;

/// One creature's way down, step by step: each step is a command and the square (and state)
/// that says it is done.
fn way_down(who: &str, last: (i32, i32), lowers_rope: bool) -> Vec<(Command, GridPos)> {
    let who = who.to_owned();
    let mut steps: Vec<(Command, GridPos)> = vec![
        (
            Move {
                who: who.clone(),
                to: (10, 1),
                pace: Pace::Combat,
            }
            .into(),
            GridPos::new(10, 1),
        ),
        (
            Traverse {
                who: who.clone(),
                to: (14, 1),
                pace: ClimbPace::Third,
            }
            .into(),
            GridPos::new(14, 1),
        ),
        (
            Move {
                who: who.clone(),
                to: (16, 1),
                pace: Pace::Combat,
            }
            .into(),
            GridPos::new(16, 1),
        ),
    ];
    if lowers_rope {
        steps.push((
            LowerRope {
                who: who.clone(),
                at: (16, 2),
            }
            .into(),
            GridPos::new(16, 1),
        ));
    }
    steps.push((
        ClimbDown {
            who: who.clone(),
            into: (16, 2),
            rappel: false,
            pace: ClimbPace::Third,
        }
        .into(),
        GridPos::new(16, 2),
    ));
    steps.push((
        Climb {
            who: who.clone(),
            to: (17, 3),
            pace: ClimbPace::Third,
        }
        .into(),
        GridPos::new(17, 3),
    ));
    steps.push((
        Move {
            who,
            to: last,
            pace: Pace::Combat,
        }
        .into(),
        GridPos::new(last.0, last.1),
    ));
    steps
}

/// Plays the descent with a seed: Ada all the way, then Pim. `None` if a mishap (a fall, a
/// squeeze that holds) spoils the story.
fn play(seed: u64) -> Option<EventLog> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/descent.ron");
    let level = load_level_file(&path).unwrap().level;
    let mut delve = Delve {
        app: delve_play::sim::sim_app(&level, seed),
    };
    let mut plan: Vec<(String, Command, GridPos)> = Vec::new();
    for (who, out, rope) in [("Ada", (19, 3), true), ("Pim", (18, 3), false)] {
        plan.extend(
            way_down(who, out, rope)
                .into_iter()
                .map(|(c, g)| (who.to_owned(), c, g)),
        );
    }
    let mut given = false;
    let mut step = 0;
    for _ in 0..400 {
        let Some((who, command, goal)) = plan.get(step) else {
            return Some(delve.log().clone());
        };
        let busy = delve.get::<Walking>(who).is_some()
            || delve.get::<Climbing>(who).is_some()
            || delve.get::<Traversing>(who).is_some();
        if !given {
            delve.give(command.clone());
            given = true;
        } else if !busy && delve.at(who) == *goal {
            step += 1;
            given = false;
            continue;
        } else if !busy {
            return None;
        }
        delve.run(1);
        let fell = delve.events::<CavingEvent>().iter().any(|e| {
            matches!(
                e,
                CavingEvent::Fell { .. } | CavingEvent::StuckInASqueeze { .. }
            )
        });
        if fell || delve.last_refusal().is_some() {
            return None;
        }
    }
    None
}

/// The seed the story is told with.
const SEED: u64 = 1;

#[test]
fn the_party_squeezes_swims_balances_and_climbs_down_the_shaft() {
    let story = play(SEED).expect("the fixed seed tells the whole story");
    let caving: Vec<CavingEvent> = story.of::<CavingEvent>().cloned().collect();
    for who in ["Ada", "Pim"] {
        let traversed = caving
            .iter()
            .position(|e| matches!(e, CavingEvent::Traversed { who: w, .. } if w == who));
        let down = caving
            .iter()
            .position(|e| matches!(e, CavingEvent::ClimbedDown { who: w, .. } if w == who));
        let out = caving
            .iter()
            .position(|e| matches!(e, CavingEvent::ClimbedOut { who: w, .. } if w == who));
        assert!(
            traversed < down && down < out && traversed.is_some(),
            "{who}: {traversed:?} {down:?} {out:?}"
        );
    }
    assert!(caving.contains(&CavingEvent::RopeLowered {
        who: "Ada".into(),
        at: GridPos::new(16, 2)
    }));
    // Squeezing throws were made on the way in; the swimmers needed none (Swimming, 1–2 stone).
    let throws: Vec<String> = story
        .of::<ThrowEvent>()
        .map(|ThrowEvent::Threw { throw, .. }| throw.what.clone())
        .collect();
    assert!(throws.iter().any(|w| w == "Squeezing"), "{throws:?}");
    assert!(!throws.iter().any(|w| w == "Swimming"), "{throws:?}");
    // The same seed tells the same story.
    assert_eq!(play(SEED).unwrap(), story);
}
