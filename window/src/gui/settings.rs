//! What the window remembers between runs, in a settings file (RON) in the user's configuration
//! directory (`<config dir>/delve/window.ron`, or `--settings FILE`): the side panels' widths,
//! which panels and which of their sections are open, the interface's scale and whether the
//! minimap is shown. Read at start; written when they change (once the mouse button is up, so
//! that dragging a panel's edge writes once). A file that cannot be read gives the defaults and
//! a warning, and is left as it is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::panels::{LEFT_WIDTH, PanelState, RIGHT_WIDTH};
use super::state::{Minimap, Tell};

/// The settings the window keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowSettings {
    /// The left panel's width (the creature, the Judge's hand, the timers, the rules), in the
    /// interface's points.
    pub left_width: f32,
    /// The log's width.
    pub right_width: f32,
    /// Which panels are open.
    pub panels: OpenPanels,
    /// Which sections of the panels are open, by their titles.
    pub sections: BTreeMap<String, bool>,
    /// The interface's scale (Ctrl+= and Ctrl+-).
    pub ui_scale: f32,
    pub minimap: bool,
}

/// Which panels are open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenPanels {
    pub inspector: bool,
    pub hand: bool,
    pub timers: bool,
    pub switches: bool,
    pub log: bool,
}

/// A new window's: every panel open.
impl Default for OpenPanels {
    fn default() -> Self {
        WindowSettings::default().panels
    }
}

/// A new window's settings (its panels', its minimap's).
impl Default for WindowSettings {
    fn default() -> Self {
        Self::of(&PanelState::default(), &Minimap::default())
    }
}

impl WindowSettings {
    /// The settings in `path`: the defaults if there is no such file; the defaults and a
    /// warning saying where and why if it cannot be read.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = match delve_ground::files::read_text(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(warning(path, &format!("cannot read it: {e}"))),
        };
        ron::from_str::<Self>(&text)
            .map(Self::within_bounds)
            .map_err(|e| warning(path, &super::config_file::error_at(&e)))
    }

    /// Writes the settings to `path` (atomically, making its directory).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        super::config_file::write(path, self, "settings")
    }

    /// Widths and the scale brought within what the window can show (a hand-edited file).
    fn within_bounds(mut self) -> Self {
        let (least, most, _) = super::panels::UI_SCALES;
        self.ui_scale = if self.ui_scale.is_finite() {
            self.ui_scale.clamp(least, most)
        } else {
            1.0
        };
        for (w, default) in [
            (&mut self.left_width, LEFT_WIDTH),
            (&mut self.right_width, RIGHT_WIDTH),
        ] {
            *w = if w.is_finite() {
                w.clamp(120.0, 1200.0)
            } else {
                default
            };
        }
        self
    }

    /// The settings as the window stands now.
    pub fn of(panels: &PanelState, minimap: &Minimap) -> Self {
        Self {
            left_width: panels.left_width,
            right_width: panels.right_width,
            panels: OpenPanels {
                inspector: panels.inspector,
                hand: panels.hand,
                timers: panels.timers,
                switches: panels.switches,
                log: panels.log,
            },
            sections: panels.sections.clone(),
            ui_scale: panels.ui_scale,
            minimap: minimap.wanted,
        }
    }

    /// Puts the settings into the window's panels and minimap.
    pub fn apply(&self, panels: &mut PanelState, minimap: &mut Minimap) {
        panels.left_width = self.left_width;
        panels.right_width = self.right_width;
        let OpenPanels {
            inspector,
            hand,
            timers,
            switches,
            log,
        } = self.panels;
        (
            panels.inspector,
            panels.hand,
            panels.timers,
            panels.switches,
            panels.log,
        ) = (inspector, hand, timers, switches, log);
        panels.sections = self.sections.clone();
        panels.ui_scale = self.ui_scale;
        minimap.wanted = self.minimap;
    }
}

fn warning(path: &Path, why: &str) -> String {
    format!(
        "warning: cannot use the settings file {} ({why}); using the default settings",
        path.display()
    )
}

/// `<config dir>/delve/window.ron`.
pub fn default_settings_file() -> Option<PathBuf> {
    super::config_file::in_config_dir("window.ron")
}

/// Where the settings are written, and what was written (or read) last. `file` is `None` when
/// they are not to be written: none given and no configuration directory, a file that could
/// not be read (left as it is), or a run with its panels closed (`--no-panels`).
#[derive(Resource, Clone, Debug, Default)]
pub struct SettingsFile {
    pub file: Option<PathBuf>,
    pub saved: WindowSettings,
}

pub struct SettingsPlugin;

impl Plugin for SettingsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SettingsFile>()
            .add_systems(Last, remember_settings);
    }
}

/// Writes the settings when they changed and no mouse button is held (a panel's edge dragged
/// is written once, when let go). A failure to write is told in the notice, once.
fn remember_settings(
    mut file: ResMut<SettingsFile>,
    panels: Option<Res<PanelState>>,
    minimap: Option<Res<Minimap>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    mut tell: MessageWriter<Tell>,
) {
    let (Some(panels), Some(minimap)) = (panels, minimap) else {
        return;
    };
    if mouse.is_some_and(|m| m.get_pressed().next().is_some()) {
        return;
    }
    let Some(path) = file.file.clone() else {
        return;
    };
    let now = WindowSettings::of(&panels, &minimap);
    if now == file.saved {
        return;
    }
    if let Err(e) = now.write(&path) {
        tell.write(Tell(format!("cannot remember the window's settings: {e}")));
        file.file = None;
    }
    file.saved = now;
}

#[cfg(test)]
mod tests {
    use super::*;
    use leafwing_input_manager::prelude::Buttonlike;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("delve-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// The panels' widths and open sections, dragged and clicked, are written when the mouse
    /// button is let go, and read back into a new window's panels.
    #[test]
    fn the_remembered_panel_widths_are_read_back() {
        let path = temp("window.ron");
        let _ = std::fs::remove_file(&path);
        let mut app = super::super::input::tests::app();
        app.init_resource::<PanelState>()
            .init_resource::<Minimap>()
            .add_plugins(SettingsPlugin);
        app.insert_resource(SettingsFile {
            file: Some(path.clone()),
            saved: WindowSettings::default(),
        });
        // A drag of the left panel's edge: nothing written while the button is held.
        MouseButton::Left.press(app.world_mut());
        {
            let mut panels = app.world_mut().resource_mut::<PanelState>();
            panels.left_width = 420.0;
            panels.right_width = 280.0;
            panels.sections.insert("Rules".into(), true);
            panels.log = false;
        }
        app.update();
        assert!(!path.exists(), "written while the button was held");
        MouseButton::Left.release(app.world_mut());
        app.update();
        let read = WindowSettings::read(&path).unwrap();
        assert_eq!((read.left_width, read.right_width), (420.0, 280.0));
        assert_eq!(read.sections.get("Rules"), Some(&true));
        assert!(!read.panels.log);
        // A new window's panels take them.
        let (mut panels, mut minimap) = (PanelState::new(false), Minimap::default());
        read.apply(&mut panels, &mut minimap);
        assert_eq!((panels.left_width, panels.right_width), (420.0, 280.0));
        assert!(!panels.log && panels.inspector);
        let _ = std::fs::remove_file(&path);
    }

    /// A broken settings file gives the defaults and a warning that says where, and a missing
    /// one the defaults; widths out of bounds are brought within them.
    #[test]
    fn a_broken_settings_file_is_named_with_its_line() {
        let path = temp("broken.ron");
        std::fs::write(&path, "(\n  left_width: 300.0,\n  right_width: wide,\n)").unwrap();
        let e = WindowSettings::read(&path).unwrap_err();
        assert!(e.contains("broken.ron") && e.contains("3:"), "{e}");
        assert_eq!(
            WindowSettings::read(&temp("none.ron")).unwrap(),
            WindowSettings::default()
        );
        std::fs::write(&path, "(left_width: 5.0, ui_scale: 40.0)").unwrap();
        let s = WindowSettings::read(&path).unwrap();
        assert_eq!(
            (s.left_width, s.ui_scale),
            (120.0, super::super::panels::UI_SCALES.1)
        );
        let _ = std::fs::remove_file(&path);
    }
}
