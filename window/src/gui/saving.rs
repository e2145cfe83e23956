//! Save, load, undo and redo in the window, and an autosave every turn (`delve_play::save`): Ctrl+S
//! saves, Ctrl+O loads (a second Ctrl+O loads a save whose level file has changed since, as it
//! was saved), Ctrl+Z takes back a round, Ctrl+Shift+Z a turn, Ctrl+Y gives back a round.

use delve_ground::level::Level;
use delve_play::keyframe::{History, Keyframes};
use delve_play::save::SaveError;
use delve_rules::creature::CreatureIndex;

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::state::{JournalFile, PlayRounds, Selected, ShownLevel, Tell};
use delve_ground::level::LevelText;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_play::save::{Save, Step};

/// Where the window saves and autosaves.
#[derive(Resource, Clone, Debug)]
pub struct SaveFiles {
    /// Where Ctrl+S writes and Ctrl+O reads.
    pub file: PathBuf,
    /// Where the autosaves go; none, no autosaves.
    pub autosave_dir: Option<PathBuf>,
    /// A save whose level file has changed since, told once: a second Ctrl+O loads it.
    pub told_changed: Option<PathBuf>,
    /// The turn last autosaved (or the turn the delve was at when the window opened).
    pub autosaved_turn: u64,
}

impl SaveFiles {
    /// `file` or `<data dir>/delve/saves/<level>.save.ron`; `autosave_dir` or
    /// `<data dir>/delve/autosave/<level>/`.
    pub fn new(
        file: Option<PathBuf>,
        autosave_dir: Option<PathBuf>,
        level: &LevelText,
        world: &World,
    ) -> Self {
        let stem = Path::new(&level.file)
            .file_stem()
            .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
        let data = dirs::data_dir().map(|d| d.join("delve"));
        let file = file
            .or_else(|| {
                data.as_ref()
                    .map(|d| d.join("saves").join(format!("{stem}.save.ron")))
            })
            .unwrap_or_else(|| PathBuf::from(format!("{stem}.save.ron")));
        let autosave_dir = autosave_dir.or_else(|| data.map(|d| d.join("autosave").join(&stem)));
        Self {
            file,
            autosave_dir,
            told_changed: None,
            autosaved_turn: world.resource::<Clock>().rounds / ROUNDS_PER_TURN,
        }
    }
}

pub struct SavingPlugin;

impl Plugin for SavingPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (saving, autosave).chain().after(PlayRounds));
    }
}

/// What the keys asked for this frame.
fn asked(world: &mut World) -> Option<Asked> {
    let mut q = world.query::<&ActionState<DelveAction>>();
    let actions = q.iter(world).next()?;
    [
        (DelveAction::Save, Asked::Save),
        (DelveAction::Load, Asked::Load),
        (DelveAction::UndoTurn, Asked::Undo(Step::Turn)),
        (DelveAction::Undo, Asked::Undo(Step::Round)),
        (DelveAction::Redo, Asked::Redo),
    ]
    .into_iter()
    .find(|(a, _)| actions.just_pressed(a))
    .map(|(_, asked)| asked)
}

#[derive(Clone, Copy, Debug)]
enum Asked {
    Save,
    Load,
    Undo(Step),
    Redo,
}

fn saving(world: &mut World) {
    let Some(asked) = asked(world) else {
        return;
    };
    let notice = match asked {
        Asked::Save => save_now(world),
        Asked::Load => {
            let path = world.resource::<SaveFiles>().file.clone();
            load(world, &path)
        }
        Asked::Undo(step) => take_back(world, |w, l| delve_play::save::undo(w, l, step), "back to"),
        Asked::Redo => take_back(
            world,
            |w, l| delve_play::save::redo(w, l, Step::Round),
            "on to",
        ),
    };
    world.write_message(Tell(notice));
}

/// Ctrl+S: the delve to the save file.
fn save_now(world: &mut World) -> String {
    let path = world.resource::<SaveFiles>().file.clone();
    let save = Save::of(world, &world.resource::<ShownLevel>().text);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return format!("cannot save: cannot make {}: {e}", dir.display());
    }
    match save.write(&path) {
        Ok(()) => format!(
            "saved at round {} to {} (Ctrl+O loads it; delve --load FILE goes on from it)",
            save.rounds,
            path.display()
        ),
        Err(e) => e.to_string(),
    }
}

/// Ctrl+O: goes on from the save at `path`. One whose level file has changed since is told once
/// and loaded (as it was saved) on a second Ctrl+O. A bad save changes nothing.
pub fn load(world: &mut World, path: &Path) -> String {
    let save = match Save::read(path) {
        Ok(save) => save,
        Err(e) => return e.to_string(),
    };
    let told = world.resource::<SaveFiles>().told_changed.as_deref() == Some(path);
    if let Some(changed) = save.level_file_changed()
        && !told
    {
        world.resource_mut::<SaveFiles>().told_changed = Some(path.to_owned());
        return format!("{changed}: Ctrl+O again loads it as it was saved");
    }
    let level = match save.load_level() {
        Ok(level) => level,
        Err(e) => return e.to_string(),
    };
    let selected = selected_name(world);
    let went = save.restore_into(world, &level);
    let same_level = world.resource::<ShownLevel>().text == save.level;
    {
        let mut shown = world.resource_mut::<ShownLevel>();
        shown.path = Some(PathBuf::from(&save.level.file));
        shown.seed = save.seed;
        shown.level = level;
        shown.text = save.level.clone();
        shown.problems = None;
        shown.redraw = true;
        shown.keep_view = same_level;
    }
    reselect(world, selected);
    let mut files = world.resource_mut::<SaveFiles>();
    files.told_changed = None;
    files.autosaved_turn = save.rounds / ROUNDS_PER_TURN;
    let loaded = format!(
        "loaded {}: {} at round {}",
        path.display(),
        save.level.file,
        save.rounds
    );
    match went {
        Some(went) => format!("{loaded}, but {went}"),
        None => loaded,
    }
}

/// Undo or redo, keeping the view and the selection.
fn take_back(
    world: &mut World,
    replay: impl FnOnce(&mut World, &Level) -> Option<u64>,
    went: &str,
) -> String {
    let level = world.resource::<ShownLevel>().level.clone();
    let selected = selected_name(world);
    let Some(round) = replay(world, &level) else {
        return if went == "back to" {
            "nothing to take back: the delve is at its start".into()
        } else {
            "nothing to give back: no undo since the last command".into()
        };
    };
    {
        let mut shown = world.resource_mut::<ShownLevel>();
        shown.redraw = true;
        shown.keep_view = true;
    }
    reselect(world, selected);
    let can_redo = world
        .get_resource::<History>()
        .is_some_and(|h| h.can_redo());
    format!(
        "{went} round {round}{}",
        if can_redo {
            " (Ctrl+Y gives it back)"
        } else {
            ""
        }
    )
}

fn selected_name(world: &World) -> Option<String> {
    let e = world.resource::<Selected>().0?;
    world.get::<Name>(e).map(|n| n.to_string())
}

/// The creature of that name in the world as it is now is the one selected.
fn reselect(world: &mut World, name: Option<String>) {
    let e = name.and_then(|n| world.resource::<CreatureIndex>().0.get(&n).copied());
    world.resource_mut::<Selected>().0 = e;
}

/// Every turn played, a save to the next of the rotating autosaves.
fn autosave(world: &mut World) {
    let turn = world.resource::<Clock>().rounds / ROUNDS_PER_TURN;
    let files = world.resource::<SaveFiles>();
    if turn <= files.autosaved_turn {
        return;
    }
    let Some(dir) = files.autosave_dir.clone() else {
        return;
    };
    world.resource_mut::<SaveFiles>().autosaved_turn = turn;
    let path = delve_play::save::autosave_path(&dir, turn);
    let save = Save::of(world, &world.resource::<ShownLevel>().text);
    let written = std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot make {}: {e}", dir.display()))
        .and_then(|()| save.write(&path).map_err(|e| e.to_string()));
    if let Err(e) = written {
        world.write_message(Tell(format!("autosave failed: {e}")));
    }
}

/// Why a file was not written, without the save's words (it may be a journal).
fn why_unwritten(e: SaveError) -> String {
    match e {
        SaveError::Unwritable { error, .. } => error,
        other => other.to_string(),
    }
}

/// With `--journal FILE`, the journal of the line the delve is on is written to FILE (after
/// every round played), headed by the command line that replays it.
pub fn write_journal(world: &mut World) {
    let file = world
        .get_resource::<JournalFile>()
        .and_then(|f| f.0.clone());
    if let Some(path) = file
        && let Err(e) =
            delve_play::save::write_atomic(&path, delve_play::sim::journal_script(world).as_bytes())
    {
        // (Written whole or not at all: the journal that was there is kept.)
        world.write_message(Tell(format!(
            "cannot write the journal to {}: {}",
            path.display(),
            why_unwritten(e)
        )));
    }
}

/// A fork of the timeline's line since `before` forks were known: with `--journal FILE`, the
/// journal of the line left is written beside it (`FILE.left-at-round-R.ron`) and told.
pub fn keep_the_line_left(world: &mut World, before: usize) {
    let Some(frames) = world.get_resource::<Keyframes>() else {
        return;
    };
    let Some((at, left)) = frames.left().get(before).cloned() else {
        return;
    };
    let file = world
        .get_resource::<JournalFile>()
        .and_then(|f| f.0.clone());
    let notice = match file {
        Some(path) => {
            let kept = path.with_extension(format!("left-at-round-{at}.ron"));
            let journal = delve_play::sim::JournalFile {
                commands: left,
                ..Default::default()
            };
            let pretty = ron::ser::PrettyConfig::default()
                .extensions(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
            let text = ron::ser::to_string_pretty(&journal, pretty).expect("commands serialize");
            match delve_play::save::write_atomic(
                &kept,
                format!("// The journal of the line left at round {at}.\n{text}\n").as_bytes(),
            ) {
                Ok(()) => format!(
                    "the delve forks at round {at}: the line left is kept in {}",
                    kept.display()
                ),
                Err(e) => format!(
                    "cannot keep the line left in {}: {}",
                    kept.display(),
                    why_unwritten(e)
                ),
            }
        }
        None => format!(
            "the delve forks at round {at}: the line left is kept (Ctrl+Z and the timeline go back on the new one)"
        ),
    };
    world.write_message(Tell(notice));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::input::tests::{app, press};

    /// Presses Ctrl (and Shift) with a key, and lets go.
    fn chord(app: &mut App, shift: bool, key: KeyCode) {
        KeyCode::ControlLeft.press(app.world_mut());
        if shift {
            KeyCode::ShiftLeft.press(app.world_mut());
        }
        key.press(app.world_mut());
        app.update();
        for k in [key, KeyCode::ShiftLeft, KeyCode::ControlLeft] {
            k.release(app.world_mut());
        }
        app.update();
    }

    fn rounds(app: &App) -> u64 {
        app.world().resource::<Clock>().rounds
    }

    fn saving_app(name: &str) -> (App, PathBuf) {
        let dir = std::env::temp_dir().join(format!("delve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut app = app();
        let files = SaveFiles::new(
            Some(dir.join("crypt.save.ron")),
            Some(dir.join("autosave")),
            &app.world().resource::<ShownLevel>().text.clone(),
            app.world(),
        );
        app.insert_resource(files).add_plugins(SavingPlugin);
        (app, dir)
    }

    /// Ctrl+S saves; the delve goes on; Ctrl+O goes back to the save, the same log as then.
    #[test]
    fn ctrl_s_saves_and_ctrl_o_loads() {
        let (mut app, dir) = saving_app("window-save");
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::Space);
        let then = app
            .world()
            .resource::<delve_ground::log::EventLog>()
            .to_text();
        chord(&mut app, false, KeyCode::KeyS);
        assert!(dir.join("crypt.save.ron").exists());
        press(&mut app, KeyCode::KeyT);
        assert_eq!(rounds(&app), 21);
        chord(&mut app, false, KeyCode::KeyO);
        assert_eq!(rounds(&app), 11);
        assert_eq!(
            app.world()
                .resource::<delve_ground::log::EventLog>()
                .to_text(),
            then
        );
        assert!(app.world().resource::<ShownLevel>().keep_view);
    }

    /// A quick Ctrl+S (S pressed and let go within one frame, Ctrl held) saves, and does not
    /// also order the selected creature to search (S alone): the longest chord wins.
    #[test]
    fn a_tap_of_ctrl_s_saves_and_does_not_search() {
        let (mut app, dir) = saving_app("window-tap-save");
        app.add_plugins(crate::gui::actions::ActionsPlugin);
        press(&mut app, KeyCode::Tab);
        assert!(
            app.world()
                .resource::<crate::gui::state::Selected>()
                .0
                .is_some()
        );
        KeyCode::ControlLeft.press(app.world_mut());
        app.update();
        KeyCode::KeyS.press(app.world_mut());
        KeyCode::KeyS.release(app.world_mut());
        app.update();
        KeyCode::ControlLeft.release(app.world_mut());
        app.update();
        assert!(dir.join("crypt.save.ron").exists(), "saved");
        press(&mut app, KeyCode::Space);
        let log = app
            .world()
            .resource::<delve_ground::log::EventLog>()
            .to_text();
        assert!(!log.contains("search"), "{log}");
    }

    /// Ctrl+Z takes back a round, Ctrl+Shift+Z a turn, Ctrl+Y gives a round back.
    #[test]
    fn ctrl_z_undoes_and_ctrl_y_redoes() {
        let (mut app, _) = saving_app("window-undo");
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::KeyT);
        press(&mut app, KeyCode::Space);
        assert_eq!(rounds(&app), 21);
        chord(&mut app, false, KeyCode::KeyZ);
        assert_eq!(rounds(&app), 20);
        chord(&mut app, true, KeyCode::KeyZ);
        assert_eq!(rounds(&app), 10, "the turn before, from a turn's start");
        chord(&mut app, false, KeyCode::KeyY);
        assert_eq!(rounds(&app), 11);
    }

    /// Each turn played, an autosave; the fourth turn's replaces the first's.
    #[test]
    fn a_turn_played_is_autosaved() {
        let (mut app, dir) = saving_app("window-autosave");
        for _ in 0..4 {
            press(&mut app, KeyCode::KeyT);
        }
        let mut kept: Vec<u64> = std::fs::read_dir(dir.join("autosave"))
            .unwrap()
            .map(|f| Save::read(&f.unwrap().path()).unwrap().rounds)
            .collect();
        kept.sort();
        assert_eq!(kept, vec![20, 30, 40]);
    }

    /// A save cut short changes nothing and says why.
    #[test]
    fn a_bad_save_changes_nothing() {
        let (mut app, dir) = saving_app("window-bad-save");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("crypt.save.ron"), "(version: 1, fingerprint: \"ab").unwrap();
        press(&mut app, KeyCode::KeyT);
        chord(&mut app, false, KeyCode::KeyO);
        assert_eq!(rounds(&app), 10);
        assert!(
            app.world()
                .resource::<crate::gui::state::Notice>()
                .0
                .contains("cut short"),
            "{}",
            app.world().resource::<crate::gui::state::Notice>().0
        );
    }
}
