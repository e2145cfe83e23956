//! A scenario for tests and benchmarks: a small level written as map rows and level-file
//! entries, loaded by the real loader (so every check of LEVEL_FORMAT.md applies), then played
//! round by round with commands, with scripted dice where a test needs exact outcomes.
//!
//! ```
//! use delve_play::scenario::Scenario;
//! use delve_rules::command::acts::Move;
//! use delve_rules::rules::movement::Pace;
//!
//! let mut delve = Scenario::new(&["XXXXXX", "X....X", "XXXXXX"])
//!     .faction(r#"(name: "party")"#)
//!     .creature(r#"(name: "Ada", faction: "party", at: (1, 1), hp: 6, ac: 10, encumbrance_stone: 2.0)"#)
//!     .light("(at: (2, 1), kind: Torch, lit: true)")
//!     .build();
//! // 2 stone: 40' a round at combat speed, so she is there within the round.
//! delve.give(Move { who: "Ada".into(), to: (4, 1), pace: Pace::Combat }).run(1);
//! assert_eq!(delve.at("Ada"), delve_ground::grid::GridPos::new(4, 1));
//! ```

use delve_rules::rules::throws::Skill;

use bevy::prelude::*;

use crate::sim::{give, run_rounds, sim_app};
use delve_ground::dice::{Dice, Throw};
use delve_ground::grid::GridPos;
use delve_ground::level::{Diagnostics, Level, load_level_str};
use delve_ground::log::EventLog;
use delve_rules::act::Refusal;
use delve_rules::command::{Command, refusals, was_refused};
use delve_rules::creature::{CreatureIndex, Position};
use delve_rules::rules::throws::ThrowEvent;

/// A level under construction, in the level file's own words.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    rows: Vec<String>,
    legend: Vec<String>,
    factions: Vec<String>,
    creatures: Vec<String>,
    doors: Vec<String>,
    traps: Vec<String>,
    lights: Vec<String>,
    fields: Vec<String>,
    seed: u64,
}

impl Scenario {
    /// A level of these map rows. `X` is stone wall and `.` floor; [`Scenario::legend`] adds
    /// more characters.
    pub fn new(rows: &[&str]) -> Self {
        Scenario {
            rows: rows.iter().map(|r| (*r).to_owned()).collect(),
            legend: vec!["'X': Wall(Stone)".into(), "'.': Floor".into()],
            seed: 1,
            ..Scenario::default()
        }
    }

    /// A corridor of `length` floor squares from (1, 1) east, walled in stone and lit bright by
    /// one light in its middle, with two factions: `party` and `ghouls`, hostile to it. The
    /// arena the combat tests fight in.
    pub fn lit_corridor(length: usize) -> Self {
        let wall = "X".repeat(length + 2);
        let floor = format!("X{}X", ".".repeat(length));
        let middle = length.div_ceil(2);
        Scenario::new(&[&wall, &floor, &wall])
            .light(&format!(
                "(at: ({middle}, 1), kind: Custom(bright_feet: 80, dim_feet: 90), lit: true)"
            ))
            .faction(r#"(name: "party")"#)
            .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    }

    /// A legend entry, as in the level file: `"':': Rubble"`.
    pub fn legend(mut self, entry: &str) -> Self {
        self.legend.push(entry.to_owned());
        self
    }

    /// A faction entry: `r#"(name: "ghouls", hostile_to: ["party"])"#`.
    pub fn faction(mut self, entry: &str) -> Self {
        self.factions.push(entry.to_owned());
        self
    }

    /// A creature entry, as in the level file.
    pub fn creature(mut self, entry: &str) -> Self {
        self.creatures.push(entry.to_owned());
        self
    }

    /// A door entry: `"(at: (4, 1), stuck: true)"`.
    pub fn door(mut self, entry: &str) -> Self {
        self.doors.push(entry.to_owned());
        self
    }

    /// A trap entry.
    pub fn trap(mut self, entry: &str) -> Self {
        self.traps.push(entry.to_owned());
        self
    }

    /// A light entry: `"(at: (8, 1), kind: Torch, lit: true)"`.
    pub fn light(mut self, entry: &str) -> Self {
        self.lights.push(entry.to_owned());
        self
    }

    /// Any other field of the level: `"environment: Quiet"`, `"modules: (combat: false)"`.
    pub fn field(mut self, field: &str) -> Self {
        self.fields.push(field.to_owned());
        self
    }

    /// The seed of the dice (1 unless given).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The level file this scenario writes.
    pub fn source(&self) -> String {
        let list = |name: &str, entries: &[String]| {
            if entries.is_empty() {
                String::new()
            } else {
                format!(",\n {name}: [\n  {}\n ]", entries.join(",\n  "))
            }
        };
        let rows: Vec<String> = self.rows.iter().map(|r| format!("\"{r}\"")).collect();
        let fields: String = self.fields.iter().map(|f| format!(",\n {f}")).collect();
        format!(
            "(name: \"scenario\",\n legend: {{ {} }},\n map: [{}]{}{}{}{}{}{})",
            self.legend.join(", "),
            rows.join(", "),
            list("factions", &self.factions),
            list("creatures", &self.creatures),
            list("doors", &self.doors),
            list("traps", &self.traps),
            list("lights", &self.lights),
            fields,
        )
    }

    /// The level, checked by the loader.
    pub fn level(&self) -> Result<Level, Diagnostics> {
        load_level_str(&self.source(), "scenario.ron", None).map(|l| l.level)
    }

    /// The delve set up on this level, before its first round.
    pub fn try_build(&self) -> Result<Delve, Diagnostics> {
        Ok(Delve {
            app: sim_app(&self.level()?, self.seed),
        })
    }

    /// The delve set up on this level. For tests and benchmarks: a level the loader rejects
    /// panics with the loader's messages and the level's source.
    pub fn build(&self) -> Delve {
        self.try_build()
            .unwrap_or_else(|e| panic!("{e}\nin the scenario level:\n{}", self.source()))
    }
}

/// A delve in progress, for tests and benchmarks: the simulation's [`App`] (which it derefs
/// to) with the questions tests ask of it.
pub struct Delve {
    pub app: App,
}

impl std::ops::Deref for Delve {
    type Target = App;
    fn deref(&self) -> &App {
        &self.app
    }
}

impl std::ops::DerefMut for Delve {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

impl Delve {
    /// The creature of this name. Panics when there is none (a mistake in the test).
    pub fn entity(&self, name: &str) -> Entity {
        *self
            .world()
            .resource::<CreatureIndex>()
            .0
            .get(name)
            .unwrap_or_else(|| panic!("no creature named {name} in the scenario"))
    }

    /// A component of the named creature.
    pub fn get<T: Component>(&self, name: &str) -> Option<&T> {
        self.world().get::<T>(self.entity(name))
    }

    /// Where the named creature stands.
    pub fn at(&self, name: &str) -> GridPos {
        self.get::<Position>(name).map(|p| p.0).unwrap_or_else(|| {
            panic!("{name} has no position");
        })
    }

    /// Gives a command for the next round, as a player would.
    pub fn give(&mut self, command: impl Into<Command>) -> &mut Self {
        give(self.world_mut(), command.into());
        self
    }

    /// Plays `rounds` rounds.
    pub fn run(&mut self, rounds: u64) -> &mut Self {
        run_rounds(self.world_mut(), rounds);
        self
    }

    /// The next dice come up these faces, in order; then the seeded dice go on.
    pub fn script_dice(&mut self, faces: &[u32]) -> &mut Self {
        self.world_mut()
            .resource_mut::<Dice>()
            .script(faces.iter().copied());
        self
    }

    pub fn log(&self) -> &EventLog {
        self.world().resource::<EventLog>()
    }

    /// Every event of one area's type, in order.
    pub fn events<T: 'static + Clone>(&self) -> Vec<T> {
        self.log().of::<T>().cloned().collect()
    }

    /// Why the last refused command was refused.
    pub fn last_refusal(&self) -> Option<Refusal> {
        refusals(self.log()).last().map(|(_, r)| r.clone())
    }

    /// Was a command of `who`'s refused for this reason?
    pub fn was_refused<T: PartialEq + 'static>(&self, who: &str, reason: &T) -> bool {
        was_refused(self.log(), who, reason)
    }

    /// Gives a command and plays the round in which it is carried out.
    pub fn act(&mut self, command: impl Into<Command>) -> &mut Self {
        self.give(command).run(1)
    }

    /// Every throw made for this skill, in order (`Skill` is what the throw is for, by type).
    pub fn throws_for(&self, skill: Skill) -> Vec<Throw> {
        self.log()
            .of::<ThrowEvent>()
            .filter(|ThrowEvent::Threw { skill: s, .. }| *s == skill)
            .map(|ThrowEvent::Threw { throw, .. }| throw.clone())
            .collect()
    }

    /// Every throw made, in order.
    pub fn throws(&self) -> Vec<Throw> {
        self.log()
            .of::<ThrowEvent>()
            .map(|ThrowEvent::Threw { throw, .. }| throw.clone())
            .collect()
    }
}
