//! How a monster gets through a closed door on its way: open it, bash it, or break it, as its mind would (Dungeon Delves › Doors: monsters and doors).

use bevy::prelude::*;
use delve_ground::grid::DoorState;
use delve_ground::grid::path::find_path;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::command::acts::Move;
use delve_rules::creature::{ActingOrder, Conditions, Faction, Position};
use delve_rules::rules::movement::Pace;

use super::{Idle, Mind, path_through_doors};

/// The most orders a monster gives on one errand through doors (walking up to a door, opening,
/// unlocking, bashing) before it gives the errand up.
pub(super) const DOOR_TRIES: u32 = 6;

/// The hardest bash a monster tries: a door it would bash open only on 15+ it leaves shut (it is
/// not strong enough).
pub(super) const BASH_AT_WORST: i32 = 14;

/// A monster on an errand beyond a closed door (a noise to look at, a call to answer, a quarry
/// that went through) walks up to the door and deals with it (Dungeon Delves › Doors): an evil
/// door opens easily for it (unless spiked or held); a plain one it opens; a locked one it
/// unlocks with a key it carries, else leaves; a stuck or spiked one it bashes if strong enough
/// (a Dungeonbashing throw of 14+ at worst, Strength and size counted), else leaves. Through
/// the door, it goes on. It knows the doors of its own dungeon.
pub(super) fn through_doors(world: &mut World) {
    use delve_ground::level::schema::{Gear, Lock};
    use delve_rules::command::acts::{Bash, OpenDoor, Unlock};
    use delve_rules::creature::{Abilities, BodySize, Equipment};
    type OnErrand = QueryState<
        (
            Entity,
            &'static Name,
            &'static Position,
            &'static Faction,
            &'static Conditions,
            &'static Mind,
        ),
        Idle,
    >;
    let mut errands: Vec<(Entity, String, GridPos, Faction, GridPos)> =
        delve_ground::query_cache::cached_query(world, |world, q: &mut OnErrand| {
            q.iter(world)
                .filter(|(.., c, _)| !delve_rules::rules::conditions::is_down(c))
                .filter_map(|(e, n, p, f, _, m)| Some((e, n.to_string(), p.0, *f, m.errand?)))
                .collect()
        });
    // In entity order, whatever order the world stores them in.
    errands.sort_unstable_by_key(|e| e.0);
    let mut orders: Vec<Command> = Vec::new();
    for (e, name, at, faction, to) in errands {
        if world.resource::<ActingOrder>().fighting(faction)
            || world.resource::<PendingCommands>().waiting_for(&name)
        {
            continue;
        }
        let give_up = |world: &mut World| {
            if let Some(mut m) = world.get_mut::<Mind>(e) {
                m.errand = None;
            }
        };
        let grid = world.resource::<DungeonGrid>();
        if at == to {
            give_up(world);
            continue;
        }
        if find_path(grid, at, to).is_some() {
            // The way is open: on it goes.
            give_up(world);
            orders.push(Command::Move(Move {
                who: name,
                to: (to.x, to.y),
                pace: Pace::Combat,
            }));
            continue;
        }
        let Some(path) = path_through_doors(grid, at, to) else {
            give_up(world);
            continue;
        };
        let Some(k) = path.squares.iter().position(|&p| !grid.is_passable(p)) else {
            give_up(world);
            continue;
        };
        let door_at = path.squares[k];
        let tries = world.get::<Mind>(e).map_or(DOOR_TRIES, |m| m.door_tries);
        if tries >= DOOR_TRIES {
            give_up(world);
            continue;
        }
        if let Some(mut m) = world.get_mut::<Mind>(e) {
            m.door_tries += 1;
        }
        if k > 1 {
            // Up to the door first.
            let before = path.squares[k - 1];
            orders.push(Command::Move(Move {
                who: name,
                to: (before.x, before.y),
                pace: Pace::Combat,
            }));
            continue;
        }
        let door = delve_rules::rules::doors::door_here(world, door_at);
        let Some(door) = door.filter(|d| d.state == DoorState::Closed) else {
            give_up(world);
            continue;
        };
        let xy = (door_at.x, door_at.y);
        let key_fits = match &door.lock {
            Lock::Locked { key: Some(k) } => world
                .get::<Equipment>(e)
                .is_some_and(|g| g.0.iter().any(|g| *g == Gear::Key(k.clone()))),
            _ => false,
        };
        let strength = world.get::<Abilities>(e).map_or(10, |a| a.0.str);
        let size = world
            .get::<BodySize>(e)
            .map_or(0, |s| s.0.categories_from_man_sized());
        let bash_target = 18
            - delve_rules::rules::doors::bashing_modifiers(
                strength,
                None,
                false,
                size,
                door.spikes,
            )
            .iter()
            .map(|m| m.value)
            .sum::<i32>();
        let order: Option<Command> = if door.evil && door.spikes == 0 {
            Some(OpenDoor { who: name, at: xy }.into())
        } else if matches!(door.lock, Lock::Locked { .. }) {
            key_fits.then(|| Unlock { who: name, at: xy }.into())
        } else if matches!(door.lock, Lock::Jammed) {
            None
        } else if door.stuck || door.spikes > 0 {
            (bash_target <= BASH_AT_WORST).then(|| {
                Bash {
                    who: name,
                    at: xy,
                    helper: None,
                }
                .into()
            })
        } else {
            Some(OpenDoor { who: name, at: xy }.into())
        };
        match order {
            Some(order) => {
                // Opened, it walks on through at once (an evil door swings shut on an empty
                // doorway at the round's end).
                let walk_on = match &order {
                    Command::OpenDoor(o) => Some(Command::Move(Move {
                        who: o.who.clone(),
                        to: (to.x, to.y),
                        pace: Pace::Combat,
                    })),
                    _ => None,
                };
                orders.push(order);
                orders.extend(walk_on);
            }
            None => give_up(world),
        }
    }
    let mut pending = world.resource_mut::<PendingCommands>();
    for c in orders {
        pending.push_derived(c);
    }
}

/// A wanderer's choice, from the delve's seed, the round and its name: fixed for a seed, and
/// drawn apart from the dice, so that no throw's die changes when a monster wanders.
pub(super) fn mix(seed: u64, round: u64, name: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    // SplitMix64's finaliser over the three.
    let mut z = seed
        .wrapping_add(round.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(h);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
