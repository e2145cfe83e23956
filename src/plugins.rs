//! Every plugin of the headless simulation, in the order they are added: the one list of the
//! rule areas and minds. The order is the order the areas register in (`rules::areas`,
//! `rules::acting`) and the order of systems that share a phase, so it is kept stable; a new
//! area is added here once and registers everything else from its own plugin.

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

use crate::level::schema::Modules;
use crate::rules::conditions::ConditionsPlugin;
use crate::rules::movement::MovementPlugin;
use crate::rules::party::PartyPlugin;
use crate::rules::penalties::SituationalPenalties;
use crate::rules::rest::RestPlugin;
use crate::sim::SimCorePlugin;

/// Every headless rule plugin. Works with `MinimalPlugins`; the window adds `GuiPlugins`.
pub struct SimPlugins;

impl PluginGroup for SimPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(SimCorePlugin)
            .add(ConditionsPlugin)
            .add(MovementPlugin)
            .add(PartyPlugin)
            .add(RestPlugin)
            .add(crate::rules::light::LightPlugin)
            .add(crate::rules::vision::VisionPlugin)
            .add(crate::rules::sound::hearing::HearingPlugin)
            .add(crate::policy::monsters::MonsterAiPlugin)
            .add(crate::policy::party::PartyPolicyPlugin)
            .add(crate::rules::doors::DoorsPlugin)
            .add(crate::rules::judge::JudgePlugin)
            .add(crate::rules::water::WaterPlugin)
            .add(crate::rules::carrying::CarryingPlugin)
            .add(crate::rules::caving::CavingPlugin)
            .add(crate::rules::task::TaskPlugin)
            .add(crate::rules::combat::battle::BattlePlugin)
            .add(crate::rules::search::SearchPlugin)
            .add(crate::rules::traps::TrapsPlugin)
            .add(SituationalPenalties)
    }
}

/// Notes the modules the delve runs with.
struct RunningModulesPlugin(Modules);

impl Plugin for RunningModulesPlugin {
    fn build(&self, app: &mut App) {
        crate::rules::modules::start_modules(app.world_mut(), self.0);
    }
}

impl SimPlugins {
    /// The rule plugins with the optional modules the level leaves out switched off (their
    /// systems are there, idle until the Judge switches them on).
    pub fn with(modules: Modules) -> PluginGroupBuilder {
        SimPlugins.build().add(RunningModulesPlugin(modules))
    }
}
