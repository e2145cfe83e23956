//! Caving and Spelunking (Dungeon Delves): climbing supervised by a mountaineer, the sure
//! climber, and what `query climb` tells of them.

use super::caving::{ada_in_a_pit, climbing};
use delve_ground::grid::GridPos;
use delve_play::scenario::Scenario;
use delve_rules::command::acts::{Climb, ClimbDown, LowerRope};
use delve_rules::rules::caving::{CavingEvent, CavingRefusal, ClimbPace};

/// Dungeon Delves › Climbing: "only adventurers proficient in Climbing or Mountaineering, or
/// whose climbing is supervised by an adventurer proficient in Mountaineering, can tackle sheer
/// surfaces", the target "based on the class level of the adventurer or of the mountaineer
/// assisting him": Ada, no climber, climbs the pit's sheer wall with Bo (Mountaineering 7)
/// beside it, at 7+.
#[test]
fn a_mountaineer_beside_supervises_a_sheer_climb() {
    let mut alone = ada_in_a_pit("", "");
    alone.act(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    assert!(alone.was_refused("Ada", &CavingRefusal::SheerNeedsClimbing));

    let mut delve = ada_in_a_pit(
        "",
        ", proficiencies: [Mountaineering], throws: { Mountaineering: 7 }",
    );
    delve.give(Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[7]);
    delve.run(1);
    let t = climbing(&delve).pop().expect("she climbs");
    assert_eq!((t.target, t.success), (7, true));
}

/// `query climb` tells a sure climber's fall as the rule has it (Dungeon Delves › Climbing: one
/// proficient in both Climbing and Mountaineering, with mountaineering gear, "does not fall
/// while climbing a sheer surface provided he ... did not roll an unmodified 1"): no progress on
/// a failed throw, a fall on a 1 — where it once said any failed throw falls. Without the gear,
/// any failed throw is a fall.
#[test]
fn query_climb_tells_a_sure_climbers_fall_on_a_1_only() {
    let notes = |gear: &str| {
        let mut delve = Scenario::new(&["XXXXXXXX", "X....C.X", "XXXXXXXX"])
            .legend("'C': Chasm(depth_feet: 60)")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Jess", faction: "party", at: (4, 1), hp: 20, ac: 10,
                    encumbrance_stone: 2.0, gear: [{gear}], proficiencies: [Climbing, Mountaineering],
                    throws: {{ Climbing: 6, Mountaineering: 6 }})"#
            ))
            .build();
        delve::query::climb(delve.world_mut(), GridPos::new(5, 1), "Jess")
            .unwrap()
            .notes
    };
    let sure = notes("MountaineeringGear");
    assert!(
        sure.iter()
            .any(|n| n.starts_with("failing: no progress that round; a 1: a fall")),
        "{sure:?}"
    );
    let bare = notes("Rope(50)");
    assert!(
        bare.iter()
            .any(|n| n == "failing: a fall from the point of the throw"),
        "{bare:?}"
    );
}

/// Dungeon Delves › Rappelling: "An adventurer proficient in both Climbing and Mountaineering
/// never falls while rappelling" — the rappeller's own proficiencies. Jess (Climbing) rappels
/// with Mira (Mountaineering) beside her: on a natural 1 she falls from the midpoint all the
/// same (the supervisor's Mountaineering was once counted as hers, and she never fell).
#[test]
fn a_supervisor_does_not_make_a_rappeller_never_fall() {
    let mut delve = Scenario::new(&["XXXXXXXX", "X....C.X", "XXXXXXXX"])
        .legend("'C': Chasm(depth_feet: 60)")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Jess", faction: "party", at: (4, 1), hp: 40, ac: 10,
                encumbrance_stone: 2.0, gear: [Rope(100)], proficiencies: [Climbing],
                throws: { Climbing: 6 })"#,
        )
        .creature(
            r#"(name: "Mira", faction: "party", at: (3, 1), hp: 20, ac: 10,
                encumbrance_stone: 2.0, proficiencies: [Mountaineering],
                throws: { Mountaineering: 6 })"#,
        )
        .build();
    delve.act(LowerRope {
        who: "Jess".into(),
        at: (5, 1),
    });
    delve.give(ClimbDown {
        who: "Jess".into(),
        into: (5, 1),
        rappel: true,
        pace: ClimbPace::Third,
    });
    delve.script_dice(&[1, 4, 4, 4, 4, 4]);
    delve.run(1);
    let t = climbing(&delve).pop().expect("she rappels");
    assert_eq!((t.natural, t.success), (1, false));
    assert!(
        delve
            .events::<CavingEvent>()
            .iter()
            .any(|e| matches!(e, CavingEvent::Fell { who, .. } if who == "Jess")),
        "a natural 1 and not proficient in both herself: she falls"
    );
}

/// Dungeon Delves › Rappelling: one "proficient in Climbing or Mountaineering, or assisted by an
/// adventurer with Mountaineering proficiency" rappels: Jess alone may not; with Mira
/// (Mountaineering 6) beside her she does, at Mira's 6+.
#[test]
fn a_mountaineer_beside_lets_another_rappel() {
    let rappel = |mira: bool| {
        let mut s = Scenario::new(&["XXXXXXXX", "X....C.X", "XXXXXXXX"])
            .legend("'C': Chasm(depth_feet: 60)")
            .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(
                r#"(name: "Jess", faction: "party", at: (4, 1), hp: 20, ac: 10,
                    encumbrance_stone: 2.0, gear: [Rope(100)])"#,
            );
        if mira {
            s = s.creature(
                r#"(name: "Mira", faction: "party", at: (3, 1), hp: 20, ac: 10,
                    encumbrance_stone: 2.0, proficiencies: [Mountaineering],
                    throws: { Mountaineering: 6 })"#,
            );
        }
        let mut delve = s.build();
        delve.act(LowerRope {
            who: "Jess".into(),
            at: (5, 1),
        });
        delve.give(ClimbDown {
            who: "Jess".into(),
            into: (5, 1),
            rappel: true,
            pace: ClimbPace::Third,
        });
        delve.script_dice(&[6]);
        delve.run(1);
        delve
    };
    let alone = rappel(false);
    assert!(alone.was_refused("Jess", &CavingRefusal::RappellingNeedsClimbing));
    let helped = rappel(true);
    let t = climbing(&helped).pop().expect("she rappels");
    assert_eq!((t.target, t.success), (6, true));
}
