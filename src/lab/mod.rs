//! The level-design lab: many autonomous delves of one level, played in parallel (one world per
//! delve, one seed each), and what a designer reads from them.
//!
//! [`run_lab`] plays the seeds on a pool of threads and gives one [`RunRecord`] per seed, in
//! the order of the seeds whatever the number of threads, so the same level, seeds and policy
//! give the same records. A delve that panics in a rule, or that comes to no outcome within its
//! rounds, is recorded with its seed and its error; the others go on. [`report`] writes the
//! records as `runs.jsonl` (one line a delve, to replay any of them with `delve sim LEVEL --auto
//! --seed S`) and `report.md`.

pub mod report;

use std::panic::{AssertUnwindSafe, catch_unwind};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::level::Level;
use crate::policy::{Outcome, PartyPolicy, Tally};
use crate::time::ROUNDS_PER_TURN;

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
    /// Why the delve failed: a rule's panic, or no outcome within its rounds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
}

/// Plays one delve of the lab and records it; a panic is caught and recorded.
pub fn run_one(plan: &LabPlan, seed: u64) -> RunRecord {
    let played = catch_unwind(AssertUnwindSafe(|| {
        let app =
            crate::sim::play_autonomous(&plan.level, seed, &plan.policy, &[], plan.max_rounds());
        app.world().resource::<crate::policy::DelveEnd>().0.clone()
    }));
    match played {
        Ok(Some((_, outcome, tally))) => RunRecord {
            seed,
            outcome: Some(outcome),
            tally,
            error: None,
        },
        Ok(None) => RunRecord {
            seed,
            outcome: None,
            tally: Tally::default(),
            error: Some(format!(
                "no outcome within {} rounds: the delve went round in circles",
                plan.max_rounds()
            )),
        },
        Err(panic) => RunRecord {
            seed,
            outcome: None,
            tally: Tally::default(),
            error: Some(panic_message(panic.as_ref())),
        },
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".into());
    format!("a rule panicked: {what}")
}

/// Plays every seed of the plan on `plan.jobs` threads, calling `done` after each delve (for a
/// progress bar), and gives the records in the order of the seeds.
pub fn run_lab(plan: &LabPlan, done: impl Fn(&RunRecord) + Sync) -> Result<Vec<RunRecord>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", plan.jobs))?;
    let records = pool.install(|| {
        plan.seeds()
            .into_par_iter()
            .map(|seed| {
                let record = run_one(plan, seed);
                done(&record);
                record
            })
            .collect::<Vec<_>>()
    });
    Ok(records)
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

/// The records of a `runs.jsonl`; the error names the line.
pub fn read_runs_jsonl(text: &str) -> Result<Vec<RunRecord>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
