//! Battles: when they begin and end, factions' initiatives, and the attack orders carried out in
//! them. How an attack resolves is `attack`; the gear of a fight (shields, jams, total defense,
//! enchantments) is `gear`; both are re-exported here.
//!
//! RULINGS › Faction initiative: a battle begins when a creature becomes aware of a hostile one
//! (it sees it, or hears it and so knows where it is); the simulation switches to encounter
//! mode and the factions involved roll initiative; a faction that joins later rolls then and
//! takes its place in the order. It ends when no hostile creature has been aware of another for
//! a full round. Each round, factions act from the highest result to the lowest: each member
//! with an attack order attacks (RULINGS › The battle round: one that cannot act makes none).

use crate::creature::{ActingOrder, Resting};
use crate::rules::areas::Rank;
use crate::rules::combat::gear::{ActiveEnchantments, Jammed, ShieldSacrifice, ShieldState};
use crate::rules::combat::opportunity::{Disengaging, OpportunitiesTaken, Provoked};
use crate::rules::modules::{ModuleRules, RuleModule};
use crate::rules::movement::Walking;
use crate::rules::party::Parties;
use crate::rules::sound::hearing::HeardThisRound;
use crate::rules::task::Task;
use crate::rules::vision::SightKey;
use crate::schedule::{FactionInitiative, RoundSet, SimRound};
use delve_ground::dice::Dice;

use super::attack::{attack, can_attack};
use super::events::CombatEvent;
use super::gear::{ShieldForgone, TotalDefense};
use super::refusals::{AttackRefusal, CombatRefusal};
use crate::act::{Refusal, Unable};
use crate::rules::acting::ActionTaken;
use bevy::prelude::*;
use delve_ground::log::log_in;

use super::initiative::{FactionRoll, roll_initiative};
use crate::creature::{Abilities, Combatant, Conditions, Creature, Faction, Factions, Position};
use crate::rules::light::LightMap;
use crate::rules::tactical::TacticalCombat;
use crate::rules::vision::{Hiding, Sight};
use crate::schedule::InitiativeSet;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::time::{Clock, DelveMode};

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
    /// The faction whose initiative it is.
    pub acting: Option<usize>,
    /// Those of the acting faction that attacked before moving this turn.
    pub struck_first: Vec<Entity>,
    /// Factions surprised as the battle began (RULINGS › Surprise): they do nothing in its first
    /// round and are flat-footed to every attack in it.
    pub surprised: Vec<usize>,
}

impl Battle {
    /// A faction's initiative result, if it is in the battle.
    pub fn result_of(&self, faction: usize) -> Option<i32> {
        self.order
            .iter()
            .find(|f| f.faction == faction)
            .map(|f| f.result)
    }

    /// The battle's first round, after the round it began in: a surprised faction's lost one.
    pub fn first_round(&self) -> u64 {
        self.began + 1
    }

    /// Is the faction surprised in this round?
    pub fn surprised_in(&self, faction: usize, round: u64) -> bool {
        round == self.first_round() && self.surprised.contains(&faction)
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

use crate::rules::conditions::is_down;

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
#[derive(Resource, Clone, Default, PartialEq, Eq)]
pub struct Awareness {
    pub pairs: Vec<(Entity, Entity)>,
    /// What the pairs were worked out from: when nothing of it changed (an engaged battle where
    /// no one moves), the same pairs hold.
    looked: Vec<Look>,
}

/// The pairs; what they were worked out from is a cache (`crate::state::differences`
/// compares worlds by it).
impl std::fmt::Debug for Awareness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Awareness")
            .field("pairs", &self.pairs)
            .finish_non_exhaustive()
    }
}

impl Awareness {
    /// The creatures `who` is aware of.
    #[inline]
    pub fn of(&self, who: Entity) -> &[(Entity, Entity)] {
        let start = self.pairs.partition_point(|p| p.0 < who);
        let end = self.pairs.partition_point(|p| p.0 <= who);
        &self.pairs[start..end]
    }
}

/// One creature as awareness sees it: where it is, what its sight was worked out from, whether
/// it hides, and where it heard an enemy.
type Look = (Entity, GridPos, Option<SightKey>, bool, Option<GridPos>);

/// Works out [`Awareness`]: for each creature, the creatures standing on the squares it sees,
/// and those near where it heard an enemy. Unchanged inputs keep the last answer.
pub fn awareness(world: &mut World) {
    type Creatures = QueryState<
        (
            Entity,
            &'static Position,
            &'static Faction,
            &'static Conditions,
            Option<&'static Sight>,
            Has<Hiding>,
        ),
        With<Creature>,
    >;
    let worked_out = delve_ground::query_cache::cached_query(world, |world, q: &mut Creatures| {
        // Who heard an enemy this round knows where it is (RULINGS › Faction initiative).
        let heard: Vec<(Entity, GridPos)> = world
            .get_resource::<HeardThisRound>()
            .map(|h| h.hostile_makers().collect())
            .unwrap_or_default();
        let heard_by = |e: Entity| heard.iter().find(|h| h.0 == e).map(|h| h.1);
        let mut up: Vec<_> = q
            .iter(world)
            .filter(|c| !is_down(c.3))
            .map(|(e, p, f, _, s, hiding)| (e, p.0, *f, s, heard_by(e), hiding))
            .collect();
        // In entity order, whatever order the world stores them in.
        up.sort_unstable_by_key(|c| c.0);
        let looked: Vec<Look> = up
            .iter()
            .map(|(e, p, _, s, h, hiding)| (*e, *p, s.and_then(|s| s.key()), *hiding, *h))
            .collect();
        if let Some(last) = world.get_resource::<Awareness>()
            && last.looked == looked
            && !looked.is_empty()
        {
            return None;
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
        Some((looked, pairs))
    });
    if let Some((looked, pairs)) = worked_out {
        let mut a = world.resource_mut::<Awareness>();
        a.looked = looked;
        a.pairs = pairs;
    }
}

/// The members of a faction that are up, with their initiative modifiers, by name.
pub fn faction_members(world: &mut World, faction: usize) -> Vec<(String, i32)> {
    type Members<'w, 's> = Query<
        'w,
        's,
        (
            &'static Name,
            &'static Faction,
            &'static Conditions,
            Option<&'static Combatant>,
            Option<&'static Abilities>,
        ),
        With<Creature>,
    >;
    let mut out: Vec<(String, i32)> = delve_ground::query_cache::read_query(world, |q: Members| {
        q.iter()
            .filter(|(_, f, c, ..)| f.0 == faction && !is_down(c))
            .map(|(n, _, _, c, a)| (n.to_string(), initiative_modifier(c, a)))
            .collect()
    })
    .unwrap_or_default();
    out.sort();
    out
}

/// Each round: battles begin when a creature becomes aware of a hostile one, factions join as
/// they become involved, and the battle ends after a full round in which no one was aware of a
/// hostile creature.
fn notice_hostiles(world: &mut World) {
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
        let mut dice = world.resource_mut::<Dice>();
        roll_initiative(&mut dice, entries)
    };
    let began = !battle.active;
    battle.order.extend(rolls.iter().cloned());
    {
        let mut dice = world.resource_mut::<Dice>();
        super::initiative::roll_off_ties(&mut dice, &mut battle.order);
    }
    if began {
        battle.active = true;
        battle.began = round;
        // RULINGS › Time: actions that take a turn are interrupted by an encounter.
        let mut busy =
            world.query_filtered::<(Entity, &Faction), Or<(With<Task>, With<Resting>)>>();
        let busy: Vec<Entity> = busy
            .iter(world)
            .filter(|(_, f)| battle.result_of(f.0).is_some())
            .map(|(e, _)| e)
            .collect();
        for e in busy {
            world.entity_mut(e).remove::<Task>().remove::<Resting>();
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
    if began {
        let surprised = super::surprise::throw_for_surprise(world, &joining);
        world.resource_mut::<Battle>().surprised = surprised;
    }
}

/// The faction whose initiative it is in the battle, if any.
fn turn_of(world: &World) -> Option<usize> {
    world.resource::<ActingOrder>().initiative
}

/// RULINGS › The battle round: the start of a faction's initiative. What lasts until the start of
/// its members' next initiative ends: a forgone shield returns (Tactical Combat › Shields), total
/// defense ends; outside a battle, at the start of the next round.
fn begin_initiative(world: &mut World, until: &mut QueryState<UntilNextTurn, KeptUntilNextTurn>) {
    let turn = turn_of(world);
    let mut battle = world.resource_mut::<Battle>();
    battle.acting = turn;
    battle.struck_first.clear();
    if let Some(f) = turn {
        let faction = world.resource::<Factions>().name(Faction(f)).to_owned();
        log_in(world, CombatEvent::InitiativeBegan { faction });
    }
    next_turn_comes(world, until);
}

/// Only those who keep something until their next initiative.
type KeptUntilNextTurn = Or<(With<ShieldForgone>, With<TotalDefense>)>;

/// What a creature keeps until the start of its faction's next initiative: a shield forgone, total
/// defense.
type UntilNextTurn<'a> = (
    Entity,
    Option<&'a ShieldForgone>,
    Option<&'a TotalDefense>,
    Option<&'a Faction>,
    Option<&'a Name>,
);

/// Shields forgone and total defense taken before this turn (or, outside a battle, this round)
/// end for those who act now, and the log says so.
fn next_turn_comes(world: &mut World, until: &mut QueryState<UntilNextTurn, KeptUntilNextTurn>) {
    let round = world.resource::<Clock>().rounds;
    let acting = world.resource::<ActingOrder>();
    let mut ended: Vec<(Entity, bool, bool, String)> = until
        .iter(world)
        .filter(|(_, s, d, faction, _)| {
            (s.is_some() || d.is_some()) && acting.acts_now(faction.copied())
        })
        .map(|(e, s, d, _, name)| {
            (
                e,
                s.is_some_and(|s| s.round < round),
                d.is_some_and(|d| d.round < round),
                name.map(|n| n.to_string()).unwrap_or_default(),
            )
        })
        .filter(|(_, s, d, _)| *s || *d)
        .collect();
    ended.sort_by_key(|e| e.0);
    for (e, shield, defense, who) in ended {
        if shield {
            world.entity_mut(e).remove::<ShieldForgone>();
            log_in(world, CombatEvent::ShieldReturned { who: who.clone() });
        }
        if defense {
            world.entity_mut(e).remove::<TotalDefense>();
            log_in(world, CombatEvent::TotalDefenseEnded { who });
        }
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

/// RULINGS › The battle round: a member of the acting faction with both an attack order and a
/// walk under way, whose target it can attack before moving, attacks first, then moves.
/// Situational Penalties › Penalty to ranged attacks from movement: "if the character performs
/// the ranged attack first, then moves, they can only move within their reach" (15', RULINGS ›
/// Units); a melee attack sets no such limit. Staggered, it may not move at all once it has
/// attacked.
fn attacks_first(world: &mut World, q: &mut QueryState<Attacker>) {
    let Some(faction) = turn_of(world) else {
        return;
    };
    for (_, who, order) in attackers(world, q, faction) {
        if world.get::<Walking>(who).is_none()
            || can_attack(world, who, order.target, order.weapon).is_err()
        {
            continue;
        }
        attack_as_ordered(world, who, order);
        let staggered = world
            .get::<Conditions>(who)
            .is_some_and(|c| c.has(ConditionKind::Staggered));
        let ranged = world
            .get::<Combatant>(who)
            .and_then(|c| c.weapons.get(order.weapon))
            .is_some_and(|w| w.range_feet.is_some());
        let feet = if staggered {
            Some(0)
        } else if ranged {
            Some(crate::rules::penalties::REACH_FEET as u32)
        } else {
            None
        };
        if let Some(feet) = feet {
            crate::rules::movement::limit_moves(world, who, feet);
        }
        world.resource_mut::<Battle>().struck_first.push(who);
    }
}

/// RULINGS › The battle round: after its members have moved, each member of the acting faction
/// with an attack order (that has not attacked first) attacks.
fn faction_attacks(world: &mut World, q: &mut QueryState<Attacker>) {
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

/// `WaitForOrders`: in a battle the party's members wait for their player's orders (`on`), or
/// fight by themselves like every other creature (`off`).
pub fn wait_for_orders(world: &mut World, party: &str, on: bool) -> Result<(), Refusal> {
    let members = world
        .resource::<Parties>()
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

/// `Attack`: a standing order to attack a creature with a weapon (by name, or the first that
/// can reach), carried out in the faction's initiative.
pub(crate) fn order_attack(
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
    // An order to attack sets aside any work under way (RULINGS › The battle round).
    world.entity_mut(who).remove::<Task>().insert(AttackOrder {
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

/// Tells the core rules which factions are fighting, in the order they act
/// ([`ActingOrder`](crate::creature::ActingOrder)), as the round begins.
fn publish_acting_order(battle: Res<Battle>, clock: Res<Clock>, mut acting: ResMut<ActingOrder>) {
    let now = battle.order.iter().map(|r| r.faction);
    if !acting.order.iter().copied().eq(now.clone()) {
        acting.order = now.collect();
    }
    let surprised: Vec<usize> = if battle.active && clock.rounds == battle.first_round() {
        battle.surprised.clone()
    } else {
        Vec::new()
    };
    if acting.surprised != surprised {
        acting.surprised = surprised;
    }
}

/// RULINGS › Surprise: a surprised faction does nothing in the battle's first round; as the
/// round begins the log says that its initiative is lost.
fn surprised_lose_their_turn(world: &mut World) {
    let lost: Vec<String> = {
        let acting = world.resource::<ActingOrder>();
        let factions = world.resource::<Factions>();
        acting
            .order
            .iter()
            .filter(|f| acting.surprised.contains(f))
            .map(|&f| factions.name(Faction(f)).to_owned())
            .collect()
    };
    for faction in lost {
        log_in(world, CombatEvent::InitiativeLost { faction });
    }
}

/// The hold of a surprised faction's members (RULINGS › Surprise), in the round it loses: the
/// round being played, or between rounds the round to come (the clock has moved on), which is
/// when a command given now is carried out.
fn is_surprised(world: &World, who: Entity) -> bool {
    let (Some(f), Some(battle)) = (world.get::<Faction>(who), world.get_resource::<Battle>())
    else {
        return false;
    };
    battle.active && battle.surprised_in(f.0, world.resource::<Clock>().rounds)
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
        world.insert_resource(ActingOrder::default());
    }
}

pub struct BattlePlugin;

impl Plugin for BattlePlugin {
    /// The module's systems run while its state is in the world: the level's `modules` and the
    /// Judge's switch put it there or take it away (`rules::modules::switch_module`).
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<Disengaging>()
            .keeps_component::<ShieldState>()
            .keeps_component::<ShieldSacrifice>()
            .keeps_component::<Jammed>()
            .keeps_component::<crate::rules::combat::gear::TotalDefense>()
            .keeps_component::<ActiveEnchantments>()
            .keeps_component::<crate::rules::combat::battle::AttackOrder>()
            .keeps::<crate::rules::combat::battle::Awareness>()
            .keeps::<crate::rules::combat::battle::Battle>()
            .keeps_component::<crate::rules::combat::battle::Controlled>()
            .keeps_component::<crate::rules::combat::gear::ShieldForgone>()
            .keeps_component::<OpportunitiesTaken>()
            .keeps::<Provoked>()
            .keeps::<crate::rules::tactical::TacticalCombat>();
        use crate::rules::acting::{ActingRules, Hold};
        app.declare_hold(Hold::Surprised, is_surprised);
        use crate::rules::areas::RuleArea;
        app.offers(Rank::Fight, super::offers::battle_choices)
            .offers(Rank::Fight, super::offers::jam_choices)
            .offers(Rank::Standing, super::offers::sacrifice_choices);
        app.installs_creature(|world, e, c| {
            world.entity_mut(e).insert(Combatant::of(c));
        });
        ModuleRules::switches(app, RuleModule::TacticalCombat, switch_tactical_combat);
        app.init_resource::<Battle>()
            .init_resource::<Awareness>()
            .init_resource::<ActingOrder>()
            .init_resource::<super::opportunity::Provoked>()
            .init_resource::<TacticalCombat>()
            .add_systems(
                SimRound,
                (notice_hostiles, super::opportunity::opportunity_attacks)
                    .chain()
                    .in_set(RoundSet::Combat)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                SimRound,
                (publish_acting_order, surprised_lose_their_turn)
                    .chain()
                    .in_set(RoundSet::ActingOrder)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                SimRound,
                (super::opportunity::ready_opportunities, next_turn_comes)
                    .chain()
                    .in_set(RoundSet::Readiness)
                    .run_if(resource_exists::<Battle>),
            )
            .add_systems(
                FactionInitiative,
                (
                    begin_initiative.in_set(InitiativeSet::BeginInitiative),
                    attacks_first.in_set(InitiativeSet::AttacksFirst),
                    (super::opportunity::opportunity_attacks, faction_attacks)
                        .chain()
                        .in_set(InitiativeSet::Attacks),
                )
                    .run_if(resource_exists::<Battle>),
            );
    }
}
