//! The window's shared state, which its parts read and write: the level shown, the selection,
//! the view, how orders are given, the rounds asked for, what the user was told ([`Tell`], shown
//! by one system as the [`Notice`]), the cameras' and copies' marks, the phases other parts
//! order themselves by ([`RedrawSet`], [`ShadeSet`], [`PlayRounds`]), the minimap's and the
//! map area's places. It imports no other module of the window (a test keeps it so), so that
//! none of them is a hub the others import and that imports them back.

use delve_ground::grid::GridPos;
use delve_ground::party_policy::PartyPolicy;

use std::path::PathBuf;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use delve_ground::level::{self, Diagnostics, Level};
use delve_rules::rules::movement::Pace;
use delve_rules::rules::party::Parties;

/// The level shown, where it came from, and problems from the last attempt to (re)load it.
#[derive(Resource, Clone, Debug)]
pub struct ShownLevel {
    pub path: Option<PathBuf>,
    pub seed: u64,
    pub level: Level,
    /// The texts it was loaded from (what a save keeps).
    pub text: level::LevelText,
    /// Problems of the last reload that failed; the previous level stays in place meanwhile.
    pub problems: Option<Diagnostics>,
    /// Warnings of the level shown.
    pub warnings: Diagnostics,
    /// Set when the map and tokens must be drawn anew.
    pub redraw: bool,
    /// With `redraw`: the same level drawn again (an undo, a save of it loaded), so the camera
    /// stays where it is.
    pub keep_view: bool,
}

/// Where the window writes its journal, if anywhere.
#[derive(Resource, Clone, Debug, Default)]
pub struct JournalFile(pub Option<PathBuf>);

/// Which view the window shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewMode {
    #[default]
    Judge,
    Party,
    /// The selected creature's.
    Creature,
}

impl ViewMode {
    /// Does the view show what only the Judge knows (secret doors, hidden traps, unseen
    /// creatures)?
    pub fn judges(self) -> bool {
        self == ViewMode::Judge
    }
}

/// The selected creature.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Selected(pub Option<Entity>);

/// Whether the key help is shown, and how orders are given.
#[derive(Resource, Clone, Debug)]
pub struct UiState {
    pub show_help: bool,
    /// The pace of the next move order.
    pub pace: Pace,
    /// Orders go to the selected creature's whole party.
    pub whole_party: bool,
    /// The square last clicked: the Judge's hand acts on it.
    pub picked: Option<GridPos>,
}

impl Default for UiState {
    fn default() -> Self {
        Self {
            show_help: true,
            pace: Pace::Exploration,
            whole_party: true,
            picked: None,
        }
    }
}

/// The party the orders go to: the selected creature's, when orders go to whole parties.
pub fn ordered_party(
    world_parties: &Parties,
    ui: &UiState,
    selected: Option<Entity>,
) -> Option<String> {
    let e = selected?;
    ui.whole_party
        .then(|| world_parties.of(e).map(|p| p.name.clone()))
        .flatten()
}

/// Rounds the user asked to play this frame.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RoundsRequested(pub u64);

/// The policy the A key hands a party to (`delve LEVEL --policy FILE`; the defaults without).
#[derive(Resource, Clone, Debug, Default)]
pub struct WindowPolicy(pub PartyPolicy);

/// The camera that draws the map (in the space the panels leave it).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct MapCamera;

/// The rounds played this frame (`gui::rounds`): what follows the delve (the camera) runs after.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayRounds;

/// Something the user is told (an order given, a save written, why something cannot be done):
/// written by whatever did it, shown by one system ([`Notice`]).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Tell(pub String);

impl Tell {
    /// Nothing to tell: the last notice is cleared (rounds were played).
    pub fn nothing() -> Self {
        Self(String::new())
    }
}

/// What the user was last told ([`Tell`]): the latest of each frame, shown until the next.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Notice(pub String);

/// The one writer of the notice: the latest thing told this frame.
fn show_the_latest(mut told: MessageReader<Tell>, mut notice: ResMut<Notice>) {
    if let Some(latest) = told.read().last() {
        notice.0.clone_from(&latest.0);
    }
}

/// The window's shared state, each resource at its default, and the notice shown.
pub struct StatePlugin;

impl Plugin for StatePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Selected>()
            .init_resource::<UiState>()
            .init_resource::<RoundsRequested>()
            .init_resource::<Notice>()
            .add_message::<Tell>()
            // Before the frame's systems (what was told between frames, at start-up, or by the
            // panels' pass after the last showing) and after them.
            .add_systems(PreUpdate, show_the_latest)
            .add_systems(PostUpdate, show_the_latest);
    }
}

/// Everything drawn for the current level; despawned when the level is drawn anew.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct MapView;

/// The painted images.
#[derive(Resource, Clone, Debug)]
pub struct Art {
    pub tileset: Handle<Image>,
    pub token: Handle<Image>,
    pub ring: Handle<Image>,
}

/// The systems that draw the map; token and panel systems run after them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RedrawSet;

/// Which copy of the map is drawn: its render layer, and whether it is the players'.
pub struct Drawn {
    pub layer: RenderLayers,
    pub for_players: bool,
}

impl Drawn {
    /// What every entity of this copy carries.
    pub fn marks(&self) -> impl Bundle {
        (MapView, self.layer.clone())
    }

    /// Marks an entity of the players' copy as theirs.
    pub fn mark_players(&self, commands: &mut Commands, e: Entity) {
        if self.for_players {
            commands.entity(e).insert(PlayersCopy);
        }
    }
}

/// Marks trap and light markers, hidden in the party's view unless seen.
#[derive(Component, Clone, Copy, Debug)]
pub struct Marker {
    pub at: GridPos,
    pub trap: bool,
}

/// The shading of the map's tiles and tokens for the view (the minimap's picture is drawn
/// after it).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShadeSet;

/// The render layer of the players' copy of the map.
pub const PLAYERS_LAYER: usize = 1;

/// Marks what is drawn for the players' window (their copy of the map, its tokens and markers).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayersCopy;

/// The players' window, when the window was opened with `--player-window`.
#[derive(Resource, Clone, Copy, Debug)]
pub struct PlayerWindow {
    pub window: Entity,
}

/// A token drawn for a creature.
#[derive(Component, Clone, Copy, Debug)]
pub struct Token {
    pub creature: Entity,
}

/// How the tiles are drawn over a battlemap.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TilesOver {
    /// Faint: the picture shows through.
    #[default]
    Faint,
    /// Not drawn: the picture alone (what the party does not see is still black).
    Hidden,
    /// Drawn in full, covering the picture.
    Full,
}

impl TilesOver {
    /// The tiles' opacity over a battlemap.
    pub fn alpha(self) -> f32 {
        match self {
            TilesOver::Faint => 0.35,
            TilesOver::Hidden => 0.0,
            TilesOver::Full => 1.0,
        }
    }

    pub(crate) fn next(self) -> Self {
        match self {
            TilesOver::Faint => TilesOver::Hidden,
            TilesOver::Hidden => TilesOver::Full,
            TilesOver::Full => TilesOver::Faint,
        }
    }
}

/// The battlemap shown now, if any: what the tiles' shading asks.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BattlemapShown(pub Option<PathBuf>);

/// Where the minimap is (logical window coordinates, `None` while not shown), and the level's
/// extent in world units that it shows.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Minimap {
    /// Shown when it adds something (`I` hides it).
    pub wanted: bool,
    pub rect: Option<Rect>,
    pub(crate) level: Rect,
    /// A drag that began on the minimap goes on moving the camera outside it.
    pub(crate) dragging: bool,
}

impl Default for Minimap {
    fn default() -> Self {
        Self {
            wanted: true,
            rect: None,
            level: Rect::default(),
            dragging: false,
        }
    }
}

impl Minimap {
    /// Is the pointer at `cursor` (logical window coordinates) over the minimap?
    pub fn covers(&self, cursor: Vec2) -> bool {
        self.rect.is_some_and(|r| r.contains(cursor))
    }

    /// The world point under `cursor` on the minimap (clamped to the level).
    pub fn world_at(&self, cursor: Vec2) -> Option<Vec2> {
        let r = self.rect?;
        let f = ((cursor - r.min) / r.size()).clamp(Vec2::ZERO, Vec2::ONE);
        // Window y grows downwards, world y upwards.
        Some(Vec2::new(
            self.level.min.x + f.x * self.level.width(),
            self.level.max.y - f.y * self.level.height(),
        ))
    }

    /// Where a world point is on the minimap, in logical window coordinates.
    pub fn place_of(&self, at: Vec2) -> Option<Vec2> {
        let r = self.rect?;
        let f = Vec2::new(
            (at.x - self.level.min.x) / self.level.width(),
            (self.level.max.y - at.y) / self.level.height(),
        );
        Some(r.min + f * r.size())
    }
}

/// The part of the window the panels leave to the map, in logical pixels.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct MapArea(pub Option<Rect>);

/// A camera draws into `rect` of its window (logical pixels): its viewport, in the window's
/// physical pixels, within the window and at least a pixel large; left as it is when it is so
/// already.
pub fn draw_within(camera: &mut Camera, window: &Window, rect: Rect) {
    let scale = window.scale_factor();
    let whole = UVec2::new(window.physical_width(), window.physical_height());
    let pos = (rect.min * scale).as_uvec2().min(whole);
    let size = (rect.size() * scale)
        .as_uvec2()
        .min(whole.saturating_sub(pos))
        .max(UVec2::ONE);
    if camera
        .viewport
        .as_ref()
        .map(|v| (v.physical_position, v.physical_size))
        != Some((pos, size))
    {
        camera.viewport = Some(bevy::camera::Viewport {
            physical_position: pos,
            physical_size: size,
            ..default()
        });
    }
}

#[cfg(test)]
mod tests {
    /// The bottom of the window imports none of the window's modules: the shared state, the
    /// actions and their keys (what every part of the window reads) and the squares' places.
    #[test]
    fn the_shared_state_imports_no_module_of_the_window() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui");
        for (file, allowed) in [
            ("state.rs", &[][..]),
            ("controls.rs", &[][..]),
            ("squares.rs", &["super::art"][..]),
        ] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for word in ["super::", "crate::gui"] {
                    if let Some(i) = line.find(word) {
                        assert!(
                            allowed.iter().any(|a| line[i..].starts_with(a)),
                            "{file} imports the window: {line}"
                        );
                    }
                }
            }
        }
    }
}
