//! Commands: everything an actor can do, from any source (keyboard, monster AI, a script, a
//! replay). Each rule area defines its own commands ([`Act`]) in its `commands.rs`; the one
//! list below gathers them into [`Command`]. Each is accepted, with its outcome as the area's
//! typed events, or refused with a typed reason ([`Refusal`]); a refused command changes
//! nothing.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub mod act;
pub use act::{Act, Reason, Refusal, Unable, at, creature, square_of};

use crate::creature::{ActingOrder, CreatureIndex, Faction};
use crate::log::EventLog;
use crate::rules::acting::{ActionTaken, held_from};
use crate::time::Clock;

mod list;
pub use list::{Command, acts};

/// The RON options for command scripts and journals: a command's fields sit directly in its
/// parentheses, `OpenDoor(who: "Sera", at: (15, 8))`.
pub fn script_options() -> ron::Options {
    crate::level::ron_options()
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// An action open to a creature, with its time and its chance of success: what `delve query`
/// and the window offer before anyone commits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// `open`, `bash`, `disarm methodically`, …
    pub way: String,
    /// `1 round`, `1 turn`, `3 turns`.
    pub time: String,
    /// The throw's target on d20 after modifiers, if a throw is needed.
    pub target: Option<i32>,
    /// Chance of success per attempt, 0–1.
    pub chance: f32,
    /// Modifiers, risks, tools.
    pub note: String,
    /// The command that takes it.
    #[serde(skip)]
    pub command: Command,
}

impl Choice {
    /// A way that takes a throw: its net d20 target and chance counted as the throw will be
    /// (modifiers, bloodied, the natural 20's +10, an attack's natural 1).
    #[allow(clippy::too_many_arguments)]
    pub fn thrown(
        way: &str,
        time: &str,
        who: &crate::rules::throws::Thrower,
        kind: crate::rules::throws::ThrowKind,
        modifiers: &[crate::dice::Modifier],
        target: i32,
        note: &str,
        command: Command,
    ) -> Self {
        let (net, chance) = crate::rules::throws::chance(who, kind, modifiers, target);
        Self {
            chance,
            ..Self::new(way, time, Some(net), note, command)
        }
    }

    pub fn new(way: &str, time: &str, target: Option<i32>, note: &str, command: Command) -> Self {
        Self {
            way: way.into(),
            time: time.into(),
            target,
            chance: target.map_or(1.0, crate::dice::d20_chance),
            note: note.into(),
            command,
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.target {
            Some(t) => write!(
                f,
                "{}: {} {t}+, {:.0}% per attempt",
                self.way,
                self.time,
                self.chance * 100.0
            )?,
            None if self.chance < 1.0 => write!(
                f,
                "{}: {}, {:.0}%",
                self.way,
                self.time,
                self.chance * 100.0
            )?,
            None => write!(f, "{}: {}, certain", self.way, self.time)?,
        }
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
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

impl crate::log::LogEvent for CommandEvent {
    fn kind(&self) -> crate::log::LogKind {
        crate::log::LogKind::Orders
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

/// Commands waiting for the next round. Those given from outside the simulation (a player, a
/// script, the window) go into the journal when they are carried out; those a mind inside it
/// gives (the monsters' reactions, the fighting behaviour) are derived again by a replay, so
/// they are not journaled. A round carries out the derived ones first, then the given ones, each
/// in the order given. In a battle, an action (`rules::acting::Cost::action`) waits for its
/// creature's faction's turn (RULINGS › The battle round).
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingCommands {
    given: Vec<Command>,
    derived: Vec<Command>,
    in_turn: Vec<InTurn>,
}

/// An action given in a battle, waiting for its faction's turn.
#[derive(Clone, Debug)]
struct InTurn {
    command: Command,
    faction: usize,
    by_mind: bool,
}

impl PendingCommands {
    /// A command from outside the simulation: a player, a script, the window.
    pub fn push(&mut self, c: Command) {
        self.given.push(c);
    }

    /// A command from a mind inside the simulation.
    pub fn push_derived(&mut self, c: Command) {
        self.derived.push(c);
    }

    /// The commands given from outside, in order.
    pub fn given(&self) -> &[Command] {
        &self.given
    }

    /// Is a command waiting for this creature or party (for the next round, or for its
    /// faction's turn)?
    pub fn waiting_for(&self, who: &str) -> bool {
        self.derived
            .iter()
            .chain(&self.given)
            .chain(self.in_turn.iter().map(|t| &t.command))
            .any(|c| c.who() == who)
    }

    pub fn is_empty(&self) -> bool {
        self.given.is_empty() && self.derived.is_empty() && self.in_turn.is_empty()
    }
}
/// A command given at the start of `round`: a line of a script for `delve sim --commands`, and
/// of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCommand {
    pub round: u64,
    pub command: Command,
    /// Carried out at once, between rounds, before round `round` is played: the Judge's hand on
    /// the world from the window ([`dispatch_now`]). A replay carries it out at the same point.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub between_rounds: bool,
}

/// Every command given from outside the simulation, with the round it was carried out in: the
/// level, the seed and the journal replay the delve exactly ([`crate::sim::replay`]).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal(pub Vec<ScriptedCommand>);

/// Takes the round's commands in order and hands each to its rule area; the log says it was
/// accepted, followed by what came of it, or refused, and why. Commands given from outside go
/// into the journal, refused or not: a replay gives them again. In a faction's turn, the
/// actions that waited for it are carried out first, in the order given.
pub fn dispatch_commands(world: &mut World) {
    if let Some(turn) = world.resource::<ActingOrder>().turn {
        let waiting = std::mem::take(&mut world.resource_mut::<PendingCommands>().in_turn);
        let (now, later): (Vec<InTurn>, Vec<InTurn>) =
            waiting.into_iter().partition(|t| t.faction == turn);
        world.resource_mut::<PendingCommands>().in_turn = later;
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
pub fn dispatch_now(world: &mut World, command: Command) {
    dispatch(world, command, true, true);
}

fn dispatch(world: &mut World, command: Command, journaled: bool, between_rounds: bool) {
    let round = world.resource::<Clock>().rounds;
    if journaled {
        world.resource_mut::<Journal>().0.push(ScriptedCommand {
            round,
            command: command.clone(),
            between_rounds,
        });
    }
    if let Some(faction) = waits_for_turn(world, &command) {
        world
            .resource_mut::<PendingCommands>()
            .in_turn
            .push(InTurn {
                command,
                faction,
                by_mind: !journaled,
            });
        return;
    }
    carry_out_and_log(world, command, !journaled);
}

/// RULINGS › The battle round: an action of a creature whose faction is in the battle happens
/// in its faction's turn. The faction it waits for, if it must wait.
fn waits_for_turn(world: &World, command: &Command) -> Option<usize> {
    if !command.act().cost().action {
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
fn carry_out_and_log(world: &mut World, command: Command, by_mind: bool) {
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
                    creature.insert(crate::creature::Exerted { round });
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
                    command,
                    by_mind,
                },
            )
        }
        Err(reason) => world.resource_mut::<EventLog>().push(
            round,
            CommandEvent::CommandRefused {
                who,
                command,
                reason,
                by_mind,
            },
        ),
    }
}

/// The gate (`rules::acting`): carries an action out if the one who takes it may act now. A
/// creature under a hold the action is not allowed under is refused, the hold its reason.
pub fn carry_out(world: &mut World, act: &dyn Act) -> Result<(), Refusal> {
    if let Some(&e) = world.resource::<CreatureIndex>().0.get(act.who())
        && let Some(hold) = held_from(world, e, act.allowed_under())
    {
        return Err(hold.into());
    }
    act.carry_out(world)
}
