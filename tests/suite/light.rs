//! Light and vision: the numbers of Dungeon Delves › Light and Darkness.

use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::load_level_str;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_rules::command::Command;
use delve_rules::command::acts::{
    Dazzle, Douse, DropLight, Hide, LightUp, Move, PickUpLight, Refuel,
};
use delve_rules::creature::CreatureIndex;
use delve_rules::rules::light::LightEvent;
use delve_rules::rules::light::LightRefusal;
use delve_rules::rules::light::LightSource;
use delve_rules::rules::penalties::{DazzleRefusal, PenaltyEvent};
use delve_rules::rules::vision::HideRefusal;

use delve_play::sim::{give, run_round, run_rounds, sim_app};
use delve_rules::creature::Conditions;
use delve_rules::rules::light::{LightLevel, LightMap};
use delve_rules::rules::vision::Sight;

fn app(x: i32, creature_extra: &str, level_extra: &str) -> App {
    let src = format!(
        r#"(name: "light", legend: {{ 'X': Wall(Stone), '.': Floor, '+': Door }},
            map: ["XXXXXXXXXXXXXXX", "X......+......X", "XXXXXXXXXXXXXXX"],
            factions: [(name: "party")],
            creatures: [(name: "Ada", faction: "party", at: ({x}, 1), hp: 5, ac: 10, encumbrance_stone: 2.0{creature_extra})]
            {level_extra})"#
    );
    let level = load_level_str(&src, "light.ron", None)
        .unwrap_or_else(|e| panic!("{e}"))
        .level;
    sim_app(&level, 1)
}

fn ada(app: &App) -> Entity {
    app.world().resource::<CreatureIndex>().0["Ada"]
}

fn carried_light(app: &mut App) -> LightSource {
    let world = app.world_mut();
    *world.query::<&LightSource>().single(world).unwrap()
}

fn level_at(app: &App, x: i32, y: i32) -> LightLevel {
    let grid = app.world().resource::<delve_ground::grid::DungeonGrid>();
    app.world()
        .resource::<LightMap>()
        .level(grid, GridPos::new(x, y))
}

fn burned_out_at(app: &App) -> Option<u64> {
    app.world()
        .resource::<EventLog>()
        .entries()
        .iter()
        .find(|e| {
            e.get::<LightEvent>()
                .is_some_and(|ev| matches!(ev, LightEvent::LightBurnedOut { .. }))
        })
        .map(|e| e.round)
}

#[test]
fn a_torch_lit_at_round_zero_goes_out_at_round_sixty() {
    let mut app = app(1, ", carries: [(kind: Torch, lit: true)]", "");
    run_rounds(app.world_mut(), 60);
    assert!(carried_light(&mut app).lit, "lit through round 59");
    assert_eq!(level_at(&app, 1, 1), LightLevel::Bright);
    run_round(app.world_mut());
    assert!(!carried_light(&mut app).lit);
    assert_eq!(burned_out_at(&app), Some(60));
    assert_eq!(level_at(&app, 1, 1), LightLevel::Dark);
    let log = app.world().resource::<EventLog>();
    let burned = LightEvent::LightBurnedOut {
        kind: delve_ground::level::schema::LightKind::Torch,
        bearer: Some("Ada".into()),
    };
    assert!(
        log.of::<LightEvent>().any(|e| *e == burned),
        "{}",
        log.to_text()
    );
}

/// Dungeon Delves › Light: a flask of oil keeps a lantern lit 24 turns; RULINGS › Fuel: a lantern
/// holds one flask — a full one takes no more, and one half burnt is filled to 24 turns, not
/// beyond. With a second flask poured in when the first burns out, it lasts 48 turns.
#[test]
fn a_lantern_holds_one_flask() {
    let mut app = app(
        1,
        ", carries: [(kind: Lantern, lit: false, fuel_turns: 24)], gear: [Oil(2)]",
        "",
    );
    give(
        app.world_mut(),
        Command::Refuel(Refuel { who: "Ada".into() }),
    );
    give(
        app.world_mut(),
        Command::LightUp(LightUp { who: "Ada".into() }),
    );
    run_round(app.world_mut());
    assert!(delve_rules::command::was_refused(
        app.world().resource::<EventLog>(),
        "Ada",
        &LightRefusal::LanternFull
    ));
    run_rounds(app.world_mut(), 239);
    assert!(carried_light(&mut app).lit, "lit for 24 turns");
    run_round(app.world_mut());
    assert_eq!(burned_out_at(&app), Some(240));
    give(
        app.world_mut(),
        Command::Refuel(Refuel { who: "Ada".into() }),
    );
    give(
        app.world_mut(),
        Command::LightUp(LightUp { who: "Ada".into() }),
    );
    run_rounds(app.world_mut(), 240);
    assert!(
        carried_light(&mut app).lit,
        "48 turns with the second flask"
    );
    run_round(app.world_mut());
    assert!(!carried_light(&mut app).lit);

    // Half burnt: filled to 24 turns, not 36.
    let mut app = self::app(
        1,
        ", carries: [(kind: Lantern, lit: true, fuel_turns: 12)], gear: [Oil(1)]",
        "",
    );
    give(
        app.world_mut(),
        Command::Refuel(Refuel { who: "Ada".into() }),
    );
    run_round(app.world_mut());
    assert_eq!(carried_light(&mut app).fuel_rounds, Some(240 - 1));
}

#[test]
fn light_stops_at_a_closed_door_and_passes_when_it_opens() {
    let mut app = app(5, ", carries: [(kind: Torch, lit: true)]", "");
    run_round(app.world_mut());
    assert_eq!(level_at(&app, 7, 1), LightLevel::Bright, "the door is lit");
    assert_eq!(level_at(&app, 8, 1), LightLevel::Dark, "nothing beyond it");
    app.world_mut()
        .resource_mut::<delve_ground::grid::DungeonGrid>()
        .set_door(GridPos::new(7, 1), delve_ground::grid::DoorState::Open);
    run_round(app.world_mut());
    assert_eq!(level_at(&app, 8, 1), LightLevel::Bright, "15' away");
    assert_eq!(level_at(&app, 9, 1), LightLevel::Dim, "20' away");
}

#[test]
fn dousing_blinds_in_the_dark_and_blinded_creatures_crawl_at_a_third() {
    let mut app = app(1, ", carries: [(kind: Torch, lit: true)]", "");
    run_round(app.world_mut());
    assert!(
        !app.world()
            .get::<Conditions>(ada(&app))
            .unwrap()
            .has(ConditionKind::Blinded)
    );
    give(app.world_mut(), Command::Douse(Douse { who: "Ada".into() }));
    run_round(app.world_mut());
    let c = app.world().get::<Conditions>(ada(&app)).unwrap();
    assert_eq!(
        c.get(ConditionKind::Blinded).map(|c| c.source.as_str()),
        Some("sees nothing")
    );
    // 120' a turn is 12' a round; a third is 4': a square every round and a quarter.
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Ada".into(),
            to: (6, 1),
            pace: Default::default(),
        }),
    );
    run_rounds(app.world_mut(), 5);
    let at = app
        .world()
        .get::<delve_rules::creature::Position>(ada(&app))
        .unwrap()
        .0;
    assert_eq!(at, GridPos::new(5, 1), "20' in 5 rounds");
    // Lighting up again ends it.
    give(
        app.world_mut(),
        Command::LightUp(LightUp { who: "Ada".into() }),
    );
    run_round(app.world_mut());
    assert!(
        !app.world()
            .get::<Conditions>(ada(&app))
            .unwrap()
            .has(ConditionKind::Blinded)
    );
}

#[test]
fn a_dropped_light_stays_where_it_fell_and_can_be_picked_up() {
    let mut app = app(2, ", carries: [(kind: Torch, lit: true)]", "");
    give(
        app.world_mut(),
        Command::DropLight(DropLight { who: "Ada".into() }),
    );
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Ada".into(),
            to: (6, 1),
            pace: delve_rules::rules::movement::Pace::Combat,
        }),
    );
    run_rounds(app.world_mut(), 2);
    assert_eq!(
        level_at(&app, 2, 1),
        LightLevel::Bright,
        "the torch lies at (2, 1)"
    );
    assert_eq!(level_at(&app, 6, 1), LightLevel::Dim, "20' from it");
    give(
        app.world_mut(),
        Command::PickUpLight(PickUpLight { who: "Ada".into() }),
    );
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &LightRefusal::NoLightHere {
                at: GridPos::new(6, 1)
            }
        ),
        "{log}"
    );
}

#[test]
fn lightless_vision_sees_in_the_dark_and_magical_darkness_hides_everything() {
    let mut app = app(
        1,
        ", lightless_vision_feet: 20",
        ", magical_darkness: [(at: (5, 1), radius_feet: 5)]",
    );
    run_round(app.world_mut());
    let sight = app.world().get::<Sight>(ada(&app)).unwrap();
    assert!(sight.sees(GridPos::new(1, 1)) && sight.sees(GridPos::new(3, 1)));
    assert!(!sight.sees(GridPos::new(4, 1)), "magical darkness at 15'");
    assert!(
        sight.seen.iter().all(|(_, how)| *how == LightLevel::Dim),
        "lightless vision shows dim only"
    );
    assert_eq!(level_at(&app, 5, 1), LightLevel::MagicalDarkness);
}

/// Dungeon Delves › Light and Darkness: shadowy senses "see" 30' as dim light, but do not
/// function "in an area of magical darkness or magical silence". Ada (shadowy senses, no light)
/// senses the dark hall up to its door; standing in a magical silence 5' across (the square she is on
/// and those beside it), she sees nothing and is blinded. Silence is not darkness: the squares
/// stay Dark, and a creature outside it still senses into it.
#[test]
fn shadowy_senses_fail_in_magical_silence() {
    let mut app = app(3, ", shadowy_senses: true", "");
    run_round(app.world_mut());
    let sight = app.world().get::<Sight>(ada(&app)).unwrap();
    assert!(sight.sees(GridPos::new(1, 1)) && sight.sees(GridPos::new(6, 1)));
    let mut app = app_in_silence(3);
    run_round(app.world_mut());
    let sight = app.world().get::<Sight>(ada(&app)).unwrap();
    assert!(sight.seen.is_empty(), "{:?}", sight.seen);
    assert!(
        app.world()
            .get::<Conditions>(ada(&app))
            .unwrap()
            .has(ConditionKind::Blinded)
    );
    assert_eq!(level_at(&app, 3, 1), LightLevel::Dark);
    let mut app = app_in_silence(6);
    run_round(app.world_mut());
    let sight = app.world().get::<Sight>(ada(&app)).unwrap();
    assert!(
        sight.sees(GridPos::new(4, 1)),
        "sensed into the silence from outside it"
    );
}

fn app_in_silence(x: i32) -> App {
    app(
        x,
        ", shadowy_senses: true",
        ", magical_silence: [(at: (3, 1), radius_feet: 5)]",
    )
}

/// A long hall: Ada at its west end with a torch (lit or not) and Bo beside her; Gob, of
/// another faction, in the dark at its east end.
fn glare_hall(ada_light: &str, judge: &str) -> delve_play::scenario::Delve {
    delve_play::scenario::Scenario::new(&[
        "XXXXXXXXXXXXXXXXXX",
        "X................X",
        "XXXXXXXXXXXXXXXXXX",
    ])
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "foes")"#)
    .creature(&format!(
        r#"(name: "Ada", faction: "party", at: (1, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
                carries: [{ada_light}])"#
    ))
    .creature(
        r#"(name: "Bo", faction: "party", at: (2, 1), hp: 5, ac: 10, encumbrance_stone: 2.0)"#,
    )
    .creature(
        r#"(name: "Gob", faction: "foes", at: (14, 1), hp: 5, ac: 10, speed_feet: 60, str: 10)"#,
    )
    .field(judge)
    .build()
}

fn blinded(delve: &delve_play::scenario::Delve, who: &str) -> bool {
    delve
        .get::<Conditions>(who)
        .unwrap()
        .has(ConditionKind::Blinded)
}

/// Situational Penalties › Distractions: failing the Strength-resistance throw against a torch
/// (9) blinds for exactly three rounds; Tactical Combat › Natural 20 and Natural 1: a natural 1
/// on the save doubles it to six.
#[test]
fn light_distraction_blinds_for_three_rounds_and_six_on_a_natural_1() {
    for (face, rounds) in [(5, 3), (1, 6)] {
        let mut delve = glare_hall("(kind: Torch, lit: true)", "judge: ()");
        delve.run(1); // Gob sees the torch from the dark.
        delve.script_dice(&[face]);
        delve.act(Dazzle {
            who: "Ada".into(),
            target: "Gob".into(),
            focused: false,
        });
        let t = delve.throws().pop().unwrap();
        assert_eq!((t.natural, t.target, t.success), (face, 9, false));
        assert!(
            delve
                .events::<PenaltyEvent>()
                .contains(&PenaltyEvent::Dazzled {
                    who: "Ada".into(),
                    target: "Gob".into(),
                    blinded_rounds: Some(rounds),
                })
        );
        for _ in 1..rounds {
            assert!(blinded(&delve, "Gob"));
            delve.run(1);
        }
        assert!(!blinded(&delve, "Gob"), "blinded for {rounds} rounds only");
    }
}

/// Situational Penalties › Distractions: "for three rounds, they cannot see" — three of the
/// victim's turns. In a battle where Gob's faction acted before Ada's, her glare in her turn
/// blinds him through the end of the round after the third (it once ended with the third,
/// covering two of his turns).
#[test]
fn a_glare_in_the_dazzlers_turn_covers_three_of_the_victims_turns() {
    let mut delve = glare_hall("(kind: Torch, lit: true)", "judge: ()");
    delve.run(1);
    let round = delve.world().resource::<delve_ground::time::Clock>().rounds;
    // The foes (1) act before the party (0), and it is the party's initiative.
    *delve
        .world_mut()
        .resource_mut::<delve_rules::creature::ActingOrder>() =
        delve_rules::creature::ActingOrder {
            order: vec![1, 0],
            initiative: Some(0),
            surprised: Vec::new(),
        };
    delve.script_dice(&[5]);
    // Carried out at once, in the party's initiative as set (a round played would set the order
    // anew).
    delve_rules::command::dispatch_now(
        delve.world_mut(),
        delve_rules::command::Command::Dazzle(Dazzle {
            who: "Ada".into(),
            target: "Gob".into(),
            focused: false,
        }),
    );
    let ends = delve
        .get::<Conditions>("Gob")
        .unwrap()
        .get(ConditionKind::Blinded)
        .map(|c| c.ends);
    assert_eq!(
        ends,
        Some(delve_rules::creature::ConditionEnd::EndOfRound(round + 3))
    );
}

/// Situational Penalties › Distractions: magical light is 13, sunlight by a mirror 15.
#[test]
fn magical_light_and_sunlight_by_a_mirror_are_expressible() {
    for (light, number) in [
        (
            "(kind: Magical(bright_feet: 15, dim_feet: 30), lit: true)",
            13,
        ),
        (
            "(kind: Sunlight(bright_feet: 30, dim_feet: 60), lit: true)",
            15,
        ),
    ] {
        let mut delve = glare_hall(light, "judge: ()");
        delve.run(1);
        delve.act(Dazzle {
            who: "Ada".into(),
            target: "Gob".into(),
            focused: true,
        });
        assert_eq!(
            delve.throws().pop().unwrap().target,
            number + 2,
            "{light}, focused"
        );
    }
}

/// The Judge's unexpected-light throw: switched on, Gob in the dark throws against Ada's torch
/// the round she lights it, without a command, and not again while it stays in view; Bo, of
/// her own party, does not. Switched off, no one throws.
#[test]
fn an_unexpected_light_makes_the_creature_in_the_dark_throw() {
    let mut delve = glare_hall(
        "(kind: Torch, lit: false)",
        "judge: (unexpected_lights: true)",
    );
    delve.run(1);
    delve.act(LightUp { who: "Ada".into() });
    let glared: Vec<PenaltyEvent> = delve
        .events::<PenaltyEvent>()
        .into_iter()
        .filter(|e| matches!(e, PenaltyEvent::UnexpectedLight { .. }))
        .collect();
    assert_eq!(glared.len(), 1, "{}", delve.log().to_text());
    assert!(
        matches!(&glared[0], PenaltyEvent::UnexpectedLight { who, at, .. }
        if who == "Gob" && *at == GridPos::new(1, 1))
    );
    assert_eq!(delve.throws().pop().unwrap().target, 9);
    delve.run(2);
    assert_eq!(
        delve
            .events::<PenaltyEvent>()
            .iter()
            .filter(|e| matches!(e, PenaltyEvent::UnexpectedLight { .. }))
            .count(),
        1,
        "a light in view is no longer unexpected"
    );

    let mut delve = glare_hall("(kind: Torch, lit: false)", "judge: ()");
    delve.run(1);
    delve.act(LightUp { who: "Ada".into() });
    delve.run(1);
    assert!(
        delve.events::<PenaltyEvent>().is_empty(),
        "the Judge has not enabled it"
    );
}

#[test]
fn dazzling_needs_a_target_in_the_dark() {
    let mut app = app(1, ", carries: [(kind: Torch, lit: true)]", "");
    run_round(app.world_mut());
    give(
        app.world_mut(),
        Command::Dazzle(Dazzle {
            who: "Ada".into(),
            target: "Ada".into(),
            focused: true,
        }),
    );
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ada",
            &DazzleRefusal::TargetNotInTheDark
        ),
        "{log}"
    );
}

/// Dungeon Delves › Light and Darkness: those proficient in Hiding can hide from lightless vision.
#[test]
fn a_hider_in_the_dark_is_hidden_from_lightless_vision_until_it_moves() {
    use delve_rules::rules::vision::{Hiding, Senses, sees_creature};
    let src = r#"(name: "hide", legend: { 'X': Wall(Stone), '.': Floor },
        map: ["XXXXXXXXXXXX", "X..........X", "XXXXXXXXXXXX"],
        factions: [(name: "party"), (name: "foes")],
        creatures: [
            (name: "Wren", faction: "party", at: (2, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
             proficiencies: [Hiding], throws: { Hiding: 1 }),
            (name: "Ghoul", faction: "foes", at: (8, 1), hp: 9, ac: 13, speed_feet: 90,
             lightless_vision_feet: 60),
        ])"#;
    let level = load_level_str(src, "hide.ron", None).unwrap().level;
    let mut app = sim_app(&level, 1);
    let index = app.world().resource::<CreatureIndex>().0.clone();
    let (wren, ghoul) = (index["Wren"], index["Ghoul"]);
    let ghoul_sees_wren = |app: &App| {
        let w = app.world();
        let grid = w.resource::<delve_ground::grid::DungeonGrid>();
        let light = w.resource::<LightMap>();
        let senses = Senses {
            lightless_vision_feet: 60,
            ..Senses::default()
        };
        let wren_at = w.get::<delve_rules::creature::Position>(wren).unwrap().0;
        let hiding = w.get::<Hiding>(wren).is_some();
        sees_creature(
            grid,
            light,
            GridPos::new(8, 1),
            w.get::<Sight>(ghoul).unwrap(),
            senses,
            wren_at,
            hiding,
        )
    };
    run_round(app.world_mut());
    assert!(
        ghoul_sees_wren(&app),
        "lightless vision finds her in the dark"
    );
    give(app.world_mut(), Command::Hide(Hide { who: "Wren".into() }));
    run_round(app.world_mut());
    assert!(app.world().get::<Hiding>(wren).is_some());
    assert!(!ghoul_sees_wren(&app), "hidden from lightless vision");
    give(
        app.world_mut(),
        Command::Move(Move {
            who: "Wren".into(),
            to: (1, 1),
            pace: Default::default(),
        }),
    );
    run_rounds(app.world_mut(), 2);
    assert!(
        app.world().get::<Hiding>(wren).is_none(),
        "moving ends hiding"
    );
    assert!(ghoul_sees_wren(&app));
    // Without the proficiency there is no hiding.
    give(
        app.world_mut(),
        Command::Hide(Hide {
            who: "Ghoul".into(),
        }),
    );
    run_round(app.world_mut());
    let log = app.world().resource::<EventLog>().to_text();
    assert!(
        delve_rules::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ghoul",
            &HideRefusal::NotAHider
        ),
        "{log}"
    );
}

/// The ways of the lights offered to Ada where she stands (`rules::choices_for`), in words.
fn light_offers(app: &App) -> Vec<String> {
    delve_rules::rules::choices_for(app.world(), ada(app))
        .into_iter()
        .map(|(_, c)| c.way)
        .filter(|w| {
            ["light the", "douse", "refuel", "drop the", "pick up"]
                .iter()
                .any(|k| w.starts_with(k))
        })
        .collect()
}

/// Dungeon Delves › Light and Darkness, RULINGS › Fuel: a light is offered to be lit where it
/// can be (unlit, with fuel), doused when lit, refuelled when a lantern is not full and a flask
/// is carried, dropped when carried and picked up where one lies; taking the offer carries it
/// out, and what the rules would refuse is not offered.
#[test]
fn the_lights_are_offered_where_the_rules_allow_them() {
    // An unlit lantern at half its fuel and a flask of oil: light, refuel, drop.
    let mut app = app(
        1,
        ", carries: [(kind: Lantern, lit: false, fuel_turns: 12)], gear: [Oil(1)]",
        "",
    );
    assert_eq!(
        light_offers(&app),
        [
            "light the lantern",
            "refuel the lantern",
            "drop the lantern"
        ]
    );
    let offered: Vec<_> = delve_rules::rules::choices_for(app.world(), ada(&app))
        .into_iter()
        .filter(|(_, c)| c.way == "light the lantern")
        .map(|(_, c)| c)
        .collect();
    assert_eq!(offered[0].time, "1 round");
    assert!(offered[0].command.get::<LightUp>().is_some());
    give(app.world_mut(), offered[0].command.clone());
    run_round(app.world_mut());
    assert!(carried_light(&mut app).lit);
    // Lit: douse instead of light.
    assert_eq!(
        light_offers(&app),
        ["douse its lights", "refuel the lantern", "drop the lantern"]
    );
    // Refuelled to the full flask: no more refuelling (the rules refuse a full lantern).
    give(app.world_mut(), Refuel { who: "Ada".into() });
    run_round(app.world_mut());
    assert_eq!(light_offers(&app), ["douse its lights", "drop the lantern"]);
    // Dropped: it lies at her feet, to be picked up.
    give(app.world_mut(), DropLight { who: "Ada".into() });
    run_round(app.world_mut());
    assert_eq!(light_offers(&app), ["pick up the lantern"]);

    // A burnt-out torch is not offered to be lit; no light at all, nothing is offered.
    let app = self::app(
        1,
        ", carries: [(kind: Torch, lit: false, fuel_turns: 0)]",
        "",
    );
    assert_eq!(light_offers(&app), ["drop the torch"]);
    let app = self::app(1, "", "");
    assert!(light_offers(&app).is_empty());
}

/// In the crypt at round 0, Aldric is offered lighting his lantern and Brannoc dousing his
/// torch, as `delve query choices` and the window's action list show them.
#[test]
fn in_the_crypt_aldric_may_light_his_lantern_and_brannoc_douse_his_torch() {
    let level = super::common::sample("levels/crypt.ron");
    let app = sim_app(&level, 1);
    let ways = |name: &str| -> Vec<String> {
        let e = app.world().resource::<CreatureIndex>().0[name];
        delve_rules::rules::choices_for(app.world(), e)
            .into_iter()
            .map(|(_, c)| c.way)
            .collect()
    };
    assert!(
        ways("Aldric").contains(&"light the lantern".to_owned()),
        "{:?}",
        ways("Aldric")
    );
    assert!(
        ways("Brannoc").contains(&"douse its lights".to_owned()),
        "{:?}",
        ways("Brannoc")
    );
}

/// Dungeon Delves › Hiding: one proficient in Hiding, not hidden, is offered to hide at its
/// Hiding throw; one who is not proficient is not offered it, nor one already hidden.
#[test]
fn hiding_is_offered_to_a_hider_not_hidden() {
    let mut app = app(1, ", proficiencies: [Hiding], throws: { Hiding: 12 }", "");
    let hides = |app: &App| -> Vec<(String, Option<i32>)> {
        delve_rules::rules::choices_for(app.world(), ada(app))
            .into_iter()
            .filter(|(_, c)| c.way == "hide")
            .map(|(_, c)| (c.way, c.target))
            .collect()
    };
    assert_eq!(hides(&app), [("hide".to_owned(), Some(12))]);
    let e = ada(&app);
    app.world_mut()
        .entity_mut(e)
        .insert(delve_rules::rules::vision::Hiding);
    assert!(hides(&app).is_empty(), "already hidden");
    let app = self::app(1, "", "");
    assert!(hides(&app).is_empty(), "not a hider");
}
