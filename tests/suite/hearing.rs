//! Noise and hearing: Dungeon Delves › Listening, the Earshot by Sound and Environment table, and
//! RULINGS › Noise and hearing.

use delve_ground::dice::Throw;
use delve_ground::grid::GridPos;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::CommandEvent;
use delve_rules::command::acts::{Listen, MakeNoise, Move, MoveParty, Noise, Sneak};
use delve_rules::rules::movement::{MovementEvent, Pace};
use delve_rules::rules::sound::{HearingEvent, HowHeard, NoiseKind, SoundRefusal, SoundRow};
use delve_rules::rules::throws::{Skill, ThrowEvent};

/// Every Listening throw, by whom.
fn listening(delve: &Delve) -> Vec<(String, Throw)> {
    delve
        .log()
        .of::<ThrowEvent>()
        .filter(|ThrowEvent::Threw { skill, .. }| {
            *skill == Skill::Proficiency(delve_ground::level::schema::Proficiency::Listening)
        })
        .map(|ThrowEvent::Threw { who, throw, .. }| (who.clone(), throw.clone()))
        .collect()
}

/// Every noise heard: who heard what, how.
fn heard(delve: &Delve) -> Vec<(String, String, HowHeard)> {
    delve
        .events::<HearingEvent>()
        .into_iter()
        .map(|HearingEvent::Heard { who, what, how, .. }| (who, what, how))
        .collect()
}

fn noise(at: (i32, i32), sound: SoundRow, what: &str) -> MakeNoise {
    MakeNoise {
        at,
        sound,
        what: what.into(),
    }
}

/// A corridor 13 squares long in a dungeon of the given environment; Near at (3, 1) with a
/// torch, Far at (4, 1) with Alertness, both of the party.
fn corridor(environment: &str) -> Scenario {
    Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXXXXX",
        "X.......................X",
        "XXXXXXXXXXXXXXXXXXXXXXXXX",
    ])
    .field(&format!("environment: {environment}"))
    .faction(r#"(name: "party", marching_order: ["Near", "Far"])"#)
    .creature(
        r#"(name: "Near", faction: "party", at: (3, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
                carries: [(kind: Torch, lit: true)])"#,
    )
    .creature(
        r#"(name: "Far", faction: "party", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
                proficiencies: [Alertness])"#,
    )
}

/// Talking (normal) in a normal dungeon: heard automatically within 5', with a throw within 20'.
/// Only the party member closest to the sound throws: 18+ by Adventuring, 14+ with Alertness.
#[test]
fn only_the_closest_party_member_throws() {
    let mut delve = corridor("Normal").build();
    delve.act(noise((1, 1), SoundRow::Normal, "voices"));
    let t = listening(&delve);
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(t[0].0, "Near", "10' away beats 15'");
    assert_eq!(t[0].1.target, 18, "Adventuring");
    // A noise nearer Far: Far throws, at 14+ with Alertness (the party stands still: it may
    // listen again this round).
    delve.act(noise((7, 1), SoundRow::Normal, "voices"));
    let t = listening(&delve);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[1].0, "Far");
    assert_eq!(t[1].1.target, 14, "Adventuring + Alertness");
}

#[test]
fn automatic_within_the_first_number_and_nothing_beyond_the_second() {
    let mut delve = corridor("Normal").build();
    delve.act(noise((2, 1), SoundRow::Normal, "a cough"));
    assert_eq!(
        delve.events::<HearingEvent>(),
        vec![HearingEvent::Heard {
            who: "Near".into(),
            sound: SoundRow::Normal,
            noise: NoiseKind::Judge,
            made_by: None,
            what: "a cough".into(),
            roughly_at: GridPos::new(2, 0),
            how: HowHeard::Automatically,
        }]
    );
    assert!(listening(&delve).is_empty(), "heard outright: no throw");
    delve.act(noise((13, 1), SoundRow::Normal, "far voices"));
    assert_eq!(heard(&delve).len(), 1, "40' is beyond 20'");
    assert!(listening(&delve).is_empty(), "no throw either");
}

/// Dungeon Delves › Listening: "If the throw succeeds, the adventurer hears any noises in
/// earshot" — one throw covers every noise in earshot that round (RULINGS › Noise and hearing).
#[test]
fn one_listening_throw_covers_every_noise_in_earshot() {
    for (face, hears) in [(18, true), (17, false)] {
        let mut delve = corridor("Normal").build();
        delve.script_dice(&[face]);
        delve.give(noise((1, 1), SoundRow::Normal, "voices"));
        delve.act(noise((2, 1), SoundRow::Quiet, "a whisper"));
        let t = listening(&delve);
        assert_eq!(t.len(), 1, "one throw for both: {t:?}");
        assert_eq!((t[0].0.as_str(), t[0].1.natural), ("Near", face));
        let heard = heard(&delve);
        if hears {
            assert_eq!(
                heard,
                vec![
                    ("Near".into(), "voices".into(), HowHeard::WithAThrow),
                    ("Near".into(), "a whisper".into(), HowHeard::WithAThrow),
                ]
            );
        } else {
            assert!(heard.is_empty(), "{heard:?}");
        }
    }
}

/// Dungeon Delves › Listening: the adventurer must be the closest creature in the party to the
/// sound. A closest member who heard it automatically counts as the one who listened: no one
/// else throws for it.
#[test]
fn only_the_closest_listens_and_hearing_it_outright_counts() {
    let mut delve = corridor("Normal").build();
    // 5' from Near (automatic), 10' from Far (a throw, were Far the closest).
    delve.act(noise((2, 1), SoundRow::Normal, "a cough"));
    assert!(listening(&delve).is_empty(), "{:?}", listening(&delve));
    assert_eq!(
        heard(&delve),
        vec![("Near".into(), "a cough".into(), HowHeard::Automatically)]
    );
    // Far listening actively, but Near is the closer: Far throws (the Judge throws in secret)
    // and hears nothing, whatever its die.
    delve.script_dice(&[20, 20]);
    delve.give(Listen { who: "Far".into() });
    delve.act(noise((1, 1), SoundRow::Normal, "voices"));
    let t = listening(&delve);
    assert!(t.iter().any(|(w, th)| w == "Far" && th.success), "{t:?}");
    assert_eq!(
        heard(&delve)[1..],
        [("Near".into(), "voices".into(), HowHeard::WithAThrow)]
    );
}

/// Dungeon Delves › Listening: listening "can only be undertaken once per turn if the party is
/// moving at all"; a party standing still may listen every round (RULINGS).
#[test]
fn a_party_standing_still_listens_every_round() {
    let mut delve = corridor("Normal").build();
    for k in 0..3 {
        delve.act(noise((1, 1), SoundRow::Normal, &format!("voices {k}")));
    }
    let near: Vec<_> = listening(&delve)
        .into_iter()
        .filter(|(w, _)| w == "Near")
        .collect();
    assert_eq!(near.len(), 3, "{near:?}");
}

#[test]
fn listening_is_once_per_turn_while_the_party_moves() {
    // A quiet crypt: talking is heard with a throw up to 80'.
    let mut delve = corridor("Quiet").build();
    delve.give(MoveParty {
        party: "party".into(),
        to: (8, 1),
        pace: Pace::Exploration,
    });
    for k in 0..3 {
        delve.act(noise((23, 1), SoundRow::Normal, &format!("voices {k}")));
    }
    let t = listening(&delve);
    assert_eq!(t.len(), 1, "the party is moving: {t:?}");
    // Active listening while the party moves: once per turn too. Far has not listened this
    // turn: it may, once.
    delve.act(Listen { who: "Far".into() });
    assert!(!delve.was_refused("Far", &SoundRefusal::ListenedThisTurn));
    assert_eq!(listening(&delve).len(), 2);
    delve.act(Listen { who: "Far".into() });
    assert!(delve.was_refused("Far", &SoundRefusal::ListenedThisTurn));
    // The next turn the closest listens again, and the throw covers the noise of that round.
    let round = delve.world().resource::<delve_ground::time::Clock>().rounds;
    delve.run(10 - round % 10);
    delve.act(noise((23, 1), SoundRow::Normal, "third"));
    let t = listening(&delve);
    assert_eq!(t.len(), 3, "{t:?}");
    assert!(t[2].1.what.contains("third"), "{t:?}");
}

/// RULINGS › Noise and hearing: diagonal steps count 5-10-5 for sound as for walking, so talking
/// beside someone diagonally is heard outright (5'), not with a throw.
#[test]
fn talking_diagonally_beside_someone_is_heard_outright() {
    let mut delve = Scenario::new(&["XXXXX", "X...X", "X...X", "X...X", "XXXXX"])
        .field("environment: Normal")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "hermits")"#)
        .creature(r#"(name: "Ada", faction: "party", at: (1, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#)
        .creature(r#"(name: "Hob", faction: "hermits", at: (2, 2), hp: 5, ac: 10, encumbrance_stone: 2.0)"#)
        .build();
    delve.act(Noise {
        who: "Hob".into(),
        action: delve_rules::rules::sound::NoisyAction::Talking,
    });
    assert_eq!(
        heard(&delve),
        vec![("Ada".into(), "Hob talking".into(), HowHeard::Automatically)]
    );
    assert!(listening(&delve).is_empty());
}

#[test]
fn deafened_creatures_hear_nothing() {
    let mut delve = Scenario::new(&["XXXXXXXXX", "X.......X", "XXXXXXXXX"])
        .field("environment: Normal")
        .faction(r#"(name: "party")"#)
        .creature(r#"(name: "Near", faction: "party", at: (3, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#)
        .creature(
            r#"(name: "Far", faction: "party", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
                conditions: [Deafened])"#,
        )
        .build();
    delve.act(noise((5, 1), SoundRow::Loud, "a shout"));
    let who: Vec<String> = heard(&delve).into_iter().map(|(w, ..)| w).collect();
    assert_eq!(who, vec!["Near".to_owned()]);
}

/// A monster hears the party bashing a door two rooms away and comes to look; one in a pocket
/// behind solid rock hears nothing and stays.
#[test]
fn a_monster_hears_bashing_two_rooms_away_and_arrives_but_not_through_rock() {
    let mut delve = Scenario::new(&[
        "                         ",
        " XXXXXXXXXXXXXXXXX       ",
        " X.....X.....X...X   ... ",
        " X.....+.....+...X   ... ",
        " X.....X.....X...X   ... ",
        " XXXXXXXXXXXXXXXXX       ",
        "                         ",
    ])
    .legend("' ': Rock")
    .legend("'+': Door")
    .field("environment: Quiet")
    .door("(at: (7, 3))")
    .door("(at: (13, 3), state: Open)")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    .creature(
        r#"(name: "Basher", faction: "party", at: (6, 3), hp: 9, ac: 12, encumbrance_stone: 4.0,
            carries: [(kind: Torch, lit: true)])"#,
    )
    .creature(r#"(name: "Ghoul", template: "ghoul", faction: "ghouls", at: (15, 3))"#)
    .creature(r#"(name: "Hermit", template: "ghoul", faction: "ghouls", at: (22, 3))"#)
    .build();
    delve.give(noise((7, 3), SoundRow::Loud, "Basher bashing the door"));
    delve.run(6);
    let heard = delve.events::<HearingEvent>();
    assert!(
        heard.contains(&HearingEvent::Heard {
            who: "Ghoul".into(),
            sound: SoundRow::Loud,
            noise: NoiseKind::Judge,
            made_by: None,
            what: "Basher bashing the door".into(),
            roughly_at: GridPos::new(6, 2),
            how: HowHeard::Automatically,
        }),
        "{heard:?}"
    );
    assert_eq!(delve.at("Ghoul").x, 8, "at the door, on its own side");
    assert!(
        delve
            .events::<MovementEvent>()
            .iter()
            .any(|e| matches!(e, MovementEvent::Arrived { who, .. } if who == "Ghoul"))
    );
    assert!(
        !heard
            .iter()
            .any(|HearingEvent::Heard { who, .. }| who == "Hermit")
    );
    assert_eq!(delve.at("Hermit"), GridPos::new(22, 3));
}

/// A monster that sees a light comes toward it; one that cannot see it stays.
#[test]
fn a_monster_that_sees_a_light_comes_toward_it() {
    let mut delve = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXX",
        "X..................X",
        "XXXXXXXXXXXXXXXXXX.X",
        "                 X.X",
        "                 X.X",
        "                 XXX",
    ])
    .legend("' ': Rock")
    .field("environment: Loud")
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    // (Of another faction: no companion points the light out to it in the battle.)
    .faction(r#"(name: "lurkers", hostile_to: ["party"])"#)
    .creature(
        r#"(name: "Bearer", faction: "party", at: (1, 1), hp: 9, ac: 12, encumbrance_stone: 4.0,
            carries: [(kind: Lantern, lit: true)])"#,
    )
    .creature(r#"(name: "Seer", template: "ghoul", faction: "ghouls", at: (16, 1))"#)
    .creature(r#"(name: "Blind Corner", template: "ghoul", faction: "lurkers", at: (18, 4))"#)
    .build();
    delve.run(3);
    assert!(delve.at("Seer").x < 16, "it comes toward the lantern");
    assert_eq!(
        delve.at("Blind Corner"),
        GridPos::new(18, 4),
        "round the corner it sees nothing"
    );
}

/// Earshot table footnote: a proficient character succeeding on a Sneaking throw makes no noise.
#[test]
fn a_proficient_sneaker_who_succeeds_makes_no_noise() {
    for (target, heard) in [(1, false), (21, true)] {
        let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
            .field("environment: Quiet")
            .faction(r#"(name: "party")"#)
            .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
            .creature(&format!(
                r#"(name: "Wren", faction: "party", at: (1, 1), hp: 5, ac: 10,
                    encumbrance_stone: 2.0, proficiencies: [Sneaking],
                    throws: {{ Sneaking: {target} }}, shadowy_senses: true)"#
            ))
            .creature(r#"(name: "Ghoul", template: "ghoul", faction: "ghouls", at: (5, 1))"#)
            .build();
        delve.give(Sneak {
            who: "Wren".into(),
            on: true,
        });
        delve.give(Move {
            who: "Wren".into(),
            to: (3, 1),
            pace: Pace::Exploration,
        });
        delve.run(3);
        let throws: Vec<(String, Skill)> = delve
            .log()
            .of::<ThrowEvent>()
            .map(|ThrowEvent::Threw { who, skill, .. }| (who.clone(), *skill))
            .collect();
        assert!(
            throws.iter().any(|(w, s)| w == "Wren"
                && *s == Skill::Proficiency(delve_ground::level::schema::Proficiency::Sneaking)),
            "{throws:?}"
        );
        assert_eq!(
            listening(&delve)
                .iter()
                .any(|(w, t)| w == "Ghoul" && t.what.contains("Wren moving")),
            heard,
            "Sneaking {target}+: {throws:?}"
        );
    }
}

#[test]
fn creatures_make_the_noise_of_what_they_do() {
    use delve_rules::rules::sound::NoisyAction;
    // Near is of another faction: no one listens for its own faction's noises.
    let mut delve = Scenario::new(&["XXXXXXXXX", "X.......X", "XXXXXXXXX"])
        .field("environment: Normal")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "hermits")"#)
        .creature(r#"(name: "Near", faction: "hermits", at: (3, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#)
        .creature(r#"(name: "Far", faction: "party", at: (4, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#)
        .build();
    let talk = Noise {
        who: "Far".into(),
        action: NoisyAction::Talking,
    };
    delve.act(talk.clone());
    let talk = delve_rules::command::Command::Noise(talk);
    assert!(
        delve.log().of::<CommandEvent>().any(
            |e| matches!(e, CommandEvent::CommandAccepted { command, .. } if *command == talk)
        )
    );
    assert_eq!(
        delve.events::<HearingEvent>(),
        vec![HearingEvent::Heard {
            who: "Near".into(),
            sound: SoundRow::Normal,
            noise: NoiseKind::Action(NoisyAction::Talking),
            made_by: Some("Far".into()),
            what: "Far talking".into(),
            roughly_at: GridPos::new(4, 0),
            how: HowHeard::Automatically,
        }],
        "one does not hear oneself"
    );
}

/// RULINGS › Noise and hearing: a creature does not listen for the noises of its own faction.
/// A party walking together at combat speed (a normal noise each round) hears none of its own
/// steps and throws no Listening for them; a ghoul of another faction nearby hears them.
#[test]
fn a_party_does_not_listen_to_its_own_footsteps() {
    let mut delve = Scenario::new(&[
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
    let heard = heard(&delve);
    assert!(
        !heard.iter().any(|(w, ..)| w == "Ada" || w == "Bo"),
        "{heard:?}"
    );
    let listening = listening(&delve);
    assert!(listening.iter().all(|(w, _)| w == "Ghoul"), "{listening:?}");
    // The ghoul, of another faction, does listen: with a throw, or hearing it outright.
    assert!(heard.iter().any(|(w, ..)| w == "Ghoul") || !listening.is_empty());
}

/// Dungeon Delves › Listening: "an adventurer standing at a door, passageway, or intersection
/// can actively listen"; in the open of a room the command is refused with the typed reason,
/// while passive hearing goes on everywhere.
#[test]
fn active_listening_is_at_a_door_a_passage_or_an_intersection() {
    let rows = [
        "XXXXXXXXXXXX",
        "X......XXXXX",
        "X......+...X",
        "X......XXX.X",
        "XXXXXXXXX...",
        "XXXXXXXXXX.X",
    ];
    let grid_of = |rows: &[&str]| {
        Scenario::new(rows)
            .legend("'+': Door")
            .faction(r#"(name: "party")"#)
            .creature(r#"(name: "Far", faction: "party", at: (3, 2), hp: 6, ac: 10, encumbrance_stone: 1.0)"#)
            .build()
    };
    let mut delve = grid_of(&rows);
    let post = |delve: &Delve, x: i32, y: i32| {
        delve_rules::rules::sound::hearing::at_a_listening_post(
            delve.world().resource::<delve_ground::grid::DungeonGrid>(),
            delve_ground::grid::GridPos::new(x, y),
        )
    };
    assert!(!post(&delve, 3, 2), "the middle of the room");
    assert!(post(&delve, 6, 2), "beside the door");
    assert!(post(&delve, 8, 2), "in the passage");
    assert!(post(&delve, 10, 4), "at the crossing");
    delve.act(Listen { who: "Far".into() });
    assert!(delve.was_refused(
        "Far",
        &delve_rules::rules::sound::SoundRefusal::NotAtADoorOrPassage {
            at: delve_ground::grid::GridPos::new(3, 2)
        }
    ));
}

/// "Who heard that?" (`delve::query::who_heard`, the window's labels): for each noise of the
/// round just played, each creature in earshot with its verdict there, whether it heard, and
/// its Listening throw — talking in a normal dungeon from (1, 1): Near 10' away throws (18+ by
/// Adventuring) and hears it on an 18; Far, 15' away, in earshot with a throw, does not listen
/// (Near is the closer).
#[test]
fn who_heard_a_noise_names_each_listener_with_its_verdict_and_throw() {
    use delve::query::who_heard;
    use delve_rules::rules::sound::Verdict;
    for (face, hears) in [(18, true), (17, false)] {
        let mut delve = corridor("Normal").build();
        delve.script_dice(&[face]);
        delve.act(noise((1, 1), SoundRow::Normal, "voices"));
        let answer = who_heard(delve.app.world());
        assert_eq!(answer.len(), 1);
        let noise = &answer[0];
        assert_eq!(
            (noise.at, noise.what.as_str()),
            (GridPos::new(1, 1), "voices")
        );
        let near = noise.listeners.iter().find(|l| l.who == "Near").unwrap();
        assert_eq!(near.verdict, Verdict::Throw);
        assert_eq!(near.heard, hears);
        let throw = near.throw.as_ref().expect("Near threw");
        assert_eq!((throw.natural, throw.target), (face, 18));
        // The label drawn on the map, in plain ASCII (its font has no arrows).
        let label = near.to_string();
        assert!(
            label.contains(&format!("Listening d20 {face} = {face} vs 18")),
            "{label}"
        );
        assert!(label.is_ascii(), "{label}");
        let far = noise.listeners.iter().find(|l| l.who == "Far").unwrap();
        assert_eq!(
            (far.verdict, far.heard, &far.throw),
            (Verdict::Throw, false, &None)
        );
    }
    // Within 5', heard without a throw.
    let mut delve = corridor("Normal").build();
    delve.act(noise((2, 1), SoundRow::Normal, "a cough"));
    let answer = who_heard(delve.app.world());
    let near = answer[0]
        .listeners
        .iter()
        .find(|l| l.who == "Near")
        .unwrap();
    assert_eq!(
        (near.verdict, near.heard, &near.throw),
        (Verdict::Automatic, true, &None)
    );
}

/// Dungeon Delves › Listening: in a passage (a listening post) one is offered to listen, at its
/// Listening target (18 by Adventuring, 14 with Alertness); deafened, it is not. Taking the
/// offer has it listen actively this round.
#[test]
fn listening_is_offered_at_a_listening_post_with_its_target() {
    let mut delve = corridor("Normal")
        .faction(r#"(name: "hermits")"#)
        .creature(
            r#"(name: "Deaf", faction: "hermits", at: (8, 1), hp: 5, ac: 10,
                encumbrance_stone: 2.0, conditions: [Deafened])"#,
        )
        .build();
    let listen = |delve: &Delve, who: &str| {
        delve_rules::rules::choices_for(delve.world(), delve.entity(who))
            .into_iter()
            .map(|(_, c)| c)
            .find(|c| c.way == "listen")
    };
    assert_eq!(listen(&delve, "Near").and_then(|c| c.target), Some(18));
    assert_eq!(listen(&delve, "Far").and_then(|c| c.target), Some(14));
    assert!(listen(&delve, "Deaf").is_none(), "deafened: no listening");
    // Listening actively, the Judge throws for it even with nothing in earshot.
    assert!(
        delve
            .throws_for(Skill::Proficiency(
                delve_ground::level::schema::Proficiency::Listening
            ))
            .is_empty()
    );
    let offered = listen(&delve, "Far").unwrap();
    delve.act(offered.command.get::<Listen>().unwrap().clone());
    let throws = delve.throws_for(Skill::Proficiency(
        delve_ground::level::schema::Proficiency::Listening,
    ));
    assert_eq!(throws.len(), 1, "{}", delve.log().to_text());
    assert_eq!(throws[0].target, 14);
}
