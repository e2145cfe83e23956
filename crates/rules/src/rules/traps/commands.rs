//! The traps' commands (Dungeon Delves › Traps and Trapbreaking) and why one is refused.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, at, creature};
use delve_ground::grid::GridPos;

/// Disarms (or, with `discharge`, sets off harmlessly) a known trap hastily (one round).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisarmTrap {
    pub who: String,
    pub at: (i32, i32),
    #[serde(default)]
    pub discharge: bool,
}

/// Disarms (or, with `discharge`, sets off harmlessly) a known trap methodically (one turn;
/// +4 for a thief, 18+ by Adventuring for anyone else).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisarmTrapMethodically {
    pub who: String,
    pub at: (i32, i32),
    #[serde(default)]
    pub discharge: bool,
}

/// Touches what is on a square: by hand next to it, or with a 10' pole within 10'.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Touch {
    pub who: String,
    pub at: (i32, i32),
}

/// Starts (`on: true`) or stops probing the floor ahead with a 10' pole while walking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    pub who: String,
    pub on: bool,
}

/// Re-arms a disarmed trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RearmTrap {
    pub who: String,
    pub at: (i32, i32),
}

impl fmt::Display for DisarmTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.discharge {
            "discharge"
        } else {
            "disarm"
        };
        write!(f, "{how} the trap at {}", at(self.at))
    }
}

impl Act for DisarmTrap {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Traps)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::disarm_hastily(world, who, at(self.at), self.discharge)
    }
}

impl fmt::Display for DisarmTrapMethodically {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.discharge {
            "discharge"
        } else {
            "disarm"
        };
        write!(f, "{how} the trap at {} methodically", at(self.at))
    }
}

impl Act for DisarmTrapMethodically {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Traps)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        super::disarm_methodically(world, who, at(self.at), self.discharge)
    }
}

impl fmt::Display for Touch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "touch {}", at(self.at))
    }
}

impl Act for Touch {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Traps)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::touch(world, creature(world, &self.who)?, at(self.at))
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on {
            write!(f, "probe ahead with a pole")
        } else {
            write!(f, "stop probing ahead")
        }
    }
}

impl Act for Probe {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Traps)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::probe(world, creature(world, &self.who)?, self.on)
    }
}

impl fmt::Display for RearmTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "re-arm the trap at {}", at(self.at))
    }
}

impl Act for RearmTrap {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        super::rearm(world, creature(world, &self.who)?, at(self.at))
    }
}

/// Why a trap command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrapRefusal {
    NoKnownTrap {
        at: GridPos,
    },
    NotNextTo {
        at: GridPos,
    },
    NotArmed,
    NotDisarmed,
    /// A hasty try at this trap failed at the thief's level.
    HastyBarred,
    HastyNeedsTools,
    HastyNotProficient,
    RearmingIsForThieves,
    /// Touching: next to it by hand, or within 10' with a pole.
    OutOfReach {
        at: GridPos,
    },
    NeedsPole,
}

impl Reason for TrapRefusal {}

impl fmt::Display for TrapRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TrapRefusal::*;
        match self {
            NoKnownTrap { at } => write!(f, "it knows of no trap at {at}"),
            NotNextTo { at } => write!(f, "it must stand at or next to the trap at {at}"),
            NotArmed => write!(f, "it is not armed"),
            NotDisarmed => write!(f, "only a disarmed trap can be re-armed"),
            HastyBarred => write!(
                f,
                "it failed to disable this trap hastily at this level, and cannot try hastily \
                 again until its level rises"
            ),
            HastyNeedsTools => write!(f, "hasty trapbreaking needs thieves' tools"),
            HastyNotProficient => write!(
                f,
                "hasty trapbreaking is for those proficient in Trapbreaking, with a \
                 Trapbreaking throw"
            ),
            RearmingIsForThieves => {
                write!(f, "re-arming a trap is for a thief, with thieves' tools")
            }
            OutOfReach { at } => write!(
                f,
                "{at} is out of reach: next to it by hand, or within 10' with a 10' pole"
            ),
            NeedsPole => write!(f, "probing ahead needs a 10' pole"),
        }
    }
}
