//! The gear of a fight (Tactical Combat): shields forgone and sacrificed, firearms that jam and
//! are cleared, total defense, and weapon enchantments switched on.

use crate::creature::Proficiencies;
use crate::rules::movement::Walking;
use delve_ground::level::schema::Proficiency;

use super::events::CombatEvent;
use super::refusals::CombatRefusal;
use crate::act::Refusal;
use crate::rules::acting::ActionTaken;
use bevy::prelude::*;
use delve_ground::log::log_in;

use crate::creature::Combatant;
use delve_ground::time::Clock;

/// Shields › sacrificing a shield to a critical hit: broken once, destroyed the second time.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShieldState {
    pub broken: bool,
    pub destroyed: bool,
    /// The round it was last sacrificed: "as an immediate action", once a round.
    pub sacrificed_in: Option<u64>,
}

/// Shields: "when a critical hit is scored against you while you are wielding a shield, as an
/// immediate action you can choose to give the shield the broken condition to convert the
/// attack to a standard hit … before the damage is rolled". The blow lands in the attacker's
/// turn, so the bearer's choice is made beforehand and stands.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub enum ShieldSacrifice {
    /// When the critical could put it down: the most the blow could deal is at least its hit
    /// points. Every creature's choice until it makes another.
    #[default]
    ToSurvive,
    /// At any critical (once a round).
    Always,
    /// Never.
    Never,
}

impl ShieldSacrifice {
    /// Would the bearer give its shield up to a critical that could deal `most`, with `hp` left?
    pub fn gives_it_up(self, most: i32, hp: i32) -> bool {
        match self {
            ShieldSacrifice::ToSurvive => most >= hp,
            ShieldSacrifice::Always => true,
            ShieldSacrifice::Never => false,
        }
    }

    /// The choice in words.
    pub fn words(self) -> &'static str {
        match self {
            ShieldSacrifice::ToSurvive => "only when it could put it down",
            ShieldSacrifice::Always => "always",
            ShieldSacrifice::Never => "never",
        }
    }
}

/// Tactical Combat › Shields: "in order to use any of these actions or benefits you must be
/// proficient with the shield used" — the creature bears a shield, and is proficient with it.
fn bears_a_shield_proficiently(world: &World, who: Entity) -> Result<(), CombatRefusal> {
    let shield = world
        .get::<Combatant>(who)
        .and_then(|c| c.shield.as_ref())
        .ok_or(CombatRefusal::NoShield)?;
    if !shield.proficient {
        return Err(CombatRefusal::NotProficientWithShield);
    }
    Ok(())
}

/// `SacrificeShield`: when the bearer will give its shield up to a critical hit.
pub(crate) fn choose_sacrifice(
    world: &mut World,
    who: Entity,
    when: ShieldSacrifice,
) -> Result<(), Refusal> {
    bears_a_shield_proficiently(world, who)?;
    world.entity_mut(who).insert(when);
    Ok(())
}

/// Firearm Misfires: an advanced firearm that misfired is jammed until cleared.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Jammed;

/// Shields: the shield's bonuses forgone for a free hand in `round`, until the start of its
/// bearer's faction's next initiative (RULINGS › The battle round), or the next round outside a
/// battle.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShieldForgone {
    pub round: u64,
}

/// `ClearJam` (Tactical Combat › Firearm Misfires): "a full round action is spent clearing the
/// jam" — the creature neither moves nor attacks this round — or "a standard action" with
/// Gunsmithing, which leaves it its move. Either takes its action (its cost), so it makes no
/// attack this round; a standing attack order waits for the next.
pub(crate) fn clear_jam(world: &mut World, who: Entity) -> Result<(), Refusal> {
    if world.get::<Jammed>(who).is_none() {
        return Err(CombatRefusal::NotJammed.into());
    }
    world.entity_mut(who).remove::<Jammed>();
    let gunsmith = world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Gunsmithing));
    if !gunsmith {
        stays_put(world, who);
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CombatEvent::JamCleared {
            who: name,
            whole_round: !gunsmith,
        },
    );
    Ok(())
}

/// This round the creature moves no farther: a full-round action, or a move action spent.
fn stays_put(world: &mut World, who: Entity) {
    world.entity_mut(who).remove::<Walking>();
    crate::rules::movement::limit_moves(world, who, 0);
}

/// The standard rules' total defense: +4 to AC, and no attacks.
pub const TOTAL_DEFENSE_AC: i32 = 4;

/// Taking the total defense action in `round` (no attacks, of opportunity neither; +4 AC;
/// doubles a shield wall's bonus when the whole wall does), until the start of its faction's
/// next initiative (outside a battle, the next round).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TotalDefense {
    pub round: u64,
}

/// `TotalDefense`: +4 AC and no attacks until its next initiative. It takes the action (its cost),
/// so the creature makes no attack this round; a standing attack order waits for the next.
pub(crate) fn total_defense(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let round = world.resource::<Clock>().rounds;
    world.entity_mut(who).insert(TotalDefense { round });
    Ok(())
}

/// `ForgoShield`: a free hand, for the shield's bonuses until its next initiative.
pub(crate) fn forgo_shield(world: &mut World, who: Entity) -> Result<(), Refusal> {
    bears_a_shield_proficiently(world, who)?;
    let round = world.resource::<Clock>().rounds;
    world.entity_mut(who).insert(ShieldForgone { round });
    Ok(())
}

/// Weapons whose enchantment is active (by index in the creature's weapons).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActiveEnchantments(pub Vec<usize>);

/// Activating Weapon Enchantments: a move action for one with a base attack bonus of at least
/// 1 and a rank in Use Magic Device; otherwise a standard action.
pub fn activation_is_a_move_action(base_attack_bonus: i32, use_magic_device: bool) -> bool {
    base_attack_bonus >= 1 && use_magic_device
}

/// `ActivateEnchantment`: turns a weapon's enchantment on. As a move action the creature stops
/// walking this round and moves no farther, whatever else limits its move; as a standard action it
/// does not attack this round. (In a battle it is carried out in its faction's initiative, before
/// the faction walks: its move is not yet spent.)
pub(crate) fn activate_enchantment(
    world: &mut World,
    who: Entity,
    weapon: &str,
) -> Result<(), Refusal> {
    let c = world.get::<Combatant>(who).ok_or(CombatRefusal::NoWeapon)?;
    let i = c
        .weapons
        .iter()
        .position(|w| w.name == weapon)
        .ok_or_else(|| CombatRefusal::NoWeaponNamed {
            weapon: weapon.to_owned(),
            has: c.weapons.iter().map(|w| w.name.clone()).collect(),
        })?;
    let (enchantment, _) =
        c.weapons[i]
            .enchantment
            .clone()
            .ok_or_else(|| CombatRefusal::NoEnchantment {
                weapon: weapon.to_owned(),
            })?;
    // The stat block's attack bonus stands for its base attack bonus.
    let bab = c.attack_bonus;
    let umd = world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::UseMagicDevice));
    let mut active = world
        .get::<ActiveEnchantments>(who)
        .cloned()
        .unwrap_or_default();
    if active.0.contains(&i) {
        return Err(CombatRefusal::EnchantmentActive {
            weapon: weapon.to_owned(),
            enchantment,
        }
        .into());
    }
    active.0.push(i);
    let round = world.resource::<Clock>().rounds;
    let move_action = activation_is_a_move_action(bab, umd);
    world.entity_mut(who).insert(active);
    if move_action {
        stays_put(world, who);
    } else {
        world.entity_mut(who).insert(ActionTaken { round });
    }
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        CombatEvent::EnchantmentActivated {
            who,
            weapon: weapon.to_owned(),
            enchantment,
            move_action,
        },
    );
    Ok(())
}
