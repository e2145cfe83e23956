//! Faction initiative (Tactical Combat › Faction Initiative; RULINGS › Faction initiative).
//!
//! Each faction's modifier is its members' initiative modifiers averaged and rounded up; each
//! faction rolls d20 + modifier at the start of a battle, and factions act from the highest
//! result to the lowest, in the same order every round. Ties go to the higher modifier, then to
//! a roll-off. Before its faction has acted, a creature is flat-footed only against factions
//! whose result beats its own by 5 or more.

use serde::{Deserialize, Serialize};

use delve_ground::dice::Dice;

/// A faction's modifier: its members' modifiers summed and divided by their number, rounded up
/// (3, 2, 2 ⇒ 7 / 3 ⇒ 3).
fn faction_modifier(members: &[i32]) -> i32 {
    let n = members.len() as i32;
    if n == 0 {
        return 0;
    }
    let sum: i32 = members.iter().sum();
    // Rounding up, for negative sums too.
    -((-sum).div_euclid(n))
}

/// One faction's place in the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactionRoll {
    /// Index into the level's factions.
    pub faction: usize,
    pub name: String,
    /// Its members when it rolled, with their own modifiers.
    pub members: Vec<(String, i32)>,
    pub modifier: i32,
    /// The d20.
    pub roll: u32,
    pub result: i32,
    /// Roll-offs among factions tied on result and modifier, in order.
    pub roll_offs: Vec<u32>,
}

/// A faction entering a battle: its index in the level, its name, and its members with their
/// initiative modifiers.
pub type Entrant = (usize, String, Vec<(String, i32)>);

/// The acting order: highest result first; ties by the higher modifier, then by roll-offs.
fn sort(order: &mut [FactionRoll]) {
    order.sort_by(|a, b| {
        (b.result, b.modifier, &b.roll_offs)
            .cmp(&(a.result, a.modifier, &a.roll_offs))
            .then(a.faction.cmp(&b.faction))
    });
}

/// Rolls initiative for factions `(index, name, members with their modifiers)` and orders
/// them, rolling off ties of result and modifier until they part.
pub fn roll_initiative(dice: &mut Dice, factions: Vec<Entrant>) -> Vec<FactionRoll> {
    let mut order: Vec<FactionRoll> = factions
        .into_iter()
        .map(|(faction, name, members)| {
            let modifier = faction_modifier(&members.iter().map(|m| m.1).collect::<Vec<_>>());
            let roll = dice.roll(20);
            FactionRoll {
                faction,
                name,
                members,
                modifier,
                roll,
                result: roll as i32 + modifier,
                roll_offs: Vec::new(),
            }
        })
        .collect();
    roll_off_ties(dice, &mut order);
    order
}

/// Sorts `order`, and rolls off among factions still tied until none are.
pub(crate) fn roll_off_ties(dice: &mut Dice, order: &mut [FactionRoll]) {
    loop {
        sort(order);
        let mut tied = false;
        let mut i = 0;
        while i < order.len() {
            let key = (
                order[i].result,
                order[i].modifier,
                order[i].roll_offs.clone(),
            );
            let j = (i..order.len())
                .take_while(|&k| {
                    (
                        order[k].result,
                        order[k].modifier,
                        order[k].roll_offs.clone(),
                    ) == key
                })
                .count()
                + i;
            if j - i > 1 {
                tied = true;
                for f in &mut order[i..j] {
                    f.roll_offs.push(dice.roll(20));
                }
            }
            i = j;
        }
        if !tied {
            return;
        }
    }
}

/// Before its faction has acted, a creature is flat-footed only against a faction whose result
/// beats its own by 5 or more.
pub(crate) fn flat_footed_against(
    defender_result: i32,
    attacker_result: i32,
    defender_has_acted: bool,
) -> bool {
    !defender_has_acted && attacker_result - defender_result >= 5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_faction_modifier_is_the_average_rounded_up() {
        assert_eq!(faction_modifier(&[3, 2, 2]), 3);
        assert_eq!(faction_modifier(&[2, 2, 2]), 2);
        assert_eq!(faction_modifier(&[1, 0]), 1, "a half rounds up");
        assert_eq!(faction_modifier(&[-1, -2]), -1, "-1.5 rounds up to -1");
        assert_eq!(faction_modifier(&[]), 0);
    }

    fn roll(faction: usize, modifier: i32, d20: u32) -> FactionRoll {
        FactionRoll {
            faction,
            name: format!("f{faction}"),
            members: Vec::new(),
            modifier,
            roll: d20,
            result: d20 as i32 + modifier,
            roll_offs: Vec::new(),
        }
    }

    #[test]
    fn ties_go_to_the_higher_modifier_then_to_a_roll_off() {
        let mut dice = Dice::seeded(1);
        // 0 and 1 tie at 15; 1 has the higher modifier.
        let mut order = vec![roll(0, 1, 14), roll(1, 3, 12), roll(2, 0, 18)];
        roll_off_ties(&mut dice, &mut order);
        let ids: Vec<usize> = order.iter().map(|f| f.faction).collect();
        assert_eq!(ids, vec![2, 1, 0]);
        assert!(order.iter().all(|f| f.roll_offs.is_empty()));
        // 0 and 1 tie on result and modifier: a roll-off; the scripted die gives 1 a 17, 0 a 4.
        let mut order = vec![roll(0, 2, 10), roll(1, 2, 10)];
        dice.script([4, 17]);
        roll_off_ties(&mut dice, &mut order);
        let ids: Vec<usize> = order.iter().map(|f| f.faction).collect();
        assert_eq!(ids, vec![1, 0]);
        // A tied roll-off rolls again.
        let mut order = vec![roll(0, 2, 10), roll(1, 2, 10)];
        dice.script([9, 9, 3, 12]);
        roll_off_ties(&mut dice, &mut order);
        assert_eq!(order[0].faction, 1);
        assert_eq!(order[0].roll_offs, vec![9, 12]);
        assert_eq!(order[1].roll_offs, vec![9, 3]);
    }

    #[test]
    fn flat_footed_only_at_a_margin_of_five_before_acting() {
        assert!(flat_footed_against(10, 15, false));
        assert!(!flat_footed_against(10, 14, false));
        assert!(!flat_footed_against(10, 20, true), "after acting, never");
    }

    #[test]
    fn each_faction_rolls_d20_plus_its_modifier() {
        let mut dice = Dice::seeded(1);
        dice.script([7, 13]);
        let order = roll_initiative(
            &mut dice,
            vec![
                (
                    0,
                    "party".into(),
                    vec![("a".into(), 3), ("b".into(), 2), ("c".into(), 2)],
                ),
                (1, "ghouls".into(), vec![("g".into(), 1)]),
            ],
        );
        assert_eq!((order[0].name.as_str(), order[0].result), ("ghouls", 14));
        assert_eq!(
            (order[1].name.as_str(), order[1].modifier, order[1].result),
            ("party", 3, 10)
        );
    }
}
