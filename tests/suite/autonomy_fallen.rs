//! Delves that play themselves after a fall: the light, the key and the gear taken from the
//! fallen, and not from one down a pit.

use super::autonomy::*;
use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::{Homeward, Intent};
use delve_play::scenario::Scenario;
use delve_rules::command::acts::*;

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
        d.events::<delve_rules::rules::party::PartyEvent>()
            .iter()
            .any(|e| matches!(e, delve_rules::rules::party::PartyEvent::TookFrom { .. }))
    }));
    assert!(intents(&delve).contains(&Intent::TakeFromTheFallen { from: "Bo".into() }));
    let took = delve
        .events::<delve_rules::rules::party::PartyEvent>()
        .into_iter()
        .find_map(|e| match e {
            delve_rules::rules::party::PartyEvent::TookFrom {
                who,
                from,
                gear,
                lights,
            } => Some((who, from, gear, lights)),
            _ => None,
        })
        .unwrap();
    assert_eq!((took.0.as_str(), took.1.as_str()), ("Ana", "Bo"));
    assert_eq!(took.2, vec![delve_ground::level::schema::Gear::Oil(1)]);
    assert_eq!(took.3.len(), 1);
    assert_eq!(
        took.3[0].kind,
        delve_ground::level::schema::LightKind::Lantern,
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
    let ana: &delve_rules::creature::Equipment = delve.get("Ana").unwrap();
    assert!(ana.has(&delve_ground::level::schema::Gear::Key("ash key".into())));
}

/// `TakeFrom` takes only from one beside it who is fallen or a companion.
#[test]
fn gear_is_taken_from_the_fallen_beside_or_a_companion() {
    use delve_rules::rules::party::PartyRefusal;
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
    let ana: &delve_rules::creature::Equipment = delve.get("Ana").unwrap();
    assert!(ana.has(&delve_ground::level::schema::Gear::Rope(50)));
    delve.act(take("Ana", "Cy"));
    assert!(delve.was_refused("Ana", &PartyRefusal::NothingToTake { name: "Cy".into() }));
}

/// One at the bottom of a pit is out of reach of one on its rim (RULINGS › Pits and holes): gear
/// is taken from it only by one down there with it.
#[test]
fn gear_is_not_taken_from_one_down_a_pit_by_one_on_its_rim() {
    use delve_rules::rules::party::PartyRefusal;
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
        .insert(delve_rules::creature::Below { depth_feet: 20 });
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
        .insert(delve_rules::creature::Below { depth_feet: 20 });
    delve.act(take);
    let gear: &delve_rules::creature::Equipment = delve.get("Ana").unwrap();
    assert!(gear.has(&delve_ground::level::schema::Gear::Rope(50)));
}

/// A member at the bottom of a sheer pit who does not climb (Dungeon Delves › Climbing: sheer
/// is for those proficient; a rope lowered from above makes it easy): the party takes its
/// orders from the offers — Bo, who carries a rope, is offered to lower it and does, and Ada is
/// then offered the climb out and makes it. Without a rope nothing is offered her, and the
/// party gives no climb the rules would refuse.
#[test]
fn one_in_a_sheer_pit_is_roped_out_as_offered_or_left_without_a_refused_climb() {
    let in_a_pit = |bo: &str| {
        let mut delve = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
            .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
            .trap("(at: (3, 1), kind: Pit(depth_feet: 20), trigger: Step, hidden: true)")
            .faction(r#"(name: "party", marching_order: ["Bo", "Ada"])"#)
            .creature(
                r#"(name: "Ada", faction: "party", at: (2, 1), hp: 12, ac: 10,
                    encumbrance_stone: 2.0)"#,
            )
            .creature(&format!(
                r#"(name: "Bo", faction: "party", at: (4, 1), hp: 12, ac: 10,
                    encumbrance_stone: 2.0{bo})"#
            ))
            .field("goal: Exit((5, 1))")
            .build();
        delve.script_dice(&[1, 1, 1]);
        delve.act(Move {
            who: "Ada".into(),
            to: (4, 1),
            pace: delve_rules::rules::movement::Pace::Combat,
        });
        assert!(delve.get::<delve_rules::creature::Below>("Ada").is_some());
        hand_over(&mut delve, PartyPolicy::default());
        delve
    };
    let mut roped = in_a_pit(", gear: [Rope(50)]");
    assert!(
        run_until(&mut roped, 40, |d| d
            .get::<delve_rules::creature::Below>("Ada")
            .is_none()),
        "{}",
        roped.log().to_text()
    );
    assert!(
        roped
            .events::<delve_rules::rules::caving::CavingEvent>()
            .contains(&delve_rules::rules::caving::CavingEvent::RopeLowered {
                who: "Bo".into(),
                at: delve_ground::grid::GridPos::new(3, 1),
            }),
        "{}",
        roped.log().to_text()
    );
    assert_eq!(refused_climbs(&roped), 0, "{}", roped.log().to_text());

    let mut bare = in_a_pit("");
    bare.run(20);
    assert!(bare.get::<delve_rules::creature::Below>("Ada").is_some());
    assert_eq!(refused_climbs(&bare), 0, "{}", bare.log().to_text());
}

/// The climbs the rules refused in the delve.
fn refused_climbs(delve: &delve_play::scenario::Delve) -> usize {
    delve
        .log()
        .of::<delve_rules::command::CommandEvent>()
        .filter(|e| {
            matches!(
                e,
                delve_rules::command::CommandEvent::CommandRefused {
                    command: delve_rules::command::Command::Climb(_),
                    ..
                }
            )
        })
        .count()
}
