//! The lab tells why (issue 34): causes with their squares, honest casualties, funnels for
//! every feature, rooms that mean something in caves, survival, and expectations a level keeps.

use delve::lab::watch::{Fate, Harm};
use delve::lab::{LabPlan, run_lab};
use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::outcome::Cause;
use delve_minds::policy::outcome::Outcome;
use delve_play::scenario::Scenario;

fn plan(level: delve_ground::level::Level, runs: u64) -> LabPlan {
    LabPlan {
        level,
        policy: PartyPolicy::default(),
        seed: 1,
        runs,
        jobs: 2,
    }
}

/// A corridor with a hidden pit in it; the one carrying the only light leads.
fn pit_under_the_light_bearer() -> delve_ground::level::Level {
    Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "X........................................X",
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    ])
    .field("goal: Reach((40, 1))")
    .faction(r#"(name: "party", marching_order: ["Lux", "Dim"])"#)
    .creature(
        r#"(name: "Lux", faction: "party", at: (2, 1), hp: 30, ac: 12, speed_feet: 120,
            carries: [(kind: Torch, lit: true)], gear: [Oil(1)])"#,
    )
    .creature(
        r#"(name: "Dim", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120,
            carries: [(kind: Torch, lit: true, fuel_turns: 1)])"#,
    )
    .trap("(at: (5, 1), kind: Pit(depth_feet: 30), trigger: Step, hidden: true)")
    .level()
    .unwrap()
}

/// A level with a pit that traps the light-bearer (issue 34): the delves in which the one
/// carrying the light lies in the pit, no rope at hand, end "out of light" with that cause and
/// the pit's square, and it is counted a casualty — abandoned, as it was left there alive.
#[test]
fn a_light_bearer_in_a_pit_is_the_cause_and_an_abandoned_casualty() {
    let pit = GridPos::new(5, 1);
    let records = run_lab(&plan(pit_under_the_light_bearer(), 24), |_| {})
        .unwrap()
        .records;
    let lux_in_the_pit: Vec<_> = records
        .iter()
        .filter(|r| {
            !r.outcome.is_some_and(Outcome::goal_met)
                && r.tally
                    .left_behind
                    .iter()
                    .any(|l| l.who == "Lux" && l.at == pit)
        })
        .collect();
    assert!(!lux_in_the_pit.is_empty(), "no delve left Lux in the pit");
    for r in lux_in_the_pit {
        assert_eq!(r.outcome, Some(Outcome::OutOfLight), "seed {}", r.seed);
        assert_eq!(
            r.tally.cause,
            Some(Cause::LightBearerInAPit {
                who: "Lux".into(),
                at: pit
            }),
            "seed {}",
            r.seed
        );
        let casualty = r
            .features
            .casualties
            .iter()
            .find(|c| c.who == "Lux")
            .expect("Lux is a casualty");
        assert_eq!(casualty.fate, Fate::Abandoned);
        assert_eq!(casualty.at, pit);
        assert!(matches!(&casualty.by, Harm::Trap { at, .. } if *at == pit));
        let trap = r.features.traps.iter().find(|t| t.at == pit).unwrap();
        assert!(trap.downed.contains(&"Lux".to_owned()));
    }
    // A delve that left no one behind has no one abandoned.
    for r in records.iter().filter(|r| r.tally.left_behind.is_empty()) {
        assert!(
            r.features
                .casualties
                .iter()
                .all(|c| c.fate != Fate::Abandoned)
        );
    }
}

/// What the lab's watch makes of a delve played so far.
fn watched(delve: &delve_play::scenario::Delve, party: &[&str]) -> delve::lab::Features {
    let world = delve.app.world();
    let mut watch =
        delve::lab::watch::DelveWatch::new(world, party.iter().map(|p| (*p).to_owned()).collect());
    for entry in world.resource::<delve_ground::log::EventLog>().entries() {
        watch.entry(world, entry);
    }
    let mut features = delve::lab::Features::default();
    watch.finish(world, &[], &mut features);
    features
}

/// A touch trap the pole sets off from 10' away harms no one: it is a harmless discharge, not
/// a trap sprung on a member, and its harm is nil; touched by hand, it is sprung and harms
/// (issue 34: "poison needle sprung 25%" was entirely harmless pole discharges).
#[test]
fn a_harmless_pole_discharge_is_not_counted_as_harm() {
    use delve_rules::command::Command;
    use delve_rules::rules::traps::Touch;
    let glyph = |gear: &str, at: u32| {
        Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
            .faction(r#"(name: "party", marching_order: ["Ada"])"#)
            .creature(&format!(
                r#"(name: "Ada", faction: "party", at: ({at}, 1), hp: 30, ac: 12,
                    speed_feet: 120{gear})"#
            ))
            .trap(r#"(at: (4, 1), kind: Custom(name: "glyph", damage: "2d4"), trigger: Touch)"#)
            .build()
    };
    let touch = Command::Touch(Touch {
        who: "Ada".into(),
        at: (4, 1),
    });
    let mut by_pole = glyph(", gear: [TenFootPole]", 2);
    by_pole.script_dice(&[1]);
    by_pole.act(touch.clone());
    let trap = watched(&by_pole, &["Ada"]).traps[0].clone();
    assert_eq!(
        (trap.sprung, trap.discharged, trap.hit_points),
        (0, 1, 0),
        "{trap:?}"
    );
    assert!(!trap.harmful());

    let mut by_hand = glyph("", 3);
    by_hand.script_dice(&[2, 1, 1]);
    by_hand.act(touch);
    let trap = watched(&by_hand, &["Ada"]).traps[0].clone();
    assert_eq!(
        (trap.sprung, trap.discharged, trap.hit_points),
        (1, 0, 2),
        "{trap:?}"
    );
    assert!(trap.harmful());
}

/// A door tried and left shut is apart from one never reached (issue 34: "left shut" mixed
/// them): the locked door the party tries and cannot open, and the door beyond it.
#[test]
fn a_door_tried_and_failed_is_apart_from_one_never_reached() {
    let level = Scenario::new(&[
        "XXXXXXXXXXXX",
        "X...X...X..X",
        "X...+...+..X",
        "X...X...X..X",
        "XXXXXXXXXXXX",
    ])
    .legend("'+': Door")
    .door("(at: (4, 2), lock: Locked(key: None))")
    .door("(at: (8, 2))")
    .field("goal: Room((10, 2))")
    .faction(r#"(name: "party", marching_order: ["Ana"])"#)
    .creature(
        r#"(name: "Ana", faction: "party", at: (1, 2), hp: 30, ac: 12, speed_feet: 120, str: 8,
            carries: [(kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)])"#,
    )
    .level()
    .unwrap();
    let plan = plan(level, 4);
    let records = run_lab(&plan, |_| {}).unwrap().records;
    let tables = delve::lab::report::tables(&plan, "doors.ron", &records);
    let doors = tables.iter().find(|t| t.title == "Doors").unwrap();
    let share = |door: &str, column: &str| {
        let s = doors
            .cell(door, column)
            .and_then(|c| c.share())
            .unwrap_or_else(|| panic!("{door} {column}: {doors:?}"));
        (s.count, s.of)
    };
    assert_eq!(share("(4, 2)", "tried, left shut"), (4, 4));
    assert_eq!(share("(4, 2)", "never reached"), (0, 4));
    assert_eq!(share("(8, 2)", "never reached"), (4, 4));
    assert_eq!(share("(8, 2)", "tried"), (0, 4));
    assert_eq!(share("(8, 2)", "tried, left shut"), (0, 4));
}

/// A cave of two chambers joined by a squeeze is two rooms, not one (issue 34: "a cave is one
/// room"); a one-square neck of cave floor between two chambers splits them too.
#[test]
fn a_cave_with_two_chambers_joined_by_a_squeeze_reports_two_rooms() {
    let cave = |neck: char| {
        let row = format!("  ...{neck}...   ");
        Scenario::new(&[
            "            ",
            "  ... ...   ",
            &row,
            "  ... ...   ",
            "            ",
        ])
        .legend("' ': Rock")
        .legend("'s': Squeeze")
        .level()
        .unwrap()
    };
    let (names, room_of) = delve::lab::heat::rooms(&cave('s').grid);
    assert_eq!(names, vec![GridPos::new(2, 1), GridPos::new(6, 1)]);
    assert_eq!(
        room_of[cave('s').grid.index(GridPos::new(5, 2)).unwrap()],
        None
    );
    // With plain floor in the gap, the one-square neck (rock above and below) splits them.
    let (names, _) = delve::lab::heat::rooms(&cave('.').grid);
    assert_eq!(names.len(), 2, "{names:?}");
}

/// Every delve ends at turn 5: the report's survival curve is whole before 5 and at zero at 5.
#[test]
fn the_survival_curve_of_delves_all_ending_at_turn_five_drops_to_zero_at_five() {
    let level = Scenario::new(&["XXXXX", "X...X", "XXXXX"])
        .faction(r#"(name: "party", marching_order: ["Ana"])"#)
        .creature(r#"(name: "Ana", faction: "party", at: (1, 1), hp: 30, ac: 12, speed_feet: 120)"#)
        .level()
        .unwrap();
    let plan = plan(level, 10);
    let records: Vec<delve::lab::RunRecord> = (1..=10)
        .map(|seed| delve::lab::RunRecord {
            seed,
            outcome: Some(Outcome::GaveUp),
            tally: delve_minds::policy::outcome::Tally {
                turns: 5.0,
                rounds: 50,
                ..Default::default()
            },
            features: Default::default(),
            error: None,
        })
        .collect();
    let tables = delve::lab::report::tables(&plan, "five.ron", &records);
    let survival = tables
        .iter()
        .find(|t| t.title == "Survival by turn")
        .unwrap();
    let going = |turn: &str| survival.cell(turn, "delves still going").unwrap().words();
    assert_eq!(going("4"), "100.0%");
    assert_eq!(going("5"), "0.0%");
}
