//! Expectations a level must keep: a designer states in a RON file the shares a level should
//! give — the goal reached at least so often, a secret door found between two shares, a room
//! reached — and the lab plays delves until each is decided by Wald's sequential probability
//! ratio test (at the error rates the file states) or a cap on the delves, so a level's
//! regression test stops as soon as its answer is clear.
//!
//! ```ron
//! (
//!     wrongly_pass: 0.05, wrongly_fail: 0.05, margin: 0.05, cap: 1000,
//!     expect: {
//!         goal_reached: (at_least: 0.4),
//!         party_dead: (at_most: 0.1),
//!         secret_door((23, 11)): (found: (between: (0.4, 0.7))),
//!         room((30, 4)): (reached: (at_least: 0.5)),
//!     },
//! )
//! ```
//!
//! A bare map (just the `expect` part) is read with the defaults.

use delve_ground::level::Level;

use std::collections::BTreeMap;

use serde::Deserialize;

use super::RunRecord;
use super::tables::Share;
use delve_ground::grid::GridPos;
use delve_minds::policy::outcome::Outcome;

/// What an expectation is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// The goal met and every living member brought out.
    GoalReached,
    /// The goal met, living members left behind.
    GoalReachedMembersLeft,
    PartyDead,
    PartyFled,
    OutOfLight,
    OutOfTime,
    GaveUp,
    /// A secret door at its square: `reached`, `searched`, `found`.
    SecretDoor((i32, i32)),
    /// A door at its square: `reached`, `tried`, `opened`, `left_shut` (tried, not opened).
    Door((i32, i32)),
    /// A room, named by any square of it: `reached`.
    Room((i32, i32)),
    /// A trap at its square: `sprung` (on a member), `discharged`, `harmful`, `found`,
    /// `disarmed`.
    Trap((i32, i32)),
    /// A foe by name: `fought`, `felled`.
    Foe(String),
    /// A member of the party by name: `downed`, `died`, `abandoned`.
    Member(String),
}

impl Subject {
    /// The outcome an outcome's subject counts (`goal_reached`: the goal met and every living
    /// member brought out); the others count delves by what happened in them.
    fn outcome(&self) -> Outcome {
        match self {
            Subject::GoalReachedMembersLeft => Outcome::GoalReachedMembersLeft,
            Subject::PartyDead => Outcome::PartyDead,
            Subject::PartyFled => Outcome::PartyFled,
            Subject::OutOfLight => Outcome::OutOfLight,
            Subject::OutOfTime => Outcome::OutOfTime,
            Subject::GaveUp => Outcome::GaveUp,
            _ => Outcome::GoalReached,
        }
    }
}

/// The share wanted: at least, at most, or between two shares.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Wanted {
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    pub between: Option<(f64, f64)>,
    pub reached: Option<Box<Wanted>>,
    pub searched: Option<Box<Wanted>>,
    pub found: Option<Box<Wanted>>,
    pub tried: Option<Box<Wanted>>,
    pub opened: Option<Box<Wanted>>,
    pub left_shut: Option<Box<Wanted>>,
    pub sprung: Option<Box<Wanted>>,
    pub discharged: Option<Box<Wanted>>,
    pub harmful: Option<Box<Wanted>>,
    pub disarmed: Option<Box<Wanted>>,
    pub fought: Option<Box<Wanted>>,
    pub felled: Option<Box<Wanted>>,
    pub downed: Option<Box<Wanted>>,
    pub died: Option<Box<Wanted>>,
    pub abandoned: Option<Box<Wanted>>,
}

/// A share's bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    AtLeast(f64),
    AtMost(f64),
    Between(f64, f64),
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = |x: f64| format!("{:.1}%", 100.0 * x);
        match self {
            Bound::AtLeast(x) => write!(f, "at least {}", p(*x)),
            Bound::AtMost(x) => write!(f, "at most {}", p(*x)),
            Bound::Between(a, b) => write!(f, "between {} and {}", p(*a), p(*b)),
        }
    }
}

impl Wanted {
    /// The bound this states, if it states exactly one.
    fn bound(&self) -> Result<Bound, String> {
        match (self.at_least, self.at_most, self.between) {
            (Some(x), None, None) => Ok(Bound::AtLeast(x)),
            (None, Some(x), None) => Ok(Bound::AtMost(x)),
            (None, None, Some((a, b))) if a <= b => Ok(Bound::Between(a, b)),
            (None, None, Some((a, b))) => Err(format!("between ({a}, {b}): the first is more")),
            _ => Err("give one of at_least, at_most or between".into()),
        }
        .and_then(|b| {
            let ok = |x: f64| (0.0..=1.0).contains(&x);
            match b {
                Bound::AtLeast(x) | Bound::AtMost(x) if !ok(x) => {
                    Err(format!("{x} is not a share (0 to 1)"))
                }
                Bound::Between(a, b) if !ok(a) || !ok(b) => {
                    Err(format!("({a}, {b}) are not shares (0 to 1)"))
                }
                b => Ok(b),
            }
        })
    }

    /// The measure it names (`found: (…)`) and what is wanted of it.
    fn measure(&self) -> Result<(&'static str, &Wanted), String> {
        let all: [(&'static str, &Option<Box<Wanted>>); 15] = [
            ("reached", &self.reached),
            ("searched", &self.searched),
            ("found", &self.found),
            ("tried", &self.tried),
            ("opened", &self.opened),
            ("left_shut", &self.left_shut),
            ("sprung", &self.sprung),
            ("discharged", &self.discharged),
            ("harmful", &self.harmful),
            ("disarmed", &self.disarmed),
            ("fought", &self.fought),
            ("felled", &self.felled),
            ("downed", &self.downed),
            ("died", &self.died),
            ("abandoned", &self.abandoned),
        ];
        let given: Vec<_> = all
            .iter()
            .filter_map(|(n, w)| w.as_deref().map(|w| (*n, w)))
            .collect();
        match given.as_slice() {
            [one] => Ok(*one),
            [] => Err("name what is measured, e.g. (found: (at_least: 0.5))".into()),
            _ => Err("name one measure only".into()),
        }
    }
}

fn default_error() -> f64 {
    0.05
}
fn default_margin() -> f64 {
    0.05
}

/// The most delves an expectations file may ask for (a lab of them plays for hours).
pub const MAX_CAP: u64 = 100_000;

/// An expectations file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectFile {
    /// The chance of passing an expectation the level misses by the margin.
    #[serde(default = "default_error")]
    pub wrongly_pass: f64,
    /// The chance of failing an expectation the level keeps by the margin.
    #[serde(default = "default_error")]
    pub wrongly_fail: f64,
    /// Half the width of the band around each bound in which either verdict is acceptable.
    #[serde(default = "default_margin")]
    pub margin: f64,
    /// The most delves to play; the lab's `--runs` when left out.
    #[serde(default)]
    pub cap: Option<u64>,
    pub expect: Unique,
}

/// The expectations by subject, each subject once: a subject given twice is refused where it
/// is given the second time (a map read by RON keeps only the last, and the first was dropped
/// without a word).
#[derive(Clone, Debug, Default)]
pub struct Unique(pub BTreeMap<Subject, Wanted>);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> serde::de::Visitor<'de> for Pairs {
            type Value = Unique;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of expectations, `{ goal_reached: (at_least: 0.5), … }`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Unique, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(subject) = map.next_key::<Subject>()? {
                    if out.contains_key(&subject) {
                        return Err(serde::de::Error::custom(format!(
                            "{subject:?} is expected twice: give each subject once"
                        )));
                    }
                    out.insert(subject, map.next_value::<Wanted>()?);
                }
                Ok(Unique(out))
            }
        }
        d.deserialize_map(Pairs)
    }
}

/// One expectation, ready to judge: what it says, and for a delve whether it holds.
pub struct Expectation {
    pub what: String,
    pub bound: Bound,
    hit: Box<dyn Fn(&RunRecord) -> bool + Send + Sync>,
}

/// The expectations of a file, checked against the level.
pub struct Expectations {
    pub wrongly_pass: f64,
    pub wrongly_fail: f64,
    pub margin: f64,
    pub cap: Option<u64>,
    pub list: Vec<Expectation>,
}

/// Reads an expectations file (the whole form, or a bare map) and checks it against the level:
/// each door, trap and room named must be on it. The error names the file, and the line where
/// RON says so.
pub fn parse(text: &str, file: &str, level: &Level) -> Result<Expectations, String> {
    let whole: Result<ExpectFile, _> = delve_ground::level::ron_options().from_str(text);
    let parsed = match whole {
        Ok(f) => f,
        Err(first) => match delve_ground::level::ron_options().from_str::<Unique>(text) {
            Ok(expect) => ExpectFile {
                wrongly_pass: default_error(),
                wrongly_fail: default_error(),
                margin: default_margin(),
                cap: None,
                expect,
            },
            Err(second) => {
                // Say what is wrong in the form the file is written in: a bare map or the
                // whole.
                let bare = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty() && !l.starts_with("//"))
                    .is_some_and(|l| l.starts_with('{'));
                return Err(format!("{file}:{}", if bare { second } else { first }));
            }
        },
    };
    for (name, x) in [
        ("wrongly_pass", parsed.wrongly_pass),
        ("wrongly_fail", parsed.wrongly_fail),
    ] {
        if !(x > 0.0 && x < 0.5) {
            return Err(format!(
                "{file}: {name} is {x}: give a chance between 0 and 0.5"
            ));
        }
    }
    if let Some(cap) = parsed.cap.filter(|c| !(1..=MAX_CAP).contains(c)) {
        return Err(format!("{file}: cap is {cap}: give 1 to {MAX_CAP} delves"));
    }
    if !(parsed.margin > 0.0 && parsed.margin < 0.5) {
        return Err(format!(
            "{file}: margin is {}: give a share between 0 and 0.5",
            parsed.margin
        ));
    }
    let mut list = Vec::new();
    for (subject, wanted) in parsed.expect.0 {
        let e = expectation(&subject, &wanted, level).map_err(|e| format!("{file}: {e}"))?;
        list.push(e);
    }
    if list.is_empty() {
        return Err(format!("{file}: no expectation in it"));
    }
    Ok(Expectations {
        wrongly_pass: parsed.wrongly_pass,
        wrongly_fail: parsed.wrongly_fail,
        margin: parsed.margin,
        cap: parsed.cap,
        list,
    })
}

/// Is the creature of that name in a party's marching order?
fn in_a_party(level: &Level, who: &str) -> bool {
    level.factions.iter().any(|f| {
        f.marching_order
            .iter()
            .any(|&i| level.creatures.get(i).is_some_and(|c| c.name == who))
    })
}

/// A measure the subject does not have.
fn unknown<T>(name: &str, m: &str, allowed: &str) -> Result<T, String> {
    Err(format!(
        "{name}: {m} is not measured of it (give {allowed})"
    ))
}

fn expectation(subject: &Subject, wanted: &Wanted, level: &Level) -> Result<Expectation, String> {
    let outcome = |o: Outcome| -> Result<Expectation, String> {
        Ok(Expectation {
            what: format!("{o:?}"),
            bound: wanted.bound().map_err(|e| format!("{subject:?}: {e}"))?,
            hit: Box::new(move |r: &RunRecord| r.outcome == Some(o)),
        })
    };
    let sq = |(x, y): (i32, i32)| GridPos::new(x, y);
    let measured = |name: &str| -> Result<(&'static str, Bound), String> {
        let (m, w) = wanted.measure().map_err(|e| format!("{name}: {e}"))?;
        Ok((m, w.bound().map_err(|e| format!("{name} {m}: {e}"))?))
    };
    type Hit = Box<dyn Fn(&RunRecord) -> bool + Send + Sync>;
    let (what, bound, hit): (String, Bound, Hit) = match subject {
        Subject::GoalReached
        | Subject::GoalReachedMembersLeft
        | Subject::PartyDead
        | Subject::PartyFled
        | Subject::OutOfLight
        | Subject::OutOfTime
        | Subject::GaveUp => return outcome(subject.outcome()),
        Subject::SecretDoor(p) => {
            let at = sq(*p);
            let name = format!("secret_door({at})");
            if !level.doors.iter().any(|d| d.at == at && d.door.secret) {
                return Err(format!("{name}: the level has no secret door there"));
            }
            let (m, bound) = measured(&name)?;
            let hit: Hit = match m {
                "found" => Box::new(move |r| r.features.found.iter().any(|(q, _)| *q == at)),
                "reached" => Box::new(move |r| {
                    r.features
                        .secret_doors
                        .iter()
                        .any(|s| s.at == at && s.reached.is_some())
                }),
                "searched" => Box::new(move |r| {
                    r.features
                        .secret_doors
                        .iter()
                        .any(|s| s.at == at && s.searched > 0)
                }),
                _ => return unknown(&name, m, "reached, searched or found"),
            };
            (format!("{name} {m}"), bound, hit)
        }
        Subject::Door(p) => {
            let at = sq(*p);
            let name = format!("door({at})");
            if !level.doors.iter().any(|d| d.at == at) {
                return Err(format!("{name}: the level has no door there"));
            }
            let (m, bound) = measured(&name)?;
            let opened = move |r: &RunRecord| r.features.opened.iter().any(|(q, _)| *q == at);
            let tried = move |r: &RunRecord| {
                r.features
                    .doors
                    .iter()
                    .any(|d| d.at == at && !d.tried.is_empty())
            };
            let hit: Hit = match m {
                "opened" => Box::new(opened),
                "tried" => Box::new(tried),
                "left_shut" => Box::new(move |r| tried(r) && !opened(r)),
                "reached" => Box::new(move |r| {
                    r.features
                        .doors
                        .iter()
                        .any(|d| d.at == at && d.reached.is_some())
                }),
                _ => return unknown(&name, m, "reached, tried, opened or left_shut"),
            };
            (format!("{name} {m}"), bound, hit)
        }
        Subject::Room(p) => {
            let at = sq(*p);
            let name = format!("room({at})");
            let (names, room_of) = super::heat::rooms(&level.grid);
            let Some(k) = level.grid.index(at).and_then(|i| room_of[i]) else {
                return Err(format!("{name}: no room takes in that square"));
            };
            let first = names[k];
            let (m, bound) = measured(&name)?;
            if m != "reached" {
                return unknown(&name, m, "reached");
            }
            let hit: Hit = Box::new(move |r| r.features.reached.iter().any(|(q, _)| *q == first));
            (format!("{name} reached"), bound, hit)
        }
        Subject::Trap(p) => {
            let at = sq(*p);
            let name = format!("trap({at})");
            if !level.traps.iter().any(|t| t.at == at) {
                return Err(format!("{name}: the level has no trap there"));
            }
            let (m, bound) = measured(&name)?;
            let rec = move |r: &RunRecord| r.features.traps.iter().find(|t| t.at == at).cloned();
            let hit: Hit = match m {
                "sprung" => Box::new(move |r| rec(r).is_some_and(|t| t.sprung > 0)),
                "discharged" => Box::new(move |r| rec(r).is_some_and(|t| t.discharged > 0)),
                "harmful" => Box::new(move |r| rec(r).is_some_and(|t| t.harmful())),
                "found" => Box::new(move |r| r.features.found.iter().any(|(q, _)| *q == at)),
                "disarmed" => Box::new(move |r| r.features.disarmed.contains(&at)),
                _ => {
                    return unknown(&name, m, "sprung, discharged, harmful, found or disarmed");
                }
            };
            (format!("{name} {m}"), bound, hit)
        }
        Subject::Foe(who) => {
            let name = format!("foe({who})");
            if !level.creatures.iter().any(|c| c.name == *who) {
                return Err(format!("{name}: the level has no creature of that name"));
            }
            if in_a_party(level, who) {
                return Err(format!(
                    "{name}: {who} is a member of the party (give member({who}))"
                ));
            }
            let (m, bound) = measured(&name)?;
            let who = who.clone();
            let hit: Hit = match m {
                "fought" => Box::new(move |r| r.features.fought.contains(&who)),
                "felled" => Box::new(move |r| r.features.felled.contains(&who)),
                _ => return unknown(&name, m, "fought or felled"),
            };
            (format!("{name} {m}"), bound, hit)
        }
        Subject::Member(who) => {
            let name = format!("member({who})");
            if !level.creatures.iter().any(|c| c.name == *who) {
                return Err(format!("{name}: the level has no creature of that name"));
            }
            if !in_a_party(level, who) {
                return Err(format!(
                    "{name}: {who} is no member of a party (give foe({who}) for a foe)"
                ));
            }
            let (m, bound) = measured(&name)?;
            let who = who.clone();
            let hit: Hit = match m {
                "died" => Box::new(move |r| r.tally.deaths.iter().any(|d| d.who == who)),
                "downed" => Box::new(move |r| {
                    r.features
                        .casualties
                        .iter()
                        .any(|c| c.who == who && c.turn.is_some())
                }),
                "abandoned" => Box::new(move |r| r.tally.left_behind.iter().any(|l| l.who == who)),
                _ => return unknown(&name, m, "downed, died or abandoned"),
            };
            (format!("{name} {m}"), bound, hit)
        }
    };
    Ok(Expectation { what, bound, hit })
}

/// How an expectation came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The sequential test decided it after this many delves.
    Passed {
        after: u64,
    },
    Failed {
        after: u64,
    },
    /// Not decided within the delves played.
    Open,
}

/// An expectation's verdict: its decision, and the share over the delves it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub what: String,
    pub bound: Bound,
    pub decision: Decision,
    pub share: Share,
}

impl Verdict {
    /// Passed: decided so, or — left open at the cap — its share on the wanted side.
    pub fn passed(&self) -> bool {
        match self.decision {
            Decision::Passed { .. } => true,
            Decision::Failed { .. } => false,
            Decision::Open => match self.bound {
                Bound::AtLeast(x) => self.share.share >= x,
                Bound::AtMost(x) => self.share.share <= x,
                Bound::Between(a, b) => (a..=b).contains(&self.share.share),
            },
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = |x: f64| format!("{:.1}%", 100.0 * x);
        let how = match self.decision {
            Decision::Passed { after } => format!("passed after {after} delves"),
            Decision::Failed { after } => format!("FAILED after {after} delves"),
            Decision::Open if self.passed() => {
                "undecided at the cap; its share is on the wanted side".to_owned()
            }
            Decision::Open => {
                "FAILED: undecided at the cap, its share on the wrong side".to_owned()
            }
        };
        write!(
            f,
            "{} {}: {how} — {} of {} ({}, 95% {}–{})",
            self.what,
            self.bound,
            self.share.count,
            self.share.of,
            p(self.share.share),
            p(self.share.low),
            p(self.share.high)
        )
    }
}

/// Wald's test of one side: is the share at least (`up`) or at most (`!up`) `x`? The verdict
/// and the delve it came at, reading the delves in order.
fn sprt(hits: &[bool], x: f64, up: bool, e: &Expectations) -> Decision {
    let clamp = |p: f64| p.clamp(1e-4, 1.0 - 1e-4);
    // The share at which it should pass, and at which it should fail, the margin either side.
    let (pass, fail) = if up {
        (clamp(x + e.margin), clamp(x - e.margin))
    } else {
        (clamp(x - e.margin), clamp(x + e.margin))
    };
    let (yes, no) = ((pass / fail).ln(), ((1.0 - pass) / (1.0 - fail)).ln());
    let accept = ((1.0 - e.wrongly_fail) / e.wrongly_pass).ln();
    let reject = (e.wrongly_fail / (1.0 - e.wrongly_pass)).ln();
    let mut llr = 0.0;
    for (k, &h) in hits.iter().enumerate() {
        llr += if h { yes } else { no };
        let after = k as u64 + 1;
        if llr >= accept {
            return Decision::Passed { after };
        }
        if llr <= reject {
            return Decision::Failed { after };
        }
    }
    Decision::Open
}

impl Expectations {
    /// Each expectation judged on the delves in the order of their seeds (those that failed
    /// are left out), each stopping at the delve that decides it.
    pub fn judge(&self, records: &[RunRecord]) -> Vec<Verdict> {
        let mut ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
        ended.sort_by_key(|r| r.seed);
        self.list
            .iter()
            .map(|x| {
                let hits: Vec<bool> = ended.iter().map(|r| (x.hit)(r)).collect();
                let decision = match x.bound {
                    Bound::AtLeast(v) => sprt(&hits, v, true, self),
                    Bound::AtMost(v) => sprt(&hits, v, false, self),
                    Bound::Between(a, b) => {
                        match (sprt(&hits, a, true, self), sprt(&hits, b, false, self)) {
                            (f @ Decision::Failed { .. }, _) | (_, f @ Decision::Failed { .. }) => {
                                f
                            }
                            (Decision::Passed { after: i }, Decision::Passed { after: j }) => {
                                Decision::Passed { after: i.max(j) }
                            }
                            _ => Decision::Open,
                        }
                    }
                };
                let used = match decision {
                    Decision::Passed { after } | Decision::Failed { after } => after as usize,
                    Decision::Open => hits.len(),
                };
                let count = hits[..used].iter().filter(|h| **h).count() as u64;
                Verdict {
                    what: x.what.clone(),
                    bound: x.bound,
                    decision,
                    share: Share::new(count, used as u64),
                }
            })
            .collect()
    }

    /// Is every expectation decided?
    pub fn all_decided(&self, verdicts: &[Verdict]) -> bool {
        verdicts.iter().all(|v| v.decision != Decision::Open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Expectations {
        Expectations {
            wrongly_pass: 0.05,
            wrongly_fail: 0.05,
            margin: 0.05,
            cap: None,
            list: Vec::new(),
        }
    }

    /// Every delve a hit: "at least 40%" passes as soon as the log-likelihood ratio crosses
    /// ln(0.95/0.05) = 2.944, each hit adding ln(0.45/0.35) = 0.2513: after 12 delves.
    #[test]
    fn wald_decides_as_soon_as_the_ratio_crosses() {
        let e = rules();
        assert_eq!(
            sprt(&[true; 50], 0.4, true, &e),
            Decision::Passed { after: 12 }
        );
        // Every delve a miss, each adding ln(0.55/0.65) = −0.1671: fails after 18.
        assert_eq!(
            sprt(&[false; 50], 0.4, true, &e),
            Decision::Failed { after: 18 }
        );
        // Hits and misses alternating at 50%, against "at most 40%": fails in time; 5 delves
        // cannot decide it.
        let half: Vec<bool> = (0..400).map(|i| i % 2 == 0).collect();
        assert!(matches!(
            sprt(&half, 0.4, false, &e),
            Decision::Failed { .. }
        ));
        assert_eq!(sprt(&half[..5], 0.4, false, &e), Decision::Open);
    }

    /// A subject given twice is refused at the second (the first was dropped without a word);
    /// a monster is no member, nor a member a foe.
    #[test]
    fn a_subject_twice_and_a_monster_as_a_member_are_refused() {
        let level =
            delve_ground::level::load_level_file(std::path::Path::new("levels/gym/climbers.ron"))
                .unwrap()
                .level;
        let twice = "{\n  goal_reached: (at_least: 0.5),\n  goal_reached: (at_most: 0.9),\n}";
        let e = parse(twice, "x.ron", &level).err().unwrap();
        assert!(e.starts_with("x.ron:3:"), "{e}");
        assert!(e.contains("GoalReached is expected twice"), "{e}");
        let whole = "(expect: { member(\"Hild\"): (died: (at_most: 0.1)), member(\"Hild\"): (downed: (at_most: 0.1)) })";
        let e = parse(whole, "x.ron", &level).err().unwrap();
        assert!(e.contains("is expected twice"), "{e}");
        let monster = "{ member(\"Eel\"): (died: (at_most: 0.1)) }";
        let e = parse(monster, "x.ron", &level).err().unwrap();
        assert_eq!(
            e,
            "x.ron: member(Eel): Eel is no member of a party (give foe(Eel) for a foe)"
        );
        let member = "{ foe(\"Hild\"): (felled: (at_most: 0.1)) }";
        let e = parse(member, "x.ron", &level).err().unwrap();
        assert!(e.contains("Hild is a member of the party"), "{e}");
        assert!(
            parse(
                "{ member(\"Hild\"): (died: (at_most: 0.1)) }",
                "x.ron",
                &level
            )
            .is_ok()
        );
        // A cap past what a lab plays for is refused (it played for ever).
        let endless = "(cap: 18446744073709551615, expect: { goal_reached: (at_least: 0.5) })";
        let e = parse(endless, "x.ron", &level).err().unwrap();
        assert_eq!(
            e,
            "x.ron: cap is 18446744073709551615: give 1 to 100000 delves"
        );
    }
}
