//! The commands of a battle (Tactical Combat) and why one is refused or an attack cannot be
//! made.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{battle, opportunity};
use crate::act::{Act, Activity, Reason, Refusal, at, creature};
use crate::rules::penalties::PenaltyRefusal;

/// Attacks a creature each round in the faction's turn, with a named weapon or the first that
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

/// Total defense, a standard action: +4 AC and no attacks until its next turn; a shield wall
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

/// Forgoes the shield's bonuses for a free hand until its next turn.
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::MOVEMENT
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::IN_TURN
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::ACTION
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
            "take total defense (+{} AC and no attacks until its next turn)",
            super::gear::TOTAL_DEFENSE_AC
        )
    }
}

impl Act for TotalDefense {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::ACTION
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::IN_TURN
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
        write!(f, "forgo the shield for a free hand until its next turn")
    }
}

impl Act for ForgoShield {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::IN_TURN
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

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::REST
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
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn allowed_under(&self) -> &'static [crate::rules::acting::Hold] {
        use crate::rules::acting::Hold;
        &[Hold::Stuck, Hold::CrawlingATraverse, Hold::Drowning]
    }

    fn cost(&self) -> crate::rules::acting::Cost {
        crate::rules::acting::Cost::REST
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

/// Why a battle command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CombatRefusal {
    /// The level or the command line switched the combat module off.
    CombatOff,
    NoWeapon,
    NoWeaponNamed {
        weapon: String,
        has: Vec<String>,
    },
    NotJammed,
    NoShield,
    /// Tactical Combat › Shields: the shield's actions are for one proficient with it.
    NotProficientWithShield,
    NoEnchantment {
        weapon: String,
    },
    EnchantmentActive {
        weapon: String,
        enchantment: String,
    },
    NeedsAcrobatics,
    CautiousMovementOff,
    CautiousCannotDisengage,
    DisengagingCannotBeCautious,
    /// Tactical Combat › Disengage: "to escape a single threatening opponent" — this one does
    /// not threaten it (not a foe beside it, up, with a melee weapon).
    DoesNotThreaten {
        name: String,
    },
}

impl Reason for CombatRefusal {}

impl fmt::Display for CombatRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CombatRefusal::*;
        match self {
            CombatOff => write!(f, "this delve is played without the combat rules"),
            NoWeapon => write!(f, "it has no weapon"),
            NoWeaponNamed { weapon, has } => {
                write!(f, "it has no weapon named {weapon:?} (it has {has:?})")
            }
            NotJammed => write!(f, "its firearm is not jammed"),
            NoShield => write!(f, "it has no shield"),
            NotProficientWithShield => write!(
                f,
                "it is not proficient with its shield: the shield's actions are for the proficient"
            ),
            NoEnchantment { weapon } => write!(f, "its {weapon} has no enchantment to activate"),
            EnchantmentActive {
                weapon,
                enchantment,
            } => write!(
                f,
                "its {weapon}'s {enchantment} enchantment is already active"
            ),
            NeedsAcrobatics => write!(
                f,
                "moving through threatened squares at full speed needs Acrobatics"
            ),
            CautiousMovementOff => write!(f, "the cautious movement rule is off"),
            CautiousCannotDisengage => write!(
                f,
                "it moves cautiously: disengaging does not combine with it"
            ),
            DoesNotThreaten { name } => write!(
                f,
                "{name} does not threaten it (no foe beside it, up, with a melee weapon): \
                 there is nothing to disengage from"
            ),
            DisengagingCannotBeCautious => write!(
                f,
                "it disengages this round: cautious movement does not combine with it"
            ),
        }
    }
}

/// Why an attack cannot be made now (Tactical Combat; Dungeon Delves › Light and Darkness).
#[derive(Clone, Debug, PartialEq)]
pub enum AttackRefusal {
    CannotFight,
    NotAFoe,
    Down,
    TargetDown {
        target: String,
    },
    NoSuchWeapon,
    Jammed {
        weapon: String,
    },
    OutOfReach {
        target: String,
        weapon: String,
    },
    /// One is at the bottom of a pit or shaft and the other on its rim, or at another depth
    /// (RULINGS › Carrying and hauling, Pits and holes: neither reaches the other in melee).
    AtAnotherDepth {
        target: String,
    },
    /// Blinded creatures cannot make missile attacks.
    BlindedMissile,
    NoLineOfSight {
        target: String,
    },
    InTheWay {
        target: String,
    },
    BeyondRange {
        target: String,
        weapon: String,
    },
    /// Moved too far for a ranged attack (Situational Penalties › Penalty from Movement).
    Moved(PenaltyRefusal),
    /// Staggered, it moved this round: it may move or attack, not both (RULINGS › Conditions …).
    StaggeredMoved,
}

impl Reason for AttackRefusal {}

impl fmt::Display for AttackRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AttackRefusal::*;
        match self {
            CannotFight => write!(f, "it cannot fight"),
            NotAFoe => write!(f, "that is not something to fight"),
            Down => write!(f, "it is down"),
            TargetDown { target } => write!(f, "{target} is down"),
            NoSuchWeapon => write!(f, "it has no such weapon"),
            Jammed { weapon } => write!(f, "its {weapon} is jammed"),
            OutOfReach { target, weapon } => write!(f, "{target} is out of reach of its {weapon}"),
            AtAnotherDepth { target } => write!(
                f,
                "{target} is not at its depth: one is down in a hole, the other above"
            ),
            BlindedMissile => write!(f, "blinded creatures cannot make missile attacks"),
            NoLineOfSight { target } => write!(f, "it has no line of sight to {target}"),
            InTheWay { target } => write!(f, "someone stands in the way to {target}"),
            BeyondRange { target, weapon } => write!(f, "{target} is beyond its {weapon}'s range"),
            Moved(why) => write!(f, "{why}"),
            StaggeredMoved => write!(f, "staggered, it moved this round: it may not attack too"),
        }
    }
}
