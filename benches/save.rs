//! Saving, loading and undo replay the journal from the start: how long that takes after an
//! hour of the crypt (600 rounds, the party under its policy until its delve ends), in release.

use criterion::{Criterion, criterion_group, criterion_main};
use delve_ground::level::LevelText;
use delve_ground::party_policy::PartyPolicy;
use delve_play::save::{Save, Step, undo};

const ROUNDS: u64 = 600;

fn save(c: &mut Criterion) {
    let text = LevelText::read(std::path::Path::new("levels/crypt.ron")).expect("the crypt reads");
    let level = text.load().expect("the crypt loads").level;
    let policy = PartyPolicy {
        turn_limit: 1_000,
        ..PartyPolicy::default()
    };
    let mut app = delve_play::sim::play_autonomous(&level, 3, &policy, &[], ROUNDS);
    // The delve may end sooner; the hour is played out.
    let so_far = app.world().resource::<delve_ground::time::Clock>().rounds;
    delve_play::sim::run_rounds(app.world_mut(), ROUNDS.saturating_sub(so_far));
    let played = app.world().resource::<delve_ground::time::Clock>().rounds;
    let saved = Save::of(app.world(), &text);
    let saved_text = saved.to_text();
    let mut group = c.benchmark_group(format!("save, crypt after {played} rounds"));
    group.sample_size(10);
    group.bench_function("write the save's text", |b| b.iter(|| saved.to_text()));
    group.bench_function("load: read the save and replay it", |b| {
        b.iter(|| {
            let save = Save::from_text(&saved_text, "crypt.save").expect("reads");
            let level = save.load_level().expect("loads");
            let mut app = delve_play::sim::sim_app(&level, save.seed);
            save.restore_into(app.world_mut(), &level);
            app
        })
    });
    group.bench_function("undo a round", |b| {
        b.iter_batched(
            || {
                let level = saved.load_level().expect("loads");
                let mut app = delve_play::sim::sim_app(&level, saved.seed);
                saved.restore_into(app.world_mut(), &level);
                (app, level)
            },
            |(mut app, level)| undo(app.world_mut(), &level, Step::Round),
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, save);
criterion_main!(benches);
