//! The lab's report: what a designer reads from many delves of a level, counted from the
//! records (themselves counted from the typed events of each delve), with 95% confidence
//! intervals on the shares.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::tables::Table;
use super::{LabPlan, RunRecord};
use delve_minds::policy::outcome::Outcome;

mod delves;
pub use delves::party_size;
use delves::{
    a_delve, casualties, casualties_by_fate, causes_table, left_behind_table, outcomes_table,
    survival_table, time_budget,
};

mod places;
pub use places::way_in;
use places::{doors, foes, noises, rooms, secret_doors, traps};

/// Every outcome, in the order the report lists them.
pub const OUTCOMES: &[Outcome] = Outcome::ALL;

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
    pub left_behind: Vec<((String, delve_ground::grid::GridPos, String), u64, u64)>,
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
fn left_behind(
    ended: &[&RunRecord],
) -> Vec<((String, delve_ground::grid::GridPos, String), u64, u64)> {
    let mut by: BTreeMap<(String, delve_ground::grid::GridPos, String), (u64, u64)> =
        BTreeMap::new();
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

/// The report as Markdown, showing `pictures` (file, title) beside it.
pub fn markdown(
    plan: &LabPlan,
    level_file: &str,
    lab_dir: &str,
    records: &[RunRecord],
    pictures: &[(String, String)],
) -> String {
    let s = Summary::of(records);
    let mut out = String::new();
    let last = plan.seed + plan.runs.saturating_sub(1);
    let _ = writeln!(out, "# {} — {} delves\n", plan.level.name, s.runs);
    let _ = writeln!(
        out,
        "Level `{level_file}`, seeds {}–{last}, the party's policy {} (turn limit {} turns). \
         Any delve replays with `delve sim {level_file} --auto --seed S`, and opens on the \
         timeline in the window with `delve replay {lab_dir} --seed S`. A share is given with \
         its 95% interval; a mean with its standard deviation, least and most.\n",
        plan.seed,
        plan.policy
            .name
            .as_deref()
            .map_or("of its own settings".to_owned(), |n| format!("`{n}`")),
        plan.policy.turn_limit
    );
    for table in tables(plan, lab_dir, records) {
        table.markdown(&mut out);
    }
    if !pictures.is_empty() {
        let _ = writeln!(out, "\n## Pictures\n");
        for (file, title) in pictures {
            let _ = writeln!(out, "![{title}]({file})\n");
        }
    }
    if !s.failed.is_empty() {
        let _ = writeln!(out, "\n## Delves that failed\n");
        let _ = writeln!(out, "| seed | error |");
        let _ = writeln!(out, "| ---: | --- |");
        for (seed, e) in &s.failed {
            let _ = writeln!(out, "| {seed} | {} |", e.replace('|', "\\|"));
        }
    }
    out
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

/// Sorts a table of the page by the column whose heading is clicked (again: the other way):
/// by the number a cell begins with where every cell of the column has one, else by its words.
/// Inline, so the page needs no network.
const SORT_SCRIPT: &str = r#"<script>
document.querySelectorAll("table.sortable th").forEach(function (th, _) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var up = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    var key = function (r) { return (r.cells[col] || {}).textContent || ""; };
    var num = function (t) { var m = t.replace(/^\(/, "").match(/^-?[0-9]+(\.[0-9]+)?/); return m ? parseFloat(m[0]) : NaN; };
    var numeric = rows.every(function (r) { return !isNaN(num(key(r))) || key(r) === "\u2014"; });
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), d;
      if (numeric) { d = (isNaN(num(x)) ? -1 : num(x)) - (isNaN(num(y)) ? -1 : num(y)); }
      else { d = x.localeCompare(y); }
      return up ? d : -d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
</script>
"#;

/// A picture the report names that cannot be read to go inline in its page.
#[derive(Debug)]
pub struct PictureUnreadable {
    pub path: std::path::PathBuf,
    pub why: std::io::Error,
}

impl std::fmt::Display for PictureUnreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

/// The report as one self-contained HTML page: the Markdown's headings, paragraphs, tables and
/// pictures, the pictures inline (read from `dir`).
pub fn html(markdown: &str, dir: &std::path::Path) -> Result<String, PictureUnreadable> {
    use base64::Engine;
    let esc = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = String::from(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Delve lab</title>\n\
         <style>body{font-family:sans-serif;max-width:72em;margin:2em auto;color:#222}\
         table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25em .6em}\
         th{cursor:pointer;background:#f2f2f2;user-select:none}th[aria-sort]::after{content:' \\2195'}\
         th[aria-sort=ascending]::after{content:' \\2191'}th[aria-sort=descending]::after{content:' \\2193'}\
         td{text-align:right}td.w{text-align:left}img{max-width:100%}</style>\n\
         </head><body>\n",
    );
    let mut in_table = false;
    let mut words: Vec<bool> = Vec::new();
    for line in markdown.lines() {
        let is_row = line.starts_with('|');
        if in_table && !is_row {
            out += "</tbody></table>\n";
            in_table = false;
        }
        if let Some(h) = line.strip_prefix("## ") {
            let _ = writeln!(out, "<h2>{}</h2>", esc(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            let _ = writeln!(out, "<h1>{}</h1>", esc(h));
        } else if is_row {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| matches!(ch, '-' | ':')))
            {
                // The alignment row: words to the left, numbers to the right.
                words = cells.iter().map(|c| !c.ends_with(':')).collect();
                continue;
            }
            let tag = if in_table { "td" } else { "th" };
            if !in_table {
                out += "<table class=\"sortable\">\n<thead>";
            }
            out += "<tr>";
            for (k, c) in cells.iter().enumerate() {
                let c = esc(&c.replace('`', "").replace("\\|", "|"));
                if tag == "th" {
                    let _ = write!(out, "<th aria-sort=\"none\">{c}</th>");
                } else if words.get(k).copied().unwrap_or(false) {
                    let _ = write!(out, "<td class=\"w\">{c}</td>");
                } else {
                    let _ = write!(out, "<td>{c}</td>");
                }
            }
            out += "</tr>\n";
            if !in_table {
                out += "</thead><tbody>\n";
                in_table = true;
            }
        } else if let Some(rest) = line.strip_prefix("![") {
            let (title, file) = rest
                .split_once("](")
                .map(|(t, f)| (t, f.trim_end_matches(')')))
                .unwrap_or((rest, ""));
            let path = dir.join(file);
            let bytes = std::fs::read(&path).map_err(|why| PictureUnreadable { path, why })?;
            let data = base64::engine::general_purpose::STANDARD.encode(bytes);
            let _ = writeln!(
                out,
                "<figure><img alt=\"{0}\" src=\"data:image/png;base64,{data}\">\
                 <figcaption>{0}</figcaption></figure>",
                esc(title)
            );
        } else if !line.trim().is_empty() {
            let _ = writeln!(out, "<p>{}</p>", esc(&line.replace('`', "")));
        }
    }
    if in_table {
        out += "</tbody></table>\n";
    }
    out += SORT_SCRIPT;
    out += "</body></html>\n";
    Ok(out)
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
    let md = markdown(
        plan,
        level_file,
        &dir.display().to_string(),
        &result.records,
        &pictures,
    );
    write("report.md", &md)?;
    write(
        "report.html",
        &html(&md, dir).map_err(|e| format!("the report's page: {e}"))?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's interval for 5 of 20 is 11.2%–46.9% (the textbook figure), and it stays within
    /// 0–1 at the ends.
    #[test]
    fn wilson_intervals() {
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
