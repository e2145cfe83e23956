//! Monsters that live in the dungeon: minds that read the rules' results and write commands,
//! like any other actor. Outside a battle, each round, a monster that is up and not on its way
//! somewhere (its [`Mind`], from the level's `mind` and `patrol`):
//! 1. **watches**: seeing a hostile creature it notes where (its quarry) and, if it shouts,
//!    shouts for its faction (a loud noise: `Noise(Shouting)`; once a turn at most), in a
//!    battle too;
//! 2. **answers a call**: hearing a companion's shout within its earshot it comes to the one who
//!    shouted, at combat speed (RULINGS › Noise and hearing: it knows where its companions are,
//!    so no throw);
//! 3. **goes to look**: hearing a noise made by no one or by a hostile creature it goes to
//!    roughly where it was, at combat speed (one walking its patrol or wandering breaks off to
//!    look, and takes up its round again after);
//! 4. **comes to a light**: seeing a light carried by a hostile creature it walks toward it
//!    (Dungeon Delves › Light and Darkness: a light gives its bearer away);
//! 5. **pursues**: a hostile creature it saw has slipped out of sight: it goes where it last saw
//!    it, at combat speed;
//! 6. **keeps its place**: a guard walks back to its post, a lair-dweller to its lair, a
//!    wanderer wanders near where it started, a patroller walks its route round and round, all
//!    at exploration speed;
//! 7. **goes through doors**: bound for somewhere beyond a closed door (2, 3, 5), it walks up
//!    to the door and opens it, unlocks it with a key it carries, or bashes it when stuck if it
//!    is strong enough; an evil door yields to it easily (Dungeon Delves › Doors).
//!
//! A guard leaves its post for none of 2–5; a lair-dweller only for what is inside its lair. A
//! monster whose stat block says it flees when bloodied, and is, seeks no fight. In a battle the
//! fighting behaviour (`rules::combat::behaviour`) takes over, a guard holding its post and a
//! lair-dweller keeping to its lair there too ([`KeepsTo`]). A lair is the room its dweller
//! starts in; a room without doors (a cave) reaches the level's `lair_radius_feet` from there.

use delve_ground::log::LogKind;
use delve_rules::rules::combat::battle::Awareness;
use delve_rules::rules::light::LightMap;

use std::fmt;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::Serialize;

use crate::policy::behaviour::KeepsTo;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, RawMind, Stance};
use delve_ground::log::{EventLog, LogEvent};
use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::command::acts::{Move, Noise};
use delve_rules::creature::{ActingOrder, Combatant, Conditions, Faction, Factions, Position};
use delve_rules::rules::combat::battle::Controlled;
use delve_rules::rules::movement::{Pace, Walking};
use delve_rules::rules::party::PartyMember;
use delve_rules::rules::sound::hearing::HeardThisRound;
use delve_rules::rules::sound::{NoiseKind, NoisyAction};
use delve_rules::rules::vision::{Hiding, Sight};
use delve_rules::schedule::{RoundSet, SimRound};

mod doors;
use doors::through_doors;

mod moving;
pub use moving::Patrol;
use moving::{
    approach_lights, go_to_look, keep_to_home, nearest_reachable, path_through_doors, pursue,
    walk_the_patrol,
};

pub struct MonsterAiPlugin;

impl Plugin for MonsterAiPlugin {
    fn build(&self, app: &mut App) {
        use delve_rules::state::KeepsState;
        // The area's state, kept in every keyframe (`delve_rules::state`).
        app.keeps::<crate::policy::monsters::LairRadius>()
            .keeps_component::<crate::policy::monsters::Mind>()
            .keeps_component::<crate::policy::monsters::Patrol>();
        use delve_rules::rules::areas::RuleArea;
        app.installs(|world, level| {
            world.insert_resource(LairRadius(level.lair_radius_feet));
        });
        app.installs_creature(|world, e, c| {
            let radius = world
                .get_resource::<LairRadius>()
                .map_or(delve_ground::level::schema::DEFAULT_LAIR_RADIUS_FEET, |r| {
                    r.0
                });
            let mind = Mind::new(
                &c.mind,
                c.at,
                world.resource::<delve_ground::grid::DungeonGrid>(),
                radius,
            );
            // In a battle a guard holds its post and a lair-dweller keeps to its lair.
            let keeps = match mind.stance {
                Stance::Guard => Some(vec![mind.home]),
                Stance::Lair => Some(mind.lair.clone()),
                Stance::Roam | Stance::Wander(_) => None,
            };
            if let Some(squares) = keeps {
                world.entity_mut(e).insert(KeepsTo {
                    home: mind.home,
                    squares,
                    in_line: false,
                });
            }
            world.entity_mut(e).insert(mind);
            if !c.patrol.is_empty() {
                world.entity_mut(e).insert(Patrol {
                    route: c.patrol.clone(),
                    next: 0,
                });
            }
        });
        app.init_resource::<ActingOrder>()
            .init_resource::<HeardThisRound>()
            .add_systems(
                SimRound,
                (
                    watch,
                    answer_calls,
                    go_to_look,
                    approach_lights,
                    pursue,
                    walk_the_patrol,
                    keep_to_home,
                    through_doors,
                )
                    .chain()
                    .in_set(RoundSet::Minds),
            );
    }
}

/// The level's reach of a lair in a room without doors, in feet (`lair_radius_feet`).
#[derive(Resource, Clone, Copy, Debug)]
struct LairRadius(u32);

/// A monster's mind: where it keeps, and how it answers what it sees and hears.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Mind {
    pub stance: Stance,
    pub shouts: bool,
    pub pursues: bool,
    pub answers_calls: bool,
    /// Where it started: a guard's post, the heart of a lair, the middle of a wanderer's range.
    pub home: GridPos,
    /// A lair-dweller's lair: the room it started in; in a room without doors (a cave), the
    /// room's squares within the level's `lair_radius_feet` of where it started.
    pub lair: Vec<GridPos>,
    /// The round of its last shout.
    pub shouted: Option<u64>,
    /// Where it last saw a hostile creature, until it gets there.
    pub quarry: Option<GridPos>,
    /// It sees a hostile creature now.
    pub sighted: bool,
    /// Where it is bound beyond a closed door: it goes through the door first
    /// ([`through_doors`]).
    pub errand: Option<GridPos>,
    /// The orders it has given on this errand (walks up to a door, opening, unlocking,
    /// bashing): a few, and the errand is given up.
    pub door_tries: u32,
}

impl Mind {
    /// A mind as the level gives it, for a creature that starts at `home` (a lair without doors
    /// reaching `lair_radius_feet`).
    pub fn new(raw: &RawMind, home: GridPos, grid: &DungeonGrid, lair_radius_feet: u32) -> Self {
        let keeps_place = matches!(raw.stance, Stance::Guard | Stance::Lair);
        Self {
            stance: raw.stance,
            shouts: raw.shouts,
            pursues: raw.pursues.unwrap_or(true),
            answers_calls: raw.answers_calls.unwrap_or(!keeps_place),
            home,
            lair: match raw.stance {
                Stance::Lair => lair(grid, home, lair_radius_feet),
                _ => Vec::new(),
            },
            shouted: None,
            quarry: None,
            sighted: false,
            errand: None,
            door_tries: 0,
        }
    }

    /// Bound for `to`, beyond a closed door: [`through_doors`] takes it there.
    fn set_errand(&mut self, to: GridPos) {
        self.errand = Some(to);
        self.door_tries = 0;
    }

    /// May it leave its place for `p` (a noise, a light, a quarry)?
    pub fn may_go(&self, p: GridPos) -> bool {
        match self.stance {
            Stance::Guard => false,
            Stance::Lair => self.lair.contains(&p),
            Stance::Roam | Stance::Wander(_) => true,
        }
    }
}

/// A lair: the room (floor enclosed by walls and doors) that holds `home`; a room with no door
/// on its edge (a cave, open on every side) reaches only `radius_feet` from `home`.
pub fn lair(grid: &DungeonGrid, home: GridPos, radius_feet: u32) -> Vec<GridPos> {
    use delve_ground::grid::terrain::Terrain;
    let room = grid.room_of(home);
    let doors = room.iter().any(|p| {
        p.neighbours()
            .into_iter()
            .any(|q| grid.terrain(q) == Some(Terrain::Door))
    });
    if doors {
        return room;
    }
    room.into_iter()
        .filter(|&p| grid.distance_feet(home, p) <= radius_feet)
        .collect()
}

/// What the monsters' minds put in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MonsterEvent {
    /// It saw intruders and shouts for its faction.
    Shouted { who: String, saw: Vec<String> },
    /// It heard a companion shout and comes.
    AnsweredCall {
        who: String,
        to: GridPos,
        called_by: String,
    },
    /// It goes where it last saw an intruder.
    Pursued { who: String, to: GridPos },
    /// It heard a noise and goes to look: what it heard, and who made it (none for a noise of
    /// no one's, a trap set off from afar or the Judge's).
    WentToLook {
        who: String,
        to: GridPos,
        noise: NoiseKind,
        made_by: Option<String>,
    },
}

impl LogEvent for MonsterEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            MonsterEvent::Shouted { who, .. }
            | MonsterEvent::AnsweredCall { who, .. }
            | MonsterEvent::Pursued { who, .. }
            | MonsterEvent::WentToLook { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for MonsterEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MonsterEvent::Shouted { who, saw } => {
                write!(f, "{who} sees {} and shouts for help", saw.join(", "))
            }
            MonsterEvent::AnsweredCall { who, to, called_by } => {
                write!(f, "{who} answers {called_by}'s shout and comes to {to}")
            }
            MonsterEvent::Pursued { who, to } => {
                write!(f, "{who} goes after the intruders, last seen at {to}")
            }
            MonsterEvent::WentToLook {
                who,
                to,
                noise,
                made_by,
            } => match made_by {
                Some(by) => write!(f, "{who} heard {by} {noise} and goes to look, to {to}"),
                None => write!(f, "{who} heard {noise} and goes to look, to {to}"),
            },
        }
    }
}

/// A monster: not in the party, not under a player's control.
type NotCommanded = (Without<PartyMember>, Without<Controlled>);

/// A monster on patrol, and its mind.
type Patroller<'a> = (
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    &'a mut Patrol,
    Option<&'a Mind>,
);

/// A monster at rest: not in the party, not under a player's control, and not on its way
/// somewhere.
type Idle = (Without<PartyMember>, Without<Controlled>, Without<Walking>);

/// Can it set off after something now: not waiting for an order, not in its faction's battle,
/// up, and not a coward who is bloodied?
fn free_to_act(
    pending: &PendingCommands,
    fighting: bool,
    name: &Name,
    conditions: &Conditions,
    combatant: Option<&Combatant>,
) -> bool {
    let coward =
        conditions.has(ConditionKind::Bloodied) && combatant.is_some_and(|c| c.flees_when_bloodied);
    !(pending.waiting_for(name.as_str())
        || fighting
        || delve_rules::rules::conditions::is_down(conditions)
        || coward)
}

/// Anyone a monster might see: where it is, whose side, whether it is up or hiding.
type Anyone<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    Has<Hiding>,
);

type Watcher<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Sight,
    &'a Conditions,
    &'a mut Mind,
);

/// A creature that is up where it stands (row, column first), with its faction and whether it
/// hides: the monsters look these up by the squares they see.
type Standing = ((i32, i32), Entity, Faction, bool);

/// What a monster's mind reads of the delve and where its orders go: the clock, the map, the acting
/// order (whose initiative it is in a battle), the commands waiting for the round, and the log its
/// decisions are told in.
#[derive(SystemParam)]
pub struct Orders<'w> {
    clock: Res<'w, Clock>,
    grid: Res<'w, DungeonGrid>,
    acting: Res<'w, ActingOrder>,
    pending: ResMut<'w, PendingCommands>,
    log: ResMut<'w, EventLog>,
}

/// Each monster that sees a hostile creature notes where the nearest one stands; one that
/// shouts, and has not shouted this last turn, shouts for its faction. In its faction's battle
/// the battle's awareness says whom it knows of (by sight or by the din), at no further cost.
pub fn watch(
    mut orders: Orders,
    factions: Res<Factions>,
    light: Res<LightMap>,
    aware: Option<Res<Awareness>>,
    mut monsters: Query<Watcher, (Without<PartyMember>, Without<Controlled>)>,
    everyone: Query<Anyone>,
    mut standing: Local<Vec<Standing>>,
) {
    let round = orders.clock.rounds;
    let mut shouts: Vec<(String, Vec<String>)> = Vec::new();
    let up = |c: &Conditions| !delve_rules::rules::conditions::is_down(c);
    // Who stands where, of those up: a monster looks at the squares it sees, not at every
    // creature of the level (on a level of tens of thousands, that was most of a round).
    standing.clear();
    for (o, _, p, f, c, hiding) in &everyone {
        if up(c) {
            standing.push(((p.0.y, p.0.x), o, *f, hiding));
        }
    }
    standing.sort_unstable_by_key(|s| (s.0, s.1));
    let standing = &*standing;
    let on = |p: GridPos| {
        let from = standing.partition_point(|s| s.0 < (p.y, p.x));
        standing[from..]
            .iter()
            .take_while(move |s| s.0 == (p.y, p.x))
            .map(|s| (s.1, s.2, s.3))
    };
    for (e, name, at, faction, sight, conditions, mut mind) in &mut monsters {
        if !up(conditions) {
            continue;
        }
        let mut seen: Vec<(u32, GridPos, Entity)> = match aware.as_ref() {
            Some(aware) if orders.acting.fighting(*faction) => aware
                .of(e)
                .iter()
                .filter_map(|&(_, o)| everyone.get(o).ok())
                .filter(|(.., c, _)| up(c))
                .map(|(o, _, p, ..)| (orders.grid.distance_feet(at.0, p.0), p.0, o))
                .collect(),
            _ => sight
                .seen
                .iter()
                .flat_map(|&(p, _)| on(p).map(move |(o, f, hiding)| (p, o, f, hiding)))
                .filter(|&(p, _, f, hiding)| {
                    factions.hostile(*faction, f)
                        && sight.sees_creature_on_seen_square(&orders.grid, &light, at.0, p, hiding)
                })
                .map(|(p, o, ..)| (orders.grid.distance_feet(at.0, p), p, o))
                .collect(),
        };
        seen.sort();
        mind.sighted = !seen.is_empty();
        if let Some((_, p, _)) = seen.first() {
            mind.quarry = Some(*p);
        } else if mind.quarry == Some(at.0) {
            mind.quarry = None;
        }
        // A shout given as the battle began was refused if its faction lost the first round
        // to surprise (RULINGS › Surprise: it does nothing): it shouts again.
        let refused =
            orders.acting.surprised.contains(&faction.0) && mind.shouted == round.checked_sub(1);
        let rested = refused || mind.shouted.is_none_or(|r| round >= r + ROUNDS_PER_TURN);
        if mind.shouts && rested && !seen.is_empty() && !orders.pending.waiting_for(name.as_str()) {
            mind.shouted = Some(round);
            let saw = seen
                .iter()
                .filter_map(|s| everyone.get(s.2).ok())
                .map(|o| o.1.to_string())
                .collect();
            shouts.push((name.to_string(), saw));
        }
    }
    shouts.sort();
    for (who, saw) in shouts {
        orders.log.push(
            round,
            MonsterEvent::Shouted {
                who: who.clone(),
                saw,
            },
        );
        orders.pending.push_derived(Command::Noise(Noise {
            who,
            action: NoisyAction::Shouting,
        }));
    }
}

type Answerer<'a> = (
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Conditions,
    Option<&'a Combatant>,
    &'a mut Mind,
);

/// A monster that heard a companion's shout comes to the square beside the one who shouted; in
/// a battle too, while it is aware of no enemy itself.
fn answer_calls(
    mut orders: Orders,
    heard: Res<HeardThisRound>,
    aware: Option<Res<Awareness>>,
    mut monsters: Query<Answerer, Idle>,
    names: Query<&Name>,
) {
    // A call is a creature's shout, so it always has a maker.
    let mut calls: Vec<(Entity, GridPos, Entity)> = heard
        .0
        .iter()
        .filter(|h| h.call)
        .filter_map(|h| Some((h.listener, h.at, h.made_by?)))
        .collect();
    calls.sort_by_key(|c| c.0);
    calls.dedup_by_key(|c| c.0);
    for (e, caller, called_by) in calls {
        let Ok((name, pos, faction, conditions, combatant, mut mind)) = monsters.get_mut(e) else {
            continue;
        };
        // Not yet in the fight itself: its faction's battle does not keep it from coming.
        let unaware = aware.as_ref().is_none_or(|a| a.of(e).is_empty());
        let fighting = orders.acting.fighting(*faction) && !unaware;
        if !mind.answers_calls
            || !free_to_act(&orders.pending, fighting, name, conditions, combatant)
        {
            continue;
        }
        if let Some((to, plain)) = nearest_reachable(&orders.grid, pos.0, caller.neighbours()) {
            if !plain {
                mind.set_errand(to);
            }
            orders.log.push(
                orders.clock.rounds,
                MonsterEvent::AnsweredCall {
                    who: name.to_string(),
                    to,
                    called_by: names
                        .get(called_by)
                        .map_or_else(|_| String::new(), |n| n.to_string()),
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
