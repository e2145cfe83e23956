//! Monster behaviour that reads the rules' results and writes commands, like any other actor.
//!
//! So far: a monster that sees a light carried by a creature hostile to it comes toward it, at
//! combat speed (RULINGS › Noise and hearing; Dungeon Delves › Light and Darkness: carrying a
//! light gives a party away); a monster that hears a noise made by no one or by a hostile creature
//! goes to look, at combat speed; a monster with a patrol route (the level's `patrol`) that has
//! nothing else to do walks it round and round at exploration speed. In a battle, the fighting
//! behaviour (`rules::combat::behaviour`) takes over.

use crate::command::acts::Move;
use bevy::prelude::*;

use crate::command::{Command, PendingCommands};
use crate::creature::{ActingOrder, Faction, Factions, Position};
use crate::grid::path::find_path;
use crate::grid::{DungeonGrid, GridPos};
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::movement::{Pace, Walking};
use crate::rules::party::PartyMember;
use crate::rules::sound::hearing::{HeardThisRound, roughly};
use crate::rules::vision::Sight;
use crate::schedule::{RoundSet, SimRound};

pub struct MonsterAiPlugin;

impl Plugin for MonsterAiPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ActingOrder>()
            .init_resource::<HeardThisRound>()
            .add_systems(
                SimRound,
                (go_to_look, approach_lights, walk_the_patrol)
                    .chain()
                    .in_set(RoundSet::Minds),
            );
    }
}

/// A monster at rest: not in the party and not on its way somewhere.
type Idle = (Without<PartyMember>, Without<Walking>);

/// A monster that heard something this round (outside a battle) and is not on its way somewhere
/// goes to the nearest reachable square at the noise: roughly where it was, or beside it.
pub fn go_to_look(
    grid: Res<DungeonGrid>,
    heard: Res<HeardThisRound>,
    mut pending: ResMut<PendingCommands>,
    monsters: Query<(&Name, &Position), Idle>,
) {
    let mut looking: Vec<(Entity, GridPos)> = heard
        .0
        .iter()
        .filter(|h| h.hostile && !h.fighting)
        .map(|h| (h.listener, h.at))
        .collect();
    // The first noise each heard.
    looking.sort_by_key(|(e, _)| *e);
    looking.dedup_by_key(|(e, _)| *e);
    for (e, at) in looking {
        let Ok((name, pos)) = monsters.get(e) else {
            continue;
        };
        let rough = roughly(at);
        let candidates = std::iter::once(rough)
            .chain(std::iter::once(at))
            .chain(at.neighbours());
        let best = candidates
            .filter_map(|c| find_path(&grid, pos.0, c).map(|p| (p.feet, c)))
            .min_by_key(|&(feet, c)| (feet, c));
        if let Some((_, to)) = best {
            pending.push_derived(Command::Move(Move {
                who: name.to_string(),
                to: (to.x, to.y),
                pace: Pace::Combat,
            }));
        }
    }
}

type Monster<'a> = (&'a Name, &'a Position, &'a Faction, &'a Sight);

/// A monster that is not already on its way toward something walks to the nearest lit bearer of
/// a hostile faction that it sees.
pub fn approach_lights(
    factions: Res<Factions>,
    mut pending: ResMut<PendingCommands>,
    monsters: Query<Monster, Idle>,
    lights: Query<(&LightSource, &CarriedBy)>,
    bearers: Query<(&Position, &Faction)>,
    acting: Res<ActingOrder>,
) {
    let lit_bearers: Vec<(Position, Faction)> = lights
        .iter()
        .filter(|(l, _)| l.lit)
        .filter_map(|(_, c)| bearers.get(c.0).ok().map(|(p, f)| (*p, *f)))
        .collect();
    let mut orders: Vec<(String, (i32, i32))> = Vec::new();
    for (name, at, faction, sight) in &monsters {
        if pending.waiting_for(name.as_str()) {
            continue;
        }
        // In a battle, the fighting behaviour decides instead.
        if acting.fighting(*faction) {
            continue;
        }
        let target = lit_bearers
            .iter()
            .filter(|(p, f)| factions.hostile(*faction, *f) && sight.sees(p.0))
            .min_by_key(|(p, _)| (at.0.x.abs_diff(p.0.x).max(at.0.y.abs_diff(p.0.y)), p.0));
        if let Some((p, _)) = target
            && p.0 != at.0
        {
            orders.push((name.to_string(), (p.0.x, p.0.y)));
        }
    }
    orders.sort();
    for (who, to) in orders {
        pending.push_derived(Command::Move(Move {
            who,
            to,
            pace: Pace::Combat,
        }));
    }
}

/// A monster's patrol route (the level's `patrol`) and the square it is making for.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Patrol {
    pub route: Vec<GridPos>,
    pub next: usize,
}

/// A monster on patrol with nothing else to do walks on to the next square of its route at
/// exploration speed, and on reaching it makes for the one after (round and round). A square it
/// cannot reach now (a door shut on the way) is passed over for the next.
pub fn walk_the_patrol(
    grid: Res<DungeonGrid>,
    mut pending: ResMut<PendingCommands>,
    mut monsters: Query<
        (
            &Name,
            &Position,
            &Faction,
            &crate::creature::Conditions,
            &mut Patrol,
        ),
        Idle,
    >,
    acting: Res<ActingOrder>,
) {
    let mut orders: Vec<(String, (i32, i32))> = Vec::new();
    for (name, at, faction, conditions, mut patrol) in &mut monsters {
        if pending.waiting_for(name.as_str())
            || acting.fighting(*faction)
            || crate::rules::conditions::is_down(conditions)
            || patrol.route.is_empty()
        {
            continue;
        }
        let len = patrol.route.len();
        if patrol.route[patrol.next % len] == at.0 {
            patrol.next = (patrol.next + 1) % len;
        }
        let to = patrol.route[patrol.next % len];
        if to == at.0 {
            continue;
        }
        if find_path(&grid, at.0, to).is_some() {
            orders.push((name.to_string(), (to.x, to.y)));
        } else {
            patrol.next = (patrol.next + 1) % len;
        }
    }
    orders.sort();
    for (who, to) in orders {
        pending.push_derived(Command::Move(Move {
            who,
            to,
            pace: Pace::Exploration,
        }));
    }
}
