//! Questions a Judge asks of a delve: of a level as it is loaded (`delve query`, which sets up
//! the delve and asks before the first round) or of a simulation world in the middle of a
//! delve. Every answer is worked out from the world by the rules' own functions. Each answer is
//! a serde struct: the command line prints it as text, or with `--json` as one JSON object whose
//! field names are stable (documented in the README).

use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use crate::act::Choice;
use crate::creature::{CreatureIndex, LevelInfo, Position};
use crate::grid::los::line_of_sight;
use crate::grid::path::find_path;
use crate::grid::{DungeonGrid, GridPos};
use crate::rules::conditions::Conditions;

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
    use crate::creature::Encumbrance;
    use crate::level::SpeedBasis;
    use crate::level::schema::{ConditionKind, Terrain};
    use crate::rules::movement::{Pace, Speeds, encumbrance_band, terrain_cost};

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
    match world.get::<crate::creature::SwimmingSpeed>(e) {
        Some(swim) => why.push(format!(
            "difficult terrain (rubble) costs double; it swims {}' (no Swimming throws): water \
             over the head costs {} tenths of a foot per foot",
            swim.0,
            crate::rules::movement::WaterCost::of(basis, Some(swim)).0
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
    pub light: Option<crate::rules::light::LightLevel>,
    /// Without `--at`: one string per row, one character per square
    /// (`*` bright, `:` dim, `.` dark, `X` magical darkness).
    pub rows: Vec<String>,
}

pub fn light(world: &World, at: Option<GridPos>) -> Result<LightAnswer, String> {
    let grid = world.resource::<DungeonGrid>();
    let map = world.resource::<crate::rules::light::LightMap>();
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
    pub light: crate::rules::light::LightLevel,
}

/// `choices --who NAME`: what a creature may do where it stands, as the rules offer it
/// (`rules::choices_for`: every area's choices that its holds allow), with time and chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoicesAnswer {
    pub question: &'static str,
    pub who: String,
    pub at: GridPos,
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
    let choices = crate::rules::choices_for(world, e)
        .into_iter()
        .map(|(concerns, choice)| ConcernedChoice { concerns, choice })
        .collect();
    Ok(ChoicesAnswer {
        question: "choices",
        who: who.to_owned(),
        at,
        choices,
    })
}

impl fmt::Display for ChoicesAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
    let (Some(sight), Some(at)) = (
        world.get::<crate::rules::vision::Sight>(e),
        world.get::<Position>(e).map(|p| p.0),
    ) else {
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

/// `hear --from X,Y --sound ROW [--at X,Y] [--environment E]`: earshot distance and verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HearAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub sound: crate::rules::sound::SoundRow,
    pub environment: crate::level::schema::Environment,
    /// The square asked about, if one was.
    pub at: Option<GridPos>,
    /// Earshot distance in feet to it (`null` when sound cannot reach it within earshot).
    pub earshot_feet: Option<f32>,
    /// `automatic`, `throw` or `inaudible`.
    pub verdict: Option<crate::rules::sound::Verdict>,
    /// Without `--at`: one string per row (`A` automatic, `t` with a throw, `.` inaudible).
    pub rows: Vec<String>,
}

/// With `environment`, every square is taken to be in it; otherwise each listener's square is in
/// the level's environment for it.
pub fn hear(
    world: &World,
    from: GridPos,
    sound: crate::rules::sound::SoundRow,
    at: Option<GridPos>,
    environment: Option<crate::level::schema::Environment>,
) -> Result<HearAnswer, String> {
    use crate::rules::sound::{Earshot, verdicts_from};
    let g = world.resource::<DungeonGrid>();
    let info = world.resource::<LevelInfo>();
    check_square(g, from, "from")?;
    if let Some(p) = at {
        check_square(g, p, "at")?;
    }
    let env_at = |p: GridPos| environment.unwrap_or_else(|| info.environment_at(p));
    let widest = environment.unwrap_or_else(|| info.widest_environment());
    let mut earshot = Earshot::default();
    let verdicts = verdicts_from(g, &mut earshot, from, sound, widest, env_at);
    let mut answer = HearAnswer {
        question: "hear",
        from,
        sound,
        environment: at.map_or(environment.unwrap_or(info.environment), env_at),
        at,
        earshot_feet: None,
        verdict: None,
        rows: Vec::new(),
    };
    match at {
        Some(p) => {
            answer.earshot_feet = earshot.half_feet(g, p).map(|d| d as f32 / 2.0);
            answer.verdict = g.index(p).map(|i| verdicts[i]);
        }
        None => {
            answer.rows = verdicts
                .chunks(g.width() as usize)
                .map(|row| row.iter().map(|v| v.symbol()).collect())
                .collect();
        }
    }
    Ok(answer)
}

impl fmt::Display for HearAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.at, self.verdict) {
            (Some(p), Some(v)) => {
                let d = self
                    .earshot_feet
                    .map_or("out of earshot".to_owned(), |d| format!("{d}' of earshot"));
                write!(
                    f,
                    "a {} noise at {} in a {:?} environment reaches {p}: {d}, {}",
                    self.sound,
                    self.from,
                    self.environment,
                    match v {
                        crate::rules::sound::Verdict::Automatic => "heard automatically",
                        crate::rules::sound::Verdict::Throw => "heard with a Listening throw",
                        crate::rules::sound::Verdict::Inaudible => "inaudible",
                    }
                )
            }
            _ => {
                writeln!(
                    f,
                    "a {} noise at {} in a {:?} environment (A automatic, t with a throw, . inaudible):",
                    self.sound, self.from, self.environment
                )?;
                write!(f, "{}", self.rows.join("\n"))
            }
        }
    }
}

/// Who heard a noise of the round just played, and how: each creature within its earshot with
/// its verdict there, whether it heard, and its Listening throw if it threw (Dungeon Delves ›
/// Listening: only the faction's member closest to the noise throws for it). The window's
/// answer to "who heard that?".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoiseHeard {
    pub at: GridPos,
    pub sound: crate::rules::sound::SoundRow,
    pub what: String,
    pub listeners: Vec<Listener>,
}

/// One creature within a noise's earshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Listener {
    pub who: String,
    pub at: GridPos,
    /// `automatic` or `throw` where it stands.
    pub verdict: crate::rules::sound::Verdict,
    /// It heard the noise (or a companion's shout called it).
    pub heard: bool,
    /// Its Listening throw this round, if it threw.
    pub throw: Option<crate::dice::Throw>,
}

impl fmt::Display for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::rules::sound::Verdict;
        let throw = |t: &crate::dice::Throw| {
            format!("Listening d20 {} → {} vs {}", t.natural, t.total, t.target)
        };
        match (self.verdict, self.heard, &self.throw) {
            (Verdict::Automatic, true, _) => write!(f, "{}: heard it (automatically)", self.who),
            (_, true, Some(t)) => write!(f, "{}: heard it ({})", self.who, throw(t)),
            (_, true, None) => write!(f, "{}: heard it", self.who),
            (_, false, Some(t)) => write!(f, "{}: missed it ({})", self.who, throw(t)),
            (Verdict::Throw, false, None) => {
                write!(
                    f,
                    "{}: in earshot with a throw, but did not listen",
                    self.who
                )
            }
            (_, false, None) => write!(f, "{}: did not hear it", self.who),
        }
    }
}

/// The noises of the round just played and who heard each.
pub fn who_heard(world: &World) -> Vec<NoiseHeard> {
    use crate::rules::sound::hearing::{HeardThisRound, LastRoundNoises};
    use crate::rules::sound::{Earshot, Verdict, verdicts_from};
    use crate::rules::throws::{Skill, ThrowEvent};
    let (Some(noises), Some(heard)) = (
        world.get_resource::<LastRoundNoises>(),
        world.get_resource::<HeardThisRound>(),
    ) else {
        return Vec::new();
    };
    let grid = world.resource::<DungeonGrid>();
    let info = world.resource::<LevelInfo>();
    let round = world
        .resource::<crate::time::Clock>()
        .rounds
        .saturating_sub(1);
    let log = world.resource::<crate::log::EventLog>().entries();
    let from = log.partition_point(|e| e.round < round);
    let listening = |who: &str| {
        log[from..]
            .iter()
            .find_map(|e| match e.get::<ThrowEvent>() {
                Some(ThrowEvent::Threw {
                    who: w,
                    skill: Skill::Proficiency(crate::level::schema::Proficiency::Listening),
                    throw,
                }) if w == who => Some(throw.clone()),
                _ => None,
            })
    };
    let index = world.resource::<CreatureIndex>();
    let mut earshot = Earshot::default();
    noises
        .0
        .iter()
        .map(|noise| {
            let verdicts = verdicts_from(
                grid,
                &mut earshot,
                noise.at,
                noise.sound,
                info.widest_environment(),
                |p| info.environment_at(p),
            );
            let mut listeners: Vec<Listener> = index
                .0
                .iter()
                .filter(|(_, e)| Some(**e) != noise.maker)
                .filter_map(|(name, e)| {
                    let at = world.get::<Position>(*e)?.0;
                    let called = heard.0.iter().any(|h| h.listener == *e && h.at == noise.at);
                    // A creature does not listen for its own faction's noises (a shout calls it).
                    let faction = |c: Entity| world.get::<crate::creature::Faction>(c).copied();
                    if !called && noise.maker.is_some_and(|m| faction(m) == faction(*e)) {
                        return None;
                    }
                    let verdict = verdicts[grid.index(at)?];
                    if verdict == Verdict::Inaudible
                        || world
                            .get::<Conditions>(*e)
                            .is_some_and(crate::rules::conditions::is_down)
                    {
                        return None;
                    }
                    Some(Listener {
                        who: name.clone(),
                        at,
                        verdict,
                        heard: called,
                        throw: listening(name),
                    })
                })
                .collect();
            listeners.sort_by(|a, b| (!a.heard, &a.who).cmp(&(!b.heard, &b.who)));
            NoiseHeard {
                at: noise.at,
                sound: noise.sound,
                what: noise.what.clone(),
                listeners,
            }
        })
        .collect()
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
    use crate::rules::doors::{Door, DoorWorker, ways_through};
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
    pub factions: Vec<crate::rules::combat::initiative::FactionRoll>,
    /// Each faction's surprise die as a battle begun now would throw it (RULINGS › Surprise),
    /// unless it knew of the enemy the round before: its modifiers and chance of surprise.
    pub surprise: Vec<SurpriseOdds>,
}

/// A faction's odds of surprise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SurpriseOdds {
    pub faction: String,
    pub modifiers: Vec<crate::dice::Modifier>,
    pub chance: f32,
}

/// Every faction with creatures up, as `battle` would enter them, rolled with dice of their own
/// seeded by `seed` (the delve's dice are not touched).
pub fn initiative(world: &mut World, seed: u64) -> Result<InitiativeAnswer, String> {
    use crate::rules::combat::battle::faction_members;
    use crate::rules::combat::initiative::{Entrant, roll_initiative};
    let factions = world.resource::<crate::creature::Factions>().clone();
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
            .filter(|&g| names.hostile(crate::creature::Faction(*f), crate::creature::Faction(g)))
            .collect();
        if enemies.is_empty() {
            continue;
        }
        let modifiers = crate::rules::combat::surprise::surprise_modifiers(world, *f, &enemies);
        surprise.push(SurpriseOdds {
            faction: name.clone(),
            chance: crate::rules::combat::surprise::surprise_chance(&modifiers),
            modifiers,
        });
    }
    let mut dice = crate::dice::Dice::seeded(seed);
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

/// One throw as a creature would make it: its target, each modifier with its source, the net
/// d20 target and the chance, counted as the throw resolves (bloodied, the natural 20's +10).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowOdds {
    pub what: String,
    pub target: i32,
    pub modifiers: Vec<crate::dice::Modifier>,
    pub net_target: i32,
    pub chance: f32,
}

impl ThrowOdds {
    fn of(
        world: &World,
        who: Entity,
        what: &str,
        target: i32,
        modifiers: Vec<crate::dice::Modifier>,
    ) -> Option<Self> {
        let thrower = crate::rules::throws::Thrower::of(world, who)?;
        let (net_target, chance) = crate::rules::throws::chance(
            &thrower,
            crate::rules::throws::ThrowKind::Check,
            &modifiers,
            target,
        );
        Some(Self {
            what: what.to_owned(),
            target,
            modifiers,
            net_target,
            chance,
        })
    }
}

impl fmt::Display for ThrowOdds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}+", self.what, self.target)?;
        for m in &self.modifiers {
            write!(f, " {:+} ({})", m.value, m.source)?;
        }
        write!(
            f,
            ": {}+ on the d20, {:.0}% a round",
            self.net_target,
            self.chance * 100.0
        )
    }
}

/// `squeeze --who NAME --at X,Y` and `swim --who NAME --at X,Y`: the throw that creature would
/// make each round there (none when it needs none), and what follows from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CavingAnswer {
    pub question: &'static str,
    pub who: String,
    pub at: GridPos,
    /// The throw each round; `None` when no throw is needed (or it may not try).
    pub throw: Option<ThrowOdds>,
    /// Whether the rules let it try at all.
    pub permitted: bool,
    /// A jump's gap in feet, and its chances of clearing it with and without a run-up.
    pub gap_feet: Option<u32>,
    pub jump_chances: Option<(f32, f32)>,
    /// What success and failure mean, and the numbers that go with them.
    pub notes: Vec<String>,
}

impl fmt::Display for CavingAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: ", self.who, self.at)?;
        match (&self.throw, self.permitted) {
            (Some(t), _) => write!(f, "{t}")?,
            (None, true) => write!(f, "no throw needed")?,
            (None, false) => write!(f, "not permitted")?,
        }
        for n in &self.notes {
            write!(f, "\n  {n}")?;
        }
        Ok(())
    }
}

fn terrain_must_be(
    world: &World,
    at: GridPos,
    wanted: crate::level::schema::Terrain,
    what: &str,
) -> Result<(), String> {
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, at, "at")?;
    match grid.terrain(at) {
        Some(t) if t == wanted => Ok(()),
        Some(t) => Err(format!("{at} is {t:?}, not {what}")),
        None => Err(format!("{at} is off the map")),
    }
}

/// `squeeze`: the Squeezing throw a creature would make in the squeeze at `at`.
pub fn squeeze(world: &World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use crate::rules::caving::squeezing_modifiers;
    use crate::rules::throws::{stone_of, stone_target};
    terrain_must_be(
        world,
        at,
        crate::level::schema::Terrain::Squeeze,
        "a squeeze",
    )?;
    let e = creature(world, who)?;
    let stone = stone_of(world.get::<crate::creature::Encumbrance>(e));
    let no_profs = crate::creature::Proficiencies::default();
    let no_conditions = Conditions::default();
    let mods = squeezing_modifiers(
        world
            .get::<crate::creature::Proficiencies>(e)
            .unwrap_or(&no_profs),
        world.get::<Conditions>(e).unwrap_or(&no_conditions),
        world
            .get_resource::<crate::rules::modules::SituationalPenaltiesOn>()
            .is_some(),
    );
    let throw = ThrowOdds::of(world, e, "Squeezing", stone_target(stone), mods)
        .ok_or_else(|| format!("`{who}` has no name to throw under"))?;
    Ok(CavingAnswer {
        question: "squeeze",
        who: who.to_owned(),
        at,
        throw: Some(throw),
        permitted: true,
        gap_feet: None,
        jump_chances: None,
        notes: vec![
            format!("the target is its encumbrance, {stone} stone"),
            "failing, no progress that round; failing on a 1, stuck and vulnerable: wiggle back \
             (Paralysis save) or push forward (Dungeonbashing), encumbrance a penalty, +4 \
             Contortionism, -4 per failed push forward"
                .into(),
        ],
    })
}

/// `swim`: the Swimming throw a creature would make in the deep water at `at`, its swimming
/// speeds, and its breath.
pub fn swim(world: &World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use crate::level::schema::{Terrain, WaterDepth};
    use crate::rules::water::{breath_rounds, sinks_feet, swimming_throw_at};
    terrain_must_be(
        world,
        at,
        Terrain::Water(WaterDepth::Deep),
        "water over the head",
    )?;
    let e = creature(world, who)?;
    let throw = match swimming_throw_at(world, e, Some(at)) {
        Some((target, mods)) => Some(
            ThrowOdds::of(world, e, "Swimming", target, mods)
                .ok_or_else(|| format!("`{who}` has no name to throw under"))?,
        ),
        None => None,
    };
    let stone = crate::rules::throws::stone_of(world.get::<crate::creature::Encumbrance>(e));
    let con = world
        .get::<crate::creature::Abilities>(e)
        .map_or(10, |a| a.0.con);
    let conditions = world.get::<Conditions>(e).cloned().unwrap_or_default();
    let mut notes = Vec::new();
    if let Some(enc) = world.get::<crate::creature::Encumbrance>(e)
        && let Some(s) = crate::rules::movement::Speeds::of(enc.0, &conditions)
    {
        // A quarter of its speed, or its swimming speed (what deep water costs it).
        let swimmer = world.get::<crate::creature::SwimmingSpeed>(e);
        let share = crate::rules::movement::WaterCost::of(enc.0, swimmer).share();
        notes.push(format!(
            "afloat it swims {}' a round at combat pace (and may attack) or {}' running (no \
             attack; the running rules apply){}",
            s.rated(crate::rules::movement::Pace::Combat) * share,
            s.rated(crate::rules::movement::Pace::Running) * share,
            if swimmer.is_some() {
                ": its swimming speed"
            } else {
                ": a quarter of its speed"
            }
        ));
    }
    // RULINGS › Water.
    if world.get::<crate::creature::SwimmingSpeed>(e).is_some() {
        notes.push(
            "at home in water (a swimming speed): no Swimming throw, no water penalty at any depth"
                .into(),
        );
    } else {
        if !world
            .get::<crate::creature::Proficiencies>(e)
            .is_some_and(|p| p.has(crate::level::schema::Proficiency::Swimming))
        {
            notes.push(
                "without the Swimming proficiency it always throws, and succeeds at a net \
                 target of 1 or less"
                    .into(),
            );
        }
        if world
            .get_resource::<crate::rules::modules::SituationalPenaltiesOn>()
            .is_some()
        {
            notes.push(
                "afloat, its other checks take -6 (swimming at the surface; its Swimming throw \
                 takes none); sinking or drowning, -8 (fully submerged)"
                    .into(),
            );
        }
    }
    let depth = world
        .get_resource::<crate::level::WaterDepths>()
        .map_or(0, |w| w.at(at));
    notes.push(format!(
        "drowning, it sinks {}' a round (to {depth}') and holds its breath {} rounds",
        sinks_feet(stone),
        breath_rounds(con)
    ));
    Ok(CavingAnswer {
        question: "swim",
        who: who.to_owned(),
        at,
        throw,
        permitted: true,
        gap_feet: None,
        jump_chances: None,
        notes,
    })
}

/// `climb --who NAME --at X,Y`: climbing down into (or, from its bottom, out of) the pit or
/// chasm square at `at`: the Climbing throw, its chance, speed and how many throws.
pub fn climb(world: &mut World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use crate::rules::caving::Surface;
    use crate::rules::caving::climbing::{
        ADVENTURING_CLIMB, FEET_PER_THROW, climbing_target, hole_at, next_throw_at, rope_in,
    };
    check_square(world.resource::<DungeonGrid>(), at, "at")?;
    let depth = hole_at(world, at)
        .ok_or_else(|| format!("{at} is neither a chasm square nor an open pit"))?;
    let e = creature(world, who)?;
    let rope = rope_in(world, at);
    let surface = crate::rules::caving::climbing::side_of(world, at);
    // A supervising mountaineer's throw counted (Dungeon Delves › Climbing).
    let profs = crate::rules::caving::climbing::supervised_proficiencies(world, e);
    let mut notes = vec![format!(
        "{depth}' of {surface:?} wall{}",
        if rope { " (a rope hangs there)" } else { "" }
    )];
    if let Some((m, value)) = crate::rules::caving::climbing::supervisor(world, e) {
        notes.push(format!(
            "supervised by {} beside it (Mountaineering {value}+), while it stays beside",
            crate::creature::name_of(world, m)
        ));
    }
    let throws = (0..)
        .take_while(|&k| next_throw_at(depth, k).is_some())
        .count();
    notes.push(format!(
        "{throws} throw(s), at the middle of each {FEET_PER_THROW}'"
    ));
    let climbs = crate::rules::caving::climbing::climbing_feet_per_round(
        world,
        e,
        crate::rules::caving::ClimbPace::Third,
    );
    if climbs > 0.0 {
        notes.push(format!(
            "it climbs {climbs:.1}' a round (its exploration speed; a third of its combat speed \
             in a battle)"
        ));
    }
    let permitted = climbing_target(&profs, surface).is_some();
    let throw = match climbing_target(&profs, surface) {
        Some(target) => {
            notes.push(match surface {
                Surface::Easy => format!(
                    "failing: no progress that round; a 1: a fall (Adventuring throws {ADVENTURING_CLIMB}+)"
                ),
                Surface::Sheer => "failing: a fall from the point of the throw".into(),
            });
            let mut mods = crate::rules::penalties::check_penalties(world, e, None);
            mods.extend(crate::rules::calls::judge_modifier(
                world,
                crate::level::schema::JudgeModifier::ClimbingConditions,
                Some(at),
                &[e],
            ));
            ThrowOdds::of(world, e, "Climbing", target, mods)
        }
        None => {
            notes.push(
                "it may not climb a sheer wall: only those proficient in Climbing or \
                 Mountaineering may (a rope lowered from above makes it easy)"
                    .into(),
            );
            None
        }
    };
    Ok(CavingAnswer {
        question: "climb",
        who: who.to_owned(),
        at,
        throw,
        permitted,
        gap_feet: None,
        jump_chances: None,
        notes,
    })
}

/// `jump --who NAME --at X,Y [--from X,Y]`: a jump across the chasm to `at` from `from` (where
/// the creature stands, unless given): the gap, and its chance of clearing it with and without
/// a run-up (each face of the d6).
pub fn jump(
    world: &World,
    at: GridPos,
    who: &str,
    from: Option<GridPos>,
) -> Result<CavingAnswer, String> {
    use crate::rules::caving::jumping::{Jumper, over_the_gap};
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, at, "at")?;
    let e = creature(world, who)?;
    let from = match from {
        Some(p) => {
            check_square(grid, p, "from")?;
            p
        }
        None => world
            .get::<Position>(e)
            .map(|p| p.0)
            .ok_or_else(|| format!("`{who}` has no square"))?,
    };
    let (_, gap) = over_the_gap(world, from, at).ok_or_else(|| {
        format!("{at} is not straight across holes (a chasm, an open pit) from {who} at {from}")
    })?;
    let j = Jumper::of(world, e).ok_or_else(|| format!("`{who}` cannot move"))?;
    let notes = vec![
        format!(
            "a {gap}' gap: DEX {} + 1d6 - {} stone{}",
            j.dex,
            j.stone,
            if j.factor != 1.0 {
                format!(", x {} (running speed / 120)", j.factor)
            } else {
                String::new()
            }
        ),
        format!(
            "with a 20' run-up: {:.0}%; without (halved): {:.0}%",
            j.chance(gap, true) * 100.0,
            j.chance(gap, false) * 100.0
        ),
        "short: into the chasm where it comes down".into(),
    ];
    Ok(CavingAnswer {
        question: "jump",
        who: who.to_owned(),
        at,
        throw: None,
        permitted: true,
        gap_feet: Some(gap),
        jump_chances: Some((j.chance(gap, true), j.chance(gap, false))),
        notes,
    })
}
