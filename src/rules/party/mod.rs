//! The party moves as a party (Dungeon Delves › Marching and Mapping): a marching order, single
//! file in corridors 5' wide or less, two columns where they are 6' or wider, the party following
//! its leader along the path and keeping formation, at the pace of its slowest member, and a
//! designated mapper (both hands busy, vulnerable from distraction, mapping only in bright light).

pub mod commands;
pub mod events;
pub use commands::*;
pub use events::PartyEvent;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Refusal, Unable};
use crate::creature::{
    ActingOrder, ClassLevel, CreatureIndex, Encumbrance, Faction, Position, Proficiencies,
    SavingThrows,
};
use crate::dice::Dice;
use crate::grid::path::find_path_with;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::schema::{ConditionKind, Proficiency, SaveCategory};
use crate::log::{EventLog, log_in};
use crate::rules::conditions::{ConditionEnd, Conditions, gain_condition, lose_condition};
use crate::rules::movement::squeezes::{SqueezedOn, Squeezes, SqueezingMover};
use crate::rules::movement::{
    MovedThisRound, Pace, Speeds, Walking, after_running, falls_running_into_difficult_terrain,
    record_move, take_steps,
};
use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::Thrower;
use crate::schedule::{RoundSet, SimRound};
use crate::time::Clock;

/// Marks a creature that belongs to a party (an adventurer).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartyMember;

/// How the party walks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    /// One behind another: corridors 5' wide or less.
    #[default]
    SingleFile,
    /// Side by side in pairs: passages 6' wide or wider.
    TwoColumns,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formation::SingleFile => "single file",
            Formation::TwoColumns => "two columns",
        })
    }
}

/// A party: its members in marching order, its mapper, and its march if it is moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    pub name: String,
    pub marching_order: Vec<Entity>,
    pub mapper: Option<Entity>,
    pub formation: Formation,
    /// The squares the leader has stood on during the march, oldest first.
    pub trail: Vec<GridPos>,
    /// The pace of the march, while the leader walks.
    pub pace: Option<Pace>,
}

impl Party {
    pub fn leader(&self) -> Option<Entity> {
        self.marching_order.first().copied()
    }
}

/// Every party of the level, by name.
#[derive(Resource, Clone, Debug, Default)]
pub struct Parties(pub Vec<Party>);

impl Parties {
    pub fn get(&self, name: &str) -> Option<&Party> {
        self.0.iter().find(|p| p.name == name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Party> {
        self.0.iter_mut().find(|p| p.name == name)
    }

    /// The party a creature belongs to.
    pub fn of(&self, e: Entity) -> Option<&Party> {
        self.0.iter().find(|p| p.marching_order.contains(&e))
    }
}

/// A follower's walk toward its place in the formation.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Following {
    pub banked_tenths: u32,
}

pub struct PartyPlugin;

impl Plugin for PartyPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::party::Following>()
            .keeps::<crate::rules::party::Parties>()
            .keeps_component::<crate::rules::party::PartyMember>();
        use crate::rules::areas::RuleArea;
        app.installs_after_creatures(install_parties);
        app.init_resource::<Parties>()
            .init_resource::<ActingOrder>()
            .add_systems(SimRound, keep_formation.in_set(RoundSet::Formation))
            .add_systems(
                SimRound,
                winded_parties_stop_running.in_set(RoundSet::PartyPace),
            )
            .add_systems(
                crate::schedule::FactionTurn,
                keep_formation.in_set(crate::schedule::TurnSet::Formation),
            );
    }
}

/// Width in feet of the passage at `at`, across the direction of travel `dir`: the square itself
/// and the passable squares on either side of it, up to two each way.
fn passage_width_feet(grid: &DungeonGrid, at: GridPos, dir: (i32, i32)) -> u32 {
    let across = (-dir.1, dir.0);
    let mut squares = 1;
    for sign in [1, -1] {
        for k in 1..=2 {
            let p = GridPos::new(at.x + sign * k * across.0, at.y + sign * k * across.1);
            if !grid.is_passable(p) {
                break;
            }
            squares += 1;
        }
    }
    squares * grid.scale_feet()
}

/// Single file where the passage is 5' or less, two columns where it is 6' or more.
fn formation_for(width_feet: u32) -> Formation {
    if width_feet >= 6 {
        Formation::TwoColumns
    } else {
        Formation::SingleFile
    }
}

/// The slowest member's speeds set the party's pace.
pub fn party_tenths_per_round(
    members: &[Entity],
    pace: Pace,
    speeds: impl Fn(Entity) -> Option<Speeds>,
) -> Option<u32> {
    members
        .iter()
        .map(|&e| speeds(e).map(|s| s.tenths_per_round(pace)))
        .collect::<Option<Vec<u32>>>()?
        .into_iter()
        .min()
}

/// Where each follower (marching order from the second member on) should stand.
fn formation_slots(
    grid: &DungeonGrid,
    trail: &[GridPos],
    followers: usize,
    formation: Formation,
) -> Vec<Option<GridPos>> {
    let back = |k: usize| trail.len().checked_sub(1 + k).map(|i| trail[i]);
    (1..=followers)
        .map(|k| match formation {
            Formation::SingleFile => back(k),
            Formation::TwoColumns => {
                let rank = k / 2;
                let base = back(rank)?;
                if k % 2 == 0 {
                    return Some(base);
                }
                // Beside the rank's square, across the direction of travel.
                let ahead = if rank == 0 { base } else { back(rank - 1)? };
                let from = back(rank + 1).unwrap_or(base);
                let dir = ((ahead.x - from.x).signum(), (ahead.y - from.y).signum());
                let dir = if dir == (0, 0) { (1, 0) } else { dir };
                let across = (-dir.1, dir.0);
                [1, -1]
                    .into_iter()
                    .map(|s| GridPos::new(base.x + s * across.0, base.y + s * across.1))
                    .find(|&p| grid.is_passable(p) && !trail.contains(&p))
                    .or_else(|| back(k))
            }
        })
        .collect()
}

type Member<'a> = (
    &'a mut crate::rules::movement::Footsteps,
    &'a Name,
    &'a mut Position,
    &'a Encumbrance,
    &'a mut Conditions,
    &'a mut MovedThisRound,
    &'a mut Following,
    (
        &'a SavingThrows,
        &'a Proficiencies,
        &'a ClassLevel,
        Has<crate::creature::Below>,
        Option<&'a crate::creature::SwimmingSpeed>,
    ),
);

/// A party's leader, as its followers see it.
type Leader<'a> = (&'a Position, Option<&'a Walking>, Option<&'a Faction>);

/// After the leader has walked, the followers take their places behind it.
#[allow(clippy::too_many_arguments)]
fn keep_formation(
    grid: Res<DungeonGrid>,
    clock: Res<Clock>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut parties: ResMut<Parties>,
    leaders: Query<Leader, Without<Following>>,
    mut members: Query<Member>,
    acting: Res<ActingOrder>,
    tactical: Option<Res<TacticalCombat>>,
    penalties_on: Option<Res<crate::rules::modules::SituationalPenaltiesOn>>,
    hazards: Option<Res<crate::rules::movement::hazards::KnownHazards>>,
    squeezing: Option<Res<Squeezes>>,
    mut commands: Commands,
) {
    let round = clock.rounds;
    let squeeze_on = Squeezes::on(squeezing.as_deref());
    let no_hazards = crate::rules::movement::hazards::KnownHazards::default();
    let hazards = hazards.as_deref().unwrap_or(&no_hazards);
    for party in &mut parties.0 {
        let (Some(pace), Some(leader)) = (party.pace, party.leader()) else {
            continue;
        };
        let Ok((at, walking, faction)) = leaders.get(leader) else {
            continue;
        };
        // In a battle the followers close up in their faction's turn, after the leader.
        if !acting.acts_now(faction.copied()) {
            continue;
        }
        // The leader's steps this round extend the trail.
        if party.trail.last() != Some(&at.0) {
            if let Some(walk) = walking {
                let done = &walk.path[..walk.next.min(walk.path.len())];
                let start = done
                    .iter()
                    .rposition(|p| Some(p) == party.trail.last())
                    .map_or(0, |i| i + 1);
                party.trail.extend_from_slice(&done[start..]);
            }
            if party.trail.last() != Some(&at.0) {
                party.trail.push(at.0);
            }
        }
        let n = party.trail.len();
        let dir = if n >= 2 {
            let (a, b) = (party.trail[n - 2], party.trail[n - 1]);
            ((b.x - a.x).signum(), (b.y - a.y).signum())
        } else {
            (1, 0)
        };
        let formation = formation_for(passage_width_feet(&grid, at.0, dir));
        if formation != party.formation {
            party.formation = formation;
            log.push(
                round,
                PartyEvent::FormationChanged {
                    party: party.name.clone(),
                    formation,
                },
            );
        }
        let speeds = |e: Entity| members.get(e).ok().and_then(|m| Speeds::of(m.3.0, m.4));
        let Some(budget) = party_tenths_per_round(&party.marching_order[1..], pace, speeds) else {
            // No one follows (a party of one): the march ends when its leader stops.
            if walking.is_none() && party.marching_order.len() == 1 {
                party.pace = None;
                party.trail = vec![at.0];
            }
            continue;
        };
        let slots = formation_slots(
            &grid,
            &party.trail,
            party.marching_order.len() - 1,
            formation,
        );
        let mut taken: Vec<GridPos> = vec![at.0];
        for (&e, slot) in party.marching_order[1..].iter().zip(slots) {
            let Ok((
                mut footsteps,
                name,
                mut pos,
                enc,
                mut conditions,
                mut moved,
                mut follow,
                rolls,
            )) = members.get_mut(e)
            else {
                continue;
            };
            // One that fell stays down until it stands up.
            // Nor does one at the bottom of a pit, stuck in a squeeze or drowning.
            let held = rolls.3
                || conditions.has(ConditionKind::Stuck)
                || conditions.has(ConditionKind::Drowning);
            let Some(slot) = slot
                .filter(|s| !taken.contains(s))
                .filter(|_| !conditions.has(ConditionKind::Prone) && !held)
            else {
                taken.push(pos.0);
                continue;
            };
            follow.banked_tenths += budget;
            if slot == pos.0 {
                follow.banked_tenths = 0;
                taken.push(pos.0);
                continue;
            }
            // RULINGS › Pits and holes: never into a hole the party knows of.
            let Some(path) = find_path_with(&grid, pos.0, slot, |p| {
                grid.is_passable(p) && !hazards.hole(faction.copied(), p)
            }) else {
                taken.push(pos.0);
                continue;
            };
            let mut odd = false;
            let mut steps = take_steps(
                &grid,
                &path.squares,
                1,
                &mut follow.banked_tenths,
                &mut odd,
                crate::rules::movement::WaterCost::of(enc.0, rolls.4),
            )
            .steps;
            // Dungeon Delves › Squeezing: followers squeeze through as walkers do.
            let squares: Vec<GridPos> = steps.iter().map(|s| s.0).collect();
            let squeezed = squeeze_on(
                &grid,
                (&mut dice, &mut log, round),
                (tactical.as_deref(), penalties_on.is_some()),
                SqueezingMover {
                    mouth_taken: false,
                    name,
                    at: pos.0,
                    conditions: &mut conditions,
                    profs: rolls.1,
                    encumbrance: enc,
                    path: &path.squares,
                    next: 1,
                    steps: &squares,
                },
            );
            if let SqueezedOn::UpToTheSqueeze(n) = squeezed {
                steps.truncate(n);
            } else if squeezed != SqueezedOn::Moves {
                if let SqueezedOn::Stuck(stuck_in) = squeezed {
                    commands.entity(e).insert(stuck_in);
                }
                follow.banked_tenths = 0;
                taken.push(pos.0);
                continue;
            }
            // Followers run by the running rules as their leader does (Dungeon Delves ›
            // Running): difficult terrain calls for the save, and a runner is disordered.
            let fell = pace == Pace::Running
                && falls_running_into_difficult_terrain(
                    &grid,
                    (&mut dice, &mut log, round),
                    Thrower::new(name, &conditions, tactical.as_deref()),
                    (rolls.0, rolls.1, rolls.2),
                    &mut steps,
                );
            let from = pos.0;
            let feet: u32 = steps.iter().map(|s| s.1).sum();
            for &(next, ..) in &steps {
                footsteps.step(pos.0, next);
                pos.0 = next;
            }
            if pos.0 == slot || fell {
                follow.banked_tenths = 0;
            }
            record_move(&mut log, round, name, &mut moved, pace, from, pos.0, feet);
            after_running(&mut log, round, name, &mut conditions, (pace, feet, fell));
            taken.push(pos.0);
        }
        if walking.is_none() {
            // The leader has arrived or stopped: the march ends once everyone has closed up.
            party.pace = None;
            party.trail = vec![at.0];
        }
    }
}

/// Dungeon Delves › Running: a winded creature cannot run, so a running party with a winded
/// member stops where its leader stands; it may go on at combat speed.
fn winded_parties_stop_running(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut parties: ResMut<Parties>,
    members: Query<(&Name, &Conditions, &Position)>,
    mut commands: Commands,
) {
    for party in &mut parties.0 {
        if party.pace != Some(Pace::Running) {
            continue;
        }
        let Some(winded) = party
            .marching_order
            .iter()
            .filter_map(|&m| members.get(m).ok())
            .find(|(_, c, _)| c.has(ConditionKind::Winded))
        else {
            continue;
        };
        if let Some(leader) = party.leader() {
            commands.entity(leader).remove::<Walking>();
            if let Ok((_, _, at)) = members.get(leader) {
                party.trail = vec![at.0];
            }
        }
        party.pace = None;
        log.push(
            clock.rounds,
            PartyEvent::StoppedRunning {
                party: party.name.clone(),
                winded: winded.0.to_string(),
            },
        );
    }
}

/// `MoveParty`: the leader walks the path at the slowest member's pace; the others follow.
pub(crate) fn order_party_move(
    world: &mut World,
    party_name: &str,
    to: GridPos,
    pace: Pace,
) -> Result<(), Refusal> {
    let party = world
        .resource::<Parties>()
        .get(party_name)
        .cloned()
        .ok_or_else(|| no_party(party_name))?;
    let leader = party.leader().ok_or(PartyRefusal::NoMembers)?;
    let mut speeds = Vec::new();
    for &m in &party.marching_order {
        let gone = || Unable::Gone {
            what: "a member".into(),
        };
        let enc = world.get::<Encumbrance>(m).ok_or_else(gone)?;
        let cond = world.get::<Conditions>(m).ok_or_else(gone)?;
        speeds.push(Speeds::of(enc.0, cond));
        // Every member runs by the running rules: a winded one cannot run, nor one without the
        // Paralysis save running calls for.
        if pace == Pace::Running {
            let saves = world.get::<crate::creature::SavingThrows>(m);
            let why = if cond.has(ConditionKind::Winded) {
                Some(crate::rules::movement::MoveRefusal::WindedCannotRun)
            } else if !saves.is_some_and(|s| s.0.contains_key(&SaveCategory::Paralysis)) {
                Some(crate::rules::movement::MoveRefusal::NoParalysisSave)
            } else {
                None
            };
            if let Some(why) = why {
                let name = crate::creature::name_of(world, m);
                return Err(PartyRefusal::MemberCannot { name, why }.into());
            }
        }
    }
    let slowest = party_tenths_per_round(&party.marching_order, pace, |e| {
        party
            .marching_order
            .iter()
            .position(|&m| m == e)
            .and_then(|i| speeds[i])
    })
    .ok_or(PartyRefusal::MemberTooEncumbered)?;
    let leader_name = crate::creature::name_of(world, leader);
    let feet = crate::rules::movement::order_move(world, leader, to, pace)?;
    if let Some(mut w) = world.get_mut::<Walking>(leader) {
        w.cap_tenths = Some(slowest);
    }
    let at = world
        .get::<Position>(leader)
        .map(|p| p.0)
        .ok_or(Unable::NoSquare)?;
    for &m in &party.marching_order[1..] {
        world.entity_mut(m).remove::<Walking>();
        world.entity_mut(m).remove::<crate::creature::Resting>();
    }
    let p = world
        .resource_mut::<Parties>()
        .get_mut(party_name)
        .map(|p| {
            p.pace = Some(pace);
            p.trail = vec![at];
        });
    debug_assert!(p.is_some());
    log_in(
        world,
        PartyEvent::MarchBegun {
            party: party_name.to_owned(),
            leader: leader_name,
            to,
            pace,
            feet_per_round: slowest as f32 / 10.0,
            feet,
        },
    );
    Ok(())
}

fn no_party(name: &str) -> Unable {
    Unable::NoParty {
        name: name.to_owned(),
    }
}

/// `RestParty`: the whole party rests (Dungeon Delves › Rest); those with Endurance need no
/// rest and keep watch.
pub(crate) fn rest_party(world: &mut World, party: &str) -> Result<(), Refusal> {
    let members = world
        .resource::<Parties>()
        .get(party)
        .map(|p| p.marching_order.clone())
        .ok_or_else(|| no_party(party))?;
    if let Some(p) = world.resource_mut::<Parties>().get_mut(party) {
        p.pace = None;
    }
    let mut watch = Vec::new();
    for e in members {
        let endurance = world
            .get::<crate::creature::Proficiencies>(e)
            .is_some_and(|p| !crate::rules::rest::needs_rest(p));
        if endurance {
            world.entity_mut(e).remove::<Walking>();
            watch.push(crate::creature::name_of(world, e));
        } else {
            // A member already resting goes on resting; a stuck one cannot.
            crate::rules::rest::begin_rest(world, e).ok();
        }
    }
    let party = party.to_owned();
    log_in(world, PartyEvent::PartyRests { party, watch });
    Ok(())
}

/// Sets the marching order; every member of the party must be named once.
pub(crate) fn set_marching_order(
    world: &mut World,
    party_name: &str,
    order: &[String],
) -> Result<(), Refusal> {
    let index = world.resource::<CreatureIndex>().clone();
    let mut parties = world.resource_mut::<Parties>();
    let party = parties
        .get_mut(party_name)
        .ok_or_else(|| no_party(party_name))?;
    let mut entities = Vec::new();
    for n in order {
        let name = n.clone();
        let e = *index.0.get(n).ok_or(Unable::NoCreature { name })?;
        if !party.marching_order.contains(&e) {
            return Err(PartyRefusal::NotInParty { name: n.clone() }.into());
        }
        if entities.contains(&e) {
            return Err(PartyRefusal::NamedTwice { name: n.clone() }.into());
        }
        entities.push(e);
    }
    if entities.len() != party.marching_order.len() {
        let members = party.marching_order.len();
        return Err(PartyRefusal::NameEveryMember { members }.into());
    }
    party.marching_order = entities.clone();
    // The new leader leads; everyone else follows (from where they stand).
    for (i, &e) in entities.iter().enumerate() {
        if i == 0 {
            world.entity_mut(e).remove::<Following>();
        } else if world.get::<Following>(e).is_none() {
            world.entity_mut(e).insert(Following::default());
        }
    }
    Ok(())
}

/// Designates the mapper (or none): both hands busy and vulnerable while mapping.
pub(crate) fn set_mapper(
    world: &mut World,
    party_name: &str,
    who: Option<&str>,
) -> Result<(), Refusal> {
    let index = world.resource::<CreatureIndex>().clone();
    let party = world
        .resource::<Parties>()
        .get(party_name)
        .cloned()
        .ok_or_else(|| no_party(party_name))?;
    let new = match who {
        None => None,
        Some(n) => {
            let name = n.to_owned();
            let e = *index.0.get(n).ok_or(Unable::NoCreature { name })?;
            if !party.marching_order.contains(&e) {
                let name = n.to_owned();
                return Err(PartyRefusal::NotInParty { name }.into());
            }
            Some(e)
        }
    };
    if let Some(old) = party.mapper {
        unmake_mapper(world, old);
    }
    if let Some(e) = new {
        make_mapper(world, e);
    }
    if let Some(p) = world.resource_mut::<Parties>().get_mut(party_name) {
        p.mapper = new;
    }
    Ok(())
}

/// The mapper's marker and its vulnerability.
/// The level's parties: each faction with a marching order, its leader first and the rest
/// following; its mapper, if it names one.
fn install_parties(world: &mut World, level: &crate::level::Level) {
    let index = world.resource::<crate::creature::CreatureIndex>();
    let spawned: Vec<Option<Entity>> = level
        .creatures
        .iter()
        .map(|c| index.0.get(&c.name).copied())
        .collect();
    let mut parties = Parties::default();
    for f in level
        .factions
        .iter()
        .filter(|f| !f.marching_order.is_empty())
    {
        let order: Vec<Entity> = f
            .marching_order
            .iter()
            .filter_map(|&k| spawned[k])
            .collect();
        for (i, &e) in order.iter().enumerate() {
            world.entity_mut(e).insert(PartyMember);
            if i > 0 {
                world.entity_mut(e).insert(Following::default());
            }
        }
        parties.0.push(Party {
            name: f.name.clone(),
            marching_order: order,
            mapper: None,
            formation: Formation::default(),
            trail: Vec::new(),
            pace: None,
        });
    }
    world.insert_resource(parties);
    for f in &level.factions {
        if let Some(e) = f.mapper.and_then(|m| spawned[m]) {
            make_mapper(world, e);
            if let Some(p) = world.resource_mut::<Parties>().get_mut(&f.name) {
                p.mapper = Some(e);
            }
        }
    }
}

fn make_mapper(world: &mut World, e: Entity) {
    let round = world.resource::<Clock>().rounds;
    let proficient = world
        .get::<crate::creature::Proficiencies>(e)
        .is_some_and(|p| p.has(Proficiency::Mapping));
    let name = crate::creature::name_of(world, e);
    world
        .entity_mut(e)
        .insert(crate::rules::movement::Mapper { proficient });
    world.resource_scope(|world, mut log: Mut<EventLog>| {
        if let Some(mut c) = world.get_mut::<Conditions>(e) {
            gain_condition(
                &mut log,
                round,
                &name,
                &mut c,
                ConditionKind::Vulnerable,
                "mapping: both hands busy",
                ConditionEnd::UntilRemoved,
            );
        }
    });
}

fn unmake_mapper(world: &mut World, e: Entity) {
    let round = world.resource::<Clock>().rounds;
    let name = crate::creature::name_of(world, e);
    world
        .entity_mut(e)
        .remove::<crate::rules::movement::Mapper>();
    world.resource_scope(|world, mut log: Mut<EventLog>| {
        if let Some(mut c) = world.get_mut::<Conditions>(e)
            && c.get(ConditionKind::Vulnerable)
                .is_some_and(|v| v.source.starts_with("mapping"))
        {
            lose_condition(
                &mut log,
                round,
                &name,
                &mut c,
                ConditionKind::Vulnerable,
                "no longer mapping",
            );
        }
    });
}

/// `TakeFrom`: `who` takes everything `from` carries (its gear and its lights, lit ones still
/// burning) when `from` is beside it and fallen, or is a companion handing it over.
pub(crate) fn take_from(world: &mut World, who: Entity, from: Entity) -> Result<(), Refusal> {
    let from_name = crate::creature::name_of(world, from);
    let down = world
        .get::<Conditions>(from)
        .is_some_and(crate::rules::conditions::is_down);
    if who == from || !(down || world.get::<Faction>(who) == world.get::<Faction>(from)) {
        return Err(commands::PartyRefusal::NeitherDownNorCompanion { name: from_name }.into());
    }
    let (here, there) = (
        crate::act::square_of(world, who)?,
        crate::act::square_of(world, from)?,
    );
    if here.chebyshev(there) > 1 {
        return Err(commands::PartyRefusal::NotBeside { name: from_name }.into());
    }
    let depth = |e: Entity| world.get::<crate::creature::Below>(e).map(|b| b.depth_feet);
    if depth(who) != depth(from) {
        return Err(commands::PartyRefusal::NotAtTheSameDepth { name: from_name }.into());
    }
    let mut q = world.query::<(Entity, &crate::rules::light::CarriedBy)>();
    let mut lights: Vec<Entity> = q
        .iter(world)
        .filter(|(_, c)| c.0 == from)
        .map(|(e, _)| e)
        .collect();
    lights.sort();
    let gear = world
        .get_mut::<crate::creature::Equipment>(from)
        .map(|mut g| std::mem::take(&mut g.0))
        .unwrap_or_default();
    if gear.is_empty() && lights.is_empty() {
        return Err(commands::PartyRefusal::NothingToTake { name: from_name }.into());
    }
    let mut described = Vec::new();
    for &l in &lights {
        world
            .entity_mut(l)
            .insert(crate::rules::light::CarriedBy(who));
        if let Some(source) = world.get::<crate::rules::light::LightSource>(l) {
            described.push(crate::rules::light::described(source));
        }
    }
    match world.get_mut::<crate::creature::Equipment>(who) {
        Some(mut mine) => mine.0.extend(gear.iter().cloned()),
        None => {
            world
                .entity_mut(who)
                .insert(crate::creature::Equipment(gear.clone()));
        }
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        PartyEvent::TookFrom {
            who: name,
            from: from_name,
            gear,
            lights: described,
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests;
