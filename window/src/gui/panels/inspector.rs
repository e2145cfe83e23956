//! The inspector: the selected creature's numbers, conditions, gear, lights, sight and rest.

use delve_rules::creature::Combatant;
use delve_rules::rules::combat::gear::ShieldState;
use delve_rules::rules::sound::HearingEvent;

use std::collections::BTreeSet;

use bevy_egui::egui;

use super::DelveView;
use crate::gui::state::Selected;
use delve_ground::grid::GridPos;
use delve_ground::level::SpeedBasis;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::creature::Resting;
use delve_rules::rules::light::LightSource;
use delve_rules::rules::movement::Speeds;
use delve_rules::rules::rest::{Fatigue, needs_rest};

pub(super) fn rest_clock(fatigue: &Fatigue, resting: Option<&Resting>, exempt: bool) -> String {
    match (resting, exempt) {
        (Some(r), _) => format!("resting, {} of 10 rounds", r.rounds),
        (None, true) => "needs no rest (Endurance)".into(),
        (None, false) if fatigue.overdue() => "overdue for rest".into(),
        (None, false) => format!(
            "rest due in {} rounds",
            fatigue.turns_until_rest() * ROUNDS_PER_TURN
        ),
    }
}

/// What a creature fights with and wears, as its stat block gives it: weapons with their
/// damage, armor (a gambeson beneath it), and the shield (broken or destroyed).
pub(super) fn arms_words(c: &Combatant, state: Option<&ShieldState>) -> String {
    let weapons: Vec<String> = c
        .weapons
        .iter()
        .map(|w| {
            let kind = format!("{:?}", w.damage_type).to_lowercase();
            format!("{} {} {kind}", w.name, w.damage)
        })
        .collect();
    let mut worn: Vec<String> = Vec::new();
    if let Some(a) = &c.armor {
        let beneath = c
            .beneath
            .as_ref()
            .map_or(String::new(), |b| format!(" over a {}", b.name));
        worn.push(format!("{}{beneath}", a.name));
    }
    if let Some(s) = &c.shield {
        let state = match state {
            Some(s) if s.destroyed => " (destroyed)",
            Some(s) if s.broken => " (broken)",
            _ => "",
        };
        let weight = format!("{:?}", s.weight).to_lowercase();
        worn.push(format!("{weight} shield +{}{state}", s.ac_bonus));
    }
    format!("arms: {}; wears: {}", or_none(weapons), or_none(worn))
}

/// The selected creature's stat block and state (the inspector).
pub(super) fn inspector(ui: &mut egui::Ui, d: &DelveView, selected: &Selected) {
    let Some(e) = selected.0 else {
        ui.label("No creature selected (Tab, or click a token).");
        return;
    };
    let (Ok(c), Ok(k)) = (d.creatures.get(e), d.carried.get(e)) else {
        ui.label("The selected creature is gone.");
        return;
    };
    let (name, faction, class, hp, ac, pos, enc, conditions, walking, task) = c;
    let (abilities, profs, gear, fatigue, resting, sight, combatant, shield_state) = k;
    let class = match &class.class {
        Some(c) => format!("{c} {}", class.level),
        None => format!("monster, level {}", class.level),
    };
    ui.heading(name.as_str());
    ui.label(format!("{class} of the {}", d.factions.name(*faction)));
    ui.label(format!(
        "HP {}/{}  AC {}  at {}",
        hp.current, hp.max, ac.0, pos.0
    ));
    if let Some(a) = abilities {
        let a = a.0;
        ui.label(format!(
            "Str {} Int {} Wis {} Dex {} Con {} Cha {}",
            a.str, a.int, a.wis, a.dex, a.con, a.cha
        ));
    }
    let basis = match enc.0 {
        SpeedBasis::Encumbrance { stone } => format!("{stone} stone carried"),
        SpeedBasis::Explicit { feet } => format!("speed {feet}' (its stat block)"),
    };
    match Speeds::from_basis(enc.0) {
        Some(sp) => ui.label(format!(
            "{basis}: exploration {}'/turn, combat {}'/round, running {}'/round",
            sp.exploration, sp.combat, sp.running
        )),
        None => ui.label(format!("{basis}: too encumbered to move")),
    };
    if let Some(w) = walking
        && let Some(to) = w.destination()
    {
        ui.label(format!("walking to {to} at {} speed", w.pace));
    }
    if let Some(t) = task {
        ui.label(format!("busy: {} ({} rounds left)", t.work, t.rounds_left));
    }
    if let Some(f) = fatigue {
        let exempt = profs.is_some_and(|p| !needs_rest(p));
        ui.label(rest_clock(f, resting, exempt));
    }
    ui.separator();
    if conditions.0.is_empty() {
        ui.label("conditions: none");
    }
    for c in &conditions.0 {
        ui.label(format!("{:?}: from {}, {}", c.kind, c.source, c.ends));
    }
    if let Some(p) = profs {
        let list: Vec<String> = p
            .list
            .iter()
            .map(|x| match p.throws.get(x) {
                Some(t) => format!("{x:?} {t}+"),
                None => format!("{x:?}"),
            })
            .collect();
        ui.label(format!("proficiencies: {}", or_none(list)));
    }
    if let Some(g) = gear {
        let list: Vec<String> = g.0.iter().map(|x| format!("{x:?}")).collect();
        ui.label(format!("gear: {}", or_none(list)));
    }
    if let Some(c) = combatant {
        ui.label(arms_words(c, shield_state));
    }
    let lights: Vec<String> = d
        .lights
        .iter()
        .filter(|(_, by, _)| by.is_some_and(|b| b.0 == e))
        .map(|(l, ..)| light_words(l))
        .collect();
    ui.label(format!("lights: {}", or_none(lights)));
    if let Some(s) = sight {
        let seen: BTreeSet<GridPos> = s.seen.iter().map(|(p, _)| *p).collect();
        let others: Vec<String> = d
            .everyone
            .iter()
            .filter(|(o, _, p)| *o != e && seen.contains(&p.0))
            .map(|(_, n, _)| n.to_string())
            .collect();
        ui.label(format!(
            "sees {} squares; sees {}",
            seen.len(),
            or_none(others)
        ));
    }
    let turn_start = d.clock.rounds / ROUNDS_PER_TURN * ROUNDS_PER_TURN;
    let heard: Vec<String> = d
        .log
        .entries()
        .iter()
        .rev()
        .take_while(|en| en.round >= turn_start)
        .filter_map(|en| match en.get::<HearingEvent>() {
            Some(h @ HearingEvent::Heard { who, .. }) if who.as_str() == name.as_str() => {
                Some(h.to_string())
            }
            _ => None,
        })
        .collect();
    ui.label(format!("heard this turn: {}", or_none(heard)));
    if !d.offered.all.is_empty() || d.offered.held.is_some() {
        ui.separator();
        ui.label(crate::gui::actions::describe(&d.offered).trim());
    }
}

pub(super) fn or_none(list: Vec<String>) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

pub(super) fn light_words(l: &LightSource) -> String {
    let state = if l.lit { "lit" } else { "unlit" };
    match l.fuel_rounds {
        Some(r) => format!("{:?} ({state}, {r} rounds of fuel)", l.kind),
        None => format!("{:?} ({state})", l.kind),
    }
}
