//! What a faction knows of the level, and walks planned over it: the squares its members have
//! seen (`FactionMemory`), the doors among them as it last saw them, and the traps it knows
//! (RULINGS › Knowledge). A policy plans only over this, never over the Judge's map: a square
//! never seen is not walked through, and a secret door looks like the wall it seems until it is
//! found.

use std::collections::BTreeMap;

use delve_ground::grid::terrain::{Terrain, WaterDepth};
use delve_ground::grid::{DungeonGrid, GridPos};

/// A door as the faction last saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeenDoor {
    pub open: bool,
}

/// The extra cost, in half squares, of a closed door on a planned walk: one walks around a shut
/// door when the way around is not much longer.
pub const CLOSED_DOOR_COST: u32 = 16;
/// The extra cost of a square with a known trap: stepped around (RULINGS › Knowledge), but
/// only when there is no other way.
pub const KNOWN_TRAP_COST: u32 = 40;

/// The extra cost of jumping a known hole one square across (Dungeon Delves › Jumping and
/// Leaping): taken only when there is no other way.
pub const GAP_COST: u32 = 60;

/// The extra cost of climbing down into a chasm and out of it on its other side: only when
/// there is no other way.
pub const CLIMB_COST: u32 = 80;

/// What a faction knows of the level.
pub struct Knowledge<'a> {
    pub grid: &'a DungeonGrid,
    /// Squares its members have seen, indexed like the grid.
    pub seen: &'a [bool],
    /// The doors it has seen, as it last saw them. Secret doors not yet found are not here.
    pub doors: &'a BTreeMap<GridPos, SeenDoor>,
    /// Doors it will not try again.
    pub shut_for_good: &'a [GridPos],
    /// Armed traps it knows.
    pub traps: &'a [GridPos],
    /// Holes it knows (open pits: RULINGS › Pits and holes), not walked into.
    pub holes: &'a [GridPos],
    /// Every member swims at little risk (no Swimming throw, or one only a 1 fails: the policy's
    /// `SWIMMER_MAY_FAIL`): water over the head is a way on.
    pub swims: bool,
    /// Every member would jump a hole one square across (a 5' gap) at the policy's odds: such
    /// a hole or chasm, with open ground straight across it, is a way on (a step of two
    /// squares).
    pub jumps: bool,
    /// Every member would cross a ledge by a balancing traverse at the policy's odds: a ledge
    /// run straight from open ground to open ground is a way on (one step over its squares).
    pub traverses: bool,
    /// Every member climbs sheer rock, or the party has a rope to lower and make the climbs easy
    /// (`policy::party::gaps::party_climbs`): a chasm, or an open pit, one climbs down into from
    /// one square and out of onto another is a way on (one step over its square).
    pub climbs: bool,
    /// Chasms and open pits with a rope secured in them: any adventurer climbs down and out of
    /// them (an easy climb, Dungeon Delves › Climbing), so each is a way on as a chasm is with
    /// `climbs`.
    pub roped: &'a [GridPos],
    /// Every member could wiggle back out of a squeeze were it stuck there: squeezes are a way
    /// on (else one stuck might be stuck for good, and a careful party keeps out of them).
    pub squeezes: bool,
    /// The squares near where foes too strong for the party were last seen
    /// (`policy::party::odds`), indexed like the grid ([`Knowledge::near_danger`]; empty for
    /// none): each costs [`DANGER_COST`] more to enter, so a way round is taken where there is
    /// one.
    pub danger: &'a [bool],
}

/// Squares of walk around a foe too strong for the party that its ways keep out of.
pub const DANGER_RADIUS: u32 = 4;
/// What entering a square near such a foe costs a walk beyond its step, in half squares: a
/// detour of twenty squares is taken rather than one square nearer it.
pub const DANGER_COST: u32 = 40;

/// How a square may be entered on a planned walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Open,
    /// A closed door, to be opened first.
    ClosedDoor,
    /// A known trap, stepped around.
    Trap,
    /// Jumped to, over a hole one square across (only as the way on in [`Knowledge::distances`]).
    Gap,
    Blocked,
}

impl Knowledge<'_> {
    pub fn has_seen(&self, p: GridPos) -> bool {
        self.grid.index(p).is_some_and(|i| self.seen[i])
    }

    /// How a seen square may be entered; a square never seen cannot.
    pub fn step(&self, p: GridPos) -> Step {
        if !self.has_seen(p) || self.holes.contains(&p) {
            return Step::Blocked;
        }
        let step = match self.grid.terrain(p) {
            Some(Terrain::Door) => match self.doors.get(&p) {
                None => Step::Blocked,
                // (An open door is a way through, whatever was tried at it before.)
                Some(d) if d.open => Step::Open,
                Some(_) if self.shut_for_good.contains(&p) => Step::Blocked,
                Some(_) => Step::ClosedDoor,
            },
            Some(
                Terrain::Floor
                | Terrain::Rubble
                | Terrain::Water(WaterDepth::Knee | WaterDepth::Waist | WaterDepth::Chest),
            ) => Step::Open,
            Some(Terrain::Squeeze) if self.squeezes => Step::Open,
            Some(Terrain::Water(WaterDepth::Deep)) if self.swims => Step::Open,
            _ => Step::Blocked,
        };
        if step != Step::Blocked && self.traps.contains(&p) {
            Step::Trap
        } else {
            step
        }
    }

    /// Is this square near where a foe too strong for the party was last seen?
    pub fn dangerous(&self, p: GridPos) -> bool {
        self.grid
            .index(p)
            .is_some_and(|i| self.danger.get(i).copied().unwrap_or(false))
    }

    /// The squares within [`DANGER_RADIUS`] squares' walk of any of `foes` over what the
    /// faction knows (a closed door between keeps them apart: no foe sees through one), indexed
    /// like the grid: where a foe too strong for the party would meet it.
    pub fn near_danger(&self, foes: &[GridPos]) -> Vec<bool> {
        let mut near = Vec::new();
        for &at in foes {
            let from_it = self.distances(at);
            near.resize((self.grid.width() * self.grid.height()) as usize, false);
            for (p, c) in from_it.reachable(self.grid) {
                if c <= 2 * DANGER_RADIUS {
                    near[self
                        .grid
                        .index(p)
                        .expect("a reachable square is on the map")] = true;
                }
            }
        }
        near
    }

    /// Can one stand here, as far as the faction knows? (A seen floor square, an open door.)
    pub fn open(&self, p: GridPos) -> bool {
        matches!(self.step(p), Step::Open | Step::Trap)
    }

    /// The cost of every square reachable from `from` over what the faction knows, in half
    /// squares (2 a side step, 3 a diagonal, no cutting corners, as [`delve_ground::grid::path`]
    /// counts), with closed doors and known traps costing extra, and a jump over a hole one
    /// square across when the party jumps ([`Knowledge::jumps`]: the landing's parent is the
    /// take-off); and the square each was reached from. A walk goes through a closed door only
    /// onto squares seen beyond it (a door that shut after the party looked through it, an evil
    /// one that swung shut): beyond a door never opened nothing is known.
    pub fn distances(&self, from: GridPos) -> Distances {
        let n = (self.grid.width() * self.grid.height()) as usize;
        let mut cost = vec![u32::MAX; n];
        let parent = vec![u32::MAX; n];
        let Some(start) = self.grid.index(from) else {
            return Distances { cost, parent };
        };
        cost[start] = 0;
        // How each square may be entered, worked out once for the whole search.
        let steps: Vec<Step> = (0..n).map(|i| self.step(self.grid.pos_of(i))).collect();
        let step_at = |p: GridPos| self.grid.index(p).map_or(Step::Blocked, |i| steps[i]);
        let open_at = |p: GridPos| matches!(step_at(p), Step::Open | Step::Trap);
        // A bucket queue: costs are small integers. (costs, parents, buckets; the buckets kept
        // from the last search on this thread, emptied, so they are not allocated anew.)
        let mut buckets = BUCKETS.with_borrow_mut(std::mem::take);
        buckets.iter_mut().for_each(Vec::clear);
        match buckets.first_mut() {
            Some(first) => first.push(start as u32),
            None => buckets.push(vec![start as u32]),
        }
        let mut frontier: Frontier = (cost, parent, buckets);
        let mut at = 0;
        while at < frontier.2.len() {
            let Some(i) = frontier.2[at].pop() else {
                at += 1;
                continue;
            };
            let i = i as usize;
            if frontier.0[i] != at as u32 {
                continue;
            }
            let p = self.grid.pos_of(i);
            for q in p.neighbours() {
                let (dx, dy) = (q.x - p.x, q.y - p.y);
                let mut step = step_at(q);
                let mut q = q;
                // A jump across a hole one square wide, straight, onto open ground.
                if self.jumps
                    && (dx == 0 || dy == 0)
                    && (self.holes.contains(&q)
                        || (self.has_seen(q)
                            && matches!(self.grid.terrain(q), Some(Terrain::Chasm { .. }))))
                    && step_at(GridPos::new(q.x + dx, q.y + dy)) == Step::Open
                {
                    q = GridPos::new(q.x + dx, q.y + dy);
                    step = Step::Gap;
                }
                // Down into a chasm, or a pit it knows is open, and out of it onto open ground
                // on its other side.
                if (self.climbs || self.roped.contains(&q))
                    && step == Step::Blocked
                    && self.climbed_through(q)
                    && step_at(p) == Step::Open
                {
                    for r in q.neighbours() {
                        if r == p || r.within_a_step(p) || step_at(r) != Step::Open {
                            continue;
                        }
                        let j = self.grid.index(r).expect("a seen square is on the map");
                        relax(&mut frontier, j, i, at as u32 + 4 + CLIMB_COST);
                    }
                }
                // A traverse along a ledge, straight, from open ground to open ground.
                if self.traverses
                    && (dx == 0 || dy == 0)
                    && self.has_seen(q)
                    && matches!(self.grid.terrain(q), Some(Terrain::Ledge { .. }))
                    && step_at(p) == Step::Open
                {
                    let mut end = q;
                    while matches!(self.grid.terrain(end), Some(Terrain::Ledge { .. }))
                        && self.has_seen(end)
                    {
                        end = GridPos::new(end.x + dx, end.y + dy);
                    }
                    if step_at(end) == Step::Open {
                        q = end;
                        step = Step::Gap;
                    }
                }
                if step == Step::Blocked {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal
                    && !(open_at(GridPos::new(p.x + dx, p.y))
                        && open_at(GridPos::new(p.x, p.y + dy)))
                {
                    continue;
                }
                let extra = match step {
                    Step::ClosedDoor => CLOSED_DOOR_COST,
                    Step::Trap => KNOWN_TRAP_COST,
                    Step::Gap => 2 * (p.chebyshev(q).saturating_sub(1)) + GAP_COST,
                    _ => 0,
                } + if self.dangerous(q) { DANGER_COST } else { 0 };
                let c = at as u32 + if diagonal { 3 } else { 2 } + extra;
                let j = self.grid.index(q).expect("a seen square is on the map");
                relax(&mut frontier, j, i, c);
            }
        }
        let (cost, parent, buckets) = frontier;
        BUCKETS.with_borrow_mut(|b| *b = buckets);
        Distances { cost, parent }
    }

    /// Is this a chasm, or a pit it knows is open, that it has seen: one climbs down into it
    /// and out on its other side?
    fn climbed_through(&self, q: GridPos) -> bool {
        self.has_seen(q)
            && (matches!(self.grid.terrain(q), Some(Terrain::Chasm { .. }))
                || self.holes.contains(&q))
    }

    /// Is this square on the edge of what the faction knows: one can stand on it, and a square
    /// beside it has never been seen?
    pub fn frontier(&self, p: GridPos) -> bool {
        self.open(p)
            && p.neighbours()
                .iter()
                .any(|&q| self.grid.in_bounds(q) && !self.has_seen(q))
    }

    /// Is this square a dead end: a floor square whose surroundings are all seen, with one way
    /// on and walls on every other side (no door it knows beside it: one found and given up
    /// leaves nothing to search for)?
    pub fn dead_end(&self, p: GridPos) -> bool {
        if self.grid.terrain(p) == Some(Terrain::Door) || !self.open(p) {
            return false;
        }
        let around = p.neighbours();
        if around
            .iter()
            .any(|&q| self.grid.in_bounds(q) && !self.has_seen(q))
        {
            return false;
        }
        if around.iter().any(|&q| {
            self.holes.contains(&q)
                || matches!(
                    self.grid.terrain(q),
                    Some(Terrain::Chasm { .. } | Terrain::Ledge { .. })
                )
        }) {
            // The way goes on across the hole, down the chasm or along the ledge.
            return false;
        }
        if around[..4].iter().any(|q| self.doors.contains_key(q)) {
            // It ends at a door it knows (a secret one found, even one it has given up): there
            // is nothing hidden left to search for there.
            return false;
        }
        let ways = around[..4]
            .iter()
            .filter(|&&q| self.step(q) != Step::Blocked)
            .count();
        ways == 1 && around[4..].iter().all(|&q| self.step(q) == Step::Blocked)
    }
}

thread_local! {
    /// The bucket queue's buckets, kept between searches ([`Knowledge::distances`]).
    static BUCKETS: std::cell::RefCell<Vec<Vec<u32>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The search's state in [`Knowledge::distances`]: the costs, the parents, the bucket queue.
type Frontier = (Vec<u32>, Vec<u32>, Vec<Vec<u32>>);

/// Square `j` reached from `from` at cost `c`: kept if it is cheaper than what was known.
fn relax((cost, parent, buckets): &mut Frontier, j: usize, from: usize, c: u32) {
    if c < cost[j] {
        cost[j] = c;
        parent[j] = from as u32;
        if buckets.len() <= c as usize {
            buckets.resize_with(c as usize + 1, Vec::new);
        }
        buckets[c as usize].push(j as u32);
    }
}

/// Costs from one square over what a faction knows ([`Knowledge::distances`]).
#[derive(Clone, Debug)]
pub struct Distances {
    cost: Vec<u32>,
    parent: Vec<u32>,
}

impl Distances {
    /// The cost to reach a square, if it can be reached.
    pub fn cost(&self, grid: &DungeonGrid, p: GridPos) -> Option<u32> {
        grid.index(p)
            .map(|i| self.cost[i])
            .filter(|&c| c != u32::MAX)
    }

    /// The walk from the start to `to`, both included.
    pub fn walk_to(&self, grid: &DungeonGrid, to: GridPos) -> Option<Vec<GridPos>> {
        self.cost(grid, to)?;
        let mut i = grid.index(to)?;
        let mut walk = vec![to];
        while self.parent[i] != u32::MAX {
            i = self.parent[i] as usize;
            walk.push(grid.pos_of(i));
        }
        walk.reverse();
        Some(walk)
    }

    /// Every reachable square with its cost.
    pub fn reachable<'a>(
        &'a self,
        grid: &'a DungeonGrid,
    ) -> impl Iterator<Item = (GridPos, u32)> + 'a {
        self.cost
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != u32::MAX)
            .map(|(i, &c)| (grid.pos_of(i), c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::grid::test_grid as grid;

    #[test]
    fn walks_keep_to_what_was_seen_and_stop_at_shut_doors() {
        let g = grid(&["#######", "#..+..#", "#.....#", "#######"]);
        let mut seen = vec![false; 28];
        // The west half and the door are seen; the east is not.
        for y in 0..4 {
            for x in 0..4 {
                seen[y * 7 + x] = true;
            }
        }
        let door = GridPos::new(3, 1);
        let doors = BTreeMap::from([(door, SeenDoor { open: false })]);
        let k = Knowledge {
            grid: &g,
            seen: &seen,
            doors: &doors,
            shut_for_good: &[],
            traps: &[],
            holes: &[],
            swims: false,
            danger: &[],
            jumps: false,
            traverses: false,
            climbs: false,
            roped: &[],
            squeezes: true,
        };
        let d = k.distances(GridPos::new(1, 1));
        assert_eq!(
            d.cost(&g, GridPos::new(3, 2)),
            Some(5),
            "a diagonal and a side step"
        );
        assert_eq!(d.cost(&g, GridPos::new(4, 2)), None, "never seen");
        assert_eq!(d.cost(&g, door), Some(4 + CLOSED_DOOR_COST));
        assert!(k.frontier(GridPos::new(3, 2)));
        assert!(!k.frontier(GridPos::new(1, 1)));
        let walk = d.walk_to(&g, door).unwrap();
        assert_eq!(walk.first(), Some(&GridPos::new(1, 1)));
        assert_eq!(walk.last(), Some(&door));
    }

    #[test]
    fn a_dead_end_is_a_corridor_end_with_walls_around() {
        let g = grid(&["#####", "#...#", "#####"]);
        let seen = vec![true; 15];
        let doors = BTreeMap::new();
        let k = Knowledge {
            grid: &g,
            seen: &seen,
            doors: &doors,
            shut_for_good: &[],
            traps: &[],
            holes: &[],
            swims: false,
            danger: &[],
            jumps: false,
            traverses: false,
            climbs: false,
            roped: &[],
            squeezes: true,
        };
        assert!(k.dead_end(GridPos::new(1, 1)));
        assert!(k.dead_end(GridPos::new(3, 1)));
        assert!(!k.dead_end(GridPos::new(2, 1)));
    }

    #[test]
    fn a_party_that_jumps_crosses_a_hole_one_square_across() {
        let g = grid(&["#######", "#.....#", "#######"]);
        let seen = vec![true; 21];
        let doors = BTreeMap::new();
        let hole = [GridPos::new(3, 1)];
        let mut k = Knowledge {
            grid: &g,
            seen: &seen,
            doors: &doors,
            shut_for_good: &[],
            traps: &[],
            holes: &hole,
            swims: false,
            danger: &[],
            jumps: false,
            traverses: false,
            climbs: false,
            roped: &[],
            squeezes: true,
        };
        let far = GridPos::new(5, 1);
        assert_eq!(k.distances(GridPos::new(1, 1)).cost(&g, far), None);
        assert!(
            !k.dead_end(GridPos::new(2, 1)),
            "the way goes on across the hole"
        );
        k.jumps = true;
        let d = k.distances(GridPos::new(1, 1));
        // A step, then the jump: two squares of walking and the jump's extra.
        assert_eq!(d.cost(&g, GridPos::new(4, 1)), Some(2 + 4 + GAP_COST));
        let walk = d.walk_to(&g, far).unwrap();
        assert_eq!(
            walk,
            vec![
                GridPos::new(1, 1),
                GridPos::new(2, 1),
                GridPos::new(4, 1),
                GridPos::new(5, 1)
            ],
            "the landing's parent is the take-off"
        );
    }
}
