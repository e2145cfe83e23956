//! Climbing (Dungeon Delves › Climbing), out of a pit or chasm today: a creature at the bottom of
//! one ([`Below`]) can leave it only by climbing its wall onto a square beside it.
//!
//! - Easy surfaces (a rope secured from above): a Climbing throw of 8+ by Adventuring, or the
//!   class value of one proficient in Climbing or Mountaineering, whichever is better. Sheer
//!   surfaces (a pit's own walls): the class value only.
//! - One throw per 100' climbed, at the middle of each 100' (so at least one, at the midpoint).
//! - A climber moves a third of its combat speed a round; one proficient in Climbing may take −5
//!   for half its combat speed or −10 for all of it.
//! - Failing on an easy surface: no progress that round. Failing on a sheer one, or on a natural
//!   1 on an easy one: a fall from the point of the throw, 1d6 bludgeoning per 10'. One
//!   proficient in both Climbing and Mountaineering, with mountaineering gear, at a third of its
//!   combat speed, never falls from an easy surface, and from a sheer one only on a natural 1.
//! - Climbing a sheer surface, it is vulnerable.

use crate::creature::ActingOrder;
use crate::rules::movement::Walking;
use crate::rules::penalties::CheckKind;
use crate::rules::sound::NoisyAction;
use crate::rules::throws::Skill;
use crate::rules::traps::Trap;
use delve_ground::dice::Dice;
use delve_ground::level::Climbs;
use delve_ground::level::schema::JudgeModifier;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::events::CavingEvent;
use super::refusals::CavingRefusal;
use crate::act::Refusal;
use crate::creature::{
    ConditionEnd, Conditions, Encumbrance, Equipment, Faction, Position, Proficiencies,
};
use crate::rules::conditions::{gain_condition_in, lose_condition_in};
use crate::rules::movement::{Pace, Speeds};
use crate::rules::throws::ThrowKind;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, Gear, Proficiency};
use delve_ground::log::log_in;

/// The Adventuring target for easy climbs.
pub const ADVENTURING_CLIMB: i32 = 8;
/// Feet climbed per Climbing throw.
pub const FEET_PER_THROW: u32 = 100;

use delve_ground::level::schema::Surface;

/// How fast a climber goes: a third of its combat speed, or (proficient in Climbing) half at −5
/// or all of it at −10.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClimbPace {
    #[default]
    Third,
    Half,
    Full,
}

impl ClimbPace {
    /// The share of combat speed it moves.
    pub(super) fn share(self) -> f32 {
        match self {
            ClimbPace::Third => 1.0 / 3.0,
            ClimbPace::Half => 0.5,
            ClimbPace::Full => 1.0,
        }
    }

    /// The walking pace whose noise it makes (RULINGS › Sound): a third of combat speed is
    /// exploration speed (Dungeon Delves › Climbing: "at his exploration speed or, if action
    /// is being tracked in rounds, one-third his combat speed"), quiet; faster, combat speed.
    pub(crate) fn noise(self) -> Pace {
        match self {
            ClimbPace::Third => Pace::Exploration,
            ClimbPace::Half | ClimbPace::Full => Pace::Combat,
        }
    }

    fn penalty(self) -> Option<Modifier> {
        match self {
            ClimbPace::Third => None,
            ClimbPace::Half => Some(Modifier::new(-5, "climbing at half combat speed")),
            ClimbPace::Full => Some(Modifier::new(-10, "climbing at full combat speed")),
        }
    }
}

use crate::creature::Below;

mod ropes;
pub use ropes::{LooseHooks, RopesSecured, SecuredRope, rope_in};

mod belaying;
pub use belaying::Belaying;
pub(in crate::rules::caving) use belaying::{Belayed, hold_the_fall};
pub(crate) use belaying::{belay, could_belay, on_the_rope};
use belaying::{belayed_fall, hole_of};
pub(crate) use ropes::{
    grappling_range_penalty, lower_rope, rope_reaching, take_up_rope, throw_grappling_hook,
};

/// Spends the shortest rope of at least `feet` (and, with `hook`, a grappling hook) from the
/// creature's gear; the rope's length.
pub(super) fn spend_rope(world: &mut World, who: Entity, feet: u32, hook: bool) -> u32 {
    let Some(mut gear) = world.get_mut::<Equipment>(who) else {
        return feet;
    };
    if hook {
        gear.take(&Gear::GrapplingHook);
    }
    gear.take_rope(feet).unwrap_or(feet)
}

/// The situational penalties of a grappling hook's throw, as of every ranged attack throw: those
/// for having moved (RULINGS › Movement penalties), prone and water, and how well the thrower
/// sees the counterweight's square (poor vision, blindness, fog).
pub(super) fn hook_penalties(world: &World, who: Entity, at: GridPos) -> Vec<Modifier> {
    let mut mods = crate::rules::penalties::penalties_for(world, who, CheckKind::RangedAttack)
        // Beyond twice its movement speed no missile is thrown at all; a hook is thrown standing (at
        // the bottom of a hole, or rigging), so that is only where a command meets a runner: it
        // takes the heaviest movement penalty instead.
        .unwrap_or_else(|_| crate::rules::penalties::check_penalties(world, who, None));
    let blinded = world
        .get::<Conditions>(who)
        .is_some_and(|c| c.has(ConditionKind::Blinded));
    mods.extend(crate::rules::penalties::sight_penalties(
        world, who, at, blinded,
    ));
    mods
}

/// A climb under way.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Climbing {
    /// The square it steps onto at the top.
    pub to: GridPos,
    pub height_feet: u32,
    /// Feet climbed so far.
    pub done_feet: f32,
    pub surface: Surface,
    pub pace: ClimbPace,
    /// The 100' stretches whose throw has been made.
    pub stretches_thrown: u32,
    /// Going down (into the hole at `to`) rather than up out of one.
    pub down: bool,
    /// Rappelling down a secured rope (Dungeon Delves › Rappelling): running speed, or combat
    /// speed after a failed throw (`slowed`).
    pub rappel: bool,
    pub slowed: bool,
}

impl Climbing {
    /// Where the next throw is made: the middle of the next 100' stretch; `None` when every
    /// stretch has had its throw.
    pub fn next_throw_at(&self) -> Option<f32> {
        next_throw_at(self.height_feet, self.stretches_thrown)
    }
}

/// Where the next throw of a climb or traverse `length` feet long comes, after `thrown`
/// stretches: the middle of the next 100'; `None` when every stretch has had its throw.
pub fn next_throw_at(length: u32, thrown: u32) -> Option<f32> {
    let start = thrown * FEET_PER_THROW;
    (start < length).then(|| {
        let stretch = (length - start).min(FEET_PER_THROW);
        start as f32 + stretch as f32 / 2.0
    })
}

/// The Climbing throw's target for this surface: Adventuring 8+ on easy ones; the class value
/// of Climbing or Mountaineering (the better) for the proficient.
pub fn climbing_target(profs: &Proficiencies, surface: Surface) -> Option<i32> {
    let class = [Proficiency::Climbing, Proficiency::Mountaineering]
        .into_iter()
        .filter(|&p| profs.has(p))
        .filter_map(|p| profs.throws.get(&p).copied())
        .min();
    match (surface, class) {
        (Surface::Easy, Some(t)) => Some(t.min(ADVENTURING_CLIMB)),
        (Surface::Easy, None) => Some(ADVENTURING_CLIMB),
        (Surface::Sheer, class) => class,
    }
}

/// A climber's proficiencies as its climbing throws see them, a supervising mountaineer's
/// counted (Dungeon Delves › Climbing: "whose climbing is supervised by an adventurer proficient
/// in Mountaineering", the target "based on the class level of the adventurer or of the
/// mountaineer assisting him"; › Rappelling, "or assisted by"; › Balancing Traverse, "or
/// mountaineer assisting him"): an ally up and within a step of it, proficient in
/// Mountaineering, lends its Mountaineering throw (the best of them, if better than its own).
/// What the climber itself is proficient in (Climbing for a faster pace, both for never falling)
/// stays its own.
pub fn supervised_proficiencies(world: &World, who: Entity) -> Proficiencies {
    let mut profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    if let Some((_, value)) = supervisor(world, who) {
        let own = profs.throws.get(&Proficiency::Mountaineering).copied();
        if !profs.has(Proficiency::Mountaineering) {
            profs.list.push(Proficiency::Mountaineering);
        }
        profs.throws.insert(
            Proficiency::Mountaineering,
            own.map_or(value, |o| o.min(value)),
        );
    }
    profs
}

/// The ally that supervises `who`'s climbing, and its Mountaineering throw: up, within a step of
/// it, proficient in Mountaineering; the best of them.
pub fn supervisor(world: &World, who: Entity) -> Option<(Entity, i32)> {
    let here = world.get::<Position>(who)?.0;
    let faction = *world.get::<Faction>(who)?;
    let mut q = world.try_query::<(Entity, &Position, &Faction, &Proficiencies, &Conditions)>()?;
    q.iter(world)
        .filter(|(e, p, f, m, c)| {
            *e != who
                && **f == faction
                && p.0.within_a_step(here)
                && m.has(Proficiency::Mountaineering)
                && !crate::rules::conditions::is_down(c)
        })
        .filter_map(|(e, .., m, _)| Some((e, *m.throws.get(&Proficiency::Mountaineering)?)))
        .min_by_key(|&(e, v)| (v, e))
}

/// Proficient in both Climbing and Mountaineering.
pub(super) fn double_proficient(world: &World, who: Entity) -> bool {
    world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Climbing) && p.has(Proficiency::Mountaineering))
}

/// Proficient in both Climbing and Mountaineering, with mountaineering gear: the sure climber.
pub fn sure_climber(world: &World, who: Entity) -> bool {
    world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Climbing) && p.has(Proficiency::Mountaineering))
        && world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has(&Gear::MountaineeringGear))
}

/// The depth of the hole at a square: a pit that has opened there, or a chasm.
pub fn hole_at(world: &World, at: GridPos) -> Option<u32> {
    use delve_ground::grid::Terrain;
    use delve_ground::level::schema::TrapKind;
    if let Some(Terrain::Chasm { depth_feet }) = world.resource::<DungeonGrid>().terrain(at) {
        return Some(depth_feet);
    }
    let mut q = world.try_query::<(&Position, &Trap)>()?;
    q.iter(world).find_map(|(p, t)| match t.kind {
        TrapKind::Pit { depth_feet } if p.0 == at && t.plain_sight => Some(depth_feet),
        _ => None,
    })
}

/// The side of the hole at `at`: easy with a rope hanging in it, else as the level describes it
/// (sheer where it says nothing).
pub fn side_of(world: &World, at: GridPos) -> Surface {
    if rope_in(world, at) {
        Surface::Easy
    } else {
        world
            .get_resource::<Climbs>()
            .map_or(Surface::Sheer, |c| c.at(at).surface)
    }
}

/// Why a caver is vulnerable (the spelunking tables' last row), as its condition's source
/// says: each situation its own words.
pub(crate) const VULNERABLE_CLIMBING: &str = "climbing a sheer surface";
pub(crate) const VULNERABLE_RAPPELLING: &str = "rappelling";
pub(crate) const VULNERABLE_ON_A_LEDGE: &str = "traversing a ledge";
pub(crate) const VULNERABLE_ON_A_ROPE: &str = "crawling along a rope";

/// Starts a climb: off any walk, vulnerable on a sheer surface or a rappel, and logged.
pub(super) fn start_climbing(world: &mut World, who: Entity, c: Climbing) {
    world.entity_mut(who).remove::<Walking>().insert(c);
    if c.surface == Surface::Sheer || c.rappel {
        gain_condition_in(
            world,
            who,
            ConditionKind::Vulnerable,
            if c.rappel {
                VULNERABLE_RAPPELLING
            } else {
                VULNERABLE_CLIMBING
            },
            ConditionEnd::UntilRemoved,
        );
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::ClimbBegun {
            who: name,
            to: c.to,
            height_feet: c.height_feet,
            surface: c.surface,
            down: c.down,
        },
    );
}

/// `Climb`: from the bottom of a pit, up its wall onto the square `to` beside it.
pub fn climb(world: &mut World, who: Entity, to: GridPos, pace: ClimbPace) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    let below = world
        .get::<Below>(who)
        .copied()
        .ok_or(CavingRefusal::NothingToClimb)?;
    if !here.is_adjacent(to) || !world.resource::<DungeonGrid>().is_passable(to) {
        return Err(CavingRefusal::NoWayUp { to }.into());
    }
    let surface = side_of(world, here);
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    if climbing_target(&supervised_proficiencies(world, who), surface).is_none() {
        return Err(CavingRefusal::SheerNeedsClimbing.into());
    }
    if pace != ClimbPace::Third && !profs.has(Proficiency::Climbing) {
        return Err(CavingRefusal::FasterNeedsClimbing.into());
    }
    start_climbing(
        world,
        who,
        Climbing {
            to,
            height_feet: below.depth_feet,
            done_feet: 0.0,
            surface,
            pace,
            stretches_thrown: 0,
            down: false,
            rappel: false,
            slowed: false,
        },
    );
    Ok(())
}

/// `ClimbDown`: from beside a pit or chasm square, down its side to the bottom; or, with
/// `rappel`, down the rope secured there (Dungeon Delves › Rappelling: for those proficient in
/// Climbing or Mountaineering; a throw per 100', running speed on a success, combat speed on a
/// failure, a fall on a natural 1 unless proficient in both).
pub(crate) fn climb_down(
    world: &mut World,
    who: Entity,
    into: GridPos,
    rappel: bool,
    pace: ClimbPace,
) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    if world.get::<Below>(who).is_some() {
        return Err(CavingRefusal::AlreadyBelow.into());
    }
    if !here.is_adjacent(into) {
        return Err(CavingRefusal::NotBesideThePit { at: into }.into());
    }
    let depth = hole_at(world, into).ok_or(CavingRefusal::NoOpenPit { at: into })?;
    let rope = rope_in(world, into);
    let surface = side_of(world, into);
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    let supervised = supervised_proficiencies(world, who);
    if rappel {
        if !rope {
            return Err(CavingRefusal::NoRopeToRappel { at: into }.into());
        }
        if !(supervised.has(Proficiency::Climbing) || supervised.has(Proficiency::Mountaineering)) {
            return Err(CavingRefusal::RappellingNeedsClimbing.into());
        }
    } else if climbing_target(&supervised, surface).is_none() {
        return Err(CavingRefusal::SheerNeedsClimbing.into());
    }
    if pace != ClimbPace::Third && !profs.has(Proficiency::Climbing) {
        return Err(CavingRefusal::FasterNeedsClimbing.into());
    }
    start_climbing(
        world,
        who,
        Climbing {
            to: into,
            height_feet: depth,
            done_feet: 0.0,
            surface,
            pace,
            stretches_thrown: 0,
            down: true,
            rappel,
            slowed: false,
        },
    );
    Ok(())
}

/// A fall of `feet`: 1d6 bludgeoning per 10' through the one damage path (RULINGS › Conditions
/// …), and the noise of it.
pub fn fall(world: &mut World, who: Entity, feet: u32) {
    let dice = crate::rules::damage::falling_damage(feet);
    let roll = world.resource_mut::<Dice>().roll_expr(&dice);
    let damage = roll.total.max(0);
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::Fell {
            who: name,
            feet,
            dice: roll.dice,
            damage,
        },
    );
    let _ = crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::AFall);
    crate::rules::damage::take_damage(world, who, damage);
}

/// Each round (in the climber's initiative): climbers climb, throwing at the middle of each
/// 100' stretch they reach.
pub(crate) fn climbers_climb(
    world: &mut World,
    q: &mut QueryState<(Entity, &Climbing, &Conditions, Option<&Faction>)>,
) {
    for (who, c) in super::footing::acting_now(world, q) {
        climb_a_round(world, who, c);
    }
}

/// Feet a round `who` climbs (or traverses) at this pace, its conditions counted. Dungeon
/// Delves › Climbing, › Balancing Traverse: "at his exploration speed or, if action is being
/// tracked in rounds, one-third his combat speed" — a tenth of its exploration speed a round
/// outside a battle, a third of its combat speed when its faction is in one; the proficient's
/// half and full paces are shares of its combat speed.
pub fn climbing_feet_per_round(world: &World, who: Entity, pace: ClimbPace) -> f32 {
    let tracked_in_rounds = world
        .get::<Faction>(who)
        .is_some_and(|f| world.resource::<ActingOrder>().fighting(*f));
    match pace {
        ClimbPace::Third if !tracked_in_rounds => {
            rate(world, who, Pace::Exploration) / delve_ground::time::ROUNDS_PER_TURN as f32
        }
        _ => rate(world, who, Pace::Combat) * pace.share(),
    }
}

/// Feet a round at `pace` for `who`, its conditions counted (0 if it cannot move).
pub(super) fn rate(world: &World, who: Entity, pace: Pace) -> f32 {
    let conditions = world.get::<Conditions>(who).cloned().unwrap_or_default();
    world
        .get::<Encumbrance>(who)
        .and_then(|e| Speeds::of(e.0, &conditions))
        .map_or(0.0, |s| s.rated(pace))
}

/// The Judge's weather, wind or surface for a Climbing throw at `at` (the level's, the region's,
/// or the climber's own setting): Dungeon Delves › Rappelling, "the Judge can impose other
/// modifiers to the mechanics above to reflect weather conditions, wind, and other
/// circumstances".
pub(super) fn climbing_conditions(
    world: &World,
    who: Entity,
    at: Option<GridPos>,
) -> Option<Modifier> {
    crate::rules::calls::judge_modifier(world, JudgeModifier::ClimbingConditions, at, &[who])
}

fn climb_a_round(world: &mut World, who: Entity, mut c: Climbing) {
    let rate = |pace| rate(world, who, pace);
    let this_round = if c.rappel {
        rate(if c.slowed {
            Pace::Combat
        } else {
            Pace::Running
        })
    } else {
        climbing_feet_per_round(world, who, c.pace)
    };
    let reach = c.done_feet + this_round;
    if let Some(mark) = c.next_throw_at().filter(|&m| reach >= m) {
        let profs = supervised_proficiencies(world, who);
        // Rappelling is by the class value; climbing by the surface's table.
        let target = if c.rappel {
            climbing_target(&profs, Surface::Sheer)
        } else {
            climbing_target(&profs, c.surface)
        };
        let Some(target) = target else {
            return;
        };
        // Dungeon Delves › Climbing: it falls from the point of the throw: going up, that
        // height; going down, what is left below it.
        let fall_feet = if c.down {
            c.height_feet.saturating_sub(mark as u32)
        } else {
            mark as u32
        };
        let mut mods: Vec<Modifier> = c.pace.penalty().into_iter().collect();
        mods.extend(crate::rules::penalties::check_penalties(world, who, None));
        mods.extend(climbing_conditions(world, who, hole_of(world, who, &c)));
        let throw = crate::rules::throws::throw_in(
            world,
            who,
            ThrowKind::Check,
            Skill::Proficiency(delve_ground::level::schema::Proficiency::Climbing),
            "Climbing",
            mods,
            target,
        );
        let sure = sure_climber(world, who) && c.pace == ClimbPace::Third;
        // A hook that only seemed to catch slips at the first failed throw on its rope.
        let here = world.get::<Position>(who).map(|p| p.0);
        let slips = !throw.success
            && here.is_some_and(|at| {
                world
                    .get_resource::<LooseHooks>()
                    .is_some_and(|l| l.0.contains(&at))
            });
        if slips && let Some(at) = here {
            world.resource_mut::<LooseHooks>().0.retain(|p| *p != at);
            // The rope and its hook come down with the climber.
            let rope = world.resource::<RopesSecured>().at(at).copied();
            world
                .resource_mut::<RopesSecured>()
                .0
                .retain(|r| r.at != at);
            if let Some(rope) = rope
                && let Some(mut gear) = world.get_mut::<Equipment>(who)
            {
                gear.0.push(Gear::Rope(rope.feet));
                gear.0.push(Gear::GrapplingHook);
            }
            let name = crate::creature::name_of(world, who);
            log_in(world, CavingEvent::HookSlipped { who: name, at });
            fall_off(world, who, &c, fall_feet);
            return;
        }
        // Dungeon Delves › Rappelling: "an adventurer proficient in both Climbing and
        // Mountaineering never falls" — its own proficiencies: a supervisor lends its throw,
        // not its sureness.
        let both = double_proficient(world, who);
        let falls = match (c.rappel, c.surface, throw.success, throw.natural == 1) {
            (true, _, false, botch) => botch && !both,
            (_, _, true, _) => false,
            (false, Surface::Easy, false, botch) => botch && !sure,
            (false, Surface::Sheer, false, botch) => botch || !sure,
        };
        if falls {
            fall_off(world, who, &c, fall_feet);
            return;
        }
        if c.rappel {
            // A failed throw only slows the rappel to combat speed for this stretch.
            c.slowed = !throw.success;
        } else if !throw.success {
            let name = crate::creature::name_of(world, who);
            log_in(world, CavingEvent::NoProgress { who: name });
            return;
        }
        c.stretches_thrown += 1;
    }
    let before = c.done_feet;
    c.done_feet = reach.min(c.height_feet as f32);
    // RULINGS › Rest: climbing is movement, with its noise, though the square stays the same;
    // RULINGS › Sound: at exploration speed (a third of combat speed) quiet, faster normal, a
    // rappel at running speed loud.
    let pace = if c.rappel {
        if c.slowed {
            Pace::Combat
        } else {
            Pace::Running
        }
    } else {
        c.pace.noise()
    };
    let climbed = (c.done_feet.round() - before.round()).max(0.0) as u32;
    crate::rules::movement::moved_by_other_means(world, who, climbed, pace);
    if c.done_feet < c.height_feet as f32 {
        world.entity_mut(who).insert(c);
        return;
    }
    world.entity_mut(who).remove::<(Climbing, Below)>();
    stop_being_vulnerable(world, who);
    if let Some(mut p) = world.get_mut::<Position>(who) {
        p.0 = c.to;
    }
    let name = crate::creature::name_of(world, who);
    if c.down {
        world.entity_mut(who).insert(Below {
            depth_feet: c.height_feet,
        });
        log_in(
            world,
            CavingEvent::ClimbedDown {
                who: name,
                at: c.to,
            },
        );
    } else {
        log_in(
            world,
            CavingEvent::ClimbedOut {
                who: name,
                at: c.to,
            },
        );
    }
}

/// A climber falls off from `feet` above the bottom of the hole. A belayer may break the
/// fall, or let it drop only the length of the rope; else it falls to the bottom (it is there,
/// whichever way it went).
fn fall_off(world: &mut World, who: Entity, c: &Climbing, feet: u32) {
    let feet = match belayed_fall(world, who, c) {
        Belayed::Caught => return,
        Belayed::Dropped { rope_feet } if rope_feet < feet => {
            // It falls the length of the rope and hangs on the wall at its end.
            let hanging = (feet - rope_feet) as f32;
            let mut c = *c;
            c.done_feet = if c.down {
                c.height_feet as f32 - hanging
            } else {
                hanging
            };
            world.entity_mut(who).insert(c);
            fall(world, who, rope_feet);
            return;
        }
        _ => feet,
    };
    world.entity_mut(who).remove::<Climbing>();
    stop_being_vulnerable(world, who);
    if c.down {
        if let Some(mut p) = world.get_mut::<Position>(who) {
            p.0 = c.to;
        }
        world.entity_mut(who).insert(Below {
            depth_feet: c.height_feet,
        });
    }
    fall(world, who, feet);
}

pub(super) fn stop_being_vulnerable(world: &mut World, who: Entity) {
    if world
        .get::<Conditions>(who)
        .and_then(|c| c.get(ConditionKind::Vulnerable))
        .is_some_and(|v| {
            [
                VULNERABLE_CLIMBING,
                VULNERABLE_RAPPELLING,
                VULNERABLE_ON_A_LEDGE,
                VULNERABLE_ON_A_ROPE,
            ]
            .contains(&v.source.as_str())
        })
    {
        lose_condition_in(world, who, ConditionKind::Vulnerable, "off the wall");
    }
}

#[cfg(test)]
mod tests;
