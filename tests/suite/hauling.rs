//! Hauling a companion up a secured rope (RULINGS › Carrying and hauling): those at the top move
//! it 10' a round if each of their loads, with its share of the hauled weight, stays within 20
//! stone; hauling is exertion and takes each hauler's action.

use delve_ground::grid::GridPos;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{Haul, LowerRope};
use delve_rules::creature::{Below, Exerted};
use delve_rules::rules::acting::ActionTaken;
use delve_rules::rules::caving::hauling::{HauledUp, HaulingEvent, HaulingRefusal};

/// Brand, dying in chain (7 stone: 22 with his body), lies at the bottom of a 30' shaft; Ada
/// (2 stone, a rope) stands on its rim to the west, Hild (6 stone) to the east.
pub(crate) fn dying_in_a_shaft() -> Delve {
    let mut delve = Scenario::new(&["XXXXXXX", "X..H..X", "XXXXXXX"])
        .legend("'H': Chasm(depth_feet: 30)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party", marching_order: ["Ada", "Hild", "Brand"])"#)
        .creature(
            r#"(name: "Ada", faction: "party", at: (2, 1), hp: 10, ac: 12,
                encumbrance_stone: 2.0, gear: [Rope(50)])"#,
        )
        .creature(
            r#"(name: "Hild", faction: "party", at: (4, 1), hp: 12, ac: 15,
                encumbrance_stone: 6.0)"#,
        )
        .creature(
            r#"(name: "Brand", faction: "party", at: (5, 1), hp: 12, ac: 15,
                encumbrance_stone: 7.0, conditions: [Dying])"#,
        )
        .build();
    let brand = delve.entity("Brand");
    // (No level puts a creature at the bottom of a hole: he fell there.)
    delve.world_mut().entity_mut(brand).insert((
        delve_rules::creature::Position(GridPos::new(3, 1)),
        Below { depth_feet: 30 },
    ));
    delve
}

/// The same, a rope lowered into the shaft by Ada.
pub(crate) fn roped_shaft() -> Delve {
    let mut delve = dying_in_a_shaft();
    delve.act(LowerRope {
        who: "Ada".into(),
        at: (3, 1),
    });
    delve
}

fn haul(who: &str, with: &[&str]) -> Haul {
    Haul {
        who: who.into(),
        whom: "Brand".into(),
        with: with.iter().map(|w| (*w).to_owned()).collect(),
    }
}

#[test]
fn two_haul_a_dying_companion_up_a_secured_rope_ten_feet_a_round() {
    let mut delve = dying_in_a_shaft();
    // No rope in the shaft yet.
    delve.act(haul("Ada", &["Hild"]));
    assert!(delve.was_refused("Ada", &HaulingRefusal::NoRope));
    delve.act(LowerRope {
        who: "Ada".into(),
        at: (3, 1),
    });
    delve.run(1);
    // Alone, Ada would bear 2 + 22 stone: over 20.
    delve.act(haul("Ada", &[]));
    assert!(delve.was_refused(
        "Ada",
        &HaulingRefusal::TooHeavy {
            who: "Ada".into(),
            stone: 24.0
        }
    ));
    // Together, 11 stone each: Ada 13, Hild 17. Three rounds for 30'.
    for round in 1..=3 {
        delve.act(haul("Ada", &["Hild"]));
        // (The round just played.)
        let now = delve.world().resource::<delve_ground::time::Clock>().rounds - 1;
        for who in ["Ada", "Hild"] {
            assert_eq!(delve.get::<Exerted>(who), Some(&Exerted { round: now }));
            assert_eq!(
                delve.get::<ActionTaken>(who),
                Some(&ActionTaken { round: now })
            );
        }
        if round < 3 {
            assert_eq!(
                delve.get::<HauledUp>("Brand"),
                Some(&HauledUp { feet: 10 * round })
            );
            assert!(delve.get::<Below>("Brand").is_some());
        }
    }
    assert_eq!(delve.get::<Below>("Brand"), None);
    assert_eq!(delve.at("Brand"), GridPos::new(2, 1));
    let hauled: Vec<(u32, f32)> = delve
        .events::<HaulingEvent>()
        .into_iter()
        .filter_map(|e| match e {
            HaulingEvent::Hauled {
                feet, stone, by, ..
            } => {
                assert_eq!(by, vec!["Ada".to_owned(), "Hild".to_owned()]);
                Some((feet, stone))
            }
            HaulingEvent::HauledOut { .. } => None,
        })
        .collect();
    assert_eq!(hauled, vec![(10, 11.0), (20, 11.0), (30, 11.0)]);
    assert!(
        delve
            .events::<HaulingEvent>()
            .contains(&HaulingEvent::HauledOut {
                whom: "Brand".into(),
                to: GridPos::new(2, 1)
            })
    );
}

#[test]
fn one_who_can_climb_or_a_hauler_off_the_rim_is_refused() {
    let mut delve = dying_in_a_shaft();
    delve.act(LowerRope {
        who: "Ada".into(),
        at: (3, 1),
    });
    delve.run(1);
    // Hild steps off the rim.
    let hild = delve.entity("Hild");
    delve
        .world_mut()
        .entity_mut(hild)
        .insert(delve_rules::creature::Position(GridPos::new(5, 1)));
    delve.act(haul("Ada", &["Hild"]));
    assert!(delve.was_refused("Ada", &HaulingRefusal::NotOnTheRim { who: "Hild".into() }));
    delve.act(haul("Ada", &["Ada"]));
    assert!(delve.was_refused("Ada", &HaulingRefusal::Twice { who: "Ada".into() }));
    // Brand, up again, climbs the rope himself.
    let brand = delve.entity("Brand");
    delve
        .world_mut()
        .get_mut::<delve_rules::creature::Conditions>(brand)
        .unwrap()
        .0
        .clear();
    delve.act(haul("Ada", &[]));
    assert!(delve.was_refused("Ada", &HaulingRefusal::ItClimbs));
}

/// The rim's offer: haul Brand up, with Hild to share the weight, and what each bears.
#[test]
fn hauling_is_offered_on_the_rim_with_the_crew_it_needs() {
    let mut delve = dying_in_a_shaft();
    delve.act(LowerRope {
        who: "Ada".into(),
        at: (3, 1),
    });
    delve.run(1);
    let ada = delve.entity("Ada");
    let offers = delve_rules::rules::caving::hauling::haul_choices(delve.world(), ada);
    assert_eq!(offers.len(), 1, "{offers:?}");
    assert_eq!(offers[0].way, "haul Brand up");
    assert!(
        offers[0].note.contains("11 stone each"),
        "{}",
        offers[0].note
    );
    assert_eq!(
        offers[0].command,
        delve_rules::act::AnyAct::from(haul("Ada", &["Hild"]))
    );
}

/// A party under its policy hauls its dying companion out: Ada lowers her rope, and she and Hild
/// haul Brand up, 10' a round; no one is left in the shaft.
#[test]
fn a_party_under_its_policy_hauls_its_dying_companion_out() {
    use super::autonomy::{hand_over, intents, run_until};
    use delve_minds::policy::party::Intent;
    let mut delve = dying_in_a_shaft();
    hand_over(
        &mut delve,
        delve_ground::party_policy::PartyPolicy::default(),
    );
    assert!(
        run_until(&mut delve, 40, |d| d.get::<Below>("Brand").is_none()),
        "{}",
        delve.log().to_text()
    );
    assert!(intents(&delve).contains(&Intent::HaulUp {
        whom: "Brand".into()
    }));
    let hauls = delve
        .events::<HaulingEvent>()
        .into_iter()
        .filter(|e| matches!(e, HaulingEvent::Hauled { .. }))
        .count();
    assert_eq!(hauls, 3, "30' at 10' a round");
}
