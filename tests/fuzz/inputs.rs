//! The input kinds: each one's corpus, from the sample files and short delves of the crypt, and
//! how an input of it is read (and, where it reads, played).

use std::path::Path;
use std::sync::OnceLock;

use delve_ground::level::{Level, LevelText};
use delve_ground::party_policy::PartyPolicy;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Level,
    Script,
    Journal,
    Save,
    Expect,
    LabRecords,
    Uvtt,
    Tmx,
}

/// The rounds an input that reads is played for.
const ROUNDS: u64 = 12;

pub const SCRIPT: &str = r#"// A script of commands, one of each kind a player gives.
[
    (round: 0, command: Move(who: "Brannoc", to: (6, 2), pace: Running)),
    (round: 1, command: LightUp(who: "Aldric")),
    (round: 2, command: Search(who: "Sera")),
    (round: 3, command: OpenDoor(who: "Brannoc", at: (7, 2))),
    (round: 4, command: MoveParty(party: "party", to: (9, 3))),
    (round: 5, command: Jump(who: "Sera", to: (9, 2), from: (7, 2), running: true)),
    (round: 6, command: SetHitPoints(who: "Mirela", hit_points: 3)),
    (round: 7, command: Autonomy(party: "party", policy: (turn_limit: 9, jump_odds: 0.5))),
    (round: 8, command: Rest(who: "Mirela")),
]
"#;

fn crypt() -> &'static Level {
    static CRYPT: OnceLock<Level> = OnceLock::new();
    CRYPT.get_or_init(|| {
        delve_ground::level::load_level_file(Path::new("levels/crypt.ron"))
            .expect("the crypt loads")
            .level
    })
}

fn files(dir: &str, keep: impl Fn(&str) -> bool) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && keep(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// A delve of the crypt under the policy, `rounds` long.
fn delve(rounds: u64) -> bevy::prelude::App {
    delve_play::sim::play_autonomous(crypt(), 4, &PartyPolicy::default(), &[], rounds)
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Level => "level",
            Kind::Script => "script",
            Kind::Journal => "journal",
            Kind::Save => "save",
            Kind::Expect => "expect",
            Kind::LabRecords => "runs",
            Kind::Uvtt => "uvtt",
            Kind::Tmx => "tmx",
        }
    }

    /// The inputs mutated.
    pub fn corpus(self) -> Vec<Vec<u8>> {
        match self {
            Kind::Level => {
                let mut all = files("levels", |n| n.ends_with(".ron"));
                all.extend(files("levels/gym", |n| !n.contains(".expect.")));
                all
            }
            Kind::Script => vec![SCRIPT.as_bytes().to_vec()],
            Kind::Journal => vec![delve_play::sim::journal_script(delve(80).world()).into_bytes()],
            Kind::Save => {
                let text = LevelText::read(Path::new("levels/crypt.ron")).unwrap();
                vec![
                    delve_play::save::Save::of(delve(30).world(), &text)
                        .to_text()
                        .into_bytes(),
                ]
            }
            Kind::Expect => files("levels/gym", |n| n.starts_with("climbers.expect")),
            Kind::LabRecords => {
                let plan = delve::lab::LabPlan {
                    level: crypt().clone(),
                    policy: PartyPolicy::default(),
                    seed: 1,
                    runs: 2,
                    jobs: 1,
                };
                let result = delve::lab::run_lab(&plan, |_| {}).unwrap();
                vec![delve::lab::runs_jsonl(&result.records).into_bytes()]
            }
            Kind::Uvtt => files("tests/maps", |n| n.ends_with("vtt")),
            Kind::Tmx => files("tests/maps", |n| n.ends_with(".tmx")),
        }
    }
}

/// Reads an input of `kind` (through a file in `scratch` where the reader reads files), and
/// plays what reads; `Err` is an error that names no place.
pub fn feed(kind: Kind, input: &[u8], scratch: &Path) -> Result<(), String> {
    let text = || String::from_utf8_lossy(input).into_owned();
    match kind {
        Kind::Level => {
            let file = scratch.join("level.ron");
            std::fs::write(&file, input).unwrap();
            let read = LevelText::read(&file).and_then(|t| t.load());
            match read {
                Err(problems) => placed(problems.0.iter().map(|d| d.line), &problems),
                Ok(loaded) => {
                    let _ = delve::lint::lint(&loaded.level, &text());
                    let policy = PartyPolicy::default();
                    let _ =
                        delve_play::sim::play_autonomous(&loaded.level, 1, &policy, &[], ROUNDS);
                    Ok(())
                }
            }
        }
        Kind::Script | Kind::Journal => match delve_play::sim::JournalFile::from_text(&text()) {
            Err(e) => placed([e.span.start.line], &e),
            Ok(journal) => {
                let _ = delve_play::sim::play(crypt(), 1, &journal.commands, ROUNDS);
                Ok(())
            }
        },
        Kind::Save => match delve_play::save::Save::from_text(&text(), "fuzz.save") {
            Err(e) => named(&e.to_string(), "fuzz.save"),
            Ok(save) => {
                if let Ok(level) = save.load_level() {
                    let journal = delve_rules::command::Journal(save.journal.clone());
                    let _ = delve_play::sim::replay(
                        &level,
                        save.seed,
                        &journal,
                        save.rounds.min(ROUNDS),
                    );
                }
                Ok(())
            }
        },
        Kind::Expect => {
            let level = delve_ground::level::load_level_file(Path::new("levels/gym/climbers.ron"))
                .unwrap()
                .level;
            match delve::lab::expect::parse(&text(), "fuzz.expect", &level) {
                Err(e) => named(&e, "fuzz.expect"),
                Ok(_) => Ok(()),
            }
        }
        Kind::LabRecords => match delve::lab::read_runs_jsonl(&text()) {
            Err(e) => named(&e, "line "),
            Ok(records) => {
                let plan = delve::lab::LabPlan {
                    level: crypt().clone(),
                    policy: PartyPolicy::default(),
                    seed: 1,
                    runs: records.len() as u64,
                    jobs: 1,
                };
                delve::lab::compare::compare((&plan, &records), (&plan, &records));
                Ok(())
            }
        },
        Kind::Uvtt | Kind::Tmx => {
            let map = scratch.join(if kind == Kind::Uvtt {
                "map.dd2vtt"
            } else {
                "map.tmx"
            });
            std::fs::write(&map, input).unwrap();
            if kind == Kind::Tmx {
                std::fs::copy("tests/maps/delve.tsx", scratch.join("delve.tsx")).unwrap();
            }
            // A fresh folder for each: what an earlier input wrote is no concern of this one.
            let _ = std::fs::remove_dir_all(scratch.join("out"));
            let out = scratch.join("out").join("level.ron");
            match delve::import::import(&map, &out, delve::import::ImportOptions::default()) {
                Err(e) => named(&e.to_string(), &map.display().to_string()),
                Ok(_) => Ok(()),
            }
        }
    }
}

/// Every line given is a line (from 1).
fn placed(
    lines: impl IntoIterator<Item = usize>,
    what: &impl std::fmt::Display,
) -> Result<(), String> {
    match lines.into_iter().all(|l| l >= 1) {
        true => Ok(()),
        false => Err(format!("at no line: {what}")),
    }
}

/// The error starts by naming its file (or its line).
fn named(error: &str, name: &str) -> Result<(), String> {
    match error.starts_with(name) {
        true => Ok(()),
        false => Err(format!("does not name {name}: {error}")),
    }
}
