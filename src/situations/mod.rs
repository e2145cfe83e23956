//! Situations a careful party meets, each a generator of fresh levels (`delve generate
//! --situation NAME --seed N`): the geometry, the distances, the light, the party's makeup and
//! gear and the foes are drawn at random within the bounds each situation states, and with them
//! what a careful party achieves there, as an expectations file the lab judges (README ›
//! Situations). A party that passes a fixed level may have learnt its shape; one that passes a
//! situation's fresh instances has learnt the situation.
//!
//! Every situation is a row of [`SITUATIONS`]; its drawing is in the file of its kind.

mod combined;
mod doors;
mod foes;
mod hidden;
mod keys;
pub mod party;
mod passages;
mod shafts;
pub mod sketch;
mod water;
mod ways;

use party::Draw;

/// One situation: its name on the command line, what it is, and how an instance is drawn.
pub struct Situation {
    pub name: &'static str,
    /// One line: the situation, and what a careful party does in it.
    pub about: &'static str,
    pub draw: fn(&mut Draw) -> Drawn,
}

/// One drawn instance: the level file and its expectations, both as RON text.
pub struct Drawn {
    pub level: String,
    pub expect: String,
}

/// Every situation, by name.
pub const SITUATIONS: &[Situation] = &[
    shafts::SHAFT,
    water::DEEP_GOAL,
    water::RIVER_ROUND,
    water::NO_WAY_ROUND,
    keys::GUARD_KEY,
    keys::LOCKED_THIEF,
    foes::TOO_STRONG_ON_PATROL,
    foes::GOBLINS_BEHIND_A_DOOR,
    hidden::SECRET_IN_A_WALL,
    hidden::HIDDEN_PIT,
    hidden::BLADE_IN_PLAIN_SIGHT,
    ways::DYING_FAR_FROM_THE_WAY_OUT,
    ways::LAIR_ON_THE_SHORT_WAY,
    doors::STUCK_DOOR,
    doors::EVIL_DOOR,
    doors::SECRET_AT_A_DEAD_END,
    passages::SQUEEZE_OR_ROUND,
    passages::CRACK_TO_JUMP,
    passages::LIGHT_TOO_SHORT,
    combined::PACK_BEYOND_A_NARROW_WAY,
    combined::FRAIL_BEFORE_SKELETONS,
    combined::KEY_BEYOND_WATER,
    combined::GUARD_BEFORE_A_SHAFT,
];

/// The situation of that name, or a message that lists them.
pub fn situation(name: &str) -> Result<&'static Situation, String> {
    SITUATIONS.iter().find(|s| s.name == name).ok_or_else(|| {
        let names: Vec<&str> = SITUATIONS.iter().map(|s| s.name).collect();
        format!(
            "no situation is called {name:?}; there are: {}",
            names.join(", ")
        )
    })
}

/// Draws instance `seed` of the situation `name`.
pub fn generate(name: &str, seed: u64) -> Result<Drawn, String> {
    let s = situation(name)?;
    Ok((s.draw)(&mut Draw::new(s.name, seed)))
}
