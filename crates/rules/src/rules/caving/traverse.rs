//! Balancing Traverse (Dungeon Delves): along a ledge too narrow to walk.
//!
//! - A narrow path (4"–8") is for anyone, 8+ by Adventuring or the class value of Climbing or
//!   Mountaineering; a precarious one (½"–4") for those proficient in Climbing only, by the
//!   class value; narrower cannot be crossed.
//! - One throw per 100' crossed, at the middle of each 100' (at least one, at the midpoint).
//! - A third of combat speed a round; proficient in Climbing, −2 for half or −5 for all of it.
//! - Narrow: failing, no progress that round; a natural 1 falls. Precarious: failing, a fall.
//!   Proficient in both Climbing and Cat Burglary, at a third of combat speed, it does not fall
//!   from a narrow path, nor from a precarious one but on a natural 1.
//! - On the path it is vulnerable; damage taken there calls for a Paralysis save (+2 Cat
//!   Burglary) or it falls. A fall drops into the deepest chasm beside the path.

use crate::creature::{Combatant, Equipment};
use crate::rules::movement::{MovedThisRound, Walking};
use crate::rules::throws::Skill;
use delve_ground::level::Climbs;
use delve_ground::level::schema::{Gear, Surface};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::climbing::{
    ADVENTURING_CLIMB, Belayed, ClimbPace, fall, hold_the_fall, next_throw_at,
    stop_being_vulnerable,
};
use super::events::{CavingEvent, Path};
use super::refusals::CavingRefusal;
use crate::act::Refusal;
use crate::creature::{
    Below, ConditionEnd, Conditions, Encumbrance, Faction, Position, Proficiencies, SavingThrows,
};
use crate::rules::conditions::{gain_condition_in, is_down};
use crate::rules::throws::ThrowKind;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain};
use delve_ground::level::schema::{ConditionKind, Proficiency, SaveCategory};
use delve_ground::log::log_in;

/// The widest path that is a balancing traverse, and the narrowest that is a narrow one.
pub const NARROW_INCHES: std::ops::RangeInclusive<u32> = 4..=8;

/// The throw's target on this path: narrow, Adventuring 8+ or the class value of Climbing or
/// Mountaineering (the better); precarious, the Climbing class value only.
pub fn traverse_target(profs: &Proficiencies, path: Path) -> Option<i32> {
    let class = |p: Proficiency| {
        profs
            .has(p)
            .then(|| profs.throws.get(&p).copied())
            .flatten()
    };
    match path {
        Path::Narrow => Some(
            [
                class(Proficiency::Climbing),
                class(Proficiency::Mountaineering),
            ]
            .into_iter()
            .flatten()
            .fold(ADVENTURING_CLIMB, i32::min),
        ),
        Path::Precarious => class(Proficiency::Climbing),
        // Crawling: 8+, or the class value of one proficient in Climbing (or any, on a rope a
        // mountaineer rigged: see `crawling_target`).
        Path::Rope => Some(
            class(Proficiency::Climbing)
                .into_iter()
                .fold(ADVENTURING_CLIMB, i32::min),
        ),
    }
}

/// The pace penalties: balancing, half combat speed −2 and full −5; crawling a rope, −5 and
/// −10.
fn pace_penalty(path: Path, pace: ClimbPace) -> Option<Modifier> {
    let (half, full) = match path {
        Path::Rope => (-5, -10),
        Path::Narrow | Path::Precarious => (-2, -5),
    };
    match pace {
        ClimbPace::Third => None,
        ClimbPace::Half => Some(Modifier::new(half, "at half combat speed")),
        ClimbPace::Full => Some(Modifier::new(full, "at full combat speed")),
    }
}

/// A balancing traverse under way, from `from` along the ledge squares to `to`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Traversing {
    pub from: GridPos,
    pub to: GridPos,
    pub length_feet: u32,
    pub done_feet: f32,
    pub path: Path,
    pub pace: ClimbPace,
    pub stretches_thrown: u32,
}

impl Traversing {
    /// The square it is on after `done` feet: along the line from `from` to `to`.
    fn square_after(&self, done: f32, scale: u32) -> GridPos {
        let (dx, dy) = (
            (self.to.x - self.from.x).signum(),
            (self.to.y - self.from.y).signum(),
        );
        let k = ((done / scale.max(1) as f32).ceil() as i32).max(0);
        let steps = (self.to.x - self.from.x)
            .abs()
            .max((self.to.y - self.from.y).abs());
        let k = k.min(steps);
        GridPos::new(self.from.x + dx * k, self.from.y + dy * k)
    }
}

/// The ledge squares between `from` and `to` on a straight (or diagonal) line, and the
/// narrowest of their widths; `None` if anything else lies between.
pub(crate) fn along_the_ledge(
    grid: &DungeonGrid,
    from: GridPos,
    to: GridPos,
) -> Option<(Vec<GridPos>, u32)> {
    let squares = super::footing::straight_between(from, to)?;
    let widths: Option<Vec<u32>> = squares
        .iter()
        .map(|&p| match grid.terrain(p) {
            Some(Terrain::Ledge { width_inches }) => Some(width_inches),
            _ => None,
        })
        .collect();
    let narrowest = widths?.into_iter().min()?;
    Some((squares, narrowest))
}

/// `Traverse`: along the ledge in a straight line from where it stands to the square `to`.
pub fn traverse(
    world: &mut World,
    who: Entity,
    to: GridPos,
    pace: ClimbPace,
) -> Result<(), Refusal> {
    let from = crate::act::square_of(world, who)?;
    if world.get::<Below>(who).is_some() {
        return Err(CavingRefusal::AtTheBottom.into());
    }
    let grid = world.resource::<DungeonGrid>();
    if !grid.is_passable(to) {
        return Err(CavingRefusal::NoLanding { at: to }.into());
    }
    let (squares, narrowest) =
        along_the_ledge(grid, from, to).ok_or(CavingRefusal::NotAlongALedge { to })?;
    let path = Path::of_width(narrowest).ok_or(CavingRefusal::TooNarrow)?;
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    if traverse_target(&super::climbing::supervised_proficiencies(world, who), path).is_none() {
        return Err(CavingRefusal::PrecariousNeedsClimbing.into());
    }
    if pace != ClimbPace::Third && !profs.has(Proficiency::Climbing) {
        return Err(CavingRefusal::FasterNeedsClimbing.into());
    }
    let scale = grid.scale_feet();
    let length_feet = squares.len() as u32 * scale;
    start_traversing(
        world,
        who,
        Traversing {
            from,
            to,
            length_feet,
            done_feet: 0.0,
            path,
            pace,
            stretches_thrown: 0,
        },
    );
    Ok(())
}

/// The most a rope of a crawling traverse bears, in stone.
pub const STONE_PER_ROPE: f32 = 45.0;

/// A rope rigged across a chasm, from one rim square to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rigged {
    pub from: GridPos,
    pub to: GridPos,
    pub ropes: u32,
    /// The rigger's Mountaineering class value, if a mountaineer rigged it: anyone crawling it
    /// may throw that.
    pub by_mountaineer: Option<i32>,
}

/// The crawling traverses rigged on the level.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RiggedTraverses(pub Vec<Rigged>);

impl RiggedTraverses {
    /// The traverse between two rim squares, either way.
    pub fn find(&self, a: GridPos, b: GridPos) -> Option<&Rigged> {
        self.0
            .iter()
            .find(|r| (r.from == a && r.to == b) || (r.from == b && r.to == a))
    }
}

/// A crawling traverse being rigged: the near end secured (a round), the hook thrown for the
/// far counterweight until it holds, the rope tightened (a round).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rigging {
    pub to: GridPos,
    pub stage: RigStage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RigStage {
    SecureNearEnd,
    HookFarEnd,
    Tighten,
}

/// The Climbing throw's target crawling a rigged traverse: 8+, or the crawler's Climbing class
/// value, or the class value of the mountaineer who rigged it, whichever is best.
pub(crate) fn crawling_target(profs: &Proficiencies, rigged: &Rigged) -> i32 {
    let own = traverse_target(profs, Path::Rope).unwrap_or(ADVENTURING_CLIMB);
    rigged.by_mountaineer.map_or(own, |m| own.min(m))
}

/// `RigTraverse`: from a chasm's rim, with a rope and a grappling hook, rigs a crawling traverse
/// straight across to the rim square `to`.
pub(crate) fn rig(world: &mut World, who: Entity, to: GridPos) -> Result<(), Refusal> {
    let from = crate::act::square_of(world, who)?;
    if !super::footing::firm_ground(world, to) {
        return Err(CavingRefusal::NoLanding { at: to }.into());
    }
    super::footing::across_a_hole(world, from, to).ok_or(CavingRefusal::NotAcrossAChasm { to })?;
    let grid = world.resource::<DungeonGrid>();
    let span = delve_ground::grid::distance_feet(from, to, grid.scale_feet());
    let gear = world.get::<Equipment>(who);
    if !gear.is_some_and(|g| g.has(&Gear::GrapplingHook) && g.longest_rope().is_some()) {
        return Err(CavingRefusal::NoGrapplingHook.into());
    }
    super::climbing::rope_reaching(world, who, span)?;
    world.entity_mut(who).insert(Rigging {
        to,
        stage: RigStage::SecureNearEnd,
    });
    Ok(())
}

/// Each round: riggers work on.
pub(crate) fn riggers_rig(world: &mut World, q: &mut QueryState<(Entity, &Rigging, &Position)>) {
    let mut riggers: Vec<(Entity, Rigging, GridPos)> =
        q.iter(world).map(|(e, r, p)| (e, *r, p.0)).collect();
    riggers.sort_by_key(|(e, ..)| *e);
    for (who, r, from) in riggers {
        if world.get::<MovedThisRound>(who).is_some_and(|m| m.feet > 0) {
            world.entity_mut(who).remove::<Rigging>();
            continue;
        }
        let next = match r.stage {
            RigStage::SecureNearEnd => Some(RigStage::HookFarEnd),
            RigStage::HookFarEnd => {
                hook_far_end(world, who, from, r.to).then_some(RigStage::Tighten)
            }
            RigStage::Tighten => None,
        };
        match next {
            Some(stage) => {
                world.entity_mut(who).insert(Rigging { to: r.to, stage });
            }
            None if r.stage == RigStage::Tighten => {
                world.entity_mut(who).remove::<Rigging>();
                // The rope and the hook stay across the chasm.
                let span = delve_ground::grid::distance_feet(
                    from,
                    r.to,
                    world.resource::<DungeonGrid>().scale_feet(),
                );
                super::climbing::spend_rope(world, who, span, true);
                let by_mountaineer = world.get::<Proficiencies>(who).and_then(|p| {
                    p.has(Proficiency::Mountaineering)
                        .then(|| p.throws.get(&Proficiency::Mountaineering).copied())
                        .flatten()
                });
                let mut rigged = world.get_resource_or_init::<RiggedTraverses>();
                match rigged
                    .0
                    .iter_mut()
                    .find(|t| (t.from, t.to) == (from, r.to) || (t.from, t.to) == (r.to, from))
                {
                    Some(t) => t.ropes += 1,
                    None => rigged.0.push(Rigged {
                        from,
                        to: r.to,
                        ropes: 1,
                        by_mountaineer,
                    }),
                }
                let name = crate::creature::name_of(world, who);
                log_in(
                    world,
                    CavingEvent::TraverseRigged {
                        who: name,
                        from,
                        to: r.to,
                    },
                );
            }
            None => {}
        }
    }
}

/// The hook for the far counterweight: an attack throw against its AC (the level's anchor
/// above the last chasm square; AC 1 on the delve scale where the level gives none), with the
/// range penalty for the distance. True when it holds.
fn hook_far_end(world: &mut World, who: Entity, from: GridPos, to: GridPos) -> bool {
    let feet =
        delve_ground::grid::distance_feet(from, to, world.resource::<DungeonGrid>().scale_feet());
    let last = super::footing::across_a_hole(world, from, to)
        .and_then(|s| s.last().copied())
        .unwrap_or(to);
    let anchor = world
        .get_resource::<Climbs>()
        .and_then(|c| c.at(last).anchor_ac)
        .unwrap_or(1);
    let Some(penalty) = super::climbing::grappling_range_penalty(feet) else {
        return false;
    };
    let attack_bonus = world.get::<Combatant>(who).map_or(0, |c| c.attack_bonus);
    let mut mods = vec![Modifier::new(attack_bonus, "attack bonus")];
    if penalty != 0 {
        mods.push(Modifier::new(
            penalty,
            format!("counterweight {feet}' away"),
        ));
    }
    mods.extend(super::climbing::hook_penalties(world, who, last));
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Attack { ranged: true },
        Skill::Attack,
        "grappling hook at the far counterweight",
        mods,
        anchor + 10,
    );
    throw.success
}

/// `CrawlAcross`: hand over hand along a rigged traverse to its other end. The rope bears 45
/// stone for each rope rigged; crawling takes both hands and leaves it vulnerable.
pub(crate) fn crawl_across(
    world: &mut World,
    who: Entity,
    to: GridPos,
    pace: ClimbPace,
) -> Result<(), Refusal> {
    let from = crate::act::square_of(world, who)?;
    let rigged = world
        .get_resource::<RiggedTraverses>()
        .and_then(|r| r.find(from, to).copied())
        .ok_or(CavingRefusal::NotRigged { to })?;
    if let Some(with) = crate::rules::acting::hands_busy(world, who) {
        return Err(CavingRefusal::HandsBusy { with }.into());
    }
    let load: f32 = {
        let mut q = world.query::<(&Traversing, &Encumbrance)>();
        q.iter(world)
            .filter(|(t, _)| {
                t.path == Path::Rope
                    && ((t.from, t.to) == (rigged.from, rigged.to)
                        || (t.from, t.to) == (rigged.to, rigged.from))
            })
            .map(|(_, e)| crate::rules::throws::stone_of(Some(e)))
            .sum::<f32>()
    } + crate::rules::throws::stone_of(world.get::<Encumbrance>(who));
    let bears = STONE_PER_ROPE * rigged.ropes as f32;
    if load > bears {
        return Err(CavingRefusal::TooHeavyForTheRope { load, bears }.into());
    }
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    if pace != ClimbPace::Third && !profs.has(Proficiency::Climbing) {
        return Err(CavingRefusal::FasterNeedsClimbing.into());
    }
    let scale = world.resource::<DungeonGrid>().scale_feet();
    let length_feet = delve_ground::grid::distance_feet(from, to, scale).saturating_sub(scale);
    start_traversing(
        world,
        who,
        Traversing {
            from,
            to,
            length_feet,
            done_feet: 0.0,
            path: Path::Rope,
            pace,
            stretches_thrown: 0,
        },
    );
    Ok(())
}

/// Starts a traverse: off any walk, vulnerable while on it (both traverse tables), logged.
fn start_traversing(world: &mut World, who: Entity, t: Traversing) {
    world.entity_mut(who).remove::<Walking>().insert(t);
    gain_condition_in(
        world,
        who,
        ConditionKind::Vulnerable,
        match t.path {
            Path::Rope => super::climbing::VULNERABLE_ON_A_ROPE,
            _ => super::climbing::VULNERABLE_ON_A_LEDGE,
        },
        ConditionEnd::UntilRemoved,
    );
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::TraverseBegun {
            who: name,
            to: t.to,
            length_feet: t.length_feet,
            path: t.path,
        },
    );
}

/// Proficient in both Climbing and Cat Burglary.
fn sure_footed(world: &World, who: Entity) -> bool {
    world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Climbing) && p.has(Proficiency::CatBurglary))
}

/// Each round (in its initiative): those on a ledge go on along it.
pub(crate) fn traversers_traverse(
    world: &mut World,
    q: &mut QueryState<(Entity, &Traversing, &Conditions, Option<&Faction>)>,
) {
    for (who, t) in super::footing::acting_now(world, q) {
        traverse_a_round(world, who, t);
    }
}

fn traverse_a_round(world: &mut World, who: Entity, mut t: Traversing) {
    let reach = t.done_feet + super::climbing::climbing_feet_per_round(world, who, t.pace);
    if next_throw_at(t.length_feet, t.stretches_thrown).is_some_and(|m| reach >= m) {
        let profs = super::climbing::supervised_proficiencies(world, who);
        let rigged = world
            .get_resource::<RiggedTraverses>()
            .and_then(|r| r.find(t.from, t.to).copied());
        let target = match (t.path, rigged) {
            (Path::Rope, Some(rigged)) => Some(crawling_target(&profs, &rigged)),
            (path, _) => traverse_target(&profs, path),
        };
        let Some(target) = target else {
            return;
        };
        let mut mods: Vec<Modifier> = pace_penalty(t.path, t.pace).into_iter().collect();
        mods.extend(crate::rules::penalties::check_penalties(world, who, None));
        let here = world.get::<Position>(who).map(|p| p.0);
        mods.extend(super::climbing::climbing_conditions(world, who, here));
        let throw = crate::rules::throws::throw_in(
            world,
            who,
            ThrowKind::Check,
            Skill::Proficiency(delve_ground::level::schema::Proficiency::Climbing),
            "Climbing (balancing traverse)",
            mods,
            target,
        );
        let sure = match t.path {
            Path::Rope => super::climbing::double_proficient(world, who),
            _ => sure_footed(world, who),
        } && t.pace == ClimbPace::Third;
        let botch = throw.natural == 1;
        let falls = match (t.path, throw.success) {
            (_, true) => false,
            (Path::Narrow | Path::Rope, false) => botch && !sure,
            (Path::Precarious, false) => botch || !sure,
        };
        if falls {
            // It falls from where it reached the throw's point.
            let scale = world.resource::<DungeonGrid>().scale_feet();
            let at = t.square_after(
                next_throw_at(t.length_feet, t.stretches_thrown).unwrap_or(0.0),
                scale,
            );
            fall_from_ledge(world, who, at);
            return;
        }
        if !throw.success {
            let name = crate::creature::name_of(world, who);
            log_in(world, CavingEvent::NoProgress { who: name });
            return;
        }
        t.stretches_thrown += 1;
    }
    let before = t.done_feet;
    t.done_feet = reach.min(t.length_feet as f32);
    // RULINGS › Rest: crawling and balancing along are movement, with its noise (RULINGS ›
    // Sound: quiet at exploration speed).
    let crossed = (t.done_feet.round() - before.round()).max(0.0) as u32;
    crate::rules::movement::moved_by_other_means(world, who, crossed, t.pace.noise());
    let scale = world.resource::<DungeonGrid>().scale_feet();
    if t.done_feet < t.length_feet as f32 {
        let on = t.square_after(t.done_feet, scale);
        set_square(world, who, on);
        world.entity_mut(who).insert(t);
        return;
    }
    world.entity_mut(who).remove::<Traversing>();
    stop_being_vulnerable(world, who);
    set_square(world, who, t.to);
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CavingEvent::Traversed {
            who: name,
            at: t.to,
        },
    );
}

fn set_square(world: &mut World, who: Entity, at: GridPos) {
    if let Some(mut p) = world.get_mut::<Position>(who) {
        p.0 = at;
    }
}

/// Off the ledge at `at`: into the deepest chasm beside it (1d6 per 10' of its depth), at its
/// bottom; with no chasm beside it, a 10' drop back where it stands.
///
/// A traverser's belayer may break the fall (it stays on the path where it was, unhurt, and
/// makes no progress that round), or let it drop only the length of the rope: then it hangs on
/// the rope that far down the chasm's side, to climb back up to the path.
fn fall_from_ledge(world: &mut World, who: Entity, at: GridPos) {
    let rope = match world.get::<Traversing>(who).copied() {
        Some(t) => match belayed_traverse_fall(world, who, &t, at) {
            Belayed::Caught => return,
            Belayed::Dropped { rope_feet } => Some(rope_feet),
            Belayed::Alone => None,
        },
        None => None,
    };
    world.entity_mut(who).remove::<Traversing>();
    stop_being_vulnerable(world, who);
    // Over a hole (a rope across a chasm or an open pit), straight down; off a ledge, into the
    // chasm beside.
    let chasm = std::iter::once(at)
        .chain(at.neighbours())
        .filter_map(|p| super::climbing::hole_at(world, p).map(|depth| (depth, p)))
        .max_by_key(|&(d, p)| (d, std::cmp::Reverse((p.y, p.x))));
    match (chasm, rope) {
        (Some((depth, p)), Some(rope_feet)) if rope_feet < depth => {
            // Held at the rope's end: on the chasm's side below the path, a rope above it.
            set_square(world, who, p);
            world.entity_mut(who).insert((
                Below { depth_feet: depth },
                super::climbing::Climbing {
                    to: at,
                    height_feet: depth,
                    done_feet: (depth - rope_feet) as f32,
                    surface: Surface::Easy,
                    pace: ClimbPace::Third,
                    stretches_thrown: 0,
                    down: false,
                    rappel: false,
                    slowed: false,
                },
            ));
            fall(world, who, rope_feet);
        }
        (Some((depth, p)), _) => {
            set_square(world, who, p);
            world.entity_mut(who).insert(Below { depth_feet: depth });
            fall(world, who, depth);
        }
        (None, rope) => fall(world, who, rope.map_or(10, |r| r.min(10))),
    }
}

/// How far (in feet) `who` is from a traverser on `t` at `at`, if it stands where it could
/// belay it: Dungeon Delves › Belaying, "an adventurer who has already ascended or traversed
/// part or all of an obstacle" — across, on or beside the traverse's far end (not below), or
/// further along the same traverse.
pub(crate) fn belaying_across(
    world: &World,
    who: Entity,
    t: &Traversing,
    at: GridPos,
) -> Option<u32> {
    let here = world.get::<Position>(who)?.0;
    let across = match world.get::<Traversing>(who) {
        Some(own) => (own.from, own.to) == (t.from, t.to) && own.done_feet > t.done_feet,
        None => {
            world.get::<Below>(who).is_none()
                && world.get::<super::climbing::Climbing>(who).is_none()
                && (here == t.to
                    || (here.is_adjacent(t.to) && super::footing::firm_ground(world, here)))
        }
    };
    let scale = world.resource::<DungeonGrid>().scale_feet();
    across.then(|| delve_ground::grid::distance_feet(here, at, scale))
}

/// Whether `who` could belay the traverser `traverser` now, with a rope that reaches it.
pub(crate) fn could_belay_traverser(world: &World, who: Entity, traverser: Entity) -> bool {
    let (Some(t), Some(at)) = (
        world.get::<Traversing>(traverser),
        world.get::<Position>(traverser),
    ) else {
        return false;
    };
    belaying_across(world, who, t, at.0).is_some_and(|reach| {
        world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has_rope(reach))
    })
}

/// `Belay` a traverser: from across (see [`belaying_across`]), with a rope that reaches it.
pub(crate) fn belay_traverser(
    world: &mut World,
    who: Entity,
    traverser: Entity,
) -> Result<(), Refusal> {
    crate::act::square_of(world, who)?;
    let t = world
        .get::<Traversing>(traverser)
        .copied()
        .ok_or(CavingRefusal::NotClimbing)?;
    let at = crate::act::square_of(world, traverser)?;
    let reach =
        belaying_across(world, who, &t, at).ok_or(CavingRefusal::BelayFromAcross { to: t.to })?;
    super::climbing::rope_reaching(world, who, reach)?;
    let rope_feet = world
        .get::<Equipment>(who)
        .and_then(|g| g.longest_rope())
        .unwrap_or(reach);
    world.entity_mut(who).insert(super::climbing::Belaying {
        climber: traverser,
        rope_feet,
    });
    Ok(())
}

/// Dungeon Delves › Belaying, on a traverse: the belayer across whose rope reaches the falling
/// traverser makes its throws; pulled off, it falls itself — off the path if it is on it (where
/// its own belayer may catch it, and so on), else into the chasm beside it.
fn belayed_traverse_fall(world: &mut World, who: Entity, t: &Traversing, at: GridPos) -> Belayed {
    let ready: Vec<(Entity, u32)> = {
        let mut q = world.query::<(Entity, &super::climbing::Belaying, &Conditions)>();
        q.iter(world)
            .filter(|(_, b, cond)| b.climber == who && !is_down(cond))
            .map(|(e, b, _)| (e, b.rope_feet))
            .collect()
    };
    let Some((belayer, rope_feet)) = ready
        .into_iter()
        .filter(|&(e, rope)| belaying_across(world, e, t, at).is_some_and(|reach| reach <= rope))
        .min_by_key(|(e, _)| *e)
    else {
        return Belayed::Alone;
    };
    let profs = world
        .get::<Proficiencies>(belayer)
        .cloned()
        .unwrap_or_default();
    let footing = world
        .get::<Traversing>(belayer)
        .and_then(|own| traverse_target(&profs, own.path))
        .unwrap_or(ADVENTURING_CLIMB);
    let held = hold_the_fall(world, belayer, who, rope_feet, footing);
    if held.pulled_off {
        world
            .entity_mut(belayer)
            .remove::<super::climbing::Belaying>();
        let there = world.get::<Position>(belayer).map_or(at, |p| p.0);
        fall_from_ledge(world, belayer, there);
    }
    held.belayed
}

/// Dungeon Delves › Balancing Traverse: "an adventurer who suffers damage while on a narrow or
/// precarious path" makes a Paralysis save (+2 Cat Burglary), or falls. Not one crawling a rope
/// (› Crawling Traverse says nothing of it).
pub(crate) fn damaged_on_a_ledge(world: &mut World, who: Entity) {
    let Some(t) = world
        .get::<Traversing>(who)
        .copied()
        .filter(|t| t.path != Path::Rope)
    else {
        return;
    };
    if world.get::<Conditions>(who).is_some_and(is_down) {
        return;
    }
    let Some(save) = world
        .get::<SavingThrows>(who)
        .and_then(|s| s.0.get(&SaveCategory::Paralysis).copied())
    else {
        return;
    };
    let cat = world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::CatBurglary));
    let mods: Vec<Modifier> = cat
        .then(|| Modifier::new(2, "Cat Burglary"))
        .into_iter()
        .collect();
    let kept = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Save,
        Skill::Save(delve_ground::level::schema::SaveCategory::Paralysis),
        "Paralysis save to keep its balance",
        mods,
        save,
    )
    .success;
    if !kept {
        let at = world.get::<Position>(who).map_or(t.from, |p| p.0);
        fall_from_ledge(world, who, at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The balancing table: narrow by Adventuring 8+ or the class value; precarious by the
    /// Climbing class value only; under ½" not at all.
    #[test]
    fn narrow_by_adventuring_precarious_by_climbing() {
        let none = Proficiencies::default();
        assert_eq!(traverse_target(&none, Path::Narrow), Some(8));
        assert_eq!(traverse_target(&none, Path::Precarious), None);
        let mut climber = Proficiencies::default();
        climber.list.push(Proficiency::Climbing);
        climber.throws.insert(Proficiency::Climbing, 7);
        assert_eq!(traverse_target(&climber, Path::Precarious), Some(7));
        assert_eq!(
            [0, 1, 3, 4, 8].map(Path::of_width),
            [
                None,
                Some(Path::Precarious),
                Some(Path::Precarious),
                Some(Path::Narrow),
                Some(Path::Narrow)
            ]
        );
    }
}
