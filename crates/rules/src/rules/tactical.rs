//! The tactical combat rules (`tactical-combat.md`, module `TacticalCombat`), each switchable:
//! the numbers of armor as damage reduction, Combat Reflexes, bloodied, natural 20 and natural 1,
//! critical hits, massive trauma and massive damage, shield walls, cautious movement. The
//! switches and the numbers only: throws, movement, traps and the battle read [`TacticalCombat`]
//! to know which apply. The combat module installs it; without combat, none applies.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use delve_ground::dice::{DiceExpr, Modifier};
use delve_ground::level::schema::{ArmorWeight, DamageType, RawArmor};

/// Which tactical rules are on (all by default, as RULINGS has it).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TacticalCombat {
    pub cautious_movement: bool,
    pub combat_reflexes: bool,
    pub armor_as_damage_reduction: bool,
    pub shields: bool,
    pub bloodied: bool,
    pub natural_20_and_1: bool,
    pub critical_hits: bool,
    pub firearm_misfires: bool,
    pub faction_initiative: bool,
    pub massive_trauma: bool,
    pub massive_damage: bool,
}

impl Default for TacticalCombat {
    fn default() -> Self {
        Self {
            cautious_movement: true,
            combat_reflexes: true,
            armor_as_damage_reduction: true,
            shields: true,
            bloodied: true,
            natural_20_and_1: true,
            critical_hits: true,
            firearm_misfires: true,
            faction_initiative: true,
            massive_trauma: true,
            massive_damage: true,
        }
    }
}

impl TacticalCombat {
    /// Each rule with its switch, named as the rule text names it.
    pub fn switches(&self) -> [(&'static str, bool); 11] {
        [
            ("cautious movement", self.cautious_movement),
            ("Combat Reflexes", self.combat_reflexes),
            ("armor as damage reduction", self.armor_as_damage_reduction),
            ("shields", self.shields),
            ("bloodied", self.bloodied),
            ("natural 20 and natural 1", self.natural_20_and_1),
            ("critical hits", self.critical_hits),
            ("firearm misfires", self.firearm_misfires),
            ("faction initiative", self.faction_initiative),
            ("massive trauma", self.massive_trauma),
            ("massive damage", self.massive_damage),
        ]
    }

    /// Every tactical rule off: the level's `modules` leave the combat module out.
    pub fn off() -> Self {
        Self {
            cautious_movement: false,
            combat_reflexes: false,
            armor_as_damage_reduction: false,
            shields: false,
            bloodied: false,
            natural_20_and_1: false,
            critical_hits: false,
            firearm_misfires: false,
            faction_initiative: false,
            massive_trauma: false,
            massive_damage: false,
        }
    }
}

/// Armor as Damage Reduction: light armor DR 1 (only if its base AC bonus is 2 or more), medium
/// 2, heavy 3, against piercing and slashing; +1 at the first enhancement, again at +3 and +5.
/// A gambeson (light armor named "gambeson") gives DR 3 against bludgeoning only.
fn armor_dr(armor: &RawArmor, against: DamageType) -> i32 {
    if armor.is_gambeson() {
        return if against == DamageType::Bludgeoning {
            3
        } else {
            0
        };
    }
    if against == DamageType::Bludgeoning {
        return 0;
    }
    let base = match armor.weight {
        ArmorWeight::Light if armor.ac_bonus >= 2 => 1,
        ArmorWeight::Light => 0,
        ArmorWeight::Medium => 2,
        ArmorWeight::Heavy => 3,
    };
    let enhancement = [1, 3, 5]
        .iter()
        .filter(|&&e| armor.enhancement >= e)
        .count() as i32;
    base + enhancement
}

/// The DR of all armor worn (a gambeson layered beneath other armor adds its own).
pub(crate) fn worn_dr(armor: &[&RawArmor], against: DamageType) -> i32 {
    armor
        .iter()
        .filter(|a| a.proficient)
        .map(|a| armor_dr(a, against))
        .sum()
}

/// Combat Reflexes: attacks of opportunity per round, one per +2 of the tactical Dexterity
/// modifier (rounded down), and never fewer than the one everyone has. The rule's example fixes
/// the count: "Dex 18 = +4 mod = 2 AoOs total per round".
pub(crate) fn attacks_of_opportunity(dex_modifier: i32, combat_reflexes: bool) -> u32 {
    if !combat_reflexes {
        return 1;
    }
    (dex_modifier.max(0) / 2).max(1) as u32
}

/// Combat Reflexes: attacks of opportunity against a cautious mover are at −4.
pub const CAUTIOUS_AOO_PENALTY: i32 = -4;

/// Cautious movement: half speed, rounded down to the nearest 5 feet.
pub(crate) fn cautious_feet(speed_feet: u32) -> u32 {
    speed_feet / 2 / 5 * 5
}

/// Bloodied: below half its total hit points (not at exactly half).
pub(crate) fn is_bloodied(current: i32, max: i32) -> bool {
    current * 2 < max
}

/// Bloodied: −2 on attack rolls, saving throws, skill checks and ability checks.
pub(crate) fn bloodied_modifier() -> Modifier {
    Modifier::new(-2, "bloodied")
}

/// Natural 20: +10 to the total, not an automatic success.
pub(crate) fn natural_20_modifier(natural: u32) -> Option<Modifier> {
    (natural == 20).then(|| Modifier::new(10, "natural 20"))
}

/// Critical hit damage for a weapon: the base dice at their maximum, plus the multiplier's extra
/// dice as rolled (see [`critical_extra_dice`]), other modifiers once. The composite longbow ×3
/// with Strength +2: 8 + 2d8 + 2.
pub(crate) fn weapon_critical(damage: &DiceExpr, extra_dice: &[u32]) -> i32 {
    let base = (damage.count * damage.sides) as i32;
    base + extra_dice.iter().map(|&d| d as i32).sum::<i32>() + damage.bonus
}

/// How many extra dice a weapon critical rolls: the base count for each multiple beyond one.
pub(crate) fn critical_extra_dice(damage: &DiceExpr, multiplier: u32) -> u32 {
    damage.count * multiplier.saturating_sub(1)
}

/// A spell critical for a spell that makes an attack roll: the rolled damage plus 50% of it
/// (rounded down). Scorching ray 4d6 rolled 4, 6, 4, 2 = 16, + 8 = 24.
pub fn spell_attack_critical(rolled: &[u32]) -> i32 {
    let total: i32 = rolled.iter().map(|&d| d as i32).sum();
    total + total / 2
}

/// Tactical Combat › Natural 20 and Natural 1: "A Natural 1 on a save doubles the damage
/// dealt" — the damage the save's outcome deals, doubled: a natural 1 that still succeeds (a
/// natural 1 is no automatic failure on a save) doubles half the damage to the whole of it,
/// and a negated 0 stays 0; a natural 20 on a save for half takes none.
pub(crate) fn damage_after_save(damage: i32, natural: u32, saved: bool, half_on_save: bool) -> i32 {
    let dealt = match (saved, half_on_save) {
        (true, true) => damage / 2,
        (true, false) => 0,
        (false, _) => damage,
    };
    match (natural, saved, half_on_save) {
        (1, ..) => dealt * 2,
        (20, true, true) => 0,
        _ => dealt,
    }
}

/// Massive trauma: one attack dealing at least half the total hit points, and at least 25.
pub(crate) fn massive_trauma_applies(damage: i32, max_hp: i32) -> bool {
    damage >= 25 && damage * 2 >= max_hp
}

/// Massive damage: one attack dealing at least half the total hit points, and at least 50.
pub(crate) fn massive_damage_applies(damage: i32, max_hp: i32) -> bool {
    damage >= 50 && damage * 2 >= max_hp
}

/// Shields: a heavy-shield wielder gains +1 shield bonus per adjacent ally with a heavy shield;
/// doubled when the whole wall takes total defense.
pub(crate) fn shield_wall_bonus(adjacent_heavy_shields: u32, total_defense: bool) -> i32 {
    let b = adjacent_heavy_shields as i32;
    if total_defense { b * 2 } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breastplate(enhancement: i32) -> RawArmor {
        RawArmor {
            name: "breastplate".into(),
            weight: ArmorWeight::Medium,
            ac_bonus: 6,
            enhancement,
            proficient: true,
        }
    }

    #[test]
    fn armor_dr_by_weight_and_enhancement() {
        use DamageType::*;
        assert_eq!(armor_dr(&breastplate(0), Piercing), 2);
        assert_eq!(
            armor_dr(&breastplate(1), Slashing),
            3,
            "+1 breastplate: DR 3"
        );
        assert_eq!(
            armor_dr(&breastplate(3), Piercing),
            4,
            "+3 breastplate: DR 4"
        );
        assert_eq!(
            armor_dr(&breastplate(5), Piercing),
            5,
            "+5 breastplate: DR 5"
        );
        assert_eq!(armor_dr(&breastplate(5), Bludgeoning), 0);
        let leather = RawArmor {
            name: "leather".into(),
            weight: ArmorWeight::Light,
            ac_bonus: 2,
            enhancement: 0,
            proficient: true,
        };
        assert_eq!(armor_dr(&leather, Slashing), 1);
        let padded = RawArmor {
            ac_bonus: 1,
            ..leather.clone()
        };
        assert_eq!(armor_dr(&padded, Slashing), 0, "light armor below AC 2");
        let heavy = RawArmor {
            weight: ArmorWeight::Heavy,
            ac_bonus: 8,
            ..leather
        };
        assert_eq!(armor_dr(&heavy, Piercing), 3);
        let gambeson = RawArmor {
            name: "gambeson".into(),
            weight: ArmorWeight::Light,
            ac_bonus: 1,
            enhancement: 0,
            proficient: true,
        };
        assert_eq!(armor_dr(&gambeson, Bludgeoning), 3);
        assert_eq!(armor_dr(&gambeson, Piercing), 0);
        let layered = [&gambeson, &heavy];
        assert_eq!(worn_dr(&layered, Bludgeoning), 3);
        assert_eq!(worn_dr(&layered, Slashing), 3);
    }

    #[test]
    fn dex_18_gives_two_attacks_of_opportunity() {
        let dex18 = crate::rules::abilities::tactical_modifier(18);
        assert_eq!(dex18, 4);
        assert_eq!(attacks_of_opportunity(dex18, true), 2);
        assert_eq!(attacks_of_opportunity(dex18, false), 1);
        assert_eq!(attacks_of_opportunity(2, true), 1);
        assert_eq!(attacks_of_opportunity(6, true), 3);
        assert_eq!(cautious_feet(30), 15);
        assert_eq!(cautious_feet(20), 10);
        assert_eq!(cautious_feet(40), 20);
        assert_eq!(cautious_feet(90), 45);
        assert_eq!(cautious_feet(50), 25);
        assert_eq!(cautious_feet(25), 10, "12.5' rounds down to 10'");
    }

    #[test]
    fn bloodied_below_half() {
        assert!(!is_bloodied(9, 18), "exactly half is not below half");
        assert!(is_bloodied(8, 18));
        assert!(is_bloodied(4, 9), "4.5 is half of 9");
        assert!(!is_bloodied(5, 9));
        assert_eq!(bloodied_modifier().value, -2);
    }

    #[test]
    fn the_composite_longbow_x3_critical_is_8_plus_2d8_plus_2() {
        let bow = DiceExpr::new(1, 8, 2);
        assert_eq!(critical_extra_dice(&bow, 3), 2);
        assert_eq!(weapon_critical(&bow, &[5, 3]), 8 + 5 + 3 + 2);
        assert_eq!(weapon_critical(&bow, &[1, 1]), 12, "the least it can be");
        assert_eq!(weapon_critical(&bow, &[8, 8]), 26, "the most");
    }

    #[test]
    fn the_scorching_ray_critical_is_24() {
        assert_eq!(spell_attack_critical(&[4, 6, 4, 2]), 24);
    }

    /// "A Natural 1 on a save doubles the damage dealt": a natural 1 that still succeeds (the
    /// victim's bonus high enough) doubles what the success deals — half of 10 is 5, doubled
    /// 10; negated, 0 stays 0 (it once doubled the full 10 to 20 either way).
    #[test]
    fn a_natural_1_on_a_save_doubles_the_damage_dealt_not_the_full_damage() {
        assert_eq!(damage_after_save(10, 1, true, true), 10);
        assert_eq!(damage_after_save(10, 1, true, false), 0);
        assert_eq!(damage_after_save(10, 1, false, false), 20);
    }

    #[test]
    fn natural_1_on_a_save_doubles_damage_and_natural_20_for_half_takes_none() {
        assert_eq!(damage_after_save(10, 1, false, true), 20);
        assert_eq!(damage_after_save(10, 20, true, true), 0);
        assert_eq!(damage_after_save(10, 15, true, true), 5);
        assert_eq!(damage_after_save(10, 15, false, true), 10);
        assert_eq!(natural_20_modifier(20).map(|m| m.value), Some(10));
        assert_eq!(natural_20_modifier(19), None);
    }

    #[test]
    fn massive_trauma_at_exactly_half_and_at_least_25() {
        assert!(massive_trauma_applies(30, 60), "exactly half");
        assert!(!massive_trauma_applies(29, 60));
        assert!(!massive_trauma_applies(20, 30), "half, but under 25");
        assert!(massive_trauma_applies(25, 30));
        assert!(massive_damage_applies(50, 100));
        assert!(!massive_damage_applies(49, 60));
        assert!(!massive_damage_applies(40, 60), "under 50");
    }

    #[test]
    fn shield_walls() {
        assert_eq!(shield_wall_bonus(2, false), 2);
        assert_eq!(shield_wall_bonus(2, true), 4);
    }
}
