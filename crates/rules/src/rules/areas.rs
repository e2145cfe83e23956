//! Rule areas register themselves (DESIGN.md › one module and one plugin per rule area): each
//! area's plugin says how it installs its part of a level, which state it carries from round to
//! round (reset when a delve begins), and the choices it offers a creature (how its optional
//! module switches is registered with `rules::modules`). The central files loop over what is
//! registered — `sim` installing a level, the window's action list — and none of them names an
//! area.
//!
//! Everything runs in the order the plugins were added (`sim::SimPlugins`), so a delve is
//! installed the same way every time.

use crate::rules::acting::Hold;

use bevy::prelude::*;

use crate::act::{Choice, Concern};
use crate::state::KeepsState;
use delve_ground::level::{CreatureDef, Level};

/// A step of installing a level, given the level.
pub type Install = fn(&mut World, &Level);
/// A step of installing one creature of the level, given its entity and its definition.
pub type InstallCreature = fn(&mut World, Entity, &CreatureDef);
/// The choices an area offers a creature where it stands, each with what it concerns
/// (`door (27, 4)`, `here`).
pub type Offer = fn(&World, Entity) -> Vec<(Concern, Choice)>;

/// Where an area's offers stand in a creature's list, most pressing first: what a player (and
/// the window's numbered keys) meets first. Offers of one rank keep the order their plugins were
/// added in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// Ways out of a hold or a danger: a squeeze, a pit, deep water, lying prone.
    Escape,
    /// The battle's actions: attacks, stepping back, defending.
    Fight,
    /// What is at hand: a door, a trap, a fallen companion, a load.
    AtHand,
    /// Lights: lighting, dousing, refuelling, dropping, picking up.
    Light,
    /// Looking and listening: searching, listening, hiding, probing.
    Senses,
    /// Resting.
    Rest,
    /// Talking, shouting, sneaking.
    Voice,
    /// Standing choices that hold until changed: when to give a shield to a critical.
    Standing,
    /// The party's own: a member staying behind, the party leaving the level (last: a number
    /// key pressed by mistake must not end the delve before the rest is offered).
    Party,
}

/// What every rule area registered.
#[derive(Resource, Default)]
pub struct Areas {
    level: Vec<Install>,
    creature: Vec<InstallCreature>,
    after_creatures: Vec<Install>,
    resets: Vec<fn(&mut World)>,
    offers: Vec<(Rank, Offer)>,
}

/// What a rule area registers, from its plugin.
pub trait RuleArea {
    /// Its part of a level, before the creatures are in (resources, doors, lights, …).
    fn installs(&mut self, install: Install) -> &mut Self;
    /// Its part of each creature of the level, as the creature is spawned.
    fn installs_creature(&mut self, install: InstallCreature) -> &mut Self;
    /// What it does once every creature is in (parties, a first look).
    fn installs_after_creatures(&mut self, install: Install) -> &mut Self;
    /// State it carries from round to round, reset when a delve begins (an undo or a load
    /// installs a level again in the same world: nothing of the old delve may stay), and kept in
    /// every keyframe (`crate::state`).
    fn resets<R: Resource + Default + Clone + std::fmt::Debug>(&mut self) -> &mut Self;
    /// The choices it offers a creature, and where they stand in its list.
    fn offers(&mut self, rank: Rank, offer: Offer) -> &mut Self;
}

fn areas(app: &mut App) -> Mut<'_, Areas> {
    app.init_resource::<Areas>().not_state::<Areas>();
    app.world_mut().resource_mut::<Areas>()
}

fn reset<R: Resource + Default>(world: &mut World) {
    if world.contains_resource::<R>() {
        world.insert_resource(R::default());
    }
}

impl RuleArea for App {
    fn installs(&mut self, install: Install) -> &mut Self {
        areas(self).level.push(install);
        self
    }

    fn installs_creature(&mut self, install: InstallCreature) -> &mut Self {
        areas(self).creature.push(install);
        self
    }

    fn installs_after_creatures(&mut self, install: Install) -> &mut Self {
        areas(self).after_creatures.push(install);
        self
    }

    fn resets<R: Resource + Default + Clone + std::fmt::Debug>(&mut self) -> &mut Self {
        areas(self).resets.push(reset::<R>);
        crate::state::KeepsState::keeps::<R>(self)
    }

    fn offers(&mut self, rank: Rank, offer: Offer) -> &mut Self {
        let mut areas = areas(self);
        areas.offers.push((rank, offer));
        // Stable: one rank's offers keep the order they were registered in.
        areas.offers.sort_by_key(|o| o.0);
        self
    }
}

/// Runs what every area registered, with the registry taken out of the world meanwhile.
fn with_areas<T>(world: &mut World, f: impl FnOnce(&mut World, &Areas) -> T) -> T {
    let areas = world.remove_resource::<Areas>().unwrap_or_default();
    let out = f(world, &areas);
    world.insert_resource(areas);
    out
}

/// Every area's part of a level, before the creatures are in; the round-to-round state of
/// every area reset.
pub fn install_level(world: &mut World, level: &Level) {
    with_areas(world, |world, areas| {
        for reset in &areas.resets {
            reset(world);
        }
        for install in &areas.level {
            install(world, level);
        }
    });
}

/// Every area's part of one creature.
pub fn install_creature(world: &mut World, e: Entity, def: &CreatureDef) {
    with_areas(world, |world, areas| {
        for install in &areas.creature {
            install(world, e, def);
        }
    });
}

/// What every area does once the creatures are in.
pub fn install_after_creatures(world: &mut World, level: &Level) {
    with_areas(world, |world, areas| {
        for install in &areas.after_creatures {
            install(world, level);
        }
    });
}

/// What `who` may do where it stands, as every area offers it, each with what it concerns:
/// the window's action list and `delve query` show these, and nobody else decides who may do
/// what. A choice the creature's holds do not allow is not offered (stuck in a squeeze, it is
/// offered only its ways out: `rules::acting`).
pub fn choices_for(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    offered(world, who, &[])
}

/// What `who` will be offered in the round to come, as a mind deciding in the middle of a round
/// sees it: its orders are carried out in the next round, so surprise — which lasts only the
/// round its faction loses — does not hold them back (RULINGS › Surprise).
pub fn choices_next_round(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    offered(world, who, &[Hold::Surprised])
}

/// One area's offers to `who` (its registered offer function) as [`choices_next_round`] gives
/// them: for a mind that wants only that area's, without working out every area's.
pub fn area_choices_next_round(world: &World, who: Entity, offer: Offer) -> Vec<(Concern, Choice)> {
    allowed(world, who, offer(world, who), &[Hold::Surprised])
}

/// Every area's offers to `who` that its holds allow, but for the holds `lifting`.
fn offered(world: &World, who: Entity, lifting: &[Hold]) -> Vec<(Concern, Choice)> {
    let Some(areas) = world.get_resource::<Areas>() else {
        return Vec::new();
    };
    let all = areas
        .offers
        .iter()
        .flat_map(|(_, offer)| offer(world, who))
        .collect();
    allowed(world, who, all, lifting)
}

/// The offers the creature's holds allow it, but for the holds `lifting`.
fn allowed(
    world: &World,
    who: Entity,
    offers: Vec<(Concern, Choice)>,
    lifting: &[Hold],
) -> Vec<(Concern, Choice)> {
    offers
        .into_iter()
        .filter(|(_, c)| {
            let mut allowed = c.command.act().allowed_under().to_vec();
            allowed.extend_from_slice(lifting);
            crate::rules::acting::held_from(world, who, &allowed).is_none()
                && crate::rules::acting::refused_action(world, who, c.command.act().cost())
                    .is_none()
        })
        .collect()
}
