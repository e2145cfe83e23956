//! The fallen: taking a fallen companion's gear and lights, and getting a member out of a pit —
//! climbing out, or, down and alive, hauled up a rope (RULINGS › Carrying and hauling): the
//! party walks to the pit, the one with a rope lowers it from the rim, the fewest who can share
//! the weight within 20 stone apiece come to the rim and haul, 10' a round, until the dying one
//! is out. If no crew of the party can bear it, it is left.

use delve_ground::level::schema::{ConditionKind, Proficiency, Surface};
use delve_rules::act::AnyAct;
use delve_rules::creature::Below;
use delve_rules::rules::caving::climbing::RopesSecured;

use bevy::prelude::*;

use super::gaps::shaft_of_the_crossing;
use super::light::carried;
use super::round::{Decision, ThisRound};
use super::standing::in_sight;
use super::way::{free_square_beside, make_way, occupied_squares, on_the_way, walk_up_and};
use super::{
    Intent, PartyMind, is_up, name, offered, offered_at_hole, offered_climb_out, on_hand, square,
    with_the_party,
};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::command::Command;
use delve_rules::command::acts::Haul;
use delve_rules::command::acts::{ClimbDown, LowerRope, Move, TakeFrom};
use delve_rules::creature::{Conditions, Equipment, Position, Proficiencies};
use delve_rules::rules::carrying::{load_bearing, weight_of};
use delve_rules::rules::caving::footing::firm_ground;
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::movement::hazards::way;

/// The fallen within reach of the party's knowledge that carry something, not yet taken from
/// nor given up: its own fallen members, and any other fallen creature a member sees now.
/// `lights_only`: only those that carry a light with fuel. Its own fallen come first.
pub(super) fn fallen_with_gear(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    lights_only: bool,
) -> Vec<(Entity, GridPos)> {
    let fallen: Vec<(Entity, String, GridPos)> = delve_ground::query_cache::cached_query(
        world,
        |world, q: &mut QueryState<(Entity, &Name, &Position, &Conditions)>| {
            q.iter(world)
                .filter(|(.., c)| delve_rules::rules::conditions::is_down(c))
                .map(|(e, n, p, _)| (e, n.to_string(), p.0))
                .collect()
        },
    );
    if fallen.is_empty() {
        return Vec::new();
    }
    let with_light: Vec<Entity> = delve_ground::query_cache::cached_query(
        world,
        |world, q: &mut QueryState<(Entity, &LightSource, &CarriedBy)>| {
            q.iter(world)
                .filter(|(_, l, _)| l.fuel_rounds != Some(0))
                .map(|(_, _, c)| c.0)
                .collect()
        },
    );
    let mut out: Vec<(bool, Entity, GridPos)> = fallen
        .into_iter()
        .filter(|(e, n, p)| {
            !mind.fallen_memory.looted.contains(n)
                && (members.contains(e) || in_sight(world, members, *p))
                && world.get::<Below>(*e).is_none()
                && (with_light.contains(e)
                    || (!lights_only
                        && world.get::<Equipment>(*e).is_some_and(|g| !g.0.is_empty())))
        })
        .map(|(e, _, p)| (!members.contains(&e), e, p))
        .collect();
    out.sort();
    out.into_iter().map(|(_, e, p)| (e, p)).collect()
}

/// Remembers the fallen not of the party it sees with gear on them, where they lie, until
/// taken from or given up (`plan::Aim::TakeFrom`).
pub(super) fn remember_the_fallen(world: &mut World, mind: &mut PartyMind, members: &[Entity]) {
    let party = super::party_members(world, &mind.party);
    for (e, at) in fallen_with_gear(world, mind, members, false) {
        let n = name(world, e);
        if !party.contains(&e)
            && !mind
                .fallen_memory
                .seen_with_gear
                .iter()
                .any(|(m, _)| *m == n)
        {
            mind.fallen_memory.seen_with_gear.push((n, at));
        }
    }
    let looted = &mind.fallen_memory.looted;
    mind.fallen_memory
        .seen_with_gear
        .retain(|(n, _)| !looted.contains(n));
}

/// Outside a fight, the nearest member who is up takes the lights and gear of the fallen: its
/// own first (a lantern must not die with its bearer), then foes it sees fall (a key, a
/// treasure). It walks up to one not beside it.
pub(super) fn take_from_the_fallen(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    if super::fighting::in_a_fight(world, members) {
        return None;
    }
    let (fallen, at) = *fallen_with_gear(world, mind, members, false).first()?;
    let from = name(world, fallen);
    // Others than its own are taken from by a member beside them; the walk there the planner
    // weighs among its other plans (`plan::Aim::TakeFrom`: who can go there, at what odds).
    let own = super::party_members(world, &mind.party).contains(&fallen);
    if !own
        && !members.iter().any(|&m| {
            on_hand(world, mind, m) && square(world, m).is_some_and(|p| p.within_a_step(at))
        })
    {
        return None;
    }
    let grid = world.resource::<DungeonGrid>().clone();
    let taker = members
        .iter()
        .copied()
        .filter(|&m| on_hand(world, mind, m))
        .filter_map(|m| {
            let p = square(world, m)?;
            if p.within_a_step(at) {
                return Some((0, m, p));
            }
            let path = delve_rules::rules::movement::hazards::way(world, m, p, at).ok()?;
            Some((path.feet, m, p))
        })
        .min_by_key(|&(feet, m, _)| (feet, m));
    let intent = Intent::TakeFromTheFallen { from: from.clone() };
    let Some((_, taker, taker_at)) = taker else {
        mind.fallen_memory.looted.push(from);
        return None;
    };
    if taker_at.within_a_step(at) {
        mind.fallen_memory.taking_walks = 0;
        mind.fallen_memory.looted.push(from.clone());
        // As the rules offer it (nothing left to take, it is not).
        let take = offered(world, taker, |a| {
            a.get::<TakeFrom>().is_some_and(|t| t.from == from)
        })?;
        return Some((intent, vec![take]));
    }
    // Up to the nearest free square beside its own fallen, unless that is too far to be worth
    // it.
    let occupied = occupied_squares(world);
    let beside = at
        .neighbours()
        .into_iter()
        .filter(|p| grid.is_passable(*p) && !occupied.contains(p))
        .filter_map(|p| {
            delve_rules::rules::movement::hazards::way(world, taker, taker_at, p)
                .ok()
                .map(|path| (path.feet, p))
        })
        .min();
    mind.fallen_memory.taking_walks += 1;
    if mind.fallen_memory.taking_walks > 3 {
        mind.fallen_memory.taking_walks = 0;
        mind.fallen_memory.looted.push(from);
        return None;
    }
    match beside {
        Some((feet, p)) if feet <= 120 => Some((
            intent,
            vec![
                Move {
                    who: name(world, taker),
                    to: (p.x, p.y),
                    pace: Pace::Exploration,
                }
                .into(),
            ],
        )),
        _ => {
            mind.fallen_memory.looted.push(from);
            None
        }
    }
}

/// A member at the bottom of a pit climbs out to the rim, up a rope if one hangs there; with
/// none, one who carries a rope lowers it from beside the pit first. One who cannot climb out
/// is left there.
pub(super) fn out_of_the_pit(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(Intent, Vec<Command>)> {
    let below = members.iter().copied().find(|&m| {
        is_up(world, m)
            && world.get::<Below>(m).is_some()
            && !mind.fallen_memory.stranded_names.contains(&name(world, m))
            // (One on its way through a shaft the party is crossing climbs out on the far side.)
            && square(world, m) != shaft_of_the_crossing(world, mind)
    })?;
    let pit = square(world, below)?;
    // The rim on the party's side: firm ground beside the pit, nearest the nearest member who
    // is up on the floor (RULINGS › Pits and holes: the others do not walk across the hole) or,
    // bound home, nearest home; alone, the side it was heading for.
    let above: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| m != below && is_up(world, m) && world.get::<Below>(m).is_none())
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect();
    // (Bound home, the side toward home: members crossing back stand on both sides.)
    let side = mind
        .homeward
        .and(mind.exploring.home)
        .or_else(|| {
            above
                .iter()
                .map(|&(_, p)| p)
                .min_by_key(|&p| (p.chebyshev(pit), p))
        })
        .or(mind.exploring.heading_for);
    let rim = pit
        .neighbours()
        .into_iter()
        .filter(|&p| delve_rules::rules::caving::footing::firm_ground(world, p))
        .min_by_key(|&p| (side.map_or(0, |s| s.chebyshev(p)), p))?;
    let roped = world.resource::<RopesSecured>().at(pit).is_some();
    let intent = Intent::ClimbOut {
        who: name(world, below),
    };
    let climber = world.get::<Proficiencies>(below).is_some_and(|p| {
        delve_rules::rules::caving::climbing::climbing_target(p, Surface::Sheer).is_some()
    });
    let sheer = delve_rules::rules::caving::climbing::side_of(world, pit) == Surface::Sheer;
    if !roped && sheer && !climber {
        // The one with a rope nearest a rim it can reach (by the way there: the rim on the
        // far side, for one the hole parts from the rest) lowers it.
        let rims: Vec<GridPos> = pit
            .neighbours()
            .into_iter()
            .filter(|&p| delve_rules::rules::caving::footing::firm_ground(world, p))
            .collect();
        let lower = |a: &AnyAct| a.get::<LowerRope>().is_some();
        let roper = above
            .iter()
            .filter(|&&(m, _)| offered_at_hole(world, m, pit, lower).is_some())
            .filter_map(|&(m, p)| {
                if p.within_a_step(pit) {
                    return Some((0, m, p));
                }
                rims.iter()
                    .filter_map(|&r| {
                        let way =
                            delve_rules::rules::movement::hazards::way(world, m, p, r).ok()?;
                        Some((way.feet, m, r))
                    })
                    .min_by_key(|&(feet, _, r)| (feet, r.chebyshev(rim), r))
            })
            .min_by_key(|&(feet, m, _)| (feet, m));
        if let Some((_, roper, its_rim)) = roper
            && let Some(roper_at) = square(world, roper)
            && !roper_at.within_a_step(pit)
            && free_square_beside(world, roper, its_rim, pit).is_none()
            && let Some(order) = make_way(world, &above, roper, its_rim, pit)
        {
            // The one on the rim steps back for the one with the rope.
            return Some((intent, vec![order]));
        }
        if let Some((_, roper, its_rim)) = roper
            && let Some(order) = offered_at_hole(world, roper, pit, lower)
        {
            let party = mind.party.clone();
            return Some((
                intent,
                walk_up_and(world, &party, members, roper, its_rim, pit, order),
            ));
        }
    }
    // (No way out the rules offer it — a sheer side, no rope — and it is stranded until one
    // comes.)
    let Some(climb) = offered_climb_out(world, below, rim) else {
        mind.fallen_memory.stranded_names.push(name(world, below));
        return None;
    };
    Some((intent, vec![climb]))
}

/// A fallen member at the bottom of a pit carries lights or gear (the lantern, the oil): one of
/// the others climbs down on a rope to take them, and climbs out again ([`out_of_the_pit`]).
/// With no rope hanging there, the one with a rope lowers it first. Without a rope it cannot be
/// done, and the fallen is given up.
pub(super) fn fetch_from_the_pit(
    t: &mut super::round::ThisRound<'_>,
) -> Option<(Intent, Vec<Command>)> {
    let (world, mind, members) = (&mut *t.world, &mut *t.mind, t.members);
    let below = |world: &World, m: Entity| world.get::<Below>(m).is_some();
    let fallen = members.iter().copied().find(|&m| {
        !is_up(world, m)
            && below(world, m)
            && !mind.fallen_memory.looted.contains(&name(world, m))
            && (world.get::<Equipment>(m).is_some_and(|g| !g.0.is_empty())
                || carried(world, &[m])
                    .iter()
                    .any(|(.., l)| l.fuel_rounds != Some(0)))
    })?;
    let pit = square(world, fallen)?;
    let from = name(world, fallen);
    if mind.fallen_memory.pits_given_up.contains(&pit) {
        mind.fallen_memory.looted.push(from);
        return None;
    }
    let intent = Intent::TakeFromTheFallen { from: from.clone() };
    // Far off: the party walks back to the pit's rim as it walks anywhere; with no way known,
    // what lies in it is given up.
    if let Err(far) = walk_up_to(t, pit, intent.clone()) {
        if far.is_none() {
            t.mind.fallen_memory.looted.push(from);
        }
        return far;
    }
    let (world, mind, members) = (&mut *t.world, &mut *t.mind, t.members);
    // One already down there takes them.
    if let Some(&down_there) = members
        .iter()
        .find(|&&m| is_up(world, m) && below(world, m) && square(world, m) == Some(pit))
    {
        mind.fallen_memory.looted.push(from.clone());
        let take = offered(world, down_there, |a| {
            a.get::<TakeFrom>().is_some_and(|t| t.from == from)
        })?;
        return Some((intent, vec![take]));
    }
    let above: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && !below(world, m))
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect();
    let roped = world.resource::<RopesSecured>().at(pit).is_some();
    let party = mind.party.clone();
    let leader_at = above.first()?.1;
    if !roped {
        let lower = |a: &AnyAct| a.get::<LowerRope>().is_some();
        let Some((roper, order)) = above
            .iter()
            .find_map(|&(m, _)| offered_at_hole(world, m, pit, lower).map(|o| (m, o)))
        else {
            mind.fallen_memory.looted.push(from);
            return None;
        };
        return Some((
            intent,
            walk_up_and(world, &party, members, roper, leader_at, pit, order),
        ));
    }
    // The best climber goes down (the rope makes the climb easy for anyone).
    let (fetcher, _) = *above.iter().max_by_key(|&&(m, _)| {
        let climber = world
            .get::<Proficiencies>(m)
            .is_some_and(|p| p.has(Proficiency::Climbing) || p.has(Proficiency::Mountaineering));
        (climber, std::cmp::Reverse(m))
    })?;
    let down = |a: &AnyAct| a.get::<ClimbDown>().is_some_and(|c| !c.rappel);
    let Some(order) = offered_at_hole(world, fetcher, pit, down) else {
        mind.fallen_memory.pits_given_up.push(pit);
        return None;
    };
    Some((
        intent,
        walk_up_and(world, &party, members, fetcher, leader_at, pit, order),
    ))
}

/// Is the party at hand to `spot` (its leader within the column's length of it)? `Ok` if so;
/// else the party's walk to the nearest square beside it it knows a way to (as it walks
/// anywhere: doors, holes to jump), or `Err(None)` with no way known.
pub(super) fn walk_up_to(
    t: &mut super::round::ThisRound<'_>,
    spot: GridPos,
    intent: Intent,
) -> Result<(), Option<(Intent, Vec<Command>)>> {
    if t.here.chebyshev(spot) <= with_the_party(t.members) {
        return Ok(());
    }
    let (Some(sight), Some(from_here)) = (t.sight.as_ref(), t.from_here.as_ref()) else {
        return Err(None);
    };
    let know = sight.knowledge();
    let walk = GridPos::new(spot.x, spot.y)
        .neighbours()
        .into_iter()
        .filter_map(|p| from_here.walk_to(know.grid, p))
        .min_by_key(Vec::len);
    let Some(walk) = walk else {
        return Err(None);
    };
    let to = *walk.last().expect("a walk holds its start");
    Err(on_the_way(
        t.world, t.mind, t.members, &know, &walk, to, intent,
    ))
}

/// The party can go down into the pit at `pit` or bring one up from it: a rope hangs there,
/// or a member up (other than `but`) carries one.
fn rope_for_the_pit(world: &World, members: &[Entity], pit: GridPos, but: Entity) -> bool {
    members.iter().any(|&o| {
        o != but && is_up(world, o) && world.get::<Equipment>(o).is_some_and(|g| g.has_rope(0))
    }) || world.resource::<RopesSecured>().at(pit).is_some()
}

/// A member at the bottom of a pit the party cannot go down to or bring up
/// ([`rope_for_the_pit`]): what it carries (its light) is lost to the party.
pub(super) fn beyond_reach_in_a_pit(world: &World, members: &[Entity], m: Entity) -> bool {
    world.get::<Below>(m).is_some()
        && square(world, m).is_some_and(|pit| !rope_for_the_pit(world, members, pit, m))
}

/// A fallen member at the bottom of a pit still carries a light with fuel, and the party can go
/// down for it: a rope hangs there or one of it carries a rope ([`fetch_from_the_pit`]).
pub(super) fn light_in_a_pit(world: &mut World, mind: &PartyMind, members: &[Entity]) -> bool {
    members.iter().copied().any(|m| {
        !is_up(world, m)
            && world.get::<Below>(m).is_some()
            && !mind.fallen_memory.looted.contains(&name(world, m))
            && square(world, m).is_some_and(|pit| {
                !mind.fallen_memory.pits_given_up.contains(&pit)
                    && rope_for_the_pit(world, members, pit, m)
            })
            && carried(world, &[m])
                .iter()
                .any(|(.., l)| l.fuel_rounds != Some(0))
    })
}

/// The fallen and the stranded: members left at the bottom of pits, those taken from, pits given up, walks toward the fallen and to bring a bearer, and members no one could bear or reach.
#[derive(Clone, Debug, Default)]
pub(super) struct FallenMemory {
    /// Members at the bottom of a pit who could not climb out, and were left there.
    pub(super) stranded_names: Vec<String>,
    /// The fallen it has taken from, or given up taking from.
    pub(super) looted: Vec<String>,
    /// Pits it will not climb down into or lower a rope into again (the rules refused it).
    pub(super) pits_given_up: Vec<GridPos>,
    /// Walks given toward a fallen creature not yet beside it: three, and it is given up.
    pub(super) taking_walks: u32,
    /// Fallen creatures not of the party seen with gear on them, by name, where they lie: what
    /// the planner may fetch (`plan::Aim::TakeFrom`) once they are out of sight.
    pub(super) seen_with_gear: Vec<(String, GridPos)>,
    /// Walks given to bring a bearer beside a downed member: four, and it is left.
    pub(super) carry_walks: u32,
    /// Downed members no one could bear or reach.
    pub(super) left_for_good: Vec<String>,
    /// Downed members put down before a squeeze their bearer would have stuck in for good.
    pub(super) put_down: Vec<String>,
}

// Hauling the dying up a rope.

/// The tactic: a member down and alive at the bottom of a hole is hauled out, if the party has
/// a rope there or with it.
pub(super) fn haul_up_the_dying(t: &mut ThisRound<'_>) -> Option<Decision> {
    let (world, mind, members) = (&*t.world, &*t.mind, t.members);
    let dying = members.iter().copied().find(|&m| {
        !is_up(world, m)
            && world.get::<Below>(m).is_some()
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| !c.has(ConditionKind::Dead))
            && !mind.fallen_memory.left_for_good.contains(&name(world, m))
    })?;
    let pit = square(world, dying)?;
    let whom = name(world, dying);
    let above: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .collect();
    let roped = world.resource::<RopesSecured>().at(pit).is_some();
    if !roped && !above.iter().any(has_rope_in(world)) {
        return None;
    }
    // No crew of the party can share the weight within 20 stone apiece (RULINGS › Carrying and
    // hauling): it is left, as one too heavy to carry is.
    if crew_for(world, dying, &above).is_none() {
        t.mind.fallen_memory.left_for_good.push(whom);
        return None;
    }
    let intent = Intent::HaulUp { whom: whom.clone() };
    if let Err(far) = walk_up_to(t, pit, intent.clone()) {
        return far;
    }
    let (world, members) = (&mut *t.world, t.members);
    if !roped {
        // The one with a rope lowers it from the rim nearest it by the way there; with no rim
        // within reach of a rope, the dying one is left.
        let nearest_rim = |m: Entity| {
            let at = square(world, m)?;
            pit.neighbours()
                .into_iter()
                .filter(|&p| firm_ground(world, p))
                .filter_map(|p| {
                    let feet = if p == at {
                        0
                    } else {
                        way(world, m, at, p).ok()?.feet
                    };
                    Some((feet, p))
                })
                .min()
        };
        let Some((_, roper, rim)) = above
            .iter()
            .copied()
            .filter(has_rope_in(world))
            .filter_map(|m| nearest_rim(m).map(|(feet, rim)| (feet, m, rim)))
            .min()
        else {
            t.mind.fallen_memory.left_for_good.push(whom);
            return None;
        };
        let order = Command::from(LowerRope {
            who: name(world, roper),
            at: (pit.x, pit.y),
        });
        let party = t.mind.party.clone();
        return Some((
            intent,
            walk_up_and(world, &party, members, roper, rim, pit, order),
        ));
    }
    let crew = crew_for(world, dying, &above)?;
    let on_rim = |m: Entity| {
        world.get::<Below>(m).is_none() && square(world, m).is_some_and(|p| p.is_adjacent(pit))
    };
    if let Some(&away) = crew.iter().find(|&&m| !on_rim(m)) {
        // One of the crew walks to a free square of the rim it can reach.
        let taken: Vec<GridPos> = members.iter().filter_map(|&m| square(world, m)).collect();
        let from = square(world, away)?;
        let rim = pit
            .neighbours()
            .into_iter()
            .filter(|&p| firm_ground(world, p) && !taken.contains(&p))
            .filter_map(|p| Some((way(world, away, from, p).ok()?.feet, p)))
            .min()?
            .1;
        let step = Command::from(Move {
            who: name(world, away),
            to: (rim.x, rim.y),
            pace: Pace::Combat,
        });
        return Some((intent, vec![step]));
    }
    let names: Vec<String> = crew.iter().map(|&m| name(world, m)).collect();
    let haul = Command::from(Haul {
        who: names[0].clone(),
        whom,
        with: names[1..].to_vec(),
    });
    Some((intent, vec![haul]))
}

/// The fewest of `above` who can haul `dying` together, each bearing its share within 20
/// stone: those on the side of the pit where most of the party stands first (the hauled comes
/// up on the first one's square, among them), the lightest laden first.
fn crew_for(world: &World, dying: Entity, above: &[Entity]) -> Option<Vec<Entity>> {
    let load = |m: Entity| load_bearing(world, m, 0.0).unwrap_or(f32::MAX);
    let with_it = |m: Entity| {
        let Some(from) = square(world, m) else {
            return 0;
        };
        above
            .iter()
            .filter(|&&o| {
                square(world, o)
                    .is_some_and(|to| to.within_a_step(from) || way(world, m, from, to).is_ok())
            })
            .count()
    };
    let mut lightest = above.to_vec();
    lightest.sort_by(|&a, &b| {
        with_it(b)
            .cmp(&with_it(a))
            .then(load(a).total_cmp(&load(b)))
            .then(a.cmp(&b))
    });
    (1..=lightest.len()).find_map(|n| {
        let crew = &lightest[..n];
        let share = weight_of(world, dying) / n as f32;
        crew.iter()
            .all(|&m| load_bearing(world, m, share).is_ok())
            .then(|| crew.to_vec())
    })
}

/// Does a member carry a rope?
fn has_rope_in(world: &World) -> impl Fn(&Entity) -> bool + '_ {
    |m| world.get::<Equipment>(*m).is_some_and(|g| g.has_rope(0))
}
