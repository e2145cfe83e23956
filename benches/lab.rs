//! Issue 15: the lab's delves per second on the crypt, on all the machine's cores (and on one,
//! to see how it scales), in release. The target is at least 100 delves a second on this
//! 2-core machine, and two cores within 1.8x of one core's rate.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use delve::lab::{LabPlan, run_lab};
use delve_ground::level::load_level_file;
use delve_ground::party_policy::PartyPolicy;

/// The allocator the `delve` binary runs with (see `src/main.rs`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DELVES: u64 = 40;

fn lab(c: &mut Criterion) {
    let level = load_level_file(std::path::Path::new("levels/crypt.ron"))
        .expect("the crypt loads")
        .level;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("lab, crypt");
    group.sample_size(10);
    group.throughput(Throughput::Elements(DELVES));
    for jobs in [1, cores] {
        let plan = LabPlan {
            level: level.clone(),
            policy: PartyPolicy::default(),
            seed: 1,
            runs: DELVES,
            jobs,
        };
        group.bench_function(format!("{DELVES} delves on {jobs} thread(s)"), |b| {
            b.iter(|| {
                let result = run_lab(&plan, |_| {}).expect("the lab runs");
                assert!(result.records.iter().all(|r| r.outcome.is_some()));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, lab);
criterion_main!(benches);
