//! Honest outcomes: a goal reached with a member left behind is not a goal reached with everyone
//! out; the dying of an all-down party are among its deaths; a party whose goal is a way out
//! makes for that way out, not for where it started, when it turns for home.

use super::autonomy::*;
use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::{Cause, Outcome, Stayed};
use delve_minds::policy::party::Intent;
use delve_play::scenario::Scenario;

/// Brand, dying in chain (22 stone with his body), is too heavy for Hild alone (6 + 22 > 20
/// stone): she reaches the goal beside him and leaves without him. The goal was reached, but not
/// with everyone out, and the delve's cause names him.
#[test]
fn a_goal_reached_leaving_a_member_is_told_apart() {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
        .field("goal: Reach((6, 1))")
        .faction(r#"(name: "party", marching_order: ["Hild", "Brand"])"#)
        .creature(
            r#"(name: "Hild", faction: "party", at: (2, 1), hp: 10, ac: 14,
                encumbrance_stone: 6.0, carries: [(kind: Torch, lit: true)])"#,
        )
        .creature(
            r#"(name: "Brand", faction: "party", at: (1, 1), hp: 12, ac: 15,
                encumbrance_stone: 7.0, conditions: [Dying])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    run_until(&mut delve, 400, |d| ended(d).is_some());
    let (outcome, tally) = ended(&delve).expect("the delve ends");
    assert_eq!(outcome, Outcome::GoalReachedMembersLeft, "{tally}");
    assert!(outcome.goal_met());
    let brand = &tally.left_behind[0];
    assert_eq!((brand.who.as_str(), brand.how), ("Brand", Stayed::Dying));
    assert!(!brand.could_be_brought, "no one of the party can bear him");
    assert_eq!(
        tally.cause,
        Some(Cause::LeftBehind {
            who: "Brand".into(),
            at: brand.at,
            how: Stayed::Dying
        })
    );
}

/// Every member down: the dying die with no one to bind them, and are counted among the
/// deaths where they lie.
#[test]
fn the_dying_of_a_party_all_down_are_among_its_deaths() {
    let mut delve = Scenario::new(&["XXXXXX", "X....X", "XXXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana", "Bo"])"#)
        .creature(
            r#"(name: "Ana", faction: "party", at: (1, 1), hp: 6, ac: 12, speed_feet: 120,
                conditions: [Dying])"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 12, speed_feet: 120,
                conditions: [Dying])"#,
        )
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    run_until(&mut delve, 5, |d| ended(d).is_some());
    let (outcome, tally) = ended(&delve).expect("the delve ends");
    assert_eq!(outcome, Outcome::PartyDead);
    let mut dead: Vec<(&str, GridPos)> = tally
        .deaths
        .iter()
        .map(|d| (d.who.as_str(), d.at))
        .collect();
    dead.sort();
    assert_eq!(
        dead,
        vec![("Ana", GridPos::new(1, 1)), ("Bo", GridPos::new(2, 1))]
    );
}

/// The party starts deep in a lit gallery whose way out, at its far end, it sees; its torch
/// burns low: it turns back for the way out it was to find, not for the square it started on.
#[test]
fn a_party_seeking_a_way_out_goes_home_by_it() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXXXXX",
        "X.......................X",
        "XXXXXXXXXXXXXXXXXXXXXXX.X",
        "XXXXXXXXXXXXXXXXXXXXXXX.X",
        "XXXXXXXXXXXXXXXXXXXXXXX.X",
        "XXXXXXXXXXXXXXXXXXXXXXX.X",
        "XXXXXXXXXXXXXXXXXXXXXXX.X",
        "XXXXXXXXXXXXXXXXXXXXXXXXX",
    ])
    .field("goal: Exit((1, 1))")
    .light("(at: (12, 1), kind: Custom(bright_feet: 120, dim_feet: 150), lit: true)")
    .faction(r#"(name: "party", marching_order: ["Hild"])"#)
    .creature(
        r#"(name: "Hild", faction: "party", at: (20, 1), hp: 10, ac: 14,
            encumbrance_stone: 6.0,
            carries: [(kind: Torch, lit: true, fuel_turns: 2)])"#,
    )
    .build();
    hand_over(&mut delve, PartyPolicy::default());
    run_until(&mut delve, 300, |d| ended(d).is_some());
    let homeward: Vec<GridPos> = intents(&delve)
        .into_iter()
        .filter_map(|i| match i {
            Intent::GoHome { to } => Some(to),
            _ => None,
        })
        .collect();
    assert!(
        !homeward.is_empty() && homeward.iter().all(|&to| to == GridPos::new(1, 1)),
        "{:?}",
        intents(&delve)
    );
    let (outcome, tally) = ended(&delve).expect("the delve ends");
    assert_eq!(outcome, Outcome::GoalReached, "{tally}");
}
