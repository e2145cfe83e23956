//! Damage (RULINGS › Conditions the sources name without defining): damage from any source —
//! attacks, traps, falls, a botched bash, drowning — goes through one path, so that bloodied,
//! dying, death, massive trauma and massive damage apply to all of it.
//!
//! - Tactical Combat › Bloodied: below half its hit points a creature is bloodied.
//! - At 0 hit points or fewer a creature is dying, out of the fight; any more damage kills it
//!   (a ruling: the sources leave dying to the Judge).
//! - Tactical Combat › Massive Trauma: one blow of half the total hit points (at least 25) calls
//!   for a DC 10 Fortitude save; failed, the creature is left at 0 hit points and **staggered**,
//!   not dying: each round it may move or attack, not both, and any further damage makes it
//!   dying.
//! - Tactical Combat › Massive Damage: half and at least 50, a DC 15 Fortitude save or death.
//!   Mythic creatures are immune to both.

use crate::rules::movement::Walking;
use crate::rules::task::Task;
use crate::rules::throws::Skill;

use bevy::prelude::*;

use crate::creature::{Abilities, Combatant, ConditionEnd, Conditions, HitPoints};
use crate::rules::conditions::{gain_condition_in, lose_condition_in};
use crate::rules::tactical::{self, TacticalCombat};
use crate::rules::throws::{ThrowKind, throw_in};
use crate::state::KeepsState;
use delve_ground::dice::Modifier;
use delve_ground::level::schema::ConditionKind;

/// What being hurt does besides the hit points, as the rule areas that own it register it: a
/// creature balancing on a ledge keeps its balance or falls (Dungeon Delves › Balancing
/// Traverse).
#[derive(Resource, Clone, Default)]
pub struct WhenHurt(Vec<fn(&mut World, Entity)>);

/// A rule area registers what being hurt does in its part of the rules, from its plugin.
pub trait HurtRules {
    fn when_hurt(&mut self, effect: fn(&mut World, Entity)) -> &mut Self;
}

impl HurtRules for App {
    fn when_hurt(&mut self, effect: fn(&mut World, Entity)) -> &mut Self {
        self.init_resource::<WhenHurt>().not_state::<WhenHurt>();
        self.world_mut().resource_mut::<WhenHurt>().0.push(effect);
        self
    }
}

/// A fall's damage (1d6 per 10', at most 20d6): the level layer's, which a pit's damage is
/// read with as the level loads.
pub use delve_ground::level::{MAX_FALL_DICE, falling_damage};

/// `damage` points land on `who`: its hit points, and what follows from them. The tactical
/// rules' parts (bloodied, massive trauma and damage) apply where the level has them on; then
/// what the areas registered ([`WhenHurt`]).
pub fn take_damage(world: &mut World, who: Entity, damage: i32) {
    hit_points_and_what_follows(world, who, damage);
    if damage > 0
        && let Some(effects) = world.get_resource::<WhenHurt>().cloned()
    {
        for effect in effects.0 {
            effect(world, who);
        }
    }
}

fn hit_points_and_what_follows(world: &mut World, who: Entity, damage: i32) {
    let Some(hp) = world.get::<HitPoints>(who).copied() else {
        return;
    };
    let rules = world
        .get_resource::<TacticalCombat>()
        .copied()
        .unwrap_or_else(TacticalCombat::off);
    let conditions = world.get::<Conditions>(who).cloned().unwrap_or_default();
    let was_dying = conditions.has(ConditionKind::Dying);
    let was_staggered = conditions.has(ConditionKind::Staggered);
    let mut now = hp.current - damage;
    set_hit_points(world, who, now);
    let mythic = world.get::<Combatant>(who).is_some_and(|c| c.mythic);
    let mut staggered_now = false;
    if now > 0 && !mythic {
        if rules.massive_damage
            && tactical::massive_damage_applies(damage, hp.max)
            && !fortitude_save(world, who, 15, "massive damage")
        {
            gain(world, who, ConditionKind::Dead, "massive damage");
            return;
        }
        if rules.massive_trauma
            && tactical::massive_trauma_applies(damage, hp.max)
            && !fortitude_save(world, who, 10, "massive trauma")
        {
            now = 0;
            set_hit_points(world, who, 0);
            gain(world, who, ConditionKind::Staggered, "massive trauma");
            staggered_now = true;
        }
    }
    if rules.bloodied && damage > 0 && tactical::is_bloodied(now, hp.max) {
        gain(
            world,
            who,
            ConditionKind::Bloodied,
            "below half its hit points",
        );
    }
    if now > 0 || staggered_now || damage <= 0 {
        return;
    }
    if was_dying {
        gain(world, who, ConditionKind::Dead, "wounded while dying");
        return;
    }
    if was_staggered {
        lose_condition_in(
            world,
            who,
            ConditionKind::Staggered,
            "wounded while staggered",
        );
    }
    falls_dying(world, who, "0 hit points");
}

/// Dungeon Delves › Hit Points: at 0 or fewer a creature is dying — down, prone, stopped in
/// whatever it was doing. `why` is the source the log gives.
pub(crate) fn falls_dying(world: &mut World, who: Entity, why: &str) {
    gain(world, who, ConditionKind::Dying, why);
    gain(world, who, ConditionKind::Prone, "dying");
    world.entity_mut(who).remove::<Walking>().remove::<Task>();
}

fn set_hit_points(world: &mut World, who: Entity, current: i32) {
    if let Some(mut h) = world.get_mut::<HitPoints>(who) {
        h.current = current;
    }
}

/// Death that no hit points measure (drowning when the breath runs out): dead, by the same path
/// as a killing blow.
pub(crate) fn killed(world: &mut World, who: Entity, cause: &str) {
    gain(world, who, ConditionKind::Dead, cause);
}

fn gain(world: &mut World, who: Entity, kind: ConditionKind, source: &str) {
    gain_condition_in(world, who, kind, source, ConditionEnd::UntilRemoved);
}

/// A Fortitude save (Tactical Combat › Massive Trauma): d20 + Fortitude bonus (the tactical
/// Constitution modifier when the stat block gives none) against a DC; a saving throw like any
/// other (RULINGS › Dice and throws), under the tactical switches in force.
fn fortitude_save(world: &mut World, who: Entity, dc: i32, what: &str) -> bool {
    let bonus = world
        .get::<Combatant>(who)
        .and_then(|c| c.fortitude)
        .unwrap_or_else(|| {
            crate::rules::abilities::tactical_modifier(
                world.get::<Abilities>(who).map_or(10, |a| a.0.con),
            )
        });
    let mods = vec![Modifier::new(bonus, "Fortitude")];
    let what = format!("Fortitude save against {what}");
    throw_in(
        world,
        who,
        ThrowKind::Save,
        Skill::Fortitude,
        what,
        mods,
        dc,
    )
    .success
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dungeon Delves › Climbing: 1d6 per 10' fallen; RULINGS › Pits and holes: at most 20d6.
    #[test]
    fn falls_deal_a_d6_per_ten_feet_at_most_20d6() {
        assert_eq!(falling_damage(20).count, 2);
        assert_eq!(falling_damage(45).count, 4);
        assert_eq!(falling_damage(200).count, 20);
        assert_eq!(falling_damage(1000).count, 20);
        assert_eq!(falling_damage(u32::MAX).count, 20);
    }
}
