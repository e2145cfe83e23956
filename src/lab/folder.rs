//! A lab's folder: what it keeps (`lab.json`, `runs.jsonl`, `heat.json`, the level's copy),
//! written whole, and checked before it is trusted. `--resume` goes on only with the level it
//! was played on, keeps no seed twice nor a seed not its own, keeps the heat only of the delves
//! it keeps, and keeps what it can of a last line cut short; `merge` takes only shards of one
//! lab, each whole.

use delve_ground::level::LevelText;

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::heat::Heat;
use super::{LabPlan, LabResult, RunRecord, read_runs_jsonl, runs_jsonl};
use delve_ground::party_policy::PartyPolicy;

/// What a lab's folder says of how it was made (`lab.json`), so that labs can be merged and
/// compared: the level file, the seeds, and the policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabMeta {
    pub level_file: String,
    pub seed: u64,
    pub runs: u64,
    pub policy: PartyPolicy,
    /// The level's fingerprint when it was played (its file and bestiaries:
    /// `LevelText::fingerprint`); a lab of an earlier version has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_fingerprint: Option<String>,
}

/// The copy of the level a lab's folder keeps, as it was when the lab was played.
pub const LEVEL_COPY: &str = "level.ron";

/// The fingerprint of the level file as it reads now, if it reads.
fn fingerprint_of(level_file: &str) -> Option<String> {
    LevelText::read(Path::new(level_file))
        .ok()
        .map(|t| t.fingerprint())
}

/// Writes a shard's partial result: its records, its heat and how it was made, each file
/// whole or not at all. `delve lab merge` makes the report from the partials of all the
/// shards.
pub fn write_partial(
    plan: &LabPlan,
    level_file: &str,
    result: &LabResult,
    dir: &Path,
) -> Result<(), String> {
    let write = |name: &str, text: String| {
        let at = dir.join(name);
        delve_ground::files::write_atomic(&at, text.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", at.display()))
    };
    write("runs.jsonl", runs_jsonl(&result.records))?;
    write(
        "heat.json",
        serde_json::to_string(&result.heat).expect("heat serializes"),
    )?;
    // The level as it was played, so the lab can be read (compared) after the file is edited.
    if let Ok(text) = delve_ground::files::read_text(level_file) {
        write(LEVEL_COPY, text)?;
    }
    let meta = LabMeta {
        level_file: level_file.to_owned(),
        seed: plan.seed,
        runs: plan.runs,
        policy: plan.policy.clone(),
        level_fingerprint: fingerprint_of(level_file),
    };
    write(
        "lab.json",
        serde_json::to_string_pretty(&meta).expect("the lab's description serializes"),
    )
}

/// A lab's folder read back as its plan (the level as it was played: the folder's copy, else
/// the level file it names) and its records.
pub fn read_lab(dir: &Path) -> Result<(LabPlan, Vec<RunRecord>), String> {
    let (meta, result) = read_partial(dir)?;
    let copy = dir.join(LEVEL_COPY);
    let loaded = if copy.exists() {
        let text = delve_ground::files::read_text(&copy)
            .map_err(|e| format!("{}: cannot read: {e}", copy.display()))?;
        let base = Path::new(&meta.level_file).parent();
        delve_ground::level::load_level_str(&text, &copy.display().to_string(), base)
    } else {
        delve_ground::level::load_level_file(Path::new(&meta.level_file))
    };
    let level = loaded
        .map_err(|d| format!("{}: the lab's level does not load:\n{d}", dir.display()))?
        .level;
    Ok((
        LabPlan {
            level,
            policy: meta.policy,
            seed: meta.seed,
            runs: meta.runs,
            jobs: 1,
        },
        result.records,
    ))
}

fn read_file(dir: &Path, name: &str) -> Result<String, String> {
    let at = dir.join(name);
    delve_ground::files::read_text(&at).map_err(|e| format!("{}: cannot read: {e}", at.display()))
}

fn read_meta(dir: &Path) -> Result<LabMeta, String> {
    serde_json::from_str(&read_file(dir, "lab.json")?)
        .map_err(|e| format!("{}: {e}", dir.join("lab.json").display()))
}

/// A lab's folder read back: how it was made, its records and its heat, each record within
/// its bounds.
pub fn read_partial(dir: &Path) -> Result<(LabMeta, LabResult), String> {
    let meta = read_meta(dir)?;
    let records = read_runs_jsonl(&read_file(dir, "runs.jsonl")?)
        .map_err(|e| format!("{}: {e}", dir.join("runs.jsonl").display()))?;
    let heat: Heat = serde_json::from_str(&read_file(dir, "heat.json")?)
        .map_err(|e| format!("{}: {e}", dir.join("heat.json").display()))?;
    Ok((meta, LabResult { records, heat }))
}

/// What an interrupted lab kept, to go on from with `plan` (`--resume`), and what was left out
/// of it, and why (for warnings). Refused when the folder holds another lab (another level
/// file, policy or seeds) or the level changed since.
pub fn resume(
    dir: &Path,
    plan: &LabPlan,
    level_file: &str,
) -> Result<(LabResult, Vec<String>), String> {
    let meta = read_meta(dir)?;
    if meta.level_file != level_file
        || meta.policy != plan.policy
        || (meta.seed, meta.runs) != (plan.seed, plan.runs)
    {
        return Err(format!(
            "{} holds a lab of another level, policy or seeds: nothing to resume",
            dir.display()
        ));
    }
    let mut warnings = Vec::new();
    match (&meta.level_fingerprint, fingerprint_of(level_file)) {
        (Some(then), Some(now)) if *then != now => {
            return Err(format!(
                "{level_file} has changed since the lab in {} was interrupted: its delves \
                 would mix two levels; play it afresh (without --resume) or into another --out",
                dir.display()
            ));
        }
        (None, _) => warnings.push(format!(
            "{}: a lab of an earlier version, without the level's fingerprint: it cannot tell \
             whether {level_file} changed since",
            dir.display()
        )),
        _ => {}
    }
    let runs = dir.join("runs.jsonl");
    let text = read_file(dir, "runs.jsonl")?;
    let mut records = Vec::new();
    let mut seeds = BTreeSet::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let last_cut_short = i + 1 == lines.len() && !text.ends_with('\n');
        match super::read_record(line) {
            Ok(r) if !plan.seeds().contains(&r.seed) => warnings.push(format!(
                "{}:{}: a delve of seed {}, not one of this lab's seeds {} to {}: left out",
                runs.display(),
                i + 1,
                r.seed,
                plan.seed,
                plan.seed + plan.runs - 1
            )),
            Ok(r) if !seeds.insert(r.seed) => warnings.push(format!(
                "{}:{}: seed {} a second time: left out",
                runs.display(),
                i + 1,
                r.seed
            )),
            Ok(r) => records.push(r),
            Err(e) if last_cut_short => warnings.push(format!(
                "{}:{}: the last line is cut short ({e}): that delve is played again",
                runs.display(),
                i + 1
            )),
            Err(e) => warnings.push(format!(
                "{}:{}: {e}: that delve is played again",
                runs.display(),
                i + 1
            )),
        }
    }
    // The heat of exactly the delves kept. A delve the heat holds whose record was lost (a
    // line cut short, a record out of bounds) is played again for its record — the same seed
    // plays the same delve — and one whose record the heat does not hold is played again
    // whole. Heat of delves not this lab's, or of one delve twice, cannot be taken apart: then
    // every delve is played again.
    let heat: Option<Heat> = read_file(dir, "heat.json")
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(|h: &Heat| fits(h, plan));
    let heat_seeds: BTreeSet<u64> = heat.iter().flat_map(|h| h.seeds.iter().copied()).collect();
    let trusted = heat.as_ref().is_some_and(|h| {
        h.seeds.len() == heat_seeds.len() && heat_seeds.iter().all(|s| plan.seeds().contains(s))
    });
    let heat_json = dir.join("heat.json");
    let (heat, kept) = match heat {
        Some(heat) if trusted => {
            let mut kept: Vec<RunRecord> = records
                .into_iter()
                .filter(|r| heat_seeds.contains(&r.seed))
                .collect();
            let unheated = seeds.len() - kept.len();
            if unheated > 0 {
                warnings.push(format!(
                    "{}: the heat maps hold {} of the {} delves kept: the other {unheated} are \
                     played again",
                    heat_json.display(),
                    kept.len(),
                    seeds.len(),
                ));
            }
            let lost: Vec<u64> = heat_seeds.difference(&seeds).copied().collect();
            if !lost.is_empty() {
                warnings.push(format!(
                    "{}: the heat maps hold {} delves whose records were lost: they are played \
                     again for their records",
                    heat_json.display(),
                    lost.len()
                ));
                kept.extend(lost.into_iter().map(|s| super::run_one(plan, s).0));
                kept.sort_by_key(|r| r.seed);
            }
            (heat, kept)
        }
        _ => {
            if !seeds.is_empty() {
                warnings.push(format!(
                    "{}: the heat maps are missing or are not of this lab's delves: the {} \
                     delves kept are played again",
                    heat_json.display(),
                    seeds.len()
                ));
            }
            (Heat::default(), Vec::new())
        }
    };
    Ok((
        LabResult {
            records: kept,
            heat,
        },
        warnings,
    ))
}

/// Is the heat of the plan's level (its maps of the level's size), or of no delve yet?
fn fits(heat: &Heat, plan: &LabPlan) -> bool {
    let size = (plan.level.grid.width(), plan.level.grid.height());
    heat.is_whole() && (heat.visited.is_empty() || (heat.width, heat.height) == size)
}

/// Merges the partials of a lab's shards into the result of the whole lab, as if it had been
/// played at once: the records in the order of the seeds, the heat summed. The shards must be
/// of one level (one fingerprint) and policy, each whole — a record for each of its seeds, no
/// other, and heat of those delves, of one size — and their seeds must run on from one to the
/// next without a gap or a seed twice.
pub fn merge(parts: Vec<(LabMeta, LabResult)>) -> Result<(LabMeta, LabResult), String> {
    let mut parts = parts;
    parts.sort_by_key(|(m, _)| m.seed);
    let Some((first, _)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    let mut meta = first.clone();
    meta.runs = 0;
    let mut whole = LabResult::default();
    for (m, part) in parts {
        if part.records.len() as u64 != m.runs {
            return Err(format!(
                "the shard from seed {} is unfinished ({} of {} delves): resume it first \
                 (delve lab ... --shard I/N --out DIR --resume)",
                m.seed,
                part.records.len(),
                m.runs
            ));
        }
        if m.level_file != meta.level_file
            || m.policy != meta.policy
            || m.level_fingerprint != meta.level_fingerprint
        {
            return Err(format!(
                "the shards are of different labs: {} and {} (or their policies or the level \
                 they played differ)",
                meta.level_file, m.level_file
            ));
        }
        if m.seed != meta.seed + meta.runs {
            return Err(format!(
                "the shards' seeds do not run on: {} follows {}",
                m.seed,
                meta.seed + meta.runs - 1
            ));
        }
        let own: BTreeSet<u64> = (m.seed..m.seed + m.runs).collect();
        let held: BTreeSet<u64> = part.records.iter().map(|r| r.seed).collect();
        if held != own {
            let stray = held.difference(&own).next().copied();
            return Err(match stray {
                Some(s) => format!(
                    "the shard from seed {} holds a delve of seed {s}, not one of its seeds",
                    m.seed
                ),
                None => format!("the shard from seed {} holds a seed twice", m.seed),
            });
        }
        let heat_seeds: BTreeSet<u64> = part.heat.seeds.iter().copied().collect();
        if heat_seeds != own || part.heat.seeds.len() != own.len() {
            return Err(format!(
                "the shard from seed {}: its heat maps are not of its delves (heat.json and \
                 runs.jsonl disagree); play the shard again",
                m.seed
            ));
        }
        if !part.heat.is_whole()
            || (!whole.heat.visited.is_empty()
                && !part.heat.visited.is_empty()
                && (part.heat.width, part.heat.height) != (whole.heat.width, whole.heat.height))
        {
            return Err(format!(
                "the shard from seed {}: its heat maps are of another size ({} × {}) or broken",
                m.seed, part.heat.width, part.heat.height
            ));
        }
        meta.runs += m.runs;
        whole.heat.add(&part.heat);
        whole.records.extend(part.records);
    }
    Ok((meta, whole))
}
