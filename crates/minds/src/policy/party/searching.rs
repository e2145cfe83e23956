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

/// The wall a careful party searches next once nothing else is left (Dungeon Delves ›
/// Searching: a methodical search of a turn finds what is hidden within reach), when it knows
/// where the goal lies (a place to reach, a room, a way out) and has no way there: a seen
/// square of floor beside a wall that stands between it and the goal, with the unseen behind
/// it two squares deep within the level — space enough for a room or a passage the party has
/// not explained. Every such wall is searched, from squares two apart, as often as the policy
/// searches a dead end before any is searched again (a policy that searches no dead end
/// searches no wall), turn after turn while the light and the turn limit allow
/// (`plan::time_for_a_search`); the wall nearest the goal comes first, then the nearest to walk
/// to.
pub(super) fn wall_to_search(
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
) -> Option<GridPos> {
    let goal = match mind.goal {
        delve_ground::level::Goal::Reach(p)
        | delve_ground::level::Goal::Room(p)
        | delve_ground::level::Goal::Exit(p)
            if mind.policy.dead_end_searches > 0 =>
        {
            p
        }
        _ => return None,
    };
    let to_goal = |q: GridPos| (q.x - goal.x).pow(2) + (q.y - goal.y).pow(2);
    // The rounds of searches (each the policy's count) already made within a step of a square:
    // every wall is searched once round before any is searched again.
    let rounds_done = |p: GridPos| {
        mind.exploring
            .searched
            .iter()
            .filter(|&(&q, _)| q.chebyshev(p) <= 1)
            .map(|(_, &n)| n / mind.policy.dead_end_searches)
            .max()
            .unwrap_or(0)
    };
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
            (!mind.exploring.exhausted.contains(&p)).then_some((rounds_done(p), behind, cost, p))
        })
        .min()
        .map(|(.., p)| p)
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
    let count = mind.exploring.searched.entry(here).or_insert(0);
    if mind.policy.hasty_search
        && *count == 0
        && let Some(hasty) = offered(world, searcher, |a| a.get::<SearchHastily>().is_some())
    {
        return (intent, vec![hasty]);
    }
    *count += 1;
    let orders = up
        .iter()
        .filter_map(|&m| offered(world, m, |a| a.get::<Search>().is_some()))
        .collect();
    (intent, orders)
}
