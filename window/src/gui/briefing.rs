//! The briefing: when a level opens in solo play (`delve play`), a window tells the player what
//! the level is (its name and description), what the party came for (the goal in words), the
//! party — each member with its hit points, armour, lights and gear — and the keys that matter.
//! Enter, Escape or Space puts it away (no round is played by that Space); F2 shows it again.
//!
//! The ending: once the delve is over ([`delve_minds::policy::party::DelveEnd`]), a window tells how — the
//! outcome, why when short of the goal, who fell and where, who was left behind, the turns and
//! light spent — and what to do next.

use delve_ground::level::schema::Gear;
use delve_ground::time::Clock;
use delve_minds::policy::party::DelveEnd;
use delve_rules::creature::{ArmorClass, ClassLevel, Equipment, HitPoints};
use delve_rules::rules::light::{CarriedBy, LightSource};
use delve_rules::rules::party::Parties;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::state::ShownLevel;
use delve_ground::level::Goal;

/// Whether the briefing is shown, and whether the ending has been put away.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Briefing {
    pub open: bool,
    /// The ending was put away (it shows again if the delve ends anew: an undo, a new delve).
    pub ending_put_away: Option<u64>,
}

pub struct BriefingPlugin {
    /// Shown as the level opens.
    pub at_start: bool,
}

impl Plugin for BriefingPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Briefing {
            open: self.at_start,
            ending_put_away: None,
        })
        .add_systems(
            PreUpdate,
            put_away_or_show
                .after(leafwing_input_manager::plugin::InputManagerSystem::ManualControl),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (show_briefing, show_ending).run_if(resource_exists::<ShownLevel>),
        );
    }
}

/// What the party came for, in words (the level's `goal`).
pub fn goal_in_words(goal: &Goal) -> String {
    match goal {
        Goal::ExploreAll => {
            "Explore: see every square you can reach, and come back out by the way in.".into()
        }
        Goal::Reach(p) => format!("Reach the square at {p}, and come back out by the way in."),
        Goal::Room(p) => {
            format!("Reach the room that holds {p}, and come back out by the way in.")
        }
        Goal::Exit(p) => format!("Find the way out at {p}, and leave by it."),
        Goal::Recover(gear) => {
            let what = match gear {
                Gear::Key(name) => name.clone(),
                other => format!("{other:?}"),
            };
            format!(
                "Come away with the {what} some creature of the level carries, and bring it out \
                 by the way in."
            )
        }
    }
}

/// While it is shown, the map's keys wait: Enter, Escape or Space puts it away. F2 (its
/// action) shows it again, or puts it away.
fn put_away_or_show(
    mut briefing: ResMut<Briefing>,
    keys: Res<ButtonInput<KeyCode>>,
    mut actions: Query<&mut ActionState<DelveAction>>,
) {
    let asked = actions
        .iter()
        .any(|a| a.just_pressed(&DelveAction::Briefing));
    if briefing.open {
        let away = asked
            || [KeyCode::Enter, KeyCode::Escape, KeyCode::Space]
                .iter()
                .any(|k| keys.just_pressed(*k));
        for mut a in &mut actions {
            a.reset_all();
        }
        if away {
            briefing.open = false;
        }
    } else if asked {
        briefing.open = true;
    }
}

/// One member of the party, as the briefing tells it.
type Member<'a> = (
    &'a Name,
    &'a ClassLevel,
    &'a HitPoints,
    &'a ArmorClass,
    Option<&'a Equipment>,
);

#[allow(clippy::too_many_arguments)]
fn show_briefing(
    mut contexts: EguiContexts,
    mut briefing: ResMut<Briefing>,
    shown: Res<ShownLevel>,
    parties: Res<Parties>,
    members: Query<Member>,
    lights: Query<(&LightSource, &CarriedBy)>,
    bindings: Option<Res<super::keys::Bindings>>,
) {
    if !briefing.open {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let level = &shown.level;
    let key = |a: DelveAction| {
        bindings
            .as_ref()
            .map(|b| super::keys::keys_of(&b.keys, &a))
            .unwrap_or_default()
    };
    let mut open = true;
    egui::Window::new(format!("Briefing: {}", level.name))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(560.0)
        .show(ctx, |ui| {
            if !level.description.is_empty() {
                ui.label(&level.description);
                ui.separator();
            }
            ui.strong("What you came for");
            ui.label(goal_in_words(&level.goal));
            ui.separator();
            for party in &parties.0 {
                ui.strong(format!("The {}, in marching order", party.name));
                for &m in &party.marching_order {
                    let Ok((name, class, hp, ac, gear)) = members.get(m) else {
                        continue;
                    };
                    let class = class
                        .class
                        .as_ref()
                        .map_or(String::new(), |c| format!(", {c} {}", class.level));
                    let carried: Vec<String> = lights
                        .iter()
                        .filter(|(_, by)| by.0 == m)
                        .map(|(l, _)| {
                            let lit = if l.lit { "lit" } else { "unlit" };
                            match l.fuel_rounds {
                                Some(r) => format!(
                                    "{:?} ({lit}, {} turns of fuel)",
                                    l.kind,
                                    r.div_ceil(delve_ground::time::ROUNDS_PER_TURN)
                                ),
                                None => format!("{:?} ({lit})", l.kind),
                            }
                        })
                        .collect();
                    let gear: Vec<String> = gear
                        .map(|g| g.0.iter().map(|x| format!("{x:?}")).collect())
                        .unwrap_or_default();
                    let mut line = format!("{name}{class}: HP {}, AC {}", hp.current, ac.0);
                    if !carried.is_empty() {
                        line += &format!("; lights: {}", carried.join(", "));
                    }
                    if !gear.is_empty() {
                        line += &format!("; gear: {}", gear.join(", "));
                    }
                    ui.label(line);
                }
            }
            ui.separator();
            ui.strong("The keys that matter");
            for (action, what) in [
                (DelveAction::MoveHere, "walk the party there"),
                (DelveAction::AdvanceRound, "play a round"),
                (DelveAction::AdvanceTurn, "play a turn"),
                (
                    DelveAction::Choose(0),
                    "the first of the listed actions (1-9: each)",
                ),
                (DelveAction::LightOrDouse, "light or douse a light"),
                (DelveAction::Rest, "rest"),
                (DelveAction::Attack, "attack the creature at the pointer"),
                (DelveAction::Save, "save"),
                (DelveAction::ToggleHelp, "the key help, with every key"),
                (DelveAction::Briefing, "this briefing again"),
            ] {
                ui.label(format!("{}: {what}", key(action)));
            }
            ui.separator();
            if ui.button("Begin (Enter)").clicked() {
                open = false;
            }
        });
    if !open {
        briefing.open = false;
    }
}

/// The ending, once the delve is over: how, why, who fell and who was left, and what next.
fn show_ending(
    mut contexts: EguiContexts,
    mut briefing: ResMut<Briefing>,
    end: Option<Res<DelveEnd>>,
    shown: Res<ShownLevel>,
    clock: Res<Clock>,
) {
    let Some((party, outcome, tally)) = end.as_ref().and_then(|e| e.0.as_ref()) else {
        briefing.ending_put_away = None;
        return;
    };
    if briefing.open || briefing.ending_put_away == Some(clock.rounds) {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let mut put_away = false;
    egui::Window::new(format!("The delve is over: {}", shown.level.name))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.heading(format!("The {party}: {outcome}"));
            if let Some(why) = &tally.cause {
                ui.label(format!("Why: {why}"));
            }
            ui.separator();
            ui.label(format!(
                "{:.1} turns, {:.1} turns of light burnt, {} hit points of wounds, {} encounters, \
                 {} traps sprung, {} disarmed, {} doors forced",
                tally.turns,
                tally.light_turns_used,
                tally.wounds,
                tally.encounters,
                tally.traps_sprung,
                tally.traps_disarmed,
                tally.doors_forced
            ));
            if tally.deaths.is_empty() {
                ui.label("No one died.");
            }
            for d in &tally.deaths {
                ui.label(format!("{} died at {}.", d.who, d.at));
            }
            for l in &tally.left_behind {
                let could = if l.could_be_brought {
                    ", though the others could have brought it out"
                } else {
                    ""
                };
                ui.label(format!(
                    "{} was left behind at {} ({}){could}.",
                    l.who, l.at, l.how
                ));
            }
            ui.separator();
            ui.strong("What next");
            ui.label(
                "Ctrl+Z takes back a round and Ctrl+Shift+Z a turn, to play them otherwise; \
                 Comma and Period walk the timeline, BracketLeft and BracketRight jump between \
                 its marks.",
            );
            ui.label(format!(
                "Play again with another seed: delve play {} --seed {}.",
                shown
                    .path
                    .as_ref()
                    .map_or("LEVEL".to_string(), |p| p.display().to_string()),
                shown.seed + 1
            ));
            ui.label(
                "Or see how the party's policy plays it: delve sim LEVEL --auto, or A at the \
                 start to hand it the party.",
            );
            if ui.button("Close").clicked() {
                put_away = true;
            }
        });
    if put_away {
        briefing.ending_put_away = Some(clock.rounds);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each goal is told in words, with its square where it has one.
    #[test]
    fn every_goal_is_told_in_words() {
        let at = delve_ground::grid::GridPos::new(3, 4);
        assert!(goal_in_words(&Goal::ExploreAll).starts_with("Explore"));
        assert!(goal_in_words(&Goal::Reach(at)).contains("(3, 4)"));
        assert!(goal_in_words(&Goal::Room(at)).contains("room"));
        assert!(goal_in_words(&Goal::Exit(at)).contains("leave by it"));
        assert!(
            goal_in_words(&Goal::Recover(delve_ground::level::schema::Gear::Key(
                "relic".into()
            )))
            .contains("relic")
        );
    }
}
