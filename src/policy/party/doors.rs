//! Doors on the party's way (Dungeon Delves › Doors): listened at, opened, unlocked, picked,
//! bashed, spiked, wedged open; and the thief who disarms the traps it knows of.

use bevy::prelude::*;

use super::first_in_line;
use super::way::{free_square_beside, in_sight, walk_up_and};
use super::{
    DoorPlan, DoorWork, Intent, PartyMind, free_to_act, is_up, leader, name, offered, on_hand,
    square,
};
use crate::command::Command;
use crate::command::acts::{
    Bash, CloseDoor, Listen, Move, OpenDoor, PickLock, PickLockMethodically, Spike, Unlock,
};
use crate::creature::{
    Abilities, ArmorClass, Combatant, Equipment, HitPoints, Position, Proficiencies,
};
use crate::grid::GridPos;
use crate::level::schema::{DoorState, Gear, Proficiency};
use crate::policy::knowledge::SeenDoor;
use crate::rules::doors::Door;
use std::collections::BTreeMap;

/// The doors in sight of a member now, as they are.
pub(super) fn update_doors(world: &mut World, mind: &mut PartyMind, members: &[Entity]) {
    let doors: Vec<(GridPos, bool, bool)> =
        crate::query_cache::read_query(world, |q: Query<(&Position, &Door)>| {
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
}

pub(super) fn with_spikes(world: &World, members: &[Entity]) -> Option<Entity> {
    members.iter().copied().find(|&m| {
        is_up(world, m)
            && world
                .get::<Equipment>(m)
                .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Spikes(n) if *n > 0)))
    })
}

pub(super) fn proficient_with_tools(world: &World, m: Entity, p: Proficiency) -> bool {
    is_up(world, m)
        && world.get::<Proficiencies>(m).is_some_and(|x| x.has(p))
        && world
            .get::<Equipment>(m)
            .is_some_and(|g| g.has(&Gear::ThievesTools))
}

pub(super) fn disarmer(world: &World, members: &[Entity]) -> Option<Entity> {
    members
        .iter()
        .copied()
        .find(|&m| proficient_with_tools(world, m, Proficiency::Trapbreaking))
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
    let xy = (door.x, door.y);
    if listen && !w.listened {
        // Dungeon Delves › Listening: one listens standing at the door. The best listener steps
        // up to a free square beside it (twice at most), else the best of those beside it
        // listens (no one is made to take the lead for it).
        // Each member up: its Listening target, and whether it stands beside the door.
        let ears: Vec<(Entity, i32, bool)> = up
            .iter()
            .map(|&m| {
                let target = world
                    .get::<Proficiencies>(m)
                    .map_or(20, |p| crate::rules::sound::hearing::listening_target(p).0);
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
                        pace: crate::rules::movement::Pace::Exploration,
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
        && let Some(spiker) = with_spikes(world, members)
    {
        return wedge_open(world, &at, w, leader, spiker);
    }
    if !w.tried_open {
        // The party's front fighter opens the door and goes through first (what waits behind a
        // door meets the one best able to stand a blow); it steps up twice at most, else the
        // leader opens.
        let fighter = front_fighter(world, &up).filter(|_| w.open_walks < 2);
        let opener = fighter.unwrap_or(leader);
        let beside = square(world, opener).is_some_and(|p| p.within_a_step(door) && p != door);
        let order: Command = OpenDoor {
            who: name(world, opener),
            at: xy,
        }
        .into();
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
    if w.locked {
        return the_lock(world, &at, w, (hasty_picks, methodical_picks)).unwrap_or_else(|| {
            mind.door_memory.shut_for_good.push(door);
            (by(DoorPlan::LeaveShut), Vec::new())
        });
    }
    if w.stuck && w.bashes < mind.policy.bash_attempts {
        return the_bash(world, &at, w, leader);
    }
    if w.stuck {
        mind.door_memory.shut_for_good.push(door);
        return (by(DoorPlan::LeaveShut), Vec::new());
    }
    // Tried, neither locked nor stuck as far as it learned, and still shut: open it again.
    w.tried_open = false;
    (by(DoorPlan::Open), Vec::new())
}

/// A door that swung shut by itself once is wedged open with a spike as it is opened, in the
/// same round, before it can swing shut again: the spiker steps up, then the leader (or the
/// spiker) opens it and the spike goes in.
fn wedge_open(
    world: &mut World,
    at: &AtTheDoor,
    w: &mut DoorWork,
    leader: Entity,
    spiker: Entity,
) -> (Intent, Vec<Command>) {
    let AtTheDoor {
        members,
        door,
        leader_at,
        party,
        ..
    } = *at;
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    let xy = (door.x, door.y);
    let spike: Command = Spike {
        who: name(world, spiker),
        at: xy,
    }
    .into();
    if !square(world, spiker).is_some_and(|p| p.within_a_step(door)) {
        let orders = walk_up_and(world, party, members, spiker, leader_at, door, spike);
        return (by(DoorPlan::Wedge), orders);
    }
    w.tried_open = true;
    let opener = if square(world, leader).is_some_and(|p| p.within_a_step(door)) {
        leader
    } else {
        spiker
    };
    let open = OpenDoor {
        who: name(world, opener),
        at: xy,
    }
    .into();
    (by(DoorPlan::Wedge), vec![open, spike])
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

/// A locked door: its key, if a member carries one (tried once beside it), else a thief's
/// hasty pick, then methodical ones (as many as the policy allows). None: it is left shut.
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
    let xy = (door.x, door.y);
    let keys: Vec<Entity> = up
        .iter()
        .copied()
        .filter(|&m| {
            world
                .get::<Equipment>(m)
                .is_some_and(|g| g.0.iter().any(|g| matches!(g, Gear::Key(_))))
        })
        .collect();
    if !w.key_tried
        && let Some(&holder) = keys.first()
    {
        let order = Unlock {
            who: name(world, holder),
            at: xy,
        }
        .into();
        // Tried once beside the door; the key's holder steps up to it (in a corridor one
        // wide the one at the door steps back for it), three walks at most.
        w.key_walks += 1;
        let beside = square(world, holder).is_some_and(|p| p.within_a_step(door));
        // (A holder with no way up to the door — across a hole — cannot bring the key.)
        let cut_off = !beside
            && square(world, holder).is_none_or(|p| {
                crate::rules::movement::hazards::way(world, holder, p, leader_at).is_err()
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
    if let Some(thief) = up
        .iter()
        .copied()
        .find(|&m| proficient_with_tools(world, m, Proficiency::Lockpicking))
    {
        let beside = square(world, thief).is_some_and(|p| p.within_a_step(door));
        if !w.picked && hasty_picks {
            w.picked |= beside;
            let order = PickLock {
                who: name(world, thief),
                at: xy,
            }
            .into();
            return Some((
                by(DoorPlan::Pick),
                walk_up_and(world, party, members, thief, leader_at, door, order),
            ));
        }
        if !w.jammed && w.methodical_picks < methodical_picks {
            let order = PickLockMethodically {
                who: name(world, thief),
                at: xy,
            }
            .into();
            return Some((
                by(DoorPlan::PickMethodically),
                walk_up_and(world, party, members, thief, leader_at, door, order),
            ));
        }
    }
    None
}

/// A stuck door bashed open by the strongest, with the strongest other's help beside it.
fn the_bash(
    world: &mut World,
    at: &AtTheDoor,
    w: &mut DoorWork,
    leader: Entity,
) -> (Intent, Vec<Command>) {
    let AtTheDoor {
        members,
        door,
        leader_at,
        up,
        party,
    } = *at;
    let by = |how: DoorPlan| Intent::Door { at: door, how };
    let xy = (door.x, door.y);
    let basher = up
        .iter()
        .copied()
        .max_by_key(|&m| {
            (
                world.get::<Abilities>(m).map_or(0, |a| a.0.str),
                std::cmp::Reverse(m),
            )
        })
        .unwrap_or(leader);
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
            .max_by_key(|&m| {
                (
                    world.get::<Abilities>(m).map_or(0, |a| a.0.str),
                    std::cmp::Reverse(m),
                )
            })
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
            pace: crate::rules::movement::Pace::Exploration,
        };
        return (by(DoorPlan::Bash), vec![step_up.into()]);
    }
    if beside {
        w.bashes += 1;
    }
    let helper = helper.map(|m| name(world, m));
    let order = Bash {
        who: name(world, basher),
        at: xy,
        helper,
    }
    .into();
    (
        by(DoorPlan::Bash),
        walk_up_and(world, party, members, basher, leader_at, door, order),
    )
}

/// Fleeing: the rearmost member shuts and spikes an open door the party has passed.
pub(super) fn spike_behind(
    world: &mut World,
    mind: &mut PartyMind,
    members: &[Entity],
    here: GridPos,
) -> Option<(Intent, Vec<Command>)> {
    let spiker = with_spikes(world, members)?;
    let at = square(world, spiker)?;
    let occupied: Vec<GridPos> = {
        let mut q = world.query_filtered::<&Position, With<crate::creature::Creature>>();
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
        {
            continue;
        }
        // Behind: farther from the way in than the party's leader.
        let behind = door.chebyshev(mind.way_in) > here.chebyshev(mind.way_in);
        if !behind {
            continue;
        }
        let who = name(world, spiker);
        let xy = (door.x, door.y);
        let order: Command = match state {
            DoorState::Open => CloseDoor { who, at: xy }.into(),
            DoorState::Closed if spikes == 0 => {
                mind.door_memory.spiked_behind.push(door);
                Spike { who, at: xy }.into()
            }
            DoorState::Closed => continue,
        };
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
    /// Doors someone was heard behind: left for last.
    pub(super) later: Vec<GridPos>,
    /// Doors it spiked shut behind it.
    pub(super) spiked_behind: Vec<GridPos>,
    /// The door it listened at, until the listening is heard out.
    pub(super) listening_at: Option<GridPos>,
    /// An evil door it knows swung shut since a walk was last refused.
    pub(super) door_swung_shut: bool,
}
