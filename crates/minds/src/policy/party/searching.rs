//! Searching at dead ends and walls: which dead end or wall to search, who searches best, and the search itself
//! (Dungeon Delves › Searching).

use crate::policy::knowledge::Distances;
use delve_rules::rules::party::{Parties, ToTheFront};

use super::{Intent, PartyMind, is_up, offered, square, take_the_lead};
use crate::policy::knowledge::{Knowledge, Step};
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::grid::terrain::Terrain;
use delve_ground::level::schema::{Gear, Proficiency};
use delve_rules::command::Command;
use delve_rules::command::acts::{Search, SearchHastily};
use delve_rules::creature::{Equipment, Proficiencies};

/// The nearest dead end searched fewer times than the policy says.
pub(super) fn dead_end_to_search(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
) -> Option<GridPos> {
    from_here
        .reachable(know.grid)
        .filter(|&(p, _)| {
            mind.exploring.searched.get(&p).copied().unwrap_or(0) < mind.policy.dead_end_searches
                && !mind.exploring.exhausted.contains(&p)
                && know.dead_end(p)
        })
        .min_by_key(|&(p, c)| (c, p))
        .map(|(p, _)| p)
}

/// How likely a passage that ends in blank stone hides a way on, before any search: a
/// careful player holds that it was dug for a reason, three in four.
pub(super) const DEAD_END_PRIOR: f32 = 0.75;

/// How likely a wall with unexplained space behind it, toward the goal, hides a way on, before
/// any search: one in ten.
pub(super) const WALL_PRIOR: f32 = 0.1;

/// The chance the party finds what is hidden beside a square in a turn of searching there:
/// the best searcher's, who stands on it (Dungeon Delves › Searching: 18+, a thief its class
/// value +4, methodically; within 5' of the searcher), at the chance the rules offer it where
/// it stands. (Companions search too, but in a passage one square wide none but the one on the
/// square has the wall within 5'.)
pub(super) fn found_in_a_turn(world: &World, members: &[Entity]) -> f32 {
    members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .map(|m| search_chance(world, m))
        .fold(0.0, f32::max)
}

/// The chance of a member's methodical search where it stands, as the rules offer it (0 when
/// it is offered none).
fn search_chance(world: &World, m: Entity) -> f32 {
    delve_rules::rules::areas::area_choices_next_round(
        world,
        m,
        delve_rules::rules::search::searches_here,
    )
    .into_iter()
    .find(|(_, c)| c.command.get::<Search>().is_some())
    .map_or(0.0, |(_, c)| c.chance)
}

/// A turn's search made at `at` by one whose chance was `chance`: what is hidden within its
/// reach was missed at `1 - chance` more ([`Exploring::missed`](super::exploring::Exploring)).
fn searched_at(mind: &mut PartyMind, at: GridPos, chance: f32) {
    *mind.exploring.searched.entry(at).or_insert(0) += 1;
    *mind.exploring.missed.entry(at).or_insert(1.0) *= (1.0 - chance).clamp(0.0, 1.0);
}

/// The chance a way on is hidden beside `p` and not yet found, as a careful player holds it:
/// [`DEAD_END_PRIOR`] at a dead end, [`WALL_PRIOR`] at another wall, times the chance every
/// turn searched within a step of it missed it (a search covers what lies within 5' of the
/// searcher: [`searched_at`]).
pub(super) fn hidden_here(mind: &PartyMind, know: &Knowledge, p: GridPos) -> f32 {
    let prior = if know.dead_end(p) {
        DEAD_END_PRIOR
    } else {
        WALL_PRIOR
    };
    let missed: f32 = mind
        .exploring
        .missed
        .iter()
        .filter(|&(&q, _)| q.chebyshev(p) <= 1)
        .map(|(_, &m)| m)
        .product();
    prior * missed
}

/// The wall a careful party searches next once nothing else is left (Dungeon Delves ›
/// Searching: a methodical search of a turn finds what is hidden within reach), when it knows
/// where the goal lies (a place to reach, a room, a way out) and has no way there: a seen
/// square of floor beside a wall that stands between it and the goal, with the unseen behind
/// it two squares deep within the level — space enough for a room or a passage the party has
/// not explained. It is weighed by the odds that something is hidden there and not yet found:
/// [`DEAD_END_PRIOR`] at a dead end, [`WALL_PRIOR`] elsewhere, each turn searched within a
/// step of it (`found`: [`found_in_a_turn`]) leaving that belief times the chance it was
/// missed. The likeliest is searched next (among equals the nearest to walk to, so a long
/// wall is swept from one end, then the nearest the goal); a square is given up once its belief falls below a plain wall's after the
/// policy's count of searches (a policy that searches no dead end searches no wall), and
/// searching goes on while the light and the turn limit allow (`plan::time_for_a_search`).
pub(super) fn wall_to_search(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
    found: f32,
) -> Option<GridPos> {
    walls_to_search(mind, know, from_here, found)
        .first()
        .copied()
}

/// Every square [`wall_to_search`] would search, the likeliest first.
fn walls_to_search(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
    found: f32,
) -> Vec<GridPos> {
    let goal = match mind.goal {
        delve_ground::level::Goal::Reach(p)
        | delve_ground::level::Goal::Room(p)
        | delve_ground::level::Goal::Exit(p)
            if mind.policy.dead_end_searches > 0 =>
        {
            p
        }
        _ => return Vec::new(),
    };
    let to_goal = |q: GridPos| (q.x - goal.x).pow(2) + (q.y - goal.y).pow(2);
    let missed = (1.0 - found).clamp(0.0, 1.0);
    let given_up = WALL_PRIOR * missed.powi(mind.policy.dead_end_searches as i32);
    let unexplained = |w: GridPos, d: (i32, i32)| {
        (1..=2).all(|k| {
            let q = GridPos::new(w.x + d.0 * k, w.y + d.1 * k);
            know.grid.in_bounds(q) && !know.has_seen(q)
        })
    };
    from_here
        .reachable(know.grid)
        .filter(|&(p, _)| know.open(p) && know.grid.terrain(p) != Some(Terrain::Door))
        .filter_map(|(p, cost)| {
            let behind = [(0, -1), (1, 0), (0, 1), (-1, 0)]
                .into_iter()
                .map(|d| (GridPos::new(p.x + d.0, p.y + d.1), d))
                .filter(|&(w, d)| {
                    know.has_seen(w)
                        && know.step(w) == Step::Blocked
                        && to_goal(w) < to_goal(p)
                        && unexplained(w, d)
                })
                .map(|(w, _)| to_goal(w))
                .min()?;
            let belief = hidden_here(mind, know, p);
            (belief >= given_up && !mind.exploring.exhausted.contains(&p)).then_some((
                std::cmp::Reverse((belief * 1.0e6) as u32),
                cost,
                behind,
                p,
            ))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|(.., p)| p)
        .collect()
}

/// A wall searched by the whole party at once (Dungeon Delves › Searching: each searches
/// within 5' of where it stands): besides `first`, the likeliest squares of
/// [`walls_to_search`] no two within a step of each other and all within the column's reach
/// of `first`, one a member — the best searcher on `first`, the nearest free member on each
/// other. Those not on theirs walk there; once all are, each searches (a turn), and every square
/// is counted searched. (After three walks that bring them no nearer, the best searcher alone.)
pub(super) fn search_along(
    world: &World,
    mind: &mut PartyMind,
    members: &[Entity],
    (know, from_here): (&Knowledge, &Distances),
    first: GridPos,
) -> (Intent, Vec<Command>) {
    let intent = Intent::Search { at: first };
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    let reach = super::with_the_party(members);
    let mut picks = vec![first];
    for p in walls_to_search(mind, know, from_here, found_in_a_turn(world, members)) {
        if picks.len() >= up.len() {
            break;
        }
        if p.chebyshev(first) <= reach && picks.iter().all(|q| q.chebyshev(p) > 1) {
            picks.push(p);
        }
    }
    let mut free = up.clone();
    let mut posts: Vec<(Entity, GridPos)> = Vec::new();
    for (i, &p) in picks.iter().enumerate() {
        let who = if i == 0 {
            best_searcher(world, &free)
        } else {
            free.iter()
                .copied()
                .min_by_key(|&m| (square(world, m).map_or(u32::MAX, |q| q.chebyshev(p)), m))
        };
        let Some(who) = who else { break };
        free.retain(|&m| m != who);
        posts.push((who, p));
    }
    let away: Vec<(Entity, GridPos)> = posts
        .iter()
        .copied()
        .filter(|&(m, p)| square(world, m) != Some(p))
        .collect();
    if !away.is_empty() && mind.exploring.spreading < 3 {
        mind.exploring.spreading += 1;
        let walks = away
            .into_iter()
            .map(|(m, p)| {
                delve_rules::command::acts::Move {
                    who: super::name(world, m),
                    to: (p.x, p.y),
                    pace: delve_rules::rules::movement::Pace::Exploration,
                }
                .into()
            })
            .collect();
        return (intent, walks);
    }
    mind.exploring.spreading = 0;
    let posted: Vec<(Entity, GridPos)> = posts
        .into_iter()
        .filter(|&(m, p)| square(world, m) == Some(p))
        .collect();
    if posted.is_empty() {
        return search_here(world, mind, members, first);
    }
    let orders = posted
        .iter()
        .filter_map(|&(m, _)| offered(world, m, |a| a.get::<Search>().is_some()))
        .collect();
    for &(m, p) in &posted {
        searched_at(mind, p, search_chance(world, m));
    }
    (intent, orders)
}

/// The member who searches best: proficient in Searching, then with a pole (twice the reach).
pub(super) fn best_searcher(world: &World, up: &[Entity]) -> Option<Entity> {
    up.iter().copied().max_by_key(|&m| {
        let profs = world.get::<Proficiencies>(m);
        let proficient = profs.is_some_and(|p| p.has(Proficiency::Searching));
        let pole = world
            .get::<Equipment>(m)
            .is_some_and(|g| g.has(&Gear::TenFootPole));
        (proficient, pole, std::cmp::Reverse(m))
    })
}

/// At a dead end: the best searcher steps onto it, then everyone searches (a turn); the thief
/// first searches hastily when the policy says so.
pub(super) fn search_here(
    world: &World,
    mind: &mut PartyMind,
    members: &[Entity],
    here: GridPos,
) -> (Intent, Vec<Command>) {
    let intent = Intent::Search { at: here };
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    let best = best_searcher(world, &up).expect("the leader is up");
    // One already on the dead end searches from there: the others cannot step onto it —
    // unless it leads and the best searcher can go to the front (the others step back a place:
    // `rules::party::ToTheFront`).
    let on_it = up.iter().copied().find(|&m| square(world, m) == Some(here));
    if on_it.is_some_and(|m| m != best)
        && let Some(forward) = offered(world, best, |a| a.get::<ToTheFront>().is_some())
        && on_it
            == world
                .resource::<Parties>()
                .get(&mind.party)
                .and_then(|p| p.leader())
    {
        return (intent, vec![forward]);
    }
    let searcher = on_it.unwrap_or(best);
    if square(world, searcher) != Some(here) {
        return (
            intent,
            take_the_lead(world, &mind.party, members, searcher, here),
        );
    }
    // The searcher's hasty search, where the rules offer it (proficient in Searching, not yet
    // searched here hastily), first when the policy says so; then everyone's methodical one.
    let count = *mind.exploring.searched.entry(here).or_insert(0);
    if mind.policy.hasty_search
        && count == 0
        && let Some(hasty) = offered(world, searcher, |a| a.get::<SearchHastily>().is_some())
    {
        return (intent, vec![hasty]);
    }
    searched_at(mind, here, search_chance(world, searcher));
    let orders = up
        .iter()
        .filter_map(|&m| offered(world, m, |a| a.get::<Search>().is_some()))
        .collect();
    (intent, orders)
}
