//! The views: the Judge's (everything, with light shaded from bright to dim to dark by each
//! source's distance), the party's (only what the party sees now, what it remembers greyed,
//! darkness black; secret doors look like wall, traps and unseen creatures are hidden), and any
//! one creature's (the selected creature's: what it sees now, what its faction remembers, the
//! traps its faction knows; `gui::heard` marks what it heard this round and from where).

use delve_ground::grid::GridPos;
use delve_rules::rules::traps::Trap;
use delve_rules::rules::vision::Hiding;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::art::TileArt;
use super::state::{Art, MapView, Marker, PlayersCopy, RedrawSet, ShadeSet, Token, ViewMode};
use delve_ground::grid::DungeonGrid;
use delve_rules::creature::{Faction, Position};
use delve_rules::rules::doors::Door;
use delve_rules::rules::light::{LightLevel, LightMap};
use delve_rules::rules::party::Parties;
use delve_rules::rules::vision::{Eyes, FactionMemory, Sight};

/// The eyes a view looks through: in one creature's view that creature alone (when it has
/// sight), else the first party's faction (its leader's) — the party's view, and the players'
/// copy in the Judge's; from every creature's faction, square and sight (`all`) and one
/// creature's (`of`).
pub fn eyes<'a>(
    view: ViewMode,
    selected: Option<Entity>,
    leader: Option<Entity>,
    all: impl Iterator<Item = (Faction, GridPos, &'a Sight)>,
    of: impl Fn(Entity) -> Option<(Faction, GridPos, &'a Sight)>,
) -> Eyes<'a> {
    let one = (view == ViewMode::Creature)
        .then_some(selected)
        .flatten()
        .filter(|e| of(*e).is_some());
    match one.and_then(&of) {
        Some((f, at, sight)) => Eyes {
            one,
            faction: Some(f),
            members: vec![(at, sight)],
        },
        None => {
            let faction = leader.and_then(&of).map(|(f, ..)| f);
            Eyes {
                one: None,
                faction,
                members: all
                    .filter(|(f, ..)| Some(*f) == faction)
                    .map(|(_, at, s)| (at, s))
                    .collect(),
            }
        }
    }
}

pub struct LightingPlugin;

impl Plugin for LightingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ViewMode>()
            .init_resource::<Shaded>()
            .add_systems(Update, shade.after(RedrawSet).in_set(ShadeSet))
            .add_systems(Update, background_of_the_view);
    }
}

/// Past the level's edge the Judge's view shows the window's background, so the Judge sees
/// where the level ends; a party's or a creature's view shows black there, as it shows the
/// squares it does not know: the players do not learn where the level ends by looking.
fn background_of_the_view(
    view: Res<ViewMode>,
    mut cameras: Query<&mut Camera, With<super::state::MapCamera>>,
) {
    let want = if view.judges() {
        ClearColorConfig::Default
    } else {
        ClearColorConfig::Custom(Color::BLACK)
    };
    for mut camera in &mut cameras {
        let same = match (&camera.clear_color, &want) {
            (ClearColorConfig::Default, ClearColorConfig::Default) => true,
            (ClearColorConfig::Custom(a), ClearColorConfig::Custom(b)) => a == b,
            _ => false,
        };
        if !same {
            camera.clear_color = want;
        }
    }
}

/// What was last shaded, so that tiles are recoloured only when something changed.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
struct Shaded(Option<(u64, ViewMode, u64, u32, Option<Entity>)>);

/// Brightness of each square for the Judge's view: 1 at a source, easing to 0.85 at the edge of
/// its bright light, down to 0.5 at the edge of its dim light; darkness 0.28.
pub fn brightness(grid: &DungeonGrid, light: &LightMap) -> Vec<f32> {
    let mut b = vec![0.28f32; (grid.width() * grid.height()) as usize];
    for fp in light.footprints() {
        let Some(kind) = fp.kind else { continue };
        let (bright, dim) = (kind.bright_feet() as f32, kind.dim_feet().max(1) as f32);
        for &(i, _) in &fp.squares {
            let d = grid.distance_feet(fp.origin, grid.pos_of(i as usize)) as f32;
            let v = if d <= bright {
                1.0 - 0.15 * d / bright.max(1.0)
            } else {
                0.85 - 0.35 * (d - bright) / (dim - bright).max(1.0)
            };
            b[i as usize] = b[i as usize].max(v);
        }
    }
    b
}

/// The tile art, and the battlemap under the tiles and how they are drawn over it.
type Pictures<'w> = (
    Option<Res<'w, Art>>,
    Option<Res<'w, super::state::BattlemapShown>>,
    Option<Res<'w, super::state::TilesOver>>,
);

#[allow(clippy::too_many_arguments)]
fn shade(
    view: Res<ViewMode>,
    grid: Res<DungeonGrid>,
    light: Res<LightMap>,
    memory: Res<FactionMemory>,
    (parties, selected): (Res<Parties>, Res<super::state::Selected>),
    mut shaded: ResMut<Shaded>,
    sights: Query<(&Faction, &Sight, Ref<Sight>, &Position)>,
    storages: Query<(Ref<TileStorage>, Has<PlayersCopy>), With<MapView>>,
    mut tiles: Query<(&mut TileColor, &mut TileTextureIndex)>,
    doors: Query<(&Position, &Door)>,
    mut tokens: Query<(&Token, &mut Visibility, Has<PlayersCopy>), Without<Marker>>,
    hiding: Query<(), With<Hiding>>,
    traps: Query<(&Position, Ref<Trap>)>,
    creatures: Query<(&Position, &Faction)>,
    mut markers: Query<(&Marker, &mut Visibility, Has<PlayersCopy>), Without<Token>>,
    (art, battlemap, over): Pictures,
) {
    if storages.is_empty() || art.is_none() {
        return;
    }
    let storage_changed = storages.iter().any(|(s, _)| s.is_changed());
    let sight_tick = sights.iter().filter(|s| s.2.is_changed()).count() as u64;
    // A trap found, sprung or learned of changes what the party's view shows.
    let trap_tick = traps.iter().filter(|(_, t)| t.is_changed()).count() as u64;
    // Over a battlemap the tiles are faint, hidden or full (`gui::battlemap`).
    let alpha = match (&battlemap, &over) {
        (Some(b), Some(o)) if b.0.is_some() => o.alpha(),
        _ => 1.0,
    };
    let key = Some((
        light.generation,
        *view,
        sight_tick,
        alpha.to_bits(),
        selected.0,
    ));
    if shaded.0 == key && sight_tick == 0 && trap_tick == 0 && !storage_changed {
        return;
    }
    shaded.0 = key;
    let leader = parties.0.first().and_then(|p| p.leader());
    let eyes = eyes(
        *view,
        selected.0,
        leader,
        sights.iter().map(|(f, s, _, p)| (*f, p.0, s)),
        |e| sights.get(e).ok().map(|(f, s, _, p)| (*f, p.0, s)),
    );
    let party_faction = eyes.faction;
    let seen_now = eyes.seen_now(&grid);
    let remembered = eyes.remembered(&memory);
    let bright = brightness(&grid, &light);
    let secret: Vec<GridPos> = doors
        .iter()
        .filter(|(_, d)| d.secret)
        .map(|(p, _)| p.0)
        .collect();
    // The players' copy (`gui::players`) is always the party's view.
    for (storage, for_players) in &storages {
        let view = if for_players { ViewMode::Party } else { *view };
        for (p, t) in grid.squares() {
            let Some(i) = grid.index(p) else { continue };
            let pos = TilePos {
                x: p.x as u32,
                y: grid.height() - 1 - p.y as u32,
            };
            let Some(tile) = storage.get(&pos) else {
                continue;
            };
            let Ok((mut color, mut index)) = tiles.get_mut(tile) else {
                continue;
            };
            let door = doors.iter().find(|(dp, _)| dp.0 == p).map(|(_, d)| d);
            let judge_art =
                TileArt::for_square(t, door.map(|d| (&d.state, &d.lock, d.secret))) as u32;
            let c = match view {
                ViewMode::Judge => {
                    index.0 = judge_art;
                    match light.level_at(i) {
                        LightLevel::MagicalDarkness => Color::srgb(0.16, 0.08, 0.22),
                        _ => Color::srgb(bright[i], bright[i], bright[i] * 0.95),
                    }
                }
                ViewMode::Party | ViewMode::Creature => {
                    index.0 = if secret.contains(&p) {
                        TileArt::WallStone as u32
                    } else {
                        judge_art
                    };
                    // What the party has not seen stays black over a battlemap.
                    match (seen_now[i], remembered.is_some_and(|m| m[i])) {
                        (Some(LightLevel::Bright), _) => Color::WHITE.with_alpha(alpha),
                        (Some(_), _) => Color::srgb(0.55, 0.55, 0.6).with_alpha(alpha),
                        (None, true) => Color::srgb(0.2, 0.2, 0.22).with_alpha(alpha.max(0.8)),
                        (None, false) => Color::BLACK,
                    }
                }
            };
            let c = if view == ViewMode::Judge {
                c.with_alpha(alpha)
            } else {
                c
            };
            if color.0 != c {
                color.0 = c;
            }
        }
    }
    let visible = |p: GridPos| grid.index(p).is_some_and(|i| seen_now[i].is_some());
    for (token, mut vis, for_players) in &mut tokens {
        let view = if for_players { ViewMode::Party } else { *view };
        let show = match (view, creatures.get(token.creature)) {
            (ViewMode::Judge, _) => true,
            (ViewMode::Party | ViewMode::Creature, Ok((p, f))) => {
                let hiding = hiding.get(token.creature).is_ok();
                eyes.see_creature(&grid, &light, token.creature, *f, p.0, hiding)
            }
            (ViewMode::Party | ViewMode::Creature, Err(_)) => false,
        };
        *vis = if show {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    // RULINGS › Knowledge: the traps the party's faction knows.
    let found_trap = |at: GridPos| {
        traps
            .iter()
            .any(|(p, t)| p.0 == at && t.known_to(party_faction))
    };
    for (m, mut vis, for_players) in &mut markers {
        // The party sees lights it can see, and the traps it knows.
        let judge = *view == ViewMode::Judge && !for_players;
        let show = judge || (visible(m.at) && (!m.trap || found_trap(m.at)));
        *vis = if show {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
}
