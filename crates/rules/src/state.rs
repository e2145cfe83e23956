//! The delve's state, as the areas register it: every resource and every component of the
//! level's entities that changes from round to round ([`KeepsState`]), taken whole at a round
//! ([`take_state`]) and put back ([`Kept::restore`]). Keyframes (the `keyframe` module) are made of
//! it; two worlds are compared by it ([`differences`]). A test
//! (`every_piece_of_delve_state_is_kept`) fails on a component or resource of the delve that is
//! neither kept nor registered as not the delve's state, so a new area cannot forget it.
//!
//! A resource or component that did not change since the state was last taken is shared with
//! what was taken then, not copied.

use delve_ground::query_cache::{CachedQueries, ReadQueries};

use std::sync::Arc;

use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;

use crate::creature::LevelEntity;

/// A piece of the delve's state as it was at a keyframe.
pub trait Kept: Send + Sync {
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

/// Everything the areas registered as the delve's state, and what they registered as not the
/// delve's state.
#[derive(Resource, Default)]
pub struct StateKept {
    keepers: Vec<Box<dyn Keeper>>,
    /// The change tick of the last state taken: what changed after it is taken anew.
    since: Option<Tick>,
    /// The record of the delve and the registries the plugins fill once ([`KeepsState::not_state`]).
    not_state: Vec<(std::any::TypeId, &'static str)>,
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
    /// A resource or component that is in the delve's world but is not its state: the record of
    /// the delve (restored from its line), a registry the plugins fill once and never change,
    /// a mark of the level's entities. The test of what is kept does not ask for it.
    fn not_state<T: 'static>(&mut self) -> &mut Self;
}

impl KeepsState for App {
    fn not_state<T: 'static>(&mut self) -> &mut Self {
        self.init_resource::<StateKept>();
        let mut kept = self.world_mut().resource_mut::<StateKept>();
        if !kept.not_state.contains(&type_of::<T>()) {
            kept.not_state.push(type_of::<T>());
        }
        self
    }

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

/// The state of the delve in `world` now, in the order the areas registered it: what did not
/// change since it was last taken is shared with what was taken then.
pub fn take_state(world: &mut World) -> Vec<Arc<dyn Kept>> {
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
    state
}

/// A new delve in the world: what was taken of the old one is shared no more.
pub fn forget_state(world: &mut World) {
    if let Some(mut kept) = world.get_resource_mut::<StateKept>() {
        kept.since = None;
        for k in &mut kept.keepers {
            k.forget();
        }
    }
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
        .map(|k| {
            let mut all = k.types();
            all.extend(k.not_state.iter().copied());
            all
        })
        .unwrap_or_default();
    all.extend([
        type_of::<StateKept>(),
        type_of::<ReadQueries>(),
        type_of::<CachedQueries>(),
    ]);
    all
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
