//! What the selected creature can do where it stands, as the rules offer it
//! (`rules::choices_for`: every area's choices its holds allow, most pressing first — ways out
//! of a hold, the battle's actions, the doors and traps at hand, lights, searching and
//! listening, rest, the voice). Each is listed in the info panel with its key (1–9, nine at a
//! time: 0 shows the next nine), its time and its chance of success; the key gives the command,
//! played at the next round. The common ones have keys of their own ([`COMMON_KEYS`]), which take the
//! first such offer wherever it stands in the list.

use delve_rules::rules::acting::Hold;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::state::{Selected, Tell};
use delve_rules::act::{Choice, Common, Concern, PendingCommands};

/// The most choices listed at once: one per number key.
pub const MAX_CHOICES: usize = 9;

/// The key of each common action (`delve_rules::act::Common`): it takes the first offer whose command
/// says it is that action, whichever rule area offers it.
pub const COMMON_KEYS: &[(DelveAction, Common)] = &[
    (DelveAction::LightOrDouse, Common::LightOrDouse),
    (DelveAction::Listen, Common::Listen),
    (DelveAction::Search, Common::Search),
    (DelveAction::Hide, Common::Hide),
    (DelveAction::TakeGear, Common::TakeGear),
    (DelveAction::Carry, Common::Carry),
];

/// The selected creature's choices, each with what it concerns ("door (27, 4)", "here"), and
/// which nine the number keys take.
#[derive(Resource, Clone, Debug, Default)]
pub struct Offered {
    pub all: Vec<(Concern, Choice)>,
    /// The page of nine shown (0 the first).
    pub page: usize,
    /// What holds the creature, if anything (surprised, stuck, drowning, …): why it is offered
    /// little or nothing.
    pub held: Option<Hold>,
}

impl Offered {
    /// The nine (or fewer) the number keys take now.
    pub fn shown(&self) -> &[(Concern, Choice)] {
        let start = (self.page * MAX_CHOICES).min(self.all.len());
        let end = (start + MAX_CHOICES).min(self.all.len());
        &self.all[start..end]
    }

    /// How many pages of nine there are.
    pub fn pages(&self) -> usize {
        self.all.len().div_ceil(MAX_CHOICES)
    }
}

/// Works out the selected creature's choices afresh, as the rules offer them
/// (`rules::choices_for`: every area's, those its holds allow). A new list starts at its first
/// page.
fn offer(world: &mut World) {
    let (out, held) = match world.resource::<Selected>().0 {
        Some(e) => (
            delve_rules::rules::choices_for(world, e),
            delve_rules::rules::acting::held(world, e),
        ),
        None => (Vec::new(), None),
    };
    let now = world.resource::<Offered>();
    if now.all != out || now.held != held {
        *world.resource_mut::<Offered>() = Offered {
            all: out,
            page: 0,
            held,
        };
    }
}

/// A number key takes the choice of that number on the page shown; 0 turns the page; a key of
/// a common action takes the first such offer.
fn choose(
    actions: Single<&ActionState<DelveAction>>,
    mut offered: ResMut<Offered>,
    mut pending: ResMut<PendingCommands>,
    mut tell: MessageWriter<Tell>,
) {
    if actions.just_pressed(&DelveAction::MoreChoices) && offered.pages() > 1 {
        offered.page = (offered.page + 1) % offered.pages();
    }
    let mut taken: Option<&(Concern, Choice)> = None;
    for (i, choice) in offered.shown().iter().enumerate() {
        if actions.just_pressed(&DelveAction::Choose(i as u8)) {
            taken = Some(choice);
        }
    }
    for (action, common) in COMMON_KEYS {
        if actions.just_pressed(action) {
            match offered
                .all
                .iter()
                .find(|(_, c)| c.command.act().common() == Some(*common))
            {
                Some(choice) => taken = Some(choice),
                None => {
                    tell.write(Tell(format!(
                        "nothing to {} here: the rules do not offer it now",
                        super::controls::HELP
                            .iter()
                            .find(|(a, _)| a == action)
                            .map_or("do", |(_, w)| w)
                    )));
                }
            }
        }
    }
    if let Some((what, c)) = taken {
        tell.write(Tell(chosen(what, c)));
        pending.push(c.command.clone());
    }
}

/// The notice for a choice taken: `Sera: pick the lock (door (23, 4)) - press Space to play
/// rounds` (what it concerns named unless it is the creature's own square).
pub fn chosen(what: &Concern, c: &Choice) -> String {
    let at = match what {
        Concern::Here => String::new(),
        other => format!(" ({other})"),
    };
    format!(
        "{}: {}{at} - press Space to play rounds",
        c.command.who(),
        c.way
    )
}

/// The info panel's lines for the choices shown: `1 door (27, 4): bash: 1 round 8+, 65% per
/// attempt`, and how to see the rest.
pub fn describe(offered: &Offered) -> String {
    let mut s = match offered.held {
        Some(hold) => format!("\nHeld: {hold}"),
        None => String::new(),
    };
    if offered.all.is_empty() {
        return s;
    }
    s.push_str("\nActions (number keys):");
    for (i, (what, c)) in offered.shown().iter().enumerate() {
        s.push_str(&format!("\n {} {what}: {c}", i + 1));
    }
    if offered.pages() > 1 {
        s.push_str(&format!(
            "\n 0 more ({} of {} pages, {} actions)",
            offered.page + 1,
            offered.pages(),
            offered.all.len()
        ));
    }
    s
}

pub struct ActionsPlugin;

impl Plugin for ActionsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Offered>().add_systems(
            Update,
            (offer, choose)
                .chain()
                .after(super::state::RedrawSet)
                .before(super::state::PlayRounds),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::level::load_level_str;

    fn app() -> App {
        let src = r#"(name: "door", legend: { 'X': Wall(Stone), '.': Floor, '+': Door },
            map: ["XXXXXXXXX", "X...+...X", "XXXXXXXXX"],
            doors: [(at: (4, 1), stuck: true)],
            traps: [(at: (2, 1), kind: Pit(depth_feet: 10), hidden: false)],
            factions: [(name: "party")],
            creatures: [(name: "Bo", faction: "party", at: (3, 1), hp: 6, ac: 10,
                         encumbrance_stone: 2.0, str: 18, gear: [Crowbar],
                         carries: [(kind: Torch, lit: true)])])"#;
        let level = load_level_str(src, "door.ron", None).unwrap().level;
        let mut app = delve_play::sim::sim_app(&level, 1);
        app.init_resource::<Offered>().add_systems(Update, offer);
        // Bo tries the door and finds it stuck (a door is known as last tried).
        let open = delve_rules::command::acts::OpenDoor {
            who: "Bo".into(),
            at: (4, 1),
        };
        delve_rules::command::dispatch_now(app.world_mut(), open);
        let bo = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0["Bo"];
        app.insert_resource(Selected(Some(bo)));
        app
    }

    /// Strength 18 with a crowbar bashes the door it found stuck on 4+ (18 − 12 − 2); the pit in plain sight, seen by
    /// torchlight and so known, is a hole that can be jumped (RULINGS › Pits and holes) or
    /// disabled methodically at 18+; the search is 18+. The choices come most pressing first
    /// (`rules::areas::Rank`): the jump, the door and the trap at hand, the light, listening
    /// and searching, rest, the voice; nine a page, 0 turns it.
    #[test]
    fn the_selected_creature_is_offered_its_choices_with_their_chances() {
        let mut app = app();
        app.update();
        let offered = app.world().resource::<Offered>().clone();
        let lines: Vec<String> = offered
            .all
            .iter()
            .map(|(w, c)| format!("{w}: {c}"))
            .collect();
        assert_eq!(
            lines,
            vec![
                "here: jump the 5' gap to (1, 1): part of its move, 83% (no run-up: halved)",
                "door (4, 1): bash: 1 round 4+, 85% per attempt (+12 Strength 18 (+3 x 4), +2 crowbar)",
                "door (4, 1): hold shut: as long as it stands there, certain (while it stays beside it: only bashing opens it)",
                "trap (2, 1): disarm methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
                "trap (2, 1): discharge methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
                "here: douse its lights: 1 round, certain",
                "here: drop the torch: 1 round, certain",
                "here: listen: 1 round 18+, 15% per attempt (by Adventuring; the Judge's secret throw)",
                "here: search methodically: 1 turn 18+, 15% per attempt (within 5')",
                "here: rest: 1 turn, certain (due in 50 rounds)",
                "here: talk: free, certain (a normal noise, heard by friend and foe)",
                "here: shout: free, certain (a loud noise, heard by friend and foe)",
            ]
        );
        assert_eq!(
            delve_rules::command::Command::from(&offered.shown()[1].1.command).name(),
            "Bash"
        );
        assert_eq!((offered.shown().len(), offered.pages()), (9, 2));
        assert!(describe(&offered).ends_with("0 more (1 of 2 pages, 12 actions)"));
    }

    /// In a battle the list offers the battle's actions — an attack on the ghoul beside Brannoc
    /// with its chance, stepping back cautiously, disengaging, total defense — and the number key
    /// of total defense, through the real input plugin, gives it in the party's initiative.
    #[test]
    fn a_battles_actions_are_offered_and_taken_by_their_keys() {
        use crate::gui::input::tests::press;
        let src = r#"(name: "duel", legend: { 'X': Wall(Stone), '.': Floor },
            map: ["XXXXXXX", "X.....X", "XXXXXXX"],
            lights: [(at: (3, 1), kind: Custom(bright_feet: 30, dim_feet: 40), lit: true)],
            factions: [(name: "party"), (name: "ghouls", hostile_to: ["party"])],
            creatures: [
                (name: "Brannoc", faction: "party", at: (2, 1), hp: 18, ac: 16,
                 encumbrance_stone: 6.0, attack_bonus: 3,
                 weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)]),
                (name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1), hp: 30),
            ])"#;
        let level = load_level_str(src, "duel.ron", None).unwrap().level;
        let mut app = crate::gui::input::tests::app_with(level, 1);
        app.add_plugins(ActionsPlugin);
        // Initiative 11 and 9, neither side surprised: the battle begins in the first round.
        app.world_mut()
            .resource_mut::<delve_ground::dice::Dice>()
            .script([11, 9, 6, 6]);
        press(&mut app, KeyCode::Space);
        press(&mut app, KeyCode::Tab);
        let brannoc = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0["Brannoc"];
        assert_eq!(
            *app.world().resource::<delve_ground::time::DelveMode>(),
            delve_ground::time::DelveMode::Encounter
        );
        assert_eq!(app.world().resource::<Selected>().0, Some(brannoc));
        let ways: Vec<String> = app
            .world()
            .resource::<Offered>()
            .shown()
            .iter()
            .map(|(_, c)| c.way.clone())
            .collect();
        for way in [
            "attack with its sword",
            "step back cautiously",
            "disengage",
            "total defense",
        ] {
            assert!(ways.contains(&way.to_owned()), "{way}: {ways:?}");
        }
        let key = ways.iter().position(|w| w == "total defense").unwrap();
        press(
            &mut app,
            [
                KeyCode::Digit1,
                KeyCode::Digit2,
                KeyCode::Digit3,
                KeyCode::Digit4,
                KeyCode::Digit5,
            ][key],
        );
        press(&mut app, KeyCode::Space);
        assert!(
            accepted(&app, "Brannoc", "TotalDefense"),
            "{}",
            app.world()
                .resource::<delve_ground::log::EventLog>()
                .to_text()
        );
    }

    /// Whether `who` was given a command of this name and it was carried out (the gate let it
    /// through and its rule area did what it says).
    fn accepted(app: &App, who: &str, name: &str) -> bool {
        app.world()
            .resource::<delve_ground::log::EventLog>()
            .of::<delve_rules::command::CommandEvent>()
            .any(|e| {
                matches!(e, delve_rules::command::CommandEvent::CommandAccepted { who: w, command, .. }
                    if w == who && command.name() == name)
            })
    }

    /// Every common action has its key, and no key names one twice.
    #[test]
    fn every_common_action_has_a_key() {
        for common in Common::ALL {
            let keys = COMMON_KEYS.iter().filter(|(_, c)| c == common).count();
            assert_eq!(keys, 1, "{common:?}");
        }
    }

    /// A creature under a hold is told why it is offered so little: stuck in a squeeze, Bo is
    /// offered only its voice, and the list says it is stuck.
    #[test]
    fn a_held_creature_is_told_why() {
        let src = r#"(name: "stuck", legend: { 'X': Wall(Stone), '.': Floor },
            map: ["XXXXX", "X...X", "XXXXX"],
            factions: [(name: "party")],
            creatures: [(name: "Bo", faction: "party", at: (2, 1), hp: 6, ac: 10,
                         encumbrance_stone: 2.0, conditions: [Stuck])])"#;
        let level = load_level_str(src, "stuck.ron", None).unwrap().level;
        let mut app = delve_play::sim::sim_app(&level, 1);
        app.init_resource::<Offered>().add_systems(Update, offer);
        // Bo tries the door and finds it stuck (a door is known as last tried).
        let open = delve_rules::command::acts::OpenDoor {
            who: "Bo".into(),
            at: (4, 1),
        };
        delve_rules::command::dispatch_now(app.world_mut(), open);
        let bo = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0["Bo"];
        app.insert_resource(Selected(Some(bo)));
        app.update();
        let offered = app.world().resource::<Offered>().clone();
        assert_eq!(offered.held, Some(delve_rules::rules::acting::Hold::Stuck));
        let text = describe(&offered);
        assert!(
            text.starts_with(
                "\nHeld: it is stuck in a squeeze: it can only wiggle back or push forward"
            ),
            "{text}"
        );
    }

    /// In the crypt at round 0 Aldric carries an unlit lantern: selected (Tab), the light key
    /// (D) lights it as the round is played (Space), through the real input plugin; so does its
    /// number key.
    #[test]
    fn the_light_key_lights_aldrics_lantern() {
        use crate::gui::input::tests::press;
        let lit = |app: &mut App| accepted(app, "Aldric", "LightUp");
        for key in [KeyCode::KeyD, KeyCode::Digit1] {
            let mut app = crate::gui::input::tests::app();
            app.add_plugins(ActionsPlugin);
            press(&mut app, KeyCode::Tab);
            let aldric = app
                .world()
                .resource::<delve_rules::creature::CreatureIndex>()
                .0["Aldric"];
            assert_eq!(app.world().resource::<Selected>().0, Some(aldric));
            let ways: Vec<String> = app
                .world()
                .resource::<Offered>()
                .shown()
                .iter()
                .map(|(_, c)| c.way.clone())
                .collect();
            assert_eq!(ways[0], "light the lantern", "{ways:?}");
            assert!(!lit(&mut app));
            press(&mut app, key);
            press(&mut app, KeyCode::Space);
            assert!(lit(&mut app), "{key:?}");
        }
    }
}
