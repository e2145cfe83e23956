//! What the selected creature can do where it stands: its choices at the doors next to it and
//! the traps it knows of within reach (Dungeon Delves › Doors, › Traps), and its searches
//! (› Searching). Each is listed in the info panel with its key (1–9), its time and its chance
//! of success; the key gives the command, played at the next round.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::input::{DelveAction, Selected, UiState};
use delve::command::Choice;
use delve::command::PendingCommands;
use delve::creature::Position;
use delve::rules::doors::Door;
use delve::rules::traps::Trap;

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
    mut ui: ResMut<UiState>,
) {
    for (i, (what, c)) in offered.0.iter().enumerate() {
        if actions.just_pressed(&DelveAction::Choose(i as u8)) {
            ui.notice = format!(
                "{}: {} at the {what} - press Space to play rounds",
                c.command.who(),
                c.way
            );
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

/// What the square under the pointer holds: its door and trap with their state, as far as the
/// view may tell (the party's view keeps unfound secret doors and traps hidden).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct UnderPointer(pub String);

/// A door's state in words: `secret iron-banded door, closed, locked (key "brass"), 2 spikes`.
pub fn describe_door(d: &Door) -> String {
    use delve::level::schema::Lock;
    let mut words = vec![format!(
        "{}{:?} door, {:?}",
        if d.secret { "secret " } else { "" },
        d.material,
        d.state
    )];
    match &d.lock {
        Lock::Unlocked => {}
        Lock::Locked { key: Some(k) } => words.push(format!("locked (key {k:?})")),
        Lock::Locked { key: None } => words.push("locked (no key)".into()),
        Lock::Jammed => words.push("jammed".into()),
    }
    for (on, what) in [
        (d.stuck, "stuck"),
        (d.evil, "evil"),
        (d.broken, "battered down"),
    ] {
        if on {
            words.push(what.into());
        }
    }
    if d.spikes > 0 {
        words.push(format!("{} spike(s)", d.spikes));
    }
    words.join(", ").to_lowercase()
}

/// A trap's state in words: `a 20' pit, Step trigger, hidden, armed, search -2`.
pub fn describe_trap(t: &Trap) -> String {
    use delve::level::schema::TrapKind;
    let kind = match &t.kind {
        TrapKind::Pit { depth_feet } => format!("a {depth_feet}' pit"),
        TrapKind::Custom { name, .. } => name.clone(),
    };
    let mut s = format!(
        "{kind} ({}), {:?} trigger, {}, {:?}",
        t.damage,
        t.trigger,
        if t.hidden { "hidden" } else { "found" },
        t.state
    );
    if t.search_modifier != 0 {
        s.push_str(&format!(", search {:+}", t.search_modifier));
    }
    s
}

fn under_pointer(
    pointer: super::input::Pointer,
    view: Option<Res<super::lighting::ViewMode>>,
    doors: Query<(&Position, &Door)>,
    traps: Query<(&Position, &Trap)>,
    parties: Res<delve::rules::party::Parties>,
    factions: Query<&delve::creature::Faction>,
    mut under: ResMut<UnderPointer>,
) {
    let party_view = view.as_deref() == Some(&super::lighting::ViewMode::Party);
    // The party's view tells only of the traps the party knows (RULINGS › Knowledge).
    let party = parties
        .0
        .first()
        .and_then(|p| p.leader())
        .and_then(|l| factions.get(l).ok())
        .copied();
    let mut s = String::new();
    if let Some(p) = pointer.square() {
        for (_, d) in doors.iter().filter(|(at, _)| at.0 == p) {
            if !(party_view && d.secret) {
                s.push_str(&format!("\n{p}: {}", describe_door(d)));
            }
        }
        for (_, t) in traps.iter().filter(|(at, _)| at.0 == p) {
            if !party_view || t.known_to(party) {
                s.push_str(&format!("\n{p}: trap: {}", describe_trap(t)));
            }
        }
    }
    if under.0 != s {
        under.0 = s;
    }
}

pub struct ActionsPlugin;

impl Plugin for ActionsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Offered>()
            .init_resource::<UnderPointer>()
            .add_systems(Update, under_pointer.after(super::map::RedrawSet))
            .add_systems(
                Update,
                (offer, choose)
                    .chain()
                    .after(super::map::RedrawSet)
                    .before(super::input::play_rounds),
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve::command::Command;
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
    /// torchlight and so known, can be disabled methodically at 18+; the search is 18+. The
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
                "door (4, 1): bash: 1 round 4+, 85% per attempt (+12 Strength 18 (+3 x 4), +2 crowbar)",
                "here: search methodically: 1 turn 18+, 15% per attempt (within 5')",
                "trap (2, 1): disarm methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
                "trap (2, 1): discharge methodically: 1 turn 18+, 15% per attempt (by Adventuring; a 1 sets it off)",
            ]
        );
        assert!(matches!(offered[0].1.command, Command::Bash(_)));
    }
}
