//! Keyboard and mouse as leafwing actions (`gui::controls`): a tap within one frame is not lost,
//! and H and V toggle the help and the view. Input only writes intents: camera moves
//! (`gui::camera`), a selection and orders (`gui::orders`), rounds asked for (`gui::rounds`).

use bevy::prelude::*;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::state::{RedrawSet, Selected, Tell, UiState, ViewMode};

pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(InputManagerPlugin::<DelveAction>::default())
            .add_systems(
                PreUpdate,
                taps_within_a_frame.in_set(InputManagerSystem::ManualControl),
            )
            .add_systems(Update, toggle_help.after(RedrawSet));
    }
}

/// A key or mouse button pressed and let go within one frame (a short tap on a slow frame: under
/// software rendering a 150 ms tap of Space played nothing) is not held when leafwing looks, so
/// its action would be lost. Each action a tapped input would have pressed (alone, or with the
/// modifiers held, as in Ctrl+S) is pressed here, once.
fn taps_within_a_frame(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut store: ResMut<leafwing_input_manager::user_input::updating::CentralInputStore>,
    mut players: Query<(&InputMap<DelveAction>, &mut ActionState<DelveAction>)>,
) {
    use leafwing_input_manager::buttonlike::ButtonValue;
    let tapped_keys: Vec<KeyCode> = keys
        .get_just_pressed()
        .filter(|k| !keys.pressed(**k))
        .copied()
        .collect();
    let tapped_buttons: Vec<MouseButton> = buttons
        .get_just_pressed()
        .filter(|b| !buttons.pressed(**b))
        .copied()
        .collect();
    if tapped_keys.is_empty() && tapped_buttons.is_empty() {
        return;
    }
    let none = Entity::PLACEHOLDER;
    for (map, mut state) in &mut players {
        let pressed_by_tap =
            |store: &mut leafwing_input_manager::user_input::updating::CentralInputStore,
             hold: &dyn Fn(
                &mut leafwing_input_manager::user_input::updating::CentralInputStore,
                bool,
            )| {
                let before: Vec<bool> = map
                    .buttonlike_bindings()
                    .map(|(_, b)| b.pressed(store, none))
                    .collect();
                hold(store, true);
                let tapped: Vec<(DelveAction, _)> = map
                    .buttonlike_bindings()
                    .zip(before)
                    .filter(|((_, b), was)| !was && b.pressed(store, none))
                    .map(|((a, b), _)| (*a, b.decompose()))
                    .collect();
                hold(store, false);
                // As leafwing settles clashes, the longest chord wins: a tap of S with Ctrl
                // held saves, and does not search as well.
                tapped
                    .iter()
                    .filter(|(_, b)| {
                        !tapped
                            .iter()
                            .any(|(_, o)| o.len() > b.len() && o.clashes_with(b))
                    })
                    .map(|(a, _)| *a)
                    .collect::<Vec<DelveAction>>()
            };
        let mut actions = Vec::new();
        for &k in &tapped_keys {
            actions.extend(pressed_by_tap(&mut store, &|s, on| {
                s.update_buttonlike(k, ButtonValue::from_pressed(on))
            }));
        }
        for &b in &tapped_buttons {
            actions.extend(pressed_by_tap(&mut store, &|s, on| {
                s.update_buttonlike(b, ButtonValue::from_pressed(on))
            }));
        }
        for action in actions {
            if !state.pressed(&action) {
                state.press(&action);
            }
        }
    }
}

fn toggle_help(
    actions: Single<&ActionState<DelveAction>>,
    mut ui: ResMut<UiState>,
    view: Option<ResMut<ViewMode>>,
    selected: Res<Selected>,
    mut tell: MessageWriter<Tell>,
) {
    if actions.just_pressed(&DelveAction::ToggleHelp) {
        ui.show_help = !ui.show_help;
    }
    if actions.just_pressed(&DelveAction::ToggleView)
        && let Some(mut view) = view
    {
        // The Judge's, the party's, the selected creature's.
        *view = match *view {
            ViewMode::Judge => ViewMode::Party,
            ViewMode::Party if selected.0.is_some() => ViewMode::Creature,
            ViewMode::Party | ViewMode::Creature => ViewMode::Judge,
        };
        tell.write(Tell(format!("{:?} view", *view)));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use bevy::input::InputPlugin as BevyInputPlugin;

    use super::*;
    use crate::gui::camera::{CameraPlugin, Framing, LEGIBLE_SQUARE_PX, fit_scale};
    use crate::gui::orders::OrdersPlugin;
    use crate::gui::rounds::RoundsPlugin;
    use crate::gui::state::{MapCamera, ShownLevel, StatePlugin};
    use delve_ground::grid::DungeonGrid;
    use delve_ground::level::Diagnostics;
    use delve_ground::time::Clock;
    use delve_play::sim::sim_app;
    use delve_rules::act::PendingCommands;
    use delve_rules::command::Command;
    use delve_rules::command::acts::{Rest, RestParty};
    use delve_rules::creature::Position;
    use delve_rules::rules::movement::Pace;

    /// A headless app with the window's input plugin: keys are pressed the way leafwing's own
    /// tests press them.
    pub(crate) fn app() -> App {
        let level = delve_ground::level::LevelText::default_level()
            .load()
            .unwrap()
            .level;
        app_with(level, 1)
    }

    /// The same, on a level of the test's own (the crypt's text is kept as the level's).
    pub(crate) fn app_with(level: delve_ground::level::Level, seed: u64) -> App {
        let text = delve_ground::level::LevelText::default_level();
        let mut app = sim_app(&level, seed);
        let registry = crate::gui::keys::input_registry();
        app.add_plugins((
            BevyInputPlugin,
            StatePlugin,
            InputPlugin,
            CameraPlugin,
            OrdersPlugin,
            RoundsPlugin,
        ));
        drop(registry);
        app.insert_resource(ShownLevel {
            path: None,
            seed,
            level,
            text,
            problems: None,
            warnings: Diagnostics::default(),
            redraw: false,
            keep_view: false,
        });
        app.update();
        app
    }

    pub(crate) fn press(app: &mut App, key: KeyCode) {
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
        app.update();
    }

    fn selected_name(app: &mut App) -> Option<String> {
        let e = app.world().resource::<Selected>().0?;
        Some(app.world().get::<Name>(e)?.to_string())
    }

    fn camera_at(app: &mut App) -> Vec2 {
        let mut q = app
            .world_mut()
            .query_filtered::<&Transform, With<MapCamera>>();
        q.single(app.world()).unwrap().translation.truncate()
    }

    fn square_at(app: &App, name: &str) -> Vec2 {
        let world = app.world();
        let e = world.resource::<delve_rules::creature::CreatureIndex>().0[name];
        let p = world.get::<Position>(e).unwrap().0;
        let h = world.resource::<DungeonGrid>().height();
        crate::gui::squares::square_to_world(h, p.x, p.y)
    }

    /// Where the camera shows that creature: centred on its square, kept to the map in the
    /// Judge's view (the space is the whole 1280x800 window: this app has no panels).
    fn showing(app: &mut App, name: &str) -> Vec2 {
        let at = square_at(app, name);
        if app
            .world()
            .get_resource::<ViewMode>()
            .is_some_and(|v| !v.judges())
        {
            return at;
        }
        let mut q = app
            .world_mut()
            .query_filtered::<&Projection, With<MapCamera>>();
        let scale = match q.single(app.world()).unwrap() {
            Projection::Orthographic(o) => o.scale,
            _ => unreachable!("the map's camera is orthographic"),
        };
        let grid = app.world().resource::<DungeonGrid>();
        crate::gui::camera::keep_on_the_map(at, scale, Vec2::new(1280.0, 800.0), grid)
    }

    fn zoom_in(app: &mut App) {
        let mut q = app
            .world_mut()
            .query_filtered::<&mut Projection, With<MapCamera>>();
        if let Projection::Orthographic(o) = &mut *q.single_mut(app.world_mut()).unwrap() {
            o.scale = 0.25;
        }
    }

    /// Tab moves the camera to the creature it selects.
    #[test]
    fn tab_moves_the_camera_to_the_creature() {
        let mut app = app();
        zoom_in(&mut app);
        press(&mut app, KeyCode::Tab);
        assert_eq!(camera_at(&mut app), showing(&mut app, "Aldric"));
        press(&mut app, KeyCode::Tab);
        assert_eq!(camera_at(&mut app), showing(&mut app, "Ashmaw"));
        assert_ne!(showing(&mut app, "Aldric"), showing(&mut app, "Ashmaw"));
    }

    /// The party's view opens centred on the party's leader with a square 32 pixels wide; the
    /// Judge's view of a level that fits at 16 pixels a square or more opens on the whole level.
    #[test]
    fn the_partys_view_opens_on_the_leader_at_32_px_a_square() {
        let mut app = app();
        let scale = |app: &mut App| {
            let mut q = app
                .world_mut()
                .query_filtered::<&Projection, With<MapCamera>>();
            match q.single(app.world()).unwrap() {
                Projection::Orthographic(o) => o.scale,
                _ => unreachable!("the map's camera is orthographic"),
            }
        };
        let leader = {
            let world = app.world();
            let e = world.resource::<delve_rules::rules::party::Parties>().0[0]
                .leader()
                .unwrap();
            world.get::<Name>(e).unwrap().to_string()
        };
        app.insert_resource(super::super::state::ViewMode::Party);
        app.world_mut().resource_mut::<Framing>().wanted = true;
        app.update();
        let px = super::super::labels::square_px(scale(&mut app));
        assert_eq!(px, LEGIBLE_SQUARE_PX.1);
        assert_eq!(camera_at(&mut app), showing(&mut app, &leader));
        // The crypt fits a 1280x800 space (no panels in this app) at 16 px a square or more.
        app.insert_resource(super::super::state::ViewMode::Judge);
        app.world_mut().resource_mut::<Framing>().wanted = true;
        app.update();
        let grid = app.world().resource::<DungeonGrid>().clone();
        let whole = fit_scale(&grid, Vec2::new(1280.0, 800.0));
        assert!(super::super::labels::square_px(whole) >= LEGIBLE_SQUARE_PX.0);
        assert_eq!(scale(&mut app), whole);
    }

    /// The camera follows the party's leader as it walks (none selected); O stops it following.
    #[test]
    fn the_camera_follows_the_moving_leader() {
        let mut app = app();
        zoom_in(&mut app);
        let leader = {
            let world = app.world();
            let parties = world.resource::<delve_rules::rules::party::Parties>();
            let e = parties.0[0].leader().unwrap();
            world.get::<Name>(e).unwrap().to_string()
        };
        delve_play::sim::give(
            app.world_mut(),
            delve_rules::command::Command::Move(delve_rules::command::acts::Move {
                who: leader.clone(),
                to: (16, 4),
                pace: delve_rules::rules::movement::Pace::Exploration,
            }),
        );
        let before = square_at(&app, &leader);
        for _ in 0..3 {
            press(&mut app, KeyCode::Space);
        }
        let after = square_at(&app, &leader);
        assert_ne!(before, after, "the leader walked");
        assert_eq!(camera_at(&mut app), showing(&mut app, &leader));
        press(&mut app, KeyCode::KeyO);
        let stayed = camera_at(&mut app);
        for _ in 0..3 {
            press(&mut app, KeyCode::Space);
        }
        assert_ne!(square_at(&app, &leader), after, "the leader walked on");
        assert_eq!(camera_at(&mut app), stayed);
    }

    /// In the party's view Tab goes round the creatures the party sees — at the crypt's start,
    /// its own four, not the ghouls and the skeleton beyond the walls; the Judge's view, all.
    #[test]
    fn tab_in_the_partys_view_selects_only_what_the_party_sees() {
        let mut app = app();
        app.insert_resource(super::super::state::ViewMode::Party);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..8 {
            press(&mut app, KeyCode::Tab);
            seen.insert(selected_name(&mut app).unwrap());
        }
        let party: std::collections::BTreeSet<String> = ["Aldric", "Brannoc", "Mirela", "Sera"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(seen, party);
        app.insert_resource(super::super::state::ViewMode::Judge);
        for _ in 0..8 {
            press(&mut app, KeyCode::Tab);
            seen.insert(selected_name(&mut app).unwrap());
        }
        assert!(
            seen.contains("Gnawbone") && seen.contains("Warden of Ash"),
            "{seen:?}"
        );
    }

    #[test]
    fn tab_selects_creatures_in_name_order() {
        let mut app = app();
        assert_eq!(selected_name(&mut app), None);
        press(&mut app, KeyCode::Tab);
        assert_eq!(selected_name(&mut app).as_deref(), Some("Aldric"));
        press(&mut app, KeyCode::Tab);
        assert_eq!(selected_name(&mut app).as_deref(), Some("Ashmaw"));
    }

    /// Once the delve is over, Space plays no round on: the clock stays where the delve ended.
    #[test]
    fn no_round_is_played_after_the_end() {
        let mut app = app();
        press(&mut app, KeyCode::Space);
        let at = app.world().resource::<Clock>().rounds;
        assert_eq!(at, 1, "Space plays a round before the end");
        app.world_mut()
            .resource_mut::<delve_minds::policy::party::DelveEnd>()
            .0 = Some((
            "party".into(),
            delve_minds::policy::outcome::Outcome::GaveUp,
            delve_minds::policy::outcome::Tally::default(),
        ));
        press(&mut app, KeyCode::Space);
        press(&mut app, KeyCode::KeyT);
        assert_eq!(app.world().resource::<Clock>().rounds, at);
    }

    /// The number keys take the listed actions: Sera, a thief, is offered a methodical search
    /// as her first (searching and listening come before rest and the voice).
    #[test]
    fn a_number_key_takes_that_action() {
        let mut app = app();
        app.add_plugins(crate::gui::actions::ActionsPlugin);
        for _ in 0..7 {
            press(&mut app, KeyCode::Tab);
        }
        assert_eq!(selected_name(&mut app).as_deref(), Some("Sera"));
        let first = app
            .world()
            .resource::<crate::gui::actions::Offered>()
            .shown()[0]
            .1
            .way
            .clone();
        assert_eq!(first, "search methodically");
        press(&mut app, KeyCode::Digit1);
        press(&mut app, KeyCode::Space);
        let log = app.world().resource::<delve_ground::log::EventLog>();
        assert!(
            log.of::<delve_rules::rules::task::TaskEvent>().any(|e| *e
                == delve_rules::rules::task::TaskEvent::TaskBegun {
                    who: "Sera".into(),
                    task: "searching methodically within 10'".into(),
                    rounds: 10
                }),
            "{}",
            log.to_text()
        );
    }

    /// A tap pressed and let go between two frames still plays its round, once; and a Ctrl+Z
    /// whose Z is tapped so takes back that round.
    #[test]
    fn a_tap_within_one_frame_acts_once() {
        let mut app = app();
        KeyCode::Space.press(app.world_mut());
        KeyCode::Space.release(app.world_mut());
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 1);
        app.update();
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 1, "once");
        app.add_plugins(crate::gui::saving::SavingPlugin);
        let scratch = std::env::temp_dir().join(format!("delve-tap-{}", std::process::id()));
        let files = crate::gui::saving::SaveFiles::new(
            Some(scratch.join("tap.save.ron")),
            Some(scratch.join("autosave")),
            &app.world().resource::<ShownLevel>().text.clone(),
            app.world(),
        );
        app.insert_resource(files);
        KeyCode::ControlLeft.press(app.world_mut());
        app.update();
        KeyCode::KeyZ.press(app.world_mut());
        KeyCode::KeyZ.release(app.world_mut());
        app.update();
        KeyCode::ControlLeft.release(app.world_mut());
        app.update();
        assert_eq!(app.world().resource::<Clock>().rounds, 0, "taken back");
    }

    #[test]
    fn space_plays_a_round_and_t_a_turn() {
        let mut app = app();
        press(&mut app, KeyCode::Space);
        assert_eq!(app.world().resource::<Clock>().rounds, 1);
        press(&mut app, KeyCode::KeyT);
        assert_eq!(app.world().resource::<Clock>().rounds, 11);
    }

    #[test]
    fn p_cycles_the_pace_g_switches_party_orders_and_r_rests() {
        let mut app = app();
        assert_eq!(app.world().resource::<UiState>().pace, Pace::Exploration);
        press(&mut app, KeyCode::KeyP);
        assert_eq!(app.world().resource::<UiState>().pace, Pace::Combat);
        press(&mut app, KeyCode::Tab); // Aldric, of the party
        press(&mut app, KeyCode::KeyR);
        let pending = app.world().resource::<PendingCommands>().given().to_vec();
        assert_eq!(
            pending,
            vec![delve_rules::act::AnyAct::from(RestParty {
                party: "party".into()
            })]
        );
        press(&mut app, KeyCode::KeyG);
        assert!(!app.world().resource::<UiState>().whole_party);
        press(&mut app, KeyCode::KeyR);
        let pending = app.world().resource::<PendingCommands>().given().to_vec();
        assert_eq!(
            pending.last(),
            Some(&delve_rules::act::AnyAct::from(Rest {
                who: "Aldric".into()
            }))
        );
        // Space plays the round: the commands are carried out.
        press(&mut app, KeyCode::Space);
        assert!(app.world().resource::<PendingCommands>().is_empty());
    }

    /// DESIGN.md › Principles: the window changes the simulation only through commands, and
    /// every command it gives is journaled, so replaying the journal gives the identical log.
    #[test]
    fn a_window_sessions_journal_replays_to_the_same_log() {
        let mut app = app();
        app.add_plugins((
            crate::gui::actions::ActionsPlugin,
            crate::gui::battle::BattleViewPlugin,
        ));
        for _ in 0..7 {
            press(&mut app, KeyCode::Tab);
        }
        assert_eq!(selected_name(&mut app).as_deref(), Some("Sera"));
        press(&mut app, KeyCode::Digit1); // a methodical search
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::KeyP); // combat pace
        press(&mut app, KeyCode::KeyR); // the party rests
        press(&mut app, KeyCode::KeyB); // the party fights by itself
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::Space);
        let world = app.world();
        let journal = world.resource::<delve_rules::command::Journal>().clone();
        assert!(
            journal.0.len() >= 4,
            "the search, the rest and the orders: {journal:?}"
        );
        let rounds = world.resource::<Clock>().rounds;
        let level = delve_ground::level::load_default_level().unwrap().level;
        let replayed = delve_play::sim::replay(&level, 1, &journal, rounds);
        let log = world.resource::<delve_ground::log::EventLog>();
        let again = replayed.world().resource::<delve_ground::log::EventLog>();
        assert_eq!(again.to_text(), log.to_text());
        assert_eq!(again.to_json_lines(), log.to_json_lines());
        // The journal the window writes is a command script for `delve sim`.
        let script = delve_play::sim::journal_script(app.world());
        let parsed = delve_play::sim::JournalFile::from_text(&script).unwrap();
        assert_eq!(parsed.commands, journal.0);
    }

    /// A hands the party to its policy (a journaled command); the policy's orders come as the
    /// rounds are played, marked in the log as its mind's; a second A takes the party back.
    #[test]
    fn a_hands_the_party_to_its_policy_and_takes_it_back() {
        let mut app = app();
        press(&mut app, KeyCode::KeyA);
        press(&mut app, KeyCode::KeyT);
        let minds = app
            .world()
            .resource::<delve_minds::policy::party::PartyMinds>();
        assert_eq!(minds.0.len(), 1, "the party is under its policy");
        let log = app.world().resource::<delve_ground::log::EventLog>();
        assert!(
            log.of::<delve_minds::policy::party::PolicyEvent>()
                .next()
                .is_some()
        );
        assert!(
            log.of::<delve_rules::command::CommandEvent>()
                .any(|e| matches!(
                    e,
                    delve_rules::command::CommandEvent::CommandAccepted { who, by_mind: true, .. }
                        if who == "party"
                ))
        );
        press(&mut app, KeyCode::KeyA);
        press(&mut app, KeyCode::Space);
        assert!(
            app.world()
                .resource::<delve_minds::policy::party::PartyMinds>()
                .0
                .is_empty()
        );
        let journal = &app.world().resource::<delve_rules::command::Journal>().0;
        let handed: Vec<bool> = journal
            .iter()
            .filter_map(|c| match &c.command {
                Command::Autonomy(a) => Some(a.policy.is_some()),
                _ => None,
            })
            .collect();
        assert_eq!(handed, vec![true, false]);
    }

    /// A journal replayed in the window (`--replay FILE`) gives its commands at their rounds:
    /// the window's log is the log of the delve it came from.
    #[test]
    fn a_journal_replays_in_the_window() {
        let level = delve_ground::level::load_default_level().unwrap().level;
        let policy = delve_ground::party_policy::PartyPolicy::default();
        let played = delve_play::sim::play_autonomous(&level, 1, &policy, &[], 40);
        let journal = played
            .world()
            .resource::<delve_rules::command::Journal>()
            .0
            .clone();
        let mut app = app();
        app.insert_resource(delve_rules::command::Script::new(&journal));
        for _ in 0..4 {
            press(&mut app, KeyCode::KeyT);
        }
        let log = app.world().resource::<delve_ground::log::EventLog>();
        let original = played.world().resource::<delve_ground::log::EventLog>();
        assert_eq!(log.to_json_lines(), original.to_json_lines());
    }

    #[test]
    fn f1_hides_and_shows_the_key_help() {
        let mut app = app();
        assert!(app.world().resource::<UiState>().show_help);
        press(&mut app, KeyCode::F1);
        assert!(!app.world().resource::<UiState>().show_help);
        press(&mut app, KeyCode::F1);
        assert!(app.world().resource::<UiState>().show_help);
    }
}
