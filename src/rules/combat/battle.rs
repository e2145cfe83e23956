//! Battles: when they begin and end, faction turns, attacks and their damage.
//!
//! RULINGS › Faction initiative: a battle begins when a creature becomes aware of a hostile one
//! (it sees it, or hears it and so knows where it is); the simulation switches to encounter
//! mode and the factions involved roll initiative; a faction that joins later rolls then and
//! takes its place in the order. It ends when no hostile creature has been aware of another for
//! a full round. Each round, factions act from the highest result to the lowest: each member
//! with an attack order attacks.
//!
//! An attack is d20 + attack bonus ≥ AC (RULINGS › Armor class and attacks), with every
//! modifier named in the log: the situational penalties, blinded (−4 melee, no missiles),
//! bloodied (−2), range increments beyond the first (−2 each, at most ten increments), the
//! target's disorder (−2 AC) and flat-footedness (no Dexterity bonus), a natural 20 (+10) and a
//! natural 1 (a miss). Damage is the weapon's dice, less the target's armor DR against its
//! damage type (crossbows and firearms bypass it in their first increment); a natural-20 threat
//! is confirmed by a second throw and deals the tactical critical. The damage lands through the
//! one damage path (`rules::damage`: bloodied, dying, massive trauma and damage).

use super::commands::{AttackRefusal, CombatRefusal};
use crate::command::{Refusal, Unable};
use crate::log::log_in;
use crate::rules::acting::ActionTaken;
use crate::rules::combat::{AttackNote, CombatEvent};
use bevy::prelude::*;

use crate::rules::throws::{self, ThrowKind, Thrower};
use serde::{Deserialize, Serialize};

use super::initiative::{FactionRoll, flat_footed_against, roll_initiative};
use crate::creature::{
    Abilities, ArmorClass, Combatant, Conditions, Creature, Faction, Factions, HitPoints, Position,
};
use crate::dice::Modifier;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::WeaponDef;
use crate::level::schema::{ConditionKind, ShieldWeight, WeaponKind};
use crate::log::EventLog;
use crate::rules::light::LightMap;
use crate::rules::penalties::{CheckKind, penalties_for};
use crate::rules::tactical::{self, TacticalCombat};
use crate::rules::vision::{Hiding, Sight};
use crate::schedule::TurnSet;
use crate::time::{Clock, DelveMode};

/// The battle under way, if any.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Battle {
    pub active: bool,
    /// The round it began.
    pub began: u64,
    /// Factions in acting order.
    pub order: Vec<FactionRoll>,
    /// Factions that have acted at least once in this battle.
    pub acted: Vec<usize>,
    /// The faction whose turn it is.
    pub acting: Option<usize>,
    /// Those of the acting faction that attacked before moving this turn.
    pub struck_first: Vec<Entity>,
}

impl Battle {
    /// A faction's initiative result, if it is in the battle.
    pub fn result_of(&self, faction: usize) -> Option<i32> {
        self.order
            .iter()
            .find(|f| f.faction == faction)
            .map(|f| f.result)
    }
}

/// A standing order to attack a creature with one of its weapons, each round it can.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackOrder {
    pub target: Entity,
    pub weapon: usize,
}

/// Under the player's control: the fighting behaviour leaves it to the player's orders.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Controlled;

/// Shields › sacrificing a shield to a critical hit: broken once, destroyed the second time.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShieldState {
    pub broken: bool,
    pub destroyed: bool,
}

/// Firearm Misfires: an advanced firearm that misfired is jammed until cleared.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Jammed;

/// Shields: the shield's bonuses forgone for a free hand in `round`, until the start of its
/// bearer's faction's next turn (RULINGS › The battle round), or the next round outside a battle.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShieldForgone {
    pub round: u64,
}

/// `ClearJam`: a jammed firearm takes a full round to clear (the creature neither moves nor
/// attacks this round), or a standard action with Gunsmithing, which leaves it its move.
pub fn clear_jam(world: &mut World, who: Entity) -> Result<(), Refusal> {
    if world.get::<Jammed>(who).is_none() {
        return Err(CombatRefusal::NotJammed.into());
    }
    world.entity_mut(who).remove::<Jammed>();
    let gunsmith = world
        .get::<crate::creature::Proficiencies>(who)
        .is_some_and(|p| p.has(crate::level::schema::Proficiency::Gunsmithing));
    if !gunsmith {
        world
            .entity_mut(who)
            .remove::<crate::rules::movement::Walking>()
            .remove::<AttackOrder>();
    }
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        CombatEvent::JamCleared {
            who: name,
            whole_round: !gunsmith,
        },
    );
    Ok(())
}

/// The standard rules' total defense: +4 to AC for the round, and no attacks.
pub const TOTAL_DEFENSE_AC: i32 = 4;

/// Taking the total defense action this round (no attacks; +4 AC; doubles a shield wall's
/// bonus when the whole wall does).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TotalDefense {
    pub round: u64,
}

/// `TotalDefense`: this round, +4 AC and no attacks.
pub fn total_defense(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let round = world.resource::<Clock>().rounds;
    world
        .entity_mut(who)
        .remove::<AttackOrder>()
        .insert(TotalDefense { round });
    Ok(())
}

/// `ForgoShield`: a free hand, for the shield's bonuses until its next turn.
pub fn forgo_shield(world: &mut World, who: Entity) -> Result<(), Refusal> {
    if world
        .get::<Combatant>(who)
        .and_then(|c| c.shield.as_ref())
        .is_none()
    {
        return Err(CombatRefusal::NoShield.into());
    }
    let round = world.resource::<Clock>().rounds;
    world.entity_mut(who).insert(ShieldForgone { round });
    Ok(())
}

/// The damage of a hit, as the log tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Damage {
    /// The dice rolled (for a critical, the extra dice; the base dice count at maximum).
    pub dice: Vec<u32>,
    pub bonus: i32,
    pub critical: bool,
    /// Armor damage reduction that applied.
    pub reduced_by: i32,
    /// An active enchantment's extra damage: its name and dice (never multiplied, never
    /// reduced by armor).
    #[serde(default)]
    pub enchantment: Option<(String, Vec<u32>)>,
    pub total: i32,
}

pub use crate::rules::conditions::is_down;

/// A creature's initiative modifier: its stat block's, or the tactical Dexterity modifier.
pub fn initiative_modifier(combatant: Option<&Combatant>, abilities: Option<&Abilities>) -> i32 {
    combatant
        .and_then(|c| c.initiative_modifier)
        .unwrap_or_else(|| {
            crate::rules::abilities::tactical_modifier(abilities.map_or(10, |a| a.0.dex))
        })
}

/// Who is aware of whom this round: (aware, of) pairs of creatures of hostile factions, both
/// up, where the first sees the second or heard it this round. Worked out once a round by
/// [`notice_hostiles`]; the fighting behaviour reads it.
/// Sorted, so that one creature's pairs are found by a binary search ([`Awareness::of`]).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Awareness {
    pub pairs: Vec<(Entity, Entity)>,
    /// What the pairs were worked out from: when nothing of it changed (an engaged battle where
    /// no one moves), the same pairs hold.
    looked: Vec<Look>,
}

impl Awareness {
    /// The creatures `who` is aware of.
    pub fn of(&self, who: Entity) -> &[(Entity, Entity)] {
        let start = self.pairs.partition_point(|p| p.0 < who);
        let end = self.pairs.partition_point(|p| p.0 <= who);
        &self.pairs[start..end]
    }
}

/// One creature as awareness sees it: where it is, what its sight was worked out from, whether
/// it hides, and where it heard an enemy.
type Look = (
    Entity,
    GridPos,
    Option<crate::rules::vision::SightKey>,
    bool,
    Option<GridPos>,
);

/// Works out [`Awareness`]: for each creature, the creatures standing on the squares it sees,
/// and those near where it heard an enemy. Unchanged inputs keep the last answer.
pub fn awareness(world: &mut World) {
    let mut q = world.query_filtered::<(
        Entity,
        &Position,
        &Faction,
        &Conditions,
        Option<&Sight>,
        Has<Hiding>,
    ), With<Creature>>();
    // Who heard an enemy this round knows where it is (RULINGS › Faction initiative).
    let heard: Vec<(Entity, GridPos)> = world
        .get_resource::<crate::rules::sound::hearing::HeardThisRound>()
        .map(|h| h.hostile_makers().collect())
        .unwrap_or_default();
    let heard_by = |e: Entity| heard.iter().find(|h| h.0 == e).map(|h| h.1);
    let up: Vec<_> = q
        .iter(world)
        .filter(|c| !is_down(c.3))
        .map(|(e, p, f, _, s, hiding)| (e, p.0, *f, s, heard_by(e), hiding))
        .collect();
    let looked: Vec<Look> = up
        .iter()
        .map(|(e, p, _, s, h, hiding)| (*e, *p, s.and_then(|s| s.key()), *hiding, *h))
        .collect();
    if let Some(last) = world.get_resource::<Awareness>()
        && last.looked == looked
        && !looked.is_empty()
    {
        return;
    }
    let grid = world.resource::<DungeonGrid>();
    let light = world.resource::<LightMap>();
    let factions = world.resource::<Factions>();
    // Who stands where: the first creature on each square, and a chain to the next.
    let mut first = vec![u32::MAX; (grid.width() * grid.height()) as usize];
    let mut next = vec![u32::MAX; up.len()];
    for (i, c) in up.iter().enumerate() {
        if let Some(k) = grid.index(c.1) {
            next[i] = first[k];
            first[k] = i as u32;
        }
    }
    let mut pairs = Vec::new();
    // (creature, on a square it sees) for each creature it might be aware of.
    let mut noticed: Vec<(usize, bool)> = Vec::new();
    for (e, here, f, sight, heard, _) in &up {
        noticed.clear();
        if let Some(sight) = sight {
            for (p, _) in &sight.seen {
                let mut i = grid.index(*p).map_or(u32::MAX, |k| first[k]);
                while i != u32::MAX {
                    noticed.push((i as usize, true));
                    i = next[i as usize];
                }
            }
        }
        if let Some(h) = heard {
            for (i, c) in up.iter().enumerate() {
                if grid.distance_feet(*h, c.1) <= 10 {
                    noticed.push((i, false));
                }
            }
        }
        noticed.sort_by_key(|n| (n.0, !n.1));
        noticed.dedup_by_key(|n| n.0);
        for &(i, on_seen_square) in &noticed {
            let (o, o_at, of, _, _, o_hiding) = &up[i];
            if e == o || !factions.hostile(*f, *of) {
                continue;
            }
            // A hiding creature on a seen square may still go unseen.
            let sees = on_seen_square
                && (!*o_hiding
                    || sight.is_some_and(|s| s.sees_creature(grid, light, *here, *o_at, true)));
            if sees || !on_seen_square {
                pairs.push((*e, *o));
            }
        }
    }
    pairs.sort();
    let mut a = world.resource_mut::<Awareness>();
    a.looked = looked;
    a.pairs = pairs;
}

/// The members of a faction that are up, with their initiative modifiers, by name.
pub fn faction_members(world: &mut World, faction: usize) -> Vec<(String, i32)> {
    let mut q = world.query_filtered::<(
        &Name,
        &Faction,
        &Conditions,
        Option<&Combatant>,
        Option<&Abilities>,
    ), With<Creature>>();
    let mut out: Vec<(String, i32)> = q
        .iter(world)
        .filter(|(_, f, c, ..)| f.0 == faction && !is_down(c))
        .map(|(n, _, _, c, a)| (n.to_string(), initiative_modifier(c, a)))
        .collect();
    out.sort();
    out
}

/// Each round: battles begin when a creature becomes aware of a hostile one, factions join as
/// they become involved, and the battle ends after a full round in which no one was aware of a
/// hostile creature.
pub fn notice_hostiles(world: &mut World) {
    awareness(world);
    let round = world.resource::<Clock>().rounds;
    let pairs = &world.resource::<Awareness>().pairs;
    let none = pairs.is_empty();
    let mut involved: Vec<Entity> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    involved.sort();
    involved.dedup();
    let mut involved: Vec<usize> = involved
        .into_iter()
        .filter_map(|e| world.get::<Faction>(e).map(|f| f.0))
        .collect();
    involved.sort();
    involved.dedup();
    if none {
        if world.resource::<Battle>().active {
            *world.resource_mut::<Battle>() = Battle::default();
            *world.resource_mut::<DelveMode>() = DelveMode::Exploration;
            let mut log = world.resource_mut::<EventLog>();
            log.push(round, CombatEvent::BattleEnded);
            log.push(
                round,
                CombatEvent::ModeChanged {
                    mode: DelveMode::Exploration,
                },
            );
        }
        return;
    }
    let joining: Vec<usize> = {
        let battle = world.resource::<Battle>();
        involved
            .into_iter()
            .filter(|f| battle.result_of(*f).is_none())
            .collect()
    };
    if joining.is_empty() {
        return;
    }
    let mut battle = world.resource::<Battle>().clone();
    let names = world.resource::<Factions>().clone();
    let entries: Vec<super::initiative::Entrant> = joining
        .iter()
        .map(|&f| {
            (
                f,
                names.name(Faction(f)).to_owned(),
                faction_members(world, f),
            )
        })
        .collect();
    let rolls = {
        let mut dice = world.resource_mut::<crate::dice::Dice>();
        roll_initiative(&mut dice, entries)
    };
    let began = !battle.active;
    battle.order.extend(rolls.iter().cloned());
    {
        let mut dice = world.resource_mut::<crate::dice::Dice>();
        super::initiative::roll_off_ties(&mut dice, &mut battle.order);
    }
    if began {
        battle.active = true;
        battle.began = round;
        // RULINGS › Time: actions that take a turn are interrupted by an encounter.
        let mut busy = world.query_filtered::<(Entity, &Faction), Or<(
            With<crate::rules::task::Task>,
            With<crate::creature::Resting>,
        )>>();
        let busy: Vec<Entity> = busy
            .iter(world)
            .filter(|(_, f)| battle.result_of(f.0).is_some())
            .map(|(e, _)| e)
            .collect();
        for e in busy {
            world
                .entity_mut(e)
                .remove::<crate::rules::task::Task>()
                .remove::<crate::creature::Resting>();
        }
        *world.resource_mut::<DelveMode>() = DelveMode::Encounter;
    }
    let order = battle.order.clone();
    *world.resource_mut::<Battle>() = battle;
    let mut log = world.resource_mut::<EventLog>();
    if began {
        log.push(
            round,
            CombatEvent::ModeChanged {
                mode: DelveMode::Encounter,
            },
        );
    }
    for r in rolls {
        log.push(round, CombatEvent::Initiative { roll: r });
    }
    let order: Vec<String> = order.iter().map(|f| f.name.clone()).collect();
    log.push(round, CombatEvent::ActingOrder { order });
}

/// The faction whose turn it is in the battle, if any.
fn turn_of(world: &World) -> Option<usize> {
    world.resource::<crate::creature::ActingOrder>().turn
}

/// RULINGS › The battle round: the start of a faction's turn. A forgone shield returns at the
/// start of its bearer's faction's next turn (Tactical Combat › Shields); outside a battle, at
/// the start of the next round.
pub fn begin_turn(world: &mut World, forgone: &mut QueryState<Forgone>) {
    let turn = turn_of(world);
    let mut battle = world.resource_mut::<Battle>();
    battle.acting = turn;
    battle.struck_first.clear();
    if let Some(f) = turn {
        let faction = world.resource::<Factions>().name(Faction(f)).to_owned();
        log_in(world, CombatEvent::TurnBegan { faction });
    }
    shields_return(world, forgone);
}

/// A shield forgone, and whose it is.
type Forgone<'a> = (Entity, &'a ShieldForgone, Option<&'a Faction>);

/// Shields forgone before this turn (or, outside a battle, this round) return to their bearers.
pub fn shields_return(world: &mut World, forgone: &mut QueryState<Forgone>) {
    let round = world.resource::<Clock>().rounds;
    let acting = world.resource::<crate::creature::ActingOrder>();
    let back: Vec<Entity> = forgone
        .iter(world)
        .filter(|(_, f, faction)| f.round < round && acting.acts_now(faction.copied()))
        .map(|(e, ..)| e)
        .collect();
    for e in back {
        world.entity_mut(e).remove::<ShieldForgone>();
    }
}

/// A creature with an attack order, as the battle sees it.
type Attacker<'a> = (
    Entity,
    &'a Name,
    &'a Faction,
    &'a AttackOrder,
    &'a Conditions,
    Option<&'a Combatant>,
    Has<Controlled>,
    Option<&'a ActionTaken>,
);

/// Members of the acting faction with an attack order, by name: those that may attack now (not
/// fleeing once bloodied, not having taken their action this round). RULINGS › The battle round:
/// one that cannot act (down, stuck, drowning, crawling a traverse: a hold, `rules::acting`)
/// makes no attack; its order lapses, and the log says why.
fn attackers(
    world: &mut World,
    q: &mut QueryState<Attacker>,
    faction: usize,
) -> Vec<(String, Entity, AttackOrder)> {
    let round = world.resource::<Clock>().rounds;
    let mut attackers: Vec<(String, Entity, AttackOrder)> = q
        .iter(world)
        .filter(|(_, _, f, _, c, k, controlled, taken)| {
            // One that flees once bloodied strikes no more (the fighting behaviour).
            let fleeing = !controlled
                && c.has(ConditionKind::Bloodied)
                && k.is_some_and(|k| k.flees_when_bloodied);
            f.0 == faction && !fleeing && !ActionTaken::this_round(*taken, round)
        })
        .map(|(e, n, _, o, ..)| (n.to_string(), e, *o))
        .collect();
    attackers.sort_by(|a, b| a.0.cmp(&b.0));
    let mut free = Vec::with_capacity(attackers.len());
    for (name, who, order) in attackers {
        match crate::rules::acting::held(world, who) {
            Some(hold) => lapse(world, who, order, hold.into()),
            None => free.push((name, who, order)),
        }
    }
    free
}

/// An attack order lapses, and the log says why (the behaviour or the player gives a new one).
fn lapse(world: &mut World, who: Entity, order: AttackOrder, reason: Refusal) {
    world.entity_mut(who).remove::<AttackOrder>();
    let name = crate::creature::name_of(world, who);
    let target = crate::creature::name_of(world, order.target);
    log_in(
        world,
        CombatEvent::AttackOrderLapsed {
            who: name,
            target,
            reason,
        },
    );
}

/// Carries out one attack order; an order whose target cannot be attacked lapses.
fn attack_as_ordered(world: &mut World, who: Entity, order: AttackOrder) {
    if let Err(why) = attack(world, who, order.target, order.weapon) {
        lapse(world, who, order, why.into());
    }
}

/// Situational Penalties › Penalty to ranged attacks from movement: "if the character performs
/// the ranged attack first, then moves, they can only move within their reach". A member of the
/// acting faction with both an attack order and a walk under way, whose target it can attack
/// before moving, attacks first; then it moves no more than its reach (15', RULINGS › Units).
pub fn attacks_first(world: &mut World, q: &mut QueryState<Attacker>) {
    let Some(faction) = turn_of(world) else {
        return;
    };
    let round = world.resource::<Clock>().rounds;
    for (_, who, order) in attackers(world, q, faction) {
        if world.get::<crate::rules::movement::Walking>(who).is_none()
            || can_attack(world, who, order.target, order.weapon).is_err()
        {
            continue;
        }
        attack_as_ordered(world, who, order);
        // Staggered, it may not move at all once it has attacked.
        let staggered = world
            .get::<Conditions>(who)
            .is_some_and(|c| c.has(ConditionKind::Staggered));
        let feet = if staggered {
            0
        } else {
            crate::rules::penalties::REACH_FEET as u32
        };
        world
            .entity_mut(who)
            .insert(crate::rules::movement::MoveLimit { round, feet });
        world.resource_mut::<Battle>().struck_first.push(who);
    }
}

/// RULINGS › The battle round: after its members have moved, each member of the acting faction
/// with an attack order (that has not attacked first) attacks.
pub fn faction_attacks(world: &mut World, q: &mut QueryState<Attacker>) {
    let Some(faction) = turn_of(world) else {
        return;
    };
    let struck = world.resource::<Battle>().struck_first.clone();
    for (_, who, order) in attackers(world, q, faction) {
        if !struck.contains(&who) {
            attack_as_ordered(world, who, order);
        }
    }
    let mut b = world.resource_mut::<Battle>();
    if !b.acted.contains(&faction) {
        b.acted.push(faction);
    }
    b.acting = None;
}

/// The squares strictly between two squares on a straight line (Bresenham).
fn between(a: GridPos, b: GridPos) -> Vec<GridPos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y, mut err) = (a.x, a.y, dx + dy);
    let mut out = Vec::new();
    while (x, y) != (b.x, b.y) {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        if (x, y) != (b.x, b.y) {
            out.push(GridPos::new(x, y));
        }
    }
    out
}

/// Range increments at `feet` for a missile weapon of `increment` feet: 1 within the first.
pub fn range_increment(feet: u32, increment: u32) -> u32 {
    feet.div_ceil(increment.max(1)).max(1)
}

/// The most range increments a missile reaches (a ruling after the d20 convention).
pub const MAX_RANGE_INCREMENTS: u32 = 10;

/// Everything an attack needs to know about one side.
struct Side {
    name: String,
    at: GridPos,
    faction: usize,
    conditions: Conditions,
    combatant: Combatant,
    dex_modifier: i32,
}

fn side(world: &World, e: Entity) -> Option<Side> {
    Some(Side {
        name: crate::creature::name_of(world, e),
        at: world.get::<Position>(e)?.0,
        faction: world.get::<Faction>(e)?.0,
        conditions: world.get::<Conditions>(e).cloned().unwrap_or_default(),
        combatant: world.get::<Combatant>(e)?.clone(),
        dex_modifier: crate::rules::abilities::tactical_modifier(
            world.get::<Abilities>(e).map_or(10, |a| a.0.dex),
        ),
    })
}

/// Whether the attacker could attack the target with the weapon now, and at what range
/// increment (1 for melee).
pub fn can_attack(
    world: &World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Result<u32, AttackRefusal> {
    let (Some(a_at), Some(a_cond), Some(c)) = (
        world.get::<Position>(who),
        world.get::<Conditions>(who),
        world.get::<Combatant>(who),
    ) else {
        return Err(AttackRefusal::CannotFight);
    };
    let (Some(t_at), Some(t_cond)) = (
        world.get::<Position>(target),
        world.get::<Conditions>(target),
    ) else {
        return Err(AttackRefusal::NotAFoe);
    };
    let (a_at, t_at) = (a_at.0, t_at.0);
    let target = || crate::creature::name_of(world, target);
    if is_down(a_cond) {
        return Err(AttackRefusal::Down);
    }
    // RULINGS › Conditions …: a staggered creature may move or attack in a round, not both.
    if a_cond.has(ConditionKind::Staggered)
        && world
            .get::<crate::rules::movement::MovedThisRound>(who)
            .is_some_and(|m| m.feet > 0)
    {
        return Err(AttackRefusal::StaggeredMoved);
    }
    if is_down(t_cond) {
        return Err(AttackRefusal::TargetDown { target: target() });
    }
    let w = c.weapons.get(weapon).ok_or(AttackRefusal::NoSuchWeapon)?;
    let weapon = || w.name.clone();
    if world.get::<Jammed>(who).is_some() && matches!(w.kind, Some(WeaponKind::Firearm { .. })) {
        return Err(AttackRefusal::Jammed { weapon: weapon() });
    }
    let adjacent = a_at.is_adjacent(t_at);
    match w.range_feet {
        None if adjacent => Ok(1),
        None => Err(AttackRefusal::OutOfReach {
            target: target(),
            weapon: weapon(),
        }),
        Some(increment) => {
            if !crate::rules::vision::missile_attack_allowed(a_cond) {
                return Err(AttackRefusal::BlindedMissile);
            }
            let grid = world.resource::<DungeonGrid>();
            if !crate::grid::los::line_of_sight(grid, a_at, t_at) {
                return Err(AttackRefusal::NoLineOfSight { target: target() });
            }
            let line = between(a_at, t_at);
            let in_the_way = world
                .try_query::<(&Position, &Conditions)>()
                .is_some_and(|mut q| {
                    q.iter(world)
                        .any(|(p, c)| !is_down(c) && line.contains(&p.0))
                });
            if in_the_way {
                return Err(AttackRefusal::InTheWay { target: target() });
            }
            let feet = grid.distance_feet(a_at, t_at);
            let n = range_increment(feet, increment);
            if n > MAX_RANGE_INCREMENTS {
                return Err(AttackRefusal::BeyondRange {
                    target: target(),
                    weapon: weapon(),
                });
            }
            Ok(n)
        }
    }
}

/// The armor class an attack must beat, and the attacker-side modifiers that stand for the
/// target's condition (so the log shows each).
fn defence(
    world: &World,
    a: &Side,
    t: &Side,
    target: Entity,
    w: &WeaponDef,
    increment: u32,
) -> (i32, Vec<Modifier>) {
    let rules = *world.resource::<TacticalCombat>();
    let base = world.get::<ArmorClass>(target).map_or(10, |ac| ac.0);
    let shield = t.combatant.shield.as_ref().filter(|_| {
        world
            .get::<ShieldState>(target)
            .is_none_or(|s| !s.destroyed)
    });
    let shield_bonus = shield.map_or(0, |s| s.ac_bonus);
    let mut mods = Vec::new();
    // Its stat block's AC counts the shield: one forgone, or destroyed, no longer does.
    let forgone = rules.shields && world.get::<ShieldForgone>(target).is_some();
    let destroyed = t.combatant.shield.is_some() && shield.is_none();
    if let Some(s) = t.combatant.shield.as_ref()
        && (forgone || destroyed)
    {
        mods.push(Modifier::new(
            s.ac_bonus,
            format!(
                "{} without its shield ({})",
                t.name,
                if destroyed { "destroyed" } else { "forgone" }
            ),
        ));
    }
    let shield = shield.filter(|_| !forgone);
    let mut ac = base;
    // Shields › firearms within their first increment go against touch AC + shield.
    if let Some(WeaponKind::Firearm { .. }) = w.kind
        && increment == 1
    {
        let armor = t
            .combatant
            .armor
            .as_ref()
            .map_or(0, |a| a.ac_bonus + a.enhancement);
        let touch = t.combatant.touch_ac.unwrap_or(base - armor - shield_bonus);
        ac = touch + if rules.shields { shield_bonus } else { 0 };
    }
    if t.conditions.has(ConditionKind::Disordered) {
        mods.push(Modifier::new(2, format!("{} disordered (-2 AC)", t.name)));
    }
    if rules.faction_initiative {
        let battle = world.resource::<Battle>();
        if let (Some(mine), Some(theirs)) =
            (battle.result_of(a.faction), battle.result_of(t.faction))
            && flat_footed_against(theirs, mine, battle.acted.contains(&t.faction))
            && t.dex_modifier > 0
        {
            mods.push(Modifier::new(
                t.dex_modifier,
                format!("{} flat-footed (no Dex bonus)", t.name),
            ));
        }
    }
    let round = world.resource::<Clock>().rounds;
    let defending = |e: Entity| {
        world
            .get::<TotalDefense>(e)
            .is_some_and(|d| d.round == round)
    };
    if defending(target) {
        mods.push(Modifier::new(
            -TOTAL_DEFENSE_AC,
            format!("{} in total defense", t.name),
        ));
    }
    // Shield walls: +1 per adjacent ally with a heavy shield, for a heavy-shield bearer;
    // doubled when the whole wall takes total defense.
    if rules.shields
        && shield.is_some_and(|s| s.weight == ShieldWeight::Heavy)
        && let Some(mut q) =
            world.try_query::<(Entity, &Position, &Faction, &Combatant, &Conditions)>()
    {
        let wall: Vec<Entity> = q
            .iter(world)
            .filter(|(e, p, f, c, cond)| {
                *e != target
                    && f.0 == t.faction
                    && !is_down(cond)
                    && p.0.is_adjacent(t.at)
                    && c.shield
                        .as_ref()
                        .is_some_and(|s| s.weight == ShieldWeight::Heavy)
            })
            .map(|(e, ..)| e)
            .collect();
        let all_defend = defending(target) && wall.iter().all(|&e| defending(e));
        let bonus = tactical::shield_wall_bonus(wall.len() as u32, all_defend);
        if bonus > 0 {
            mods.push(Modifier::new(
                -bonus,
                format!(
                    "{} in a shield wall{}",
                    t.name,
                    if all_defend { " (total defense)" } else { "" }
                ),
            ));
        }
    }
    (ac, mods)
}

/// The AC an attack must reach and the attacker's modifiers, each with its source: attack
/// bonus, the situational penalties, how it sees the target's square (lightless vision sees
/// darkness as dim; an unseen square is dark; blindness and poor vision do not stack),
/// bloodied, range, and the target's condition. The natural 20 comes with the roll.
fn attack_modifiers(
    world: &World,
    (who, a): (Entity, &Side),
    (target, t): (Entity, &Side),
    w: &WeaponDef,
    increment: u32,
) -> Result<(i32, Vec<Modifier>), AttackRefusal> {
    let melee = w.range_feet.is_none();
    let mut mods = vec![Modifier::new(a.combatant.attack_bonus, "attack bonus")];
    let kind = if melee {
        CheckKind::Action
    } else {
        CheckKind::RangedAttack
    };
    mods.extend(penalties_for(world, who, kind).map_err(AttackRefusal::Moved)?);
    let blinded = melee && a.conditions.has(ConditionKind::Blinded);
    mods.extend(crate::rules::penalties::sight_penalties(
        world, who, t.at, blinded,
    ));
    if increment > 1 {
        mods.push(Modifier::new(
            -2 * (increment as i32 - 1),
            format!("range increment {increment}"),
        ));
    }
    // RULINGS › Conditions …: attack throws against a vulnerable creature gain +2 (a Judge
    // modifier).
    if t.conditions.has(ConditionKind::Vulnerable)
        && let Some(m) = crate::rules::calls::judge_modifier(
            world,
            crate::level::schema::JudgeModifier::Vulnerable,
            Some(t.at),
            &[target],
        )
    {
        mods.push(Modifier::new(m.value, format!("{} vulnerable", t.name)));
    }
    let (ac, ac_mods) = defence(world, a, t, target, w, increment);
    mods.extend(ac_mods);
    Ok((ac, mods))
}

/// `WaitForOrders`: in a battle the party's members wait for their player's orders (`on`), or
/// fight by themselves like every other creature (`off`).
pub fn wait_for_orders(world: &mut World, party: &str, on: bool) -> Result<(), Refusal> {
    let members = world
        .resource::<crate::rules::party::Parties>()
        .get(party)
        .map(|p| p.marching_order.clone())
        .ok_or_else(|| Unable::NoParty {
            name: party.to_owned(),
        })?;
    for e in members {
        if on {
            world.entity_mut(e).insert(Controlled);
        } else {
            world.entity_mut(e).remove::<Controlled>();
        }
    }
    Ok(())
}

/// One attack, logged with every modifier: hit or miss, damage, and what follows.
pub fn attack(
    world: &mut World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Result<(), AttackRefusal> {
    strike(world, who, target, weapon, None)
}

/// An attack; `opportunity` makes it an attack of opportunity with these extra modifiers,
/// against a creature that was next to the attacker when it provoked.
pub fn strike(
    world: &mut World,
    who: Entity,
    target: Entity,
    weapon: usize,
    opportunity: Option<Vec<Modifier>>,
) -> Result<(), AttackRefusal> {
    let increment = match &opportunity {
        None => can_attack(world, who, target, weapon)?,
        Some(_) => {
            let down = |e: Entity| world.get::<Conditions>(e).is_none_or(is_down);
            if down(who) || down(target) {
                return Err(AttackRefusal::Down);
            }
            1
        }
    };
    let rules = *world.resource::<TacticalCombat>();
    let a = side(world, who).ok_or(AttackRefusal::CannotFight)?;
    let t = side(world, target).ok_or(AttackRefusal::NotAFoe)?;
    let w = a
        .combatant
        .weapons
        .get(weapon)
        .ok_or(AttackRefusal::NoSuchWeapon)?
        .clone();
    let opportunist = opportunity.is_some();
    let (ac, mut mods) = attack_modifiers(world, (who, &a), (target, &t), &w, increment)?;
    mods.splice(
        1..1,
        opportunity.into_iter().flatten().filter(|m| m.value != 0),
    );
    let what = if opportunist {
        format!(
            "{} attacks {} with {} (attack of opportunity)",
            a.name, t.name, w.name
        )
    } else {
        format!("{} attacks {} with {}", a.name, t.name, w.name)
    };
    let thrower = Thrower::new(&a.name, &a.conditions, Some(&rules));
    let kind = ThrowKind::Attack {
        ranged: w.range_feet.is_some(),
    };
    let mut throw = world.resource_scope(|_, mut dice: Mut<crate::dice::Dice>| {
        throws::throw(&mut dice, &thrower, kind, what, mods.clone(), ac)
    });
    let natural = throw.natural;
    let mut note = (natural == 1).then_some(AttackNote::NaturalOne);
    if rules.firearm_misfires
        && let Some(WeaponKind::Firearm { misfire, advanced }) = w.kind
        && natural <= misfire
    {
        throw.success = false;
        if advanced {
            world.entity_mut(who).insert(Jammed);
        }
        note = Some(AttackNote::Misfire {
            weapon: w.name.clone(),
            jammed: advanced,
        });
    }
    let round = world.resource::<Clock>().rounds;
    // Fighting is loud (RULINGS › Noise and hearing).
    let _ = crate::rules::sound::hearing::creature_noise(
        world,
        who,
        crate::rules::sound::NoisyAction::Fighting,
    );
    if !throw.success {
        world.resource_mut::<EventLog>().push(
            round,
            CombatEvent::Attacked {
                who: a.name,
                target: t.name,
                throw,
                confirmation: None,
                note,
                damage: None,
            },
        );
        return Ok(());
    }
    // A threat is confirmed by a second throw that would hit.
    let mut critical = false;
    let mut confirmation = None;
    if rules.critical_hits && natural >= w.critical.threat {
        let confirmed = world.resource_scope(|_, mut dice: Mut<crate::dice::Dice>| {
            throws::throw(
                &mut dice,
                &thrower,
                kind,
                "confirming the critical",
                mods,
                ac,
            )
        });
        let confirm = confirmed.natural;
        critical = confirmed.success && confirm != 1;
        confirmation = Some(confirmed);
        // Shields › a shield may be sacrificed to turn a critical into a normal hit: the
        // defender does so when the critical could put it down.
        if critical && rules.shields && t.combatant.shield.is_some() {
            let hp = world.get::<HitPoints>(target).map_or(0, |h| h.current);
            let most =
                (w.damage.count * w.damage.sides * w.critical.multiplier) as i32 + w.damage.bonus;
            let state = world
                .get::<ShieldState>(target)
                .copied()
                .unwrap_or_default();
            if most >= hp && !state.destroyed {
                let now = ShieldState {
                    broken: true,
                    destroyed: state.broken,
                };
                world.entity_mut(target).insert(now);
                critical = false;
                note = Some(AttackNote::ShieldSacrificed {
                    who: t.name.clone(),
                    destroyed: now.destroyed,
                });
            }
        }
    }
    let active = world
        .get::<ActiveEnchantments>(who)
        .is_some_and(|a| a.0.contains(&weapon));
    let damage = roll_damage(world, &w, critical, &t, increment, rules, active);
    world.resource_mut::<EventLog>().push(
        round,
        CombatEvent::Attacked {
            who: a.name.clone(),
            target: t.name.clone(),
            throw,
            confirmation,
            note,
            damage: Some(damage.clone()),
        },
    );
    crate::rules::damage::take_damage(world, target, damage.total);
    if world.get::<Conditions>(target).is_some_and(is_down) {
        world.entity_mut(target).remove::<AttackOrder>();
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn roll_damage(
    world: &mut World,
    w: &WeaponDef,
    critical: bool,
    t: &Side,
    increment: u32,
    rules: TacticalCombat,
    active: bool,
) -> Damage {
    let (dice, raw) = if critical {
        let n = tactical::critical_extra_dice(&w.damage, w.critical.multiplier);
        let extra: Vec<u32> = {
            let mut d = world.resource_mut::<crate::dice::Dice>();
            (0..n).map(|_| d.roll(w.damage.sides)).collect()
        };
        let total = tactical::weapon_critical(&w.damage, &extra);
        (extra, total)
    } else {
        let r = world
            .resource_mut::<crate::dice::Dice>()
            .roll_expr(&w.damage);
        (r.dice, r.total)
    };
    let bypass = increment == 1
        && matches!(
            w.kind,
            Some(WeaponKind::Crossbow | WeaponKind::Firearm { .. })
        );
    let reduced_by = if rules.armor_as_damage_reduction && !bypass {
        let worn: Vec<&crate::level::schema::RawArmor> = t.combatant.armor.iter().collect();
        tactical::worn_dr(&worn, w.damage_type).min(raw.max(0))
    } else {
        0
    };
    let mut total = (raw - reduced_by).max(0);
    let enchantment = match &w.enchantment {
        Some((name, extra)) if active => {
            let r = world.resource_mut::<crate::dice::Dice>().roll_expr(extra);
            total += r.total.max(0);
            Some((name.clone(), r.dice))
        }
        _ => None,
    };
    Damage {
        dice,
        bonus: w.damage.bonus,
        critical,
        reduced_by,
        enchantment,
        total,
    }
}

/// Weapons whose enchantment is active (by index in the creature's weapons).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActiveEnchantments(pub Vec<usize>);

/// Activating Weapon Enchantments: a move action for one with a base attack bonus of at least
/// 1 and a rank in Use Magic Device; otherwise a standard action.
pub fn activation_is_a_move_action(base_attack_bonus: i32, use_magic_device: bool) -> bool {
    base_attack_bonus >= 1 && use_magic_device
}

/// `ActivateEnchantment`: turns a weapon's enchantment on. As a move action the creature stops
/// walking this round; as a standard action it does not attack this round.
pub fn activate_enchantment(world: &mut World, who: Entity, weapon: &str) -> Result<(), Refusal> {
    let c = world.get::<Combatant>(who).ok_or(CombatRefusal::NoWeapon)?;
    let i = c
        .weapons
        .iter()
        .position(|w| w.name == weapon)
        .ok_or_else(|| CombatRefusal::NoWeaponNamed {
            weapon: weapon.to_owned(),
            has: c.weapons.iter().map(|w| w.name.clone()).collect(),
        })?;
    let (enchantment, _) =
        c.weapons[i]
            .enchantment
            .clone()
            .ok_or_else(|| CombatRefusal::NoEnchantment {
                weapon: weapon.to_owned(),
            })?;
    // The stat block's attack bonus stands for its base attack bonus.
    let bab = c.attack_bonus;
    let umd = world
        .get::<crate::creature::Proficiencies>(who)
        .is_some_and(|p| p.has(crate::level::schema::Proficiency::UseMagicDevice));
    let mut active = world
        .get::<ActiveEnchantments>(who)
        .cloned()
        .unwrap_or_default();
    if active.0.contains(&i) {
        return Err(CombatRefusal::EnchantmentActive {
            weapon: weapon.to_owned(),
            enchantment,
        }
        .into());
    }
    active.0.push(i);
    let round = world.resource::<Clock>().rounds;
    let move_action = activation_is_a_move_action(bab, umd);
    let mut e = world.entity_mut(who);
    e.insert(active);
    if move_action {
        e.remove::<crate::rules::movement::Walking>();
    } else {
        e.insert(ActionTaken { round });
    }
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        CombatEvent::EnchantmentActivated {
            who,
            weapon: weapon.to_owned(),
            enchantment,
            move_action,
        },
    );
    Ok(())
}

/// `Attack`: a standing order to attack a creature with a weapon (by name, or the first that
/// can reach), carried out in the faction's turn.
pub fn order_attack(
    world: &mut World,
    who: Entity,
    target: Entity,
    weapon: Option<&str>,
) -> Result<(), Refusal> {
    let c = world
        .get::<Combatant>(who)
        .ok_or(AttackRefusal::CannotFight)?;
    let weapons = c.weapons.clone();
    if weapons.is_empty() {
        return Err(CombatRefusal::NoWeapon.into());
    }
    let index = match weapon {
        Some(name) => weapons.iter().position(|w| w.name == name).ok_or_else(|| {
            CombatRefusal::NoWeaponNamed {
                weapon: name.to_owned(),
                has: weapons.iter().map(|w| w.name.clone()).collect(),
            }
        })?,
        None => (0..weapons.len())
            .find(|&i| can_attack(world, who, target, i).is_ok())
            .unwrap_or(0),
    };
    world.entity_mut(who).insert(AttackOrder {
        target,
        weapon: index,
    });
    let (who, target) = (
        crate::creature::name_of(world, who),
        crate::creature::name_of(world, target),
    );
    let weapon = weapons[index].name.clone();
    log_in(
        world,
        CombatEvent::AttackOrdered {
            who,
            target,
            weapon,
        },
    );
    Ok(())
}

/// The chance that an attack hits now, for the window's targeting: (chance, net target on the
/// d20), from the same modifiers the attack would use, counted as the throw resolves.
pub fn chance_to_hit(
    world: &World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Option<(f32, i32)> {
    let increment = can_attack(world, who, target, weapon).ok()?;
    let a = side(world, who)?;
    let t = side(world, target)?;
    let w = a.combatant.weapons.get(weapon)?.clone();
    let (ac, mods) = attack_modifiers(world, (who, &a), (target, &t), &w, increment).ok()?;
    // Counted face by face as the attack throw resolves (bloodied, natural 20 and 1).
    let rules = world.resource::<TacticalCombat>();
    let thrower = Thrower::new(&a.name, &a.conditions, Some(rules));
    let kind = ThrowKind::Attack {
        ranged: w.range_feet.is_some(),
    };
    let (need, chance) = throws::chance(&thrower, kind, &mods, ac);
    Some((chance, need))
}

/// Tells the core rules which factions are fighting, in the order they act
/// ([`ActingOrder`](crate::creature::ActingOrder)), as the round begins.
pub fn publish_acting_order(battle: Res<Battle>, mut acting: ResMut<crate::creature::ActingOrder>) {
    let now = battle.order.iter().map(|r| r.faction);
    if !acting.order.iter().copied().eq(now.clone()) {
        acting.order = now.collect();
    }
}

/// The Tactical Combat module switched on (afresh: no battle yet, every tactical rule on) or off
/// (its state taken away: a battle under way ends without a word).
fn switch_tactical_combat(world: &mut World, on: bool) {
    if on {
        if !world.contains_resource::<Battle>() {
            world.insert_resource(Battle::default());
            world.insert_resource(Awareness::default());
            world.insert_resource(super::opportunity::Provoked::default());
            world.insert_resource(TacticalCombat::default());
        }
    } else {
        world.remove_resource::<Battle>();
        world.remove_resource::<Awareness>();
        world.remove_resource::<super::opportunity::Provoked>();
        world.remove_resource::<TacticalCombat>();
        world.insert_resource(crate::creature::ActingOrder::default());
    }
}

pub struct BattlePlugin;

impl Plugin for BattlePlugin {
    /// The module's systems run while its state is in the world: the level's `modules` and the
    /// Judge's switch put it there or take it away (`rules::modules::switch_module`).
    fn build(&self, app: &mut App) {
        use crate::rules::areas::RuleArea;
        app.installs_creature(|world, e, c| {
            world.entity_mut(e).insert(Combatant {
                attack_bonus: c.attack_bonus,
                initiative_modifier: c.initiative_modifier,
                weapons: c.weapons.clone(),
                armor: c.armor.clone(),
                shield: c.shield.clone(),
                fortitude: c.fortitude,
                touch_ac: c.touch_ac,
                mythic: c.mythic,
                flees_when_bloodied: c.flees_when_bloodied,
            });
        });
        crate::rules::modules::ModuleRules::switches(
            app,
            crate::rules::modules::RuleModule::TacticalCombat,
            switch_tactical_combat,
        );
        app.init_resource::<Battle>()
            .init_resource::<Awareness>()
            .init_resource::<crate::creature::ActingOrder>()
            .init_resource::<super::opportunity::Provoked>()
            .init_resource::<TacticalCombat>()
            .add_systems(
                crate::schedule::SimRound,
                (notice_hostiles, super::opportunity::opportunity_attacks)
                    .chain()
                    .in_set(crate::schedule::RoundSet::Combat)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                crate::schedule::SimRound,
                publish_acting_order
                    .in_set(crate::schedule::RoundSet::ActingOrder)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                crate::schedule::SimRound,
                (super::opportunity::ready_opportunities, shields_return)
                    .chain()
                    .in_set(crate::schedule::RoundSet::Readiness)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                crate::schedule::FactionTurn,
                (
                    begin_turn.in_set(TurnSet::BeginTurn),
                    super::behaviour::fighting_behaviour.in_set(TurnSet::Minds),
                    attacks_first.in_set(TurnSet::AttacksFirst),
                    (super::opportunity::opportunity_attacks, faction_attacks)
                        .chain()
                        .in_set(TurnSet::Attacks),
                )
                    .run_if(resource_exists::<Battle>),
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_increments() {
        assert_eq!(range_increment(30, 50), 1);
        assert_eq!(range_increment(50, 50), 1);
        assert_eq!(range_increment(55, 50), 2);
        assert_eq!(range_increment(0, 50), 1);
    }

    #[test]
    fn the_line_between_two_squares() {
        assert_eq!(
            between(GridPos::new(0, 0), GridPos::new(3, 0)),
            vec![GridPos::new(1, 0), GridPos::new(2, 0)]
        );
        assert!(between(GridPos::new(0, 0), GridPos::new(1, 1)).is_empty());
    }
}
