//! Surprise (RULINGS › Surprise): when a battle begins, each faction none of whose members was
//! aware of the enemy the round before (had seen it, heard it, or answered a call about it)
//! throws 1d6, surprised on 1–2: −2 when every member is blinded, +2 when the enemy carries a
//! lit light the faction can see (the light gives it away). A surprised faction does nothing in
//! the battle's first round and is flat-footed to every attack in it (`battle`); both sides
//! surprised cancel out.

use crate::rules::sound::{HearingEvent, NoiseKind, NoisyAction};
use crate::rules::vision::Sight;
use delve_ground::dice::Dice;
use delve_ground::grid::GridPos;

use bevy::prelude::*;

use crate::creature::{Conditions, CreatureIndex, Faction, Factions, Position};
use crate::rules::conditions::is_down;
use delve_ground::dice::Modifier;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

use super::events::CombatEvent;

/// The highest result of the d6 (with its modifiers) that is surprise.
pub const SURPRISED_ON: i32 = 2;

/// Does the faction know of an enemy from the round before the battle: a member heard a noise
/// one of the enemy made, or a call (a shout) of its own side?
fn forewarned(world: &World, faction: usize, enemies: &[usize]) -> bool {
    let round = world.resource::<Clock>().rounds;
    let index = world.resource::<CreatureIndex>();
    let faction_of = |name: &str| {
        index
            .0
            .get(name)
            .and_then(|&e| world.get::<Faction>(e))
            .map(|f| f.0)
    };
    world
        .resource::<EventLog>()
        .entries()
        .iter()
        .rev()
        .take_while(|e| e.round + 1 >= round)
        .filter_map(|e| e.get::<HearingEvent>())
        .any(|h| match h {
            HearingEvent::Heard {
                who,
                made_by: Some(maker),
                noise,
                ..
            } if faction_of(who) == Some(faction) => {
                let by = faction_of(maker);
                by.is_some_and(|b| enemies.contains(&b))
                    || (by == Some(faction) && *noise == NoiseKind::Action(NoisyAction::Shouting))
            }
            _ => false,
        })
}

/// The members of a faction that are up.
fn members(world: &mut World, faction: usize) -> Vec<Entity> {
    let mut out: Vec<Entity> = delve_ground::query_cache::read_query(
        world,
        |q: Query<(Entity, &Faction, &Conditions)>| {
            q.iter()
                .filter(|(_, f, c)| f.0 == faction && !is_down(c))
                .map(|(e, ..)| e)
                .collect()
        },
    )
    .unwrap_or_default();
    out.sort();
    out
}

/// Does a member of the faction see a lit light an enemy carries?
fn sees_an_enemy_light(world: &mut World, faction: usize, enemies: &[usize]) -> bool {
    use crate::rules::light::{CarriedBy, LightSource};
    let bearers: Vec<Entity> = delve_ground::query_cache::read_query(
        world,
        |lights: Query<(&LightSource, &CarriedBy)>| {
            lights
                .iter()
                .filter(|(l, _)| l.lit)
                .map(|(_, c)| c.0)
                .collect()
        },
    )
    .unwrap_or_default();
    let squares: Vec<GridPos> = bearers
        .into_iter()
        .filter(|&b| {
            world
                .get::<Faction>(b)
                .is_some_and(|f| enemies.contains(&f.0))
        })
        .filter_map(|b| world.get::<Position>(b).map(|p| p.0))
        .collect();
    members(world, faction).into_iter().any(|m| {
        world
            .get::<Sight>(m)
            .is_some_and(|s| squares.iter().any(|&p| s.sees(p)))
    })
}

/// The modifiers to a faction's surprise die against these enemies: −2 when every member is
/// blinded, +2 when a member sees a lit light one of them carries.
pub fn surprise_modifiers(world: &mut World, f: usize, enemies: &[usize]) -> Vec<Modifier> {
    let mut modifiers = Vec::new();
    let up = members(world, f);
    if !up.is_empty()
        && up.iter().all(|&m| {
            world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Blinded))
        })
    {
        modifiers.push(Modifier::new(-2, "every member blinded"));
    }
    if sees_an_enemy_light(world, f, enemies) {
        modifiers.push(Modifier::new(2, "the enemy's light seen"));
    }
    modifiers
}

/// The chance a die of 1d6 with these modifiers is surprise (2 or less).
pub fn surprise_chance(modifiers: &[Modifier]) -> f32 {
    let m: i32 = modifiers.iter().map(|m| m.value).sum();
    (1..=6).filter(|d| d + m <= SURPRISED_ON).count() as f32 / 6.0
}

/// The factions that begin a battle throw for surprise; those surprised, unless every one that
/// threw was (then no one is).
pub(crate) fn throw_for_surprise(world: &mut World, factions: &[usize]) -> Vec<usize> {
    let round = world.resource::<Clock>().rounds;
    let names = world.resource::<Factions>().clone();
    let mut surprised = Vec::new();
    let mut threw = 0;
    for &f in factions {
        let enemies: Vec<usize> = factions
            .iter()
            .copied()
            .filter(|&g| g != f && names.hostile(Faction(f), Faction(g)))
            .collect();
        if enemies.is_empty() {
            continue;
        }
        let name = names.name(Faction(f)).to_owned();
        if forewarned(world, f, &enemies) {
            world
                .resource_mut::<EventLog>()
                .push(round, CombatEvent::Forewarned { faction: name });
            continue;
        }
        let modifiers = surprise_modifiers(world, f, &enemies);
        let d6 = world.resource_mut::<Dice>().roll(6);
        let total = d6 as i32 + modifiers.iter().map(|m| m.value).sum::<i32>();
        let is_surprised = total <= SURPRISED_ON;
        threw += 1;
        if is_surprised {
            surprised.push(f);
        }
        world.resource_mut::<EventLog>().push(
            round,
            CombatEvent::Surprise {
                faction: name,
                d6,
                modifiers,
                total,
                surprised: is_surprised,
            },
        );
    }
    if threw > 1 && surprised.len() == threw {
        let cancelled: Vec<String> = surprised
            .iter()
            .map(|&f| names.name(Faction(f)).to_owned())
            .collect();
        world.resource_mut::<EventLog>().push(
            round,
            CombatEvent::SurpriseCancelled {
                factions: cancelled,
            },
        );
        surprised.clear();
    }
    surprised
}
