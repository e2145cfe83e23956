//! Issue 14: full autonomous delves of the crypt, to an outcome (capped at 5 hours of game
//! time), per second on one core, in release. The level-design lab needs at least 100 a second
//! on a 2-core machine. Each delve is a fresh world on the crypt with its own seed.

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::level::load_level_file;
use delve_ground::party_policy::PartyPolicy;
use delve_ground::time::{ROUNDS_PER_HOUR, ROUNDS_PER_TURN};

fn crypt_delves(c: &mut Criterion) {
    let level = load_level_file(std::path::Path::new("levels/crypt.ron"))
        .expect("the crypt loads")
        .level;
    let policy = PartyPolicy {
        turn_limit: 5 * ROUNDS_PER_HOUR / ROUNDS_PER_TURN,
        ..PartyPolicy::default()
    };
    let mut seed = 0;
    c.bench_function("autonomous crypt delve, to its outcome", |b| {
        b.iter(|| {
            seed += 1;
            let app = delve_play::sim::play_autonomous(
                &level,
                seed,
                &policy,
                &[],
                5 * ROUNDS_PER_HOUR + 1,
            );
            let ended = app
                .world()
                .resource::<delve_minds::policy::party::DelveEnd>()
                .0
                .is_some();
            assert!(ended, "seed {seed} ended without an outcome");
        })
    });
}

criterion_group!(benches, crypt_delves);
criterion_main!(benches);
