//! A trap springing on its victim or on no one, its attack, and the risk of setting it off (Dungeon Delves › Traps).

use crate::creature::{ArmorClass, Below, Conditions, Creature};
use crate::rules::movement::{Footsteps, Walking};
use crate::rules::sound::NoiseKind;
use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::{Skill, ThrowEvent, Thrower};
use delve_ground::dice::Dice;
use delve_ground::level::schema::TrapAttack;

use crate::creature::{Faction, Position, SavingThrows};
use crate::rules::sound::NoisyAction;
use crate::rules::throws::ThrowKind;
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{SaveEffect, TrapKind};
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

use super::{Trap, TrapEvent, TrapState, sets_off, trap_name};

/// A creature standing on a square, and the squares it entered this round: not yet in a pit.
type Bystander<'a> = (Entity, &'a Position, Option<&'a Footsteps>);

/// A creature not yet in a pit.
type Standing = (With<Creature>, Without<Below>);

/// A trap goes off on `victim`: damage (with a save if the trap offers one), noise, and the trap
/// is known and, unless it is a pit, spent.
pub fn spring(world: &mut World, trap: Entity, victim: Entity) {
    let Some(t) = world.get::<Trap>(trap).cloned() else {
        return;
    };
    let at = world
        .get::<Position>(trap)
        .map_or(GridPos::default(), |p| p.0);
    let round = world.resource::<Clock>().rounds;
    let who = crate::creature::name_of(world, victim);
    // Dungeon Delves › Traps: some "might only damage the adventurers on a successful attack
    // throw": the trap's attack against the victim's armor class first.
    let hit = match &t.kind {
        TrapKind::Custom {
            attack: Some(a), ..
        } => Some(trap_attack(world, &t, *a, victim)),
        _ => None,
    };
    if hit == Some(false) {
        go_off(world, trap);
        let _ =
            crate::rules::sound::hearing::creature_noise(world, victim, NoisyAction::ATrapGoingOff);
        world.resource_mut::<EventLog>().push(
            round,
            TrapEvent::TrapSprung {
                who,
                trap: trap_name(&t),
                at,
                dice: Vec::new(),
                damage: 0,
                saved: None,
                hit,
            },
        );
        let faction = world.get::<Faction>(victim).copied();
        if let Some(mut t) = world.get_mut::<Trap>(trap) {
            t.learned_by(faction);
        }
        return;
    }
    let roll = world.resource_mut::<Dice>().roll_expr(&t.damage);
    let mut damage = roll.total.max(0);
    let mut saved = None;
    if let TrapKind::Custom {
        save: Some(save), ..
    } = &t.kind
        && let Some(&target) = world
            .get::<SavingThrows>(victim)
            .and_then(|s| s.0.get(&save.throw))
    {
        let what = format!("{:?} save against {}", save.throw, trap_name(&t));
        let throw = crate::rules::throws::throw_in(
            world,
            victim,
            ThrowKind::Save,
            Skill::Save(save.throw),
            what,
            Vec::new(),
            target,
        );
        let half = save.on_success == SaveEffect::Half;
        // Tactical Combat › Natural 20 and Natural 1: a natural 1 on a save doubles the damage;
        // a natural 20 on a save for half takes none.
        let tactical = world
            .get_resource::<TacticalCombat>()
            .is_some_and(|t| t.natural_20_and_1);
        damage = if tactical {
            crate::rules::tactical::damage_after_save(damage, throw.natural, throw.success, half)
        } else {
            match (throw.success, half) {
                (true, true) => damage / 2,
                (true, false) => 0,
                (false, _) => damage,
            }
        };
        saved = Some(throw.success);
    }
    go_off(world, trap);
    let noise = if let TrapKind::Pit { depth_feet } = t.kind {
        // At the bottom of the pit: out only by climbing (Dungeon Delves › Climbing).
        world
            .entity_mut(victim)
            .remove::<Walking>()
            .insert((Position(at), Below { depth_feet }));
        NoisyAction::AFall
    } else {
        NoisyAction::ATrapGoingOff
    };
    // A victim always has a square, so the noise is always made.
    let _ = crate::rules::sound::hearing::creature_noise(world, victim, noise);
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapSprung {
            who,
            trap: trap_name(&t),
            at,
            dice: roll.dice,
            damage,
            saved,
            hit,
        },
    );
    let faction = world.get::<Faction>(victim).copied();
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.learned_by(faction);
    }
    // RULINGS › Conditions …: a trap's damage goes through the one damage path.
    crate::rules::damage::take_damage(world, victim, damage);
    // A pit opens under its whole square: whoever else was standing there (a companion
    // carried, or sharing the square in a squeeze, the fallen under a fighter) falls in too,
    // each with its own fall. One that only walked onto the square this round came after the
    // pit opened: it meets the hole as it steps (`step_on_traps`).
    if matches!(t.kind, TrapKind::Pit { .. }) {
        let mut others =
            delve_ground::query_cache::read_query(world, |q: Query<Bystander, Standing>| {
                q.iter()
                    .filter(|(_, p, steps)| {
                        p.0 == at && steps.is_none_or(|s| !s.entered.contains(&at))
                    })
                    .map(|(e, ..)| e)
                    .collect::<Vec<Entity>>()
            })
            .unwrap_or_default();
        others.sort();
        for other in others.into_iter().filter(|&e| e != victim) {
            spring(world, trap, other);
        }
    }
}

/// A trap's attack throw against its victim (Dungeon Delves › Traps): d20 + its bonus against
/// the victim's armor class (disordered −2), logged under the trap's name; true on a hit.
pub(super) fn trap_attack(world: &mut World, t: &Trap, attack: TrapAttack, victim: Entity) -> bool {
    let base = world.get::<ArmorClass>(victim).map_or(10, |ac| ac.0);
    // The victim's condition lowers its armor class: shown, as in combat, as the attacker's
    // bonus.
    let (_, mut mods) = crate::rules::conditions::effective_ac(
        base,
        &world.get::<Conditions>(victim).cloned().unwrap_or_default(),
    );
    for m in &mut mods {
        m.value = -m.value;
    }
    mods.insert(0, Modifier::new(attack.bonus, "the trap's attack bonus"));
    let name = trap_name(t);
    let victim_name = crate::creature::name_of(world, victim);
    let tactical = world.get_resource::<TacticalCombat>().copied();
    let untouched = Conditions::default();
    let thrower = Thrower::new(&name, &untouched, tactical.as_ref());
    let throw = world.resource_scope(|_, mut dice: Mut<Dice>| {
        crate::rules::throws::throw(
            &mut dice,
            &thrower,
            ThrowKind::Attack { ranged: false },
            format!("{name} attacks {victim_name}"),
            mods,
            base,
        )
    });
    let hit = throw.success;
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        ThrowEvent::Threw {
            who: name,
            skill: Skill::Attack,
            throw,
        },
    );
    hit
}

/// The trap is in plain sight once it has gone off (known to whoever sees it), and spent unless
/// it is a pit (a pit stays open).
pub(super) fn go_off(world: &mut World, trap: Entity) {
    if let Some(mut t) = world.get_mut::<Trap>(trap) {
        t.hidden = false;
        if matches!(t.kind, TrapKind::Pit { .. }) {
            t.plain_sight = true;
        } else {
            t.state = TrapState::Discharged;
        }
    }
}

/// A trap goes off with no one in its way (set off by a pole, or by a door opened from afar):
/// it is revealed, and its noise is heard.
pub(super) fn spring_on_no_one(world: &mut World, trap: Entity, set_off_by: &str) {
    let Some(t) = world.get::<Trap>(trap).cloned() else {
        return;
    };
    let at = world
        .get::<Position>(trap)
        .map_or(GridPos::default(), |p| p.0);
    go_off(world, trap);
    let what = format!("{} going off", trap_name(&t));
    // The trap's square is on the map, so the noise is always made.
    let _ = crate::rules::sound::hearing::make_noise(
        world,
        at,
        NoisyAction::ATrapGoingOff.row(),
        NoiseKind::Action(NoisyAction::ATrapGoingOff),
        &what,
    );
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapSprungHarmlessly {
            who: set_off_by.to_owned(),
            trap: trap_name(&t),
            at,
        },
    );
}

/// The Judge's secret 1d6 for an action of `who` (with its pole, if `pole`) that might set
/// `trap` off; on 1–2 it goes off on `victim`, or on no one.
pub(super) fn risk(
    world: &mut World,
    trap: Entity,
    at: GridPos,
    (who, pole): (&str, bool),
    victim: Option<Entity>,
) -> bool {
    let d6 = world.resource_mut::<Dice>().roll(6);
    let sprung = sets_off(d6);
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(
        round,
        TrapEvent::TrapChance {
            who: if pole {
                format!("{who}'s 10' pole")
            } else {
                who.to_owned()
            },
            at,
            d6,
            sprung,
        },
    );
    if sprung {
        match victim {
            Some(v) => spring(world, trap, v),
            None => spring_on_no_one(world, trap, who),
        }
    }
    sprung
}
