//! What the selected creature can do where it stands, as the rules offer it
//! (`rules::choices_for`: every area's choices its holds allow — at the doors next to it, the
//! traps it knows of within reach, its searches, climbs, jumps, rescues). Each is listed in the
//! info panel with its key (1–9), its time and its chance of success; the key gives the
//! command, played at the next round.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::state::{Selected, Tell};
use delve::act::Choice;
use delve::act::PendingCommands;

/// The most choices offered at once: one per number key.
pub const MAX_CHOICES: usize = 9;

/// The selected creature's choices, each with what it concerns ("door (27, 4)", "here").
#[derive(Resource, Clone, Debug, Default)]
pub struct Offered(pub Vec<(String, Choice)>);

/// Works out the selected creature's choices afresh, as the rules offer them
/// (`rules::choices_for`: every area's, those its holds allow).
fn offer(world: &mut World) {
    let mut out = match world.resource::<Selected>().0 {
        Some(e) => delve::rules::choices_for(world, e),
        None => Vec::new(),
    };
    out.truncate(MAX_CHOICES);
    if world.resource::<Offered>().0 != out {
        world.resource_mut::<Offered>().0 = out;
    }
}

/// A number key takes the choice of that number.
fn choose(
    actions: Single<&ActionState<DelveAction>>,
    offered: Res<Offered>,
    mut pending: ResMut<PendingCommands>,
    mut tell: MessageWriter<Tell>,
) {
    for (i, (what, c)) in offered.0.iter().enumerate() {
        if actions.just_pressed(&DelveAction::Choose(i as u8)) {
            tell.write(Tell(format!(
                "{}: {} at the {what} - press Space to play rounds",
                c.command.who(),
                c.way
            )));
            pending.push(c.command.clone());
        }
    }
}

/// The info panel's lines for the choices: `1 door (27, 4): bash: 1 round 8+, 65% per attempt`.
pub fn describe(offered: &Offered) -> String {
    if offered.0.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nActions (number keys):");
    for (i, (what, c)) in offered.0.iter().enumerate() {
        s.push_str(&format!("\n {} {what}: {c}", i + 1));
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
    use delve::level::load_level_str;

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
        let mut app = delve::sim::sim_app(&level, 1);
        app.init_resource::<Offered>().add_systems(Update, offer);
        let bo = app.world().resource::<delve::creature::CreatureIndex>().0["Bo"];
        app.insert_resource(Selected(Some(bo)));
        app
    }

    /// Strength 18 with a crowbar bashes on 4+ (18 − 12 − 2); the pit in plain sight, seen by
    /// torchlight and so known, is a hole that can be jumped (RULINGS › Pits and holes) or
    /// disabled methodically at 18+; the search is 18+. The
    /// areas' choices come in the order the areas registered (`rules::choices_for`).
    #[test]
    fn the_selected_creature_is_offered_its_choices_with_their_chances() {
        let mut app = app();
        app.update();
        let offered = app.world().resource::<Offered>().0.clone();
        let lines: Vec<String> = offered.iter().map(|(w, c)| format!("{w}: {c}")).collect();
        assert_eq!(
            lines,
            vec![
                "here: rest: 1 turn, certain (due in 50 rounds)",
                "here: douse its lights: 1 round, certain",
                "here: drop the torch: 1 round, certain",
                "here: listen: 1 round 18+, 15% per attempt (by Adventuring; the Judge's secret throw)",
                "door (4, 1): bash: 1 round 4+, 85% per attempt (+12 Strength 18 (+3 x 4), +2 crowbar)",
                "here: jump the 5' gap to (1, 1): part of its move, 83% (no run-up: halved)",
                "here: search methodically: 1 turn 18+, 15% per attempt (within 5')",
                "trap (2, 1): disarm methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
                "trap (2, 1): discharge methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
            ]
        );
        assert!(
            offered[4]
                .1
                .command
                .get::<delve::rules::doors::Bash>()
                .is_some()
        );
    }

    /// In the crypt at round 0 Aldric carries an unlit lantern: selected (Tab), the number key
    /// of "light the lantern" (the second, after a rest) lights it as the round is played
    /// (Space), through the real input plugin.
    #[test]
    fn the_number_key_lights_aldrics_lantern() {
        use crate::gui::input::tests::press;
        let mut app = crate::gui::input::tests::app();
        app.add_plugins(ActionsPlugin);
        press(&mut app, KeyCode::Tab);
        let aldric = app.world().resource::<delve::creature::CreatureIndex>().0["Aldric"];
        assert_eq!(app.world().resource::<Selected>().0, Some(aldric));
        let ways: Vec<String> = app
            .world()
            .resource::<Offered>()
            .0
            .iter()
            .map(|(_, c)| c.way.clone())
            .collect();
        assert_eq!(ways[..2], ["rest", "light the lantern"], "{ways:?}");
        press(&mut app, KeyCode::Digit2);
        press(&mut app, KeyCode::Space);
        let world = app.world_mut();
        let mut lights = world.query::<(
            &delve::rules::light::LightSource,
            &delve::rules::light::CarriedBy,
        )>();
        let lantern = lights
            .iter(world)
            .find(|(l, by)| by.0 == aldric && l.kind == delve::level::schema::LightKind::Lantern)
            .map(|(l, _)| *l);
        assert!(lantern.is_some_and(|l| l.lit), "{lantern:?}");
    }
}
