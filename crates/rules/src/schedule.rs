//! The order of a round, in one place (DESIGN.md › Principles: rounds are the tick). One run of
//! [`SimRound`] plays one round; its phases run in the order listed in [`RoundSet`], each rule
//! area's systems in their phase, and no area orders itself against another's systems. The
//! schedule runs on the single-threaded executor, so the order of every die is fixed; a test
//! builds it with ambiguity detection.
//!
//! In a battle the round's acting is done faction by faction (RULINGS › The battle round): in the
//! [`RoundSet::Initiatives`] phase the [`FactionInitiative`] schedule runs once for each fighting
//! faction, in initiative order, with [`ActingOrder::initiative`] naming it; each area's systems
//! for an initiative act only for that faction's members. Creatures whose faction is not in the
//! battle act in the round's own phases.
//!
//! The clock moves on at the end of every round ([`advance_clock`]), logging the end of a turn
//! and of an hour ([`DelveEvent`]).

use delve_ground::log::LogKind;

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;
use serde::Serialize;

use crate::creature::ActingOrder;
use delve_ground::log::{EventLog, LogEvent};
use delve_ground::time::{Clock, ROUNDS_PER_HOUR, ROUNDS_PER_TURN};

/// One run of this schedule plays one round.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimRound;

/// The phases of a round, in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundSet {
    /// Last round's records are cleared as the round begins, before its commands are carried
    /// out: what each creature moved (a command's situational penalties are this round's).
    NewRound,
    /// Who is fighting, and in what order, as the round begins: the battle's acting order
    /// ([`ActingOrder`]), before anything asks for it.
    ActingOrder,
    /// The round's commands are carried out (and journaled); in a battle, actions wait for
    /// their faction's initiative.
    Commands,
    /// What ends or resets when a round begins: last round's movement, disorder.
    StartOfRound,
    /// The start of each creature's initiative, once what ends with it has ended: swimming and
    /// drowning (outside a battle; in one, in the faction's initiative).
    Swimming,
    /// Who threatens whom before anyone moves (attacks of opportunity).
    Readiness,
    /// What each walker knows lies in its way before anyone moves: walks turn from the holes and
    /// traps their walkers have come to know of (RULINGS › Pits and holes).
    WayAhead,
    /// In a battle, each fighting faction's initiative, in initiative order
    /// ([`FactionInitiative`]).
    Initiatives,
    /// Walking and running, square by square.
    Walking,
    /// Movement by other means, after the walkers (a jumper's run-up is its walk): jumping,
    /// climbing, traversing, rigging.
    Climbing,
    /// Followers take their places behind the party's leader.
    Formation,
    /// Those held up out of the water are carried along by those holding them.
    Carried,
    /// What exploring at exploration speed allows this round (mapping, probing).
    ExplorationBenefits,
    /// Actions that take turns go on, or are settled.
    Tasks,
    /// Searching, and the exploring thief's automatic search.
    Searching,
    /// Traps risked by those who moved or opened doors.
    Traps,
    /// Fuel runs out; the light map is brought up to date.
    Light,
    /// What each creature sees; fog of war; the party's map.
    Vision,
    /// What each faction learns from what its members see: traps in plain sight.
    Knowledge,
    /// Lights that appear unexpectedly distract (the situational penalties).
    Distractions,
    /// The noises of the round: footsteps and the rest.
    Sound,
    /// Who hears what.
    Hearing,
    /// Minds that react to what was seen and heard give their commands.
    Minds,
    /// The parties' policies decide, once the monsters' minds have.
    PartyMinds,
    /// Battles begin and end; attacks; the fighting behaviour.
    Combat,
    /// Evil doors swing shut.
    Doors,
    /// Long runs wind the runners.
    Running,
    /// A party with a member who can no longer run stops running.
    PartyPace,
    /// Rest, and fatigue for those who have not rested.
    Rest,
    /// Conditions that last to the end of the round end.
    EndOfRound,
    /// Lights burn their fuel.
    Fuel,
    /// The clock moves on.
    Clock,
}

/// One faction's initiative in a battle: its members decide, move and attack before the next
/// faction moves (RULINGS › The battle round).
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FactionInitiative;

/// The phases of a faction's initiative, in the order they run.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InitiativeSet {
    /// The battle notes whose initiative it is; a shield forgone returns.
    BeginInitiative,
    /// Conditions that last until the start of the creature's next initiative end: disorder.
    StartOfInitiative,
    /// The start of its members' initiative: swimming and drowning.
    Swimming,
    /// The minds of the faction's members give their orders.
    Minds,
    /// Those orders are carried out at once: they take effect in this initiative.
    Orders,
    /// Attacks made before moving (the mover may then move only within reach).
    AttacksFirst,
    /// The faction's walkers walk.
    Walking,
    /// Its jumpers, climbers, traversers and riggers.
    Climbing,
    /// Its parties' followers take their places.
    Formation,
    /// Those its members hold up are carried along.
    Carried,
    /// Lights carried along are brought up to date.
    Light,
    /// Attacks of opportunity against its movers, then its members' attacks.
    Attacks,
}

/// Builds a faction's initiative's schedule, its phases chained in the order of [`InitiativeSet`].
pub fn initiative_schedule() -> Schedule {
    let mut schedule = Schedule::new(FactionInitiative);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.configure_sets(
        (
            InitiativeSet::BeginInitiative,
            InitiativeSet::StartOfInitiative,
            InitiativeSet::Swimming,
            InitiativeSet::Minds,
            InitiativeSet::Orders,
            InitiativeSet::AttacksFirst,
            InitiativeSet::Walking,
            InitiativeSet::Climbing,
            InitiativeSet::Formation,
            InitiativeSet::Carried,
            InitiativeSet::Light,
            InitiativeSet::Attacks,
        )
            .chain(),
    );
    schedule
}

/// The factions' initiatives of a battle round: each fighting faction in acting order acts
/// ([`FactionInitiative`]); outside a battle there are none.
pub fn play_initiatives(world: &mut World) {
    let (order, surprised) = {
        let acting = world.resource::<ActingOrder>();
        (acting.order.clone(), acting.surprised.clone())
    };
    // RULINGS › Surprise: a surprised faction does nothing in the battle's first round.
    for faction in order.into_iter().filter(|f| !surprised.contains(f)) {
        world.resource_mut::<ActingOrder>().initiative = Some(faction);
        world.run_schedule(FactionInitiative);
    }
    world.resource_mut::<ActingOrder>().initiative = None;
}

/// Builds the round's schedule with its phases chained in the order of [`RoundSet`].
pub fn round_schedule() -> Schedule {
    let mut schedule = Schedule::new(SimRound);
    schedule.set_executor(SingleThreadedExecutor::new());
    // Three chains (a tuple holds at most twenty), joined at `Walking` and `Hearing`.
    schedule.configure_sets(
        (
            RoundSet::NewRound,
            RoundSet::ActingOrder,
            RoundSet::Commands,
            RoundSet::StartOfRound,
            RoundSet::Swimming,
            RoundSet::Readiness,
            RoundSet::WayAhead,
            RoundSet::Initiatives,
            RoundSet::Walking,
        )
            .chain(),
    );
    schedule.configure_sets(
        (
            RoundSet::Walking,
            RoundSet::Climbing,
            RoundSet::Formation,
            RoundSet::Carried,
            RoundSet::ExplorationBenefits,
            RoundSet::Tasks,
            RoundSet::Searching,
            RoundSet::Traps,
            RoundSet::Light,
            RoundSet::Vision,
            RoundSet::Knowledge,
            RoundSet::Distractions,
            RoundSet::Sound,
            RoundSet::Hearing,
        )
            .chain(),
    );
    schedule.configure_sets(
        (
            RoundSet::Hearing,
            RoundSet::Minds,
            RoundSet::PartyMinds,
            RoundSet::Combat,
            RoundSet::Doors,
            RoundSet::Running,
            RoundSet::PartyPace,
            RoundSet::Rest,
            RoundSet::EndOfRound,
            RoundSet::Fuel,
            RoundSet::Clock,
        )
            .chain(),
    );
    schedule
}

/// The delve itself in the log: its beginning and the passing of time.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DelveEvent {
    /// The delve began on a level with a seed.
    DelveBegan { level: String, seed: u64 },
    /// A turn (10 rounds) ended.
    TurnEnded { turn: u64 },
    /// An hour (6 turns) ended.
    HourEnded { hour: u64 },
}

impl LogEvent for DelveEvent {
    /// The delve and the passing of time concern no one in particular: every party learns of
    /// them.
    fn who(&self) -> Option<&str> {
        None
    }

    fn kind(&self) -> LogKind {
        LogKind::Other
    }
}

impl std::fmt::Display for DelveEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DelveEvent::DelveBegan { level, seed } => {
                write!(f, "the delve begins in {level} (seed {seed})")
            }
            DelveEvent::TurnEnded { turn } => write!(f, "turn {turn} ends"),
            DelveEvent::HourEnded { hour } => write!(f, "hour {hour} ends"),
        }
    }
}

/// Ends the round: the clock moves on, and the end of a turn or an hour is logged.
pub fn advance_clock(mut clock: ResMut<Clock>, mut log: ResMut<EventLog>) {
    let round = clock.rounds;
    clock.rounds += 1;
    if clock.rounds.is_multiple_of(ROUNDS_PER_TURN) {
        log.push(
            round,
            DelveEvent::TurnEnded {
                turn: clock.rounds / ROUNDS_PER_TURN,
            },
        );
    }
    if clock.rounds.is_multiple_of(ROUNDS_PER_HOUR) {
        log.push(
            round,
            DelveEvent::HourEnded {
                hour: clock.rounds / ROUNDS_PER_HOUR,
            },
        );
    }
}
