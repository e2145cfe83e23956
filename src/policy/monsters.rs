//! Monster behaviour that reads the rules' results and writes commands, like any other actor.
//!
//! So far: a monster that sees a light carried by a creature hostile to it comes toward it, at
//! combat speed (RULINGS › Noise and hearing; Dungeon Delves › Light and Darkness: carrying a
//! light gives a party away). Monsters that hear a noise go to look (in the hearing rules).
//! In a battle, the fighting behaviour (`rules::combat::behaviour`) takes over.

use crate::command::acts::Move;
use bevy::prelude::*;

use crate::command::{Command, PendingCommands};
use crate::creature::{Faction, Factions, Position};
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::movement::{Pace, Walking};
use crate::rules::party::PartyMember;
use crate::rules::vision::Sight;
use crate::schedule::{RoundSet, SimRound};

pub struct MonsterAiPlugin;

impl Plugin for MonsterAiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(SimRound, approach_lights.in_set(RoundSet::Minds));
    }
}

type Monster<'a> = (&'a Name, &'a Position, &'a Faction, &'a Sight);

/// A monster that is not already on its way toward something walks to the nearest lit bearer of
/// a hostile faction that it sees.
pub fn approach_lights(
    factions: Res<Factions>,
    mut pending: ResMut<PendingCommands>,
    monsters: Query<Monster, (Without<PartyMember>, Without<Walking>)>,
    lights: Query<(&LightSource, &CarriedBy)>,
    bearers: Query<(&Position, &Faction)>,
    battle: Option<Res<crate::rules::combat::battle::Battle>>,
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
        if battle
            .as_ref()
            .is_some_and(|b| b.result_of(faction.0).is_some())
        {
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
