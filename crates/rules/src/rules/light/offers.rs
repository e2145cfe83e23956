//! What a creature may do with the lights it carries or stands over, as the light area offers
//! it (Dungeon Delves › Light and Darkness; RULINGS › Fuel).

use crate::act::{AnyAct, Choice, Concern, square_of};
use crate::creature::{Equipment, Position};
use bevy::prelude::*;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{Gear, LightKind};
use delve_ground::time::ROUNDS_PER_TURN;

use super::{
    CarriedBy, Douse, DropLight, LANTERN_TURNS_PER_FLASK, LightSource, LightUp, PickUpLight,
    Refuel, carried,
};

/// What a creature may do with the lights it carries or stands over (Dungeon Delves › Light
/// and Darkness; RULINGS › Fuel), each offered only where the command would be carried out:
/// light an unlit source with fuel, douse its lit ones, refuel a lantern that is not full from
/// a flask of oil, drop the light it carries first, pick up a light lying on its square.
/// Handling a light takes a round (the action, in a battle).
pub fn light_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let Some(name) = world.get::<Name>(who).map(|n| n.to_string()) else {
        return Vec::new();
    };
    let mine: Vec<&LightSource> = carried(world, who)
        .into_iter()
        .filter_map(|e| world.get::<LightSource>(e))
        .collect();
    let mut out = Vec::new();
    let mut offer = |way: String, time: &str, note: String, act: AnyAct| {
        out.push((Concern::Here, Choice::new(&way, time, None, &note, act)));
    };
    if let Some(l) = mine.iter().find(|l| !l.lit && l.fuel_rounds != Some(0)) {
        let way = format!("light the {}", kind_words(&l.kind));
        let who = name.clone();
        offer(way, "1 round", fuel_words(l), AnyAct::from(LightUp { who }));
    }
    if mine.iter().any(|l| l.lit) {
        let who = name.clone();
        offer(
            "douse its lights".into(),
            "1 round",
            String::new(),
            AnyAct::from(Douse { who }),
        );
    }
    let full = LANTERN_TURNS_PER_FLASK as u64 * ROUNDS_PER_TURN;
    let flasks = world.get::<Equipment>(who).map_or(0, |g| {
        g.0.iter()
            .map(|g| match g {
                Gear::Oil(n) => *n,
                _ => 0,
            })
            .sum::<u32>()
    });
    if let Some(l) = mine
        .iter()
        .find(|l| l.kind == LightKind::Lantern)
        .filter(|l| l.fuel_rounds.is_none_or(|f| f < full))
        && flasks > 0
    {
        let note = format!("{}; {flasks} flask(s) of oil", fuel_words(l));
        let who = name.clone();
        offer(
            "refuel the lantern".into(),
            "1 round",
            note,
            AnyAct::from(Refuel { who }),
        );
    }
    if let Some(l) = mine.first() {
        let way = format!("drop the {}", kind_words(&l.kind));
        let who = name.clone();
        offer(
            way,
            "1 round",
            String::new(),
            AnyAct::from(DropLight { who }),
        );
    }
    if let Ok(at) = square_of(world, who)
        && let Some(l) = lying_at(world, at)
    {
        let way = format!("pick up the {}", kind_words(&l.kind));
        offer(
            way,
            "1 round",
            fuel_words(&l),
            AnyAct::from(PickUpLight { who: name }),
        );
    }
    out
}

/// The light lying on a square that `PickUpLight` would take (the first by entity), if any.
pub(super) fn lying_at(world: &World, at: GridPos) -> Option<LightSource> {
    delve_ground::query_cache::read_query(
        world,
        |q: Query<(Entity, &Position, &LightSource), Without<CarriedBy>>| {
            q.iter()
                .filter(|(_, p, _)| p.0 == at)
                .min_by_key(|(e, ..)| *e)
                .map(|(.., l)| *l)
        },
    )
    .flatten()
}

/// A light's kind in words: `torch`, `lantern`, `candle`, `light`.
pub(super) fn kind_words(kind: &LightKind) -> &'static str {
    match kind {
        LightKind::Candle => "candle",
        LightKind::Torch => "torch",
        LightKind::Lantern => "lantern",
        LightKind::Custom { .. } | LightKind::Magical { .. } | LightKind::Sunlight { .. } => {
            "light"
        }
    }
}

/// The fuel a light has left, in words.
pub(super) fn fuel_words(l: &LightSource) -> String {
    match l.fuel_rounds {
        None => "burns until doused".into(),
        Some(r) => format!("{} turns of fuel", r / ROUNDS_PER_TURN),
    }
}
