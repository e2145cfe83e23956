//! The adventuring party's mind: a party handed to its policy ([`Autonomy`]) delves by itself,
//! giving each round the commands a player would, from what its faction knows
//! ([`super::knowledge`]) and never from the Judge's map.
//!
//! Each round it is not busy (walking, resting, at work on a task, or fighting: in a battle the
//! fighting behaviour, `rules::combat::behaviour`, answers faction initiative), it decides, in
//! this order:
//! 1. **the end**: every member down; the policy's turn limit; back at the way in after turning
//!    for home; its last light burnt out with nothing to light;
//! 2. **light** (Dungeon Delves › Light and Darkness): with no light burning it lights the next
//!    one, and fills an empty lantern from a flask of oil;
//! 3. **flight**: once the policy's share of the party is down it makes for the way in, running
//!    where it can, and spikes shut the doors it passes;
//! 4. **rest** (Dungeon Delves › Rest): a turn once five have passed, or when a member is winded;
//!    those with Endurance keep watch;
//! 5. **turning back**: when the light left would not last the walk back and the policy's
//!    margin; when the goal is met; when nothing is left to explore;
//! 6. **where next**: the goal, if it is seen; else the nearest edge of what it has seen; else a
//!    dead end not yet searched; walking at exploration speed in marching order, stopping before
//!    each door on the way;
//! 7. **on the way**: a closed door is listened at, opened, unlocked with a key it carries,
//!    picked (hastily, then methodically) by a thief, bashed when stuck or spiked, or left shut;
//!    an evil door that swung shut once is wedged open with a spike; a known trap is disarmed by
//!    a thief when the policy says so, or stepped around.
//!
//! Its orders are derived commands, like the monsters': a replay of the journal (which holds the
//! [`Autonomy`] command) derives them again. Before each order the log says why
//! ([`PolicyEvent::Decided`]).

use std::collections::BTreeMap;
use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::knowledge::{Knowledge, SeenDoor, Step};
use super::outcome::{Outcome, Tally};
use super::settings::PartyPolicy;
use crate::command::acts::*;
use crate::command::{Act, Command, CommandEvent, PendingCommands, Refusal, Unable, at};
use crate::creature::{Abilities, Conditions, Equipment, Faction, Position, Proficiencies};
use crate::grid::{DungeonGrid, GridPos};
use crate::level::Goal;
use crate::level::schema::{ConditionKind, DoorState, Gear, LightKind, Proficiency};
use crate::log::{EventLog, LogEvent, log_in};
use crate::rules::doors::{Door, DoorEvent, DoorRefusal};
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::movement::{Pace, Walking};
use crate::rules::party::Parties;
use crate::rules::traps::{Trap, TrapState};
use crate::schedule::{RoundSet, SimRound};
use crate::time::{Clock, ROUNDS_PER_TURN};

/// Hands a party to its policy (`policy: Some(..)`), or takes it back (`None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Autonomy {
    pub party: String,
    #[serde(default)]
    pub policy: Option<PartyPolicy>,
}

impl fmt::Display for Autonomy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.policy {
            Some(_) => write!(f, "hand the party to its policy"),
            None => write!(f, "take the party back from its policy"),
        }
    }
}

impl Act for Autonomy {
    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        match &self.policy {
            Some(policy) => hand_over(world, &self.party, policy.clone()),
            None => take_back(world, &self.party),
        }
    }
}

/// Why a party cannot be handed to a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutonomyRefusal {
    /// The policy names someone who is not in the party.
    NotInParty { name: String },
    /// The party is not under a policy.
    NotAutonomous,
    /// The delve has ended.
    DelveOver,
}

impl crate::command::Reason for AutonomyRefusal {}

impl fmt::Display for AutonomyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutonomyRefusal::NotInParty { name } => {
                write!(f, "the policy names {name}, who is not in the party")
            }
            AutonomyRefusal::NotAutonomous => write!(f, "the party is not under its policy"),
            AutonomyRefusal::DelveOver => write!(f, "the delve is over"),
        }
    }
}

/// The party hands itself to its policy: the way in is where its leader stands now.
fn hand_over(world: &mut World, party: &str, policy: PartyPolicy) -> Result<(), Refusal> {
    if world.resource::<DelveEnd>().0.is_some() {
        return Err(AutonomyRefusal::DelveOver.into());
    }
    let p = world
        .resource::<Parties>()
        .get(party)
        .cloned()
        .ok_or_else(|| Unable::NoParty {
            name: party.to_owned(),
        })?;
    let names: Vec<String> = p
        .marching_order
        .iter()
        .map(|&m| crate::creature::name_of(world, m))
        .collect();
    for n in policy
        .marching_order
        .iter()
        .flatten()
        .chain(&policy.light_bearer)
    {
        if !names.contains(n) {
            return Err(AutonomyRefusal::NotInParty { name: n.clone() }.into());
        }
    }
    let leader = p.leader().ok_or(Unable::NoParty {
        name: party.to_owned(),
    })?;
    let way_in = crate::command::square_of(world, leader)?;
    let faction = *world.get::<Faction>(leader).ok_or(Unable::NoSquare)?;
    let goal = world.resource::<LevelGoal>().0.clone();
    let fuel_at_start = super::outcome::fuel_rounds(world, &p.marching_order);
    let since = world.resource::<EventLog>().len();
    let goal_room = match goal {
        Goal::Room(p) => world.resource::<DungeonGrid>().room_of(p),
        _ => Vec::new(),
    };
    let mind = PartyMind {
        party: party.to_owned(),
        faction,
        policy,
        goal,
        goal_room,
        way_in,
        since,
        fuel_at_start,
        cursor: since,
        set_out: false,
        homeward: None,
        doors: BTreeMap::new(),
        door_work: BTreeMap::new(),
        shut_for_good: Vec::new(),
        later: Vec::new(),
        searched: BTreeMap::new(),
        exhausted: Vec::new(),
        traps_tried: Vec::new(),
        spiked_behind: Vec::new(),
        heading_for: None,
        listening_at: None,
        stranded_names: Vec::new(),
        looted: Vec::new(),
        taking_walks: 0,
        stalls: 0,
        last_walk_from: None,
    };
    let mut minds = world.resource_mut::<PartyMinds>();
    minds.0.retain(|m| m.party != party);
    minds.0.push(mind);
    Ok(())
}

fn take_back(world: &mut World, party: &str) -> Result<(), Refusal> {
    let mut minds = world.resource_mut::<PartyMinds>();
    let before = minds.0.len();
    minds.0.retain(|m| m.party != party);
    if minds.0.len() == before {
        return Err(AutonomyRefusal::NotAutonomous.into());
    }
    let members = party_members(world, party);
    for m in members {
        world
            .entity_mut(m)
            .remove::<crate::rules::combat::behaviour::Retreating>();
    }
    Ok(())
}

/// The level's goal, for the policies.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelGoal(pub Goal);

/// How the delve ended, once it has: the party and the outcome.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct DelveEnd(pub Option<(String, Outcome, Tally)>);

/// The parties under a policy.
#[derive(Resource, Clone, Debug, Default)]
pub struct PartyMinds(pub Vec<PartyMind>);

/// Why a party is making for the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Homeward {
    /// The goal is met.
    GoalMet,
    /// Too many of it are down.
    Fleeing,
    /// The light left would not last much beyond the walk back.
    LightShort,
    /// Nothing it can reach is left to explore or search.
    NothingLeft,
}

/// What a policy is about, logged before its orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Intent {
    /// Setting out: the marching order, the pole.
    SetOut,
    /// Lighting the next light.
    Relight { who: String },
    /// Filling an empty lantern.
    Refuel { who: String },
    /// Resting a turn (Dungeon Delves › Rest).
    Rest,
    /// Turning for the way in.
    TurnBack { why: Homeward },
    /// Walking to an edge of what it has seen.
    Explore { to: GridPos },
    /// Walking to the goal it has seen.
    MakeForGoal { to: GridPos },
    /// Walking back to the way in.
    GoHome { to: GridPos },
    /// Walking up to a door or trap on the way.
    Approach { to: GridPos },
    /// Listening before opening a door.
    ListenAt { door: GridPos },
    /// Opening a door, by hand or by force, or leaving it shut.
    Door { at: GridPos, how: DoorWay },
    /// Searching a dead end.
    Search { at: GridPos },
    /// Disarming a known trap.
    Disarm { at: GridPos },
    /// Closing and spiking a door behind it while fleeing.
    SpikeBehind { at: GridPos },
    /// Getting a member out of a pit.
    ClimbOut { who: String },
    /// Closing up on the leader.
    CloseUp,
    /// Taking the lights and gear of a fallen creature.
    TakeFromTheFallen { from: String },
    /// Getting a member stuck in a squeeze out (Dungeon Delves › Squeezing).
    GetUnstuck { who: String },
}

/// How a door is dealt with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DoorWay {
    Open,
    Key,
    Pick,
    PickMethodically,
    Bash,
    /// Wedged open with a spike: it swung shut by itself before (an evil door).
    Wedge,
    /// Left shut: nothing it can do opens it.
    LeaveShut,
}

/// What the policy puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PolicyEvent {
    /// The party's policy decided; its orders follow next round.
    Decided { party: String, intent: Intent },
    /// The party's delve ended: how, and its numbers.
    DelveEnded {
        party: String,
        outcome: super::Outcome,
        tally: super::Tally,
    },
}

impl LogEvent for PolicyEvent {
    fn who(&self) -> Option<&str> {
        match self {
            PolicyEvent::Decided { party, .. } | PolicyEvent::DelveEnded { party, .. } => {
                Some(party)
            }
        }
    }
}

impl fmt::Display for PolicyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (party, intent) = match self {
            PolicyEvent::Decided { party, intent } => (party, intent),
            PolicyEvent::DelveEnded {
                party,
                outcome,
                tally,
            } => return write!(f, "the delve of {party} is over: {outcome} ({tally})"),
        };
        write!(f, "{party}'s policy: ")?;
        match intent {
            Intent::SetOut => write!(f, "set out"),
            Intent::Relight { who } => write!(f, "{who} lights the next light"),
            Intent::Refuel { who } => write!(f, "{who} fills the lantern"),
            Intent::Rest => write!(f, "rest a turn"),
            Intent::TurnBack { why } => write!(f, "turn back ({why:?})"),
            Intent::Explore { to } => write!(f, "explore toward {to}"),
            Intent::MakeForGoal { to } => write!(f, "make for the goal at {to}"),
            Intent::GoHome { to } => write!(f, "go back to the way in at {to}"),
            Intent::Approach { to } => write!(f, "walk up to {to}"),
            Intent::ListenAt { door } => write!(f, "listen at the door at {door}"),
            Intent::Door { at, how } => write!(f, "the door at {at}: {how:?}"),
            Intent::Search { at } => write!(f, "search the dead end at {at}"),
            Intent::Disarm { at } => write!(f, "disarm the trap at {at}"),
            Intent::SpikeBehind { at } => write!(f, "spike the door at {at} shut behind"),
            Intent::ClimbOut { who } => write!(f, "get {who} out of the pit"),
            Intent::CloseUp => write!(f, "close up"),
            Intent::TakeFromTheFallen { from } => write!(f, "take what {from} carried"),
            Intent::GetUnstuck { who } => write!(f, "get {who} out of the squeeze"),
        }
    }
}

/// The party's mind: its policy, what it has learned, and what it is about.
#[derive(Clone, Debug)]
pub struct PartyMind {
    pub party: String,
    pub faction: Faction,
    pub policy: PartyPolicy,
    pub goal: Goal,
    /// The squares of the goal's room (for a `Room` goal), found once.
    goal_room: Vec<GridPos>,
    /// Where the party came in, and leaves.
    pub way_in: GridPos,
    /// The log's length when the party was handed over: its numbers count from here.
    pub since: usize,
    pub fuel_at_start: u64,
    /// The log entries read so far.
    cursor: usize,
    set_out: bool,
    pub homeward: Option<Homeward>,
    /// The doors it has seen, as it last saw them.
    doors: BTreeMap<GridPos, SeenDoor>,
    door_work: BTreeMap<GridPos, DoorWork>,
    /// Doors it will not try again.
    shut_for_good: Vec<GridPos>,
    /// Doors someone was heard behind: left for last.
    later: Vec<GridPos>,
    /// Dead ends, and how often they were searched methodically.
    searched: BTreeMap<GridPos, u32>,
    /// Edges it walked to that stayed edges: not tried again.
    exhausted: Vec<GridPos>,
    /// Traps a thief has tried to disarm.
    traps_tried: Vec<GridPos>,
    /// Doors it spiked shut behind it.
    spiked_behind: Vec<GridPos>,
    /// Where its last walk was bound.
    heading_for: Option<GridPos>,
    /// The door it listened at, until the listening is heard out.
    listening_at: Option<GridPos>,
    /// Members at the bottom of a pit who could not climb out, and were left there.
    stranded_names: Vec<String>,
    /// The fallen it has taken from, or given up taking from.
    looted: Vec<String>,
    /// Walks given toward a fallen creature not yet beside it: three, and it is given up.
    taking_walks: u32,
    /// Walks given in a row that did not move the leader: three, and the square is given up.
    stalls: u32,
    /// The leader's square when the last walk was given.
    last_walk_from: Option<GridPos>,
}

/// What the party has tried at a door, and learned.
#[derive(Clone, Debug, Default)]
struct DoorWork {
    listened: bool,
    tried_open: bool,
    /// What the last refusal said: locked, stuck, spiked.
    locked: bool,
    stuck: bool,
    key_tried: bool,
    picked: bool,
    picked_methodically: bool,
    bashes: u32,
    /// It swung shut by itself once.
    evil: bool,
    wedged: bool,
}

pub struct PartyPolicyPlugin;

impl Plugin for PartyPolicyPlugin {
    fn build(&self, app: &mut App) {
        use crate::rules::areas::RuleArea;
        app.installs(|world, level| {
            world.insert_resource(LevelGoal(level.goal.clone()));
            world.insert_resource(PartyMinds::default());
            world.insert_resource(DelveEnd::default());
        });
        app.init_resource::<PartyMinds>()
            .init_resource::<DelveEnd>()
            .init_resource::<LevelGoal>()
            .add_systems(SimRound, party_minds.in_set(RoundSet::PartyMinds));
    }
}

/// Each round, every party under a policy decides.
pub fn party_minds(world: &mut World) {
    if world.resource::<PartyMinds>().0.is_empty() || world.resource::<DelveEnd>().0.is_some() {
        return;
    }
    let mut minds = std::mem::take(&mut world.resource_mut::<PartyMinds>().0);
    for mind in &mut minds {
        if world.resource::<DelveEnd>().0.is_some() {
            break;
        }
        let members = party_members(world, &mind.party);
        read_the_news(world, mind, &members);
        if let Some(outcome) = the_end(world, mind, &members) {
            let tally = super::outcome::tally(world, &members, mind.since, mind.fuel_at_start);
            log_in(
                world,
                PolicyEvent::DelveEnded {
                    party: mind.party.clone(),
                    outcome,
                    tally: tally.clone(),
                },
            );
            world.resource_mut::<DelveEnd>().0 = Some((mind.party.clone(), outcome, tally));
            continue;
        }
        if busy(world, mind, &members) {
            continue;
        }
        if let Some((intent, orders)) = decide(world, mind, &members) {
            log_in(
                world,
                PolicyEvent::Decided {
                    party: mind.party.clone(),
                    intent,
                },
            );
            let mut pending = world.resource_mut::<PendingCommands>();
            for c in orders {
                pending.push_derived(c);
            }
        }
    }
    world.resource_mut::<PartyMinds>().0 = minds;
}

fn party_members(world: &World, party: &str) -> Vec<Entity> {
    world
        .resource::<Parties>()
        .get(party)
        .map(|p| p.marching_order.clone())
        .unwrap_or_default()
}

fn is_up(world: &World, e: Entity) -> bool {
    world
        .get::<Conditions>(e)
        .is_some_and(|c| !crate::rules::conditions::is_down(c))
}

fn name(world: &World, e: Entity) -> String {
    crate::creature::name_of(world, e)
}

fn square(world: &World, e: Entity) -> Option<GridPos> {
    world.get::<Position>(e).map(|p| p.0)
}

/// What the party learned since it last looked: its refused orders, doors that swung shut,
/// locks that opened.
fn read_the_news(world: &World, mind: &mut PartyMind, members: &[Entity]) {
    let log = world.resource::<EventLog>();
    let names: Vec<String> = members.iter().map(|&m| name(world, m)).collect();
    let entries = &log.entries()[mind.cursor.min(log.len())..];
    for entry in entries {
        if let Some(CommandEvent::CommandRefused {
            who,
            command,
            reason,
            ..
        }) = entry.get::<CommandEvent>()
        {
            if !(names.contains(who) || *who == mind.party) {
                continue;
            }
            learn_from_refusal(mind, command, reason);
        } else if let Some(e) = entry.get::<DoorEvent>() {
            match e {
                DoorEvent::DoorSwungShut { at } if mind.doors.contains_key(at) => {
                    mind.door_work.entry(*at).or_default().evil = true;
                }
                DoorEvent::LockOpened { at, .. } => {
                    let w = mind.door_work.entry(*at).or_default();
                    w.locked = false;
                    w.tried_open = false;
                }
                DoorEvent::LockJammed { at, .. } => {
                    let w = mind.door_work.entry(*at).or_default();
                    w.picked = true;
                    w.picked_methodically = true;
                }
                DoorEvent::PickFailed { at, .. } => {
                    mind.door_work.entry(*at).or_default().picked = true;
                }
                _ => {}
            }
        } else if let Some(crate::rules::sound::HearingEvent::Heard { who, .. }) = entry.get()
            && names.contains(who)
            && let Some(door) = mind.listening_at
            && mind.policy.avoid_noises
            && !mind.later.contains(&door)
        {
            mind.later.push(door);
        }
    }
    mind.cursor = log.len();
}

fn learn_from_refusal(mind: &mut PartyMind, command: &Command, reason: &Refusal) {
    match command {
        Command::OpenDoor(OpenDoor { at: d, .. }) => {
            let w = mind.door_work.entry(at(*d)).or_default();
            match reason.get::<DoorRefusal>() {
                Some(DoorRefusal::Locked) => w.locked = true,
                Some(DoorRefusal::Stuck | DoorRefusal::SpikedShut { .. }) => w.stuck = true,
                _ => {
                    mind.shut_for_good.push(at(*d));
                }
            }
        }
        Command::Unlock(Unlock { at: d, .. }) => {
            mind.door_work.entry(at(*d)).or_default().key_tried = true;
        }
        Command::PickLock(PickLock { at: d, .. }) => {
            mind.door_work.entry(at(*d)).or_default().picked = true;
        }
        Command::PickLockMethodically(PickLockMethodically { at: d, .. }) => {
            mind.door_work
                .entry(at(*d))
                .or_default()
                .picked_methodically = true;
        }
        Command::Bash(Bash { at: d, .. }) => {
            mind.shut_for_good.push(at(*d));
        }
        Command::CloseDoor(CloseDoor { at: d, .. }) => {
            mind.spiked_behind.push(at(*d));
        }
        Command::Spike(Spike { at: d, .. }) => {
            let w = mind.door_work.entry(at(*d)).or_default();
            w.wedged = true;
            mind.spiked_behind.push(at(*d));
        }
        Command::DisarmTrap(DisarmTrap { at: t, .. })
        | Command::DisarmTrapMethodically(DisarmTrapMethodically { at: t, .. }) => {
            mind.traps_tried.push(at(*t));
        }
        Command::Climb(Climb { who, .. }) => {
            mind.stranded_names.push(who.clone());
        }
        Command::TakeFrom(TakeFrom { from, .. }) => {
            mind.looted.push(from.clone());
        }
        Command::MoveParty(MoveParty { to, .. }) | Command::Move(Move { to, .. }) => {
            // A walk the rules refuse (a door shut out of sight): that square is given up.
            mind.exhausted.push(at(*to));
        }
        _ => {}
    }
}

/// Has the delve ended for this party, and how?
fn the_end(world: &mut World, mind: &PartyMind, members: &[Entity]) -> Option<Outcome> {
    if members.iter().all(|&m| !is_up(world, m)) {
        return Some(Outcome::PartyDead);
    }
    let rounds = world.resource::<Clock>().rounds;
    if rounds >= mind.policy.turn_limit * ROUNDS_PER_TURN {
        return Some(Outcome::OutOfTime);
    }
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    if let Goal::Exit(exit) = mind.goal
        && here == exit
    {
        return Some(Outcome::GoalReached);
    }
    // Back at the way in: its leader on it, or beside it with a companion on it.
    if here.within_a_step(mind.way_in)
        && (here == mind.way_in
            || members
                .iter()
                .any(|&m| is_up(world, m) && square(world, m) == Some(mind.way_in)))
        && let Some(why) = mind.homeward
    {
        return Some(match why {
            Homeward::GoalMet => Outcome::GoalReached,
            Homeward::Fleeing => Outcome::PartyFled,
            Homeward::LightShort => Outcome::OutOfLight,
            Homeward::NothingLeft
                if mind.goal == Goal::ExploreAll
                    && super::outcome::explored_all(world, mind.faction, mind.way_in) =>
            {
                Outcome::GoalReached
            }
            Homeward::NothingLeft => Outcome::GaveUp,
        });
    }
    // Its last light burnt out with nothing left to light (a party that came without lights
    // delves by other senses).
    if mind.fuel_at_start > 0
        && !has_light_burning(world, members)
        && light_to_kindle(world, members).is_none()
        && fallen_with_gear(world, mind, members, true).is_empty()
    {
        return Some(Outcome::OutOfLight);
    }
    None
}

/// The first member who is up: the one who leads.
fn leader(world: &World, members: &[Entity]) -> Option<Entity> {
    members.iter().copied().find(|&m| is_up(world, m))
}

/// Busy: walking, closing up, climbing, resting, at work, or in a battle (not fleeing).
fn busy(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let fighting = world
        .get_resource::<crate::rules::combat::battle::Battle>()
        .is_some_and(|b| b.active);
    if fighting && mind.homeward != Some(Homeward::Fleeing) && !too_many_down(world, mind, members)
    {
        return true;
    }
    let marching = world
        .resource::<Parties>()
        .get(&mind.party)
        .is_some_and(|p| p.pace.is_some());
    marching
        || members.iter().any(|&m| {
            is_up(world, m)
                && (world.get::<Walking>(m).is_some()
                    || world
                        .get::<crate::rules::caving::climbing::Climbing>(m)
                        .is_some()
                    || world.get::<crate::rules::task::Task>(m).is_some()
                    || world.get::<crate::creature::Resting>(m).is_some())
        })
}

fn too_many_down(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let down = members.iter().filter(|&&m| !is_up(world, m)).count();
    down > 0 && down as f32 >= mind.policy.flee_when_down * members.len() as f32
}

/// The lights the members carry: (bearer, light, the light), in a fixed order.
fn carried(world: &mut World, members: &[Entity]) -> Vec<(Entity, Entity, LightSource)> {
    super::kept_query(
        world,
        |world, q: &mut QueryState<(Entity, &LightSource, &CarriedBy)>| {
            let mut out: Vec<_> = q
                .iter(world)
                .filter(|(_, _, c)| members.contains(&c.0))
                .map(|(e, l, c)| (c.0, e, *l))
                .collect();
            out.sort_by_key(|(bearer, e, _)| (*bearer, *e));
            out
        },
    )
}

/// A light that needs no fuel (`fuel_turns` left out) burns on.
fn burns_forever(world: &mut World, members: &[Entity]) -> bool {
    carried(world, members)
        .iter()
        .any(|(.., l)| l.fuel_rounds.is_none())
}

fn has_light_burning(world: &mut World, members: &[Entity]) -> bool {
    carried(world, members)
        .iter()
        .any(|(b, _, l)| l.lit && is_up(world, *b))
}

/// Who can light a light, and how: an unlit light with fuel, or an empty lantern and a flask.
fn light_to_kindle(world: &mut World, members: &[Entity]) -> Option<(Entity, bool)> {
    let lights = carried(world, members);
    let up = |e: Entity| is_up(world, e);
    if let Some((b, ..)) = lights
        .iter()
        .find(|(b, _, l)| !l.lit && l.fuel_rounds != Some(0) && up(*b))
    {
        return Some((*b, false));
    }
    lights
        .iter()
        .find(|(b, _, l)| {
            l.kind == LightKind::Lantern
                && l.fuel_rounds == Some(0)
                && up(*b)
                && world
                    .get::<Equipment>(*b)
                    .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Oil(n) if *n > 0)))
        })
        .map(|(b, ..)| (*b, true))
}

/// The party's decision this round: why, and its orders.
fn decide(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    if !mind.set_out {
        mind.set_out = true;
        let orders = setting_out(world, mind, members);
        if !orders.is_empty() {
            return Some((Intent::SetOut, orders));
        }
    }
    // The leader is down: the others go first.
    if members.first() != Some(&leader) {
        let mut order: Vec<Entity> = members
            .iter()
            .copied()
            .filter(|&m| is_up(world, m))
            .collect();
        order.extend(members.iter().copied().filter(|&m| !is_up(world, m)));
        let order = order.iter().map(|&m| name(world, m)).collect();
        return Some((
            Intent::SetOut,
            vec![
                MarchingOrder {
                    party: mind.party.clone(),
                    order,
                }
                .into(),
            ],
        ));
    }
    if mind.homeward != Some(Homeward::Fleeing)
        && let Some(order) = take_from_the_fallen(world, mind, members)
    {
        return Some(order);
    }
    if !has_light_burning(world, members)
        && let Some((who, refuel)) = light_to_kindle(world, members)
    {
        let n = name(world, who);
        return Some(if refuel {
            (
                Intent::Refuel { who: n.clone() },
                vec![Refuel { who: n }.into()],
            )
        } else {
            let mut orders: Vec<Command> = vec![LightUp { who: n.clone() }.into()];
            // The light goes second in the marching order, to light the leader's way.
            if members.first() != Some(&who) && members.get(1) != Some(&who) {
                let mut order: Vec<String> = members
                    .iter()
                    .filter(|&&m| m != who)
                    .map(|&m| name(world, m))
                    .collect();
                order.insert(1.min(order.len()), n.clone());
                orders.push(
                    MarchingOrder {
                        party: mind.party.clone(),
                        order,
                    }
                    .into(),
                );
            }
            (Intent::Relight { who: n }, orders)
        });
    }
    // Stuck in a squeeze: it wiggles back (a Paralysis save), or pushes forward
    // (Dungeonbashing) when the way it was going lies ahead.
    if let Some(stuck) = members.iter().copied().find(|&m| {
        is_up(world, m)
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Stuck))
    }) {
        let who = name(world, stuck);
        let order: Command = if mind.homeward.is_some() {
            WiggleBack { who: who.clone() }.into()
        } else {
            PushForward { who: who.clone() }.into()
        };
        return Some((Intent::GetUnstuck { who }, vec![order]));
    }
    if let Some(order) = close_up(world, mind, members, leader, here) {
        return Some(order);
    }
    if let Some(order) = out_of_the_pit(world, mind, members) {
        return Some(order);
    }
    if mind.homeward != Some(Homeward::Fleeing) && too_many_down(world, mind, members) {
        mind.homeward = Some(Homeward::Fleeing);
        for &m in members {
            world
                .entity_mut(m)
                .insert(crate::rules::combat::behaviour::Retreating);
        }
        return Some((
            Intent::TurnBack {
                why: Homeward::Fleeing,
            },
            Vec::new(),
        ));
    }
    if mind.homeward == Some(Homeward::Fleeing)
        && let Some(order) = spike_behind(world, mind, members, here)
    {
        return Some(order);
    }
    if mind.homeward != Some(Homeward::Fleeing) && needs_rest(world, members) {
        return Some((
            Intent::Rest,
            vec![
                RestParty {
                    party: mind.party.clone(),
                }
                .into(),
            ],
        ));
    }
    update_doors(world, mind, members);
    let seen = world
        .resource::<crate::rules::vision::FactionMemory>()
        .seen
        .get(mind.faction.0)
        .cloned()
        .unwrap_or_default();
    let traps = known_traps(world, mind.faction);
    let grid = world.resource::<DungeonGrid>().clone();
    if seen.len() != (grid.width() * grid.height()) as usize {
        return None;
    }
    let (doors, shut) = (mind.doors.clone(), mind.shut_for_good.clone());
    let know = Knowledge {
        grid: &grid,
        seen: &seen,
        doors: &doors,
        shut_for_good: &shut,
        traps: &traps,
        swims: all_swim(world, members),
    };
    let from_here = know.distances(here);
    // An edge it stands on or beside stays an edge only for what cannot be seen from here (dark
    // walls, corners): walking there again would show no more.
    for p in std::iter::once(here).chain(here.neighbours()) {
        if know.frontier(p) && !mind.exhausted.contains(&p) {
            mind.exhausted.push(p);
        }
    }
    if mind.homeward.is_none()
        && let Some(why) = turn_back(world, mind, members, &know, &from_here)
    {
        mind.homeward = Some(why);
        mind.heading_for = None;
        return Some((Intent::TurnBack { why }, Vec::new()));
    }
    // Where to, and why.
    let (target, intent) = if mind.homeward.is_some() {
        (mind.way_in, Intent::GoHome { to: mind.way_in })
    } else if let Some(goal) = goal_square(mind, &know, &from_here) {
        (goal, Intent::MakeForGoal { to: goal })
    } else if let Some(edge) = nearest_edge(mind, &know, &from_here, here) {
        (edge, Intent::Explore { to: edge })
    } else if let Some(end) = dead_end_to_search(mind, &know, &from_here) {
        if members
            .iter()
            .any(|&m| is_up(world, m) && square(world, m) == Some(end))
        {
            return Some(search_here(world, mind, members, end));
        }
        (end, Intent::Search { at: end })
    } else {
        mind.homeward = Some(Homeward::NothingLeft);
        return Some((
            Intent::TurnBack {
                why: Homeward::NothingLeft,
            },
            Vec::new(),
        ));
    };
    if target == here {
        // Arrived where it was bound, and it is still an edge: it is not tried again.
        mind.exhausted.push(target);
        return None;
    }
    let walk = from_here.walk_to(&grid, target)?;
    on_the_way(world, mind, members, &know, &walk, target, intent)
}

/// The fallen within reach of the party's knowledge that carry something, not yet taken from
/// nor given up: its own fallen members, and any other fallen creature a member sees now.
/// `lights_only`: only those that carry a light with fuel. Its own fallen come first.
fn fallen_with_gear(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    lights_only: bool,
) -> Vec<(Entity, GridPos)> {
    let fallen: Vec<(Entity, String, GridPos)> = super::kept_query(
        world,
        |world, q: &mut QueryState<(Entity, &Name, &Position, &Conditions)>| {
            q.iter(world)
                .filter(|(.., c)| crate::rules::conditions::is_down(c))
                .map(|(e, n, p, _)| (e, n.to_string(), p.0))
                .collect()
        },
    );
    if fallen.is_empty() {
        return Vec::new();
    }
    let with_light: Vec<Entity> = super::kept_query(
        world,
        |world, q: &mut QueryState<(Entity, &LightSource, &CarriedBy)>| {
            q.iter(world)
                .filter(|(_, l, _)| l.fuel_rounds != Some(0))
                .map(|(_, _, c)| c.0)
                .collect()
        },
    );
    let mut out: Vec<(bool, Entity, GridPos)> = fallen
        .into_iter()
        .filter(|(e, n, p)| {
            !mind.looted.contains(n)
                && (members.contains(e) || in_sight(world, members, *p))
                && world.get::<crate::rules::caving::Below>(*e).is_none()
                && (with_light.contains(e)
                    || (!lights_only
                        && world.get::<Equipment>(*e).is_some_and(|g| !g.0.is_empty())))
        })
        .map(|(e, _, p)| (!members.contains(&e), e, p))
        .collect();
    out.sort();
    out.into_iter().map(|(_, e, p)| (e, p)).collect()
}

/// Outside a fight, the nearest member who is up takes the lights and gear of the fallen: its
/// own first (a lantern must not die with its bearer), then foes it sees fall (a key, a
/// treasure). It walks up to one not beside it.
fn take_from_the_fallen(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    let (fallen, at) = *fallen_with_gear(world, mind, members, false).first()?;
    let from = name(world, fallen);
    let grid = world.resource::<DungeonGrid>().clone();
    let taker = members
        .iter()
        .copied()
        .filter(|&m| {
            is_up(world, m)
                && world.get::<crate::rules::caving::Below>(m).is_none()
                && !mind.stranded_names.contains(&name(world, m))
        })
        .filter_map(|m| {
            let p = square(world, m)?;
            if p.within_a_step(at) {
                return Some((0, m, p));
            }
            let path = crate::grid::path::find_path(&grid, p, at)?;
            Some((path.feet, m, p))
        })
        .min_by_key(|&(feet, m, _)| (feet, m));
    let intent = Intent::TakeFromTheFallen { from: from.clone() };
    let Some((_, taker, taker_at)) = taker else {
        mind.looted.push(from);
        return None;
    };
    if taker_at.within_a_step(at) {
        mind.taking_walks = 0;
        mind.looted.push(from.clone());
        let who = name(world, taker);
        return Some((intent, vec![TakeFrom { who, from }.into()]));
    }
    // Up to the nearest free square beside it, unless that is too far to be worth it.
    let occupied = occupied_squares(world);
    let beside = at
        .neighbours()
        .into_iter()
        .filter(|p| grid.is_passable(*p) && !occupied.contains(p))
        .filter_map(|p| crate::grid::path::find_path(&grid, taker_at, p).map(|path| (path.feet, p)))
        .min();
    mind.taking_walks += 1;
    if mind.taking_walks > 3 {
        mind.taking_walks = 0;
        mind.looted.push(from);
        return None;
    }
    match beside {
        Some((feet, p)) if feet <= 120 => Some((
            intent,
            vec![
                Move {
                    who: name(world, taker),
                    to: (p.x, p.y),
                    pace: Pace::Exploration,
                }
                .into(),
            ],
        )),
        _ => {
            mind.looted.push(from);
            None
        }
    }
}

/// A member at the bottom of a pit climbs out to the rim, up a rope if one hangs there; with
/// none, one who carries a rope lowers it from beside the pit first. One who cannot climb out
/// is left there.
fn out_of_the_pit(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    let below = members.iter().copied().find(|&m| {
        is_up(world, m)
            && world.get::<crate::rules::caving::Below>(m).is_some()
            && !mind.stranded_names.contains(&name(world, m))
    })?;
    let pit = square(world, below)?;
    let leader = leader(world, members)?;
    let grid = world.resource::<DungeonGrid>();
    let rim = pit
        .neighbours()
        .into_iter()
        .filter(|&p| grid.is_passable(p))
        .min_by_key(|&p| {
            let l = square(world, leader).unwrap_or(p);
            (l.chebyshev(p), p)
        })?;
    let roped = world
        .resource::<crate::rules::caving::climbing::RopesSecured>()
        .at(pit)
        .is_some();
    let intent = Intent::ClimbOut {
        who: name(world, below),
    };
    let climber = world.get::<Proficiencies>(below).is_some_and(|p| {
        crate::rules::caving::climbing::climbing_target(p, crate::level::schema::Surface::Sheer)
            .is_some()
    });
    let sheer =
        crate::rules::caving::climbing::side_of(world, pit) == crate::level::schema::Surface::Sheer;
    if !roped && sheer && !climber {
        let roper = members.iter().copied().find(|&m| {
            m != below
                && is_up(world, m)
                && world.get::<crate::rules::caving::Below>(m).is_none()
                && world.get::<Equipment>(m).is_some_and(|g| g.has_rope(0))
        });
        if let Some(roper) = roper {
            let order = LowerRope {
                who: name(world, roper),
                at: (pit.x, pit.y),
            }
            .into();
            let leader_at = square(world, leader)?;
            let party = mind.party.clone();
            return Some((
                intent,
                walk_up_and(world, &party, members, roper, leader_at, pit, order),
            ));
        }
    }
    Some((
        intent,
        vec![
            Climb {
                who: name(world, below),
                to: (rim.x, rim.y),
                pace: Default::default(),
            }
            .into(),
        ],
    ))
}

/// Strung out (its light far from its leader, or a member far behind): the party closes up on
/// its leader before it goes on.
fn close_up(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    leader: Entity,
    here: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let far = |p: GridPos, squares: u32| here.chebyshev(p) > squares;
    let with_us: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| {
            m != leader
                && is_up(world, m)
                && world.get::<crate::rules::caving::Below>(m).is_none()
                && !mind.stranded_names.contains(&name(world, m))
        })
        .filter_map(|m| square(world, m).map(|p| (m, p)))
        .collect();
    let light_far = carried(world, members)
        .iter()
        .filter(|(_, _, l)| l.lit)
        .filter_map(|(b, ..)| with_us.iter().find(|(m, _)| m == b))
        .any(|(_, p)| far(*p, 2));
    let straggler = with_us
        .iter()
        .any(|(_, p)| far(*p, members.len() as u32 + 1));
    if !(light_far || straggler) {
        return None;
    }
    // Each one far behind walks up to the nearest free square on its way to the leader.
    let mut taken = occupied_squares(world);
    let grid = world.resource::<DungeonGrid>();
    let mut orders: Vec<Command> = Vec::new();
    for (m, p) in with_us {
        if !far(p, 1) {
            continue;
        }
        let Some(path) = crate::grid::path::find_path(grid, p, here) else {
            continue;
        };
        let Some(&to) = path
            .squares
            .iter()
            .rev()
            .skip(1)
            .find(|q| !taken.contains(q) || **q == p)
        else {
            continue;
        };
        if to == p {
            continue;
        }
        taken.push(to);
        orders.push(
            Move {
                who: name(world, m),
                to: (to.x, to.y),
                pace: Pace::Exploration,
            }
            .into(),
        );
    }
    (!orders.is_empty()).then_some((Intent::CloseUp, orders))
}

/// Setting out: the policy's marching order and the probing pole.
fn setting_out(world: &mut World, mind: &PartyMind, members: &[Entity]) -> Vec<Command> {
    let mut orders: Vec<Command> = Vec::new();
    if let Some(order) = &mind.policy.marching_order {
        orders.push(
            MarchingOrder {
                party: mind.party.clone(),
                order: order.clone(),
            }
            .into(),
        );
    }
    if let Some(bearer) = &mind.policy.light_bearer {
        let has_lit = |world: &mut World, who: &str| {
            let e = world
                .resource::<crate::creature::CreatureIndex>()
                .0
                .get(who)
                .copied();
            e.is_some_and(|e| carried(world, &[e]).iter().any(|(.., l)| l.lit))
        };
        if !has_lit(world, bearer) {
            for &m in members {
                let n = name(world, m);
                if n != *bearer && carried(world, &[m]).iter().any(|(.., l)| l.lit) {
                    orders.push(Douse { who: n }.into());
                }
            }
            orders.push(
                LightUp {
                    who: bearer.clone(),
                }
                .into(),
            );
        }
    }
    if mind.policy.probe_with_pole
        && let Some(&pole) = members.iter().find(|&&m| {
            world
                .get::<Equipment>(m)
                .is_some_and(|g| g.has(&Gear::TenFootPole))
        })
    {
        orders.push(
            Probe {
                who: name(world, pole),
                on: true,
            }
            .into(),
        );
    }
    orders
}

/// A member who needs rest has had five whole turns without it, or is winded (Dungeon Delves ›
/// Rest).
fn needs_rest(world: &World, members: &[Entity]) -> bool {
    members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Proficiencies>(m)
                .is_some_and(crate::rules::rest::needs_rest)
            && (world
                .get::<crate::rules::rest::Fatigue>(m)
                .is_some_and(|f| {
                    f.rounds_without_rest
                        >= crate::rules::rest::TURNS_BETWEEN_RESTS * ROUNDS_PER_TURN
                })
                || world
                    .get::<Conditions>(m)
                    .is_some_and(|c| c.has(ConditionKind::Winded)))
    })
}

/// Does a member see this square now?
fn in_sight(world: &World, members: &[Entity], p: GridPos) -> bool {
    members.iter().any(|&m| {
        world
            .get::<crate::rules::vision::Sight>(m)
            .is_some_and(|s| s.sees(p))
    })
}

/// The doors in sight of a member now, as they are.
fn update_doors(world: &mut World, mind: &mut PartyMind, members: &[Entity]) {
    let mut q = world.query::<(&Position, &Door)>();
    let doors: Vec<(GridPos, bool, bool)> = q
        .iter(world)
        .map(|(p, d)| (p.0, d.secret, d.state == DoorState::Open))
        .collect();
    for (at, secret, open) in doors {
        if secret {
            continue;
        }
        if in_sight(world, members, at) {
            mind.doors.insert(at, SeenDoor { open });
        }
    }
}

/// Does every member who is up swim: proficient in Swimming, or with a swimming speed (Dungeon
/// Delves › Swimming)?
fn all_swim(world: &World, members: &[Entity]) -> bool {
    members.iter().filter(|&&m| is_up(world, m)).all(|&m| {
        world
            .get::<Proficiencies>(m)
            .is_some_and(|p| p.has(Proficiency::Swimming))
            || world.get::<crate::rules::water::SwimmingSpeed>(m).is_some()
    })
}

fn known_traps(world: &mut World, faction: Faction) -> Vec<GridPos> {
    let mut q = world.query::<(&Position, &Trap)>();
    let mut traps: Vec<GridPos> = q
        .iter(world)
        .filter(|(_, t)| t.state == TrapState::Armed && t.known_to(Some(faction)))
        .map(|(p, _)| p.0)
        .collect();
    traps.sort();
    traps
}

/// Should the party turn for home now, and why?
fn turn_back(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &super::knowledge::Distances,
) -> Option<Homeward> {
    if goal_met(world, mind, members) {
        return Some(Homeward::GoalMet);
    }
    // Dungeon Delves › Light and Darkness: the light left against the walk back.
    let cost = from_here.cost(know.grid, mind.way_in)?;
    let feet = (cost / 2 * know.grid.scale_feet()) as u64;
    let tenths = members
        .iter()
        .filter(|&&m| is_up(world, m))
        .filter_map(|&m| {
            let enc = world.get::<crate::creature::Encumbrance>(m)?;
            let cond = world.get::<Conditions>(m)?;
            crate::rules::movement::Speeds::of(enc.0, cond)
                .map(|s| s.tenths_per_round(Pace::Exploration) as u64)
        })
        .min()
        .filter(|&t| t > 0)?;
    let rounds_home = feet * 10 / tenths;
    if mind.fuel_at_start == 0 || burns_forever(world, members) {
        return None;
    }
    let fuel = super::outcome::fuel_rounds(world, members);
    let margin = mind.policy.light_margin_turns as u64 * ROUNDS_PER_TURN;
    (fuel < rounds_home + margin).then_some(Homeward::LightShort)
}

fn goal_met(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let up: Vec<GridPos> = members
        .iter()
        .filter(|&&m| is_up(world, m))
        .filter_map(|&m| square(world, m))
        .collect();
    match &mind.goal {
        Goal::ExploreAll | Goal::Exit(_) => false,
        Goal::Reach(p) => up.contains(p),
        Goal::Room(_) => up.iter().any(|q| mind.goal_room.contains(q)),
        Goal::Recover(gear) => members
            .iter()
            .any(|&m| world.get::<Equipment>(m).is_some_and(|g| g.has(gear))),
    }
}

/// The goal's square, once the party has seen it and can walk there.
fn goal_square(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &super::knowledge::Distances,
) -> Option<GridPos> {
    match mind.goal {
        Goal::Reach(p) | Goal::Room(p) | Goal::Exit(p) => {
            (know.has_seen(p) && from_here.cost(know.grid, p).is_some()).then_some(p)
        }
        Goal::ExploreAll | Goal::Recover(_) => None,
    }
}

/// The nearest edge of what the party has seen (or the nearest closed door with something
/// unseen beyond), not yet given up; doors where someone was heard come last.
fn nearest_edge(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &super::knowledge::Distances,
    here: GridPos,
) -> Option<GridPos> {
    let candidates = from_here.reachable(know.grid).filter(|&(p, _)| {
        p != here
            && !mind.exhausted.contains(&p)
            && match know.step(p) {
                Step::ClosedDoor => p
                    .neighbours()
                    .iter()
                    .any(|&q| know.grid.in_bounds(q) && !know.has_seen(q)),
                Step::Open => know.frontier(p),
                _ => false,
            }
    });
    let (now, later): (Vec<_>, Vec<_>) = candidates.partition(|(p, _)| !mind.later.contains(p));
    let nearest =
        |v: Vec<(GridPos, u32)>| v.into_iter().min_by_key(|&(p, c)| (c, p)).map(|(p, _)| p);
    nearest(now).or_else(|| nearest(later))
}

/// The nearest dead end searched fewer times than the policy says.
fn dead_end_to_search(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &super::knowledge::Distances,
) -> Option<GridPos> {
    from_here
        .reachable(know.grid)
        .filter(|&(p, _)| {
            mind.searched.get(&p).copied().unwrap_or(0) < mind.policy.dead_end_searches
                && !mind.exhausted.contains(&p)
                && know.dead_end(p)
        })
        .min_by_key(|&(p, c)| (c, p))
        .map(|(p, _)| p)
}

/// At a dead end: the best searcher steps onto it, then everyone searches (a turn); the thief
/// first searches hastily when the policy says so.
fn search_here(
    world: &World,
    mind: &mut PartyMind,
    members: &[Entity],
    here: GridPos,
) -> (Intent, Vec<Command>) {
    let intent = Intent::Search { at: here };
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    let searcher = up
        .iter()
        .copied()
        .max_by_key(|&m| {
            let profs = world.get::<Proficiencies>(m);
            let proficient = profs.is_some_and(|p| p.has(Proficiency::Searching));
            let pole = world
                .get::<Equipment>(m)
                .is_some_and(|g| g.has(&Gear::TenFootPole));
            (proficient, pole, std::cmp::Reverse(m))
        })
        .expect("the leader is up");
    // One already on the dead end searches from there: the others cannot step onto it.
    let searcher = up
        .iter()
        .copied()
        .find(|&m| square(world, m) == Some(here))
        .unwrap_or(searcher);
    if square(world, searcher) != Some(here) {
        return (
            intent,
            take_the_lead(world, &mind.party, members, searcher, here),
        );
    }
    let count = mind.searched.entry(here).or_insert(0);
    let hasty = mind.policy.hasty_search
        && *count == 0
        && world
            .get::<crate::rules::search::HastilySearched>(searcher)
            .is_none_or(|s| !s.areas.iter().any(|(p, _)| *p == here))
        && world
            .get::<Proficiencies>(searcher)
            .is_some_and(|p| p.has(Proficiency::Searching));
    if hasty {
        return (
            intent,
            vec![
                SearchHastily {
                    who: name(world, searcher),
                }
                .into(),
            ],
        );
    }
    *count += 1;
    let orders = up
        .iter()
        .map(|&m| {
            Search {
                who: name(world, m),
            }
            .into()
        })
        .collect();
    (intent, orders)
}

/// Walks toward `target` along `walk`, dealing with the first door or known trap on the way.
fn on_the_way(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    target: GridPos,
    intent: Intent,
) -> Option<(Intent, Vec<Command>)> {
    use crate::grid::terrain::Terrain;
    let here = walk[0];
    let party = mind.party.clone();
    let fleeing = mind.homeward == Some(Homeward::Fleeing);
    let pace = if fleeing {
        Pace::Combat
    } else {
        Pace::Exploration
    };
    let mut stop = target;
    for (k, &p) in walk.iter().enumerate().skip(1) {
        // A door is stopped before when it is shut, or out of sight (it may have shut since).
        let door = know.grid.terrain(p) == Some(Terrain::Door)
            && (know.step(p) == Step::ClosedDoor || !in_sight(world, members, p));
        let trap = know.step(p) == Step::Trap
            && mind.policy.disarm_traps
            && !mind.traps_tried.contains(&p);
        // Fleeing, it stops just past an open door it has spikes for, to spike it behind.
        if fleeing
            && !door
            && know.grid.terrain(p) == Some(Terrain::Door)
            && know.step(p) == Step::Open
            && !mind.spiked_behind.contains(&p)
            && with_spikes(world, members).is_some()
            && let Some(&past) = walk.get(k + 1)
        {
            stop = past;
            break;
        }
        if !(door || trap) {
            continue;
        }
        if k > 1 {
            stop = walk[k - 1];
            break;
        }
        if door && know.step(p) == Step::ClosedDoor {
            return Some(deal_with_door(world, mind, members, p));
        }
        if door {
            if let Some(w) = mind.door_work.get(&p)
                && w.evil
                && !w.wedged
                && let Some(spiker) = with_spikes(world, members)
            {
                return Some((
                    Intent::Door {
                        at: p,
                        how: DoorWay::Wedge,
                    },
                    walk_up_and(
                        world,
                        &party,
                        members,
                        spiker,
                        here,
                        p,
                        Spike {
                            who: name(world, spiker),
                            at: (p.x, p.y),
                        }
                        .into(),
                    ),
                ));
            }
            continue;
        }
        if let Some(thief) = disarmer(world, members) {
            mind.traps_tried.push(p);
            let who = name(world, thief);
            return Some((
                Intent::Disarm { at: p },
                walk_up_and(
                    world,
                    &party,
                    members,
                    thief,
                    here,
                    p,
                    DisarmTrap {
                        who,
                        at: (p.x, p.y),
                        discharge: false,
                    }
                    .into(),
                ),
            ));
        }
        mind.traps_tried.push(p);
    }
    // The same walk again from the same square: something stands in the way.
    if mind.heading_for == Some(stop) && mind.last_walk_from == Some(here) {
        mind.stalls += 1;
        if mind.stalls >= 3 {
            mind.exhausted.extend([stop, target]);
            mind.stalls = 0;
        }
    } else {
        mind.stalls = 0;
    }
    mind.last_walk_from = Some(here);
    mind.heading_for = Some(stop);
    let intent = if stop == target {
        intent
    } else {
        Intent::Approach { to: stop }
    };
    Some((
        intent,
        vec![
            MoveParty {
                party: mind.party.clone(),
                to: (stop.x, stop.y),
                pace,
            }
            .into(),
        ],
    ))
}

/// A member's order at a door or trap beside the leader: if it is not beside it already, it
/// first steps up to a free square beside it, or, where there is none (a corridor), takes the
/// lead and walks up to the leader's square as the others make way.
fn walk_up_and(
    world: &mut World,
    party: &str,
    members: &[Entity],
    who: Entity,
    leader_at: GridPos,
    thing: GridPos,
    order: Command,
) -> Vec<Command> {
    if square(world, who).is_some_and(|p| p.within_a_step(thing)) {
        return vec![order];
    }
    let occupied = occupied_squares(world);
    let grid = world.resource::<DungeonGrid>();
    let free = thing
        .neighbours()
        .into_iter()
        // On this side: beside the leader, who stands beside it.
        .filter(|&p| {
            grid.is_passable(p)
                && !occupied.contains(&p)
                && p != thing
                && p.within_a_step(leader_at)
        })
        .min_by_key(|&p| (leader_at.x.abs_diff(p.x) + leader_at.y.abs_diff(p.y), p));
    match free {
        Some(p) => vec![
            Move {
                who: name(world, who),
                to: (p.x, p.y),
                pace: Pace::Exploration,
            }
            .into(),
        ],
        None => take_the_lead(world, party, members, who, leader_at),
    }
}

/// `who` goes to the front of the marching order and the party walks to `to`: the new leader
/// passes the others, and they fall in behind.
fn take_the_lead(
    world: &World,
    party: &str,
    members: &[Entity],
    who: Entity,
    to: GridPos,
) -> Vec<Command> {
    let mut order = vec![name(world, who)];
    order.extend(
        members
            .iter()
            .filter(|&&m| m != who)
            .map(|&m| name(world, m)),
    );
    vec![
        MarchingOrder {
            party: party.to_owned(),
            order,
        }
        .into(),
        MoveParty {
            party: party.to_owned(),
            to: (to.x, to.y),
            pace: Pace::Exploration,
        }
        .into(),
    ]
}

/// The squares where a creature that is up stands.
fn occupied_squares(world: &mut World) -> Vec<GridPos> {
    type Up = QueryState<(&'static Position, &'static Conditions), With<crate::creature::Creature>>;
    super::kept_query(world, |world, q: &mut Up| {
        q.iter(world)
            .filter(|(_, c)| !crate::rules::conditions::is_down(c))
            .map(|(p, _)| p.0)
            .collect()
    })
}

fn with_spikes(world: &World, members: &[Entity]) -> Option<Entity> {
    members.iter().copied().find(|&m| {
        is_up(world, m)
            && world
                .get::<Equipment>(m)
                .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Spikes(n) if *n > 0)))
    })
}

fn proficient_with_tools(world: &World, m: Entity, p: Proficiency) -> bool {
    is_up(world, m)
        && world.get::<Proficiencies>(m).is_some_and(|x| x.has(p))
        && world
            .get::<Equipment>(m)
            .is_some_and(|g| g.has(&Gear::ThievesTools))
}

fn disarmer(world: &World, members: &[Entity]) -> Option<Entity> {
    members
        .iter()
        .copied()
        .find(|&m| proficient_with_tools(world, m, Proficiency::Trapbreaking))
}

/// The party at a closed door beside its leader: listen, open, key, pick, bash, or leave it.
fn deal_with_door(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    door: GridPos,
) -> (Intent, Vec<Command>) {
    let leader = leader(world, members).expect("the party has a leader");
    let leader_at = square(world, leader).unwrap_or(door);
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    let listen = mind.policy.listen_at_doors;
    let party = mind.party.clone();
    let w = mind.door_work.entry(door).or_default();
    let by = |how: DoorWay| Intent::Door { at: door, how };
    let xy = (door.x, door.y);
    if listen && !w.listened {
        w.listened = true;
        mind.listening_at = Some(door);
        let listener = up
            .iter()
            .copied()
            .min_by_key(|&m| {
                world
                    .get::<Proficiencies>(m)
                    .map_or(20, |p| crate::rules::sound::hearing::listening_target(p).0)
            })
            .unwrap_or(leader);
        return (
            Intent::ListenAt { door },
            vec![
                Listen {
                    who: name(world, listener),
                }
                .into(),
            ],
        );
    }
    mind.listening_at = None;
    // A door that swung shut by itself once is wedged open with a spike as it is opened, in the
    // same round, before it can swing shut again.
    if w.evil
        && !w.wedged
        && let Some(spiker) = with_spikes(world, members)
    {
        let spike: Command = Spike {
            who: name(world, spiker),
            at: xy,
        }
        .into();
        if !square(world, spiker).is_some_and(|p| p.within_a_step(door)) {
            let orders = walk_up_and(world, &party, members, spiker, leader_at, door, spike);
            return (by(DoorWay::Wedge), orders);
        }
        w.tried_open = true;
        let opener = if square(world, leader).is_some_and(|p| p.within_a_step(door)) {
            leader
        } else {
            spiker
        };
        let open = OpenDoor {
            who: name(world, opener),
            at: xy,
        }
        .into();
        return (by(DoorWay::Wedge), vec![open, spike]);
    }
    if !w.tried_open {
        w.tried_open = true;
        return (
            by(DoorWay::Open),
            vec![
                OpenDoor {
                    who: name(world, leader),
                    at: xy,
                }
                .into(),
            ],
        );
    }
    if w.locked {
        let keys: Vec<Entity> = up
            .iter()
            .copied()
            .filter(|&m| {
                world
                    .get::<Equipment>(m)
                    .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Key(_))))
            })
            .collect();
        if !w.key_tried
            && let Some(&holder) = keys.first()
        {
            let order = Unlock {
                who: name(world, holder),
                at: xy,
            }
            .into();
            if square(world, holder).is_some_and(|p| p.within_a_step(door)) {
                w.key_tried = true;
            }
            return (
                by(DoorWay::Key),
                walk_up_and(world, &party, members, holder, leader_at, door, order),
            );
        }
        if let Some(thief) = up
            .iter()
            .copied()
            .find(|&m| proficient_with_tools(world, m, Proficiency::Lockpicking))
        {
            let beside = square(world, thief).is_some_and(|p| p.within_a_step(door));
            if !w.picked {
                w.picked |= beside;
                let order = PickLock {
                    who: name(world, thief),
                    at: xy,
                }
                .into();
                return (
                    by(DoorWay::Pick),
                    walk_up_and(world, &party, members, thief, leader_at, door, order),
                );
            }
            if !w.picked_methodically {
                w.picked_methodically |= beside;
                let order = PickLockMethodically {
                    who: name(world, thief),
                    at: xy,
                }
                .into();
                return (
                    by(DoorWay::PickMethodically),
                    walk_up_and(world, &party, members, thief, leader_at, door, order),
                );
            }
        }
        mind.shut_for_good.push(door);
        return (by(DoorWay::LeaveShut), Vec::new());
    }
    if w.stuck && w.bashes < mind.policy.bash_attempts {
        let basher = up
            .iter()
            .copied()
            .max_by_key(|&m| {
                (
                    world.get::<Abilities>(m).map_or(0, |a| a.0.str),
                    std::cmp::Reverse(m),
                )
            })
            .unwrap_or(leader);
        let beside = square(world, basher).is_some_and(|p| p.within_a_step(door));
        if beside {
            w.bashes += 1;
        }
        let order = Bash {
            who: name(world, basher),
            at: xy,
            helper: None,
        }
        .into();
        return (
            by(DoorWay::Bash),
            walk_up_and(world, &party, members, basher, leader_at, door, order),
        );
    }
    if w.stuck {
        mind.shut_for_good.push(door);
        return (by(DoorWay::LeaveShut), Vec::new());
    }
    // Tried, neither locked nor stuck as far as it learned, and still shut: open it again.
    w.tried_open = false;
    (by(DoorWay::Open), Vec::new())
}

/// Fleeing: the rearmost member shuts and spikes an open door the party has passed.
fn spike_behind(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    here: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let spiker = with_spikes(world, members)?;
    let at = square(world, spiker)?;
    let occupied: Vec<GridPos> = {
        let mut q = world.query_filtered::<&Position, With<crate::creature::Creature>>();
        q.iter(world).map(|p| p.0).collect()
    };
    let mut q = world.query::<(&Position, &Door)>();
    let doors: Vec<(GridPos, DoorState, u8)> = q
        .iter(world)
        .map(|(p, d)| (p.0, d.state, d.spikes))
        .collect();
    for (door, state, spikes) in doors {
        if mind.spiked_behind.contains(&door) || !at.within_a_step(door) || occupied.contains(&door)
        {
            continue;
        }
        // Behind: farther from the way in than the party's leader.
        let behind = door.chebyshev(mind.way_in) > here.chebyshev(mind.way_in);
        if !behind {
            continue;
        }
        let who = name(world, spiker);
        let xy = (door.x, door.y);
        let order: Command = match state {
            DoorState::Open => CloseDoor { who, at: xy }.into(),
            DoorState::Closed if spikes == 0 => {
                mind.spiked_behind.push(door);
                Spike { who, at: xy }.into()
            }
            DoorState::Closed => continue,
        };
        return Some((Intent::SpikeBehind { at: door }, vec![order]));
    }
    None
}
