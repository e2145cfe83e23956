//! The lab's report: what a designer reads from many delves of a level, counted from the
//! records (themselves counted from the typed events of each delve), with 95% confidence
//! intervals on the shares.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{LabPlan, MadeBy, RunRecord};
use crate::policy::Outcome;

/// Every outcome, in the order the report lists them.
pub const OUTCOMES: [Outcome; 6] = [
    Outcome::GoalReached,
    Outcome::PartyDead,
    Outcome::PartyFled,
    Outcome::OutOfLight,
    Outcome::OutOfTime,
    Outcome::GaveUp,
];

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

/// The numbers of a lab, summed up from its records.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub runs: u64,
    /// Delves that came to an outcome.
    pub ended: u64,
    pub outcomes: Vec<(Outcome, Share)>,
    /// Turns a delve took: median and 90th percentile.
    pub turns: Option<(f32, f32)>,
    pub light_turns_used: f64,
    pub encounters: f64,
    pub wounds: f64,
    pub traps_sprung: f64,
    pub traps_disarmed: f64,
    pub doors_forced: f64,
    /// Deaths by who and where, most first.
    pub deaths: Vec<((String, crate::grid::GridPos), u64)>,
    /// Delves in which the party was surprised at least once (RULINGS › Surprise).
    pub surprised: Share,
    /// By whom: the factions met in each battle the party was surprised in, and how often.
    pub surprised_by: Vec<(String, u64)>,
    /// Delves in which the party's policy gave a refused command more than twice in a row,
    /// and the longest such run in any delve.
    pub stuck_on_refusals: Share,
    pub longest_refusal_run: u32,
    /// Failed delves: seed and error.
    pub failed: Vec<(u64, String)>,
    /// Why delves ended short of the goal (`Cause::headline`), most first: the share of all
    /// delves, and the first three seeds.
    pub causes: Vec<(String, Share, Vec<u64>)>,
    /// Members left behind alive as the party left (`tally.left_behind`), by who, where and
    /// how, most first: the delves, and how many of them the others could have brought out.
    pub left_behind: Vec<((String, crate::grid::GridPos, String), u64, u64)>,
}

impl Summary {
    pub fn of(records: &[RunRecord]) -> Self {
        let ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
        let n = ended.len() as u64;
        let mean = |f: &dyn Fn(&RunRecord) -> f64| {
            if n == 0 {
                0.0
            } else {
                ended.iter().map(|r| f(r)).sum::<f64>() / n as f64
            }
        };
        let outcomes = OUTCOMES
            .iter()
            .map(|&o| {
                let count = ended.iter().filter(|r| r.outcome == Some(o)).count() as u64;
                (o, Share::new(count, n))
            })
            .collect();
        let turns: Vec<f32> = ended.iter().map(|r| r.tally.turns).collect();
        let mut deaths: BTreeMap<(String, crate::grid::GridPos), u64> = BTreeMap::new();
        for r in &ended {
            for d in &r.tally.deaths {
                *deaths.entry((d.who.clone(), d.at)).or_default() += 1;
            }
        }
        let mut deaths: Vec<_> = deaths.into_iter().collect();
        deaths.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let surprised = Share::new(
            ended
                .iter()
                .filter(|r| !r.tally.surprised_by.is_empty())
                .count() as u64,
            n,
        );
        let mut by: BTreeMap<String, u64> = BTreeMap::new();
        for r in &ended {
            for who in &r.tally.surprised_by {
                *by.entry(who.clone()).or_default() += 1;
            }
        }
        let mut surprised_by: Vec<(String, u64)> = by.into_iter().collect();
        surprised_by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Self {
            runs: records.len() as u64,
            ended: n,
            outcomes,
            turns: median_and_p90(&turns),
            light_turns_used: mean(&|r| r.tally.light_turns_used as f64),
            encounters: mean(&|r| r.tally.encounters as f64),
            wounds: mean(&|r| r.tally.wounds as f64),
            traps_sprung: mean(&|r| r.tally.traps_sprung as f64),
            traps_disarmed: mean(&|r| r.tally.traps_disarmed as f64),
            doors_forced: mean(&|r| r.tally.doors_forced as f64),
            deaths,
            surprised,
            surprised_by,
            stuck_on_refusals: Share::new(
                ended
                    .iter()
                    .filter(|r| r.tally.repeated_refusals > 2)
                    .count() as u64,
                n,
            ),
            longest_refusal_run: ended
                .iter()
                .map(|r| r.tally.repeated_refusals)
                .max()
                .unwrap_or(0),
            failed: records
                .iter()
                .filter_map(|r| r.error.clone().map(|e| (r.seed, e)))
                .collect(),
            causes: causes(&ended),
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
fn left_behind(ended: &[&RunRecord]) -> Vec<((String, crate::grid::GridPos, String), u64, u64)> {
    let mut by: BTreeMap<(String, crate::grid::GridPos, String), (u64, u64)> = BTreeMap::new();
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

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The report as Markdown, showing `pictures` (file, title) beside it.
pub fn markdown(
    plan: &LabPlan,
    level_file: &str,
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
         Any delve replays with `delve sim {level_file} --auto --seed S`.\n",
        plan.seed,
        plan.policy
            .name
            .as_deref()
            .map_or("of its own settings".to_owned(), |n| format!("`{n}`")),
        plan.policy.turn_limit
    );
    let _ = writeln!(out, "## Why delves ended short of the goal\n");
    if s.causes.is_empty() {
        let _ = writeln!(out, "Every delve reached the goal.");
    } else {
        let _ = writeln!(out, "| why | delves | share | 95% interval | replay |");
        let _ = writeln!(out, "| --- | ---: | ---: | --- | --- |");
        for (why, share, seeds) in &s.causes {
            let replay: Vec<String> = seeds
                .iter()
                .map(|seed| format!("`delve sim {level_file} --auto --seed {seed}`"))
                .collect();
            let _ = writeln!(
                out,
                "| {why} | {} | {} | {}–{} | {} |",
                share.count,
                pct(share.share),
                pct(share.low),
                pct(share.high),
                replay.join(", ")
            );
        }
    }
    let _ = writeln!(out, "\n## Outcomes\n");
    let _ = writeln!(out, "| outcome | delves | share | 95% interval |");
    let _ = writeln!(out, "| --- | ---: | ---: | --- |");
    for (o, share) in &s.outcomes {
        let _ = writeln!(
            out,
            "| {o:?} | {} | {} | {}–{} |",
            share.count,
            pct(share.share),
            pct(share.low),
            pct(share.high)
        );
    }
    let _ = writeln!(out, "\n## A delve\n");
    let _ = writeln!(out, "| number | per delve |");
    let _ = writeln!(out, "| --- | ---: |");
    if let Some((median, p90)) = s.turns {
        let _ = writeln!(out, "| turns (median) | {median:.1} |");
        let _ = writeln!(out, "| turns (90th percentile) | {p90:.1} |");
    }
    for (what, v) in [
        ("turns of light burnt (mean)", s.light_turns_used),
        ("encounters (mean)", s.encounters),
        ("hit points of wounds (mean)", s.wounds),
        ("traps sprung (mean)", s.traps_sprung),
        ("traps disarmed (mean)", s.traps_disarmed),
        ("doors forced (mean)", s.doors_forced),
    ] {
        let _ = writeln!(out, "| {what} | {v:.2} |");
    }
    let _ = writeln!(
        out,
        "| party surprised (share of delves) | {:.1}% [{:.1}–{:.1}] |",
        s.surprised.share * 100.0,
        s.surprised.low * 100.0,
        s.surprised.high * 100.0
    );
    for (by, k) in &s.surprised_by {
        let _ = writeln!(out, "| surprised by {by} (battles) | {k} |");
    }
    let _ = writeln!(
        out,
        "| the same refused command given more than twice in a row (share of delves; longest run) | {:.1}% [{:.1}–{:.1}]; {} |",
        s.stuck_on_refusals.share * 100.0,
        s.stuck_on_refusals.low * 100.0,
        s.stuck_on_refusals.high * 100.0,
        s.longest_refusal_run
    );
    features(&mut out, plan, records);
    let _ = writeln!(out, "\n## Deaths\n");
    if s.deaths.is_empty() {
        let _ = writeln!(out, "No one died.");
    } else {
        let _ = writeln!(out, "| who | where | delves |");
        let _ = writeln!(out, "| --- | --- | ---: |");
        for ((who, at), n) in &s.deaths {
            let _ = writeln!(out, "| {who} | {at} | {n} |");
        }
    }
    let _ = writeln!(out, "\n## Left behind alive\n");
    if s.left_behind.is_empty() {
        let _ = writeln!(out, "The party left no living member behind.");
    } else {
        let _ = writeln!(
            out,
            "Members alive (dying ones too) the party did not bring out as it left the level; \
             \"could be brought\": the others could have carried it, roped it out of its pit, \
             or it could have walked to them.\n"
        );
        let _ = writeln!(out, "| who | where | how | delves | could be brought |");
        let _ = writeln!(out, "| --- | --- | --- | ---: | ---: |");
        for ((who, at, how), n, could) in &s.left_behind {
            let _ = writeln!(out, "| {who} | {at} | {how} | {n} | {could} |");
        }
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

/// The share of the delves that ended for which `hit` holds, in words with its interval.
fn share_of(ended: &[&RunRecord], hit: impl Fn(&RunRecord) -> bool) -> String {
    let s = Share::new(
        ended.iter().filter(|r| hit(r)).count() as u64,
        ended.len() as u64,
    );
    format!("{} ({}–{})", pct(s.share), pct(s.low), pct(s.high))
}

/// The level's rooms: the share of delves that came into each, and the turns it took them.
fn rooms(out: &mut String, plan: &LabPlan, ended: &[&RunRecord]) {
    let (names, room_of) = super::heat::rooms(&plan.level.grid);
    let goal_room = match plan.level.goal {
        crate::level::Goal::Room(p)
        | crate::level::Goal::Reach(p)
        | crate::level::Goal::Exit(p) => plan.level.grid.index(p).and_then(|i| room_of[i]),
        _ => None,
    };
    let size = |k: usize| room_of.iter().filter(|r| **r == Some(k)).count();
    let _ = writeln!(out, "\n## Rooms\n");
    let _ = writeln!(
        out,
        "Each stretch of floor that walls and doors bound, named by its first square.\n"
    );
    let _ = writeln!(
        out,
        "| room | squares | reached | turns to reach (median) | (90th percentile) |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
    for (k, name) in names.iter().enumerate() {
        let turns: Vec<f32> = ended
            .iter()
            .filter_map(|r| {
                r.features
                    .reached
                    .iter()
                    .find(|(p, _)| p == name)
                    .map(|(_, t)| *t)
            })
            .collect();
        let (median, p90) = median_and_p90(&turns)
            .map_or(("—".into(), "—".into()), |(m, p)| {
                (format!("{m:.1}"), format!("{p:.1}"))
            });
        let goal = if goal_room == Some(k) {
            " (the goal)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "| {name}{goal} | {} | {} | {median} | {p90} |",
            size(k),
            share_of(ended, |r| r.features.reached.iter().any(|(p, _)| p == name)),
        );
    }
}

/// The level's traps, doors and secret doors, each with the share of delves that met it so.
fn features(out: &mut String, plan: &LabPlan, records: &[RunRecord]) {
    let ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
    rooms(out, plan, &ended);
    if !plan.level.traps.is_empty() {
        let _ = writeln!(out, "\n## Traps\n");
        let _ = writeln!(out, "| trap | at | sprung | found | disarmed |");
        let _ = writeln!(out, "| --- | --- | ---: | ---: | ---: |");
        for t in &plan.level.traps {
            let at = t.at;
            // Named as it was when it went off; a trap found says only that it is a trap.
            let name = ended
                .iter()
                .flat_map(|r| &r.features.sprung)
                .find(|(p, _)| *p == at)
                .map_or_else(|| format!("{:?}", t.trap.kind), |(_, n)| n.clone());
            let _ = writeln!(
                out,
                "| {name} | {at} | {} | {} | {} |",
                share_of(&ended, |r| r.features.sprung.iter().any(|(p, _)| *p == at)),
                share_of(&ended, |r| r.features.found.iter().any(|(p, _)| *p == at)),
                share_of(&ended, |r| r.features.disarmed.contains(&at)),
            );
        }
    }
    if !plan.level.doors.is_empty() {
        use crate::rules::doors::DoorOpening;
        let _ = writeln!(out, "\n## Doors\n");
        let _ = writeln!(
            out,
            "| door | opened | forced (bashed, battered, broken) | lock picked | left shut |"
        );
        let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
        for d in &plan.level.doors {
            let at = d.at;
            let opened = |r: &RunRecord| r.features.opened.iter().any(|(p, _)| *p == at);
            let forced = |r: &RunRecord| {
                r.features.opened.iter().any(|(p, how)| {
                    *p == at
                        && matches!(
                            how,
                            DoorOpening::Bashed | DoorOpening::BatteredDown | DoorOpening::Broken
                        )
                })
            };
            let open_at_start = d.door.state == crate::grid::DoorState::Open;
            let note = match (d.door.secret, open_at_start) {
                (true, _) => " (secret)",
                (false, true) => " (open at the start)",
                _ => "",
            };
            let shut = if open_at_start {
                "—".to_owned()
            } else {
                share_of(&ended, |r| !opened(r))
            };
            let _ = writeln!(
                out,
                "| {at}{note} | {} | {} | {} | {shut} |",
                share_of(&ended, opened),
                share_of(&ended, forced),
                share_of(&ended, |r| r.features.picked.contains(&at)),
            );
        }
        let secrets: Vec<_> = plan.level.doors.iter().filter(|d| d.door.secret).collect();
        if !secrets.is_empty() {
            let _ = writeln!(out, "\n## Secret doors\n");
            let _ = writeln!(out, "| secret door | found |");
            let _ = writeln!(out, "| --- | ---: |");
            for d in secrets {
                let _ = writeln!(
                    out,
                    "| {} | {} |",
                    d.at,
                    share_of(&ended, |r| r.features.found.iter().any(|(p, _)| *p == d.at))
                );
            }
        }
    }
    foes(out, &plan.level, &ended);
    noises(out, &ended);
}

/// The level's creatures hostile to its (first) party, or it to them, by name.
fn hostile_to_the_party(level: &crate::level::Level) -> Vec<String> {
    let Some(party) = level
        .factions
        .iter()
        .position(|f| !f.marching_order.is_empty())
    else {
        return Vec::new();
    };
    let hostile = |f: usize| {
        level.factions[f].hostile_to.contains(&party)
            || level.factions[party].hostile_to.contains(&f)
    };
    level
        .creatures
        .iter()
        .filter(|c| c.faction != party && hostile(c.faction))
        .map(|c| c.name.clone())
        .collect()
}

/// The foes of the party — every creature hostile to it, those never met at zero, and any
/// other the party fought: the share of delves that fought each, and that felled it.
fn foes(out: &mut String, level: &crate::level::Level, ended: &[&RunRecord]) {
    let hostile = hostile_to_the_party(level);
    let mut names: Vec<&String> = ended
        .iter()
        .flat_map(|r| &r.features.fought)
        .chain(&hostile)
        .collect();
    names.sort();
    names.dedup();
    if names.is_empty() {
        return;
    }
    let count = |name: &String, of: fn(&RunRecord) -> &Vec<String>| {
        ended.iter().filter(|r| of(r).contains(name)).count()
    };
    names.sort_by_key(|n| std::cmp::Reverse(count(n, |r| &r.features.fought)));
    let _ = writeln!(out, "\n## Foes\n");
    let _ = writeln!(
        out,
        "Each creature hostile to the party (those never met too) and any other it struck or \
         was struck by: the share of delves that fought it, and that felled it.\n"
    );
    let _ = writeln!(out, "| foe | fought | felled |");
    let _ = writeln!(out, "| --- | ---: | ---: |");
    for name in names {
        let _ = writeln!(
            out,
            "| {name} | {} | {} |",
            share_of(ended, |r| r.features.fought.contains(name)),
            share_of(ended, |r| r.features.felled.contains(name)),
        );
    }
}

/// The most rows the noise table shows.
const NOISE_ROWS: usize = 40;

/// Which noises most often brought which monsters: for each foe the party fought, the last
/// noise it heard (or the companion's shout it answered) before the fight, and who made it; the
/// share of delves in which each brought each foe, most often first.
fn noises(out: &mut String, ended: &[&RunRecord]) {
    // (noise, made by, monster) -> delves; keyed by words for a fixed order.
    let mut rows: BTreeMap<(String, MadeBy, String), u64> = BTreeMap::new();
    for b in ended.iter().flat_map(|r| &r.features.brought) {
        *rows
            .entry((b.noise.to_string(), b.made_by, b.monster.clone()))
            .or_default() += 1;
    }
    if rows.is_empty() {
        return;
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort_by_key(|(_, delves)| std::cmp::Reverse(*delves));
    let _ = writeln!(out, "\n## Noises that brought monsters\n");
    let _ = writeln!(
        out,
        "For each foe the party fought, the last noise it heard before the fight (or the \
         companion's shout it answered): the share of delves in which that noise brought it. A \
         foe that came on sight alone is not here.\n"
    );
    let _ = writeln!(out, "| noise | made by | monster | brought it in |");
    let _ = writeln!(out, "| --- | --- | --- | ---: |");
    let n = ended.len() as u64;
    for ((noise, by, monster), delves) in rows.iter().take(NOISE_ROWS) {
        let s = Share::new(*delves, n);
        let _ = writeln!(
            out,
            "| {noise} | {by} | {monster} | {} ({}–{}) |",
            pct(s.share),
            pct(s.low),
            pct(s.high),
        );
    }
    if rows.len() > NOISE_ROWS {
        let _ = writeln!(
            out,
            "\n{} rarer rows are left out; `runs.jsonl` has them all.",
            rows.len() - NOISE_ROWS
        );
    }
}

/// The report as one self-contained HTML page: the Markdown's headings, paragraphs, tables and
/// pictures, the pictures inline (read from `dir`).
pub fn html(markdown: &str, dir: &std::path::Path) -> Result<String, String> {
    use base64::Engine;
    let esc = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = String::from(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Delve lab</title>\n\
         <style>body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}\
         table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25em .6em}\
         td{text-align:right}td:first-child{text-align:left}img{max-width:100%}</style>\n\
         </head><body>\n",
    );
    let mut in_table = false;
    for line in markdown.lines() {
        let is_row = line.starts_with('|');
        if in_table && !is_row {
            out += "</table>\n";
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
                continue;
            }
            let tag = if in_table { "td" } else { "th" };
            if !in_table {
                out += "<table>\n";
                in_table = true;
            }
            out += "<tr>";
            for c in cells {
                let _ = write!(out, "<{tag}>{}</{tag}>", esc(&c.replace('`', "")));
            }
            out += "</tr>\n";
        } else if let Some(rest) = line.strip_prefix("![") {
            let (title, file) = rest
                .split_once("](")
                .map(|(t, f)| (t, f.trim_end_matches(')')))
                .unwrap_or((rest, ""));
            let bytes = std::fs::read(dir.join(file))
                .map_err(|e| format!("{}: {e}", dir.join(file).display()))?;
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
        out += "</table>\n";
    }
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
        std::fs::write(&at, text).map_err(|e| format!("{}: cannot write: {e}", at.display()))
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
    let md = markdown(plan, level_file, &result.records, &pictures);
    write("report.md", &md)?;
    write("report.html", &html(&md, dir)?)
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
