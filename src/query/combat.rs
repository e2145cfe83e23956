//! `attack --who A --target B`: the attack a creature would make on another now, with each of
//! its weapons (or the one named): the to-hit breakdown and chance, and the damage with the
//! target's armor DR by type (Tactical Combat › Armor as Damage Reduction), or why it cannot.

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use delve_rules::creature::Combatant;
use delve_rules::rules::combat::attack::{Forecast, forecast};

/// The attacks `who` could make on `target`, weapon by weapon.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackAnswer {
    pub question: &'static str,
    pub who: String,
    pub target: String,
    pub weapons: Vec<WeaponAnswer>,
}

/// One weapon's attack, or why it cannot be made now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeaponAnswer {
    pub weapon: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<Forecast>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot: Option<String>,
}

pub fn attack(
    world: &World,
    who: &str,
    target: &str,
    weapon: Option<&str>,
) -> Result<AttackAnswer, String> {
    let (a, t) = (
        super::creature(world, who)?,
        super::creature(world, target)?,
    );
    let weapons: Vec<String> = world
        .get::<Combatant>(a)
        .map(|c| c.weapons.iter().map(|w| w.name.clone()).collect())
        .unwrap_or_default();
    if weapons.is_empty() {
        return Err(format!("`{who}` has no weapon"));
    }
    if let Some(w) = weapon
        && !weapons.iter().any(|n| n == w)
    {
        return Err(format!(
            "`{who}` has no weapon named `{w}` (it has {weapons:?})"
        ));
    }
    let weapons = weapons
        .iter()
        .enumerate()
        .filter(|(_, n)| weapon.is_none_or(|w| w == n.as_str()))
        .map(|(i, n)| match forecast(world, a, t, i) {
            Ok(f) => WeaponAnswer {
                weapon: n.clone(),
                attack: Some(f),
                cannot: None,
            },
            Err(why) => WeaponAnswer {
                weapon: n.clone(),
                attack: None,
                cannot: Some(why.to_string()),
            },
        })
        .collect();
    Ok(AttackAnswer {
        question: "attack",
        who: who.to_owned(),
        target: target.to_owned(),
        weapons,
    })
}

impl fmt::Display for AttackAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} attacking {}:", self.who, self.target)?;
        for w in &self.weapons {
            let Some(a) = &w.attack else {
                write!(
                    f,
                    "\n  {}: cannot: {}",
                    w.weapon,
                    w.cannot.as_deref().unwrap_or("")
                )?;
                continue;
            };
            write!(f, "\n  {}: d20", w.weapon)?;
            for m in &a.modifiers {
                write!(f, " {:+} ({})", m.value, m.source)?;
            }
            write!(
                f,
                " vs AC {}: needs {}+, {:.0}% to hit",
                a.ac,
                a.need,
                a.chance * 100.0
            )?;
            write!(
                f,
                "\n    damage {} {:?}, critical on {}+ x{}; armor DR {} against it",
                a.damage, a.damage_type, a.threat, a.multiplier, a.dr
            )?;
            if let Some(note) = &a.dr_note {
                write!(f, " ({note})")?;
            }
            let by: Vec<String> = a
                .dr_by_type
                .iter()
                .map(|(ty, dr)| format!("{ty:?} {dr}"))
                .collect();
            write!(f, "; DR by type: {}", by.join(", "))?;
            if let Some((name, dice)) = &a.enchantment {
                write!(f, "; {name} +{dice} past armor")?;
            }
        }
        Ok(())
    }
}
