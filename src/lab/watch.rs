//! What a delve did with each feature of the level and to each member of the party, read round
//! by round from the typed events of its log and the state of the party: each door's funnel
//! (reached, tried each way, opened or failed, the turns spent on it), each secret door's
//! (reached, searched, found), each trap's harm (hit points, members downed) apart from its
//! harmless discharges (the pole's, a disarm's), each member's casualty (downed, by what and
//! where; dead, dying, abandoned or rescued at the end), and the delve's time budget.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::command::{Command, CommandEvent};
use crate::creature::{CreatureIndex, Position};
use crate::grid::GridPos;
use crate::level::schema::ConditionKind;
use crate::log::LogEntry;
use crate::rules::caving::CavingEvent;
use crate::rules::combat::CombatEvent;
use crate::rules::conditions::ConditionEvent;
use crate::rules::doors::{DoorEvent, LockOpening};
use crate::rules::traps::TrapEvent;
use crate::rules::water::WaterEvent;
use crate::time::{DelveMode, ROUNDS_PER_TURN};

/// A way of trying a door (Dungeon Delves › Doors).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum DoorWay {
    /// Opening it by hand (a stuck door will not give).
    ByHand,
    /// Unlocking it with a key.
    Key,
    /// Picking its lock hastily (a round).
    HastyPick,
    /// Picking its lock methodically (a turn, +4).
    MethodicalPick,
    /// Bashing it (a round; Dungeonbashing).
    Bash,
    /// Battering it down (turns, with an axe or a ram).
    Batter,
}

impl DoorWay {
    pub const ALL: &'static [DoorWay] = <DoorWay as strum::VariantArray>::VARIANTS;

    /// The way a door command tries, and the door's square.
    fn of(command: &Command) -> Option<(DoorWay, GridPos)> {
        let (way, at) = match command {
            Command::OpenDoor(c) => (DoorWay::ByHand, c.at),
            Command::Unlock(c) => (DoorWay::Key, c.at),
            Command::PickLock(c) => (DoorWay::HastyPick, c.at),
            Command::PickLockMethodically(c) => (DoorWay::MethodicalPick, c.at),
            Command::Bash(c) => (DoorWay::Bash, c.at),
            Command::Batter(c) => (DoorWay::Batter, c.at),
            _ => return None,
        };
        Some((way, GridPos::new(at.0, at.1)))
    }
}

impl std::fmt::Display for DoorWay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DoorWay::ByHand => "by hand",
            DoorWay::Key => "key",
            DoorWay::HastyPick => "hasty pick",
            DoorWay::MethodicalPick => "methodical pick",
            DoorWay::Bash => "bash",
            DoorWay::Batter => "batter",
        })
    }
}

/// One door in one delve: when the party first stood beside it, how it tried it, and how that
/// went (whether and how it opened it is `Features::opened`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DoorRecord {
    pub at: GridPos,
    /// The turn a member first stood beside it (or on it); none: never reached.
    pub reached: Option<f32>,
    /// Each way the party tried it, and how many times.
    pub tried: Vec<(DoorWay, u32)>,
    /// Its lock jammed by a failed pick.
    pub jammed: bool,
    /// Bashes that failed.
    pub bashes_failed: u32,
    /// Picks that failed.
    pub picks_failed: u32,
    /// Turns the party's members spent trying it (a bash a round, a methodical pick a turn).
    pub turns: f32,
}

impl DoorRecord {
    pub fn times_tried(&self, way: DoorWay) -> u32 {
        self.tried
            .iter()
            .find(|(w, _)| *w == way)
            .map_or(0, |(_, n)| *n)
    }

    fn try_it(&mut self, way: DoorWay) {
        match self.tried.iter_mut().find(|(w, _)| *w == way) {
            Some((_, n)) => *n += 1,
            None => self.tried.push((way, 1)),
        }
    }
}

/// One secret door in one delve.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SecretDoorRecord {
    pub at: GridPos,
    /// The turn a member first stood within a search's reach of it.
    pub reached: Option<f32>,
    /// Searches (methodical or hasty) whose reach took it in.
    pub searched: u32,
    /// The turn it was found.
    pub found: Option<f32>,
}

/// One trap in one delve: what it did to the party, its harmless discharges apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrapRecord {
    pub at: GridPos,
    /// Times it went off on a member.
    pub sprung: u32,
    /// Times it went off with no one in its way: a pole's touch, a disarm that discharged it.
    pub discharged: u32,
    /// Hit points it took from members.
    pub hit_points: i32,
    /// Members it brought down (dying or dead), or who fell into it and stayed at its bottom.
    pub downed: Vec<String>,
}

impl TrapRecord {
    /// Did it harm anyone: hit points, or a member brought down?
    pub fn harmful(&self) -> bool {
        self.hit_points > 0 || !self.downed.is_empty()
    }
}

/// What brought a member down.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Harm {
    /// A foe's blow.
    Foe { name: String },
    /// A trap (a pit's fall too), named as it went off.
    Trap { name: String, at: GridPos },
    /// A fall (a climb, a jump, a ledge, an open pit).
    Fall { at: GridPos },
    /// Water: its breath ran out.
    Drowning,
    /// Nothing the log names (the Judge's hand).
    Unknown,
    /// Never brought down: left behind standing, apart from the party.
    NotBroughtDown,
}

impl std::fmt::Display for Harm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Harm::Foe { name } => write!(f, "{name}"),
            Harm::Trap { name, at } => write!(f, "{name} at {at}"),
            Harm::Fall { at } => write!(f, "a fall at {at}"),
            Harm::Drowning => f.write_str("drowning"),
            Harm::Unknown => f.write_str("nothing the log names"),
            Harm::NotBroughtDown => f.write_str("not brought down"),
        }
    }
}

/// How a member brought down came out of the delve.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Dead.
    Dead,
    /// Dying still when the delve ended with the party on the level (every member down).
    Dying,
    /// Left behind alive as the party left (`tally.left_behind`).
    Abandoned,
    /// Brought down, and out alive with the party.
    Rescued,
}

impl Fate {
    pub const ALL: &'static [Fate] = <Fate as strum::VariantArray>::VARIANTS;
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fate::Dead => "dead",
            Fate::Dying => "dying",
            Fate::Abandoned => "abandoned",
            Fate::Rescued => "rescued",
        })
    }
}

/// A member brought down (dying, dead, or left at the bottom of a pit) or left behind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Casualty {
    pub who: String,
    /// What brought it down (the last harm before it went down).
    pub by: Harm,
    /// Where it went down (or was left).
    pub at: GridPos,
    /// The turn it went down: none if it was left behind standing.
    pub turn: Option<f32>,
    pub fate: Fate,
}

/// Turns of a delve by what the party was doing. Each round counts once, for the first of
/// these any member was at: fighting (a battle), stuck in a squeeze, working a door, a trap,
/// searching, climbing or swimming or crossing, walking, resting; else waiting.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimeBudget {
    pub fighting: f32,
    pub stuck: f32,
    /// Picking, bashing, battering, unlocking, opening doors.
    pub doors: f32,
    /// Probing, touching and disarming traps.
    pub traps: f32,
    pub searching: f32,
    /// Climbing, swimming, jumping, traversing, rigging ropes.
    pub climbing_and_swimming: f32,
    pub walking: f32,
    pub resting: f32,
    pub waiting: f32,
}

/// The parts of the time budget, in the order the report lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, strum::VariantArray)]
pub enum Activity {
    Fighting,
    Stuck,
    Doors,
    Traps,
    Searching,
    ClimbingAndSwimming,
    Walking,
    Resting,
    Waiting,
}

impl Activity {
    pub const ALL: &'static [Activity] = <Activity as strum::VariantArray>::VARIANTS;

    pub fn words(self) -> &'static str {
        match self {
            Activity::Fighting => "fighting",
            Activity::Stuck => "stuck in a squeeze",
            Activity::Doors => "working doors",
            Activity::Traps => "working traps",
            Activity::Searching => "searching",
            Activity::ClimbingAndSwimming => "climbing and swimming",
            Activity::Walking => "walking",
            Activity::Resting => "resting",
            Activity::Waiting => "waiting",
        }
    }

    /// The activity a command of a member's sets it to, while it works at it. Every command is
    /// named: a new one must say where its time goes.
    fn of(command: &Command) -> Option<Activity> {
        match command {
            Command::OpenDoor(_)
            | Command::Unlock(_)
            | Command::PickLock(_)
            | Command::PickLockMethodically(_)
            | Command::Bash(_)
            | Command::Batter(_)
            | Command::Spike(_)
            | Command::AttackDoor(_)
            | Command::HoldShut(_) => Some(Activity::Doors),
            Command::DisarmTrap(_)
            | Command::DisarmTrapMethodically(_)
            | Command::Touch(_)
            | Command::Probe(_) => Some(Activity::Traps),
            Command::Search(_) | Command::SearchHastily(_) => Some(Activity::Searching),
            Command::Climb(_)
            | Command::ClimbDown(_)
            | Command::Belay(_)
            | Command::LowerRope(_)
            | Command::TakeUpRope(_)
            | Command::Jump(_)
            | Command::Traverse(_)
            | Command::RigTraverse(_)
            | Command::CrawlAcross(_)
            | Command::ThrowGrapplingHook(_)
            | Command::WiggleBack(_)
            | Command::PushForward(_) => Some(Activity::ClimbingAndSwimming),
            Command::Rest(_) | Command::RestParty(_) => Some(Activity::Resting),
            // What does not set a member to work: walking and fighting are told by the
            // round (the walk, the battle); the rest take no time of their own.
            Command::Move(_)
            | Command::Halt(_)
            | Command::StandUp(_)
            | Command::LightUp(_)
            | Command::Douse(_)
            | Command::DropLight(_)
            | Command::PickUpLight(_)
            | Command::Refuel(_)
            | Command::CloseDoor(_)
            | Command::RearmTrap(_)
            | Command::Noise(_)
            | Command::Sneak(_)
            | Command::Listen(_)
            | Command::MakeNoise(_)
            | Command::Hide(_)
            | Command::Dazzle(_)
            | Command::Attack(_)
            | Command::MoveCautiously(_)
            | Command::MoveAcrobatically(_)
            | Command::Disengage(_)
            | Command::ClearJam(_)
            | Command::TotalDefense(_)
            | Command::ActivateEnchantment(_)
            | Command::ForgoShield(_)
            | Command::WaitForOrders(_)
            | Command::MoveParty(_)
            | Command::MarchingOrder(_)
            | Command::Mapper(_)
            | Command::TakeFrom(_)
            | Command::Autonomy(_)
            | Command::Grab(_)
            | Command::LetGo(_)
            | Command::Carry(_)
            | Command::SetJudgeModifier(_)
            | Command::UnexpectedLights(_)
            | Command::SetHitPoints(_)
            | Command::GiveCondition(_)
            | Command::TakeCondition(_)
            | Command::PlaceCreature(_)
            | Command::SetDoor(_)
            | Command::SetTrap(_)
            | Command::SetLight(_)
            | Command::SwitchModule(_) => None,
        }
    }
}

impl TimeBudget {
    pub fn get(&self, a: Activity) -> f32 {
        match a {
            Activity::Fighting => self.fighting,
            Activity::Stuck => self.stuck,
            Activity::Doors => self.doors,
            Activity::Traps => self.traps,
            Activity::Searching => self.searching,
            Activity::ClimbingAndSwimming => self.climbing_and_swimming,
            Activity::Walking => self.walking,
            Activity::Resting => self.resting,
            Activity::Waiting => self.waiting,
        }
    }

    fn add(&mut self, a: Activity, turns: f32) {
        let slot = match a {
            Activity::Fighting => &mut self.fighting,
            Activity::Stuck => &mut self.stuck,
            Activity::Doors => &mut self.doors,
            Activity::Traps => &mut self.traps,
            Activity::Searching => &mut self.searching,
            Activity::ClimbingAndSwimming => &mut self.climbing_and_swimming,
            Activity::Walking => &mut self.walking,
            Activity::Resting => &mut self.resting,
            Activity::Waiting => &mut self.waiting,
        };
        *slot += turns;
    }
}

/// A member's going down, as it happened.
struct Downed {
    who: String,
    by: Harm,
    at: GridPos,
    turn: f32,
}

/// Watches one delve for the records above.
pub struct DelveWatch {
    party: Vec<String>,
    doors: Vec<DoorRecord>,
    secret_doors: Vec<SecretDoorRecord>,
    traps: Vec<TrapRecord>,
    /// The last harm done to each member, and where it stood.
    last_harm: std::collections::HashMap<String, Harm>,
    downed: Vec<Downed>,
    /// Each member's activity from its last command, while it works at it.
    working_at: std::collections::HashMap<String, Activity>,
    /// The door a member's last command tried, to count its task's rounds.
    trying: std::collections::HashMap<String, usize>,
    rounds: [u64; 9],
    last_round: Option<u64>,
}

impl DelveWatch {
    pub fn new(world: &World, party: Vec<String>) -> Self {
        let mut doors = Vec::new();
        let mut secret_doors = Vec::new();
        let mut traps = Vec::new();
        let mut world_doors: Vec<(GridPos, bool)> = Vec::new();
        if let Some(mut q) = world.try_query::<(&Position, &crate::rules::doors::Door)>() {
            world_doors = q.iter(world).map(|(p, d)| (p.0, d.secret)).collect();
        }
        world_doors.sort();
        for (at, secret) in world_doors {
            doors.push(DoorRecord {
                at,
                ..Default::default()
            });
            if secret {
                secret_doors.push(SecretDoorRecord {
                    at,
                    ..Default::default()
                });
            }
        }
        if let Some(mut q) = world.try_query::<(&Position, &crate::rules::traps::Trap)>() {
            let mut at: Vec<GridPos> = q.iter(world).map(|(p, _)| p.0).collect();
            at.sort();
            traps = at
                .into_iter()
                .map(|at| TrapRecord {
                    at,
                    ..Default::default()
                })
                .collect();
        }
        Self {
            party,
            doors,
            secret_doors,
            traps,
            last_harm: Default::default(),
            downed: Vec::new(),
            working_at: Default::default(),
            trying: Default::default(),
            rounds: [0; 9],
            last_round: None,
        }
    }

    fn member(&self, who: &str) -> bool {
        self.party.iter().any(|m| m == who)
    }

    fn door(&mut self, at: GridPos) -> Option<&mut DoorRecord> {
        self.doors.iter_mut().find(|d| d.at == at)
    }

    fn trap(&mut self, at: GridPos) -> Option<&mut TrapRecord> {
        self.traps.iter_mut().find(|t| t.at == at)
    }

    /// A member stands on `p` in `round`: the doors beside it, and the secret doors within a
    /// search's reach of it (Dungeon Delves › Searching: 5', 10' with a pole), are reached.
    pub fn stood(&mut self, p: GridPos, round: u64, reach_feet: u32, scale_feet: u32) {
        let turn = round as f32 / ROUNDS_PER_TURN as f32;
        for d in &mut self.doors {
            if d.reached.is_none() && (d.at.x - p.x).abs() <= 1 && (d.at.y - p.y).abs() <= 1 {
                d.reached = Some(turn);
            }
        }
        for s in &mut self.secret_doors {
            if s.reached.is_none() && crate::grid::distance_feet(p, s.at, scale_feet) <= reach_feet
            {
                s.reached = Some(turn);
            }
        }
    }

    /// One entry of the log.
    pub fn entry(&mut self, world: &World, entry: &LogEntry) {
        let turn = entry.round as f32 / ROUNDS_PER_TURN as f32;
        let square = |who: &str| {
            world
                .resource::<CreatureIndex>()
                .0
                .get(who)
                .and_then(|&e| world.get::<Position>(e))
                .map(|p| p.0)
        };
        if let Some(CommandEvent::CommandAccepted { who, command, .. }) = entry.get() {
            if !self.member(who) {
                return;
            }
            if let Some(a) = Activity::of(command) {
                self.working_at.insert(who.clone(), a);
            } else {
                self.working_at.remove(who);
            }
            self.trying.remove(who);
            if let Some((way, at)) = DoorWay::of(command)
                && let Some(k) = self.doors.iter().position(|d| d.at == at)
            {
                let d = &mut self.doors[k];
                d.try_it(way);
                d.turns += 1.0 / ROUNDS_PER_TURN as f32;
                d.reached.get_or_insert(turn);
                self.trying.insert(who.clone(), k);
            }
            if matches!(command, Command::Search(_) | Command::SearchHastily(_))
                && let Some(p) = square(who)
            {
                let reach = crate::rules::search::reach_feet(
                    world
                        .resource::<CreatureIndex>()
                        .0
                        .get(who)
                        .and_then(|&e| world.get::<crate::creature::Equipment>(e)),
                );
                let scale = world.resource::<crate::grid::DungeonGrid>().scale_feet();
                for s in &mut self.secret_doors {
                    if crate::grid::distance_feet(p, s.at, scale) <= reach {
                        s.searched += 1;
                        s.reached.get_or_insert(turn);
                    }
                }
            }
        } else if let Some(CommandEvent::CommandRefused {
            who,
            command,
            reason,
            ..
        }) = entry.get()
            && self.member(who)
            && let Some((way, at)) = DoorWay::of(command)
            && reason
                .get::<crate::rules::doors::DoorRefusal>()
                .is_some_and(|r| {
                    use crate::rules::doors::DoorRefusal;
                    matches!(
                        r,
                        DoorRefusal::Locked
                            | DoorRefusal::Stuck
                            | DoorRefusal::SpikedShut { .. }
                            | DoorRefusal::HeldShut { .. }
                    )
                })
        {
            // Tried, and the door would not give (locked, stuck, spiked, held): a try that
            // took no time.
            if let Some(d) = self.door(at) {
                d.try_it(way);
                d.reached.get_or_insert(turn);
            }
        } else if let Some(crate::rules::task::TaskEvent::TaskBegun { who, rounds, .. }) =
            entry.get()
            && let Some(&k) = self.trying.get(who)
        {
            // The round the command took is counted already.
            self.doors[k].turns += rounds.saturating_sub(1) as f32 / ROUNDS_PER_TURN as f32;
        } else if let Some(e) = entry.get::<DoorEvent>() {
            match e {
                DoorEvent::LockJammed { who, at } if self.member(who) => {
                    if let Some(d) = self.door(*at) {
                        d.jammed = true;
                    }
                }
                DoorEvent::PickFailed { who, at, .. } if self.member(who) => {
                    if let Some(d) = self.door(*at) {
                        d.picks_failed += 1;
                    }
                }
                DoorEvent::BashFailed { who, at, .. } if self.member(who) => {
                    if let Some(d) = self.door(*at) {
                        d.bashes_failed += 1;
                    }
                }
                DoorEvent::LockOpened {
                    who,
                    at,
                    by: LockOpening::Key(_),
                } if self.member(who) => {
                    if let Some(d) = self.door(*at)
                        && d.times_tried(DoorWay::Key) == 0
                    {
                        d.try_it(DoorWay::Key);
                    }
                }
                _ => {}
            }
        } else if let Some(crate::rules::search::SearchEvent::Found { who, at, .. }) = entry.get()
            && self.member(who)
        {
            if let Some(s) = self.secret_doors.iter_mut().find(|s| s.at == *at) {
                s.found.get_or_insert(turn);
            }
        } else if let Some(e) = entry.get::<TrapEvent>() {
            match e {
                TrapEvent::TrapSprung {
                    who,
                    trap,
                    at,
                    damage,
                    ..
                } => {
                    let member = self.member(who);
                    // Sprung by another creature, it is neither the party's harm nor its
                    // discharge.
                    if member && let Some(t) = self.trap(*at) {
                        t.sprung += 1;
                        t.hit_points += (*damage).max(0);
                    }
                    if member {
                        self.last_harm.insert(
                            who.clone(),
                            Harm::Trap {
                                name: trap.clone(),
                                at: *at,
                            },
                        );
                    }
                }
                TrapEvent::TrapSprungHarmlessly { at, .. }
                | TrapEvent::TrapDisabled {
                    at,
                    discharged: true,
                    ..
                } => {
                    if let Some(t) = self.trap(*at) {
                        t.discharged += 1;
                    }
                }
                _ => {}
            }
        } else if let Some(CombatEvent::Attacked {
            who,
            target,
            damage: Some(d),
            ..
        }) = entry.get()
            && d.total > 0
            && self.member(target)
            && !self.member(who)
        {
            self.last_harm
                .insert(target.clone(), Harm::Foe { name: who.clone() });
        } else if let Some(CavingEvent::Fell { who, damage, .. }) = entry.get()
            && self.member(who)
        {
            // A fall into a trap's pit is the trap's harm; any other, the fall's.
            let at = square(who).unwrap_or_default();
            if let Some(t) = self.trap(at) {
                t.hit_points += (*damage).max(0);
            } else {
                self.last_harm.insert(who.clone(), Harm::Fall { at });
            }
        } else if let Some(WaterEvent::Drowning { who, .. } | WaterEvent::Sank { who, .. }) =
            entry.get()
            && self.member(who)
        {
            self.last_harm.insert(who.clone(), Harm::Drowning);
        } else if let Some(ConditionEvent::ConditionGained {
            who,
            condition: ConditionKind::Dying | ConditionKind::Dead,
            ..
        }) = entry.get()
            && self.member(who)
            && !self.downed.iter().any(|d| d.who == *who)
        {
            let by = self.last_harm.get(who).cloned().unwrap_or(Harm::Unknown);
            let at = square(who).unwrap_or_default();
            if let Harm::Trap { at: trap_at, .. } = &by
                && let Some(t) = self.trap(*trap_at)
            {
                t.downed.push(who.clone());
            }
            self.downed.push(Downed {
                who: who.clone(),
                by,
                at,
                turn,
            });
        }
    }

    /// The round ends: it counts for what the party was doing.
    pub fn end_of_round(&mut self, world: &World) {
        let round = world.resource::<crate::time::Clock>().rounds;
        if self.last_round == Some(round) {
            return;
        }
        self.last_round = Some(round);
        let index = world.resource::<CreatureIndex>();
        let fighting = world.get_resource::<DelveMode>() == Some(&DelveMode::Encounter);
        let mut doing = if fighting {
            Activity::Fighting
        } else {
            Activity::Waiting
        };
        if !fighting {
            for who in &self.party {
                let Some(&e) = index.0.get(who) else { continue };
                let conditions = world.get::<crate::creature::Conditions>(e);
                if conditions.is_some_and(crate::rules::conditions::is_down) {
                    continue;
                }
                let a = if conditions.is_some_and(|c| c.has(ConditionKind::Stuck)) {
                    Activity::Stuck
                } else if world.get::<crate::rules::task::Task>(e).is_some() {
                    self.working_at
                        .get(who)
                        .copied()
                        .unwrap_or(Activity::Waiting)
                } else if world.get::<crate::creature::Resting>(e).is_some() {
                    Activity::Resting
                } else if world.get::<crate::rules::caving::Climbing>(e).is_some()
                    || world
                        .get::<crate::rules::caving::traverse::Traversing>(e)
                        .is_some()
                {
                    Activity::ClimbingAndSwimming
                } else if world
                    .get::<crate::rules::movement::MovedThisRound>(e)
                    .is_some_and(|m| m.feet > 0)
                {
                    let swimming = world
                        .get::<Position>(e)
                        .and_then(|p| world.resource::<crate::grid::DungeonGrid>().terrain(p.0))
                        .is_some_and(|t| {
                            matches!(
                                t,
                                crate::grid::terrain::Terrain::Water(
                                    crate::level::schema::WaterDepth::Deep
                                        | crate::level::schema::WaterDepth::Chest
                                )
                            )
                        });
                    if swimming {
                        Activity::ClimbingAndSwimming
                    } else {
                        Activity::Walking
                    }
                } else {
                    // A command of one round (a bash, a hasty search) counts the round it
                    // was given; after it the member waits.
                    self.working_at
                        .remove(who)
                        .filter(|a| *a != Activity::Resting)
                        .unwrap_or(Activity::Waiting)
                };
                doing = doing.min(a);
            }
        }
        self.rounds[doing as usize] += 1;
    }

    /// Into `features`, once the delve has ended with these members left behind (its tally's).
    pub fn finish(
        self,
        world: &World,
        left_behind: &[crate::policy::outcome::LeftBehind],
        features: &mut super::Features,
    ) {
        let index = world.resource::<CreatureIndex>();
        let state = |who: &str| {
            index
                .0
                .get(who)
                .and_then(|&e| world.get::<crate::creature::Conditions>(e))
                .map(|c| (c.has(ConditionKind::Dead), c.has(ConditionKind::Dying)))
                .unwrap_or((false, false))
        };
        let mut casualties: Vec<Casualty> = self
            .downed
            .iter()
            .map(|d| {
                let (dead, dying) = state(&d.who);
                let fate = if dead {
                    Fate::Dead
                } else if left_behind.iter().any(|l| l.who == d.who) {
                    Fate::Abandoned
                } else if dying {
                    Fate::Dying
                } else {
                    Fate::Rescued
                };
                Casualty {
                    who: d.who.clone(),
                    by: d.by.clone(),
                    at: d.at,
                    turn: Some(d.turn),
                    fate,
                }
            })
            .collect();
        // Those left behind who were never brought down: in a pit, or apart.
        for l in left_behind {
            if casualties.iter().any(|c| c.who == l.who) {
                continue;
            }
            let by = match self.last_harm.get(&l.who) {
                Some(h @ Harm::Trap { .. }) => h.clone(),
                _ => Harm::NotBroughtDown,
            };
            casualties.push(Casualty {
                who: l.who.clone(),
                by,
                at: l.at,
                turn: None,
                fate: Fate::Abandoned,
            });
        }
        let mut traps = self.traps;
        for c in &casualties {
            if c.turn.is_none()
                && let Harm::Trap { at, .. } = &c.by
                && let Some(t) = traps.iter_mut().find(|t| t.at == *at)
                && !t.downed.contains(&c.who)
            {
                t.downed.push(c.who.clone());
            }
        }
        let mut time = TimeBudget::default();
        for &a in Activity::ALL {
            time.add(a, self.rounds[a as usize] as f32 / ROUNDS_PER_TURN as f32);
        }
        features.doors = self.doors;
        features.secret_doors = self.secret_doors;
        features.traps = traps;
        features.casualties = casualties;
        features.time = time;
    }
}
