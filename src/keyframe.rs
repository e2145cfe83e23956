//! Keyframes: the delve's state kept every turn, so that going to any round of a delve (the
//! timeline's scrubbing, undo, redo) restores the nearest keyframe before it and replays only the
//! rounds after, instead of the whole delve from its start (DESIGN.md › Principles: level + seed
//! + journal replay the delve; the keyframes only make it quick).
//!
//! What a keyframe holds is what the areas registered as their state ([`KeepsState`]): every
//! resource and every component of the level's entities that changes from round to round. A
//! test (`every_piece_of_delve_state_is_kept`) fails on a component or resource of the delve
//! that is neither kept nor named as not the delve's state, so a new area cannot forget it.
//!
//! The delve's record — its journal, its log — only grows along one line of play, so a
//! keyframe keeps how long they were; [`Keyframes`] holds them whole for the line the keyframes
//! were taken on. Giving another command than the line gave at a round (a fork) drops the
//! keyframes after that round. A resource or component that did not change since the last
//! keyframe is shared with it, not copied.

use std::sync::Arc;

use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;

use crate::command::{Journal, ScriptedCommand};
use crate::creature::LevelEntity;
use crate::log::{EventLog, LogEntry};
use crate::time::{Clock, ROUNDS_PER_HOUR, ROUNDS_PER_TURN};
use crate::turn_check::TurnCheck;

/// A piece of the delve's state as it was at a keyframe.
trait Kept: Send + Sync {
    /// Puts it back into the world.
    fn restore(&self, world: &mut World);
    /// The bytes it holds itself (not counting what its values hold on the heap).
    fn bytes(&self) -> usize;
    /// Is it the same state as `other` (of the same type)? Then, in words, how it differs.
    fn differs(&self, other: &dyn Kept) -> Option<String>;
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Takes one type's state at each keyframe, sharing it with the last keyframe when it has not
/// changed since.
trait Keeper: Send + Sync {
    fn take(&mut self, world: &mut World, since: Tick) -> Arc<dyn Kept>;
    /// Forgets what it shared (the world was replaced).
    fn forget(&mut self);
    /// The type it keeps.
    fn kept(&self) -> (std::any::TypeId, &'static str);
}

struct KeptResource<R>(Option<R>);

impl<R: Resource + Clone + std::fmt::Debug> Kept for KeptResource<R> {
    fn differs(&self, other: &dyn Kept) -> Option<String> {
        let other = other.as_any().downcast_ref::<Self>()?;
        let (a, b) = (format!("{:?}", self.0), format!("{:?}", other.0));
        (a != b).then(|| format!("{}: {a} against {b}", std::any::type_name::<R>()))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn restore(&self, world: &mut World) {
        match &self.0 {
            Some(r) => world.insert_resource(r.clone()),
            None => {
                world.remove_resource::<R>();
            }
        }
    }

    fn bytes(&self) -> usize {
        size_of::<Self>()
    }
}

struct ResourceKeeper<R> {
    last: Option<Arc<KeptResource<R>>>,
}

impl<R: Resource + Clone + std::fmt::Debug> Keeper for ResourceKeeper<R> {
    fn take(&mut self, world: &mut World, since: Tick) -> Arc<dyn Kept> {
        let this_run = world.read_change_tick();
        let now = world.get_resource_ref::<R>();
        let unchanged = match (&now, &self.last) {
            (Some(r), Some(last)) => {
                last.0.is_some() && !r.last_changed().is_newer_than(since, this_run)
            }
            (None, Some(last)) => last.0.is_none(),
            (_, None) => false,
        };
        if !unchanged {
            self.last = Some(Arc::new(KeptResource(now.map(|r| R::clone(&r)))));
        }
        self.last.clone().expect("taken above")
    }

    fn forget(&mut self) {
        self.last = None;
    }

    fn kept(&self) -> (std::any::TypeId, &'static str) {
        type_of::<R>()
    }
}

/// One component type on every entity of the level that has it, lowest entity first.
struct KeptComponents<C>(Vec<(Entity, C)>);

impl<C: Component<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug> Kept
    for KeptComponents<C>
{
    fn differs(&self, other: &dyn Kept) -> Option<String> {
        let other = other.as_any().downcast_ref::<Self>()?;
        let words = |k: &Self| k.0.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>();
        let (a, b) = (words(self), words(other));
        (a != b).then(|| {
            let first = a.iter().zip(&b).find(|(x, y)| x != y).map_or_else(
                || format!("{} against {} entities", a.len(), b.len()),
                |(x, y)| format!("{x} against {y}"),
            );
            format!("{}: {first}", std::any::type_name::<C>())
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn restore(&self, world: &mut World) {
        let now: Vec<Entity> = world
            .query_filtered::<Entity, (With<C>, With<LevelEntity>)>()
            .iter(world)
            .collect();
        for e in now {
            if self.0.binary_search_by_key(&e, |(k, _)| *k).is_err() {
                world.entity_mut(e).remove::<C>();
            }
        }
        for (e, c) in &self.0 {
            let Ok(mut entity) = world.get_entity_mut(*e) else {
                continue;
            };
            match entity.get_mut::<C>() {
                Some(mut now) => *now = c.clone(),
                None => {
                    entity.insert(c.clone());
                }
            }
        }
    }

    fn bytes(&self) -> usize {
        size_of::<Self>() + self.0.len() * size_of::<(Entity, C)>()
    }
}

/// Every entity of the level with its `C`, and when that last changed.
type LevelQuery<C> = QueryState<(Entity, Ref<'static, C>), With<LevelEntity>>;

struct ComponentKeeper<C: Component> {
    last: Option<Arc<KeptComponents<C>>>,
    query: Option<LevelQuery<C>>,
}

impl<C: Component<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug> Keeper
    for ComponentKeeper<C>
{
    fn take(&mut self, world: &mut World, since: Tick) -> Arc<dyn Kept> {
        let this_run = world.read_change_tick();
        let query = self.query.get_or_insert_with(|| world.query_filtered());
        query.update_archetypes(world);
        let q = query.query_manual(world);
        let mut now: Vec<(Entity, Ref<C>)> = q.iter().collect();
        now.sort_unstable_by_key(|(e, _)| *e);
        let unchanged = self.last.as_ref().is_some_and(|last| {
            last.0.len() == now.len()
                && last.0.iter().zip(&now).all(|((a, _), (b, c))| {
                    a == b && !c.last_changed().is_newer_than(since, this_run)
                })
        });
        if !unchanged {
            let taken = now.iter().map(|(e, c)| (*e, C::clone(c))).collect();
            self.last = Some(Arc::new(KeptComponents(taken)));
        }
        self.last.clone().expect("taken above")
    }

    fn forget(&mut self) {
        self.last = None;
        self.query = None;
    }

    fn kept(&self) -> (std::any::TypeId, &'static str) {
        type_of::<C>()
    }
}

/// Everything the areas registered as the delve's state.
#[derive(Resource, Default)]
pub struct StateKept {
    keepers: Vec<Box<dyn Keeper>>,
    /// The change tick of the last keyframe taken: what changed after it is taken anew.
    since: Option<Tick>,
}

impl StateKept {
    /// Every kept component and resource: its type and its name.
    pub fn types(&self) -> Vec<(std::any::TypeId, &'static str)> {
        self.keepers.iter().map(|k| k.kept()).collect()
    }
}

fn type_of<T: 'static>() -> (std::any::TypeId, &'static str) {
    (std::any::TypeId::of::<T>(), std::any::type_name::<T>())
}

/// What an area registers as its state, from its plugin.
pub trait KeepsState {
    /// A resource that changes as the delve goes on: kept in every keyframe.
    fn keeps<R: Resource + Clone + std::fmt::Debug>(&mut self) -> &mut Self;
    /// A component of the level's entities that changes as the delve goes on (or is put on and
    /// taken off them): kept in every keyframe.
    fn keeps_component<
        C: Component<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug,
    >(
        &mut self,
    ) -> &mut Self;
}

impl KeepsState for App {
    fn keeps<R: Resource + Clone + std::fmt::Debug>(&mut self) -> &mut Self {
        self.init_resource::<StateKept>();
        self.world_mut()
            .resource_mut::<StateKept>()
            .keepers
            .push(Box::new(ResourceKeeper::<R> { last: None }));
        self
    }

    fn keeps_component<
        C: Component<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug,
    >(
        &mut self,
    ) -> &mut Self {
        self.init_resource::<StateKept>();
        self.world_mut()
            .resource_mut::<StateKept>()
            .keepers
            .push(Box::new(ComponentKeeper::<C> {
                last: None,
                query: None,
            }));
        self
    }
}

/// The delve at one round: taken at the end of the round before it (at the start of the delve
/// for round 0), before the Judge's hand between rounds.
pub struct Keyframe {
    /// The round about to be played.
    pub round: u64,
    /// How many commands of the journal had been given.
    journal_len: usize,
    /// How long the log was.
    log_len: usize,
    state: Vec<Arc<dyn Kept>>,
}

impl Keyframe {
    /// The bytes this keyframe holds that no keyframe before it shares.
    fn own_bytes(&self, before: Option<&Keyframe>) -> usize {
        self.state
            .iter()
            .enumerate()
            .filter(|(i, s)| before.is_none_or(|b| !Arc::ptr_eq(s, &b.state[*i])))
            .map(|(_, s)| s.bytes())
            .sum::<usize>()
            + size_of::<Self>()
    }
}

/// The keyframes of the delve in a world, and the line of play they were taken on. Insert it
/// (with [`Keyframes::every`]) to have a world keep them; a world without it keeps none.
///
/// Over the last hour of the line a keyframe every `every` rounds is kept; before that, one an
/// hour (going there replays up to an hour of rounds: milliseconds, and a sixth of the memory).
#[derive(Resource)]
pub struct Keyframes {
    /// Rounds between keyframes.
    every: u64,
    frames: Vec<Keyframe>,
    /// Every command given along the line, as far as it was played.
    line: Vec<ScriptedCommand>,
    /// The log along the line, as far as it was played.
    log: Vec<LogEntry>,
    /// The check of every turn along the line, as far as it was played.
    checks: Vec<TurnCheck>,
    /// The lines left at a fork, each with the round it was left at: kept, not played.
    left: Vec<(u64, Vec<ScriptedCommand>)>,
    /// The last round played along the line.
    end: u64,
}

impl Default for Keyframes {
    fn default() -> Self {
        Self::every(ROUNDS_PER_TURN)
    }
}

impl Keyframes {
    /// Keyframes every `rounds` rounds (at least 1).
    pub fn every(rounds: u64) -> Self {
        Self {
            every: rounds.max(1),
            frames: Vec::new(),
            line: Vec::new(),
            log: Vec::new(),
            checks: Vec::new(),
            left: Vec::new(),
            end: 0,
        }
    }

    /// The lines left at a fork (a command given where the line gave another, or none), each
    /// with the round it was left at, oldest first.
    pub fn left(&self) -> &[(u64, Vec<ScriptedCommand>)] {
        &self.left
    }

    /// The checks of the turns that ended by `round` along the line (`crate::turn_check`).
    pub fn checks_to(&self, round: u64) -> &[TurnCheck] {
        let n = self
            .checks
            .partition_point(|c| c.turn * ROUNDS_PER_TURN <= round);
        &self.checks[..n]
    }

    /// The rounds of the keyframes kept.
    pub fn rounds(&self) -> impl Iterator<Item = u64> + '_ {
        self.frames.iter().map(|f| f.round)
    }

    /// The last round played along the line the keyframes were taken on.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Every command given along the line, the rounds not played now included (after going
    /// back, the line still holds what came after).
    pub fn line(&self) -> &[ScriptedCommand] {
        &self.line
    }

    /// The log of the whole line.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The bytes the keyframes hold (each resource and component copied once, shared where it
    /// did not change; not counting what their values hold on the heap), and the log's entries.
    pub fn bytes(&self) -> usize {
        self.frames
            .iter()
            .enumerate()
            .map(|(i, f)| f.own_bytes(i.checked_sub(1).map(|j| &self.frames[j])))
            .sum()
    }

    /// The commands of the line given before `round`.
    fn before(&self, round: u64) -> &[ScriptedCommand] {
        let n = self.line.partition_point(|c| c.round < round);
        &self.line[..n]
    }

    /// Is the keyframe `f` on the line of `journal` (the commands it gives before its round are
    /// the line's)?
    fn on_line_of(&self, f: &Keyframe, journal: &[ScriptedCommand]) -> bool {
        journal.len() >= f.journal_len
            && journal[..f.journal_len] == self.line[..f.journal_len]
            && journal
                .get(f.journal_len)
                .is_none_or(|c| c.round >= f.round)
    }

    /// The world's journal and log at the end of a round take the line's place where they
    /// differ from it: the keyframes after the first round they differ at are dropped.
    fn follow(&mut self, journal: &[ScriptedCommand], log: &[LogEntry], rounds: u64) {
        let same = journal
            .iter()
            .zip(&self.line)
            .take_while(|(a, b)| a == b)
            .count();
        let line_before = self.before(rounds).len();
        // A command where the line gave another, a command at a round the line was played
        // past without it, or the line's commands before this round not all given: a fork.
        // (A command given at the line's end is the line going on.)
        let differs = same < journal.len().min(self.line.len());
        let added = journal.get(same).is_some_and(|c| c.round < self.end);
        if differs || added || same < line_before {
            // A fork at the round of the first command that differs.
            let at = [journal.get(same), self.line.get(same)]
                .into_iter()
                .flatten()
                .map(|c| c.round)
                .min()
                .unwrap_or(rounds);
            self.frames.retain(|f| f.round <= at);
            let left = std::mem::replace(&mut self.line, journal.to_vec());
            self.left.push((at, left));
            let kept = self.frames.last().map_or(0, |f| f.log_len);
            self.log.truncate(kept);
            self.end = self.frames.last().map_or(0, |f| f.round);
            let end = self.end;
            self.checks.retain(|c| c.turn * ROUNDS_PER_TURN <= end);
        } else if journal.len() > self.line.len() {
            self.line = journal.to_vec();
        }
        if log.len() > self.log.len() {
            self.log.extend(log[self.log.len()..].iter().cloned());
        }
        self.end = self.end.max(rounds);
    }
}

impl Keyframes {
    /// Works out the check of turn `turn`, which ends with the log `log_len` long and the
    /// world in `world`.
    fn check(&mut self, turn: u64, log_len: usize, world: &World) {
        let events = crate::turn_check::events_of(&self.log[..log_len], turn);
        let state = crate::turn_check::state_of(world);
        let check = crate::turn_check::check(self.checks.last(), turn, events, &state);
        self.checks.push(check);
    }
}

/// Takes a keyframe of the world if it keeps them and one is due: at every `every`-th round
/// (the end of a turn, by default), once per round along the line. In `SimRound` after the
/// clock, and when a level is installed.
pub fn take_keyframe(world: &mut World) {
    let Some(mut frames) = world.remove_resource::<Keyframes>() else {
        return;
    };
    let rounds = world.resource::<Clock>().rounds;
    let journal = world.resource::<Journal>();
    frames.follow(&journal.0, world.resource::<EventLog>().entries(), rounds);
    let due = rounds.is_multiple_of(frames.every)
        && frames.frames.last().is_none_or(|f| f.round < rounds);
    // At a turn's end, its check, when the checks before it are all there.
    let turn = rounds / ROUNDS_PER_TURN;
    let checked = rounds > 0
        && rounds.is_multiple_of(ROUNDS_PER_TURN)
        && frames.checks.len() as u64 == turn - 1;
    if checked {
        let log_len = world.resource::<EventLog>().len();
        frames.check(turn, log_len, world);
    }
    if due {
        let frame = take(world);
        frames.frames.push(frame);
        // Older than an hour: one an hour.
        let recent = rounds.saturating_sub(ROUNDS_PER_HOUR);
        frames
            .frames
            .retain(|f| f.round >= recent || f.round.is_multiple_of(ROUNDS_PER_HOUR));
    }
    world.insert_resource(frames);
}

fn take(world: &mut World) -> Keyframe {
    let mut kept = world.remove_resource::<StateKept>().unwrap_or_default();
    let since = kept.since.unwrap_or(Tick::new(0));
    let state = kept
        .keepers
        .iter_mut()
        .map(|k| k.take(world, since))
        .collect();
    // What changes after this is newer than it, even when changed outside a system.
    kept.since = Some(world.change_tick());
    world.increment_change_tick();
    world.insert_resource(kept);
    Keyframe {
        round: world.resource::<Clock>().rounds,
        journal_len: world.resource::<Journal>().0.len(),
        log_len: world.resource::<EventLog>().len(),
        state,
    }
}

/// A new delve in the world: the keyframes of the old one are gone, and the new one's first
/// keyframe is taken (when the world keeps keyframes).
pub(crate) fn begin(world: &mut World) {
    if let Some(mut frames) = world.get_resource_mut::<Keyframes>() {
        let every = frames.every;
        *frames = Keyframes::every(every);
    }
    if let Some(mut kept) = world.get_resource_mut::<StateKept>() {
        kept.since = None;
        for k in &mut kept.keepers {
            k.forget();
        }
    }
    take_keyframe(world);
}

/// Brings the delve in `world` to `round` as `journal` plays it: from the latest keyframe at or
/// before `round` on the line of `journal`, the keyframe restored and the rounds after it played
/// with the journal's commands at their rounds; the world is as [`crate::save::replay_into`]
/// would leave it, log and journal included. Without a keyframe to start from, replays from
/// the start of the delve (`level`, `seed`).
pub fn replay_to(
    world: &mut World,
    level: &crate::level::Level,
    seed: u64,
    journal: &[ScriptedCommand],
    round: u64,
) {
    let Some(frames) = world.remove_resource::<Keyframes>() else {
        crate::save::replay_into(world, level, seed, journal, round);
        return;
    };
    let start = frames
        .frames
        .iter()
        .rposition(|f| f.round <= round && frames.on_line_of(f, journal));
    let Some(start) = start else {
        world.insert_resource(frames);
        crate::save::replay_into(world, level, seed, journal, round);
        return;
    };
    let frame = &frames.frames[start];
    for kept in &frame.state {
        kept.restore(world);
    }
    world.insert_resource(Journal(journal[..frame.journal_len].to_vec()));
    world.insert_resource(EventLog::from_entries(frames.log[..frame.log_len].to_vec()));
    let from = frame.round;
    world.insert_resource(crate::sim::Script::new(&journal[frame.journal_len..]));
    world.insert_resource(frames);
    for _ in from..round {
        crate::sim::give_due(world);
        crate::sim::run_round(world);
    }
    crate::sim::give_due_between_rounds(world);
    world.insert_resource(crate::sim::Script::default());
}

/// Goes to `round` along the line the keyframes were taken on (no further than its end): the
/// timeline's scrubbing. Returns the round it came to, or `None` when the world keeps no
/// keyframes.
pub fn seek(world: &mut World, level: &crate::level::Level, round: u64) -> Option<u64> {
    let frames = world.get_resource::<Keyframes>()?;
    let to = round.min(frames.end);
    let line = frames.line.clone();
    let seed = world.resource::<crate::dice::Dice>().seed();
    replay_to(world, level, seed, &line, to);
    Some(to)
}

/// The components and resources registered in `world` (by a plugin, a system's query or a
/// level) that are neither kept nor the record itself (journal, log, keyframes) nor a registry
/// the plugins fill once, nor among `bevy_own` (the types a world of Bevy's own plugins
/// registers, without the delve's): each by its name where Bevy's `debug` feature gives names,
/// and its type id.
pub fn not_kept(world: &mut World, bevy_own: &[std::any::TypeId]) -> Vec<String> {
    let known: Vec<std::any::TypeId> = kept_and_not_state(world)
        .into_iter()
        .map(|(t, _)| t)
        .chain(bevy_own.iter().copied())
        .collect();
    let mut missing: Vec<String> = world
        .components()
        .iter_registered()
        .filter(|info| info.type_id().is_some_and(|t| !known.contains(&t)))
        .map(|info| format!("{} ({:?})", info.name(), info.type_id()))
        .collect();
    missing.sort();
    missing
}

/// Every kept component and resource, and what is not the delve's state: type and name.
pub fn kept_and_not_state(world: &World) -> Vec<(std::any::TypeId, &'static str)> {
    let mut all = world
        .get_resource::<StateKept>()
        .map(StateKept::types)
        .unwrap_or_default();
    all.extend(not_state());
    all
}

/// What is in the world but is not the delve's state: the record of the delve (restored from
/// the line), what marks the level's entities, and what the plugins register once and never
/// change.
fn not_state() -> Vec<(std::any::TypeId, &'static str)> {
    vec![
        type_of::<Journal>(),
        type_of::<EventLog>(),
        type_of::<Keyframes>(),
        type_of::<StateKept>(),
        type_of::<crate::sim::Script>(),
        type_of::<crate::save::History>(),
        type_of::<crate::kept::ReadQueries>(),
        type_of::<crate::kept::KeptQueries>(),
        type_of::<crate::rules::areas::Areas>(),
        type_of::<LevelEntity>(),
        // How the areas' rules meet, registered by their plugins.
        type_of::<crate::rules::acting::Holds>(),
        type_of::<crate::rules::acting::Exertions>(),
        type_of::<crate::rules::acting::BusyHands>(),
        type_of::<crate::rules::damage::WhenHurt>(),
        type_of::<crate::rules::modules::ModuleSwitches>(),
        type_of::<crate::rules::movement::hazards::Hazards>(),
        type_of::<crate::rules::movement::squeezes::Squeezes>(),
        type_of::<crate::rules::movement::squeezes::WalkBlockers>(),
        type_of::<crate::rules::penalties::SeeingBy>(),
    ]
}

/// Has `world` keep keyframes every `every` rounds from now on, the first taken now (a world
/// keeps none unless asked: the lab's delves do without).
pub fn keep(world: &mut World, every: u64) {
    world.insert_resource(Keyframes::every(every));
    take_keyframe(world);
}

/// How the delve's state in `a` differs from that in `b` (two worlds of the same plugins and
/// level): one line for each kept resource or component type that differs, naming its first
/// difference. Empty when they are the same.
pub fn differences(a: &mut World, b: &mut World) -> Vec<String> {
    let take_all = |world: &mut World| {
        let mut kept = world.remove_resource::<StateKept>().unwrap_or_default();
        let since = kept.since.unwrap_or(Tick::new(0));
        let state: Vec<Arc<dyn Kept>> = kept
            .keepers
            .iter_mut()
            .map(|k| k.take(world, since))
            .collect();
        world.insert_resource(kept);
        state
    };
    let (a, b) = (take_all(a), take_all(b));
    a.iter()
        .zip(&b)
        .filter_map(|(x, y)| x.differs(y.as_ref()))
        .collect()
}
