//! Minds that give commands: the adventuring party's policy and the monsters' reactions to
//! light and noise. A policy only gives [`Command`](crate::command::Command)s, the same ones a
//! player gives, so everything it does is logged and replayable; it reads only what its faction
//! knows ([`knowledge`]).

pub mod knowledge;
pub mod monsters;
pub mod outcome;
pub mod party;
pub mod settings;

pub use outcome::{Outcome, Tally};
pub use party::{Autonomy, DelveEnd, PartyMinds, PolicyEvent};
pub use settings::PartyPolicy;

/// A query kept between the policies' calls: they ask the world the same questions many times
/// a round, and a query made anew each time costs more than its answer.
#[derive(bevy::prelude::Resource)]
struct Kept<D: bevy::ecs::query::QueryData + 'static, F: bevy::ecs::query::QueryFilter + 'static>(
    bevy::prelude::QueryState<D, F>,
);

/// Runs `f` with the world and the kept query of `D` filtered by `F`, made on first use.
fn kept_query<D, F, R>(
    world: &mut bevy::prelude::World,
    f: impl FnOnce(&bevy::prelude::World, &mut bevy::prelude::QueryState<D, F>) -> R,
) -> R
where
    D: bevy::ecs::query::QueryData + 'static,
    F: bevy::ecs::query::QueryFilter + 'static,
    bevy::prelude::QueryState<D, F>: Send + Sync,
{
    if !world.contains_resource::<Kept<D, F>>() {
        let q = world.query_filtered::<D, F>();
        world.insert_resource(Kept(q));
    }
    world.resource_scope(|world, mut kept: bevy::prelude::Mut<Kept<D, F>>| f(world, &mut kept.0))
}
