//! Judging a fight before it starts (RULINGS › Knowledge: the party may judge a foe it has seen by
//! its kind's entry — its hit points, armour and attacks, as a player would know the monster —
//! and by what it saw). The estimate: the blows the party's members land on the foe each round
//! against its armour class, and the foe's on them; the rounds the party takes to fell it, and
//! the wounds it deals in that time. A foe that would deal a third of the party's hit points or
//! more before it falls is too strong, and the party keeps its ways away from where it last
//! saw it.

use delve_rules::creature::CreatureIndex;

use bevy::prelude::*;

use super::is_up;
use delve_ground::dice::DiceExpr;
use delve_ground::grid::GridPos;
use delve_rules::creature::{ArmorClass, Combatant, HitPoints};

/// A foe the party would not fight: what it would cost, in the wounds expected, of the party's
/// hit points.
pub const TOO_STRONG_SHARE: f32 = 1.0 / 3.0;

/// The party's estimate of a fight against one foe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Odds {
    /// Rounds the party's members take to fell it, all striking.
    pub rounds_to_fell: f32,
    /// Hit points it deals the party in that time.
    pub wounds_expected: f32,
    /// The party's hit points, of the members up.
    pub party_hit_points: f32,
}

impl Odds {
    pub fn too_strong(&self) -> bool {
        self.wounds_expected >= TOO_STRONG_SHARE * self.party_hit_points
    }

    /// Would it deal the party all its hit points before it falls? Such a foe the party falls
    /// back from when it comes on (`fighting::coming_on`); one merely too strong it keeps clear
    /// of, and fights when it cannot.
    pub fn beyond_the_party(&self) -> bool {
        self.wounds_expected >= self.party_hit_points
    }
}

/// The chance an attack throw at `bonus` reaches `ac` (a d20 at or over `ac − bonus`; a 1
/// always misses, a 20 always hits).
fn hit_chance(bonus: i32, ac: i32) -> f32 {
    ((21 + bonus - ac) as f32 / 20.0).clamp(0.05, 0.95)
}

fn mean(d: &DiceExpr) -> f32 {
    (d.count * (d.sides + 1)) as f32 / 2.0 + d.bonus as f32
}

/// The most damage `c` deals a round, on average, to one of armour class `ac` (its best
/// weapon).
fn blow(c: &Combatant, ac: i32) -> f32 {
    c.weapons
        .iter()
        .map(|w| hit_chance(c.attack_bonus, ac) * mean(&w.damage).max(0.0))
        .fold(0.0, f32::max)
}

/// The party's odds against `foe`, from its stat block as the party knows it.
pub fn odds(world: &World, members: &[Entity], foe: Entity) -> Option<Odds> {
    let foe_c = world.get::<Combatant>(foe)?;
    let foe_ac = world.get::<ArmorClass>(foe).map_or(10, |a| a.0);
    let foe_hp = world.get::<HitPoints>(foe)?.current.max(1) as f32;
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    if up.is_empty() {
        return None;
    }
    let party_blows: f32 = up
        .iter()
        .filter_map(|&m| world.get::<Combatant>(m))
        .map(|c| blow(c, foe_ac))
        .sum();
    let foe_blows = up
        .iter()
        .map(|&m| blow(foe_c, world.get::<ArmorClass>(m).map_or(10, |a| a.0)))
        .sum::<f32>()
        / up.len() as f32;
    let rounds_to_fell = foe_hp / party_blows.max(0.01);
    let party_hit_points = up
        .iter()
        .filter_map(|&m| world.get::<HitPoints>(m))
        .map(|h| h.current.max(0) as f32)
        .sum();
    Some(Odds {
        rounds_to_fell,
        wounds_expected: rounds_to_fell * foe_blows,
        party_hit_points,
    })
}

/// Could `members` take on all of `foes` together and come out of it without wounds of a third
/// of their hit points ([`TOO_STRONG_SHARE`])? The foes fall one after another, the quickest
/// to fell first, each striking until it falls: the wounds are each foe's blows a round times
/// the rounds until it is down.
pub fn can_take_them_all(world: &World, members: &[Entity], foes: &[Entity]) -> bool {
    let mut each: Vec<Odds> = foes
        .iter()
        .filter_map(|&f| odds(world, members, f))
        .collect();
    let Some(hit_points) = each.first().map(|o| o.party_hit_points) else {
        return true;
    };
    each.sort_by(|a, b| a.rounds_to_fell.total_cmp(&b.rounds_to_fell));
    let mut until = 0.0;
    let mut wounds = 0.0;
    for o in &each {
        until += o.rounds_to_fell;
        wounds += o.wounds_expected / o.rounds_to_fell.max(0.01) * until;
    }
    wounds < TOO_STRONG_SHARE * hit_points
}

/// The foes too strong for the party, by name, where it last saw each: those it sees now are
/// judged (and moved to where they stand), those it saw fall are forgotten. A foe judged
/// anew — first seen, or its verdict changed — is logged with the estimate.
pub(super) fn update_dangers(
    world: &mut World,
    mind: &mut super::PartyMind,
    members: &[Entity],
    in_sight: &[(Entity, GridPos)],
) {
    mind.dangers.retain(|(name, _)| {
        world
            .resource::<CreatureIndex>()
            .0
            .get(name)
            .is_some_and(|&e| is_up(world, e))
    });
    for &(foe, at) in in_sight {
        let name = delve_rules::creature::name_of(world, foe);
        let Some(o) = odds(world, members, foe) else {
            continue;
        };
        let was = mind.dangers.iter().any(|(n, _)| *n == name);
        let judged_before = mind.judged.contains(&name);
        mind.dangers.retain(|(n, _)| *n != name);
        mind.beyond.retain(|(n, ..)| *n != name);
        if o.too_strong() {
            mind.dangers.push((name.clone(), at));
        }
        if o.beyond_the_party() {
            mind.beyond.push((
                name.clone(),
                o.wounds_expected.round() as u32,
                o.party_hit_points.round() as u32,
            ));
        }
        if !judged_before || was != o.too_strong() {
            if !judged_before {
                mind.judged.push(name.clone());
            }
            delve_ground::log::log_in(
                world,
                super::PolicyEvent::Judged {
                    party: mind.party.clone(),
                    foe: name,
                    rounds_to_fell: o.rounds_to_fell,
                    wounds_expected: o.wounds_expected,
                    party_hit_points: o.party_hit_points,
                    too_strong: o.too_strong(),
                },
            );
        }
    }
}

/// Keeping clear of a foe too strong for it that it sees, before any blow is struck (no member
/// beside a foe): the party does not close in — its members are held back from the fighting
/// behaviour ([`Retreating`](crate::policy::behaviour::Retreating)) — and goes on by
/// its ways, which keep away from the foe. `true` while that holds.
pub(super) fn keeping_clear(
    world: &World,
    mind: &super::PartyMind,
    members: &[Entity],
    in_sight: &[(Entity, GridPos)],
) -> bool {
    if mind.homeward == Some(super::Homeward::Fleeing) {
        return false;
    }
    let danger_seen = in_sight.iter().any(|&(foe, _)| {
        let name = delve_rules::creature::name_of(world, foe);
        mind.dangers.iter().any(|(n, _)| *n == name)
    });
    let engaged = in_sight.iter().any(|&(_, at)| {
        members
            .iter()
            .any(|&m| is_up(world, m) && super::square(world, m).is_some_and(|p| p.is_adjacent(at)))
    });
    danger_seen && !engaged
}

/// Holds the members back from the fighting behaviour while the party keeps clear, and lets
/// them fight again once it does not (unless it flees).
pub(super) fn hold_back(
    world: &mut World,
    mind: &super::PartyMind,
    members: &[Entity],
    clear: bool,
) {
    use crate::policy::behaviour::Retreating;
    if mind.homeward == Some(super::Homeward::Fleeing) {
        return;
    }
    for &m in members {
        let held = world.get::<Retreating>(m).is_some();
        if clear && !held {
            world.entity_mut(m).insert(Retreating);
        } else if !clear && held {
            world.entity_mut(m).remove::<Retreating>();
        }
    }
}
