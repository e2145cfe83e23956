//! The report's tables of the level's places and foes: traps, doors and secret doors, rooms, foes, and the noises that brought monsters.

use delve_ground::grid::{DoorState, GridPos};
use delve_ground::level::schema::Lock;
use delve_ground::level::{DoorDef, Goal, Level};

use super::super::tables::{self, Cell, Table};
use super::super::{LabPlan, MadeBy, RunRecord};
use delve_minds::policy::outcome::Outcome;
use std::collections::BTreeMap;

pub(super) fn traps(plan: &LabPlan, ended: &[&RunRecord]) -> Option<Table> {
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
pub(super) fn door_note(d: &DoorDef) -> String {
    let mut notes = Vec::new();
    if d.door.secret {
        notes.push("secret");
    }
    if d.door.state == DoorState::Open {
        notes.push("open at the start");
    }
    if d.door.lock != Lock::Unlocked {
        notes.push("locked");
    }
    if d.door.stuck {
        notes.push("stuck");
    }
    notes.join(", ")
}

pub(super) fn doors(plan: &LabPlan, ended: &[&RunRecord]) -> Vec<Table> {
    use super::super::watch::{DoorRecord, DoorWay};
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

pub(super) fn secret_doors(plan: &LabPlan, ended: &[&RunRecord]) -> Option<Table> {
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
pub(super) fn rooms(plan: &LabPlan, ended: &[&RunRecord]) -> Table {
    let (names, room_of) = super::super::heat::rooms(&plan.level.grid);
    let reach = super::super::heat::reach_of_rooms(&plan.level, way_in(&plan.level));
    let goal_room = match plan.level.goal {
        Goal::Room(p) | Goal::Reach(p) | Goal::Exit(p) => {
            plan.level.grid.index(p).and_then(|i| room_of[i])
        }
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
pub fn way_in(level: &Level) -> GridPos {
    level
        .factions
        .iter()
        .find_map(|f| f.marching_order.first())
        .and_then(|&c| level.creatures.get(c))
        .map_or_else(Default::default, |c| c.at)
}

/// The level's creatures hostile to its (first) party, or it to them, by name.
pub(super) fn hostile_to_the_party(level: &Level) -> Vec<String> {
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
pub(super) fn foes(level: &Level, ended: &[&RunRecord]) -> Table {
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
pub(super) const NOISE_ROWS: usize = 40;

/// Which noises most often brought which monsters: for each foe the party fought, the last
/// noise it heard (or the companion's shout it answered) before the fight, and who made it; the
/// share of delves in which each brought each foe, most often first.
pub(super) fn noises(ended: &[&RunRecord]) -> Option<Table> {
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
