//! The light commands (Dungeon Delves › Light and Darkness) and why one is refused.

use std::fmt;

use bevy::prelude::*;

use crate::act::Reason;
use delve_ground::grid::GridPos;

// Each light command: a creature acting on the lights it carries or stands over.
crate::creature_commands! {
    /// Lights a carried torch, lantern or candle that has fuel.
    LightUp: "light a light" => super::light_up, activity None, costs HANDLING, common LightOrDouse;
    /// Douses the lights it carries.
    Douse: "douse its lights" => super::douse, activity None, costs REST, common LightOrDouse;
    /// Drops a carried light on its square.
    DropLight: "drop a light" => super::drop_light, activity None, costs REST;
    /// Picks up a light lying on its square.
    PickUpLight: "pick up a light" => super::pick_up_light, activity None, costs HANDLING;
    /// Fills a carried lantern from a flask of oil.
    Refuel: "refuel a lantern" => super::refuel, activity None, costs HANDLING;
}

/// Why a light command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LightRefusal {
    NoUnlitLight,
    NoLitLight,
    CarriesNoLight,
    NoLightHere {
        at: GridPos,
    },
    NoLantern,
    NoOil,
    /// RULINGS › Fuel: a lantern holds one flask.
    LanternFull,
}

impl Reason for LightRefusal {}

impl fmt::Display for LightRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LightRefusal::NoUnlitLight => write!(f, "it carries no unlit light with fuel"),
            LightRefusal::NoLitLight => write!(f, "it carries no lit light"),
            LightRefusal::CarriesNoLight => write!(f, "it carries no light"),
            LightRefusal::NoLightHere { at } => write!(f, "there is no light at {at}"),
            LightRefusal::NoLantern => write!(f, "it carries no lantern"),
            LightRefusal::NoOil => write!(f, "it has no flask of oil"),
            LightRefusal::LanternFull => write!(f, "its lantern is full: it holds one flask"),
        }
    }
}
