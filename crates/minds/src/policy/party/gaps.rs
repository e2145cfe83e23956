//! Jumping a hole on the way (Dungeon Delves › Jumping and Leaping; RULINGS › Pits and holes): a
//! known open pit one square across in the party's way, or between the party and a member cut
//! off on its far side, is jumped, one member a round, each with a 20' run-up where it needs one
//! to clear the 5' gap at the policy's odds.

use crate::policy::knowledge::Knowledge;
use delve_ground::grid::DungeonGrid;
use delve_ground::grid::terrain::Terrain;
use delve_ground::level::schema::Surface;
use delve_rules::act::AnyAct;
use delve_rules::creature::{Below, Equipment, HitPoints};
use delve_rules::rules::caving::climbing::RopesSecured;

use bevy::prelude::*;

use super::way::{make_way, occupied_squares};
use super::{Intent, PartyMind, is_up, name, on_hand, square};
use delve_ground::grid::GridPos;
use delve_rules::command::Command;
use delve_rules::command::acts::{ClimbDown, Jump, LowerRope, Move, Traverse};
use delve_rules::creature::{Conditions, Encumbrance, Proficiencies};
use delve_rules::rules::caving::jumping::{Jumper, RUN_UP_FEET};
use delve_rules::rules::movement::hazards::way;
use delve_rules::rules::movement::{Pace, Speeds};

/// The gap over a hole one square across, in feet.
pub(super) fn gap_feet(world: &World, take_off: GridPos, landing: GridPos) -> u32 {
    let scale = world.resource::<DungeonGrid>().scale_feet();
    delve_ground::grid::distance_feet(take_off, landing, scale).saturating_sub(scale)
}

/// The chance `who` clears the gap with a run-up (`true`) or from a standing start.
pub(super) fn chance(world: &World, who: Entity, gap: u32, run_up: bool) -> f32 {
    Jumper::of(world, who).map_or(0.0, |j| j.chance(gap, run_up))
}

/// Would every member who is up jump a hole one square across at the policy's odds, given a
/// run-up? Then such holes are a way on for the party ([`crate::policy::knowledge::Knowledge`]).
pub(super) fn party_jumps(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    party_jumps_at(world, members, mind.policy.jump_odds)
}

/// Would every member who is up clear a hole one square across, with a run-up, at `odds`?
pub(super) fn party_jumps_at(world: &World, members: &[Entity], odds: f32) -> bool {
    let scale = world.resource::<DungeonGrid>().scale_feet();
    members
        .iter()
        .filter(|&&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .all(|&m| chance(world, m, scale, true) >= odds)
}

/// The first jump or traverse on a planned walk (a step of more than one square): the take-off
/// square's index (the landing is the next).
pub(super) fn first_jump(walk: &[GridPos]) -> Option<usize> {
    walk.windows(2).position(|w| w[0].chebyshev(w[1]) >= 2)
}

/// The chance `who` crosses a ledge `inches` wide by a balancing traverse (Dungeon Delves ›
/// Climbing: its Climbing throw for the path).
pub(super) fn traverse_chance(world: &World, who: Entity, inches: u32) -> f32 {
    use delve_rules::rules::caving::events::Path;
    use delve_rules::rules::caving::traverse::traverse_target;
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    Path::of_width(inches)
        .and_then(|path| traverse_target(&profs, path))
        .map_or(0.0, |t| ((21 - t).clamp(0, 20)) as f32 / 20.0)
}

/// Can every member who is up climb a shaft's sheer sides (Dungeon Delves › Climbing: "a
/// proficient climber can ascend first and secure a rope to make an easy climb for his party
/// members")? Each climbs sheer rock down and out again at the policy's odds for a jump
/// ([`climbs_sheer_at_odds`]), or one of them carries a rope: lowered into the shaft first, it
/// makes the climbs easy for every adventurer (8+, a 1 falls from the midpoint). Then a chasm
/// climbed down into and out of is a way on for the party.
pub(super) fn party_climbs(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    let rope = up
        .iter()
        .any(|&m| world.get::<Equipment>(m).is_some_and(|g| g.has_rope(0)));
    !up.is_empty() && (rope || up.iter().all(|&m| climbs_sheer_at_odds(world, mind, m)))
}

/// Does `m` climb sheer rock (Climbing or Mountaineering), down into a shaft and out again
/// without a fall, at the policy's odds for a jump (one throw each way: a shaft of 100' or
/// less)?
pub(super) fn climbs_sheer_at_odds(world: &World, mind: &PartyMind, m: Entity) -> bool {
    let fails = climb_fails(world, m, false);
    fails < 1.0 && (1.0 - fails).powi(2) >= mind.policy.jump_odds
}

/// The chance one Climbing throw of `m` falls (Dungeon Delves › Climbing): on an easy surface
/// — a rope — only a natural 1, and never for the sure climber; on a sheer one any failure,
/// and only a natural 1 for the sure climber; one who cannot climb sheer rock falls for sure.
pub(super) fn climb_fails(world: &World, m: Entity, roped: bool) -> f32 {
    let sure = delve_rules::rules::caving::climbing::sure_climber(world, m);
    if roped {
        return if sure { 0.0 } else { 0.05 };
    }
    let profs = world.get::<Proficiencies>(m).cloned().unwrap_or_default();
    match delve_rules::rules::caving::climbing::climbing_target(&profs, Surface::Sheer) {
        None => 1.0,
        Some(_) if sure => 0.05,
        Some(t) => ((t - 1).clamp(1, 19)) as f32 / 20.0,
    }
}

/// Would every member who is up go through a squeeze, the chance of being stuck there for good
/// (Dungeon Delves › Squeezing; `rules::caving::stuck_for_good_chance`) no more than the
/// policy's `squeeze_risk`? Then squeezes are a way on.
pub(super) fn party_squeezes(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    mind.gap_memory.has_squeezes
        && members.iter().filter(|&&m| is_up(world, m)).all(|&m| {
            delve_rules::rules::caving::stuck_for_good_chance(world, m) <= mind.policy.squeeze_risk
        })
}

/// The shaft the party is climbing through, if its crossing is one.
pub(super) fn shaft_of_the_crossing(world: &World, mind: &PartyMind) -> Option<GridPos> {
    let (take_off, landing) = mind.gap_memory.crossing?;
    chasm_between(world, take_off, landing)
}

/// What a step of more than one square goes over: a hole jumped, a ledge traversed, or a shaft
/// climbed down into and out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Over {
    Hole,
    Ledge,
    Shaft(GridPos),
}

impl Over {
    /// What the step from `take_off` to `landing` goes over; a chasm one square across, the
    /// two in a line with it, is jumped when the party jumps such gaps (`jumps`), else climbed
    /// down into and out of.
    pub(super) fn of(world: &World, take_off: GridPos, landing: GridPos, jumps: bool) -> Self {
        let first = GridPos::new(
            take_off.x + (landing.x - take_off.x).signum(),
            take_off.y + (landing.y - take_off.y).signum(),
        );
        let grid = world.resource::<DungeonGrid>();
        if matches!(grid.terrain(first), Some(Terrain::Ledge { .. })) {
            return Over::Ledge;
        }
        let straight = take_off.x == landing.x || take_off.y == landing.y;
        if jumps && straight && take_off.chebyshev(landing) == 2 {
            return Over::Hole;
        }
        chasm_between(world, take_off, landing).map_or(Over::Hole, Over::Shaft)
    }

    /// The party's intent for `who` making this crossing (`hole` the square jumped).
    fn intent(self, who: String, hole: GridPos, landing: GridPos) -> Intent {
        match self {
            Over::Hole => Intent::JumpTheGap { who, over: hole },
            Over::Ledge => Intent::Traverse { who, to: landing },
            Over::Shaft(shaft) => Intent::ClimbThrough { who, shaft },
        }
    }
}

/// `who` walks to `to` at exploration speed.
fn walk(who: String, to: GridPos) -> Command {
    Move {
        who,
        to: (to.x, to.y),
        pace: Pace::Exploration,
    }
    .into()
}

/// The chasm square, or open pit, a step from `take_off` to `landing` goes down into and out
/// of, if it is one (a way on through a shaft, [`party_climbs`]).
fn chasm_between(world: &World, take_off: GridPos, landing: GridPos) -> Option<GridPos> {
    take_off.neighbours().into_iter().find(|&c| {
        c.within_a_step(landing)
            && delve_rules::rules::caving::climbing::hole_at(world, c).is_some()
    })
}

/// Does the level have a squeeze (found once, as the party is handed over)?
pub(super) fn has_squeezes(world: &World) -> bool {
    let grid = world.resource::<DungeonGrid>();
    (0..grid.height() as i32)
        .flat_map(|y| (0..grid.width() as i32).map(move |x| GridPos::new(x, y)))
        .any(|p| grid.terrain(p) == Some(Terrain::Squeeze))
}

/// The narrowest ledge on the level, in inches, if there is one (found once, as the party is
/// handed over: ledges do not change).
pub(super) fn narrowest_ledge(world: &World) -> Option<u32> {
    let grid = world.resource::<DungeonGrid>();
    (0..grid.height() as i32)
        .flat_map(|y| (0..grid.width() as i32).map(move |x| GridPos::new(x, y)))
        .filter_map(|p| match grid.terrain(p) {
            Some(Terrain::Ledge { width_inches }) => Some(width_inches),
            _ => None,
        })
        .min()
}

/// Would every member who is up cross the level's narrowest ledge by a balancing traverse at
/// the policy's odds? Then ledges are a way on for the party.
pub(super) fn party_traverses(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let Some(inches) = mind.gap_memory.narrowest_ledge else {
        return false;
    };
    members
        .iter()
        .filter(|&&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .all(|&m| traverse_chance(world, m, inches) >= mind.policy.jump_odds)
}

/// A member cut off from the leader by a hole it could jump (it fell in and climbed out on the
/// far side, or the pit opened between them): the party jumps across to it, or it to them.
pub(super) fn rejoin_across(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    leader: Entity,
    know: &Knowledge,
) -> Option<(Intent, Vec<Command>)> {
    // One at the bottom of the shaft the party is climbing through: the crossing goes on.
    if let Some(shaft) = shaft_of_the_crossing(world, mind)
        && let Some((take_off, landing)) = mind.gap_memory.crossing
        && members.iter().any(|&m| {
            is_up(world, m) && world.get::<Below>(m).is_some() && square(world, m) == Some(shaft)
        })
    {
        return cross(world, mind, members, take_off, landing);
    }
    if !(know.jumps || know.traverses || know.climbs) {
        return None;
    }
    let here = square(world, leader)?;
    for &m in members {
        if m == leader || !on_hand(world, mind, m) {
            continue;
        }
        let Some(at) = square(world, m) else {
            continue;
        };
        if way(world, m, at, here).is_ok() {
            continue;
        }
        // Bound home, and the cut-off member stands on the side toward home: the leader's
        // side crosses to it.
        if let (Some(_), Some(home)) = (mind.homeward, mind.exploring.home)
            && at.chebyshev(home) < here.chebyshev(home)
            && let Some(walk) = know.distances(here).walk_to(know.grid, at)
            && let Some(k) = first_jump(&walk)
        {
            return cross(world, mind, members, walk[k], walk[k + 1]);
        }
        // From the cut-off member's side to the leader's: those on its side jump over.
        // (The leader may stand where the party has seen nothing: in the dark, its light
        // gone. Then the nearest square the party knows to it.)
        let from_it = know.distances(at);
        let toward = from_it.cost(know.grid, here).map(|_| here).or_else(|| {
            from_it
                .reachable(know.grid)
                .min_by_key(|&(q, c)| (q.chebyshev(here), c, q))
                .map(|(q, _)| q)
        });
        let Some(walk) = toward.and_then(|q| from_it.walk_to(know.grid, q)) else {
            continue;
        };
        let Some(k) = first_jump(&walk) else {
            continue;
        };
        let (take_off, landing) = (walk[k], walk[k + 1]);
        // Cut off by the party's own crossing, not yet done (it stands on the crossing's far
        // side, the leader on its near side): the rest go on over to it — unless what it
        // crossed for is done (the goal met, or the party bound home) and the crossing leads
        // away from home: then it comes back.
        let done = mind.homeward.is_some() || super::way::goal_met(world, mind, members);
        let home = mind.exploring.home.unwrap_or(mind.way_in);
        if done
            && let Some((from, to)) = mind.gap_memory.crossing
            && to.chebyshev(home) > from.chebyshev(home)
        {
            mind.gap_memory.crossing = None;
        }
        if let Some((from, to)) = mind.gap_memory.crossing
            && (at == to || way(world, m, at, to).is_ok())
            && (here == from || way(world, leader, here, from).is_ok())
        {
            return cross(world, mind, members, from, to).or_else(|| {
                mind.gap_memory.crossing = None;
                None
            });
        }
        return cross(world, mind, members, take_off, landing);
    }
    None
}

/// One round of crossing from `take_off` to `landing`: one who landed steps on to make room; else
/// the member on the near side nearest the take-off jumps, running up to it if it stands 20' or
/// more away, or first steps back to get its run-up if it needs one. `None` when everyone is
/// across or no one can go.
pub(super) fn cross(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    take_off: GridPos,
    landing: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let over = GridPos::new((take_off.x + landing.x) / 2, (take_off.y + landing.y) / 2);
    let up: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| on_hand(world, mind, m))
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect();
    let jumps = party_jumps(world, mind, members);
    let way_over = Over::of(world, take_off, landing, jumps);
    // One at the bottom of the chasm climbs out onto the landing — also where the others now
    // jump it (one who could not jump, bearing a companion, climbed down it; those left on the
    // near side jump).
    if let Some(shaft) = chasm_between(world, take_off, landing)
        && !occupied_squares(world).contains(&landing)
    {
        let way_over = Over::Shaft(shaft);
        if let Some(&(m, _)) = members
            .iter()
            .filter_map(|&m| Some((m, square(world, m)?)))
            .collect::<Vec<_>>()
            .iter()
            .find(|&&(m, p)| p == shaft && is_up(world, m) && world.get::<Below>(m).is_some())
            && let Some(climb) = super::offered_climb_out(world, m, landing)
        {
            let who = name(world, m);
            return Some((way_over.intent(who, over, landing), vec![climb]));
        }
    }
    // The near side: those with no way to the landing but by the jump.
    let mut near: Vec<(u32, Entity, GridPos)> = up
        .iter()
        .filter(|&&(m, p)| p != landing && way(world, m, p, landing).is_err())
        .filter_map(|&(m, p)| {
            let d = if p == take_off {
                0
            } else {
                way(world, m, p, take_off).ok()?.feet
            };
            Some((d, m, p))
        })
        .collect();
    if near.is_empty() {
        return None;
    }
    near.sort();
    let occupied = occupied_squares(world);
    let first_over = GridPos::new(
        take_off.x + (landing.x - take_off.x).signum(),
        take_off.y + (landing.y - take_off.y).signum(),
    );
    // One who landed steps on, off the edge (past the others if need be), to make room.
    if occupied.contains(&landing) {
        let (m, _) = *up.iter().find(|&&(_, p)| p == landing)?;
        let order = make_way(world, &up, Entity::PLACEHOLDER, landing, first_over)?;
        return Some((way_over.intent(name(world, m), over, landing), vec![order]));
    }
    // The first in line who can cross now goes (one too slow or too hurt to jump waits for
    // the others).
    let occupied_now = occupied;
    near.iter().find_map(|&(d, front, at)| {
        cross_one(
            world,
            mind,
            &up,
            (way_over, take_off, landing, over),
            &occupied_now,
            (d, front, at),
        )
    })
}

/// `front`, `d` feet from the take-off at `at`, crosses (or makes ready to): its orders, if it
/// can.
fn cross_one(
    world: &mut World,
    mind: &mut PartyMind,
    up: &[(Entity, GridPos)],
    (way_over, take_off, landing, over): (Over, GridPos, GridPos, GridPos),
    occupied: &[GridPos],
    (d, front, at): (u32, Entity, GridPos),
) -> Option<(Intent, Vec<Command>)> {
    // Another stands on the take-off (one who cannot cross now): it steps back off it first.
    if at != take_off
        && way_over != Over::Ledge
        && up.iter().any(|&(m, p)| m != front && p == take_off)
    {
        let order = make_way(world, up, front, take_off, over)?;
        return Some((
            way_over.intent(name(world, front), over, landing),
            vec![order],
        ));
    }
    let who = name(world, front);
    let intent = way_over.intent(who.clone(), over, landing);
    // Down a shaft and out on its far side: a rope lowered into it first; then each in turn
    // climbs down, and out of it onto the landing.
    if let Over::Shaft(shaft) = way_over {
        return down_the_shaft(world, up, (shaft, take_off, landing), (front, at), intent);
    }
    if way_over == Over::Ledge {
        let order = along_the_ledge(world, front, at, take_off, landing)?;
        return Some((intent, vec![order]));
    }
    if mind
        .gap_memory
        .jump_refused
        .iter()
        .filter(|&n| *n == who)
        .count()
        >= 2
    {
        // Its jump was refused twice: the rules will not have it; the party stops trying.
        return None;
    }
    let gap = gap_feet(world, take_off, landing);
    let odds = mind.policy.jump_odds;
    let scale = world.resource::<DungeonGrid>().scale_feet();
    let jump_feet = gap + scale;
    let speeds = {
        let conditions = world.get::<Conditions>(front).cloned().unwrap_or_default();
        world
            .get::<Encumbrance>(front)
            .and_then(|e| Speeds::of(e.0, &conditions))
    }?;
    let path = if at == take_off {
        None
    } else {
        Some(way(world, front, at, take_off).ok()?)
    };
    // Runners keep to a straight line (Dungeon Delves › Running).
    let straight = path.as_ref().is_none_or(|p| {
        let (a, b) = (p.squares[0], take_off);
        p.squares
            .iter()
            .all(|q| (q.x - a.x) * (b.y - a.y) == (q.y - a.y) * (b.x - a.x))
    });
    let fits = |pace: Pace| (d + jump_feet) as f32 <= speeds.rated(pace);
    let jump = |running: bool| -> Command {
        Jump {
            who: who.clone(),
            to: (landing.x, landing.y),
            from: (at != take_off).then_some((take_off.x, take_off.y)),
            running,
        }
        .into()
    };
    if d >= RUN_UP_FEET && chance(world, front, gap, true) >= odds {
        if fits(Pace::Combat) {
            return Some((intent, vec![jump(false)]));
        }
        if fits(Pace::Running) && straight {
            return Some((intent, vec![jump(true)]));
        }
        if d > RUN_UP_FEET
            && let Some(path) = &path
        {
            // Too far to run up and jump in one round: up to 20' short of the take-off first.
            // (The nearest free square on the way there, no farther.)
            let back = (RUN_UP_FEET / scale) as usize;
            let last = path.squares.len().saturating_sub(back + 1);
            let to = path.squares[..=last]
                .iter()
                .rev()
                .find(|q| !occupied.contains(q))?;
            return Some((intent, vec![walk(who.clone(), *to)]));
        }
    }
    if chance(world, front, gap, false) >= odds {
        if fits(Pace::Combat) {
            return Some((intent, vec![jump(false)]));
        }
        return Some((intent, vec![walk(who.clone(), take_off)]));
    }
    if speeds.rated(Pace::Combat) < (RUN_UP_FEET + jump_feet) as f32 {
        // No run-up fits in its round (and no straight run at running speed): a standing jump,
        // if a fall would not kill it (1d6 per 10', RULINGS › Pits and holes) — the party gets a
        // member out of a pit; left behind it would be lost for good.
        let depth = delve_rules::rules::caving::climbing::hole_at(world, over).unwrap_or(0);
        let hp = world.get::<HitPoints>(front).map_or(0, |h| h.current);
        let worst_fall = (depth / 10).max(1) as i32 * 6;
        if chance(world, front, gap, false) > 0.0 && hp > worst_fall && fits(Pace::Combat) {
            return Some((intent, vec![jump(false)]));
        }
        if chance(world, front, gap, false) > 0.0 && hp > worst_fall && at != take_off {
            return Some((intent, vec![walk(who.clone(), take_off)]));
        }
        return None;
    }
    // It needs a run-up: back to the nearest free square 20' or more from the take-off.
    // (A square nearer than 20' as the crow flies is no run-up: not asked.)
    let known = delve_rules::rules::movement::hazards::known_to(world, front);
    let way = |from: GridPos, to: GridPos| {
        delve_rules::rules::movement::hazards::way_knowing(world, &known, from, to)
    };
    let back = (-6..=6)
        .flat_map(|dy| (-6..=6).map(move |dx| (dx, dy)))
        .map(|(dx, dy)| GridPos::new(take_off.x + dx, take_off.y + dy))
        .filter(|&q| q.chebyshev(take_off) * scale >= RUN_UP_FEET)
        .filter(|&q| {
            !occupied.contains(&q) && delve_rules::rules::caving::footing::firm_ground(world, q)
        })
        .filter_map(|q| {
            let run = way(q, take_off).ok()?.feet;
            if run < RUN_UP_FEET {
                return None;
            }
            Some((way(at, q).ok()?.feet, q))
        })
        .min()?
        .1;
    Some((intent, vec![walk(who, back)]))
}

/// Down a shaft and out on its far side: a rope lowered into it first (by one beside it with
/// a rope); then `who`, at `at`, walks to the take-off and climbs down.
fn down_the_shaft(
    world: &mut World,
    up: &[(Entity, GridPos)],
    (shaft, take_off, landing): (GridPos, GridPos, GridPos),
    (front, at): (Entity, GridPos),
    intent: Intent,
) -> Option<(Intent, Vec<Command>)> {
    let roped = world.resource::<RopesSecured>().at(shaft).is_some();
    let lower = |a: &AnyAct| a.get::<LowerRope>().is_some();
    if !roped
        && let Some(order) = up
            .iter()
            .filter(|&&(_, p)| p.within_a_step(shaft) && p != landing)
            .find_map(|&(m, _)| super::offered_at_hole(world, m, shaft, lower))
    {
        return Some((intent, vec![order]));
    }
    // Down as the rules offer it (none: it cannot go down, and the next in line is asked).
    let down = |a: &AnyAct| {
        a.get::<ClimbDown>()
            .is_some_and(|c| !c.rappel && c.into == (shaft.x, shaft.y))
    };
    let order = if at.within_a_step(shaft) && at != shaft {
        super::offered(world, front, down)?
    } else {
        walk(name(world, front), take_off)
    };
    Some((intent, vec![order]))
}

/// Gaps in the way: jumps the rules refused, the level's narrowest ledge and its squeezes (found once), and the hole being jumped while some are still to cross.
#[derive(Clone, Debug, Default)]
pub(super) struct GapMemory {
    /// A name for each jump of that member the rules refused.
    pub(super) jump_refused: Vec<String>,
    /// The level's narrowest ledge, in inches ([`narrowest_ledge`]).
    pub(super) narrowest_ledge: Option<u32>,
    /// The level has squeezes ([`has_squeezes`]; found once: squeezes do not change).
    pub(super) has_squeezes: bool,
    /// The hole the party is jumping, take-off and landing, while some are still to cross.
    pub(super) crossing: Option<(GridPos, GridPos)>,
}

/// Along a ledge: up to its start, then a balancing traverse to the far side, as the rules
/// offer it there (none: `front` cannot traverse it).
fn along_the_ledge(
    world: &World,
    front: Entity,
    at: GridPos,
    take_off: GridPos,
    landing: GridPos,
) -> Option<Command> {
    if at == take_off {
        super::offered(world, front, |a| {
            a.get::<Traverse>()
                .is_some_and(|t| t.to == (landing.x, landing.y))
        })
    } else {
        Some(walk(name(world, front), take_off))
    }
}
