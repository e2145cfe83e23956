//! Lints: design problems of a level that loads without error, found before the first delve
//! (`delve check --lint`), each pointing at the line and column it comes from. They judge the
//! level by the rules (what can be heard and seen), so they stand above the level and the rules:
//! - areas the party cannot walk to from where it starts, and areas it reaches only through a
//!   secret door;
//! - a key locked behind its own door;
//! - a locked door whose key no one in the level carries and that no one in the party can pick;
//! - a faction of monsters with no enemies (and none hostile to it);
//! - a room with no light in it, for a party that carries none and cannot see in the dark;
//! - a trap stepped on only by walking to it on purpose: unreachable, or at the far end of
//!   every path that comes to it (a dead end's tip, a room's farthest corner);
//! - a monster that can never hear the party (a loud noise, with a Listening throw) nor see it
//!   anywhere it can walk, every door open;
//! - a faction hostile to itself, an empty name, traps stacked on one square.

use delve_ground::grid::DoorState;
use delve_ground::level::{CreatureDef, DiagnosticKind, Goal, TrapTriggerDef};

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use delve_ground::grid::GridPos;
use delve_ground::grid::terrain::Terrain;
use delve_ground::level::schema::{Gear, Lock, Proficiency, RawLevel};
use delve_ground::level::spans::{Seg, SpanIndex};
use delve_ground::level::{Diagnostic, Level, SourcePos};

/// A design problem of a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LintProblem {
    /// Floor the party cannot get to from its start, even through every door, climbing into and
    /// out of every pit and chasm (`at` is its first square in reading order).
    Unreachable { at: GridPos, squares: usize },
    /// Floor the party reaches only through a secret door.
    OnlyBySecretDoors { at: GridPos, squares: usize },
    /// The key to this door is carried by a creature that stands behind the door.
    KeyBehindItsDoor {
        door: GridPos,
        key: String,
        holder: String,
    },
    /// A locked door whose key no one carries, that no one in the party can pick, and that it
    /// has nothing to batter down.
    LockNoOneOpens { door: GridPos },
    /// A faction of monsters with no enemies: it never fights.
    NoEnemies { faction: String },
    /// No one in the party carries a weapon, and the level holds creatures hostile to it: it
    /// cannot fight them, and a lab of the level measures flight.
    Unarmed { party: String, foes: usize },
    /// A room with no light in it, where the party, carrying none and with neither lightless
    /// vision nor shadowy senses, sees nothing (`at` is its first square).
    Dark { at: GridPos, squares: usize },
    /// A trap stepped on that no path crosses: the party cannot reach it (`reachable: false`),
    /// or every path that comes to it ends there.
    TrapOffThePaths { at: GridPos, reachable: bool },
    /// A creature out of earshot of the loudest everyday noise (fighting, shouting: loud) and
    /// out of sight of every square the party can walk to, from every square it keeps to.
    NeverMeetsTheParty { who: String },
    /// A faction hostile to itself: its members fight one another.
    HostileToItself { faction: String },
    /// A name that is empty or blank (`what`: the level, a faction, a creature): the log and
    /// the panels name it by nothing.
    EmptyName { what: &'static str },
    /// More than one trap on one square: the first to go off hides the rest.
    StackedTraps { at: GridPos, traps: usize },
}

impl fmt::Display for LintProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LintProblem::Unreachable { at, squares } => write!(
                f,
                "{squares} square(s) of floor from {at} cannot be reached from where the party \
                 starts, through any door"
            ),
            LintProblem::OnlyBySecretDoors { at, squares } => write!(
                f,
                "(a note) {squares} square(s) of floor from {at} are reached only through a \
                 secret door"
            ),
            LintProblem::KeyBehindItsDoor { door, key, holder } => write!(
                f,
                "the key `{key}` to the door at {door} is carried by {holder}, who is behind that \
                 door"
            ),
            LintProblem::LockNoOneOpens { door } => write!(
                f,
                "the door at {door} is locked, no one in the level carries its key, no one in the \
                 party can pick it and it has nothing to batter it down with"
            ),
            LintProblem::Dark { at, squares } => write!(
                f,
                "the room of {squares} square(s) from {at} has no light, and the party carries \
                 none and cannot see in the dark: it is blind there"
            ),
            LintProblem::TrapOffThePaths {
                at,
                reachable: false,
            } => write!(
                f,
                "the trap at {at} is where the party cannot go: it never goes off"
            ),
            LintProblem::TrapOffThePaths {
                at,
                reachable: true,
            } => write!(
                f,
                "the trap at {at} is on no path to anywhere else: only a delver who walks to that \
                 very square sets it off"
            ),
            LintProblem::NeverMeetsTheParty { who } => write!(
                f,
                "{who} can never hear the party (even fighting or shouting) nor see it anywhere \
                 the party can walk, every door open: it takes no part in the delve"
            ),
            LintProblem::Unarmed { party, foes } => write!(
                f,
                "no one in the party `{party}` carries a weapon, and {foes} creature(s) in the \
                 level are hostile to it: it cannot fight"
            ),
            LintProblem::HostileToItself { faction } => write!(
                f,
                "the faction `{faction}` is hostile to itself: its members fight one another"
            ),
            LintProblem::EmptyName { what } => write!(
                f,
                "{what} has an empty name: the log and the panels name it by nothing"
            ),
            LintProblem::StackedTraps { at, traps } => write!(
                f,
                "{traps} traps on the square {at}: the first to go off hides the rest"
            ),
            LintProblem::NoEnemies { faction } => write!(
                f,
                "the faction `{faction}` has no enemies and no one is hostile to it: it never \
                 fights"
            ),
        }
    }
}

/// A lint and where in the file it points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    pub at: SourcePos,
    pub problem: LintProblem,
}

impl Lint {
    /// As a warning of `delve check`.
    pub fn diagnostic(&self, file: &str) -> Diagnostic {
        Diagnostic::warning(
            DiagnosticKind::Lint,
            file,
            self.at,
            format!("lint: {}", self.problem),
        )
    }
}

/// Where things stand in the file: entries found by their squares.
struct Places {
    spans: SpanIndex,
    raw: Option<RawLevel>,
}

impl Places {
    fn pos(&self, path: &[Seg]) -> SourcePos {
        self.spans.pos(path)
    }

    /// The file position of the entry in `list` (`doors`, `creatures`) standing on `p`.
    fn entry(&self, list: &str, p: GridPos) -> SourcePos {
        let xy = (p.x as i64, p.y as i64);
        let index = self.raw.as_ref().and_then(|r| match list {
            "doors" => r.doors.iter().position(|d| d.at == xy),
            "creatures" => r.creatures.iter().position(|c| c.at == Some(xy)),
            "traps" => r.traps.iter().position(|t| t.at == xy),
            _ => None,
        });
        match index {
            Some(i) => self.pos(&[Seg::Field(list), Seg::Index(i)]),
            None => self.pos(&[Seg::Field(list)]),
        }
    }

    /// The map row holding `p`.
    fn square(&self, p: GridPos) -> SourcePos {
        let row = self.pos(&[Seg::Field("map"), Seg::Index(p.y.max(0) as usize)]);
        // Past the row's opening quote to the square's column.
        SourcePos::new(row.line, row.col + 1 + p.x.max(0) as usize)
    }
}

/// The floor reached from `start` through doors that `through` lets pass.
fn reach(level: &Level, start: GridPos, through: impl Fn(GridPos) -> bool) -> Vec<bool> {
    let grid = &level.grid;
    let n = (grid.width() * grid.height()) as usize;
    let mut seen = vec![false; n];
    let mut todo = VecDeque::from([start]);
    while let Some(p) = todo.pop_front() {
        let Some(i) = grid.index(p) else { continue };
        let door = grid.terrain(p) == Some(Terrain::Door);
        let walkable = matches!(
            grid.terrain(p),
            Some(
                Terrain::Floor
                    | Terrain::Rubble
                    | Terrain::Squeeze
                    | Terrain::Water(_)
                    | Terrain::Ledge { .. }
                    | Terrain::Chasm { .. }
            )
        ) || (door && through(p));
        if seen[i] || !walkable {
            continue;
        }
        seen[i] = true;
        todo.extend(p.neighbours());
    }
    seen
}

/// The floor squares not in `reached`, in runs that walls and doors bound: (first square,
/// squares).
fn areas_outside(level: &Level, reached: &[bool]) -> Vec<(GridPos, usize)> {
    let grid = &level.grid;
    let mut taken = reached.to_vec();
    let mut out = Vec::new();
    for (p, t) in grid.squares() {
        let Some(i) = grid.index(p) else { continue };
        if taken[i] || !matches!(t, Terrain::Floor | Terrain::Rubble | Terrain::Water(_)) {
            continue;
        }
        let area = grid.room_of(p);
        for q in &area {
            if let Some(j) = grid.index(*q) {
                taken[j] = true;
            }
        }
        out.push((p, area.len()));
    }
    out
}

/// Steps from `start` to every square of `route` (a king's move each, through any door).
fn steps_from(level: &Level, start: GridPos, route: &[bool]) -> Vec<Option<u32>> {
    let grid = &level.grid;
    let mut steps = vec![None; route.len()];
    let mut todo = VecDeque::new();
    if let Some(i) = grid.index(start) {
        steps[i] = Some(0);
        todo.push_back(start);
    }
    while let Some(p) = todo.pop_front() {
        let d = grid.index(p).and_then(|i| steps[i]).unwrap_or(0);
        for q in p.neighbours() {
            if let Some(j) = grid.index(q)
                && route[j]
                && steps[j].is_none()
            {
                steps[j] = Some(d + 1);
                todo.push_back(q);
            }
        }
    }
    steps
}

/// Traps set off by stepping on them that no path crosses: on a square the party cannot reach,
/// or on one from which no square lies a step farther from the start (the tip of a dead end,
/// a room's farthest corner), unless it is the goal's square.
fn traps_off_the_paths(
    level: &Level,
    start: GridPos,
    route: &[bool],
    places: &Places,
) -> Vec<Lint> {
    let grid = &level.grid;
    let steps = steps_from(level, start, route);
    let goal = match level.goal {
        Goal::Reach(p) | Goal::Exit(p) => Some(p),
        _ => None,
    };
    let mut lints = Vec::new();
    for t in &level.traps {
        if t.trap.trigger != TrapTriggerDef::Step || goal == Some(t.at) {
            continue;
        }
        let Some(d) = grid.index(t.at).and_then(|i| steps[i]) else {
            lints.push(Lint {
                at: places.entry("traps", t.at),
                problem: LintProblem::TrapOffThePaths {
                    at: t.at,
                    reachable: false,
                },
            });
            continue;
        };
        let onward =
            t.at.neighbours()
                .iter()
                .any(|q| grid.index(*q).and_then(|j| steps[j]) == Some(d + 1));
        if !onward {
            lints.push(Lint {
                at: places.entry("traps", t.at),
                problem: LintProblem::TrapOffThePaths {
                    at: t.at,
                    reachable: true,
                },
            });
        }
    }
    lints
}

/// Can `c` never hear the party nor see it? From every square it keeps to (where it stands and
/// its patrol route), with every door open: no square of the party's `route` is within the
/// earshot of a loud noise with a Listening throw (Dungeon Delves › Listening, the environment
/// where it stands), and none is in its line of sight (the party carries its light).
fn never_meets_the_party(level: &Level, c: &CreatureDef, route: &[bool]) -> bool {
    use delve_rules::rules::sound::{Earshot, SoundRow, bound};
    let mut grid = level.grid.clone();
    for d in &level.doors {
        grid.set_door(d.at, DoorState::Open);
    }
    let on_route = |p: GridPos| grid.index(p).is_some_and(|i| route[i]);
    let keeps_to: Vec<GridPos> = std::iter::once(c.at)
        .chain(c.patrol.iter().copied())
        .collect();
    if keeps_to.iter().any(|&p| on_route(p)) {
        return false;
    }
    let mut stamp = Vec::new();
    let mut earshot = Earshot::default();
    for &p in &keeps_to {
        let env =
            delve_ground::level::environment_at(level.environment, &level.environment_regions, p);
        let reach = bound(SoundRow::Loud, env);
        earshot.propagate(&grid, p, reach);
        let hears = grid
            .squares()
            .any(|(q, _)| on_route(q) && earshot.half_feet(&grid, q).is_some_and(|d| d <= reach));
        let sees = delve_rules::rules::vision::line_of_sight_field(&grid, p, &mut stamp)
            .squares()
            .any(on_route);
        if hears || sees {
            return false;
        }
    }
    true
}

/// Every lint of a level loaded from `src`.
pub fn lint(level: &Level, src: &str) -> Vec<Lint> {
    let places = Places {
        spans: SpanIndex::build(src),
        raw: delve_ground::level::ron_options()
            .from_str::<RawLevel>(src)
            .ok(),
    };
    let mut lints = Vec::new();
    let party = level.factions.iter().find(|f| !f.marching_order.is_empty());
    let members: Vec<&CreatureDef> = party
        .map(|f| {
            f.marching_order
                .iter()
                .map(|&i| &level.creatures[i])
                .collect()
        })
        .unwrap_or_default();
    // Areas, from where the party's leader starts.
    if let Some(start) = members.first().map(|c| c.at) {
        let secret: BTreeMap<GridPos, bool> =
            level.doors.iter().map(|d| (d.at, d.door.secret)).collect();
        let any_door = reach(level, start, |_| true);
        let plain_doors = reach(level, start, |p| !secret.get(&p).copied().unwrap_or(false));
        for (at, squares) in areas_outside(level, &any_door) {
            lints.push(Lint {
                at: places.square(at),
                problem: LintProblem::Unreachable { at, squares },
            });
        }
        let only_secret: Vec<bool> = any_door
            .iter()
            .zip(&plain_doors)
            .map(|(a, b)| !a || *b)
            .collect();
        for (at, squares) in areas_outside(level, &only_secret) {
            lints.push(Lint {
                at: places.square(at),
                problem: LintProblem::OnlyBySecretDoors { at, squares },
            });
        }
        // Keys behind their own doors: the holder is not reached with that door shut.
        for d in &level.doors {
            let Lock::Locked { key: Some(key) } = &d.door.lock else {
                continue;
            };
            let wanted = Gear::Key(key.clone());
            let Some(holder) = level.creatures.iter().find(|c| c.gear.contains(&wanted)) else {
                continue;
            };
            let without = reach(level, start, |p| p != d.at);
            let with = reach(level, start, |_| true);
            let i = level.grid.index(holder.at);
            if i.is_some_and(|i| with[i] && !without[i]) {
                lints.push(Lint {
                    at: places.entry("doors", d.at),
                    problem: LintProblem::KeyBehindItsDoor {
                        door: d.at,
                        key: key.clone(),
                        holder: holder.name.clone(),
                    },
                });
            }
        }
    }
    // Locks no one opens: no key, no thief, and nothing to batter the door down with (Dungeon
    // Delves › Doors: an axe for wood and iron-banded wood, any weapon for lead glass, a weapon
    // that harms structures for the rest).
    let thief = members.iter().any(|c| {
        c.proficiencies.contains(&Proficiency::Lockpicking) && c.gear.contains(&Gear::ThievesTools)
    });
    let axe = members.iter().any(|c| c.gear.contains(&Gear::Axe));
    let armed = members.iter().any(|c| !c.weapons.is_empty());
    let harms = |stone: bool| {
        members.iter().any(|c| {
            c.weapons.iter().any(|w| {
                w.structural
                    .as_ref()
                    .is_some_and(|d| !stone || d.stone.is_some())
            })
        })
    };
    for d in &level.doors {
        let keyed = match &d.door.lock {
            Lock::Locked { key: Some(key) } => level
                .creatures
                .iter()
                .any(|c| c.gear.contains(&Gear::Key(key.clone()))),
            Lock::Locked { key: None } => false,
            Lock::Unlocked | Lock::Jammed => continue,
        };
        use delve_ground::level::schema::DoorMaterial::*;
        let forced = match d.door.material {
            Wooden | IronBanded => axe || harms(false),
            LeadGlassWindow => armed,
            SolidIron | IronTrapDoor => harms(false),
            IronBandedStone | GreatIronBandedStone | Stone => harms(true),
        };
        if !keyed && !thief && !forced && party.is_some() {
            lints.push(Lint {
                at: places.entry("doors", d.at),
                problem: LintProblem::LockNoOneOpens { door: d.at },
            });
        }
    }
    // Dark rooms, for a party with no light of its own and no eyes for the dark.
    let sees_in_the_dark = members
        .iter()
        .any(|c| !c.carries.is_empty() || c.lightless_vision_feet > 0 || c.shadowy_senses);
    if !members.is_empty() && !sees_in_the_dark {
        let all = vec![false; (level.grid.width() * level.grid.height()) as usize];
        for (at, squares) in areas_outside(level, &all) {
            let room = level.grid.room_of(at);
            if !level.lights.iter().any(|l| room.contains(&l.at)) {
                lints.push(Lint {
                    at: places.square(at),
                    problem: LintProblem::Dark { at, squares },
                });
            }
        }
    }
    if let Some(start) = members.first().map(|c| c.at) {
        let route = reach(level, start, |_| true);
        lints.extend(traps_off_the_paths(level, start, &route, &places));
        let in_party = |i: usize| party.is_some_and(|f| f.marching_order.contains(&i));
        for (_, c) in level
            .creatures
            .iter()
            .enumerate()
            .filter(|(i, _)| !in_party(*i))
        {
            if never_meets_the_party(level, c, &route) {
                lints.push(Lint {
                    at: places.entry("creatures", c.at),
                    problem: LintProblem::NeverMeetsTheParty {
                        who: c.name.clone(),
                    },
                });
            }
        }
    }
    // A party with no weapons against a level with foes.
    if let Some((pi, f)) = level
        .factions
        .iter()
        .enumerate()
        .find(|(_, f)| !f.marching_order.is_empty())
    {
        let foes = level
            .creatures
            .iter()
            .filter(|c| {
                c.faction != pi
                    && (level.factions[c.faction].hostile_to.contains(&pi)
                        || f.hostile_to.contains(&c.faction))
            })
            .count();
        if foes > 0 && !armed {
            lints.push(Lint {
                at: places.pos(&[Seg::Field("factions"), Seg::Index(pi)]),
                problem: LintProblem::Unarmed {
                    party: f.name.clone(),
                    foes,
                },
            });
        }
    }
    // Factions of monsters with no enemies.
    for (i, f) in level.factions.iter().enumerate() {
        let hostile =
            !f.hostile_to.is_empty() || level.factions.iter().any(|g| g.hostile_to.contains(&i));
        let has_members = level.creatures.iter().any(|c| c.faction == i);
        if !hostile && has_members && f.marching_order.is_empty() {
            lints.push(Lint {
                at: places.pos(&[Seg::Field("factions"), Seg::Index(i)]),
                problem: LintProblem::NoEnemies {
                    faction: f.name.clone(),
                },
            });
        }
    }
    lints.extend(careless_entries(level, &places));
    lints.sort_by_key(|l| (l.at.line, l.at.col));
    lints
}

/// Entries that load but say what no designer means: a faction hostile to itself, an empty
/// name, traps stacked on one square.
fn careless_entries(level: &Level, places: &Places) -> Vec<Lint> {
    let mut lints = Vec::new();
    let blank = |name: &str| name.trim().is_empty();
    if blank(&level.name) {
        lints.push(Lint {
            at: places.pos(&[Seg::Field("name")]),
            problem: LintProblem::EmptyName { what: "the level" },
        });
    }
    for (i, f) in level.factions.iter().enumerate() {
        let at = places.pos(&[Seg::Field("factions"), Seg::Index(i)]);
        if f.hostile_to.contains(&i) {
            lints.push(Lint {
                at,
                problem: LintProblem::HostileToItself {
                    faction: f.name.clone(),
                },
            });
        }
        if blank(&f.name) {
            lints.push(Lint {
                at,
                problem: LintProblem::EmptyName { what: "a faction" },
            });
        }
    }
    for c in level.creatures.iter().filter(|c| blank(&c.name)) {
        lints.push(Lint {
            at: places.entry("creatures", c.at),
            problem: LintProblem::EmptyName { what: "a creature" },
        });
    }
    let mut on: BTreeMap<GridPos, usize> = BTreeMap::new();
    for t in &level.traps {
        *on.entry(t.at).or_default() += 1;
    }
    for (at, traps) in on.into_iter().filter(|&(_, n)| n > 1) {
        lints.push(Lint {
            at: places.entry("traps", at),
            problem: LintProblem::StackedTraps { at, traps },
        });
    }
    lints
}
