//! Tasks for part of the party (Dungeon Delves › Climbing: only those proficient in Climbing or
//! Mountaineering tackle sheer surfaces; a rope secured makes an easy climb for all): the gym's
//! shafts (`levels/gym/shaft.ron`, `levels/gym/climbers.ron`), and a member who stays behind
//! while its party marches (`rules::party::StayBehind`).

use delve_ground::log::EventLog;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::Intent;
use delve_minds::policy::party::PolicyEvent;
use delve_play::scenario::Scenario;
use delve_rules::command::acts::{MoveParty, StayBehind};
use delve_rules::rules::caving::CavingEvent;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::party::{PartyEvent, PartyRefusal, StayingBehind};

fn gym(file: &str, seed: u64) -> bevy::prelude::App {
    crate::common::play_level(file, seed, 2000)
}

fn outcome(log: &EventLog) -> Option<Outcome> {
    log.of::<PolicyEvent>().find_map(|e| match e {
        PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
        _ => None,
    })
}

fn intents(log: &EventLog) -> Vec<Intent> {
    log.of::<PolicyEvent>()
        .filter_map(|e| match e {
            PolicyEvent::Decided { intent, .. } => Some(intent.clone()),
            _ => None,
        })
        .collect()
}

/// Who climbed down into the shaft, and on what surface.
fn climbs_down(log: &EventLog) -> Vec<(String, delve_ground::level::schema::Surface)> {
    log.of::<CavingEvent>()
        .filter_map(|e| match e {
            CavingEvent::ClimbBegun {
                who,
                surface,
                down: true,
                ..
            } => Some((who.clone(), *surface)),
            _ => None,
        })
        .collect()
}

/// The relic lies with an eel at the foot of a 30' sheer shaft; Ada (a mountaineer) and Pim
/// climb sheer rock, Hild in chain does not, and Ada carries a rope. Lowered first, the rope
/// makes the climb an easy one for every adventurer (8+): the plan is the whole party's — no
/// one is left at the top — and every climb is down or up the rope; the first across fells the
/// eel, and once the relic is in hand no one else climbs down for it. (Before, a party crossed
/// a shaft only when every member climbed sheer rock, and this one gave up in every delve.)
#[test]
fn a_rope_lowered_into_the_shaft_takes_the_whole_party_down_to_the_goal() {
    // The plan holds in every delve; the dice decide the fight at the bottom (the lab reaches
    // the goal in 98% of 200 delves): here in at least 8 delves of 10 (no seed is singled out:
    // a rule's change to the dice drawn changes which delves the eel wins).
    let mut reached = 0;
    for seed in 1..=10 {
        let app = gym("levels/gym/shaft.ron", seed);
        let log = app.world().resource::<EventLog>();
        assert!(
            log.of::<CavingEvent>()
                .any(|e| matches!(e, CavingEvent::RopeLowered { who, .. } if who == "Ada")),
            "seed {seed}: the rope lowered first"
        );
        assert!(
            !intents(log)
                .iter()
                .any(|i| matches!(i, Intent::SendAhead { .. })),
            "seed {seed}: no one is left at the top"
        );
        let down = climbs_down(log);
        assert!(
            !down.is_empty()
                && down
                    .iter()
                    .all(|(_, surface)| *surface == delve_ground::level::schema::Surface::Easy),
            "seed {seed}: every climb down is the rope's: {down:?}"
        );
        // (The goal met; a climber who fell back into the shaft may be left there.)
        if outcome(log).is_some_and(Outcome::goal_met) {
            reached += 1;
        }
    }
    assert!(reached >= 8, "the goal in {reached} delves of 10");
}

/// The same shaft with no rope in the party: the two thieves who climb sheer rock go down, and
/// Hild, who cannot, stays behind at the top (she never climbs, and holds her square while they
/// march below); they fell the eel, bring the relic back up, and she falls in again before the
/// party goes home together.
#[test]
fn without_a_rope_the_climbers_fetch_the_relic_while_the_fighter_waits_at_the_top() {
    // The plan holds in every delve; the dice decide the climbs (a thief who falls back into
    // the shaft again and again is left there dying: 9% of 200 delves, before and after the
    // climbing noise's change): the party comes home whole in at least 7 delves of 10.
    let mut whole = 0;
    for seed in 1..=10 {
        let app = gym("levels/gym/climbers.ron", seed);
        let log = app.world().resource::<EventLog>();
        let text = log.to_text();
        assert!(
            outcome(log).is_some_and(Outcome::goal_met),
            "seed {seed}\n{text}"
        );
        let sent = intents(log).into_iter().find_map(|i| match i {
            Intent::SendAhead {
                who, wait, past, ..
            } => Some((who, wait, past)),
            _ => None,
        });
        assert_eq!(
            sent,
            Some((
                vec!["Pim".to_string(), "Tam".to_string()],
                vec!["Hild".to_string()],
                // (Past the shaft at (10, 2): the landing beyond it, where Hild has no way.)
                delve_ground::grid::GridPos::new(11, 3)
            )),
            "seed {seed}\n{text}"
        );
        assert!(
            !climbs_down(log).iter().any(|(who, _)| who == "Hild"),
            "seed {seed}: Hild never climbs\n{text}"
        );
        let stays: Vec<(String, bool)> = log
            .of::<PartyEvent>()
            .filter_map(|e| match e {
                PartyEvent::StaysBehind { who, stay, .. } => Some((who.clone(), *stay)),
                _ => None,
            })
            .collect();
        assert_eq!(
            stays,
            vec![("Hild".to_string(), true), ("Hild".to_string(), false)],
            "seed {seed}: she stays behind, then falls in\n{text}"
        );
        // The relic came up the shaft with them, and Hild is with the party at the way in.
        if app
            .world()
            .resource::<delve_minds::policy::party::DelveEnd>()
            .0
            .as_ref()
            .is_some_and(|(_, _, tally)| tally.left_behind.is_empty())
        {
            whole += 1;
        }
    }
    assert!(whole >= 7, "home whole in {whole} delves of 10");
}

/// Dungeon Delves › Marching Order, the rules' side of a split: a member told to stay behind
/// holds its square while its party marches, and its speed (8 stone here) does not slow the
/// march; told to fall in, it follows its leader again. Told twice, the rules say it already
/// does.
#[test]
fn a_member_who_stays_behind_holds_its_square_until_it_falls_in() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXX",
        "X................X",
        "XXXXXXXXXXXXXXXXXX",
    ])
    .light("(at: (8, 1), kind: Custom(bright_feet: 80, dim_feet: 90), lit: true)")
    .faction(r#"(name: "party", marching_order: ["Lead", "Slow"])"#)
    .creature(
        r#"(name: "Lead", faction: "party", at: (2, 1), hp: 5, ac: 12, encumbrance_stone: 2.0)"#,
    )
    .creature(
        r#"(name: "Slow", faction: "party", at: (1, 1), hp: 5, ac: 12, encumbrance_stone: 8.0)"#,
    )
    .build();
    delve.act(StayBehind {
        who: "Slow".into(),
        stay: true,
    });
    assert!(delve.get::<StayingBehind>("Slow").is_some());
    delve.act(StayBehind {
        who: "Slow".into(),
        stay: true,
    });
    assert!(delve.was_refused("Slow", &PartyRefusal::AlreadyStaying { stay: true }));
    delve.give(MoveParty {
        party: "party".into(),
        to: (12, 1),
        pace: Pace::Combat,
    });
    delve.run(1);
    // Lead alone sets the pace: 2 stone is 40' a round at combat speed (8 stone would be 20').
    assert_eq!(delve.at("Lead").x, 10, "{}", delve.log().to_text());
    delve.run(2);
    assert_eq!(delve.at("Slow"), delve_ground::grid::GridPos::new(1, 1));
    delve.act(StayBehind {
        who: "Slow".into(),
        stay: false,
    });
    assert!(delve.get::<StayingBehind>("Slow").is_none());
    delve.give(MoveParty {
        party: "party".into(),
        to: (14, 1),
        pace: Pace::Combat,
    });
    delve.run(3);
    assert!(delve.at("Slow").x > 1, "{}", delve.log().to_text());
    let offered: Vec<String> = delve_rules::rules::choices_for(delve.world(), delve.entity("Slow"))
        .into_iter()
        .map(|(_, c)| c.way)
        .collect();
    assert!(
        offered.contains(&"stay behind here while the party marches".to_string()),
        "{offered:?}"
    );
}
