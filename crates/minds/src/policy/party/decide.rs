//! The party's decision each round: an ordered table of named tactics ([`TACTICS`]). Each row
//! is tried in turn; the first that applies gives the round's intent and orders, and the log
//! names it ([`PolicyEvent::Decided`]'s `tactic`). A row that cannot make progress (no rope, no
//! climber, nothing to light) does not apply, and the next is tried.

use crate::policy::behaviour::Retreating;
use crate::policy::knowledge::Distances;
use delve_ground::grid::terrain::Terrain;
use delve_ground::time::Clock;
use delve_rules::creature::{Below, Resting};
use delve_rules::rules::acting::Hold;
use delve_rules::rules::carrying::Holding;
use delve_rules::rules::caving::climbing::Climbing;
use delve_rules::rules::task::Task;

use bevy::prelude::*;

use super::bearing::carry_the_downed;
use super::doors::spike_behind;
use super::fallen::{fetch_from_the_pit, out_of_the_pit, take_from_the_fallen};
use super::fighting::{fall_back, flee, in_a_fight, lead_the_flight, too_many_down, try_again};
use super::gaps::{party_jumps_at, rejoin_across};
use super::light::{has_light_burning, light_dying, light_to_kindle, take_a_light};
use super::plan::{Aim, Plan};
use super::round::{Decision, Needs, ThisRound};
use super::searching::{best_searcher, search_here};
use super::way::{close_up, on_the_way, setting_out, turn_back};
use super::{
    Homeward, Intent, PartyMind, PartyMinds, PolicyEvent, is_up, leader, name, offered,
    party_members, square, take_the_lead,
};
use crate::policy::knowledge::Knowledge;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::log_in;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::command::Command;
use delve_rules::command::acts::{MarchingOrder, PushForward, WiggleBack};
use delve_rules::creature::Conditions;
use delve_rules::rules::movement::Walking;
use delve_rules::rules::party::Parties;

/// One row of the party's tactics.
pub(super) struct Tactic {
    /// The tactic's name, as the log gives it.
    pub name: &'static str,
    pub needs: Needs,
    /// Each round's try is a fresh throw that may succeed (an escape from a squeeze): never set
    /// aside for changing nothing ([`SET_ASIDE`]).
    pub throws_anew: bool,
    /// Tried by a party in flight too.
    pub in_flight: bool,
    /// Tried in a battle the party fights (the fighting behaviour fights; these get a member at
    /// the bottom of a hole, whom no behaviour moves, out to the fight).
    pub in_battle: bool,
    /// Whether it applies this round, and its orders if so.
    pub try_it: fn(&mut ThisRound<'_>) -> Option<Decision>,
}

impl Tactic {
    const fn new(
        name: &'static str,
        needs: Needs,
        try_it: fn(&mut ThisRound<'_>) -> Option<Decision>,
    ) -> Self {
        Tactic {
            name,
            needs,
            throws_anew: false,
            in_flight: true,
            in_battle: false,
            try_it,
        }
    }

    const fn throws_anew(self) -> Self {
        Tactic {
            throws_anew: true,
            ..self
        }
    }

    /// Tried in a battle too.
    const fn in_battle(self) -> Self {
        Tactic {
            in_battle: true,
            ..self
        }
    }

    /// A party in flight does not stop for it.
    const fn not_in_flight(self) -> Self {
        Tactic {
            in_flight: false,
            ..self
        }
    }
}

/// The party's tactics, in the order they are tried.
pub(super) const TACTICS: &[Tactic] = &[
    Tactic::new("set out", Needs::Party, set_out),
    Tactic::new("leader up front", Needs::Party, leader_up_front),
    Tactic::new("get unstuck", Needs::Party, get_unstuck).throws_anew(),
    Tactic::new("save the drowning", Needs::Party, |t| {
        super::rescue::save_the_drowning(t.world, t.members)
    })
    .throws_anew(),
    Tactic::new("take from the fallen", Needs::Party, |t| {
        take_from_the_fallen(t.world, t.mind, t.members)
    })
    .not_in_flight(),
    Tactic::new("relight", Needs::Party, relight),
    Tactic::new("clear a jam", Needs::Party, |t| {
        super::fighting::clear_a_jam(t.world, t.members)
    })
    .not_in_flight(),
    Tactic::new("close up", Needs::KnownLevel, |t| {
        close_up(t.world, t.mind, t.members, t.leader, t.here)
    }),
    Tactic::new("fetch from the pit", Needs::Distances, fetch_from_the_pit).not_in_flight(),
    Tactic::new("out of the pit", Needs::KnownLevel, |t| {
        out_of_the_pit(t.world, t.mind, t.members)
    })
    .in_battle(),
    Tactic::new(
        "haul up the dying",
        Needs::Distances,
        super::fallen::haul_up_the_dying,
    )
    .not_in_flight(),
    Tactic::new("rejoin across", Needs::KnownLevel, |t| {
        let sight = t.sight.as_ref().filter(|s| s.all_seen)?;
        rejoin_across(t.world, t.mind, t.members, t.leader, &sight.knowledge())
    })
    .in_battle(),
    Tactic::new("flee", Needs::KnownLevel, flee),
    Tactic::new("fall back", Needs::KnownLevel, fall_back),
    Tactic::new("try again", Needs::Party, try_again),
    Tactic::new("spike behind", Needs::KnownLevel, |t| {
        if t.mind.homeward != Some(Homeward::Fleeing) {
            return None;
        }
        spike_behind(t.world, t.mind, t.members, t.here)
    }),
    Tactic::new("rest", Needs::KnownLevel, super::resting::rest).not_in_flight(),
    Tactic::new("take a light", Needs::Distances, |t| {
        if t.mind.homeward.is_some() {
            return None;
        }
        let (sight, from_here) = (t.sight.as_ref()?, t.from_here.as_ref()?);
        take_a_light(t.world, t.mind, t.members, &sight.knowledge(), from_here)
    }),
    Tactic::new("turn back", Needs::Distances, |t| {
        if t.mind.homeward.is_some() {
            return None;
        }
        let (sight, from_here) = (t.sight.as_ref()?, t.from_here.as_ref()?);
        let why = turn_back(t.world, t.mind, t.members, &sight.knowledge(), from_here)?;
        t.mind.homeward = Some(why);
        t.mind.exploring.home = Some(super::way::home(t.mind, &sight.knowledge(), from_here));
        t.mind.exploring.heading_for = None;
        Some((Intent::TurnBack { why }, Vec::new()))
    }),
    Tactic::new("carry the downed", Needs::Distances, carry_the_downed),
    Tactic::new("where next", Needs::Distances, where_next),
];

/// The party's decision this round: the first tactic that applies, its name, why, and its
/// orders.
pub(super) fn decide(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
) -> Option<(&'static str, Decision)> {
    let leader = leader(world, members)?;
    let here = square(world, leader)?;
    let mut turn = ThisRound {
        world,
        mind,
        members,
        leader,
        here,
        sight: None,
        from_here: None,
    };
    let now = turn.world.resource::<Clock>().rounds;
    let squares: Vec<Option<GridPos>> = members.iter().map(|&m| square(turn.world, m)).collect();
    // In a battle it fights (not fleeing, not too many down, not keeping clear of a foe too
    // strong for it: `odds::hold_back`), only the rows for a battle.
    let battle = in_a_fight(turn.world, members)
        && turn.mind.homeward != Some(Homeward::Fleeing)
        && !too_many_down(turn.world, turn.mind, members)
        && !members
            .iter()
            .any(|&m| turn.world.get::<Retreating>(m).is_some());
    // (A rest due within the turn may take the place of a turn's work: what deciding on the
    // work wrote in the mind's memory of searches and doors is taken back then.)
    let before_work = (!battle && super::resting::needs_rest(turn.world, members, ROUNDS_PER_TURN))
        .then(|| (turn.mind.exploring.clone(), turn.mind.door_memory.clone()));
    for tactic in TACTICS {
        if battle && !tactic.in_battle {
            continue;
        }
        if !turn.prepare(tactic.needs) {
            return None;
        }
        if !tactic.in_flight && turn.mind.homeward == Some(Homeward::Fleeing) {
            continue;
        }
        let Some(decision) = (tactic.try_it)(&mut turn) else {
            continue;
        };
        let mind = &mut *turn.mind;
        if tactic.throws_anew {
            mind.deciding.unchanged = 0;
            mind.deciding.last_decision = None;
            return Some((tactic.name, decision));
        }
        if mind
            .deciding
            .set_aside
            .iter()
            .any(|(n, i, until)| *n == tactic.name && *i == decision.0 && *until > now)
        {
            continue;
        }
        // Never loop: the same decision again and again, a round or two apart, with no one
        // moving, is set aside for a while and the next row is tried.
        let same = mind
            .deciding
            .last_decision
            .as_ref()
            .is_some_and(|(n, i, r, sq)| {
                *n == tactic.name
                    && *i == decision.0
                    && now <= r + SET_ASIDE.within
                    && *sq == squares
            });
        mind.deciding.unchanged = if same { mind.deciding.unchanged + 1 } else { 0 };
        mind.deciding.last_decision = Some((tactic.name, decision.0.clone(), now, squares.clone()));
        if mind.deciding.unchanged + 1 >= SET_ASIDE.after {
            mind.deciding.unchanged = 0;
            mind.deciding.set_aside.push((
                tactic.name,
                decision.0.clone(),
                now + SET_ASIDE.for_rounds,
            ));
            log_in(
                turn.world,
                PolicyEvent::SetAside {
                    party: turn.mind.party.clone(),
                    tactic: tactic.name,
                    intent: decision.0,
                },
            );
            continue;
        }
        // (A turn's work that would carry a member past five turns without rest waits for
        // the rest: `resting::rest_before`.)
        if let Some((exploring, doors)) = before_work
            && let Some(rest) = super::resting::rest_before(&mut turn, &decision)
        {
            (turn.mind.exploring, turn.mind.door_memory) = (exploring, doors);
            return Some(("rest", rest));
        }
        return Some((tactic.name, decision));
    }
    None
}

/// When a decision that changes nothing is set aside: after five in a row, each within three
/// rounds of the last with no member moved; for three turns.
pub(super) struct SetAside {
    pub after: u32,
    pub within: u64,
    pub for_rounds: u64,
}

pub(super) const SET_ASIDE: SetAside = SetAside {
    after: 5,
    within: 3,
    for_rounds: 3 * ROUNDS_PER_TURN,
};

/// One tactic alone, as if it were the only row (a test of that row): its decision for the
/// party now, if it applies. The party's mind is left as it was; the world may not be (a row's
/// orders are not given, but a flight marks the members as retreating).
pub fn try_tactic(world: &mut World, party: &str, tactic: &str) -> Option<Decision> {
    let tactic = TACTICS.iter().find(|t| t.name == tactic)?;
    let (mut mind, members, leader, here) = the_party_now(world, party)?;
    let mut turn = ThisRound {
        world,
        mind: &mut mind,
        members: &members,
        leader,
        here,
        sight: None,
        from_here: None,
    };
    if !turn.prepare(tactic.needs)
        || (!tactic.in_flight && turn.mind.homeward == Some(Homeward::Fleeing))
    {
        return None;
    }
    (tactic.try_it)(&mut turn)
}

/// The planner's plans for the party now, best first, as the log gives them (`plan`: a test or
/// a benchmark of the planner alone). The party's mind is left as it was; none while its
/// faction's memory is not ready.
pub fn weigh_plans(world: &mut World, party: &str) -> Vec<super::plan::Weighing> {
    let Some((mut mind, members, leader, here)) = the_party_now(world, party) else {
        return Vec::new();
    };
    let mut turn = ThisRound {
        world,
        mind: &mut mind,
        members: &members,
        leader,
        here,
        sight: None,
        from_here: None,
    };
    if !turn.prepare(Needs::Distances) {
        return Vec::new();
    }
    let ThisRound {
        world,
        mind,
        sight: Some(sight),
        from_here: Some(from_here),
        ..
    } = turn
    else {
        return Vec::new();
    };
    let plans = super::plan::weigh(world, mind, &members, &sight, &from_here, here);
    super::plan::weighings(world, mind, &plans)
}

/// A copy of the party's mind, its members, leader and the leader's square: what a row or the
/// planner is tried alone with.
fn the_party_now(world: &World, party: &str) -> Option<(PartyMind, Vec<Entity>, Entity, GridPos)> {
    let mind = world
        .resource::<PartyMinds>()
        .0
        .iter()
        .find(|m| m.party == party)?
        .clone();
    let members = party_members(world, party);
    let leader = leader(world, &members)?;
    let here = square(world, leader)?;
    Some((mind, members, leader, here))
}

/// The names of the party's tactics, in the order they are tried.
pub fn tactic_names() -> impl Iterator<Item = &'static str> {
    TACTICS.iter().map(|t| t.name)
}

/// The marching order and the pole, once, as the party is handed over.
fn set_out(t: &mut ThisRound<'_>) -> Option<Decision> {
    if t.mind.deciding.set_out {
        return None;
    }
    t.mind.deciding.set_out = true;
    let orders = setting_out(t.world, t.mind, t.members);
    (!orders.is_empty()).then_some((Intent::SetOut, orders))
}

/// The leader is down, or at the bottom of a hole: the others go first.
fn leader_up_front(t: &mut ThisRound<'_>) -> Option<Decision> {
    let (world, members) = (&*t.world, t.members);
    if members.first() == Some(&t.leader) {
        return None;
    }
    let below = |m: Entity| world.get::<Below>(m).is_some();
    let mut order: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && !below(m))
        .collect();
    order.extend(
        members
            .iter()
            .copied()
            .filter(|&m| is_up(world, m) && below(m)),
    );
    order.extend(members.iter().copied().filter(|&m| !is_up(world, m)));
    let order = order.iter().map(|&m| name(world, m)).collect();
    Some((
        Intent::SetOut,
        vec![
            MarchingOrder {
                party: t.mind.party.clone(),
                order,
            }
            .into(),
        ],
    ))
}

/// Stuck in a squeeze, before anything else (a stuck member can do nothing but escape). A
/// failed push forward (Dungeonbashing) makes every later attempt −4; a failed wiggle back (a
/// Paralysis save) leaves it no worse (Dungeon Delves › Squeezing). So it pushes only where the
/// way it was going lies ahead, the push is the likelier, and a failed push would still leave
/// a wiggle that can work (or there is none to keep); else it wiggles back, as often as it
/// takes. One with no chance either way is stuck for good: no order is given for it.
/// Odds of escape a stuck bearer deems past hope (a natural 20 alone, or worse): it puts down
/// the one it carries.
const HOPELESS_ESCAPE: f32 = 0.1;

fn get_unstuck(t: &mut ThisRound<'_>) -> Option<Decision> {
    let world = &*t.world;
    // (One held by more than the squeeze — drowning in it — can make no escape now.)
    let stuck = t.members.iter().copied().find(|&m| {
        is_up(world, m)
            && world
                .get::<Conditions>(m)
                .is_some_and(|c| c.has(ConditionKind::Stuck))
            && delve_rules::rules::acting::held_from(world, m, &[Hold::Stuck, Hold::Surprised])
                .is_none()
    })?;
    use delve_rules::rules::caving::escape_odds;
    use delve_rules::rules::caving::events::Escape;
    use delve_rules::rules::movement::squeezes::StuckIn;
    let who = name(world, stuck);
    let pushes = world.get::<StuckIn>(stuck).map_or(0, |s| s.failed_pushes);
    let odds = |way: Escape, pushes: u32| escape_odds(world, stuck, way, pushes);
    let (push, wiggle) = (odds(Escape::Forward, pushes), odds(Escape::Back, pushes));
    // A bearer stuck past hope with the one it carries puts it down first: its load is off its
    // throws (the one put down is left, `bearing::put_down_before_the_squeeze`).
    if push.max(wiggle) < HOPELESS_ESCAPE
        && world.get::<Holding>(stuck).is_some()
        && let Some(decision) = super::bearing::put_down(t.world, t.mind, stuck)
    {
        return Some(decision);
    }
    let world = &*t.world;
    let odds = |way: Escape, pushes: u32| escape_odds(world, stuck, way, pushes);
    if push == 0.0 && wiggle == 0.0 {
        return None;
    }
    // Bound home, forward only where it leads home (stuck on the walk home, not on the way in).
    let toward_home = world.get::<StuckIn>(stuck).is_some_and(|s| {
        let home = t.mind.way_in;
        let off = |p: Option<&GridPos>| p.map_or(u32::MAX, |p| p.chebyshev(home));
        off(s.ahead.last()) < off(s.behind.last())
    });
    let forward = (t.mind.homeward.is_none() || toward_home)
        && push > wiggle
        && (wiggle == 0.0 || odds(Escape::Back, pushes + 1) > 0.0);
    // The way out as the squeeze offers it.
    let order = if forward {
        offered(world, stuck, |a| a.get::<PushForward>().is_some())
    } else {
        offered(world, stuck, |a| a.get::<WiggleBack>().is_some())
    }?;
    Some((Intent::GetUnstuck { who }, vec![order]))
}

/// Dungeon Delves › Light and Darkness: the next light is lit before the last one dies (a round
/// to light it), so the party is never in the dark between them; an empty lantern is filled.
fn relight(t: &mut ThisRound<'_>) -> Option<Decision> {
    let (world, members) = (&mut *t.world, t.members);
    if has_light_burning(world, members) && !light_dying(world, members) {
        return None;
    }
    let (who, offered) = light_to_kindle(world, members)?;
    let n = name(world, who);
    if let Command::Refuel(_) = offered {
        return Some((Intent::Refuel { who: n }, vec![offered]));
    }
    let mut orders: Vec<Command> = vec![offered];
    // The light goes second in the marching order, to light the leader's way.
    if members.first() != Some(&who) && members.get(1) != Some(&who) {
        let mut order: Vec<String> = members
            .iter()
            .filter(|&&m| m != who)
            .map(|&m| name(world, m))
            .collect();
        order.insert(1.min(order.len()), n.clone());
        orders.push(
            MarchingOrder {
                party: t.mind.party.clone(),
                order,
            }
            .into(),
        );
    }
    Some((Intent::Relight { who: n }, orders))
}

/// Where to, and why: home once turned back; else the best of the plans the planner weighs
/// (`plan`: the goal it has seen, the nearest edge of what it has seen, a foe that may carry
/// what it came for, a dead end not yet searched — the best searcher goes first — for the whole
/// party or a part sent ahead); else nothing is left. Then what is on the way there.
pub(super) fn where_next(t: &mut ThisRound<'_>) -> Option<Decision> {
    let (world, mind, members, leader, here) =
        (&mut *t.world, &mut *t.mind, t.members, t.leader, t.here);
    // (A leader at the bottom of a hole leads no walk: the party gets it out first.)
    if world.get::<Below>(leader).is_some() {
        return None;
    }
    let (sight, from_here) = (t.sight.as_ref()?, t.from_here.as_ref()?);
    let know = sight.knowledge();
    let (target, intent) = if mind.homeward.is_some()
        && let Some((at, who)) = the_waiting(world, mind, &know, from_here)
    {
        // Bound home while a part is away: the part goes back to those waiting for it first.
        (at, Intent::Rejoin { who, at })
    } else if mind.homeward.is_some() {
        let home = match mind.exploring.home {
            Some(home) => home,
            None => super::way::home(mind, &know, from_here),
        };
        mind.exploring.home = Some(home);
        // In flight the member nearest the way in leads, the others falling in behind it
        // (the one who led the way in, at the front, would walk into them).
        if let Some(orders) = lead_the_flight(world, mind, members, leader, (&know, home)) {
            return Some((Intent::GoHome { to: home }, orders));
        }
        (home, Intent::GoHome { to: home })
    } else {
        super::fallen::remember_the_fallen(world, mind, members);
        let plans = super::plan::weigh(world, mind, members, sight, from_here, here);
        let Some(best) = plans.first() else {
            mind.homeward = Some(Homeward::NothingLeft);
            return Some((
                Intent::TurnBack {
                    why: Homeward::NothingLeft,
                },
                Vec::new(),
            ));
        };
        tell_the_weighing(world, mind, &plans);
        if best.past.is_some() {
            return super::task::send_ahead(world, mind, members, &know, best);
        }
        match best.aim.clone() {
            Aim::Search { at } | Aim::SearchWall { at } => {
                let wall = matches!(best.aim, Aim::SearchWall { .. });
                match go_search(
                    world,
                    mind,
                    members,
                    (leader, here),
                    (&know, from_here),
                    (at, wall),
                ) {
                    Ok(decision) => return Some(decision),
                    Err(bound) => bound,
                }
            }
            Aim::DoorAgain { at, to, .. } => {
                super::doors::try_the_door_again(mind, at);
                (to, Intent::Explore { to: at })
            }
            aim => (aim.square(), aim.intent()),
        }
    };
    if target == here {
        // Arrived where it was bound, and it is still an edge: it is not tried again.
        mind.exploring.exhausted.push(target);
        return None;
    }
    if let Some(walk) = from_here.walk_to(&sight.grid, target) {
        return on_the_way(world, mind, members, &know, &walk, target, intent);
    }
    // Homeward, and cut off from the way in by a squeeze it would not take at its usual risk
    // (most likely the one it came in by) or a hole it would not jump at its usual odds: it
    // takes the squeeze, and jumps at the odds it accepts when stranded.
    mind.homeward?;
    let stranded = Knowledge {
        squeezes: mind.gap_memory.has_squeezes,
        jumps: sight.jumps || party_jumps_at(world, members, mind.policy.stranded_jump_odds),
        ..sight.knowledge()
    };
    if (stranded.squeezes, stranded.jumps) == (sight.squeezes, sight.jumps) {
        return None;
    }
    let walk = stranded.distances(here).walk_to(&sight.grid, target)?;
    // A body is not carried through a squeeze its bearer, so laden, would likely stick in for
    // good (Dungeon Delves › Squeezing: the throw by encumbrance): it is put down and left.
    let squeezes = squeezes_on(&sight.grid, &walk);
    if stranded.squeezes
        && squeezes > 0
        && let Some(decision) =
            super::bearing::put_down_before_the_squeeze(world, mind, members, squeezes)
    {
        return Some(decision);
    }
    on_the_way(world, mind, members, &stranded, &walk, target, intent)
}

/// The party bound to search at `at` (a dead end, or a wall when `wall`): a wall it is near is
/// searched by all at once, spread along it (`searching::search_along`); on the square, the
/// search (`searching::search_here`); else the best searcher goes first (in a corridor no one
/// passes the one on it), or the party walks there (`Err`: where, and why).
fn go_search(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    (leader, here): (Entity, GridPos),
    (know, from_here): (&Knowledge, &Distances),
    (at, wall): (GridPos, bool),
) -> Result<Decision, (GridPos, Intent)> {
    if wall && here.chebyshev(at) <= super::with_the_party(members) {
        return Ok(super::searching::search_along(
            world,
            mind,
            members,
            (know, from_here),
            at,
        ));
    }
    if members
        .iter()
        .any(|&m| is_up(world, m) && square(world, m) == Some(at))
    {
        return Ok(search_here(world, mind, members, at));
    }
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .collect();
    if let Some(searcher) = best_searcher(world, &up)
        && searcher != leader
    {
        return Ok((
            Intent::Search { at },
            take_the_lead(world, &mind.party, members, searcher, at),
        ));
    }
    Err((at, Intent::Search { at }))
}

/// The squeezes on a walk: its squares of squeeze (`rules::caving::stuck_for_good_chance` is
/// the chance of one squeeze, in and out).
fn squeezes_on(grid: &delve_ground::grid::DungeonGrid, walk: &[GridPos]) -> usize {
    walk.iter()
        .filter(|&&p| grid.terrain(p) == Some(Terrain::Squeeze))
        .count()
}

/// Busy: walking, closing up, climbing, resting, at work, or in a battle it knows of (not
/// fleeing).
pub(super) fn busy(world: &World, mind: &PartyMind, members: &[Entity]) -> bool {
    let fighting = in_a_fight(world, members);
    // In a battle the fighting behaviour fights; the party decides only when too many are down
    // (to flee, at work or not).
    // (But one at the bottom of a hole, up and not climbing, reaches no one: the party gets it
    // out, with the rows for a battle.)
    if fighting && mind.homeward != Some(Homeward::Fleeing) {
        let idle_below = members.iter().any(|&m| {
            is_up(world, m) && world.get::<Below>(m).is_some() && world.get::<Climbing>(m).is_none()
        });
        return !too_many_down(world, mind, members) && !idle_below;
    }
    let marching = world
        .resource::<Parties>()
        .get(&mind.party)
        .is_some_and(|p| p.pace.is_some());
    marching
        || members.iter().any(|&m| {
            is_up(world, m)
                && (world.get::<Walking>(m).is_some()
                    || world.get::<Climbing>(m).is_some()
                    || world.get::<Task>(m).is_some()
                    || world.get::<Resting>(m).is_some())
        })
}

/// The deciding itself: whether the party set out, the last decision and how often in a row decisions changed nothing, those set aside, and the distances last worked out from the leader's square.
#[derive(Clone, Debug, Default)]
pub(super) struct Deciding {
    pub(super) set_out: bool,
    /// The last decision: its tactic, intent, round, and where the members stood.
    pub(super) last_decision: Option<(&'static str, Intent, u64, Vec<Option<GridPos>>)>,
    /// Decisions in a row that changed nothing (`decide::SET_ASIDE`).
    pub(super) unchanged: u32,
    /// Decisions set aside, until a round.
    pub(super) set_aside: Vec<(&'static str, Intent, u64)>,
    /// The plan last taken, its aim and goers (`tell_the_weighing`).
    pub(super) last_weighed: Option<(Aim, Vec<Entity>)>,
    /// The distances last worked out from the leader's square, and what they depended on
    /// (`decide::KnownLevel::fingerprint`).
    pub(super) distances: Option<(u64, Distances)>,
}

/// Logs the plans weighed when the one taken differs from the one last taken (its aim and its
/// goers): the best, and the next three.
fn tell_the_weighing(world: &mut World, mind: &mut PartyMind, plans: &[Plan]) {
    let Some(best) = plans.first() else {
        return;
    };
    let key = (best.aim.clone(), best.goers.clone());
    if mind.deciding.last_weighed.as_ref() == Some(&key) {
        return;
    }
    mind.deciding.last_weighed = Some(key);
    let mut told = super::plan::weighings(world, mind, &plans[..plans.len().min(4)]);
    let chosen = told.remove(0);
    let others = told;
    log_in(
        world,
        PolicyEvent::Weighed {
            party: mind.party.clone(),
            chosen,
            others,
        },
    );
}

/// While a part of the party is away: the free square nearest the goers beside one of those
/// waiting for it that the goers know a way to, and the waiting, by name.
fn the_waiting(
    world: &World,
    mind: &PartyMind,
    know: &Knowledge,
    from_here: &Distances,
) -> Option<(GridPos, Vec<String>)> {
    let waiting = mind.tasks.waiting();
    if waiting.is_empty() {
        return None;
    }
    let all = party_members(world, &mind.party);
    let squares: Vec<GridPos> = all.iter().filter_map(|&m| square(world, m)).collect();
    let at = all
        .iter()
        .filter(|&&m| waiting.contains(&name(world, m)))
        .filter_map(|&m| square(world, m))
        .flat_map(|w| w.neighbours())
        .filter(|p| !squares.contains(p))
        .filter_map(|p| Some((from_here.cost(know.grid, p)?, p)))
        .min()
        .map(|(_, p)| p)?;
    Some((at, waiting.to_vec()))
}
