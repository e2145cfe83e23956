//! Searching: Dungeon Delves › Searching and the "Searching & Listening" table.

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::load_level_str;
use delve_ground::log::EventLog;
use delve_rules::command::Command;
use delve_rules::command::acts::{Move, OpenDoor, Search, SearchHastily};
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::doors::Door;
use delve_rules::rules::doors::DoorRefusal;
use delve_rules::rules::search::SearchEvent;
use delve_rules::rules::search::SearchRefusal;
use delve_rules::rules::traps::Trap;

use crate::common::log_text as text;
use delve_play::sim::{give, run_round, run_rounds, sim_app};
use delve_rules::rules::movement::Pace;

fn app(extra: &str, features: &str) -> App {
    let src = format!(
        r#"(name: "search", legend: {{ 'X': Wall(Stone), '.': Floor, '+': Door }},
            map: ["XXXXXXXXXXXX", "X..........X", "XXX+XXXXXXXX"],
            {features}
            factions: [(name: "party")],
            creatures: [(name: "Sera", faction: "party", at: (1, 1), hp: 6, ac: 12, encumbrance_stone: 2.0,
                         class: "thief", level: 3, carries: [(kind: Torch, lit: true)]{extra})])"#
    );
    sim_app(
        &load_level_str(&src, "search.ron", None)
            .unwrap_or_else(|e| panic!("{e}"))
            .level,
        1,
    )
}

const SECRET: &str = "doors: [(at: (3, 2), secret: true)],";
const SURE: &str = ", proficiencies: [Searching], throws: { Searching: 1 }";

/// A methodical search covers 5', or 10' with a pole: the secret door is 10' from (1, 1).
#[test]
fn a_methodical_search_with_a_pole_covers_ten_feet() {
    for (pole, found) in [("", false), (", gear: [TenFootPole]", true)] {
        let mut app = app(&format!("{SURE}{pole}"), SECRET);
        give(
            app.world_mut(),
            Command::Search(Search { who: "Sera".into() }),
        );
        run_rounds(app.world_mut(), 9);
        let finds = |app: &App| {
            let log = app.world().resource::<EventLog>();
            log.of::<SearchEvent>().cloned().collect::<Vec<_>>()
        };
        assert!(finds(&app).is_empty(), "a turn is ten rounds");
        run_round(app.world_mut());
        let log = text(&app);
        let door = SearchEvent::Found {
            who: "Sera".into(),
            feature: "a secret door".into(),
            at: GridPos::new(3, 2),
        };
        assert_eq!(finds(&app).contains(&door), found, "pole {pole:?}: {log}");
        if found {
            assert!(
                log.contains("Searching (methodical): d20")
                    && log.contains("+4 (methodical search)"),
                "{log}"
            );
        }
    }
}

/// Dungeon Delves › Searching: "The Judge might apply bonuses or penalties to the roll
/// depending on ... the degree of concealment of the hidden features": a secret door written
/// with the Judge's `Concealment` in the level carries it into every Searching throw for it.
#[test]
fn a_secret_doors_concealment_is_written_in_the_level() {
    let door = "doors: [(at: (3, 2), secret: true, judge: { Concealment: -3 })],";
    let mut app = app(&format!("{SURE}, gear: [TenFootPole]"), door);
    give(
        app.world_mut(),
        Command::Search(Search { who: "Sera".into() }),
    );
    run_rounds(app.world_mut(), 10);
    let search = app
        .world()
        .resource::<EventLog>()
        .of::<delve_rules::rules::throws::ThrowEvent>()
        .map(|delve_rules::rules::throws::ThrowEvent::Threw { throw, .. }| throw)
        .find(|t| t.what.starts_with("Searching (methodical)"))
        .cloned()
        .unwrap_or_else(|| panic!("no methodical search:\n{}", text(&app)));
    assert!(
        search
            .modifiers
            .contains(&delve_ground::dice::Modifier::new(-3, "Judge: concealment")),
        "{search:?}"
    );
}

/// A found secret door works like any other door.
#[test]
fn a_found_secret_door_can_be_opened() {
    let mut app = app(&format!("{SURE}, gear: [TenFootPole]"), SECRET);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (2, 1),
            pace: Pace::Combat,
        }),
    );
    run_round(app.world_mut());
    give(
        app.world_mut(),
        Command::OpenDoor(OpenDoor {
            who: "Sera".into(),
            at: (3, 2),
        }),
    );
    run_round(app.world_mut());
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Sera",
            &DoorRefusal::NoKnownDoor {
                at: GridPos::new(3, 2)
            }
        ),
        "{}",
        text(&app)
    );
    give(
        app.world_mut(),
        Command::Search(Search { who: "Sera".into() }),
    );
    run_rounds(app.world_mut(), 10);
    give(
        app.world_mut(),
        Command::OpenDoor(OpenDoor {
            who: "Sera".into(),
            at: (3, 2),
        }),
    );
    run_round(app.world_mut());
    let world = app.world_mut();
    let door = world.query::<&Door>().single(world).unwrap().clone();
    assert!(!door.secret && door.state == delve_ground::grid::DoorState::Open);
}

/// A thief exploring past a hidden pit searches for it by itself, and finds it before it
/// reaches the pit's square.
#[test]
fn a_thief_exploring_past_a_pit_finds_it_before_stepping_on_it() {
    let pit = "traps: [(at: (6, 1), kind: Pit(depth_feet: 20))],";
    let mut app = app(SURE, pit);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (10, 1),
            pace: Pace::Exploration,
        }),
    );
    let sera = app.world().resource::<CreatureIndex>().0["Sera"];
    let mut found_at = None;
    for _ in 0..6 {
        run_round(app.world_mut());
        let found = app
            .world()
            .resource::<EventLog>()
            .entries()
            .iter()
            .any(|e| {
                e.get::<SearchEvent>()
                    .is_some_and(|ev| matches!(ev, SearchEvent::Found { .. }))
            });
        if found && found_at.is_none() {
            found_at = Some(app.world().get::<Position>(sera).unwrap().0);
        }
    }
    let at = found_at.unwrap_or_else(|| panic!("{}", text(&app)));
    assert!(at.x < 6, "found from {at}, before the pit");
    assert!(text(&app).contains("Searching (hasty, while exploring)"));
    let world = app.world_mut();
    assert!(!world.query::<&Trap>().single(world).unwrap().hidden);
}

/// Dungeon Delves › Searching: "If the throw succeeds, the thief notices the hidden feature
/// (and if it's a trap, he notices it before triggering it)." Sera explores from (1, 1) onto the
/// hidden pit at (5, 1) (two squares a round): the round she reaches it her search, made after
/// the walk, finds it — and she stops short of it at (4, 1), with no 1d6 for it.
#[test]
fn a_thief_who_notices_a_trap_does_not_set_it_off() {
    use delve_rules::rules::movement::{HaltReason, MovementEvent};
    use delve_rules::rules::traps::TrapEvent;
    let pit = "traps: [(at: (5, 1), kind: Pit(depth_feet: 20))],";
    let mut app = app(SURE, pit);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (10, 1),
            pace: Pace::Exploration,
        }),
    );
    run_rounds(app.world_mut(), 2);
    let log = app.world().resource::<EventLog>();
    let found = log
        .of::<SearchEvent>()
        .any(|e| matches!(e, SearchEvent::Found { at, .. } if *at == GridPos::new(5, 1)));
    assert!(found, "{}", text(&app));
    assert_eq!(
        log.of::<TrapEvent>().count(),
        0,
        "no chance of setting it off: {}",
        text(&app)
    );
    let halted = log.of::<MovementEvent>().any(|e| {
        matches!(
            e,
            MovementEvent::Halted { who, at, reason: HaltReason::Noticed { at: trap } }
                if who == "Sera" && *at == GridPos::new(4, 1) && *trap == GridPos::new(5, 1)
        )
    });
    assert!(halted, "{}", text(&app));
    let sera = app.world().resource::<CreatureIndex>().0["Sera"];
    assert_eq!(
        app.world().get::<Position>(sera).unwrap().0,
        GridPos::new(4, 1)
    );
}

#[test]
fn hasty_searches_are_for_thieves_and_once_per_level() {
    let mut app = app("", SECRET);
    give(
        app.world_mut(),
        Command::SearchHastily(SearchHastily { who: "Sera".into() }),
    );
    run_round(app.world_mut());
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Sera",
            &SearchRefusal::NotASearcher
        ),
        "{}",
        text(&app)
    );
    let mut app = self::app(
        ", proficiencies: [Searching], throws: { Searching: 25 }",
        SECRET,
    );
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (2, 1),
            pace: Pace::Combat,
        }),
    );
    run_round(app.world_mut());
    give(
        app.world_mut(),
        Command::SearchHastily(SearchHastily { who: "Sera".into() }),
    );
    run_round(app.world_mut());
    give(
        app.world_mut(),
        Command::SearchHastily(SearchHastily { who: "Sera".into() }),
    );
    run_round(app.world_mut());
    let log = text(&app);
    assert!(log.contains("Searching (hasty): d20"), "{log}");
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Sera",
            &SearchRefusal::SearchedHereHastily
        ),
        "{log}"
    );
    assert!(
        !log.contains("finds"),
        "a failed search reveals nothing: {log}"
    );
}

/// The hasty Searching throws in the log.
fn hasty_throws(app: &App) -> usize {
    app.world()
        .resource::<EventLog>()
        .of::<delve_rules::rules::throws::ThrowEvent>()
        .filter(
            |delve_rules::rules::throws::ThrowEvent::Threw { throw, .. }| {
                throw.what.starts_with("Searching (hasty")
            },
        )
        .count()
}

/// Dungeon Delves › Searching: a thief "cannot repeat the attempt to hastily search the same area
/// again until he reaches a higher experience level" — a secret door missed in a hasty search is
/// not searched for hastily again from the next square either.
#[test]
fn a_missed_feature_is_not_searched_for_hastily_again_from_another_square() {
    let mut app = app(
        ", proficiencies: [Searching], throws: { Searching: 25 }",
        SECRET,
    );
    for x in [2, 4] {
        give(
            app.world_mut(),
            Command::Move(Move {
                who: "Sera".into(),
                to: (x, 1),
                pace: Pace::Combat,
            }),
        );
        run_round(app.world_mut());
        give(
            app.world_mut(),
            Command::SearchHastily(SearchHastily { who: "Sera".into() }),
        );
        run_round(app.world_mut());
    }
    assert_eq!(hasty_throws(&app), 1, "{}", text(&app));
    assert!(!delve_rules::command::was_refused(
        app.world().resource::<EventLog>(),
        "Sera",
        &SearchRefusal::SearchedHereHastily
    ));
}

/// Dungeon Delves › Searching: the exploring thief's search by itself counts as a failed hasty
/// search of what it missed; and it checks every square it passes in a round, not only the one
/// where the round ends.
#[test]
fn the_exploring_thiefs_search_covers_every_square_passed_and_counts_as_hasty() {
    // 300' a turn: 30' a round, from (1, 1) to (7, 1); the door at (3, 2) is within 5' only of
    // (2, 1), (3, 1) and (4, 1).
    let explorer = |searching: i32| {
        app(
            &format!(
                ", speed_feet: 300, proficiencies: [Searching], throws: {{ Searching: {searching} }}"
            )
            .replace("encumbrance_stone: 2.0, ", ""),
            SECRET,
        )
    };
    let mut app = explorer(1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (10, 1),
            pace: Pace::Exploration,
        }),
    );
    run_round(app.world_mut());
    let sera = app.world().resource::<CreatureIndex>().0["Sera"];
    assert_eq!(
        app.world().get::<Position>(sera).unwrap().0,
        GridPos::new(7, 1)
    );
    assert!(
        app.world()
            .resource::<EventLog>()
            .of::<SearchEvent>()
            .any(|e| matches!(e, SearchEvent::Found { at, .. } if *at == GridPos::new(3, 2))),
        "{}",
        text(&app)
    );
    // Missed while exploring: a hasty search from beside it throws nothing for it.
    let mut app = explorer(25);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Sera".into(),
            to: (3, 1),
            pace: Pace::Exploration,
        }),
    );
    run_round(app.world_mut());
    assert_eq!(hasty_throws(&app), 1);
    give(
        app.world_mut(),
        Command::SearchHastily(SearchHastily { who: "Sera".into() }),
    );
    run_round(app.world_mut());
    assert_eq!(hasty_throws(&app), 1, "{}", text(&app));
}

/// Dungeon Delves › Searching: "if the throw succeeds, the adventurer notices any hidden
/// features within the area he searched" — one throw for the search, not one per feature. Two
/// features at 18+ (a methodical search by Adventuring) are found together on an 18 and missed
/// together on a 17: both found 15% of the time, not 2.25%.
#[test]
fn one_searching_throw_notices_every_hidden_feature() {
    let both = "doors: [(at: (3, 2), secret: true)], \
                traps: [(at: (2, 1), kind: Pit(depth_feet: 10), hidden: true)],";
    for (die, found) in [(18, 2), (17, 0)] {
        let mut delve = delve_play::scenario::Delve {
            app: app(", gear: [TenFootPole]", both),
        };
        delve.give(Search { who: "Sera".into() });
        delve.run(9);
        delve.script_dice(&[die]);
        delve.run(1);
        let throws = delve.throws_for(delve_rules::rules::throws::Skill::Proficiency(
            delve_ground::level::schema::Proficiency::Searching,
        ));
        assert_eq!(throws.len(), 2, "each feature read against the one die");
        assert!(throws.iter().all(|t| t.natural == die && t.target == 18));
        let finds = delve.events::<SearchEvent>().len();
        assert_eq!(finds, found, "{}", delve.log().to_text());
    }
}

/// Dungeon Delves › Searching and › Marching Order: the fighter leading has walked onto the
/// corridor's dead end (the shrine behind a secret door beyond it), the thief behind it. The
/// party does not let the fighter search with its poor throw: the thief goes to the front —
/// the fighter steps back a place — and searches there.
#[test]
fn the_thief_comes_forward_to_search_the_dead_end_its_leader_stands_on() {
    use delve_rules::rules::party::PartyEvent;
    let mut delve = delve_play::scenario::Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXX",
        "X..............+.....X",
        "XXXXXXXXXXXXXXXX.....X",
        "XXXXXXXXXXXXXXXXXXXXXX",
    ])
    .legend("'+': Door")
    .door("(at: (15, 1), material: Stone, secret: true)")
    .light("(at: (7, 1), kind: Custom(bright_feet: 200, dim_feet: 300), lit: true)")
    .faction(r#"(name: "party", marching_order: ["Hild", "Pell"])"#)
    .creature(
        r#"(name: "Hild", faction: "party", at: (14, 1), level: 2, class: "fighter", hp: 14,
            ac: 16, encumbrance_stone: 6.0)"#,
    )
    .creature(
        r#"(name: "Pell", faction: "party", at: (13, 1), level: 2, class: "thief", hp: 7,
            ac: 13, encumbrance_stone: 2.5, proficiencies: [Searching],
            throws: { Searching: 14 })"#,
    )
    .field("goal: Room((19, 1))")
    .build();
    crate::autonomy::hand_over(
        &mut delve,
        delve_ground::party_policy::PartyPolicy::default(),
    );
    delve.run(3);
    assert!(
        delve.events::<PartyEvent>().iter().any(|e| matches!(
            e,
            PartyEvent::WentToTheFront { who, .. } if who == "Pell"
        )),
        "{}",
        delve.log().to_text()
    );
    assert_eq!(delve.at("Pell"), delve_ground::grid::GridPos::new(14, 1));
    assert_eq!(delve.at("Hild"), delve_ground::grid::GridPos::new(13, 1));
    delve.run(20);
    let searches = delve.throws_for(delve_rules::rules::throws::Skill::Proficiency(
        delve_ground::level::schema::Proficiency::Searching,
    ));
    assert!(!searches.is_empty(), "{}", delve.log().to_text());
}

/// Dungeon Delves › Searching: some features are only partly hidden and "permit a hasty throw
/// even for non-thieves". Sera (no Searching) is offered a hasty search only within reach of
/// the partly hidden door; she throws 18+ (the table's Adventuring target) for it alone — the
/// fully hidden pit beside her is not hers to find hastily — and cannot repeat it. Elsewhere,
/// still "not permitted".
#[test]
fn a_partly_hidden_feature_permits_anyone_a_hasty_search() {
    let features = "doors: [(at: (3, 2), secret: true, hasty_for_anyone: true)], \
                    traps: [(at: (5, 1), kind: Pit(depth_feet: 10), hidden: true)],";
    let mut delve = delve_play::scenario::Delve {
        app: app("", features),
    };
    let hasty = |delve: &delve_play::scenario::Delve| {
        delve_rules::rules::choices_for(delve.world(), delve.entity("Sera"))
            .into_iter()
            .any(|(_, c)| c.way == "search hastily")
    };
    assert!(
        !hasty(&delve),
        "10' from the door: nothing partly hidden within 5'"
    );
    delve.act(SearchHastily { who: "Sera".into() });
    assert!(delve.was_refused("Sera", &SearchRefusal::NotASearcher));
    // Beside the door (5' diagonally) and the pit.
    let sera = delve.entity("Sera");
    delve.world_mut().get_mut::<Position>(sera).unwrap().0 = GridPos::new(4, 1);
    assert!(hasty(&delve));
    delve.script_dice(&[18]);
    delve.act(SearchHastily { who: "Sera".into() });
    let throws = delve.throws_for(delve_rules::rules::throws::Skill::Proficiency(
        delve_ground::level::schema::Proficiency::Searching,
    ));
    assert_eq!(
        throws
            .iter()
            .map(|t| (t.target, t.success))
            .collect::<Vec<_>>(),
        vec![(18, true)],
        "one throw, for the door only"
    );
    assert_eq!(
        delve.events::<SearchEvent>(),
        vec![SearchEvent::Found {
            who: "Sera".into(),
            feature: "a secret door".into(),
            at: GridPos::new(3, 2)
        }]
    );
    assert!(!hasty(&delve), "not again here at her level");
}
