//! Issue 65: the planner's cost a decision — every plan the party's knowledge allows for the
//! whole party and each part of it, weighed by the rules' odds (`policy::party::plan`) — on the
//! crypt a few turns in, in release. Beside it, the plain BFS of `benches/sound.rs` measured in
//! the same sitting is the machine's reference.

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::level::load_level_file;
use delve_ground::party_policy::PartyPolicy;
use delve_minds::policy::party::weigh_plans;

/// The allocator the `delve` binary runs with (see `src/main.rs`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn planner(c: &mut Criterion) {
    let level = load_level_file(std::path::Path::new("levels/crypt.ron"))
        .expect("the crypt loads")
        .level;
    let mut group = c.benchmark_group("planner, crypt");
    for rounds in [20, 200] {
        let mut app =
            delve_play::sim::play_autonomous(&level, 1, &PartyPolicy::default(), &[], rounds);
        let plans = weigh_plans(app.world_mut(), "party");
        assert!(!plans.is_empty(), "the party has plans at round {rounds}");
        group.bench_function(format!("one decision at round {rounds}"), |b| {
            b.iter(|| weigh_plans(app.world_mut(), "party"))
        });
    }
    group.finish();
}

criterion_group!(benches, planner);
criterion_main!(benches);
