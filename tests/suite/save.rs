//! Save, load and undo: a save replays to the same world and goes on with the same log; a save
//! cut short, of another version, or of a level changed since each says so; a write that fails
//! midway keeps the save that was there; undo and redo replay the journal.

use crate::common::crypt;
use bevy::prelude::*;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;
use delve_play::save::{Save, SaveError, Step, redo, undo, write_atomic, write_atomic_with};
use delve_play::sim;
use delve_rules::command::acts::{LightUp, Move, OpenDoor};
use delve_rules::command::{Journal, ScriptedCommand};
use delve_rules::creature::{HitPoints, Position};
use delve_rules::rules::movement::Pace;

/// The crypt's fighter walks to the pillared hall's door, the mage lights his lantern, the
/// fighter opens the door: commands at rounds 0, 3 and 12.
fn script() -> Vec<ScriptedCommand> {
    let at = |round: u64, command: delve_rules::command::Command| ScriptedCommand {
        round,
        command,
        between_rounds: false,
    };
    vec![
        at(
            0,
            Move {
                who: "Brannoc".into(),
                to: (6, 2),
                pace: Pace::Exploration,
            }
            .into(),
        ),
        at(
            3,
            LightUp {
                who: "Aldric".into(),
            }
            .into(),
        ),
        at(
            12,
            OpenDoor {
                who: "Brannoc".into(),
                at: (7, 2),
            }
            .into(),
        ),
    ]
}

/// Where every creature stands and its hit points, and the whole log: the world as a test
/// compares it.
fn state(world: &mut World) -> (String, Vec<(String, IVec2, i32)>, u64) {
    let mut creatures: Vec<(String, IVec2, i32)> = world
        .query::<(&Name, &Position, &HitPoints)>()
        .iter(world)
        .map(|(n, p, hp)| (n.to_string(), IVec2::new(p.0.x, p.0.y), hp.current))
        .collect();
    creatures.sort_by(|a, b| a.0.cmp(&b.0));
    (
        world.resource::<EventLog>().to_text(),
        creatures,
        world.resource::<Clock>().rounds,
    )
}

fn played(rounds: u64) -> App {
    let level = crypt().load().unwrap().level;
    sim::play(&level, 7, &script(), rounds)
}

/// Saved after 20 rounds and loaded into a fresh world: the same world and log; both played 15
/// rounds on go on with the same log.
#[test]
fn a_save_loads_to_the_same_world_and_goes_on_the_same() {
    let mut app = played(20);
    let save = Save::of(app.world(), &crypt());
    assert_eq!(save.rounds, 20);
    assert_eq!(save.journal.len(), 3);
    let text = save.to_text();
    let read = Save::from_text(&text, "crypt.save").unwrap();
    assert_eq!(read, save);
    let level = read.load_level().unwrap();
    let mut loaded = sim::sim_app(&level, 99);
    read.restore_into(loaded.world_mut(), &level);
    assert_eq!(state(loaded.world_mut()), state(app.world_mut()));
    for world in [app.world_mut(), loaded.world_mut()] {
        sim::run_rounds(world, 15);
    }
    assert_eq!(state(loaded.world_mut()), state(app.world_mut()));
}

/// A save cut short, of another version, or not a save at all, each says so (with where) and
/// gives no save.
#[test]
fn bad_saves_say_what_is_wrong() {
    let text = Save::of(played(5).world(), &crypt()).to_text();
    // Cut anywhere: in the journal, in the level's text, in its last bracket.
    for cut in [
        text.len() / 5,
        text.len() / 2,
        text.len() * 9 / 10,
        text.len() - 3,
    ] {
        let cut = text.floor_char_boundary(cut);
        let read = Save::from_text(&text[..cut], "cut.save");
        assert!(
            matches!(read, Err(SaveError::CutShort { .. })),
            "cut at {cut}: {read:?}"
        );
    }
    let newer = text.replacen("version: 1,", "version: 2,", 1);
    assert_eq!(
        Save::from_text(&newer, "newer.save"),
        Err(SaveError::OtherVersion {
            path: "newer.save".into(),
            found: 2,
            reads: 1
        })
    );
    assert!(matches!(
        Save::from_text("(name: \"a level, not a save\")", "level.ron"),
        Err(SaveError::NotASave { line: 1, .. })
    ));
    assert!(matches!(
        Save::read(std::path::Path::new("no/such/file.save")),
        Err(SaveError::Unreadable { .. })
    ));
}

/// A save that asks for a billion rounds would replay for ever: its rounds are refused at
/// their line with the range, as is a command's round past the longest delve in a script.
#[test]
fn rounds_past_the_longest_delve_are_refused_at_their_line() {
    let text = Save::of(played(5).world(), &crypt()).to_text();
    let line = text.lines().position(|l| l.trim() == "rounds: 5,").unwrap() + 1;
    let endless = text.replacen("rounds: 5,", "rounds: 1000000000,", 1);
    match Save::from_text(&endless, "endless.save") {
        Err(SaveError::NotASave {
            line: at, message, ..
        }) => {
            assert_eq!(at, line);
            assert!(message.contains("0 to 60000"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // A command's square at the edge of its type overflowed a rule's arithmetic on replay.
    let text = Save::of(played(5).world(), &crypt()).to_text();
    let at = text.find("to: (").expect("the walk's square") + "to: (".len();
    let wild = format!("{}-2147483648{}", &text[..at], &text[at + 1..]);
    match Save::from_text(&wild, "wild.save") {
        Err(SaveError::NotASave { line, message, .. }) => {
            assert_eq!(line, text[..at].lines().count());
            assert!(
                message.contains("-2147483648 is out of bounds"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    let script = "[(round: 1000000000, command: Wait(who: \"Sera\"))]";
    let e = sim::JournalFile::from_text(script).unwrap_err();
    assert_eq!(e.span.start.line, 1);
    assert!(e.code.to_string().contains("0 to 60000"), "{}", e.code);
    let journal = "(rounds: Some(99999999999), commands: [])";
    let e = sim::JournalFile::from_text(journal).unwrap_err();
    assert!(
        e.code.to_string().contains("past the longest delve"),
        "{}",
        e.code
    );
}

/// A broken level kept in a save is named as the save's copy: its lines are the copy's, not
/// the level file's on disk.
#[test]
fn a_broken_level_in_a_save_is_named_as_the_saves_copy() {
    let mut save = Save::of(played(2).world(), &crypt());
    save.level.text = save.level.text.replacen("name:", "nmae:", 1);
    let Err(SaveError::BrokenLevel(why)) = save.load_level() else {
        panic!("the broken level loaded");
    };
    assert!(
        why.contains(&format!("{} (the copy kept in the save):", save.level.file)),
        "{why}"
    );
}

/// The rule modules the delve ran with (the command line's `--without combat`) are kept.
#[test]
fn a_save_keeps_the_rule_modules() {
    let mut level = crypt().load().unwrap().level;
    level.modules.combat = false;
    let app = sim::play(&level, 7, &script(), 5);
    let save = Save::of(app.world(), &crypt());
    assert!(!save.modules.combat && save.modules.situational_penalties);
    let read = Save::from_text(&save.to_text(), "s").unwrap();
    assert!(!read.load_level().unwrap().modules.combat);
}

/// The level file changed since the save: the save tells (and still holds the level as it was).
#[test]
fn a_changed_level_is_told() {
    let save = Save::of(played(3).world(), &crypt());
    assert!(!save.level_changed(&crypt()));
    let mut edited = crypt();
    edited.text = edited
        .text
        .replacen("Crypt of the Ash Kings", "Crypt of the Ash Queens", 1);
    assert!(save.level_changed(&edited));
    assert!(save.load_level().is_ok(), "loads as it was saved");
}

/// A write that fails midway (the disk full, say) leaves the save that was there as it was, and
/// no temporary file beside it.
#[test]
fn a_failed_save_keeps_the_previous_one() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("save-atomic");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("delve.save");
    let first = Save::of(played(5).world(), &crypt());
    first.write(&path).unwrap();
    let before = std::fs::read(&path).unwrap();

    /// Takes 100 bytes, then the disk is full.
    struct FailsMidway(std::fs::File, usize);
    impl std::io::Write for FailsMidway {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.1 >= 100 {
                return Err(std::io::Error::other("no space left on device"));
            }
            let n = buf.len().min(100 - self.1);
            self.1 += n;
            self.0.write(&buf[..n])
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.0.flush()
        }
    }
    let second = Save::of(played(9).world(), &crypt()).to_text();
    let failed = write_atomic_with(&path, second.as_bytes(), |p| {
        Ok(FailsMidway(std::fs::File::create(p)?, 0))
    });
    assert!(
        matches!(failed, Err(SaveError::Unwritable { .. })),
        "{failed:?}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the first save is intact"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
    assert_eq!(Save::read(&path).unwrap(), first);
    // A write that succeeds replaces it.
    write_atomic(&path, second.as_bytes()).unwrap();
    assert_eq!(Save::read(&path).unwrap().rounds, 9);
}

/// Undo goes back a round, or to the turn's start, as if the delve had been played only so
/// far, the commands given since taken back; redo gives them back up to where the first undo was
/// made; a command given after an undo ends redo.
#[test]
fn undo_and_redo_replay_the_journal() {
    let level = crypt().load().unwrap().level;
    let mut app = played(25);
    let world = app.world_mut();
    assert_eq!(undo(world, &level, Step::Round), Some(24));
    assert_eq!(state(world), state(played(24).world_mut()));
    assert_eq!(undo(world, &level, Step::Turn), Some(20));
    assert_eq!(state(world), state(played(20).world_mut()));
    assert_eq!(undo(world, &level, Step::Turn), Some(10));
    // Round 12's command is taken back with the rounds.
    assert_eq!(world.resource::<Journal>().0.len(), 2);
    assert_eq!(redo(world, &level, Step::Turn), Some(20));
    assert_eq!(world.resource::<Journal>().0.len(), 3, "given back");
    assert_eq!(redo(world, &level, Step::Round), Some(21));
    assert_eq!(
        redo(world, &level, Step::Turn),
        Some(25),
        "no further than before"
    );
    assert_eq!(state(world), state(played(25).world_mut()));
    assert_eq!(
        redo(world, &level, Step::Round),
        None,
        "nothing more to redo"
    );
    // A new command after an undo: nothing to redo.
    undo(world, &level, Step::Turn);
    sim::give(
        world,
        Move {
            who: "Sera".into(),
            to: (3, 4),
            pace: Pace::Exploration,
        },
    );
    sim::run_round(world);
    assert_eq!(redo(world, &level, Step::Round), None);
    assert_eq!(undo(world, &level, Step::Round), Some(20));
    let mut fresh = sim::sim_app(&level, 7);
    assert_eq!(
        undo(fresh.world_mut(), &level, Step::Round),
        None,
        "at the start"
    );
}
