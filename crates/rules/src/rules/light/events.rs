//! What light sources put in the log.

use delve_ground::log::LogKind;

use std::fmt;

use serde::Serialize;

use delve_ground::grid::GridPos;
use delve_ground::level::schema::LightKind;
use delve_ground::log::LogEvent;

/// A light as the log tells it: its kind and the turns of fuel it has left (none for a light
/// that burns without fuel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LightDescription {
    pub kind: LightKind,
    pub turns_left: Option<u64>,
}

impl fmt::Display for LightDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            LightKind::Custom { .. } => write!(f, "light")?,
            LightKind::Magical { .. } => write!(f, "magical light")?,
            LightKind::Sunlight { .. } => write!(f, "sunlight by a mirror")?,
            k => write!(f, "{}", format!("{k:?}").to_lowercase())?,
        }
        if let Some(turns) = self.turns_left {
            write!(f, " ({turns} turn(s) of fuel left)")?;
        }
        Ok(())
    }
}

/// Dungeon Delves › Light and Darkness.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LightEvent {
    /// A light source ran out of fuel and went out.
    LightBurnedOut {
        kind: LightKind,
        bearer: Option<String>,
    },
    /// A creature lit a light it carries.
    LightLit {
        who: String,
        light: LightDescription,
    },
    /// A creature doused the lights it carries.
    LightsDoused {
        who: String,
        lights: Vec<LightDescription>,
    },
    /// A creature dropped a light on its square.
    LightDropped {
        who: String,
        light: LightDescription,
        at: GridPos,
    },
    /// A creature picked up a light lying on its square.
    LightPickedUp {
        who: String,
        light: LightDescription,
    },
    /// A lantern was filled from a flask of oil.
    LanternFilled {
        who: String,
        light: LightDescription,
        flasks_left: u32,
    },
}

impl LogEvent for LightEvent {
    /// Of no kind the log panel filters by on its own.
    fn kind(&self) -> LogKind {
        LogKind::Other
    }

    fn who(&self) -> Option<&str> {
        match self {
            LightEvent::LightBurnedOut { bearer, .. } => bearer.as_deref(),
            LightEvent::LightLit { who, .. }
            | LightEvent::LightsDoused { who, .. }
            | LightEvent::LightDropped { who, .. }
            | LightEvent::LightPickedUp { who, .. }
            | LightEvent::LanternFilled { who, .. } => Some(who),
        }
    }
}

impl fmt::Display for LightEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LightEvent::LightBurnedOut { kind, bearer } => match bearer {
                Some(b) => write!(f, "{b}'s {kind:?} burns out"),
                None => write!(f, "a {kind:?} burns out"),
            },
            LightEvent::LightLit { who, light } => write!(f, "{who} lights a {light}"),
            LightEvent::LightsDoused { who, lights } => {
                let lights: Vec<String> = lights.iter().map(|l| l.to_string()).collect();
                write!(f, "{who} douses {}", lights.join(" and "))
            }
            LightEvent::LightDropped { who, light, at } => {
                write!(f, "{who} drops a {light} at {at}")
            }
            LightEvent::LightPickedUp { who, light } => write!(f, "{who} picks up a {light}"),
            LightEvent::LanternFilled {
                who,
                light,
                flasks_left,
            } => write!(
                f,
                "{who} fills a lantern: {light}; {flasks_left} flask(s) of oil left"
            ),
        }
    }
}
