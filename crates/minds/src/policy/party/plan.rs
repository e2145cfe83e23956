//! The planner: where the party goes next, and who goes. At each decision it lists the aims
//! what its faction knows allows ([`Aim`]: the goal it has seen, the nearest edge of what it has
//! seen, a foe it would fight that may carry the gear it came for, a dead end to search) for the
//! whole party and for each part of it whose members can do more than the rest (swim without
//! risk, climb sheer rock, jump, traverse, squeeze: the same tests the whole party's ways are
//! drawn with, `round::KnownLevel`), and weighs every plan by the rules' own odds for the
//! members who would carry it out ([`odds_of_the_walk`]): the Swimming throw each round afloat,
//! the Climbing throws down a shaft and out, the jump, the traverse, the chance of sticking in a
//! squeeze for good (Dungeon Delves › Swimming and Drowning, › Climbing, › Jumping and Leaping,
//! › Squeezing). A plan's score is what it gains ([`gain`]: the goal, new ground, or a search
//! by the chance it finds a way on and the way leads to the goal) times the
//! chance all its goers come there and back, less the chance of losing one of them
//! ([`MISHAP`]) and the rounds it takes, each worth its share of the goal over the rounds left
//! ([`worth_of_a_round`]); a part of the party going alone gains a share of it ([`APART`]), for
//! the strength the rest keep from it. The best is taken; a part sent ahead decides alone until
//! it is back (`task`).

use super::gaps::{Over, chance, gap_feet, party_jumps, party_squeezes, party_traverses};
use super::round::KnownLevel;
use super::searching::dead_end_to_search;
use super::standing::in_sight;
use super::way::goal_met;
use super::way::{all_swim, goal_square, swimming_fails};
use super::{Intent, PartyMind, is_up, name, square};
use crate::policy::knowledge::{Distances, Knowledge};
use delve_ground::grid::terrain::{Terrain, WaterDepth};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::Goal;
use delve_rules::creature::CreatureIndex;
use delve_rules::creature::{Below, Equipment, HitPoints};
use delve_rules::rules::caving::climbing::{FEET_PER_THROW, hole_at};

use bevy::prelude::*;
use serde::Serialize;

/// What a plan makes for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Aim {
    /// The goal's square, seen.
    Goal { to: GridPos },
    /// The nearest edge of what it has seen (or a closed door with the unseen beyond).
    Explore { to: GridPos },
    /// A foe it would fight, beside where it was last seen: the gear it came for may be on it.
    SeekOut { foe: String, to: GridPos },
    /// A fallen creature seen with gear on it (a key, a light, what it came for), from the
    /// square beside it.
    TakeFrom { from: String, to: GridPos },
    /// A dead end not yet searched as often as its policy says.
    Search { at: GridPos },
    /// A wall with unexplained space behind it (`searching::wall_to_search`), searched from
    /// the floor beside it.
    SearchWall { at: GridPos },
    /// A stuck door it left shut after failed bashes, bashed again from the square `to` beside
    /// it: each bash is a fresh throw (Dungeon Delves › Doors). `opens` is the chance, in
    /// hundredths, that the policy's bashes open it (`doors::bash_again`).
    DoorAgain {
        at: GridPos,
        to: GridPos,
        opens: u32,
    },
}

impl Aim {
    pub fn square(&self) -> GridPos {
        match self {
            Aim::Goal { to }
            | Aim::Explore { to }
            | Aim::SeekOut { to, .. }
            | Aim::TakeFrom { to, .. }
            | Aim::DoorAgain { to, .. } => *to,
            Aim::Search { at } | Aim::SearchWall { at } => *at,
        }
    }

    pub(super) fn intent(&self) -> Intent {
        match self.clone() {
            Aim::Goal { to } => Intent::MakeForGoal { to },
            Aim::Explore { to } => Intent::Explore { to },
            Aim::SeekOut { foe, to } => Intent::SeekOut { foe, to },
            Aim::TakeFrom { from, .. } => Intent::TakeFromTheFallen { from },
            Aim::Search { at } | Aim::SearchWall { at } => Intent::Search { at },
            Aim::DoorAgain { at, .. } => Intent::Door {
                at,
                how: super::DoorPlan::Bash,
            },
        }
    }
}

/// The edges of what it has seen the planner weighs, nearest first, apart from each other.
pub const EDGES: usize = 4;

/// The share of a plan's gain a part of the party earns going alone: the rest stand idle and
/// the goers meet what they meet without them, so a part is sent only where the whole party
/// has no edge left to explore — and then before any dead end is searched.
pub const APART: f32 = 0.25;
/// What a mishap on the way costs (a member drowning, falling, stuck for good), against the
/// gains of `gain`: more than any edge is worth.
pub const MISHAP: f32 = 1500.0;
/// What reaching the goal gains, in the planner's units.
pub const GOAL: f32 = 1000.0;
/// What an edge of what it has seen gains: the ground beyond, which may be the goal or a way
/// to it. (Edges are weighed alike wherever they lie: a dark corner of a room near the goal
/// is no likelier a way there than a passage far from it — measured: weighing edges by their
/// nearness to the goal sent the crypt's party the long way round, 123 goals of 200 → 117.)
pub const NEW_GROUND: f32 = 300.0;
/// What a foe that may carry the gear the party came for, or a fallen creature with gear on
/// it, gains.
pub const GEAR: f32 = 200.0;
/// How near the goal a hidden way must lie to lead there one time in two, in squares: a
/// room's width. A way found `d` squares from the goal leads there `NEAR / (NEAR + d)` of the
/// time.
pub const NEAR: f32 = 5.0;

/// What reaching `aim` gains, as a careful player who knows where the goal lies judges it: the
/// goal itself, [`GOAL`]; an edge of what it has seen, [`NEW_GROUND`] (a stuck door bashed
/// again, that by the chance the bashes open it); a turn's search, the
/// chance a way on is hidden there and not yet found (`searching::hidden_here`) times the
/// chance the search finds it (`found`: Dungeon Delves › Searching) times what a way found
/// there gains — the goal by the chance it leads there ([`NEAR`]), or new ground where the
/// party does not know where its goal lies; a foe or a fallen creature that may carry the gear
/// it came for, [`GEAR`].
fn gain(mind: &PartyMind, know: &Knowledge, aim: &Aim, found: f32) -> f32 {
    let beyond = |p: GridPos| match mind.goal {
        Goal::Reach(g) | Goal::Room(g) | Goal::Exit(g) => {
            let d = (((p.x - g.x).pow(2) + (p.y - g.y).pow(2)) as f32).sqrt();
            GOAL * NEAR / (NEAR + d)
        }
        Goal::ExploreAll | Goal::Recover(_) => NEW_GROUND,
    };
    match aim {
        Aim::Goal { .. } => GOAL,
        Aim::Explore { .. } => NEW_GROUND,
        Aim::SeekOut { .. } | Aim::TakeFrom { .. } => GEAR,
        Aim::DoorAgain { opens, .. } => NEW_GROUND * *opens as f32 / 100.0,
        Aim::Search { at } | Aim::SearchWall { at } => {
            super::searching::hidden_here(mind, know, *at) * found * beyond(*at)
        }
    }
}

/// What a round costs, in the planner's units: the goal's worth over the rounds left before
/// the policy's turn limit or the light runs out, less the walk home (at least a turn's
/// worth), so time counts for more as it runs short.
fn worth_of_a_round(
    world: &World,
    mind: &PartyMind,
    (group, light_left): (&[Entity], Option<u64>),
    know: &Knowledge,
    distances: &Distances,
) -> f32 {
    use delve_ground::time::{Clock, ROUNDS_PER_TURN};
    let now = world.resource::<Clock>().rounds;
    let home = super::way::rounds_home(world, mind, group, know, distances).unwrap_or(0);
    let to_limit = (mind.policy.turn_limit * ROUNDS_PER_TURN).saturating_sub(now);
    let left = light_left
        .map_or(to_limit, |l| l.min(to_limit))
        .saturating_sub(home)
        .max(ROUNDS_PER_TURN);
    GOAL / left as f32
}

/// A plan weighed: its aim, who goes, by what walk, and its odds.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub aim: Aim,
    pub goers: Vec<Entity>,
    pub walk: Vec<GridPos>,
    /// The chance every goer comes through the walk's hazards, there and back.
    pub chance: f32,
    /// The chance one of them is lost on the way, there and back.
    pub lost: f32,
    pub score: f32,
    /// Its gain outweighs the chance of losing one of its goers.
    pub worth_the_risk: bool,
    /// Where the goers part from the rest: the first square of the walk the whole party has no
    /// way to (none for the whole party).
    pub past: Option<GridPos>,
}

/// A plan as the log gives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Weighing {
    pub aim: Aim,
    /// The goers, by name; empty for the whole party.
    pub goers: Vec<String>,
    /// The chance every goer comes through, there and back.
    pub chance: f32,
    /// The chance one of them is lost.
    pub lost: f32,
    /// The walk, in squares.
    pub squares: u32,
    pub score: f32,
}

/// The plans as the log gives them: the goers named, unless the whole party goes (while a
/// part is away, its plans are the part's and name it).
pub(super) fn weighings(world: &World, mind: &PartyMind, plans: &[Plan]) -> Vec<Weighing> {
    let up = super::party_members(world, &mind.party)
        .into_iter()
        .filter(|&m| is_up(world, m))
        .count();
    plans
        .iter()
        .map(|p| p.weighing(world, p.past.is_none() && p.goers.len() >= up))
        .collect()
}

impl Plan {
    fn weighing(&self, world: &World, whole: bool) -> Weighing {
        Weighing {
            aim: self.aim.clone(),
            goers: if whole {
                Vec::new()
            } else {
                self.goers.iter().map(|&m| name(world, m)).collect()
            },
            chance: self.chance,
            lost: self.lost,
            squares: self.walk.len().saturating_sub(1) as u32,
            score: self.score,
        }
    }
}

/// What a group of members can cross, as the whole party's ways are drawn
/// ([`Knowledge`]'s flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Crossing {
    swims: bool,
    jumps: bool,
    traverses: bool,
    climbs: bool,
    squeezes: bool,
}

impl Crossing {
    fn of(world: &World, mind: &PartyMind, group: &[Entity]) -> Self {
        Crossing {
            swims: all_swim(world, group),
            jumps: party_jumps(world, mind, group),
            traverses: party_traverses(world, mind, group),
            climbs: super::gaps::party_climbs(world, mind, group),
            squeezes: party_squeezes(world, mind, group),
        }
    }

    fn of_sight(sight: &KnownLevel) -> Self {
        Crossing {
            swims: sight.swims,
            jumps: sight.jumps,
            traverses: sight.traverses,
            climbs: sight.climbs,
            squeezes: sight.squeezes,
        }
    }

    /// Does it cross all `other` crosses?
    fn covers(self, other: Crossing) -> bool {
        (self.swims || !other.swims)
            && (self.jumps || !other.jumps)
            && (self.traverses || !other.traverses)
            && (self.climbs || !other.climbs)
            && (self.squeezes || !other.squeezes)
    }

    fn knowledge<'a>(self, sight: &'a KnownLevel) -> Knowledge<'a> {
        Knowledge {
            swims: self.swims,
            jumps: self.jumps,
            traverses: self.traverses,
            climbs: self.climbs,
            squeezes: self.squeezes,
            ..sight.knowledge()
        }
    }
}

/// The parts of the party worth weighing apart from it: for each member, those who cross all
/// it crosses (a member who climbs sheer rock alone, with the others who climb too), where
/// they cross more than the whole party does. Ordered, without repeats.
fn parts(world: &World, mind: &PartyMind, up: &[Entity]) -> Vec<Vec<Entity>> {
    // (Climbing alone counts sheer rock: a rope lowered for all is the whole party's.)
    let alone = |m: Entity| Crossing {
        climbs: super::gaps::climbs_sheer_at_odds(world, mind, m),
        ..Crossing::of(world, mind, &[m])
    };
    let each: Vec<Crossing> = up.iter().map(|&m| alone(m)).collect();
    let mut parts: Vec<Vec<Entity>> = Vec::new();
    for c in &each {
        let part: Vec<Entity> = up
            .iter()
            .zip(&each)
            .filter(|(_, d)| d.covers(*c))
            .map(|(&m, _)| m)
            .collect();
        if part.len() < up.len() && !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts
}

/// The aims a group's knowledge allows from `from`, each with its walk and cost. A part of the
/// party is not sent to search dead ends.
fn aims(
    world: &World,
    mind: &PartyMind,
    (group, light_left): (&[Entity], Option<u64>),
    know: &Knowledge,
    distances: &Distances,
    (from, whole): (GridPos, bool),
) -> Vec<(Aim, Vec<GridPos>, u32)> {
    let mut aims = Vec::new();
    // (A way out is left by the whole party: a part that reached it alone — one sent ahead,
    // or deciding while away — would leave the rest behind.)
    let exit = matches!(mind.goal, delve_ground::level::Goal::Exit(_));
    if let Some(to) = goal_square(mind, know, distances)
        && !(exit && (!whole || mind.tasks.under_way()))
    {
        aims.push(Aim::Goal { to });
    }
    for to in super::way::edges(mind, know, distances, from, EDGES) {
        aims.push(Aim::Explore { to });
    }
    if let Some((foe, to)) = quarry_nearest(world, mind, group, know, distances) {
        aims.push(Aim::SeekOut { foe, to });
    }
    // (The nearest square beside each fallen creature it remembers with gear on it.)
    for (from, at) in &mind.fallen_memory.seen_with_gear {
        let beside = at
            .neighbours()
            .into_iter()
            .filter_map(|p| Some((distances.cost(know.grid, p)?, p)))
            .min();
        if let Some((_, to)) = beside {
            aims.push(Aim::TakeFrom {
                from: from.clone(),
                to,
            });
        }
    }
    // (The walk's squares, not its cost: a door or a trap on the way costs a plan, not time.)
    let time = |at: GridPos| {
        distances.walk_to(know.grid, at).is_some_and(|walk| {
            let cost = 2 * walk.len().saturating_sub(1) as u32;
            time_for_a_search(world, mind, (group, light_left), (know, distances), cost)
        })
    };
    if whole {
        aims.extend(super::doors::bash_again(
            world, mind, group, know, distances,
        ));
    }
    if whole
        && let Some(at) = dead_end_to_search(mind, know, distances)
        && time(at)
    {
        aims.push(Aim::Search { at });
    }
    if whole
        && let Some(at) = super::searching::wall_to_search(
            mind,
            know,
            distances,
            super::searching::found_in_a_turn(world, group),
        )
        && time(at)
    {
        aims.push(Aim::SearchWall { at });
    }
    aims.into_iter()
        .filter_map(|aim| {
            let to = aim.square();
            let walk = distances.walk_to(know.grid, to)?;
            let cost = distances.cost(know.grid, to)?;
            Some((aim, walk, cost))
        })
        .collect()
}

/// Is there time for a turn's search at a square a walk of `cost` (half squares) away — the walk there, the
/// search, the walk home from there (at most the walk back and the walk home from here) and the
/// policy's margin of turns — before the policy's turn limit and before the light left burns
/// out (Dungeon Delves › Light and Darkness)? A careful party does not begin a search it would
/// have to break off.
fn time_for_a_search(
    world: &World,
    mind: &PartyMind,
    (group, light_left): (&[Entity], Option<u64>),
    (know, distances): (&Knowledge, &Distances),
    cost: u32,
) -> bool {
    use delve_ground::time::{Clock, ROUNDS_PER_TURN};
    let now = world.resource::<Clock>().rounds;
    let limit = mind.policy.turn_limit * ROUNDS_PER_TURN;
    let home = super::way::rounds_home(world, mind, group, know, distances).unwrap_or(0);
    let there = super::way::rounds_to_walk(world, group, cost, know.grid.scale_feet()).unwrap_or(0);
    let margin = u64::from(mind.policy.light_margin_turns) * ROUNDS_PER_TURN;
    let needed = 2 * there + ROUNDS_PER_TURN + home + margin;
    now + needed <= limit && light_left.is_none_or(|left| left >= needed)
}

/// Every plan the party's knowledge allows, best first. `members` decide (the goers, while a
/// part is away); `from_here` are the whole group's distances from the leader's square `here`.
pub(super) fn weigh(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    sight: &KnownLevel,
    from_here: &Distances,
    here: GridPos,
) -> Vec<Plan> {
    // The light the whole party has left, in rounds (none to count where it started without
    // fuel or carries a light that needs none).
    let party = super::party_members(world, &mind.party);
    let light_left = (mind.fuel_at_start > 0 && !super::light::burns_forever(world, &party))
        .then(|| crate::policy::outcome::fuel_rounds(world, &party));
    let world = &*world;
    let know = sight.knowledge();
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .collect();
    let found = super::searching::found_in_a_turn(world, members);
    let per_round = worth_of_a_round(world, mind, (members, light_left), &know, from_here);
    let mut plans: Vec<Plan> = aims(
        world,
        mind,
        (members, light_left),
        &know,
        from_here,
        (here, true),
    )
    .into_iter()
    .map(|(aim, walk, cost)| {
        let gain = gain(mind, &know, &aim, found);
        plan(
            world,
            (&up, &know),
            (aim, gain),
            (walk, cost),
            (per_round, None),
        )
    })
    .collect();
    // (Parts only from the whole party, not from a part already sent.)
    let whole = Crossing::of_sight(sight);
    if mind.tasks.under_way() || mind.homeward.is_some() || up.len() < 2 {
        return ranked(plans);
    }
    for part in parts(world, mind, &up) {
        let crossing = Crossing::of(world, mind, &part);
        if whole.covers(crossing) {
            continue;
        }
        let Some(from) = square(world, part[0]) else {
            continue;
        };
        let know_part = crossing.knowledge(sight);
        let distances = know_part.distances(from);
        let aims = aims(
            world,
            mind,
            (&part, light_left),
            &know_part,
            &distances,
            (from, false),
        );
        for (aim, walk, cost) in aims {
            // (Where the whole party can go, it goes together.)
            let Some(&past) = walk
                .iter()
                .find(|&&p| from_here.cost(&sight.grid, p).is_none())
            else {
                continue;
            };
            if mind.tasks.done(past) {
                continue;
            }
            let gain = gain(mind, &know_part, &aim, found);
            plans.push(plan(
                world,
                (&part, &know_part),
                (aim, gain),
                (walk, cost),
                (per_round, Some(past)),
            ));
        }
    }
    // A part explores the unknown alone only where the whole party has nothing left to walk
    // to (searching aside).
    let whole_has_one = plans.iter().any(|p| {
        p.past.is_none()
            && p.worth_the_risk
            && !matches!(p.aim, Aim::Search { .. } | Aim::SearchWall { .. })
    });
    plans.retain(|p| !(whole_has_one && p.past.is_some() && matches!(p.aim, Aim::Explore { .. })));
    ranked(plans)
}

/// The plans worth taking, best first: a careful party takes none whose gain is outweighed by
/// the chance of losing one of its own (the time a plan takes ranks it, but does not rule it
/// out: the turn limit and the light do, `way::homeward`).
fn ranked(mut plans: Vec<Plan>) -> Vec<Plan> {
    // (Ties kept in the order listed: the whole party's first.)
    plans.sort_by(|a, b| b.score.total_cmp(&a.score));
    plans.retain(|p| p.worth_the_risk);
    plans
}

/// A plan weighed: `gain` ([`gain`]) times the chance its goers come through there and back
/// (a share of it for a part going alone), less [`MISHAP`] times the chance one is lost, less
/// the rounds of the walk there and of the search at its end, each `per_round`.
fn plan(
    world: &World,
    (goers, know): (&[Entity], &Knowledge),
    (aim, gain): (Aim, f32),
    (walk, cost): (Vec<GridPos>, u32),
    (per_round, past): (f32, Option<GridPos>),
) -> Plan {
    let (through, lost) = odds_of_the_walk(world, goers, know, &walk);
    // (There and back.)
    let (chance, lost) = (through * through, 1.0 - (1.0 - lost) * (1.0 - lost));
    let share = if past.is_some() { APART } else { 1.0 };
    let walking = super::way::rounds_to_walk(world, goers, cost, know.grid.scale_feet());
    let searching = match aim {
        Aim::Search { .. } | Aim::SearchWall { .. } => delve_ground::time::ROUNDS_PER_TURN,
        _ => 0,
    };
    let rounds = walking.unwrap_or(0) + searching;
    let risked = gain * chance * share - MISHAP * lost;
    Plan {
        aim,
        goers: goers.to_vec(),
        walk,
        chance,
        lost,
        score: risked - rounds as f32 * per_round,
        worth_the_risk: risked >= 0.0,
        past,
    }
}

/// The odds of one hazard for one goer: the chance it fails there, and the chance it is lost if
/// it does.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Hazard {
    fails: f32,
    lost_if_it_fails: f32,
}

impl Hazard {
    const NONE: Hazard = Hazard {
        fails: 0.0,
        lost_if_it_fails: 0.0,
    };
}

/// The chance every goer comes through the hazards of `walk` one way, and the chance one of
/// them is lost there, by the rules' throws: each round afloat in water over its head its
/// Swimming throw (one round a square; a failure is drowning, and a drowning goer is lost
/// unless an ally not drowning brings it up: Dungeon Delves › Swimming and Drowning), each
/// squeeze the chance it sticks there for good, each hole its jump with a run-up (a failure
/// falls in), each ledge its balancing traverse, each shaft its Climbing throws down and out
/// (easy for all with a rope lowered or secured; a fall is from the point of the throw). A
/// fall whose damage, 1d6 per 10', takes the goer's hit points leaves it dying: lost unless
/// companions with a rope haul it up.
pub(super) fn odds_of_the_walk(
    world: &World,
    goers: &[Entity],
    know: &Knowledge,
    walk: &[GridPos],
) -> (f32, f32) {
    let grid = know.grid;
    let rope = goers
        .iter()
        .any(|&m| world.get::<Equipment>(m).is_some_and(|g| g.has_rope(0)));
    // Who could save a goer in trouble: another goer who swims without risk grabs one
    // drowning; two or more with a rope haul up one who fell dying (RULINGS › Carrying and
    // hauling). Alone, a goer drowning or dying is lost.
    let swimmers = goers
        .iter()
        .filter(|&&m| swimming_fails(world, m) <= super::way::SWIMMER_MAY_FAIL)
        .count();
    let haulers = |roped: bool| (rope || roped) && goers.len() >= 2;
    let (mut through, mut kept) = (1.0f32, 1.0f32);
    for &m in goers {
        let swim_fails = swimming_fails(world, m);
        let stuck = delve_rules::rules::caving::stuck_for_good_chance(world, m);
        let hp = world.get::<HitPoints>(m).map_or(1, |h| h.current.max(1));
        // (A fall leaves one dying at 0 hit points or fewer, not dead: lost if no one hauls.)
        let fall = |feet: u32, roped: bool| {
            if haulers(roped) {
                0.0
            } else {
                dice_at_least(feet / 10, hp)
            }
        };
        let rescued = swimmers > usize::from(swim_fails <= super::way::SWIMMER_MAY_FAIL);
        for w in walk.windows(2) {
            let (a, b) = (w[0], w[1]);
            let hazard = if a.chebyshev(b) >= 2 {
                match Over::of(world, a, b, know.jumps) {
                    Over::Hole => {
                        let depth = between(a, b).and_then(|h| hole_at(world, h)).unwrap_or(0);
                        Hazard {
                            fails: 1.0 - chance(world, m, gap_feet(world, a, b), true),
                            lost_if_it_fails: fall(depth, false),
                        }
                    }
                    Over::Ledge => {
                        let depth = deepest_beside(world, a, b);
                        Hazard {
                            fails: ledge_between(grid, a, b)
                                .map_or(1.0, |i| 1.0 - super::gaps::traverse_chance(world, m, i)),
                            lost_if_it_fails: fall(depth, false),
                        }
                    }
                    Over::Shaft(s) => {
                        let depth = hole_at(world, s).unwrap_or(0);
                        let each =
                            super::gaps::climb_fails(world, m, rope || know.roped.contains(&s));
                        // (Down and out: two climbs, each with its throws.)
                        let throws = 2 * depth.div_ceil(FEET_PER_THROW).max(1) as i32;
                        Hazard {
                            fails: 1.0 - (1.0 - each).powi(throws),
                            lost_if_it_fails: fall(depth / 2, know.roped.contains(&s)),
                        }
                    }
                }
            } else {
                match grid.terrain(b) {
                    Some(Terrain::Water(WaterDepth::Deep)) => Hazard {
                        fails: swim_fails,
                        lost_if_it_fails: if rescued { 0.0 } else { 1.0 },
                    },
                    Some(Terrain::Squeeze) => Hazard {
                        fails: stuck,
                        lost_if_it_fails: 1.0,
                    },
                    _ => Hazard::NONE,
                }
            };
            through *= 1.0 - hazard.fails;
            kept *= 1.0 - hazard.fails * hazard.lost_if_it_fails;
        }
    }
    (through, 1.0 - kept)
}

/// The square a jump from `a` to `b`, two squares apart in a line, goes over.
fn between(a: GridPos, b: GridPos) -> Option<GridPos> {
    (a.chebyshev(b) == 2).then(|| GridPos::new((a.x + b.x) / 2, (a.y + b.y) / 2))
}

/// The deepest hole beside a traverse from `a` to `b`: where a fall off the ledge goes.
fn deepest_beside(world: &World, a: GridPos, b: GridPos) -> u32 {
    let first = GridPos::new(a.x + (b.x - a.x).signum(), a.y + (b.y - a.y).signum());
    first
        .neighbours()
        .into_iter()
        .filter_map(|p| hole_at(world, p))
        .max()
        .unwrap_or(0)
}

/// The chance `n` six-sided dice come to `at_least` or more.
fn dice_at_least(n: u32, at_least: i32) -> f32 {
    if at_least <= 0 {
        return 1.0;
    }
    // (The distribution of the sum, by convolution.)
    let mut ways = vec![1.0f64];
    for _ in 0..n {
        let mut next = vec![0.0f64; ways.len() + 6];
        for (s, w) in ways.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += w / 6.0;
            }
        }
        ways = next;
    }
    ways.iter()
        .enumerate()
        .filter(|&(s, _)| s as i32 >= at_least)
        .map(|(_, w)| *w)
        .sum::<f64>() as f32
}

/// The width of the ledge a traverse from `a` to `b` goes along.
fn ledge_between(grid: &DungeonGrid, a: GridPos, b: GridPos) -> Option<u32> {
    let first = GridPos::new(a.x + (b.x - a.x).signum(), a.y + (b.y - a.y).signum());
    match grid.terrain(first) {
        Some(Terrain::Ledge { width_inches }) => Some(width_inches),
        _ => None,
    }
}

// The quarry.
//
// The quarry: where the goal is gear some creature carries (`Recover`) and the party has not
// found it, the foes it has seen and judged it can beat (`odds`) are where it may be. Once
// nothing is left to explore, the party seeks out the nearest of them where it last saw it —
// a player who has searched a level and not found the relic goes after the eel it saw in the
// pool. A foe it sees no more where it last saw it is forgotten (it moved off, who knows where).

/// After the party has judged the foes in sight: each it would fight is its quarry where it
/// stands now; one too strong, felled or gone from where it was last seen is not.
pub(super) fn update_quarry(
    world: &World,
    mind: &mut PartyMind,
    members: &[Entity],
    in_sight_now: &[(Entity, GridPos)],
) {
    let alive = |name: &str| {
        world
            .resource::<CreatureIndex>()
            .0
            .get(name)
            .is_some_and(|&e| is_up(world, e))
    };
    let seen_now: Vec<(String, GridPos)> = in_sight_now
        .iter()
        .map(|&(e, at)| (delve_rules::creature::name_of(world, e), at))
        .collect();
    mind.quarry.retain(|(name, at)| {
        alive(name)
            && !mind.dangers.iter().any(|(n, _)| n == name)
            && (seen_now.iter().any(|(n, _)| n == name) || !in_sight(world, members, *at))
    });
    for (name, at) in seen_now {
        if !alive(&name) || mind.dangers.iter().any(|(n, _)| *n == name) {
            continue;
        }
        match mind.quarry.iter_mut().find(|(n, _)| *n == name) {
            Some(q) => q.1 = at,
            None => mind.quarry.push((name, at)),
        }
    }
}

/// The nearest quarry the party knows a way to (a square beside where it was last seen), with
/// that square: only for a goal of gear not yet in hand.
fn quarry_nearest(
    world: &World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    from_here: &Distances,
) -> Option<(String, GridPos)> {
    if !matches!(mind.goal, Goal::Recover(_)) || goal_met(world, mind, members) {
        return None;
    }
    mind.quarry
        .iter()
        .filter_map(|(name, at)| {
            let (cost, beside) = at
                .neighbours()
                .into_iter()
                .filter_map(|p| Some((from_here.cost(know.grid, p)?, p)))
                .min()?;
            Some((cost, name.clone(), beside))
        })
        .min()
        .map(|(_, name, beside)| (name, beside))
}

#[cfg(test)]
mod tests {
    use super::dice_at_least;

    #[test]
    fn dice_come_to_at_least() {
        assert_eq!(dice_at_least(0, 1), 0.0);
        assert_eq!(dice_at_least(2, 0), 1.0);
        assert!((dice_at_least(1, 4) - 0.5).abs() < 1e-6);
        // 2d6 of 11 or more: 3 ways in 36.
        assert!((dice_at_least(2, 11) - 3.0 / 36.0).abs() < 1e-6);
    }
}
