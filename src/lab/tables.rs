//! The report's tables as numbers, a delve at a time: every cell that is a share or a mean
//! keeps its value for each delve (in the order of the seeds), so the report writes it with its
//! interval and spread, `compare` pairs two labs' cells seed by seed, and `report.html` sorts
//! by it.

use std::fmt::Write;

/// A share of the delves with its 95% confidence interval (Wilson's score interval, which keeps
/// within 0–1 and holds for shares near 0 or 1 and for few delves).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    pub count: u64,
    pub of: u64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Share {
    pub fn new(count: u64, of: u64) -> Self {
        if of == 0 {
            return Self {
                count,
                of,
                share: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let n = of as f64;
        let p = count as f64 / n;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        Self {
            count,
            of,
            share: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// Do two shares' intervals not overlap: a change beyond the noise of the delves?
    pub fn differs_from(&self, other: &Share) -> bool {
        self.high < other.low || other.high < self.low
    }
}

/// One cell of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Words: a row's name, where, a replay command.
    Text(String),
    /// A share of the delves: 1 a delve where it holds, 0 where not, none where it does not
    /// apply.
    Share(Vec<Option<f64>>),
    /// A number a delve, its mean shown with its spread: none where it does not apply.
    Mean(Vec<Option<f64>>),
    /// A count over all the delves (battles, delves), not a measure of one delve.
    Count(u64),
}

impl Cell {
    pub fn text(t: impl std::fmt::Display) -> Self {
        Cell::Text(t.to_string())
    }

    /// The values it holds a delve, if it is a share or a mean.
    pub fn values(&self) -> Option<&[Option<f64>]> {
        match self {
            Cell::Share(v) | Cell::Mean(v) => Some(v),
            _ => None,
        }
    }

    /// The share, counted over the delves it applies to.
    pub fn share(&self) -> Option<Share> {
        let Cell::Share(v) = self else { return None };
        let present: Vec<f64> = v.iter().flatten().copied().collect();
        Some(Share::new(
            present.iter().filter(|x| **x > 0.5).count() as u64,
            present.len() as u64,
        ))
    }

    /// The mean and its spread, over the delves it applies to.
    pub fn spread(&self) -> Option<Spread> {
        let Cell::Mean(v) = self else { return None };
        Spread::of(&v.iter().flatten().copied().collect::<Vec<_>>())
    }

    /// The cell in words.
    pub fn words(&self) -> String {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Count(n) => n.to_string(),
            Cell::Share(_) => {
                let s = self.share().expect("a share");
                if s.of == 0 {
                    "—".to_owned()
                } else {
                    format!("{} ({}–{})", pct(s.share), pct(s.low), pct(s.high))
                }
            }
            Cell::Mean(_) => self.spread().map_or("—".to_owned(), |m| m.to_string()),
        }
    }
}

pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A mean with the standard deviation, least and most of the numbers it is of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = if values.len() > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        } else {
            0.0
        };
        Some(Self {
            n: values.len(),
            mean,
            sd,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = |x: f64| {
            if x.fract() == 0.0 {
                format!("{x:.0}")
            } else {
                format!("{x:.1}")
            }
        };
        write!(
            f,
            "{:.2} (sd {:.2}; {}–{})",
            self.mean,
            self.sd,
            short(self.min),
            short(self.max)
        )
    }
}

/// One row: its cells, the first ones words that name it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Cell>);

impl Row {
    /// The row's name: the words of its first `columns` cells, joined by " · ".
    pub fn key(&self, columns: usize) -> String {
        self.0
            .iter()
            .take(columns)
            .map(Cell::words)
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// A table of the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// What names the table across versions of the report (`lab compare` matches tables by
    /// it): its title may be reworded, its id stays.
    pub id: &'static str,
    pub title: String,
    /// What it counts, in a sentence or two (may be empty).
    pub intro: String,
    pub header: Vec<String>,
    pub rows: Vec<Row>,
    /// Said instead of an empty table.
    pub when_empty: String,
    /// Said after the table.
    pub note: String,
    /// How many leading columns name a row (1 unless said).
    pub key_columns: usize,
}

impl Table {
    pub fn new(id: &'static str, title: &str, intro: &str, header: &[&str]) -> Self {
        Self {
            id,
            title: title.to_owned(),
            intro: intro.to_owned(),
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            key_columns: 1,
            ..Default::default()
        }
    }

    /// Rows are named by their first `columns` cells.
    pub fn keyed_by(mut self, columns: usize) -> Self {
        self.key_columns = columns;
        self
    }

    /// A row's name.
    pub fn key_of(&self, row: &Row) -> String {
        row.key(self.key_columns)
    }

    pub fn when_empty(mut self, words: &str) -> Self {
        self.when_empty = words.to_owned();
        self
    }

    pub fn push(&mut self, cells: Vec<Cell>) {
        self.rows.push(Row(cells));
    }

    /// The row named `key`.
    pub fn row(&self, key: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.key(self.key_columns) == key)
    }

    /// The cell of row `key` under `column`.
    pub fn cell(&self, key: &str, column: &str) -> Option<&Cell> {
        let c = self.header.iter().position(|h| h == column)?;
        self.row(key)?.0.get(c)
    }

    /// The table as Markdown: its title, intro, and rows (numbers right-aligned).
    pub fn markdown(&self, out: &mut String) {
        let _ = writeln!(out, "\n## {}\n", self.title);
        if !self.intro.is_empty() {
            let _ = writeln!(out, "{}\n", self.intro);
        }
        if self.rows.is_empty() {
            let _ = writeln!(out, "{}", self.when_empty);
            return;
        }
        let _ = writeln!(out, "| {} |", self.header.join(" | "));
        let align: Vec<&str> = (0..self.header.len())
            .map(|c| match self.rows[0].0.get(c) {
                Some(Cell::Text(_)) | None => "---",
                _ => "---:",
            })
            .collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in &self.rows {
            let cells: Vec<String> = row
                .0
                .iter()
                .map(|c| c.words().replace('|', "\\|"))
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        if !self.note.is_empty() {
            let _ = writeln!(out, "\n{}", self.note);
        }
    }
}

impl Table {
    /// The table as HTML, as the report's page shows it: its title, intro, and rows (words to
    /// the left, numbers to the right), its columns sorting when a heading is clicked.
    pub fn html(&self, out: &mut String) {
        let _ = writeln!(out, "<h2>{}</h2>", escape(&self.title));
        paragraphs(&self.intro, out);
        if self.rows.is_empty() {
            paragraphs(&self.when_empty, out);
            return;
        }
        // A cell as the page shows it: its words without code marks.
        let shown = |words: &str| escape(&words.trim().replace('`', ""));
        out.push_str("<table class=\"sortable\">\n<thead><tr>");
        for h in &self.header {
            let _ = write!(out, "<th aria-sort=\"none\">{}</th>", shown(h));
        }
        out.push_str("</tr>\n</thead><tbody>\n");
        let words: Vec<bool> = (0..self.header.len())
            .map(|c| matches!(self.rows[0].0.get(c), Some(Cell::Text(_)) | None))
            .collect();
        for row in &self.rows {
            out.push_str("<tr>");
            for (k, c) in row.0.iter().enumerate() {
                if words.get(k).copied().unwrap_or(false) {
                    let _ = write!(out, "<td class=\"w\">{}</td>", shown(&c.words()));
                } else {
                    let _ = write!(out, "<td>{}</td>", shown(&c.words()));
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table>\n");
        paragraphs(&self.note, out);
    }
}

/// Words made safe to stand in HTML.
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Words as HTML paragraphs, one a line (code marks dropped).
pub fn paragraphs(words: &str, out: &mut String) {
    for line in words.lines().filter(|l| !l.trim().is_empty()) {
        let _ = writeln!(out, "<p>{}</p>", escape(&line.replace('`', "")));
    }
}

/// A share cell: for each delve, whether `hit` holds.
pub fn share<R>(records: &[&R], hit: impl Fn(&R) -> bool) -> Cell {
    Cell::Share(
        records
            .iter()
            .map(|r| Some(if hit(r) { 1.0 } else { 0.0 }))
            .collect(),
    )
}

/// A share cell over the delves it applies to: `hit` gives none where it does not.
pub fn share_where<R>(records: &[&R], hit: impl Fn(&R) -> Option<bool>) -> Cell {
    Cell::Share(
        records
            .iter()
            .map(|r| hit(r).map(|h| if h { 1.0 } else { 0.0 }))
            .collect(),
    )
}

/// A mean cell: for each delve, its number (none where it does not apply).
pub fn mean<R>(records: &[&R], value: impl Fn(&R) -> Option<f64>) -> Cell {
    Cell::Mean(records.iter().map(|r| value(r)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_with_its_spread() {
        let s = Spread::of(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!((s.mean, s.min, s.max), (3.0, 1.0, 5.0));
        assert!((s.sd - 1.5811).abs() < 0.001);
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn a_share_counts_only_the_delves_it_applies_to() {
        let c = Cell::Share(vec![Some(1.0), None, Some(0.0), Some(1.0)]);
        let s = c.share().unwrap();
        assert_eq!((s.count, s.of), (2, 3));
    }
}
