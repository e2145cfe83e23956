//! The report's tables of the delves themselves: why they ended short, their outcomes, a delve's numbers, where the time went, survival by turn, casualties and who was left behind.

use delve_ground::grid::GridPos;
use delve_ground::level::Level;

use super::super::tables::{self, Cell, Table, pct};
use super::super::{LabPlan, RunRecord};
use std::collections::BTreeMap;

use super::{OUTCOMES, causes, left_behind, median_and_p90};

pub(super) fn causes_table(lab_dir: &str, ended: &[&RunRecord]) -> Table {
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

pub(super) fn outcomes_table(ended: &[&RunRecord]) -> Table {
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

pub(super) fn a_delve(ended: &[&RunRecord]) -> Table {
    let mut t = Table::new("a_delve", "A delve", "", &["number", "per delve"]);
    type Of = fn(&RunRecord) -> f64;
    let means: [(&str, Of); 11] = [
        ("turns", |r| r.tally.turns as f64),
        ("turns of light burnt", |r| r.tally.light_turns_used as f64),
        ("encounters", |r| r.tally.encounters as f64),
        ("hit points of wounds", |r| r.tally.wounds as f64),
        ("traps sprung on a member", |r| {
            r.features
                .traps
                .iter()
                .map(|t| t.sprung as f64)
                .sum::<f64>()
        }),
        ("traps discharged harmlessly (a pole, a disarm)", |r| {
            r.features
                .traps
                .iter()
                .map(|t| t.discharged as f64)
                .sum::<f64>()
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

pub(super) fn time_budget(ended: &[&RunRecord]) -> Table {
    use delve_rules::act::Activity;
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
pub fn party_size(level: &Level) -> usize {
    level
        .factions
        .iter()
        .find(|f| !f.marching_order.is_empty())
        .map_or(0, |f| f.marching_order.len())
}

pub(super) fn survival_table(plan: &LabPlan, ended: &[&RunRecord]) -> Table {
    use super::super::survival::{at, delves, hazard_by_turn, kaplan_meier, members};
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

pub(super) fn casualties_by_fate(ended: &[&RunRecord]) -> Table {
    use super::super::watch::Fate;
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

pub(super) fn casualties(ended: &[&RunRecord]) -> Table {
    use super::super::watch::{Fate, Harm};
    let mut t = Table::new(
        "casualties_by_cause",
        "Casualties by cause",
        "Who went down, to what (the trap, the foe, the fall) and where, and how it ended for \
         them: the share of delves.",
        &["who", "brought down by", "where", "fate", "delves"],
    )
    .keyed_by(4)
    .when_empty("No member was brought down or left behind.");
    let mut rows: std::collections::BTreeSet<(&str, &Harm, GridPos, Fate)> = Default::default();
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

pub(super) fn left_behind_table(ended: &[&RunRecord]) -> Table {
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
