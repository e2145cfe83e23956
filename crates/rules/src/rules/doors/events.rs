//! What doors put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::log::LogEvent;

/// How a door came open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoorOpening {
    /// Opened by hand.
    ByHand,
    /// An evil door yielded easily to a monster.
    YieldedToEvil,
    /// Bashed open (Dungeonbashing).
    Bashed,
    /// Battered down: it stays open for good.
    BatteredDown,
    /// Broken by structural damage: it stays open for good.
    Broken,
}

/// How a lock came open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LockOpening {
    /// With its key.
    Key(String),
    /// Picked (Lockpicking).
    Picked,
}

/// Dungeon Delves › Doors and Dungeonbashing.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DoorEvent {
    /// A door came open.
    DoorOpened {
        who: String,
        at: GridPos,
        how: DoorOpening,
    },
    /// A lock was unlocked or picked.
    LockOpened {
        who: String,
        at: GridPos,
        by: LockOpening,
    },
    /// A pick broke in the lock: it is jammed and can no longer be unlocked or picked.
    LockJammed { who: String, at: GridPos },
    /// A Lockpicking throw failed without jamming: methodically the thief may try again; hastily
    /// not until its level rises.
    PickFailed {
        who: String,
        at: GridPos,
        may_retry: bool,
    },
    /// A Dungeonbashing throw failed; on an unmodified 1 the basher took 1 bludgeoning damage.
    BashFailed {
        who: String,
        at: GridPos,
        hurt: bool,
    },
    /// A spike went into a door: a closed one is spiked shut, an open one wedged open.
    DoorSpiked {
        who: String,
        at: GridPos,
        spikes: u8,
        wedged_open: bool,
    },
    /// An evil door, released, swung shut.
    DoorSwungShut { at: GridPos },
    /// Closing a door wedged open knocked its spikes out.
    WedgeRemoved {
        who: String,
        at: GridPos,
        spikes: u8,
    },
    /// A door was struck (the attack throw is logged before): on a hit, the structural damage
    /// dealt and the structural hit points left (none for a window).
    DoorStruck {
        who: String,
        at: GridPos,
        structural_damage: Option<u32>,
        structural_hp_left: Option<u32>,
    },
}

impl LogEvent for DoorEvent {
    fn kind(&self) -> LogKind {
        LogKind::Doors
    }

    fn at(&self) -> Option<delve_ground::grid::GridPos> {
        match self {
            DoorEvent::DoorOpened { at, .. }
            | DoorEvent::LockOpened { at, .. }
            | DoorEvent::LockJammed { at, .. }
            | DoorEvent::PickFailed { at, .. }
            | DoorEvent::BashFailed { at, .. }
            | DoorEvent::DoorSpiked { at, .. }
            | DoorEvent::DoorSwungShut { at }
            | DoorEvent::WedgeRemoved { at, .. }
            | DoorEvent::DoorStruck { at, .. } => Some(*at),
        }
    }

    fn who(&self) -> Option<&str> {
        match self {
            DoorEvent::DoorOpened { who, .. }
            | DoorEvent::LockOpened { who, .. }
            | DoorEvent::LockJammed { who, .. }
            | DoorEvent::PickFailed { who, .. }
            | DoorEvent::BashFailed { who, .. }
            | DoorEvent::DoorSpiked { who, .. }
            | DoorEvent::WedgeRemoved { who, .. }
            | DoorEvent::DoorStruck { who, .. } => Some(who),
            DoorEvent::DoorSwungShut { .. } => None,
        }
    }
}

impl fmt::Display for DoorEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DoorEvent::DoorOpened { who, at, how } => match how {
                DoorOpening::ByHand => write!(f, "{who} opens the door at {at}"),
                DoorOpening::YieldedToEvil => {
                    write!(f, "the evil door at {at} yields easily to {who}")
                }
                DoorOpening::Bashed => write!(f, "{who} bashes the door at {at} open"),
                DoorOpening::BatteredDown => write!(f, "{who} batters the door at {at} down"),
                DoorOpening::Broken => write!(f, "{who} breaks the door at {at} down"),
            },
            DoorEvent::LockOpened { who, at, by } => match by {
                LockOpening::Key(key) => {
                    write!(f, "{who} unlocks the door at {at} with the {key}")
                }
                LockOpening::Picked => write!(f, "{who} picks the lock of the door at {at}"),
            },
            DoorEvent::LockJammed { who, at } => {
                write!(
                    f,
                    "{who} breaks its pick in the lock at {at}: the lock is jammed"
                )
            }
            DoorEvent::PickFailed {
                who,
                at,
                may_retry: true,
            } => write!(f, "{who} fails to pick the lock at {at}, but may try again"),
            DoorEvent::PickFailed { who, at, .. } => write!(
                f,
                "{who} cannot figure out how to open the lock at {at} quickly, and cannot try \
                 hastily again until its level rises"
            ),
            DoorEvent::BashFailed { who, hurt, .. } => {
                if *hurt {
                    write!(
                        f,
                        "{who} bounces off the door with a painful grunt: 1 bludgeoning damage"
                    )
                } else {
                    write!(f, "{who} bounces off the door with a grunt and a thud")
                }
            }
            DoorEvent::DoorSpiked {
                who,
                at,
                wedged_open: true,
                ..
            } => write!(f, "{who} wedges the door at {at} open with a spike"),
            DoorEvent::DoorSpiked {
                who, at, spikes, ..
            } => {
                write!(
                    f,
                    "{who} spikes the door at {at} shut ({spikes} spike(s) now)"
                )
            }
            DoorEvent::DoorSwungShut { at } => write!(f, "the door at {at} swings shut by itself"),
            DoorEvent::WedgeRemoved { who, at, spikes } => write!(
                f,
                "{who} knocks the {spikes} spike(s) wedging the door at {at} out and closes it"
            ),
            DoorEvent::DoorStruck {
                who,
                at,
                structural_damage: None,
                ..
            } => write!(f, "{who} strikes the door at {at} and does it no harm"),
            DoorEvent::DoorStruck {
                who,
                at,
                structural_damage: Some(d),
                structural_hp_left,
            } => {
                write!(f, "{who} deals the door at {at} {d} structural damage")?;
                match structural_hp_left {
                    Some(hp) => write!(f, " ({hp} SHP left)"),
                    None => Ok(()),
                }
            }
        }
    }
}
