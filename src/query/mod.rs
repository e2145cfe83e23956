//! Questions a Judge asks of a delve: of a level as it is loaded (`delve query`, which sets up
//! the delve and asks before the first round) or of a simulation world in the middle of a
//! delve. Every answer is worked out from the world by the rules' own functions. Each answer is
//! a serde struct: the command line prints it as text, or with `--json` as one JSON object whose
//! field names are stable (documented in the README).

use delve_ground::dice::{Dice, Modifier};
use delve_rules::creature::{Faction, Factions, SwimmingSpeed};
use delve_rules::rules::acting::Hold;
use delve_rules::rules::combat::initiative::FactionRoll;
use delve_rules::rules::light::{LightLevel, LightMap};
use delve_rules::rules::movement::WaterCost;
use delve_rules::rules::vision::Sight;

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use delve_ground::grid::los::line_of_sight;
use delve_ground::grid::path::find_path;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::act::Choice;
use delve_rules::creature::{Conditions, CreatureIndex, Position};

mod hearing;
pub use hearing::{HearAnswer, Listener, NoiseHeard, hear, who_heard};

mod caving;
pub use caving::{CavingAnswer, ThrowOdds, climb, jump, squeeze, swim};

mod combat;
pub use combat::{AttackAnswer, WeaponAnswer, attack};

/// `los --from X,Y --to X,Y`: is there line of sight, and how far apart are the squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LosAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub to: GridPos,
    pub line_of_sight: bool,
    pub distance_feet: u32,
}

/// `path --from X,Y --to X,Y`: the cheapest walk and its length, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub to: GridPos,
    pub found: bool,
    pub feet: Option<u32>,
    pub squares: Vec<GridPos>,
    pub reason: Option<String>,
}

/// The creature named `who`, or a message listing the names there are.
fn creature(world: &World, who: &str) -> Result<Entity, String> {
    let index = world.resource::<CreatureIndex>();
    index.0.get(who).copied().ok_or_else(|| {
        let names: Vec<&str> = index.0.keys().map(String::as_str).collect();
        format!(
            "there is no creature named `{who}` (there are: {})",
            names.join(", ")
        )
    })
}

fn check_square(grid: &DungeonGrid, p: GridPos, what: &str) -> Result<(), String> {
    if grid.in_bounds(p) {
        Ok(())
    } else {
        Err(format!(
            "--{what} {p} is outside the map, which is {} wide and {} high",
            grid.width(),
            grid.height()
        ))
    }
}

pub fn los(world: &World, from: GridPos, to: GridPos) -> Result<LosAnswer, String> {
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, from, "from")?;
    check_square(grid, to, "to")?;
    Ok(LosAnswer {
        question: "los",
        from,
        to,
        line_of_sight: line_of_sight(grid, from, to),
        distance_feet: grid.distance_feet(from, to),
    })
}

pub fn path(world: &World, from: GridPos, to: GridPos) -> Result<PathAnswer, String> {
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, from, "from")?;
    check_square(grid, to, "to")?;
    let found = find_path(grid, from, to);
    let reason = match (&found, grid.terrain(to)) {
        (Some(_), _) => None,
        (None, Some(t)) if !grid.is_passable(to) => {
            Some(format!("{to} is {t:?}, where no one can stand"))
        }
        (None, _) => Some(format!(
            "no open path: walls, rock, chasms or closed doors lie between {from} and {to}"
        )),
    };
    Ok(PathAnswer {
        question: "path",
        from,
        to,
        found: found.is_some(),
        feet: found.as_ref().map(|p| p.feet),
        squares: found.map(|p| p.squares).unwrap_or_default(),
        reason,
    })
}

impl fmt::Display for LosAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} line of sight from {} to {}; {}' apart",
            if self.line_of_sight {
                "there is"
            } else {
                "there is no"
            },
            self.from,
            self.to,
            self.distance_feet
        )
    }
}

impl fmt::Display for PathAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.feet, &self.reason) {
            (Some(feet), _) => {
                write!(
                    f,
                    "path from {} to {}: {feet}', {} squares:",
                    self.from,
                    self.to,
                    self.squares.len()
                )?;
                for s in &self.squares {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            (None, reason) => write!(
                f,
                "no path from {} to {}: {}",
                self.from,
                self.to,
                reason.as_deref().unwrap_or("unreachable")
            ),
        }
    }
}

/// `speeds --who NAME`: exploration, combat and running speed, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeedsAnswer {
    pub question: &'static str,
    pub who: String,
    /// Encumbrance in stone, when the speeds come from it.
    pub encumbrance_stone: Option<f32>,
    /// The stat block's explicit speed, when it gives one.
    pub speed_feet: Option<u32>,
    pub can_move: bool,
    pub blinded: bool,
    pub exploration_feet_per_turn: Option<f32>,
    pub exploration_feet_per_round: Option<f32>,
    pub combat_feet_per_round: Option<f32>,
    pub running_feet_per_round: Option<f32>,
    /// Each reason, in words.
    pub why: Vec<String>,
}

pub fn speeds(world: &World, who: &str) -> Result<SpeedsAnswer, String> {
    use delve_ground::grid::Terrain;
    use delve_ground::level::SpeedBasis;
    use delve_ground::level::schema::ConditionKind;
    use delve_rules::creature::Encumbrance;
    use delve_rules::rules::movement::{Pace, Speeds, encumbrance_band, terrain_cost};

    let e = creature(world, who)?;
    let (Some(basis), Some(conditions), Some(at)) = (
        world.get::<Encumbrance>(e).map(|b| b.0),
        world.get::<Conditions>(e),
        world.get::<Position>(e).map(|p| p.0),
    ) else {
        return Err(format!(
            "`{who}` has no speed: it is not a creature that moves"
        ));
    };
    let speeds = Speeds::of(basis, conditions);
    let mut why = Vec::new();
    let (stone, feet) = match basis {
        SpeedBasis::Encumbrance { stone } => {
            let band = encumbrance_band(stone).map_or("over 20 stone: cannot move", |b| b.words);
            why.push(format!(
                "encumbrance {stone} stone: {band} (RULINGS speed table)"
            ));
            (Some(stone), None)
        }
        SpeedBasis::Explicit { feet } => {
            why.push(format!(
                "explicit speed {feet}': exploration and running speed, a third of it as combat speed"
            ));
            (None, Some(feet))
        }
    };
    let blinded = conditions.has(ConditionKind::Blinded);
    if blinded {
        why.push("blinded: one third speed".into());
    }
    if let Some(t) = world.resource::<DungeonGrid>().terrain(at) {
        match terrain_cost(t) {
            1 => {}
            n => why.push(format!(
                "standing in {t:?}: each square of it costs {n} times its width"
            )),
        }
        if let Terrain::Water(d) = t {
            why.push(format!("in {d:?} water"));
        }
    }
    match world.get::<SwimmingSpeed>(e) {
        Some(swim) => why.push(format!(
            "difficult terrain (rubble) costs double; it swims {}' (no Swimming throws): water \
             over the head costs {} tenths of a foot per foot",
            swim.0,
            WaterCost::of(basis, Some(swim)).0
        )),
        None => why.push(
            "difficult terrain (rubble) costs double; water over the head four times (swimming \
             at one quarter)"
                .into(),
        ),
    }
    Ok(SpeedsAnswer {
        question: "speeds",
        who: who.to_owned(),
        encumbrance_stone: stone,
        speed_feet: feet,
        can_move: speeds.is_some(),
        blinded,
        exploration_feet_per_turn: speeds.map(|s| s.rated(Pace::Exploration)),
        exploration_feet_per_round: speeds.map(|s| s.feet_per_round(Pace::Exploration)),
        combat_feet_per_round: speeds.map(|s| s.rated(Pace::Combat)),
        running_feet_per_round: speeds.map(|s| s.rated(Pace::Running)),
        why,
    })
}

impl fmt::Display for SpeedsAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (
            self.exploration_feet_per_turn,
            self.combat_feet_per_round,
            self.running_feet_per_round,
        ) {
            (Some(e), Some(c), Some(r)) => writeln!(
                f,
                "{}: exploration {e}' per turn ({}' per round), combat {c}' per round, running {r}' per round",
                self.who,
                self.exploration_feet_per_round.unwrap_or(0.0)
            )?,
            _ => writeln!(f, "{}: cannot move", self.who)?,
        }
        for w in &self.why {
            writeln!(f, "  because {w}")?;
        }
        Ok(())
    }
}

/// `light [--at X,Y]`: the light level of a square, or of every square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightAnswer {
    pub question: &'static str,
    /// The square asked about, if one was.
    pub at: Option<GridPos>,
    /// Its light level: `Bright`, `Dim`, `Dark` or `MagicalDarkness`.
    pub light: Option<LightLevel>,
    /// Without `--at`: one string per row, one character per square
    /// (`*` bright, `:` dim, `.` dark, `X` magical darkness).
    pub rows: Vec<String>,
}

pub fn light(world: &World, at: Option<GridPos>) -> Result<LightAnswer, String> {
    let grid = world.resource::<DungeonGrid>();
    let map = world.resource::<LightMap>();
    match at {
        Some(p) => {
            check_square(grid, p, "at")?;
            Ok(LightAnswer {
                question: "light",
                at: Some(p),
                light: Some(map.level(grid, p)),
                rows: Vec::new(),
            })
        }
        None => Ok(LightAnswer {
            question: "light",
            at: None,
            light: None,
            rows: map.to_text().lines().map(str::to_owned).collect(),
        }),
    }
}

impl fmt::Display for LightAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.at, self.light) {
            (Some(p), Some(l)) => write!(f, "{p} is {l:?}"),
            _ => {
                writeln!(f, "light (* bright, : dim, . dark, X magical darkness):")?;
                write!(f, "{}", self.rows.join("\n"))
            }
        }
    }
}

/// One square a creature sees, and as how lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeenSquare {
    pub x: i32,
    pub y: i32,
    pub light: LightLevel,
}

/// `choices --who NAME`: what a creature may do where it stands, as the rules offer it
/// (`rules::choices_for`: every area's choices that its holds allow), with time and chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoicesAnswer {
    pub question: &'static str,
    pub who: String,
    pub at: GridPos,
    /// What holds it, if anything (`surprised`, `stuck`, `drowning`, …): why it is offered little
    /// or nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<Hold>,
    /// Each choice with what it concerns (`door (27, 4)`, `here`, `squeeze`).
    pub choices: Vec<ConcernedChoice>,
}

/// One choice and what it concerns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConcernedChoice {
    pub concerns: String,
    #[serde(flatten)]
    pub choice: Choice,
}

pub fn choices(world: &World, who: &str) -> Result<ChoicesAnswer, String> {
    let e = creature(world, who)?;
    let at = world
        .get::<Position>(e)
        .map(|p| p.0)
        .ok_or_else(|| format!("`{who}` has no square"))?;
    let choices = delve_rules::rules::choices_for(world, e)
        .into_iter()
        .map(|(concerns, choice)| ConcernedChoice {
            concerns: concerns.to_string(),
            choice,
        })
        .collect();
    Ok(ChoicesAnswer {
        question: "choices",
        who: who.to_owned(),
        at,
        held: delve_rules::rules::acting::held(world, e),
        choices,
    })
}

impl fmt::Display for ChoicesAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(hold) = self.held {
            writeln!(f, "{} at {}: {hold}", self.who, self.at)?;
        }
        if self.choices.is_empty() {
            return write!(f, "{} at {}: nothing to do here", self.who, self.at);
        }
        write!(f, "{} at {} may:", self.who, self.at)?;
        for c in &self.choices {
            write!(f, "\n  {}: {}", c.concerns, c.choice)?;
        }
        Ok(())
    }
}

/// `sees --who NAME`: the squares a creature sees as the level stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeesAnswer {
    pub question: &'static str,
    pub who: String,
    pub at: GridPos,
    /// It sees nothing, so it is blinded.
    pub blinded: bool,
    pub seen: Vec<SeenSquare>,
    /// The view as text: `@` the creature, `*` seen bright, `:` seen dim, blank unseen.
    pub rows: Vec<String>,
}

/// What the creature saw when it last looked (the vision rules look again each round, and once
/// as the delve begins).
pub fn sees(world: &World, who: &str) -> Result<SeesAnswer, String> {
    let e = creature(world, who)?;
    let (Some(sight), Some(at)) = (world.get::<Sight>(e), world.get::<Position>(e).map(|p| p.0))
    else {
        return Err(format!("`{who}` does not see: it has no eyes to look with"));
    };
    let mut seen = sight.seen.clone();
    seen.sort_unstable_by_key(|(p, _)| (p.y, p.x));
    let g = world.resource::<DungeonGrid>();
    let mut rows = vec![vec![' '; g.width() as usize]; g.height() as usize];
    for (p, how) in &seen {
        rows[p.y as usize][p.x as usize] = how.symbol();
    }
    rows[at.y as usize][at.x as usize] = '@';
    Ok(SeesAnswer {
        question: "sees",
        who: who.to_owned(),
        at,
        blinded: seen.is_empty(),
        seen: seen
            .iter()
            .map(|&(p, light)| SeenSquare {
                x: p.x,
                y: p.y,
                light,
            })
            .collect(),
        rows: rows
            .into_iter()
            .map(|r| r.into_iter().collect::<String>().trim_end().to_owned())
            .collect(),
    })
}

impl fmt::Display for SeesAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.blinded {
            return write!(f, "{} at {} sees nothing: blinded", self.who, self.at);
        }
        writeln!(
            f,
            "{} at {} sees {} squares (@ it, * bright, : dim):",
            self.who,
            self.at,
            self.seen.len()
        )?;
        write!(f, "{}", self.rows.join("\n").trim_end())
    }
}

/// `door --at X,Y --who NAME`: the ways that creature can get through that door.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DoorAnswer {
    pub question: &'static str,
    pub at: GridPos,
    pub who: String,
    pub ways: Vec<Choice>,
    /// Why there is no way, when there is none.
    pub none_because: Option<String>,
}

pub fn door(world: &mut World, at: GridPos, who: &str) -> Result<DoorAnswer, String> {
    use delve_rules::rules::doors::{Door, DoorWorker, ways_through};
    check_square(world.resource::<DungeonGrid>(), at, "at")?;
    let e = creature(world, who)?;
    let door = world
        .query::<(&Position, &Door)>()
        .iter(world)
        .find(|(p, _)| p.0 == at)
        .map(|(_, d)| d.clone())
        .ok_or_else(|| format!("there is no door at {at}"))?;
    let worker = DoorWorker::of(world, e, at)
        .ok_or_else(|| format!("`{who}` cannot work a door: it has no hands to try"))?;
    let (ways, none_because) = match ways_through(&door, at, &worker) {
        Ok(ways) => (ways, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    Ok(DoorAnswer {
        question: "door",
        at,
        who: who.to_owned(),
        ways,
        none_because,
    })
}

impl fmt::Display for DoorAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at the door at {}:", self.who, self.at)?;
        if let Some(why) = &self.none_because {
            return write!(f, " no way through: {why}");
        }
        for w in &self.ways {
            write!(f, "\n  {w}")?;
        }
        Ok(())
    }
}

/// `initiative --seed N`: each faction's members and modifiers, its roll and result, and the
/// acting order, as if every faction of the level met in one battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InitiativeAnswer {
    pub question: &'static str,
    pub seed: u64,
    /// In acting order, highest first.
    pub factions: Vec<FactionRoll>,
    /// Each faction's surprise die as a battle begun now would throw it (RULINGS › Surprise),
    /// unless it knew of the enemy the round before: its modifiers and chance of surprise.
    pub surprise: Vec<SurpriseOdds>,
}

/// A faction's odds of surprise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SurpriseOdds {
    pub faction: String,
    pub modifiers: Vec<Modifier>,
    pub chance: f32,
}

/// Every faction with creatures up, as `battle` would enter them, rolled with dice of their own
/// seeded by `seed` (the delve's dice are not touched).
pub fn initiative(world: &mut World, seed: u64) -> Result<InitiativeAnswer, String> {
    use delve_rules::rules::combat::battle::faction_members;
    use delve_rules::rules::combat::initiative::{Entrant, roll_initiative};
    let factions = world.resource::<Factions>().clone();
    let entrants: Vec<Entrant> = (0..factions.0.len())
        .filter_map(|i| {
            let members = faction_members(world, i);
            (!members.is_empty()).then(|| (i, factions.0[i].name.clone(), members))
        })
        .collect();
    if entrants.len() < 2 {
        return Err("the level has fewer than two factions with creatures: no battle".into());
    }
    let names = factions.clone();
    let mut surprise = Vec::new();
    for (f, name, _) in &entrants {
        let enemies: Vec<usize> = entrants
            .iter()
            .map(|e| e.0)
            .filter(|&g| names.hostile(Faction(*f), Faction(g)))
            .collect();
        if enemies.is_empty() {
            continue;
        }
        let modifiers =
            delve_rules::rules::combat::surprise::surprise_modifiers(world, *f, &enemies);
        surprise.push(SurpriseOdds {
            faction: name.clone(),
            chance: delve_rules::rules::combat::surprise::surprise_chance(&modifiers),
            modifiers,
        });
    }
    let mut dice = Dice::seeded(seed);
    let factions = roll_initiative(&mut dice, entrants);
    Ok(InitiativeAnswer {
        question: "initiative",
        seed,
        factions,
        surprise,
    })
}

impl fmt::Display for InitiativeAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "faction initiative, seed {}:", self.seed)?;
        for (i, r) in self.factions.iter().enumerate() {
            let members: Vec<String> = r
                .members
                .iter()
                .map(|(n, m)| format!("{n} {m:+}"))
                .collect();
            write!(
                f,
                "\n  {}. {}: d20 {} {:+} = {} (modifier: average of {}, rounded up)",
                i + 1,
                r.name,
                r.roll,
                r.modifier,
                r.result,
                members.join(", ")
            )?;
            if !r.roll_offs.is_empty() {
                write!(f, "; tie broken by roll-offs {:?}", r.roll_offs)?;
            }
        }
        let order: Vec<&str> = self.factions.iter().map(|r| r.name.as_str()).collect();
        write!(f, "\norder: {}", order.join(", "))?;
        for s in &self.surprise {
            write!(f, "\nsurprise for {}: 1d6", s.faction)?;
            for m in &s.modifiers {
                write!(f, " {:+} ({})", m.value, m.source)?;
            }
            write!(
                f,
                ", surprised on 2 or less: {:.0}% (none if it knew of the enemy the round before; both sides surprised cancel out)",
                s.chance * 100.0
            )?;
        }
        Ok(())
    }
}
