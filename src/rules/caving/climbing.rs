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

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{CavingEvent, CavingRefusal};
use crate::act::Refusal;
use crate::creature::{ConditionEnd, Encumbrance, Equipment, Faction, Position, Proficiencies};
use crate::dice::Modifier;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::schema::{ConditionKind, Gear, Proficiency};
use crate::log::log_in;
use crate::rules::conditions::{Conditions, gain_condition_in, lose_condition_in};
use crate::rules::movement::{Pace, Speeds};
use crate::rules::throws::ThrowKind;

/// The Adventuring target for easy climbs.
pub const ADVENTURING_CLIMB: i32 = 8;
/// Feet climbed per Climbing throw.
pub const FEET_PER_THROW: u32 = 100;

pub use crate::level::schema::Surface;

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

    fn penalty(self) -> Option<Modifier> {
        match self {
            ClimbPace::Third => None,
            ClimbPace::Half => Some(Modifier::new(-5, "climbing at half combat speed")),
            ClimbPace::Full => Some(Modifier::new(-10, "climbing at full combat speed")),
        }
    }
}

pub use crate::creature::Below;

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

/// The situational penalties of a grappling hook's throw, as of every ranged attack throw: those
/// for having moved (RULINGS › Movement penalties), prone and water, and how well the thrower
/// sees the counterweight's square (poor vision, blindness, fog).
pub(super) fn hook_penalties(world: &World, who: Entity, at: GridPos) -> Vec<Modifier> {
    let mut mods = crate::rules::penalties::penalties_for(
        world,
        who,
        crate::rules::penalties::CheckKind::RangedAttack,
    )
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
        .get_resource::<crate::level::Climbs>()
        .and_then(|c| c.at(here).anchor_ac)
        .ok_or(CavingRefusal::NoAnchor)?;
    let penalty =
        grappling_range_penalty(below.depth_feet).ok_or(CavingRefusal::OutOfHookRange {
            feet: below.depth_feet,
        })?;
    let attack_bonus = world
        .get::<crate::creature::Combatant>(who)
        .map_or(0, |c| c.attack_bonus);
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
        crate::rules::throws::Skill::Attack,
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
pub(crate) fn next_throw_at(length: u32, thrown: u32) -> Option<f32> {
    let start = thrown * FEET_PER_THROW;
    (start < length).then(|| {
        let stretch = (length - start).min(FEET_PER_THROW);
        start as f32 + stretch as f32 / 2.0
    })
}

/// The Climbing throw's target for this surface: Adventuring 8+ on easy ones; the class value
/// of Climbing or Mountaineering (the better) for the proficient.
pub(crate) fn climbing_target(profs: &Proficiencies, surface: Surface) -> Option<i32> {
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
pub(crate) fn supervised_proficiencies(world: &World, who: Entity) -> Proficiencies {
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
pub(crate) fn supervisor(world: &World, who: Entity) -> Option<(Entity, i32)> {
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
pub(super) fn sure_climber(world: &World, who: Entity) -> bool {
    world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Climbing) && p.has(Proficiency::Mountaineering))
        && world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has(&Gear::MountaineeringGear))
}

/// The depth of the hole at a square: a pit that has opened there, or a chasm.
pub(crate) fn hole_at(world: &World, at: GridPos) -> Option<u32> {
    use crate::level::schema::{Terrain, TrapKind};
    if let Some(Terrain::Chasm { depth_feet }) = world.resource::<DungeonGrid>().terrain(at) {
        return Some(depth_feet);
    }
    let mut q = world.try_query::<(&Position, &crate::rules::traps::Trap)>()?;
    q.iter(world).find_map(|(p, t)| match t.kind {
        TrapKind::Pit { depth_feet } if p.0 == at && t.plain_sight => Some(depth_feet),
        _ => None,
    })
}

/// Whether a rope hangs into the pit or chasm at `at`.
pub fn rope_in(world: &World, at: GridPos) -> bool {
    world
        .get_resource::<RopesSecured>()
        .is_some_and(|r| r.at(at).is_some())
}

/// The side of the hole at `at`: easy with a rope hanging in it, else as the level describes it
/// (sheer where it says nothing).
pub(crate) fn side_of(world: &World, at: GridPos) -> Surface {
    if rope_in(world, at) {
        Surface::Easy
    } else {
        world
            .get_resource::<crate::level::Climbs>()
            .map_or(Surface::Sheer, |c| c.at(at).surface)
    }
}

/// Starts a climb: off any walk, vulnerable on a sheer surface or a rappel, and logged.
pub(super) fn start_climbing(world: &mut World, who: Entity, c: Climbing) {
    world
        .entity_mut(who)
        .remove::<crate::rules::movement::Walking>()
        .insert(c);
    if c.surface == Surface::Sheer || c.rappel {
        gain_condition_in(
            world,
            who,
            ConditionKind::Vulnerable,
            "climbing a sheer surface",
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

/// A fall of `feet`: 1d6 bludgeoning per 10' through the one damage path (RULINGS › Conditions
/// …), and the noise of it.
pub fn fall(world: &mut World, who: Entity, feet: u32) {
    let dice = crate::rules::damage::falling_damage(feet);
    let roll = world.resource_mut::<crate::dice::Dice>().roll_expr(&dice);
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
    let _ = crate::rules::sound::hearing::creature_noise(
        world,
        who,
        crate::rules::sound::NoisyAction::AFall,
    );
    crate::rules::damage::take_damage(world, who, damage);
}

/// Each round (in the climber's initiative): climbers climb, throwing at the middle of each
/// 100' stretch they reach.
pub(crate) fn climbers_climb(
    world: &mut World,
    q: &mut QueryState<(Entity, &Climbing, &Conditions, Option<&Faction>)>,
) {
    for (who, c) in super::acting_now(world, q) {
        climb_a_round(world, who, c);
    }
}

/// Feet a round `who` climbs (or traverses) at this pace, its conditions counted. Dungeon
/// Delves › Climbing, › Balancing Traverse: "at his exploration speed or, if action is being
/// tracked in rounds, one-third his combat speed" — a tenth of its exploration speed a round
/// outside a battle, a third of its combat speed when its faction is in one; the proficient's
/// half and full paces are shares of its combat speed.
pub(crate) fn climbing_feet_per_round(world: &World, who: Entity, pace: ClimbPace) -> f32 {
    let tracked_in_rounds = world.get::<Faction>(who).is_some_and(|f| {
        world
            .resource::<crate::creature::ActingOrder>()
            .fighting(*f)
    });
    match pace {
        ClimbPace::Third if !tracked_in_rounds => {
            rate(world, who, Pace::Exploration) / crate::time::ROUNDS_PER_TURN as f32
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
    crate::rules::calls::judge_modifier(
        world,
        crate::level::schema::JudgeModifier::ClimbingConditions,
        at,
        &[who],
    )
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
            crate::rules::throws::Skill::Proficiency(crate::level::schema::Proficiency::Climbing),
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
        let both = profs.has(Proficiency::Climbing) && profs.has(Proficiency::Mountaineering);
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
    // RULINGS › Rest: climbing is movement, with its noise, though the square stays the same.
    let pace = if c.rappel && !c.slowed {
        Pace::Running
    } else {
        Pace::Combat
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

/// A creature holding a rope ready to break a climber's fall (Dungeon Delves › Belaying):
/// standing beside the hole, or itself on the climb above the climber.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Belaying {
    pub climber: Entity,
    /// The rope paid out: it reaches the climber only this far.
    pub rope_feet: u32,
}

/// The hole a climb goes into or out of.
fn hole_of(world: &World, who: Entity, c: &Climbing) -> Option<GridPos> {
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
fn height_on(c: &Climbing) -> f32 {
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
fn belaying_reach(world: &World, who: Entity, hole: GridPos, height: f32) -> Option<u32> {
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
enum Belayed {
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
fn belayed_fall(world: &mut World, climber: Entity, c: &Climbing) -> Belayed {
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
    let stone = super::stone_of(world.get::<Encumbrance>(climber));
    let profs = world
        .get::<Proficiencies>(belayer)
        .cloned()
        .unwrap_or_default();
    let both = profs.has(Proficiency::Climbing) && profs.has(Proficiency::Mountaineering);
    let str_score = world
        .get::<crate::creature::Abilities>(belayer)
        .map_or(10, |a| a.0.str);
    let mut mods = crate::rules::doors::bashing_modifiers(str_score, None, false, 0, 0);
    let weight = (stone > 0.0).then(|| {
        Modifier::new(
            -super::stone_target(stone),
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
        crate::rules::throws::Skill::Dungeonbashing,
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
        return Belayed::Caught;
    }
    if throw.natural == 1 || throw.target - throw.total >= 14 {
        let target = climbing_target(&profs, c.surface)
            .or_else(|| climbing_target(&profs, Surface::Easy))
            .unwrap_or(ADVENTURING_CLIMB);
        let mut mods: Vec<Modifier> = weight.into_iter().collect();
        mods.extend(crate::rules::penalties::check_penalties(
            world, belayer, None,
        ));
        let held = crate::rules::throws::throw_in(
            world,
            belayer,
            ThrowKind::Check,
            crate::rules::throws::Skill::Proficiency(crate::level::schema::Proficiency::Climbing),
            "Climbing to keep its footing",
            mods,
            target,
        )
        .success;
        if !held {
            world.entity_mut(belayer).remove::<Belaying>();
            pulled_off(world, belayer, hole);
        }
    }
    Belayed::Dropped { rope_feet }
}

/// A belayer pulled off its footing: from the climb, it falls off it (and its own belayer may
/// catch it); from the top, it falls into the hole.
fn pulled_off(world: &mut World, belayer: Entity, hole: GridPos) {
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

pub(super) fn stop_being_vulnerable(world: &mut World, who: Entity) {
    if world
        .get::<Conditions>(who)
        .and_then(|c| c.get(ConditionKind::Vulnerable))
        .is_some_and(|v| v.source == "climbing a sheer surface")
    {
        lose_condition_in(world, who, ConditionKind::Vulnerable, "off the wall");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dungeon Delves › Climbing: one throw per 100' climbed, with at least one at the
    /// midpoint: a 20' climb throws at 10'; a 250' one at 50', 150' and 225'.
    #[test]
    fn one_throw_per_100_feet_at_least_one_at_the_midpoint() {
        let marks = |height_feet| {
            let mut c = Climbing {
                to: GridPos::new(0, 0),
                height_feet,
                done_feet: 0.0,
                surface: Surface::Easy,
                pace: ClimbPace::Third,
                stretches_thrown: 0,
                down: false,
                rappel: false,
                slowed: false,
            };
            let mut out = Vec::new();
            while let Some(m) = c.next_throw_at() {
                out.push(m);
                c.stretches_thrown += 1;
            }
            out
        };
        assert_eq!(marks(20), vec![10.0]);
        assert_eq!(marks(250), vec![50.0, 150.0, 225.0]);
    }

    /// Dungeon Delves › Climbing: the grappling hook's range penalties.
    #[test]
    fn grappling_hook_range_penalties() {
        let p: Vec<Option<i32>> = [10, 11, 30, 31, 50, 51, 100, 101]
            .map(grappling_range_penalty)
            .into();
        assert_eq!(
            p,
            vec![
                Some(0),
                Some(-2),
                Some(-2),
                Some(-5),
                Some(-5),
                Some(-10),
                Some(-10),
                None
            ]
        );
    }

    /// The climbing table: Adventuring 8+ on easy surfaces only; the class value of Climbing or
    /// Mountaineering on either.
    #[test]
    fn easy_by_adventuring_sheer_by_class_value() {
        let none = Proficiencies::default();
        assert_eq!(climbing_target(&none, Surface::Easy), Some(8));
        assert_eq!(climbing_target(&none, Surface::Sheer), None);
        let mut climber = Proficiencies::default();
        climber.list.push(Proficiency::Climbing);
        climber.throws.insert(Proficiency::Climbing, 6);
        assert_eq!(climbing_target(&climber, Surface::Sheer), Some(6));
        assert_eq!(climbing_target(&climber, Surface::Easy), Some(6));
    }
}
