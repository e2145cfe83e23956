//! The commands of a battle (Tactical Combat) and why one is refused or an attack cannot be
//! made.

use crate::rules::acting::Cost;

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::refusals::CombatRefusal;
use super::{battle, opportunity};
use crate::act::{Act, Activity, Offered, Refusal, at, creature};

/// Attacks a creature each round in the faction's initiative, with a named weapon or the first that
/// can reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub who: String,
    pub target: String,
    #[serde(default)]
    pub weapon: Option<String>,
}

/// Walks at half combat speed through threatened squares without provoking attacks of
/// opportunity (Tactical Combat › Cautious Movement).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveCautiously {
    pub who: String,
    pub to: (i32, i32),
}

/// Walks at full combat speed through threatened squares, tumbling past each threatener with
/// an Acrobatics check (proficient in Acrobatics).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveAcrobatically {
    pub who: String,
    pub to: (i32, i32),
}

/// This round, the first 5' away from a creature provokes no attack of opportunity from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disengage {
    pub who: String,
    pub from: String,
}

/// Clears a jammed firearm: a full round, or a standard action with Gunsmithing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClearJam {
    pub who: String,
}

/// Total defense, a standard action: +4 AC and no attacks until its next initiative; a shield wall
/// all in total defense doubles its bonus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TotalDefense {
    pub who: String,
}

/// Activates a weapon's enchantment: a move action with base attack bonus 1+ and Use Magic
/// Device, a standard action otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivateEnchantment {
    pub who: String,
    pub weapon: String,
}

/// Forgoes the shield's bonuses for a free hand until its next initiative.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForgoShield {
    pub who: String,
}

/// When the shield is given up to a critical hit (Tactical Combat › Shields): a standing choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SacrificeShield {
    pub who: String,
    pub when: super::gear::ShieldSacrifice,
}

/// In a battle the party's members wait for their player's orders (`on`), or fight by
/// themselves (`off`, as every party does headless).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitForOrders {
    pub party: String,
    pub on: bool,
}

impl fmt::Display for Attack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "attack {}", self.target)?;
        if let Some(w) = &self.weapon {
            write!(f, " with its {w}")?;
        }
        Ok(())
    }
}

impl Act for Attack {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        let (who, target) = (creature(world, &self.who)?, creature(world, &self.target)?);
        battle::order_attack(world, who, target, self.weapon.as_deref())
    }
}

impl fmt::Display for MoveCautiously {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move cautiously to {}", at(self.to))
    }
}

impl Act for MoveCautiously {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        opportunity::move_cautiously(world, creature(world, &self.who)?, at(self.to))
    }
}

impl fmt::Display for MoveAcrobatically {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tumble to {}", at(self.to))
    }
}

impl Act for MoveAcrobatically {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::MOVEMENT
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        opportunity::move_acrobatically(world, creature(world, &self.who)?, at(self.to))
    }
}

impl fmt::Display for Disengage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "disengage from {}", self.from)
    }
}

impl Act for Disengage {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::IN_TURN
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        let (who, from) = (creature(world, &self.who)?, creature(world, &self.from)?);
        opportunity::disengage(world, who, from)
    }
}

impl fmt::Display for ClearJam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clear the jam")
    }
}

impl Act for ClearJam {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::ACTION
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        super::gear::clear_jam(world, creature(world, &self.who)?)
    }
}

impl fmt::Display for TotalDefense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "take total defense (+{} AC and no attacks until its next initiative)",
            super::gear::TOTAL_DEFENSE_AC
        )
    }
}

impl Act for TotalDefense {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::ACTION
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        super::gear::total_defense(world, creature(world, &self.who)?)
    }
}

impl fmt::Display for ActivateEnchantment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "activate the {}'s enchantment", self.weapon)
    }
}

impl Act for ActivateEnchantment {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::IN_TURN
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        super::gear::activate_enchantment(world, creature(world, &self.who)?, &self.weapon)
    }
}

impl fmt::Display for ForgoShield {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "forgo the shield for a free hand until its next initiative"
        )
    }
}

impl Act for ForgoShield {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::IN_TURN
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        super::gear::forgo_shield(world, creature(world, &self.who)?)
    }
}

impl fmt::Display for SacrificeShield {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "give the shield up to a critical hit {}",
            self.when.words()
        )
    }
}

impl Act for SacrificeShield {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        super::gear::choose_sacrifice(world, creature(world, &self.who)?, self.when)
    }
}

impl fmt::Display for WaitForOrders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on {
            write!(f, "wait for orders in battle")
        } else {
            write!(f, "fight by itself")
        }
    }
}

impl Act for WaitForOrders {
    fn offered() -> Offered
    where
        Self: Sized,
    {
        Offered::WHOLE_PARTY
    }

    fn activity(&self) -> Option<Activity> {
        None
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::Stuck, Hold::CrawlingATraverse, Hold::Drowning]
    }

    fn cost(&self) -> Cost {
        Cost::REST
    }

    fn who(&self) -> &str {
        &self.party
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        combat_on(world)?;
        battle::wait_for_orders(world, &self.party, self.on)
    }
}

/// Battle commands need the combat module ([`battle::BattlePlugin`]).
fn combat_on(world: &World) -> Result<(), CombatRefusal> {
    if world.contains_resource::<battle::Battle>() {
        Ok(())
    } else {
        Err(CombatRefusal::CombatOff)
    }
}
