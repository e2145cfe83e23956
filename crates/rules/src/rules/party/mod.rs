//! The party moves as a party (Dungeon Delves › Marching and Mapping): a marching order, single
//! file in corridors 5' wide or less, two columns where they are 6' or wider, the party following
//! its leader along the path and keeping formation, at the pace of its slowest member, and a
//! designated mapper (both hands busy, vulnerable from distraction, mapping only in bright light).

mod commands;
pub mod events;
mod parties;
mod refusals;
use crate::act::{AnyAct, Choice, Concern};
use crate::creature::{Below, Equipment, Proficiencies, Resting, SavingThrows};
use crate::rules::areas::Rank;
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::movement::MoveRefusal;
use crate::schedule::{FactionInitiative, InitiativeSet};
use delve_ground::level::{Goal, Level};

pub use commands::{
    Autonomy, Mapper, MarchingOrder, MoveParty, PartyMindHandler, RestParty, TakeFrom,
};
pub use events::PartyEvent;
pub use parties::{Following, Formation, Parties, Party, PartyMember, party_tenths_per_round};
pub use refusals::PartyRefusal;

use bevy::prelude::*;

use crate::act::{Refusal, Unable};
use crate::creature::{
    ActingOrder, ConditionEnd, Conditions, CreatureIndex, Encumbrance, Faction, Position,
};
use crate::rules::conditions::{gain_condition, lose_condition};
use crate::rules::movement::{Pace, Speeds, Walking};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{ConditionKind, Proficiency, SaveCategory};
use delve_ground::log::{EventLog, log_in};
use delve_ground::time::Clock;

mod formation;
use formation::keep_formation;
mod front;
mod staying;
pub use front::ToTheFront;
pub use staying::{StayBehind, StayingBehind};
mod leaving;
pub use leaving::{Leave, way_out};

pub struct PartyPlugin;

impl Plugin for PartyPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::party::Following>()
            .keeps::<crate::rules::party::Parties>()
            .keeps_component::<crate::rules::party::PartyMember>()
            .keeps_component::<StayingBehind>();
        use crate::rules::areas::RuleArea;
        app.installs_after_creatures(install_parties)
            .offers(Rank::AtHand, take_from_choices)
            .offers(Rank::Party, front::front_choices)
            .offers(Rank::Party, staying::staying_choices)
            .offers(Rank::Party, leaving::leaving_choices);
        app.init_resource::<Parties>()
            .init_resource::<ActingOrder>()
            .add_systems(SimRound, keep_formation.in_set(RoundSet::Formation))
            .add_systems(
                SimRound,
                winded_parties_stop_running.in_set(RoundSet::PartyPace),
            )
            .add_systems(
                FactionInitiative,
                keep_formation.in_set(InitiativeSet::Formation),
            );
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
    // (One who stays behind does not march: its speed does not count.)
    let marching: Vec<Entity> = party
        .marching_order
        .iter()
        .copied()
        .filter(|&m| m == leader || world.get::<StayingBehind>(m).is_none())
        .collect();
    let mut speeds = Vec::new();
    for &m in &marching {
        let gone = || Unable::Gone {
            what: "a member".into(),
        };
        let enc = world.get::<Encumbrance>(m).ok_or_else(gone)?;
        let cond = world.get::<Conditions>(m).ok_or_else(gone)?;
        speeds.push(Speeds::of(enc.0, cond));
        // Every member runs by the running rules: a winded one cannot run, nor one without the
        // Paralysis save running calls for.
        if pace == Pace::Running {
            let saves = world.get::<SavingThrows>(m);
            let why = if cond.has(ConditionKind::Winded) {
                Some(MoveRefusal::WindedCannotRun)
            } else if !saves.is_some_and(|s| s.0.contains_key(&SaveCategory::Paralysis)) {
                Some(MoveRefusal::NoParalysisSave)
            } else {
                None
            };
            if let Some(why) = why {
                let name = crate::creature::name_of(world, m);
                return Err(PartyRefusal::MemberCannot { name, why }.into());
            }
        }
    }
    let slowest = party_tenths_per_round(&marching, pace, |e| {
        marching
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
        world.entity_mut(m).remove::<Resting>();
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
        // A member that is down (dying, dead) does nothing: it neither rests nor keeps watch.
        if world
            .get::<crate::creature::Conditions>(e)
            .is_some_and(crate::rules::conditions::is_down)
        {
            continue;
        }
        let endurance = world
            .get::<Proficiencies>(e)
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
fn install_parties(world: &mut World, level: &Level) {
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
        let way_in = order
            .first()
            .and_then(|&e| world.get::<Position>(e))
            .map(|p| p.0);
        parties.0.push(Party {
            name: f.name.clone(),
            marching_order: order,
            mapper: None,
            formation: Formation::default(),
            trail: Vec::new(),
            pace: None,
            way_in,
            exit: match level.goal {
                Goal::Exit(p) => Some(p),
                _ => None,
            },
            left: false,
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
        .get::<Proficiencies>(e)
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

/// Taking the gear and lights of one down (dying or dead) beside it, at the same depth, who
/// has something to take, is offered as `take_from` would carry it out. (A companion up may
/// hand over its gear too, by the same command; that is not offered, as it would stand in
/// every list of a party walking together.)
fn take_from_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Ok(here), Some(name)) = (crate::act::square_of(world, who), world.get::<Name>(who)) else {
        return Vec::new();
    };
    let depth = |e: Entity| world.get::<Below>(e).map(|b| b.depth_feet);
    let carries_light = |e: Entity| {
        delve_ground::query_cache::read_query(world, |q: Query<&CarriedBy>| {
            q.iter().any(|c| c.0 == e)
        })
        .unwrap_or(false)
    };
    let mut fallen: Vec<(Entity, String)> = world
        .resource::<CreatureIndex>()
        .0
        .iter()
        .filter(|&(_, &e)| e != who && world.get_entity(e).is_ok())
        .filter(|&(_, &e)| {
            world
                .get::<Conditions>(e)
                .is_some_and(crate::rules::conditions::is_down)
        })
        .filter(|&(_, &e)| {
            crate::act::square_of(world, e).is_ok_and(|p| p.chebyshev(here) <= 1)
                && depth(e) == depth(who)
        })
        .filter(|&(_, &e)| {
            world.get::<Equipment>(e).is_some_and(|g| !g.0.is_empty()) || carries_light(e)
        })
        .map(|(n, &e)| (e, n.clone()))
        .collect();
    fallen.sort();
    fallen
        .into_iter()
        .map(|(_, from)| {
            let take = AnyAct::from(TakeFrom {
                who: name.to_string(),
                from: from.clone(),
            });
            let way = format!("take {from}'s gear");
            let choice = Choice::new(&way, "1 round", None, "and lights", take);
            (Concern::Creature(from), choice)
        })
        .collect()
}

/// `TakeFrom`: `who` takes everything `from` carries (its gear and its lights, lit ones still
/// burning) when `from` is beside it and fallen, or is a companion handing it over.
pub(crate) fn take_from(world: &mut World, who: Entity, from: Entity) -> Result<(), Refusal> {
    let from_name = crate::creature::name_of(world, from);
    let down = world
        .get::<Conditions>(from)
        .is_some_and(crate::rules::conditions::is_down);
    if who == from || !(down || world.get::<Faction>(who) == world.get::<Faction>(from)) {
        return Err(PartyRefusal::NeitherDownNorCompanion { name: from_name }.into());
    }
    let (here, there) = (
        crate::act::square_of(world, who)?,
        crate::act::square_of(world, from)?,
    );
    if here.chebyshev(there) > 1 {
        return Err(PartyRefusal::NotBeside { name: from_name }.into());
    }
    let depth = |e: Entity| world.get::<Below>(e).map(|b| b.depth_feet);
    if depth(who) != depth(from) {
        return Err(PartyRefusal::NotAtTheSameDepth { name: from_name }.into());
    }
    let mut q = world.query::<(Entity, &CarriedBy)>();
    let mut lights: Vec<Entity> = q
        .iter(world)
        .filter(|(_, c)| c.0 == from)
        .map(|(e, _)| e)
        .collect();
    lights.sort();
    let gear = world
        .get_mut::<Equipment>(from)
        .map(|mut g| std::mem::take(&mut g.0))
        .unwrap_or_default();
    if gear.is_empty() && lights.is_empty() {
        return Err(PartyRefusal::NothingToTake { name: from_name }.into());
    }
    let mut described = Vec::new();
    for &l in &lights {
        world.entity_mut(l).insert(CarriedBy(who));
        if let Some(source) = world.get::<LightSource>(l) {
            described.push(crate::rules::light::described(source));
        }
    }
    match world.get_mut::<Equipment>(who) {
        Some(mut mine) => mine.0.extend(gear.iter().cloned()),
        None => {
            world.entity_mut(who).insert(Equipment(gear.clone()));
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
