//! Belaying: a climber on a rope held by one at the rim, and what a fall comes to then (Dungeon Delves › Climbing).

use crate::creature::Abilities;
use crate::rules::throws::Skill;

use super::{CavingEvent, CavingRefusal};
use crate::act::Refusal;
use crate::creature::{Conditions, Encumbrance, Equipment, Position, Proficiencies};
use crate::rules::throws::ThrowKind;
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::Proficiency;
use delve_ground::log::log_in;

use super::{
    ADVENTURING_CLIMB, Below, Climbing, Surface, climbing_target, fall, fall_off, hole_at,
    rope_reaching,
};

/// A creature holding a rope ready to break a climber's fall (Dungeon Delves › Belaying):
/// standing beside the hole, or itself on the climb above the climber.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belaying {
    pub climber: Entity,
    /// The rope paid out: it reaches the climber only this far.
    pub rope_feet: u32,
}

/// The hole a climb goes into or out of.
pub(super) fn hole_of(world: &World, who: Entity, c: &Climbing) -> Option<GridPos> {
    if c.down {
        Some(c.to)
    } else {
        world.get::<Position>(who).map(|p| p.0)
    }
}

/// Whether anyone is climbing in or out of the hole at `at`.
pub(crate) fn on_the_rope(world: &World, at: GridPos) -> bool {
    world
        .try_query::<(Entity, &Climbing)>()
        .is_some_and(|mut q| q.iter(world).any(|(e, c)| hole_of(world, e, c) == Some(at)))
}

/// Whether `who` could belay `climber` on its climb `c` now: beside its hole or above it on the
/// same climb, with a rope that reaches.
pub(crate) fn could_belay(world: &World, who: Entity, climber: Entity, c: &Climbing) -> bool {
    let Some(hole) = hole_of(world, climber, c) else {
        return false;
    };
    belaying_reach(world, who, hole, height_on(c)).is_some_and(|reach| {
        world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has_rope(reach))
    })
}

/// How high above the bottom of its hole a climber is, in feet.
pub(super) fn height_on(c: &Climbing) -> f32 {
    if c.down {
        c.height_feet as f32 - c.done_feet
    } else {
        c.done_feet
    }
}

/// The rope `who` needs to belay a climber `height` feet above the bottom of the hole at `hole`:
/// standing beside the hole at the top (level with or above the climber), or higher on the same
/// climb (strictly above, so a chain of belayers only ever runs up the rope); `None` if it is
/// neither.
pub(super) fn belaying_reach(
    world: &World,
    who: Entity,
    hole: GridPos,
    height: f32,
) -> Option<u32> {
    let above = if let Some(c) = world.get::<Climbing>(who) {
        let own = height_on(c);
        (hole_of(world, who, c) == Some(hole) && own > height).then_some(own)
    } else {
        let here = world.get::<Position>(who)?.0;
        let beside = here.is_adjacent(hole);
        let top = hole_at(world, hole).unwrap_or(0) as f32;
        (world.get::<Below>(who).is_none() && beside && top >= height).then_some(top)
    }?;
    Some((above - height).ceil() as u32)
}

/// `Belay`: from beside the hole a climber is on, or from higher on the same climb, with a
/// rope that reaches it, it stands ready to break the climber's fall.
pub(crate) fn belay(world: &mut World, who: Entity, climber: Entity) -> Result<(), Refusal> {
    crate::act::square_of(world, who)?;
    if world.get::<Below>(who).is_some() {
        return Err(CavingRefusal::BelayFromAbove.into());
    }
    let c = world
        .get::<Climbing>(climber)
        .copied()
        .ok_or(CavingRefusal::NotClimbing)?;
    let hole = hole_of(world, climber, &c).ok_or(CavingRefusal::NotClimbing)?;
    let reach = belaying_reach(world, who, hole, height_on(&c)).ok_or(
        if world.get::<Climbing>(who).is_some() {
            CavingRefusal::BelayFromAbove
        } else {
            CavingRefusal::NotBesideThePit { at: hole }
        },
    )?;
    rope_reaching(world, who, reach)?;
    let rope_feet = world
        .get::<Equipment>(who)
        .and_then(|g| g.longest_rope())
        .unwrap_or(reach);
    world
        .entity_mut(who)
        .insert(Belaying { climber, rope_feet });
    Ok(())
}

/// What a belayer did for a falling climber.
pub(in crate::rules::caving) enum Belayed {
    /// No one was belaying it (or no rope reached it).
    Alone,
    /// The fall was broken, unhurt.
    Caught,
    /// The belayer could not slow it: it falls the length of the rope.
    Dropped { rope_feet: u32 },
}

/// Dungeon Delves › Belaying: a climber who falls with a belayer ready: the belayer's
/// Dungeonbashing 18+ (Strength ×4), the climber's encumbrance a penalty unless the belayer is
/// proficient in Climbing and Mountaineering. Caught, the climber hangs unhurt where it was;
/// failing, it falls the length of the rope; failing on a 1 or by 14 or more, the belayer makes
/// a Climbing throw for the climb's surface (on a sheer one its class value), "applying the
/// falling climber's encumbrance as a penalty" always, or falls too — and a belayer on the climb
/// is itself caught, or not, by whoever belays it, and so on up the rope.
pub(super) fn belayed_fall(world: &mut World, climber: Entity, c: &Climbing) -> Belayed {
    let Some(hole) = hole_of(world, climber, c) else {
        return Belayed::Alone;
    };
    let height = height_on(c);
    let mut q = world.query::<(Entity, &Belaying, &Conditions)>();
    let ready: Vec<(Entity, u32)> = q
        .iter(world)
        .filter(|(_, b, cond)| b.climber == climber && !crate::rules::conditions::is_down(cond))
        .map(|(e, b, _)| (e, b.rope_feet))
        .collect();
    let belayer = ready.into_iter().filter(|&(e, rope)| {
        belaying_reach(world, e, hole, height).is_some_and(|reach| reach <= rope)
    });
    let Some((belayer, rope_feet)) = belayer.min_by_key(|(e, _)| *e) else {
        return Belayed::Alone;
    };
    let profs = world
        .get::<Proficiencies>(belayer)
        .cloned()
        .unwrap_or_default();
    let footing = climbing_target(&profs, c.surface)
        .or_else(|| climbing_target(&profs, Surface::Easy))
        .unwrap_or(ADVENTURING_CLIMB);
    let held = hold_the_fall(world, belayer, climber, rope_feet, footing);
    if held.pulled_off {
        world.entity_mut(belayer).remove::<Belaying>();
        pulled_off(world, belayer, hole);
    }
    held.belayed
}

/// What the belayer's throws came to: the climber caught or dropped, and whether the belayer
/// lost its own footing.
pub(in crate::rules::caving) struct Held {
    pub belayed: Belayed,
    pub pulled_off: bool,
}

/// Dungeon Delves › Belaying, the belayer's throws, whatever the obstacle: Dungeonbashing 18+
/// (Strength ×4), the climber's encumbrance a penalty unless the belayer is proficient in both
/// Climbing and Mountaineering; failing on a 1 or by 14 or more, a Climbing throw of `footing`
/// "applying the falling climber's encumbrance as a penalty", failing which it is pulled off.
pub(in crate::rules::caving) fn hold_the_fall(
    world: &mut World,
    belayer: Entity,
    climber: Entity,
    rope_feet: u32,
    footing: i32,
) -> Held {
    let stone = crate::rules::throws::stone_of(world.get::<Encumbrance>(climber));
    let profs = world
        .get::<Proficiencies>(belayer)
        .cloned()
        .unwrap_or_default();
    let both = profs.has(Proficiency::Climbing) && profs.has(Proficiency::Mountaineering);
    let str_score = world.get::<Abilities>(belayer).map_or(10, |a| a.0.str);
    let mut mods = crate::rules::doors::bashing_modifiers(str_score, None, false, 0, 0);
    let weight = (stone > 0.0).then(|| {
        Modifier::new(
            -crate::rules::throws::stone_target(stone),
            format!("the climber's {stone} stone"),
        )
    });
    mods.extend(weight.clone().filter(|_| !both));
    mods.extend(crate::rules::penalties::check_penalties(
        world, belayer, None,
    ));
    let throw = crate::rules::throws::throw_in(
        world,
        belayer,
        ThrowKind::Check,
        Skill::Dungeonbashing,
        "Dungeonbashing to belay a falling climber",
        mods,
        18,
    );
    let (belayer_name, climber_name) = (
        crate::creature::name_of(world, belayer),
        crate::creature::name_of(world, climber),
    );
    log_in(
        world,
        CavingEvent::Belayed {
            who: belayer_name,
            climber: climber_name,
            caught: throw.success,
        },
    );
    if throw.success {
        return Held {
            belayed: Belayed::Caught,
            pulled_off: false,
        };
    }
    let mut pulled_off = false;
    if throw.natural == 1 || throw.target - throw.total >= 14 {
        let mut mods: Vec<Modifier> = weight.into_iter().collect();
        mods.extend(crate::rules::penalties::check_penalties(
            world, belayer, None,
        ));
        pulled_off = !crate::rules::throws::throw_in(
            world,
            belayer,
            ThrowKind::Check,
            Skill::Proficiency(delve_ground::level::schema::Proficiency::Climbing),
            "Climbing to keep its footing",
            mods,
            footing,
        )
        .success;
    }
    Held {
        belayed: Belayed::Dropped { rope_feet },
        pulled_off,
    }
}

/// A belayer pulled off its footing: from the climb, it falls off it (and its own belayer may
/// catch it); from the top, it falls into the hole.
pub(super) fn pulled_off(world: &mut World, belayer: Entity, hole: GridPos) {
    if let Some(c) = world.get::<Climbing>(belayer).copied() {
        fall_off(world, belayer, &c, height_on(&c).round() as u32);
        return;
    }
    let depth = hole_at(world, hole).unwrap_or(0);
    if let Some(mut p) = world.get_mut::<Position>(belayer) {
        p.0 = hole;
    }
    world
        .entity_mut(belayer)
        .insert(Below { depth_feet: depth });
    fall(world, belayer, depth);
}
