//! What is heard: the earshot of a noise and its verdict at a square or over the map, and who heard a noise (Dungeon Delves › Noise).

use delve_ground::dice::Throw;
use delve_ground::level::schema::{Environment, Proficiency};
use delve_ground::log::EventLog;
use delve_ground::time::Clock;
use delve_rules::creature::Faction;
use delve_rules::rules::sound::SoundRow;

use bevy::prelude::*;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::creature::{Conditions, CreatureIndex, LevelInfo, Position};
use serde::Serialize;
use std::fmt;

use super::check_square;

/// `hear --from X,Y --sound ROW [--at X,Y] [--environment E]`: earshot distance and verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HearAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub sound: SoundRow,
    pub environment: Environment,
    /// The square asked about, if one was.
    pub at: Option<GridPos>,
    /// Earshot distance in feet to it (`null` when sound cannot reach it within earshot).
    pub earshot_feet: Option<f32>,
    /// `automatic`, `throw` or `inaudible`.
    pub verdict: Option<delve_rules::rules::sound::Verdict>,
    /// Without `--at`: one string per row (`A` automatic, `t` with a throw, `.` inaudible).
    pub rows: Vec<String>,
}

/// With `environment`, every square is taken to be in it; otherwise each listener's square is in
/// the level's environment for it.
pub fn hear(
    world: &World,
    from: GridPos,
    sound: SoundRow,
    at: Option<GridPos>,
    environment: Option<Environment>,
) -> Result<HearAnswer, String> {
    use delve_rules::rules::sound::{Earshot, verdicts_from};
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
                        delve_rules::rules::sound::Verdict::Automatic => "heard automatically",
                        delve_rules::rules::sound::Verdict::Throw => "heard with a Listening throw",
                        delve_rules::rules::sound::Verdict::Inaudible => "inaudible",
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
    pub sound: SoundRow,
    pub what: String,
    pub listeners: Vec<Listener>,
}

/// One creature within a noise's earshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Listener {
    pub who: String,
    pub at: GridPos,
    /// `automatic` or `throw` where it stands.
    pub verdict: delve_rules::rules::sound::Verdict,
    /// It heard the noise (or a companion's shout called it).
    pub heard: bool,
    /// Its Listening throw this round, if it threw.
    pub throw: Option<Throw>,
}

impl fmt::Display for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use delve_rules::rules::sound::Verdict;
        let throw = |t: &Throw| {
            // Plain ASCII: the map's labels draw in a font without arrows (an arrow once showed
            // as an empty box).
            format!("Listening d20 {} = {} vs {}", t.natural, t.total, t.target)
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
    use delve_rules::rules::sound::hearing::HeardThisRound;
    use delve_rules::rules::sound::noises::LastRoundNoises;
    use delve_rules::rules::sound::{Earshot, Verdict, verdicts_from};
    use delve_rules::rules::throws::{Skill, ThrowEvent};
    let (Some(noises), Some(heard)) = (
        world.get_resource::<LastRoundNoises>(),
        world.get_resource::<HeardThisRound>(),
    ) else {
        return Vec::new();
    };
    let grid = world.resource::<DungeonGrid>();
    let info = world.resource::<LevelInfo>();
    let round = world.resource::<Clock>().rounds.saturating_sub(1);
    let log = world.resource::<EventLog>().entries();
    let from = log.partition_point(|e| e.round < round);
    let listening = |who: &str| {
        log[from..]
            .iter()
            .find_map(|e| match e.get::<ThrowEvent>() {
                Some(ThrowEvent::Threw {
                    who: w,
                    skill: Skill::Proficiency(Proficiency::Listening),
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
                    let faction = |c: Entity| world.get::<Faction>(c).copied();
                    if !called && noise.maker.is_some_and(|m| faction(m) == faction(*e)) {
                        return None;
                    }
                    let verdict = verdicts[grid.index(at)?];
                    if verdict == Verdict::Inaudible
                        || world
                            .get::<Conditions>(*e)
                            .is_some_and(delve_rules::rules::conditions::is_down)
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
