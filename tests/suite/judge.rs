//! The Judge's hand on the world (the window's panels give these between rounds): each command
//! is logged as a typed event, changes what it says, replays from a save to the same world, and
//! is taken back by undo.

use crate::common::crypt;
use bevy::prelude::*;
use delve_ground::grid::DoorState;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{ConditionKind, JudgeModifier, Lock};
use delve_ground::log::EventLog;
use delve_play::save::{Save, Step, undo};
use delve_play::sim;
use delve_rules::command::acts::{
    GiveCondition, PlaceCreature, SetDoor, SetHitPoints, SetJudgeModifier, SetLight, SetTrap,
    SwitchModule, TakeCondition,
};
use delve_rules::command::{Command, CommandEvent, dispatch_now};
use delve_rules::creature::Conditions;
use delve_rules::creature::{CreatureIndex, HitPoints, Position};
use delve_rules::rules::conditions::ConditionEvent;
use delve_rules::rules::doors::Door;
use delve_rules::rules::judge::{
    DoorSetting, Judge, JudgeEvent, JudgeRefusal, JudgeScope, TrapSetting,
};
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::modules::{RuleModule, RunningModules};
use delve_rules::rules::traps::{Trap, TrapState};

/// The crypt after 6 rounds of nothing.
fn crypt_after_6_rounds() -> (App, delve_ground::level::Level) {
    let level = crypt().load().unwrap().level;
    let app = sim::play(&level, 11, &[], 6);
    (app, level)
}

fn creature(world: &World, name: &str) -> Entity {
    world.resource::<CreatureIndex>().0[name]
}

fn at<T: Component>(world: &mut World, p: (i32, i32)) -> &T {
    let mut q = world.query::<(&Position, &T)>();
    q.iter(world)
        .find(|(pos, _)| pos.0 == GridPos::new(p.0, p.1))
        .map(|(_, t)| t)
        .expect("a thing at the square")
}

/// The world as the tests compare it: the whole log, every creature's square, hit points and
/// conditions, every door's state and lock, every trap's state, every light.
fn state(world: &mut World) -> String {
    let mut out = world.resource::<EventLog>().to_text();
    let mut rows: Vec<String> = world
        .query::<(&Name, &Position, &HitPoints, &Conditions)>()
        .iter(world)
        .map(|(n, p, hp, c)| format!("{n} {} {} {:?}", p.0, hp.current, c))
        .collect();
    rows.extend(
        world
            .query::<(&Position, &Door)>()
            .iter(world)
            .map(|(p, d)| format!("door {} {:?} {:?} {}", p.0, d.state, d.lock, d.secret)),
    );
    rows.extend(
        world
            .query::<(&Position, &Trap)>()
            .iter(world)
            .map(|(p, t)| format!("trap {} {:?} {}", p.0, t.state, t.plain_sight)),
    );
    let lights: Vec<(LightSource, Option<Entity>, Option<GridPos>)> = world
        .query::<(&LightSource, Option<&CarriedBy>, Option<&Position>)>()
        .iter(world)
        .map(|(l, b, p)| (*l, b.map(|b| b.0), p.map(|p| p.0)))
        .collect();
    for (l, bearer, p) in lights {
        let bearer = bearer
            .and_then(|b| world.get::<Name>(b))
            .map(|n| n.to_string());
        rows.push(format!("light {l:?} {bearer:?} {p:?}"));
    }
    rows.extend(
        world
            .get_resource::<RunningModules>()
            .map(|m| format!("{m:?}")),
    );
    rows.extend(world.get_resource::<Judge>().map(|j| format!("{:?}", j.0)));
    rows.sort();
    out.push_str(&rows.join("\n"));
    out
}

/// Gives the Judge's command between rounds, and checks it the four ways: its event is in the
/// log; `changed` holds of the world; a save of it loads to the same world, and the two go on
/// alike; an undo takes it back to the world before it.
fn check(
    command: impl Into<Command>,
    logged: impl Fn(&EventLog) -> bool,
    changed: impl Fn(&mut World) -> bool,
) {
    let command = command.into();
    let (mut app, level) = crypt_after_6_rounds();
    let world = app.world_mut();
    let before = state(world);
    assert!(!changed(world), "{command}: already so before the command");
    dispatch_now(world, command.clone());
    let log = world.resource::<EventLog>();
    assert!(
        log.of::<CommandEvent>().any(
            |e| matches!(e, CommandEvent::CommandAccepted { command: c, .. } if *c == command)
        ),
        "{command}: not accepted:\n{}",
        log.to_text()
    );
    assert!(logged(log), "{command}: its event is not in the log");
    assert!(changed(world), "{command}: the world did not change");
    assert_eq!(
        world.resource::<delve_ground::time::Clock>().rounds,
        6,
        "no round played"
    );

    // Saved and loaded: the same world; both go on alike.
    let text = Save::of(world, &crypt()).to_text();
    let save = Save::from_text(&text, "judge.save.ron").unwrap();
    let mut loaded = sim::sim_app(&save.load_level().unwrap(), 0);
    save.restore_into(loaded.world_mut(), &save.load_level().unwrap());
    assert_eq!(state(loaded.world_mut()), state(world), "{command}: loaded");
    sim::run_rounds(world, 8);
    sim::run_rounds(loaded.world_mut(), 8);
    assert_eq!(
        state(loaded.world_mut()),
        state(world),
        "{command}: went on"
    );

    // Undone: the world before it.
    let (mut app, _) = crypt_after_6_rounds();
    let world = app.world_mut();
    dispatch_now(world, command.clone());
    assert_eq!(undo(world, &level, Step::Round), Some(6));
    assert_eq!(state(world), before, "{command}: undone");
}

#[test]
fn setting_hit_points_is_logged_replays_and_undoes() {
    check(
        SetHitPoints {
            who: "Brannoc".into(),
            hit_points: 3,
        },
        |log| {
            log.of::<JudgeEvent>().any(
                |e| matches!(e, JudgeEvent::HitPointsSet { who, to: 3, .. } if who == "Brannoc"),
            )
        },
        |w| w.get::<HitPoints>(creature(w, "Brannoc")).unwrap().current == 3,
    );
}

/// Dungeon Delves › Hit Points: at 0 hit points a creature is dying; the Judge setting 0 makes
/// it so, and setting it above 0 again ends it.
#[test]
fn hit_points_set_to_zero_leave_a_creature_dying_until_raised() {
    let (mut app, _) = crypt_after_6_rounds();
    let w = app.world_mut();
    let sera = creature(w, "Sera");
    dispatch_now(
        w,
        SetHitPoints {
            who: "Sera".into(),
            hit_points: 0,
        },
    );
    assert!(w.get::<Conditions>(sera).unwrap().has(ConditionKind::Dying));
    dispatch_now(
        w,
        SetHitPoints {
            who: "Sera".into(),
            hit_points: 4,
        },
    );
    let c = w.get::<Conditions>(sera).unwrap();
    assert!(!c.has(ConditionKind::Dying));
    // Above the maximum is the maximum.
    dispatch_now(
        w,
        SetHitPoints {
            who: "Sera".into(),
            hit_points: 99,
        },
    );
    let hp = w.get::<HitPoints>(sera).unwrap();
    assert_eq!(hp.current, hp.max);
}

#[test]
fn giving_and_taking_a_condition_is_logged_replays_and_undoes() {
    check(
        GiveCondition {
            who: "Aldric".into(),
            condition: ConditionKind::Blinded,
        },
        |log| {
            log.of::<ConditionEvent>().any(|e| {
                matches!(e, ConditionEvent::ConditionGained { who, condition: ConditionKind::Blinded, source, .. }
                    if who == "Aldric" && source == "the Judge")
            })
        },
        |w| {
            w.get::<Conditions>(creature(w, "Aldric"))
                .unwrap()
                .has(ConditionKind::Blinded)
        },
    );
    // Taking it away: given in the level's start here by an earlier command of the Judge's.
    let (mut app, _) = crypt_after_6_rounds();
    let w = app.world_mut();
    dispatch_now(
        w,
        GiveCondition {
            who: "Aldric".into(),
            condition: ConditionKind::Prone,
        },
    );
    dispatch_now(
        w,
        TakeCondition {
            who: "Aldric".into(),
            condition: ConditionKind::Prone,
        },
    );
    assert!(
        !w.get::<Conditions>(creature(w, "Aldric"))
            .unwrap()
            .has(ConditionKind::Prone)
    );
    // Taking what it has not is refused, and changes nothing.
    dispatch_now(
        w,
        TakeCondition {
            who: "Aldric".into(),
            condition: ConditionKind::Stuck,
        },
    );
    assert!(delve_rules::command::was_refused(
        w.resource::<EventLog>(),
        "the Judge",
        &JudgeRefusal::HasItNot {
            condition: ConditionKind::Stuck
        }
    ));
}

#[test]
fn placing_a_creature_is_logged_replays_and_undoes() {
    check(
        PlaceCreature {
            who: "Mirela".into(),
            at: (5, 3),
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(e, JudgeEvent::Placed { who, to, .. } if who == "Mirela" && *to == GridPos::new(5, 3))
            })
        },
        |w| w.get::<Position>(creature(w, "Mirela")).unwrap().0 == GridPos::new(5, 3),
    );
    // Not into a wall, not onto another creature.
    let (mut app, _) = crypt_after_6_rounds();
    let w = app.world_mut();
    let brannoc = w.get::<Position>(creature(w, "Brannoc")).unwrap().0;
    dispatch_now(
        w,
        PlaceCreature {
            who: "Mirela".into(),
            at: (brannoc.x, brannoc.y),
        },
    );
    assert!(
        delve_rules::command::refusals(w.resource::<EventLog>()).any(|(who, r)| who == "the Judge"
            && matches!(r.get::<JudgeRefusal>(), Some(JudgeRefusal::Taken { .. })))
    );
    dispatch_now(
        w,
        PlaceCreature {
            who: "Mirela".into(),
            at: (0, 0),
        },
    );
    assert!(delve_rules::command::was_refused(
        w.resource::<EventLog>(),
        "the Judge",
        &JudgeRefusal::NoFooting {
            at: GridPos::new(0, 0)
        }
    ));
}

#[test]
fn a_door_opened_locked_and_revealed_by_the_judge_is_logged_replays_and_undoes() {
    check(
        SetDoor {
            at: (15, 8),
            to: DoorSetting::Open,
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(
                    e,
                    JudgeEvent::DoorSet {
                        to: DoorSetting::Open,
                        ..
                    }
                )
            })
        },
        |w| at::<Door>(w, (15, 8)).state == DoorState::Open,
    );
    check(
        SetDoor {
            at: (3, 6),
            to: DoorSetting::Locked { key: None },
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(
                    e,
                    JudgeEvent::DoorSet {
                        to: DoorSetting::Locked { .. },
                        ..
                    }
                )
            })
        },
        |w| matches!(at::<Door>(w, (3, 6)).lock, Lock::Locked { .. }),
    );
    check(
        SetDoor {
            at: (22, 12),
            to: DoorSetting::Revealed,
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(
                    e,
                    JudgeEvent::DoorSet {
                        to: DoorSetting::Revealed,
                        ..
                    }
                )
            })
        },
        |w| !at::<Door>(w, (22, 12)).secret,
    );
}

#[test]
fn a_trap_revealed_or_disarmed_by_the_judge_is_logged_replays_and_undoes() {
    check(
        SetTrap {
            at: (15, 10),
            to: TrapSetting::Revealed,
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(
                    e,
                    JudgeEvent::TrapSet {
                        to: TrapSetting::Revealed,
                        ..
                    }
                )
            })
        },
        |w| at::<Trap>(w, (15, 10)).plain_sight,
    );
    check(
        SetTrap {
            at: (15, 10),
            to: TrapSetting::Disarmed,
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| {
                matches!(
                    e,
                    JudgeEvent::TrapSet {
                        to: TrapSetting::Disarmed,
                        ..
                    }
                )
            })
        },
        |w| at::<Trap>(w, (15, 10)).state == TrapState::Disarmed,
    );
}

#[test]
fn a_light_doused_by_the_judge_is_logged_replays_and_undoes() {
    check(
        SetLight {
            at: (24, 12),
            lit: false,
        },
        |log| {
            log.of::<JudgeEvent>().any(|e| matches!(e, JudgeEvent::LightsSet { lit: false, lights, .. } if lights.len() == 1))
        },
        |w| !at::<LightSource>(w, (24, 12)).lit,
    );
}

#[test]
fn a_judge_modifier_set_between_rounds_is_logged_replays_and_undoes() {
    check(
        SetJudgeModifier {
            modifier: JudgeModifier::FogAndCrowds,
            value: -2,
            on: JudgeScope::Level,
        },
        |log| {
            log.of::<JudgeEvent>()
                .any(|e| matches!(e, JudgeEvent::ModifierSet { value: -2, .. }))
        },
        |w| {
            w.resource::<Judge>()
                .value(JudgeModifier::FogAndCrowds, None, &[])
                == -2
        },
    );
}

/// RULINGS: the modules are optional; the Judge switches one off mid-delve, and the save keeps
/// the modules the delve began with (the switch is in the journal).
#[test]
fn switching_a_module_is_logged_replays_and_undoes() {
    check(
        SwitchModule {
            module: RuleModule::TacticalCombat,
            on: false,
        },
        |log| {
            log.of::<JudgeEvent>()
                .any(|e| matches!(e, JudgeEvent::ModuleSwitched { on: false, .. }))
        },
        |w| {
            !w.resource::<RunningModules>().now.combat
                && !w.contains_resource::<delve_rules::rules::combat::battle::Battle>()
        },
    );
    check(
        SwitchModule {
            module: RuleModule::SituationalPenalties,
            on: false,
        },
        |log| {
            log.of::<JudgeEvent>()
                .any(|e| matches!(e, JudgeEvent::ModuleSwitched { on: false, .. }))
        },
        |w| !w.contains_resource::<delve_rules::rules::penalties::SituationalPenaltiesOn>(),
    );
    let (mut app, _) = crypt_after_6_rounds();
    let w = app.world_mut();
    dispatch_now(
        w,
        SwitchModule {
            module: RuleModule::TacticalCombat,
            on: false,
        },
    );
    let save = Save::of(w, &crypt());
    assert!(
        save.modules.combat,
        "the save keeps the modules it began with"
    );
}

/// Two Judge's commands between the same rounds are undone one at a time, the later first.
#[test]
fn undo_takes_back_the_judges_commands_one_at_a_time() {
    let (mut app, level) = crypt_after_6_rounds();
    let w = app.world_mut();
    dispatch_now(
        w,
        SetHitPoints {
            who: "Brannoc".into(),
            hit_points: 2,
        },
    );
    let after_first = state(w);
    dispatch_now(
        w,
        SetDoor {
            at: (15, 8),
            to: DoorSetting::Open,
        },
    );
    assert_eq!(undo(w, &level, Step::Round), Some(6));
    assert_eq!(state(w), after_first);
    assert_eq!(delve_play::save::redo(w, &level, Step::Round), Some(6));
    assert_eq!(at::<Door>(w, (15, 8)).state, DoorState::Open);
}

/// The Judge's noise between rounds is heard in the round that follows, as the Judge's
/// (Dungeon Delves › Noise: a loud noise is heard automatically within 30' in the open), and
/// replays and undoes like the rest.
#[test]
fn a_noise_the_judge_makes_between_rounds_is_heard_next_round() {
    use delve_rules::rules::sound::noises::Noises;
    use delve_rules::rules::sound::{HearingEvent, MakeNoise, NoiseKind, SoundRow};
    let noise = MakeNoise {
        at: (31, 12),
        sound: SoundRow::Loud,
        what: "a gong".into(),
    };
    check(
        noise.clone(),
        |log| {
            log.of::<CommandEvent>().any(|e| {
                matches!(
                    e,
                    CommandEvent::CommandAccepted {
                        command: Command::MakeNoise(_),
                        ..
                    }
                )
            })
        },
        |w| {
            w.resource::<Noises>()
                .0
                .iter()
                .any(|n| n.kind == NoiseKind::Judge)
        },
    );
    let (mut app, _) = crypt_after_6_rounds();
    let w = app.world_mut();
    dispatch_now(w, noise);
    sim::run_round(w);
    assert!(w.resource::<EventLog>().of::<HearingEvent>().any(|e| {
        matches!(e, HearingEvent::Heard { who, noise: NoiseKind::Judge, .. } if who == "Gnawbone")
    }));
}
