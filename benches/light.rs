//! DESIGN.md › Performance budgets, light: a full light map of a 256×256 level with 100 lights of
//! radius 6 squares (≤ 0.2 ms), and one moved light (≤ 5 µs).

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::grid::GridPos;
use delve_ground::level::generate::rooms_and_corridors;
use delve_ground::level::load_level_str;
use delve_ground::level::schema::LightKind;
use delve_rules::rules::light::LightMap;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let src = rooms_and_corridors("bench", 256, 256, 3);
    let level = load_level_str(&src, "bench.ron", None).unwrap().level;
    let g = &level.grid;
    // 100 torches (dim to 30': 6 squares) on floor squares spread over the map.
    let floor: Vec<GridPos> = g
        .squares()
        .map(|(p, _)| p)
        .filter(|&p| g.is_passable(p))
        .collect();
    let step = floor.len() / 100;
    let lights: Vec<(u64, GridPos, LightKind)> = (0..100)
        .map(|i| (i as u64, floor[i * step], LightKind::Torch))
        .collect();
    let mut map = LightMap::new(g);
    c.bench_function("full light map, 256x256, 100 torches", |b| {
        b.iter(|| map.recompute(g, black_box(lights.iter().copied())))
    });
    map.recompute(g, lights.iter().copied());
    // One torch carried back and forth between two neighbouring squares.
    let (a, b2) = (floor[50 * step], floor[50 * step + 1]);
    let mut flip = false;
    c.bench_function("one moved light (torch), 256x256", |b| {
        b.iter(|| {
            flip = !flip;
            let at = if flip { b2 } else { a };
            map.place(g, 50, Some((black_box(at), LightKind::Torch)));
        })
    });
}

criterion_group!(light, benches);
criterion_main!(light);
