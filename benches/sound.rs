//! DESIGN.md › Performance budgets, noise: one noise bounded to its earshot (≤ 100 µs) and one
//! flooding a whole 256×256 map with rooms and doors (≤ 3 ms), with a plain unit-cost BFS over
//! the same map measured beside them for the ratio.

use std::collections::VecDeque;

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::grid::{DungeonGrid, GridPos, SOUND_BLOCKED};
use delve_ground::level::generate::rooms_and_corridors;
use delve_ground::level::load_level_str;
use delve_ground::level::schema::Environment;
use delve_rules::rules::sound::{Earshot, SoundRow, bound};
use std::hint::black_box;

/// Breadth-first search over every square sound can cross, each step costing one.
fn bfs(grid: &DungeonGrid, from: GridPos, dist: &mut [u32], queue: &mut VecDeque<usize>) -> usize {
    dist.iter_mut().for_each(|d| *d = u32::MAX);
    queue.clear();
    let s = grid.index(from).unwrap();
    dist[s] = 0;
    queue.push_back(s);
    let mut reached = 0;
    while let Some(i) = queue.pop_front() {
        reached += 1;
        for q in grid.pos_of(i).neighbours() {
            if let Some(j) = grid.index(q)
                && grid.sound_cost(q) != SOUND_BLOCKED
                && dist[j] == u32::MAX
            {
                dist[j] = dist[i] + 1;
                queue.push_back(j);
            }
        }
    }
    reached
}

fn benches(c: &mut Criterion) {
    let src = rooms_and_corridors("bench", 256, 256, 3);
    let level = load_level_str(&src, "bench.ron", None).unwrap().level;
    let g = &level.grid;
    let from = level.creatures[level.creatures.len() / 2].at;
    let mut e = Earshot::default();

    let loud = bound(SoundRow::Loud, Environment::Normal);
    e.propagate(g, from, loud);
    println!(
        "fighting (loud) in a normal dungeon, {}' of earshot: {} squares touched",
        loud / 2,
        e.touched()
    );
    c.bench_function("one loud noise bounded to its earshot, 256x256", |b| {
        b.iter(|| e.propagate(g, black_box(from), loud))
    });

    e.propagate(g, from, u32::MAX / 2);
    println!("flood: {} squares touched", e.touched());
    c.bench_function("one noise flooding the whole 256x256 map", |b| {
        b.iter(|| e.propagate(g, black_box(from), u32::MAX / 2))
    });

    let mut dist = vec![u32::MAX; (g.width() * g.height()) as usize];
    let mut queue = VecDeque::new();
    println!(
        "BFS reaches {} squares",
        bfs(g, from, &mut dist, &mut queue)
    );
    c.bench_function("plain unit-cost BFS over the whole 256x256 map", |b| {
        b.iter(|| bfs(g, black_box(from), &mut dist, &mut queue))
    });
}

criterion_group!(sound, benches);
criterion_main!(sound);
