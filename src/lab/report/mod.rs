//! The lab's report: what a designer reads from many delves of a level, counted from the
//! records (themselves counted from the typed events of each delve), with 95% confidence
//! intervals on the shares.

use delve_ground::grid::GridPos;

use std::collections::BTreeMap;
use std::fmt::Write;

use super::tables::{Cell, Share, Table};
use super::{LabPlan, RunRecord};
use delve_minds::policy::outcome::Outcome;

mod delves;
pub use delves::party_size;
use delves::{
    a_delve, casualties, casualties_by_fate, causes_table, left_behind_table, outcomes_table,
    survival_table, time_budget,
};

pub mod page;
mod places;
pub use places::way_in;
use places::{doors, foes, noises, rooms, secret_doors, traps};

/// Every outcome, in the order the report lists them.
pub const OUTCOMES: &[Outcome] = Outcome::ALL;

/// The median and 90th percentile of some numbers (nearest rank), if there are any.
pub fn median_and_p90(values: &[f32]) -> Option<(f32, f32)> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f32::total_cmp);
    let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Some((rank(0.5), rank(0.9)))
}

/// The headline numbers of a lab, summed up from its records: how many delves, how they ended,
/// those that failed, and the members left behind. The report's tables ([`tables`]) hold the
/// rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub runs: u64,
    /// Delves that came to an outcome.
    pub ended: u64,
    pub outcomes: Vec<(Outcome, Share)>,
    /// Failed delves: seed and error.
    pub failed: Vec<(u64, String)>,
    /// Members left behind alive as the party left (`tally.left_behind`), by who, where and
    /// how, most first: the delves, and how many of them the others could have brought out.
    pub left_behind: Vec<((String, GridPos, String), u64, u64)>,
}

impl Summary {
    pub fn of(records: &[RunRecord]) -> Self {
        let ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
        let n = ended.len() as u64;
        let outcomes = OUTCOMES
            .iter()
            .map(|&o| {
                let count = ended.iter().filter(|r| r.outcome == Some(o)).count() as u64;
                (o, Share::new(count, n))
            })
            .collect();
        Self {
            runs: records.len() as u64,
            ended: n,
            outcomes,
            failed: records
                .iter()
                .filter_map(|r| r.error.clone().map(|e| (r.seed, e)))
                .collect(),
            left_behind: left_behind(&ended),
        }
    }

    /// The share of delves that ended this way.
    pub fn share(&self, outcome: Outcome) -> Share {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == outcome)
            .map_or(Share::new(0, self.ended), |(_, s)| *s)
    }
}

/// Members left behind alive, by who, where and how, most first (then by name).
fn left_behind(ended: &[&RunRecord]) -> Vec<((String, GridPos, String), u64, u64)> {
    let mut by: BTreeMap<(String, GridPos, String), (u64, u64)> = BTreeMap::new();
    for r in ended {
        for l in &r.tally.left_behind {
            let e = by
                .entry((l.who.clone(), l.at, l.how.to_string()))
                .or_default();
            e.0 += 1;
            e.1 += u64::from(l.could_be_brought);
        }
    }
    let mut out: Vec<_> = by.into_iter().map(|(k, (n, c))| (k, n, c)).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Delves by why they ended short of the goal, most first (then by name).
fn causes(ended: &[&RunRecord]) -> Vec<(String, Share, Vec<u64>)> {
    let mut by: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for r in ended {
        if let Some(c) = &r.tally.cause {
            by.entry(c.headline()).or_default().push(r.seed);
        }
    }
    let n = ended.len() as u64;
    let mut out: Vec<(String, Share, Vec<u64>)> = by
        .into_iter()
        .map(|(c, seeds)| {
            let share = Share::new(seeds.len() as u64, n);
            (c, share, seeds.into_iter().take(3).collect())
        })
        .collect();
    out.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The report as a designer reads it, in its order: its heading, what it is of, its tables,
/// its pictures and the delves that failed. `report.md` and `report.html` are both written from
/// it ([`Report::markdown`], [`page::html`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub title: String,
    /// The level, the seeds, the policy, and how to open a delve of it.
    pub about: String,
    pub tables: Vec<Table>,
    /// The pictures beside the report: (file in the lab's folder, title).
    pub pictures: Vec<(String, String)>,
    /// Failed delves: seed and error.
    pub failed: Vec<(u64, String)>,
}

impl Report {
    /// The report of a lab's records, showing `pictures` (file, title) beside it.
    pub fn of(
        plan: &LabPlan,
        level_file: &str,
        lab_dir: &str,
        records: &[RunRecord],
        pictures: &[(String, String)],
    ) -> Self {
        let s = Summary::of(records);
        let last = plan.seed + plan.runs.saturating_sub(1);
        let about = format!(
            "Level `{level_file}`, seeds {}–{last}, the party's policy {} (turn limit {} turns). \
             Any delve replays with `delve sim {level_file} --auto --seed S`, and opens on the \
             timeline in the window with `delve replay {lab_dir} --seed S`. A share is given with \
             its 95% interval; a mean with its standard deviation, least and most.",
            plan.seed,
            plan.policy
                .name
                .as_deref()
                .map_or("of its own settings".to_owned(), |n| format!("`{n}`")),
            plan.policy.turn_limit
        );
        Self {
            title: format!("{} — {} delves", plan.level.name, s.runs),
            about,
            tables: tables(plan, lab_dir, records),
            pictures: pictures.to_vec(),
            failed: s.failed,
        }
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.title);
        let _ = writeln!(out, "{}\n", self.about);
        for table in &self.tables {
            table.markdown(&mut out);
        }
        if !self.pictures.is_empty() {
            let _ = writeln!(out, "\n## Pictures\n");
            for (file, title) in &self.pictures {
                let _ = writeln!(out, "![{title}]({file})\n");
            }
        }
        if !self.failed.is_empty() {
            failed_table(&self.failed).markdown(&mut out);
        }
        out
    }
}

/// The delves that failed, by seed, with their errors.
fn failed_table(failed: &[(u64, String)]) -> Table {
    let mut t = Table::new("failed", "Delves that failed", "", &["seed", "error"]);
    for (seed, e) in failed {
        t.push(vec![Cell::Count(*seed), Cell::text(e)]);
    }
    t
}

/// Every table of the report, in its order: why delves ended short, outcomes, a delve's
/// numbers, its time, survival by turn, casualties, traps, doors, secret doors, rooms, foes,
/// noises, those left behind. `lab_dir` is the lab's folder, for the commands that open a delve
/// of it on the timeline.
pub fn tables(plan: &LabPlan, lab_dir: &str, records: &[RunRecord]) -> Vec<Table> {
    let ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
    let e = ended.as_slice();
    let mut all = vec![
        causes_table(lab_dir, e),
        outcomes_table(e),
        a_delve(e),
        time_budget(e),
        survival_table(plan, e),
        casualties_by_fate(e),
        casualties(e),
    ];
    all.extend(traps(plan, e));
    all.extend(doors(plan, e));
    all.extend(secret_doors(plan, e));
    all.push(rooms(plan, e));
    all.push(foes(&plan.level, e));
    all.extend(noises(e));
    all.push(left_behind_table(e));
    all
}

/// Writes everything a lab gives into `dir`: `runs.jsonl`, `heat.json` and `lab.json` (which
/// let it be merged and compared), the pictures, `report.md` and `report.html`.
pub fn write_all(
    plan: &LabPlan,
    level_file: &str,
    result: &super::LabResult,
    dir: &std::path::Path,
) -> Result<(), String> {
    let write = |name: &str, text: &str| {
        let at = dir.join(name);
        delve_ground::files::write_atomic(&at, text.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", at.display()))
    };
    super::write_partial(plan, level_file, result, dir)?;
    let party_size = plan
        .level
        .factions
        .iter()
        .find(|f| !f.marching_order.is_empty())
        .map_or(0, |f| f.marching_order.len() as u32);
    let pictures = super::plots::draw_all(
        &plan.level.grid,
        &result.heat,
        &result.records,
        party_size,
        dir,
    )?;
    let report = Report::of(
        plan,
        level_file,
        &dir.display().to_string(),
        &result.records,
        &pictures,
    );
    write("report.md", &report.markdown())?;
    write(
        "report.html",
        &page::html(&report, dir).map_err(|e| format!("the report's page: {e}"))?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's interval for 5 of 20 is 11.2%–46.9% (the textbook figure), and it stays within
    /// 0–1 at the ends.
    #[test]
    fn wilson_intervals() {
        use crate::lab::tables::Share;
        let s = Share::new(5, 20);
        assert!((s.low - 0.1119).abs() < 0.001, "{s:?}");
        assert!((s.high - 0.4687).abs() < 0.001, "{s:?}");
        let none = Share::new(0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.2775).abs() < 0.001, "{none:?}");
        assert!(Share::new(2, 100).differs_from(&Share::new(40, 100)));
        assert!(!Share::new(20, 100).differs_from(&Share::new(25, 100)));
    }

    #[test]
    fn median_and_90th_percentile_by_nearest_rank() {
        let v: Vec<f32> = (1..=10).map(|x| x as f32).collect();
        assert_eq!(median_and_p90(&v), Some((5.0, 9.0)));
        assert_eq!(median_and_p90(&[]), None);
    }
}
