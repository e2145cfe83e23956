//! Adventurers drawn at random within the bounds of their class, and what a generator needs to
//! know of them to say what a careful party achieves: who swims without a throw, who climbs
//! sheer rock, who carries what.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The dice of one drawing: every choice a generator makes comes from here, so the same
/// situation and seed draw the same level.
pub struct Draw {
    rng: ChaCha8Rng,
    names: Vec<&'static str>,
}

const NAMES: &[&str] = &[
    "Ada", "Hild", "Pim", "Oswin", "Wyn", "Pell", "Brand", "Mara", "Tobin", "Sef", "Ilse", "Garth",
    "Nell", "Corin", "Edda", "Ulf", "Rook", "Tamsin", "Bryn", "Aldo", "Kell", "Maud", "Orrin",
    "Sable",
];

impl Draw {
    /// The drawing of `situation` with `seed`: each situation's seeds are its own.
    pub fn new(situation: &str, seed: u64) -> Self {
        let salt = situation.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt);
        let mut names = NAMES.to_vec();
        names.shuffle(&mut rng);
        Draw { rng, names }
    }

    /// A whole number from `lo` to `hi`, both included.
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        self.rng.random_range(lo..=hi)
    }

    /// True with chance `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    pub fn pick<T: Copy>(&mut self, of: &[T]) -> T {
        of[self.rng.random_range(0..of.len())]
    }

    pub fn shuffle<T>(&mut self, of: &mut [T]) {
        of.shuffle(&mut self.rng);
    }

    /// A name no other adventurer of this drawing has.
    pub fn name(&mut self) -> &'static str {
        self.names.pop().expect("more names than adventurers")
    }
}

/// The armour a fighter wears: how heavy it is decides whether it swims.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Armour {
    Light,
    Medium,
    Heavy,
}

/// A light carried: its kind (`Torch`, `Lantern`), whether it burns, and the turns of fuel it
/// has left when not the rules' full measure.
#[derive(Clone, Debug)]
pub struct Carried {
    pub kind: &'static str,
    pub lit: bool,
    pub fuel_turns: Option<i32>,
}

/// One adventurer, as the level file writes it, and what the generator reads of it.
#[derive(Clone, Debug)]
pub struct Adventurer {
    pub name: &'static str,
    pub class: &'static str,
    pub hp: i32,
    pub ac: i32,
    /// Encumbrance in stone: the Swimming throw's target (Dungeon Delves › Swimming).
    pub stone: f64,
    pub proficiencies: Vec<&'static str>,
    pub throws: Vec<(&'static str, i32)>,
    pub gear: Vec<String>,
    /// Lights carried.
    pub carries: Vec<Carried>,
    pub conditions: Vec<&'static str>,
    fields: Vec<String>,
}

impl Adventurer {
    fn new(name: &'static str, class: &'static str, hp: i32, ac: i32, stone: f64) -> Self {
        Adventurer {
            name,
            class,
            hp,
            ac,
            stone,
            proficiencies: Vec::new(),
            throws: Vec::new(),
            gear: Vec::new(),
            carries: Vec::new(),
            conditions: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// Stays afloat in water over the head with no throw: the Swimming proficiency's +4 brings
    /// the target (its encumbrance in stone) to 0 or better (Dungeon Delves › Swimming and
    /// Drowning).
    pub fn swims_without_a_throw(&self) -> bool {
        self.proficiencies.contains(&"Swimming") && self.stone - 4.0 <= 0.0
    }

    /// Climbs sheer rock: only those with the Climbing proficiency may (Dungeon Delves ›
    /// Climbing).
    pub fn climbs(&self) -> bool {
        self.proficiencies.contains(&"Climbing")
    }

    pub fn proficient(&mut self, what: &'static str, throw: Option<i32>) -> &mut Self {
        self.proficiencies.push(what);
        if let Some(t) = throw {
            self.throws.push((what, t));
        }
        self
    }

    /// Its Climbing throw made `t` (a surer climber).
    pub fn climbing_throw(&mut self, t: i32) -> &mut Self {
        for (what, throw) in &mut self.throws {
            if *what == "Climbing" {
                *throw = t;
            }
        }
        self
    }

    pub fn with_gear(&mut self, gear: &str) -> &mut Self {
        self.gear.push(gear.to_owned());
        self
    }

    /// Torches: the first lit.
    pub fn with_torches(&mut self, n: usize) -> &mut Self {
        for i in 0..n {
            self.carries.push(Carried {
                kind: "Torch",
                lit: i == 0,
                fuel_turns: None,
            });
        }
        self
    }

    /// The creature entry for the level file.
    pub fn ron(&self, faction: &str, at: (i32, i32)) -> String {
        let mut out = format!(
            "(name: {:?}, faction: {faction:?}, at: ({}, {}), class: {:?}, hp: {}, ac: {}, \
             encumbrance_stone: {:.1}",
            self.name, at.0, at.1, self.class, self.hp, self.ac, self.stone
        );
        for f in &self.fields {
            out += ", ";
            out += f;
        }
        if !self.proficiencies.is_empty() {
            out += &format!(", proficiencies: [{}]", self.proficiencies.join(", "));
        }
        if !self.throws.is_empty() {
            let t: Vec<String> = self
                .throws
                .iter()
                .map(|(p, t)| format!("{p}: {t}"))
                .collect();
            out += &format!(", throws: {{ {} }}", t.join(", "));
        }
        if !self.gear.is_empty() {
            out += &format!(", gear: [{}]", self.gear.join(", "));
        }
        if !self.carries.is_empty() {
            let c: Vec<String> = self
                .carries
                .iter()
                .map(|c| match c.fuel_turns {
                    Some(f) => format!("(kind: {}, lit: {}, fuel_turns: {f})", c.kind, c.lit),
                    None => format!("(kind: {}, lit: {})", c.kind, c.lit),
                })
                .collect();
            out += &format!(", carries: [{}]", c.join(", "));
        }
        if !self.conditions.is_empty() {
            out += &format!(", conditions: [{}]", self.conditions.join(", "));
        }
        out + ")"
    }
}

const WEAPONS: &[(&str, &str, &str)] = &[
    ("sword", "1d8", "Slashing"),
    ("spear", "1d8", "Piercing"),
    ("axe", "1d8", "Slashing"),
    ("mace", "1d6+1", "Bludgeoning"),
];

fn weapon((name, damage, kind): (&str, &str, &str)) -> String {
    format!("weapons: [(name: {name:?}, damage: {damage:?}, damage_type: {kind})]")
}

/// A fighter in one of `armour`: plate makes it heavy (7–8 stone), chain 5½–6½, leather
/// 3½–4½.
pub fn fighter(d: &mut Draw, armour: &[Armour]) -> Adventurer {
    let armour = d.pick(armour);
    let name = d.name();
    let (stone, armor, bonus, weight) = match armour {
        Armour::Light => (f64::from(d.int(7, 9)) / 2.0, "leather armor", 2, "Light"),
        Armour::Medium => (f64::from(d.int(11, 13)) / 2.0, "chain mail", 4, "Medium"),
        Armour::Heavy => (f64::from(d.int(14, 16)) / 2.0, "plate armor", 6, "Heavy"),
    };
    let dex = d.int(9, 13);
    let mut a = Adventurer::new(
        name,
        "fighter",
        d.int(9, 16),
        10 + bonus + i32::from(dex >= 13),
        stone,
    );
    a.fields = vec![
        format!("level: {}", d.int(1, 3)),
        format!("str: {}, dex: {dex}, con: {}", d.int(13, 17), d.int(11, 15)),
        format!("attack_bonus: {}", d.int(1, 3)),
        "saves: { Paralysis: 14, Death: 13, Blast: 15, Implements: 16, Spells: 17 }".into(),
        format!("armor: Some((name: {armor:?}, weight: {weight}, ac_bonus: {bonus}))"),
        weapon(d.pick(WEAPONS)),
    ];
    a
}

/// A thief: light (2–3 stone), searches, picks locks and breaks traps (throws 12–16).
pub fn thief(d: &mut Draw) -> Adventurer {
    let name = d.name();
    let mut a = Adventurer::new(
        name,
        "thief",
        d.int(5, 9),
        d.int(12, 14),
        f64::from(d.int(4, 6)) / 2.0,
    );
    a.fields = vec![
        format!("level: {}", d.int(1, 3)),
        format!("dex: {}", d.int(14, 17)),
        format!("attack_bonus: {}", d.int(0, 1)),
        "saves: { Paralysis: 14, Death: 13, Blast: 15, Implements: 16, Spells: 17 }".into(),
        weapon(("short sword", "1d6", "Piercing")),
    ];
    let (s, l, t) = (d.int(12, 16), d.int(12, 16), d.int(12, 16));
    a.proficient("Searching", Some(s))
        .proficient("Lockpicking", Some(l))
        .proficient("Trapbreaking", Some(t))
        .with_gear("ThievesTools");
    a
}

/// An explorer: light, climbs (throw 5–8), and swims when drawn so.
pub fn explorer(d: &mut Draw, swims: bool) -> Adventurer {
    let name = d.name();
    let mut a = Adventurer::new(
        name,
        "explorer",
        d.int(8, 13),
        d.int(12, 14),
        f64::from(d.int(4, 7)) / 2.0,
    );
    a.fields = vec![
        format!("level: {}", d.int(1, 3)),
        format!("str: {}, dex: {}", d.int(11, 14), d.int(12, 16)),
        format!("attack_bonus: {}", d.int(1, 2)),
        "saves: { Paralysis: 13, Death: 12, Blast: 14, Implements: 14, Spells: 15 }".into(),
        weapon(("spear", "1d8", "Piercing")),
    ];
    let c = d.int(5, 8);
    a.proficient("Climbing", Some(c));
    if swims {
        a.proficient("Swimming", None);
    }
    a
}

/// A mage: frail (3–6 hit points) and light.
pub fn mage(d: &mut Draw) -> Adventurer {
    let name = d.name();
    let mut a = Adventurer::new(
        name,
        "mage",
        d.int(3, 6),
        d.int(10, 11),
        f64::from(d.int(2, 4)) / 2.0,
    );
    a.fields = vec![
        format!("level: {}", d.int(1, 3)),
        format!("int: {}", d.int(14, 17)),
        "attack_bonus: 0".into(),
        "saves: { Paralysis: 13, Death: 13, Blast: 15, Implements: 11, Spells: 12 }".into(),
        weapon(("dagger", "1d4", "Piercing")),
    ];
    a
}

/// The party's faction entry, marching in the order given.
pub fn party_faction(members: &[&Adventurer]) -> String {
    let order: Vec<String> = members.iter().map(|m| format!("{:?}", m.name)).collect();
    format!("(name: \"party\", marching_order: [{}])", order.join(", "))
}
