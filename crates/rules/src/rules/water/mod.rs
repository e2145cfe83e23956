//! Swimming and Drowning (Dungeon Delves).
//!
//! - A creature in water too deep to stand (`Water(Deep)`) makes a Swimming throw at the start of
//!   its initiative each round: the target is its encumbrance in stone, +4 with the Swimming
//!   proficiency, with the situational penalties (RULINGS › Movement penalties; the Judge's cold,
//!   rough or fast water among them). If its modifiers bring the target to 0 or less, it need
//!   not throw. Afloat, it swims at a quarter of its speed (deep water costs four times its
//!   width to cross). A creature with a swimming speed makes no throw and swims at that speed
//!   (`movement::WaterCost`).
//! - Failing, it is **drowning**: vulnerable, no actions, no more Swimming throws; it sinks 10'
//!   per stone of encumbrance at the start of each initiative, to the water's depth; it holds its
//!   breath 5 + CON modifier rounds and then dies at its initiative.
//! - An ally not drowning beside it may grab it (in lieu of moving) and carry it to the surface
//!   (RULINGS › Water): one that has sunk is reached only by an ally swimming beside it. The
//!   carrier brings it up at its own swimming pace, at the start of the drowning one's
//!   initiative, its breath counted until it is at the surface; there the drowning ends. The
//!   carrier bears half its weight (7½ stone plus half its gear), keeps it at the surface (no
//!   Swimming throws of its own) and takes it along wherever it goes until it lets go.

mod commands;
pub mod events;
use crate::act::Concern;
use crate::creature::Proficiencies;
use crate::rules::areas::Rank;
use crate::rules::modules::SituationalPenaltiesOn;
use crate::rules::movement::{MovedThisRound, Pace, Speeds, Walking, WaterCost};
use crate::rules::throws::Skill;
use crate::schedule::{FactionInitiative, InitiativeSet, RoundSet, SimRound};
use delve_ground::level::schema::JudgeModifier;

pub use commands::{Grab, LetGo, WaterRefusal};
pub use events::WaterEvent;

use bevy::prelude::*;

use crate::act::Refusal;
use crate::creature::{
    Abilities, ActingOrder, ConditionEnd, Conditions, Encumbrance, Faction, Position,
};
use crate::rules::carrying::{BODY_STONE, Holding, bear, carrier_of, take_up};
use crate::rules::conditions::{gain_condition_in, is_down, lose_condition_in};
use crate::rules::throws::{ThrowKind, stone_of, stone_target};
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain, WaterDepth};
use delve_ground::level::WaterDepths;
use delve_ground::level::schema::{ConditionKind, Proficiency};
use delve_ground::log::log_in;

/// The Swimming proficiency's bonus.
pub const SWIMMING_BONUS: i32 = 4;
/// Feet sunk each round per stone of encumbrance.
pub const SINKS_FEET_PER_STONE: u32 = 10;
/// Rounds a creature holds its breath: 5 + CON modifier.
pub fn breath_rounds(con: i32) -> u32 {
    (5 + crate::rules::abilities::delve_modifier(con)).max(0) as u32
}

/// Feet sunk in a round: 10' per stone of encumbrance, fractions included (RULINGS › Water:
/// 7½ stone sinks 75').
pub fn sinks_feet(stone: f32) -> u32 {
    (SINKS_FEET_PER_STONE as f32 * stone.max(0.0)).floor() as u32
}

/// The Swimming throw's target and modifiers: the encumbrance in stone, +4 with Swimming, and
/// the situation's penalties; `None` when no throw is needed — for one with the Swimming
/// proficiency whose net target is 0 or less. One without it always throws (RULINGS › Water),
/// and succeeds at a net target of 1 or less.
fn swimming_throw(world: &World, who: Entity) -> Option<(i32, Vec<Modifier>)> {
    swimming_throw_at(world, who, world.get::<Position>(who).map(|p| p.0))
}

/// [`swimming_throw`] as it would be at the square `at`.
pub fn swimming_throw_at(
    world: &World,
    who: Entity,
    at: Option<GridPos>,
) -> Option<(i32, Vec<Modifier>)> {
    // RULINGS › Water: one with a swimming speed is at home in water and makes no throw.
    if world.get::<SwimmingSpeed>(who).is_some() {
        return None;
    }
    let stone = stone_of(world.get::<Encumbrance>(who));
    let mut mods = Vec::new();
    let proficient = world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Swimming));
    if proficient {
        mods.push(Modifier::new(SWIMMING_BONUS, "Swimming"));
    }
    mods.extend(crate::rules::penalties::swimming_penalties_at(
        world, who, at,
    ));
    // Dungeon Delves › Swimming: "If the water is cold, rough, or fast-moving, the Judge might
    // impose a penalty on the swimming throw" — the delve rules' own: with the situational
    // penalties switched off (whose water penalties count it otherwise) it holds all the same.
    if world.get_resource::<SituationalPenaltiesOn>().is_none() {
        mods.extend(crate::rules::calls::judge_modifier(
            world,
            JudgeModifier::RoughWater,
            at,
            &[who],
        ));
    }
    let target = stone_target(stone);
    let net = target - mods.iter().map(|m| m.value).sum::<i32>();
    (net > 0 || !proficient).then_some((target, mods))
}

pub use crate::creature::SwimmingSpeed;

/// A drowning creature: how deep it has sunk and how long it has held its breath.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drowning {
    pub sunk_feet: u32,
    pub rounds_held: u32,
}

fn in_deep_water(grid: &DungeonGrid, at: GridPos) -> bool {
    grid.terrain(at) == Some(Terrain::Water(WaterDepth::Deep))
}

/// At the start of each creature's initiative: the drowning sink and run out of breath; those
/// afloat in deep water throw Swimming, and drown on a failure.
fn start_of_initiative_in_water(
    world: &mut World,
    q: &mut QueryState<(Entity, &Position, &Conditions, Option<&Faction>), Without<SwimmingSpeed>>,
) {
    let grid = world.resource::<DungeonGrid>();
    let acting = world.resource::<ActingOrder>();
    let mut swimmers: Vec<(Entity, GridPos)> = q
        .iter(world)
        .filter(|(_, p, c, f)| {
            acting.acts_now(f.copied()) && !is_down(c) && in_deep_water(grid, p.0)
        })
        .map(|(e, p, ..)| (e, p.0))
        .collect();
    swimmers.sort();
    for (e, at) in swimmers {
        match (world.get::<Drowning>(e).copied(), carrier_of(world, e)) {
            (Some(d), Some(carrier)) => brought_up(world, e, carrier, d),
            (Some(d), None) => sink(world, e, at, d),
            // Kept at the surface by its carrier: no throw of its own.
            (None, Some(_)) => {}
            (None, None) => swim(world, e),
        }
    }
}

/// How far a carrier swims up in a round: its combat speed afloat (a quarter, or its swimming
/// speed's share).
fn swims_up_feet(world: &World, carrier: Entity) -> u32 {
    let Some(enc) = world.get::<Encumbrance>(carrier) else {
        return 0;
    };
    let conditions = world
        .get::<Conditions>(carrier)
        .cloned()
        .unwrap_or_default();
    let share = WaterCost::of(enc.0, world.get::<SwimmingSpeed>(carrier)).share();
    Speeds::of(enc.0, &conditions).map_or(0, |s| (s.rated(Pace::Combat) * share).floor() as u32)
}

/// A drowning creature in its carrier's grip, at the start of its initiative: brought up by the
/// carrier's swimming pace; at the surface it is saved, else its breath runs on.
fn brought_up(world: &mut World, who: Entity, carrier: Entity, mut d: Drowning) {
    d.sunk_feet = d.sunk_feet.saturating_sub(swims_up_feet(world, carrier));
    if d.sunk_feet == 0 {
        saved(world, who, "carried to the surface");
        return;
    }
    d.rounds_held += 1;
    world.entity_mut(who).insert(d);
    let (name, by) = (
        crate::creature::name_of(world, who),
        crate::creature::name_of(world, carrier),
    );
    let breath = breath_rounds(world.get::<Abilities>(who).map_or(10, |a| a.0.con));
    log_in(
        world,
        WaterEvent::BroughtUp {
            who: name.clone(),
            by,
            depth_feet: d.sunk_feet,
            breath_left: breath.saturating_sub(d.rounds_held),
        },
    );
    if d.rounds_held >= breath {
        log_in(world, WaterEvent::Drowned { who: name });
        crate::rules::damage::killed(world, who, "drowned");
    }
}

/// The drowning ends: it is at the surface in its carrier's grip.
fn saved(world: &mut World, whom: Entity, why: &str) {
    world.entity_mut(whom).remove::<Drowning>();
    lose_condition_in(world, whom, ConditionKind::Drowning, why);
    if world
        .get::<Conditions>(whom)
        .and_then(|c| c.get(ConditionKind::Vulnerable))
        .is_some_and(|v| v.source == "drowning")
    {
        lose_condition_in(world, whom, ConditionKind::Vulnerable, "no longer drowning");
    }
}

fn swim(world: &mut World, who: Entity) {
    let Some((target, mods)) = swimming_throw(world, who) else {
        return;
    };
    let afloat = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Proficiency(delve_ground::level::schema::Proficiency::Swimming),
        "Swimming",
        mods,
        target,
    )
    .success;
    if afloat {
        return;
    }
    world
        .entity_mut(who)
        .remove::<Walking>()
        .insert(Drowning::default());
    for kind in [ConditionKind::Drowning, ConditionKind::Vulnerable] {
        gain_condition_in(world, who, kind, "drowning", ConditionEnd::UntilRemoved);
    }
    let name = crate::creature::name_of(world, who);
    let breath = breath_rounds(world.get::<Abilities>(who).map_or(10, |a| a.0.con));
    log_in(
        world,
        WaterEvent::Drowning {
            who: name,
            breath_rounds: breath,
        },
    );
}

fn sink(world: &mut World, who: Entity, at: GridPos, mut d: Drowning) {
    let stone = stone_of(world.get::<Encumbrance>(who));
    let depth = world.get_resource::<WaterDepths>().map_or(0, |w| w.at(at));
    d.sunk_feet = (d.sunk_feet + sinks_feet(stone)).min(depth);
    d.rounds_held += 1;
    world.entity_mut(who).insert(d);
    let name = crate::creature::name_of(world, who);
    let breath = breath_rounds(world.get::<Abilities>(who).map_or(10, |a| a.0.con));
    log_in(
        world,
        WaterEvent::Sank {
            who: name.clone(),
            depth_feet: d.sunk_feet,
            breath_left: breath.saturating_sub(d.rounds_held),
        },
    );
    if d.rounds_held >= breath {
        log_in(world, WaterEvent::Drowned { who: name });
        crate::rules::damage::killed(world, who, "drowned");
    }
}

/// `Grab`: `who`, not drowning, grabs a drowning ally beside it (in lieu of moving) to carry it
/// to the surface, and bears half the ally's weight until it lets go. One that has sunk is
/// reached only by an ally swimming beside it (RULINGS › Water); one not yet sunk is at the
/// surface, and saved at once.
pub fn grab(world: &mut World, who: Entity, whom: Entity) -> Result<(), Refusal> {
    let here = crate::act::square_of(world, who)?;
    let there = crate::act::square_of(world, whom)?;
    if world.get::<Drowning>(who).is_some() {
        return Err(WaterRefusal::DrowningItself.into());
    }
    if world.get::<Drowning>(whom).is_none() {
        return Err(WaterRefusal::NotDrowning.into());
    }
    if world.get::<Faction>(who) != world.get::<Faction>(whom) {
        return Err(WaterRefusal::NotAnAlly.into());
    }
    if here.chebyshev(there) > 1 {
        return Err(WaterRefusal::NotBeside.into());
    }
    let sunk_feet = world.get::<Drowning>(whom).map_or(0, |d| d.sunk_feet);
    if sunk_feet > 0 && !in_deep_water(world.resource::<DungeonGrid>(), here) {
        return Err(WaterRefusal::MustSwimToIt { sunk_feet }.into());
    }
    if world.get::<Holding>(who).is_some() {
        return Err(WaterRefusal::HandsFull.into());
    }
    let stone = (BODY_STONE + stone_of(world.get::<Encumbrance>(whom))) / 2.0;
    if sunk_feet == 0 {
        saved(world, whom, "grabbed at the surface");
    }
    take_up(world, who, whom, stone);
    let (name, ally) = (
        crate::creature::name_of(world, who),
        crate::creature::name_of(world, whom),
    );
    log_in(
        world,
        WaterEvent::Grabbed {
            who: name,
            whom: ally,
            stone,
        },
    );
    Ok(())
}

/// What a creature can do for the drowning beside it (grab one, in lieu of moving) or for the
/// one it holds (let go): the window's number keys.
pub fn rescue_choices(world: &World, who: Entity) -> Vec<crate::act::Choice> {
    use crate::act::AnyAct;
    use crate::act::Choice;
    let name = crate::creature::name_of(world, who);
    if world.get::<Holding>(who).is_some() {
        let let_go = AnyAct::from(LetGo { who: name });
        return vec![Choice::new("let go", "at once", None, "", let_go)];
    }
    let (Some(here), faction) = (
        world.get::<Position>(who).map(|p| p.0),
        world.get::<Faction>(who).copied(),
    ) else {
        return Vec::new();
    };
    if world.get::<Drowning>(who).is_some() {
        return Vec::new();
    }
    let Some(mut q) = world.try_query::<(Entity, &Name, &Position, Option<&Faction>, &Drowning)>()
    else {
        return Vec::new();
    };
    // One that has sunk is reached only by one swimming beside it (RULINGS › Water).
    let swimming = in_deep_water(world.resource::<DungeonGrid>(), here);
    let mut drowning: Vec<(Entity, String)> = q
        .iter(world)
        .filter(|(e, _, p, f, d)| {
            *e != who
                && f.copied() == faction
                && p.0.within_a_step(here)
                && (d.sunk_feet == 0 || swimming)
        })
        .map(|(e, n, ..)| (e, n.to_string()))
        .collect();
    drowning.sort();
    drowning
        .into_iter()
        .map(|(_, whom)| {
            let way = format!("grab {whom}");
            let grab = AnyAct::from(Grab {
                who: name.clone(),
                whom,
            });
            Choice::new(
                &way,
                "in lieu of moving",
                None,
                "carries it to the surface",
                grab,
            )
        })
        .collect()
}

/// `LetGo`: puts down (or lets go of) the one it holds, and its weight with it. One carried by
/// two is put down by both (RULINGS › Carrying and hauling).
pub(crate) fn let_go(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let holding = world
        .get::<Holding>(who)
        .copied()
        .ok_or(WaterRefusal::HoldsNoOne)?;
    let mut holders: Vec<Entity> =
        delve_ground::query_cache::read_query(world, |q: Query<(Entity, &Holding)>| {
            q.iter()
                .filter(|(_, h)| h.whom == holding.whom)
                .map(|(e, _)| e)
                .collect()
        })
        .unwrap_or_default();
    holders.sort_by_key(|&e| (e != who, e));
    for h in holders {
        let Some(held) = world.get::<Holding>(h).copied() else {
            continue;
        };
        bear(world, h, -held.stone);
        world.entity_mut(h).remove::<Holding>();
        let (name, whom) = (
            crate::creature::name_of(world, h),
            crate::creature::name_of(world, held.whom),
        );
        log_in(world, WaterEvent::LetGo { who: name, whom });
    }
    Ok(())
}

/// The one a creature holds goes where it goes (after the round's walking).
fn carried_along(
    holders: Query<(Entity, &Holding, &Position), Without<Drowning>>,
    mut held: Query<&mut Position, Without<Holding>>,
    mut commands: Commands,
) {
    let mut holders: Vec<_> = holders.iter().collect();
    holders.sort_unstable_by_key(|h| h.0);
    // One carried by two goes with the first of them.
    let mut moved = Vec::new();
    for (_, h, at) in holders {
        if moved.contains(&h.whom) {
            continue;
        }
        moved.push(h.whom);
        if let Ok(mut p) = held.get_mut(h.whom)
            && p.0 != at.0
        {
            p.0 = at.0;
            commands.entity(h.whom).remove::<Walking>();
        }
    }
}

/// Dungeon Delves › Drowning: a drowning creature "cannot take any actions".
/// RULINGS › Water: a swimmer at running speed cannot attack.
fn swimming_at_running_speed(world: &World, who: Entity) -> bool {
    world
        .get::<MovedThisRound>(who)
        .is_some_and(|m| m.pace == Some(Pace::Running))
        && world
            .get::<Position>(who)
            .is_some_and(|p| in_deep_water(world.resource::<DungeonGrid>(), p.0))
}

fn is_drowning(world: &World, who: Entity) -> bool {
    world.get::<Drowning>(who).is_some()
}

/// Afloat in deep water, keeping its head up: exertion, still or not (RULINGS › Rest). One with
/// a swimming speed is at home there.
fn treading_water(world: &World, who: Entity) -> bool {
    world
        .get::<Position>(who)
        .is_some_and(|p| in_deep_water(world.resource::<DungeonGrid>(), p.0))
        && world.get::<SwimmingSpeed>(who).is_none()
}

/// Swimming and drowning at the start of each creature's initiative: each round outside a
/// battle, in its faction's initiative in one.
pub struct WaterPlugin;

impl Plugin for WaterPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps::<delve_ground::level::WaterDepths>()
            .keeps_component::<crate::rules::water::Drowning>()
            .keeps_component::<crate::rules::carrying::Holding>();
        crate::rules::areas::RuleArea::offers(app, Rank::Escape, |world, who| {
            let water = rescue_choices(world, who);
            water.into_iter().map(|c| (Concern::Water, c)).collect()
        });
        use crate::rules::areas::RuleArea;
        app.installs(|world, level| world.insert_resource(level.deep_water.clone()))
            .installs_creature(|world, e, c| {
                if let Some(feet) = c.swim_feet {
                    world.entity_mut(e).insert(SwimmingSpeed(feet));
                }
            });
        use crate::rules::acting::{ActingRules, Hold};
        app.declare_hold(Hold::Drowning, is_drowning)
            .declare_hold(Hold::SwimmingAtRunningSpeed, swimming_at_running_speed)
            .declare_exertion_of::<Drowning>("drowning")
            .declare_exertion_of::<Holding>("holding up or carrying a companion")
            .declare_exertion("treading water", treading_water)
            .declare_busy_hands("holding up or carrying a companion", |world, who| {
                world.get::<Holding>(who).is_some()
            })
            .add_systems(
                SimRound,
                start_of_initiative_in_water.in_set(RoundSet::Swimming),
            )
            .add_systems(
                FactionInitiative,
                start_of_initiative_in_water.in_set(InitiativeSet::Swimming),
            )
            .add_systems(SimRound, carried_along.in_set(RoundSet::Carried))
            .add_systems(
                FactionInitiative,
                carried_along.in_set(InitiativeSet::Carried),
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dungeon Delves › Drowning: breath lasts 5 + CON modifier rounds; sinking is 10' per
    /// stone, fractions included (RULINGS › Water: 7½ stone, 75').
    #[test]
    fn breath_and_sinking() {
        assert_eq!(breath_rounds(10), 5);
        assert_eq!(breath_rounds(16), 7, "CON 16: +2");
        assert_eq!(breath_rounds(3), 2, "CON 3: −3");
        assert_eq!(sinks_feet(3.0), 30);
        assert_eq!(sinks_feet(7.5), 75);
        assert_eq!(sinks_feet(4.5), 45, "not 50'");
    }
}
