//! Keys a player can change: the window's bindings come from a keys file (RON) in the user's
//! configuration directory (`<config dir>/delve/keys.ron`, or `--keys FILE`), read at start. The
//! file holds its format's version and leafwing's `InputMap`; one that is missing gives the
//! defaults, one that cannot be read gives the defaults and a warning. The help line names the
//! keys bound now.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use leafwing_input_manager::clashing_inputs::BasicInputs;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

use super::controls::{DelveAction, default_input_map};

/// The version of the keys file this build reads and writes.
pub const KEYS_VERSION: u32 = 1;

/// A keys file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeysFile {
    pub version: u32,
    pub keys: InputMap<DelveAction>,
}

/// The bindings in use, and where they came from.
#[derive(Resource, Clone, Debug)]
pub struct Bindings {
    pub keys: InputMap<DelveAction>,
    /// The keys file (read at start; where changed bindings would be written).
    pub file: Option<PathBuf>,
}

impl Default for Bindings {
    fn default() -> Self {
        Self {
            keys: default_input_map(),
            file: None,
        }
    }
}

/// `<config dir>/delve/keys.ron`.
pub fn default_keys_file() -> Option<PathBuf> {
    super::config_file::in_config_dir("keys.ron")
}

/// Leafwing reads inputs back by the names of their types, from a registry its plugin fills as
/// an app is built; the kinds of input the window binds are registered here, once, so that a keys
/// file reads before the window's app exists.
fn register_inputs() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        App::new()
            .register_buttonlike_input::<KeyCode>()
            .register_buttonlike_input::<MouseButton>()
            .register_buttonlike_input::<ModifierKey>()
            .register_buttonlike_input::<ButtonlikeChord>()
            .register_axislike_input::<VirtualAxis>()
            .register_axislike_input::<MouseScrollAxis>()
            .register_dual_axislike_input::<VirtualDPad>();
    });
}

/// The keys in `path`: the defaults if there is no such file; the defaults and a warning saying
/// why if it cannot be read, is not a keys file, or is of another version.
pub fn read_keys(path: &Path) -> (InputMap<DelveAction>, Option<String>) {
    register_inputs();
    let text = match delve_ground::files::read_text(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (default_input_map(), None),
        Err(e) => return fallback(path, &format!("cannot read it: {e}")),
    };
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    match ron::from_str::<Versioned>(&text) {
        Ok(v) if v.version != KEYS_VERSION => {
            return fallback(
                path,
                &format!(
                    "it is of version {}; this delve reads version {KEYS_VERSION}",
                    v.version
                ),
            );
        }
        _ => {}
    }
    match ron::from_str::<KeysFile>(&text) {
        Ok(file) => (file.keys, None),
        Err(e) => fallback(path, &super::config_file::error_at(&e)),
    }
}

fn fallback(path: &Path, why: &str) -> (InputMap<DelveAction>, Option<String>) {
    (
        default_input_map(),
        Some(format!(
            "warning: cannot use the keys file {} ({why}); using the default keys",
            path.display()
        )),
    )
}

/// Writes `keys` to `path` as a keys file (atomically, making its directory).
pub fn write_keys(path: &Path, keys: &InputMap<DelveAction>) -> Result<(), String> {
    let file = KeysFile {
        version: KEYS_VERSION,
        keys: keys.clone(),
    };
    super::config_file::write(path, &file, "keys")
}

/// A button's name as the help line shows it: `Space`, `T`, `1`, `Ctrl`, `left click`.
fn button_name(b: &dyn Buttonlike) -> String {
    let any = b.as_reflect();
    if let Some(k) = any.downcast_ref::<KeyCode>() {
        match k {
            KeyCode::ControlLeft | KeyCode::ControlRight => return "Ctrl".into(),
            KeyCode::ShiftLeft | KeyCode::ShiftRight => return "Shift".into(),
            KeyCode::AltLeft | KeyCode::AltRight => return "Alt".into(),
            _ => {}
        }
        let name = format!("{k:?}");
        let short = name
            .strip_prefix("Key")
            .or_else(|| name.strip_prefix("Digit"))
            .or_else(|| name.strip_prefix("Arrow"))
            .unwrap_or(&name);
        return short.to_owned();
    }
    if let Some(m) = any.downcast_ref::<ModifierKey>() {
        return match m {
            ModifierKey::Control => "Ctrl".into(),
            other => format!("{other:?}"),
        };
    }
    if let Some(m) = any.downcast_ref::<MouseButton>() {
        return format!("{m:?} click").to_lowercase();
    }
    format!("{b:?}")
}

/// An input's name: a key, a chord (`Ctrl+S`), or the keys of a virtual pad (`Up/Down/…`).
fn input_name(inputs: BasicInputs) -> String {
    match inputs {
        BasicInputs::None => "an axis".into(),
        BasicInputs::Simple(b) => button_name(b.as_ref()),
        BasicInputs::Composite(bs) => bs
            .iter()
            .map(|b| button_name(b.as_ref()))
            .collect::<Vec<_>>()
            .join("/"),
        BasicInputs::Chord(bs) => {
            // A modifier stands for both its keys: named once.
            let mut names: Vec<String> = bs.iter().map(|b| button_name(b.as_ref())).collect();
            names.dedup();
            // Modifiers first, in the usual order: Ctrl+Shift+Z.
            let rank = |n: &String| ["Ctrl", "Alt", "Shift"].iter().position(|m| m == n);
            names.sort_by_key(|n| rank(n).unwrap_or(3));
            names.join("+")
        }
    }
}

/// The keys bound to `action` now, as the help line names them (`Q/E, wheel`).
pub fn keys_of(map: &InputMap<DelveAction>, action: &DelveAction) -> String {
    let mut names: Vec<String> = Vec::new();
    if let Some(bs) = map.get_buttonlike(action) {
        names.extend(bs.iter().map(|b| input_name(b.decompose())));
    }
    if let Some(axes) = map.get_axislike(action) {
        names.extend(axes.iter().map(|a| {
            if a.as_ref().as_reflect().is::<MouseScrollAxis>() {
                "wheel".to_owned()
            } else {
                input_name(a.decompose())
            }
        }));
    }
    if let Some(pads) = map.get_dual_axislike(action) {
        names.extend(pads.iter().map(|p| input_name(p.decompose())));
    }
    names.join(", ")
}

/// The help line: each listed action with the keys bound to it now (an action with none is left
/// out); the numbered choices as one entry (`1-9`).
pub fn help_line(map: &InputMap<DelveAction>) -> String {
    super::controls::HELP
        .iter()
        .filter_map(|(action, what)| {
            let keys = match action {
                DelveAction::Choose(_) => {
                    let each: Vec<String> = (0..9u8)
                        .map(|i| keys_of(map, &DelveAction::Choose(i)))
                        .filter(|k| !k.is_empty())
                        .collect();
                    match (each.first(), each.last()) {
                        (Some(first), Some(last)) if each.len() > 1 => format!("{first}-{last}"),
                        _ => each.join(""),
                    }
                }
                _ => keys_of(map, action),
            };
            (!keys.is_empty()).then(|| format!("{keys}: {what}"))
        })
        .collect::<Vec<_>>()
        .join("   ")
}

/// A key pressed to bind: the key and the modifiers held with it (`Ctrl+Shift+Z`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPress {
    pub key: KeyCode,
    pub modifiers: Vec<ModifierKey>,
}

impl KeyPress {
    /// The press as an input of the map: the key alone, or a chord with its modifiers.
    fn binding(&self) -> Box<dyn Buttonlike> {
        if self.modifiers.is_empty() {
            Box::new(self.key)
        } else {
            let mut chord = ButtonlikeChord::default();
            for m in &self.modifiers {
                chord = chord.with(*m);
            }
            Box::new(chord.with(self.key))
        }
    }

    /// Its name as the help line gives it.
    pub fn name(&self) -> String {
        input_name(self.binding().decompose())
    }
}

/// The actions a player may rebind by pressing a key: every action bound to buttons, but the
/// camera's axes and the numbered choices (they stay 1-9).
pub fn rebindable(map: &InputMap<DelveAction>) -> Vec<DelveAction> {
    super::controls::HELP
        .iter()
        .map(|(a, _)| *a)
        .filter(|a| {
            !matches!(
                a,
                DelveAction::Pan | DelveAction::Zoom | DelveAction::Choose(_)
            )
        })
        // In solo play the Judge's actions are not the player's to bind.
        .filter(|a| map.get_buttonlike(a).is_some() || !super::controls::JUDGE_ONLY.contains(a))
        .collect()
}

/// The other actions that this press would also set off: bound to the very same key and
/// modifiers.
pub fn conflicts(
    map: &InputMap<DelveAction>,
    action: &DelveAction,
    press: &KeyPress,
) -> Vec<DelveAction> {
    let name = press.name();
    let mut found: Vec<DelveAction> = map
        .iter_buttonlike()
        .filter(|(a, _)| *a != action)
        .filter(|(_, bs)| bs.iter().any(|b| input_name(b.decompose()) == name))
        .map(|(a, _)| *a)
        .collect();
    found.sort_by_key(|a| format!("{a:?}"));
    found
}

/// Binds `action` to the press alone (its keys before are let go; the mouse buttons it had stay).
pub fn rebind(map: &mut InputMap<DelveAction>, action: DelveAction, press: &KeyPress) {
    let kept: Vec<Box<dyn Buttonlike>> = map
        .get_buttonlike(&action)
        .map(|bs| {
            bs.iter()
                .filter(|b| b.as_ref().as_reflect().is::<MouseButton>())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    map.clear_action(&action);
    for b in kept {
        map.insert_boxed(action, b);
    }
    map.insert_boxed(action, press.binding());
}

/// leafwing-input-manager's registry of input kinds deadlocks when one thread registers them
/// (building its plugin) while another reads a keys file (a nested read lock behind a waiting
/// writer): the tests that do either hold this lock meanwhile.
#[cfg(test)]
pub(crate) fn input_registry() -> std::sync::MutexGuard<'static, ()> {
    static REGISTRY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("delve-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// Written and read back, a changed binding is the same; the help names it.
    #[test]
    fn a_keys_file_round_trips() {
        let _registry = input_registry();
        let mut keys = default_input_map();
        keys.clear_action(&DelveAction::AdvanceRound);
        keys.insert(DelveAction::AdvanceRound, KeyCode::Enter);
        let path = scratch("keys.ron");
        write_keys(&path, &keys).unwrap();
        let (read, warning) = read_keys(&path);
        assert_eq!(warning, None);
        assert_eq!(read, keys);
        assert_eq!(keys_of(&read, &DelveAction::AdvanceRound), "Enter");
        assert_eq!(keys_of(&read, &DelveAction::Save), "Ctrl+S");
        assert_eq!(keys_of(&read, &DelveAction::UndoTurn), "Ctrl+Shift+Z");
        assert_eq!(keys_of(&read, &DelveAction::Zoom), "Q/E, wheel");
        assert_eq!(keys_of(&read, &DelveAction::Pan), "Up/Down/Left/Right");
        let help = help_line(&read);
        assert!(help.contains("Enter: +1 round"), "{help}");
        assert!(help.contains("1-9: the listed actions"), "{help}");
        assert!(help.contains("left click: select"), "{help}");
        // Solo play takes the Judge's view switch away: the help no longer lists it.
        let mut solo = read.clone();
        solo.clear_action(&DelveAction::ToggleView);
        assert!(!help_line(&solo).contains("Judge/party view"));
    }

    /// No keys file: the defaults, quietly. A broken one, or one of another version: the
    /// defaults, and a warning that says why.
    #[test]
    fn a_broken_keys_file_falls_back_to_the_defaults() {
        let _registry = input_registry();
        let (keys, warning) = read_keys(&scratch("none.ron"));
        assert_eq!((keys, warning), (default_input_map(), None));
        let broken = scratch("broken.ron");
        std::fs::write(&broken, "(version: 1, keys: (buttonlike_map: {Save: [").unwrap();
        let (keys, warning) = read_keys(&broken);
        assert_eq!(keys, default_input_map());
        assert!(
            warning
                .as_deref()
                .is_some_and(|w| w.contains("using the default keys")),
            "{warning:?}"
        );
        let newer = scratch("newer.ron");
        std::fs::write(&newer, "(version: 9, keys: ())").unwrap();
        let (_, warning) = read_keys(&newer);
        assert!(
            warning.as_deref().is_some_and(|w| w.contains("version 9")),
            "{warning:?}"
        );
    }

    /// A key pressed for an action replaces its keys, names the actions it clashes with, and
    /// the help line shows it; restoring the defaults gives the defaults back.
    #[test]
    fn rebinding_an_action_by_a_key_press() {
        let _registry = input_registry();
        let mut map = default_input_map();
        let ctrl_r = KeyPress {
            key: KeyCode::KeyR,
            modifiers: vec![ModifierKey::Control],
        };
        assert_eq!(ctrl_r.name(), "Ctrl+R");
        assert!(conflicts(&map, &DelveAction::Save, &ctrl_r).is_empty());
        rebind(&mut map, DelveAction::Save, &ctrl_r);
        assert_eq!(keys_of(&map, &DelveAction::Save), "Ctrl+R");
        assert!(help_line(&map).contains("Ctrl+R: save"));
        // R alone is the rest key: binding it to stand up clashes with rest.
        let r = KeyPress {
            key: KeyCode::KeyR,
            modifiers: vec![],
        };
        assert_eq!(
            conflicts(&map, &DelveAction::StandUp, &r),
            vec![DelveAction::Rest]
        );
        // The select action keeps its mouse button when given a key too.
        rebind(&mut map, DelveAction::Select, &r);
        assert_eq!(keys_of(&map, &DelveAction::Select), "left click, R");
        assert!(rebindable(&map).contains(&DelveAction::Save));
        assert!(!rebindable(&map).contains(&DelveAction::Pan));
    }
}
