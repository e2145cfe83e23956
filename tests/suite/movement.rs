//! Movement, time and the party: the numbers of Dungeon Delves › Speed and Distance, Marching and
//! Mapping, Rest and Recuperation, and the prone rule of the situational penalties.

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_play::scenario::Scenario;
use delve_rules::command::Command;
use delve_rules::command::CommandEvent;
use delve_rules::command::acts::{Halt, Move, MoveParty, Rest, StandUp};
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::conditions::ConditionEvent;
use delve_rules::rules::movement::{HaltReason, MoveRefusal, MovementEvent};
use delve_rules::rules::party::PartyEvent;
use delve_rules::rules::rest::RestEvent;
use delve_rules::rules::throws::ThrowEvent;

use delve_play::sim::{give, run_round, run_rounds, sim_app};
use delve_rules::creature::Conditions;
use delve_rules::rules::conditions::effective_ac;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::penalties::{CheckKind, penalties_for};

/// A level from map rows (`:` is rubble) and creature entries, with a `party` faction (its
/// other fields in `party`) and a `foes` faction.
pub(crate) fn level(rows: &[&str], creatures: &str, party: &str) -> delve_ground::level::Level {
    Scenario::new(rows)
        .legend("':': Rubble")
        .faction(&format!(r#"(name: "party"{party})"#))
        .faction(r#"(name: "foes")"#)
        .creature(creatures)
        .level()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn entity(app: &App, name: &str) -> Entity {
    app.world().resource::<CreatureIndex>().0[name]
}

pub(crate) fn conditions(app: &App, name: &str) -> Conditions {
    app.world()
        .get::<Conditions>(entity(app, name))
        .unwrap()
        .clone()
}

fn at(app: &App, name: &str) -> GridPos {
    app.world().get::<Position>(entity(app, name)).unwrap().0
}

/// Every event of one type in the log, in order.
pub(crate) fn events<T: Clone + 'static>(app: &App) -> Vec<T> {
    app.world()
        .resource::<EventLog>()
        .of::<T>()
        .cloned()
        .collect()
}

pub(crate) fn runner(con: i32, paralysis: i32, extra: &str) -> String {
    format!(
        "(name: \"Runner\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], con: {con}, encumbrance_stone: 2.0, \
         saves: {{ Paralysis: {paralysis} }}{extra})"
    )
}

pub(crate) fn long_corridor() -> Vec<String> {
    let wall = "X".repeat(400);
    let floor = format!("X{}X", ".".repeat(398));
    vec![wall.clone(), floor, wall]
}

pub(crate) fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn running_disorders_until_the_next_initiative() {
    let corridor = long_corridor();
    let l = level(&rows(&corridor), &runner(10, 1, ""), "");
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (300, 1),
            pace: Pace::Running,
        }),
    );
    run_round(app.world_mut());
    assert_eq!(
        at(&app, "Runner"),
        GridPos::new(25, 1),
        "120' = 24 squares in a round"
    );
    let c = conditions(&app, "Runner");
    assert!(c.has(ConditionKind::Disordered));
    assert_eq!(effective_ac(12, &c).0, 10, "disordered: −2 AC");
    // At the start of its next initiative the disorder ends; running again renews it.
    give(
        app.world_mut(),
        Command::Halt(Halt {
            who: "Runner".into(),
        }),
    );
    run_round(app.world_mut());
    assert!(!conditions(&app, "Runner").has(ConditionKind::Disordered));
    assert!(events(&app).iter().any(|e| matches!(
        e,
        ConditionEvent::ConditionLost {
            condition: ConditionKind::Disordered,
            ..
        }
    )));
}

/// Dungeon Delves › Running: saves start after 10 ± CON modifier rounds of running.
#[test]
fn long_run_saves_start_after_ten_rounds_plus_or_minus_con() {
    for (con, first_save_after) in [(7, 9), (10, 10), (16, 12)] {
        let corridor = long_corridor();
        let l = level(&rows(&corridor), &runner(con, 1, ""), "");
        let mut app = sim_app(&l, 3);
        give(
            app.world_mut(),
            Command::Move(Move {
                who: "Runner".into(),
                to: (398, 1),
                pace: Pace::Running,
            }),
        );
        run_rounds(app.world_mut(), 14);
        let saves: Vec<String> = events(&app)
            .into_iter()
            .map(|ThrowEvent::Threw { throw, .. }: ThrowEvent| throw.what)
            .collect();
        assert_eq!(
            saves.first().map(String::as_str),
            Some(format!("Paralysis save after {first_save_after} rounds of running").as_str()),
            "CON {con}: {saves:?}"
        );
        assert_eq!(
            saves.len() as u32,
            14 - first_save_after + 1,
            "CON {con}: one save each further round"
        );
    }
}

#[test]
fn a_failed_long_run_save_winds_and_a_turn_of_rest_ends_it() {
    let corridor = long_corridor();
    // Paralysis 25: every save fails.
    let l = level(&rows(&corridor), &runner(10, 25, ""), "");
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
    let c = conditions(&app, "Runner");
    assert!(
        c.has(ConditionKind::Winded),
        "winded after the save of round 10"
    );
    assert_eq!(
        c.get(ConditionKind::Winded).unwrap().source,
        "running too long"
    );
    // Winded creatures cannot run.
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (398, 1),
            pace: Pace::Running,
        }),
    );
    // It walks on at combat speed instead: this turn is not one of rest.
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (398, 1),
            pace: Pace::Combat,
        }),
    );
    run_round(app.world_mut());
    assert!(events(&app).iter().any(
        |e| matches!(e, CommandEvent::CommandRefused { reason, .. } if reason.is(&MoveRefusal::WindedCannotRun))
    ));
    // A turn of rest ends it.
    give(
        app.world_mut(),
        Command::Rest(Rest {
            who: "Runner".into(),
        }),
    );
    run_rounds(app.world_mut(), 9);
    assert!(
        conditions(&app, "Runner").has(ConditionKind::Winded),
        "nine rounds are not a turn"
    );
    run_round(app.world_mut());
    assert!(!conditions(&app, "Runner").has(ConditionKind::Winded));
    assert!(
        events(&app)
            .iter()
            .any(|e| matches!(e, RestEvent::Rested { who } if who == "Runner"))
    );
}

#[test]
fn running_into_difficult_terrain_without_the_save_falls_prone_half_way() {
    let l = level(
        &[
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "X.........::::::::::..............X",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ],
        &runner(10, 25, ""),
        "",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (33, 1),
            pace: Pace::Running,
        }),
    );
    run_round(app.world_mut());
    // 120' pays for 8 squares of floor (40') and 8 of rubble (80' at double cost): 16 squares,
    // 80' of ground in all. Falling half-way, it lies 40' from the start.
    assert_eq!(at(&app, "Runner"), GridPos::new(9, 1));
    let c = conditions(&app, "Runner");
    assert!(c.has(ConditionKind::Prone));
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains("Paralysis save, running in difficult terrain"),
        "{log}"
    );
    let halted = app
        .world()
        .resource::<EventLog>()
        .of::<MovementEvent>()
        .find_map(|e| match e {
            MovementEvent::Halted { who, at, reason } if who == "Runner" => Some((*at, *reason)),
            _ => None,
        });
    assert_eq!(
        halted,
        Some((GridPos::new(9, 1), HaltReason::FellProne)),
        "{log}"
    );
}

#[test]
fn running_needs_a_straight_line_or_gentle_curve() {
    let l = level(
        &["XXXXXX", "X....X", "XXXX.X", "XXXX.X", "XXXXXX"],
        &runner(10, 10, ""),
        "",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Runner".into(),
            to: (4, 3),
            pace: Pace::Running,
        }),
    );
    run_round(app.world_mut());
    assert!(events(&app).iter().any(
        |e| matches!(e, CommandEvent::CommandRefused { reason, .. } if matches!(reason.get(), Some(MoveRefusal::SharpTurn { .. })))
    ));
    assert_eq!(at(&app, "Runner"), GridPos::new(1, 1));
}

#[test]
fn monsters_idling_in_their_lair_do_not_tire() {
    let l = level(
        &["XXXXX", "X...X", "XXXXX"],
        "(name: \"Ghoul\", faction: \"foes\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], speed_feet: 90)",
        "",
    );
    let mut app = sim_app(&l, 1);
    run_rounds(app.world_mut(), 80);
    assert!(!conditions(&app, "Ghoul").has(ConditionKind::Winded));
}

/// Situational Penalties › Prone: the penalty lasts to the end of the round of standing up.
#[test]
fn prone_penalty_still_applies_in_the_round_the_creature_stood_up() {
    let l = level(
        &["XXXXX", "X...X", "XXXXX"],
        "(name: \"Down\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0, conditions: [Prone])",
        "",
    );
    let mut app = sim_app(&l, 1);
    let e = entity(&app, "Down");
    let penalty = |app: &App, kind| {
        penalties_for(app.world(), e, kind)
            .unwrap()
            .iter()
            .map(|m| m.value)
            .sum::<i32>()
    };
    assert_eq!(penalty(&app, CheckKind::Action), -4);
    assert_eq!(penalty(&app, CheckKind::Resistance), 0);
    give(
        app.world_mut(),
        Command::StandUp(StandUp { who: "Down".into() }),
    );
    // Run the round up to its conditions phase: commands are taken, the creature stands.
    delve_rules::command::dispatch_commands(app.world_mut());
    assert!(conditions(&app, "Down").has(ConditionKind::Prone));
    assert_eq!(
        penalty(&app, CheckKind::Action),
        -4,
        "still −4 in the round it stood up"
    );
    run_round(app.world_mut());
    assert!(
        !conditions(&app, "Down").has(ConditionKind::Prone),
        "gone when the round ends"
    );
    assert_eq!(penalty(&app, CheckKind::Action), 0);
}

/// Dungeon Delves › Marching and Mapping: single file in corridors 5' wide, two columns where
/// wider, the party following its leader at the pace of the slowest member.
#[test]
fn the_party_switches_from_single_file_to_two_columns_where_the_corridor_widens() {
    let map = [
        "XXXXXXXXXXXXXXXXXXXXXXXX",
        "X..XXXXXXXXXXXXXXXXXXXXX",
        "X.................XXXXXX",
        "X..XXXXXXXXX......XXXXXX",
        "XXXXXXXXXXXX......XXXXXX",
        "XXXXXXXXXXXXXXXXXXXXXXXX",
    ];
    // The corridor on row 2 is one square (5') wide from x = 3 to x = 11; the hall beyond it is
    // three squares wide.
    let creatures = "(name: \"Lead\", faction: \"party\", at: (2, 2), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0),\n\
                     (name: \"Second\", faction: \"party\", at: (1, 2), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0),\n\
                     (name: \"Third\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 8.0),\n\
                     (name: \"Fourth\", faction: \"party\", at: (1, 3), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0)";
    let l = level(
        &map,
        creatures,
        ", marching_order: [\"Lead\", \"Second\", \"Third\", \"Fourth\"], mapper: \"Third\"",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::MoveParty(MoveParty {
            party: "party".into(),
            to: (16, 3),
            pace: Pace::Combat,
        }),
    );
    let mut formations = Vec::new();
    let mut corridor_checked = false;
    for _ in 0..12 {
        run_round(app.world_mut());
        let lead = at(&app, "Lead");
        if (6..=10).contains(&lead.x) && lead.y == 2 && !corridor_checked {
            // In the corridor everyone is on row 2, in marching order.
            let xs: Vec<i32> = ["Lead", "Second", "Third", "Fourth"]
                .iter()
                .map(|n| at(&app, n).x)
                .collect();
            assert!(xs.windows(2).all(|w| w[0] > w[1]), "single file: {xs:?}");
            corridor_checked = true;
        }
        for e in events(&app) {
            if let PartyEvent::FormationChanged { formation, .. } = e
                && formations.last() != Some(&formation)
            {
                formations.push(formation);
            }
        }
    }
    assert!(
        corridor_checked,
        "the leader passed through the corridor\n{}",
        app.world().resource::<EventLog>().to_text()
    );
    use delve_rules::rules::party::Formation;
    assert_eq!(
        formations.last(),
        Some(&Formation::TwoColumns),
        "{formations:?}"
    );
    assert!(formations.contains(&Formation::TwoColumns));
    // In the hall, the second member walks beside the leader.
    let (lead, second) = (at(&app, "Lead"), at(&app, "Second"));
    assert_eq!(
        lead.x.abs_diff(second.x).max(lead.y.abs_diff(second.y)),
        1,
        "side by side (across a diagonal heading, diagonally): {lead} and {second}"
    );
    // The slowest member (8 stone: 20' a round) sets the pace.
    let log = app.world().resource::<EventLog>();
    assert!(
        log.of::<PartyEvent>().any(|e| matches!(e, PartyEvent::MarchBegun { leader, feet_per_round, .. } if leader == "Lead" && *feet_per_round == 20.0)),
        "{}",
        log.to_text()
    );
    // The mapper is vulnerable.
    let third = conditions(&app, "Third");
    assert_eq!(
        third
            .get(ConditionKind::Vulnerable)
            .map(|c| c.source.as_str()),
        Some("mapping: both hands busy")
    );
}

#[test]
fn exploring_records_its_benefits() {
    use delve_rules::rules::movement::ExplorationBenefits;
    let l = level(
        &["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"],
        "(name: \"Thief\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0, proficiencies: [Searching], gear: [TenFootPole])",
        "",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Thief".into(),
            to: (10, 1),
            pace: Pace::Exploration,
        }),
    );
    run_round(app.world_mut());
    let b = *app
        .world()
        .get::<ExplorationBenefits>(entity(&app, "Thief"))
        .unwrap();
    assert!(b.probing_with_pole && b.hasty_searching && b.quiet && b.concentrating && !b.mapping);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Thief".into(),
            to: (1, 1),
            pace: Pace::Combat,
        }),
    );
    run_round(app.world_mut());
    let b = *app
        .world()
        .get::<ExplorationBenefits>(entity(&app, "Thief"))
        .unwrap();
    assert_eq!(b, ExplorationBenefits::default(), "combat speed loses them");
}

#[test]
fn difficult_terrain_costs_double() {
    let l = level(
        &["XXXXXXXXXXXX", "X::::::::::X", "XXXXXXXXXXXX"],
        "(name: \"Slow\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0)",
        "",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Slow".into(),
            to: (10, 1),
            pace: Pace::Combat,
        }),
    );
    run_round(app.world_mut());
    // 40' of combat speed buys 4 squares of rubble at 10' each.
    assert_eq!(at(&app, "Slow"), GridPos::new(5, 1));
}

/// Dungeon Delves › Running: every member of a running party runs by the running rules, not only
/// its leader — each is disordered, counts its rounds of running toward the 10 ± CON saves, and
/// saves for difficult terrain; a winded member cannot run, so neither can the party.
#[test]
fn every_member_of_a_running_party_runs_by_the_running_rules() {
    let corridor = long_corridor();
    let member = |name: &str, x: i32, paralysis: i32| {
        format!(
            "(name: \"{name}\", faction: \"party\", at: ({x}, 1), hp: 5, ac: 12, con: 10, \
             carries: [(kind: Lantern, lit: true)], encumbrance_stone: 2.0, \
             saves: {{ Paralysis: {paralysis} }})"
        )
    };
    let creatures = format!("{},\n{}", member("Lead", 2, 1), member("Follow", 1, 25));
    let l = level(
        &rows(&corridor),
        &creatures,
        ", marching_order: [\"Lead\", \"Follow\"]",
    );
    let mut app = sim_app(&l, 1);
    let run = Command::MoveParty(MoveParty {
        party: "party".into(),
        to: (398, 1),
        pace: Pace::Running,
    });
    give(app.world_mut(), run.clone());
    run_round(app.world_mut());
    assert!(conditions(&app, "Follow").has(ConditionKind::Disordered));
    run_rounds(app.world_mut(), 9);
    // CON 10: saves from the tenth round of running; Paralysis 25 always fails.
    assert!(conditions(&app, "Follow").has(ConditionKind::Winded));
    assert!(!conditions(&app, "Lead").has(ConditionKind::Winded));
    assert!(events(&app).iter().any(|e| matches!(
        e,
        PartyEvent::StoppedRunning { winded, .. } if winded == "Follow"
    )));
    let stopped = at(&app, "Lead");
    run_rounds(app.world_mut(), 2);
    assert_eq!(at(&app, "Lead"), stopped, "the party stopped running");
    give(app.world_mut(), run);
    run_round(app.world_mut());
    assert!(events(&app).iter().any(|e| matches!(
        e,
        CommandEvent::CommandRefused { reason, .. }
            if reason.get::<delve_rules::rules::party::PartyRefusal>().is_some_and(|r| matches!(
                r,
                delve_rules::rules::party::PartyRefusal::MemberCannot { name, why: MoveRefusal::WindedCannotRun }
                    if name == "Follow"
            ))
    )));

    // Rubble ahead: the leader makes its save, the follower fails and falls prone half-way.
    let l = level(
        &[
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "X.....::::::::::::::..............X",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ],
        &creatures,
        ", marching_order: [\"Lead\", \"Follow\"]",
    );
    let mut app = sim_app(&l, 1);
    give(
        app.world_mut(),
        Command::MoveParty(MoveParty {
            party: "party".into(),
            to: (33, 1),
            pace: Pace::Running,
        }),
    );
    run_rounds(app.world_mut(), 2);
    assert!(conditions(&app, "Follow").has(ConditionKind::Prone));
    assert!(!conditions(&app, "Lead").has(ConditionKind::Prone));
    let saves: Vec<(String, bool)> = events::<ThrowEvent>(&app)
        .iter()
        .filter(|ThrowEvent::Threw { skill, .. }| {
            *skill
                == delve_rules::rules::throws::Skill::Save(
                    delve_ground::level::schema::SaveCategory::Paralysis,
                )
        })
        .map(|ThrowEvent::Threw { who, throw, .. }| (who.clone(), throw.success))
        .collect();
    assert!(saves.contains(&("Follow".to_owned(), false)), "{saves:?}");
}

/// Dungeon Delves › Combat speed: a party exploring at combat speed "loses the ability to … map".
/// The mapper carries a torch down a dark corridor: at exploration speed its map grows with what
/// it sees; at combat speed nothing new is mapped.
#[test]
fn at_combat_speed_the_mapper_does_not_map() {
    let corridor = long_corridor();
    let mapped_after = |pace: Pace| {
        let l = level(
            &rows(&corridor),
            "(name: \"Scribe\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, \
             carries: [(kind: Torch, lit: true)], encumbrance_stone: 2.0)",
            ", marching_order: [\"Scribe\"], mapper: \"Scribe\"",
        );
        let mut app = sim_app(&l, 1);
        let mapped = |app: &App| {
            let maps = app
                .world()
                .resource::<delve_rules::rules::vision::PartyMaps>();
            maps.0
                .iter()
                .find(|m| m.party == "party")
                .map_or(0, |m| m.mapped.iter().filter(|&&b| b).count())
        };
        let before = mapped(&app);
        give(
            app.world_mut(),
            Command::MoveParty(MoveParty {
                party: "party".into(),
                to: (398, 1),
                pace,
            }),
        );
        run_rounds(app.world_mut(), 10);
        assert!(at(&app, "Scribe").x > 10, "{pace} moved it on");
        (before, mapped(&app))
    };
    let (before, exploring) = mapped_after(Pace::Exploration);
    assert!(before > 0 && exploring > before, "{before} → {exploring}");
    let (before, hurrying) = mapped_after(Pace::Combat);
    assert_eq!(hurrying, before, "nothing mapped at combat speed");
}

/// Dungeon Delves › Marching and Mapping: the mapper "must use both hands for mapping". Walking
/// the dark corridor with a torch at exploration speed, the mapper maps what it sees; carrying
/// a dying companion the same way (its hands holding him), it maps nothing.
#[test]
fn a_mapper_whose_hands_are_busy_does_not_map() {
    let corridor = long_corridor();
    let mapped_after = |carrying: bool| {
        let l = level(
            &rows(&corridor),
            "(name: \"Scribe\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, str: 16, \
             carries: [(kind: Torch, lit: true)], encumbrance_stone: 1.0), \
             (name: \"Hurt\", faction: \"party\", at: (2, 1), hp: 5, ac: 12, \
             encumbrance_stone: 1.0, conditions: [Dying])",
            ", marching_order: [\"Scribe\", \"Hurt\"], mapper: \"Scribe\"",
        );
        let mut app = sim_app(&l, 1);
        let mapped = |app: &App| {
            let maps = app
                .world()
                .resource::<delve_rules::rules::vision::PartyMaps>();
            maps.0
                .iter()
                .find(|m| m.party == "party")
                .map_or(0, |m| m.mapped.iter().filter(|&&b| b).count())
        };
        if carrying {
            give(
                app.world_mut(),
                Command::Carry(delve_rules::command::acts::Carry {
                    who: "Scribe".into(),
                    whom: "Hurt".into(),
                    with: None,
                }),
            );
            run_round(app.world_mut());
            assert!(
                app.world()
                    .get::<delve_rules::rules::carrying::Holding>(
                        app.world().resource::<CreatureIndex>().0["Scribe"]
                    )
                    .is_some()
            );
        }
        let before = mapped(&app);
        give(
            app.world_mut(),
            Command::Move(Move {
                who: "Scribe".into(),
                to: (60, 1),
                pace: Pace::Exploration,
            }),
        );
        run_rounds(app.world_mut(), 10);
        assert!(at(&app, "Scribe").x > 5, "it walked on");
        (before, mapped(&app))
    };
    let (before, free) = mapped_after(false);
    assert!(before > 0 && free > before, "{before} → {free}");
    let (before, carrying) = mapped_after(true);
    assert_eq!(carrying, before, "nothing mapped with its hands full");
}

/// Dungeon Delves › Marching and Mapping, with the Judge's `mapping_errors` on: at the end of a
/// turn of mapping the Judge's secret 1d6 puts an error in the map on a 1; a mapper with the
/// Mapping proficiency gets the Judge's secret Mapping throw to notice it (12 against 10: put
/// right), one without "has no opportunity to passively detect errors" (the error stays).
#[test]
fn the_judge_throws_for_mapping_errors() {
    let corridor = long_corridor();
    let map_a_turn = |scribe: &str| {
        let mut l = level(
            &rows(&corridor),
            &format!(
                "(name: \"Scribe\", faction: \"party\", at: (1, 1), hp: 5, ac: 12, \
                 carries: [(kind: Torch, lit: true)], encumbrance_stone: 2.0{scribe})"
            ),
            ", marching_order: [\"Scribe\"], mapper: \"Scribe\"",
        );
        l.judge.mapping_errors = true;
        let mut app = delve_play::scenario::Delve {
            app: sim_app(&l, 1),
        };
        app.give(MoveParty {
            party: "party".into(),
            to: (398, 1),
            pace: Pace::Exploration,
        });
        app.run(9);
        app.script_dice(&[1, 12]);
        app.run(1);
        let errors = app
            .world()
            .resource::<delve_rules::rules::vision::PartyMaps>()
            .0[0]
            .errors
            .len();
        let event = app
            .events::<delve_rules::rules::vision::VisionEvent>()
            .into_iter()
            .find(|e| matches!(e, delve_rules::rules::vision::VisionEvent::MapError { .. }));
        (errors, event)
    };
    let (errors, event) = map_a_turn(", proficiencies: [Mapping], throws: { Mapping: 10 }");
    assert_eq!(errors, 0);
    assert!(matches!(
        event,
        Some(delve_rules::rules::vision::VisionEvent::MapError {
            noticed: Some(true),
            ..
        })
    ));
    let (errors, event) = map_a_turn("");
    assert!(errors > 0);
    assert!(matches!(
        event,
        Some(delve_rules::rules::vision::VisionEvent::MapError { noticed: None, .. })
    ));
}
