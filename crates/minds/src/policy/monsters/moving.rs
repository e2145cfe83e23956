//! Where monsters go: to look at a noise, toward the lights they see, after the foes they pursue, along their patrols, and home to their lairs.

use delve_ground::dice::Dice;
use delve_ground::grid::path::Path;

use super::doors::mix;
use bevy::prelude::*;
use delve_ground::grid::path::find_path;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::Stance;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::command::acts::Move;
use delve_rules::creature::{ActingOrder, Combatant, Conditions, Faction, Factions, Position};
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::movement::{Pace, Walking};
use delve_rules::rules::sound::NoiseKind;
use delve_rules::rules::sound::hearing::{HeardThisRound, roughly};
use delve_rules::rules::vision::Sight;

use super::{Answerer, Idle, Mind, MonsterEvent, NotCommanded, Orders, Patroller, free_to_act};

/// Of these squares, the one it can walk to in the fewest feet, and whether the walk is plain
/// (`false`: only through a closed door, [`through_doors`]).
pub(super) fn nearest_reachable(
    grid: &DungeonGrid,
    from: GridPos,
    candidates: impl IntoIterator<Item = GridPos> + Clone,
) -> Option<(GridPos, bool)> {
    let nearest = |plain: bool| {
        candidates
            .clone()
            .into_iter()
            .filter_map(|c| {
                let path = if plain {
                    find_path(grid, from, c)
                } else {
                    path_through_doors(grid, from, c)
                };
                path.map(|p| (p.feet, c))
            })
            .min_by_key(|&(feet, c)| (feet, c))
            .map(|(_, c)| (c, plain))
    };
    nearest(true).or_else(|| nearest(false))
}

/// A walk that may pass closed doors (a monster knows the doors of its own dungeon).
pub(super) fn path_through_doors(grid: &DungeonGrid, from: GridPos, to: GridPos) -> Option<Path> {
    use delve_ground::grid::terrain::Terrain;
    delve_ground::grid::path::find_path_with(grid, from, to, |p| {
        grid.is_passable(p) || grid.terrain(p) == Some(Terrain::Door)
    })
}

/// A monster that heard something this round (outside a battle) and is not on its way somewhere
/// goes to the nearest reachable square at the noise: roughly where it was, or beside it.
pub(super) fn go_to_look(
    mut orders: Orders,
    heard: Res<HeardThisRound>,
    mut monsters: Query<(Answerer, Option<&Walking>), NotCommanded>,
    names: Query<&Name>,
) {
    let mut looking: Vec<(Entity, GridPos, NoiseKind, Option<Entity>)> = heard
        .0
        .iter()
        .filter(|h| h.hostile && !h.fighting)
        .map(|h| (h.listener, h.at, h.kind, h.made_by))
        .collect();
    // The first noise each heard.
    looking.sort_by_key(|l| l.0);
    looking.dedup_by_key(|l| l.0);
    for (e, at, noise, made_by) in looking {
        let Ok(((name, pos, faction, conditions, combatant, mut mind), walking)) =
            monsters.get_mut(e)
        else {
            continue;
        };
        // One on its way about its round (a patrol, a wander, home: exploration speed) breaks
        // off to look; one already hurrying somewhere does not.
        if walking.is_some_and(|w| w.pace != Pace::Exploration) {
            continue;
        }
        if !mind.may_go(at)
            || !free_to_act(
                &orders.pending,
                orders.acting.fighting(*faction),
                name,
                conditions,
                combatant,
            )
        {
            continue;
        }
        let candidates = [roughly(at), at].into_iter().chain(at.neighbours());
        if let Some((to, plain)) = nearest_reachable(&orders.grid, pos.0, candidates) {
            if !plain {
                mind.set_errand(to);
            }
            orders.log.push(
                orders.clock.rounds,
                MonsterEvent::WentToLook {
                    who: name.to_string(),
                    to,
                    noise,
                    made_by: made_by
                        .and_then(|m| names.get(m).ok())
                        .map(|n| n.to_string()),
                },
            );
            if plain {
                orders.pending.push_derived(Command::Move(Move {
                    who: name.to_string(),
                    to: (to.x, to.y),
                    pace: Pace::Combat,
                }));
            }
        }
    }
}

pub(super) type Monster<'a> = (
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Sight,
    &'a Conditions,
    Option<&'a Combatant>,
    &'a Mind,
);

/// A monster that is not already on its way toward something walks to the nearest lit bearer of
/// a hostile faction that it sees.
pub(super) fn approach_lights(
    factions: Res<Factions>,
    mut pending: ResMut<PendingCommands>,
    monsters: Query<Monster, Idle>,
    lights: Query<(&LightSource, &CarriedBy)>,
    bearers: Query<(&Position, &Faction)>,
    acting: Res<ActingOrder>,
) {
    let lit_bearers: Vec<(Position, Faction)> = lights
        .iter()
        .filter(|(l, _)| l.lit)
        .filter_map(|(_, c)| bearers.get(c.0).ok().map(|(p, f)| (*p, *f)))
        .collect();
    let mut orders: Vec<(String, (i32, i32))> = Vec::new();
    for (name, at, faction, sight, conditions, combatant, mind) in &monsters {
        if !free_to_act(
            &pending,
            acting.fighting(*faction),
            name,
            conditions,
            combatant,
        ) {
            continue;
        }
        let target = lit_bearers
            .iter()
            .filter(|(p, f)| factions.hostile(*faction, *f) && sight.sees(p.0))
            .min_by_key(|(p, _)| (at.0.chebyshev(p.0), p.0));
        if let Some((p, _)) = target
            && p.0 != at.0
            && mind.may_go(p.0)
        {
            orders.push((name.to_string(), (p.0.x, p.0.y)));
        }
    }
    orders.sort();
    for (who, to) in orders {
        pending.push_derived(Command::Move(Move {
            who,
            to,
            pace: Pace::Combat,
        }));
    }
}

pub(super) type Pursuer<'a> = (
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    Option<&'a Combatant>,
    &'a mut Mind,
);

/// A monster that pursues, whose quarry slipped out of sight, goes to where it last saw it.
pub(super) fn pursue(
    clock: Res<Clock>,
    grid: Res<DungeonGrid>,
    acting: Res<ActingOrder>,
    mut pending: ResMut<PendingCommands>,
    mut log: ResMut<EventLog>,
    mut monsters: Query<Pursuer, Idle>,
) {
    let mut orders: Vec<(String, GridPos)> = Vec::new();
    for (name, at, faction, conditions, combatant, mut mind) in &mut monsters {
        let Some(quarry) = mind.quarry else {
            continue;
        };
        // While it still sees them, the battle (or a light) draws it, not the trail.
        if mind.sighted {
            continue;
        }
        if !mind.pursues
            || !mind.may_go(quarry)
            || !free_to_act(
                &pending,
                acting.fighting(*faction),
                name,
                conditions,
                combatant,
            )
        {
            continue;
        }
        if quarry == at.0 {
            mind.quarry = None;
            continue;
        }
        if find_path(&grid, at.0, quarry).is_none() {
            // Through a door, or not at all: the trail ends here.
            mind.quarry = None;
            if path_through_doors(&grid, at.0, quarry).is_some() {
                mind.set_errand(quarry);
                log.push(
                    clock.rounds,
                    MonsterEvent::Pursued {
                        who: name.to_string(),
                        to: quarry,
                    },
                );
            }
            continue;
        }
        orders.push((name.to_string(), quarry));
    }
    orders.sort();
    for (who, to) in orders {
        log.push(
            clock.rounds,
            MonsterEvent::Pursued {
                who: who.clone(),
                to,
            },
        );
        pending.push_derived(Command::Move(Move {
            who,
            to: (to.x, to.y),
            pace: Pace::Combat,
        }));
    }
}

/// A monster's patrol route (the level's `patrol`) and the square it is making for.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Patrol {
    pub route: Vec<GridPos>,
    pub next: usize,
}

/// A monster on patrol with nothing else to do walks on to the next square of its route at
/// exploration speed, and on reaching it makes for the one after (round and round). A square it
/// cannot reach now (a door shut on the way) is passed over for the next.
pub(super) fn walk_the_patrol(
    grid: Res<DungeonGrid>,
    mut pending: ResMut<PendingCommands>,
    mut monsters: Query<Patroller, Idle>,
    acting: Res<ActingOrder>,
) {
    let mut orders: Vec<(String, (i32, i32))> = Vec::new();
    for (name, at, faction, conditions, mut patrol, mind) in &mut monsters {
        if !free_to_act(&pending, acting.fighting(*faction), name, conditions, None)
            || patrol.route.is_empty()
            || mind.is_some_and(|m| m.errand.is_some())
        {
            continue;
        }
        let len = patrol.route.len();
        if patrol.route[patrol.next % len] == at.0 {
            patrol.next = (patrol.next + 1) % len;
        }
        let to = patrol.route[patrol.next % len];
        if to == at.0 {
            continue;
        }
        if find_path(&grid, at.0, to).is_some() {
            orders.push((name.to_string(), (to.x, to.y)));
        } else {
            patrol.next = (patrol.next + 1) % len;
        }
    }
    orders.sort();
    for (who, to) in orders {
        pending.push_derived(Command::Move(Move {
            who,
            to,
            pace: Pace::Exploration,
        }));
    }
}

/// With nothing else to do, a guard walks back to its post and a lair-dweller to its lair's
/// heart; a wanderer sets off, one round in three, for a square within its range of where it
/// started.
pub(super) fn keep_to_home(
    clock: Res<Clock>,
    grid: Res<DungeonGrid>,
    dice: Res<Dice>,
    acting: Res<ActingOrder>,
    mut pending: ResMut<PendingCommands>,
    monsters: Query<(&Name, &Position, &Faction, &Conditions, &Mind), Idle>,
) {
    let mut orders: Vec<(String, GridPos)> = Vec::new();
    for (name, at, faction, conditions, mind) in &monsters {
        if !free_to_act(&pending, acting.fighting(*faction), name, conditions, None)
            || (mind.pursues && !mind.sighted && mind.quarry.is_some_and(|q| mind.may_go(q)))
            || mind.errand.is_some()
        {
            continue;
        }
        match mind.stance {
            Stance::Roam => {}
            Stance::Guard | Stance::Lair => {
                if at.0 != mind.home && find_path(&grid, at.0, mind.home).is_some() {
                    orders.push((name.to_string(), mind.home));
                }
            }
            Stance::Wander(feet) => {
                let draw = mix(dice.seed(), clock.rounds, name.as_str());
                if !draw.is_multiple_of(3) {
                    continue;
                }
                let reach = (feet / grid.scale_feet().max(1)) as i32;
                let within: Vec<GridPos> = (-reach..=reach)
                    .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
                    .map(|(dx, dy)| GridPos::new(mind.home.x + dx, mind.home.y + dy))
                    .filter(|&p| p != at.0 && grid.is_passable(p))
                    .collect();
                if within.is_empty() {
                    continue;
                }
                // A few draws from the squares in range; the first it can walk to.
                let to = (0..4)
                    .map(|k| within[(mix(draw, k, name.as_str()) % within.len() as u64) as usize])
                    .find(|&p| find_path(&grid, at.0, p).is_some());
                orders.extend(to.map(|p| (name.to_string(), p)));
            }
        }
    }
    orders.sort();
    for (who, to) in orders {
        pending.push_derived(Command::Move(Move {
            who,
            to: (to.x, to.y),
            pace: Pace::Exploration,
        }));
    }
}
