//! Ropes: secured at a hole's rim, lowered, taken up, and the grappling hook thrown to secure one (Dungeon Delves › Climbing).

use crate::creature::Combatant;
use crate::rules::throws::Skill;
use delve_ground::level::Climbs;

use super::{CavingEvent, CavingRefusal};
use crate::act::Refusal;
use crate::creature::Equipment;
use crate::rules::throws::ThrowKind;
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::Gear;
use delve_ground::log::log_in;
use serde::{Deserialize, Serialize};

use super::{Below, Climbing, hole_at, hook_penalties, on_the_rope, spend_rope};

/// A rope secured above a pit or chasm square and hanging into it: lowered from beside it, or
/// caught by a grappling hook thrown from below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecuredRope {
    pub at: GridPos,
    pub feet: u32,
    /// Hung by a grappling hook, which comes back up with it.
    pub hook: bool,
}

/// The ropes hanging into pits and chasms: their walls are easy climbs.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RopesSecured(pub Vec<SecuredRope>);

impl RopesSecured {
    pub fn at(&self, at: GridPos) -> Option<&SecuredRope> {
        self.0.iter().find(|r| r.at == at)
    }
}

/// The rope a command needs, at least `feet` long: `NoRope` without one, `RopeTooShort` when
/// the longest does not reach.
pub(crate) fn rope_reaching(world: &World, who: Entity, feet: u32) -> Result<(), CavingRefusal> {
    match world.get::<Equipment>(who).and_then(|g| g.longest_rope()) {
        None => Err(CavingRefusal::NoRope),
        Some(longest) if longest < feet => Err(CavingRefusal::RopeTooShort {
            needs: feet,
            longest,
        }),
        Some(_) => Ok(()),
    }
}

/// Grappling hooks that only seem to hold (a natural 1): each slips loose the first time anyone
/// fails a Climbing throw on its rope. The Judge's secret.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct LooseHooks(pub Vec<GridPos>);

/// The attack penalty for throwing a grappling hook this far (Dungeon Delves › Climbing): −2 at
/// 11'–30', −5 at 31'–50', −10 at 51'–100'; beyond 100' it cannot reach.
pub(crate) fn grappling_range_penalty(feet: u32) -> Option<i32> {
    match feet {
        0..=10 => Some(0),
        11..=30 => Some(-2),
        31..=50 => Some(-5),
        51..=100 => Some(-10),
        _ => None,
    }
}

/// `ThrowGrapplingHook`: from the bottom of a pit or chasm, a creature with a grappling hook and
/// rope throws for the anchor above (an attack throw against its AC, the delve scale + 10, with
/// the range penalty for the depth). Caught, the rope makes the wall an easy climb; on a natural
/// 1 it only seems to catch, and slips at the first failed Climbing throw.
pub(crate) fn throw_grappling_hook(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    let below = world
        .get::<Below>(who)
        .copied()
        .ok_or(CavingRefusal::NothingToClimb)?;
    let gear = world.get::<Equipment>(who);
    if !gear.is_some_and(|g| g.has(&Gear::GrapplingHook) && g.longest_rope().is_some()) {
        return Err(CavingRefusal::NoGrapplingHook.into());
    }
    rope_reaching(world, who, below.depth_feet)?;
    let anchor = world
        .get_resource::<Climbs>()
        .and_then(|c| c.at(here).anchor_ac)
        .ok_or(CavingRefusal::NoAnchor)?;
    let penalty =
        grappling_range_penalty(below.depth_feet).ok_or(CavingRefusal::OutOfHookRange {
            feet: below.depth_feet,
        })?;
    let attack_bonus = world.get::<Combatant>(who).map_or(0, |c| c.attack_bonus);
    let mut mods = vec![Modifier::new(attack_bonus, "attack bonus")];
    if penalty != 0 {
        mods.push(Modifier::new(
            penalty,
            format!("anchor {}' away", below.depth_feet),
        ));
    }
    mods.extend(hook_penalties(world, who, here));
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Attack { ranged: true },
        Skill::Attack,
        "grappling hook at the anchor",
        mods,
        anchor + 10,
    );
    let seems_to_catch = throw.natural == 1;
    let caught = throw.success || seems_to_catch;
    if caught {
        let feet = spend_rope(world, who, below.depth_feet, true);
        world
            .get_resource_or_init::<RopesSecured>()
            .0
            .push(SecuredRope {
                at: here,
                feet,
                hook: true,
            });
        if seems_to_catch {
            world.get_resource_or_init::<LooseHooks>().0.push(here);
        }
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::HookThrown {
            who: name,
            at: here,
            caught,
        },
    );
    Ok(())
}

/// Whether a rope hangs into the pit or chasm at `at`.
pub fn rope_in(world: &World, at: GridPos) -> bool {
    world
        .get_resource::<RopesSecured>()
        .is_some_and(|r| r.at(at).is_some())
}

/// `LowerRope`: from beside an open pit, a creature with a rope that reaches the bottom secures
/// it above and lets it down: the pit's wall becomes an easy climb (one round). The rope stays
/// there until someone takes it up.
pub(crate) fn lower_rope(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    if world.get::<Below>(who).is_some() {
        return Err(CavingRefusal::RopeFromAbove.into());
    }
    if !here.is_adjacent(at) {
        return Err(CavingRefusal::NotBesideThePit { at }.into());
    }
    let depth = hole_at(world, at).ok_or(CavingRefusal::NoOpenPit { at })?;
    if rope_in(world, at) {
        return Err(CavingRefusal::RopeHangsThere { at }.into());
    }
    rope_reaching(world, who, depth)?;
    let feet = spend_rope(world, who, depth, false);
    world
        .get_resource_or_init::<RopesSecured>()
        .0
        .push(SecuredRope {
            at,
            feet,
            hook: false,
        });
    let name = crate::creature::name_of(world, who);
    log_in(world, CavingEvent::RopeLowered { who: name, at });
    Ok(())
}

/// `TakeUpRope`: from beside a pit or chasm, hauls up the rope hanging into it (and the
/// grappling hook that held it) while no one is on it (one round).
pub(crate) fn take_up_rope(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    if world.get::<Below>(who).is_some() || world.get::<Climbing>(who).is_some() {
        return Err(CavingRefusal::RopeFromAbove.into());
    }
    if !here.is_adjacent(at) {
        return Err(CavingRefusal::NotBesideThePit { at }.into());
    }
    let rope = world
        .get_resource::<RopesSecured>()
        .and_then(|r| r.at(at).copied())
        .ok_or(CavingRefusal::NoRopeThere { at })?;
    if on_the_rope(world, at) {
        return Err(CavingRefusal::RopeInUse { at }.into());
    }
    world
        .resource_mut::<RopesSecured>()
        .0
        .retain(|r| r.at != at);
    if let Some(mut l) = world.get_resource_mut::<LooseHooks>() {
        l.0.retain(|p| *p != at);
    }
    if let Some(mut gear) = world.get_mut::<Equipment>(who) {
        gear.0.push(Gear::Rope(rope.feet));
        if rope.hook {
            gear.0.push(Gear::GrapplingHook);
        }
    }
    let name = crate::creature::name_of(world, who);
    log_in(world, CavingEvent::RopeTakenUp { who: name, at });
    Ok(())
}
