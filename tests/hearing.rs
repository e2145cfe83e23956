//! Noise and hearing: Dungeon Delves › Listening and the Earshot by Sound and Environment table.

use bevy::prelude::*;
use delve::command::acts::{Listen, MakeNoise, Move, MoveParty, Noise, Sneak};
use delve::command::{Command, CommandEvent};
use delve::creature::{CreatureIndex, Position};
use delve::grid::GridPos;
use delve::level::load_level_str;
use delve::log::EventLog;
use delve::rules::sound::SoundRefusal;
use delve::rules::throws::ThrowEvent;

use delve::rules::movement::Pace;
use delve::rules::sound::SoundRow;
use delve::sim::{give, run_round, run_rounds, sim_app};

fn throws(app: &App) -> Vec<(String, String)> {
    app.world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .filter_map(|e| match e.get::<ThrowEvent>()? {
            ThrowEvent::Threw { who, throw } if throw.what.starts_with("Listening") => {
                Some((who.clone(), throw.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn noise(at: (i32, i32), sound: SoundRow, what: &str) -> Command {
    Command::MakeNoise(MakeNoise {
        at,
        sound,
        what: what.into(),
    })
}

const CORRIDOR: &str = r#"(name: "hall", environment: Normal,
    legend: { 'X': Wall(Stone), '.': Floor },
    map: ["XXXXXXXXXXXXXXX", "X.............X", "XXXXXXXXXXXXXXX"],
    factions: [(name: "party", marching_order: ["Near", "Far"])],
    creatures: [
        (name: "Near", faction: "party", at: (3, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
         carries: [(kind: Torch, lit: true)]),
        (name: "Far", faction: "party", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
         proficiencies: [Alertness]),
    ])"#;

/// Talking (normal) in a normal dungeon: heard automatically within 5', with a throw within 20'.
/// Only the party member closest to the sound throws.
#[test]
fn only_the_closest_party_member_throws() {
    let level = load_level_str(CORRIDOR, "hall.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(app.world_mut(), noise((1, 1), SoundRow::Normal, "voices"));
    run_round(app.world_mut());
    let t = throws(&app);
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(t[0].0, "Near", "10' away beats 15'");
    assert!(t[0].1.contains("vs 18+"), "Adventuring: {}", t[0].1);
    // A noise nearer Far: Far throws, at 14+ with Alertness.
    give(app.world_mut(), noise((7, 1), SoundRow::Normal, "voices"));
    run_round(app.world_mut());
    let t = throws(&app);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[1].0, "Far");
    assert!(
        t[1].1.contains("Adventuring + Alertness") && t[1].1.contains("vs 14+"),
        "{}",
        t[1].1
    );
}

#[test]
fn automatic_within_the_first_number_and_nothing_beyond_the_second() {
    let level = load_level_str(CORRIDOR, "hall.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(app.world_mut(), noise((2, 1), SoundRow::Normal, "a cough"));
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains("Near hears a normal noise near (2, 0) (automatically): a cough"),
        "{log}"
    );
    give(
        app.world_mut(),
        noise((13, 1), SoundRow::Normal, "far voices"),
    );
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        !log.contains("hears a normal noise near (12, 0)"),
        "40' is beyond 20': {log}"
    );
    assert!(!log.contains("for far voices"), "no throw either: {log}");
}

/// Passive listening is once per turn; active listening too while the party moves.
#[test]
fn listening_is_once_per_turn_while_the_party_moves() {
    let level = load_level_str(CORRIDOR, "hall.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(app.world_mut(), noise((1, 1), SoundRow::Normal, "first"));
    run_round(app.world_mut());
    give(app.world_mut(), noise((1, 1), SoundRow::Normal, "second"));
    run_round(app.world_mut());
    assert_eq!(
        throws(&app).len(),
        1,
        "the closest member has listened this turn: {:?}",
        throws(&app)
    );
    // Active listening while the party moves: once per turn.
    give(
        app.world_mut(),
        Command::MoveParty(MoveParty {
            party: "party".into(),
            to: (6, 1),
            pace: Pace::Exploration,
        }),
    );
    give(
        app.world_mut(),
        Command::Listen(Listen { who: "Near".into() }),
    );
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve::command::was_refused(
            app.world().resource::<EventLog>(),
            "Near",
            &SoundRefusal::ListenedThisTurn
        ),
        "{log}"
    );
    // The next turn it may.
    run_rounds(app.world_mut(), 8);
    give(
        app.world_mut(),
        Command::Listen(Listen { who: "Near".into() }),
    );
    give(app.world_mut(), noise((9, 1), SoundRow::Normal, "third"));
    run_round(app.world_mut());
    let t = throws(&app);
    assert!(
        t.iter()
            .any(|(w, what)| w == "Near" && what.contains("third")),
        "{t:?}"
    );
}

#[test]
fn deafened_creatures_hear_nothing() {
    let src = CORRIDOR.replace(
        "proficiencies: [Alertness]",
        "proficiencies: [Alertness], conditions: [Deafened]",
    );
    let level = load_level_str(&src, "hall.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(app.world_mut(), noise((5, 1), SoundRow::Loud, "a shout"));
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(log.contains("Near hears a loud noise"), "{log}");
    assert!(!log.contains("Far hears"), "{log}");
}

/// A monster hears the party bashing a door two rooms away and comes to look; one in a pocket
/// behind solid rock hears nothing and stays.
#[test]
fn a_monster_hears_bashing_two_rooms_away_and_arrives_but_not_through_rock() {
    let src = r#"(name: "rooms", environment: Quiet,
        legend: { ' ': Rock, 'X': Wall(Stone), '.': Floor, '+': Door },
        map: [
            "                         ",
            " XXXXXXXXXXXXXXXXX       ",
            " X.....X.....X...X   ... ",
            " X.....+.....+...X   ... ",
            " X.....X.....X...X   ... ",
            " XXXXXXXXXXXXXXXXX       ",
            "                         ",
        ],
        doors: [(at: (7, 3)), (at: (13, 3), state: Open)],
        factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
        creatures: [
            (name: "Basher", faction: "party", at: (6, 3), hp: 9, ac: 12, encumbrance_stone: 4.0,
             carries: [(kind: Torch, lit: true)]),
            (name: "Ghoul", template: "ghoul", faction: "ghouls", at: (15, 3)),
            (name: "Hermit", template: "ghoul", faction: "ghouls", at: (22, 3)),
        ])"#;
    let level = load_level_str(src, "rooms.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    give(
        app.world_mut(),
        noise((7, 3), SoundRow::Loud, "Basher bashing the door"),
    );
    run_rounds(app.world_mut(), 6);
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains(
            "Ghoul hears a loud noise near (6, 2) (automatically): Basher bashing the door"
        ),
        "{log}"
    );
    let index = app.world().resource::<CreatureIndex>().0.clone();
    let at = |n: &str| app.world().get::<Position>(index[n]).unwrap().0;
    assert_eq!(at("Ghoul").x, 8, "at the door, on its own side: {log}");
    assert!(log.contains("Ghoul arrives at"), "{log}");
    assert!(!log.contains("Hermit hears"), "{log}");
    assert_eq!(at("Hermit"), GridPos::new(22, 3));
}

/// A monster that sees a light comes toward it; one that cannot see it stays.
#[test]
fn a_monster_that_sees_a_light_comes_toward_it() {
    let src = r#"(name: "lamplight", environment: Loud,
        legend: { ' ': Rock, 'X': Wall(Stone), '.': Floor },
        map: [
            "XXXXXXXXXXXXXXXXXXXX",
            "X..................X",
            "XXXXXXXXXXXXXXXXXX.X",
            "                 X.X",
            "                 X.X",
            "                 XXX",
        ],
        factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
        creatures: [
            (name: "Bearer", faction: "party", at: (1, 1), hp: 9, ac: 12, encumbrance_stone: 4.0,
             carries: [(kind: Lantern, lit: true)]),
            (name: "Seer", template: "ghoul", faction: "ghouls", at: (16, 1)),
            (name: "Blind Corner", template: "ghoul", faction: "ghouls", at: (18, 4)),
        ])"#;
    let level = load_level_str(src, "lamplight.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    run_rounds(app.world_mut(), 3);
    let index = app.world().resource::<CreatureIndex>().0.clone();
    let at = |app: &App, n: &str| app.world().get::<Position>(index[n]).unwrap().0;
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        at(&app, "Seer").x < 16,
        "it comes toward the lantern: {log}"
    );
    assert_eq!(
        at(&app, "Blind Corner"),
        GridPos::new(18, 4),
        "round the corner it sees nothing: {log}"
    );
}

/// Earshot table footnote: a proficient character succeeding on a Sneaking throw makes no noise.
#[test]
fn a_proficient_sneaker_who_succeeds_makes_no_noise() {
    let src = |sneaking: i32| {
        format!(
            r#"(name: "sneak", environment: Quiet, legend: {{ 'X': Wall(Stone), '.': Floor }},
            map: ["XXXXXXXXXX", "X........X", "XXXXXXXXXX"],
            factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
            creatures: [
                (name: "Wren", faction: "party", at: (1, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
                 proficiencies: [Sneaking], throws: {{ Sneaking: {sneaking} }}, shadowy_senses: true),
                (name: "Ghoul", template: "ghoul", faction: "ghouls", at: (5, 1)),
            ])"#
        )
    };
    for (target, heard) in [(1, false), (21, true)] {
        let level = load_level_str(&src(target), "sneak.ron", None)
            .unwrap()
            .level;
        let mut app = sim_app(&level, 1);
        give(
            app.world_mut(),
            Command::Sneak(Sneak {
                who: "Wren".into(),
                on: true,
            }),
        );
        give(
            app.world_mut(),
            Command::Move(Move {
                who: "Wren".into(),
                to: (3, 1),
                pace: Pace::Exploration,
            }),
        );
        run_rounds(app.world_mut(), 3);
        let log = app.world().resource::<EventLog>().to_text();
        assert!(log.contains("Wren throws Sneaking"), "{log}");
        assert_eq!(
            log.contains("Ghoul throws Listening (Adventuring) for Wren moving"),
            heard,
            "Sneaking {target}+: {log}"
        );
    }
}

#[test]
fn creatures_make_the_noise_of_what_they_do() {
    use delve::rules::sound::NoisyAction;
    // Near is of another faction: no one listens for its own faction's noises.
    let level = load_level_str(
        &CORRIDOR
            .replace(
                r#"factions: [(name: "party", marching_order: ["Near", "Far"])]"#,
                r#"factions: [(name: "party"), (name: "hermits")]"#,
            )
            .replace(
                r#"(name: "Near", faction: "party""#,
                r#"(name: "Near", faction: "hermits""#,
            ),
        "hall.ron",
        None,
    )
    .unwrap()
    .level;
    let mut app = sim_app(&level, 1);
    give(
        app.world_mut(),
        Command::Noise(Noise {
            who: "Far".into(),
            action: NoisyAction::Talking,
        }),
    );
    run_round(app.world_mut());
    let talk = Command::Noise(Noise {
        who: "Far".into(),
        action: NoisyAction::Talking,
    });
    assert!(
        app.world().resource::<EventLog>().of::<CommandEvent>().any(
            |e| matches!(e, CommandEvent::CommandAccepted { command, .. } if *command == talk)
        )
    );
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        log.contains("Near hears a normal noise near (4, 0) (automatically): Far talking"),
        "{log}"
    );
    assert!(
        !log.contains("Far hears"),
        "one does not hear oneself: {log}"
    );
}

/// RULINGS › Noise and hearing: a creature does not listen for the noises of its own faction.
/// A party walking together at combat speed (a normal noise each round) hears none of its own
/// steps and throws no Listening for them; a ghoul of another faction nearby hears them.
#[test]
fn a_party_does_not_listen_to_its_own_footsteps() {
    let mut delve = delve::scenario::Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXX",
        "X..................X",
        "XXXXXXXXXXXXXXXXXXXX",
    ])
    .field("environment: Normal")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls")"#)
    .creature(
        r#"(name: "Ada", faction: "party", at: (1, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
            carries: [(kind: Torch, lit: true)])"#,
    )
    .creature(
        r#"(name: "Bo", faction: "party", at: (2, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#,
    )
    .creature(r#"(name: "Ghoul", template: "ghoul", faction: "ghouls", at: (15, 1))"#)
    .build();
    for (who, to) in [("Ada", (11, 1)), ("Bo", (12, 1))] {
        delve.give(Move {
            who: who.into(),
            to,
            pace: Pace::Combat,
        });
    }
    delve.run(3);
    let heard = delve.events::<delve::rules::sound::HearingEvent>();
    assert!(
        !heard.iter().any(|e| matches!(
            e,
            delve::rules::sound::HearingEvent::Heard { who, .. } if who == "Ada" || who == "Bo"
        )),
        "{heard:?}"
    );
    let listening: Vec<String> = delve
        .log()
        .of::<ThrowEvent>()
        .filter(|ThrowEvent::Threw { throw, .. }| throw.what.starts_with("Listening"))
        .map(|ThrowEvent::Threw { who, .. }| who.clone())
        .collect();
    assert!(listening.iter().all(|w| w == "Ghoul"), "{listening:?}");
    // The ghoul, of another faction, does listen: with a throw, or hearing it outright.
    let ghoul_heard = heard.iter().any(
        |e| matches!(e, delve::rules::sound::HearingEvent::Heard { who, .. } if who == "Ghoul"),
    );
    assert!(
        ghoul_heard || !listening.is_empty(),
        "{}",
        delve.log().to_text()
    );
}
