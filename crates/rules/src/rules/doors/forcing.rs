//! Forcing a door: bashing it open, spiking it, striking it with a weapon that harms structures, battering it down (Dungeon Delves › Doors, Dungeonbashing).

use crate::creature::Combatant;
use crate::rules::throws::Skill;
use delve_ground::dice::Dice;
use delve_ground::level::WeaponDef;
use delve_ground::level::schema::DoorMaterial;

use crate::act::{Refusal, Unable};
use crate::creature::{Abilities, BodySize, Equipment};
use crate::rules::sound::NoisyAction;
use crate::rules::task::{self, Work};
use crate::rules::throws::ThrowKind;
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DoorState, GridPos};
use delve_ground::level::schema::{Gear, Lock};
use delve_ground::log::log_in;
use delve_ground::time::Clock;

use super::{
    Door, DoorEvent, DoorOpening, DoorRefusal, DoorThrowMods, HoldingShut, MAX_SPIKES,
    bashing_modifiers, door_at, held_by, reach_door, swing_open,
};

/// `Bash`: bashes a stuck, spiked or held door (one round), alone or with a helper.
pub fn bash(
    world: &mut World,
    who: Entity,
    helper: Option<Entity>,
    at: GridPos,
) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if let Some(h) = helper {
        reach_door(world, h, at).map_err(|why| DoorRefusal::Helper {
            why: why.to_string(),
        })?;
    }
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    if matches!(d.lock, Lock::Locked { .. } | Lock::Jammed) {
        return Err(DoorRefusal::LockedNotBashable.into());
    }
    let held = held_by(world, at).is_some_and(|h| h != who);
    if !d.stuck && d.spikes == 0 && !held {
        return Err(DoorRefusal::NothingToBash.into());
    }
    let strength = |e: Entity| world.get::<Abilities>(e).map_or(10, |a| a.0.str);
    let mut mods = bashing_modifiers(
        strength(who),
        helper.map(strength),
        world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has(&Gear::Crowbar)),
        world
            .get::<BodySize>(who)
            .map_or(0, |s| s.0.categories_from_man_sized()),
        d.spikes,
    );
    mods.extend(DoorThrowMods::of(world, who, at).bash);
    crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BashingADoor)?;
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Dungeonbashing,
        "Dungeonbashing",
        mods,
        18,
    );
    if throw.success {
        if let Some(mut door) = world.get_mut::<Door>(e) {
            door.stuck = false;
            door.spikes = 0;
        }
        if let Some(holder) = held_by(world, at) {
            world.entity_mut(holder).remove::<HoldingShut>();
        }
        swing_open(world, who, e, at, DoorOpening::Bashed);
        return Ok(());
    }
    let hurt = throw.natural == 1;
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::BashFailed {
            who: name,
            at,
            hurt,
        },
    );
    if hurt {
        // RULINGS › Conditions …: the botched bash's point goes through the one damage path.
        for b in std::iter::once(who).chain(helper) {
            crate::rules::damage::take_damage(world, b, 1);
        }
    }
    Ok(())
}

/// `Spike`: drives a spike into a door (one round per spike, at most four): a closed door is
/// spiked shut, an open one wedged open.
pub fn spike(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.spikes >= MAX_SPIKES {
        return Err(DoorRefusal::FullOfSpikes.into());
    }
    let round = world.resource::<Clock>().rounds;
    if world
        .get::<DroveSpike>(who)
        .is_some_and(|s| s.round == round)
    {
        return Err(DoorRefusal::OneSpikeARound.into());
    }
    let mut gear = world
        .get_mut::<Equipment>(who)
        .ok_or(Unable::CarriesNothing)?;
    let spikes = gear
        .0
        .iter_mut()
        .find_map(|g| match g {
            Gear::Spikes(n) if *n > 0 => Some(n),
            _ => None,
        })
        .ok_or(DoorRefusal::NoSpikes)?;
    *spikes -= 1;
    world.entity_mut(who).insert(DroveSpike { round });
    let mut door = world.get_mut::<Door>(e).ok_or(Unable::Gone {
        what: "the door".into(),
    })?;
    door.spikes += 1;
    let (spikes, wedged_open) = (door.spikes, door.state == DoorState::Open);
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::DoorSpiked {
            who,
            at,
            spikes,
            wedged_open,
        },
    );
    Ok(())
}

/// The round a creature last drove a spike: spiking takes one round per spike (Dungeon
/// Delves › Doors).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DroveSpike {
    pub round: u64,
}

/// Whether a melee weapon can harm this door: one with structural damage against its kind of
/// structure, or any against a window (no structural hit points).
pub(super) fn harms_structure(w: &WeaponDef, door: &Door) -> bool {
    w.range_feet.is_none()
        && (door.material.structural_hp().is_none()
            || w.structural
                .as_ref()
                .is_some_and(|s| s.against(door.material.harmed_as()).is_some()))
}

/// The weapon a creature would strike a door with: the one named, or the first that can harm
/// the door's kind of structure; with its index and structural dice.
pub(super) fn structural_weapon(
    world: &World,
    who: Entity,
    door: &Door,
    named: Option<&str>,
) -> Result<(usize, WeaponDef), DoorRefusal> {
    let structure = door.material.harmed_as();
    let weapons = world
        .get::<Combatant>(who)
        .map(|c| c.weapons.clone())
        .unwrap_or_default();
    let harms = |w: &WeaponDef| harms_structure(w, door);
    let found = match named {
        Some(n) => weapons
            .iter()
            .enumerate()
            .find(|(_, w)| w.name == n)
            .ok_or(DoorRefusal::NoSuchWeapon { weapon: n.into() })?,
        None => weapons
            .iter()
            .enumerate()
            .find(|(_, w)| harms(w))
            .ok_or(DoorRefusal::CannotHarmStructure { structure })?,
    };
    if !harms(found.1) {
        return Err(DoorRefusal::CannotHarmStructure { structure });
    }
    Ok((found.0, found.1.clone()))
}

/// `AttackDoor`: strikes a closed door (Dungeon Delves › Doors: doors are "harmed as" wood or
/// stone structures with the table's AC and structural hit points). An attack throw against
/// the door's AC (the table's, +10 ascending); a hit deals the weapon's structural damage
/// against the door's kind of structure, and a door brought to 0 structural hit points breaks
/// and stands open for good. Weapons without structural damage cannot harm a structure; a lead
/// glass window, which has no structural hit points, breaks at any hit. Loud, like battering.
pub(crate) fn attack_door(
    world: &mut World,
    who: Entity,
    at: GridPos,
    weapon: Option<&str>,
) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    let (_, w) = structural_weapon(world, who, &d, weapon)?;
    let attack_bonus = world.get::<Combatant>(who).map_or(0, |c| c.attack_bonus);
    let mut mods = vec![Modifier::new(attack_bonus, "attack bonus")];
    mods.extend(DoorThrowMods::of(world, who, at).strike);
    crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BatteringADoor)?;
    let name = crate::creature::name_of(world, who);
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Attack { ranged: false },
        Skill::Attack,
        format!("{name} strikes the door at {at} with {}", w.name),
        mods,
        d.material.ac(),
    );
    let structural = if throw.success {
        let dice = w
            .structural
            .as_ref()
            .and_then(|s| s.against(d.material.harmed_as()))
            .cloned();
        Some(dice.map_or(0, |dice| {
            world.resource_mut::<Dice>().roll_expr(&dice).total.max(0) as u32
        }))
    } else {
        None
    };
    let left = match structural {
        Some(damage) => {
            let mut door = world.get_mut::<Door>(e).ok_or(Unable::Gone {
                what: "the door".into(),
            })?;
            door.structural_damage += damage;
            door.structural_hp_left()
        }
        None => d.structural_hp_left(),
    };
    log_in(
        world,
        DoorEvent::DoorStruck {
            who: name,
            at,
            structural_damage: structural,
            structural_hp_left: left,
        },
    );
    if structural.is_some() && left.is_none_or(|hp| hp == 0) {
        break_down(world, e);
        swing_open(world, who, e, at, DoorOpening::Broken);
    }
    Ok(())
}

/// A door battered or broken down: unlocked, unstuck, unspiked, open for good.
pub(super) fn break_down(world: &mut World, e: Entity) {
    if let Some(mut d) = world.get_mut::<Door>(e) {
        d.broken = true;
        d.lock = Lock::Unlocked;
        d.stuck = false;
        d.spikes = 0;
    }
}

/// Rounds of battering down (the doors table): a wooden door one turn with an axe, an
/// iron-banded one three; a lead glass window breaks open in one round with any weapon; solid
/// metal and stone doors cannot be battered down.
pub(super) fn battering_rounds(material: DoorMaterial) -> Option<u64> {
    use delve_ground::level::schema::DoorMaterial::*;
    match material {
        Wooden => Some(delve_ground::time::ROUNDS_PER_TURN),
        IronBanded => Some(3 * delve_ground::time::ROUNDS_PER_TURN),
        LeadGlassWindow => Some(1),
        SolidIron | IronBandedStone | GreatIronBandedStone | Stone | IronTrapDoor => None,
    }
}

/// Whether a creature has what battering this door down takes: an axe, or for a lead glass
/// window any weapon.
pub(super) fn can_batter(material: DoorMaterial, axe: bool, armed: bool) -> bool {
    axe || (material == DoorMaterial::LeadGlassWindow && armed)
}

/// `Batter`: sets to battering a door down with an axe (a lead glass window with any weapon).
pub fn batter(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    let axe = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::Axe));
    let armed = world
        .get::<Combatant>(who)
        .is_some_and(|c| !c.weapons.is_empty());
    if !can_batter(d.material, axe, armed) {
        return Err(if d.material == DoorMaterial::LeadGlassWindow {
            DoorRefusal::WindowNeedsWeapon
        } else {
            DoorRefusal::NeedsAxe
        }
        .into());
    }
    let rounds = battering_rounds(d.material).ok_or(DoorRefusal::TooStrongToBatter {
        material: d.material,
    })?;
    task::begin(world, who, Battering { door: at }, rounds);
    Ok(())
}

/// Battering a door down (Dungeon Delves › Doors): loud every round; at the end the door is
/// broken and stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battering {
    pub door: GridPos,
}

impl std::fmt::Display for Battering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "battering the door at {} down", self.door)
    }
}

impl Work for Battering {
    fn each_round(&self, world: &mut World, who: Entity) {
        // A creature at work has a square, so the noise is always made.
        let _ =
            crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BatteringADoor);
    }

    fn finish(&self, world: &mut World, who: Entity) {
        let at = self.door;
        let Some((e, _)) = door_at(world, at) else {
            return;
        };
        break_down(world, e);
        swing_open(world, who, e, at, DoorOpening::BatteredDown);
        super::known::learn(world, who, at);
    }
}
