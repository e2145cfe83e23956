//! What caving puts in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::{Deserialize, Serialize};

use delve_ground::grid::GridPos;
use delve_ground::level::schema::Surface;
use delve_ground::log::LogEvent;

/// Dungeon Delves › Caving and Spelunking.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CavingEvent {
    /// A failed Squeezing throw: no progress this round.
    SqueezeHeldBack { who: String, at: GridPos },
    /// A Squeezing throw failed on an unmodified 1: stuck.
    StuckInASqueeze { who: String, at: GridPos },
    /// An attempt to escape failed: still stuck, and the next attempt is harder.
    EscapeFailed { who: String, way: Escape },
    /// Free of the squeeze, back or on.
    Escaped {
        who: String,
        way: Escape,
        from: GridPos,
        to: GridPos,
    },
    /// A climb began: up or down, where to, how high, what surface.
    ClimbBegun {
        who: String,
        to: GridPos,
        height_feet: u32,
        surface: Surface,
        down: bool,
    },
    /// A failed Climbing throw on an easy surface: no progress this round.
    NoProgress { who: String },
    /// At the top.
    ClimbedOut { who: String, at: GridPos },
    /// At the bottom, climbed (or rappelled) down.
    ClimbedDown { who: String, at: GridPos },
    /// A rope secured above an open pit and let down into it.
    RopeLowered { who: String, at: GridPos },
    /// A rope (and its hook) hauled up out of a pit or chasm, back into its gear.
    RopeTakenUp { who: String, at: GridPos },
    /// A leap up out of a hole no deeper than the leap.
    LeaptOut {
        who: String,
        depth_feet: u32,
        leap_feet: f32,
        at: GridPos,
    },
    /// A jump across a gap: the d6, how far it reached, and whether it had a run-up.
    Jumped {
        who: String,
        gap_feet: u32,
        d6: u32,
        reach_feet: f32,
        run_up: bool,
    },
    /// A jump did not happen: the run-up ended short of the take-off square.
    JumpCalledOff { who: String, at: GridPos },
    /// A precarious landing failed: this many feet short.
    LandedShort { who: String, feet: u32 },
    /// Landed exactly at the edge: hanging by its fingers on the hole's side, to climb up.
    HangingByTheFingers { who: String, at: GridPos },
    /// A grappling hook thrown for the anchor above: caught or not (as the party sees it).
    HookThrown {
        who: String,
        at: GridPos,
        caught: bool,
    },
    /// A hook that only seemed to catch slipped loose.
    HookSlipped { who: String, at: GridPos },
    /// A belayer tried to break a climber's fall.
    Belayed {
        who: String,
        climber: String,
        caught: bool,
    },
    /// A balancing traverse began.
    TraverseBegun {
        who: String,
        to: GridPos,
        length_feet: u32,
        path: Path,
    },
    /// A crawling traverse rigged across a chasm.
    TraverseRigged {
        who: String,
        from: GridPos,
        to: GridPos,
    },
    /// Across the ledge.
    Traversed { who: String, at: GridPos },
    /// A fall: 1d6 bludgeoning per 10'.
    Fell {
        who: String,
        feet: u32,
        dice: Vec<u32>,
        damage: i32,
    },
}

impl LogEvent for CavingEvent {
    fn kind(&self) -> LogKind {
        LogKind::Moves
    }

    fn who(&self) -> Option<&str> {
        match self {
            CavingEvent::SqueezeHeldBack { who, .. }
            | CavingEvent::StuckInASqueeze { who, .. }
            | CavingEvent::EscapeFailed { who, .. }
            | CavingEvent::Escaped { who, .. }
            | CavingEvent::ClimbBegun { who, .. }
            | CavingEvent::NoProgress { who }
            | CavingEvent::ClimbedOut { who, .. }
            | CavingEvent::ClimbedDown { who, .. }
            | CavingEvent::RopeLowered { who, .. }
            | CavingEvent::RopeTakenUp { who, .. }
            | CavingEvent::Fell { who, .. }
            | CavingEvent::Jumped { who, .. }
            | CavingEvent::JumpCalledOff { who, .. }
            | CavingEvent::LeaptOut { who, .. }
            | CavingEvent::LandedShort { who, .. }
            | CavingEvent::HangingByTheFingers { who, .. }
            | CavingEvent::HookThrown { who, .. }
            | CavingEvent::HookSlipped { who, .. }
            | CavingEvent::Belayed { who, .. }
            | CavingEvent::TraverseBegun { who, .. }
            | CavingEvent::Traversed { who, .. }
            | CavingEvent::TraverseRigged { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for CavingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CavingEvent::SqueezeHeldBack { who, at } => {
                write!(f, "{who} cannot squeeze on from {at} this round")
            }
            CavingEvent::StuckInASqueeze { who, at } => {
                write!(f, "{who} is stuck fast in the squeeze at {at}")
            }
            CavingEvent::EscapeFailed { who, .. } => {
                write!(f, "{who} struggles in the squeeze and is still stuck")
            }
            CavingEvent::Escaped { who, way, from, to } => match way {
                Escape::Back => write!(f, "{who} wiggles back out of the squeeze, {from} -> {to}"),
                Escape::Forward => write!(f, "{who} pushes on through the squeeze, {from} -> {to}"),
            },
            CavingEvent::ClimbBegun {
                who,
                to,
                height_feet,
                surface,
                down,
            } => write!(
                f,
                "{who} starts {} the {surface:?} {height_feet}' climb to {to}",
                if *down { "down" } else { "up" }
            ),
            CavingEvent::NoProgress { who } => {
                write!(f, "{who} makes no progress up the climb this round")
            }
            CavingEvent::ClimbedOut { who, at } => write!(f, "{who} climbs out at {at}"),
            CavingEvent::ClimbedDown { who, at } => {
                write!(f, "{who} reaches the bottom at {at}")
            }
            CavingEvent::RopeLowered { who, at } => {
                write!(
                    f,
                    "{who} secures a rope and lets it down into the pit at {at}"
                )
            }
            CavingEvent::LeaptOut {
                who,
                depth_feet,
                leap_feet,
                at,
            } => write!(
                f,
                "{who} leaps {leap_feet}' and out of the {depth_feet}' hole to {at}"
            ),
            CavingEvent::RopeTakenUp { who, at } => {
                write!(f, "{who} takes up the rope hanging into {at}")
            }
            CavingEvent::JumpCalledOff { who, at } => {
                write!(f, "{who} stops at {at}, short of its take-off: no jump")
            }
            CavingEvent::Jumped {
                who,
                gap_feet,
                d6,
                reach_feet,
                run_up,
            } => write!(
                f,
                "{who} jumps a {gap_feet}' gap{}: d6 {d6}, {reach_feet}' — {}",
                if *run_up { "" } else { " without a run-up" },
                if *reach_feet >= *gap_feet as f32 {
                    "across"
                } else {
                    "short"
                }
            ),
            CavingEvent::HookThrown { who, at, caught } => write!(
                f,
                "{who} throws a grappling hook up out of {at}: {}",
                if *caught {
                    "it catches"
                } else {
                    "it fails to catch"
                }
            ),
            CavingEvent::TraverseBegun {
                who,
                to,
                length_feet,
                path,
            } => match path {
                Path::Rope => write!(
                    f,
                    "{who} starts across the rope traverse, {length_feet}' to {to}"
                ),
                _ => write!(
                    f,
                    "{who} starts along the {path:?} ledge, {length_feet}' to {to}"
                ),
            },
            CavingEvent::TraverseRigged { who, from, to } => {
                write!(f, "{who} rigs a rope traverse from {from} to {to}")
            }
            CavingEvent::Traversed { who, at } => write!(f, "{who} is across at {at}"),
            CavingEvent::Belayed {
                who,
                climber,
                caught,
            } => {
                if *caught {
                    write!(f, "{who} breaks {climber}'s fall with the rope")
                } else {
                    write!(f, "{who} cannot hold {climber}'s fall")
                }
            }
            CavingEvent::HookSlipped { who, at } => {
                write!(f, "the hook above {at} slips loose under {who}")
            }
            CavingEvent::LandedShort { who, feet } => {
                write!(f, "{who} lands badly, {feet}' short")
            }
            CavingEvent::HangingByTheFingers { who, at } => write!(
                f,
                "{who} comes down at the very edge and hangs by its fingers over {at}: it must climb up"
            ),
            CavingEvent::Fell {
                who,
                feet,
                dice,
                damage,
            } => write!(f, "{who} falls {feet}': {dice:?}, {damage} damage"),
        }
    }
}

/// Which way a stuck creature tries to get out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Escape {
    /// Wiggle backwards: a Paralysis save; 10' back.
    Back,
    /// Push forward: a Dungeonbashing throw; 10' on.
    Forward,
}

/// A balancing traverse's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Path {
    /// 4" to 8".
    Narrow,
    /// ½" to under 4".
    Precarious,
    /// A rope rigged across a chasm, crawled hand over hand (Dungeon Delves › Crawling
    /// Traverse).
    Rope,
}

impl Path {
    /// The path a ledge of this width makes; `None` under ½" (0 in whole inches).
    pub fn of_width(inches: u32) -> Option<Path> {
        match inches {
            0 => None,
            1..=3 => Some(Path::Precarious),
            _ => Some(Path::Narrow),
        }
    }
}
