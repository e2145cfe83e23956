//! Every plugin of the headless simulation, in the order they are added: the one list of the
//! rule areas and minds. The order is the order the areas register in (`rules::areas`,
//! `rules::acting`) and the order of systems that share a phase, so it is kept stable; a new
//! area is added here once and registers everything else from its own plugin.

use delve_ground::grid::DungeonGrid;
use delve_ground::query_cache::ReadQueries;
use delve_minds::policy::behaviour::FightingBehaviourPlugin;
use delve_minds::policy::monsters::MonsterAiPlugin;
use delve_minds::policy::party::PartyPolicyPlugin;
use delve_rules::rules::acting::{ActionTaken, HandsUsed};
use delve_rules::rules::carrying::CarryingPlugin;
use delve_rules::rules::caving::CavingPlugin;
use delve_rules::rules::combat::battle::BattlePlugin;
use delve_rules::rules::doors::DoorsPlugin;
use delve_rules::rules::judge::JudgePlugin;
use delve_rules::rules::light::LightPlugin;
use delve_rules::rules::modules::RunningModules;
use delve_rules::rules::search::SearchPlugin;
use delve_rules::rules::sound::hearing::HearingPlugin;
use delve_rules::rules::task::TaskPlugin;
use delve_rules::rules::traps::TrapsPlugin;
use delve_rules::rules::vision::VisionPlugin;
use delve_rules::rules::water::WaterPlugin;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

use crate::keyframe::{History, Keyframes, take_keyframe};
use delve_ground::dice::Dice;
use delve_ground::level::schema::Modules;
use delve_ground::log::EventLog;
use delve_ground::time::{Clock, DelveMode};
use delve_rules::act::PendingCommands;
use delve_rules::command::{Journal, Script, dispatch_commands};
use delve_rules::creature::{
    Abilities, ActingOrder, ArmorClass, Below, BodySize, ClassLevel, Combatant, Conditions,
    Creature, CreatureIndex, Encumbrance, Equipment, Exerted, Faction, Factions, HitPoints,
    LevelEntity, LevelInfo, Position, Proficiencies, Resting, SavingThrows, SwimmingSpeed, Vision,
};
use delve_rules::rules::conditions::ConditionsPlugin;
use delve_rules::rules::movement::MovementPlugin;
use delve_rules::rules::party::PartyPlugin;
use delve_rules::rules::penalties::SituationalPenalties;
use delve_rules::rules::rest::RestPlugin;
use delve_rules::schedule::{
    FactionInitiative, InitiativeSet, RoundSet, SimRound, advance_clock, initiative_schedule,
    play_initiatives, round_schedule,
};
use delve_rules::state::KeepsState;

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
            .add(LightPlugin)
            .add(VisionPlugin)
            .add(HearingPlugin)
            .add(MonsterAiPlugin)
            .add(PartyPolicyPlugin)
            .add(DoorsPlugin)
            .add(JudgePlugin)
            .add(WaterPlugin)
            .add(CarryingPlugin)
            .add(CavingPlugin)
            .add(TaskPlugin)
            .add(BattlePlugin)
            .add(FightingBehaviourPlugin)
            .add(SearchPlugin)
            .add(TrapsPlugin)
            .add(SituationalPenalties)
    }
}

/// Notes the modules the delve runs with.
struct RunningModulesPlugin(Modules);

impl Plugin for RunningModulesPlugin {
    fn build(&self, app: &mut App) {
        delve_rules::rules::modules::start_modules(app.world_mut(), self.0);
    }
}

impl SimPlugins {
    /// The rule plugins with the optional modules the level leaves out switched off (their
    /// systems are there, idle until the Judge switches them on).
    pub fn with(modules: Modules) -> PluginGroupBuilder {
        SimPlugins.build().add(RunningModulesPlugin(modules))
    }
}

/// The schedule, its phases and the clock, the command queue and the dispatcher, the keyframes,
/// and the creatures' own state.
pub struct SimCorePlugin;

impl Plugin for SimCorePlugin {
    fn build(&self, app: &mut App) {
        app.add_schedule(round_schedule())
            .add_schedule(initiative_schedule())
            .init_resource::<ActingOrder>()
            .init_resource::<ReadQueries>()
            .add_systems(SimRound, play_initiatives.in_set(RoundSet::Initiatives))
            .add_systems(
                FactionInitiative,
                dispatch_commands.in_set(InitiativeSet::Orders),
            )
            .init_resource::<Clock>()
            .init_resource::<EventLog>()
            .init_resource::<PendingCommands>()
            .init_resource::<Journal>()
            .add_systems(SimRound, dispatch_commands.in_set(RoundSet::Commands))
            .add_systems(SimRound, advance_clock.in_set(RoundSet::Clock))
            .add_systems(
                SimRound,
                take_keyframe.in_set(RoundSet::Clock).after(advance_clock),
            )
            .keeps::<Clock>()
            .keeps::<Dice>()
            .keeps::<PendingCommands>()
            .keeps::<ActingOrder>()
            .keeps::<DelveMode>()
            .keeps::<DungeonGrid>()
            .keeps::<Factions>()
            .keeps::<LevelInfo>()
            .keeps::<CreatureIndex>()
            .keeps_component::<Name>()
            .keeps_component::<Abilities>()
            .keeps_component::<ArmorClass>()
            .keeps_component::<Below>()
            .keeps_component::<BodySize>()
            .keeps_component::<ClassLevel>()
            .keeps_component::<Combatant>()
            .keeps_component::<Creature>()
            .keeps_component::<Encumbrance>()
            .keeps_component::<Equipment>()
            .keeps_component::<Exerted>()
            .keeps_component::<Faction>()
            .keeps_component::<HitPoints>()
            .keeps_component::<Position>()
            .keeps_component::<Proficiencies>()
            .keeps_component::<Resting>()
            .keeps_component::<SavingThrows>()
            .keeps_component::<SwimmingSpeed>()
            .keeps_component::<Vision>()
            .keeps_component::<Conditions>()
            .keeps_component::<ActionTaken>()
            .keeps_component::<HandsUsed>()
            .keeps::<RunningModules>()
            // The record of the delve (restored from its line) and what marks the level's
            // entities: in the world, not its state.
            .not_state::<Journal>()
            .not_state::<EventLog>()
            .not_state::<Keyframes>()
            .not_state::<History>()
            .not_state::<Script>()
            .not_state::<LevelEntity>();
    }
}
