//! Doors on the party's way (Dungeon Delves › Doors): listened at, opened, unlocked, picked,
//! bashed, spiked, wedged open; the thief who disarms the traps it knows of, and the pole that
//! prods them.

use delve_ground::level::schema::Proficiency;
use delve_rules::creature::{Creature, Equipment};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::traps::FailedHastyDisarms;

use bevy::prelude::*;

use delve_rules::act::AnyAct;

use super::round::Decision;
use super::standing::in_sight;
use super::way::{free_square_beside, occupied_squares, walk_up_and};
use super::{
    DoorPlan, DoorWork, Intent, PartyMind, first_in_line, free_to_act, is_up, leader, name,
    offered, on_hand, square,
};
use crate::policy::knowledge::Knowledge;
use crate::policy::knowledge::SeenDoor;
use delve_ground::grid::{DoorState, GridPos};
use delve_ground::level::schema::Lock;
use delve_ground::level::schema::TrapKind;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::command::Command;
use delve_rules::command::acts::{
    Bash, CloseDoor, Listen, Move, OpenDoor, PickLock, PickLockMethodically, Spike, Unlock,
};
use delve_rules::creature::{Abilities, ArmorClass, Combatant, HitPoints, Position, Proficiencies};
use delve_rules::rules::doors::Door;
use delve_rules::rules::traps::Trap;
use std::collections::BTreeMap;

/// The doors in sight of a member now, as they are.
pub(super) fn update_doors(world: &mut World, mind: &mut PartyMind, members: &[Entity]) {
    let doors: Vec<(GridPos, bool, bool)> =
        delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Door)>| {
            q.iter()
                .map(|(p, d)| (p.0, d.secret, d.state == DoorState::Open))
                .collect()
        })
        .unwrap_or_default();
    for (at, secret, open) in doors {
        if secret {
            continue;
        }
        if in_sight(world, members, at) {
            mind.door_memory.doors.insert(at, SeenDoor { open });
        }
    }
    remember_what_was_missing(world, mind);
}

/// What the whole party had to open doors with: the gear its members who are up carry (keys,
/// thieves' tools, spikes, a crowbar), each kind with how much of it the party holds in all, and
/// how many are up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Means {
    gear: BTreeMap<String, u32>,
    up: usize,
}

/// A piece of gear as a kind and an amount: a rope by its feet, spikes and flasks by count, every
/// other thing (a key by its name) as one.
fn kind_and_amount(g: &delve_ground::level::schema::Gear) -> (String, u32) {
    use delve_ground::level::schema::Gear;
    match g {
        Gear::Rope(feet) => ("Rope".into(), *feet),
        Gear::Spikes(n) => ("Spikes".into(), *n),
        Gear::Oil(n) => ("Oil".into(), *n),
        other => (format!("{other:?}"), 1),
    }
}

impl Means {
    fn now(world: &World, mind: &PartyMind) -> Means {
        let party = super::party_members(world, &mind.party);
        let up: Vec<Entity> = party.into_iter().filter(|&m| is_up(world, m)).collect();
        let mut gear = BTreeMap::new();
        for g in up
            .iter()
            .filter_map(|&m| world.get::<Equipment>(m))
            .flat_map(|g| g.0.iter())
        {
            let (kind, amount) = kind_and_amount(g);
            *gear.entry(kind).or_insert(0) += amount;
        }
        Means { gear, up: up.len() }
    }

    /// Has the party gained something since `then`: a thing it did not carry, more of a thing
    /// (a longer rope, more spikes), or a member back on its feet? Using up what it carried — a
    /// flask of oil burned, a spike driven — is no gain.
    fn gained_since(&self, then: &Means) -> bool {
        self.up > then.up
            || self
                .gear
                .iter()
                .any(|(kind, &n)| then.gear.get(kind).is_none_or(|&had| n > had))
    }
}

/// Memory of the doors left shut (RULINGS › Knowledge: what a faction has tried): each is
/// remembered with what the party had when it left it; once it has gained something since — a
/// key taken from the fallen, thieves' tools, a member back up — the door is no longer given up
/// (its work starts afresh, but for a lock it jammed), and the planner weighs what lies beyond
/// it again.
fn remember_what_was_missing(world: &World, mind: &mut PartyMind) {
    if mind.door_memory.shut_for_good.is_empty() && mind.door_memory.left_with.is_empty() {
        return;
    }
    let now = Means::now(world, mind);
    let memory = &mut mind.door_memory;
    for &door in &memory.shut_for_good {
        memory.left_with.entry(door).or_insert_with(|| now.clone());
    }
    let again: Vec<GridPos> = memory
        .left_with
        .iter()
        .filter(|(_, then)| now.gained_since(then))
        .map(|(&door, _)| door)
        .collect();
    for door in again {
        memory.left_with.remove(&door);
        memory.shut_for_good.retain(|&d| d != door);
        // (A jammed lock stays jammed: Dungeon Delves › Doors, "the lock cannot thereafter be
        // picked", and the party knows it.)
        let jammed = memory.door_work.remove(&door).is_some_and(|w| w.jammed);
        if jammed {
            let w = memory.door_work.entry(door).or_default();
            w.picked = true;
            w.jammed = true;
        }
    }
}

/// The stuck doors the party left shut after failed bashes that it may bash again, each from
/// the square beside it nearest by its known ways (`plan::Aim::DoorAgain`), with the chance
/// the policy's bashes open it: the best chance a member up is offered to bash it alone
/// (Dungeon Delves › Doors: Dungeonbashing, as the rules offer it), `bash_attempts` times.
pub(super) fn bash_again(
    world: &World,
    mind: &PartyMind,
    members: &[Entity],
    know: &Knowledge,
    distances: &crate::policy::knowledge::Distances,
) -> Vec<crate::policy::party::plan::Aim> {
    let memory = &mind.door_memory;
    memory
        .shut_for_good
        .iter()
        .copied()
        .filter(|d| {
            memory
                .door_work
                .get(d)
                .is_some_and(|w| w.bashes > 0 && !w.jammed)
        })
        .filter_map(|at| {
            let chance = members
                .iter()
                .filter(|&&m| is_up(world, m))
                .flat_map(|&m| delve_rules::rules::doors::choices_at_door(world, m, at))
                .filter(|c| c.command.get::<Bash>().is_some())
                .map(|c| c.chance)
                .fold(0.0_f32, f32::max);
            let opens = 1.0 - (1.0 - chance).powi(mind.policy.bash_attempts as i32);
            let (_, to) = at
                .neighbours()
                .into_iter()
                .filter_map(|p| Some((distances.cost(know.grid, p)?, p)))
                .min()?;
            (opens > 0.0).then_some(crate::policy::party::plan::Aim::DoorAgain {
                at,
                to,
                opens: (opens * 100.0).round() as u32,
            })
        })
        .collect()
}

/// The stuck door at `at` is tried again (`plan::Aim::DoorAgain`): no longer given up, its
/// bashes counted afresh.
pub(super) fn try_the_door_again(mind: &mut PartyMind, at: GridPos) {
    let memory = &mut mind.door_memory;
    memory.shut_for_good.retain(|&d| d != at);
    memory.left_with.remove(&at);
    if let Some(w) = memory.door_work.get_mut(&at) {
        w.bashes = 0;
        w.helper_called = false;
    }
}

/// The command the rules offer `m` at the door at `door` — as its faction knows the door, as if
/// `m` stood beside it — that `takes` picks out.
pub(super) fn offered_at_door(
    world: &World,
    m: Entity,
    door: GridPos,
    takes: impl Fn(&AnyAct) -> bool,
) -> Option<Command> {
    delve_rules::rules::doors::choices_at_door(world, m, door)
        .into_iter()
        .find(|c| takes(&c.command))
        .map(|c| Command::from(&c.command))
}

/// The first member up who is offered a spike for the door at `door`, with the order.
pub(super) fn spiker(
    world: &World,
    members: &[Entity],
    door: GridPos,
) -> Option<(Entity, Command)> {
    members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .find_map(|m| {
            offered_at_door(world, m, door, |a| a.get::<Spike>().is_some()).map(|o| (m, o))
        })
}

/// The first member up who is offered to disarm the trap at `at` hastily (one with the skill
/// and the tools: a thief), with the order: hastily on the first try, methodically after.
pub(super) fn disarmer(
    world: &World,
    members: &[Entity],
    at: GridPos,
    first_try: bool,
) -> Option<(Entity, Command)> {
    use delve_rules::command::acts::{DisarmTrap, DisarmTrapMethodically};
    let disarm = |a: &AnyAct| a.get::<DisarmTrap>().is_some_and(|d| !d.discharge);
    let methodically = |a: &AnyAct| {
        a.get::<DisarmTrapMethodically>()
            .is_some_and(|d| !d.discharge)
    };
    members
        .iter()
        .copied()
        .filter(|&m| is_up(world, m))
        .find_map(|m| {
            let offers = delve_rules::rules::traps::choices_at_trap(world, m, at);
            let offered = |takes: &dyn Fn(&AnyAct) -> bool| {
                offers
                    .iter()
                    .find(|c| takes(&c.command))
                    .map(|c| Command::from(&c.command))
            };
            // A hasty try that failed at this trap bars the hasty way, not the thief.
            let thief = offered(&disarm).is_some()
                || world
                    .get::<FailedHastyDisarms>(m)
                    .is_some_and(|f| f.0.iter().any(|(p, _)| *p == at));
            if !thief {
                return None;
            }
            let order = if first_try {
                offered(&disarm).or_else(|| offered(&methodically))
            } else {
                offered(&methodically)
            };
            order.map(|o| (m, o))
        })
}

/// The member best able to stand a blow, who goes first through a door: the highest armour
/// class and attack bonus together, then the most hit points.
pub(super) fn front_fighter(world: &World, up: &[Entity]) -> Option<Entity> {
    up.iter().copied().max_by_key(|&m| {
        let ac = world.get::<ArmorClass>(m).map_or(0, |a| a.0);
        let attack = world.get::<Combatant>(m).map_or(0, |c| c.attack_bonus);
        let hp = world.get::<HitPoints>(m).map_or(0, |h| h.current);
        (ac + attack, hp, std::cmp::Reverse(m))
    })
}

/// The party at a closed door beside its leader: listen, open, key, pick, bash, or leave it.
pub(super) fn deal_with_door(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    door: GridPos,
) -> (Intent, Vec<Command>) {
    let leader = leader(world, members).expect("the party has a leader");
    let leader_at = square(world, leader).unwrap_or(door);
    let up: Vec<Entity> = members
        .iter()
        .copied()
        .filter(|&m| on_hand(world, mind, m))
        .collect();
    let listen = mind.policy.listen_at_doors;
    let (hasty_picks, methodical_picks) = (mind.policy.hasty_picks, mind.policy.methodical_picks);
    let party = mind.party.clone();
    let w = mind.door_memory.door_work.entry(door).or_default();
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    if listen && !w.listened {
        // Dungeon Delves › Listening: one listens standing at the door. The best listener steps
        // up to a free square beside it (twice at most), else the best of those beside it
        // listens (no one is made to take the lead for it).
        // Each member up: its Listening target, and whether it stands beside the door.
        let ears: Vec<(Entity, i32, bool)> = up
            .iter()
            .map(|&m| {
                let target = world.get::<Proficiencies>(m).map_or(20, |p| {
                    delve_rules::rules::sound::hearing::listening_target(p).0
                });
                let beside = square(world, m).is_some_and(|p| p.within_a_step(door));
                (m, target, beside)
            })
            .collect();
        let (best, _, best_beside) = ears
            .iter()
            .copied()
            .min_by_key(|&(_, t, _)| t)
            .unwrap_or((leader, 20, true));
        if !best_beside
            && w.listen_walks < 2
            && let Some(p) = free_square_beside(world, best, leader_at, door)
        {
            w.listen_walks += 1;
            return (
                Intent::ListenAt { door },
                vec![
                    Move {
                        who: name(world, best),
                        to: (p.x, p.y),
                        pace: Pace::Exploration,
                    }
                    .into(),
                ],
            );
        }
        w.listened = true;
        let listener = ears
            .iter()
            .filter(|e| e.2)
            .min_by_key(|e| e.1)
            .map_or(leader, |e| e.0);
        // As the rules offer it (not deafened, not listened once already this turn on the move).
        if let Some(listen) = offered(world, listener, |a| a.get::<Listen>().is_some()) {
            mind.door_memory.listening_at = Some(door);
            return (Intent::ListenAt { door }, vec![listen]);
        }
    }
    mind.door_memory.listening_at = None;
    // A door that swung shut by itself once is wedged open with a spike as it is opened, in the
    // same round, before it can swing shut again.
    let at = AtTheDoor {
        members,
        door,
        leader_at,
        up: &up,
        party: &party,
    };
    if w.evil
        && !w.wedged
        && let Some(spiker) = spiker(world, members, door)
        && let Some(orders) = wedge_open(world, &at, w, leader, spiker)
    {
        return orders;
    }
    // The door as the party knows it: locked, stuck or spiked only once a member tried it.
    let known = delve_rules::rules::doors::known_door(world, leader, door);
    let locked = known
        .as_ref()
        .is_some_and(|d| !matches!(d.lock, Lock::Unlocked));
    let stuck = known.as_ref().is_some_and(|d| d.stuck || d.spikes > 0);
    if !w.tried_open && !locked && !stuck {
        // The party's front fighter opens the door and goes through first (what waits behind a
        // door meets the one best able to stand a blow); it steps up twice at most, else the
        // leader opens.
        let fighter = front_fighter(world, &up).filter(|_| w.open_walks < 2);
        let opener = fighter.unwrap_or(leader);
        let beside = square(world, opener).is_some_and(|p| p.within_a_step(door) && p != door);
        let Some(order) = offered_at_door(world, opener, door, |a| a.get::<OpenDoor>().is_some())
        else {
            // (Not to be opened by hand, as far as the rules tell it: held shut.)
            mind.door_memory.shut_for_good.push(door);
            return (by(DoorPlan::LeaveShut), Vec::new());
        };
        if beside {
            w.tried_open = true;
            let mut orders = vec![order];
            if opener != leader {
                orders.push(first_in_line(world, &party, members, opener));
            }
            return (by(DoorPlan::Open), orders);
        }
        w.open_walks += 1;
        return (
            by(DoorPlan::Open),
            walk_up_and(world, &party, members, opener, leader_at, door, order),
        );
    }
    if locked {
        return the_lock(world, &at, w, (hasty_picks, methodical_picks)).unwrap_or_else(|| {
            mind.door_memory.shut_for_good.push(door);
            (by(DoorPlan::LeaveShut), Vec::new())
        });
    }
    if stuck
        && w.bashes < mind.policy.bash_attempts
        && let Some(bash) = the_bash(world, &at, w)
    {
        return bash;
    }
    if stuck {
        mind.door_memory.shut_for_good.push(door);
        return (by(DoorPlan::LeaveShut), Vec::new());
    }
    // Tried, neither locked nor stuck as far as it learned, and still shut: open it again.
    w.tried_open = false;
    (by(DoorPlan::Open), Vec::new())
}

/// A door that swung shut by itself once is wedged open with a spike as it is opened, in the
/// same round, before it can swing shut again: the spiker steps up, then the leader (or the
/// spiker) opens it and the spike goes in. None: the rules offer no way to open it by hand.
fn wedge_open(
    world: &mut World,
    at: &AtTheDoor,
    w: &mut DoorWork,
    leader: Entity,
    (spiker, spike): (Entity, Command),
) -> Option<(Intent, Vec<Command>)> {
    let AtTheDoor {
        members,
        door,
        leader_at,
        party,
        ..
    } = *at;
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    if !square(world, spiker).is_some_and(|p| p.within_a_step(door)) {
        let orders = walk_up_and(world, party, members, spiker, leader_at, door, spike);
        return Some((by(DoorPlan::Wedge), orders));
    }
    let opener = if square(world, leader).is_some_and(|p| p.within_a_step(door)) {
        leader
    } else {
        spiker
    };
    let open = offered_at_door(world, opener, door, |a| a.get::<OpenDoor>().is_some())?;
    w.tried_open = true;
    Some((by(DoorPlan::Wedge), vec![open, spike]))
}

/// The party at a door it deals with: its members (those up and on hand), the door, where the
/// leader stands, and the party's name.
struct AtTheDoor<'a> {
    members: &'a [Entity],
    door: GridPos,
    leader_at: GridPos,
    up: &'a [Entity],
    party: &'a str,
}

/// A locked door: its key, if the rules offer a member to unlock it (tried once beside it), else
/// a thief's hasty pick, then methodical ones (as many as the policy allows), as the rules offer
/// them (no hasty pick where one failed at the thief's level, none of a jammed lock). None: it is
/// left shut.
fn the_lock(
    world: &mut World,
    at: &AtTheDoor,
    w: &mut DoorWork,
    (hasty_picks, methodical_picks): (bool, u32),
) -> Option<(Intent, Vec<Command>)> {
    let AtTheDoor {
        members,
        door,
        leader_at,
        up,
        party,
    } = *at;
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    let key = up.iter().copied().find_map(|m| {
        offered_at_door(world, m, door, |a| a.get::<Unlock>().is_some()).map(|o| (m, o))
    });
    if !w.key_tried
        && let Some((holder, order)) = key
    {
        // Tried once beside the door; the key's holder steps up to it (in a corridor one
        // wide the one at the door steps back for it), three walks at most.
        w.key_walks += 1;
        let beside = square(world, holder).is_some_and(|p| p.within_a_step(door));
        // (A holder with no way up to the door — across a hole — cannot bring the key.)
        let cut_off = !beside
            && square(world, holder).is_none_or(|p| {
                delve_rules::rules::movement::hazards::way(world, holder, p, leader_at).is_err()
            });
        if beside || cut_off || w.key_walks > 2 {
            w.key_tried = true;
        }
        if cut_off {
            return Some((by(DoorPlan::Key), Vec::new()));
        }
        return Some((
            by(DoorPlan::Key),
            walk_up_and(world, party, members, holder, leader_at, door, order),
        ));
    }
    // The thief: the first member the rules offer to pick the lock with the skill and tools.
    let hasty = |a: &AnyAct| a.get::<PickLock>().is_some();
    let methodical = |a: &AnyAct| a.get::<PickLockMethodically>().is_some();
    let thief = up.iter().copied().find(|&m| {
        world
            .get::<delve_rules::creature::Proficiencies>(m)
            .is_some_and(|p| p.has(Proficiency::Lockpicking))
            && offered_at_door(world, m, door, methodical).is_some()
    })?;
    let beside = square(world, thief).is_some_and(|p| p.within_a_step(door));
    if !w.picked
        && hasty_picks
        && let Some(order) = offered_at_door(world, thief, door, hasty)
    {
        w.picked |= beside;
        return Some((
            by(DoorPlan::Pick),
            walk_up_and(world, party, members, thief, leader_at, door, order),
        ));
    }
    if w.methodical_picks < methodical_picks
        && let Some(order) = offered_at_door(world, thief, door, methodical)
    {
        return Some((
            by(DoorPlan::PickMethodically),
            walk_up_and(world, party, members, thief, leader_at, door, order),
        ));
    }
    None
}

/// A stuck door bashed open by the strongest the rules offer to bash it, with the strongest
/// other's help beside it. None: no one is offered to bash it.
fn the_bash(world: &mut World, at: &AtTheDoor, w: &mut DoorWork) -> Option<(Intent, Vec<Command>)> {
    let AtTheDoor {
        members,
        door,
        leader_at,
        up,
        party,
    } = *at;
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    let strength = |world: &World, m: Entity| world.get::<Abilities>(m).map_or(0, |a| a.0.str);
    let bash = |a: &AnyAct| a.get::<Bash>().is_some();
    let (basher, order) = up
        .iter()
        .copied()
        .filter_map(|m| offered_at_door(world, m, door, bash).map(|o| (m, o)))
        .max_by_key(|&(m, _)| (strength(world, m), std::cmp::Reverse(m)))?;
    let basher_at = square(world, basher);
    let beside = basher_at.is_some_and(|p| p.within_a_step(door));
    // Dungeon Delves › Doors: a pair bashing together uses the stronger one's Strength,
    // +4. The strongest other beside the door lends a hand; where there is room beside it
    // and no one there, the strongest other steps up first (once for the door).
    let strongest = |world: &World, near: bool| {
        up.iter()
            .copied()
            .filter(|&m| {
                m != basher
                    && free_to_act(world, m)
                    && (!near
                        || square(world, m).is_some_and(|p| p.within_a_step(door) && p != door))
            })
            .max_by_key(|&m| (strength(world, m), std::cmp::Reverse(m)))
    };
    let helper = strongest(world, true).filter(|_| beside);
    if beside
        && helper.is_none()
        && !w.helper_called
        && let Some(m) = strongest(world, false)
        && let Some(basher_at) = basher_at
        && let Some(p) = free_square_beside(world, m, basher_at, door)
    {
        w.helper_called = true;
        let step_up = Move {
            who: name(world, m),
            to: (p.x, p.y),
            pace: Pace::Exploration,
        };
        return Some((by(DoorPlan::Bash), vec![step_up.into()]));
    }
    if beside {
        w.bashes += 1;
    }
    let Command::Bash(mut order) = order else {
        return None;
    };
    order.helper = helper.map(|m| name(world, m));
    Some((
        by(DoorPlan::Bash),
        walk_up_and(world, party, members, basher, leader_at, door, order.into()),
    ))
}

/// Whether `m` carries a spike.
pub(super) fn carries_spikes(world: &World, m: Entity) -> bool {
    use delve_ground::level::schema::Gear;
    world
        .get::<Equipment>(m)
        .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Spikes(n) if *n > 0)))
}

/// Fleeing: the rearmost member shuts and spikes (but for a party falling back to wait a foe
/// out) an open door the party has passed — not one a
/// foe it sees already stands beside, nor with a foe beside the spiker: the rounds at the door
/// would only be blows taken.
pub(super) fn spike_behind(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    here: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let spiker = members
        .iter()
        .copied()
        .find(|&m| is_up(world, m) && carries_spikes(world, m))?;
    let at = square(world, spiker)?;
    let foes = super::fighting::foes_in_sight(world, mind.faction, members);
    if foes.iter().any(|&(_, f)| f.is_adjacent(at)) {
        return None;
    }
    let occupied: Vec<GridPos> = {
        let mut q = world.query_filtered::<&Position, With<Creature>>();
        q.iter(world).map(|p| p.0).collect()
    };
    let mut q = world.query::<(&Position, &Door)>();
    let doors: Vec<(GridPos, DoorState, u8)> = q
        .iter(world)
        .map(|(p, d)| (p.0, d.state, d.spikes))
        .collect();
    for (door, state, spikes) in doors {
        if mind.door_memory.spiked_behind.contains(&door)
            || !at.within_a_step(door)
            || occupied.contains(&door)
            || foes.iter().any(|&(_, f)| f.is_adjacent(door))
        {
            continue;
        }
        // Behind: farther from the way in than the party's leader.
        let behind = door.chebyshev(mind.way_in) > here.chebyshev(mind.way_in);
        if !behind {
            continue;
        }
        let order = match state {
            DoorState::Open => {
                offered_at_door(world, spiker, door, |a| a.get::<CloseDoor>().is_some())
            }
            // (Falling back to wait a foe out, it shuts the door but does not spike it: the
            // party means to come back through it, `fighting::waits_out`.)
            DoorState::Closed if spikes == 0 && mind.falling_back.is_none() => {
                offered_at_door(world, spiker, door, |a| a.get::<Spike>().is_some())
            }
            DoorState::Closed => None,
        };
        let Some(order) = order else {
            continue;
        };
        if matches!(order, Command::Spike(_)) {
            mind.door_memory.spiked_behind.push(door);
        }
        return Some((Intent::SpikeBehind { at: door }, vec![order]));
    }
    None
}

/// What the party has learned of doors: each as it last saw it, the work done at it, those it will not try again, those someone was heard behind (left for last), those it spiked shut behind it, the one it listens at, and whether an evil door swung shut since a walk was refused.
#[derive(Clone, Debug, Default)]
pub(super) struct DoorMemory {
    /// The doors it has seen, as it last saw them.
    pub(super) doors: BTreeMap<GridPos, SeenDoor>,
    pub(super) door_work: BTreeMap<GridPos, DoorWork>,
    /// Doors it will not try again.
    pub(super) shut_for_good: Vec<GridPos>,
    /// What the party had when it left each of those shut ([`remember_what_was_missing`]).
    pub(super) left_with: BTreeMap<GridPos, Means>,
    /// Doors someone was heard behind: left for last.
    pub(super) later: Vec<GridPos>,
    /// Doors it spiked shut behind it.
    pub(super) spiked_behind: Vec<GridPos>,
    /// The door it listened at, until the listening is heard out.
    pub(super) listening_at: Option<GridPos>,
    /// An evil door it knows swung shut since a walk was last refused.
    pub(super) door_swung_shut: bool,
}

/// Would the party prod the known trap at `p` with a 10' pole (Dungeon Delves › Traps: "the
/// pole is treated as an adventurer moving 5' ahead of its bearer for purposes of activation";
/// the rules offer it as `Touch`)? Each prod sets it off at its trigger chance on whoever stands
/// there — no one. A member carries a pole, no one stands on the trap, and it has been prodded
/// less than a turn's rounds ([`PRODS`]); not a pit: prodded open, its lid gone, it becomes a
/// hole across the way.
pub(super) fn may_prod(
    world: &mut World,
    mind: &PartyMind,
    members: &[Entity],
    p: GridPos,
) -> bool {
    let pit = delve_ground::query_cache::read_query(world, |q: Query<(&Position, &Trap)>| {
        q.iter()
            .any(|(at, t)| at.0 == p && matches!(t.kind, TrapKind::Pit { .. }))
    })
    .unwrap_or(false);
    let prods = mind.exploring.prods.iter().filter(|&&q| q == p).count();
    let pole = members.iter().any(|&m| {
        is_up(world, m)
            && world
                .get::<Equipment>(m)
                .is_some_and(|g| g.has(&delve_ground::level::schema::Gear::TenFootPole))
    });
    pole && !pit && prods < PRODS && !occupied_squares(world).contains(&p)
}

/// One prod of the trap at `p` by a pole's bearer 10' from it (not beside it: the pole, not a
/// hand, must meet a step trap); else the nearest bearer steps to the nearest free square the
/// party knows that far from it on its own side (a walk there does not cross the trap).
pub(super) fn prod(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    know: &Knowledge,
    p: GridPos,
) -> Option<Decision> {
    use delve_rules::command::acts::Touch;
    let scale = know.grid.scale_feet();
    let within_a_pole =
        |q: GridPos| !q.within_a_step(p) && delve_ground::grid::distance_feet(q, p, scale) <= 10;
    let touch = |a: &delve_rules::act::AnyAct| a.get::<Touch>().is_some_and(|t| t.at == (p.x, p.y));
    let intent = Intent::Prod { at: p };
    let bearers: Vec<(Entity, GridPos)> = members
        .iter()
        .copied()
        .filter(|&m| {
            is_up(world, m)
                && world
                    .get::<Equipment>(m)
                    .is_some_and(|g| g.has(&delve_ground::level::schema::Gear::TenFootPole))
        })
        .filter_map(|m| Some((m, square(world, m)?)))
        .collect();
    if let Some(order) = bearers
        .iter()
        .filter(|&&(_, at)| within_a_pole(at))
        .find_map(|&(m, _)| super::offered(world, m, touch))
    {
        mind.exploring.prods.push(p);
        return Some((intent, vec![order]));
    }
    let taken = occupied_squares(world);
    let (bearer, to) = bearers
        .iter()
        .filter_map(|&(m, at)| {
            let d = know.distances(at);
            // (On its own side of the trap: a walk there that crosses it is the step the prod
            // is to spare.)
            d.reachable(know.grid)
                .filter(|&(q, _)| within_a_pole(q) && know.open(q) && !taken.contains(&q))
                .filter(|&(q, _)| d.walk_to(know.grid, q).is_some_and(|w| !w.contains(&p)))
                .min_by_key(|&(q, c)| (c, q))
                .map(|(q, c)| (c, m, q))
        })
        .min_by_key(|&(c, m, q)| (c, m, q))
        .map(|(_, m, q)| (m, q))?;
    // (Counted as a prod: a bearer who cannot get there does not try for ever.)
    mind.exploring.prods.push(p);
    Some((
        intent,
        vec![
            Move {
                who: name(world, bearer),
                to: (to.x, to.y),
                pace: Pace::Exploration,
            }
            .into(),
        ],
    ))
}

/// The prods of a known trap with a pole before it is left to the thief or crossed: a turn's.
pub(super) const PRODS: usize = ROUNDS_PER_TURN as usize;

#[cfg(test)]
#[path = "doors_tests.rs"]
mod tests;
