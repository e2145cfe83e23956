//! Rest (Dungeon Delves › Rest and Recuperation; RULINGS › Rest): the five turns before a rest,
//! a still turn as rest, winded runners resting it off, and those who are down.

use super::movement::{conditions, events, level, long_corridor, rows, runner};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_play::sim::{give, run_round, run_rounds, sim_app};
use delve_rules::command::Command;
use delve_rules::command::acts::{Halt, Move, MoveParty, RestParty};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::party::PartyEvent;
use delve_rules::rules::rest::RestEvent;

/// Dungeon Delves › Running winds an adventurer with Endurance too (Endurance spares only the
/// rest due after five turns); RULINGS › Rest: a turn in which it neither moved nor acted is a
/// turn of rest, and ends it — once only an explicit `Rest` did.
#[test]
fn an_enduring_runner_winded_rests_it_off_by_a_still_turn() {
    let corridor = long_corridor();
    // Paralysis 25: every save fails.
    let l = level(
        &rows(&corridor),
        &runner(10, 25, ", proficiencies: [Endurance]"),
        "",
    );
    let mut app = sim_app(&l, 3);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (398, 1),
            pace: Pace::Running,
        }),
    );
    run_rounds(app.world_mut(), 10);
    assert!(conditions(&app, "Runner").has(ConditionKind::Winded));
    give(
        app.world_mut(),
        Command::Halt(Halt {
            who: "Runner".into(),
        }),
    );
    run_rounds(app.world_mut(), 9);
    assert!(
        conditions(&app, "Runner").has(ConditionKind::Winded),
        "nine still rounds are not a turn"
    );
    run_round(app.world_mut());
    assert!(
        !conditions(&app, "Runner").has(ConditionKind::Winded),
        "{}",
        app.world().resource::<EventLog>().to_text()
    );
    assert!(
        events(&app)
            .iter()
            .any(|e| matches!(e, RestEvent::Rested { who } if who == "Runner"))
    );
}

/// Dungeon Delves › Rest: more than 5 turns of exploration without rest winds an adventurer;
/// Endurance exempts.
#[test]
fn the_sixth_turn_without_rest_winds_the_party_and_endurance_exempts() {
    let corridor = long_corridor();
    let creatures = "(name: \"Tired\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0),\n\
                     (name: \"Tough\", faction: \"party\", at: (2, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0, proficiencies: [Endurance])";
    let l = level(
        &rows(&corridor),
        creatures,
        ", marching_order: [\"Tired\", \"Tough\"]",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::MoveParty(MoveParty {
            party: "party".into(),
            to: (398, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 50);
    assert!(
        !conditions(&app, "Tired").has(ConditionKind::Winded),
        "five turns are allowed"
    );
    run_round(app.world_mut());
    assert!(
        conditions(&app, "Tired").has(ConditionKind::Winded),
        "the sixth turn winds"
    );
    assert!(
        !conditions(&app, "Tough").has(ConditionKind::Winded),
        "Endurance needs no rest"
    );
    // The party rests; the one with Endurance keeps watch.
    give(
        app.world_mut(),
        Command::RestParty(RestParty {
            party: "party".into(),
        }),
    );
    run_rounds(app.world_mut(), 10);
    assert!(!conditions(&app, "Tired").has(ConditionKind::Winded));
    let log = app.world().resource::<EventLog>();
    assert!(
        log.of::<PartyEvent>().any(|e| matches!(
            e,
            PartyEvent::PartyRests { watch, .. } if watch == &vec!["Tough".to_owned()]
        )),
        "{}",
        log.to_text()
    );
}

/// A creature that is down does nothing: a dying member with Endurance does not keep watch at
/// the party's rest, and a winded one that is down does not rest the winding off by lying still
/// (a drowned member was once "no longer Winded: rested a turn" four rounds after it died).
#[test]
fn one_who_is_down_neither_rests_nor_keeps_watch() {
    let creatures = "(name: \"Down\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, encumbrance_stone: 2.0, conditions: [Winded, Dying]),\n\
                     (name: \"Tough\", faction: \"party\", at: (2, 1), hp: 5, ac: 12, encumbrance_stone: 2.0, proficiencies: [Endurance], conditions: [Dying]),\n\
                     (name: \"Up\", faction: \"party\", at: (3, 1), hp: 5, ac: 12, encumbrance_stone: 2.0, carries: [(kind: Lantern, lit: true)], proficiencies: [Endurance])";
    let l = level(
        &["XXXXXX", "X....X", "XXXXXX"],
        creatures,
        ", marching_order: [\"Up\", \"Down\", \"Tough\"]",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::RestParty(RestParty {
            party: "party".into(),
        }),
    );
    run_rounds(app.world_mut(), 20);
    let log = app.world().resource::<EventLog>();
    let watch: Vec<Vec<String>> = log
        .of::<PartyEvent>()
        .filter_map(|e| match e {
            PartyEvent::PartyRests { watch, .. } => Some(watch.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(watch, vec![vec!["Up".to_owned()]], "{}", log.to_text());
    assert!(
        !log.of::<RestEvent>()
            .any(|e| matches!(e, RestEvent::Rested { who } if who == "Down")),
        "{}",
        log.to_text()
    );
    assert!(conditions(&app, "Down").has(ConditionKind::Winded));
}

/// RULINGS › Rest: a turn in which an adventurer neither moved nor acted is a turn of rest. A
/// party that stands still for six turns is not winded; a winded adventurer who then stands
/// still ten rounds in a row has rested.
#[test]
fn standing_still_is_rest() {
    let creatures = "(name: \"Idle\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0)";
    let l = level(&["XXXXX", "X...X", "XXXXX"], creatures, "");
    let mut app = sim_app(&l, 1);
    run_rounds(app.world_mut(), 70);
    assert!(!conditions(&app, "Idle").has(ConditionKind::Winded));

    let corridor = long_corridor();
    let mut app = sim_app(&level(&rows(&corridor), creatures, ""), 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Idle".into(),
            to: (398, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 51);
    assert!(conditions(&app, "Idle").has(ConditionKind::Winded));
    give(app.world_mut(), Command::Halt(Halt { who: "Idle".into() }));
    // It halts in round 51: ten still rounds in a row (51–60), counted from its last step and
    // not from the clock's turn, are its rest.
    run_rounds(app.world_mut(), 9);
    assert!(
        conditions(&app, "Idle").has(ConditionKind::Winded),
        "not yet"
    );
    run_round(app.world_mut());
    assert!(!conditions(&app, "Idle").has(ConditionKind::Winded));
    let rested: Vec<u64> = app
        .world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .filter(
            |e| matches!(e.get::<RestEvent>(), Some(RestEvent::Rested { who }) if who == "Idle"),
        )
        .map(|e| e.round)
        .collect();
    assert_eq!(rested, vec![60]);
}

/// Dungeon Delves › Rest: "more than 5 turns without stopping to rest, they become winded". A
/// careful party does not begin a turn's methodical search four turns and two rounds after its
/// last rest (the search would end past the fifth turn): it rests first, then searches, and no
/// one is winded.
#[test]
fn rests_before_a_turns_search_that_would_wind_it() {
    let mut delve = delve_play::scenario::Scenario::new(&["XXXXXXXXX", "X......+X", "XXXXXXXXX"])
        .legend("'+': Door")
        .door("(at: (7, 1), secret: true)")
        .faction(r#"(name: "party", marching_order: ["Brannoc"])"#)
        .creature(&super::autonomy::FIGHTER.replace("at: (1, 1)", "at: (6, 1)"))
        .build();
    let brannoc = delve.entity("Brannoc");
    delve
        .world_mut()
        .get_mut::<delve_rules::rules::rest::Fatigue>(brannoc)
        .unwrap()
        .rounds_without_rest = 42;
    super::autonomy::hand_over(
        &mut delve,
        delve_ground::party_policy::PartyPolicy::default(),
    );
    let search = delve_minds::policy::party::Intent::Search {
        at: delve_ground::grid::GridPos::new(6, 1),
    };
    assert!(
        super::autonomy::run_until(&mut delve, 40, |d| super::autonomy::intents(d)
            .contains(&search)),
        "{}",
        delve.log().to_text()
    );
    let intents = super::autonomy::intents(&delve);
    let rest = intents
        .iter()
        .position(|i| *i == delve_minds::policy::party::Intent::Rest);
    let first_search = intents.iter().position(|i| *i == search);
    assert!(
        rest.is_some() && rest < first_search,
        "{intents:?}\n{}",
        delve.log().to_text()
    );
    let winded = delve
        .world()
        .get::<delve_rules::creature::Conditions>(brannoc)
        .unwrap()
        .has(delve_ground::level::schema::ConditionKind::Winded);
    assert!(!winded);
}
