//! Commands: everything an actor can do, from any source (keyboard, monster AI, a script, a
//! replay). Each is accepted or refused with a reason in the log; a refused command changes
//! nothing.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::creature::CreatureIndex;
use crate::grid::GridPos;
use crate::log::EventLog;
use crate::rules::movement::Pace;
use crate::time::Clock;

/// What an actor wants to do. Creatures and parties are named as in the level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Walk to a square along the cheapest path, at a pace.
    Move {
        who: String,
        to: (i32, i32),
        #[serde(default)]
        pace: Pace,
    },
    /// Stop walking.
    Halt { who: String },
    /// Rest: a full turn of rest ends winded and resets the count of turns without rest.
    Rest { who: String },
    /// Stand up from prone.
    StandUp { who: String },
    /// Lights a carried torch, lantern or candle that has fuel.
    LightUp { who: String },
    /// Douses the lights it carries.
    Douse { who: String },
    /// Drops a carried light on its square.
    DropLight { who: String },
    /// Picks up a light lying on its square.
    PickUpLight { who: String },
    /// Fills a carried lantern from a flask of oil.
    Refuel { who: String },
    /// Opens the door at a square next to it.
    OpenDoor { who: String, at: (i32, i32) },
    /// Closes the door at a square next to it.
    CloseDoor { who: String, at: (i32, i32) },
    /// Holds a closed door shut from beside it: it must be bashed open, and an evil one no
    /// longer yields to monsters.
    HoldShut { who: String, at: (i32, i32) },
    /// Unlocks a door with its key (one round).
    Unlock { who: String, at: (i32, i32) },
    /// Picks a lock hastily (one round, thieves' tools, a Lockpicking throw).
    PickLock { who: String, at: (i32, i32) },
    /// Bashes a stuck or spiked door open (one round), with a helper if one is named.
    Bash {
        who: String,
        at: (i32, i32),
        #[serde(default)]
        helper: Option<String>,
    },
    /// Disarms (or, with `discharge`, sets off harmlessly) a known trap hastily (one round).
    DisarmTrap {
        who: String,
        at: (i32, i32),
        #[serde(default)]
        discharge: bool,
    },
    /// Disarms (or, with `discharge`, sets off harmlessly) a known trap methodically (one turn;
    /// +4 for a thief, 18+ by Adventuring for anyone else).
    DisarmTrapMethodically {
        who: String,
        at: (i32, i32),
        #[serde(default)]
        discharge: bool,
    },
    /// Touches what is on a square: by hand next to it, or with a 10' pole within 10'.
    Touch { who: String, at: (i32, i32) },
    /// Starts (`on: true`) or stops probing the floor ahead with a 10' pole while walking.
    Probe { who: String, on: bool },
    /// Re-arms a disarmed trap.
    RearmTrap { who: String, at: (i32, i32) },
    /// Searches the squares around methodically (one turn).
    Search { who: String },
    /// Searches the squares around hastily (one round; proficient in Searching).
    SearchHastily { who: String },
    /// Picks a lock methodically (one turn, +4).
    PickLockMethodically { who: String, at: (i32, i32) },
    /// Batters a door down with an axe (a wooden door one turn, an iron-banded one three).
    Batter { who: String, at: (i32, i32) },
    /// Drives a spike into a door (one round): shut if closed, wedged open if open.
    Spike { who: String, at: (i32, i32) },
    /// Makes the noise of an action at its square: `Talking`, `Shouting`, `Screaming`, …
    Noise {
        who: String,
        action: crate::rules::sound::NoisyAction,
    },
    /// Starts (`on: true`) or stops moving silently (proficient in Sneaking).
    Sneak { who: String, on: bool },
    /// Listens actively for a round (once per turn while its party moves).
    Listen { who: String },
    /// The Judge makes a noise of any row of the earshot table at a square.
    MakeNoise {
        at: (i32, i32),
        sound: crate::rules::sound::SoundRow,
        what: String,
    },
    /// Hides (proficient in Hiding): unseen by lightless vision until it moves.
    Hide { who: String },
    /// Turns a carried light on a creature standing in the dark (light distraction).
    Dazzle {
        who: String,
        target: String,
        #[serde(default)]
        focused: bool,
    },
    /// Attacks a creature each round in the faction's turn, with a named weapon or the first
    /// that can reach it.
    Attack {
        who: String,
        target: String,
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Walks at half combat speed through threatened squares without provoking attacks of
    /// opportunity (Tactical Combat › Cautious Movement).
    MoveCautiously { who: String, to: (i32, i32) },
    /// Walks at full combat speed through threatened squares, tumbling past each threatener
    /// with an Acrobatics check (proficient in Acrobatics).
    MoveAcrobatically { who: String, to: (i32, i32) },
    /// This round, the first 5' away from a creature provokes no attack of opportunity from it.
    Disengage { who: String, from: String },
    /// Clears a jammed firearm: a full round, or a standard action with Gunsmithing.
    ClearJam { who: String },
    /// Total defense for the round: +4 AC, no attacks; a shield wall all in total defense
    /// doubles its bonus.
    TotalDefense { who: String },
    /// Activates a weapon's enchantment: a move action with base attack bonus 1+ and Use Magic
    /// Device, a standard action otherwise.
    ActivateEnchantment { who: String, weapon: String },
    /// Forgoes the shield's bonuses for a free hand until its next turn.
    ForgoShield { who: String },
    /// The party walks to a square behind its leader, in formation.
    MoveParty {
        party: String,
        to: (i32, i32),
        #[serde(default)]
        pace: Pace,
    },
    /// The whole party rests.
    RestParty { party: String },
    /// Sets the party's marching order (every member, once).
    MarchingOrder { party: String, order: Vec<String> },
    /// Designates the party's mapper, or none.
    Mapper { party: String, who: Option<String> },
    /// In a battle the party's members wait for their player's orders (`on`), or fight by
    /// themselves (`off`, as every party does headless).
    WaitForOrders { party: String, on: bool },
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
        match self {
            Command::Move { who, .. }
            | Command::Halt { who }
            | Command::Rest { who }
            | Command::StandUp { who }
            | Command::LightUp { who }
            | Command::Douse { who }
            | Command::DropLight { who }
            | Command::PickUpLight { who }
            | Command::Refuel { who }
            | Command::Dazzle { who, .. }
            | Command::Hide { who }
            | Command::Listen { who }
            | Command::Sneak { who, .. }
            | Command::Noise { who, .. }
            | Command::OpenDoor { who, .. }
            | Command::CloseDoor { who, .. }
            | Command::Unlock { who, .. }
            | Command::HoldShut { who, .. }
            | Command::PickLock { who, .. }
            | Command::Bash { who, .. }
            | Command::Spike { who, .. }
            | Command::PickLockMethodically { who, .. }
            | Command::Batter { who, .. }
            | Command::Search { who }
            | Command::SearchHastily { who }
            | Command::DisarmTrap { who, .. }
            | Command::RearmTrap { who, .. }
            | Command::DisarmTrapMethodically { who, .. }
            | Command::Touch { who, .. }
            | Command::Probe { who, .. }
            | Command::Attack { who, .. }
            | Command::MoveCautiously { who, .. }
            | Command::MoveAcrobatically { who, .. }
            | Command::Disengage { who, .. }
            | Command::ClearJam { who }
            | Command::TotalDefense { who }
            | Command::ActivateEnchantment { who, .. }
            | Command::ForgoShield { who } => who,
            Command::MakeNoise { .. } => "the Judge",
            Command::MoveParty { party, .. }
            | Command::RestParty { party }
            | Command::MarchingOrder { party, .. }
            | Command::Mapper { party, .. }
            | Command::WaitForOrders { party, .. } => party,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move { to, pace, .. } | Command::MoveParty { to, pace, .. } => {
                write!(f, "move to ({}, {}) at {pace} speed", to.0, to.1)
            }
            Command::Halt { .. } => write!(f, "halt"),
            Command::Rest { .. } | Command::RestParty { .. } => write!(f, "rest"),
            Command::StandUp { .. } => write!(f, "stand up"),
            Command::LightUp { .. } => write!(f, "light a light"),
            Command::Douse { .. } => write!(f, "douse its lights"),
            Command::DropLight { .. } => write!(f, "drop a light"),
            Command::PickUpLight { .. } => write!(f, "pick up a light"),
            Command::Refuel { .. } => write!(f, "refuel a lantern"),
            Command::Dazzle { target, .. } => write!(f, "dazzle {target}"),
            Command::Hide { .. } => write!(f, "hide"),
            Command::Listen { .. } => write!(f, "listen"),
            Command::Noise { action, .. } => write!(f, "make noise ({action:?})"),
            Command::OpenDoor { at, .. } => write!(f, "open the door at ({}, {})", at.0, at.1),
            Command::CloseDoor { at, .. } => write!(f, "close the door at ({}, {})", at.0, at.1),
            Command::HoldShut { at, .. } => {
                write!(f, "hold the door at ({}, {}) shut", at.0, at.1)
            }
            Command::Unlock { at, .. } => write!(f, "unlock the door at ({}, {})", at.0, at.1),
            Command::PickLock { at, .. } => write!(f, "pick the lock at ({}, {})", at.0, at.1),
            Command::Bash { at, .. } => write!(f, "bash the door at ({}, {})", at.0, at.1),
            Command::Spike { at, .. } => write!(f, "spike the door at ({}, {})", at.0, at.1),
            Command::PickLockMethodically { at, .. } => {
                write!(f, "pick the lock at ({}, {}) methodically", at.0, at.1)
            }
            Command::Search { .. } => write!(f, "search methodically"),
            Command::DisarmTrap { at, .. } => write!(f, "disable the trap at ({}, {})", at.0, at.1),
            Command::DisarmTrapMethodically { at, .. } => {
                write!(f, "disable the trap at ({}, {}) methodically", at.0, at.1)
            }
            Command::Attack { target, .. } => write!(f, "attack {target}"),
            Command::MoveCautiously { to, .. } => {
                write!(f, "move cautiously to ({}, {})", to.0, to.1)
            }
            Command::Disengage { from, .. } => write!(f, "disengage from {from}"),
            Command::MoveAcrobatically { to, .. } => {
                write!(f, "tumble to ({}, {})", to.0, to.1)
            }
            Command::ClearJam { .. } => write!(f, "clear the jam"),
            Command::TotalDefense { .. } => write!(f, "total defense"),
            Command::ActivateEnchantment { weapon, .. } => {
                write!(f, "activate the {weapon}'s enchantment")
            }
            Command::ForgoShield { .. } => write!(f, "forgo the shield"),
            Command::Touch { at, .. } => write!(f, "touch ({}, {})", at.0, at.1),
            Command::Probe { on: true, .. } => write!(f, "probe ahead with a pole"),
            Command::Probe { on: false, .. } => write!(f, "stop probing ahead"),
            Command::RearmTrap { at, .. } => write!(f, "re-arm the trap at ({}, {})", at.0, at.1),
            Command::SearchHastily { .. } => write!(f, "search hastily"),
            Command::Batter { at, .. } => write!(f, "batter down the door at ({}, {})", at.0, at.1),
            Command::Sneak { on: true, .. } => write!(f, "sneak"),
            Command::Sneak { on: false, .. } => write!(f, "stop sneaking"),
            Command::MakeNoise { sound, at, .. } => {
                write!(f, "make a {sound} noise at ({}, {})", at.0, at.1)
            }
            Command::MarchingOrder { order, .. } => {
                write!(f, "march in the order {}", order.join(", "))
            }
            Command::Mapper { who: Some(w), .. } => write!(f, "have {w} map"),
            Command::Mapper { who: None, .. } => write!(f, "stop mapping"),
            Command::WaitForOrders { on: true, .. } => write!(f, "wait for orders in battle"),
            Command::WaitForOrders { on: false, .. } => write!(f, "fight by itself"),
        }
    }
}

/// What the command dispatcher puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CommandEvent {
    /// A command was accepted.
    CommandAccepted { who: String, command: String },
    /// A command was refused; nothing changed.
    CommandRefused {
        who: String,
        command: String,
        reason: String,
    },
}

impl crate::log::LogEvent for CommandEvent {
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
            CommandEvent::CommandAccepted { who, command } => write!(f, "{who}: {command}"),
            CommandEvent::CommandRefused {
                who,
                command,
                reason,
            } => write!(f, "{who} cannot {command}: {reason}"),
        }
    }
}

/// Commands waiting for the next round. Those given from outside the simulation (a player, a
/// script, the window) go into the journal when they are carried out; those a mind inside it
/// gives (the monsters' reactions, the fighting behaviour) are derived again by a replay, so
/// they are not journaled. A round carries out the derived ones first, then the given ones, each
/// in the order given.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingCommands {
    given: Vec<Command>,
    derived: Vec<Command>,
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

    /// Is a command waiting for this creature or party?
    pub fn waiting_for(&self, who: &str) -> bool {
        self.derived
            .iter()
            .chain(&self.given)
            .any(|c| c.who() == who)
    }

    pub fn is_empty(&self) -> bool {
        self.given.is_empty() && self.derived.is_empty()
    }
}

/// A command given at the start of `round`: a line of a script for `delve sim --commands`, and
/// of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCommand {
    pub round: u64,
    pub command: Command,
}

/// Every command given from outside the simulation, with the round it was carried out in: the
/// level, the seed and the journal replay the delve exactly ([`crate::sim::replay`]).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal(pub Vec<ScriptedCommand>);

/// Takes the round's commands in order and hands each to the rule that carries it out; the log
/// says whether it was accepted (and what it means) or refused (and why). Commands given from
/// outside go into the journal, refused or not: a replay gives them again.
pub fn dispatch_commands(world: &mut World) {
    let pending = std::mem::take(&mut *world.resource_mut::<PendingCommands>());
    let round = world.resource::<Clock>().rounds;
    let given = pending.given.into_iter().map(|c| (c, true));
    for (command, journaled) in pending.derived.into_iter().map(|c| (c, false)).chain(given) {
        if journaled {
            world.resource_mut::<Journal>().0.push(ScriptedCommand {
                round,
                command: command.clone(),
            });
        }
        let event = match carry_out(world, &command) {
            Ok(detail) => CommandEvent::CommandAccepted {
                who: command.who().to_owned(),
                command: detail,
            },
            Err(reason) => CommandEvent::CommandRefused {
                who: command.who().to_owned(),
                command: command.to_string(),
                reason,
            },
        };
        world.resource_mut::<EventLog>().push(round, event);
    }
}

fn creature(world: &World, name: &str) -> Result<Entity, String> {
    world
        .resource::<CreatureIndex>()
        .0
        .get(name)
        .copied()
        .filter(|&e| world.get_entity(e).is_ok())
        .ok_or_else(|| format!("there is no creature named `{name}`"))
}

fn carry_out(world: &mut World, command: &Command) -> Result<String, String> {
    use crate::rules::{conditions, light, movement, rest};
    let at = |(x, y): (i32, i32)| GridPos::new(x, y);
    if let Some(&e) = world.resource::<CreatureIndex>().0.get(command.who())
        && world
            .get::<conditions::Conditions>(e)
            .is_some_and(crate::rules::combat::battle::is_down)
    {
        return Err("it is down (dying or dead) and can do nothing".into());
    }
    match command {
        Command::Move { who, to, pace } => {
            let e = creature(world, who)?;
            movement::order_move(world, e, at(*to), *pace)
        }
        Command::Halt { who } => {
            let e = creature(world, who)?;
            world
                .entity_mut(e)
                .take::<movement::Walking>()
                .map(|_| "halt".to_owned())
                .ok_or_else(|| "it is not walking".to_owned())
        }
        Command::Rest { who } => {
            let e = creature(world, who)?;
            rest::begin_rest(world, e)
        }
        Command::StandUp { who } => {
            let e = creature(world, who)?;
            let round = world.resource::<Clock>().rounds;
            let mut c = world
                .get_mut::<conditions::Conditions>(e)
                .ok_or("it has no conditions")?;
            conditions::stand_up(&mut c, round)
        }
        Command::LightUp { who } => light::light_up(world, creature(world, who)?),
        Command::Douse { who } => light::douse(world, creature(world, who)?),
        Command::DropLight { who } => light::drop_light(world, creature(world, who)?),
        Command::PickUpLight { who } => light::pick_up_light(world, creature(world, who)?),
        Command::Refuel { who } => light::refuel(world, creature(world, who)?),
        Command::OpenDoor { who, at: p } => {
            crate::rules::doors::open(world, creature(world, who)?, at(*p))
        }
        Command::CloseDoor { who, at: p } => {
            crate::rules::doors::close(world, creature(world, who)?, at(*p))
        }
        Command::HoldShut { who, at: p } => {
            crate::rules::doors::hold_shut(world, creature(world, who)?, at(*p))
        }
        Command::Unlock { who, at: p } => {
            crate::rules::doors::unlock(world, creature(world, who)?, at(*p))
        }
        Command::PickLock { who, at: p } => {
            crate::rules::doors::pick_hastily(world, creature(world, who)?, at(*p))
        }
        Command::Bash { who, at: p, helper } => {
            let helper = match helper {
                Some(h) => Some(creature(world, h)?),
                None => None,
            };
            crate::rules::doors::bash(world, creature(world, who)?, helper, at(*p))
        }
        Command::DisarmTrap {
            who,
            at: p,
            discharge,
        } => crate::rules::traps::disarm_hastily(world, creature(world, who)?, at(*p), *discharge),
        Command::DisarmTrapMethodically {
            who,
            at: p,
            discharge,
        } => crate::rules::traps::disarm_methodically(
            world,
            creature(world, who)?,
            at(*p),
            *discharge,
        ),
        Command::Attack {
            who,
            target,
            weapon,
        } => {
            let (who, target) = (creature(world, who)?, creature(world, target)?);
            crate::rules::combat::battle::order_attack(world, who, target, weapon.as_deref())
        }
        Command::MoveCautiously { who, to } => crate::rules::combat::opportunity::move_cautiously(
            world,
            creature(world, who)?,
            at(*to),
        ),
        Command::ClearJam { who } => {
            crate::rules::combat::battle::clear_jam(world, creature(world, who)?)
        }
        Command::ActivateEnchantment { who, weapon } => {
            crate::rules::combat::battle::activate_enchantment(world, creature(world, who)?, weapon)
        }
        Command::TotalDefense { who } => {
            crate::rules::combat::battle::total_defense(world, creature(world, who)?)
        }
        Command::ForgoShield { who } => {
            crate::rules::combat::battle::forgo_shield(world, creature(world, who)?)
        }
        Command::MoveAcrobatically { who, to } => {
            crate::rules::combat::opportunity::move_acrobatically(
                world,
                creature(world, who)?,
                at(*to),
            )
        }
        Command::Disengage { who, from } => {
            let (who, from) = (creature(world, who)?, creature(world, from)?);
            crate::rules::combat::opportunity::disengage(world, who, from)
        }
        Command::Touch { who, at: p } => {
            crate::rules::traps::touch(world, creature(world, who)?, at(*p))
        }
        Command::Probe { who, on } => crate::rules::traps::probe(world, creature(world, who)?, *on),
        Command::RearmTrap { who, at: p } => {
            crate::rules::traps::rearm(world, creature(world, who)?, at(*p))
        }
        Command::Search { who } => {
            crate::rules::search::search_methodically(world, creature(world, who)?)
        }
        Command::SearchHastily { who } => {
            crate::rules::search::search_hastily(world, creature(world, who)?)
        }
        Command::PickLockMethodically { who, at: p } => {
            crate::rules::doors::pick_methodically(world, creature(world, who)?, at(*p))
        }
        Command::Batter { who, at: p } => {
            crate::rules::doors::batter(world, creature(world, who)?, at(*p))
        }
        Command::Spike { who, at: p } => {
            crate::rules::doors::spike(world, creature(world, who)?, at(*p))
        }
        Command::Noise { who, action } => {
            crate::rules::sound::hearing::creature_noise(world, creature(world, who)?, *action)
        }
        Command::Sneak { who, on } => {
            crate::rules::sound::hearing::sneak(world, creature(world, who)?, *on)
        }
        Command::Listen { who } => {
            crate::rules::sound::hearing::listen(world, creature(world, who)?)
        }
        Command::MakeNoise { at: p, sound, what } => {
            crate::rules::sound::hearing::make_noise(world, at(*p), *sound, what)
        }
        Command::Hide { who } => crate::rules::vision::hide(world, creature(world, who)?),
        Command::Dazzle {
            who,
            target,
            focused,
        } => {
            let (who, target) = (creature(world, who)?, creature(world, target)?);
            crate::rules::penalties::dazzle(world, who, target, *focused)
        }
        Command::MoveParty { party, to, pace } => {
            crate::rules::party::order_party_move(world, party, at(*to), *pace)
        }
        Command::RestParty { party } => {
            let members = world
                .resource::<crate::rules::party::Parties>()
                .get(party)
                .map(|p| p.marching_order.clone())
                .ok_or_else(|| format!("there is no party named `{party}`"))?;
            if let Some(p) = world
                .resource_mut::<crate::rules::party::Parties>()
                .get_mut(party)
            {
                p.pace = None;
            }
            // Dungeon Delves › Rest: those with Endurance need no rest and keep watch.
            let mut watch = Vec::new();
            for e in members {
                let endurance = world
                    .get::<crate::creature::Proficiencies>(e)
                    .is_some_and(|p| !rest::needs_rest(p));
                if endurance {
                    world.entity_mut(e).remove::<movement::Walking>();
                    watch.push(crate::creature::name_of(world, e));
                } else {
                    rest::begin_rest(world, e).ok();
                }
            }
            Ok(if watch.is_empty() {
                "the party rests".into()
            } else {
                format!("the party rests; {} keeps watch", watch.join(" and "))
            })
        }
        Command::MarchingOrder { party, order } => {
            crate::rules::party::set_marching_order(world, party, order)
        }
        Command::WaitForOrders { party, on } => {
            crate::rules::combat::battle::wait_for_orders(world, party, *on)
        }
        Command::Mapper { party, who } => {
            crate::rules::party::set_mapper(world, party, who.as_deref())
        }
    }
}
