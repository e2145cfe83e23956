//! The lab's report: what a designer reads from many delves of a level, counted from the
//! records (themselves counted from the typed events of each delve), with 95% confidence
//! intervals on the shares.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::tables::{self, Cell, Table, pct};
use super::{LabPlan, MadeBy, RunRecord};
use crate::policy::Outcome;

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
    pub left_behind: Vec<((String, crate::grid::GridPos, String), u64, u64)>,
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

fn causes_table(lab_dir: &str, ended: &[&RunRecord]) -> Table {
    let mut t = Table::new(
        "why_short",
        "Why delves ended short of the goal",
        "The feature that stopped the party (with its square), or the state of a member, most \
         often first; three delves of each to watch on the timeline.",
        &["why", "delves", "share", "replay"],
    )
    .when_empty("Every delve reached the goal.");
    let headlines: Vec<Option<String>> = ended
        .iter()
        .map(|r| r.tally.cause.as_ref().map(|c| c.headline()))
        .collect();
    for (why, share, seeds) in causes(ended) {
        let replay: Vec<String> = seeds
            .iter()
            .map(|seed| format!("`delve replay {lab_dir} --seed {seed}`"))
            .collect();
        t.push(vec![
            Cell::text(&why),
            Cell::Count(share.count),
            Cell::Share(
                headlines
                    .iter()
                    .map(|h| Some(f64::from(u8::from(h.as_deref() == Some(why.as_str())))))
                    .collect(),
            ),
            Cell::text(replay.join(", ")),
        ]);
    }
    t
}

fn outcomes_table(ended: &[&RunRecord]) -> Table {
    let mut t = Table::new("outcomes", "Outcomes", "", &["outcome", "delves", "share"]);
    for &o in OUTCOMES {
        t.push(vec![
            Cell::text(format!("{o:?}")),
            Cell::Count(ended.iter().filter(|r| r.outcome == Some(o)).count() as u64),
            tables::share(ended, |r| r.outcome == Some(o)),
        ]);
    }
    t
}

fn a_delve(ended: &[&RunRecord]) -> Table {
    let mut t = Table::new("a_delve", "A delve", "", &["number", "per delve"]);
    type Of = fn(&RunRecord) -> f64;
    let means: [(&str, Of); 11] = [
        ("turns", |r| r.tally.turns as f64),
        ("turns of light burnt", |r| r.tally.light_turns_used as f64),
        ("encounters", |r| r.tally.encounters as f64),
        ("hit points of wounds", |r| r.tally.wounds as f64),
        ("traps sprung on a member", |r| {
            r.features.traps.iter().map(|t| t.sprung).sum::<u32>() as f64
        }),
        ("traps discharged harmlessly (a pole, a disarm)", |r| {
            r.features.traps.iter().map(|t| t.discharged).sum::<u32>() as f64
        }),
        ("traps disarmed", |r| r.tally.traps_disarmed as f64),
        ("doors forced", |r| r.tally.doors_forced as f64),
        ("members brought down", |r| {
            r.features
                .casualties
                .iter()
                .filter(|c| c.turn.is_some())
                .count() as f64
        }),
        ("members dead", |r| r.tally.deaths.len() as f64),
        ("members left behind alive", |r| {
            r.tally.left_behind.len() as f64
        }),
    ];
    for (what, of) in means {
        t.push(vec![Cell::text(what), tables::mean(ended, |r| Some(of(r)))]);
    }
    let turns: Vec<f32> = ended.iter().map(|r| r.tally.turns).collect();
    if let Some((median, p90)) = median_and_p90(&turns) {
        t.push(vec![
            Cell::text("turns: median; 90th percentile"),
            Cell::text(format!("{median:.1}; {p90:.1}")),
        ]);
    }
    t.push(vec![
        Cell::text("party surprised (share of delves)"),
        tables::share(ended, |r| !r.tally.surprised_by.is_empty()),
    ]);
    let mut by: BTreeMap<&str, u64> = BTreeMap::new();
    for r in ended {
        for who in &r.tally.surprised_by {
            *by.entry(who).or_default() += 1;
        }
    }
    for (who, k) in by {
        t.push(vec![
            Cell::text(format!("surprised by {who} (battles)")),
            Cell::Count(k),
        ]);
    }
    t.push(vec![
        Cell::text("the same refused command given more than twice in a row (share of delves)"),
        tables::share(ended, |r| r.tally.repeated_refusals > 2),
    ]);
    t
}

fn time_budget(ended: &[&RunRecord]) -> Table {
    use super::watch::Activity;
    let mut t = Table::new(
        "time_budget",
        "Where the time went",
        "Each round of a delve counts once, for the first of these any member was at (a \
         battle's rounds are all fighting).",
        &["doing", "turns a delve", "% of its turns"],
    );
    for &a in Activity::ALL {
        t.push(vec![
            Cell::text(a.words()),
            tables::mean(ended, |r| Some(r.features.time.get(a) as f64)),
            tables::mean(ended, |r| {
                (r.tally.turns > 0.0)
                    .then(|| 100.0 * r.features.time.get(a) as f64 / r.tally.turns as f64)
            }),
        ]);
    }
    t
}

/// The party's size: the members of the level's first party.
pub fn party_size(level: &crate::level::Level) -> usize {
    level
        .factions
        .iter()
        .find(|f| !f.marching_order.is_empty())
        .map_or(0, |f| f.marching_order.len())
}

fn survival_table(plan: &LabPlan, ended: &[&RunRecord]) -> Table {
    use super::survival::{at, delves, hazard_by_turn, kaplan_meier, members};
    let mut t = Table::new(
        "survival",
        "Survival by turn",
        "The share of delves still going and of members still standing at each turn (Kaplan–\
         Meier; a delve that hit the turn limit is censored there, a member standing at its \
         delve's end is censored then), and the hazard: of the delves going at the turn's \
         start, the share that ended in it.",
        &[
            "turn",
            "delves still going",
            "members still standing",
            "hazard (delves ending)",
            "delves going at its start",
        ],
    );
    let d = delves(ended);
    let m = members(ended, party_size(&plan.level));
    let (dc, mc) = (kaplan_meier(&d), kaplan_meier(&m));
    let last = ended
        .iter()
        .map(|r| r.tally.turns.ceil() as u32)
        .max()
        .unwrap_or(0);
    let step = (last / 20).max(1);
    let hazard = hazard_by_turn(&d, last);
    for (k, h, risk, _) in hazard {
        if k % step != 0 && k != last {
            continue;
        }
        t.push(vec![
            Cell::text(k),
            Cell::text(pct(at(&dc, k as f64))),
            Cell::text(pct(at(&mc, k as f64))),
            Cell::text(pct(h)),
            Cell::text(risk),
        ]);
    }
    t
}

fn casualties_by_fate(ended: &[&RunRecord]) -> Table {
    use super::watch::Fate;
    let mut t = Table::new(
        "casualties",
        "Casualties",
        "Members brought down (dying or dead) or left behind: dead; dying when the delve ended \
         with every member down; abandoned (left behind alive as the party left); rescued \
         (brought down, and out alive with the party).",
        &["fate", "members a delve", "delves with one"],
    );
    for &fate in Fate::ALL {
        let count = |r: &RunRecord| {
            r.features
                .casualties
                .iter()
                .filter(|c| c.fate == fate)
                .count()
        };
        t.push(vec![
            Cell::text(fate),
            tables::mean(ended, |r| Some(count(r) as f64)),
            tables::share(ended, |r| count(r) > 0),
        ]);
    }
    t
}

fn casualties(ended: &[&RunRecord]) -> Table {
    use super::watch::{Fate, Harm};
    let mut t = Table::new(
        "casualties_by_cause",
        "Casualties by cause",
        "Who went down, to what (the trap, the foe, the fall) and where, and how it ended for \
         them: the share of delves.",
        &["who", "brought down by", "where", "fate", "delves"],
    )
    .keyed_by(4)
    .when_empty("No member was brought down or left behind.");
    let mut rows: std::collections::BTreeSet<(&str, &Harm, crate::grid::GridPos, Fate)> =
        Default::default();
    for r in ended {
        for c in &r.features.casualties {
            rows.insert((&c.who, &c.by, c.at, c.fate));
        }
    }
    let mut rows: Vec<_> = rows
        .into_iter()
        .map(|(who, by, at, fate)| {
            let cell = tables::share(ended, |r| {
                r.features
                    .casualties
                    .iter()
                    .any(|c| c.who == who && c.at == at && c.fate == fate && c.by == *by)
            });
            (who, by, at, fate, cell)
        })
        .collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.4.share().map_or(0, |s| s.count)));
    for (who, by, at, fate, cell) in rows {
        t.push(vec![
            Cell::text(who),
            Cell::text(by),
            Cell::text(at),
            Cell::text(fate),
            cell,
        ]);
    }
    t
}

fn traps(plan: &LabPlan, ended: &[&RunRecord]) -> Option<Table> {
    if plan.level.traps.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "traps",
        "Traps",
        "Each trap of the level: the share of delves it went off on a member, went off \
         harmlessly (a pole's touch, a disarm that discharged it: not harm), harmed someone, \
         and ended a delve short of the goal (it brought down a member, or the cause names its \
         square); the hit points it took and the members it brought down where it went off on \
         one; and found, disarmed.",
        &[
            "trap",
            "at",
            "sprung on a member",
            "discharged harmlessly",
            "harmful",
            "ended the delve",
            "hit points (when sprung)",
            "members downed (when sprung)",
            "found",
            "disarmed",
        ],
    )
    .keyed_by(2);
    for trap in &plan.level.traps {
        let at = trap.at;
        let rec = |r: &RunRecord| r.features.traps.iter().find(|t| t.at == at).cloned();
        let name = ended
            .iter()
            .flat_map(|r| &r.features.sprung)
            .find(|(p, _)| *p == at)
            .map_or_else(|| format!("{:?}", trap.trap.kind), |(_, n)| n.clone());
        t.push(vec![
            Cell::text(name),
            Cell::text(at),
            tables::share(ended, |r| rec(r).is_some_and(|t| t.sprung > 0)),
            tables::share(ended, |r| rec(r).is_some_and(|t| t.discharged > 0)),
            tables::share(ended, |r| rec(r).is_some_and(|t| t.harmful())),
            tables::share(ended, |r| {
                r.outcome != Some(Outcome::GoalReached)
                    && (rec(r).is_some_and(|t| !t.downed.is_empty())
                        || r.tally
                            .cause
                            .as_ref()
                            .is_some_and(|c| c.square() == Some(at)))
            }),
            tables::mean(ended, |r| {
                rec(r).filter(|t| t.sprung > 0).map(|t| t.hit_points as f64)
            }),
            tables::mean(ended, |r| {
                rec(r)
                    .filter(|t| t.sprung > 0)
                    .map(|t| t.downed.len() as f64)
            }),
            tables::share(ended, |r| r.features.found.iter().any(|(p, _)| *p == at)),
            tables::share(ended, |r| r.features.disarmed.contains(&at)),
        ]);
    }
    Some(t)
}

/// The door's kind in words: secret, open at the start, locked, stuck.
fn door_note(d: &crate::level::DoorDef) -> String {
    let mut notes = Vec::new();
    if d.door.secret {
        notes.push("secret");
    }
    if d.door.state == crate::grid::DoorState::Open {
        notes.push("open at the start");
    }
    if d.door.lock != crate::level::schema::Lock::Unlocked {
        notes.push("locked");
    }
    if d.door.stuck {
        notes.push("stuck");
    }
    notes.join(", ")
}

fn doors(plan: &LabPlan, ended: &[&RunRecord]) -> Vec<Table> {
    use super::watch::{DoorRecord, DoorWay};
    if plan.level.doors.is_empty() {
        return Vec::new();
    }
    let mut funnel = Table::new(
        "doors",
        "Doors",
        "Each door: the share of delves that reached it (a member beside it), tried it, opened \
         it, tried it and left it shut, and never reached it; of those that tried it, the \
         share whose pick jammed its lock, the bashes that failed and the turns spent on it.",
        &[
            "door",
            "kind",
            "reached",
            "tried",
            "opened",
            "tried, left shut",
            "never reached",
            "lock jammed (when tried)",
            "bashes failed (when tried)",
            "turns spent (when tried)",
        ],
    );
    let mut ways = Table::new(
        "door_ways",
        "Doors: how they were tried",
        "Of the delves that tried each door, the share that tried it each way.",
        &[
            "door",
            "by hand",
            "key",
            "hasty pick",
            "methodical pick",
            "bash",
            "batter",
        ],
    );
    for d in &plan.level.doors {
        let at = d.at;
        let rec = |r: &RunRecord| -> Option<DoorRecord> {
            r.features.doors.iter().find(|x| x.at == at).cloned()
        };
        let opened = |r: &RunRecord| r.features.opened.iter().any(|(p, _)| *p == at);
        let tried = |r: &RunRecord| rec(r).is_some_and(|x| !x.tried.is_empty());
        let reached = |r: &RunRecord| rec(r).is_some_and(|x| x.reached.is_some()) || opened(r);
        funnel.push(vec![
            Cell::text(at),
            Cell::text(door_note(d)),
            tables::share(ended, reached),
            tables::share(ended, tried),
            tables::share(ended, opened),
            tables::share(ended, |r| tried(r) && !opened(r)),
            tables::share(ended, |r| !reached(r)),
            tables::share_where(ended, |r| {
                tried(r).then(|| rec(r).is_some_and(|x| x.jammed))
            }),
            tables::mean(ended, |r| {
                rec(r)
                    .filter(|x| !x.tried.is_empty())
                    .map(|x| x.bashes_failed as f64)
            }),
            tables::mean(ended, |r| {
                rec(r)
                    .filter(|x| !x.tried.is_empty())
                    .map(|x| x.turns as f64)
            }),
        ]);
        let mut row = vec![Cell::text(at)];
        for &way in DoorWay::ALL {
            row.push(tables::share_where(ended, |r| {
                tried(r).then(|| rec(r).is_some_and(|x| x.times_tried(way) > 0))
            }));
        }
        ways.push(row);
    }
    vec![funnel, ways]
}

fn secret_doors(plan: &LabPlan, ended: &[&RunRecord]) -> Option<Table> {
    let secrets: Vec<_> = plan.level.doors.iter().filter(|d| d.door.secret).collect();
    if secrets.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "secret_doors",
        "Secret doors",
        "Each secret door: the share of delves that came within a search's reach of it, \
         searched there, and found it; of those that reached it, the share that found it; and \
         the turn it was found.",
        &[
            "secret door",
            "reached",
            "searched",
            "found",
            "found (when reached)",
            "turn found",
        ],
    );
    for d in secrets {
        let at = d.at;
        let rec = |r: &RunRecord| r.features.secret_doors.iter().find(|x| x.at == at).cloned();
        let found = |r: &RunRecord| r.features.found.iter().any(|(p, _)| *p == at);
        let reached = |r: &RunRecord| rec(r).is_some_and(|x| x.reached.is_some()) || found(r);
        t.push(vec![
            Cell::text(at),
            tables::share(ended, reached),
            tables::share(ended, |r| rec(r).is_some_and(|x| x.searched > 0)),
            tables::share(ended, found),
            tables::share_where(ended, |r| reached(r).then(|| found(r))),
            tables::mean(ended, |r| rec(r).and_then(|x| x.found).map(f64::from)),
        ]);
    }
    Some(t)
}

/// The level's rooms: how each can be reached, the share of delves that came into it, and the
/// turn it took them.
fn rooms(plan: &LabPlan, ended: &[&RunRecord]) -> Table {
    let (names, room_of) = super::heat::rooms(&plan.level.grid);
    let reach = super::heat::reach_of_rooms(&plan.level, way_in(&plan.level));
    let goal_room = match plan.level.goal {
        crate::level::Goal::Room(p)
        | crate::level::Goal::Reach(p)
        | crate::level::Goal::Exit(p) => plan.level.grid.index(p).and_then(|i| room_of[i]),
        _ => None,
    };
    let size = |k: usize| room_of.iter().filter(|r| **r == Some(k)).count();
    let mut t = Table::new(
        "rooms",
        "Rooms",
        "Each stretch of floor that walls, doors and caving terrain bound (caves split into \
         chambers at their narrows), named by its first square; how it can be reached from the \
         way in on the Judge's map; the share of delves that came into it, and the turn.",
        &[
            "room",
            "can be reached",
            "squares",
            "reached",
            "turn reached",
        ],
    );
    for (k, name) in names.iter().enumerate() {
        let goal = if goal_room == Some(k) {
            " (the goal)"
        } else {
            ""
        };
        let turn = |r: &RunRecord| {
            r.features
                .reached
                .iter()
                .find(|(p, _)| p == name)
                .map(|(_, t)| *t as f64)
        };
        t.push(vec![
            Cell::text(format!("{name}{goal}")),
            Cell::text(reach[k]),
            Cell::Count(size(k) as u64),
            tables::share(ended, |r| turn(r).is_some()),
            tables::mean(ended, turn),
        ]);
    }
    t
}

/// Where the level's first party starts: its leader's square.
pub fn way_in(level: &crate::level::Level) -> crate::grid::GridPos {
    level
        .factions
        .iter()
        .find_map(|f| f.marching_order.first())
        .and_then(|&c| level.creatures.get(c))
        .map_or_else(Default::default, |c| c.at)
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
/// other the party fought: the share of delves that fought each, felled it, and never met it.
fn foes(level: &crate::level::Level, ended: &[&RunRecord]) -> Table {
    let hostile = hostile_to_the_party(level);
    let mut names: Vec<&String> = ended
        .iter()
        .flat_map(|r| &r.features.fought)
        .chain(&hostile)
        .collect();
    names.sort();
    names.dedup();
    let count = |name: &String| {
        ended
            .iter()
            .filter(|r| r.features.fought.contains(name))
            .count()
    };
    names.sort_by_key(|n| std::cmp::Reverse(count(n)));
    let mut t = Table::new(
        "foes",
        "Foes",
        "Each creature hostile to the party (those never met too) and any other it struck or \
         was struck by: the share of delves that fought it, felled it, and never met it.",
        &["foe", "fought", "felled", "never met"],
    )
    .when_empty("The level has no foe of the party.");
    for name in names {
        t.push(vec![
            Cell::text(name),
            tables::share(ended, |r| r.features.fought.contains(name)),
            tables::share(ended, |r| r.features.felled.contains(name)),
            tables::share(ended, |r| !r.features.fought.contains(name)),
        ]);
    }
    t
}

/// The most rows the noise table shows.
const NOISE_ROWS: usize = 40;

/// Which noises most often brought which monsters: for each foe the party fought, the last
/// noise it heard (or the companion's shout it answered) before the fight, and who made it; the
/// share of delves in which each brought each foe, most often first.
fn noises(ended: &[&RunRecord]) -> Option<Table> {
    // (noise, made by, monster) -> delves; keyed by words for a fixed order.
    let mut rows: BTreeMap<(String, MadeBy, String), u64> = BTreeMap::new();
    for b in ended.iter().flat_map(|r| &r.features.brought) {
        *rows
            .entry((b.noise.to_string(), b.made_by, b.monster.clone()))
            .or_default() += 1;
    }
    if rows.is_empty() {
        return None;
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort_by_key(|(_, delves)| std::cmp::Reverse(*delves));
    let mut t = Table::new(
        "noises",
        "Noises that brought monsters",
        "For each foe the party fought, the last noise it heard before the fight (or the \
         companion's shout it answered): the share of delves in which that noise brought it. A \
         foe that came on sight alone is not here.",
        &["noise", "made by", "monster", "brought it in"],
    )
    .keyed_by(3);
    for ((noise, by, monster), _) in rows.iter().take(NOISE_ROWS) {
        t.push(vec![
            Cell::text(noise),
            Cell::text(by),
            Cell::text(monster),
            tables::share(ended, |r| {
                r.features.brought.iter().any(|b| {
                    b.made_by == *by && b.monster == *monster && b.noise.to_string() == *noise
                })
            }),
        ]);
    }
    if rows.len() > NOISE_ROWS {
        t.note = format!(
            "{} rarer rows are left out; `runs.jsonl` has them all.",
            rows.len() - NOISE_ROWS
        );
    }
    Some(t)
}

fn left_behind_table(ended: &[&RunRecord]) -> Table {
    let mut t = Table::new(
        "left_behind",
        "Left behind alive",
        "Members alive (dying ones too) the party did not bring out as it left the level; \
         \"could be brought\": the others could have carried it, roped it out of its pit, or \
         it could have walked to them.",
        &["who", "where", "how", "delves", "could be brought"],
    )
    .keyed_by(3)
    .when_empty("The party left no living member behind.");
    for ((who, at, how), n, could) in left_behind(ended) {
        t.push(vec![
            Cell::text(who),
            Cell::text(at),
            Cell::text(how),
            Cell::Count(n),
            Cell::Count(could),
        ]);
    }
    t
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
    let md = markdown(
        plan,
        level_file,
        &dir.display().to_string(),
        &result.records,
        &pictures,
    );
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
