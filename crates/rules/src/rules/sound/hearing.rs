//! Hearing (Dungeon Delves › Listening; RULINGS › Noise and hearing).
//!
//! Every round's noises travel to every listener. Within the first number of the earshot table a
//! listener hears automatically; within the second, only the faction's member closest to the
//! noise may hear it, with a Listening throw (18+, 14+ with Alertness, or its class value). One
//! throw a round covers every noise in earshot. Passive listening is once per turn while the
//! party moves and every round while it stands still, and not for one running or fighting;
//! deafened creatures hear nothing; no one listens for its own faction's noises. Active listening
//! (`Listen`) throws whatever there is to hear, once per turn while the party moves. The Judge's
//! log shows every throw; the party learns only what it heard and roughly where.
//!
//! Monsters hear by the same rules; what they hear drives their minds (`policy::monsters`).

use crate::act::{AnyAct, Choice, Concern};
use crate::rules::areas::Rank;
use crate::rules::party::Parties;
use crate::rules::penalties::Situations;
use crate::rules::tactical::TacticalCombat;
use delve_ground::dice::Dice;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use delve_ground::query_cache::in_entity_order;

use super::{HearingEvent, HowHeard};

use super::noises::{EarshotField, LastRoundNoises, Noise, Noises};
use super::{NoiseKind, SoundRefusal, SoundRow, Verdict, bound, verdict};
use crate::act::{Refusal, Unable, square_of};
use crate::creature::{
    ActingOrder, Conditions, Creature, Faction, Factions, LevelInfo, Position, Proficiencies,
};
use crate::rules::movement::{MovedThisRound, Pace, Walking};
use crate::rules::throws::{Skill, ThrowAt, ThrowKind, Thrower, throw_logged};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{ConditionKind, Proficiency};
use delve_ground::log::EventLog;
use delve_ground::table::Table;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};

/// The turn of a creature's last Listening throw.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Listened {
    pub turn: Option<u64>,
}

/// Listening actively this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListeningActively;

/// RULINGS › Noise and hearing: moving at exploration speed is quiet, at combat speed normal,
/// running loud.
fn movement_noise(pace: Pace) -> SoundRow {
    match pace {
        Pace::Exploration => SoundRow::Quiet,
        Pace::Combat => SoundRow::Normal,
        Pace::Running => SoundRow::Loud,
    }
}

/// The Listening target: the class value if the stat block gives one, else 14 with Alertness,
/// else 18 (Adventuring).
pub fn listening_target(profs: &Proficiencies) -> (i32, &'static str) {
    if let Some(&t) = profs.throws.get(&Proficiency::Listening) {
        (t, "class value")
    } else if profs.has(Proficiency::Alertness) {
        (14, "Adventuring + Alertness")
    } else {
        (18, "Adventuring")
    }
}

/// Roughly where a noise came from: its square, to the nearest 10'.
pub fn roughly(p: GridPos) -> GridPos {
    GridPos::new(p.x - p.x.rem_euclid(2), p.y - p.y.rem_euclid(2))
}

pub struct HearingPlugin;

impl Plugin for HearingPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::sound::hearing::Listened>()
            .keeps_component::<crate::rules::sound::hearing::ListeningActively>()
            .keeps::<Noises>()
            .keeps_component::<crate::rules::sound::hearing::Sneaking>();
        use crate::rules::areas::RuleArea;
        app.offers(Rank::Senses, listen_choices)
            .offers(Rank::Voice, voice_choices);
        app.installs(|world, _| world.insert_resource(Noises::default()))
            .resets::<EarshotField>()
            .resets::<LastRoundNoises>()
            .resets::<HeardThisRound>()
            .resets::<PartyMoved>()
            .installs_creature(|world, e, _| {
                world.entity_mut(e).insert(Listened::default());
            });
        app.init_resource::<Noises>()
            .init_resource::<EarshotField>()
            .init_resource::<LastRoundNoises>()
            .init_resource::<HeardThisRound>()
            .init_resource::<PartyMoved>()
            .init_resource::<ActingOrder>()
            .add_systems(SimRound, footsteps.in_set(RoundSet::Sound))
            .add_systems(SimRound, hear.in_set(RoundSet::Hearing));
    }
}

/// A noise a creature heard this round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeardNoise {
    pub listener: Entity,
    pub at: GridPos,
    /// What made it.
    pub kind: NoiseKind,
    /// Who made it (none for a noise of the dungeon's), and their faction.
    pub made_by: Option<Entity>,
    pub maker: Option<Faction>,
    /// Made by someone hostile to the listener, or by no one.
    pub hostile: bool,
    /// The listener was fighting: it heard the din without a line in the log.
    pub fighting: bool,
    /// A companion's shout calling it (heard without a throw and without a line in the log).
    pub call: bool,
}

/// Every noise heard this round, by whom, in the order heard: what the minds and the battle
/// react to (a monster goes to look; a creature that heard an enemy knows where it is).
#[derive(Resource, Clone, Debug, Default)]
pub struct HeardThisRound(pub Vec<HeardNoise>);

impl HeardThisRound {
    /// Who heard a hostile creature, and where it was.
    pub fn hostile_makers(&self) -> impl Iterator<Item = (Entity, GridPos)> + '_ {
        self.0
            .iter()
            .filter(|h| h.hostile && h.maker.is_some())
            .map(|h| (h.listener, h.at))
    }
}

/// A creature trying to move silently.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sneaking;

type Walker<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a MovedThisRound,
    &'a Proficiencies,
    Has<Sneaking>,
    &'a Conditions,
);

/// Moving makes noise by pace. A creature sneaking at exploration speed throws Sneaking each
/// round it moves: proficient and successful, it makes no noise; otherwise a quiet one.
fn footsteps(
    clock: Res<Clock>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<EventLog>,
    mut noises: ResMut<Noises>,
    q: Query<Walker>,
    tactical: Option<Res<TacticalCombat>>,
    situations: Situations,
) {
    let mut walkers: Vec<_> = q.iter().collect();
    walkers.sort_unstable_by_key(|w| w.0);
    for (e, name, pos, moved, profs, sneaking, conditions) in walkers {
        let (Some(pace), true) = (moved.pace, moved.feet > 0) else {
            continue;
        };
        if sneaking
            && pace == Pace::Exploration
            && profs.has(Proficiency::Sneaking)
            && let Some(&target) = profs.throws.get(&Proficiency::Sneaking)
            && throw_logged(
                ThrowAt {
                    dice: &mut dice,
                    log: &mut log,
                    round: clock.rounds,
                },
                crate::rules::throws::Thrower::new(name, conditions, tactical.as_deref()),
                ThrowKind::Check,
                crate::rules::throws::Skill::Proficiency(
                    delve_ground::level::schema::Proficiency::Sneaking,
                ),
                "Sneaking",
                situations.action_check(e),
                target,
            )
        {
            continue;
        }
        noises.0.push(Noise {
            at: pos.0,
            sound: movement_noise(pace),
            kind: NoiseKind::Moving(pace),
            what: format!("{name} moving at {pace} speed"),
            maker: Some(e),
            call: false,
        });
    }
}

/// `Sneak`: start or stop moving silently.
pub(crate) fn sneak(world: &mut World, who: Entity, on: bool) -> Result<(), Refusal> {
    if !on {
        world.entity_mut(who).remove::<Sneaking>();
        return Ok(());
    }
    let profs = world
        .get::<Proficiencies>(who)
        .ok_or(Unable::NoProficiencies)?;
    if !profs.has(Proficiency::Sneaking) || !profs.throws.contains_key(&Proficiency::Sneaking) {
        return Err(SoundRefusal::NotASneak.into());
    }
    world.entity_mut(who).insert(Sneaking);
    Ok(())
}

type Listener<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a Faction,
    &'a Proficiencies,
    &'a Conditions,
    &'a MovedThisRound,
    &'a mut Listened,
    Has<ListeningActively>,
);

/// The turn in which each faction last moved at all (RULINGS › Noise and hearing: listening is
/// once per turn while the party moves; a party standing still may listen every round).
#[derive(Resource, Clone, Debug, Default)]
pub struct PartyMoved(pub std::collections::BTreeMap<Faction, u64>);

impl PartyMoved {
    /// Whether any member of the faction has moved during this turn.
    pub fn this_turn(&self, faction: Faction, turn: u64) -> bool {
        self.0.get(&faction) == Some(&turn)
    }
}

/// One noise (or one side's din) within a listener's earshot this round.
struct InEarshot {
    group: usize,
    listener: Entity,
    name: String,
    faction: Faction,
    half_feet: u32,
    verdict: Verdict,
    /// Which of the group's noises is nearest the listener.
    source: usize,
    /// The listener is its faction's member closest to the noise: the only one who may throw
    /// for it (Dungeon Delves › Listening).
    closest: bool,
}

/// What hearing keeps and reads besides the table: the level's environments, who is hostile to
/// whom, this round's noises and last round's, the earshot field, what was heard this round, and
/// when each party last moved.
#[derive(SystemParam)]
pub struct Sounds<'w> {
    info: Res<'w, LevelInfo>,
    factions: Res<'w, Factions>,
    noises: ResMut<'w, Noises>,
    field: ResMut<'w, EarshotField>,
    last: ResMut<'w, LastRoundNoises>,
    heard_now: ResMut<'w, HeardThisRound>,
    party_moved: ResMut<'w, PartyMoved>,
}

/// The rules a Listening throw is made under: who is fighting (the acting order), the tactical
/// rules, and the situational penalties.
#[derive(SystemParam)]
pub struct ListeningRules<'w, 's> {
    acting: Res<'w, ActingOrder>,
    tactical: Option<Res<'w, TacticalCombat>>,
    situations: Situations<'w, 's>,
}

/// Every noise of the round reaches whoever can hear it (Dungeon Delves › Listening; RULINGS ›
/// Noise and hearing):
/// - within the first number of the earshot table a listener hears automatically;
/// - within the second, only its faction's member closest to the noise may hear it, with a
///   Listening throw; a closest member who heard it automatically counts as the one who listened;
/// - one throw a round covers every noise in the listener's earshot: a success hears them all;
/// - passive listening is not for one running or fighting, and is once per turn while the party
///   moves at all; a party standing still listens every round; active listening (`Listen`)
///   always throws, in secret, whether or not there is anything to hear.
pub fn hear(
    mut table: Table,
    mut sounds: Sounds,
    mut listeners: Query<Listener, With<Creature>>,
    makers: Query<(&Faction, &Name)>,
    rules: ListeningRules,
    mut commands: Commands,
) {
    let round = table.clock.rounds;
    let turn = round / ROUNDS_PER_TURN;
    for (_, _, _, faction, _, _, moved, ..) in &listeners {
        if moved.feet > 0 {
            sounds.party_moved.0.insert(*faction, turn);
        }
    }
    sounds.heard_now.0.clear();
    sounds.last.0 = sounds.noises.0.clone();
    let faction_of = |n: &Noise| n.maker.and_then(|m| makers.get(m).ok()).map(|(f, _)| *f);
    // The noises of a side in a battle (its blows and steps) carry as one din: one flood per
    // row for them all, and each listener hears the nearest. Other noises go one by one.
    let in_battle = |n: &Noise| faction_of(n).is_some_and(|f| rules.acting.fighting(f));
    let groups = group_the_noises(
        std::mem::take(&mut sounds.noises.0),
        &in_battle,
        &faction_of,
    );
    // Who has each noise in earshot, closest first (ties by name, for a fixed order).
    let (in_earshot, calls) = in_earshot_of(
        &groups,
        (&mut sounds.field, &table.grid, &sounds.info),
        &listeners,
        &faction_of,
        &rules.acting,
    );
    let active: Vec<Entity> = in_entity_order(listeners.iter().filter(|l| l.8).map(|l| l.0));
    // Each listener's one throw for the round, if it listens.
    let mut listened: Vec<(Entity, bool)> = Vec::new();
    let mut throw_for = |e: Entity, for_what: &[&InEarshot], listened: &mut Vec<(Entity, bool)>| {
        let Ok((_, name, _, faction, profs, conditions, moved, mut last_listened, active)) =
            listeners.get_mut(e)
        else {
            return;
        };
        let passive = !rules.acting.fighting(*faction)
            && moved.pace != Some(Pace::Running)
            && (last_listened.turn != Some(turn) || !sounds.party_moved.this_turn(*faction, turn));
        if !(active || passive) {
            listened.push((e, false));
            return;
        }
        last_listened.turn = Some(turn);
        let (target, why) = listening_target(profs);
        let mut what = format!("Listening ({why})");
        for (k, entry) in for_what.iter().enumerate() {
            let noise = &groups[entry.group][entry.source.min(groups[entry.group].len() - 1)];
            what += if k == 0 { " for " } else { "; " };
            what += &format!("{} {} away", noise.what, super::feet(entry.half_feet));
        }
        let thrower = Thrower::new(name, conditions, rules.tactical.as_deref());
        // RULINGS › Movement penalties: prone, movement and water reach Listening too.
        let success = throw_logged(
            ThrowAt {
                dice: &mut table.dice,
                log: &mut table.log,
                round,
            },
            thrower,
            ThrowKind::Check,
            Skill::Proficiency(Proficiency::Listening),
            what,
            rules.situations.action_check(e),
            target,
        );
        listened.push((e, success));
    };
    for entry in &in_earshot {
        if entry.verdict != Verdict::Throw
            || !entry.closest
            || listened.iter().any(|(e, _)| *e == entry.listener)
        {
            continue;
        }
        let for_what: Vec<&InEarshot> = in_earshot
            .iter()
            .filter(|x| x.listener == entry.listener && x.closest && x.verdict == Verdict::Throw)
            .collect();
        throw_for(entry.listener, &for_what, &mut listened);
    }
    // One listening actively throws even with nothing in earshot: the Judge throws in secret.
    for &e in &active {
        if !listened.iter().any(|(l, _)| *l == e) {
            throw_for(e, &[], &mut listened);
        }
    }
    for entry in &in_earshot {
        let how = match entry.verdict {
            Verdict::Automatic => HowHeard::Automatically,
            Verdict::Throw if entry.closest && listened.contains(&(entry.listener, true)) => {
                HowHeard::WithAThrow
            }
            _ => continue,
        };
        let group = &groups[entry.group];
        let noise = &group[entry.source.min(group.len() - 1)];
        let maker = faction_of(noise);
        // Those fighting hear the din without a line in the log for every blow.
        let fighting = rules.acting.fighting(entry.faction);
        sounds.heard_now.0.push(HeardNoise {
            listener: entry.listener,
            at: noise.at,
            kind: noise.kind,
            made_by: noise.maker,
            maker,
            hostile: maker.is_none_or(|m| sounds.factions.hostile(m, entry.faction)),
            fighting,
            call: false,
        });
        if !fighting {
            table.log.push(
                round,
                HearingEvent::Heard {
                    who: entry.name.clone(),
                    sound: noise.sound,
                    noise: noise.kind,
                    made_by: noise
                        .maker
                        .and_then(|m| makers.get(m).ok())
                        .map(|(_, n)| n.to_string()),
                    what: noise.what.clone(),
                    roughly_at: roughly(noise.at),
                    how,
                },
            );
        }
    }
    sounds.heard_now.0.extend(calls);
    for e in active {
        commands.entity(e).remove::<ListeningActively>();
    }
}

/// The noises of a side in a battle (its blows and steps) carry as one din: one flood per row
/// for them all. Other noises go one by one.
fn group_the_noises(
    noises: Vec<Noise>,
    in_battle: &dyn Fn(&Noise) -> bool,
    faction_of: &dyn Fn(&Noise) -> Option<Faction>,
) -> Vec<Vec<Noise>> {
    let mut groups: Vec<Vec<Noise>> = Vec::new();
    for noise in noises {
        match groups.iter_mut().find(|g| {
            in_battle(&noise)
                && in_battle(&g[0])
                && g[0].sound == noise.sound
                && g[0].call == noise.call
                && faction_of(&g[0]) == faction_of(&noise)
        }) {
            Some(g) => g.push(noise),
            None => groups.push(vec![noise]),
        }
    }
    groups
}

/// Who has each group of noises in earshot, closest first (ties by name, for a fixed order),
/// the closest of each faction marked; and the companions a shout of their own faction calls.
fn in_earshot_of(
    groups: &[Vec<Noise>],
    (field, grid, info): (&mut EarshotField, &DungeonGrid, &LevelInfo),
    listeners: &Query<Listener, With<Creature>>,
    faction_of: &dyn Fn(&Noise) -> Option<Faction>,
    acting: &ActingOrder,
) -> (Vec<InEarshot>, Vec<HeardNoise>) {
    // Noises carry as far as the quietest part of the level lets them; each listener hears by
    // the environment where it stands.
    let widest = info.widest_environment();
    let mut in_earshot: Vec<InEarshot> = Vec::new();
    let mut calls: Vec<HeardNoise> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let sources: Vec<GridPos> = group.iter().map(|n| n.at).collect();
        let field = field.flood(grid, &sources, bound(group[0].sound, widest));
        let maker_faction = faction_of(&group[0]);
        let first = in_earshot.len();
        for (e, name, pos, faction, _, conditions, ..) in listeners.iter() {
            if group.iter().any(|n| n.maker == Some(e))
                || conditions.has(ConditionKind::Deafened)
                || crate::rules::conditions::is_down(conditions)
            {
                continue;
            }
            let d = field.half_feet(grid, pos.0);
            let verdict = verdict(group[0].sound, info.environment_at(pos.0), d);
            // A creature does not listen for its own faction's noises (no throw, no Listening
            // chance used, no line in the log); but a companion's shout within its earshot
            // calls it, and it knows where the shout came from.
            if maker_faction == Some(*faction) {
                if group[0].call && verdict != Verdict::Inaudible {
                    calls.push(HeardNoise {
                        listener: e,
                        at: group[0].at,
                        kind: group[0].kind,
                        made_by: group[0].maker,
                        maker: maker_faction,
                        hostile: false,
                        fighting: acting.fighting(*faction),
                        call: true,
                    });
                }
                continue;
            }
            if verdict != Verdict::Inaudible {
                in_earshot.push(InEarshot {
                    group: g,
                    listener: e,
                    name: name.to_string(),
                    faction: *faction,
                    half_feet: d.unwrap_or(0),
                    verdict,
                    source: field.nearest_source(grid, pos.0).unwrap_or(0),
                    closest: false,
                });
            }
        }
        let reach = &mut in_earshot[first..];
        reach.sort_by(|a, b| (a.half_feet, &a.name).cmp(&(b.half_feet, &b.name)));
        let mut seen: Vec<Faction> = Vec::new();
        for entry in reach {
            entry.closest = !seen.contains(&entry.faction);
            seen.push(entry.faction);
        }
    }
    (in_earshot, calls)
}

/// Dungeon Delves › Listening: "an adventurer standing at a door, passageway, or intersection
/// can actively listen". A square beside (or in) a doorway; one in a passage at most 10' wide
/// across one of its axes; or a crossing of passages (every diagonal neighbour solid, three or
/// four ways on).
pub fn at_a_listening_post(grid: &DungeonGrid, at: GridPos) -> bool {
    use delve_ground::grid::Terrain;
    let open = |p: GridPos| {
        grid.terrain(p)
            .is_some_and(|t| !matches!(t, Terrain::Wall(_) | Terrain::Rock))
    };
    if std::iter::once(at)
        .chain(at.neighbours())
        .any(|p| grid.terrain(p) == Some(Terrain::Door))
    {
        return true;
    }
    // Open squares in a line through `at` along (dx, dy), `at` included, up to three.
    let across = |(dx, dy): (i32, i32)| {
        let run = |sign: i32| {
            (1..=2)
                .take_while(|&k| open(GridPos::new(at.x + sign * k * dx, at.y + sign * k * dy)))
                .count()
        };
        1 + run(1) + run(-1)
    };
    let scale = grid.scale_feet().max(1) as usize;
    if across((1, 0)) * scale <= 10 || across((0, 1)) * scale <= 10 {
        return true;
    }
    let diagonals_solid = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        .iter()
        .all(|&(dx, dy)| !open(GridPos::new(at.x + dx, at.y + dy)));
    let ways = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .iter()
        .filter(|&&(dx, dy)| open(GridPos::new(at.x + dx, at.y + dy)))
        .count();
    diagonals_solid && ways >= 3
}

/// `Listen`: one round of active listening, at a door, a passageway or an intersection, once per
/// turn while the party moves.
pub fn listen(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let here = square_of(world, who)?;
    if !at_a_listening_post(world.resource::<DungeonGrid>(), here) {
        return Err(SoundRefusal::NotAtADoorOrPassage { at: here }.into());
    }
    let turn = world.resource::<Clock>().rounds / ROUNDS_PER_TURN;
    if world
        .get::<Conditions>(who)
        .is_some_and(|c| c.has(ConditionKind::Deafened))
    {
        return Err(SoundRefusal::Deafened.into());
    }
    let moving = world
        .resource::<Parties>()
        .of(who)
        .is_some_and(|p| p.pace.is_some())
        || world.get::<Walking>(who).is_some()
        || world
            .get::<Faction>(who)
            .is_some_and(|f| world.resource::<PartyMoved>().this_turn(*f, turn));
    if moving
        && world
            .get::<Listened>(who)
            .is_some_and(|l| l.turn == Some(turn))
    {
        return Err(SoundRefusal::ListenedThisTurn.into());
    }
    world.entity_mut(who).insert(ListeningActively);
    Ok(())
}

/// Listening is offered where `listen` would take it up (Dungeon Delves › Listening): at a
/// door, passageway or intersection, not deafened, and — while its party moves — once a turn;
/// with its Listening target (the Judge throws in secret).
fn listen_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Ok(here), Some(name), Some(profs)) = (
        square_of(world, who),
        world.get::<Name>(who),
        world.get::<Proficiencies>(who),
    ) else {
        return Vec::new();
    };
    let turn = world.resource::<Clock>().rounds / ROUNDS_PER_TURN;
    let deaf = world
        .get::<Conditions>(who)
        .is_some_and(|c| c.has(ConditionKind::Deafened));
    let moving = world
        .resource::<Parties>()
        .of(who)
        .is_some_and(|p| p.pace.is_some())
        || world.get::<Walking>(who).is_some()
        || world.get::<Faction>(who).is_some_and(|f| {
            world
                .get_resource::<PartyMoved>()
                .is_some_and(|m| m.this_turn(*f, turn))
        });
    let listened = world
        .get::<Listened>(who)
        .is_some_and(|l| l.turn == Some(turn));
    if deaf || (moving && listened) || !at_a_listening_post(world.resource::<DungeonGrid>(), here) {
        return Vec::new();
    }
    let (target, by) = listening_target(profs);
    let listen = AnyAct::from(super::Listen {
        who: name.to_string(),
    });
    let note = format!("by {by}; the Judge's secret throw");
    let choice = Choice::new("listen", "1 round", Some(target), &note, listen);
    vec![(Concern::Here, choice)]
}

/// A creature's voice and feet (Dungeon Delves › Noise): to talk or shout (a noise of its row
/// of the earshot table, heard by friend and foe), and, proficient in Sneaking, to sneak or stop.
fn voice_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Some(name), Some(profs)) = (world.get::<Name>(who), world.get::<Proficiencies>(who))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (way, action) in [
        ("talk", super::NoisyAction::Talking),
        ("shout", super::NoisyAction::Shouting),
    ] {
        let noise = AnyAct::from(super::Noise {
            who: name.to_string(),
            action,
        });
        let note = format!("a {} noise, heard by friend and foe", action.row());
        out.push((Concern::Here, Choice::new(way, "free", None, &note, noise)));
    }
    if let Some(&target) = profs
        .throws
        .get(&Proficiency::Sneaking)
        .filter(|_| profs.has(Proficiency::Sneaking))
    {
        let on = world.get::<Sneaking>(who).is_none();
        let sneak = AnyAct::from(super::Sneak {
            who: name.to_string(),
            on,
        });
        let choice = if on {
            Choice::new(
                "sneak",
                "as it moves",
                Some(target),
                "its footsteps unheard on a success (the Judge throws in secret)",
                sneak,
            )
        } else {
            Choice::new("stop sneaking", "free", None, "", sneak)
        };
        out.push((Concern::Here, choice));
    }
    out
}

/// `Noise`: a creature makes the noise of an action (talking, shouting, screaming, …) at its
/// square.
pub(crate) fn creature_noise(
    world: &mut World,
    who: Entity,
    action: super::NoisyAction,
) -> Result<(), Refusal> {
    let at = square_of(world, who)?;
    let name = crate::creature::name_of(world, who);
    let what = format!("{name} {}", action.words());
    world.resource_mut::<Noises>().0.push(Noise {
        at,
        sound: action.row(),
        kind: NoiseKind::Action(action),
        what,
        maker: Some(who),
        call: action == super::NoisyAction::Shouting,
    });
    Ok(())
}

/// `MakeNoise`: the Judge (or a script) makes a noise of any row at any square; a trap set off
/// with no one in its way makes its noise so too.
pub fn make_noise(
    world: &mut World,
    at: GridPos,
    sound: SoundRow,
    kind: NoiseKind,
    what: &str,
) -> Result<(), Refusal> {
    if !world.resource::<DungeonGrid>().in_bounds(at) {
        return Err(SoundRefusal::OutsideTheMap { at }.into());
    }
    world.resource_mut::<Noises>().0.push(Noise {
        at,
        sound,
        kind,
        what: what.to_owned(),
        maker: None,
        call: false,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_by_pace() {
        assert_eq!(movement_noise(Pace::Exploration), SoundRow::Quiet);
        assert_eq!(movement_noise(Pace::Combat), SoundRow::Normal);
        assert_eq!(movement_noise(Pace::Running), SoundRow::Loud);
    }

    #[test]
    fn alertness_changes_18_to_14_and_a_class_value_wins() {
        let mut p = Proficiencies::default();
        assert_eq!(listening_target(&p).0, 18);
        p.list.push(Proficiency::Alertness);
        assert_eq!(listening_target(&p).0, 14);
        p.throws.insert(Proficiency::Listening, 11);
        assert_eq!(listening_target(&p).0, 11);
    }
}
