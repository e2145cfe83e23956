//! What the square under the pointer holds, for the tooltip over the map: its terrain, its
//! light, who stands there, its door and trap with their state, as far as the view may tell
//! (the party's view tells only what the party sees or remembers: unfound secret doors, unknown
//! traps and unseen creatures stay hidden).

use delve_rules::rules::doors::TriedBy;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::state::ViewMode;
use delve_ground::grid::{DungeonGrid, GridPos, Terrain, WallMaterial};
use delve_rules::creature::{Creature, Faction, Factions, HitPoints, Position};
use delve_rules::rules::doors::Door;
use delve_rules::rules::light::{LightLevel, LightMap};
use delve_rules::rules::party::Parties;
use delve_rules::rules::traps::Trap;
use delve_rules::rules::vision::{self, FactionMemory, Hiding, Sight};

/// What the view tells of the square under the pointer ([`SquareFacts::describe`]).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct UnderPointer(pub Option<SquareReport>);

/// A door's state in words: `secret iron-banded door, closed, locked (key "brass"), 2 spikes`.
pub fn describe_door(d: &Door) -> String {
    use delve_ground::level::schema::Lock;
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
    use delve_ground::level::schema::TrapKind;
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
    if t.hidden && t.hasty_for_anyone {
        s.push_str(", partly hidden (a hasty search by anyone)");
    }
    s
}

/// A creature where it stands, with what the tooltip tells of it.
type StandingThere = (
    Entity,
    &'static Name,
    &'static Position,
    &'static Faction,
    &'static HitPoints,
    Has<Hiding>,
);

/// What the view knows of the delve, to tell of one square (the tooltip over the map).
#[derive(SystemParam)]
pub struct SquareFacts<'w, 's> {
    grid: Res<'w, DungeonGrid>,
    light: Res<'w, LightMap>,
    memory: Res<'w, FactionMemory>,
    view: Option<Res<'w, ViewMode>>,
    parties: Res<'w, Parties>,
    factions: Res<'w, Factions>,
    sights: Query<'w, 's, (&'static Faction, &'static Position, &'static Sight)>,
    creatures: Query<'w, 's, StandingThere, With<Creature>>,
    doors: Query<'w, 's, (&'static Position, &'static Door, Option<&'static TriedBy>)>,
    traps: Query<'w, 's, (&'static Position, &'static Trap)>,
}

/// What a view tells of one square ([`SquareFacts::describe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareReport {
    pub at: GridPos,
    /// `None`: the view's eyes have not seen it.
    pub known: Option<KnownSquare>,
}

/// A square as a view knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownSquare {
    /// What it looks like: a secret door the view has not found is wall.
    pub terrain: Terrain,
    pub light: Lit,
    /// Who the view sees there.
    pub creatures: Vec<SeenCreature>,
    /// Its door, unless a secret one the view does not know of.
    pub door: Option<Door>,
    /// Its traps that the view knows of.
    pub traps: Vec<Trap>,
}

/// A square's light as a view knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    /// The light there now (the Judge's view), or the best light the view's eyes see it in.
    Now(LightLevel),
    /// Seen before, not now.
    Remembered,
}

/// A creature the view sees on the square: its hit points if the view is its own or the
/// Judge's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenCreature {
    pub name: String,
    pub faction: String,
    pub hit_points: Option<(i32, i32)>,
}

impl SquareReport {
    /// The report in words, a line a fact.
    pub fn lines(&self) -> Vec<String> {
        let p = self.at;
        let Some(k) = &self.known else {
            return vec![format!("{p}: not seen")];
        };
        let mut lines = vec![format!("{p}: {}", terrain_words(k.terrain))];
        lines.push(match k.light {
            Lit::Now(l) => light_words(l).to_owned(),
            Lit::Remembered => "remembered (not seen now)".to_owned(),
        });
        for c in &k.creatures {
            lines.push(match c.hit_points {
                Some((now, max)) => format!("{} ({}), {now} of {max} hp", c.name, c.faction),
                None => format!("{} ({})", c.name, c.faction),
            });
        }
        if let Some(d) = &k.door {
            lines.push(describe_door(d));
        }
        for t in &k.traps {
            lines.push(format!("trap: {}", describe_trap(t)));
        }
        lines
    }
}

impl SquareFacts<'_, '_> {
    /// Whose eyes the view looks through, and whether it is the Judge's (all-seeing).
    fn eyes(&self, selected: Option<Entity>) -> (vision::Eyes<'_>, bool) {
        let view = self.view.as_deref().copied().unwrap_or_default();
        let leader = self.parties.0.first().and_then(|p| p.leader());
        let eyes = super::lighting::eyes(
            view,
            selected,
            leader,
            self.sights.iter().map(|(f, at, s)| (*f, at.0, s)),
            |e| self.sights.get(e).ok().map(|(f, at, s)| (*f, at.0, s)),
        );
        (eyes, view.judges())
    }

    /// The creatures the view shows: every one in the Judge's view; in the party's (and one
    /// creature's) its own and those its eyes see now. Only these can be selected there.
    /// `selected`: the creature whose view one creature's view is.
    pub fn shown_creatures(&self, selected: Option<Entity>) -> Vec<Entity> {
        let (eyes, judges) = self.eyes(selected);
        self.creatures
            .iter()
            .filter(|(e, _, at, faction, _, hiding)| {
                judges || eyes.see_creature(&self.grid, &self.light, *e, **faction, at.0, *hiding)
            })
            .map(|(e, ..)| e)
            .collect()
    }

    /// What the view tells of square `p`: its terrain, its light, who stands there, its door
    /// and traps. The Judge's view tells everything; the party's (and one creature's) only what
    /// its eyes see now or its faction remembers, the creatures it sees, the doors it knows (a
    /// secret door is wall to it), the traps its faction knows (RULINGS › Knowledge).
    pub fn describe(&self, p: GridPos, selected: Option<Entity>) -> Option<SquareReport> {
        let (i, terrain) = self.grid.index(p).zip(self.grid.terrain(p))?;
        let (eyes, judges) = self.eyes(selected);
        let seen_now = eyes
            .members
            .iter()
            .filter_map(|(_, s)| s.seen.iter().find(|(q, _)| *q == p).map(|&(_, how)| how))
            .max();
        let remembered = eyes
            .remembered(&self.memory)
            .is_some_and(|m| m.get(i).copied().unwrap_or(false));
        if !judges && seen_now.is_none() && !remembered {
            return Some(SquareReport { at: p, known: None });
        }
        // The party's view tells a door as its faction last tried it (a lock is known only once
        // tried); the Judge's, as it is.
        let door = self
            .doors
            .iter()
            .find(|(at, ..)| at.0 == p)
            .filter(|(_, d, _)| judges || !d.secret)
            .map(|(_, d, tried)| {
                if judges {
                    d.clone()
                } else {
                    d.as_known_to(tried, eyes.faction)
                }
            });
        let hidden_door = terrain == Terrain::Door && door.is_none();
        let light = match (judges, seen_now) {
            (true, _) => Lit::Now(self.light.level_at(i)),
            (false, Some(l)) => Lit::Now(l),
            (false, None) => Lit::Remembered,
        };
        let creatures = self
            .creatures
            .iter()
            .filter(|(_, _, at, ..)| at.0 == p)
            .filter_map(|(e, name, _, faction, hp, hiding)| {
                let own = eyes.own(e, *faction);
                let seen =
                    judges || eyes.see_creature(&self.grid, &self.light, e, *faction, p, hiding);
                seen.then(|| SeenCreature {
                    name: name.to_string(),
                    faction: self.factions.name(*faction).to_owned(),
                    hit_points: (judges || own).then_some((hp.current, hp.max)),
                })
            })
            .collect();
        let traps = self
            .traps
            .iter()
            .filter(|(at, t)| at.0 == p && (judges || t.known_to(eyes.faction)))
            .map(|(_, t)| t.clone())
            .collect();
        Some(SquareReport {
            at: p,
            known: Some(KnownSquare {
                terrain: if hidden_door {
                    Terrain::Wall(WallMaterial::Stone)
                } else {
                    terrain
                },
                light,
                creatures,
                door,
                traps,
            }),
        })
    }
}

/// A square's terrain in words.
pub fn terrain_words(t: Terrain) -> String {
    match t {
        Terrain::Floor => "floor".into(),
        Terrain::Rubble => "rubble (difficult terrain)".into(),
        Terrain::Water(depth) => format!("water, {} deep", format!("{depth:?}").to_lowercase()),
        Terrain::Door => "doorway".into(),
        Terrain::Chasm { depth_feet } => format!("a chasm {depth_feet}' deep"),
        Terrain::Squeeze => "a squeeze".into(),
        Terrain::Ledge { width_inches } => format!("a ledge {width_inches}\" wide"),
        Terrain::Wall(WallMaterial::Stone) => "stone wall".into(),
        Terrain::Wall(WallMaterial::Wood) => "wooden wall".into(),
        Terrain::Rock => "solid rock".into(),
    }
}

/// How lit a square is, in words.
pub fn light_words(l: LightLevel) -> &'static str {
    match l {
        LightLevel::Bright => "bright light",
        LightLevel::Dim => "dim light",
        LightLevel::Dark => "darkness",
        LightLevel::MagicalDarkness => "magical darkness",
    }
}

/// The pointer rests this long on a square, in seconds, before the tooltip shows: moved across
/// the map, it does not flicker.
pub const TOOLTIP_DELAY_S: f32 = 0.3;

fn under_pointer(
    pointer: super::pointer::Pointer,
    facts: SquareFacts,
    selected: Res<super::state::Selected>,
    time: Res<Time<Real>>,
    mut resting: Local<(Option<GridPos>, f32)>,
    mut under: ResMut<UnderPointer>,
) {
    let square = pointer.square();
    if resting.0 != square {
        *resting = (square, 0.0);
    } else {
        resting.1 += time.delta_secs();
    }
    let report = square
        .filter(|_| resting.1 >= TOOLTIP_DELAY_S)
        .and_then(|p| facts.describe(p, selected.0));
    if under.0 != report {
        under.0 = report;
    }
}

/// The tooltip over the map: the walk there (`gui::preview`), and what the view tells of the
/// square under the pointer, beside it.
fn square_tooltip(
    mut contexts: bevy_egui::EguiContexts,
    under: Res<UnderPointer>,
    walk: Option<Res<super::preview::WalkThere>>,
    attack: Option<Res<super::battle::AttackOffer>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    use bevy_egui::egui;
    let Some(report) = &under.0 else {
        return Ok(());
    };
    let walk = walk.and_then(|w| w.0.clone());
    let Some(cursor) = windows.single().ok().and_then(|w| w.cursor_position()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    if ctx.is_pointer_over_egui() {
        return Ok(());
    }
    let zoom = ctx.zoom_factor();
    egui::Area::new(egui::Id::new("square under the pointer"))
        .order(egui::Order::Tooltip)
        // Up and to the right of the pointer: the path preview's words are below the square.
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(egui::pos2(cursor.x / zoom + 24.0, cursor.y / zoom - 24.0))
        .constrain(true)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(360.0);
                if let Some(walk) = &walk {
                    ui.colored_label(egui::Color32::from_rgb(255, 242, 153), walk);
                    ui.separator();
                }
                for (i, line) in report.lines().iter().enumerate() {
                    if i == 0 {
                        ui.strong(line);
                    } else {
                        ui.label(line);
                    }
                }
                // The selected creature's attack on the one here, throw by modifier.
                if let Some((_, lines)) = attack
                    .as_ref()
                    .and_then(|a| a.breakdown.as_ref())
                    .filter(|(at, _)| *at == report.at)
                {
                    ui.separator();
                    for (i, line) in lines.iter().enumerate() {
                        if i == 0 {
                            ui.colored_label(egui::Color32::from_rgb(255, 170, 120), line);
                        } else {
                            ui.label(line);
                        }
                    }
                    ui.weak("F attacks");
                }
            });
        });
    Ok(())
}

pub struct UnderPointerPlugin;

impl Plugin for UnderPointerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UnderPointer>()
            .add_systems(Update, under_pointer.after(super::state::RedrawSet));
        if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
            app.add_systems(bevy_egui::EguiPrimaryContextPass, square_tooltip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::system::RunSystemOnce;
    use delve_ground::level::schema::TrapKind;

    fn describe(app: &mut App, x: i32, y: i32) -> SquareReport {
        app.world_mut()
            .run_system_once(
                move |f: SquareFacts, s: Res<super::super::state::Selected>| {
                    f.describe(GridPos::new(x, y), s.0)
                },
            )
            .unwrap()
            .expect("a square of the level")
    }

    /// The tooltip's report: the Judge's view tells the secret door, the hidden pit and the
    /// ghoul with its hit points; the party's view of the same squares, remembered but not seen
    /// now, tells wall where the secret door is, no pit, no ghoul, a closed door where a locked one
    /// is that no one tried (RULINGS › Knowledge); a square it never saw, nothing.
    #[test]
    fn the_party_view_tells_only_what_the_party_knows() {
        let mut app = super::super::input::tests::app();
        let (door, pit, ghoul, unseen) = ((22, 12), (15, 10), (30, 12), (38, 2));
        let locked = (23, 4);
        let judge = |app: &mut App, (x, y)| describe(app, x, y).known.expect("the Judge knows");
        app.insert_resource(ViewMode::Judge);
        let d = judge(&mut app, door);
        assert_eq!(d.terrain, Terrain::Door);
        assert!(d.door.as_ref().is_some_and(|d| d.secret));
        let p = judge(&mut app, pit);
        assert!(matches!(
            p.traps.as_slice(),
            [t] if t.hidden && matches!(t.kind, TrapKind::Pit { depth_feet: 20 })
        ));
        let g = judge(&mut app, ghoul);
        assert_eq!(g.creatures.len(), 1);
        assert_eq!(g.creatures[0].name, "Gnawbone");
        assert!(g.creatures[0].hit_points.is_some());
        assert!(matches!(g.light, Lit::Now(_)));

        // The party remembers those squares (a map of them), and sees none of them now.
        let party = app
            .world()
            .resource::<Factions>()
            .0
            .iter()
            .position(|f| f.name == "party");
        let grid = app.world().resource::<DungeonGrid>().clone();
        {
            let mut memory = app.world_mut().resource_mut::<FactionMemory>();
            let size = (grid.width() * grid.height()) as usize;
            memory.seen.resize(party.unwrap() + 1, Vec::new());
            let known = &mut memory.seen[party.unwrap()];
            known.resize(size, false);
            for (x, y) in [door, pit, ghoul, locked] {
                known[grid.index(GridPos::new(x, y)).unwrap()] = true;
            }
        }
        app.insert_resource(ViewMode::Party);
        let d = describe(&mut app, door.0, door.1)
            .known
            .expect("remembered");
        assert_eq!(d.terrain, Terrain::Wall(WallMaterial::Stone));
        assert_eq!(d.door, None);
        assert_eq!(d.light, Lit::Remembered);
        let p = describe(&mut app, pit.0, pit.1).known.expect("remembered");
        assert!(
            p.traps.is_empty(),
            "the hidden pit is not the party's to know"
        );
        let g = describe(&mut app, ghoul.0, ghoul.1)
            .known
            .expect("remembered");
        assert!(g.creatures.is_empty(), "the ghoul is not seen now");
        assert_eq!(describe(&mut app, unseen.0, unseen.1).known, None);
        // The locked door, never tried: the party's view tells a closed door, no lock.
        let l = describe(&mut app, locked.0, locked.1)
            .known
            .expect("remembered");
        let told = describe_door(l.door.as_ref().expect("a door"));
        assert_eq!(told, "ironbanded door, closed");
        // A party member on its own square: seen, with its hit points.
        let brannoc = describe(&mut app, 2, 2).known.expect("seen now");
        assert!(matches!(brannoc.light, Lit::Now(_)));
        assert_eq!(brannoc.creatures[0].name, "Brannoc");
        assert!(brannoc.creatures[0].hit_points.is_some());
    }
}
