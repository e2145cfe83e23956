//! What the square under the pointer holds, for the info panel: its door and trap with their
//! state, as far as the view may tell (the party's view keeps unfound secret doors and traps
//! hidden).

use bevy::prelude::*;

use delve::creature::Position;
use delve::rules::doors::Door;
use delve::rules::traps::Trap;

/// What the square under the pointer holds: its door and trap with their state, as far as the
/// view may tell (the party's view keeps unfound secret doors and traps hidden).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct UnderPointer(pub String);

/// A door's state in words: `secret iron-banded door, closed, locked (key "brass"), 2 spikes`.
pub fn describe_door(d: &Door) -> String {
    use delve::level::schema::Lock;
    let mut words = vec![format!(
        "{}{:?} door, {:?}",
        if d.secret { "secret " } else { "" },
        d.material,
        d.state
    )];
    match &d.lock {
        Lock::Unlocked => {}
        Lock::Locked { key: Some(k) } => words.push(format!("locked (key {k:?})")),
        Lock::Locked { key: None } => words.push("locked (no key)".into()),
        Lock::Jammed => words.push("jammed".into()),
    }
    for (on, what) in [
        (d.stuck, "stuck"),
        (d.evil, "evil"),
        (d.broken, "battered down"),
    ] {
        if on {
            words.push(what.into());
        }
    }
    if d.spikes > 0 {
        words.push(format!("{} spike(s)", d.spikes));
    }
    words.join(", ").to_lowercase()
}

/// A trap's state in words: `a 20' pit, Step trigger, hidden, armed, search -2`.
pub fn describe_trap(t: &Trap) -> String {
    use delve::level::schema::TrapKind;
    let kind = match &t.kind {
        TrapKind::Pit { depth_feet } => format!("a {depth_feet}' pit"),
        TrapKind::Custom { name, .. } => name.clone(),
    };
    let mut s = format!(
        "{kind} ({}), {:?} trigger, {}, {:?}",
        t.damage,
        t.trigger,
        if t.hidden { "hidden" } else { "found" },
        t.state
    );
    if t.search_modifier != 0 {
        s.push_str(&format!(", search {:+}", t.search_modifier));
    }
    s
}

fn under_pointer(
    pointer: super::input::Pointer,
    view: Option<Res<super::lighting::ViewMode>>,
    doors: Query<(&Position, &Door)>,
    traps: Query<(&Position, &Trap)>,
    parties: Res<delve::rules::party::Parties>,
    factions: Query<&delve::creature::Faction>,
    mut under: ResMut<UnderPointer>,
) {
    let party_view = view.as_deref().is_some_and(|v| !v.judges());
    // The party's view tells only of the traps the party knows (RULINGS › Knowledge).
    let party = parties
        .0
        .first()
        .and_then(|p| p.leader())
        .and_then(|l| factions.get(l).ok())
        .copied();
    let mut s = String::new();
    if let Some(p) = pointer.square() {
        for (_, d) in doors.iter().filter(|(at, _)| at.0 == p) {
            if !(party_view && d.secret) {
                s.push_str(&format!("\n{p}: {}", describe_door(d)));
            }
        }
        for (_, t) in traps.iter().filter(|(at, _)| at.0 == p) {
            if !party_view || t.known_to(party) {
                s.push_str(&format!("\n{p}: trap: {}", describe_trap(t)));
            }
        }
    }
    if under.0 != s {
        under.0 = s;
    }
}

pub struct UnderPointerPlugin;

impl Plugin for UnderPointerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UnderPointer>()
            .add_systems(Update, under_pointer.after(super::map::RedrawSet));
    }
}
