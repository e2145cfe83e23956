//! Caving and Spelunking (Dungeon Delves): passing squeezes and chokepoints, and getting out of
//! one when stuck.
//!
//! Squeezing (Dungeon Delves › Squeezing): a creature whose move this round takes it into or
//! through a `Squeeze` square makes a Squeezing throw at the start of its initiative, against its
//! encumbrance in stone (+4 with Contortionism). Failing, it makes no progress that round; failing
//! on an unmodified 1, it is **stuck** (and so vulnerable) and can do nothing but try to escape:
//! wiggle back (a Paralysis save; 10' back) or push forward (Dungeonbashing; 10' on), each with
//! its encumbrance as a penalty, +4 with Contortionism, and −4 for each escape already failed.
//!
//! Climbing (Dungeon Delves › Climbing) out of a pit, and falls: see [`climbing`].

pub mod choices;
pub mod climbing;
mod commands;
pub mod events;
pub mod jumping;
pub mod traverse;
use crate::act::{AnyAct, Choice, Concern};
use crate::creature::Creature;
use crate::rules::areas::Rank;
use crate::rules::caving::climbing::{Belaying, LooseHooks, RopesSecured};
use crate::rules::caving::jumping::JumpOrder;
use crate::rules::caving::traverse::{RiggedTraverses, Rigging, Traversing};
use crate::rules::movement::MoveRefusal;
use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::{Skill, ThrowEvent};
use crate::schedule::{FactionInitiative, InitiativeSet, RoundSet, SimRound};
use delve_ground::level::Climbs;

pub use climbing::{ClimbPace, Climbing};
pub use commands::{
    Belay, Climb, ClimbDown, CrawlAcross, Jump, LowerRope, PushForward, RigTraverse, TakeUpRope,
    ThrowGrapplingHook, Traverse, WiggleBack,
};
pub use events::CavingEvent;
pub mod footing;
pub mod hauling;
pub use hauling::Haul;
mod refusals;
use events::Escape;
pub use refusals::CavingRefusal;

use bevy::prelude::*;

use crate::act::{Refusal, Unable};
use crate::creature::{Abilities, Conditions, Encumbrance, Position, Proficiencies, SavingThrows};
use crate::rules::acting::{ActingRules, Hold};
use crate::rules::conditions::{gain_condition, lose_condition_in};
use crate::rules::penalties::{CheckKind, Situation, situational_modifiers};
use crate::rules::throws::{ThrowAt, ThrowKind, ThrowOdds, Thrower};
use delve_ground::dice::{Dice, Modifier};
use delve_ground::grid::{DungeonGrid, GridPos, Terrain};
use delve_ground::level::schema::{ConditionKind, Proficiency, SaveCategory};
use delve_ground::log::{EventLog, log_in};

/// The Contortionism bonus to Squeezing throws and to escaping when stuck.
pub const CONTORTIONISM_BONUS: i32 = 4;
/// The cumulative penalty for each failed attempt to escape.
pub const FAILED_ESCAPE_PENALTY: i32 = -4;
use crate::rules::movement::squeezes::{ESCAPE_FEET, SqueezedOn, SqueezingMover, StuckIn};
use crate::rules::throws::{stone_of, stone_target};

/// How a Squeezing throw came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Squeeze {
    /// Through: it moves as its pace allows.
    Through,
    /// No progress this round.
    NoProgress,
    /// Failed on an unmodified 1: stuck.
    Stuck,
}

/// The modifiers of a Squeezing throw at the start of the round: Contortionism, and the
/// situational penalties (prone; it has not moved yet; a squeeze is not water).
pub fn squeezing_modifiers(
    profs: &Proficiencies,
    conditions: &Conditions,
    penalties_on: bool,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    if profs.has(Proficiency::Contortionism) {
        mods.push(Modifier::new(CONTORTIONISM_BONUS, "Contortionism"));
    }
    if penalties_on {
        let situation = Situation {
            prone: conditions.has(ConditionKind::Prone),
            moved_feet: 0.0,
            movement_speed: 0.0,
            water: None,
            afloat: false,
        };
        mods.extend(situational_modifiers(CheckKind::Action, &situation).unwrap_or_default());
    }
    mods
}

/// Does this round's move take the creature into or through a squeeze: it stands in one, or
/// one of the squares it would enter is one?
pub fn squeezes(grid: &DungeonGrid, from: GridPos, steps: &[GridPos]) -> bool {
    std::iter::once(&from)
        .chain(steps)
        .any(|&p| grid.terrain(p) == Some(Terrain::Squeeze))
}

/// The Squeezing throw (logged): through, no progress, or stuck.
fn squeezing_throw(
    ThrowAt { dice, log, round }: ThrowAt,
    thrower: Thrower,
    stone: f32,
    mods: Vec<Modifier>,
) -> Squeeze {
    let throw = crate::rules::throws::throw(
        dice,
        &thrower,
        ThrowKind::Check,
        "Squeezing",
        mods,
        stone_target(stone),
    );
    let outcome = if throw.success {
        Squeeze::Through
    } else if throw.natural == 1 {
        Squeeze::Stuck
    } else {
        Squeeze::NoProgress
    };
    log.push(
        round,
        ThrowEvent::Threw {
            who: thrower.name.to_owned(),
            skill: Skill::Squeezing,
            throw,
        },
    );
    outcome
}

/// Dungeon Delves › Squeezing, for walkers and followers alike: a move into or through a
/// squeeze takes the Squeezing throw at the start of the creature's initiative.
pub(crate) fn squeeze_on(
    grid: &DungeonGrid,
    (dice, log, round): (&mut Dice, &mut EventLog, u64),
    rules: (Option<&TacticalCombat>, bool),
    m: SqueezingMover,
) -> SqueezedOn {
    if m.steps.is_empty() || !squeezes(grid, m.at, m.steps) {
        return SqueezedOn::Moves;
    }
    // The throw is made at the start of the initiative in which it passes into or through the
    // squeeze: one still short of it walks up to it first.
    let squeeze = |p: GridPos| grid.terrain(p) == Some(Terrain::Squeeze);
    if !squeeze(m.at) && !squeeze(m.steps[0]) && !m.mouth_taken {
        let mouth = m.steps.iter().position(|&p| squeeze(p)).unwrap_or(0);
        return SqueezedOn::UpToTheSqueeze(mouth);
    }
    let (tactical, penalties_on) = rules;
    let mods = squeezing_modifiers(m.profs, m.conditions, penalties_on);
    let thrower = Thrower::new(m.name, m.conditions, tactical);
    match squeezing_throw(
        ThrowAt { dice, log, round },
        thrower,
        stone_of(Some(m.encumbrance)),
        mods,
    ) {
        Squeeze::Through => SqueezedOn::Moves,
        Squeeze::NoProgress => {
            log.push(
                round,
                CavingEvent::SqueezeHeldBack {
                    who: m.name.to_owned(),
                    at: m.at,
                },
            );
            SqueezedOn::HeldBack
        }
        Squeeze::Stuck => {
            become_stuck(log, round, m.name, m.conditions, m.at);
            SqueezedOn::Stuck(StuckIn::on_the_way(grid, m.path, m.next))
        }
    }
}

/// The creature becomes stuck in a squeeze: stuck and vulnerable until it escapes.
fn become_stuck(
    log: &mut EventLog,
    round: u64,
    name: &str,
    conditions: &mut Conditions,
    at: GridPos,
) {
    use crate::creature::ConditionEnd;
    gain_condition(
        log,
        round,
        name,
        conditions,
        ConditionKind::Stuck,
        "stuck in a squeeze",
        ConditionEnd::UntilRemoved,
    );
    gain_condition(
        log,
        round,
        name,
        conditions,
        ConditionKind::Vulnerable,
        "stuck in a squeeze",
        ConditionEnd::UntilRemoved,
    );
    log.push(
        round,
        CavingEvent::StuckInASqueeze {
            who: name.to_owned(),
            at,
        },
    );
}

/// The throw of an escape from a squeeze: its kind, what it is, its modifiers and its target
/// (Dungeon Delves › Squeezing): a Paralysis save to wiggle back, Dungeonbashing (18+, Strength
/// ×4) to push forward; the encumbrance a penalty, +4 Contortionism, −4 per failed push forward.
fn escape_throw(
    world: &World,
    who: Entity,
    way: Escape,
) -> Result<(ThrowKind, &'static str, Vec<Modifier>, i32), CavingRefusal> {
    let stuck_in = world
        .get::<StuckIn>(who)
        .filter(|_| {
            world
                .get::<Conditions>(who)
                .is_some_and(|c| c.has(ConditionKind::Stuck))
        })
        .ok_or(CavingRefusal::NotStuck)?;
    escape_throw_of(world, who, way, stuck_in.failed_pushes)
}

/// A chance of wiggling back below this (reckoned before being stuck) is none: a natural 20
/// alone, which the penalties of being stuck take away.
const HOPELESS_WIGGLE: f32 = 0.1;

/// The chance `who` is stuck for good going through one squeeze (Dungeon Delves › Squeezing):
/// stuck (an unmodified 1 on its Squeezing throw before it gets through), then no way out —
/// its wiggles back hopeless (under one in ten: a natural 20 alone, which the penalties of
/// being stuck take away) and every push forward failed, each −4 on the next.
pub fn stuck_for_good_chance(world: &World, who: Entity) -> f32 {
    let Some(thrower) = Thrower::of(world, who) else {
        return 0.0;
    };
    let odds = |way: Escape, pushes: u32| escape_odds(world, who, way, pushes);
    if odds(Escape::Back, 0) >= HOPELESS_WIGGLE {
        return 0.0;
    }
    // The Squeezing throw each round: through, no progress, or stuck on a 1.
    let profs = world.get::<Proficiencies>(who).cloned().unwrap_or_default();
    let conditions = world.get::<Conditions>(who).cloned().unwrap_or_default();
    let mods = squeezing_modifiers(&profs, &conditions, false);
    let target = stone_target(stone_of(world.get::<Encumbrance>(who)));
    let through = crate::rules::throws::chance(&thrower, ThrowKind::Check, &mods, target).1;
    // An unmodified 1 fails and sticks, whatever the modifiers.
    let stuck = if through < 1.0 { 1.0 / 20.0 } else { 0.0 };
    let stuck_first = stuck / (through + stuck).max(f32::EPSILON);
    let mut never_free = 1.0;
    for pushes in 0..8 {
        let push = odds(Escape::Forward, pushes);
        if push == 0.0 {
            break;
        }
        never_free *= 1.0 - push;
    }
    stuck_first * never_free
}

/// The chance that `who` gets out of a squeeze `way` after `failed_pushes` failed pushes
/// forward (each −4 on every later attempt: Dungeon Delves › Squeezing).
pub fn escape_odds(world: &World, who: Entity, way: Escape, failed_pushes: u32) -> f32 {
    let Some(thrower) = Thrower::of(world, who) else {
        return 0.0;
    };
    escape_throw_of(world, who, way, failed_pushes).map_or(0.0, |(kind, _, mods, target)| {
        crate::rules::throws::chance(&thrower, kind, &mods, target).1
    })
}

/// The escape throw's kind, words, modifiers and target, after `failed_pushes` failed pushes.
fn escape_throw_of(
    world: &World,
    who: Entity,
    way: Escape,
    failed_pushes: u32,
) -> Result<(ThrowKind, &'static str, Vec<Modifier>, i32), CavingRefusal> {
    let stone = stone_of(world.get::<Encumbrance>(who));
    let mut mods = Vec::new();
    let (target, what) = match way {
        Escape::Back => {
            let save = world
                .get::<SavingThrows>(who)
                .and_then(|s| s.0.get(&SaveCategory::Paralysis).copied())
                .ok_or(CavingRefusal::NoParalysisSave)?;
            (save, "Paralysis save to wiggle back out of the squeeze")
        }
        Escape::Forward => {
            let str_score = world.get::<Abilities>(who).map_or(10, |a| a.0.str);
            mods = crate::rules::doors::bashing_modifiers(str_score, None, false, 0, 0);
            mods.extend(crate::rules::penalties::check_penalties(world, who, None));
            (18, "Dungeonbashing to push forward through the squeeze")
        }
    };
    if stone > 0.0 {
        mods.push(Modifier::new(
            -stone_target(stone),
            format!("encumbrance {stone} stone"),
        ));
    }
    if world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Contortionism))
    {
        mods.push(Modifier::new(CONTORTIONISM_BONUS, "Contortionism"));
    }
    if failed_pushes > 0 {
        mods.push(Modifier::new(
            FAILED_ESCAPE_PENALTY * failed_pushes as i32,
            format!("{failed_pushes} failed push(es) forward"),
        ));
    }
    let kind = match way {
        Escape::Back => ThrowKind::Save,
        Escape::Forward => ThrowKind::Check,
    };
    Ok((kind, what, mods, target))
}

/// The ways out of a squeeze open to a stuck creature, each with its chance (the window's
/// number keys).
pub fn escape_choices(world: &World, who: Entity) -> Vec<Choice> {
    let Some(thrower) = Thrower::of(world, who) else {
        return Vec::new();
    };
    [
        (Escape::Back, "wiggle back 10'"),
        (Escape::Forward, "push forward 10'"),
    ]
    .into_iter()
    .filter_map(|(way, words)| {
        let (kind, _, mods, target) = escape_throw(world, who, way).ok()?;
        let name = thrower.name.to_owned();
        let command = match way {
            Escape::Back => AnyAct::from(WiggleBack { who: name }),
            Escape::Forward => AnyAct::from(PushForward { who: name }),
        };
        Some(Choice::thrown(
            words,
            "1 round",
            ThrowOdds {
                who: &thrower,
                kind,
                modifiers: &mods,
                target,
            },
            "",
            command,
        ))
    })
    .collect()
}

/// An attempt to escape a squeeze (Dungeon Delves › Squeezing).
pub fn escape(world: &mut World, who: Entity, way: Escape) -> Result<(), Refusal> {
    let (kind, what, mods, target) = escape_throw(world, who, way)?;
    let stuck_in = world.get::<StuckIn>(who).cloned().unwrap_or_default();
    let skill = match way {
        Escape::Back => Skill::Save(SaveCategory::Paralysis),
        Escape::Forward => Skill::Dungeonbashing,
    };
    let throw = crate::rules::throws::throw_in(world, who, kind, skill, what, mods, target);
    let name = crate::creature::name_of(world, who);
    if !throw.success {
        // Dungeon Delves › Squeezing: a failed push forward "worsens his plight" (−4 to every
        // later attempt); a failed wiggle back "remains stuck", no worse.
        if way == Escape::Forward {
            world.entity_mut(who).insert(StuckIn {
                failed_pushes: stuck_in.failed_pushes + 1,
                ..stuck_in
            });
        }
        log_in(world, CavingEvent::EscapeFailed { who: name, way });
        return Ok(());
    }
    let from = world.get::<Position>(who).ok_or(Unable::NoSquare)?.0;
    let scale = world.resource::<DungeonGrid>().scale_feet().max(1);
    let squares = (ESCAPE_FEET / scale).max(1) as usize;
    let way_out = match way {
        Escape::Back => &stuck_in.behind,
        Escape::Forward => &stuck_in.ahead,
    };
    let occupied = |world: &mut World, p: GridPos| {
        delve_ground::query_cache::read_query(world, |q: Query<&Position, With<Creature>>| {
            q.iter().any(|o| o.0 == p)
        })
        .unwrap_or(false)
    };
    let mut to = from;
    for &p in way_out.iter().take(squares) {
        if !world.resource::<DungeonGrid>().is_passable(p) || occupied(world, p) {
            break;
        }
        to = p;
    }
    if let Some(mut pos) = world.get_mut::<Position>(who) {
        pos.0 = to;
    }
    world.entity_mut(who).remove::<StuckIn>();
    lose_condition_in(world, who, ConditionKind::Stuck, "free of the squeeze");
    if world
        .get::<Conditions>(who)
        .and_then(|c| c.get(ConditionKind::Vulnerable))
        .is_some_and(|v| v.source == "stuck in a squeeze")
    {
        lose_condition_in(world, who, ConditionKind::Vulnerable, "free of the squeeze");
    }
    log_in(
        world,
        CavingEvent::Escaped {
            who: name,
            way,
            from,
            to,
        },
    );
    Ok(())
}

/// RULINGS › The battle round: a stuck creature can do nothing but try to escape (Dungeon
/// Delves › Squeezing).
fn is_stuck(world: &World, who: Entity) -> bool {
    world
        .get::<Conditions>(who)
        .is_some_and(|c| c.has(ConditionKind::Stuck))
}

/// Dungeon Delves › Crawling Traverse: both hands and feet are on the rope.
fn is_crawling(world: &World, who: Entity) -> bool {
    world
        .get::<traverse::Traversing>(who)
        .is_some_and(|t| t.path == events::Path::Rope)
}

/// The caving rules that run each round: climbers climb (in their initiative).
pub struct CavingPlugin;

impl Plugin for CavingPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<Belaying>()
            .keeps::<Climbs>()
            .keeps_component::<crate::rules::caving::climbing::Climbing>()
            .keeps::<LooseHooks>()
            .keeps::<RopesSecured>()
            .keeps_component::<JumpOrder>()
            .keeps::<RiggedTraverses>()
            .keeps_component::<Rigging>()
            .keeps_component::<Traversing>()
            .keeps_component::<hauling::HauledUp>();
        // Hauling a companion up a rope, offered with carrying one.
        crate::rules::areas::RuleArea::offers(app, Rank::AtHand, |world, who| {
            hauling::haul_choices(world, who)
                .into_iter()
                .map(|c| (Concern::Carrying, c))
                .collect()
        });
        crate::rules::areas::RuleArea::offers(app, Rank::Escape, |world, who| {
            let squeeze = escape_choices(world, who).into_iter();
            let here = choices::caving_choices(world, who).into_iter();
            squeeze
                .map(|c| (Concern::Squeeze, c))
                .chain(here.map(|c| (Concern::Here, c)))
                .collect()
        });
        use crate::rules::areas::RuleArea;
        use crate::rules::damage::HurtRules;
        use crate::rules::movement::squeezes::WalkingRules;
        app.when_hurt(traverse::damaged_on_a_ledge);
        // A walk's way into a squeeze is the squeezing rules'; a climber walks nowhere.
        app.squeezes_by(squeeze_on).blocks_walking(|world, who| {
            world
                .get::<Climbing>(who)
                .map(|_| MoveRefusal::OnAClimb.into())
        });
        app.installs(|world, level| {
            world.insert_resource(climbing::RopesSecured::default());
            world.insert_resource(climbing::LooseHooks::default());
            world.insert_resource(traverse::RiggedTraverses::default());
            world.insert_resource(level.climbs.clone());
        });
        app.declare_hold(Hold::Stuck, is_stuck)
            .declare_hold(Hold::CrawlingATraverse, is_crawling)
            .declare_busy_hands("crawling a traverse", is_crawling)
            .declare_busy_hands("climbing", |world, who| {
                world.get::<climbing::Climbing>(who).is_some()
            })
            .declare_exertion_of::<climbing::Climbing>("climbing")
            .declare_exertion_of::<traverse::Traversing>("traversing")
            .declare_exertion_of::<traverse::Rigging>("rigging a traverse")
            .declare_exertion("stuck in a squeeze", is_stuck)
            .add_systems(
                SimRound,
                // Climbers climb before jumpers jump: one who comes down at the very edge ends
                // the round hanging there (Dungeon Delves › Jumping).
                (
                    climbing::climbers_climb,
                    traverse::traversers_traverse,
                    traverse::riggers_rig,
                    jumping::jumpers_jump,
                )
                    .chain()
                    .in_set(RoundSet::Climbing),
            )
            .add_systems(
                FactionInitiative,
                // Climbers climb before jumpers jump: one who comes down at the very edge ends
                // the round hanging there (Dungeon Delves › Jumping).
                (
                    climbing::climbers_climb,
                    traverse::traversers_traverse,
                    traverse::riggers_rig,
                    jumping::jumpers_jump,
                )
                    .chain()
                    .in_set(InitiativeSet::Climbing),
            );
    }
}
