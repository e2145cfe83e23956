//! Carrying a downed member home (RULINGS › Carrying and hauling): the companion who bears it
//! with the lightest load takes it up, or two share it, half each, each beside it; bound home
//! through a squeeze, a bearer who would stick there for good puts it down.

use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_ground::level::{Goal, SpeedBasis};
use delve_rules::command::Command;
use delve_rules::command::acts::LetGo;
use delve_rules::creature::{Below, Conditions, Encumbrance};
use delve_rules::rules::carrying::{Carry, Holding};

use bevy::prelude::*;

use super::fighting::foe_at_hand;
use super::way::{occupied_squares, on_the_way};
use super::{
    Homeward, Intent, PartyMind, free_to_act, is_up, name, offered, on_hand, square, take_the_lead,
    with_the_party,
};

/// Going home, no one who can still be brought out is left behind: a member down and alive
/// (dying) on the floor is taken up by the companion who can bear it with the lightest load
/// (`rules::carrying`: its whole weight; over 20 stone no one can move). The party walks back
/// to it as it walks anywhere (doors, holes to jump: [`on_the_way`]), the bearer taking the
/// lead for the last steps. A party in flight does not stop for it with a foe at hand, nor go back for one
/// not at hand. With no one able to bear it, or no way known to it, the tactic does not apply.
pub(super) fn carry_the_downed(
    t: &mut super::round::ThisRound<'_>,
) -> Option<(Intent, Vec<Command>)> {
    use delve_rules::rules::carrying::carrier_of;
    let (world, mind, members) = (&mut *t.world, &mut *t.mind, t.members);
    // (Bound home, or for a way out: the party leaves the level by it.)
    if mind.homeward.is_none() && !matches!(mind.goal, Goal::Exit(_)) {
        return None;
    }
    if mind.homeward == Some(Homeward::Fleeing) && foe_at_hand(world, mind, members) {
        return None;
    }
    let downed: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| {
            !is_up(world, m)
                && world
                    .get::<Conditions>(m)
                    .is_some_and(|c| !c.has(ConditionKind::Dead))
                && world.get::<Below>(m).is_none()
                && !mind.fallen_memory.left_for_good.contains(&name(world, m))
        })
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect();
    // In flight the party takes up only those at hand, and does not go back for the others.
    let fleeing = mind.homeward == Some(Homeward::Fleeing);
    let (whom, at) = downed.into_iter().find(|&(m, p)| {
        carrier_of(world, m).is_none()
            && (!fleeing || p.chebyshev(t.here) <= with_the_party(members))
    })?;
    let who = name(world, whom);
    let Some((bearer, bearer_at, second)) = bearers(world, mind, members, whom, at) else {
        mind.fallen_memory.left_for_good.push(who);
        return None;
    };
    let intent = Intent::Carry { whom: who.clone() };
    // The second bearer comes beside it once the first is there.
    if let Some((second, second_at)) = second
        && bearer_at.within_a_step(at)
        && !second_at.within_a_step(at)
    {
        if given_up_after(world, mind, members, &who, 6) {
            return None;
        }
        let Some(p) = square_beside_the_downed(world, second, second_at, at) else {
            mind.fallen_memory.left_for_good.push(who);
            return None;
        };
        let step = delve_rules::command::acts::Move {
            who: name(world, second),
            to: (p.x, p.y),
            pace: delve_rules::rules::movement::Pace::Exploration,
        };
        return Some((intent, vec![step.into()]));
    }
    if bearer_at.within_a_step(at) {
        mind.fallen_memory.carry_walks = 0;
        // As the rules offer it: beside a companion who is down and alive, not holding another.
        let Some(carry) = offered(world, bearer, |a| {
            a.get::<Carry>().is_some_and(|c| c.whom == who)
        }) else {
            mind.fallen_memory.left_for_good.push(who);
            return None;
        };
        return Some((intent, vec![carry]));
    }
    // Far off, or across a hole from its bearer (one hauled out onto the rim the party is not
    // on): the party walks back to it as it walks anywhere, crossing as it crosses (a walk that
    // makes no progress is set aside by the table: `decide::SET_ASIDE`).
    let across = delve_rules::rules::movement::hazards::way(world, bearer, bearer_at, at).is_err();
    if t.here.chebyshev(at) > with_the_party(members) || across {
        let (sight, from_here) = (t.sight.as_ref()?, t.from_here.as_ref()?);
        let know = sight.knowledge();
        let Some(walk) = from_here.walk_to(know.grid, at) else {
            // No way known from here (the party parted by a hole, say): it goes home first,
            // and from there, with still no way, it is left.
            if t.here.within_a_step(mind.way_in) {
                mind.fallen_memory.left_for_good.push(who);
            }
            return None;
        };
        return on_the_way(world, mind, members, &know, &walk, at, intent);
    }
    // Near: the bearer takes the lead up to it, the rest behind (four tries; a fight that
    // holds them up counts none).
    if given_up_after(world, mind, members, &who, 4) {
        return None;
    }
    let party = mind.party.clone();
    Some((intent, take_the_lead(world, &party, members, bearer, at)))
}

/// A free square beside the downed one at `at` that the second bearer standing at `from` can
/// walk to, the nearest (each bearer stands beside the one carried, `rules::carrying::carry`:
/// in a passage one square wide, the second goes past it to its far side).
fn square_beside_the_downed(
    world: &mut World,
    second: Entity,
    from: GridPos,
    at: GridPos,
) -> Option<GridPos> {
    let occupied = occupied_squares(world);
    let grid = world.resource::<DungeonGrid>();
    at.neighbours()
        .into_iter()
        .filter(|&p| grid.is_passable(p) && !occupied.contains(&p))
        .filter_map(|p| {
            let walk = delve_rules::rules::movement::hazards::way(world, second, from, p).ok()?;
            Some((walk.feet, p))
        })
        .min()
        .map(|(_, p)| p)
}

/// One more walk to bring a bearer beside the downed `who` (a fight that holds the party up
/// counts none): past `most`, it is left ([`FallenMemory::left_for_good`](super::fallen::FallenMemory)).
fn given_up_after(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    who: &str,
    most: u32,
) -> bool {
    if !super::fighting::in_a_fight(world, members) {
        mind.fallen_memory.carry_walks += 1;
    }
    if mind.fallen_memory.carry_walks <= most {
        return false;
    }
    mind.fallen_memory.carry_walks = 0;
    mind.fallen_memory.left_for_good.push(who.to_string());
    true
}

/// A bearer and where it stands.
type Bearer = (Entity, GridPos);

/// Who bears the downed `whom` lying at `at`: the one who bears it with the lightest load,
/// then the nearest; with no one who bears it alone, the nearest two who can share it, half
/// each (RULINGS › Carrying and hauling). `None` when no one can.
fn bearers(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    whom: Entity,
    at: GridPos,
) -> Option<(Entity, GridPos, Option<Bearer>)> {
    use delve_rules::rules::carrying::load_with;
    let free = |world: &World, m: Entity| {
        m != whom
            && on_hand(world, mind, m)
            && free_to_act(world, m)
            && world.get::<Holding>(m).is_none()
    };
    let alone = members
        .iter()
        .copied()
        .filter(|&m| free(world, m))
        .filter_map(|m| {
            let load = load_with(world, m, whom).ok()?;
            let p = square(world, m)?;
            Some(((load * 10.0) as u32, p.chebyshev(at), m, p))
        })
        .min();
    if let Some((_, _, b, p)) = alone {
        return Some((b, p, None));
    }
    let half = delve_rules::rules::carrying::weight_of(world, whom) / 2.0;
    let mut able: Vec<(u32, Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| free(world, m) && bears_half(world, m, half))
        .filter_map(|m| Some((square(world, m)?.chebyshev(at), m, square(world, m)?)))
        .collect();
    able.sort();
    let [(_, b, p), (_, second, second_at), ..] = able[..] else {
        return None;
    };
    Some((b, p, Some((second, second_at))))
}

/// Could `m` bear `stone` more and still move (20 stone at most)? One whose speed is given, not
/// its encumbrance, bears any load.
fn bears_half(world: &World, m: Entity, stone: f32) -> bool {
    match world.get::<Encumbrance>(m).map(|e| e.0) {
        Some(SpeedBasis::Encumbrance { stone: own }) => {
            delve_rules::rules::movement::encumbrance_band(own + stone).is_some()
        }
        _ => true,
    }
}

/// A bearer laden so that it would more likely than not stick in the squeezes ahead for good.
/// (Carried through, the two are lost together at that chance; put down, the one carried is
/// lost for certain: a careful party carries on below one in two.)
const LADEN_STUCK_FOR_GOOD: f32 = 0.5;

/// Bound home through `squeezes` squeezes: a bearer whose chance of sticking in one of them for
/// good, laden as it is (Dungeon Delves › Squeezing), is over
/// [`LADEN_STUCK_FOR_GOOD`] puts down the one it carries, who is left
/// ([`FallenMemory::left_for_good`](super::fallen::FallenMemory)).
pub(super) fn put_down_before_the_squeeze(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    squeezes: usize,
) -> Option<(Intent, Vec<Command>)> {
    let bearer = members.iter().copied().find(|&m| {
        world.get::<Holding>(m).is_some() && {
            let each = delve_rules::rules::caving::stuck_for_good_chance(world, m);
            1.0 - (1.0 - each).powi(squeezes as i32) > LADEN_STUCK_FOR_GOOD
        }
    })?;
    put_down(world, mind, bearer)
}

/// The bearer puts down the one it carries (as the rules offer it), who is left
/// ([`FallenMemory::left_for_good`](super::fallen::FallenMemory)).
pub(super) fn put_down(
    world: &mut World,
    mind: &mut PartyMind,
    bearer: Entity,
) -> Option<(Intent, Vec<Command>)> {
    let whom = world.get::<Holding>(bearer)?.whom;
    let let_go = offered(world, bearer, |a| a.get::<LetGo>().is_some())?;
    let whom = name(world, whom);
    mind.fallen_memory.left_for_good.push(whom.clone());
    mind.fallen_memory.put_down.push(whom.clone());
    Some((Intent::LeaveAtTheSqueeze { whom }, vec![let_go]))
}
