//! How the party fights (issue 33's "protect the vulnerable, focus on one foe"): in a battle the
//! fighting behaviour (`rules::combat::behaviour`) moves and strikes for every creature; a party
//! under its policy fights together ([`FightsTogether`]): of the enemies about as near as the
//! nearest, each member goes first for one next to a vulnerable companion (the mapper at his
//! map, the stuck, the drowning: Dungeon Delves › Mapping, › Squeezing, › Swimming and
//! Drowning) or a bloodied one, then for one a companion is already attacking. After a battle
//! a jammed firearm is cleared (Tactical Combat › Firearm Misfires: in one, the fighting
//! behaviour clears it). And how it leaves a fight: it flees once too many are down, falls back
//! before a foe it could not outlast, and waits that foe out before it tries again.

use delve_rules::creature::Factions;
use delve_rules::rules::combat::battle::{Awareness, Battle};

use bevy::prelude::*;

use super::decide::where_next;
use super::round::{Decision, Needs, ThisRound};
use super::standing::in_sight;
use super::{Homeward, Intent, PartyMind, is_up, name, party_members, square};
use crate::policy::behaviour::FightsTogether;
use crate::policy::behaviour::Retreating;
use crate::policy::knowledge::Knowledge;
use delve_ground::grid::DungeonGrid;
use delve_ground::grid::GridPos;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_rules::command::Command;
use delve_rules::command::acts::MarchingOrder;
use delve_rules::creature::Below;
use delve_rules::creature::{Conditions, Faction, Position};
use delve_rules::rules::combat::gear::Jammed;
use delve_rules::rules::light::LightMap;
use delve_rules::rules::movement::Pace;
use delve_rules::rules::vision::{Hiding, Sight};

/// Every member of the party fights together while the party is under its policy.
pub(super) fn fight_together(world: &mut World, members: &[Entity]) {
    for &m in members {
        if world.get::<FightsTogether>(m).is_none() {
            world.entity_mut(m).insert(FightsTogether);
        }
    }
}

/// In a fight: a battle is on and a member is aware of an enemy in it (a party watched from the
/// dark by a guard at its post knows of no fight, and goes about its delve).
pub(super) fn in_a_fight(world: &World, members: &[Entity]) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.active)
        && world
            .get_resource::<Awareness>()
            .is_some_and(|a| members.iter().any(|&m| !a.of(m).is_empty()))
}

/// A foe at hand: the party is in a fight, or a member sees a creature hostile to the party
/// that is up.
pub(super) fn foe_at_hand(world: &mut World, mind: &PartyMind, members: &[Entity]) -> bool {
    if in_a_fight(world, members) {
        return true;
    }
    type Others = QueryState<(&'static Position, &'static Faction, &'static Conditions)>;
    let foes: Vec<GridPos> =
        delve_ground::query_cache::cached_query(world, |world, q: &mut Others| {
            let factions = world.resource::<Factions>();
            q.iter(world)
                .filter(|(_, f, c)| {
                    factions.hostile(**f, mind.faction)
                        && !delve_rules::rules::conditions::is_down(c)
                })
                .map(|(p, ..)| p.0)
                .collect()
        });
    foes.into_iter().any(|p| in_sight(world, members, p))
}

/// A battle whose foes the party cannot come to blows with (`in_a_fight` holds, yet no member
/// can reach one): no member could attack a foe it is aware of now, nor that foe it
/// (`rules::combat::attack::can_attack`, whatever their weapons), and no walk over what the
/// faction knows — on foot or swimming, never climbing, jumping, traversing or squeezing, which
/// the fighting behaviour never does — brings one beside the other. An eel in its pool at the
/// foot of a shaft, a guard across a chasm: the party keeps clear of it and goes about its
/// delve (`odds::hold_back`), until one can reach the other.
pub(super) fn beyond_reach(world: &mut World, mind: &mut PartyMind, members: &[Entity]) -> bool {
    use delve_rules::creature::Combatant;
    use delve_rules::rules::combat::attack::can_attack;
    let Some(awareness) = world.get_resource::<Awareness>() else {
        return false;
    };
    let pairs: Vec<(Entity, Entity)> = members
        .iter()
        .flat_map(|&m| awareness.of(m).iter().copied())
        .collect();
    if pairs.is_empty() {
        return false;
    }
    let weapons = |e: Entity| world.get::<Combatant>(e).map_or(0, |c| c.weapons.len());
    let blows = pairs.iter().any(|&(m, foe)| {
        (0..weapons(m)).any(|i| can_attack(world, m, foe, i).is_ok())
            || (0..weapons(foe)).any(|i| can_attack(world, foe, m, i).is_ok())
    });
    if blows {
        return false;
    }
    let sight = super::round::KnownLevel::look(world, mind, members);
    let on_foot = crate::policy::knowledge::Knowledge {
        swims: true,
        jumps: false,
        traverses: false,
        climbs: false,
        squeezes: false,
        roped: &[],
        ..sight.knowledge()
    };
    let mut walks = std::collections::BTreeMap::new();
    !pairs.iter().any(|&(m, foe)| {
        let (Some(from), Some(at)) = (super::square(world, m), super::square(world, foe)) else {
            return false;
        };
        if world.get::<delve_rules::creature::Below>(m).is_some() {
            return false;
        }
        let d = walks.entry(from).or_insert_with(|| on_foot.distances(from));
        at.neighbours()
            .into_iter()
            .any(|p| d.cost(on_foot.grid, p).is_some())
    })
}

/// The first member up with a jammed firearm clears it, as the combat area offers it. (Only
/// that area's offer, and only for a jammed member: this is asked at every decision.)
pub(super) fn clear_a_jam(world: &mut World, members: &[Entity]) -> Option<(Intent, Vec<Command>)> {
    let (who, order) = members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Jammed>(m).is_some())
        .find_map(|m| {
            delve_rules::rules::areas::area_choices_next_round(
                world,
                m,
                delve_rules::rules::combat::jam_choices,
            )
            .into_iter()
            .map(|(_, c)| Command::from(&c.command))
            .find(|c| matches!(c, Command::ClearJam(_)))
            .map(|o| (m, o))
        })?;
    Some((
        Intent::ClearJam {
            who: name(world, who),
        },
        vec![order],
    ))
}

/// Too many down while a foe is at hand: the party makes for the way in, running where it
/// can. A beaten foe (none fighting, none in sight) is not fled.
pub(super) fn flee(t: &mut ThisRound<'_>) -> Option<Decision> {
    if t.mind.homeward == Some(Homeward::Fleeing)
        || !too_many_down(t.world, t.mind, t.members)
        || !foe_at_hand(t.world, t.mind, t.members)
    {
        return None;
    }
    let orders = set_off_in_flight(t);
    Some((
        Intent::TurnBack {
            why: Homeward::Fleeing,
        },
        orders,
    ))
}

/// A foe too strong for it coming on ([`coming_on`]), or able to reach it within a round in
/// a battle ([`within_a_round`]), no blow yet struck: the party falls back toward the way in
/// at once, as in flight — its doors shut behind it — rather than wait for blows it cannot
/// trade (RULINGS › Knowledge: it judges the foe as a player who knows the monster would).
pub(super) fn fall_back(t: &mut ThisRound<'_>) -> Option<Decision> {
    if t.mind.homeward == Some(Homeward::Fleeing) {
        return None;
    }
    let from = match t.mind.coming_on.clone() {
        Some(foe) => foe,
        None => {
            let sight = t.sight.as_ref()?;
            let know = crate::policy::knowledge::Knowledge {
                danger: &[],
                ..sight.knowledge()
            };
            within_a_round(t.world, t.mind, t.members, &know)?
        }
    };
    let now = t.world.resource::<Clock>().rounds;
    let order = party_members(t.world, &t.mind.party)
        .into_iter()
        .map(|m| name(t.world, m))
        .collect();
    t.mind.falling_back = Some(FallingBack {
        foe: from.clone(),
        seen: now,
        order,
    });
    *t.mind.fell_back.entry(from.clone()).or_default() += 1;
    let (wounds, hit_points) = t
        .mind
        .beyond
        .iter()
        .find(|(n, ..)| *n == from)
        .map_or((0, 0), |&(_, w, h)| (w, h));
    let orders = set_off_in_flight(t);
    Some((
        Intent::FallBack {
            from,
            wounds,
            hit_points,
        },
        orders,
    ))
}

/// Falling back from a foe too strong for it ([`waits_out`]): once the foe has been out of
/// its sight a turn ([`WAIT_OUT`]) — it kept to its round, or gave up the
/// chase — the party goes about its delve again, its ways keeping clear of where it last saw
/// the foe. At the way in it waits that turn out resting, its lights burning to see the foe
/// come (Dungeon Delves › Rest); should it come, the party leaves (`ending::the_end`).
pub(super) fn try_again(t: &mut ThisRound<'_>) -> Option<Decision> {
    let back = t.mind.falling_back.clone()?;
    if t.mind.homeward != Some(Homeward::Fleeing) || !waits_out(t.world, t.mind) {
        return None;
    }
    let (foe, now) = (back.foe, t.world.resource::<Clock>().rounds);
    if now >= back.seen + WAIT_OUT.0 && !foe_at_hand(t.world, t.mind, t.members) {
        t.mind.falling_back = None;
        t.mind.homeward = None;
        t.mind.exploring.home = None;
        // (In its old marching order again: the one nearest the way in led the flight.)
        let order = MarchingOrder {
            party: t.mind.party.clone(),
            order: back.order,
        };
        return Some((Intent::TryAgain { after: foe }, vec![order.into()]));
    }
    t.here.within_a_step(t.mind.way_in).then(|| {
        (
            Intent::WaitOut { foe },
            vec![
                delve_rules::command::acts::RestParty {
                    party: t.mind.party.clone(),
                }
                .into(),
            ],
        )
    })
}

/// The member up and on the level's floor nearest `home` by the party's known ways.
fn nearest_home(
    world: &World,
    members: &[Entity],
    know: &Knowledge,
    home: GridPos,
) -> Option<Entity> {
    let from_home = know.distances(home);
    members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m) && world.get::<Below>(m).is_none())
        .filter_map(|m| Some((from_home.cost(know.grid, square(world, m)?)?, m)))
        .min_by_key(|&(d, _)| d)
        .map(|(_, m)| m)
}

/// The party turns to flee: its members are held back from the fighting behaviour, and it sets
/// off at once, whatever it was at (a search, a pick: a walk sets a task aside).
fn set_off_in_flight(t: &mut ThisRound<'_>) -> Vec<Command> {
    t.mind.homeward = Some(Homeward::Fleeing);
    t.mind.exploring.heading_for = None;
    for &m in t.members {
        t.world.entity_mut(m).insert(Retreating);
    }
    if t.prepare(Needs::Distances) {
        where_next(t).map(|(_, orders)| orders).unwrap_or_default()
    } else {
        Vec::new()
    }
}

/// In flight the member nearest the way in (`home`) leads, the others falling in behind it: the
/// one who led the way in, at the front, would walk into them. Its orders, where another than
/// the `leader` is nearest.
pub(super) fn lead_the_flight(
    world: &World,
    mind: &PartyMind,
    members: &[Entity],
    leader: Entity,
    (know, home): (&Knowledge, GridPos),
) -> Option<Vec<Command>> {
    if mind.homeward != Some(Homeward::Fleeing) {
        return None;
    }
    let nearest = nearest_home(world, members, know, home).filter(|&m| m != leader)?;
    Some(super::take_the_lead_at(
        world,
        &mind.party,
        members,
        nearest,
        (home, Pace::Combat),
    ))
}

/// The foes a member sees now, hostile to the party and up, each with its square.
pub(super) fn foes_in_sight(
    world: &World,
    faction: Faction,
    members: &[Entity],
) -> Vec<(Entity, GridPos)> {
    let factions = world.resource::<Factions>();
    let mut out: Vec<(Entity, GridPos)> =
        delve_ground::query_cache::read_query(world, |q: Query<(Entity, &Position, &Faction)>| {
            q.iter()
                .filter(|(_, _, f)| factions.hostile(**f, faction))
                .map(|(e, p, _)| (e, p.0))
                .collect()
        })
        .unwrap_or_default();
    out.retain(|&(e, p)| is_up(world, e) && seen_by(world, members, e, p));
    out.sort();
    out
}

/// Does a member see the creature `e` standing at `at`, as the rules of vision have it (one
/// hiding is not seen: RULINGS › Knowledge, the party plays by what it sees)?
fn seen_by(world: &World, members: &[Entity], e: Entity, at: GridPos) -> bool {
    let (Some(grid), Some(light)) = (
        world.get_resource::<DungeonGrid>(),
        world.get_resource::<LightMap>(),
    ) else {
        return false;
    };
    let hiding = world.get::<Hiding>(e).is_some();
    members.iter().any(|&m| {
        let (Some(sight), Some(from)) =
            (world.get::<Sight>(m), world.get::<Position>(m).map(|p| p.0))
        else {
            return false;
        };
        sight.sees_creature(grid, light, from, at, hiding)
    })
}

/// A foe too strong for the party, one that would deal it all its hit points before it falls
/// ([`Odds::beyond_the_party`](super::odds::Odds::beyond_the_party)), that it sees coming on, not yet beside a member: nearer its
/// nearest member up than where the party last saw it (`was`: the foes too strong for it
/// before this round's look). A careful party does not wait for blows it cannot trade: it
/// falls back (`decide::fall_back`; there too, one that could reach it within a round).
/// A foe that keeps its place — a guard at its post, a beast in its lair — is not coming on:
/// the party keeps clear of it and goes about its delve.
pub(super) fn coming_on(
    world: &World,
    mind: &super::PartyMind,
    members: &[Entity],
    in_sight: &[(Entity, GridPos)],
    was: &[(String, GridPos)],
) -> Option<String> {
    let squares = squares_up(world, members);
    let nearest = |p: GridPos| squares.iter().map(|s| s.chebyshev(p)).min();
    in_sight.iter().find_map(|&(foe, at)| {
        let name = delve_rules::creature::name_of(world, foe);
        let &(_, then) = was.iter().find(|(n, _)| *n == name)?;
        let (now, then) = (nearest(at)?, nearest(then)?);
        (mind.dangers.iter().any(|(n, _)| *n == name)
            && now < then
            && now > 1
            && mind.beyond.iter().any(|(n, ..)| *n == name))
        .then_some(name)
    })
}

fn squares_up(world: &World, members: &[Entity]) -> Vec<GridPos> {
    members
        .iter()
        .filter(|&&m| is_up(world, m))
        .filter_map(|&m| super::square(world, m))
        .collect()
}

/// A foe beyond the party ([`Odds::beyond_the_party`](super::odds::Odds::beyond_the_party)), in sight, that could reach a member within a round in a
/// battle the party knows of (its initiative thrown): within its combat movement, by its
/// kind's speed (RULINGS › Knowledge: judged by its kind's entry), by the ways the party knows
/// from where it stands — not yet beside one. It falls back before the foe is on it.
pub(super) fn within_a_round(
    world: &World,
    mind: &super::PartyMind,
    members: &[Entity],
    know: &crate::policy::knowledge::Knowledge,
) -> Option<String> {
    if !world
        .get_resource::<delve_rules::rules::combat::battle::Battle>()
        .is_some_and(|b| b.active)
    {
        return None;
    }
    let squares = squares_up(world, members);
    let scale = know.grid.scale_feet().max(1);
    foes_in_sight(world, mind.faction, members)
        .into_iter()
        .find_map(|(foe, at)| {
            let name = delve_rules::creature::name_of(world, foe);
            if !mind.dangers.iter().any(|(n, _)| *n == name)
                || squares.iter().any(|s| s.within_a_step(at))
                || !mind.beyond.iter().any(|(n, ..)| *n == name)
            {
                return None;
            }
            // (Half squares, as the party's distances count them.)
            let reach = 2 * combat_squares(world, foe, scale);
            let from = know.distances(at);
            squares
                .iter()
                .any(|&s| from.cost(know.grid, s).is_some_and(|c| c <= reach))
                .then_some(name)
        })
}

/// The squares `who` moves a round at combat speed (Dungeon Delves › Movement).
fn combat_squares(world: &World, who: Entity, scale_feet: u32) -> u32 {
    use delve_rules::creature::{Conditions, Encumbrance};
    use delve_rules::rules::movement::{Pace, Speeds};
    let (Some(enc), Some(cond)) = (world.get::<Encumbrance>(who), world.get::<Conditions>(who))
    else {
        return 0;
    };
    Speeds::of(enc.0, cond).map_or(0, |s| s.tenths_per_round(Pace::Combat) / 10 / scale_feet)
}

/// Is the policy's share of the party down (the whole party's, while part of it is away on a
/// task: `members` may be the goers alone)?
pub(super) fn too_many_down(world: &World, mind: &super::PartyMind, members: &[Entity]) -> bool {
    let party = super::party_members(world, &mind.party);
    let all = if party.is_empty() { members } else { &party };
    let down = all.iter().filter(|&&m| !is_up(world, m)).count();
    down > 0 && down as f32 >= mind.policy.flee_when_down * all.len() as f32
}

/// How long a foe the party fell back from must stay out of its sight, in rounds, before it
/// tries again (a turn: Dungeon Delves › Time), and how often it falls back from one foe before
/// it leaves for good.
pub const WAIT_OUT: (u64, u32) = (ROUNDS_PER_TURN, 2);

/// Falling back from a foe too strong for it (`decide::fall_back`), every member up, the foe
/// out of its sight since the round before last, and not yet fallen back from it
/// [`WAIT_OUT`]'s times: the party waits the foe out (`decide::try_again`) rather than leave
/// by the way in. (One down in the flight, the party leaves, as any flight does.)
pub(super) fn waits_out(world: &World, mind: &super::PartyMind) -> bool {
    let Some(back) = &mind.falling_back else {
        return false;
    };
    let now = world.resource::<delve_ground::time::Clock>().rounds;
    mind.fell_back.get(&back.foe).copied().unwrap_or(0) < WAIT_OUT.1
        && super::party_members(world, &mind.party)
            .iter()
            .all(|&m| is_up(world, m))
        && now > back.seen + 1
}

/// A party falling back from a foe too strong for it: the foe, the round it last saw it, and
/// its marching order before it turned (put back when it tries again).
#[derive(Clone, Debug)]
pub(super) struct FallingBack {
    pub(super) foe: String,
    pub(super) seen: u64,
    pub(super) order: Vec<String>,
}

/// The round the party last saw the foe it falls back from: now, if a member sees it.
pub(super) fn still_coming(
    world: &World,
    mind: &mut super::PartyMind,
    in_sight: &[(Entity, GridPos)],
) {
    let Some(back) = mind.falling_back.as_mut() else {
        return;
    };
    if in_sight
        .iter()
        .any(|&(e, _)| delve_rules::creature::name_of(world, e) == back.foe)
    {
        back.seen = world.resource::<delve_ground::time::Clock>().rounds;
    }
}
