//! What a creature can do about the caving features around it, each with its time and chance:
//! the window's number keys (as doors and traps have them).

use crate::creature::Combatant;
use delve_ground::level::Climbs;

use bevy::prelude::*;

use super::climbing::{
    ClimbPace, climbing_target, grappling_range_penalty, hole_at, rope_in, side_of,
};
use super::events::Path;
use super::jumping::{Jumper, RUN_UP_FEET};
use super::traverse::traverse_target;
use crate::act::{AnyAct, Choice};
use crate::creature::{Below, Equipment, Position, Proficiencies};
use crate::rules::throws::{ThrowKind, ThrowOdds, Thrower};
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain};
use delve_ground::level::schema::{Gear, Proficiency, Surface};

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// From `from` in a direction: the squares of `kind` it crosses and the first square past
/// them, if it can stand there.
fn across(
    world: &World,
    from: GridPos,
    (dx, dy): (i32, i32),
    kind: impl Fn(GridPos) -> bool,
) -> Option<(u32, GridPos)> {
    let mut n = 0;
    let mut p = GridPos::new(from.x + dx, from.y + dy);
    while world.resource::<DungeonGrid>().in_bounds(p) && kind(p) {
        n += 1;
        p = GridPos::new(p.x + dx, p.y + dy);
    }
    (n > 0 && super::footing::firm_ground(world, p)).then_some((n, p))
}

/// Is there a hole at the square: a chasm or an open pit (RULINGS › Pits and holes)?
fn is_hole(world: &World) -> impl Fn(GridPos) -> bool + '_ {
    move |p| hole_at(world, p).is_some()
}

/// From `from` in a direction: at least 20' of floor (a run-up) to the edge of a hole, the
/// edge and the first square past the hole.
fn run_up_to_a_hole(
    world: &World,
    from: GridPos,
    (dx, dy): (i32, i32),
) -> Option<(GridPos, GridPos)> {
    let mut edge = from;
    loop {
        let next = GridPos::new(edge.x + dx, edge.y + dy);
        if !super::footing::firm_ground(world, next) {
            break;
        }
        edge = next;
    }
    let run =
        delve_ground::grid::distance_feet(from, edge, world.resource::<DungeonGrid>().scale_feet());
    let (_, to) = across(world, edge, (dx, dy), is_hole(world))?;
    (run >= RUN_UP_FEET).then_some((edge, to))
}

/// The caving choices of `who` where it stands.
pub fn caving_choices(world: &World, who: Entity) -> Vec<Choice> {
    let Some(caver) = world
        .get::<Position>(who)
        .and_then(|p| Caver::of(world, who, p.0))
    else {
        return Vec::new();
    };
    if let Some(below) = world.get::<Below>(who) {
        return caver.out_of_the_hole(below);
    }
    let mut out = caver.down_the_holes_beside();
    out.extend(belay_choices(world, who, &caver.name));
    out.extend(caver.across());
    out
}

/// What `who` is offered at the hole at `hole` — climbing or rappelling down, lowering a rope,
/// taking one up — taken as it would stand beside it (the party's mind asks this before a
/// member walks up to a pit or shaft).
pub fn choices_at_hole(world: &World, who: Entity, hole: GridPos) -> Vec<Choice> {
    Caver::of(world, who, hole).map_or_else(Vec::new, |c| c.down_into(hole))
}

/// A creature looking for a way on where it stands: who it is, its throws (a supervising
/// mountaineer's counted) and the situation's penalties to them.
struct Caver<'w> {
    world: &'w World,
    who: Entity,
    here: GridPos,
    name: String,
    thrower: Thrower<'w>,
    profs: Proficiencies,
    situation: Vec<Modifier>,
}

impl<'w> Caver<'w> {
    /// `who` as a caver standing at `here`.
    fn of(world: &'w World, who: Entity, here: GridPos) -> Option<Self> {
        let thrower = Thrower::of(world, who)?;
        Some(Caver {
            world,
            who,
            here,
            name: thrower.name.to_owned(),
            // A supervising mountaineer's throw counted (Dungeon Delves › Climbing).
            profs: super::climbing::supervised_proficiencies(world, who),
            situation: crate::rules::penalties::check_penalties(world, who, None),
            thrower,
        })
    }

    fn has(&self, g: &Gear) -> bool {
        self.world
            .get::<Equipment>(self.who)
            .is_some_and(|e| e.has(g))
    }

    fn rope(&self, feet: u32) -> bool {
        self.world
            .get::<Equipment>(self.who)
            .is_some_and(|e| e.has_rope(feet))
    }

    /// A climb of `surface` offered as `way`, with its Climbing throw.
    fn climb_choice(&self, way: String, surface: Surface, command: AnyAct) -> Option<Choice> {
        climbing_target(&self.profs, surface).map(|target| {
            let note = format!("{surface:?}; a third of combat speed");
            Choice::thrown(
                &way,
                "rounds",
                ThrowOdds {
                    who: &self.thrower,
                    kind: ThrowKind::Check,
                    modifiers: &self.situation,
                    target,
                },
                &note,
                command,
            )
        })
    }

    /// At the bottom of a pit or chasm: climbing out, a grappling hook thrown up, a leap out.
    fn out_of_the_hole(&self, below: &Below) -> Vec<Choice> {
        let (world, who, here, name) = (self.world, self.who, self.here, &self.name);
        let (thrower, grid) = (&self.thrower, world.resource::<DungeonGrid>());
        let xy = |p: GridPos| (p.x, p.y);
        let mut out = Vec::new();
        let surface = side_of(world, here);
        for p in here.neighbours() {
            if grid.is_passable(p)
                && hole_at(world, p).is_none()
                && let Some(c) = self.climb_choice(
                    format!("climb out to {p}"),
                    surface,
                    AnyAct::from(super::commands::Climb {
                        who: name.clone(),
                        to: xy(p),
                        pace: ClimbPace::Third,
                    }),
                )
            {
                out.push(c);
                break;
            }
        }
        let anchor = world
            .get_resource::<Climbs>()
            .and_then(|c| c.at(here).anchor_ac);
        if let (Some(ac), Some(penalty), true) = (
            anchor,
            grappling_range_penalty(below.depth_feet),
            self.has(&Gear::GrapplingHook) && self.rope(below.depth_feet) && !rope_in(world, here),
        ) {
            let bonus = world.get::<Combatant>(who).map_or(0, |c| c.attack_bonus);
            let mods = [
                Modifier::new(bonus, "attack bonus"),
                Modifier::new(penalty, "range"),
            ];
            out.push(Choice::thrown(
                "throw a grappling hook up",
                "1 round",
                ThrowOdds {
                    who: thrower,
                    kind: ThrowKind::Attack { ranged: true },
                    modifiers: &mods,
                    target: ac + 10,
                },
                "the Judge's secret throw",
                AnyAct::from(super::commands::ThrowGrapplingHook { who: name.clone() }),
            ));
        }
        if let Some(leap) = super::jumping::leap_of(world, who)
            && leap >= below.depth_feet as f32
        {
            for p in here.neighbours() {
                if grid.is_passable(p) && hole_at(world, p).is_none() {
                    out.push(Choice::new(
                        &format!("leap out to {p}"),
                        "part of its move",
                        None,
                        &format!("a {leap}' leap"),
                        AnyAct::from(super::commands::Jump {
                            who: name.clone(),
                            to: xy(p),
                            from: None,
                            running: false,
                        }),
                    ));
                    break;
                }
            }
        }
        out
    }

    /// Beside holes: climbing or rappelling down, lowering a rope, taking one up.
    fn down_the_holes_beside(&self) -> Vec<Choice> {
        self.here
            .neighbours()
            .into_iter()
            .flat_map(|p| self.down_into(p))
            .collect()
    }

    /// Into the hole at `p`, if there is one: climbing or rappelling down, lowering a rope,
    /// taking one up.
    fn down_into(&self, p: GridPos) -> Vec<Choice> {
        let (world, name, profs) = (self.world, &self.name, &self.profs);
        let (thrower, situation) = (&self.thrower, &self.situation);
        let xy = |p: GridPos| (p.x, p.y);
        let mut out = Vec::new();
        let Some(depth) = hole_at(world, p) else {
            return out;
        };
        if let Some(c) = self.climb_choice(
            format!("climb down into {p}"),
            side_of(world, p),
            AnyAct::from(super::commands::ClimbDown {
                who: name.clone(),
                into: xy(p),
                rappel: false,
                pace: ClimbPace::Third,
            }),
        ) {
            out.push(c);
        }
        if rope_in(world, p)
            && (profs.has(Proficiency::Climbing) || profs.has(Proficiency::Mountaineering))
            && let Some(target) = climbing_target(profs, Surface::Sheer)
        {
            out.push(Choice::thrown(
                &format!("rappel down into {p}"),
                "rounds",
                ThrowOdds {
                    who: thrower,
                    kind: ThrowKind::Check,
                    modifiers: situation,
                    target,
                },
                "running speed",
                AnyAct::from(super::commands::ClimbDown {
                    who: name.clone(),
                    into: xy(p),
                    rappel: true,
                    pace: ClimbPace::Third,
                }),
            ));
        }
        if self.rope(depth) && !rope_in(world, p) {
            out.push(Choice::new(
                &format!("lower a rope into {p}"),
                "1 round",
                None,
                "",
                AnyAct::from(super::commands::LowerRope {
                    who: name.clone(),
                    at: xy(p),
                }),
            ));
        }
        if rope_in(world, p) && !super::climbing::on_the_rope(world, p) {
            out.push(Choice::new(
                &format!("take up the rope in {p}"),
                "1 round",
                None,
                "",
                AnyAct::from(super::commands::TakeUpRope {
                    who: name.clone(),
                    at: xy(p),
                }),
            ));
        }
        out
    }

    /// Across a ledge or a chasm in each direction: traversing, jumping (standing or with a
    /// run-up), and crossing on a rope.
    fn across(&self) -> Vec<Choice> {
        let (world, who, here, name, profs) =
            (self.world, self.who, self.here, &self.name, &self.profs);
        let (thrower, situation) = (&self.thrower, &self.situation);
        let grid = world.resource::<DungeonGrid>();
        let xy = |p: GridPos| (p.x, p.y);
        let mut out = Vec::new();
        for dir in DIRECTIONS {
            let ledge = across(world, here, dir, |p| {
                matches!(grid.terrain(p), Some(Terrain::Ledge { .. }))
            });
            if let Some((_, to)) = ledge
                && let Some((_, width)) = super::traverse::along_the_ledge(grid, here, to)
                && let Some(path) = Path::of_width(width)
                && let Some(target) = traverse_target(profs, path)
            {
                out.push(Choice::thrown(
                    &format!("traverse the {path:?} ledge to {to}"),
                    "rounds",
                    ThrowOdds {
                        who: thrower,
                        kind: ThrowKind::Check,
                        modifiers: situation,
                        target,
                    },
                    "vulnerable on the ledge",
                    AnyAct::from(super::commands::Traverse {
                        who: name.clone(),
                        to: xy(to),
                        pace: ClimbPace::Third,
                    }),
                ));
            }
            let chasm = across(world, here, dir, is_hole(world));
            if let Some((_, to)) = chasm
                && let Some((_, gap)) = super::jumping::over_the_gap(world, here, to)
                && let Some(j) = Jumper::of(world, who)
            {
                // From where it stands, a standing jump; with a run-up, from 20' back in line.
                let mut c = Choice::new(
                    &format!("jump the {gap}' gap to {to}"),
                    "part of its move",
                    None,
                    "no run-up: halved",
                    AnyAct::from(super::commands::Jump {
                        who: name.clone(),
                        to: xy(to),
                        from: None,
                        running: false,
                    }),
                );
                c.chance = j.chance(gap, false);
                out.push(c);
            }
            if let Some((_, to)) = chasm {
                out.extend(traverse_choices(world, who, thrower, here, to));
            }
            if let Some((edge, to)) = run_up_to_a_hole(world, here, dir)
                && let Some((_, gap)) = super::jumping::over_the_gap(world, edge, to)
                && let Some(j) = Jumper::of(world, who)
            {
                let mut c = Choice::new(
                    &format!("run up to {edge} and jump the {gap}' gap to {to}"),
                    "part of its move",
                    None,
                    "a 20' run-up",
                    AnyAct::from(super::commands::Jump {
                        who: name.clone(),
                        to: xy(to),
                        from: Some(xy(edge)),
                        running: false,
                    }),
                );
                c.chance = j.chance(gap, true);
                out.push(c);
            }
        }
        out
    }
}

/// Belaying a climber on a hole beside it (or below it on its own climb), with a rope that
/// reaches.
fn belay_choices(world: &World, who: Entity, name: &str) -> Vec<Choice> {
    let Some(mut q) = world.try_query::<(
        Entity,
        Option<&super::climbing::Climbing>,
        Option<&super::traverse::Traversing>,
        &Name,
    )>() else {
        return Vec::new();
    };
    q.iter(world)
        .filter(|(e, ..)| *e != who)
        .filter(|(e, c, t, _)| match (c, t) {
            (Some(c), _) => super::climbing::could_belay(world, who, *e, c),
            (None, Some(_)) => super::traverse::could_belay_traverser(world, who, *e),
            (None, None) => false,
        })
        .map(|(_, _, t, climber)| {
            Choice::new(
                &format!("belay {climber}"),
                if t.is_some() {
                    "while it traverses"
                } else {
                    "while it climbs"
                },
                None,
                "Dungeonbashing 18+ if it falls",
                AnyAct::from(super::commands::Belay {
                    who: name.to_owned(),
                    climber: climber.to_string(),
                }),
            )
        })
        .collect()
}

/// Rigging a crawling traverse across the chasm to `to`, or crawling one rigged there.
fn traverse_choices(
    world: &World,
    who: Entity,
    thrower: &Thrower,
    here: GridPos,
    to: GridPos,
) -> Vec<Choice> {
    let name = thrower.name.to_owned();
    let xy = (to.x, to.y);
    let grid = world.resource::<DungeonGrid>();
    let span = delve_ground::grid::distance_feet(here, to, grid.scale_feet());
    let gear = world.get::<Equipment>(who);
    let rigged = world
        .get_resource::<super::traverse::RiggedTraverses>()
        .and_then(|r| r.find(here, to).copied());
    let mut out = Vec::new();
    if let Some(rigged) = rigged {
        let no_profs = Proficiencies::default();
        let profs = world.get::<Proficiencies>(who).unwrap_or(&no_profs);
        let target = super::traverse::crawling_target(profs, &rigged);
        let situation = crate::rules::penalties::check_penalties(world, who, None);
        out.push(Choice::thrown(
            &format!("crawl across the rope to {to}"),
            "rounds",
            ThrowOdds {
                who: thrower,
                kind: ThrowKind::Check,
                modifiers: &situation,
                target,
            },
            "both hands; vulnerable",
            AnyAct::from(super::commands::CrawlAcross {
                who: name,
                to: xy,
                pace: ClimbPace::Third,
            }),
        ));
    } else if gear.is_some_and(|g| g.has(&Gear::GrapplingHook) && g.has_rope(span))
        && grappling_range_penalty(span).is_some()
    {
        out.push(Choice::new(
            &format!("rig a traverse to {to}"),
            "3 rounds or more",
            None,
            &format!("a {span}' rope and the hook"),
            AnyAct::from(super::commands::RigTraverse { who: name, to: xy }),
        ));
    }
    out
}
