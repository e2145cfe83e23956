//! The party marching as one (Dungeon Delves › Marching Order): closing up behind its leader
//! without two on a square, and a member going to the front while the others step back.

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_play::scenario::Scenario;
use delve_play::sim::{give, run_round, sim_app};
use delve_rules::command::Command;
use delve_rules::command::acts::MoveParty;
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::movement::Pace;

fn entity(app: &App, name: &str) -> Entity {
    app.world().resource::<CreatureIndex>().0[name]
}

/// Dungeon Delves › Marching Order: the party walks as one. Sent across the crypt's pillared
/// hall, no two of its members ever stand on one square, and when the leader stops the
/// followers close up behind it rather than stopping where they were.
#[test]
fn the_party_closes_up_and_never_shares_a_square() {
    let mut app = sim_app(&crate::common::sample("levels/crypt.ron"), 1);
    give(
        app.world_mut(),
        Command::MoveParty(MoveParty {
            party: "party".into(),
            to: (20, 4),
            pace: Pace::Exploration,
        }),
    );
    let names = ["Brannoc", "Sera", "Aldric", "Mirela"];
    let at = |app: &App| -> Vec<GridPos> {
        names
            .iter()
            .map(|n| app.world().get::<Position>(entity(app, n)).unwrap().0)
            .collect()
    };
    for round in 0..30 {
        run_round(app.world_mut());
        let squares = at(&app);
        for (i, a) in squares.iter().enumerate() {
            for (j, b) in squares.iter().enumerate().skip(i + 1) {
                assert_ne!(
                    a, b,
                    "round {round}: {} and {} share {a}",
                    names[i], names[j]
                );
            }
        }
    }
    let parties = app.world().resource::<delve_rules::rules::party::Parties>();
    assert_eq!(parties.0[0].pace, None, "the march has ended");
    let squares = at(&app);
    let leader = squares[0];
    assert_eq!(leader, GridPos::new(20, 4));
    for (n, p) in names.iter().zip(&squares).skip(1) {
        let off = (p.x - leader.x).abs().max((p.y - leader.y).abs());
        assert!(
            off <= 3,
            "{n} at {p} is {off} squares from the leader at {leader}"
        );
    }
}

/// Dungeon Delves › Marching Order: in a corridor one square wide, the thief at the back goes
/// to the front in one order — it takes the leader's square, the two it passes step back a
/// place each, and it leads the march. The leader is offered no such thing; nor is one whose
/// way forward is longer than its combat speed.
#[test]
fn the_thief_goes_to_the_front_and_the_others_step_aside() {
    use delve_rules::rules::party::{PartyEvent, ToTheFront};
    let build = |pell_at: (i32, i32)| {
        // (Six stone carried: combat speed 30'.)
        Scenario::new(&["XXXXXXXXXXX", "X.........X", "XXXXXXXXXXX"])
            .faction(r#"(name: "party", marching_order: ["Hild", "Oswin", "Pell"])"#)
            .creature(r#"(name: "Hild", faction: "party", at: (8, 1), hp: 14, ac: 16, encumbrance_stone: 6.0)"#)
            .creature(r#"(name: "Oswin", faction: "party", at: (7, 1), hp: 11, ac: 15, encumbrance_stone: 6.0)"#)
            .creature(&format!(
                r#"(name: "Pell", faction: "party", at: {pell_at:?}, hp: 7, ac: 13, encumbrance_stone: 6.0)"#
            ))
            .build()
    };
    let mut delve = build((6, 1));
    let offered = |delve: &delve_play::scenario::Delve, who: &str| -> Vec<String> {
        delve_rules::rules::choices_for(delve.world(), delve.entity(who))
            .into_iter()
            .map(|(_, c)| c.way)
            .collect()
    };
    let front = "go to the front and lead the march".to_owned();
    assert!(offered(&delve, "Pell").contains(&front));
    assert!(
        !offered(&delve, "Hild").contains(&front),
        "the leader leads"
    );
    delve.act(ToTheFront { who: "Pell".into() });
    assert_eq!(delve.at("Pell"), GridPos::new(8, 1));
    assert_eq!(delve.at("Hild"), GridPos::new(7, 1));
    assert_eq!(delve.at("Oswin"), GridPos::new(6, 1));
    let parties = delve
        .world()
        .resource::<delve_rules::rules::party::Parties>();
    assert_eq!(parties.0[0].leader(), Some(delve.entity("Pell")));
    assert!(delve.events::<PartyEvent>().iter().any(|e| matches!(
        e,
        PartyEvent::WentToTheFront { who, .. } if who == "Pell"
    )));
    // Pell 35' back: more than its combat speed of 30'.
    let mut far = build((1, 1));
    assert!(!offered(&far, "Pell").contains(&front));
    far.act(ToTheFront { who: "Pell".into() });
    assert!(
        far.was_refused(
            "Pell",
            &delve_rules::rules::party::PartyRefusal::TooFarToStepAside {
                name: "Pell".into(),
                feet: 35,
                speed: 30,
            }
        ),
        "{:?}",
        far.last_refusal()
    );
    assert_eq!(far.at("Pell"), GridPos::new(1, 1));
}
