//! What a delve did with each feature of the level and to each member of the party, read round
//! by round from the typed events of its log and the state of the party: each door's funnel
//! (reached, tried each way, opened or failed, the turns spent on it), each secret door's
//! (reached, searched, found), each trap's harm (hit points, members downed) apart from its
//! harmless discharges (the pole's, a disarm's), each member's casualty (downed, by what and
//! where; dead, dying, abandoned or rescued at the end), and the delve's time budget.

use delve_ground::grid::terrain::Terrain;
use delve_ground::grid::{DungeonGrid, WaterDepth};
use delve_ground::time::Clock;
use delve_minds::policy::outcome::LeftBehind;
use delve_rules::creature::{Conditions, Equipment, Resting};
use delve_rules::rules::caving::Climbing;
use delve_rules::rules::caving::traverse::Traversing;
use delve_rules::rules::doors::Door;
use delve_rules::rules::movement::MovedThisRound;
use delve_rules::rules::search::SearchEvent;
use delve_rules::rules::task::{Task, TaskEvent};
use delve_rules::rules::traps::Trap;

use bevy::prelude::*;

use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::LogEntry;
use delve_ground::time::{DelveMode, ROUNDS_PER_TURN};
use delve_rules::act::Activity;
use delve_rules::command::{Command, CommandEvent};
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::caving::CavingEvent;
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::conditions::ConditionEvent;
use delve_rules::rules::doors::{DoorEvent, LockOpening};
use delve_rules::rules::traps::TrapEvent;
use delve_rules::rules::water::WaterEvent;

mod records;
pub use records::{
    Casualty, DoorRecord, DoorWay, Fate, Harm, SecretDoorRecord, TimeBudget, TrapRecord,
};

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
        if let Some(mut q) = world.try_query::<(&Position, &Door)>() {
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
        if let Some(mut q) = world.try_query::<(&Position, &Trap)>() {
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
            if s.reached.is_none()
                && delve_ground::grid::distance_feet(p, s.at, scale_feet) <= reach_feet
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
            if let Some(a) = command.act().activity() {
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
                let reach = delve_rules::rules::search::reach_feet(
                    world
                        .resource::<CreatureIndex>()
                        .0
                        .get(who)
                        .and_then(|&e| world.get::<Equipment>(e)),
                );
                let scale = world.resource::<DungeonGrid>().scale_feet();
                for s in &mut self.secret_doors {
                    if delve_ground::grid::distance_feet(p, s.at, scale) <= reach {
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
                .get::<delve_rules::rules::doors::DoorRefusal>()
                .is_some_and(|r| {
                    use delve_rules::rules::doors::DoorRefusal;
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
        } else if let Some(TaskEvent::TaskBegun { who, rounds, .. }) = entry.get()
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
        } else if let Some(SearchEvent::Found { who, at, .. }) = entry.get()
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
        let round = world.resource::<Clock>().rounds;
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
                let conditions = world.get::<Conditions>(e);
                if conditions.is_some_and(delve_rules::rules::conditions::is_down) {
                    continue;
                }
                let a = if conditions.is_some_and(|c| c.has(ConditionKind::Stuck)) {
                    Activity::Stuck
                } else if world.get::<Task>(e).is_some() {
                    self.working_at
                        .get(who)
                        .copied()
                        .unwrap_or(Activity::Waiting)
                } else if world.get::<Resting>(e).is_some() {
                    Activity::Resting
                } else if world.get::<Climbing>(e).is_some() || world.get::<Traversing>(e).is_some()
                {
                    Activity::ClimbingAndSwimming
                } else if world.get::<MovedThisRound>(e).is_some_and(|m| m.feet > 0) {
                    let swimming = world
                        .get::<Position>(e)
                        .and_then(|p| world.resource::<DungeonGrid>().terrain(p.0))
                        .is_some_and(|t| {
                            matches!(t, Terrain::Water(WaterDepth::Deep | WaterDepth::Chest))
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
    pub fn finish(self, world: &World, left_behind: &[LeftBehind], features: &mut super::Features) {
        let index = world.resource::<CreatureIndex>();
        let state = |who: &str| {
            index
                .0
                .get(who)
                .and_then(|&e| world.get::<Conditions>(e))
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
