//! Carrying a companion who cannot walk (`rules::carrying`: its whole weight, the speed table at
//! the new load), and a party that carries its dying member home.

use delve_ground::level::SpeedBasis;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::Intent;
use delve_minds::policy::party::PolicyEvent;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{Autonomy, Carry, LetGo, Move, SetHitPoints};
use delve_rules::creature::Encumbrance;
use delve_rules::rules::carrying::{CarryingEvent, CarryingRefusal};
use delve_rules::rules::movement::Pace;

/// A lit corridor: Sera (3 stone) at (2, 1), Aldric (2 stone) at (3, 1), Brannoc (6 stone) at
/// (4, 1).
fn corridor(map: &[&str]) -> Delve {
    Scenario::new(map)
        .light("(at: (1, 1), kind: Custom(bright_feet: 120, dim_feet: 120), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc", "Sera", "Aldric"])"#)
        .creature(
            r#"(name: "Sera", faction: "party", at: (2, 1), hp: 9, ac: 14, encumbrance_stone: 3.0)"#,
        )
        .creature(
            r#"(name: "Aldric", faction: "party", at: (3, 1), hp: 5, ac: 11, encumbrance_stone: 2.0)"#,
        )
        .creature(
            r#"(name: "Brannoc", faction: "party", at: (4, 1), hp: 18, ac: 16, encumbrance_stone: 6.0)"#,
        )
        .build()
}

fn stone(delve: &Delve, who: &str) -> f32 {
    match delve.get::<Encumbrance>(who).unwrap().0 {
        SpeedBasis::Encumbrance { stone } => stone,
        SpeedBasis::Explicit { .. } => unreachable!("{who}'s speed is its encumbrance"),
    }
}

/// A dying companion is carried with its whole weight: 15 stone and its own 2. Sera (3 stone)
/// bears 20 stone — the speed table's last row, 30' a turn, 10' a round — and carries Aldric
/// where she walks; Brannoc (6 stone) would bear 23, over the 20 one can move with, and the
/// rules refuse him. One who can walk is not carried.
#[test]
fn a_dying_companion_is_carried_with_its_whole_weight() {
    let mut delve = corridor(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"]);
    delve.act(Carry {
        who: "Sera".into(),
        whom: "Aldric".into(),
        with: None,
    });
    assert!(delve.was_refused("Sera", &CarryingRefusal::NotDown));
    delve.act(SetHitPoints {
        who: "Aldric".into(),
        hit_points: 0,
    });
    // The window offers it to the one beside him, and says what it would bear.
    let offered: Vec<(String, String)> =
        delve_rules::rules::choices_for(delve.world(), delve.entity("Sera"))
            .into_iter()
            .filter(|(area, _)| *area == delve_rules::act::Concern::Carrying)
            .map(|(_, c)| (c.way, c.note))
            .collect();
    assert_eq!(
        offered,
        vec![(
            "carry Aldric".to_owned(),
            "bears 17 stone (20 in all)".to_owned()
        )]
    );
    delve.act(Carry {
        who: "Brannoc".into(),
        whom: "Aldric".into(),
        with: None,
    });
    assert!(delve.was_refused("Brannoc", &CarryingRefusal::TooHeavy { stone: 23.0 }));
    delve.act(Carry {
        who: "Sera".into(),
        whom: "Aldric".into(),
        with: None,
    });
    assert!(
        delve
            .events::<CarryingEvent>()
            .contains(&CarryingEvent::TakenUp {
                who: "Sera".into(),
                whom: "Aldric".into(),
                stone: 17.0,
                load: 20.0,
            })
    );
    assert_eq!(stone(&delve, "Sera"), 20.0);
    let speeds = delve::query::speeds(delve.world(), "Sera").unwrap();
    assert_eq!(
        (
            speeds.exploration_feet_per_turn,
            speeds.combat_feet_per_round
        ),
        (Some(30.0), Some(10.0))
    );
    delve.run(1);
    delve.act(Move {
        who: "Sera".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    delve.run(1);
    assert_eq!(delve.at("Sera").x, 1);
    assert_eq!(delve.at("Aldric"), delve.at("Sera"));
    delve.act(LetGo { who: "Sera".into() });
    assert_eq!(stone(&delve, "Sera"), 3.0);
}

/// No one left behind who can be brought out: the party's dying mage lies in the corridor;
/// when it goes home (nothing left to explore), the one who can bear him (Sera: 20 stone;
/// Brannoc would bear 23) takes him up and the party leaves with him — none left behind.
#[test]
fn a_party_going_home_carries_its_dying_member() {
    let mut delve = corridor(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"]);
    delve.act(SetHitPoints {
        who: "Aldric".into(),
        hit_points: 0,
    });
    delve.give(Autonomy {
        party: "party".into(),
        policy: Some(PartyPolicy::default()),
    });
    let ended = |d: &Delve| {
        d.events::<PolicyEvent>().into_iter().find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, tally, .. } => Some((outcome, tally)),
            _ => None,
        })
    };
    for _ in 0..600 {
        if ended(&delve).is_some() {
            break;
        }
        delve.run(1);
    }
    let (outcome, tally) = ended(&delve).expect("the delve ends");
    assert_eq!(outcome, Outcome::GoalReached, "{}", delve.log().to_text());
    assert!(tally.left_behind.is_empty(), "{:?}", tally.left_behind);
    assert!(delve.events::<PolicyEvent>().iter().any(|e| matches!(
        e,
        PolicyEvent::Decided { intent: Intent::Carry { whom }, .. } if whom == "Aldric"
    )));
    assert!(
        delve
            .events::<CarryingEvent>()
            .iter()
            .any(|e| matches!(e, CarryingEvent::TakenUp { who, .. } if who == "Sera"))
    );
    assert_eq!(delve.at("Aldric"), delve.at("Sera"));
}

/// Taking the gear of a fallen companion is offered to one beside it, as `TakeFrom` carries it
/// out: not while the companion is up, not from two squares away; taken, the gear is hers.
#[test]
fn the_gear_of_a_fallen_companion_is_offered_to_one_beside_it() {
    let mut delve = Scenario::new(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"])
        .light("(at: (1, 1), kind: Custom(bright_feet: 120, dim_feet: 120), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Sera", "Aldric", "Brannoc"])"#)
        .creature(
            r#"(name: "Sera", faction: "party", at: (2, 1), hp: 9, ac: 14, encumbrance_stone: 3.0)"#,
        )
        .creature(
            r#"(name: "Aldric", faction: "party", at: (3, 1), hp: 5, ac: 11, encumbrance_stone: 2.0,
                gear: [Oil(2)])"#,
        )
        .creature(
            r#"(name: "Brannoc", faction: "party", at: (5, 1), hp: 18, ac: 16, encumbrance_stone: 6.0)"#,
        )
        .build();
    let takes = |delve: &Delve, who: &str| -> Vec<(String, String)> {
        delve_rules::rules::choices_for(delve.world(), delve.entity(who))
            .into_iter()
            .filter(|(_, c)| c.way.starts_with("take "))
            .map(|(what, c)| (what.to_string(), c.way))
            .collect()
    };
    assert!(takes(&delve, "Sera").is_empty(), "Aldric is up");
    delve.act(SetHitPoints {
        who: "Aldric".into(),
        hit_points: 0,
    });
    assert_eq!(
        takes(&delve, "Sera"),
        [("Aldric".to_owned(), "take Aldric's gear".to_owned())]
    );
    assert!(takes(&delve, "Brannoc").is_empty(), "two squares away");
    let offered = delve_rules::rules::choices_for(delve.world(), delve.entity("Sera"))
        .into_iter()
        .find(|(_, c)| c.way == "take Aldric's gear")
        .unwrap()
        .1;
    delve.act(
        offered
            .command
            .get::<delve_rules::command::acts::TakeFrom>()
            .unwrap()
            .clone(),
    );
    let sera = delve
        .get::<delve_rules::creature::Equipment>("Sera")
        .unwrap();
    assert!(
        sera.0.contains(&delve_ground::level::schema::Gear::Oil(2)),
        "{sera:?}"
    );
    assert!(takes(&delve, "Sera").is_empty(), "nothing left to take");
}

/// RULINGS › Carrying and hauling: two bearers share the weight, half each. Brannoc (6 stone)
/// alone would bear Aldric's 17 (23 in all: refused); with Sera beside him each bears 8.5 —
/// Brannoc 14.5 in all, Sera 11.5 — and the window offers it so. Putting him down is done by
/// both.
#[test]
fn two_bearers_share_the_weight_half_each() {
    let mut delve = corridor(&["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"]);
    delve.act(SetHitPoints {
        who: "Aldric".into(),
        hit_points: 0,
    });
    let offered: Vec<(String, String)> =
        delve_rules::rules::choices_for(delve.world(), delve.entity("Brannoc"))
            .into_iter()
            .filter(|(area, _)| *area == delve_rules::act::Concern::Carrying)
            .map(|(_, c)| (c.way, c.note))
            .collect();
    assert_eq!(
        offered,
        vec![(
            "carry Aldric with Sera".to_owned(),
            "two bear 8.5 stone each (14.5 in all)".to_owned()
        )]
    );
    delve.act(Carry {
        who: "Brannoc".into(),
        whom: "Aldric".into(),
        with: Some("Sera".into()),
    });
    assert_eq!(
        (stone(&delve, "Brannoc"), stone(&delve, "Sera")),
        (14.5, 11.5)
    );
    delve.act(LetGo { who: "Sera".into() });
    assert_eq!(
        (stone(&delve, "Brannoc"), stone(&delve, "Sera")),
        (6.0, 3.0)
    );
}
