//! Choosing its ground in a fight. Against more foes than it has members standing, a party in a
//! passage one square wide holds it: each member keeps to the squares of the passage
//! ([`KeepsTo`], which the fighting behaviour respects as it does a guard's post), so the foes
//! meet it there one at a time — the one in the mouth of the passage blocking the missiles of
//! those behind it (Tactical Combat › missiles: none through a creature) — rather than
//! surrounding it in the open. The party takes the passage when the foes it knows of outnumber
//! its members up, and holds it to the battle's end; then each member fights as before.

use delve_rules::creature::{Below, Combatant, HitPoints};
use delve_rules::rules::combat::battle::Awareness;

use bevy::prelude::*;

use super::fighting::in_a_fight;
use super::{PartyMind, is_up, square};
use crate::policy::behaviour::KeepsTo;
use delve_ground::grid::{DungeonGrid, GridPos};

/// The members up and not down a hole, each with its square.
fn on_the_floor(world: &World, members: &[Entity]) -> Vec<(Entity, GridPos)> {
    members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect()
}

/// A square in a passage one square wide: passable, with at most two passable squares around
/// it (the way on and the way back).
fn narrow(grid: &DungeonGrid, p: GridPos) -> bool {
    grid.is_passable(p)
        && p.neighbours()
            .into_iter()
            .filter(|&q| grid.is_passable(q))
            .count()
            <= 2
}

/// Squares (steps) from the party a passage to fall back into may lie.
const FALL_BACK_STEPS: usize = 4;

/// The passage one square wide nearest the party — the one it stands in, or one it can fall
/// back into within [`FALL_BACK_STEPS`] — with room for every member up, clear of foes: its
/// squares, or none.
fn the_narrows(world: &World, up: &[(Entity, GridPos)], foes: &[GridPos]) -> Option<Vec<GridPos>> {
    let grid = world.resource::<DungeonGrid>();
    // The nearest narrow square, by steps from the members (not through foes).
    let mut seen: Vec<GridPos> = up.iter().map(|&(_, p)| p).collect();
    let mut ring = seen.clone();
    let mut start = None;
    for _ in 0..=FALL_BACK_STEPS {
        ring.sort();
        if let Some(&p) = ring.iter().find(|&&p| narrow(grid, p)) {
            start = Some(p);
            break;
        }
        let mut next = Vec::new();
        for p in ring {
            for q in p.neighbours() {
                if grid.is_passable(q) && !foes.contains(&q) && !seen.contains(&q) {
                    seen.push(q);
                    next.push(q);
                }
            }
        }
        ring = next;
    }
    // Its passage: the narrow squares joined to it.
    let mut squares = vec![start?];
    let mut next = 0;
    while next < squares.len() {
        let p = squares[next];
        next += 1;
        for q in p.neighbours() {
            if narrow(grid, q) && !squares.contains(&q) {
                squares.push(q);
            }
        }
    }
    (squares.len() >= up.len() && !squares.iter().any(|p| foes.contains(p))).then(|| {
        squares.sort();
        squares
    })
}

/// The foes the party knows of in the battle: those a member sees or is aware of, up.
fn foes_known(world: &World, members: &[Entity], in_sight: &[(Entity, GridPos)]) -> Vec<GridPos> {
    let mut foes: Vec<(Entity, GridPos)> = in_sight.to_vec();
    if let Some(aware) = world.get_resource::<Awareness>() {
        for &m in members {
            for &(_, foe) in aware.of(m) {
                if is_up(world, foe)
                    && let Some(at) = square(world, foe)
                {
                    foes.push((foe, at));
                }
            }
        }
    }
    foes.sort();
    foes.dedup_by_key(|f| f.0);
    foes.into_iter().map(|(_, at)| at).collect()
}

/// Each round: in a battle against more foes than it has members up, a party in or beside a
/// passage one square wide holds it — the member best able to stand a blow
/// (`doors::front_fighter`) on its square nearest the foes, the others behind in turn —
/// otherwise what it held is let go.
pub(super) fn hold_the_narrows(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    in_sight: &[(Entity, GridPos)],
) {
    let up = on_the_floor(world, members);
    let foes = foes_known(world, members, in_sight);
    // (Once held, the passage is held to the battle's end: foes out of sight are foes still.)
    let holding = (super::fighting::foe_at_hand(world, mind, members)
        && mind.homeward != Some(super::Homeward::Fleeing))
    .then(|| {
        mind.held
            .clone()
            .or_else(|| (foes.len() > up.len()).then(|| the_narrows(world, &up, &foes))?)
    })
    .flatten();
    if holding == mind.held {
        return;
    }
    for &m in members {
        world.entity_mut(m).remove::<KeepsTo>();
    }
    if let Some(squares) = &holding {
        // The squares nearest the foes first; the sturdiest member there.
        let mut homes = squares.clone();
        homes.sort_by_key(|p| (foes.iter().map(|f| f.chebyshev(*p)).min(), *p));
        let mut left: Vec<Entity> = up.iter().map(|&(m, _)| m).collect();
        let mut order = Vec::new();
        while let Some(front) = super::doors::front_fighter(world, &left) {
            left.retain(|&m| m != front);
            order.push(front);
        }
        let front = homes.first().copied();
        for (m, home) in order.into_iter().zip(homes) {
            world.entity_mut(m).insert(KeepsTo {
                home,
                squares: squares.clone(),
                in_line: true,
            });
        }
        if mind.held.is_none()
            && let Some(front) = front
        {
            delve_ground::log::log_in(
                world,
                super::PolicyEvent::Decided {
                    party: mind.party.clone(),
                    tactic: "hold the passage",
                    intent: super::Intent::HoldThePassage { front },
                },
            );
        }
    }
    mind.held = holding;
}

/// Squares (Chebyshev) around a frail member its safe ground is looked for within.
const SAFE_GROUND_RADIUS: i32 = 6;

/// The most one blow of `foe` can deal (its hardest-hitting weapon's dice at their highest).
fn hardest_blow(world: &World, foe: Entity) -> i32 {
    world.get::<Combatant>(foe).map_or(0, |c| {
        c.weapons
            .iter()
            .map(|w| (w.damage.count * w.damage.sides) as i32 + w.damage.bonus)
            .max()
            .unwrap_or(0)
    })
}

/// Is `m` frail against these foes: one blow of theirs could bring it down, whole as it is (a
/// mage of 3 hit points before a 1d6 sword — not a fighter a fight has worn down, whom the
/// fight needs)?
fn frail(world: &World, m: Entity, worst: i32) -> bool {
    world.get::<HitPoints>(m).is_some_and(|h| h.max <= worst)
}

/// Each round of a battle the party does not hold a passage in: its frail members — any one
/// blow of a foe it sees could bring them down, whole as they are — keep out of reach while the sturdier ones can
/// take on every foe in sight without them (`odds::can_take_them_all`): each keeps to the squares near it no foe stands beside ([`KeepsTo`]),
/// going back to the nearest of them when a foe comes up to it, and strikes only from there
/// (a missile). Out of a battle, or with none sturdier up, each fights as before.
pub(super) fn keep_the_frail_back(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    in_sight: &[(Entity, GridPos)],
) {
    if mind.held.is_some() {
        return;
    }
    let battle = in_a_fight(world, members) && mind.homeward != Some(super::Homeward::Fleeing);
    let foes: Vec<(Entity, GridPos)> = in_sight.to_vec();
    let worst = foes
        .iter()
        .map(|&(f, _)| hardest_blow(world, f))
        .max()
        .unwrap_or(0);
    let up = on_the_floor(world, members);
    // (Only while the sturdier can take on every foe in sight without them.)
    let sturdier: Vec<Entity> = up
        .iter()
        .map(|&(m, _)| m)
        .filter(|&m| !frail(world, m, worst))
        .collect();
    let foe_list: Vec<Entity> = foes.iter().map(|&(f, _)| f).collect();
    let sturdy =
        !sturdier.is_empty() && super::odds::can_take_them_all(world, &sturdier, &foe_list);
    let grid = world.resource::<DungeonGrid>().clone();
    let occupied = super::standing::occupied_squares(world);
    for &(m, at) in &up {
        let keep_back = battle && sturdy && !foes.is_empty() && frail(world, m, worst);
        if !keep_back {
            if world.get::<KeepsTo>(m).is_some_and(|k| !k.in_line) {
                world.entity_mut(m).remove::<KeepsTo>();
            }
            continue;
        }
        let safe = |p: GridPos| foes.iter().all(|&(_, f)| f.chebyshev(p) >= 2);
        let squares: Vec<GridPos> = (-SAFE_GROUND_RADIUS..=SAFE_GROUND_RADIUS)
            .flat_map(|dy| {
                (-SAFE_GROUND_RADIUS..=SAFE_GROUND_RADIUS)
                    .map(move |dx| GridPos::new(at.x + dx, at.y + dy))
            })
            .filter(|&p| grid.is_passable(p) && safe(p))
            .collect();
        // Home: where it stands if that is safe; else the nearest safe square free of others
        // (the farther from the foes, the better, among those as near).
        let home = if safe(at) {
            Some(at)
        } else {
            squares
                .iter()
                .copied()
                .filter(|p| !occupied.contains(p))
                .min_by_key(|&p| {
                    let from_foes = foes.iter().map(|&(_, f)| f.chebyshev(p)).min().unwrap_or(0);
                    (at.chebyshev(p), std::cmp::Reverse(from_foes), p)
                })
        };
        let Some(home) = home else {
            continue;
        };
        world.entity_mut(m).insert(KeepsTo {
            home,
            squares,
            in_line: false,
        });
    }
}
