//! The level's factions, its bestiary, its parties and who carries which key (each creature in
//! `creature.rs`).

use super::bestiary::{self, Bestiary};
use crate::level::spans::Seg;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{Includes, PALETTE, parse_color, unknown};
use crate::level::schema::{Gear, Lock, RawDoor, RawFaction};
use crate::level::validate::Validator;
use crate::level::{CreatureDef, DiagnosticKind, DoorDef, FactionDef};

impl Validator<'_> {
    /// A name is printed in the log line by line: a control character in it (a newline, a
    /// terminal's escape) would forge lines or colour the reader's terminal.
    pub(super) fn printable(&mut self, name: &str, path: &[Seg]) {
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
