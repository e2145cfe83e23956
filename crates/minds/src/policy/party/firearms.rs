//! Firearms (Tactical Combat › Firearm Misfires): a jammed firearm is cleared after a battle,
//! as the rules offer it (in one, the fighting behaviour clears it).

use delve_rules::rules::combat::gear::Jammed;

use bevy::prelude::*;

use super::{Intent, is_up, name};
use delve_rules::command::Command;

/// The first member up with a jammed firearm clears it, as the combat area offers it. (Only
/// that area's offer, and only for a jammed member: this is asked at every decision.)
pub(super) fn clear_a_jam(world: &mut World, members: &[Entity]) -> Option<(Intent, Vec<Command>)> {
    let (who, order) = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Jammed>(m).is_some())
        .find_map(|m| {
            delve_rules::rules::areas::area_choices_next_round(
                world,
                m,
                delve_rules::rules::combat::jam_choices,
            )
            .into_iter()
            .map(|(_, c)| Command::from(&c.command))
            .find(|c| matches!(c, Command::ClearJam(_)))
            .map(|o| (m, o))
        })?;
    Some((
        Intent::ClearJam {
            who: name(world, who),
        },
        vec![order],
    ))
}
