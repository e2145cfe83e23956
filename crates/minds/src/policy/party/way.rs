//! The party's way: where it goes next (the goal, the edge of what it has seen, a dead end to
//! search), turning back, setting out and closing up, and what it meets on the way.

use crate::policy::knowledge::Distances;
use delve_rules::creature::{CreatureIndex, Encumbrance};
use delve_rules::rules::movement::Speeds;

use bevy::prelude::*;

use super::doors::{carries_spikes, deal_with_door, disarmer, front_fighter, spiker};
use super::fighting::foe_at_hand;
use super::gaps::{Over, cross};
use super::light::{burns_forever, carried};
use super::standing::in_sight;
use super::{
    DoorPlan, Homeward, Intent, PartyMind, first_in_line, free_to_act, is_up, leader, name,
    on_hand, square, take_the_lead, with_the_party,
};
use crate::policy::knowledge::{Knowledge, Step};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::Goal;
use delve_ground::level::schema::Gear;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::command::Command;
use delve_rules::command::acts::{Douse, LightUp, MarchingOrder, Move, MoveParty, Probe};
use delve_rules::creature::{Conditions, Equipment, Faction, Position};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::traps::{Trap, TrapState};

/// Strung out (its light far from its leader, or a member far behind): the party closes up on
/// its leader before it goes on.
pub(super) fn close_up(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    leader: Entity,
    here: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let far = |p: GridPos, squares: u32| here.chebyshev(p) > squares;
    let with_us: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| m != leader && on_hand(world, mind, m))
        .filter_map(|m| square(world, m).map(|p| (m, p)))
        .collect();
    let light_far = carried(world, members)
        .iter()
        .filter(|(_, _, l)| l.lit)
        .filter_map(|(b, ..)| with_us.iter().find(|(m, _)| m == b))
        .any(|(_, p)| far(*p, 2));
    let straggler = with_us
        .iter()
        .any(|(_, p)| far(*p, with_the_party(members)));
    if !(light_far || straggler) {
        return None;
    }
    // A crossing under way with one cut off from the leader by it: bringing them together is
    // the crossing's business (`gaps::rejoin_across`), and none walks away from the take-off.
    if mind.gap_memory.crossing.is_some()
        && with_us.iter().any(|&(m, p)| {
            far(p, with_the_party(members))
                && delve_rules::rules::movement::hazards::way(world, m, p, here).is_err()
        })
    {
        return None;
    }
    // Each one far behind walks up to the nearest free square on its way to the leader.
    let mut taken = occupied_squares(world);
    let mut orders: Vec<Command> = Vec::new();
    for (m, p) in with_us {
        // (One stuck in a squeeze can only escape it: `decide::get_unstuck`.)
        let stuck = world
            .get::<delve_rules::creature::Conditions>(m)
            .is_some_and(|c| c.has(delve_ground::level::schema::ConditionKind::Stuck));
        if !far(p, 1) || stuck {
            continue;
        }
        let Some(path) = delve_rules::rules::movement::hazards::way(world, m, p, here).ok() else {
            continue;
        };
        let Some(&to) = path
            .squares
            .iter()
            .rev()
            .skip(1)
            .find(|q| !taken.contains(q) || **q == p)
        else {
            continue;
        };
        if to == p {
            continue;
        }
        taken.push(to);
        orders.push(
            Move {
                who: name(world, m),
                to: (to.x, to.y),
                pace: Pace::Exploration,
            }
            .into(),
        );
    }
    (!orders.is_empty()).then_some((Intent::CloseUp, orders))
}

/// Setting out: the policy's marching order and the probing pole.
pub(super) fn setting_out(world: &mut World, mind: &PartyMind, members: &[Entity]) -> Vec<Command> {
    let mut orders: Vec<Command> = Vec::new();
    if let Some(order) = &mind.policy.marching_order {
        orders.push(
            MarchingOrder {
                party: mind.party.clone(),
                order: order.clone(),
            }
            .into(),
        );
    }
    if let Some(bearer) = &mind.policy.light_bearer {
        let has_lit = |world: &mut World, who: &str| {
            let e = world.resource::<CreatureIndex>().0.get(who).copied();
            e.is_some_and(|e| carried(world, &[e]).iter().any(|(.., l)| l.lit))
        };
        if !has_lit(world, bearer) {
            for &m in members {
                let n = name(world, m);
                if n != *bearer && carried(world, &[m]).iter().any(|(.., l)| l.lit) {
                    orders.push(Douse { who: n }.into());
                }
            }
            orders.push(
                LightUp {
                    who: bearer.clone(),
                }
                .into(),
            );
        }
    }
    if mind.policy.probe_with_pole
        && let Some(&pole) = members.iter().find(|&&m| {
            world
                .get::<Equipment>(m)
                .is_some_and(|g| g.has(&Gear::TenFootPole))
        })
    {
        orders.push(
            Probe {
                who: name(world, pole),
                on: true,
            }
            .into(),
        );
    }
    orders
}

/// Does every member who is up swim: proficient in Swimming, or with a swimming speed (Dungeon
/// Delves › Swimming)?
pub(super) fn all_swim(world: &World, members: &[Entity]) -> bool {
    members
        .iter()
        .filter(|&&m| is_up(world, m))
        .all(|&m| swimming_fails(world, m) <= SWIMMER_MAY_FAIL)
}

/// The most a careful party lets a member risk failing its Swimming throw each round it swims
/// (a natural 1): water over the head is a way on only then.
pub(super) const SWIMMER_MAY_FAIL: f32 = 0.05;

/// The chance that `m` fails its Swimming throw in a round afloat (Dungeon Delves › Swimming
/// and Drowning): none for one with a swimming speed or one proficient whose net target is 0 or
/// less (no throw); else a d20 under the net target (a 1 fails).
pub(super) fn swimming_fails(world: &World, m: Entity) -> f32 {
    let Some((target, mods)) = delve_rules::rules::water::swimming_throw_at(world, m, None) else {
        return 0.0;
    };
    let net = target - mods.iter().map(|m| m.value).sum::<i32>();
    (net - 1).clamp(1, 20) as f32 / 20.0
}

/// The armed traps the faction knows, and the holes (open pits: RULINGS › Pits and holes).
pub(super) fn known_traps(world: &mut World, faction: Faction) -> (Vec<GridPos>, Vec<GridPos>) {
    let (mut traps, mut holes) = (Vec::new(), Vec::new());
    delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Trap)>| {
        for (p, t) in q.iter().filter(|(_, t)| t.known_to(Some(faction))) {
            if t.is_hole() {
                holes.push(p.0);
            } else if t.state == TrapState::Armed {
                traps.push(p.0);
            }
        }
    });
    traps.sort();
    holes.sort();
    (traps, holes)
}

/// Should the party turn for home now, and why?
pub(super) fn turn_back(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &Distances,
) -> Option<Homeward> {
    if goal_met(world, mind, members) {
        return Some(Homeward::GoalMet);
    }
    // Dungeon Delves › Light and Darkness: the light left against the walk out.
    let rounds_home = rounds_home(world, mind, members, know, from_here)?;
    if mind.fuel_at_start == 0 || burns_forever(world, members) {
        return None;
    }
    // A light at the bottom of a pit no one can go down to lights no walk home. (The whole
    // party's lights: those waiting for part of it carry light for all.)
    let party = super::party_members(world, &mind.party);
    let within_reach: Vec<Entity> = party
        .iter()
        .copied()
        .filter(|&m| !super::fallen::beyond_reach_in_a_pit(world, &party, m))
        .collect();
    let fuel = crate::policy::outcome::fuel_rounds(world, &within_reach);
    let margin = mind.policy.light_margin_turns as u64 * ROUNDS_PER_TURN;
    (fuel < rounds_home + margin).then_some(Homeward::LightShort)
}

/// The rounds the walk home takes from here, at the slowest member's exploration speed.
pub(super) fn rounds_home(
    world: &World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &Distances,
) -> Option<u64> {
    let cost = from_here.cost(know.grid, home(mind, know, from_here))?;
    rounds_to_walk(world, members, cost, know.grid.scale_feet())
}

/// The rounds a walk of `cost` (half squares, as `knowledge::Distances` counts them) takes, at
/// the slowest member's exploration speed.
pub(super) fn rounds_to_walk(
    world: &World,
    members: &[Entity],
    cost: u32,
    scale_feet: u32,
) -> Option<u64> {
    let feet = (cost / 2 * scale_feet) as u64;
    let tenths = members
        .iter()
        .filter(|&&m| is_up(world, m))
        .filter_map(|&m| {
            let enc = world.get::<Encumbrance>(m)?;
            let cond = world.get::<Conditions>(m)?;
            Speeds::of(enc.0, cond).map(|s| s.tenths_per_round(Pace::Exploration) as u64)
        })
        .min()
        .filter(|&t| t > 0)?;
    Some(feet * 10 / tenths)
}

pub(super) fn goal_met(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let up: Vec<GridPos> = members
        .iter()
        .filter(|&&m| is_up(world, m))
        .filter_map(|&m| square(world, m))
        .collect();
    match &mind.goal {
        Goal::ExploreAll | Goal::Exit(_) => false,
        Goal::Reach(p) => up.contains(p),
        Goal::Room(_) => up.iter().any(|q| mind.exploring.goal_room.contains(q)),
        Goal::Recover(gear) => members
            .iter()
            .any(|&m| world.get::<Equipment>(m).is_some_and(|g| g.has(gear))),
    }
}

/// The goal's square, once the party has seen it and can walk there.
pub(super) fn goal_square(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
) -> Option<GridPos> {
    match mind.goal {
        Goal::Reach(p) | Goal::Room(p) | Goal::Exit(p) => {
            (know.has_seen(p) && from_here.cost(know.grid, p).is_some()).then_some(p)
        }
        Goal::ExploreAll | Goal::Recover(_) => None,
    }
}

/// Up to `n` edges of what the party has seen — a square beside the unseen, or a closed door
/// with the unseen beyond, not yet given up; doors where someone was heard come last — nearest
/// first, each at least [`EDGES_APART`] squares from those before it: the ways on the planner
/// weighs (the nearest may lie past a foe too strong for it; another, farther, may not).
pub(super) fn edges(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
    here: GridPos,
    n: usize,
) -> Vec<GridPos> {
    let candidates = from_here.reachable(know.grid).filter(|&(p, _)| {
        p != here
            && !mind.exploring.exhausted.contains(&p)
            && match know.step(p) {
                Step::ClosedDoor => p
                    .neighbours()
                    .iter()
                    .any(|&q| know.grid.in_bounds(q) && !know.has_seen(q)),
                Step::Open => know.frontier(p),
                _ => false,
            }
    });
    let (mut now, mut later): (Vec<_>, Vec<_>) =
        candidates.partition(|(p, _)| !mind.door_memory.later.contains(p));
    now.sort_by_key(|&(p, c)| (c, p));
    later.sort_by_key(|&(p, c)| (c, p));
    let mut taken: Vec<GridPos> = Vec::new();
    for (p, _) in now.into_iter().chain(later) {
        if taken.len() >= n {
            break;
        }
        if taken.iter().all(|q| q.chebyshev(p) >= EDGES_APART) {
            taken.push(p);
        }
    }
    taken
}

/// Squares (Chebyshev) between the edges the planner weighs.
pub(super) const EDGES_APART: u32 = 5;

/// Walks toward `target` along `walk`, dealing with the first door or known trap on the way.
pub(super) fn on_the_way(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    target: GridPos,
    intent: Intent,
) -> Option<(Intent, Vec<Command>)> {
    use delve_ground::grid::terrain::Terrain;
    let here = walk[0];
    let fleeing = mind.homeward == Some(Homeward::Fleeing);
    // In a battle (fleeing, or keeping clear of a foe too strong for it) at combat speed.
    let pace = if fleeing || super::fighting::in_a_fight(world, members) {
        Pace::Combat
    } else {
        Pace::Exploration
    };
    let mut stop = target;
    for (k, &p) in walk.iter().enumerate().skip(1) {
        // A hole to jump: the party lines up 20' short of the take-off (a run-up for each), then
        // crosses one a round.
        if walk[k - 1].chebyshev(p) >= 2 {
            match over_a_hole(world, mind, members, know, walk, k, target) {
                AtStep::Walk => {}
                AtStep::StopAt(at) => {
                    stop = at;
                    break;
                }
                AtStep::Orders(orders) => return orders,
            }
        }
        // A door is stopped before when it is shut, or out of sight (it may have shut since).
        let door = know.grid.terrain(p) == Some(Terrain::Door)
            && (know.step(p) == Step::ClosedDoor || !in_sight(world, members, p));
        // A known trap on the way: the thief tries to disarm it hastily, then methodically (a
        // turn; the party waits while it works); after that it is crossed at its chance.
        let tries = mind
            .exploring
            .traps_tried
            .iter()
            .filter(|&&q| q == p)
            .count();
        let trap = know.step(p) == Step::Trap && mind.policy.disarm_traps && tries < 2;
        // Fleeing, it stops just past an open door it has spikes for, to spike it behind.
        if fleeing
            && !door
            && know.grid.terrain(p) == Some(Terrain::Door)
            && know.step(p) == Step::Open
            && !mind.door_memory.spiked_behind.contains(&p)
            && members
                .iter()
                .any(|&m| super::is_up(world, m) && carries_spikes(world, m))
            && let Some(&past) = walk.get(k + 1)
        {
            stop = past;
            break;
        }
        if !(door || trap) {
            continue;
        }
        match at_a_door_or_trap(world, mind, members, know, walk, k, (door, tries)) {
            AtStep::Walk => {}
            AtStep::StopAt(at) => {
                stop = at;
                break;
            }
            AtStep::Orders(orders) => return orders,
        }
    }
    let stop = along_the_walk(world, members, know, walk, stop);
    // The same walk again from the same square: something stands in the way.
    if mind.exploring.heading_for == Some(stop) && mind.walking.last_walk_from == Some(here) {
        mind.walking.stalls += 1;
        if mind.walking.stalls >= 3 {
            mind.exploring.exhausted.extend([stop, target]);
            mind.walking.stalls = 0;
        }
    } else {
        mind.walking.stalls = 0;
    }
    mind.walking.last_walk_from = Some(here);
    mind.exploring.heading_for = Some(stop);
    let intent = if stop == target {
        intent
    } else {
        Intent::Approach { to: stop }
    };
    let mut orders: Vec<Command> = Vec::new();
    if !fleeing && let Some(order) = pole_ahead(world, mind, members, know, walk, stop) {
        orders.push(order);
    }
    orders.push(
        MoveParty {
            party: mind.party.clone(),
            to: (stop.x, stop.y),
            pace,
        }
        .into(),
    );
    Some((intent, orders))
}

/// What a step of the party's walk comes to.
enum AtStep {
    /// It walks on past it.
    Walk,
    /// It stops at this square (short of the step).
    StopAt(GridPos),
    /// These orders instead of the walk (none: the way is given up).
    Orders(Option<(Intent, Vec<Command>)>),
}

/// A hole to jump between `walk[k - 1]` and `walk[k]`: the party lines up 20' short of the
/// take-off (a run-up for each), then crosses one a round.
fn over_a_hole(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    k: usize,
    target: GridPos,
) -> AtStep {
    let p = walk[k];
    // (Along a ledge or down a shaft there is no run-up: the party stops at its start.)
    let run_up = Over::of(world, walk[k - 1], p, know.jumps) == Over::Hole;
    let line_up = if run_up {
        (delve_rules::rules::caving::jumping::RUN_UP_FEET / know.grid.scale_feet()) as usize
    } else {
        0
    };
    mind.gap_memory.crossing = Some((walk[k - 1], p));
    // (One of it already on the take-off, the crossing begins: none walks up onto it.)
    let on_the_take_off = members
        .iter()
        .any(|&m| is_up(world, m) && square(world, m) == Some(walk[k - 1]));
    if k - 1 > line_up && !(line_up == 0 && on_the_take_off) {
        return AtStep::StopAt(walk[k - 1 - line_up]);
    }
    AtStep::Orders(cross(world, mind, members, walk[k - 1], p).or_else(|| {
        mind.exploring.exhausted.push(target);
        None
    }))
}

/// A shut door or a known trap at `walk[k]` (`door`; the thief's `tries` at the trap so far).
fn at_a_door_or_trap(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    k: usize,
    (door, tries): (bool, usize),
) -> AtStep {
    let (here, p) = (walk[0], walk[k]);
    let party = mind.party.clone();
    // A companion already stands before the door (it went ahead to search or pick): it
    // leads from here, as no one passes it in a corridor.
    if door
        && k > 1
        && let Some(&ahead) = members
            .iter()
            .find(|&&m| is_up(world, m) && square(world, m) == Some(walk[k - 1]))
    {
        return AtStep::Orders(Some((
            Intent::Approach { to: walk[k - 1] },
            vec![first_in_line(world, &party, members, ahead)],
        )));
    }
    // A trap to prod: the pole reaches it from 10' away, two squares short of it.
    if !door && super::doors::may_prod(world, mind, members, p) {
        if k > 2 {
            return AtStep::StopAt(walk[k - 2]);
        }
        if let Some(orders) = super::doors::prod(world, mind, members, know, p) {
            return AtStep::Orders(Some(orders));
        }
    }
    if k > 1 {
        return AtStep::StopAt(walk[k - 1]);
    }
    if door && know.step(p) == Step::ClosedDoor {
        return AtStep::Orders(Some(deal_with_door(world, mind, members, p)));
    }
    if door {
        if let Some(w) = mind.door_memory.door_work.get(&p)
            && w.evil
            && !w.wedged
            && let Some((spiker, spike)) = spiker(world, members, p)
        {
            return AtStep::Orders(Some((
                Intent::Door {
                    at: p,
                    how: DoorPlan::Wedge,
                },
                walk_up_and(world, &party, members, spiker, here, p, spike),
            )));
        }
        return AtStep::Walk;
    }
    if let Some((thief, disarm)) = disarmer(world, members, p, tries == 0) {
        mind.exploring.traps_tried.push(p);
        return AtStep::Orders(Some((
            Intent::Disarm { at: p },
            walk_up_and(world, &party, members, thief, here, p, disarm),
        )));
    }
    mind.exploring.traps_tried.extend([p, p]);
    AtStep::Walk
}

/// The farthest square of the planned walk, up to `stop`, to which the leader's own walk keeps
/// to squares the party knows it can cross, and out of danger the planned walk keeps out of. The
/// rules walk the shortest way, and that may cut through water over the head of one who cannot
/// swim, past a foe too strong for the party, or through squares no one has seen
/// (RULINGS › Knowledge: the party plays by what it knows); the planned walk goes round, so
/// the party walks it a leg at a time.
fn along_the_walk(
    world: &World,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    stop: GridPos,
) -> GridPos {
    let (Some(leader), Some(&here)) = (leader(world, members), walk.first()) else {
        return stop;
    };
    let end = walk
        .iter()
        .position(|&p| p == stop)
        .unwrap_or(walk.len() - 1);
    let known = delve_rules::rules::movement::hazards::known_to(world, leader);
    let keeps_to = |to: GridPos| {
        delve_rules::rules::movement::hazards::way_knowing(world, &known, here, to).is_ok_and(
            |way| {
                way.squares.iter().all(|&q| {
                    know.step(q) != Step::Blocked && (!know.dangerous(q) || walk.contains(&q))
                })
            },
        )
    };
    (1..=end)
        .rev()
        .map(|k| walk[k])
        .find(|&p| keeps_to(p))
        .unwrap_or(stop)
}

/// Dungeon Delves › Traps (a 10' pole probing ahead enters each square before its bearer):
/// where the way is suspect — a passage one square wide no member has walked yet — the pole's
/// bearer goes first, so the pole, not a foot, meets a trap there; where it is not, the front
/// fighter leads again (with `pole_ahead`). The order changes only while the leader stands
/// where others can pass it (not in a passage one square wide), and not with a foe at hand.
fn pole_ahead(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
    stop: GridPos,
) -> Option<Command> {
    if !(mind.policy.probe_with_pole && mind.policy.pole_ahead) {
        return None;
    }
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    // One square wide: walled on both sides across one of its axes.
    let narrow = |p: GridPos| {
        let shut = |dx: i32, dy: i32| !know.open(GridPos::new(p.x + dx, p.y + dy));
        (shut(0, -1) && shut(0, 1)) || (shut(-1, 0) && shut(1, 0))
    };
    if narrow(here) || foe_at_hand(world, mind, members) {
        return None;
    }
    let bearer = members.iter().copied().find(|&m| {
        on_hand(world, mind, m)
            && free_to_act(world, m)
            && world
                .get::<Equipment>(m)
                .is_some_and(|g| g.has(&Gear::TenFootPole))
    })?;
    let end = walk
        .iter()
        .position(|&p| p == stop)
        .unwrap_or(walk.len() - 1);
    let suspect = walk[1..=end]
        .iter()
        .any(|&p| narrow(p) && !mind.exploring.trodden.contains(&p));
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| on_hand(world, mind, m) && free_to_act(world, m))
        .collect();
    let first = if suspect {
        bearer
    } else if leader == bearer {
        front_fighter(world, &up)?
    } else {
        return None;
    };
    (first != leader).then(|| first_in_line(world, &mind.party, members, first))
}

/// A member's order at a door or trap beside the leader: if it is not beside it already, it
/// first steps up to a free square beside it, or, where there is none (a corridor), takes the
/// lead and walks up to the leader's square as the others make way.
pub(super) fn walk_up_and(
    world: &mut World,
    party: &str,
    members: &[Entity],
    who: Entity,
    leader_at: GridPos,
    thing: GridPos,
    order: Command,
) -> Vec<Command> {
    if square(world, who).is_some_and(|p| p.within_a_step(thing) && p != thing) {
        return vec![order];
    }
    match free_square_beside(world, who, leader_at, thing) {
        Some(p) => vec![
            Move {
                who: name(world, who),
                to: (p.x, p.y),
                pace: Pace::Exploration,
            }
            .into(),
        ],
        None => {
            // No room beside it (a corridor one wide): the companion on the square before it
            // steps back past the others to make room (one may walk through a companion's
            // square, not stop on it), and `who` walks up next round.
            let above: Vec<(Entity, GridPos)> = members
                .iter()
                .copied()
                .filter(|&m| is_up(world, m))
                .filter_map(|m| Some((m, square(world, m)?)))
                .collect();
            match make_way(world, &above, who, leader_at, thing) {
                // `who` leads from here and walks up at once (were it only put first, the
                // others would close up on it, back where it stood).
                Some(step_back) => vec![
                    first_in_line(world, party, members, who),
                    step_back,
                    Move {
                        who: name(world, who),
                        to: (leader_at.x, leader_at.y),
                        pace: Pace::Exploration,
                    }
                    .into(),
                ],
                None => take_the_lead(world, party, members, who, leader_at),
            }
        }
    }
}

/// One standing on the square `spot` beside `thing`, not `who`, steps back to the nearest free
/// square it has a way to that is not beside `thing` nor on `who`'s way up to `spot` (the two
/// would meet in a corridor one wide and halt, each on the square the other makes for), to
/// make room for `who`.
pub(super) fn make_way(
    world: &mut World,
    members: &[(Entity, GridPos)],
    who: Entity,
    spot: GridPos,
    thing: GridPos,
) -> Option<Command> {
    let (occupant, at) = members
        .iter()
        .copied()
        .find(|&(m, p)| m != who && p == spot)?;
    let occupied = occupied_squares(world);
    let way_up: Vec<GridPos> = members
        .iter()
        .find(|&&(m, _)| m == who)
        .and_then(|&(_, from)| {
            delve_rules::rules::movement::hazards::way(world, who, from, spot).ok()
        })
        .map(|w| w.squares)
        .unwrap_or_default();
    let mut back: Vec<(u32, GridPos)> = Vec::new();
    for dy in -4..=4 {
        for dx in -4..=4 {
            let p = GridPos::new(at.x + dx, at.y + dy);
            if p.within_a_step(thing)
                || occupied.contains(&p)
                || way_up.contains(&p)
                || !delve_rules::rules::caving::footing::firm_ground(world, p)
            {
                continue;
            }
            if let Ok(way) = delve_rules::rules::movement::hazards::way(world, occupant, at, p) {
                back.push((way.feet, p));
            }
        }
    }
    let (_, to) = back.into_iter().min()?;
    Some(
        Move {
            who: name(world, occupant),
            to: (to.x, to.y),
            pace: Pace::Exploration,
        }
        .into(),
    )
}

/// A free square beside `thing` on this side (beside the leader, who stands beside it) that
/// `who` has a way to (no hole across it), nearest the leader.
pub(super) fn free_square_beside(
    world: &mut World,
    who: Entity,
    leader_at: GridPos,
    thing: GridPos,
) -> Option<GridPos> {
    let occupied = occupied_squares(world);
    let grid = world.resource::<DungeonGrid>();
    let from = square(world, who).unwrap_or(leader_at);
    thing
        .neighbours()
        .into_iter()
        .filter(|&p| {
            grid.is_passable(p)
                && !occupied.contains(&p)
                && p != thing
                && p.within_a_step(leader_at)
                && delve_rules::rules::movement::hazards::way(world, who, from, p).is_ok()
        })
        .min_by_key(|&p| (leader_at.x.abs_diff(p.x) + leader_at.y.abs_diff(p.y), p))
}

pub(super) use super::standing::occupied_squares;

/// Where the party leaves the level when it makes for home: the way out its goal sends it to
/// find (`Goal::Exit`), once it knows a way there; else the way it came in.
pub(super) fn home(mind: &PartyMind, know: &Knowledge, from_here: &Distances) -> GridPos {
    match mind.goal {
        Goal::Exit(exit) if from_here.cost(know.grid, exit).is_some() => exit,
        _ => mind.way_in,
    }
}
