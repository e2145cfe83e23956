//! `delve lab`: many autonomous delves of a level in parallel (or shards of them), what came of
//! them written as runs, pictures and reports; two labs compared; shards merged.

use delve::lab::expect::{Expectations, Verdict};
use delve::lab::{LabPlan, LabResult, RunRecord};
use delve_ground::level::Level;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use crate::{has_party, load, load_policy};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LabArgs {
    #[command(subcommand)]
    pub action: Option<LabAction>,
    /// The level to play.
    #[arg(required = true)]
    level: Option<PathBuf>,
    /// How many delves (seeded SEED, SEED + 1, …): 1 or more.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The party policy: a settings file (RON) or a persona's name (careful, bold, thorough,
    /// hasty); the careful persona, the defaults, when left out.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Threads to play on; all the machine's cores when left out.
    #[arg(long)]
    jobs: Option<usize>,
    /// Where to write the report; `lab-LEVEL` in the current folder when left out.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only the I-th (from 0) of N slices of the seeds and write a partial result for
    /// `delve lab merge` (a scheduler's array index picks I).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Go on with a lab that was interrupted (Ctrl-C) in `--out`: the delves it kept are not
    /// played again.
    #[arg(long)]
    resume: bool,
    /// Expectations the level must keep (RON): delves are played until each is decided by a
    /// sequential test or the cap (the file's, else --runs); each verdict is printed, and the
    /// exit status is 3 if any fails. With --shard, they are judged at `delve lab merge`.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum LabAction {
    /// Which numbers moved beyond their 95% intervals between two labs (before and after).
    Compare { before: PathBuf, after: PathBuf },
    /// Merge the partial results of a lab's shards into one report, as if played at once.
    Merge {
        #[arg(required = true, value_name = "DIR")]
        parts: Vec<PathBuf>,
        /// Where to write the report.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Expectations to judge on the merged delves (in the order of their seeds).
        #[arg(long, value_name = "FILE")]
        expect: Option<PathBuf>,
    },
}

/// Reads an expectations file for the level; the error says where and why.
fn read_expectations(file: &Path, level: &Level) -> Result<Expectations, String> {
    let text = delve_ground::files::read_text(file)
        .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    delve::lab::expect::parse(&text, &file.display().to_string(), level)
}

/// Prints each verdict; true if every expectation passed.
fn tell_verdicts(verdicts: &[Verdict]) -> bool {
    for v in verdicts {
        println!("{} {v}", if v.passed() { "ok  " } else { "FAIL" });
    }
    let failed = verdicts.iter().filter(|v| !v.passed()).count();
    println!(
        "{} of {} expectations kept",
        verdicts.len() - failed,
        verdicts.len()
    );
    failed == 0
}

/// The exit status of a lab whose expectations were not all kept.
const EXPECTATION_FAILED: u8 = 3;

/// `delve lab`: the delves in parallel with a progress bar, then the report (or, for a shard,
/// its partial result).
pub fn run_lab(args: LabArgs) -> ExitCode {
    let path = args.level.expect("clap requires the level");
    // The seeds are SEED, SEED + 1, …: the last must be a seed.
    if args.seed.checked_add(args.runs).is_none() {
        eprintln!(
            "error: --seed {} with --runs {}: the last seed would pass {} (the largest)",
            args.seed,
            args.runs,
            u64::MAX
        );
        return ExitCode::from(2);
    }
    let Some(policy) = load_policy(args.policy.as_deref()) else {
        return ExitCode::from(1);
    };
    let Some(loaded) = load(&path) else {
        return ExitCode::from(1);
    };
    if !has_party(&path, &loaded.level) {
        return ExitCode::from(2);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let whole = LabPlan {
        level: loaded.level,
        policy,
        seed: args.seed,
        runs: args.runs,
        jobs,
    };
    let plan = match args.shard.as_deref().map(parse_shard) {
        None => whole,
        Some(Ok((i, n))) => match whole.shard(i, n) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let expectations = match args.expect.as_deref() {
        None => None,
        Some(_) if args.resume => {
            eprintln!("error: --expect plays until its answer is clear; it cannot --resume");
            return ExitCode::from(2);
        }
        Some(f) => match read_expectations(f, &plan.level) {
            Ok(e) => Some(e),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let stem = path
        .file_stem()
        .map_or("level".into(), |s| s.to_string_lossy());
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("lab-{stem}")));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("{}: cannot make the report's folder: {e}", out.display());
        return ExitCode::from(1);
    }
    let file = path.display().to_string();
    // What an interrupted lab kept, when resuming it.
    let kept = if args.resume && out.join("lab.json").exists() {
        match delve::lab::resume(&out, &plan, &file) {
            Ok((kept, warnings)) => {
                for w in warnings {
                    eprintln!("warning: {w}");
                }
                kept
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        LabResult::default()
    };
    if let Some(expectations) = expectations.as_ref().filter(|_| args.shard.is_none()) {
        return play_until_decided(plan, expectations, &file, &out);
    }
    let seeds: Vec<u64> = plan
        .seeds()
        .filter(|s| !kept.records.iter().any(|r| r.seed == *s))
        .collect();
    // Ctrl-C lets the delves under way finish and keeps what was played.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    let bar = indicatif::ProgressBar::new(plan.runs).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} delves, {per_sec}, {eta} left",
        )
        .expect("the progress bar's template"),
    );
    bar.set_position(kept.records.len() as u64);
    let result = match delve::lab::run_seeds(&plan, &seeds, |_| bar.inc(1), &stop) {
        Ok(r) => delve::lab::join(kept, r),
        Err(e) => {
            bar.abandon();
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        bar.abandon();
        if let Err(e) = delve::lab::write_partial(&plan, &file, &result, &out) {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
        eprintln!(
            "interrupted: {} of {} delves kept in {}; the same command with --resume goes on",
            result.records.len(),
            plan.runs,
            out.display()
        );
        return ExitCode::from(130);
    }
    bar.finish();
    let written = if args.shard.is_some() {
        delve::lab::write_partial(&plan, &file, &result, &out)
    } else {
        delve::lab::report::write_all(&plan, &file, &result, &out)
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    tell_failed(&result.records, plan.runs, &file, &out);
    ExitCode::SUCCESS
}

/// `delve lab --expect`: delves in batches, in the order of the seeds, until every
/// expectation is decided or the cap is reached; then the report of the delves played and the
/// verdicts.
fn play_until_decided(
    mut plan: LabPlan,
    expectations: &Expectations,
    file: &str,
    out: &Path,
) -> ExitCode {
    let cap = expectations.cap.unwrap_or(plan.runs);
    let batch = (plan.jobs as u64 * 8).max(16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let bar = indicatif::ProgressBar::new(cap).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} delves at most, {per_sec}: until the expectations are decided",
        )
        .expect("the progress bar's template"),
    );
    let mut result = LabResult::default();
    let mut played = 0;
    let verdicts = loop {
        let next = batch.min(cap - played);
        let seeds: Vec<u64> = (plan.seed + played..plan.seed + played + next).collect();
        match delve::lab::run_seeds(&plan, &seeds, |_| bar.inc(1), &stop) {
            Ok(r) => result = delve::lab::join(result, r),
            Err(e) => {
                bar.abandon();
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        played += next;
        let verdicts = expectations.judge(&result.records);
        if expectations.all_decided(&verdicts) || played >= cap {
            break verdicts;
        }
    };
    bar.finish_and_clear();
    plan.runs = played;
    if let Err(e) = delve::lab::report::write_all(&plan, file, &result, out) {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    tell_failed(&result.records, plan.runs, file, out);
    if tell_verdicts(&verdicts) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXPECTATION_FAILED)
    }
}

fn tell_failed(records: &[RunRecord], runs: u64, file: &str, out: &Path) {
    let failed = records.iter().filter(|r| r.error.is_some()).count();
    eprintln!(
        "{runs} delves of {file}: the results are in {}{}",
        out.display(),
        if failed > 0 {
            format!(" ({failed} failed: see the report)")
        } else {
            String::new()
        }
    );
}

/// `I/N`, both whole numbers.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("--shard {s}: expected I/N, as 0/4"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<u64>()
            .map_err(|_| format!("--shard {s}: expected I/N, as 0/4"))
    };
    Ok((num(i)?, num(n)?))
}

/// `delve lab compare BEFORE AFTER`: every share and mean of every table, paired by seed.
pub fn lab_compare(before: &Path, after: &Path) -> ExitCode {
    match (delve::lab::read_lab(before), delve::lab::read_lab(after)) {
        (Ok((pa, a)), Ok((pb, b))) => {
            let changes = delve::lab::compare::compare((&pa, &a), (&pb, &b));
            print!("{}", delve::lab::compare::table(&changes));
            let moved = changes.iter().filter(|c| c.moved).count();
            let paired = changes.iter().filter(|c| c.paired.is_some()).count();
            println!(
                "{moved} of {} numbers moved beyond their 95% intervals ({paired} read seed by \
                 seed; {} delves before, {} after)",
                changes.len(),
                a.len(),
                b.len()
            );
            ExitCode::SUCCESS
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `delve lab merge DIR... --out DIR [--expect FILE]`.
pub fn lab_merge(parts: &[PathBuf], out: &Path, expect: Option<&Path>) -> ExitCode {
    let read: Result<Vec<_>, String> = parts.iter().map(|d| delve::lab::read_partial(d)).collect();
    let merged = read.and_then(delve::lab::merge);
    let (meta, result) = match merged {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let Some(loaded) = load(Path::new(&meta.level_file)) else {
        return ExitCode::from(1);
    };
    let plan = LabPlan {
        level: loaded.level,
        policy: meta.policy.clone(),
        seed: meta.seed,
        runs: meta.runs,
        jobs: 1,
    };
    if let Err(e) = std::fs::create_dir_all(out)
        .map_err(|e| format!("{}: cannot make the folder: {e}", out.display()))
        .and_then(|()| delve::lab::report::write_all(&plan, &meta.level_file, &result, out))
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    tell_failed(&result.records, meta.runs, &meta.level_file, out);
    match expect.map(|f| read_expectations(f, &plan.level)) {
        None => ExitCode::SUCCESS,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Some(Ok(x)) if tell_verdicts(&x.judge(&result.records)) => ExitCode::SUCCESS,
        Some(Ok(_)) => ExitCode::from(EXPECTATION_FAILED),
    }
}
