//! Panels: the level and clock with the selected creature (top left), the event log (right), the
//! key help (bottom), and the problems of a reload that failed (top, in red).

use bevy::prelude::*;

use super::ShownLevel;
use super::input::{Selected, UiState};
use super::map::RedrawSet;
use crate::creature::{
    ArmorClass, ClassLevel, Conditions, Encumbrance, Faction, Factions, HitPoints, Position,
    Proficiencies,
};
use crate::level::SpeedBasis;
use crate::log::EventLog;
use crate::rules::light::{CarriedBy, LightSource};
use crate::rules::movement::{Speeds, Walking};
use crate::rules::party::Parties;
use crate::rules::rest::{Fatigue, Resting, needs_rest};
use crate::time::{Clock, DelveMode};

#[derive(Component)]
struct InfoPanel;
#[derive(Component)]
struct LogPanel;
#[derive(Component)]
struct HelpLine;
#[derive(Component)]
struct ProblemsPanel;

/// Log lines shown in the log panel.
const LOG_LINES: usize = 16;

pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_panels)
            .add_systems(Update, (info, log, help, problems).after(RedrawSet));
    }
}

const PANEL_BACKGROUND: Color = Color::srgba(0.04, 0.04, 0.06, 0.82);

fn panel(node: Node, background: Color) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(Val::Px(10.0), Val::Px(6.0)),
            ..node
        },
        BackgroundColor(background),
        TextFont::from_font_size(14.0),
        TextColor(Color::srgb(0.92, 0.9, 0.85)),
    )
}

fn spawn_panels(mut commands: Commands) {
    commands.spawn((
        InfoPanel,
        Text::default(),
        panel(
            Node {
                left: Val::Px(8.0),
                top: Val::Px(8.0),
                max_width: Val::Px(520.0),
                ..default()
            },
            PANEL_BACKGROUND,
        ),
    ));
    commands.spawn((
        LogPanel,
        Text::default(),
        panel(
            Node {
                right: Val::Px(8.0),
                top: Val::Px(8.0),
                width: Val::Px(430.0),
                ..default()
            },
            PANEL_BACKGROUND,
        ),
    ));
    commands.spawn((
        HelpLine,
        Text::default(),
        panel(
            Node {
                left: Val::Px(8.0),
                bottom: Val::Px(8.0),
                ..default()
            },
            PANEL_BACKGROUND,
        ),
    ));
    commands.spawn((
        ProblemsPanel,
        Text::default(),
        panel(
            Node {
                left: Val::Px(8.0),
                top: Val::Px(170.0),
                max_width: Val::Px(760.0),
                ..default()
            },
            Color::srgba(0.35, 0.02, 0.02, 0.92),
        ),
        Visibility::Hidden,
    ));
}

type CreatureInfo = (
    &'static Fatigue,
    Option<&'static Resting>,
    &'static Name,
    &'static Faction,
    &'static ClassLevel,
    &'static HitPoints,
    &'static ArmorClass,
    &'static Position,
    &'static Encumbrance,
    &'static Conditions,
    Option<&'static Walking>,
);

fn rest_clock(fatigue: &Fatigue, resting: Option<&Resting>, profs_exempt: bool) -> String {
    match (resting, profs_exempt) {
        (Some(r), _) => format!("resting, {} of 10 rounds", r.rounds),
        (None, true) => "needs no rest (Endurance)".into(),
        (None, false) if fatigue.overdue() => "overdue for rest".into(),
        (None, false) => format!("rest due in {} turn(s)", fatigue.turns_until_rest()),
    }
}

#[allow(clippy::too_many_arguments)]
fn info(
    shown: Res<ShownLevel>,
    clock: Res<Clock>,
    mode: Res<DelveMode>,
    selected: Res<Selected>,
    factions: Res<Factions>,
    parties: Res<Parties>,
    ui: Res<UiState>,
    creatures: Query<CreatureInfo>,
    profs: Query<&Proficiencies>,
    names: Query<&Name>,
    view: Option<Res<super::lighting::ViewMode>>,
    offered: Res<super::actions::Offered>,
    under: Res<super::actions::UnderPointer>,
    lights: Query<(&LightSource, Option<&CarriedBy>, Option<&Position>)>,
    mut panel: Query<&mut Text, With<InfoPanel>>,
) {
    let Ok(mut text) = panel.single_mut() else {
        return;
    };
    let l = &shown.level;
    let mut s = format!(
        "{} - {} view\n{} | {:?} | seed {}",
        l.name,
        match view.as_deref() {
            Some(super::lighting::ViewMode::Party) => "party's",
            _ => "Judge's",
        },
        *clock,
        *mode,
        shown.seed
    );
    match selected.0.and_then(|e| creatures.get(e).ok()) {
        None => s.push_str("\nNo creature selected (Tab, or click a token)"),
        Some((fatigue, resting, name, faction, class, hp, ac, pos, enc, conditions, walking)) => {
            let class = match &class.class {
                Some(c) => format!("{c} {}", class.level),
                None => "monster".into(),
            };
            s.push_str(&format!(
                "\n{name} ({}) {class} | HP {}/{} | AC {} | at {}",
                factions.name(*faction),
                hp.current,
                hp.max,
                ac.0,
                pos.0
            ));
            let basis = match enc.0 {
                SpeedBasis::Encumbrance { stone } => format!("{stone} stone"),
                SpeedBasis::Explicit { feet } => format!("speed {feet}'"),
            };
            match Speeds::from_basis(enc.0) {
                Some(sp) => s.push_str(&format!(
                    "\n{basis}: exploration {}'/turn, combat {}'/round, running {}'/round",
                    sp.exploration, sp.combat, sp.running
                )),
                None => s.push_str(&format!("\n{basis}: too encumbered to move")),
            }
            let exempt = selected
                .0
                .and_then(|e| profs.get(e).ok())
                .is_some_and(|p| !needs_rest(p));
            s.push_str(&format!("\n{}", rest_clock(fatigue, resting, exempt)));
            let list: Vec<String> = conditions
                .0
                .iter()
                .map(|c| format!("{:?} ({}; {})", c.kind, c.source, c.ends))
                .collect();
            s.push_str(&format!(
                "\nconditions: {}",
                if list.is_empty() {
                    "none".into()
                } else {
                    list.join(", ")
                }
            ));
            if let Some(w) = walking
                && let Some(to) = w.destination()
            {
                s.push_str(&format!("\nwalking to {to} at {} speed", w.pace));
            }
        }
    }
    let name_of = |e: Entity| names.get(e).map_or("?".to_owned(), |n| n.to_string());
    let party = selected.0.and_then(|e| parties.of(e));
    match (party, ui.whole_party) {
        (Some(p), true) => {
            let order: Vec<String> = p.marching_order.iter().map(|&e| name_of(e)).collect();
            s.push_str(&format!(
                "\nOrders: the {} ({}), {} speed\nmarching order: {}{}",
                p.name,
                p.formation,
                ui.pace,
                order.join(", "),
                p.mapper
                    .map(|m| format!("; mapper {}", name_of(m)))
                    .unwrap_or_default()
            ));
        }
        _ => s.push_str(&format!("\nOrders: this creature alone, {} speed", ui.pace)),
    }
    s.push_str(&super::actions::describe(&offered));
    s.push_str(&under.0);
    // The Judge sees every lit source's remaining fuel.
    if view.as_deref() != Some(&super::lighting::ViewMode::Party) {
        let mut fuel: Vec<String> = lights
            .iter()
            .filter(|(l, ..)| l.lit)
            .filter_map(|(l, bearer, at)| {
                let left = l.fuel_rounds?;
                let whose = match (bearer.map(|b| name_of(b.0)), at) {
                    (Some(n), _) => format!("{n}'s"),
                    (None, Some(p)) => format!("at {}", p.0),
                    (None, None) => String::new(),
                };
                Some(format!("{whose} {:?} {}r", l.kind, left))
            })
            .collect();
        fuel.sort();
        if !fuel.is_empty() {
            s.push_str(&format!("\nlights (rounds of fuel): {}", fuel.join(", ")));
        }
    }
    if !ui.notice.is_empty() {
        s.push_str(&format!("\n> {}", ui.notice));
    }
    text.0 = s;
}

/// The Judge's log in the Judge's view; in the party's view, only what the party learns.
fn log(
    log: Res<EventLog>,
    view: Option<Res<super::lighting::ViewMode>>,
    parties: Res<Parties>,
    names: Query<&Name>,
    mut panel: Query<&mut Text, With<LogPanel>>,
) {
    let view_changed = view.as_ref().is_some_and(|v| v.is_changed());
    if !log.is_changed() && !view_changed {
        return;
    }
    let Ok(mut text) = panel.single_mut() else {
        return;
    };
    let party_view = view.as_deref() == Some(&super::lighting::ViewMode::Party);
    let party = parties.0.first();
    let members: Vec<String> = party
        .map(|p| {
            p.marching_order
                .iter()
                .filter_map(|&e| names.get(e).ok().map(|n| n.to_string()))
                .collect()
        })
        .unwrap_or_default();
    let members: Vec<&str> = members.iter().map(String::as_str).collect();
    let party_name = party.map_or("", |p| p.name.as_str());
    let shown: Vec<&crate::log::LogEntry> = log
        .entries()
        .iter()
        .filter(|e| !party_view || e.event().known_to_party(&members, party_name))
        .collect();
    let start = shown.len().saturating_sub(LOG_LINES);
    let mut s = String::from(if party_view {
        "What the party knows"
    } else {
        "Log (the Judge's)"
    });
    for e in &shown[start..] {
        s.push('\n');
        s.push_str(&e.to_string());
    }
    text.0 = s;
}

fn help(
    ui: Res<UiState>,
    keys: Query<&leafwing_input_manager::prelude::InputMap<super::input::DelveAction>>,
    mut panel: Query<&mut Text, With<HelpLine>>,
) {
    if !ui.is_changed() {
        return;
    }
    let (Ok(mut text), Some(keys)) = (panel.single_mut(), keys.iter().next()) else {
        return;
    };
    text.0 = if ui.show_help {
        super::keys::help_line(keys)
    } else {
        let toggle = super::keys::keys_of(keys, &super::input::DelveAction::ToggleHelp);
        format!("{toggle}: show keys")
    };
}

fn problems(
    shown: Res<ShownLevel>,
    mut panel: Query<(&mut Text, &mut Visibility), With<ProblemsPanel>>,
) {
    if !shown.is_changed() {
        return;
    }
    let Ok((mut text, mut vis)) = panel.single_mut() else {
        return;
    };
    match &shown.problems {
        Some(p) => {
            text.0 =
                format!("The level file has problems; still showing the last good version.\n{p}");
            *vis = Visibility::Visible;
        }
        None => *vis = Visibility::Hidden,
    }
}
