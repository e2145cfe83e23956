//! Foundation budgets (DESIGN.md › Performance budgets), release build:
//! load + validate a 256×256 level (≤ 20 ms); one line-of-sight field of radius 12 squares.

use criterion::{Criterion, criterion_group, criterion_main};
use delve::grid::GridPos;
use delve::grid::los::{field_of_view, line_of_sight};
use delve::grid::path::find_path;
use delve::level::generate::rooms_and_corridors;
use delve::level::load_level_str;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let src = rooms_and_corridors("bench", 256, 256, 3);
    c.bench_function("load + validate 256x256 level", |b| {
        b.iter(|| load_level_str(black_box(&src), "bench.ron", None).unwrap())
    });

    let level = load_level_str(&src, "bench.ron", None).unwrap().level;
    let g = &level.grid;
    // The middle of a room near the centre of the map.
    let origin = g
        .squares()
        .map(|(p, _)| p)
        .filter(|&p| g.is_passable(p))
        .min_by_key(|p| p.x.abs_diff(128) + p.y.abs_diff(128))
        .unwrap();
    let radius_feet = 12 * g.scale_feet();
    c.bench_function("line-of-sight field, radius 12 squares, 256x256", |b| {
        b.iter(|| field_of_view(g, black_box(origin), radius_feet))
    });
    c.bench_function("line of sight between two squares 10 apart", |b| {
        let to = GridPos::new(origin.x + 6, origin.y + 10);
        b.iter(|| line_of_sight(g, black_box(origin), black_box(to)))
    });
    let far = level.creatures.last().unwrap().at;
    let start = level.creatures[0].at;
    c.bench_function("A* path across the 256x256 level", |b| {
        b.iter(|| find_path(g, black_box(start), black_box(far)))
    });
}

criterion_group!(foundation, benches);
criterion_main!(foundation);
