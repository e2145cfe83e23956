//! Doors and Dungeonbashing (Dungeon Delves): opening and closing, unlocking with the key,
//! picking a lock hastily, bashing a stuck or spiked door open, spiking a door shut.
//!
//! Bashing is a Dungeonbashing throw of 18+, modified by ±4 per point of Strength adjustment (the
//! stronger of a pair, +4 for the pair), +2 with a crowbar, ±8 per size category from man-sized,
//! and −4 for each spike after the first; an unmodified 1 deals the basher 1 point of
//! bludgeoning damage. Bashing makes a loud noise.

mod commands;
pub mod events;
use crate::creature::{Conditions, Creature, LevelEntity};
use crate::rules::areas::Rank;
use crate::rules::party::PartyMember;
use crate::schedule::{RoundSet, SimRound};

pub use commands::{
    AttackDoor, Bash, Batter, CloseDoor, DoorRefusal, HoldShut, OpenDoor, PickLock,
    PickLockMethodically, Spike, Unlock,
};
pub use events::{DoorEvent, DoorOpening, LockOpening};

use bevy::prelude::*;

use crate::act::{Refusal, square_of};
use crate::creature::{ClassLevel, Equipment, Position};
use crate::rules::abilities::delve_modifier;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DoorState, DungeonGrid, GridPos};
use delve_ground::level::schema::{Gear, Lock};
use delve_ground::log::{EventLog, log_in};
use delve_ground::query_cache::{in_entity_order, read_query};
use delve_ground::time::Clock;

mod choices;
mod door;
mod forcing;
mod known;
mod picking;

pub use choices::choices_at_door;
use choices::choices_at_doors_beside;
pub use choices::ways_through;
pub use choices::{DoorThrowMods, DoorWorker};
use door::door_at;
pub use door::{Door, door_here};
pub(crate) use forcing::attack_door;
pub use forcing::{Battering, DroveSpike, bash, batter, spike};
use forcing::{battering_rounds, can_batter, harms_structure};
pub use known::{Tried, TriedBy, known_door};
pub use picking::{FailedHastyPicks, PickingLock};
pub(crate) use picking::{pick_hastily, pick_methodically};

/// The most spikes a door can take.
pub const MAX_SPIKES: u8 = 4;

/// The Dungeonbashing modifiers for a basher (and a helper), a door, and the gear at hand.
pub fn bashing_modifiers(
    strength: i32,
    helper_strength: Option<i32>,
    crowbar: bool,
    size_categories: i32,
    spikes: u8,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    let (str_score, pair) = match helper_strength {
        Some(h) => (strength.max(h), true),
        None => (strength, false),
    };
    let adj = delve_modifier(str_score);
    if adj != 0 {
        mods.push(Modifier::new(
            4 * adj,
            format!("Strength {str_score} ({adj:+} x 4)"),
        ));
    }
    if pair {
        mods.push(Modifier::new(4, "a pair bashing together"));
    }
    if crowbar {
        mods.push(Modifier::new(2, "crowbar"));
    }
    if size_categories != 0 {
        mods.push(Modifier::new(8 * size_categories, "size"));
    }
    if spikes > 1 {
        mods.push(Modifier::new(
            -4 * (spikes as i32 - 1),
            format!("{spikes} spikes"),
        ));
    }
    mods
}

/// The door at `door`, if `who` stands next to it.
fn reach_door(world: &mut World, who: Entity, door: GridPos) -> Result<(Entity, Door), Refusal> {
    let at = square_of(world, who)?;
    let (e, d) = door_at(world, door).ok_or(DoorRefusal::NoDoor { at: door })?;
    if !at.is_adjacent(door) {
        return Err(DoorRefusal::NotNextTo { at: door }.into());
    }
    // A secret door is used only once searching has found it (and made it an ordinary one).
    if d.secret {
        return Err(DoorRefusal::NoKnownDoor { at: door }.into());
    }
    Ok((e, d))
}

fn set_state(world: &mut World, e: Entity, at: GridPos, state: DoorState) {
    if let Some(mut d) = world.get_mut::<Door>(e) {
        d.state = state;
    }
    world.resource_mut::<DungeonGrid>().set_door(at, state);
}

/// The doors opened this round and who opened them; traps set to go off when a door opens read
/// them (Dungeon Delves › Traps) after the round's actions.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct DoorsOpened(pub Vec<(Entity, GridPos)>);

/// `who` opens the door `e` at `at` (by hand, by bashing or by battering).
fn swing_open(world: &mut World, who: Entity, e: Entity, at: GridPos, how: DoorOpening) {
    set_state(world, e, at, DoorState::Open);
    world.resource_mut::<DoorsOpened>().0.push((who, at));
    let who = crate::creature::name_of(world, who);
    log_in(world, DoorEvent::DoorOpened { who, at, how });
}

/// Holding a closed door shut from beside it: it does not yield, not even an evil door to a
/// monster, while the holder stays next to it and up.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldingShut(pub GridPos);

/// Who holds the door at `at` shut, if anyone still does.
fn held_by(world: &mut World, at: GridPos) -> Option<Entity> {
    type Holders<'w, 's> = Query<
        'w,
        's,
        (
            Entity,
            &'static HoldingShut,
            &'static Position,
            &'static Conditions,
        ),
    >;
    read_query(world, |q: Holders| {
        q.iter()
            .filter(|(_, h, p, c)| {
                h.0 == at && p.0.is_adjacent(at) && !crate::rules::conditions::is_down(c)
            })
            .map(|(e, ..)| e)
            .min()
    })
    .flatten()
}

/// `HoldShut`: holds a closed door shut from beside it (until it moves away or lets go).
pub(crate) fn hold_shut(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::CloseItFirst.into());
    }
    world.entity_mut(who).insert(HoldingShut(at));
    Ok(())
}

/// `OpenDoor`: opens a door that is neither locked, stuck nor spiked. Evil doors always open
/// easily for monsters, unless spiked or held shut.
pub fn open(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if let Some(holder) = held_by(world, at)
        && holder != who
    {
        let by = crate::creature::name_of(world, holder);
        return Err(DoorRefusal::HeldShut { by }.into());
    }
    // Monsters: creatures of no party and no class (adventurers have classes).
    let monster = world.get::<PartyMember>(who).is_none()
        && world
            .get::<ClassLevel>(who)
            .is_none_or(|c| c.class.is_none());
    if d.evil && monster && d.state == DoorState::Closed && d.spikes == 0 {
        swing_open(world, who, e, at, DoorOpening::YieldedToEvil);
        return Ok(());
    }
    match (&d.state, &d.lock, d.stuck, d.spikes) {
        (DoorState::Open, ..) => Err(DoorRefusal::OpenAlready.into()),
        (_, Lock::Locked { .. } | Lock::Jammed, ..) => Err(DoorRefusal::Locked.into()),
        (_, _, true, _) => Err(DoorRefusal::Stuck.into()),
        (_, _, _, spikes) if spikes > 0 => Err(DoorRefusal::SpikedShut { spikes }.into()),
        _ => {
            swing_open(world, who, e, at, DoorOpening::ByHand);
            Ok(())
        }
    }
}

/// `CloseDoor`: closes an open door (not one someone stands in).
pub fn close(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.broken {
        return Err(DoorRefusal::BatteredDown.into());
    }
    if d.state == DoorState::Closed {
        return Err(DoorRefusal::ClosedAlready.into());
    }
    let mut q = world.query_filtered::<&Position, With<Creature>>();
    if q.iter(world).any(|p| p.0 == at) {
        return Err(DoorRefusal::DoorwayOccupied.into());
    }
    // Dungeon Delves › Doors: a door wedged open with spikes closes only once they are knocked
    // out; closing it removes them.
    if d.spikes > 0
        && let Some(mut door) = world.get_mut::<Door>(e)
    {
        door.spikes = 0;
        let who = crate::creature::name_of(world, who);
        log_in(
            world,
            DoorEvent::WedgeRemoved {
                who,
                at,
                spikes: d.spikes,
            },
        );
    }
    set_state(world, e, at, DoorState::Closed);
    Ok(())
}

/// `Unlock`: unlocks a locked door with its key (one round).
pub fn unlock(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    let Lock::Locked { key } = &d.lock else {
        return Err(match d.lock {
            Lock::Jammed => DoorRefusal::Jammed,
            _ => DoorRefusal::NotLocked,
        }
        .into());
    };
    let key = key.clone().ok_or(DoorRefusal::NoKeyFits)?;
    let held = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::Key(key.clone())));
    if !held {
        return Err(DoorRefusal::KeyNotCarried { key }.into());
    }
    if let Some(mut door) = world.get_mut::<Door>(e) {
        door.lock = Lock::Unlocked;
    }
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::LockOpened {
            who,
            at,
            by: LockOpening::Key(key),
        },
    );
    Ok(())
}

/// Evil doors swing shut when released: at the end of each round an open evil door that no one
/// stands in, and that is not spiked or wedged open, closes.
fn evil_doors_swing_shut(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut grid: ResMut<DungeonGrid>,
    mut doors: Query<(Entity, &Position, &mut Door)>,
    creatures: Query<&Position, (With<Creature>, Without<Door>)>,
) {
    for e in in_entity_order(doors.iter().map(|d| d.0)) {
        let Ok((_, at, mut d)) = doors.get_mut(e) else {
            continue;
        };
        if d.evil
            && d.state == DoorState::Open
            && d.spikes == 0
            && !creatures.iter().any(|c| c.0 == at.0)
        {
            d.state = DoorState::Closed;
            grid.set_door(at.0, DoorState::Closed);
            log.push(clock.rounds, DoorEvent::DoorSwungShut { at: at.0 });
        }
    }
}

pub struct DoorsPlugin;

impl Plugin for DoorsPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::doors::HoldingShut>()
            .keeps_component::<crate::rules::doors::FailedHastyPicks>()
            .keeps_component::<crate::rules::doors::DroveSpike>()
            .keeps_component::<crate::rules::doors::TriedBy>()
            .keeps_component::<crate::rules::doors::Door>();
        crate::rules::areas::RuleArea::offers(app, Rank::AtHand, choices_at_doors_beside);
        use crate::rules::areas::RuleArea;
        app.resets::<DoorsOpened>().installs(|world, level| {
            for d in &level.doors {
                world.spawn((LevelEntity, Position(d.at), Door::from(&d.door)));
            }
        });
        app.init_resource::<DoorsOpened>()
            .add_systems(SimRound, evil_doors_swing_shut.in_set(RoundSet::Doors));
    }
}

#[cfg(test)]
mod tests;
