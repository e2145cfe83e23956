//! Queries cached between calls (not the delve's kept state: the rules' `state`). The rules and the
//! minds ask the world the same questions many times a round (the door on this square, the
//! traps a faction knows, who is up); a Bevy query made anew each time walks every archetype of
//! the world and costs more than its answer. A cached query is made once per world and only
//! brought up to date with the archetypes added since.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Mutex;

use bevy::ecs::query::{QueryData, QueryFilter, ReadOnlyQueryData};
use bevy::prelude::*;

/// The queries kept for the calls that may change what they read ([`cached_query`]), by the type
/// of their state.
#[derive(Resource, Default)]
pub struct CachedQueries(HashMap<TypeId, Box<dyn Any + Send + Sync>>);

/// Runs `f` with the world and the kept query of `D` filtered by `F`, made on first use.
pub fn cached_query<D, F, R>(
    world: &mut World,
    f: impl FnOnce(&World, &mut QueryState<D, F>) -> R,
) -> R
where
    D: QueryData + 'static,
    F: QueryFilter + 'static,
    QueryState<D, F>: Send + Sync,
{
    let key = TypeId::of::<QueryState<D, F>>();
    // Taken out while in use, so that `f` may ask a kept query of its own.
    let taken = world
        .get_resource_mut::<CachedQueries>()
        .and_then(|mut k| k.0.remove(&key))
        .and_then(|b| b.downcast::<QueryState<D, F>>().ok());
    let mut state = match taken {
        Some(state) => *state,
        None => world.query_filtered::<D, F>(),
    };
    let answer = f(world, &mut state);
    world
        .get_resource_or_init::<CachedQueries>()
        .0
        .insert(key, Box::new(state));
    answer
}

/// The read-only queries kept for callers that hold the world only to read it
/// ([`read_query`]), by the type of their state.
#[derive(Resource, Default)]
pub struct ReadQueries(Mutex<HashMap<TypeId, Box<dyn Any + Send>>>);

/// Runs `f` with a read-only query of `D` filtered by `F` over `world`: the kept one when the
/// world keeps queries ([`ReadQueries`]), else one made for this call. `None` when a component
/// the query reads has never been registered in this world (so nothing could match).
pub fn read_query<D, F, R>(world: &World, f: impl FnOnce(Query<'_, '_, D, F>) -> R) -> Option<R>
where
    D: ReadOnlyQueryData + 'static,
    F: QueryFilter + 'static,
    QueryState<D, F>: Send,
{
    let key = TypeId::of::<QueryState<D, F>>();
    let kept = world.get_resource::<ReadQueries>();
    // Taken out while in use, so that `f` may ask a kept query of its own (or this one anew).
    let taken = kept.and_then(|k| {
        k.0.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(&key)
    });
    let mut state = match taken.and_then(|b| b.downcast::<QueryState<D, F>>().ok()) {
        Some(state) => *state,
        None => QueryState::<D, F>::try_new(world)?,
    };
    let answer = f(state.query(world));
    if let Some(k) = kept {
        k.0.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(key, Box::new(state));
    }
    Some(answer)
}

/// `entities` lowest first: the order the rules go through creatures, lights, doors and traps
/// in, the same whatever order the world stores them in. (`Query::sort::<Entity>` gives the
/// same order but makes a new query each call.)
pub fn in_entity_order(entities: impl Iterator<Item = Entity>) -> Vec<Entity> {
    let mut order: Vec<Entity> = entities.collect();
    order.sort_unstable();
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Component)]
    struct Marker(u32);

    #[test]
    fn a_kept_read_query_sees_entities_spawned_after_it_was_made() {
        let mut world = World::new();
        world.init_resource::<ReadQueries>();
        world.spawn(Marker(1));
        let sum = |world: &World| {
            read_query::<&Marker, (), _>(world, |q| q.iter().map(|m| m.0).sum::<u32>())
        };
        assert_eq!(sum(&world), Some(1));
        // A new archetype after the query was kept.
        world.spawn((Marker(2), Name::new("two")));
        assert_eq!(sum(&world), Some(3));
        assert_eq!(world.resource::<ReadQueries>().0.lock().unwrap().len(), 1);
    }

    #[test]
    fn a_query_of_a_component_never_registered_answers_none() {
        let world = World::new();
        assert_eq!(
            read_query::<&Marker, (), _>(&world, |q| q.iter().count()),
            None
        );
    }
}
