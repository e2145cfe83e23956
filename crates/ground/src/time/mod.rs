//! The clock (Dungeon Delves › Turns and Rounds): 10 rounds to a turn, 6 turns to an hour. The
//! round is the simulation's tick; turns and hours are counted from rounds.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Rounds per turn.
pub const ROUNDS_PER_TURN: u64 = 10;
/// Turns per hour.
pub const TURNS_PER_HOUR: u64 = 6;
/// Rounds per hour.
pub const ROUNDS_PER_HOUR: u64 = ROUNDS_PER_TURN * TURNS_PER_HOUR;

/// The longest delve there is: 6,000 turns (1,000 hours). A policy's turn limit, the rounds of a
/// save, a journal and a script, and `--rounds` are at most this, so that no file can ask for a
/// replay that never ends.
pub const MAX_TURNS: u64 = 6000;
/// [`MAX_TURNS`] in rounds.
pub const MAX_ROUNDS: u64 = MAX_TURNS * ROUNDS_PER_TURN;

/// Reads a round number of a file (a save's rounds, a journal's, a script command's round),
/// refusing one past [`MAX_ROUNDS`] with the range: the reader's error carries its place.
pub fn bounded_round<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let round = u64::deserialize(d)?;
    if round > MAX_ROUNDS {
        return Err(serde::de::Error::custom(format!(
            "round {round} is past the longest delve: rounds are 0 to {MAX_ROUNDS} \
             ({MAX_TURNS} turns)"
        )));
    }
    Ok(round)
}

/// [`bounded_round`] for a round that may be left out.
pub fn bounded_round_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let round = Option::<u64>::deserialize(d)?;
    match round {
        Some(r) if r > MAX_ROUNDS => Err(serde::de::Error::custom(format!(
            "round {r} is past the longest delve: rounds are 0 to {MAX_ROUNDS} ({MAX_TURNS} turns)"
        ))),
        _ => Ok(round),
    }
}

/// How many rounds have been played since the delve began.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub rounds: u64,
}

impl Clock {
    /// Whole turns elapsed.
    pub fn turns(self) -> u64 {
        self.rounds / ROUNDS_PER_TURN
    }

    /// Whole hours elapsed.
    pub fn hours(self) -> u64 {
        self.rounds / ROUNDS_PER_HOUR
    }

    /// The round within the current turn, 0–9.
    pub fn round_of_turn(self) -> u64 {
        self.rounds % ROUNDS_PER_TURN
    }

    /// The turn within the current hour, 0–5.
    pub fn turn_of_hour(self) -> u64 {
        self.turns() % TURNS_PER_HOUR
    }

    /// Does a new turn begin with the next round?
    pub fn completes_turn(self) -> bool {
        self.rounds > 0 && self.rounds.is_multiple_of(ROUNDS_PER_TURN)
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hour {}, turn {}, round {}",
            self.hours(),
            self.turn_of_hour(),
            self.round_of_turn()
        )
    }
}

/// Exploration proceeds in turns; an encounter shifts play into rounds
/// (Dungeon Delves › Turns and Rounds). The simulation ticks in rounds in both.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DelveMode {
    #[default]
    Exploration,
    Encounter,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_rounds_make_a_turn_and_six_turns_an_hour() {
        let c = Clock { rounds: 9 };
        assert_eq!(c.turns(), 0);
        let c = Clock { rounds: 10 };
        assert_eq!(c.turns(), 1);
        assert_eq!(c.round_of_turn(), 0);
        assert!(c.completes_turn());
        let c = Clock { rounds: 59 };
        assert_eq!((c.hours(), c.turns()), (0, 5));
        let c = Clock { rounds: 60 };
        assert_eq!((c.hours(), c.turns(), c.turn_of_hour()), (1, 6, 0));
        let c = Clock { rounds: 137 };
        assert_eq!(c.to_string(), "hour 2, turn 1, round 7");
    }
}
