//! The level-design lab: many autonomous delves of one level, played in parallel (one world per
//! delve, one seed each), and what a designer reads from them.
//!
//! [`run_lab`] plays the seeds on a pool of threads and gives one [`RunRecord`] per seed, in
//! the order of the seeds whatever the number of threads, so the same level, seeds and policy
//! give the same records. A delve that panics in a rule, or that comes to no outcome within its
//! rounds, is recorded with its seed and its error; the others go on. [`report`] writes the
//! records as `runs.jsonl` (one line a delve, to replay any of them with `delve sim LEVEL --auto
//! --seed S`) and `report.md`.

pub mod compare;
pub mod expect;
mod folder;
pub mod heat;
pub mod plots;
pub mod report;
pub mod survival;
pub mod tables;
pub mod watch;

use delve_ground::grid::GridPos;
use delve_minds::policy::party::DelveEnd;
use delve_rules::act::Activity;
use delve_rules::creature::Faction;
use delve_rules::rules::doors::DoorOpening;
use delve_rules::rules::party::Parties;
use delve_rules::rules::sound::NoiseKind;

use std::panic::{AssertUnwindSafe, catch_unwind};

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use delve_ground::level::Level;
use delve_ground::party_policy::PartyPolicy;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_minds::policy::outcome::{Outcome, Tally};
pub use folder::{LEVEL_COPY, LabMeta, merge, read_lab, read_partial, resume, write_partial};
use heat::{Heat, HeatCollector};

/// What a lab plays: the level, the policy, the seeds, and how many threads.
#[derive(Clone, Debug)]
pub struct LabPlan {
    pub level: Level,
    pub policy: PartyPolicy,
    /// The first seed; the delves are seeded `seed`, `seed + 1`, …
    pub seed: u64,
    pub runs: u64,
    /// Threads to play on (at least 1).
    pub jobs: usize,
}

impl LabPlan {
    /// The seeds it plays, in order.
    pub fn seeds(&self) -> std::ops::Range<u64> {
        self.seed..self.seed + self.runs
    }

    /// The `index`-th (from 0) of `count` slices of the seeds, as a plan of its own: slices are
    /// runs of seeds one after the other, as even as they can be, together all the seeds.
    pub fn shard(&self, index: u64, count: u64) -> Result<LabPlan, String> {
        if count == 0 || index >= count {
            return Err(format!(
                "--shard {index}/{count}: the shard is a number from 0 to {} of {count}",
                count.saturating_sub(1)
            ));
        }
        let from = self.runs * index / count;
        let to = self.runs * (index + 1) / count;
        Ok(LabPlan {
            seed: self.seed + from,
            runs: to - from,
            ..self.clone()
        })
    }

    /// The most rounds a delve may take: the policy's turn limit, and a round to log the end.
    pub fn max_rounds(&self) -> u64 {
        self.policy.turn_limit * ROUNDS_PER_TURN + 1
    }
}

/// One delve of a lab: its seed, and how it ended with its numbers, or why it failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub seed: u64,
    /// How it ended; none when the delve failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
    #[serde(flatten, default)]
    pub tally: Tally,
    /// Which traps and doors it met, and what it found.
    #[serde(flatten, default)]
    pub features: Features,
    /// Why the delve failed: a rule's panic, or no outcome within its rounds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
}

/// The traps, doors and secrets of the level a delve met, from its typed events.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Features {
    /// Traps that went off: where, and what they were.
    pub sprung: Vec<(GridPos, String)>,
    /// Traps and secret doors the party found.
    pub found: Vec<(GridPos, String)>,
    /// Traps the party disarmed (or discharged).
    pub disarmed: Vec<GridPos>,
    /// Doors the party opened, and how.
    pub opened: Vec<(GridPos, DoorOpening)>,
    /// Locks the party picked.
    pub picked: Vec<GridPos>,
    /// The rooms the party came into (named by their first square), and the turn it first did.
    pub reached: Vec<(GridPos, f32)>,
    /// The foes a noise brought to the fight: each with the last noise it heard (or the
    /// companion's shout it answered) before it first fought the party.
    pub brought: Vec<Brought>,
    /// The foes the party fought (struck, or was struck by), in the order first met.
    pub fought: Vec<String>,
    /// Those of them that fell (dying or dead: out of the fight).
    pub felled: Vec<String>,
    /// Every door of the level: reached, tried each way, opened or failed, turns spent.
    pub doors: Vec<watch::DoorRecord>,
    /// Every secret door: reached, searched, found.
    pub secret_doors: Vec<watch::SecretDoorRecord>,
    /// Every trap: sprung on a member, discharged harmlessly, its harm.
    pub traps: Vec<watch::TrapRecord>,
    /// Members brought down or left behind: by what, where, when, and how it ended for them.
    pub casualties: Vec<watch::Casualty>,
    /// Turns by what the party was doing.
    pub time: watch::TimeBudget,
}

/// A foe a noise brought to the fight, from the typed events (`HearingEvent::Heard`,
/// `MonsterEvent::AnsweredCall`, then `CombatEvent::Attacked`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brought {
    pub monster: String,
    pub noise: NoiseKind,
    pub made_by: MadeBy,
}

/// Who made a noise that brought a monster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MadeBy {
    /// A member of the party.
    TheParty,
    /// The monster's companion, shouting for help.
    ItsCompanion,
    /// Another creature.
    SomeoneElse,
    /// No one: a trap set off from afar, or the Judge.
    NoOne,
}

impl std::fmt::Display for MadeBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MadeBy::TheParty => "the party",
            MadeBy::ItsCompanion => "its companion",
            MadeBy::SomeoneElse => "another creature",
            MadeBy::NoOne => "no one",
        })
    }
}

/// Plays one delve of the lab and records it, with where things happened; a panic is caught
/// and recorded (and its delve adds no heat).
pub fn run_one(plan: &LabPlan, seed: u64) -> (RunRecord, Heat) {
    let played = catch_unwind(AssertUnwindSafe(|| {
        let mut collector: Option<HeatCollector> = None;
        let app = delve_play::sim::play_autonomous_watched(
            &plan.level,
            seed,
            &plan.policy,
            &[],
            plan.max_rounds(),
            |world| {
                collector
                    .get_or_insert_with(|| {
                        let (party, faction) = first_party(world);
                        HeatCollector::new(world, party, faction)
                    })
                    .after_round(world)
            },
        );
        let end = app.world().resource::<DelveEnd>().0.clone();
        let tally = end.as_ref().map(|e| e.2.clone()).unwrap_or_default();
        let (heat, features) =
            collector.map_or_else(Default::default, |c| c.finish(app.world(), &tally));
        (end, heat, features)
    }));
    let (record, mut heat) = match played {
        Ok((Some((_, outcome, tally)), heat, features)) => (
            RunRecord {
                seed,
                outcome: Some(outcome),
                tally,
                features,
                error: None,
            },
            heat,
        ),
        Ok((None, ..)) => (
            RunRecord {
                seed,
                outcome: None,
                tally: Tally::default(),
                features: Features::default(),
                error: Some(format!(
                    "no outcome within {} rounds: the delve went round in circles",
                    plan.max_rounds()
                )),
            },
            Heat::default(),
        ),
        Err(panic) => (
            RunRecord {
                seed,
                outcome: None,
                tally: Tally::default(),
                features: Features::default(),
                error: Some(panic_message(panic.as_ref())),
            },
            Heat::default(),
        ),
    };
    heat.seeds = vec![seed];
    (record, heat)
}

/// The members of the level's first party, and its faction.
fn first_party(world: &bevy::prelude::World) -> (Vec<String>, Option<Faction>) {
    let Some(party) = world.resource::<Parties>().0.first() else {
        return (Vec::new(), None);
    };
    let names = party
        .marching_order
        .iter()
        .map(|&m| delve_rules::creature::name_of(world, m))
        .collect();
    let faction = party
        .marching_order
        .first()
        .and_then(|&m| world.get::<Faction>(m))
        .copied();
    (names, faction)
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".into());
    format!("a rule panicked: {what}")
}

/// What a lab came to: a record a delve, in the order of the seeds, and the heat of them all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabResult {
    pub records: Vec<RunRecord>,
    pub heat: Heat,
}

/// Plays every seed of the plan on `plan.jobs` threads, calling `done` after each delve (for a
/// progress bar).
pub fn run_lab(plan: &LabPlan, done: impl Fn(&RunRecord) + Sync) -> Result<LabResult, String> {
    let seeds: Vec<u64> = plan.seeds().collect();
    run_seeds(plan, &seeds, done, &AtomicBool::new(false))
}

/// Plays these seeds of the plan, as [`run_lab`], until `stop` is set (Ctrl-C): the delves
/// under way finish, none starts after, and the result holds those that were played.
pub fn run_seeds(
    plan: &LabPlan,
    seeds: &[u64],
    done: impl Fn(&RunRecord) + Sync,
    stop: &AtomicBool,
) -> Result<LabResult, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", plan.jobs))?;
    let played = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let (record, heat) = run_one(plan, seed);
                done(&record);
                Some((record, heat))
            })
            .collect::<Vec<_>>()
    });
    let mut result = LabResult::default();
    for (record, heat) in played.into_iter().flatten() {
        result.heat.add(&heat);
        result.records.push(record);
    }
    Ok(result)
}

/// A lab's result so far and the rest of it, as one: the records in the order of the seeds,
/// the heat summed.
pub fn join(mut so_far: LabResult, rest: LabResult) -> LabResult {
    so_far.heat.add(&rest.heat);
    so_far.records.extend(rest.records);
    so_far.records.sort_by_key(|r| r.seed);
    so_far.heat.seeds.sort_unstable();
    so_far
}

/// The records as JSON lines, one delve a line, in the order of the seeds.
pub fn runs_jsonl(records: &[RunRecord]) -> String {
    let mut out = String::new();
    for r in records {
        out += &serde_json::to_string(r).expect("records serialize");
        out.push('\n');
    }
    out
}

/// The records of a `runs.jsonl`, each within its bounds ([`RunRecord::check`]); the error
/// names the line.
pub fn read_runs_jsonl(text: &str) -> Result<Vec<RunRecord>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| read_record(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// One line of a `runs.jsonl`, checked.
fn read_record(line: &str) -> Result<RunRecord, String> {
    let record: RunRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
    record.check()?;
    Ok(record)
}

/// The largest number a lab's record holds, either way (its seed aside).
pub const MAX_RECORD_NUMBER: f64 = 1_000_000.0;

impl RunRecord {
    /// A record read from a file is one a delve could have made: its rounds and turns within
    /// the longest delve, every number of turns finite (one record of `turns: 1e9` once made
    /// the report allocate 32 GB for its histogram).
    pub fn check(&self) -> Result<(), String> {
        use delve_ground::time::{MAX_ROUNDS, MAX_TURNS};
        let t = &self.tally;
        if t.rounds > MAX_ROUNDS + 1 {
            return Err(format!(
                "rounds {} is past the longest delve ({} rounds)",
                t.rounds,
                MAX_ROUNDS + 1
            ));
        }
        let most = (MAX_TURNS + 1) as f32;
        let turns = [("turns", t.turns)]
            .into_iter()
            .chain(self.features.reached.iter().map(|r| ("a room's turn", r.1)))
            .chain(
                self.features
                    .casualties
                    .iter()
                    .filter_map(|c| c.turn.map(|t| ("a casualty's turn", t))),
            )
            .chain(
                Activity::ALL
                    .iter()
                    .map(|&a| (a.words(), self.features.time.get(a))),
            );
        for (what, v) in turns {
            if !(v.is_finite() && (0.0..=most).contains(&v)) {
                return Err(format!("{what} {v} is not 0 to {most} turns"));
            }
        }
        let fuel = t.light_turns_used;
        if !(fuel.is_finite() && fuel >= 0.0) {
            return Err(format!("light_turns_used {fuel} is not a number of turns"));
        }
        // Under those, every number a delve counts (traps sprung, hit points, a door's tries)
        // is at most a million, so that sums over a lab stay within their types.
        fn wild(v: &serde_json::Value, key: &str) -> Option<String> {
            match v {
                serde_json::Value::Number(n) if key != "seed" => {
                    let x = n.as_f64().unwrap_or(f64::INFINITY);
                    (x.is_nan() || x.abs() > MAX_RECORD_NUMBER)
                        .then(|| format!("{key} {n} is out of bounds: at most {MAX_RECORD_NUMBER}"))
                }
                serde_json::Value::Array(a) => a.iter().find_map(|x| wild(x, key)),
                serde_json::Value::Object(o) => o.iter().find_map(|(k, x)| wild(x, k)),
                _ => None,
            }
        }
        let value = serde_json::to_value(self).map_err(|e| e.to_string())?;
        wild(&value, "").map_or(Ok(()), Err)
    }
}
