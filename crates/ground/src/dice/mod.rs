//! Dice: one seeded generator for the whole simulation, dice expressions like `2d6+1`, and
//! throws (RULINGS › Dice and throws: d20 + modifiers ≥ target) that carry every modifier with its
//! source so the log can show why a throw failed.

use std::fmt;

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The simulation's only source of randomness. Same seed ⇒ same rolls, in the same order.
#[derive(Resource, Clone, Debug)]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
    /// Faces to come up before the generator is asked, in order (a scripted die).
    script: std::collections::VecDeque<u32>,
}

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            script: Default::default(),
        }
    }

    /// The next dice rolled show these faces, in order, whatever their sides (a face larger
    /// than the die wraps round, so a roll stays on the die); then the seeded generator goes on.
    /// For tests and worked examples that need an exact outcome.
    pub fn script(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.script.extend(faces);
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the generator's stream stands, and the scripted faces still to come: two dice
    /// at the same position give the same rolls (the turn checks hash it).
    pub fn position(&self) -> (u128, Vec<u32>) {
        (
            self.rng.get_word_pos(),
            self.script.iter().copied().collect(),
        )
    }

    /// One die of `sides` faces: 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        match self.script.pop_front() {
            Some(face) => (face.max(1) - 1) % sides + 1,
            None => self.rng.random_range(1..=sides),
        }
    }

    /// Rolls a dice expression, keeping each die.
    pub fn roll_expr(&mut self, expr: &DiceExpr) -> DiceRoll {
        let dice = (0..expr.count).map(|_| self.roll(expr.sides)).collect();
        DiceRoll::new(*expr, dice)
    }

    /// A throw: d20 + modifiers against a target.
    pub fn throw(
        &mut self,
        what: impl Into<String>,
        modifiers: Vec<Modifier>,
        target: i32,
    ) -> Throw {
        let natural = self.roll(20);
        Throw::resolve(what.into(), natural, modifiers, target)
    }
}

/// The chance that d20 comes up at or above `target` (a throw's target less its modifiers).
pub fn d20_chance(target: i32) -> f32 {
    (21 - target).clamp(0, 20) as f32 / 20.0
}

/// The largest number in a dice expression, either way (and the most dice, and sides).
pub const MAX_DICE_NUMBER: i32 = 1000;

/// `NdS+B`: N dice of S sides plus a bonus (which may be negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
    pub bonus: i32,
}

impl DiceExpr {
    pub const fn new(count: u32, sides: u32, bonus: i32) -> Self {
        Self {
            count,
            sides,
            bonus,
        }
    }

    /// Parses `2d6`, `d20`, `1d8+2`, `3d4-1` or a plain number.
    pub fn parse(s: &str) -> Result<Self, String> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let bad =
            || format!("`{s}` is not a dice expression (expected like `2d6`, `1d8+2` or `3`)");
        let (dice, bonus) = match t.find(['+', '-']) {
            Some(i) if i > 0 => {
                let b: i32 = t[i..].parse().map_err(|_| bad())?;
                (&t[..i], b)
            }
            Some(_) => return Err(bad()),
            None => (&t[..], 0),
        };
        // (Numbers are bounded as the dice are: a total never overflows.)
        let number = |n: i32| {
            if (-MAX_DICE_NUMBER..=MAX_DICE_NUMBER).contains(&n) {
                Ok(n)
            } else {
                Err(format!(
                    "`{s}`: a number in dice is -{MAX_DICE_NUMBER} to {MAX_DICE_NUMBER}"
                ))
            }
        };
        let bonus = number(bonus)?;
        match dice.split_once(['d', 'D']) {
            Some((n, sides)) => {
                let count = if n.is_empty() {
                    1
                } else {
                    n.parse().map_err(|_| bad())?
                };
                let sides: u32 = sides.parse().map_err(|_| bad())?;
                if count == 0
                    || count > MAX_DICE_NUMBER as u32
                    || sides == 0
                    || sides > MAX_DICE_NUMBER as u32
                {
                    return Err(format!(
                        "`{s}`: dice need 1 to 1000 dice of 1 to 1000 sides"
                    ));
                }
                Ok(Self::new(count, sides, bonus))
            }
            None => {
                let n: i32 = number(dice.parse().map_err(|_| bad())?)?;
                Ok(Self::new(0, 0, n + bonus))
            }
        }
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.bonus);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

/// The dice of one roll and their total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoll {
    pub expr: DiceExpr,
    pub dice: Vec<u32>,
    pub total: i32,
}

impl DiceRoll {
    pub fn new(expr: DiceExpr, dice: Vec<u32>) -> Self {
        let total = dice.iter().map(|&d| d as i32).sum::<i32>() + expr.bonus;
        Self { expr, dice, total }
    }
}

/// One named modifier to a throw and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub value: i32,
    pub source: String,
}

impl Modifier {
    pub fn new(value: i32, source: impl Into<String>) -> Self {
        Self {
            value,
            source: source.into(),
        }
    }
}

/// A resolved throw: the natural die, each modifier, the total, the target and the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Throw {
    pub what: String,
    pub natural: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub target: i32,
    pub success: bool,
}

impl Throw {
    /// d20 + modifiers ≥ target.
    pub fn resolve(what: String, natural: u32, modifiers: Vec<Modifier>, target: i32) -> Self {
        let total = natural as i32 + modifiers.iter().map(|m| m.value).sum::<i32>();
        Self {
            what,
            natural,
            modifiers,
            total,
            target,
            success: total >= target,
        }
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: d20 {}", self.what, self.natural)?;
        for m in &self.modifiers {
            let sign = if m.value < 0 { '-' } else { '+' };
            write!(f, " {sign}{} ({})", m.value.abs(), m.source)?;
        }
        write!(
            f,
            " = {} vs {}+: {}",
            self.total,
            self.target,
            if self.success { "success" } else { "failure" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = Dice::seeded(42);
        let mut b = Dice::seeded(42);
        let ra: Vec<u32> = (0..100).map(|_| a.roll(20)).collect();
        let rb: Vec<u32> = (0..100).map(|_| b.roll(20)).collect();
        assert_eq!(ra, rb);
        let mut c = Dice::seeded(43);
        let rc: Vec<u32> = (0..100).map(|_| c.roll(20)).collect();
        assert_ne!(ra, rc);
    }

    #[test]
    fn rolls_stay_on_the_die() {
        let mut d = Dice::seeded(7);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let r = d.roll(6) as usize;
            assert!((1..=6).contains(&r));
            seen[r] = true;
        }
        assert!(seen[1..].iter().all(|&s| s), "every face comes up");
    }

    #[test]
    fn a_scripted_die_shows_its_faces_then_the_seed_goes_on() {
        let mut d = Dice::seeded(7);
        d.script([20, 1, 9]);
        assert_eq!((d.roll(20), d.roll(6), d.roll(6)), (20, 1, 3));
        let mut plain = Dice::seeded(7);
        assert_eq!(d.roll(20), plain.roll(20));
    }

    #[test]
    fn parses_dice_expressions() {
        assert_eq!(DiceExpr::parse("2d6"), Ok(DiceExpr::new(2, 6, 0)));
        assert_eq!(DiceExpr::parse("d20"), Ok(DiceExpr::new(1, 20, 0)));
        assert_eq!(DiceExpr::parse("1d8+2"), Ok(DiceExpr::new(1, 8, 2)));
        assert_eq!(DiceExpr::parse("3d4 - 1"), Ok(DiceExpr::new(3, 4, -1)));
        assert_eq!(DiceExpr::parse("7"), Ok(DiceExpr::new(0, 0, 7)));
        for bad in ["", "d", "2d", "x", "-3", "2d6+", "0d6", "2d0"] {
            assert!(DiceExpr::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(DiceExpr::new(2, 6, -1).to_string(), "2d6-1");
    }

    #[test]
    fn throws_sum_their_modifiers() {
        let t = Throw::resolve(
            "Dungeonbashing".into(),
            5,
            vec![
                Modifier::new(12, "Strength 18"),
                Modifier::new(2, "crowbar"),
            ],
            18,
        );
        assert_eq!(t.total, 19);
        assert!(t.success);
        assert_eq!(
            t.to_string(),
            "Dungeonbashing: d20 5 +12 (Strength 18) +2 (crowbar) = 19 vs 18+: success"
        );
    }
}
