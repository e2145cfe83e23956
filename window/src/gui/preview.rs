//! The path preview: with a creature selected, the square under the pointer shows the walk there
//! on the map, and its length in feet and how many rounds it takes at the chosen pace in the
//! tooltip (for a party, the leader's walk at the pace of its slowest member).

use delve_ground::grid::DungeonGrid;
use delve_ground::grid::path::Path;
use delve_rules::creature::{Faction, SwimmingSpeed};
use delve_rules::rules::doors::Door;
use delve_rules::rules::vision::FactionMemory;

use bevy::prelude::*;

use super::pointer::Pointer;
use super::squares::square_to_world;
use super::state::{Art, RedrawSet, Selected, UiState, ordered_party};
use delve_ground::grid::GridPos;
use delve_ground::grid::path::find_path;
use delve_ground::time::ROUNDS_PER_TURN;
use delve_rules::creature::{Conditions, Encumbrance, Position};
use delve_rules::rules::movement::{
    Pace, Speeds, WaterCost, path_cost, sharp_turn, throw_to_enter,
};
use delve_rules::rules::party::Parties;

/// What the preview shows now: mover's square, target, pace, whole party.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
struct Shown(Option<(GridPos, GridPos, Pace, bool)>);

#[derive(Component)]
struct PreviewMark;

/// The walk to the square under the pointer in words: its length in feet, the rounds it takes
/// at the pace chosen, a run's sharp turn, the throws on the way; the tooltip over the map
/// shows it above what the square holds (`gui::under_pointer`).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct WalkThere(pub Option<String>);

pub struct PreviewPlugin;

impl Plugin for PreviewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Shown>()
            .init_resource::<WalkThere>()
            .add_systems(Update, preview.after(RedrawSet));
    }
}

/// A mover as the preview reads it.
type Mover<'a> = (
    &'a Position,
    &'a Encumbrance,
    &'a Conditions,
    Option<&'a SwimmingSpeed>,
);

/// Tenths of a foot a round for the mover: the slowest member for a party (the party rules'
/// pace).
fn budget(movers: &[Entity], pace: Pace, q: &Query<Mover>) -> Option<u32> {
    delve_rules::rules::party::party_tenths_per_round(movers, pace, |e| {
        q.get(e)
            .ok()
            .and_then(|(_, enc, c, _)| Speeds::of(enc.0, c))
    })
}

/// The walk from `from` to `to`: over any open square (the Judge's view), or only over those
/// seen (`seen`, indexed as the grid: a player's view).
fn walk_known(
    grid: &DungeonGrid,
    from: GridPos,
    to: GridPos,
    seen: Option<&[bool]>,
) -> Option<Path> {
    match seen {
        None => find_path(grid, from, to),
        Some(seen) => delve_ground::grid::path::find_path_with(grid, from, to, |p| {
            grid.is_passable(p) && grid.index(p).is_some_and(|i| seen.get(i) == Some(&true))
        }),
    }
}

/// Where a walk to `to` ends: at `to`, or — `to` a closed door (not one still secret) — on the
/// open square beside it with the shortest walk from `from` (one walks up to a door, then opens
/// it: Dungeon Delves › Doors).
pub fn walk_end(
    grid: &DungeonGrid,
    from: GridPos,
    to: GridPos,
    seen: Option<&[bool]>,
    door_here: bool,
) -> GridPos {
    if !door_here || grid.is_passable(to) {
        return to;
    }
    [(0, -1), (1, 0), (0, 1), (-1, 0)]
        .into_iter()
        .map(|(dx, dy)| GridPos::new(to.x + dx, to.y + dy))
        .filter_map(|p| walk_known(grid, from, p, seen).map(|w| (w.feet, p)))
        .min()
        .map_or(to, |(_, p)| p)
}

/// Is there a closed door at `p` one may walk up to (not one still secret)?
pub fn door_at(doors: &Query<(&Position, &Door)>, p: GridPos) -> bool {
    doors.iter().any(|(at, d)| at.0 == p && !d.spec.secret)
}

/// What the faction of `mover` has seen, in a player's view (`None` in the Judge's).
pub fn seen_by(
    view: Option<&super::state::ViewMode>,
    memory: Option<&FactionMemory>,
    faction: Option<&Faction>,
) -> Option<Vec<bool>> {
    view.filter(|v| **v != super::state::ViewMode::Judge)
        .and_then(|_| Some(memory?.seen.get(faction?.0)?.clone()))
}

/// What a view knows to walk by: its faction's memory of squares (in a player's view) and
/// the doors.
#[derive(bevy::ecs::system::SystemParam)]
pub struct WalkKnowledge<'w, 's> {
    view: Option<Res<'w, super::state::ViewMode>>,
    memory: Option<Res<'w, FactionMemory>>,
    factions: Query<'w, 's, &'static Faction>,
    positions: Query<'w, 's, &'static Position>,
    doors: Query<'w, 's, (&'static Position, &'static Door)>,
}

impl WalkKnowledge<'_, '_> {
    /// Where `mover`'s walk to `to` ends ([`walk_end`]), as the view knows the squares.
    pub fn walk_end(&self, grid: &DungeonGrid, mover: Entity, to: GridPos) -> GridPos {
        let Ok(from) = self.positions.get(mover) else {
            return to;
        };
        let known = seen_by(
            self.view.as_deref(),
            self.memory.as_deref(),
            self.factions.get(mover).ok(),
        );
        walk_end(grid, from.0, to, known.as_deref(), door_at(&self.doors, to))
    }
}

#[allow(clippy::too_many_arguments)]
fn preview(
    mut commands: Commands,
    pointer: Pointer,
    selected: Res<Selected>,
    ui: Res<UiState>,
    parties: Res<Parties>,
    art: Option<Res<Art>>,
    creatures: Query<Mover>,
    marks: Query<Entity, With<PreviewMark>>,
    mut shown: ResMut<Shown>,
    mut walk: ResMut<WalkThere>,
    attack: Option<Res<super::battle::AttackOffer>>,
    view: Option<Res<super::state::ViewMode>>,
    memory: Option<Res<FactionMemory>>,
    factions: Query<&Faction>,
    doors: Query<(&Position, &Door)>,
) {
    let Some(art) = art else {
        return;
    };
    let party = ordered_party(&parties, &ui, selected.0).and_then(|n| parties.get(&n).cloned());
    let movers: Vec<Entity> = match (&party, selected.0) {
        (Some(p), _) => p.marching_order.clone(),
        (None, Some(e)) => vec![e],
        (None, None) => Vec::new(),
    };
    let from = movers
        .first()
        .and_then(|&e| creatures.get(e).ok())
        .map(|c| c.0.0);
    // Pointing at an enemy offers an attack instead of a walk.
    let attacking = attack.is_some_and(|a| !a.text.is_empty());
    let key = match (from, pointer.square()) {
        (Some(f), Some(t)) if f != t && !attacking => Some((f, t, ui.pace, party.is_some())),
        _ => None,
    };
    if shown.0 == key {
        return;
    }
    shown.0 = key;
    for e in &marks {
        commands.entity(e).despawn();
    }
    walk.0 = None;
    let Some((from, to, pace, _)) = key else {
        return;
    };
    let grid = &pointer.grid;
    let h = grid.height();
    // In a player's view a walk goes only over squares the mover's faction has seen (RULINGS ›
    // Knowledge): the preview maps nothing the party does not know.
    let known = seen_by(
        view.as_deref(),
        memory.as_deref(),
        movers.first().and_then(|&e| factions.get(e).ok()),
    );
    let door = door_at(&doors, to);
    let end = walk_end(grid, from, to, known.as_deref(), door);
    let path = walk_known(grid, from, end, known.as_deref());
    let label = match path {
        None if known.is_some() => "no known way there".to_owned(),
        None => "no open path".to_owned(),
        Some(path) => {
            let water = movers
                .first()
                .and_then(|&e| creatures.get(e).ok())
                .map_or_else(WaterCost::default, |(_, enc, _, swim)| {
                    WaterCost::of(enc.0, swim)
                });
            let cost = path_cost(grid, &path.squares, water);
            // Squares where the walk needs a throw (Dungeon Delves › Squeezing, › Swimming) are
            // marked in red.
            let throw_at = |p: GridPos| grid.terrain(p).and_then(throw_to_enter);
            let mut throws: Vec<&str> = Vec::new();
            for &p in &path.squares[1..] {
                let at = square_to_world(h, p.x, p.y);
                let needs = throw_at(p);
                if let Some(t) = needs
                    && !throws.contains(&t)
                {
                    throws.push(t);
                }
                commands.spawn((
                    PreviewMark,
                    Sprite {
                        image: art.token.clone(),
                        color: if needs.is_some() {
                            Color::srgba(1.0, 0.35, 0.25, 0.9)
                        } else {
                            Color::srgba(1.0, 0.95, 0.6, 0.75)
                        },
                        custom_size: Some(Vec2::splat(if needs.is_some() { 11.0 } else { 8.0 })),
                        ..default()
                    },
                    Transform::from_xyz(at.x, at.y, 8.0),
                ));
            }
            let time = match budget(&movers, pace, &creatures) {
                None | Some(0) => "cannot move".to_owned(),
                Some(per_round) => {
                    let rounds = cost.div_ceil(per_round);
                    if pace == Pace::Exploration && rounds >= ROUNDS_PER_TURN as u32 {
                        format!(
                            "{rounds} rounds ({:.1} turns)",
                            rounds as f32 / ROUNDS_PER_TURN as f32
                        )
                    } else {
                        format!("{rounds} round{}", if rounds == 1 { "" } else { "s" })
                    }
                }
            };
            let running = match (pace, sharp_turn(&path.squares)) {
                (Pace::Running, Some(bend)) => format!("\ncannot run: sharp turn at {bend}"),
                _ => String::new(),
            };
            let throws = if throws.is_empty() {
                String::new()
            } else {
                format!("\n{} throws on the way (red)", throws.join(" and "))
            };
            let up_to = if end != to {
                format!("up to the door at {to}: ")
            } else {
                String::new()
            };
            format!(
                "{up_to}{}' - {time} at {pace} speed{running}{throws}",
                path.feet
            )
        }
    };
    walk.0 = Some(label);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in crypt's grid.
    fn crypt_grid() -> delve_ground::grid::DungeonGrid {
        let level = delve_ground::level::LevelText::default_level()
            .load()
            .unwrap()
            .level;
        let app = delve_play::sim::sim_app(&level, 1);
        app.world()
            .resource::<delve_ground::grid::DungeonGrid>()
            .clone()
    }

    /// In a player's view the preview walks only over squares the party has seen: a square
    /// beyond them has no known way, though the Judge's view finds the open one.
    #[test]
    fn a_players_walk_goes_only_over_squares_seen() {
        let grid = crypt_grid();
        let (from, near, far) = (GridPos::new(2, 2), GridPos::new(3, 3), GridPos::new(6, 4));
        assert!(walk_known(&grid, from, far, None).is_some());
        let mut seen = vec![false; (grid.width() * grid.height()) as usize];
        // The squares around the two seen (a diagonal step needs its corners open).
        for p in [from, near] {
            for q in std::iter::once(p).chain(p.neighbours()) {
                if let Some(i) = grid.index(q) {
                    seen[i] = true;
                }
            }
        }
        assert!(walk_known(&grid, from, near, Some(&seen)).is_some());
        assert!(walk_known(&grid, from, far, Some(&seen)).is_none());
    }

    /// A walk to the crypt's closed door at (3, 6) ends beside it, at (3, 5), on the side the
    /// walker comes from; an open square is walked to itself; a square that is no door, not
    /// open, is left as it is (the rules then say why there is no path).
    #[test]
    fn a_walk_to_a_closed_door_ends_beside_it() {
        let grid = crypt_grid();
        let (from, door) = (GridPos::new(2, 2), GridPos::new(3, 6));
        assert!(!grid.is_passable(door));
        assert_eq!(walk_end(&grid, from, door, None, true), GridPos::new(3, 5));
        assert_eq!(
            walk_end(&grid, from, GridPos::new(4, 4), None, false),
            GridPos::new(4, 4)
        );
        let wall = GridPos::new(0, 0);
        assert_eq!(walk_end(&grid, from, wall, None, false), wall);
    }
}
