//! Delves that play themselves by water (Dungeon Delves › Swimming and Drowning; RULINGS ›
//! Water): a member drowning is saved first; a river the party cannot swim safely is gone round
//! by the dry way it knows, the second column keeping out of it too.

use super::autonomy::*;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::party::Intent;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::rules::water::{Drowning, WaterEvent};

/// Pip goes under in the pool beside Bo, who stands on its edge: the party's first business is
/// to save it. Bo grabs it at the surface (the rules' offer: it is saved), brings it out beside
/// it, and lets go on dry ground; the party does not rest while it drowns.
#[test]
fn a_member_going_under_is_grabbed_brought_out_and_let_go() {
    let mut delve = Scenario::new(&["XXXXXXXX", "X..~~~.X", "XXXXXXXX"])
        .legend("'~': Water(Deep)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .field("deep_water_feet: 40")
        .faction(r#"(name: "party", marching_order: ["Bo", "Pip"])"#)
        .creature(
            r#"(name: "Pip", faction: "party", at: (3, 1), hp: 6, ac: 10, encumbrance_stone: 3.0)"#,
        )
        .creature(
            r#"(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)"#,
        )
        .field("goal: Exit((1, 1))")
        .build();
    hand_over(&mut delve, PartyPolicy::default());
    delve.script_dice(&[1]);
    delve.run(1);
    assert!(
        delve.get::<Drowning>("Pip").is_some(),
        "{}",
        delve.log().to_text()
    );
    assert!(
        run_until(&mut delve, 6, |d| d
            .events::<WaterEvent>()
            .iter()
            .any(|e| matches!(e, WaterEvent::LetGo { .. }))),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::Rescue { who: "Pip".into() }));
    assert!(delve.get::<Drowning>("Pip").is_none());
    let pip = delve.at("Pip");
    assert_ne!(
        delve
            .world()
            .resource::<delve_ground::grid::DungeonGrid>()
            .terrain(pip),
        Some(delve_ground::grid::Terrain::Water(
            delve_ground::grid::WaterDepth::Deep
        )),
        "let go out of the water"
    );
    assert!(
        !intents(&delve).contains(&Intent::Rest),
        "no rest while it drowned"
    );
}

/// A lit cavern split by a river over the head, with a bridge of rock far upstream; the way out
/// on the far bank. In plate (7 stone, no Swimming) Hild and Oswin would fail their Swimming
/// throws 30% of the time each round: the party walks the dry way round, a leg at a time (the
/// rules' shortest walk would cut through the water), and its second column keeps to the bank.
fn river(seed: u64) -> Delve {
    let mut map = vec!["XXXXXXXXXXXXXXXXXXXXXXXXXXXX"];
    map.extend(["X..........................X"; 2]);
    map.extend(["X...........~~~............X"; 9]);
    map.push("XXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    Scenario::new(&map)
        .legend("'~': Water(Deep)")
        .light("(at: (6, 6), kind: Custom(bright_feet: 90, dim_feet: 120), lit: true)")
        .light("(at: (20, 6), kind: Custom(bright_feet: 90, dim_feet: 120), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Hild", "Oswin", "Pell"])"#)
        .creature(
            r#"(name: "Hild", faction: "party", at: (2, 10), hp: 14, ac: 17, encumbrance_stone: 7.0)"#,
        )
        .creature(
            r#"(name: "Oswin", faction: "party", at: (2, 9), hp: 11, ac: 16, encumbrance_stone: 7.0)"#,
        )
        .creature(
            r#"(name: "Pell", faction: "party", at: (3, 10), hp: 7, ac: 13, encumbrance_stone: 2.5)"#,
        )
        .field("goal: Exit((26, 10))")
        .seed(seed)
        .build()
}

#[test]
fn the_party_goes_round_a_river_it_cannot_swim_by_the_dry_way() {
    for seed in 1..=3 {
        let mut delve = river(seed);
        hand_over(&mut delve, PartyPolicy::default());
        delve.run(60);
        let text = delve.log().to_text();
        let swims = delve.throws_for(delve_rules::rules::throws::Skill::Proficiency(
            delve_ground::level::schema::Proficiency::Swimming,
        ));
        assert!(swims.is_empty(), "seed {seed}: {text}");
        assert_eq!(
            outcome(&delve),
            Some(delve_minds::policy::outcome::Outcome::GoalReached),
            "seed {seed}: {text}"
        );
    }
}
