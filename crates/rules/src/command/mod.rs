//! Commands: everything an actor can do, from any source (keyboard, monster AI, a script, a
//! replay). Each rule area defines its own commands ([`Act`]) in its `commands.rs`; the one
//! list below gathers them into [`Command`], the form scripts and journals write. The
//! dispatcher carries out the commands waiting for their round ([`PendingCommands`]) through
//! the gate: each is accepted, with its outcome as the area's typed events, or refused with a
//! typed reason ([`Refusal`]); a refused command changes nothing.

use crate::act::NotWhile;
use crate::creature::Exerted;
use crate::rules::acting::Hold;
use crate::rules::party::Parties;
use delve_ground::log::{LogEvent, LogKind};

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, AnyAct, InInitiative, PendingCommands, Refusal};
use crate::creature::{ActingOrder, CreatureIndex, Faction};
use crate::rules::acting::{ActionTaken, held_from};
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

mod list;
pub use list::{Command, acts, offers};

/// The RON options for command scripts and journals: a command's fields sit directly in its
/// parentheses, `OpenDoor(who: "Sera", at: (15, 8))`.
pub fn script_options() -> ron::Options {
    delve_ground::level::ron_options()
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

impl Command {
    /// The creature or party that acts.
    pub fn who(&self) -> &str {
        self.act().who()
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.act(), f)
    }
}

/// What the command dispatcher puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CommandEvent {
    /// A command was accepted; the rule area logs its outcome after it.
    CommandAccepted {
        who: String,
        #[serde(serialize_with = "in_words")]
        command: Command,
        /// Given by a mind inside the simulation (a party's policy, a monster's mind, the
        /// fighting behaviour), not by a player or a script.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        by_mind: bool,
    },
    /// A command was refused; nothing changed.
    CommandRefused {
        who: String,
        #[serde(serialize_with = "in_words")]
        command: Command,
        reason: Refusal,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        by_mind: bool,
    },
}

impl LogEvent for CommandEvent {
    fn kind(&self) -> LogKind {
        LogKind::Orders
    }

    fn who(&self) -> Option<&str> {
        match self {
            CommandEvent::CommandAccepted { who, .. }
            | CommandEvent::CommandRefused { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for CommandEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandEvent::CommandAccepted { who, command, .. } => write!(f, "{who}: {command}")?,
            CommandEvent::CommandRefused {
                who,
                command,
                reason,
                ..
            } => write!(f, "{who} cannot {command}: {reason}")?,
        }
        match self {
            CommandEvent::CommandAccepted { by_mind: true, .. }
            | CommandEvent::CommandRefused { by_mind: true, .. } => write!(f, " [its mind]"),
            _ => Ok(()),
        }
    }
}

/// Every refusal in a log, in order: who was refused, and why.
pub fn refusals(log: &EventLog) -> impl Iterator<Item = (&str, &Refusal)> {
    log.of::<CommandEvent>().filter_map(|e| match e {
        CommandEvent::CommandRefused { who, reason, .. } => Some((who.as_str(), reason)),
        CommandEvent::CommandAccepted { .. } => None,
    })
}

/// Was `who` refused a command for this reason?
pub fn was_refused<T: PartialEq + 'static>(log: &EventLog, who: &str, reason: &T) -> bool {
    refusals(log).any(|(w, r)| w == who && r.is(reason))
}

/// The log's JSON gives a command in words, as the text log does.
fn in_words<S: serde::Serializer>(c: &Command, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(c)
}

/// A command given at the start of `round`: a line of a script for `delve sim --commands`, and
/// of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCommand {
    #[serde(deserialize_with = "delve_ground::time::bounded_round")]
    pub round: u64,
    pub command: Command,
    /// Carried out at once, between rounds, before round `round` is played: the Judge's hand on
    /// the world from the window ([`dispatch_now`]). A replay carries it out at the same point.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub between_rounds: bool,
}

/// Every command given from outside the simulation, with the round it was carried out in: the
/// level, the seed and the journal replay the delve exactly (`sim::replay`).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal(pub Vec<ScriptedCommand>);

/// Takes the round's commands in order and hands each to its rule area; the log says it was
/// accepted, followed by what came of it, or refused, and why. Commands given from outside go
/// into the journal, refused or not: a replay gives them again. In a faction's initiative, the
/// actions that waited for it are carried out first, in the order given.
pub fn dispatch_commands(world: &mut World) {
    if let Some(turn) = world.resource::<ActingOrder>().initiative {
        let waiting = std::mem::take(&mut world.resource_mut::<PendingCommands>().in_initiative);
        let (now, later): (Vec<InInitiative>, Vec<InInitiative>) =
            waiting.into_iter().partition(|t| t.faction == turn);
        world.resource_mut::<PendingCommands>().in_initiative = later;
        for t in now {
            carry_out_and_log(world, t.command, t.by_mind);
        }
    }
    let mut pending = world.resource_mut::<PendingCommands>();
    let derived = std::mem::take(&mut pending.derived);
    let given = std::mem::take(&mut pending.given);
    let given = given.into_iter().map(|c| (c, true));
    for (command, journaled) in derived.into_iter().map(|c| (c, false)).chain(given) {
        dispatch(world, command, journaled, false);
    }
}

/// Carries out a command at once, between rounds, without playing a round: the Judge's hand on
/// the world (set hit points, open a door, …) from the window's panels. It is journaled as given
/// between rounds, so a replay carries it out at the same point, before the derived commands of
/// the round to come.
pub fn dispatch_now(world: &mut World, command: impl Into<AnyAct>) {
    dispatch(world, command.into(), true, true);
}

fn dispatch(world: &mut World, command: AnyAct, journaled: bool, between_rounds: bool) {
    let round = world.resource::<Clock>().rounds;
    if journaled {
        world.resource_mut::<Journal>().0.push(ScriptedCommand {
            round,
            command: Command::from(&command),
            between_rounds,
        });
    }
    // A creature under a hold that refuses the command is refused at once, not when its initiative
    // comes (a surprised faction gets no turn in the round it loses).
    if let Some(faction) =
        waits_for_initiative(world, &command).filter(|_| gate(world, command.act()).is_ok())
    {
        world
            .resource_mut::<PendingCommands>()
            .in_initiative
            .push(InInitiative {
                command,
                faction,
                by_mind: !journaled,
            });
        return;
    }
    carry_out_and_log(world, command, !journaled);
}

/// RULINGS › The battle round: an action of a creature whose faction is in the battle happens
/// in its faction's initiative. The faction it waits for, if it must wait.
fn waits_for_initiative(world: &World, command: &AnyAct) -> Option<usize> {
    if !command.act().cost().in_initiative {
        return None;
    }
    let &e = world.resource::<CreatureIndex>().0.get(command.who())?;
    let faction = *world.get::<Faction>(e)?;
    let acting = world.resource::<ActingOrder>();
    (acting.fighting(faction) && !acting.acts_now(Some(faction))).then_some(faction.0)
}

/// Carries a command out through the gate and logs it: accepted (before what came of it), or
/// refused and why. What it cost is counted: exertion against rest (RULINGS › Rest), and the
/// action of the round (RULINGS › The battle round: no attack that round).
fn carry_out_and_log(world: &mut World, command: AnyAct, by_mind: bool) {
    let round = world.resource::<Clock>().rounds;
    let before = world.resource::<EventLog>().len();
    let who = command.who().to_owned();
    match carry_out(world, command.act()) {
        Ok(()) => {
            let cost = command.act().cost();
            if let Some(&e) = world.resource::<CreatureIndex>().0.get(&who)
                && world.get_entity(e).is_ok()
            {
                let mut creature = world.entity_mut(e);
                if cost.exertion {
                    creature.insert(Exerted { round });
                }
                if cost.action {
                    creature.insert(ActionTaken { round });
                }
            }
            world.resource_mut::<EventLog>().insert(
                before,
                round,
                CommandEvent::CommandAccepted {
                    who,
                    command: Command::from(&command),
                    by_mind,
                },
            )
        }
        Err(reason) => world.resource_mut::<EventLog>().push(
            round,
            CommandEvent::CommandRefused {
                who,
                command: Command::from(&command),
                reason,
                by_mind,
            },
        ),
    }
}

/// The gate (`rules::acting`): carries an action out if the one who takes it may act now. A
/// creature under a hold the action is not allowed under is refused, the hold its reason.
pub fn carry_out(world: &mut World, act: &dyn Act) -> Result<(), Refusal> {
    gate(world, act)?;
    act.carry_out(world)
}

/// The gate's holds: refused if the creature is under a hold the action is not allowed under.
/// A party's order that exerts its members (a march) is refused when every member is held
/// from it (surprised in the round the party loses, all down, …), the first member's hold the
/// reason; the party's arrangements (its marching order, its policy) are not.
fn gate(world: &World, act: &dyn Act) -> Result<(), Refusal> {
    if let Some(&e) = world.resource::<CreatureIndex>().0.get(act.who()) {
        if let Some(hold) = held_from(world, e, act.allowed_under()) {
            return Err(hold.into());
        }
        return match crate::rules::acting::refused_action(world, e, act.cost()) {
            Some(what) => Err(NotWhile(what).into()),
            None => Ok(()),
        };
    }
    let party = world
        .get_resource::<Parties>()
        .and_then(|p| p.get(act.who()));
    if let Some(party) = party.filter(|_| act.cost().exertion) {
        let holds: Vec<Option<Hold>> = party
            .marching_order
            .iter()
            .map(|&m| held_from(world, m, act.allowed_under()))
            .collect();
        if let Some(Some(hold)) = holds.first()
            && holds.iter().all(Option::is_some)
        {
            return Err((*hold).into());
        }
    }
    Ok(())
}

/// Commands waiting for their round: a script, or a journal being replayed (in the window
/// too). [`give_due`] gives those whose round has come.
#[derive(Resource, Clone, Debug, Default)]
pub struct Script(std::collections::VecDeque<ScriptedCommand>);

impl Script {
    /// The commands in the order of their rounds (those of one round in the order written).
    pub fn new(commands: &[ScriptedCommand]) -> Self {
        let mut commands = commands.to_vec();
        commands.sort_by_key(|c| c.round);
        Self(commands.into())
    }

    /// Commands not yet given.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Gives the script's commands whose round has come (at the start of their round).
pub fn give_due(world: &mut World) {
    for c in take_due(world, |_| true) {
        if c.between_rounds {
            dispatch_now(world, c.command);
        } else {
            world.resource_mut::<PendingCommands>().push(c.command);
        }
    }
}

/// Carries out the script's commands given between rounds before the round to come (the
/// Judge's hand from the window), leaving the rest for their rounds: where a replay that stops
/// here must stop to match the delve it replays.
pub fn give_due_between_rounds(world: &mut World) {
    for c in take_due(world, |c| c.between_rounds) {
        dispatch_now(world, c.command);
    }
}

/// Takes from the script, in order, the commands due by now that `wanted` accepts, up to the
/// first it does not.
fn take_due(world: &mut World, wanted: impl Fn(&ScriptedCommand) -> bool) -> Vec<ScriptedCommand> {
    let round = world.resource::<delve_ground::time::Clock>().rounds;
    let Some(mut script) = world.get_resource_mut::<Script>() else {
        return Vec::new();
    };
    let mut due = Vec::new();
    while script
        .0
        .front()
        .is_some_and(|c| c.round <= round && wanted(c))
    {
        due.extend(script.0.pop_front());
    }
    due
}
