//! The adventuring party's mind: a party handed to its policy ([`Autonomy`]) delves by itself,
//! giving each round the commands a player would, from what its faction knows
//! ([`super::knowledge`]) and never from the Judge's map.
//!
//! Each round it checks for **the end** (every member down; the policy's turn limit; back at
//! the way in after turning for home; its last light burnt out with nothing to light). Then,
//! if it is not busy (walking, resting, at work on a task, or fighting: in a battle the fighting
//! behaviour, `rules::combat::behaviour`, answers faction initiative), it tries its tactics, an
//! ordered table (`decide::TACTICS`), the first that applies deciding the round:
//! 1. **set out**: the marching order and the pole; **leader up front**: the leader down or in
//!    a hole, the others go first;
//! 2. **get unstuck** (Dungeon Delves › Squeezing): push forward or wiggle back, before
//!    anything else;
//! 3. **take from the fallen**: the lights and gear of a fallen companion or foe;
//! 4. **relight** (Dungeon Delves › Light and Darkness): the next light a round before the last
//!    dies, and an empty lantern filled from a flask of oil;
//! 5. **close up** on the leader; **fetch from the pit** (a rope lowered, a climb down) and
//!    **out of the pit**: no one left behind alive; **rejoin across** a hole, ledge or shaft
//!    some have crossed;
//! 6. **flee** once the policy's share of the party is down, and **spike behind** the doors it
//!    passes;
//! 7. **rest** (Dungeon Delves › Rest): a turn once five have passed, or when a member is
//!    winded; those with Endurance keep watch;
//! 8. **take a light** it sees when short of light; **turn back** when the light left would not
//!    last the walk back and the policy's margin, or the goal is met;
//! 9. **where next**: the best plan of the planner (`plan`: every aim its knowledge allows —
//!    the goal, the nearest edge, a foe or a fallen creature with what it came for, a dead end
//!    or a wall to search — for the whole party or a part that can go where the rest cannot,
//!    weighed by the rules' odds for those who go); else home. On the way: a closed door is
//!    listened at, opened, unlocked with a key it carries, picked (hastily, then methodically)
//!    by a thief, bashed when stuck or spiked, or left shut; an evil door that swung shut once
//!    is wedged open with a spike; a known trap is prodded with the pole, disarmed, stepped
//!    around or crossed at its chance; a hole jumped, a ledge traversed, a shaft climbed
//!    through.
//!
//! Its orders are derived commands, like the monsters': a replay of the journal (which holds the
//! [`Autonomy`] command) derives them again. Before each order the log says why
//! ([`PolicyEvent::Decided`]).
//!
//! This file holds the command, the mind and its round; the decision is `decide`, and its parts
//! are `light`, `fallen` (gear from the fallen, a member out of a pit), `way` (where next,
//! turning back, what is on the way) and `doors` (doors and traps on the way); `fighting` has it
//! fight together in a battle.

mod bearing;
mod decide;
mod doors;
mod fallen;
mod light;
mod odds;
pub mod plan;
mod rescue;
mod resting;
mod round;
mod solo;
use delve_ground::log::LogKind;
use delve_rules::act::AnyAct;
use delve_rules::creature::Below;
use delve_rules::rules::acting::Hold;
use delve_rules::rules::sound::HearingEvent;
use delve_rules::rules::traps::TrapEvent;
use delve_rules::rules::water::WaterEvent;

pub use solo::{FuelAtStart, GoalsStoodOn};
mod searching;
mod standing;
mod task;
mod telling;
mod way;
use decide::decide;
pub use decide::{tactic_names, try_tactic, weigh_plans};
pub use round::Decision;
mod exploring;
mod fighting;
mod gaps;
mod ground;
mod stowing;
mod why;

use bevy::prelude::*;
use serde::Serialize;

use super::knowledge::SeenDoor;
use super::outcome::{Outcome, Tally};
use decide::busy;
use delve_ground::grid::GridPos;
use delve_ground::level::Goal;
use delve_ground::log::{EventLog, LogEvent, log_in};
use delve_ground::party_policy::PartyPolicy;
use delve_rules::act::{PendingCommands, Refusal, at};
use delve_rules::command::{Command, CommandEvent};
use delve_rules::creature::{Conditions, Faction, Position};
use delve_rules::rules::doors::{DoorEvent, DoorRefusal};
use delve_rules::rules::party::{Parties, PartyMindHandler};
use delve_rules::schedule::{RoundSet, SimRound};
use fighting::in_a_fight;
use light::{light_dying, light_to_kindle};

mod handing;
mod intent;
pub use handing::AutonomyRefusal;
use handing::{hand_over, take_back};
pub use intent::{DoorPlan, Homeward, Intent};

mod ending;
use decide::Deciding;
use delve_rules::command::acts::{
    Bash, Climb, ClimbDown, CloseDoor, DisarmTrap, DisarmTrapMethodically, Jump, LowerRope,
    MarchingOrder, Move, MoveParty, OpenDoor, PickLock, PickLockMethodically, Spike, TakeFrom,
    Unlock,
};
use delve_rules::rules::movement::Pace;
use doors::DoorMemory;
use ending::{left_behind, the_end};
use exploring::{Exploring, WalkMemory};
use fallen::FallenMemory;
use gaps::GapMemory;
use light::LightMemory;

/// The level's goal, for the policies.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelGoal(pub Goal);

/// How the delve ended, once it has: the party and the outcome.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct DelveEnd(pub Option<(String, Outcome, Tally)>);

/// The parties under a policy.
#[derive(Resource, Clone, Debug, Default)]
pub struct PartyMinds(pub Vec<PartyMind>);

/// What the policy puts in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PolicyEvent {
    /// The party's policy decided by one of its tactics (`decide::TACTICS`); its orders
    /// follow next round.
    Decided {
        party: String,
        tactic: &'static str,
        intent: Intent,
    },
    /// A tactic's decision changed nothing five times in a row (no one moved, a round or two
    /// apart): the party sets it aside for three turns and tries the next (`decide::SET_ASIDE`).
    SetAside {
        party: String,
        tactic: &'static str,
        intent: Intent,
    },
    /// The planner weighed the plans open to the party and took `chosen` (`plan`); the next
    /// best beside it. Logged when the plan it takes changes.
    Weighed {
        party: String,
        chosen: plan::Weighing,
        others: Vec<plan::Weighing>,
    },
    /// The party judged a foe it sees (`odds`): the rounds its members would take to fell it
    /// and the wounds it would deal them meanwhile, of their hit points; too strong, and the
    /// party keeps clear of it.
    Judged {
        party: String,
        foe: String,
        rounds_to_fell: f32,
        wounds_expected: f32,
        party_hit_points: f32,
        too_strong: bool,
    },
    /// The party's delve ended: how, and its numbers.
    DelveEnded {
        party: String,
        outcome: Outcome,
        tally: Tally,
    },
}

impl LogEvent for PolicyEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            PolicyEvent::Decided { party, .. }
            | PolicyEvent::SetAside { party, .. }
            | PolicyEvent::Weighed { party, .. }
            | PolicyEvent::Judged { party, .. }
            | PolicyEvent::DelveEnded { party, .. } => Some(party),
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
    /// Where the party came in, and leaves.
    pub way_in: GridPos,

    /// The log's length when the party was handed over: its numbers count from here.
    pub since: usize,
    pub fuel_at_start: u64,
    /// The log entries read so far.
    cursor: usize,
    /// A member fell or went under since the party last decided: it stops to see to it, even
    /// on the march.
    alarm: bool,
    /// The foes it judged too strong for it, by name, where it last saw each
    /// (`odds::update_dangers`): its ways keep away from them.
    dangers: Vec<(String, GridPos)>,
    /// Of those, the foes it could not outlast ([`odds::Odds::beyond_the_party`]), by name, with
    /// the wounds it expects each to deal before it falls and its own hit points, whole.
    beyond: Vec<(String, u32, u32)>,
    /// One of those foes it sees coming on, by name (`fighting::coming_on`): it falls back.
    coming_on: Option<String>,
    /// The foe it is falling back from ([`fighting::FallingBack`]).
    falling_back: Option<fighting::FallingBack>,
    /// How often it fell back, from each foe.
    fell_back: std::collections::BTreeMap<String, u32>,
    /// The foes it has judged, by name.
    judged: Vec<String>,
    /// The foes it would fight, where it last saw each (`plan::update_quarry`).
    quarry: Vec<(String, GridPos)>,
    /// The passage it holds against foes that outnumber it (`ground`).
    held: Option<Vec<GridPos>>,
    pub homeward: Option<Homeward>,
    /// What the party has learned of doors ([`DoorMemory`]).
    door_memory: DoorMemory,
    /// Where the party has been and is bound ([`Exploring`]).
    exploring: Exploring,
    /// Walks that did not move the leader ([`WalkMemory`]).
    walking: WalkMemory,
    /// The fallen and the stranded ([`FallenMemory`]).
    fallen_memory: FallenMemory,
    /// Gaps in the way ([`GapMemory`]).
    gap_memory: GapMemory,
    /// Part of the party sent down a shaft ([`task::Tasks`]).
    tasks: task::Tasks,
    /// Lights on the level taken, or given up taking ([`LightMemory`]).
    light_memory: LightMemory,
    /// The deciding itself ([`Deciding`]).
    deciding: Deciding,
    /// The mapper who put the map away for a fight, by name (`stowing`).
    map_stowed_by: Option<String>,
}

/// What the party has tried at a door, and learned.
#[derive(Clone, Debug, Default)]
struct DoorWork {
    listened: bool,
    /// Walks given to bring the best listener up to the door (Dungeon Delves › Listening: one
    /// listens standing at the door).
    listen_walks: u32,
    tried_open: bool,
    /// Walks given to bring the front fighter up to the door to open it.
    open_walks: u32,
    key_tried: bool,
    /// Walks given to bring the key's holder up to the door.
    key_walks: u32,
    picked: bool,
    /// Methodical picks that failed (Dungeon Delves › Doors: "failed to pick, try again").
    methodical_picks: u32,
    /// The lock is jammed: it cannot be picked again.
    jammed: bool,
    bashes: u32,
    /// A second member was called up beside it to bash together.
    helper_called: bool,
    /// It swung shut by itself once.
    evil: bool,
    wedged: bool,
}

pub struct PartyPolicyPlugin;

impl Plugin for PartyPolicyPlugin {
    fn build(&self, app: &mut App) {
        use delve_rules::state::KeepsState;
        // The area's state, kept in every keyframe (`delve_rules::state`).
        app.keeps::<crate::policy::party::DelveEnd>()
            .keeps::<crate::policy::party::LevelGoal>()
            .keeps::<crate::policy::party::PartyMinds>()
            .keeps::<crate::policy::party::FuelAtStart>()
            .keeps::<crate::policy::party::GoalsStoodOn>();
        use delve_rules::rules::areas::RuleArea;
        app.installs(|world, level| {
            world.insert_resource(LevelGoal(level.goal.clone()));
            world.insert_resource(PartyMinds::default());
            world.insert_resource(DelveEnd::default());
        })
        .installs_after_creatures(solo::count_fuel);
        app.init_resource::<PartyMinds>()
            .init_resource::<DelveEnd>()
            .init_resource::<LevelGoal>()
            .insert_resource(PartyMindHandler {
                hand_over,
                take_back,
            })
            .not_state::<PartyMindHandler>()
            .add_systems(
                SimRound,
                (party_minds, solo::the_end_of_solo_play)
                    .chain()
                    .in_set(RoundSet::PartyMinds),
            );
    }
}

/// Why a delve that met its goal is not counted a success: the first member it left behind.
fn left_first(left: &[super::outcome::LeftBehind]) -> Option<super::outcome::Cause> {
    left.first().map(|l| super::outcome::Cause::LeftBehind {
        who: l.who.clone(),
        at: l.at,
        how: l.how,
    })
}

/// Each round, every party under a policy decides.
fn party_minds(world: &mut World) {
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
        // (The squares walked matter only to a pole's bearer who leads where none walked.)
        if mind.policy.pole_ahead {
            for &m in &members {
                if let Some(p) = square(world, m) {
                    mind.exploring.trodden.insert(p);
                }
            }
        }
        if let Some(outcome) = the_end(world, mind, &members) {
            let mut tally = super::outcome::tally(world, &members, mind.since, mind.fuel_at_start);
            tally.left_behind = left_behind(world, mind, &members);
            let outcome = outcome.leaving(&tally.left_behind);
            if outcome == Outcome::PartyDead {
                tally.count_the_dying(world, &members);
            }
            tally.cause = why::why_it_ended(world, mind, &members, outcome)
                .or_else(|| left_first(&tally.left_behind));
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
        fighting::fight_together(world, &members);
        // Busy, unless (outside a fight) its last light is about to die and it has another to
        // light.
        let fighting = in_a_fight(world, &members);
        let foe_at_hand =
            mind.policy.stow_map_in_fights && fighting::foe_at_hand(world, mind, &members);
        stowing::stow_the_map(world, mind, foe_at_hand);
        let alarm = std::mem::take(&mut mind.alarm);
        // A foe too strong for it in sight and no blow struck: it keeps clear, deciding its way
        // on even in a battle (`odds`).
        let in_sight = fighting::foes_in_sight(world, mind.faction, &members);
        let was = mind.dangers.clone();
        odds::update_dangers(world, mind, &members, &in_sight);
        mind.coming_on = fighting::coming_on(world, mind, &members, &in_sight, &was);
        fighting::still_coming(world, mind, &in_sight);
        plan::update_quarry(world, mind, &members, &in_sight);
        let clear = odds::keeping_clear(world, mind, &members, &in_sight)
            || (fighting
                && mind.homeward != Some(Homeward::Fleeing)
                && fighting::beyond_reach(world, mind, &members));
        odds::hold_back(world, mind, &members, clear);
        if !clear {
            ground::hold_the_narrows(world, mind, &members, &in_sight);
            ground::keep_the_frail_back(world, mind, &members, &in_sight);
        }
        // (While part of the party is away on a task, they alone decide.)
        let acting = task::acting_members(world, mind, &members);
        if busy(world, mind, &acting)
            && !alarm
            && !clear
            && (fighting
                || !(light_dying(world, &members) && light_to_kindle(world, &members).is_some()))
        {
            continue;
        }
        if let Some((tactic, (intent, mut orders))) = decide(world, mind, &acting) {
            task::name_the_waiters(mind, &mut orders);
            log_in(
                world,
                PolicyEvent::Decided {
                    party: mind.party.clone(),
                    tactic,
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
        .is_some_and(|c| !delve_rules::rules::conditions::is_down(c))
}

fn name(world: &World, e: Entity) -> String {
    delve_rules::creature::name_of(world, e)
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
        } else if let Some(TrapEvent::TrapSprung { who, .. }) = entry.get()
            && names.contains(who)
        {
            mind.alarm = true;
        } else if let Some(WaterEvent::Drowning { who, .. }) = entry.get()
            && names.contains(who)
        {
            mind.alarm = true;
        } else if let Some(e) = entry.get::<DoorEvent>() {
            match e {
                DoorEvent::DoorSwungShut { at } if mind.door_memory.doors.contains_key(at) => {
                    mind.door_memory.door_work.entry(*at).or_default().evil = true;
                    mind.door_memory.door_swung_shut = true;
                }
                DoorEvent::LockOpened { at, .. } => {
                    mind.door_memory
                        .door_work
                        .entry(*at)
                        .or_default()
                        .tried_open = false;
                }
                DoorEvent::LockJammed { at, .. } => {
                    let w = mind.door_memory.door_work.entry(*at).or_default();
                    w.picked = true;
                    w.jammed = true;
                }
                DoorEvent::PickFailed { at, may_retry, .. } => {
                    let w = mind.door_memory.door_work.entry(*at).or_default();
                    w.picked = true;
                    // A methodical pick is counted once it has failed (one an encounter broke
                    // off is tried again).
                    w.methodical_picks += u32::from(*may_retry);
                }
                _ => {}
            }
        } else if let Some(HearingEvent::Heard { who, .. }) = entry.get()
            && names.contains(who)
            && let Some(door) = mind.door_memory.listening_at
            && mind.policy.avoid_noises
            && !mind.door_memory.later.contains(&door)
        {
            mind.door_memory.later.push(door);
        }
    }
    mind.cursor = log.len();
}

fn learn_from_refusal(mind: &mut PartyMind, command: &Command, reason: &Refusal) {
    // Refused for what the member is (surprised, drowning, stuck, …), not for what the door,
    // trap or square is: nothing to learn of the world, and it tries again when it can.
    if reason.get::<Hold>().is_some() {
        return;
    }
    match command {
        Command::OpenDoor(OpenDoor { at: d, .. }) => {
            // (The door's work is begun: the lab's account reads it.)
            mind.door_memory.door_work.entry(at(*d)).or_default();
            match reason.get::<DoorRefusal>() {
                // (Its faction knows the door as it tried it: `rules::doors::TriedBy`.)
                Some(DoorRefusal::Locked | DoorRefusal::Stuck | DoorRefusal::SpikedShut { .. }) => {
                }
                // (Someone opened it out of its sight: it knows now.)
                Some(DoorRefusal::OpenAlready | DoorRefusal::Open) => {
                    mind.door_memory
                        .doors
                        .insert(at(*d), SeenDoor { open: true });
                }
                _ => {
                    mind.door_memory.shut_for_good.push(at(*d));
                }
            }
        }
        Command::Unlock(Unlock { at: d, .. }) => {
            mind.door_memory
                .door_work
                .entry(at(*d))
                .or_default()
                .key_tried = true;
        }
        Command::PickLock(PickLock { at: d, .. }) => {
            mind.door_memory.door_work.entry(at(*d)).or_default().picked = true;
        }
        Command::PickLockMethodically(PickLockMethodically { at: d, .. }) => {
            mind.door_memory.door_work.entry(at(*d)).or_default().jammed = true;
        }
        Command::Bash(Bash { at: d, .. }) => {
            if matches!(
                reason.get::<DoorRefusal>(),
                Some(DoorRefusal::Open | DoorRefusal::OpenAlready)
            ) {
                mind.door_memory
                    .doors
                    .insert(at(*d), SeenDoor { open: true });
            } else {
                mind.door_memory.shut_for_good.push(at(*d));
            }
        }
        Command::CloseDoor(CloseDoor { at: d, .. }) => {
            mind.door_memory.spiked_behind.push(at(*d));
        }
        Command::Spike(Spike { at: d, .. }) => {
            let w = mind.door_memory.door_work.entry(at(*d)).or_default();
            w.wedged = true;
            mind.door_memory.spiked_behind.push(at(*d));
        }
        Command::DisarmTrap(DisarmTrap { at: t, .. })
        | Command::DisarmTrapMethodically(DisarmTrapMethodically { at: t, .. }) => {
            mind.exploring.traps_tried.push(at(*t));
        }
        Command::Climb(Climb { who, .. }) => {
            mind.fallen_memory.stranded_names.push(who.clone());
        }
        Command::Jump(Jump { who, .. }) => {
            mind.gap_memory.jump_refused.push(who.clone());
        }
        Command::ClimbDown(ClimbDown { into, .. })
        | Command::LowerRope(LowerRope { at: into, .. }) => {
            mind.fallen_memory.pits_given_up.push(at(*into));
        }
        Command::TakeFrom(TakeFrom { from, .. }) => {
            mind.fallen_memory.looted.push(from.clone());
        }
        Command::MoveParty(MoveParty { to, .. }) | Command::Move(Move { to, .. }) => {
            // A walk the rules refuse (a door shut out of sight): that square is given up —
            // unless an evil door it knows swung shut across the way: it goes back to it (and
            // wedges it open).
            if std::mem::take(&mut mind.door_memory.door_swung_shut) {
                return;
            }
            mind.exploring.exhausted.push(at(*to));
        }
        _ => {}
    }
}

/// How far from its leader, in squares, a member still walks with the party: its column's
/// length and a square.
pub(super) fn with_the_party(members: &[Entity]) -> u32 {
    members.len() as u32 + 1
}

/// A member on hand farther from the leader than the column reaches, with a way to it: it
/// should close up.
fn straggling(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    leader_at: GridPos,
    m: Entity,
) -> bool {
    on_hand(world, mind, m)
        && !stuck_for_good(world, m)
        && square(world, m).is_some_and(|p| {
            p.chebyshev(leader_at) > with_the_party(members)
                && delve_rules::rules::movement::hazards::way(world, m, p, leader_at).is_ok()
        })
}

/// Stuck in a squeeze with no chance to escape it either way (Dungeon Delves › Squeezing: a
/// push forward and a wiggle back both past its throws): the party cannot wait for it.
fn stuck_for_good(world: &World, m: Entity) -> bool {
    use delve_rules::rules::caving::{escape_odds, events::Escape};
    let Some(stuck) = world.get::<delve_rules::rules::movement::squeezes::StuckIn>(m) else {
        return false;
    };
    let pushes = stuck.failed_pushes;
    escape_odds(world, m, Escape::Forward, pushes) == 0.0
        && escape_odds(world, m, Escape::Back, pushes) == 0.0
}

/// A member who is up, on the floor (not at the bottom of a hole) and not given up as stranded
/// there: one the party can count on to act where it stands.
fn on_hand(world: &World, mind: &PartyMind, m: Entity) -> bool {
    is_up(world, m)
        && world.get::<Below>(m).is_none()
        && !mind.fallen_memory.stranded_names.contains(&name(world, m))
}

/// The first command of a kind the rules offer the member for the round to come (the areas'
/// offers, `rules::choices_next_round`): the party chooses among the offers rather than
/// repeating the rules that make them.
pub(super) fn offered(
    world: &World,
    m: Entity,
    takes: impl Fn(&AnyAct) -> bool,
) -> Option<Command> {
    delve_rules::rules::choices_next_round(world, m)
        .into_iter()
        .find(|(_, c)| takes(&c.command))
        .map(|(_, c)| Command::from(&c.command))
}

/// The command the rules offer `m` at the hole (pit or shaft) at `hole` — as if it stood beside
/// it — that `takes` picks out.
pub(super) fn offered_at_hole(
    world: &World,
    m: Entity,
    hole: GridPos,
    takes: impl Fn(&AnyAct) -> bool,
) -> Option<Command> {
    delve_rules::rules::caving::choices::choices_at_hole(world, m, hole)
        .into_iter()
        .find(|c| takes(&c.command))
        .map(|c| Command::from(&c.command))
}

/// The climb out of its hole the rules offer `m` (at the bottom of one), made to `to`: the
/// offer says it can climb out at all; which rim it makes for is the party's to choose.
pub(super) fn offered_climb_out(world: &World, m: Entity, to: GridPos) -> Option<Command> {
    match offered(world, m, |a| a.get::<Climb>().is_some())? {
        Command::Climb(mut climb) => {
            climb.to = (to.x, to.y);
            climb.pace = Default::default();
            Some(climb.into())
        }
        _ => None,
    }
}

/// Held by nothing that refuses its commands (stuck in a squeeze, drowning, crawling a
/// traverse): it can be given an order. Surprise does not count: it lasts only the round the
/// faction loses, and an order given now is carried out in the round after it.
fn free_to_act(world: &World, m: Entity) -> bool {
    delve_rules::rules::acting::held_from(world, m, &[Hold::Surprised]).is_none()
}

/// The first member who is up and not at the bottom of a hole (else the first up): the one who
/// leads.
fn leader(world: &World, members: &[Entity]) -> Option<Entity> {
    members
        .iter()
        .copied()
        .find(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .or_else(|| members.iter().copied().find(|&m| is_up(world, m)))
}

/// `who` goes to the front of the marching order, the others behind it as they were.
pub(super) fn first_in_line(
    world: &World,
    party: &str,
    members: &[Entity],
    who: Entity,
) -> Command {
    let mut order = vec![name(world, who)];
    order.extend(
        members
            .iter()
            .filter(|&&m| m != who)
            .map(|&m| name(world, m)),
    );
    MarchingOrder {
        party: party.to_owned(),
        order,
    }
    .into()
}

/// `who` goes to the front of the marching order and the party walks to `to`: the new leader
/// passes the others, and they fall in behind.
pub(super) fn take_the_lead(
    world: &World,
    party: &str,
    members: &[Entity],
    who: Entity,
    to: GridPos,
) -> Vec<Command> {
    take_the_lead_at(world, party, members, who, (to, Pace::Exploration))
}

/// [`take_the_lead`] at a pace (in flight, combat speed).
pub(super) fn take_the_lead_at(
    world: &World,
    party: &str,
    members: &[Entity],
    who: Entity,
    (to, pace): (GridPos, Pace),
) -> Vec<Command> {
    vec![
        first_in_line(world, party, members, who),
        MoveParty {
            party: party.to_owned(),
            to: (to.x, to.y),
            pace,
        }
        .into(),
    ]
}
