//! Helpers more than one module of the suite uses.

use bevy::prelude::*;
use delve_ground::level::LevelText;
use delve_ground::log::EventLog;
use delve_play::scenario::Delve;
use delve_rules::creature::HitPoints;

/// The crypt's level file, read as the tests' working directory (the package root) has it.
pub fn crypt() -> LevelText {
    LevelText::read(std::path::Path::new("levels/crypt.ron")).unwrap()
}

/// A creature's hit points now.
pub fn hp(app: &Delve, name: &str) -> i32 {
    app.get::<HitPoints>(name).unwrap().current
}

/// The whole event log as text.
pub fn log_text(app: &App) -> String {
    app.world().resource::<EventLog>().to_text()
}

/// A sample level, loaded.
pub fn sample(file: &str) -> delve_ground::level::Level {
    delve_ground::level::load_level_file(std::path::Path::new(file))
        .unwrap()
        .level
}

/// A delve of a level file played by the default party policy, at most `rounds` rounds.
pub fn play_level(file: &str, seed: u64, rounds: u64) -> bevy::prelude::App {
    let level = delve_ground::level::load_level_file(std::path::Path::new(file))
        .unwrap()
        .level;
    play_autonomous(&level, seed, rounds)
}

/// A delve of a level's text (named `file` in errors) played by the default party policy, at
/// most `rounds` rounds.
pub fn play_text(text: &str, file: &str, seed: u64, rounds: u64) -> bevy::prelude::App {
    let level = delve_ground::level::load_level_str(text, file, None)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .level;
    play_autonomous(&level, seed, rounds)
}

fn play_autonomous(
    level: &delve_ground::level::Level,
    seed: u64,
    rounds: u64,
) -> bevy::prelude::App {
    delve_play::sim::play_autonomous(
        level,
        seed,
        &delve_ground::party_policy::PartyPolicy::default(),
        &[],
        rounds,
    )
}
