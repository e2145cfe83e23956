//! Light and vision: the numbers of Dungeon Delves › Light and Darkness.

use bevy::prelude::*;
use delve::command::Command;
use delve::command::acts::{Dazzle, Douse, DropLight, Hide, LightUp, Move, PickUpLight, Refuel};
use delve::creature::CreatureIndex;
use delve::grid::GridPos;
use delve::level::load_level_str;
use delve::level::schema::ConditionKind;
use delve::log::EventLog;
use delve::rules::light::LightEvent;
use delve::rules::light::LightRefusal;
use delve::rules::light::LightSource;
use delve::rules::penalties::DazzleRefusal;
use delve::rules::vision::HideRefusal;

use delve::rules::conditions::Conditions;
use delve::rules::light::{LightLevel, LightMap};
use delve::rules::vision::Sight;
use delve::sim::{give, run_round, run_rounds, sim_app};

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
    let grid = app.world().resource::<delve::grid::DungeonGrid>();
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
        kind: delve::level::schema::LightKind::Torch,
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
    assert!(delve::command::was_refused(
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
        .resource_mut::<delve::grid::DungeonGrid>()
        .set_door(GridPos::new(7, 1), delve::level::schema::DoorState::Open);
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
        .get::<delve::creature::Position>(ada(&app))
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
            pace: delve::rules::movement::Pace::Combat,
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
        delve::command::was_refused(
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

/// Situational Penalties › Distractions: failing the Strength-resistance throw against a torch
/// (9) blinds for exactly three rounds.
#[test]
fn light_distraction_blinds_for_exactly_three_rounds() {
    let src = r#"(name: "glare", legend: { 'X': Wall(Stone), '.': Floor },
        map: ["XXXXXXXXXXXXXXXXXX", "X................X", "XXXXXXXXXXXXXXXXXX"],
        factions: [(name: "party"), (name: "foes")],
        creatures: [
            (name: "Ada", faction: "party", at: (1, 1), hp: 5, ac: 10, encumbrance_stone: 2.0,
             carries: [(kind: Torch, lit: true)]),
            (name: "Gob", faction: "foes", at: (14, 1), hp: 5, ac: 10, speed_feet: 60, str: 10),
        ])"#;
    let level = load_level_str(src, "glare.ron", None).unwrap().level;
    let (mut failed, mut resisted) = (false, false);
    for seed in 1..60 {
        let mut app = sim_app(&level, seed);
        run_round(app.world_mut()); // Gob sees the torch from the dark.
        give(
            app.world_mut(),
            Command::Dazzle(Dazzle {
                who: "Ada".into(),
                target: "Gob".into(),
                focused: false,
            }),
        );
        run_round(app.world_mut()); // round 1
        let gob = app.world().resource::<CreatureIndex>().0["Gob"];
        let blinded = |app: &App| {
            app.world()
                .get::<Conditions>(gob)
                .unwrap()
                .has(ConditionKind::Blinded)
        };
        let log = app.world().resource::<EventLog>().to_text();
        assert!(
            log.contains("Strength resistance against a Torch's glare: d20"),
            "{log}"
        );
        assert!(log.contains("vs 9+"), "{log}");
        if blinded(&app) {
            failed = true;
            run_round(app.world_mut()); // round 2
            assert!(blinded(&app));
            run_round(app.world_mut()); // round 3: the third round ends
            assert!(!blinded(&app), "blinded for rounds 1, 2 and 3 only");
        } else {
            resisted = true;
        }
    }
    assert!(failed && resisted, "both outcomes happen over the seeds");
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
        delve::command::was_refused(
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
    use delve::rules::vision::{Hiding, Senses, sees_creature};
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
        let grid = w.resource::<delve::grid::DungeonGrid>();
        let light = w.resource::<LightMap>();
        let senses = Senses {
            lightless_vision_feet: 60,
            ..Senses::default()
        };
        let wren_at = w.get::<delve::creature::Position>(wren).unwrap().0;
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
        delve::command::was_refused(
            app.world().resource::<EventLog>(),
            "Ghoul",
            &HideRefusal::NotAHider
        ),
        "{log}"
    );
}
