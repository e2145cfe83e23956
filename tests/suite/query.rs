//! A Judge's questions asked in the middle of a delve: `query` answers from the simulation world
//! as it stands, by the rules' own functions.

use delve::query;
use delve_ground::grid::GridPos;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{Douse, Move};
use delve_rules::rules::light::LightLevel;
use delve_rules::rules::movement::Pace;

/// Ada (2 stone: 120' a turn, 40' a round in combat) with a lit torch at the west end of a
/// corridor 20 squares long.
fn corridor() -> Delve {
    Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXX",
        "X....................X",
        "XXXXXXXXXXXXXXXXXXXXXX",
    ])
    .faction(r#"(name: "party")"#)
    .creature(
        r#"(name: "Ada", faction: "party", at: (1, 1), hp: 6, ac: 10, encumbrance_stone: 2.0,
            carries: [(kind: Torch, lit: true)])"#,
    )
    .build()
}

/// The torch goes where Ada goes: what she sees and where the light is follow her.
#[test]
fn light_and_sight_are_answered_as_the_delve_stands() {
    let mut delve = corridor();
    // A torch: bright to 30', dim to 60' (six squares and twelve).
    let far = GridPos::new(19, 1);
    let answer = query::light(delve.world(), Some(far)).unwrap();
    assert_eq!(answer.light, Some(LightLevel::Dark));
    let sees = query::sees(delve.world(), "Ada").unwrap();
    assert_eq!(sees.at, GridPos::new(1, 1));
    assert!(!sees.seen.iter().any(|s| (s.x, s.y) == (19, 1)));

    delve
        .give(Move {
            who: "Ada".into(),
            to: (16, 1),
            pace: Pace::Combat,
        })
        .run(2);
    assert_eq!(delve.at("Ada"), GridPos::new(16, 1));
    let answer = query::light(delve.world(), Some(far)).unwrap();
    assert_eq!(answer.light, Some(LightLevel::Bright));
    let sees = query::sees(delve.world(), "Ada").unwrap();
    assert_eq!(sees.at, GridPos::new(16, 1));
    assert!(sees.seen.iter().any(|s| (s.x, s.y) == (19, 1)));
}

/// Dousing her torch leaves Ada in the dark: she sees nothing, is blinded, and her speeds fall
/// to a third (Dungeon Delves › Light and Darkness): 40' a round becomes 13⅓'.
#[test]
fn speeds_follow_the_conditions_of_the_moment() {
    let mut delve = corridor();
    let before = query::speeds(delve.world(), "Ada").unwrap();
    assert_eq!(before.combat_feet_per_round, Some(40.0));
    assert!(!before.blinded);
    delve.give(Douse { who: "Ada".into() }).run(1);
    let sees = query::sees(delve.world(), "Ada").unwrap();
    assert!(sees.blinded);
    let after = query::speeds(delve.world(), "Ada").unwrap();
    assert!(after.blinded);
    assert_eq!(after.combat_feet_per_round, Some(40.0 / 3.0));
    assert_eq!(after.exploration_feet_per_turn, Some(40.0));
}
