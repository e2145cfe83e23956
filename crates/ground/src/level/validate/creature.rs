//! Each creature of the level: its template, name, faction and square, its numbers, its patrol,
//! its speed, its ability scores, its weapons and the lights it carries. Each check is a step of
//! its own, taken in the order a designer reads the entry; a creature whose entry cannot make a
//! creature (no name, no hit points, no speed) is left out after its problems are told.

use std::collections::HashMap;

use super::bestiary::Bestiary;
use super::{merge, unknown};
use crate::dice::DiceExpr;
use crate::grid::{DungeonGrid, GridPos, Terrain};
use crate::level::schema::{RawCreature, RawWeapon, Stance};
use crate::level::spans::Seg;
use crate::level::validate::Validator;
use crate::level::{
    AbilityScores, CarriedLightDef, CreatureDef, DiagnosticKind, FactionDef, SpeedBasis,
    StructuralDamage, WeaponDef,
};

/// What the checks of every creature share: the level's ground, factions and bestiary, and the
/// names and squares taken by the creatures before.
struct Roll<'a> {
    grid: &'a DungeonGrid,
    factions: &'a [FactionDef],
    bestiary: &'a Bestiary,
    names: HashMap<String, usize>,
    occupied: HashMap<GridPos, String>,
}

impl Validator<'_> {
    /// Every creature that makes one, in the level's order.
    pub(super) fn creatures(
        &mut self,
        raw: &[RawCreature],
        grid: &DungeonGrid,
        factions: &[FactionDef],
        bestiary: &Bestiary,
    ) -> Vec<CreatureDef> {
        let mut roll = Roll {
            grid,
            factions,
            bestiary,
            names: HashMap::new(),
            occupied: HashMap::new(),
        };
        raw.iter()
            .enumerate()
            .filter_map(|(i, entry)| self.creature(i, entry, &mut roll))
            .collect()
    }

    /// One creature, or `None` (its problems told) when its entry makes none.
    fn creature(&mut self, i: usize, entry: &RawCreature, roll: &mut Roll) -> Option<CreatureDef> {
        let c = self.templated(i, entry, roll.bestiary)?;
        let name = self.named(i, &c, roll)?;
        let faction = self.faction_of(i, &c, &name, roll.factions);
        let at = self.standing(i, &c, &name, roll);
        self.beneath(i, &c, &name);
        let (hp, ac) = self.hit_points_and_armor(i, &c, &name)?;
        let patrol = self.patrol(i, &c, &name, roll.grid);
        let mind = c.mind.clone().unwrap_or_default();
        if !patrol.is_empty() && mind.stance != Stance::Roam {
            // A route is walked by one who roams; a guard, a wanderer and a lair-dweller keep
            // to their own places.
            let pos = self.at(path!["creatures", i, "mind", "stance"]);
            self.error(
                DiagnosticKind::Inconsistent,
                pos,
                format!(
                    "`{name}` has a patrol route and the stance {:?}: a patrol is walked \
                     only by a creature that roams (leave `stance` out)",
                    mind.stance
                ),
            );
        }
        let speed = self.speed(i, &c, &name)?;
        let abilities = self.ability_scores(i, &c);
        let weapons = c.weapons.iter().flatten().enumerate();
        let weapons = weapons.filter_map(|(j, w)| self.weapon(i, j, w)).collect();
        if let Some(b) = c.attack_bonus {
            self.within(
                i64::from(b),
                -super::MAX_ATTACK_BONUS..=super::MAX_ATTACK_BONUS,
                path!["creatures", i, "attack_bonus"],
                "an attack bonus",
            );
        }
        let carries = self.carried_lights(i, &c);
        let (Some(faction), Some(at)) = (faction, at) else {
            return None;
        };
        Some(CreatureDef {
            name,
            template: c.template.clone(),
            faction,
            at,
            level: c.level.unwrap_or(0),
            class: c.class.clone(),
            abilities,
            hp,
            ac,
            speed,
            proficiencies: c.proficiencies.clone().unwrap_or_default(),
            throws: c.throws.clone().unwrap_or_default(),
            saves: c.saves.clone().unwrap_or_default(),
            carries,
            gear: c.gear.clone().unwrap_or_default(),
            lightless_vision_feet: c.lightless_vision_feet.unwrap_or(0),
            shadowy_senses: c.shadowy_senses.unwrap_or(false),
            size: c.size.unwrap_or_default(),
            attack_bonus: c.attack_bonus.unwrap_or(0),
            initiative_modifier: c.initiative_modifier,
            weapons,
            armor: c.armor.clone(),
            beneath: c.beneath.clone(),
            shield: c.shield.clone(),
            conditions: c.conditions.clone().unwrap_or_default(),
            fortitude: c.fortitude,
            touch_ac: c.touch_ac,
            mythic: c.mythic.unwrap_or(false),
            flees_when_bloodied: c.flees_when_bloodied.unwrap_or(false),
            judge: c.judge.clone().unwrap_or_default(),
            swim_feet: c.swim_feet,
            patrol,
            mind,
        })
    }

    /// The entry with its bestiary template's values where it gives none.
    fn templated(
        &mut self,
        i: usize,
        entry: &RawCreature,
        bestiary: &Bestiary,
    ) -> Option<RawCreature> {
        let Some(t) = &entry.template else {
            return Some(entry.clone());
        };
        if let Some(template) = bestiary.get(t) {
            return Some(merge(entry, template, t));
        }
        let pos = self.at(path!["creatures", i, "template"]);
        self.error(
            DiagnosticKind::UnknownName,
            pos,
            unknown("template", t, bestiary.names()),
        );
        None
    }

    /// Its name: given, printable, and no other creature's.
    fn named(&mut self, i: usize, c: &RawCreature, roll: &mut Roll) -> Option<String> {
        let Some(name) = c.name.clone() else {
            let here = self.at(path!["creatures", i]);
            self.error(
                DiagnosticKind::Missing,
                here,
                "creature has no `name` (give one, or a `template`)",
            );
            return None;
        };
        self.printable(&name, path!["creatures", i, "name"]);
        if let Some(first) = roll.names.insert(name.clone(), i) {
            let pos = self.at(path!["creatures", i, "name"]);
            self.error(
                DiagnosticKind::Duplicate,
                pos,
                format!(
                    "creature name `{name}` is used twice (also creatures[{first}]); names must \
                     be unique"
                ),
            );
        }
        Some(name)
    }

    /// The faction it belongs to, by its index among the level's.
    fn faction_of(
        &mut self,
        i: usize,
        c: &RawCreature,
        name: &str,
        factions: &[FactionDef],
    ) -> Option<usize> {
        let Some(f) = &c.faction else {
            let here = self.at(path!["creatures", i]);
            self.error(
                DiagnosticKind::Missing,
                here,
                format!("creature `{name}` has no `faction`"),
            );
            return None;
        };
        let found = factions.iter().position(|x| &x.name == f);
        if found.is_none() {
            let pos = self.at(path!["creatures", i, "faction"]);
            self.error(
                DiagnosticKind::UnknownName,
                pos,
                unknown("faction", f, factions.iter().map(|f| f.name.as_str())),
            );
        }
        found
    }

    /// The square it stands on: on the map, where one can stand, and (a warning) no one else's.
    fn standing(
        &mut self,
        i: usize,
        c: &RawCreature,
        name: &str,
        roll: &mut Roll,
    ) -> Option<GridPos> {
        let Some(at) = c.at else {
            let here = self.at(path!["creatures", i]);
            self.error(
                DiagnosticKind::Missing,
                here,
                format!("creature `{name}` has no `at` square"),
            );
            return None;
        };
        let grid = roll.grid;
        let p = self.square(
            at,
            path!["creatures", i, "at"],
            grid,
            &format!("creature `{name}`"),
        )?;
        if !grid.is_passable(p) {
            let pos = self.at(path!["creatures", i, "at"]);
            let t = grid.terrain(p).expect("in bounds");
            let what = if t == Terrain::Door {
                "a closed door".into()
            } else {
                format!("{t:?}")
            };
            self.error(
                DiagnosticKind::InTheWay,
                pos,
                format!("creature `{name}` at {p} stands in {what}, where no one can stand"),
            );
            return None;
        }
        if let Some(other) = roll.occupied.insert(p, name.to_owned()) {
            let pos = self.at(path!["creatures", i, "at"]);
            self.warning(
                DiagnosticKind::Duplicate,
                pos,
                format!("creature `{name}` shares {p} with `{other}`"),
            );
        }
        Some(p)
    }

    /// Only a gambeson is worn beneath armour, and only beneath some (Tactical Combat › Armor
    /// as Damage Reduction).
    fn beneath(&mut self, i: usize, c: &RawCreature, name: &str) {
        let Some(b) = &c.beneath else {
            return;
        };
        let pos = self.at(path!["creatures", i, "beneath"]);
        if !b.is_gambeson() {
            self.error(
                DiagnosticKind::BadValue,
                pos,
                format!(
                    "creature `{name}` wears a `{}` beneath its armor: only a gambeson is \
                     layered under other armor (Tactical Combat › Armor as Damage \
                     Reduction)",
                    b.name
                ),
            );
        } else if c.armor.is_none() {
            self.error(
                DiagnosticKind::Missing,
                pos,
                format!(
                    "creature `{name}` wears a gambeson beneath no armor: worn alone, it \
                     is its `armor`"
                ),
            );
        }
    }

    /// Its hit points (at least 1) and armour class, both needed.
    fn hit_points_and_armor(
        &mut self,
        i: usize,
        c: &RawCreature,
        name: &str,
    ) -> Option<(i32, i32)> {
        let (Some(hp), Some(ac)) = (c.hp, c.ac) else {
            let here = self.at(path!["creatures", i]);
            self.error(
                DiagnosticKind::Missing,
                here,
                format!("creature `{name}` needs `hp` and `ac` (from its entry or its template)"),
            );
            return None;
        };
        if hp < 1 {
            let pos = self.at(path!["creatures", i, "hp"]);
            self.error(
                DiagnosticKind::BadValue,
                pos,
                format!("creature `{name}` has {hp} hit points; at least 1 is needed"),
            );
        } else {
            self.within(
                i64::from(hp),
                1..=super::MAX_HIT_POINTS,
                path!["creatures", i, "hp"],
                "hit points",
            );
        }
        self.within(
            i64::from(ac),
            -super::MAX_ARMOR_CLASS..=super::MAX_ARMOR_CLASS,
            path!["creatures", i, "ac"],
            "an armour class",
        );
        Some((hp, ac))
    }

    /// A patrol route goes through squares one can stand on; a door on the way is walked
    /// through once it is open.
    fn patrol(
        &mut self,
        i: usize,
        c: &RawCreature,
        name: &str,
        grid: &DungeonGrid,
    ) -> Vec<GridPos> {
        let mut patrol = Vec::new();
        for (k, &xy) in c.patrol.iter().flatten().enumerate() {
            let route = path!["creatures", i, "patrol", k];
            let what = format!("the patrol route of `{name}`");
            let Some(p) = self.square(xy, route, grid, &what) else {
                continue;
            };
            if grid.is_passable(p) || grid.terrain(p) == Some(Terrain::Door) {
                patrol.push(p);
            } else {
                let pos = self.at(route);
                let t = grid.terrain(p).expect("in bounds");
                self.error(
                    DiagnosticKind::InTheWay,
                    pos,
                    format!("{what} goes through {p}, which is {t:?}, where no one can walk"),
                );
            }
        }
        patrol
    }

    /// Its speed: given in feet, or from the stone it carries (RULINGS: Encumbrance and speed).
    fn speed(&mut self, i: usize, c: &RawCreature, name: &str) -> Option<SpeedBasis> {
        match (c.speed_feet, c.encumbrance_stone) {
            (Some(feet), _) => Some(SpeedBasis::Explicit { feet }),
            (None, Some(stone)) if stone.is_finite() && stone >= 0.0 => {
                Some(SpeedBasis::Encumbrance { stone })
            }
            (None, Some(stone)) => {
                let pos = self.at(path!["creatures", i, "encumbrance_stone"]);
                self.error(
                    DiagnosticKind::BadValue,
                    pos,
                    format!("encumbrance of {stone} stone is not a weight"),
                );
                None
            }
            (None, None) => {
                let here = self.at(path!["creatures", i]);
                self.error(
                    DiagnosticKind::Missing,
                    here,
                    format!(
                        "creature `{name}` needs `speed_feet` or `encumbrance_stone` to move \
                         (RULINGS: Encumbrance and speed)"
                    ),
                );
                None
            }
        }
    }

    /// Its six scores, each 3–18. "Creatures are assumed to have DEX scores of 10 if not
    /// otherwise noted" (Dungeon Delves › Jumping); the same for every score.
    fn ability_scores(&mut self, i: usize, c: &RawCreature) -> AbilityScores {
        let mut score = |field: &'static str, value: Option<i32>| {
            let v = value.unwrap_or(10);
            if !(3..=18).contains(&v) {
                let pos = self.at(path!["creatures", i, field]);
                self.error(
                    DiagnosticKind::BadValue,
                    pos,
                    format!("`{field}` {v} is outside the ability score range 3-18"),
                );
            }
            v
        };
        AbilityScores {
            str: score("str", c.str),
            int: score("int", c.int),
            wis: score("wis", c.wis),
            dex: score("dex", c.dex),
            con: score("con", c.con),
            cha: score("cha", c.cha),
        }
    }

    /// One weapon: its damage, its enchantment's and its structural damage as dice, and a
    /// critical threat and multiplier within bounds.
    fn weapon(&mut self, i: usize, j: usize, w: &RawWeapon) -> Option<WeaponDef> {
        let enchantment = match &w.enchantment {
            None => None,
            Some(e) => match DiceExpr::parse(&e.damage) {
                Ok(d) => Some((e.name.clone(), d)),
                Err(why) => {
                    let pos = self.at(path!["creatures", i, "weapons", j, "enchantment", "damage"]);
                    self.error(DiagnosticKind::BadValue, pos, why);
                    None
                }
            },
        };
        let mut structural_dice = |field: &'static str, dice: &str| match DiceExpr::parse(dice) {
            Ok(d) => Some(d),
            Err(why) => {
                let at = path!["creatures", i, "weapons", j, "structural_damage", field];
                let pos = self.at(at);
                self.error(DiagnosticKind::BadValue, pos, why);
                None
            }
        };
        let structural = w.structural_damage.as_ref().and_then(|s| {
            let wood = structural_dice("wood", &s.wood);
            let stone = s.stone.as_ref().map(|d| structural_dice("stone", d));
            Some(StructuralDamage {
                wood: wood?,
                stone: match stone {
                    Some(d) => Some(d?),
                    None => None,
                },
            })
        });
        let critical = w.critical.unwrap_or_default();
        let crit_at = path!["creatures", i, "weapons", j, "critical"];
        let critical_ok = self.within(
            i64::from(critical.threat),
            2..=20,
            crit_at,
            "a critical threat (the lowest d20 face that threatens)",
        ) && self.within(
            i64::from(critical.multiplier),
            2..=super::MAX_CRITICAL_MULTIPLIER,
            crit_at,
            "a critical multiplier",
        );
        match DiceExpr::parse(&w.damage) {
            Ok(_) if !critical_ok => None,
            Ok(damage) => Some(WeaponDef {
                name: w.name.clone(),
                damage,
                damage_type: w.damage_type,
                range_feet: w.range_feet,
                critical,
                kind: w.kind,
                enchantment,
                structural,
            }),
            Err(e) => {
                let pos = self.at(path!["creatures", i, "weapons", j, "damage"]);
                self.error(DiagnosticKind::BadValue, pos, e);
                None
            }
        }
    }

    /// The lights it carries, each of a kind that is carried, with its fuel.
    fn carried_lights(&mut self, i: usize, c: &RawCreature) -> Vec<CarriedLightDef> {
        let mut carries = Vec::new();
        for (j, l) in c.carries.iter().flatten().enumerate() {
            if self.light_kind(l.kind, path!["creatures", i, "carries", j, "kind"]) {
                carries.push(CarriedLightDef {
                    kind: l.kind,
                    lit: l.lit,
                    fuel_turns: l.fuel_turns.or(l.kind.default_fuel_turns()),
                });
            }
        }
        carries
    }
}
