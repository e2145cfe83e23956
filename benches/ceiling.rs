//! The ceiling: how a level far larger than the samples plays, in time and in memory (release).
//!
//! - A generated level of 1,024 × 1,024 squares (`delve generate --width 1024 --height 1024`:
//!   rooms, corridors, doors, lights, and some five thousand monsters): a round, measured, and
//!   the most memory held while it is loaded and its first rounds played.
//! - The worst case for sight: an open floor of 1,000 × 1,000 squares and 1,000 rats with
//!   lightless vision, every square of the floor in every rat's line of sight: its first round
//!   and the most memory held (it once ran out of 4 GB; a creature's line of sight took 12 MB).
//!
//! The stated ceiling: a 1,024 × 1,024 level of thousands of creatures plays a round in under
//! a second and holds under 2 GB.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};

/// Counts the bytes allocated and not yet freed, and the most held.
struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static MOST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        MOST.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let now = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
        MOST.fetch_max(now, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// An open floor of `side` × `side` squares walled round, a delver with a torch in a corner,
/// and `rats` rats with 60' of lightless vision spread over it.
fn open_floor(side: usize, rats: usize) -> String {
    let mut s = String::from(
        "(\n    name: \"open floor\",\n    legend: { '#': Wall(Stone), '.': Floor },\n    map: [\n",
    );
    for y in 0..side {
        let row = if y == 0 || y == side - 1 {
            "#".repeat(side)
        } else {
            format!("#{}#", ".".repeat(side - 2))
        };
        let _ = writeln!(s, "        \"{row}\",");
    }
    s += "    ],\n    factions: [(name: \"party\", marching_order: [\"Ana\"]), (name: \"rats\", hostile_to: [\"party\"])],\n    creatures: [\n";
    s += "        (name: \"Ana\", faction: \"party\", at: (1, 1), hp: 30, ac: 12, speed_feet: 120, carries: [(kind: Torch, lit: true)]),\n";
    for i in 0..rats {
        // Spread over the floor, one a square.
        let (x, y) = (
            2 + (i * 997) % (side - 4),
            2 + (i * 991 / (side - 4)) % (side - 4),
        );
        let _ = writeln!(
            s,
            "        (name: \"Rat {i}\", faction: \"rats\", at: ({x}, {y}), hp: 2, ac: 11, speed_feet: 60, lightless_vision_feet: 60),"
        );
    }
    s += "    ],\n)\n";
    s
}

/// Loads `text`, plays `rounds` rounds, and says how long and how much memory it took.
fn weigh(what: &str, text: &str, rounds: u64) -> bevy::prelude::App {
    let level = delve_ground::level::load_level_str(text, what, None)
        .expect("the level loads")
        .level;
    let creatures = level.creatures.len();
    let before = LIVE.load(Ordering::Relaxed);
    MOST.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let mut app = delve_play::sim::sim_app(&level, 1);
    let loaded = started.elapsed();
    let started = Instant::now();
    delve_play::sim::run_rounds(app.world_mut(), rounds);
    let played = started.elapsed();
    println!(
        "{what}: {creatures} creatures; installed in {loaded:.2?}, {rounds} rounds in {played:.2?} \
         ({:.2?} a round); the most held {:.0} MiB, {:.0} MiB after",
        played / rounds as u32,
        mib(MOST.load(Ordering::Relaxed) - before),
        mib(LIVE.load(Ordering::Relaxed) - before),
    );
    app
}

fn ceiling(c: &mut Criterion) {
    let generated = delve_ground::level::generate::rooms_and_corridors("Ceiling", 1024, 1024, 1);
    let mut app = weigh("a generated level of 1024 × 1024", &generated, 3);
    let mut g = c.benchmark_group("ceiling");
    g.sample_size(10);
    g.bench_function("a round of a generated level of 1024 × 1024", |b| {
        b.iter(|| delve_play::sim::run_round(app.world_mut()))
    });
    g.finish();
    drop(app);
    drop(weigh(
        "an open floor of 1000 × 1000 and 1000 rats",
        &open_floor(1000, 1000),
        5,
    ));
}

criterion_group!(benches, ceiling);
criterion_main!(benches);
