//! Questions a Judge asks of a level without running a delve. Each answer is a serde struct: the
//! command line prints it as text, or with `--json` as one JSON object whose field names are
//! stable (documented in the README).

use std::fmt;

use serde::Serialize;

use crate::command::Choice;
use crate::grid::GridPos;
use crate::grid::los::line_of_sight;
use crate::grid::path::find_path;
use crate::level::Level;

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
fn creature<'a>(level: &'a Level, who: &str) -> Result<&'a crate::level::CreatureDef, String> {
    level.creature(who).ok_or_else(|| {
        let names: Vec<&str> = level.creatures.iter().map(|c| c.name.as_str()).collect();
        format!(
            "there is no creature named `{who}` (there are: {})",
            names.join(", ")
        )
    })
}

fn check_square(level: &Level, p: GridPos, what: &str) -> Result<(), String> {
    let g = &level.grid;
    if g.in_bounds(p) {
        Ok(())
    } else {
        Err(format!(
            "--{what} {p} is outside the map, which is {} wide and {} high",
            g.width(),
            g.height()
        ))
    }
}

pub fn los(level: &Level, from: GridPos, to: GridPos) -> Result<LosAnswer, String> {
    check_square(level, from, "from")?;
    check_square(level, to, "to")?;
    Ok(LosAnswer {
        question: "los",
        from,
        to,
        line_of_sight: line_of_sight(&level.grid, from, to),
        distance_feet: level.grid.distance_feet(from, to),
    })
}

pub fn path(level: &Level, from: GridPos, to: GridPos) -> Result<PathAnswer, String> {
    check_square(level, from, "from")?;
    check_square(level, to, "to")?;
    let found = find_path(&level.grid, from, to);
    let reason = match (&found, level.grid.terrain(to)) {
        (Some(_), _) => None,
        (None, Some(t)) if !level.grid.is_passable(to) => {
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

pub fn speeds(level: &Level, who: &str) -> Result<SpeedsAnswer, String> {
    use crate::level::SpeedBasis;
    use crate::level::schema::{ConditionKind, Terrain};
    use crate::rules::conditions::Conditions;
    use crate::rules::movement::{Pace, Speeds, terrain_cost};

    let c = creature(level, who)?;
    let conditions = Conditions::from_level(&c.conditions);
    let speeds = Speeds::of(c.speed, &conditions);
    let mut why = Vec::new();
    let (stone, feet) = match c.speed {
        SpeedBasis::Encumbrance { stone } => {
            let band = match stone {
                s if s <= 5.0 => "up to 5 stone",
                s if s <= 7.0 => "over 5, up to 7 stone",
                s if s <= 10.0 => "over 7, up to 10 stone",
                s if s <= 20.0 => "over 10, up to 20 stone",
                _ => "over 20 stone: cannot move",
            };
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
    if let Some(t) = level.grid.terrain(c.at) {
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
    why.push("difficult terrain (rubble) costs double; water over the head four times (swimming at one quarter)".into());
    Ok(SpeedsAnswer {
        question: "speeds",
        who: c.name.clone(),
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

pub fn light(level: &Level, at: Option<GridPos>) -> Result<LightAnswer, String> {
    let map = crate::rules::light::level_light_map(level);
    match at {
        Some(p) => {
            check_square(level, p, "at")?;
            Ok(LightAnswer {
                question: "light",
                at: Some(p),
                light: Some(map.level(&level.grid, p)),
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

pub fn sees(level: &Level, who: &str) -> Result<SeesAnswer, String> {
    use crate::rules::conditions::Conditions;
    use crate::rules::movement::MovedThisRound;
    use crate::rules::vision::{Senses, blinded_otherwise, shadowy_senses_work, sight_of};
    let c = creature(level, who)?;
    let map = crate::rules::light::level_light_map(level);
    let conditions = Conditions::from_level(&c.conditions);
    let vision = crate::creature::Vision {
        lightless_vision_feet: c.lightless_vision_feet,
        shadowy_senses: c.shadowy_senses,
    };
    let dark_magic =
        map.level(&level.grid, c.at) == crate::rules::light::LightLevel::MagicalDarkness;
    let senses = Senses {
        lightless_vision_feet: c.lightless_vision_feet,
        shadowy_senses: shadowy_senses_work(
            &vision,
            &conditions,
            &MovedThisRound::default(),
            dark_magic,
        ),
        blinded: blinded_otherwise(&conditions),
    };
    let mut seen = sight_of(&level.grid, &map, c.at, senses);
    seen.sort_unstable_by_key(|(p, _)| (p.y, p.x));
    let g = &level.grid;
    let mut rows = vec![vec![' '; g.width() as usize]; g.height() as usize];
    for (p, how) in &seen {
        rows[p.y as usize][p.x as usize] = how.symbol();
    }
    rows[c.at.y as usize][c.at.x as usize] = '@';
    Ok(SeesAnswer {
        question: "sees",
        who: c.name.clone(),
        at: c.at,
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

pub fn hear(
    level: &Level,
    from: GridPos,
    sound: crate::rules::sound::SoundRow,
    at: Option<GridPos>,
    environment: Option<crate::level::schema::Environment>,
) -> Result<HearAnswer, String> {
    use crate::rules::sound::{Earshot, bound, verdict};
    check_square(level, from, "from")?;
    use crate::level::environment_at;
    let regions: &[_] = if environment.is_some() {
        &[]
    } else {
        &level.environment_regions
    };
    let base = environment.unwrap_or(level.environment);
    let env_at = |p: GridPos| environment_at(base, regions, p);
    let widest = regions
        .iter()
        .map(|r| r.2)
        .chain(std::iter::once(base))
        .map(|e| bound(sound, e))
        .max()
        .unwrap_or(0);
    let env = match at {
        Some(p) => env_at(p),
        None => base,
    };
    let g = &level.grid;
    let mut e = Earshot::default();
    e.propagate(g, from, widest);
    let mut answer = HearAnswer {
        question: "hear",
        from,
        sound,
        environment: env,
        at,
        earshot_feet: None,
        verdict: None,
        rows: Vec::new(),
    };
    match at {
        Some(p) => {
            check_square(level, p, "at")?;
            let d = e.half_feet(g, p);
            answer.earshot_feet = d.map(|d| d as f32 / 2.0);
            answer.verdict = Some(verdict(sound, env, d));
        }
        None => {
            answer.rows = (0..g.height() as i32)
                .map(|y| {
                    (0..g.width() as i32)
                        .map(|x| {
                            let p = GridPos::new(x, y);
                            verdict(sound, env_at(p), e.half_feet(g, p)).symbol()
                        })
                        .collect()
                })
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

pub fn door(level: &Level, at: GridPos, who: &str) -> Result<DoorAnswer, String> {
    check_square(level, at, "at")?;
    let c = creature(level, who)?;
    let d = &crate::rules::doors::Door::from(
        &level
            .door_at(at)
            .ok_or_else(|| format!("there is no door at {at}"))?
            .door,
    );
    let profs = crate::creature::Proficiencies::new(&c.proficiencies, &c.throws);
    let gear = crate::creature::Equipment(c.gear.clone());
    let worker = crate::rules::doors::DoorWorker {
        name: &c.name,
        strength: c.abilities.str,
        profs: &profs,
        gear: &gear,
        size_categories: c.size.categories_from_man_sized(),
        hasty_pick_barred: false,
        armed: !c.weapons.is_empty(),
    };
    let (ways, none_because) = match crate::rules::doors::ways_through(d, at, &worker) {
        Ok(ways) => (ways, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    Ok(DoorAnswer {
        question: "door",
        at,
        who: c.name.clone(),
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
}

pub fn initiative(level: &Level, seed: u64) -> Result<InitiativeAnswer, String> {
    use crate::rules::abilities::tactical_modifier;
    let entrants: Vec<crate::rules::combat::initiative::Entrant> = level
        .factions
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let mut members: Vec<(String, i32)> = level
                .creatures
                .iter()
                .filter(|c| c.faction == i)
                .map(|c| {
                    let m = c
                        .initiative_modifier
                        .unwrap_or_else(|| tactical_modifier(c.abilities.dex));
                    (c.name.clone(), m)
                })
                .collect();
            members.sort();
            (!members.is_empty()).then(|| (i, f.name.clone(), members))
        })
        .collect();
    if entrants.len() < 2 {
        return Err("the level has fewer than two factions with creatures: no battle".into());
    }
    let mut dice = crate::dice::Dice::seeded(seed);
    let factions = crate::rules::combat::initiative::roll_initiative(&mut dice, entrants);
    Ok(InitiativeAnswer {
        question: "initiative",
        seed,
        factions,
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
        write!(f, "\norder: {}", order.join(", "))
    }
}
