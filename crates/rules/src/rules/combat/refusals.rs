//! Why a combat command is refused: the battle's refusals and an attack's.

use std::fmt;

use crate::act::Reason;
use crate::rules::penalties::PenaltyRefusal;

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
