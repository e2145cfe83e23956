//! Two labs of a level side by side (before and after an edit): every share and mean of every
//! table of the report, seed by seed where the labs played the same seeds, and which moved
//! beyond their 95% intervals — so a designer sees what the edit changed and not the noise of
//! the dice.

use super::RunRecord;
use super::tables::{Cell, Table};

/// A mean with its 95% interval (the normal approximation: mean ± 1.96 standard errors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl Mean {
    pub fn of(values: &[f64]) -> Self {
        let n = values.len() as f64;
        if values.is_empty() {
            return Self {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = values.iter().sum::<f64>() / n;
        let var = if values.len() > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let half = 1.959_963_984_540_054 * (var / n).sqrt();
        Self {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    pub fn differs_from(&self, other: &Mean) -> bool {
        self.high < other.low || other.high < self.low
    }
}

/// One number of two labs: a cell of a report's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The table, the row's name and the column.
    pub table: String,
    pub row: String,
    pub column: String,
    /// The number in each lab, with its interval or spread, in words ("—" where the row is
    /// not in that lab).
    pub before: String,
    pub after: String,
    /// The change seed by seed, with its 95% interval, where the labs share their seeds.
    pub paired: Option<Mean>,
    /// Moved beyond the noise: read seed by seed, a share by McNemar's exact test (p < 0.05)
    /// and a mean by its change's interval leaving out 0; else the two intervals do not overlap.
    pub moved: bool,
}

impl Change {
    /// `table › row › column`.
    pub fn what(&self) -> String {
        format!("{} › {} › {}", self.table, self.row, self.column)
    }
}

/// The fewest seeds the two labs must share for a change to be read seed by seed.
const LEAST_PAIRED: usize = 10;

/// Every share and mean of the two labs' reports, cell by cell, matched by table, row and
/// column: where the labs played the same seeds, each seed's delve before is set against the
/// same seed's after (paired: the dice of a seed are the same until the edit's effect), and a
/// change moved if its interval leaves out nothing changed; otherwise the two intervals are
/// set side by side. Rows in one lab only are listed with "—" on the other side.
pub fn compare(
    before: (&super::LabPlan, &[RunRecord]),
    after: (&super::LabPlan, &[RunRecord]),
) -> Vec<Change> {
    let seeds = |records: &[RunRecord]| -> Vec<u64> {
        records
            .iter()
            .filter(|r| r.outcome.is_some())
            .map(|r| r.seed)
            .collect()
    };
    let (seeds_a, seeds_b) = (seeds(before.1), seeds(after.1));
    let tables_a = super::report::tables(before.0, "", before.1);
    let tables_b = super::report::tables(after.0, "", after.1);
    compare_tables((&tables_a, &seeds_a), (&tables_b, &seeds_b))
}

/// [`compare`] of two reports' tables, each with the seeds of its delves that ended: tables
/// matched by their id (a reworded title is the same table), rows by name, columns by header.
pub fn compare_tables(
    (tables_a, seeds_a): (&[Table], &[u64]),
    (tables_b, seeds_b): (&[Table], &[u64]),
) -> Vec<Change> {
    let mut changes = Vec::new();
    for ta in tables_a {
        let tb = tables_b.iter().find(|t| t.id == ta.id);
        let mut keys: Vec<String> = ta.rows.iter().map(|r| ta.key_of(r)).collect();
        if let Some(tb) = tb {
            for r in &tb.rows {
                let k = tb.key_of(r);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        for key in keys {
            for (c, column) in ta.header.iter().enumerate().skip(ta.key_columns) {
                let ca = ta.row(&key).and_then(|r| r.0.get(c));
                let cb = tb.and_then(|tb| {
                    let col = tb.header.iter().position(|h| h == column)?;
                    tb.row(&key)?.0.get(col)
                });
                let is_measure = |x: Option<&Cell>| x.is_some_and(|x| x.values().is_some());
                if !is_measure(ca) && !is_measure(cb) {
                    continue;
                }
                let words = |x: Option<&Cell>| x.map_or("—".to_owned(), Cell::words);
                let paired = match (ca, cb) {
                    (Some(a), Some(b)) => paired_change(a, seeds_a, b, seeds_b),
                    _ => None,
                };
                let moved = match (&paired, ca, cb) {
                    // A share seed by seed: McNemar's exact test on the seeds that changed (a
                    // handful all one way is not yet a change; the normal interval would say so).
                    (Some(_), Some(a @ Cell::Share(_)), Some(b)) => {
                        mcnemar_p(a, seeds_a, b, seeds_b).is_some_and(|p| p < 0.05)
                    }
                    (Some(p), ..) => p.low > 0.0 || p.high < 0.0,
                    (None, Some(a), Some(b)) => unpaired_moved(a, b),
                    _ => false,
                };
                changes.push(Change {
                    table: ta.title.clone(),
                    row: key.clone(),
                    column: column.clone(),
                    before: words(ca),
                    after: words(cb),
                    paired,
                    moved,
                });
            }
        }
    }
    changes
}

/// The change seed by seed: for each seed both labs played where the cell applies in both, the
/// number after less the number before; their mean with its interval.
fn paired_change(a: &Cell, seeds_a: &[u64], b: &Cell, seeds_b: &[u64]) -> Option<Mean> {
    let (va, vb) = (a.values()?, b.values()?);
    let before: std::collections::HashMap<u64, f64> = seeds_a
        .iter()
        .zip(va)
        .filter_map(|(s, v)| Some((*s, (*v)?)))
        .collect();
    let diffs: Vec<f64> = seeds_b
        .iter()
        .zip(vb)
        .filter_map(|(s, v)| Some((*v)? - before.get(s)?))
        .collect();
    (diffs.len() >= LEAST_PAIRED).then(|| Mean::of(&diffs))
}

/// McNemar's exact test of a share read seed by seed: of the seeds where it changed, how many
/// went each way; the two-sided chance of a split at least that uneven if either way were as
/// likely (the binomial with p = ½).
fn mcnemar_p(a: &Cell, seeds_a: &[u64], b: &Cell, seeds_b: &[u64]) -> Option<f64> {
    let (va, vb) = (a.values()?, b.values()?);
    let before: std::collections::HashMap<u64, f64> = seeds_a
        .iter()
        .zip(va)
        .filter_map(|(s, v)| Some((*s, (*v)?)))
        .collect();
    let (mut up, mut down) = (0u64, 0u64);
    for (s, v) in seeds_b.iter().zip(vb) {
        if let (Some(after), Some(before)) = (v, before.get(s)) {
            if after > before {
                up += 1;
            } else if after < before {
                down += 1;
            }
        }
    }
    let n = up + down;
    if n == 0 {
        return Some(1.0);
    }
    // P(X <= k) for X ~ Binomial(n, ½), k the smaller side, doubled.
    let k = up.min(down);
    let mut term = 0.5f64.powi(n as i32); // C(n, 0) / 2^n
    let mut tail = term;
    for i in 1..=k {
        term *= (n - i + 1) as f64 / i as f64;
        tail += term;
    }
    Some((2.0 * tail).min(1.0))
}

/// Without shared seeds: do the two cells' intervals not overlap?
fn unpaired_moved(a: &Cell, b: &Cell) -> bool {
    match (a.share(), b.share()) {
        (Some(x), Some(y)) => x.differs_from(&y),
        _ => match (a.values(), b.values()) {
            (Some(x), Some(y)) => {
                let m =
                    |v: &[Option<f64>]| Mean::of(&v.iter().flatten().copied().collect::<Vec<_>>());
                m(x).differs_from(&m(y))
            }
            _ => false,
        },
    }
}

/// The numbers that moved, as a table for the terminal: what, before, after, and the paired
/// change.
pub fn table(changes: &[Change]) -> String {
    let moved: Vec<&Change> = changes.iter().filter(|c| c.moved).collect();
    let width = moved
        .iter()
        .map(|c| c.what().chars().count())
        .max()
        .unwrap_or(0);
    let cols = moved
        .iter()
        .map(|c| c.before.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let acols = moved
        .iter()
        .map(|c| c.after.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let pad = |s: &str, n: usize| format!("{s}{}", " ".repeat(n.saturating_sub(s.chars().count())));
    let mut out = format!(
        "{}  {}  {}  change (paired, 95%)\n",
        pad("", width),
        pad("before", cols),
        pad("after", acols)
    );
    for c in moved {
        let change = c.paired.map_or("(intervals apart)".to_owned(), |p| {
            format!("{:+.3} ({:+.3} to {:+.3})", p.mean, p.low, p.high)
        });
        out += &format!(
            "{}  {}  {}  {change}\n",
            pad(&c.what(), width),
            pad(&c.before, cols),
            pad(&c.after, acols)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// McNemar's exact test: 4 seeds changed, all one way, is p = 2 · ½⁴ = 0.125 (not a
    /// change); 10 all one way is p = 0.002; no seed changed is p = 1.
    #[test]
    fn mcnemar_on_the_seeds_that_changed() {
        let cell = |ones: &[usize], n: usize| {
            Cell::Share(
                (0..n)
                    .map(|i| Some(f64::from(u8::from(ones.contains(&i)))))
                    .collect(),
            )
        };
        let seeds: Vec<u64> = (0..20).collect();
        let none = cell(&[], 20);
        let p = mcnemar_p(&none, &seeds, &cell(&[0, 1, 2, 3], 20), &seeds).unwrap();
        assert!((p - 0.125).abs() < 1e-9, "{p}");
        let ten: Vec<usize> = (0..10).collect();
        let p = mcnemar_p(&none, &seeds, &cell(&ten, 20), &seeds).unwrap();
        assert!((p - 2.0 / 1024.0).abs() < 1e-9, "{p}");
        assert_eq!(mcnemar_p(&none, &seeds, &none, &seeds), Some(1.0));
    }

    /// A table whose title was reworded between two versions of the report is still the same
    /// table: compared by its id, its shares are set side by side.
    #[test]
    fn tables_are_matched_by_their_id_not_their_title() {
        let table = |title: &str, ones: usize| {
            let mut t = Table::new("outcomes", title, "", &["outcome", "share"]);
            let share = (0..20)
                .map(|i| Some(f64::from(u8::from(i < ones))))
                .collect();
            t.push(vec![Cell::text("GoalReached"), Cell::Share(share)]);
            t
        };
        let seeds: Vec<u64> = (0..20).collect();
        let before = [table("Outcomes", 0)];
        let after = [table("How the delves ended", 12)];
        let changes = compare_tables((&before, &seeds), (&after, &seeds));
        assert_eq!(changes.len(), 1, "{changes:#?}");
        assert_eq!(changes[0].after, after[0].rows[0].0[1].words());
        assert_ne!(changes[0].after, "—");
        assert!(changes[0].moved, "{changes:#?}");
    }

    #[test]
    fn a_mean_and_its_interval() {
        let m = Mean::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(m.mean, 3.0);
        // Standard deviation 1.58, standard error 0.707: ±1.386.
        assert!((m.high - 4.386).abs() < 0.001, "{m:?}");
        assert!(m.differs_from(&Mean::of(&[10.0, 11.0, 12.0])));
        assert!(!m.differs_from(&Mean::of(&[2.0, 3.0, 4.0])));
    }
}
