//! What battles put in the log.

use crate::rules::acting::Hold;
use delve_ground::dice::Modifier;
use delve_ground::log::LogKind;

use std::fmt;

use serde::{Deserialize, Serialize};

use super::initiative::FactionRoll;
use crate::act::Refusal;
use delve_ground::dice::Throw;
use delve_ground::log::LogEvent;
use delve_ground::time::DelveMode;

/// Encounters and Combat: initiative, attacks, the start and end of a battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CombatEvent {
    /// A faction rolled initiative (at the start of a battle, or on joining one).
    Initiative { roll: FactionRoll },
    /// The factions' acting order, highest first.
    ActingOrder { order: Vec<String> },
    /// A faction's throw for surprise as the battle began (RULINGS › Surprise): 1d6 with its
    /// modifiers; 2 or less, surprised.
    Surprise {
        faction: String,
        d6: u32,
        modifiers: Vec<Modifier>,
        total: i32,
        surprised: bool,
    },
    /// A faction aware of the enemy the round before (it heard it, or a call about it) is not
    /// surprised, and throws no die.
    Forewarned { faction: String },
    /// Every faction that threw was surprised: the surprises cancel out.
    SurpriseCancelled { factions: Vec<String> },
    /// A faction's initiative in the battle round begins (RULINGS › The battle round).
    InitiativeBegan { faction: String },
    /// A surprised faction loses its initiative in the battle's first round (RULINGS › Surprise).
    InitiativeLost { faction: String },
    /// A forgone shield returns to its bearer at the start of its faction's next initiative
    /// (Tactical Combat › Shields; RULINGS › The battle round).
    ShieldReturned { who: String },
    /// Total defense ends at the start of the creature's faction's next initiative.
    TotalDefenseEnded { who: String },
    /// A step that would have provoked an attack of opportunity did not, and why (Tactical
    /// Combat › Cautious Movement, Combat Reflexes, Disengage; RULINGS › The battle round).
    OpportunityNotTaken {
        who: String,
        mover: String,
        why: NoOpportunity,
    },
    /// An attack: the throw with every modifier, and the damage of a hit.
    Attacked {
        who: String,
        target: String,
        throw: Throw,
        /// The second throw that confirms a critical threat.
        confirmation: Option<Throw>,
        /// A natural 1, a misfire, a sacrificed shield.
        note: Option<AttackNote>,
        damage: Option<Box<Damage>>,
    },
    /// A creature was ordered to attack a target with a weapon, in its faction's initiative.
    AttackOrdered {
        who: String,
        target: String,
        weapon: String,
    },
    /// An attack order lapsed: the target could no longer be attacked.
    AttackOrderLapsed {
        who: String,
        target: String,
        reason: Refusal,
    },
    /// A jammed firearm was cleared: a whole round, or a standard action with Gunsmithing.
    JamCleared { who: String, whole_round: bool },
    /// A weapon's enchantment was activated: a move action (no walking this round) or a
    /// standard action (no attack this round).
    EnchantmentActivated {
        who: String,
        weapon: String,
        enchantment: String,
        move_action: bool,
    },
    /// No hostile creature was aware of another for a full round.
    BattleEnded,
    /// Exploration gave way to an encounter, or back.
    ModeChanged { mode: DelveMode },
}

impl LogEvent for CombatEvent {
    fn kind(&self) -> LogKind {
        LogKind::Combat
    }

    /// The acting order and the initiatives are told to every faction, with another faction's name
    /// as "the foe" (RULINGS › Knowledge).
    fn told_to_party(&self, _members: &[&str], party: &str) -> Option<String> {
        let called = |faction: &str| {
            if faction == party {
                faction.to_owned()
            } else {
                "the foe".to_owned()
            }
        };
        match self {
            CombatEvent::ActingOrder { order } if order.iter().any(|f| f != party) => {
                Some(format!(
                    "acting order: {}",
                    order
                        .iter()
                        .map(|f| called(f))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
            CombatEvent::InitiativeBegan { faction } if faction != party => {
                Some(format!("{}'s initiative", called(faction)))
            }
            CombatEvent::SurpriseCancelled { .. } => {
                Some("both sides surprised: the surprises cancel out".to_owned())
            }
            _ => None,
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            CombatEvent::Attacked { who, .. }
            | CombatEvent::AttackOrdered { who, .. }
            | CombatEvent::AttackOrderLapsed { who, .. }
            | CombatEvent::JamCleared { who, .. }
            | CombatEvent::ShieldReturned { who }
            | CombatEvent::TotalDefenseEnded { who }
            | CombatEvent::OpportunityNotTaken { who, .. }
            | CombatEvent::EnchantmentActivated { who, .. } => Some(who),
            // A faction's initiative names its members: told to that faction alone (RULINGS ›
            // Knowledge: another faction learns their names only once it has seen them); so
            // are its throw for surprise and what came of it.
            CombatEvent::Initiative { roll } => Some(&roll.name),
            CombatEvent::Surprise { faction, .. }
            | CombatEvent::Forewarned { faction }
            | CombatEvent::InitiativeLost { faction } => Some(faction),
            _ => None,
        }
    }

    fn also_concerns(&self) -> Option<&str> {
        match self {
            CombatEvent::Attacked { target, .. } => Some(target),
            CombatEvent::OpportunityNotTaken { mover, .. } => Some(mover),
            _ => None,
        }
    }
}

/// What else happened in an attack (Tactical Combat › Natural 20 and Natural 1, Firearms,
/// Shields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttackNote {
    /// A natural 1 misses.
    NaturalOne,
    /// A firearm misfired; an advanced firearm jams.
    Misfire { weapon: String, jammed: bool },
    /// The target sacrificed its shield to the blow: broken, or destroyed if it was broken.
    ShieldSacrificed { who: String, destroyed: bool },
}

impl fmt::Display for AttackNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttackNote::NaturalOne => write!(f, "a natural 1 misses"),
            AttackNote::Misfire {
                weapon,
                jammed: true,
            } => write!(f, "misfire: the {weapon} jams"),
            AttackNote::Misfire { jammed: false, .. } => write!(f, "misfire"),
            AttackNote::ShieldSacrificed {
                who,
                destroyed: true,
            } => write!(f, "{who} sacrifices its broken shield: destroyed"),
            AttackNote::ShieldSacrificed {
                who,
                destroyed: false,
            } => write!(f, "{who} sacrifices its shield: broken"),
        }
    }
}

impl fmt::Display for CombatEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombatEvent::Surprise {
                faction,
                d6,
                modifiers,
                total,
                surprised,
            } => {
                write!(f, "surprise for {faction}: d6 {d6}")?;
                for m in modifiers {
                    write!(f, " {:+} ({})", m.value, m.source)?;
                }
                write!(
                    f,
                    " = {total}: {}",
                    if *surprised {
                        "surprised (it loses the first round)"
                    } else {
                        "not surprised"
                    }
                )
            }
            CombatEvent::Forewarned { faction } => write!(
                f,
                "{faction} is not surprised: it knew of the enemy the round before"
            ),
            CombatEvent::SurpriseCancelled { factions } => write!(
                f,
                "both sides surprised ({}): the surprises cancel out",
                factions.join(", ")
            ),
            CombatEvent::Initiative { roll } => {
                write!(
                    f,
                    "initiative for {}: d20 {} {:+} (average of {}, rounded up) = {}",
                    roll.name,
                    roll.roll,
                    roll.modifier,
                    roll.members
                        .iter()
                        .map(|(n, m)| format!("{n} {m:+}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    roll.result
                )?;
                if !roll.roll_offs.is_empty() {
                    write!(f, ", tie broken by roll-offs {:?}", roll.roll_offs)?;
                }
                Ok(())
            }
            CombatEvent::ActingOrder { order } => write!(f, "acting order: {}", order.join(", ")),
            CombatEvent::InitiativeBegan { faction } => write!(f, "{faction}'s initiative"),
            CombatEvent::InitiativeLost { faction } => write!(
                f,
                "{faction} is surprised and loses its initiative in this round: it does nothing"
            ),
            CombatEvent::ShieldReturned { who } => write!(
                f,
                "{who} takes up its shield again: its bonuses return at its faction's initiative"
            ),
            CombatEvent::TotalDefenseEnded { who } => {
                write!(f, "{who}'s total defense ends at its faction's initiative")
            }
            CombatEvent::OpportunityNotTaken { who, mover, why } => write!(
                f,
                "{who} makes no attack of opportunity as {mover} moves away: {why}"
            ),
            CombatEvent::AttackOrdered {
                who,
                target,
                weapon,
            } => write!(f, "{who} will attack {target} with its {weapon}"),
            CombatEvent::AttackOrderLapsed {
                who,
                target,
                reason,
            } => write!(f, "{who} cannot attack {target}: {reason}"),
            CombatEvent::JamCleared {
                who,
                whole_round: true,
            } => write!(f, "{who} spends the round clearing the jam"),
            CombatEvent::JamCleared { who, .. } => write!(
                f,
                "{who} clears the jam (a standard action, with Gunsmithing)"
            ),
            CombatEvent::EnchantmentActivated {
                who,
                weapon,
                enchantment,
                move_action,
            } => write!(
                f,
                "{who} activates its {weapon}'s {enchantment} enchantment ({})",
                if *move_action {
                    "a move action: no walking this round"
                } else {
                    "a standard action: no attack this round"
                }
            ),
            CombatEvent::Attacked {
                throw,
                confirmation,
                note,
                damage,
                ..
            } => {
                // The outcome first, so a narrow log never cuts it off.
                match damage {
                    Some(d) if d.critical => write!(f, "critical hit, {} damage: ", d.total)?,
                    Some(d) => write!(f, "hit, {} damage: ", d.total)?,
                    None => write!(f, "miss: ")?,
                }
                write!(f, "{throw}")?;
                if let Some(c) = confirmation {
                    write!(f, " [threat; {c}]")?;
                }
                if let Some(n) = note {
                    write!(f, " ({n})")?;
                }
                if let Some(d) = damage {
                    write!(
                        f,
                        "; {}{} damage (dice {:?} {:+}",
                        if d.critical { "critical hit: " } else { "" },
                        d.total,
                        d.dice,
                        d.bonus
                    )?;
                    if d.critical {
                        write!(f, ", base dice at maximum")?;
                    }
                    if let Some(armor) = &d.unproficient_armor {
                        write!(f, ", no DR from its {armor}: not proficient with it")?;
                    }
                    if d.reduced_by > 0 {
                        write!(f, ", armor DR {}", d.reduced_by)?;
                    }
                    if let Some((name, dice)) = &d.enchantment {
                        write!(f, ", {name} {dice:?}")?;
                    }
                    write!(f, ")")?;
                }
                Ok(())
            }
            CombatEvent::BattleEnded => write!(f, "the battle ends: no one is aware of an enemy"),
            CombatEvent::ModeChanged { mode } => write!(f, "now in {mode:?} mode"),
        }
    }
}

/// The damage of a hit, as the log tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    /// The dice rolled (for a critical, the extra dice; the base dice count at maximum).
    pub dice: Vec<u32>,
    pub bonus: i32,
    pub critical: bool,
    /// Armor damage reduction that applied.
    pub reduced_by: i32,
    /// Armor worn without proficiency: it reduced nothing (Tactical Combat › Armor as Damage
    /// Reduction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unproficient_armor: Option<String>,
    /// An active enchantment's extra damage: its name and dice (never multiplied, never
    /// reduced by armor).
    #[serde(default)]
    pub enchantment: Option<(String, Vec<u32>)>,
    pub total: i32,
}

/// Why a step that would provoke an attack of opportunity did not (the Judge sees the gate).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NoOpportunity {
    /// Tactical Combat › Cautious Movement: moving at half speed provokes no attack, but from
    /// one with Combat Reflexes.
    CautiousMover,
    /// It has made every attack of opportunity it has this round (one, and one more per +2 of
    /// Dexterity modifier with Combat Reflexes).
    AllowanceUsed { allowed: u32 },
    /// It cannot act (RULINGS › The battle round): down, stuck, drowning, crawling a traverse,
    /// surprised in the round its faction loses, …
    Held { hold: Hold },
    /// It takes total defense: no attacks until its next initiative.
    TotalDefense,
    /// Vulnerable: it makes no attacks of opportunity (RULINGS › Conditions …).
    Vulnerable,
    /// Tactical Combat › Disengage: the first 5' away from the creature it disengaged from.
    Disengaged,
}

impl std::fmt::Display for NoOpportunity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoOpportunity::CautiousMover => write!(
                f,
                "the mover moves cautiously, and it lacks Combat Reflexes"
            ),
            NoOpportunity::AllowanceUsed { allowed } => {
                write!(f, "it has made its {allowed} this round")
            }
            NoOpportunity::Held { hold } => write!(f, "{hold}"),
            NoOpportunity::TotalDefense => {
                write!(
                    f,
                    "it takes total defense: no attacks until its next initiative"
                )
            }
            NoOpportunity::Vulnerable => write!(f, "it is vulnerable"),
            NoOpportunity::Disengaged => {
                write!(f, "the mover disengaged from it: its first 5' away is safe")
            }
        }
    }
}
