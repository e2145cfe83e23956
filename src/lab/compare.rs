//! Two labs of a level side by side (before and after an edit): every number of the report
//! with its 95% interval in each, and which moved beyond them — the intervals no longer
//! overlap — so a designer sees what the edit changed and not the noise of the dice.

use super::RunRecord;
use super::report::{OUTCOMES, Share, Summary};

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

/// One number of two labs.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub what: String,
    /// The number in each lab, with its interval, in words.
    pub before: String,
    pub after: String,
    /// Moved beyond the intervals.
    pub moved: bool,
}

fn share_words(s: &Share) -> String {
    format!(
        "{:.1}% ({:.1}–{:.1}%)",
        100.0 * s.share,
        100.0 * s.low,
        100.0 * s.high
    )
}

fn mean_words(m: &Mean) -> String {
    format!("{:.2} ({:.2}–{:.2})", m.mean, m.low, m.high)
}

/// Every number of the two labs' reports, the outcome shares first.
pub fn compare(before: &[RunRecord], after: &[RunRecord]) -> Vec<Change> {
    let (a, b) = (Summary::of(before), Summary::of(after));
    let mut changes: Vec<Change> = OUTCOMES
        .iter()
        .map(|&o| {
            let (sa, sb) = (a.share(o), b.share(o));
            Change {
                what: format!("{o:?}"),
                before: share_words(&sa),
                after: share_words(&sb),
                moved: sa.differs_from(&sb),
            }
        })
        .collect();
    type Field = fn(&RunRecord) -> f64;
    let fields: [(&str, Field); 7] = [
        ("turns", |r| r.tally.turns as f64),
        ("turns of light burnt", |r| r.tally.light_turns_used as f64),
        ("encounters", |r| r.tally.encounters as f64),
        ("hit points of wounds", |r| r.tally.wounds as f64),
        ("traps sprung", |r| r.tally.traps_sprung as f64),
        ("doors forced", |r| r.tally.doors_forced as f64),
        ("deaths", |r| r.tally.deaths.len() as f64),
    ];
    for (what, field) in fields {
        let values = |records: &[RunRecord]| -> Vec<f64> {
            records
                .iter()
                .filter(|r| r.outcome.is_some())
                .map(field)
                .collect()
        };
        let (ma, mb) = (Mean::of(&values(before)), Mean::of(&values(after)));
        changes.push(Change {
            what: format!("{what} (mean)"),
            before: mean_words(&ma),
            after: mean_words(&mb),
            moved: ma.differs_from(&mb),
        });
    }
    changes
}

/// The comparison as a table for the terminal, the numbers that moved marked.
pub fn table(changes: &[Change]) -> String {
    let width = changes.iter().map(|c| c.what.len()).max().unwrap_or(0);
    let cols = changes.iter().map(|c| c.before.len()).max().unwrap_or(0);
    let mut out = format!(
        "{:width$}  {:cols$}  after\n",
        "",
        "before",
        width = width,
        cols = cols
    );
    for c in changes {
        out += &format!(
            "{:width$}  {:cols$}  {}{}\n",
            c.what,
            c.before,
            c.after,
            if c.moved { "   <- moved" } else { "" },
            width = width,
            cols = cols
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
