//! How creatures fight when no one commands them: a simple, readable behaviour shared by
//! monsters and by party members not under the player's control, so a whole battle runs
//! headless. Each round of a battle, a creature that is up (standing up first if it is prone:
//! a free action):
//! 1. flees, if its stat block says it flees when bloodied and it is bloodied: it walks to the
//!    square within a few steps that is farthest from its enemies;
//! 2. otherwise picks the nearest enemy it is aware of — or, aware of none itself, the nearest
//!    its companions are aware of (they point it out); one whose faction sees and hears nothing
//!    of the fight waits where it is; one that fights with its companions, [`FightsTogether`],
//!    goes first for an enemy next to a vulnerable or bloodied companion, then for one a
//!    companion attacks;
//! 3. attacks it with a weapon that can reach it now (a melee weapon when next to it);
//! 4. or else, with a firearm jammed, clears the jam;
//! 5. or else closes in: walks at combat speed to the free square next to it that is nearest
//!    and not through a squeeze (one that keeps to a place, [`KeepsTo`] — a guard's post, a
//!    lair — closes in only within it, and walks back to it when out of it: a guard holds its
//!    post and fights whoever comes within its reach);
//!    one with a heavy shield takes, of those, one beside a companion with a heavy shield, so
//!    that they stand in a shield wall (Tactical Combat › Shields); one with a missile weapon
//!    shoots from where it stands whenever its target is in range (from the back rank).
//!
//! It runs in each faction's initiative for that faction's members (RULINGS › The battle round:
//! orders given to the AI take effect in the faction's own turn). Orders go through the command
//! queue like a player's, so they are logged, and are carried out at once, before the faction
//! moves.
//!
//! It is a mind, not a rule: the combat area offers and refuses, and this chooses. The markers
//! that set its stance ([`Retreating`], [`FightsTogether`], [`KeepsTo`]) are the minds' own.

use delve_ground::grid::terrain::Terrain;
use delve_ground::level::schema::ShieldWeight;
use delve_rules::creature::{Below, ConditionEnd, LevelInfo};
use delve_rules::rules::conditions::StandUp;
use delve_rules::rules::movement::hazards::Hazard;
use delve_rules::rules::sound::{SoundRow, Verdict};

use bevy::prelude::*;
use delve_rules::rules::combat::Attack;
use delve_rules::rules::movement::{Halt, Move};

use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_rules::act::{AnyAct, PendingCommands};
use delve_rules::creature::{ActingOrder, Combatant, Conditions, Creature, Faction, Position};
use delve_rules::rules::combat::ClearJam;
use delve_rules::rules::combat::attack::can_attack;
use delve_rules::rules::combat::battle::{AttackOrder, Awareness, Battle, Controlled};
use delve_rules::rules::combat::gear::Jammed;
use delve_rules::rules::conditions::is_down;
use delve_rules::rules::movement::{Pace, Walking};
use delve_rules::schedule::{FactionInitiative, InitiativeSet};
use delve_rules::state::KeepsState;

/// The fighting behaviour in each faction's initiative of a battle, and the stances the minds set.
pub struct FightingBehaviourPlugin;

impl Plugin for FightingBehaviourPlugin {
    fn build(&self, app: &mut App) {
        app.keeps_component::<FightsTogether>()
            .keeps_component::<KeepsTo>()
            .keeps_component::<Retreating>()
            .add_systems(
                FactionInitiative,
                fighting_behaviour
                    .in_set(InitiativeSet::Minds)
                    .run_if(resource_exists::<Battle>),
            );
    }
}

/// How far a fleeing creature looks for somewhere safer, in squares.
const FLIGHT_SQUARES: i32 = 4;

/// A creature under orders to withdraw (a party fleeing under its policy): the fighting
/// behaviour leaves it to its orders.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Retreating;

/// A creature whose mind fights with its companions (an adventuring party under its policy):
/// of the enemies about as near as the nearest (a step farther at most), it goes first for one
/// next to a vulnerable or bloodied companion (protecting the mapper, the stuck, the drowning,
/// the wounded), then for one a companion is already attacking (one foe at a time).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FightsTogether;

/// Where a creature keeps to in a battle (its mind's stance: a guard's post, a lair's squares):
/// it closes in on an enemy only over these squares, and goes back to `home` when off them.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct KeepsTo {
    pub home: GridPos,
    pub squares: Vec<GridPos>,
    /// It takes its place at `home` whenever no enemy is in reach (a member in its party's
    /// line across a passage), not only once off its squares.
    pub in_line: bool,
}

/// Creatures that fight by themselves: not under a player's control, nor withdrawing.
type ByThemselves = (With<Creature>, Without<Controlled>, Without<Retreating>);

/// A creature that fights by itself, as the behaviour sees it.
type Fighter<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    &'a Combatant,
    Option<&'a AttackOrder>,
    Option<&'a Walking>,
);

/// Any creature, as the behaviour sees it: where it is and where it is going.
type Anyone<'a> = (
    Entity,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    Option<&'a Walking>,
);

/// In its faction's initiative: every creature of the faction not under the player's control
/// decides what to do.
pub fn fighting_behaviour(
    world: &mut World,
    fighters: &mut QueryState<Fighter, ByThemselves>,
    everyone: &mut QueryState<Anyone, With<Creature>>,
) {
    let Some(turn) = world.resource::<ActingOrder>().initiative else {
        return;
    };
    if !world.resource::<Battle>().active {
        return;
    }
    // Taken out while the world is used, and put back at the end.
    let aware = std::mem::take(&mut *world.resource_mut::<Awareness>());
    let fighters = fighters_in_initiative(world, fighters, turn);
    let (up, mut claimed) = up_and_claimed(world, everyone);
    // Heavy shields, where they stand or are going: the walls they can make.
    let mut shields: Vec<(Entity, GridPos, Faction)> = up
        .iter()
        .filter(|u| heavy_shield(world, u.0))
        .copied()
        .collect();
    let mut orders: Vec<AnyAct> = Vec::new();
    let pending = world.resource::<PendingCommands>();
    let busy: Vec<String> = fighters
        .iter()
        .map(|f| f.1.clone())
        .filter(|name| pending.waiting_for(name))
        .collect();
    for (e, name, at, faction, fleeing, order, heading) in fighters {
        if busy.contains(&name) {
            continue;
        }
        let enemies = known_enemies(world, &aware, &up, (e, at, faction));
        if enemies.is_empty() {
            continue;
        }
        // Prone, it stands up first (Situational Penalties › Prone: "standing back up from a
        // prone position is a free action", the −4 lasting to the end of the round) and then
        // does what it would: no mind once stood up, and a prone fighter kept its −4 for the
        // rest of the fight.
        let prone = world.get::<Conditions>(e).is_some_and(|c| {
            c.0.iter().any(|c| {
                c.kind == ConditionKind::Prone && !matches!(c.ends, ConditionEnd::EndOfRound(_))
            })
        });
        if prone {
            orders.push(AnyAct::from(StandUp { who: name.clone() }));
        }
        if fleeing {
            world.entity_mut(e).remove::<AttackOrder>();
            if heading.is_none()
                && let Some(to) = refuge(world.resource::<DungeonGrid>(), at, &enemies, &claimed)
            {
                claimed.push(to);
                orders.push(AnyAct::from(Move {
                    who: name,
                    to: (to.x, to.y),
                    pace: Pace::Combat,
                }));
            }
            continue;
        }
        // One keeping to its squares (a post, a lair, a passage its party holds) walking off
        // them stops first.
        let mut heading = heading;
        if let (Some(k), Some(h)) = (world.get::<KeepsTo>(e), heading)
            && !k.squares.contains(&h)
            && h != k.home
        {
            orders.push(AnyAct::from(Halt { who: name.clone() }));
            heading = None;
        }
        // One in front of the line its party holds (it got there before the line was drawn)
        // falls back to its place in it, foe in reach or not: behind the front fighter the
        // foes come at it one at a time.
        if let Some(k) = world.get::<KeepsTo>(e)
            && k.in_line
            && !k.squares.contains(&at)
            && heading != Some(k.home)
            && !claimed.contains(&k.home)
        {
            let home = k.home;
            claimed.push(home);
            world.entity_mut(e).remove::<AttackOrder>();
            orders.push(AnyAct::from(Move {
                who: name,
                to: (home.x, home.y),
                pace: Pace::Combat,
            }));
            continue;
        }
        let by_distance = by_priority(world, &up, (e, at, faction), &enemies);
        let Some(&(target, target_at)) = by_distance.first() else {
            continue;
        };
        if let Some(o) = order
            && o.target == target
            && can_attack(world, e, o.target, o.weapon).is_ok()
        {
            continue;
        }
        let usable = usable_weapons(world, e, target);
        if let Some(&w) = usable.first() {
            let weapon = world.get::<Combatant>(e).map(|c| c.weapons[w].name.clone());
            orders.push(AnyAct::from(Attack {
                who: name,
                target: delve_rules::creature::name_of(world, target),
                weapon,
            }));
            continue;
        }
        // Nothing to strike it with now, and a firearm jammed: the jam is cleared first
        // (Tactical Combat › Firearms: the round, or the action with Gunsmithing).
        if world.get::<Jammed>(e).is_some() {
            orders.push(AnyAct::from(ClearJam { who: name }));
            continue;
        }
        // Close in, unless already on the way to a square next to it.
        if heading.is_some_and(|h| h.is_adjacent(target_at)) {
            continue;
        }
        let grid = world.resource::<DungeonGrid>();
        // A square it has a way to (no open hole it knows across every way: RULINGS › Pits and
        // holes).
        let holes = delve_rules::rules::movement::hazards::known_to(world, e)
            .iter()
            .any(|(_, h)| *h == Hazard::Hole);
        let keeps = world.get::<KeepsTo>(e);
        let free = |p: &GridPos| {
            grid.is_passable(*p)
                && !claimed.contains(p)
                && keeps.is_none_or(|k| k.squares.contains(p))
                && (!holes || delve_rules::rules::movement::hazards::way(world, e, at, *p).is_ok())
        };
        // A heavy shield's bearer closes in beside a companion's heavy shield where it can
        // (where the companion stands, or is going this turn).
        let bearer = shields.iter().any(|s| s.0 == e);
        let wall: Vec<GridPos> = shields
            .iter()
            .filter(|s| bearer && s.0 != e && s.2 == faction)
            .map(|s| s.1)
            .collect();
        let apart = |p: &GridPos| !wall.iter().any(|w| w.is_adjacent(*p));
        // No one squeezes through a chokepoint to close in (one stuck there is out of the
        // fight, and may be for good): only a square reached without a squeeze.
        // (Looked for only where a squeeze lies near the way: around the two.)
        let is_squeeze = |q: GridPos| grid.terrain(q) == Some(Terrain::Squeeze);
        let squeeze_near = squeeze_near(grid, at, target_at);
        let no_squeeze = |p: &GridPos| {
            !squeeze_near
                || delve_ground::grid::path::find_path(grid, at, *p)
                    .is_none_or(|path| !path.squares.iter().any(|&q| is_squeeze(q)))
        };
        // The nearest it has a walk to (none across a chasm or a shaft between them: it does
        // not give an order the rules would refuse).
        let mut near: Vec<GridPos> = target_at
            .neighbours()
            .into_iter()
            .filter(free)
            .filter(no_squeeze)
            .collect();
        near.sort_by_key(|p| (apart(p), grid.distance_feet(at, *p), *p));
        let walkable = |p: &GridPos| {
            holes || *p == at || delve_ground::grid::path::find_path(grid, at, *p).is_some()
        };
        if let Some(to) = near.into_iter().find(walkable) {
            claimed.push(to);
            if let Some(s) = shields.iter_mut().find(|s| s.0 == e) {
                s.1 = to;
            }
            orders.push(AnyAct::from(Move {
                who: name,
                to: (to.x, to.y),
                pace: Pace::Combat,
            }));
        } else if let Some(k) = keeps
            && (!k.squares.contains(&at)
                || (k.in_line && at != k.home && !claimed.contains(&k.home)))
            && heading != Some(k.home)
        {
            // Off its post or out of its lair (or its place in the line), and no enemy in reach
            // from it: back to it.
            let home = k.home;
            claimed.push(home);
            orders.push(AnyAct::from(Move {
                who: name,
                to: (home.x, home.y),
                pace: Pace::Combat,
            }));
        } else if heading.is_some() {
            // Nowhere free next to it: wait rather than walk into someone.
            orders.push(AnyAct::from(Halt { who: name }));
        }
    }
    *world.resource_mut::<Awareness>() = aware;
    let mut pending = world.resource_mut::<PendingCommands>();
    for c in orders {
        pending.push_derived(c);
    }
}

/// A fighter as the behaviour orders it: its entity, name, square, faction, whether it flees
/// (bloodied, and its kind flees then), its standing attack order, and where it is walking.
type FighterNow = (
    Entity,
    String,
    GridPos,
    Faction,
    bool,
    Option<AttackOrder>,
    Option<GridPos>,
);

/// The creatures that fight by themselves in faction `turn`'s turn, in entity order: up and
/// armed, under no hold, not at the bottom of a hole.
fn fighters_in_initiative(
    world: &World,
    fighters: &mut QueryState<Fighter, ByThemselves>,
    turn: usize,
) -> Vec<FighterNow> {
    let mut fighters: Vec<FighterNow> = fighters
        .iter(world)
        .filter(|c| c.3.0 == turn && !is_down(c.4) && !c.5.weapons.is_empty())
        // A creature under a hold (stuck, drowning, …) can give itself no orders; one at the
        // bottom of a hole reaches no one until it climbs out (its own mind, or its party's,
        // gets it out).
        .filter(|c| {
            delve_rules::rules::acting::held(world, c.0).is_none()
                && world.get::<Below>(c.0).is_none()
        })
        .map(|(e, n, p, f, c, k, o, w)| {
            (
                e,
                n.to_string(),
                p.0,
                *f,
                c.has(ConditionKind::Bloodied) && k.flees_when_bloodied,
                o.copied(),
                w.and_then(|w| w.destination()),
            )
        })
        .collect();
    fighters.sort_by_key(|f| f.0);
    fighters
}

/// The enemies `e` knows of: those it is aware of, or, aware of none itself, those its
/// companions point out (one in the dark only a companion sees, one a companion heard) —
/// companions whose shout it hears without a throw (Dungeon Delves › Listening: Shouting),
/// reckoned at the straight distance. Each with its square.
fn known_enemies(
    world: &World,
    aware: &Awareness,
    up: &[(Entity, GridPos, Faction)],
    (e, at, faction): (Entity, GridPos, Faction),
) -> Vec<(Entity, GridPos)> {
    let mut known: Vec<Entity> = aware.of(e).iter().map(|p| p.1).collect();
    if known.is_empty() {
        // Aware of no enemy itself: it goes for those its companions point out (one in
        // the dark that only a companion sees, one a companion heard) — companions whose
        // shout it hears without a throw (Dungeon Delves › Listening: Shouting), reckoned
        // at the straight distance.
        let info = world.resource::<LevelInfo>();
        let grid = world.resource::<DungeonGrid>();
        let hears_a_shout = |from: GridPos| {
            delve_rules::rules::sound::verdict(
                SoundRow::Loud,
                info.environment_at(at),
                Some(2 * grid.distance_feet(from, at)),
            ) == Verdict::Automatic
        };
        known = up
            .iter()
            .filter(|u| u.2 == faction && u.0 != e && hears_a_shout(u.1))
            .flat_map(|u| aware.of(u.0).iter().map(|p| p.1))
            .collect();
        known.sort();
        known.dedup();
    }
    // (Not one at the bottom of a hole: no fighter the behaviour moves is down in one, and a
    // blow does not reach from the rim to the bottom.)
    let enemies: Vec<(Entity, GridPos)> = known
        .iter()
        .filter_map(|k| up.binary_search_by_key(k, |u| u.0).ok())
        .map(|i| (up[i].0, up[i].1))
        .filter(|&(x, _)| world.get::<Below>(x).is_none())
        .collect();
    enemies
}

/// The enemies in the order `e` goes for them: the nearest; fighting together, those next to a
/// companion in trouble (vulnerable or bloodied) and those its companions attack first, among
/// those about as near as the nearest.
fn by_priority(
    world: &World,
    up: &[(Entity, GridPos, Faction)],
    (e, at, faction): (Entity, GridPos, Faction),
    enemies: &[(Entity, GridPos)],
) -> Vec<(Entity, GridPos)> {
    let mut by_distance = enemies.to_vec();
    by_distance.sort_by_key(|(o, p)| (at.chebyshev(*p), *o));
    if world.get::<FightsTogether>(e).is_some()
        && let Some(nearest) = by_distance.first().map(|(_, p)| at.chebyshev(*p))
    {
        let companions: Vec<(Entity, GridPos)> = up
            .iter()
            .filter(|u| u.2 == faction && u.0 != e)
            .map(|u| (u.0, u.1))
            .collect();
        let threatened: Vec<GridPos> = companions
            .iter()
            .filter(|(c, _)| {
                world.get::<Conditions>(*c).is_some_and(|c| {
                    c.has(ConditionKind::Vulnerable) || c.has(ConditionKind::Bloodied)
                })
            })
            .map(|c| c.1)
            .collect();
        let attacked: Vec<Entity> = companions
            .iter()
            .filter_map(|(c, _)| world.get::<AttackOrder>(*c).map(|o| o.target))
            .collect();
        by_distance.sort_by_key(|(o, p)| {
            (
                at.chebyshev(*p) > nearest + 1,
                !threatened.iter().any(|t| t.within_a_step(*p)),
                !attacked.contains(o),
                at.chebyshev(*p),
                *o,
            )
        });
    }
    by_distance
}

/// The weapons (by index) `e` can attack `target` with now, those for close quarters first.
fn usable_weapons(world: &World, e: Entity, target: Entity) -> Vec<usize> {
    let weapons = world.get::<Combatant>(e).map_or(0, |c| c.weapons.len());
    let melee_first = |i: &usize| {
        world
            .get::<Combatant>(e)
            .is_some_and(|c| c.weapons[*i].range_feet.is_some())
    };
    let mut usable: Vec<usize> = (0..weapons)
        .filter(|&i| can_attack(world, e, target, i).is_ok())
        .collect();
    usable.sort_by_key(melee_first);
    usable
}

/// A squeeze lies near the way from `at` to `target_at` (within two squares of both).
fn squeeze_near(grid: &DungeonGrid, at: GridPos, target_at: GridPos) -> bool {
    let is_squeeze = |q: GridPos| grid.terrain(q) == Some(Terrain::Squeeze);
    let (x0, x1) = (at.x.min(target_at.x) - 2, at.x.max(target_at.x) + 2);
    let (y0, y1) = (at.y.min(target_at.y) - 2, at.y.max(target_at.y) + 2);
    (y0..=y1).any(|y| (x0..=x1).any(|x| is_squeeze(GridPos::new(x, y))))
}

/// Does it bear a heavy shield it has not forgone?
fn heavy_shield(world: &World, e: Entity) -> bool {
    world.get::<Combatant>(e).is_some_and(|c| {
        c.shield
            .as_ref()
            .is_some_and(|s| s.weight == ShieldWeight::Heavy)
    })
}

/// The free square within a few steps that is farthest from the nearest enemy.
fn refuge(
    grid: &DungeonGrid,
    at: GridPos,
    enemies: &[(Entity, GridPos)],
    claimed: &[GridPos],
) -> Option<GridPos> {
    let danger = |p: GridPos| {
        enemies
            .iter()
            .map(|(_, e)| p.chebyshev(*e))
            .min()
            .unwrap_or(0)
    };
    let mut candidates: Vec<(u32, std::cmp::Reverse<GridPos>)> = Vec::new();
    for dy in -FLIGHT_SQUARES..=FLIGHT_SQUARES {
        for dx in -FLIGHT_SQUARES..=FLIGHT_SQUARES {
            let p = GridPos::new(at.x + dx, at.y + dy);
            if grid.is_passable(p) && !claimed.contains(&p) && danger(p) > danger(at) {
                candidates.push((danger(p), std::cmp::Reverse(p)));
            }
        }
    }
    // Safest first; the first that can be reached.
    candidates.sort_by(|a, b| b.cmp(a));
    candidates
        .into_iter()
        .map(|(_, std::cmp::Reverse(p))| p)
        .find(|&p| delve_ground::grid::path::find_path(grid, at, p).is_some())
}

/// Every creature up (not down), in entity order, with its square and faction; and the squares
/// taken: where creatures stand and where walkers are going.
#[allow(clippy::type_complexity)]
fn up_and_claimed(
    world: &World,
    everyone: &mut QueryState<Anyone, With<Creature>>,
) -> (Vec<(Entity, GridPos, Faction)>, Vec<GridPos>) {
    let mut up: Vec<(Entity, GridPos, Faction)> = Vec::new();
    let mut claimed: Vec<GridPos> = Vec::new();
    for (e, p, f, c, w) in everyone.iter(world) {
        if !is_down(c) {
            up.push((e, p.0, *f));
            claimed.push(p.0);
        }
        claimed.extend(w.and_then(|w| w.destination()));
    }
    up.sort_by_key(|u| u.0);
    (up, claimed)
}
