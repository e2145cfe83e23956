//! A walk in progress: its path, pace and what it has banked.

use bevy::prelude::*;

use super::speeds::Pace;
use delve_ground::grid::GridPos;
use delve_ground::grid::distance::step_feet;

/// A walk in progress.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Walking {
    pub path: Vec<GridPos>,
    /// Index in `path` of the next square to enter.
    pub next: usize,
    pub pace: Pace,
    /// Feet (in tenths) carried over from earlier rounds.
    pub banked_tenths: u32,
    /// Whether an odd number of diagonal steps has been taken (5-10-5).
    pub odd_diagonals: bool,
    /// A party's leader walks no faster than its slowest member: tenths of a foot per round.
    pub cap_tenths: Option<u32>,
    /// Tactical Combat › Cautious Movement: half combat speed (rounded down to 5'), and moving
    /// through threatened squares provokes no attacks of opportunity.
    pub cautious: bool,
    /// Tactical Combat › Cautious Movement: full speed through threatened squares with
    /// Acrobatics; each threatener's attack of opportunity is avoided by a successful check.
    pub acrobatic: bool,
    /// The known hazards on the path when it was planned: crossed knowingly (RULINGS › Pits and
    /// holes). One learned of since stops or turns the walk ([`mind_the_way`](super::hazards::mind_the_way)).
    pub knowingly: Vec<GridPos>,
}

impl Walking {
    pub fn new(path: Vec<GridPos>, pace: Pace) -> Self {
        Self {
            path,
            next: 1,
            pace,
            banked_tenths: 0,
            odd_diagonals: false,
            cap_tenths: None,
            cautious: false,
            acrobatic: false,
            knowingly: Vec::new(),
        }
    }

    pub fn destination(&self) -> Option<GridPos> {
        self.path.last().copied()
    }

    /// Feet of path still ahead, by the 5-10-5 rule (terrain costs not counted).
    pub fn feet_left(&self, scale_feet: u32) -> u32 {
        let mut odd = self.odd_diagonals;
        let mut feet = 0;
        for w in self.path[self.next.saturating_sub(1)..].windows(2) {
            let diagonal = w[0].x != w[1].x && w[0].y != w[1].y;
            feet += step_feet(diagonal, odd, scale_feet);
            odd ^= diagonal;
        }
        feet
    }
}
