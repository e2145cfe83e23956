//! The doors' commands (Dungeon Delves › Doors and Dungeonbashing) and why one is refused.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::act::{Act, Activity, Reason, Refusal, at, creature};
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{DoorMaterial, Structure};

/// Opens the door at a square next to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenDoor {
    pub who: String,
    pub at: (i32, i32),
}

/// Closes the door at a square next to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseDoor {
    pub who: String,
    pub at: (i32, i32),
}

/// Holds a closed door shut from beside it: it must be bashed open, and an evil one no longer
/// yields to monsters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldShut {
    pub who: String,
    pub at: (i32, i32),
}

/// Unlocks a door with its key (one round).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unlock {
    pub who: String,
    pub at: (i32, i32),
}

/// Picks a lock hastily (one round, thieves' tools, a Lockpicking throw).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickLock {
    pub who: String,
    pub at: (i32, i32),
}

/// Picks a lock methodically (one turn, +4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickLockMethodically {
    pub who: String,
    pub at: (i32, i32),
}

/// Bashes a stuck or spiked door open (one round), with a helper if one is named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bash {
    pub who: String,
    pub at: (i32, i32),
    #[serde(default)]
    pub helper: Option<String>,
}

/// Batters a door down with an axe (a wooden door one turn, an iron-banded one three).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Batter {
    pub who: String,
    pub at: (i32, i32),
}

/// Drives a spike into a door (one round): shut if closed, wedged open if open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spike {
    pub who: String,
    pub at: (i32, i32),
}

/// Strikes a closed door with a weapon that deals structural damage (the one named, or the
/// first that can harm it), until its structural hit points are gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackDoor {
    pub who: String,
    pub at: (i32, i32),
    #[serde(default)]
    pub weapon: Option<String>,
}

impl fmt::Display for AttackDoor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "strike the door at {}", at(self.at))?;
        if let Some(w) = &self.weapon {
            write!(f, " with the {w}")?;
        }
        Ok(())
    }
}

impl Act for AttackDoor {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Doors)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let who = creature(world, &self.who)?;
        let done = super::attack_door(world, who, at(self.at), self.weapon.as_deref());
        super::known::learn(world, who, at(self.at));
        done
    }
}

/// Each door command: its words, the rule that carries it out, and what its faction learns of
/// the door by it (`known::learn` for a try of the door, `known::learn_spikes` for closing it).
macro_rules! door_commands {
    ($($act:ident: $words:literal => $rule:path, $learns:path, activity $activity:ident;)*) => {
        $(
            impl fmt::Display for $act {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, $words, at(self.at))
                }
            }

            impl Act for $act {
                fn who(&self) -> &str {
                    &self.who
                }

                fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
                    let who = creature(world, &self.who)?;
                    let done = $rule(world, who, at(self.at));
                    $learns(world, who, at(self.at));
                    done
                }

                fn activity(&self) -> Option<Activity> {
                    crate::activity!($activity)
                }
            }
        )*
    };
}

door_commands! {
    OpenDoor: "open the door at {}" => super::open, super::known::learn, activity Doors;
    CloseDoor: "close the door at {}" => super::close, super::known::learn_spikes, activity None;
    HoldShut: "hold the door at {} shut" => super::hold_shut, super::known::learn_spikes, activity Doors;
    Unlock: "unlock the door at {}" => super::unlock, super::known::learn, activity Doors;
    PickLock: "pick the lock at {}" => super::pick_hastily, super::known::learn, activity Doors;
    PickLockMethodically: "pick the lock at {} methodically" => super::pick_methodically, super::known::learn, activity Doors;
    Batter: "batter down the door at {}" => super::batter, super::known::learn, activity Doors;
    Spike: "spike the door at {}" => super::spike, super::known::learn, activity Doors;
}

impl fmt::Display for Bash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bash the door at {}", at(self.at))?;
        if let Some(h) = &self.helper {
            write!(f, " with {h}")?;
        }
        Ok(())
    }
}

impl Act for Bash {
    fn activity(&self) -> Option<Activity> {
        Some(Activity::Doors)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        let helper = match &self.helper {
            Some(h) => Some(creature(world, h)?),
            None => None,
        };
        let who = creature(world, &self.who)?;
        let done = super::bash(world, who, helper, at(self.at));
        super::known::learn(world, who, at(self.at));
        if let Some(helper) = helper {
            super::known::learn(world, helper, at(self.at));
        }
        done
    }
}

/// Why a door command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DoorRefusal {
    NoDoor {
        at: GridPos,
    },
    NotNextTo {
        at: GridPos,
    },
    /// A secret door no one has found.
    NoKnownDoor {
        at: GridPos,
    },
    HeldShut {
        by: String,
    },
    Open,
    OpenAlready,
    CloseItFirst,
    ClosedAlready,
    Locked,
    Stuck,
    SpikedShut {
        spikes: u8,
    },
    BatteredDown,
    DoorwayOccupied,
    NotLocked,
    Jammed,
    NoKeyFits,
    KeyNotCarried {
        key: String,
    },
    /// A hasty pick of this lock failed at the thief's level.
    HastyPickBarred,
    NotALockpicker,
    NoThievesTools,
    /// The helper named for a bash cannot help.
    Helper {
        why: String,
    },
    LockedNotBashable,
    NothingToBash,
    FullOfSpikes,
    NoSpikes,
    /// Spiking takes a round per spike.
    OneSpikeARound,
    /// None of its weapons (or not the one named) deals structural damage to this kind of
    /// structure.
    CannotHarmStructure {
        structure: Structure,
    },
    NoSuchWeapon {
        weapon: String,
    },
    WindowNeedsWeapon,
    NeedsAxe,
    TooStrongToBatter {
        material: DoorMaterial,
    },
}

impl Reason for DoorRefusal {}

impl fmt::Display for DoorRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DoorRefusal::*;
        match self {
            NoDoor { at } => write!(f, "there is no door at {at}"),
            NotNextTo { at } => write!(f, "it must stand next to the door at {at}"),
            NoKnownDoor { at } => write!(f, "there is no door it knows of at {at}"),
            HeldShut { by } => write!(f, "{by} holds it shut: bash it open"),
            Open => write!(f, "it is open"),
            OpenAlready => write!(f, "it is open already"),
            CloseItFirst => write!(f, "it is open: close it first"),
            ClosedAlready => write!(f, "it is closed already"),
            Locked => write!(f, "it is locked"),
            Stuck => write!(f, "it is stuck: bash it open"),
            SpikedShut { spikes } => {
                write!(f, "it is spiked shut ({spikes} spike(s)): bash it open")
            }
            BatteredDown => write!(f, "it is battered down: it will not close"),
            DoorwayOccupied => write!(f, "someone stands in the doorway"),
            NotLocked => write!(f, "it is not locked"),
            Jammed => write!(f, "the lock is jammed: it cannot be unlocked or picked"),
            NoKeyFits => write!(f, "no key fits this lock"),
            KeyNotCarried { key } => write!(f, "it does not carry the {key}"),
            HastyPickBarred => write!(
                f,
                "it failed to pick this lock hastily at this level, and cannot try hastily \
                 again until its level rises"
            ),
            NotALockpicker => write!(
                f,
                "only those proficient in Lockpicking, with a Lockpicking throw, pick locks"
            ),
            NoThievesTools => write!(f, "picking a lock needs thieves' tools"),
            Helper { why } => write!(f, "the helper: {why}"),
            LockedNotBashable => write!(
                f,
                "bashing opens stuck and spiked doors; a locked one must be unlocked, picked \
                 or battered down"
            ),
            NothingToBash => write!(f, "it is neither stuck, spiked nor held: just open it"),
            FullOfSpikes => write!(f, "a door takes at most {} spikes", super::MAX_SPIKES),
            NoSpikes => write!(f, "it has no spikes"),
            OneSpikeARound => write!(f, "it has driven a spike this round: one a round"),
            CannotHarmStructure { structure } => write!(
                f,
                "a door is harmed as a {} structure, and no melee weapon it names deals \
                 structural damage to one (heavy equipment does)",
                match structure {
                    Structure::Wood => "wood",
                    Structure::Stone => "stone",
                }
            ),
            NoSuchWeapon { weapon } => write!(f, "it has no weapon named `{weapon}`"),
            WindowNeedsWeapon => write!(f, "breaking a window needs a weapon"),
            NeedsAxe => write!(f, "battering a door down needs an axe"),
            TooStrongToBatter { material } => write!(
                f,
                "a {material:?} door cannot be battered down without heavy equipment"
            ),
        }
    }
}
