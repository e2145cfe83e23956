//! Movement (Dungeon Delves › Speed and Distance; RULINGS › Encumbrance and speed, Time).
//!
//! Speeds come from encumbrance in stone or an explicit speed; blinded creatures move at one
//! third. A walk follows the cheapest path at a pace: each round a walker gains that pace's feet
//! (one tenth of exploration speed when exploring) and spends them on 5-10-5 steps, difficult
//! terrain costing double and deep water four times (swimming is at one quarter), carrying what
//! is left to the next round, so 120' per turn is exactly 120' per turn.
//!
//! Running: a straight line or gentle curve; the runner is disordered until its next initiative;
//! running into difficult terrain needs a Paralysis save (class level added with Acrobatics) or
//! the runner falls prone half-way; after 10 ± CON modifier rounds of running, a Paralysis save
//! each further round (+4 with Endurance) or it is winded, and winded creatures cannot run.
//!
//! This file is walking (planning, each round's steps, the round's records); the speeds and
//! what terrain costs are `speeds`, running's costs `running`.

mod commands;
pub mod events;
mod refusals;
mod walking;
use crate::creature::{ActingOrder, Below, Creature, Faction, Factions, Resting, SwimmingSpeed};
use crate::rules::acting::MAPPING;
use crate::rules::calls::Judge;
use crate::rules::modules::SituationalPenaltiesOn;
use crate::rules::movement::hazards::KnownHazards;
use crate::rules::movement::squeezes::StuckIn;
use crate::rules::tactical::TacticalCombat;
use crate::rules::throws::Thrower;
use crate::schedule::{FactionInitiative, InitiativeSet};
use delve_ground::grid::path::Path;
use delve_ground::time::Clock;

pub use commands::{Halt, Move};
pub use events::{HaltReason, MovementEvent};
pub use refusals::MoveRefusal;
pub use walking::Walking;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::Serialize;

use crate::act::{Refusal, square_of};
use crate::creature::{
    ClassLevel, Conditions, Encumbrance, Equipment, Position, Proficiencies, SavingThrows,
};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::distance::step_feet;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, Gear, Proficiency, SaveCategory};
use delve_ground::log::EventLog;
use delve_ground::table::Table;

pub mod hazards;
mod running;
mod speeds;
pub mod squeezes;
pub use running::RunningTally;
pub(crate) use running::{after_running, falls_running_into_difficult_terrain, long_runs};
pub(crate) use speeds::step_cost;
pub use speeds::{
    EncumbranceBand, Pace, SPEED_TABLE, Speeds, WaterCost, encumbrance_band, path_cost,
    terrain_cost, throw_to_enter,
};

mod steps;
use steps::{
    mouth_taken, occupants, stop_short_of_others, take_the_steps, tenths_to_spend, walk_ended,
};

/// This round the creature may move no farther than `feet` (Situational Penalties › Penalty
/// to ranged attacks from movement: one that attacked before moving may then move only within
/// its reach).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLimit {
    pub round: u64,
    pub feet: u32,
}

/// Limits the creature's movement this round to `feet`: the least of every limit set on it
/// this round holds (a move action spent, then a missile loosed, still leaves it no move).
pub(crate) fn limit_moves(world: &mut World, who: Entity, feet: u32) {
    let round = world.resource::<Clock>().rounds;
    let feet = world
        .get::<MoveLimit>(who)
        .filter(|l| l.round == round)
        .map_or(feet, |l| l.feet.min(feet));
    world.entity_mut(who).insert(MoveLimit { round, feet });
}

/// How far a creature moved this round and at what pace (Situational Penalties › Movement reads
/// it). Reset at the start of every round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovedThisRound {
    pub feet: u32,
    pub pace: Option<Pace>,
}

/// The squares a creature entered this round, in order, and the square it set out from (traps
/// read them). Reset every round.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Footsteps {
    pub from: Option<GridPos>,
    pub entered: Vec<GridPos>,
}

impl Footsteps {
    /// A step from one square into the next.
    pub fn step(&mut self, from: GridPos, to: GridPos) {
        self.from.get_or_insert(from);
        self.entered.push(to);
    }

    /// The square the creature stood on before entering its `i`th square this round.
    pub fn before(&self, i: usize) -> Option<GridPos> {
        match i {
            0 => self.from,
            _ => self.entered.get(i - 1).copied(),
        }
    }
}

/// What moving at exploration speed allows this round (Dungeon Delves › Speed and Distance).
/// Later rule areas read these flags; a creature not exploring this round has none.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExplorationBenefits {
    /// Probing ahead with a 10' pole.
    pub probing_with_pole: bool,
    /// Mapping (the party's mapper; bright light is needed too).
    pub mapping: bool,
    /// Concentrating to maintain a spell or effect.
    pub concentrating: bool,
    /// Hastily searching the squares passed (proficient in Searching).
    pub hasty_searching: bool,
    /// Making much less noise.
    pub quiet: bool,
}

/// Marks the party's mapper (set by the party rules), and whether it has the Mapping
/// proficiency (accurate measurements, a chance to notice its own errors).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mapper {
    pub proficient: bool,
}

/// The steps a budget pays for along a path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steps {
    /// Each square entered, the feet the step counts (5-10-5), and whether it was diagonal.
    pub steps: Vec<(GridPos, u32, bool)>,
    /// Why the walk cannot go on, if a square ahead is blocked.
    pub blocked: Option<HaltReason>,
}

/// Spends `banked` tenths of a foot on the steps of `path` from index `next`: 5-10-5 feet per
/// step times the terrain cost of the square entered. Stops at the first step it cannot pay for
/// or that is blocked. `odd_diagonals` is updated with the steps taken.
pub(crate) fn take_steps(
    grid: &DungeonGrid,
    path: &[GridPos],
    next: usize,
    banked: &mut u32,
    odd_diagonals: &mut bool,
    water: WaterCost,
) -> Steps {
    let scale = grid.scale_feet();
    let mut out = Steps::default();
    let Some(&start) = path.get(next.wrapping_sub(1)) else {
        return out;
    };
    let mut at = start;
    for &p in path.iter().skip(next) {
        let diagonal = p.x != at.x && p.y != at.y;
        let step = step_feet(diagonal, *odd_diagonals, scale);
        let cost = step_cost(grid, p, step, water);
        if *banked < cost {
            break;
        }
        if !grid.is_passable(p) {
            out.blocked = Some(HaltReason::Blocked { at: p });
            break;
        }
        *banked -= cost;
        *odd_diagonals ^= diagonal;
        out.steps.push((p, step, diagonal));
        at = p;
    }
    out
}

impl MovedThisRound {
    /// Notes a creature's movement this round and logs it.
    pub(crate) fn record(
        &mut self,
        log: &mut EventLog,
        round: u64,
        who: &str,
        pace: Pace,
        (from, to): (GridPos, GridPos),
        feet: u32,
    ) {
        self.feet += feet;
        self.pace = Some(pace);
        if feet > 0 {
            log.push(
                round,
                MovementEvent::Moved {
                    who: who.to_owned(),
                    from,
                    to,
                    feet,
                },
            );
        }
    }
}

/// Starts a walk for `e`, or says why it cannot; gives the walk's length in feet. Interrupts a
/// rest.
pub(crate) fn order_move(
    world: &mut World,
    e: Entity,
    to: GridPos,
    pace: Pace,
) -> Result<u32, Refusal> {
    let path = plan_move(world, e, to, pace)?;
    let feet = path.feet;
    let knowingly = hazards::on_the_path(world, e, &path.squares);
    world.entity_mut(e).insert(Walking {
        knowingly,
        ..Walking::new(path.squares, pace)
    });
    world.entity_mut(e).remove::<Resting>();
    Ok(feet)
}

/// The path `e` would walk to `to` at `pace`, or why it cannot.
pub(crate) fn plan_move(
    world: &World,
    e: Entity,
    to: GridPos,
    pace: Pace,
) -> Result<Path, Refusal> {
    let pos = square_of(world, e)?;
    if let Some(blocked) = world
        .get_resource::<squeezes::WalkBlockers>()
        .and_then(|b| b.0.iter().find_map(|block| block(world, e)))
    {
        return Err(blocked);
    }
    if let Some(below) = world.get::<Below>(e) {
        return Err(MoveRefusal::AtTheBottom {
            depth_feet: below.depth_feet,
        }
        .into());
    }
    let enc = world
        .get::<Encumbrance>(e)
        .ok_or(MoveRefusal::CannotMove)?
        .0;
    let conditions = world.get::<Conditions>(e).cloned().unwrap_or_default();
    let saves = world.get::<SavingThrows>(e).cloned().unwrap_or_default();
    let grid = world.resource::<DungeonGrid>();
    Ok(plan_walk(
        grid,
        to,
        pace,
        Speeds::of(enc, &conditions),
        (&conditions, &saves),
        || hazards::way(world, e, pos, to),
    )?)
}

/// Starts a walk for `e` and logs it ([`MovementEvent::WalkBegun`]), or says why it cannot.
pub(crate) fn begin_walk(
    world: &mut World,
    e: Entity,
    to: GridPos,
    pace: Pace,
) -> Result<(), Refusal> {
    let feet = order_move(world, e, to, pace)?;
    let who = crate::creature::name_of(world, e);
    delve_ground::log::log_in(
        world,
        MovementEvent::WalkBegun {
            who,
            to,
            pace,
            feet,
        },
    );
    Ok(())
}

/// Movement: walking each round, running's costs, and the round's records.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<StuckIn>()
            .keeps_component::<crate::rules::movement::ExplorationBenefits>()
            .keeps_component::<crate::rules::movement::Footsteps>()
            .keeps_component::<crate::rules::movement::Mapper>()
            .keeps_component::<crate::rules::movement::MoveLimit>()
            .keeps_component::<crate::rules::movement::MovedThisRound>()
            .keeps_component::<crate::rules::movement::Walking>()
            .keeps::<KnownHazards>()
            .keeps_component::<crate::rules::movement::running::RunningTally>();
        use crate::rules::acting::ActingRules;
        use crate::rules::areas::RuleArea;
        // Dungeon Delves › Mapping: the mapper's hands are both on the map.
        app.declare_busy_hands(MAPPING, |world, who| world.get::<Mapper>(who).is_some())
            .declare_no_action(
                "while running (the Judge's call)",
                running_under_the_judges_call,
            );
        app.resets::<StepsTaken>().installs_creature(|world, e, _| {
            world.entity_mut(e).insert((
                MovedThisRound::default(),
                ExplorationBenefits::default(),
                RunningTally::default(),
                Footsteps::default(),
            ));
        });
        app.init_resource::<StepsTaken>()
            .init_resource::<ActingOrder>()
            .add_systems(SimRound, start_round.in_set(RoundSet::NewRound))
            .add_systems(SimRound, hazards::mind_the_way.in_set(RoundSet::WayAhead))
            .add_systems(SimRound, walk.in_set(RoundSet::Walking))
            .add_systems(FactionInitiative, walk.in_set(InitiativeSet::Walking))
            .add_systems(
                SimRound,
                record_exploration_benefits.in_set(RoundSet::ExplorationBenefits),
            )
            .add_systems(SimRound, long_runs.in_set(RoundSet::Running));
    }
}

/// Situational Penalties › Movement, with the Judge's `no_actions_while_running`: the creature is
/// running — its walk under way at running speed.
fn running_under_the_judges_call(world: &World, who: Entity) -> bool {
    world
        .get_resource::<Judge>()
        .is_some_and(|j| j.0.no_actions_while_running)
        && world
            .get::<Walking>(who)
            .is_some_and(|w| w.pace == Pace::Running)
}

fn start_round(
    mut q: Query<(&mut MovedThisRound, &mut Footsteps)>,
    mut explorers: Query<&mut ExplorationBenefits>,
) {
    for (mut m, mut f) in &mut q {
        *m = MovedThisRound::default();
        *f = Footsteps::default();
    }
    for mut b in &mut explorers {
        *b = ExplorationBenefits::default();
    }
}

/// Movement by other means than walking — climbing, rappelling, crawling or balancing along a
/// traverse — counts as the round's movement: it makes the noise of moving at its pace, and is
/// exertion (RULINGS › Rest).
pub(crate) fn moved_by_other_means(world: &mut World, who: Entity, feet: u32, pace: Pace) {
    if let Some(mut m) = world.get_mut::<MovedThisRound>(who)
        && feet > 0
    {
        m.feet += feet;
        m.pace = Some(m.pace.map_or(pace, |p| p.max(pace)));
    }
}

/// Why a walk cannot start, or `Ok` with the path (the `way` there).
fn plan_walk(
    grid: &DungeonGrid,
    to: GridPos,
    pace: Pace,
    speeds: Option<Speeds>,
    (conditions, saves): (&Conditions, &SavingThrows),
    way: impl FnOnce() -> Result<Path, MoveRefusal>,
) -> Result<Path, MoveRefusal> {
    let Some(speeds) = speeds else {
        return Err(MoveRefusal::OverEncumbered);
    };
    if speeds.tenths_per_round(pace) == 0 {
        return Err(MoveRefusal::NoSpeed { pace });
    }
    if conditions.has(ConditionKind::Stuck) {
        return Err(MoveRefusal::Stuck);
    }
    if pace == Pace::Running {
        if conditions.has(ConditionKind::Winded) {
            return Err(MoveRefusal::WindedCannotRun);
        }
        if !saves.0.contains_key(&SaveCategory::Paralysis) {
            return Err(MoveRefusal::NoParalysisSave);
        }
    }
    if !grid.in_bounds(to) {
        return Err(MoveRefusal::OutsideTheMap { at: to });
    }
    let path = way()?;
    if pace == Pace::Running
        && let Some(bend) = sharp_turn(&path.squares)
    {
        return Err(MoveRefusal::SharpTurn { at: bend });
    }
    Ok(path)
}

/// The first square where a path turns by more than 45°, if any: running must be "a straight
/// line or gentle curve".
pub fn sharp_turn(path: &[GridPos]) -> Option<GridPos> {
    // The eight compass directions in turning order; a gentle curve moves to a neighbour.
    const OCTANTS: [(i32, i32); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    let octant = |a: GridPos, b: GridPos| {
        let d = ((b.x - a.x).signum(), (b.y - a.y).signum());
        OCTANTS.iter().position(|&o| o == d).unwrap_or(0) as i32
    };
    for (i, w) in path.windows(3).enumerate() {
        let turn = (octant(w[1], w[2]) - octant(w[0], w[1])).rem_euclid(8);
        if turn > 1 && turn < 7 {
            return Some(path[i + 1]);
        }
    }
    None
}

/// A walker, as the walk sees it.
#[derive(bevy::ecs::query::QueryData)]
#[query_data(mutable)]
pub struct Walker {
    entity: Entity,
    name: &'static Name,
    pos: &'static mut Position,
    walking: &'static mut Walking,
    enc: &'static Encumbrance,
    conditions: &'static mut Conditions,
    moved: &'static mut MovedThisRound,
    saves: &'static SavingThrows,
    profs: &'static Proficiencies,
    class: &'static ClassLevel,
    footsteps: &'static mut Footsteps,
    faction: Option<&'static Faction>,
    limit: Option<&'static MoveLimit>,
    swimmer: Option<&'static SwimmingSpeed>,
}

/// A creature not walking, as walkers see it.
type Standing<'a> = (Entity, &'a Position, Option<&'a Faction>, &'a Conditions);

/// Who stands where, as walkers move: a creature that is up (not dying or dead) and its faction.
pub type Occupant = (Entity, GridPos, Option<Faction>);

/// One square's step of a walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub who: Entity,
    pub faction: Option<Faction>,
    pub from: GridPos,
    pub to: GridPos,
    /// Walking cautiously, or acrobatically (Tactical Combat › Cautious Movement).
    pub cautious: bool,
    pub acrobatic: bool,
}

/// This round's walking as other rules see it: who stood where when the walkers set off, and
/// every step taken, in the order taken. Tactical Combat's attacks of opportunity are found from
/// it (`combat::opportunity`) without movement knowing of them.
#[derive(Resource, Clone, Debug, Default)]
pub struct StepsTaken {
    pub start: Vec<Occupant>,
    pub steps: Vec<Step>,
}

/// Why a creature may not step into a square: a hostile creature stands there, or anyone does
/// and it is where the walk would end (creatures pass their allies but do not share a square).
fn barred(
    occupants: &[Occupant],
    factions: &Factions,
    who: Entity,
    mine: Option<Faction>,
    to: GridPos,
    last: bool,
) -> Option<HaltReason> {
    occupants
        .iter()
        .find(|(e, p, f)| {
            *e != who
                && *p == to
                && (last || matches!((mine, f), (Some(a), Some(b)) if factions.hostile(a, *b)))
        })
        .map(|_| HaltReason::Occupied { at: to })
}

/// The rules a step is taken under, as the level's modules have them: the tactical rules, the
/// acting order (whose initiative it is in a battle), the situational penalties, and squeezing.
#[derive(SystemParam)]
pub struct StepRules<'w> {
    pub tactical: Option<Res<'w, TacticalCombat>>,
    pub acting: Res<'w, ActingOrder>,
    pub penalties_on: Option<Res<'w, SituationalPenaltiesOn>>,
    pub squeezing: Option<Res<'w, squeezes::Squeezes>>,
}

/// Each round, every walker spends its pace's feet on steps along its path.
pub fn walk(
    mut table: Table,
    factions: Option<Res<Factions>>,
    mut walkers: Query<Walker>,
    standing: Query<Standing, (With<Creature>, Without<Walking>)>,
    mut taken: ResMut<StepsTaken>,
    rules: StepRules,
    mut commands: Commands,
) {
    let round = table.clock.rounds;
    // Dungeon Delves › Squeezing, as the squeezing rules register it (none: no squeezes).
    let squeeze_on = squeezes::Squeezes::on(rules.squeezing.as_deref());
    let no_factions = Factions::default();
    let factions = factions.as_deref().unwrap_or(&no_factions);
    let mut occupants = occupants(&standing, &walkers);
    taken.start.clone_from(&occupants);
    taken.steps.clear();
    // RULINGS › The battle round: in a battle each faction walks in its own turn; outside its
    // turn, only those whose faction is not fighting walk.
    let mut order: Vec<Entity> = walkers
        .iter()
        .filter(|w| rules.acting.acts_now(w.faction.copied()))
        .map(|w| w.entity)
        .collect();
    order.sort();
    for e in order {
        let Ok(WalkerItem {
            entity,
            name,
            mut pos,
            walking: mut w,
            enc,
            mut conditions,
            mut moved,
            saves,
            profs,
            class,
            mut footsteps,
            faction,
            limit,
            swimmer,
        }) = walkers.get_mut(e)
        else {
            continue;
        };
        let Some(speeds) = Speeds::of(enc.0, &conditions) else {
            continue;
        };
        let water = WaterCost::of(enc.0, swimmer);
        // Stuck in a squeeze, it does not walk; winded, it cannot run (Dungeon Delves › Running).
        let stuck = conditions.has(ConditionKind::Stuck);
        let winded = !stuck && w.pace == Pace::Running && conditions.has(ConditionKind::Winded);
        if winded {
            let (who, at, reason) = (name.to_string(), pos.0, HaltReason::Winded);
            let halted = MovementEvent::Halted { who, at, reason };
            table.log.push(round, halted);
        }
        if stuck || winded {
            commands.entity(entity).remove::<Walking>();
            continue;
        }
        let mut banked = tenths_to_spend(&w, &speeds, limit, round);
        let mut odd = w.odd_diagonals;
        let Steps {
            mut steps,
            mut blocked,
        } = take_steps(&table.grid, &w.path, w.next, &mut banked, &mut odd, water);
        // Dungeon Delves › Squeezing.
        let squares: Vec<GridPos> = steps.iter().map(|s| s.0).collect();
        // The square before a squeeze's mouth another stands on: it squeezes on at once.
        let mouth_taken = mouth_taken(&table.grid, &squares, &occupants, entity);
        let squeezed = squeeze_on(
            &table.grid,
            (&mut table.dice, &mut table.log, round),
            (rules.tactical.as_deref(), rules.penalties_on.is_some()),
            squeezes::SqueezingMover {
                name,
                at: pos.0,
                conditions: &mut conditions,
                profs,
                encumbrance: enc,
                path: &w.path,
                next: w.next,
                steps: &squares,
                mouth_taken,
            },
        );
        match squeezed {
            squeezes::SqueezedOn::Moves => {}
            squeezes::SqueezedOn::UpToTheSqueeze(n) => steps.truncate(n),
            squeezes::SqueezedOn::HeldBack => {
                w.banked_tenths = 0;
                continue;
            }
            squeezes::SqueezedOn::Stuck(stuck_in) => {
                commands.entity(entity).remove::<Walking>().insert(stuck_in);
                continue;
            }
        }
        if let Some(reason) = stop_short_of_others(
            (&table.grid, &occupants, factions),
            (entity, faction.copied()),
            &w,
            (&mut steps, &mut banked, water),
        ) {
            blocked = Some(reason);
        }
        let fell = w.pace == Pace::Running
            && falls_running_into_difficult_terrain(
                &table.grid,
                (&mut table.dice, &mut table.log, round),
                Thrower::new(name, &conditions, rules.tactical.as_deref()),
                (saves, profs, class),
                &mut steps,
            );
        let from = pos.0;
        let feet = take_the_steps(
            &steps,
            (entity, faction.copied()),
            (&mut w, &mut pos.0, &mut footsteps),
            (&mut occupants, &mut taken),
        );
        w.banked_tenths = if fell { 0 } else { banked };
        let log = &mut table.log;
        moved.record(log, round, name, w.pace, (from, pos.0), feet);
        after_running(log, round, name, &mut conditions, (w.pace, feet, fell));
        let arrived = w.next >= w.path.len();
        let ended = walk_ended(name.to_string(), pos.0, (fell, blocked, arrived));
        if let Some(event) = ended {
            log.push(round, event);
            commands.entity(entity).remove::<Walking>();
        }
    }
}

/// Dungeon Delves › Speed and Distance: what moving at exploration speed allows, for every
/// creature that explored this round (leaders and followers alike).
fn record_exploration_benefits(
    mut q: Query<(
        &MovedThisRound,
        &Equipment,
        &Proficiencies,
        Option<&Mapper>,
        &mut ExplorationBenefits,
    )>,
) {
    for (moved, gear, profs, mapper, mut b) in &mut q {
        if moved.pace == Some(Pace::Exploration) {
            *b = ExplorationBenefits {
                probing_with_pole: gear.has(&Gear::TenFootPole),
                mapping: mapper.is_some(),
                concentrating: true,
                hasty_searching: profs.has(Proficiency::Searching),
                quiet: true,
            };
        }
    }
}

#[cfg(test)]
mod tests;
