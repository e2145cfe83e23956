//! The headless simulation: the `SimRound` schedule (one run = one round), its chained phases,
//! the plugin group, and a test harness.
//!
//! DESIGN.md › Principles: rounds are the tick; one seeded RNG; the schedule runs on the
//! single-threaded executor with chained system sets, so the order of every draw is fixed.

use bevy::app::PluginGroupBuilder;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

use crate::actors::command::dispatch_commands;
use crate::actors::party::PartyPlugin;
use crate::actors::{Command, PendingCommands, install_level};
use crate::level::Level;
use crate::log::{Event, EventLog};
use crate::rules::conditions::ConditionsPlugin;
use crate::rules::movement::MovementPlugin;
use crate::rules::penalties::SituationalPenalties;
use crate::rules::rest::RestPlugin;
use crate::time::{Clock, ROUNDS_PER_HOUR, ROUNDS_PER_TURN};

/// One run of this schedule plays one round.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimRound;

/// The phases of a round, in order. Each rule area puts its systems in its phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundSet {
    Commands,
    Initiative,
    Movement,
    Traps,
    Light,
    Vision,
    Sound,
    Hearing,
    Combat,
    Conditions,
    Clock,
    Log,
}

/// The schedule, its phases and the clock.
pub struct SimCorePlugin;

impl Plugin for SimCorePlugin {
    fn build(&self, app: &mut App) {
        let mut schedule = Schedule::new(SimRound);
        schedule.set_executor(SingleThreadedExecutor::new());
        schedule.configure_sets(
            (
                RoundSet::Commands,
                RoundSet::Initiative,
                RoundSet::Movement,
                RoundSet::Traps,
                RoundSet::Light,
                RoundSet::Vision,
                RoundSet::Sound,
                RoundSet::Hearing,
                RoundSet::Combat,
                RoundSet::Conditions,
                RoundSet::Clock,
                RoundSet::Log,
            )
                .chain(),
        );
        app.add_schedule(schedule)
            .init_resource::<Clock>()
            .init_resource::<EventLog>()
            .init_resource::<PendingCommands>()
            .add_systems(SimRound, dispatch_commands.in_set(RoundSet::Commands))
            .add_systems(SimRound, advance_clock.in_set(RoundSet::Clock));
    }
}

/// Ends the round: the clock moves on, and the end of a turn or an hour is logged.
pub fn advance_clock(mut clock: ResMut<Clock>, mut log: ResMut<EventLog>) {
    let round = clock.rounds;
    clock.rounds += 1;
    if clock.rounds.is_multiple_of(ROUNDS_PER_TURN) {
        log.push(
            round,
            Event::TurnEnded {
                turn: clock.rounds / ROUNDS_PER_TURN,
            },
        );
    }
    if clock.rounds.is_multiple_of(ROUNDS_PER_HOUR) {
        log.push(
            round,
            Event::HourEnded {
                hour: clock.rounds / ROUNDS_PER_HOUR,
            },
        );
    }
}

/// Every headless rule plugin. Works with `MinimalPlugins`; the window adds `GuiPlugins`.
pub struct SimPlugins;

impl PluginGroup for SimPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(SimCorePlugin)
            .add(ConditionsPlugin)
            .add(MovementPlugin)
            .add(PartyPlugin)
            .add(RestPlugin)
            .add(crate::rules::light::LightPlugin)
            .add(crate::rules::vision::VisionPlugin)
            .add(crate::rules::sound::hearing::HearingPlugin)
            .add(crate::actors::ai::MonsterAiPlugin)
            .add(crate::rules::doors::DoorsPlugin)
            .add(crate::actors::task::TaskPlugin)
            .add(crate::rules::combat::battle::BattlePlugin)
            .add(crate::rules::search::SearchPlugin)
            .add(crate::rules::traps::TrapsPlugin)
            .add(SituationalPenalties)
    }
}

/// A headless app running `level` with dice seeded by `seed`: `MinimalPlugins` + `SimPlugins`.
pub fn sim_app(level: &Level, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SimPlugins));
    install_level(app.world_mut(), level, seed);
    app
}

/// Plays one round.
pub fn run_round(world: &mut World) {
    world.run_schedule(SimRound);
}

/// Plays `n` rounds.
pub fn run_rounds(world: &mut World, n: u64) {
    for _ in 0..n {
        run_round(world);
    }
}

/// Queues a command for the next round.
pub fn give(world: &mut World, command: Command) {
    world.resource_mut::<PendingCommands>().push(command);
}
