//! The optional rule modules (RULINGS.md: the core `DelveRules`, and the `SituationalPenalties`
//! and `TacticalCombat` modules a level or the Judge switches): which a delve runs with, and
//! switching one on or off in a running delve.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::state::KeepsState;
use delve_ground::level::schema::Modules;

/// The optional rule modules of the delve: those it started with (the level's, or as the
/// command line switched them; what a save keeps) and those on now, as the Judge has switched
/// them since (the journal replays the switches).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunningModules {
    pub started: Modules,
    pub now: Modules,
}

/// One optional rule module, as the Judge switches it (and `delve sim --without` leaves out).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    strum::VariantArray,
)]
pub enum RuleModule {
    /// Tactical Combat: battles, initiative, attacks, and the tactical rules' switches.
    #[value(name = "combat")]
    TacticalCombat,
    /// Situational Penalties: prone, movement, poor vision and the rest on throws.
    SituationalPenalties,
}

impl RuleModule {
    pub const ALL: &'static [RuleModule] = <RuleModule as strum::VariantArray>::VARIANTS;

    /// Is it on in these modules?
    pub fn on_in(self, modules: Modules) -> bool {
        match self {
            RuleModule::TacticalCombat => modules.combat,
            RuleModule::SituationalPenalties => modules.situational_penalties,
        }
    }

    /// Switches it on or off in these modules.
    pub fn set_in(self, modules: &mut Modules, on: bool) {
        match self {
            RuleModule::TacticalCombat => modules.combat = on,
            RuleModule::SituationalPenalties => modules.situational_penalties = on,
        }
    }

    /// The name the rules give it.
    pub fn words(self) -> &'static str {
        match self {
            RuleModule::TacticalCombat => "tactical combat",
            RuleModule::SituationalPenalties => "situational penalties",
        }
    }
}

/// The Situational Penalties module is on: with it, the penalties apply to throws (its state;
/// `rules::penalties`).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct SituationalPenaltiesOn;

/// Switching a module's state on (afresh) or off (its state taken away).
pub type Switch = fn(&mut World, bool);

/// How each module's state switches, as the rule areas that own it registered.
#[derive(Resource, Clone, Default)]
pub struct ModuleSwitches(Vec<(RuleModule, Switch)>);

/// A rule area registers how the module it owns switches, from its plugin.
pub trait ModuleRules {
    fn switches(&mut self, module: RuleModule, switch: Switch) -> &mut Self;
}

impl ModuleRules for App {
    fn switches(&mut self, module: RuleModule, switch: Switch) -> &mut Self {
        self.init_resource::<ModuleSwitches>()
            .not_state::<ModuleSwitches>();
        self.world_mut()
            .resource_mut::<ModuleSwitches>()
            .0
            .push((module, switch));
        self
    }
}

/// Switches a module on or off in a running delve. Its rule systems run only while its state is
/// in the world, and the other rule areas ask for that state to know whether it applies; so
/// switching it on starts it afresh (no battle yet, every tactical rule on) and switching it off
/// takes its state away (a battle under way ends without a word: there is no battle any more).
pub(crate) fn switch_module(world: &mut World, module: RuleModule, on: bool) {
    let switches = world
        .get_resource::<ModuleSwitches>()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    for (m, switch) in switches {
        if m == module {
            switch(world, on);
        }
    }
    if let Some(mut running) = world.get_resource_mut::<RunningModules>() {
        module.set_in(&mut running.now, on);
    }
}

/// Every module as `modules` has it, each one that is on starting afresh.
pub fn start_modules(world: &mut World, modules: Modules) {
    world.insert_resource(RunningModules {
        started: modules,
        now: modules,
    });
    for &m in RuleModule::ALL {
        switch_module(world, m, false);
        if m.on_in(modules) {
            switch_module(world, m, true);
        }
    }
}
