//! `delve sim`: a delve played headless, its log printed (or written as JSON lines), its
//! journal and save written on request.

use delve_ground::level::LevelText;
use delve_ground::log::EventLog;
use delve_minds::policy::party::PolicyEvent;
use delve_play::save::{Save, SaveError};
use delve_play::sim::JournalFile;
use delve_rules::rules::modules::RuleModule;

use std::path::PathBuf;
use std::process::ExitCode;

use delve_play::sim;

use crate::{has_party, load, load_journal, load_policy};

/// What `delve sim` is asked for.
#[derive(clap::Args)]
pub struct SimArgs {
    pub level: PathBuf,
    /// Seed for the dice: the same level, seed and commands give the same log.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rounds to play (10 rounds make a turn, at most 60,000 rounds); with --auto, at most
    /// this many (the delve ends by itself, at the latest at the policy's turn limit).
    #[arg(
        long,
        required_unless_present_any = ["auto", "policy", "why"],
        value_parser = clap::value_parser!(u64).range(0..=delve_ground::time::MAX_ROUNDS + 1)
    )]
    pub rounds: Option<u64>,
    /// Hand the party to its policy: it delves by itself until the delve ends.
    #[arg(long)]
    pub auto: bool,
    /// The party policy: a settings file (RON) or a persona's name (careful, bold, thorough,
    /// hasty); the careful persona, the defaults, when left out. Implies --auto.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Also write the journal (the commands given, which replay the delve) to this file.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Also save the delve where it ended, for the window to go on from (`delve --load`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// A RON script of commands: [(round: 0, command: Move(who: "Sera", to: (5, 3))), …]
    #[arg(long, value_name = "FILE")]
    pub commands: Option<PathBuf>,
    /// Also write the log as JSON lines to this file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub log: Option<PathBuf>,
    /// Print the log as JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only the party's decisions and why: the plans its planner weighed with their odds,
    /// the tactic it took, the foes it judged, the delve's end. Implies --auto.
    #[arg(long)]
    pub why: bool,
    /// Play without an optional rule module, whatever the level file says (repeatable).
    #[arg(long, value_enum, value_name = "MODULE")]
    pub without: Vec<RuleModule>,
}

pub fn run_sim(args: SimArgs) -> ExitCode {
    let SimArgs {
        level,
        seed,
        rounds,
        auto,
        policy,
        journal,
        save,
        commands,
        log,
        json,
        why,
        without,
    } = args;
    let (path, auto) = (level.as_path(), auto || why || policy.is_some());
    let (policy, journal, save) = (policy.as_deref(), journal.as_deref(), save.as_deref());
    let (commands, log_file) = (commands.as_deref(), log.as_deref());
    let without = without.as_slice();
    // A journal written over the script it replays would lose it to a replay cut short (one
    // that went another way stops there).
    if let (Some(c), Some(j)) = (commands, journal)
        && delve_ground::files::same_file(c, j)
    {
        eprintln!(
            "error: --journal {} is the --commands file: a replay cut short would write over \
             it; write the journal to another file",
            j.display()
        );
        return ExitCode::from(2);
    }
    let Some(policy) = load_policy(policy) else {
        return ExitCode::from(1);
    };
    // With --auto, the turn limit ends the delve; one more round logs the end.
    let rounds = rounds.unwrap_or(policy.turn_limit * delve_ground::time::ROUNDS_PER_TURN + 1);
    let Some(mut loaded) = load(path) else {
        return ExitCode::from(1);
    };
    for module in without {
        module.set_in(&mut loaded.level.modules, false);
    }
    if auto && !has_party(path, &loaded.level) {
        return ExitCode::from(2);
    }
    let JournalFile {
        commands: script,
        checks,
        ..
    } = match commands.map(load_journal).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(problems) => {
            eprint!("{problems}");
            return ExitCode::from(1);
        }
    };
    for c in script.iter().filter(|c| c.round >= rounds) {
        eprintln!(
            "warning: the command for round {} ({}) comes after the last round played ({})",
            c.round,
            c.command,
            rounds.saturating_sub(1)
        );
    }
    let playing = sim::Playing {
        policy: auto.then_some(&policy),
        script: &script,
        checks: &checks,
        // A journal written keeps the check of every turn.
        keyframes: journal.is_some(),
        go_on: false,
    };
    let (app, went) = playing.play(&loaded.level, seed, rounds, |_| {});
    let world = app.world();
    if let Some(file) = journal
        && let Err(e) = write_whole(file, sim::journal_script(world).as_bytes(), "journal")
    {
        eprintln!("{e}");
        return ExitCode::from(1);
    }
    if let Some(file) = save {
        let text = match LevelText::read(path) {
            Ok(text) => text,
            Err(problems) => {
                eprint!("{problems}");
                return ExitCode::from(1);
            }
        };
        replacing(file, "save");
        if let Err(e) = Save::of(world, &text).write(file) {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    }
    let log = world.resource::<EventLog>();
    let decisions = why.then(|| decisions_only(log));
    let shown = decisions.as_ref().unwrap_or(log);
    if json {
        print!("{}", shown.to_json_lines());
    } else {
        print!("{}", shown.to_text());
    }
    if let Some(file) = log_file
        && let Err(e) = write_whole(file, log.to_json_lines().as_bytes(), "log")
    {
        eprintln!("{e}");
        return ExitCode::from(1);
    }
    went.map_or(ExitCode::SUCCESS, |went| went_another_way(commands, &went))
}

/// The journal's checks: the replay stopped where it went another way.
fn went_another_way(commands: Option<&std::path::Path>, went: &dyn std::fmt::Display) -> ExitCode {
    eprintln!(
        "{}: {went} (the replay stopped there: was the journal edited, or the level or this build changed?)",
        commands.map_or_else(String::new, |c| c.display().to_string())
    );
    ExitCode::from(3)
}

/// The log's entries of the party's decisions and why (`--why`).
fn decisions_only(log: &EventLog) -> EventLog {
    EventLog::from_entries(
        log.entries()
            .iter()
            .filter(|e| e.get::<PolicyEvent>().is_some())
            .cloned()
            .collect(),
    )
}

/// Writes `bytes` to `file` whole or not at all (a full disk leaves the old file, not half a
/// new one): `what` names it in the error.
fn write_whole(file: &std::path::Path, bytes: &[u8], what: &str) -> Result<(), String> {
    replacing(file, what);
    delve_play::save::write_atomic(file, bytes).map_err(|e| match e {
        SaveError::Unwritable { path, error } => format!(
            "{path}: cannot write the {what}: {error} (the {what} that was there, if any, is kept)"
        ),
        other => other.to_string(),
    })
}

/// Says so when an output replaces a file that was there: nothing is written over silently.
fn replacing(file: &std::path::Path, what: &str) {
    if file.exists() {
        eprintln!(
            "note: the {what} replaces the file that was at {}",
            file.display()
        );
    }
}
