//! Keyframes (`delve_play::keyframe`): seeking anywhere in a long delve of the undercroft (4,800
//! rounds: 80 hours at 10 rounds a turn and 6 turns an hour; the "8 hours" are 480 of
//! them) restores the nearest keyframe and replays the rest; how long that takes, how much the
//! keyframes hold, what taking them costs a round, and undo at the end of the delve. Release.
//!
//! The delve is played with the party handed to its policy and, when its delve ends (it flees or
//! falls within the first hours), the monsters going on under their minds to the 4,800th round:
//! every round is a round of the level's 120×120 squares, its lights and its creatures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::party_policy::PartyPolicy;
use delve_ground::time::Clock;
use delve_play::keyframe::Keyframes;

/// Counts the bytes allocated and not yet freed, to weigh the keyframes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const ROUNDS: u64 = 4_800;

/// The undercroft played for [`ROUNDS`] rounds in a world keeping keyframes every `every` rounds (none
/// when 0).
fn long_delve(level: &delve_ground::level::Level, every: u64) -> bevy::prelude::App {
    let mut app = delve_play::sim::sim_app(level, 1);
    let world = app.world_mut();
    if every > 0 {
        delve_play::keyframe::keep(world, every);
    }
    delve_play::sim::hand_parties_to(world, &PartyPolicy::default());
    delve_play::sim::run_rounds(world, ROUNDS);
    app
}

fn timeline(c: &mut Criterion) {
    let level = delve_ground::level::load_level_file(std::path::Path::new("levels/undercroft.ron"))
        .expect("the undercroft loads")
        .level;
    // What the keyframes hold: the bytes live with them, less without them.
    let before = LIVE.load(Ordering::Relaxed);
    let without = long_delve(&level, 0);
    let plain = LIVE.load(Ordering::Relaxed) - before;
    drop(without);
    let before = LIVE.load(Ordering::Relaxed);
    let mut app = long_delve(&level, delve_ground::time::ROUNDS_PER_TURN);
    let with = LIVE.load(Ordering::Relaxed) - before;
    let frames = app.world().resource::<Keyframes>();
    let count = frames.rounds().count();
    let held = with.saturating_sub(plain);
    println!(
        "undercroft, {ROUNDS} rounds: {count} keyframes hold {:.1} MiB ({:.1} KiB a keyframe; \
         the world without them {:.1} MiB; the log has {} entries)",
        held as f64 / (1024.0 * 1024.0),
        held as f64 / 1024.0 / count as f64,
        plain as f64 / (1024.0 * 1024.0),
        frames.log().len(),
    );

    let mut group = c.benchmark_group(format!("undercroft, {ROUNDS} rounds"));
    group.sample_size(20);
    let mut target = 0u64;
    group.bench_function(
        "seek to a round (the next 1,237 rounds on, round and round)",
        |b| {
            b.iter(|| {
                // Rounds spread over the whole delve, 9 rounds after a keyframe at worst.
                target = (target + 1_237) % (ROUNDS + 1);
                delve_play::save::seek(app.world_mut(), &level, target)
            })
        },
    );
    group.bench_function("seek to the last round", |b| {
        b.iter(|| delve_play::save::seek(app.world_mut(), &level, ROUNDS))
    });
    group.bench_function(
        "seek to the round before a keyframe (9 rounds replayed)",
        |b| b.iter(|| delve_play::save::seek(app.world_mut(), &level, ROUNDS - 1)),
    );
    group.bench_function(
        "seek to the round before an hour's keyframe (59 rounds replayed)",
        |b| b.iter(|| delve_play::save::seek(app.world_mut(), &level, ROUNDS / 2 - 1)),
    );
    group.bench_function("undo a round at the end of the delve", |b| {
        b.iter_custom(|iterations| {
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..iterations {
                delve_play::save::seek(app.world_mut(), &level, ROUNDS);
                let start = std::time::Instant::now();
                delve_play::save::undo(app.world_mut(), &level, delve_play::save::Step::Round);
                spent += start.elapsed();
            }
            spent
        })
    });
    group.finish();

    let mut rounds = c.benchmark_group("undercroft, a turn of rounds");
    rounds.sample_size(10);
    for (name, every) in [("without keyframes", 0), ("with a keyframe", 10)] {
        let mut app = delve_play::sim::sim_app(&level, 1);
        if every > 0 {
            delve_play::keyframe::keep(app.world_mut(), every);
        }
        rounds.bench_function(name, |b| {
            b.iter(|| {
                delve_play::sim::run_rounds(app.world_mut(), delve_ground::time::ROUNDS_PER_TURN)
            })
        });
        let _ = app.world().resource::<Clock>();
    }
    rounds.finish();
}

criterion_group!(benches, timeline);
criterion_main!(benches);
