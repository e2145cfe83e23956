//! What the party's marching puts in the log.

use crate::rules::light::LightDescription;
use delve_ground::level::schema::Gear;
use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use super::parties::Formation;
use crate::rules::movement::Pace;
use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

/// Dungeon Delves › Marching Order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PartyEvent {
    /// A party's formation changed with the width of the passage.
    FormationChanged { party: String, formation: Formation },
    /// A party set off behind its leader at its slowest member's pace.
    MarchBegun {
        party: String,
        leader: String,
        to: GridPos,
        pace: Pace,
        feet_per_round: f32,
        feet: u32,
    },
    /// A party rested; those with Endurance keep watch.
    PartyRests { party: String, watch: Vec<String> },
    /// A running party stopped: a member is winded and cannot run.
    StoppedRunning { party: String, winded: String },
    /// A creature took the gear and lights of a fallen creature or a companion.
    TookFrom {
        who: String,
        from: String,
        gear: Vec<Gear>,
        lights: Vec<LightDescription>,
    },
    /// A party left the level at `at`, leaving those down behind.
    LeftTheLevel {
        party: String,
        at: GridPos,
        left_behind: Vec<String>,
    },
    /// A member stays behind while its party marches (`stay`), or falls in again.
    StaysBehind {
        party: String,
        who: String,
        stay: bool,
    },
    /// A member went to the front of the marching order; those it passed stepped back a place.
    WentToTheFront { party: String, who: String },
}

impl LogEvent for PartyEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn who(&self) -> Option<&str> {
        match self {
            PartyEvent::FormationChanged { party, .. }
            | PartyEvent::MarchBegun { party, .. }
            | PartyEvent::PartyRests { party, .. }
            | PartyEvent::StoppedRunning { party, .. }
            | PartyEvent::LeftTheLevel { party, .. } => Some(party),
            PartyEvent::TookFrom { who, .. }
            | PartyEvent::StaysBehind { who, .. }
            | PartyEvent::WentToTheFront { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for PartyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartyEvent::FormationChanged { party, formation } => {
                write!(f, "the {party} goes on in {formation}")
            }
            PartyEvent::MarchBegun {
                party,
                leader,
                to,
                pace,
                feet_per_round,
                feet,
            } => write!(
                f,
                "the {party} marches behind {leader} at {feet_per_round:.0}' per round \
                 ({pace} speed) to {to}, {feet}' by the shortest path"
            ),
            PartyEvent::PartyRests { party, watch } => {
                write!(f, "the {party} rests")?;
                if !watch.is_empty() {
                    write!(f, "; {} keeps watch", watch.join(" and "))?;
                }
                Ok(())
            }
            PartyEvent::StoppedRunning { party, winded } => {
                write!(f, "the {party} stops running: {winded} is winded")
            }
            PartyEvent::LeftTheLevel {
                party,
                at,
                left_behind,
            } => {
                write!(f, "the {party} leaves the level at {at}")?;
                if !left_behind.is_empty() {
                    write!(f, ", leaving {} behind", left_behind.join(" and "))?;
                }
                Ok(())
            }
            PartyEvent::WentToTheFront { party, who } => write!(
                f,
                "{who} goes to the front and leads the {party}; the others step back a place"
            ),
            PartyEvent::StaysBehind { party, who, stay } => {
                if *stay {
                    write!(f, "{who} stays behind while the {party} marches")
                } else {
                    write!(f, "{who} falls in with the {party} again")
                }
            }
            PartyEvent::TookFrom {
                who,
                from,
                gear,
                lights,
            } => {
                write!(f, "{who} takes from {from}:")?;
                for g in gear {
                    write!(f, " {g:?}")?;
                }
                for l in lights {
                    write!(f, " {l}")?;
                }
                Ok(())
            }
        }
    }
}
