//! Foundation budgets (DESIGN.md › Performance budgets), release build:
//! load + validate a 256×256 level (≤ 20 ms); one line-of-sight field of radius 12 squares; a
//! path corner to corner (≤ 0.5 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::grid::DoorState;
use delve_ground::grid::GridPos;
use delve_ground::grid::los::{field_of_view, line_of_sight};
use delve_ground::grid::path::find_path;
use delve_ground::level::generate::rooms_and_corridors;
use delve_ground::level::load_level_str;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let src = rooms_and_corridors("bench", 256, 256, 3);
    c.bench_function("load + validate 256x256 level", |b| {
        b.iter(|| load_level_str(black_box(&src), "bench.ron", None).unwrap())
    });

    let level = load_level_str(&src, "bench.ron", None).unwrap().level;
    let g = &level.grid;
    // The open square nearest the centre whose whole 5×5 neighbourhood is open floor: the middle
    // of a room, where a field of view has the most to see.
    let open = |p: GridPos| {
        (-2..=2).all(|dy| (-2..=2).all(|dx| g.is_passable(GridPos::new(p.x + dx, p.y + dy))))
    };
    let origin = g
        .squares()
        .map(|(p, _)| p)
        .filter(|&p| open(p))
        .min_by_key(|p| p.x.abs_diff(128) + p.y.abs_diff(128))
        .unwrap();
    let radius_feet = 12 * g.scale_feet();
    let seen = field_of_view(g, origin, radius_feet).len();
    println!("field of view from {origin}: {seen} squares seen");
    assert!(seen > 60, "the origin is in a room");
    c.bench_function("line-of-sight field, radius 12 squares, 256x256", |b| {
        b.iter(|| field_of_view(g, black_box(origin), radius_feet))
    });
    let to = field_of_view(g, origin, radius_feet)
        .into_iter()
        .max_by_key(|&p| g.distance_feet(origin, p))
        .unwrap();
    c.bench_function("line of sight between two squares of a room", |b| {
        b.iter(|| line_of_sight(g, black_box(origin), black_box(to)))
    });

    // A walk from corner to corner with every door open.
    let mut opened = g.clone();
    for d in &level.doors {
        opened.set_door(d.at, DoorState::Open);
    }
    let start = level.creatures[0].at;
    let far = level
        .creatures
        .iter()
        .map(|c| c.at)
        .max_by_key(|&p| opened.distance_feet(start, p))
        .unwrap();
    let path = find_path(&opened, start, far).expect("all doors open: every room is reachable");
    println!(
        "A* from {start} to {far}: {}' over {} squares",
        path.feet,
        path.squares.len()
    );
    c.bench_function("A* path corner to corner, 256x256, doors open", |b| {
        b.iter(|| find_path(&opened, black_box(start), black_box(far)))
    });
}

criterion_group!(foundation, benches);
criterion_main!(foundation);
