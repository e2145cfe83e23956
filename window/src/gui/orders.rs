//! The selection and the orders given from the keys and the mouse: Tab and a click select, a
//! right click walks there, P, G, R, U, A set the pace, the party's orders, rest, stand up, and
//! hand the party to its policy. Each order is a command for the next round.

use delve_minds::policy::party::PartyMinds;
use delve_rules::rules::party::Autonomy;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::camera::Framing;
use super::controls::DelveAction;
use super::pointer::Pointer;
use super::state::{RedrawSet, Selected, Tell, UiState, ViewMode, WindowPolicy, ordered_party};
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::command::acts::{Move, MoveParty, Rest, RestParty, StandUp};
use delve_rules::creature::{Creature, Position};
use delve_rules::rules::party::Parties;

pub struct OrdersPlugin;

impl Plugin for OrdersPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (select, move_here, orders, autonomy).after(RedrawSet),
        );
    }
}

/// Tab and a click select a creature the view shows (in the party's view, the party's own and
/// those it sees: an unseen monster is not picked out by the keys or the inspector).
#[allow(clippy::too_many_arguments)]
fn select(
    actions: Single<&ActionState<DelveAction>>,
    pointer: Pointer,
    creatures: Query<(Entity, &Position, &Name), With<Creature>>,
    facts: super::under_pointer::SquareFacts,
    view: Option<Res<super::state::ViewMode>>,
    mut selected: ResMut<Selected>,
    mut ui: ResMut<UiState>,
    mut framing: ResMut<Framing>,
    mut tell: MessageWriter<Tell>,
) {
    let tab = actions.just_pressed(&DelveAction::NextCreature);
    let click = actions.just_pressed(&DelveAction::Select);
    if !tab && !click {
        return;
    }
    // One creature's view is the Judge's look through its eyes: any creature may be chosen.
    let shown = match view.as_deref() {
        Some(ViewMode::Party) => Some(facts.shown_creatures(selected.0)),
        _ => None,
    };
    let selectable = |e: Entity| shown.as_ref().is_none_or(|s| s.contains(&e));
    if tab {
        // The camera goes to the creature Tab chose.
        framing.jump = true;
        let mut all: Vec<(Entity, String)> = creatures
            .iter()
            .filter(|(e, ..)| selectable(*e))
            .map(|(e, _, n)| (e, n.to_string()))
            .collect();
        all.sort_by(|a, b| a.1.cmp(&b.1));
        let next = match selected
            .0
            .and_then(|s| all.iter().position(|(e, _)| *e == s))
        {
            Some(i) => all.get((i + 1) % all.len().max(1)),
            None => all.first(),
        };
        selected.0 = next.map(|(e, _)| *e);
    }
    if click && let Some(p) = pointer.square() {
        // A creature there is selected; an empty square is picked for the Judge's hand
        // (`gui::panels`), the selection kept, so that it can be placed there.
        ui.picked = Some(p);
        let there = creatures
            .iter()
            .find(|(e, pos, _)| pos.0 == p && selectable(*e))
            .map(|(e, _, _)| e);
        if there.is_some() {
            selected.0 = there;
        } else if let Some(report) = facts.describe(p, selected.0) {
            // What the view knows of the square (a square the party never saw tells nothing).
            tell.write(Tell(report.lines().join("; ")));
        }
    }
}

/// Right click: the selected creature is told to walk there (given at the next round).
#[allow(clippy::too_many_arguments)]
fn move_here(
    actions: Single<&ActionState<DelveAction>>,
    pointer: Pointer,
    selected: Res<Selected>,
    names: Query<&Name>,
    parties: Res<Parties>,
    mut pending: ResMut<PendingCommands>,
    ui: Res<UiState>,
    mut tell: MessageWriter<Tell>,
    known: super::preview::WalkKnowledge,
) {
    // (Shift + right click opens the square's menu: `gui::square_menu`.)
    if !actions.just_pressed(&DelveAction::MoveHere) || actions.pressed(&DelveAction::SquareMenu) {
        return;
    }
    let Some(who) = selected.0.and_then(|e| names.get(e).ok()) else {
        tell.write(Tell("select a creature first (Tab or left click)".into()));
        return;
    };
    let Some(to) = pointer.square() else {
        return;
    };
    // A closed door is walked up to (the walker, or the party's leader, beside it).
    let party = ordered_party(&parties, &ui, selected.0);
    let mover = party
        .as_ref()
        .and_then(|p| parties.get(p))
        .and_then(|p| p.leader())
        .or(selected.0);
    let to = mover.map_or(to, |m| known.walk_end(&pointer.grid, m, to));
    let command = match party {
        Some(party) => Command::MoveParty(MoveParty {
            party,
            to: (to.x, to.y),
            pace: ui.pace,
        }),
        None => Command::Move(Move {
            who: who.to_string(),
            to: (to.x, to.y),
            pace: ui.pace,
        }),
    };
    tell.write(Tell(format!(
        "{}: {command} - press Space to play rounds",
        command.who()
    )));
    pending.push(command);
}

/// P, G, R, U: pace, party orders, rest, stand up.
fn orders(
    actions: Single<&ActionState<DelveAction>>,
    selected: Res<Selected>,
    names: Query<&Name>,
    parties: Res<Parties>,
    mut pending: ResMut<PendingCommands>,
    mut ui: ResMut<UiState>,
    mut tell: MessageWriter<Tell>,
) {
    if actions.just_pressed(&DelveAction::CyclePace) {
        ui.pace = ui.pace.next();
        tell.write(Tell(format!("moves at {} speed", ui.pace)));
    }
    if actions.just_pressed(&DelveAction::TogglePartyOrders) {
        ui.whole_party = !ui.whole_party;
        tell.write(Tell(if ui.whole_party {
            "orders go to the whole party".into()
        } else {
            "orders go to the selected creature alone".into()
        }));
    }
    let who = selected
        .0
        .and_then(|e| names.get(e).ok())
        .map(|n| n.to_string());
    for (action, make) in [(DelveAction::Rest, true), (DelveAction::StandUp, false)] {
        if !actions.just_pressed(&action) {
            continue;
        }
        let Some(who) = who.clone() else {
            tell.write(Tell("select a creature first (Tab or left click)".into()));
            continue;
        };
        let command = match (make, ordered_party(&parties, &ui, selected.0)) {
            (true, Some(party)) => Command::RestParty(RestParty { party }),
            (true, None) => Command::Rest(Rest { who }),
            (false, _) => Command::StandUp(StandUp { who }),
        };
        tell.write(Tell(format!(
            "{}: {command} - press Space to play rounds",
            command.who()
        )));
        pending.push(command);
    }
}

/// A: the selected creature's party (or the level's first) delves by itself under its policy,
/// or is taken back under the player's orders. Either is a journaled command.
fn autonomy(
    actions: Single<&ActionState<DelveAction>>,
    selected: Res<Selected>,
    parties: Res<Parties>,
    minds: Res<PartyMinds>,
    policy: Option<Res<WindowPolicy>>,
    mut pending: ResMut<PendingCommands>,
    mut tell: MessageWriter<Tell>,
) {
    if !actions.just_pressed(&DelveAction::Autonomy) {
        return;
    }
    let party = selected
        .0
        .and_then(|e| parties.of(e))
        .or_else(|| parties.0.first())
        .map(|p| p.name.clone());
    let Some(party) = party else {
        tell.write(Tell("this level has no party to hand to a policy".into()));
        return;
    };
    let under_policy = minds.0.iter().any(|m| m.party == party);
    let command = Autonomy {
        party: party.clone(),
        policy: (!under_policy).then(|| policy.map(|p| p.0.clone()).unwrap_or_default()),
    };
    tell.write(Tell(format!(
        "{party}: {command} - press Space or T to play rounds"
    )));
    pending.push(command);
}
