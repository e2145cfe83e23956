//! A level drawn in code and written as the level file's RON (`LEVEL_FORMAT.md`), and the
//! expectations that go with it (README › Expectations a level must keep): what a situation's
//! generator fills in. The level is read back through the loader like any other, so a drawing
//! the format refuses is an error with its place, not a level played wrongly.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::party::{Adventurer, party_faction};

/// A square of the map, `(x, y)` from the top-left corner.
pub type Square = (i32, i32);

/// A level being drawn: a rectangle of stone with floor carved into it, and the entries of the
/// level file beside the map.
pub struct Sketch {
    name: String,
    description: String,
    rows: Vec<Vec<char>>,
    legend: BTreeMap<char, String>,
    /// The goal, as the file writes it (`Reach((3, 4))`).
    goal: String,
    /// Entries of the level's lists, by list (`doors`, `traps`, `climbs`, `lights`, …).
    lists: BTreeMap<&'static str, Vec<String>>,
    /// Factions, each as the file writes it.
    factions: Vec<String>,
    creatures: Vec<String>,
    /// Other top-level fields, written as they are (`deep_water_feet: 30`).
    fields: Vec<String>,
}

impl Sketch {
    /// `width` × `height` squares of stone wall (`#`), and floor (`.`) to carve with.
    pub fn new(name: &str, width: usize, height: usize) -> Self {
        let mut legend = BTreeMap::new();
        legend.insert('#', "Wall(Stone)".to_owned());
        legend.insert('.', "Floor".to_owned());
        Sketch {
            name: name.to_owned(),
            description: String::new(),
            rows: vec![vec!['#'; width]; height],
            legend,
            goal: "ExploreAll".to_owned(),
            lists: BTreeMap::new(),
            factions: Vec::new(),
            creatures: Vec::new(),
            fields: Vec::new(),
        }
    }

    pub fn width(&self) -> i32 {
        self.rows[0].len() as i32
    }

    pub fn height(&self) -> i32 {
        self.rows.len() as i32
    }

    pub fn describe(&mut self, text: &str) {
        self.description = text.to_owned();
    }

    /// A legend character and the terrain it stands for (`'~', "Water(Deep)"`).
    pub fn legend(&mut self, ch: char, terrain: &str) {
        self.legend.insert(ch, terrain.to_owned());
    }

    pub fn goal(&mut self, goal: String) {
        self.goal = goal;
    }

    /// Sets one square; one outside the map is a mistake of the generator.
    pub fn set(&mut self, (x, y): Square, ch: char) {
        assert!(
            x > 0 && y > 0 && x < self.width() - 1 && y < self.height() - 1,
            "{}: ({x}, {y}) is on or beyond the map's edge",
            self.name
        );
        self.rows[y as usize][x as usize] = ch;
    }

    pub fn at(&self, (x, y): Square) -> char {
        self.rows[y as usize][x as usize]
    }

    /// Fills the rectangle from `a` to `b` (corners included, in any order) with `ch`.
    pub fn fill(&mut self, a: Square, b: Square, ch: char) {
        for y in a.1.min(b.1)..=a.1.max(b.1) {
            for x in a.0.min(b.0)..=a.0.max(b.0) {
                self.set((x, y), ch);
            }
        }
    }

    /// Floor in the rectangle from `a` to `b`.
    pub fn room(&mut self, a: Square, b: Square) {
        self.fill(a, b, '.');
    }

    /// A one-wide passage of floor from `a` to `b`: along the row of `a` first, then the column
    /// of `b`.
    pub fn passage(&mut self, a: Square, b: Square) {
        self.fill(a, (b.0, a.1), '.');
        self.fill((b.0, a.1), b, '.');
    }

    /// An entry of one of the level's lists (`"doors"`, `"traps"`, `"climbs"`, `"lights"`,
    /// `"magical_darkness"`), written as the file writes it.
    pub fn add(&mut self, list: &'static str, entry: String) {
        self.lists.entry(list).or_default().push(entry);
    }

    /// A light burning at `at` with the reach of its bright and dim light.
    pub fn light(&mut self, at: Square, bright: u32, dim: u32) {
        self.add(
            "lights",
            format!(
                "(at: ({}, {}), kind: Custom(bright_feet: {bright}, dim_feet: {dim}), lit: true)",
                at.0, at.1
            ),
        );
    }

    pub fn faction(&mut self, entry: String) {
        self.factions.push(entry);
    }

    /// The party: its faction, marching in the order given, and each member on its square.
    pub fn party(&mut self, party: &[Adventurer], squares: &[Square]) {
        assert!(
            squares.len() >= party.len(),
            "{}: a square for each",
            self.name
        );
        let members: Vec<&Adventurer> = party.iter().collect();
        self.faction(party_faction(&members));
        for (m, at) in party.iter().zip(squares) {
            self.creature(m.ron("party", *at));
        }
    }

    pub fn creature(&mut self, entry: String) {
        self.creatures.push(entry);
    }

    pub fn field(&mut self, entry: String) {
        self.fields.push(entry);
    }

    /// The level file.
    pub fn ron(&self) -> String {
        let mut out = String::from("(\n");
        let _ = writeln!(out, "    name: {:?},", self.name);
        let _ = writeln!(out, "    description: {:?},", self.description);
        out += "    scale_feet: 5,\n    environment: Quiet,\n";
        let _ = writeln!(out, "    goal: {},", self.goal);
        let legend: Vec<String> = self
            .legend
            .iter()
            .filter(|(ch, _)| self.rows.iter().any(|r| r.contains(ch)))
            .map(|(ch, terrain)| format!("'{ch}': {terrain}"))
            .collect();
        let _ = writeln!(out, "    legend: {{ {} }},", legend.join(", "));
        out += "    map: [\n";
        for row in &self.rows {
            let _ = writeln!(out, "        \"{}\",", row.iter().collect::<String>());
        }
        out += "    ],\n";
        for field in &self.fields {
            let _ = writeln!(out, "    {field},");
        }
        for (list, entries) in &self.lists {
            list_of(&mut out, list, entries);
        }
        list_of(&mut out, "factions", &self.factions);
        list_of(&mut out, "creatures", &self.creatures);
        out += ")\n";
        out
    }
}

fn list_of(out: &mut String, name: &str, entries: &[String]) {
    let _ = writeln!(out, "    {name}: [");
    for entry in entries {
        let _ = writeln!(out, "        {entry},");
    }
    out.push_str("    ],\n");
}

/// What a careful party achieves in the situation drawn, as an expectations file (README ›
/// Expectations a level must keep), with the reason for each in a comment above.
#[derive(Default)]
pub struct Expect {
    lines: Vec<(String, String)>,
    why: Vec<String>,
}

impl Expect {
    /// `subject` (`goal_reached`, `member("Hild")`) must show `wanted` (`(at_least: 0.8)`,
    /// `(died: (at_most: 0.05))`), for the reason given.
    pub fn wants(&mut self, subject: &str, wanted: &str, why: &str) -> &mut Self {
        self.lines.push((subject.to_owned(), wanted.to_owned()));
        self.why.push(why.to_owned());
        self
    }

    /// No member left behind, dying or alive.
    pub fn none_abandoned(&mut self, party: &[Adventurer]) -> &mut Self {
        for m in party {
            self.wants(
                &format!("member({:?})", m.name),
                "(abandoned: (at_most: 0.05))",
                &format!("{} is not left behind, dying or alive", m.name),
            );
        }
        self
    }

    pub fn ron(&self, about: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "// {about}");
        for why in &self.why {
            let _ = writeln!(out, "// - {why}");
        }
        out += "(\n    cap: 400,\n    expect: {\n";
        for (subject, wanted) in &self.lines {
            let _ = writeln!(out, "        {subject}: {wanted},");
        }
        out += "    },\n)\n";
        out
    }
}
