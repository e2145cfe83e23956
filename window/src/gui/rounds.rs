//! Playing the rounds asked for (Space, T): in the headless schedule, along the timeline's
//! line where the delve is back on it, stopping a turn where a battle begins with the party
//! waiting for orders; then the journal is written (`gui::saving`).

use delve_ground::time::Clock;
use delve_minds::policy::party::DelveEnd;
use delve_play::keyframe::Keyframes;
use delve_rules::act::PendingCommands;
use delve_rules::command::Script;
use delve_rules::rules::combat::battle::{Battle, Controlled};
use delve_rules::rules::party::Parties;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::saving::{keep_the_line_left, write_journal};
use super::state::{PlayRounds, RedrawSet, RoundsRequested, ShownLevel, Tell};
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::schedule::SimRound;

pub struct RoundsPlugin;

impl Plugin for RoundsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                request_rounds.after(RedrawSet),
                play_rounds.after(request_rounds).in_set(PlayRounds),
            ),
        );
    }
}

fn request_rounds(
    actions: Single<&ActionState<DelveAction>>,
    mut requested: ResMut<RoundsRequested>,
) {
    if actions.just_pressed(&DelveAction::AdvanceRound) {
        requested.0 += 1;
    }
    if actions.just_pressed(&DelveAction::AdvanceTurn) {
        requested.0 += ROUNDS_PER_TURN;
    }
}

/// Plays the rounds asked for, in the headless schedule; then writes the journal if asked to.
pub fn play_rounds(world: &mut World) {
    let n = std::mem::take(&mut world.resource_mut::<RoundsRequested>().0);
    // The notice tells of the last thing done: rounds played, it is told anew (or not at all).
    if n > 0 {
        world.write_message(Tell::nothing());
    }
    let ended = world.resource::<DelveEnd>().0.is_some();
    let forks = world
        .get_resource::<Keyframes>()
        .map_or(0, |k| k.left().len());
    for _ in 0..n {
        if along_the_line(world) {
            // Back on the timeline and no new order: the line's next round, as it was played.
            let level = world.resource::<ShownLevel>().level.clone();
            let to = world.resource::<Clock>().rounds + 1;
            delve_play::save::seek(world, &level, to);
            world.resource_mut::<ShownLevel>().keep_view = true;
            continue;
        }
        // Once the delve is over, no round is played on (take one back to play otherwise).
        if world.resource::<DelveEnd>().0.is_some() {
            world.write_message(Tell(
                "the delve is over: Ctrl+Z takes back a round, to play it otherwise".to_string(),
            ));
            break;
        }
        // A journal being replayed (`--replay FILE`) gives its commands at their rounds.
        delve_rules::command::give_due(world);
        super::battle::give_the_control_wished(world);
        let fighting = in_battle(world);
        world.run_schedule(SimRound);
        // A battle begun with the party waiting for orders stops a turn played (T): the player
        // gives the orders (F), or lets the party fight by itself (B).
        if n > 1 && !fighting && in_battle(world) && party_waits_for_orders(world) {
            let round = world.resource::<Clock>().rounds;
            world.write_message(Tell(format!(
                "a battle began at round {round}: the party waits for your orders (F attacks, B lets it fight by itself)"
            )));
            break;
        }
    }
    keep_the_line_left(world, forks);
    if !ended && let Some((party, outcome, tally)) = &world.resource::<DelveEnd>().0 {
        let told = format!("the delve of the {party} is over: {outcome} ({tally})");
        world.write_message(Tell(told));
    }
    if n > 0 {
        write_journal(world);
    }
}

/// Is a battle on?
fn in_battle(world: &World) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.active)
}

/// Do a party's members wait for the player's orders in a battle (`gui::battle`)? Not a party
/// under its policy: it is let go at the next round.
fn party_waits_for_orders(world: &World) -> bool {
    world
        .resource::<Parties>()
        .0
        .iter()
        .filter(|p| !super::battle::under_its_policy(world, &p.name))
        .filter_map(|p| p.marching_order.first())
        .any(|&leader| world.get::<Controlled>(leader).is_some())
}

/// Is the world behind the end of its timeline's line, with no order given since (so that the
/// next round is the line's)?
fn along_the_line(world: &World) -> bool {
    let Some(frames) = world.get_resource::<Keyframes>() else {
        return false;
    };
    let now = world.resource::<Clock>().rounds;
    now < frames.end()
        && world.resource::<PendingCommands>().given().is_empty()
        && world.get_resource::<Script>().is_none_or(|s| s.is_empty())
}
