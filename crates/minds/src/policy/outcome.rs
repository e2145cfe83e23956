//! The end of an autonomous delve: how it ended, and the numbers a designer wants, counted from
//! the typed events of the log and the state of the party.

use delve_ground::grid::DungeonGrid;
use delve_ground::grid::terrain::Terrain;
use delve_ground::level::schema::Gear;
use delve_ground::time::Clock;
use delve_rules::command::{Command, CommandEvent};
use delve_rules::creature::{CreatureIndex, Equipment, Faction, Factions};
use delve_rules::rules::party::Parties;
use delve_rules::rules::vision::FactionMemory;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::time::{DelveMode, ROUNDS_PER_TURN};
use delve_rules::creature::{HitPoints, Position};
use delve_rules::rules::conditions::ConditionEvent;
use delve_rules::rules::doors::{DoorEvent, DoorOpening, LockOpening};
use delve_rules::rules::traps::TrapEvent;

/// How a delve ended.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
pub enum Outcome {
    /// The goal was met and the party left (by the way in, or the exit it was to find), every
    /// living member with it.
    GoalReached,
    /// The goal was met and the party left, but left living members behind: dying, at the
    /// bottom of a pit, or apart from it (`Tally::left_behind` names them).
    GoalReachedMembersLeft,
    /// Every member is down: dying or dead.
    PartyDead,
    /// The party fled for the way in, too many of it down, and got out.
    PartyFled,
    /// The light ran short: the party turned back and got out, or its last light burnt out.
    OutOfLight,
    /// The policy's limit in turns came first.
    OutOfTime,
    /// Everything the party could reach is explored, the goal not met: it left.
    GaveUp,
}

impl Outcome {
    /// Every Outcome, in the order declared.
    pub const ALL: &'static [Outcome] = <Outcome as strum::VariantArray>::VARIANTS;

    /// Was the goal met (with every member brought out or not)?
    pub fn goal_met(self) -> bool {
        matches!(self, Outcome::GoalReached | Outcome::GoalReachedMembersLeft)
    }

    /// The outcome once it is known whom the party left behind: a goal reached with living
    /// members left is not the same as one reached with everyone out.
    pub fn leaving(self, left_behind: &[LeftBehind]) -> Outcome {
        match self {
            Outcome::GoalReached if !left_behind.is_empty() => Outcome::GoalReachedMembersLeft,
            other => other,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::GoalReached => "the goal was reached and the party left",
            Outcome::GoalReachedMembersLeft => {
                "the goal was reached and the party left, members left behind"
            }
            Outcome::PartyDead => "the party is dead",
            Outcome::PartyFled => "the party fled",
            Outcome::OutOfLight => "the party ran out of light",
            Outcome::OutOfTime => "the party ran out of time",
            Outcome::GaveUp => "the party gave up, the goal not found",
        })
    }
}

/// Why a delve that did not reach its goal ended as it did (the lab's first table): the
/// feature that stopped the party, or the state of a member. It reads the Judge's map, so it
/// judges the delve and never guides the policy.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The first shut door on the way to the goal is a secret door the party never found.
    SecretDoorNotFound { at: GridPos },
    /// The first shut door on the way to the goal, and how the party tried it (`listened`,
    /// `by_hand`, `key`, `pick_failed`, `methodical_pick` ×n failed, `bash` ×n, `jammed`, or
    /// nothing: never reached).
    DoorLeftShut { at: GridPos, tried: Vec<String> },
    /// The way to the goal goes down, across or through caving terrain (a chasm, a ledge, deep
    /// water, a squeeze, an open pit) the party did not pass.
    CavingNotTaken { at: GridPos, what: String },
    /// A member carrying a light with fuel, or oil, lies at the bottom of a pit.
    LightBearerInAPit { who: String, at: GridPos },
    /// The party's lights burnt out with flasks of oil left and no lantern to fill.
    OilButNoLantern { flasks: u32 },
    /// Its lights and oil were spent.
    LightSpent,
    /// It turned back with this many turns of light left, short of the walk home and its
    /// margin, and came home with them.
    TurnedBackShortOfLight { turns_left: u32 },
    /// A member is stuck in a squeeze.
    StuckInASqueeze { who: String, at: GridPos },
    /// The turn limit came with nothing holding the party: it was still at work.
    TurnLimit,
    /// It fled from these foes with these members down.
    FledFrom {
        foes: Vec<String>,
        down: Vec<String>,
    },
    /// Every member down, the last blows from these foes (none: traps, falls, drowning).
    Overwhelmed { by: Vec<String> },
    /// It explored all it could reach and the goal was not there.
    NothingLeftToTry,
    /// It met its goal and left, leaving a living member behind (the first it left, and how).
    LeftBehind {
        who: String,
        at: GridPos,
        how: Stayed,
    },
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::SecretDoorNotFound { at } => write!(f, "the secret door at {at} never found"),
            Cause::DoorLeftShut { at, tried } if tried.is_empty() => {
                write!(f, "the door at {at} left shut, never tried")
            }
            Cause::DoorLeftShut { at, tried } => {
                write!(
                    f,
                    "the door at {at} left shut (tried: {})",
                    tried.join(", ")
                )
            }
            Cause::CavingNotTaken { at, what } => write!(f, "the {what} at {at} not crossed"),
            Cause::LightBearerInAPit { who, at } => {
                write!(f, "{who}, carrying light, at the bottom of the pit at {at}")
            }
            Cause::OilButNoLantern { flasks } => {
                write!(f, "{flasks} flask(s) of oil left and no lantern")
            }
            Cause::LightSpent => write!(f, "its lights and oil spent"),
            Cause::TurnedBackShortOfLight { turns_left } => write!(
                f,
                "turned back short of light, and came home with {turns_left} turn(s) of it left"
            ),
            Cause::StuckInASqueeze { who, at } => write!(f, "{who} stuck in the squeeze at {at}"),
            Cause::TurnLimit => write!(f, "the turn limit"),
            Cause::FledFrom { foes, down } => write!(
                f,
                "fled from {} with {} down",
                list_or(foes, "foes unseen"),
                list_or(down, "no one")
            ),
            Cause::Overwhelmed { by } => {
                write!(
                    f,
                    "every member down (last blows: {})",
                    list_or(by, "no foe")
                )
            }
            Cause::NothingLeftToTry => write!(f, "nothing left to try"),
            Cause::LeftBehind { who, at, how } => write!(f, "{who} left behind ({how}) at {at}"),
        }
    }
}

impl Cause {
    /// The square of the feature or member it names, if it names one.
    pub fn square(&self) -> Option<GridPos> {
        match self {
            Cause::SecretDoorNotFound { at }
            | Cause::DoorLeftShut { at, .. }
            | Cause::CavingNotTaken { at, .. }
            | Cause::LightBearerInAPit { at, .. }
            | Cause::StuckInASqueeze { at, .. }
            | Cause::LeftBehind { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// The cause as the lab's first table groups it: the feature and its square, or the
    /// member's state — without how a door was tried, or which foes a party fled.
    pub fn headline(&self) -> String {
        match self {
            Cause::DoorLeftShut { at, tried } if tried.iter().any(|t| t == "jammed") => {
                format!("the door at {at} left shut, its lock jammed")
            }
            Cause::DoorLeftShut { at, tried } if tried.is_empty() => {
                format!("the door at {at} left shut, never tried")
            }
            Cause::DoorLeftShut { at, .. } => format!("the door at {at} left shut, tried"),
            Cause::FledFrom { .. } => "fled, too many down".to_owned(),
            Cause::LeftBehind { how, .. } => format!("the goal reached, a member left {how}"),
            Cause::Overwhelmed { .. } => "every member down".to_owned(),
            other => other.to_string(),
        }
    }
}

fn list_or(names: &[String], none: &str) -> String {
    if names.is_empty() {
        none.to_owned()
    } else {
        names.join(", ")
    }
}

/// A member who died, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Death {
    pub who: String,
    pub at: GridPos,
}

/// A living member the party left behind on the level as it left, where, and how it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftBehind {
    pub who: String,
    pub at: GridPos,
    pub how: Stayed,
    /// The rest of the party could have brought it out: one of them could bear it, or two
    /// sharing its weight (`rules::carrying`, RULINGS › Carrying and hauling), and reach it; or
    /// lower a rope into its pit, which one up climbs and one down is hauled up by those on the
    /// rim, each bearing a share (`rules::caving::hauling`); or it could walk to them.
    pub could_be_brought: bool,
}

/// How a member left behind was: down (dying), at the bottom of a pit, or up but elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stayed {
    Dying,
    InAPit,
    Apart,
}

impl fmt::Display for Stayed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stayed::Dying => "dying",
            Stayed::InAPit => "in a pit",
            Stayed::Apart => "apart from the party",
        })
    }
}

/// The numbers of a delve.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tally {
    /// Rounds played, and the same in turns.
    pub rounds: u64,
    pub turns: f32,
    /// Turns of fuel the party's lights burnt (a flask of oil poured counts as it was burnt).
    pub light_turns_used: f32,
    /// Hit points the party lost.
    pub wounds: i32,
    /// Traps that went off.
    pub traps_sprung: u32,
    /// Traps disarmed.
    pub traps_disarmed: u32,
    /// Doors bashed, battered or broken open, and locks picked.
    pub doors_forced: u32,
    /// Battles begun.
    pub encounters: u32,
    /// Members who died, and where.
    pub deaths: Vec<Death>,
    /// Members alive (dying ones too) that the party did not bring out when it left the level.
    pub left_behind: Vec<LeftBehind>,
    /// Why it ended, when not at its goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The battles in which the party was surprised (RULINGS › Surprise), each by the factions
    /// it met there.
    pub surprised_by: Vec<String>,
    /// The most times in a row the same command of the party's was refused: a policy that
    /// gives a refused command again and again is stuck (more than 2 is a blunder).
    pub repeated_refusals: u32,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.1} turns, {:.1} turns of light, {} hit points of wounds, {} traps sprung, {} disarmed, {} doors forced, {} encounters",
            self.turns,
            self.light_turns_used,
            self.wounds,
            self.traps_sprung,
            self.traps_disarmed,
            self.doors_forced,
            self.encounters
        )?;
        for d in &self.deaths {
            write!(f, "; {} died at {}", d.who, d.at)?;
        }
        // (A member left behind is told below, with the others left.)
        if let Some(c) = &self.cause
            && !matches!(c, Cause::LeftBehind { .. })
        {
            write!(f, "; why: {c}")?;
        }
        for l in &self.left_behind {
            write!(f, "; {} left behind at {} ({})", l.who, l.at, l.how)?;
            if l.could_be_brought {
                write!(f, " though it could be brought out")?;
            }
        }
        Ok(())
    }
}

impl Tally {
    /// Every member down: those still dying die, for no one is left to bind their wounds
    /// (Dungeon Delves › Dying): they are counted among the deaths, where they lie.
    pub fn count_the_dying(&mut self, world: &World, members: &[Entity]) {
        for &m in members {
            let who = delve_rules::creature::name_of(world, m);
            let dying = world
                .get::<delve_rules::creature::Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Dying) && !c.has(ConditionKind::Dead));
            if dying && !self.deaths.iter().any(|d| d.who == who) {
                let at = world.get::<Position>(m).map_or(GridPos::default(), |p| p.0);
                self.deaths.push(Death { who, at });
            }
        }
    }
}

/// The verdict on an `ExploreAll` delve: has the faction seen every square one can walk to from
/// the way in, through every door, secret ones too? It reads the Judge's map, so it judges the
/// delve and never guides the policy.
pub(crate) fn explored_all(world: &World, faction: Faction, way_in: GridPos) -> bool {
    let grid = world.resource::<DungeonGrid>();
    let memory = world.resource::<FactionMemory>();
    let Some(seen) = memory.seen.get(faction.0) else {
        return false;
    };
    let walkable = |p: GridPos| grid.is_passable(p) || grid.terrain(p) == Some(Terrain::Door);
    let mut reached = vec![false; seen.len()];
    let mut todo = vec![way_in];
    while let Some(p) = todo.pop() {
        let Some(i) = grid.index(p) else { continue };
        if reached[i] || !walkable(p) {
            continue;
        }
        if !seen[i] {
            return false;
        }
        reached[i] = true;
        todo.extend(p.neighbours());
    }
    true
}

/// The fuel a party holds, in rounds: its carried lights' and its flasks of oil (a lantern's
/// flask burns 24 turns). A light that burns without fuel counts as none.
pub fn fuel_rounds(world: &mut World, members: &[Entity]) -> u64 {
    use delve_rules::rules::light::{CarriedBy, LightSource};
    let lights: u64 =
        delve_ground::query_cache::read_query(world, |q: Query<(&LightSource, &CarriedBy)>| {
            q.iter()
                .filter(|(_, c)| members.contains(&c.0))
                .map(|(l, _)| l.fuel_rounds.unwrap_or(0))
                .sum()
        })
        .unwrap_or(0);
    let flasks: u64 = members
        .iter()
        .filter_map(|&m| world.get::<Equipment>(m))
        .flat_map(|g| g.0.iter())
        .map(|g| match g {
            Gear::Oil(n) => *n as u64,
            _ => 0,
        })
        .sum();
    lights + flasks * delve_rules::rules::light::LANTERN_TURNS_PER_FLASK as u64 * ROUNDS_PER_TURN
}

/// Counts a delve's numbers: events from the log since `from` (the entry where the party was
/// handed to its policy), the party's hit points now, and the fuel it started with.
pub fn tally(world: &mut World, members: &[Entity], from: usize, fuel_at_start: u64) -> Tally {
    let rounds = world.resource::<Clock>().rounds;
    let fuel_now = fuel_rounds(world, members);
    let names: Vec<String> = members
        .iter()
        .map(|&m| delve_rules::creature::name_of(world, m))
        .collect();
    let wounds = members
        .iter()
        .filter_map(|&m| world.get::<HitPoints>(m))
        .map(|hp| hp.max - hp.current.max(0))
        .sum();
    let log = world.resource::<EventLog>();
    let mut t = Tally {
        rounds,
        turns: rounds as f32 / ROUNDS_PER_TURN as f32,
        light_turns_used: fuel_at_start.saturating_sub(fuel_now) as f32 / ROUNDS_PER_TURN as f32,
        wounds,
        ..Tally::default()
    };
    let mut died = Vec::new();
    let party = members
        .first()
        .and_then(|&m| world.get::<Faction>(m))
        .map(|&f| world.resource::<Factions>().name(f).to_owned());
    // The factions entering each battle, and whether the party was surprised in it.
    let mut met: Vec<String> = Vec::new();
    let mut surprised = false;
    let mut round = None;
    let close = |t: &mut Tally, met: &mut Vec<String>, surprised: &mut bool| {
        if *surprised {
            met.sort();
            t.surprised_by.push(met.join(", "));
        }
        met.clear();
        *surprised = false;
    };
    // The party's own name: orders to the whole party (a march, a rest) are refused to it.
    let party_name = world
        .resource::<Parties>()
        .0
        .iter()
        .find(|p| {
            members
                .first()
                .is_some_and(|m| p.marching_order.contains(m))
        })
        .map(|p| p.name.clone());
    let mut last_refused: Option<Command> = None;
    let mut run = 0;
    for entry in &log.entries()[from.min(log.len())..] {
        if round != Some(entry.round) {
            close(&mut t, &mut met, &mut surprised);
            round = Some(entry.round);
        }
        if let Some(e) = entry.get::<delve_rules::rules::combat::CombatEvent>() {
            use delve_rules::rules::combat::CombatEvent;
            match e {
                CombatEvent::Initiative { roll } if Some(&roll.name) != party.as_ref() => {
                    met.push(roll.name.clone())
                }
                CombatEvent::Surprise {
                    faction,
                    surprised: true,
                    ..
                } if Some(faction) == party.as_ref() => surprised = true,
                CombatEvent::SurpriseCancelled { .. } => surprised = false,
                _ => {}
            }
        }
        if let Some(CommandEvent::CommandRefused { who, command, .. }) = entry.get::<CommandEvent>()
            && (names.contains(who) || Some(who) == party_name.as_ref())
        {
            run = match &last_refused {
                Some(c) if c == command => run + 1,
                _ => 1,
            };
            last_refused = Some(command.clone());
            t.repeated_refusals = t.repeated_refusals.max(run);
        }
        if let Some(e) = entry.get::<TrapEvent>() {
            match e {
                TrapEvent::TrapSprung { .. } | TrapEvent::TrapSprungHarmlessly { .. } => {
                    t.traps_sprung += 1
                }
                TrapEvent::TrapDisabled { .. } => t.traps_disarmed += 1,
                _ => {}
            }
        } else if let Some(e) = entry.get::<DoorEvent>() {
            match e {
                DoorEvent::DoorOpened {
                    how: DoorOpening::Bashed | DoorOpening::BatteredDown | DoorOpening::Broken,
                    ..
                }
                | DoorEvent::LockOpened {
                    by: LockOpening::Picked,
                    ..
                } => t.doors_forced += 1,
                _ => {}
            }
        } else if let Some(delve_rules::rules::combat::CombatEvent::ModeChanged {
            mode: DelveMode::Encounter,
        }) = entry.get()
        {
            t.encounters += 1;
        } else if let Some(ConditionEvent::ConditionGained {
            who,
            condition: ConditionKind::Dead,
            ..
        }) = entry.get()
            && names.contains(who)
        {
            died.push(who.clone());
        }
    }
    close(&mut t, &mut met, &mut surprised);
    for who in died {
        let at = world
            .resource::<CreatureIndex>()
            .0
            .get(&who)
            .and_then(|&e| world.get::<Position>(e))
            .map_or(GridPos::default(), |p| p.0);
        t.deaths.push(Death { who, at });
    }
    t
}
