//! Importing a Universal VTT map (DESIGN.md › Performance budgets: a 100 × 100-cell map with
//! 4,000 wall segments in at most 200 ms): rooms on a 100 × 100 grid drawn as the tools draw
//! them — polylines along cell edges with shared corners, a door in each room's east wall, a
//! light in each, and diagonal pillars — read, rasterised, written as a level, checked by the
//! level loader, and written to disk.

use criterion::{Criterion, criterion_group, criterion_main};
use delve::import::{ImportOptions, import};
use serde_json::json;

/// Rooms of 8 × 8 cells in a 100 × 100-cell map, each wall a polyline round its room with a
/// gap for its door, and short walls inside: `segments` wall segments in all.
fn map(segments: usize) -> String {
    let mut walls = Vec::new();
    let mut portals = Vec::new();
    let mut lights = Vec::new();
    let mut count = 0;
    'rooms: for ry in 0..12 {
        for rx in 0..12 {
            let (x0, y0) = (rx as f64 * 8.0 + 2.0, ry as f64 * 8.0 + 2.0);
            let (x1, y1) = (x0 + 7.0, y0 + 7.0);
            let p = |x: f64, y: f64| json!({"x": x, "y": y});
            walls.push(json!([
                p(x1, y0 + 3.0),
                p(x1, y0),
                p(x0, y0),
                p(x0, y1),
                p(x1, y1),
                p(x1, y0 + 4.0)
            ]));
            count += 5;
            portals.push(json!({
                "position": p(x1, y0 + 3.5),
                "bounds": [p(x1, y0 + 3.0), p(x1, y0 + 4.0)],
                "rotation": std::f64::consts::FRAC_PI_2, "closed": true, "freestanding": false
            }));
            lights.push(
                json!({"position": p(x0 + 3.5, y0 + 3.5), "range": 3, "intensity": 1,
                               "color": "ffffa040", "shadows": true}),
            );
            // Pillars and broken walls: short segments, some diagonal.
            for k in 0..24 {
                if count >= segments {
                    break 'rooms;
                }
                let (a, b) = (x0 + 1.0 + (k % 5) as f64, y0 + 1.0 + (k / 5) as f64);
                walls.push(json!([p(a, b), p(a + 0.5, b + 0.5)]));
                count += 1;
            }
        }
    }
    assert!(count >= segments, "{count} segments drawn");
    json!({
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 100, "y": 100},
                       "pixels_per_grid": 50},
        "line_of_sight": walls,
        "objects_line_of_sight": [],
        "portals": portals,
        "lights": lights,
    })
    .to_string()
}

fn import_bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("delve-import-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("halls.dd2vtt");
    std::fs::write(&path, map(4_000)).unwrap();
    let out = dir.join("halls.ron");
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    group.bench_function(
        "a 100 × 100-cell Universal VTT map, 4,000 wall segments",
        |b| b.iter(|| import(&path, &out, ImportOptions::default()).expect("imports")),
    );
    group.finish();
    let _ = std::fs::remove_dir_all(dir);
}

criterion_group!(benches, import_bench);
criterion_main!(benches);
