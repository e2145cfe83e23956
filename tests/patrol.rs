//! Monsters that live in the dungeon: a patrol route walked round and round.

use delve::grid::GridPos;
use delve::scenario::{Delve, Scenario};

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
        .events::<delve::rules::movement::MovementEvent>()
        .iter()
        .filter_map(|e| match e {
            delve::rules::movement::MovementEvent::Moved { feet, .. } => Some(*feet),
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
