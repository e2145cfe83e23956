//! The level's creatures: factions, the bestiary, each creature, the parties and who carries which key.

use super::bestiary::{self, Bestiary};
use crate::dice::DiceExpr;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::spans::Seg;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{Includes, PALETTE, merge, parse_color, unknown};
use crate::level::AbilityScores;
use crate::level::CarriedLightDef;
use crate::level::CreatureDef;
use crate::level::DiagnosticKind;
use crate::level::DoorDef;
use crate::level::FactionDef;
use crate::level::SpeedBasis;
use crate::level::WeaponDef;
use crate::level::schema::Gear;
use crate::level::schema::Lock;
use crate::level::schema::RawCreature;
use crate::level::schema::RawDoor;
use crate::level::schema::RawFaction;
use crate::level::schema::Stance;
use crate::level::schema::Terrain;
use crate::level::validate::Validator;

impl Validator<'_> {
    /// A name is printed in the log line by line: a control character in it (a newline, a
    /// terminal's escape) would forge lines or colour the reader's terminal.
    fn printable(&mut self, name: &str, path: &[Seg]) {
        if let Some(c) = name.chars().find(|c| c.is_control()) {
            let pos = self.at(path);
            self.error(
                DiagnosticKind::BadValue,
                pos,
                format!(
                    "the name {name:?} holds the control character {:?}: a name is printable text",
                    c
                ),
            );
        }
    }

    pub(super) fn factions(&mut self, raw: &[RawFaction]) -> Vec<FactionDef> {
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, f) in raw.iter().enumerate() {
            self.printable(&f.name, path!["factions", i, "name"]);
            if index.insert(&f.name, i).is_some() {
                let pos = self.at(path!["factions", i, "name"]);
                self.error(
                    DiagnosticKind::Duplicate,
                    pos,
                    format!("faction `{}` is named twice", f.name),
                );
            }
        }
        let mut out = Vec::new();
        for (i, f) in raw.iter().enumerate() {
            let mut hostile_to = Vec::new();
            for (j, h) in f.hostile_to.iter().enumerate() {
                match index.get(h.as_str()) {
                    Some(&k) => hostile_to.push(k),
                    None => {
                        let pos = self.at(path!["factions", i, "hostile_to", j]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            unknown("faction", h, raw.iter().map(|f| f.name.as_str())),
                        );
                    }
                }
            }
            let color = match &f.color {
                None => PALETTE[i % PALETTE.len()],
                Some(c) => parse_color(c).unwrap_or_else(|| {
                    let pos = self.at(path!["factions", i, "color"]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("colour `{c}` is not of the form \"#rrggbb\""),
                    );
                    PALETTE[i % PALETTE.len()]
                }),
            };
            out.push(FactionDef {
                name: f.name.clone(),
                hostile_to,
                color,
                marching_order: Vec::new(),
                mapper: None,
            });
        }
        out
    }

    pub(super) fn bestiary(&mut self, files: &[String], includes: Includes) -> Bestiary {
        let mut b = Bestiary::builtin();
        for (i, f) in files.iter().enumerate() {
            let (path, text) = match includes {
                Includes::Dir(base_dir) => {
                    let path = base_dir.map_or_else(|| Path::new(f).to_path_buf(), |d| d.join(f));
                    let text = crate::files::read_text(&path);
                    (path, text)
                }
                Includes::Given(given) => (
                    Path::new(f).to_path_buf(),
                    given
                        .iter()
                        .find(|(name, _)| name == f)
                        .map(|(_, text)| text.clone())
                        .ok_or_else(|| {
                            std::io::Error::new(
                                std::io::ErrorKind::NotFound,
                                "not among the files kept with the level",
                            )
                        }),
                ),
            };
            match text {
                Ok(src) => b.add_source(&src, &path.display().to_string(), &mut self.problems),
                Err(e) => {
                    let pos = self.at(path!["bestiary", i]);
                    let d = bestiary::unreadable(self.file, pos, &path.display().to_string(), &e);
                    self.problems.push(d);
                }
            }
        }
        b
    }

    pub(super) fn creatures(
        &mut self,
        raw: &[RawCreature],
        grid: &DungeonGrid,
        factions: &[FactionDef],
        bestiary: &Bestiary,
    ) -> Vec<CreatureDef> {
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut occupied: HashMap<GridPos, String> = HashMap::new();
        let mut out = Vec::new();
        for (i, entry) in raw.iter().enumerate() {
            let c = match &entry.template {
                None => entry.clone(),
                Some(t) => match bestiary.get(t) {
                    Some(template) => merge(entry, template, t),
                    None => {
                        let pos = self.at(path!["creatures", i, "template"]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            unknown("template", t, bestiary.names()),
                        );
                        continue;
                    }
                },
            };
            let here = self.at(path!["creatures", i]);
            let Some(name) = c.name.clone() else {
                self.error(
                    DiagnosticKind::Missing,
                    here,
                    "creature has no `name` (give one, or a `template`)",
                );
                continue;
            };
            self.printable(&name, path!["creatures", i, "name"]);
            if let Some(first) = names.insert(name.clone(), i) {
                let pos = self.at(path!["creatures", i, "name"]);
                self.error(DiagnosticKind::Duplicate,
                    pos,
                    format!("creature name `{name}` is used twice (also creatures[{first}]); names must be unique"),
                );
            }
            let faction = match &c.faction {
                None => {
                    self.error(
                        DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` has no `faction`"),
                    );
                    None
                }
                Some(f) => {
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
            };
            let at = match c.at {
                None => {
                    self.error(
                        DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` has no `at` square"),
                    );
                    None
                }
                Some(at) => self
                    .square(
                        at,
                        path!["creatures", i, "at"],
                        grid,
                        &format!("creature `{name}`"),
                    )
                    .filter(|&p| {
                        if grid.is_passable(p) {
                            return true;
                        }
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
                            format!(
                                "creature `{name}` at {p} stands in {what}, where no one can stand"
                            ),
                        );
                        false
                    }),
            };
            if let Some(p) = at
                && let Some(other) = occupied.insert(p, name.clone())
            {
                let pos = self.at(path!["creatures", i, "at"]);
                self.warning(
                    DiagnosticKind::Duplicate,
                    pos,
                    format!("creature `{name}` shares {p} with `{other}`"),
                );
            }
            if let Some(b) = &c.beneath {
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
            let (Some(hp), Some(ac)) = (c.hp, c.ac) else {
                self.error(
                    DiagnosticKind::Missing,
                    here,
                    format!(
                        "creature `{name}` needs `hp` and `ac` (from its entry or its template)"
                    ),
                );
                continue;
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
            // A patrol route goes through squares one can stand on.
            let mut patrol = Vec::new();
            for (k, &xy) in c.patrol.iter().flatten().enumerate() {
                let route = path!["creatures", i, "patrol", k];
                let what = format!("the patrol route of `{name}`");
                let Some(p) = self.square(xy, route, grid, &what) else {
                    continue;
                };
                // A door on the way is walked through once it is open.
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
            // A route is walked by one who roams; a guard, a wanderer and a lair-dweller keep
            // to their own places.
            let mind = c.mind.clone().unwrap_or_default();
            if !patrol.is_empty() && mind.stance != Stance::Roam {
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
            let speed = match (c.speed_feet, c.encumbrance_stone) {
                (Some(feet), _) => SpeedBasis::Explicit { feet },
                (None, Some(stone)) if stone.is_finite() && stone >= 0.0 => {
                    SpeedBasis::Encumbrance { stone }
                }
                (None, Some(stone)) => {
                    let pos = self.at(path!["creatures", i, "encumbrance_stone"]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("encumbrance of {stone} stone is not a weight"),
                    );
                    continue;
                }
                (None, None) => {
                    self.error(DiagnosticKind::Missing,
                        here,
                        format!("creature `{name}` needs `speed_feet` or `encumbrance_stone` to move (RULINGS: Encumbrance and speed)"),
                    );
                    continue;
                }
            };
            let mut scores = [0; 6];
            for (k, (field, value)) in [
                ("str", c.str),
                ("int", c.int),
                ("wis", c.wis),
                ("dex", c.dex),
                ("con", c.con),
                ("cha", c.cha),
            ]
            .into_iter()
            .enumerate()
            {
                // "Creatures are assumed to have DEX scores of 10 if not otherwise noted"
                // (Dungeon Delves › Jumping); the same for every score.
                let v = value.unwrap_or(10);
                if !(3..=18).contains(&v) {
                    let pos = self.at(path!["creatures", i, field]);
                    self.error(
                        DiagnosticKind::BadValue,
                        pos,
                        format!("`{field}` {v} is outside the ability score range 3-18"),
                    );
                }
                scores[k] = v;
            }
            let mut weapons = Vec::new();
            for (j, w) in c.weapons.iter().flatten().enumerate() {
                let enchantment = match &w.enchantment {
                    None => None,
                    Some(e) => match DiceExpr::parse(&e.damage) {
                        Ok(d) => Some((e.name.clone(), d)),
                        Err(why) => {
                            let pos = self.at(path![
                                "creatures",
                                i,
                                "weapons",
                                j,
                                "enchantment",
                                "damage"
                            ]);
                            self.error(DiagnosticKind::BadValue, pos, why);
                            None
                        }
                    },
                };
                let mut structural_dice =
                    |field: &'static str, dice: &str| match DiceExpr::parse(dice) {
                        Ok(d) => Some(d),
                        Err(why) => {
                            let pos = self.at(path![
                                "creatures",
                                i,
                                "weapons",
                                j,
                                "structural_damage",
                                field
                            ]);
                            self.error(DiagnosticKind::BadValue, pos, why);
                            None
                        }
                    };
                let structural = w.structural_damage.as_ref().and_then(|s| {
                    let wood = structural_dice("wood", &s.wood);
                    let stone = s.stone.as_ref().map(|d| structural_dice("stone", d));
                    Some(crate::level::StructuralDamage {
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
                    Ok(_) if !critical_ok => {}
                    Ok(damage) => weapons.push(WeaponDef {
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
                    }
                }
            }
            if let Some(b) = c.attack_bonus {
                self.within(
                    i64::from(b),
                    -super::MAX_ATTACK_BONUS..=super::MAX_ATTACK_BONUS,
                    path!["creatures", i, "attack_bonus"],
                    "an attack bonus",
                );
            }
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
            let (Some(faction), Some(at)) = (faction, at) else {
                continue;
            };
            out.push(CreatureDef {
                name,
                template: c.template.clone(),
                faction,
                at,
                level: c.level.unwrap_or(0),
                class: c.class.clone(),
                abilities: AbilityScores {
                    str: scores[0],
                    int: scores[1],
                    wis: scores[2],
                    dex: scores[3],
                    con: scores[4],
                    cha: scores[5],
                },
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
            });
        }
        out
    }

    /// Marching orders and mappers name creatures of their own faction, each member once.
    pub(super) fn parties(
        &mut self,
        raw: &[RawFaction],
        mut factions: Vec<FactionDef>,
        creatures: &[CreatureDef],
    ) -> Vec<FactionDef> {
        for (i, (f, def)) in raw.iter().zip(factions.iter_mut()).enumerate() {
            let member = |name: &str| {
                creatures
                    .iter()
                    .position(|c| c.name == name && c.faction == i)
            };
            for (j, name) in f.marching_order.iter().enumerate() {
                match member(name) {
                    Some(k) if def.marching_order.contains(&k) => {
                        let pos = self.at(path!["factions", i, "marching_order", j]);
                        self.error(
                            DiagnosticKind::Duplicate,
                            pos,
                            format!("`{name}` is in the marching order twice"),
                        );
                    }
                    Some(k) => def.marching_order.push(k),
                    None => {
                        let pos = self.at(path!["factions", i, "marching_order", j]);
                        self.error(
                            DiagnosticKind::UnknownName,
                            pos,
                            format!(
                                "`{name}` in the marching order is not a creature of faction `{}`",
                                f.name
                            ),
                        );
                    }
                }
            }
            if !f.marching_order.is_empty() {
                let missing: Vec<&str> = creatures
                    .iter()
                    .enumerate()
                    .filter(|(k, c)| c.faction == i && !def.marching_order.contains(k))
                    .map(|(_, c)| c.name.as_str())
                    .collect();
                if !missing.is_empty() {
                    let pos = self.at(path!["factions", i, "marching_order"]);
                    self.error(
                        DiagnosticKind::Inconsistent,
                        pos,
                        format!("the marching order leaves out {}", missing.join(", ")),
                    );
                }
            }
            if let Some(m) = &f.mapper {
                match member(m) {
                    Some(k) if f.marching_order.is_empty() || def.marching_order.contains(&k) => {
                        def.mapper = Some(k)
                    }
                    _ => {
                        let pos = self.at(path!["factions", i, "mapper"]);
                        self.error(
                            DiagnosticKind::Inconsistent,
                            pos,
                            format!("mapper `{m}` is not a member of party `{}`", f.name),
                        );
                    }
                }
            }
        }
        factions
    }

    /// A key for a door that no one can ever hold is worth a warning.
    pub(super) fn keys(&mut self, raw: &[RawDoor], doors: &[DoorDef], creatures: &[CreatureDef]) {
        let held: HashSet<&str> = creatures
            .iter()
            .flat_map(|c| c.gear.iter())
            .filter_map(|g| match g {
                Gear::Key(k) => Some(k.as_str()),
                _ => None,
            })
            .collect();
        for d in doors {
            if let Lock::Locked { key: Some(k) } = &d.door.lock
                && !held.contains(k.as_str())
            {
                let i = raw
                    .iter()
                    .position(|r| r.at == (d.at.x as i64, d.at.y as i64))
                    .unwrap_or(0);
                let pos = self.at(path!["doors", i, "lock"]);
                self.warning(DiagnosticKind::Inconsistent,
                    pos,
                    format!("door at {} opens with the key `{k}`, but no creature carries it (gear: [Key(\"{k}\")])", d.at),
                );
            }
        }
    }
}
