//! `delve`: open a level in the window, check levels, run delves headless, answer a Judge's
//! questions.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use delve::command::ScriptedCommand;
use delve::grid::GridPos;
use delve::level::{self, Diagnostics, Loaded, SourcePos};
use delve::{query, sim};

#[cfg(feature = "gui")]
mod gui;

/// mimalloc: the lab's delves allocate on every thread at once, and the system allocator's
/// locks kept two cores to 1.8x one core's rate; with mimalloc they reach 2x (the core's benches/lab.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "delve",
    version,
    about = "A grid-based dungeon simulator for the dungeon-delve rules",
    long_about = "A grid-based dungeon simulator for the dungeon-delve rules.\n\n\
                  With no subcommand, opens LEVEL (or the built-in Crypt of the Ash Kings) in a window.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Level file to open in the window; the built-in crypt when left out.
    level: Option<PathBuf>,
    /// Render the level in a real window, save the image to this PNG file, and exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Seed for the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The view the window opens in: the Judge's (everything) or the party's.
    #[arg(long, value_enum, default_value_t = View::Judge)]
    view: View,
    /// The creature selected when the window opens.
    #[arg(long, value_name = "NAME")]
    select: Option<String>,
    /// Write the journal of the session to FILE after every round played: a command script
    /// that `delve sim LEVEL --seed N --rounds R --commands FILE` replays with the same log.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Replay a journal (from `delve sim --journal` or the window's `--journal`) with the same
    /// level and seed: its commands are given at their rounds as Space and T play them.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// The party policy's settings (RON) the A key hands a party to; the defaults when left out.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    #[command(flatten)]
    saves: SaveArgs,
    #[command(flatten)]
    show: ShowArgs,
}

/// How the window shows itself, for the window and for `delve play`.
#[derive(clap::Args)]
struct ShowArgs {
    /// Open with every panel closed: the map takes the whole window (the top bar opens them).
    #[arg(long)]
    no_panels: bool,
    /// Render N frames after the window has settled, print their frame times (mean, median,
    /// 95th percentile) and exit: how fast the window draws this level on this machine.
    #[arg(long, value_name = "N")]
    measure_frames: Option<u32>,
    /// Open a second window for the players (a second screen, or one the table shares): only
    /// the party's view, following the party.
    #[arg(long)]
    player_window: bool,
}

/// Saves and keys, for the window and for `delve play`.
#[derive(clap::Args)]
struct SaveArgs {
    /// Go on from a save (Ctrl+S writes one): its level, seed and journal, replayed. LEVEL is
    /// not needed; the save holds its level.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Load the save even though its level file has changed since (the level as it was saved).
    #[arg(long, requires = "load")]
    anyway: bool,
    /// Where Ctrl+S saves and Ctrl+O loads (the save given to --load, or LEVEL's name in the
    /// user's data directory, when left out).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Where the autosaves go, one every turn, the last three kept (the user's data directory when
    /// left out).
    #[arg(long, value_name = "DIR")]
    autosave: Option<PathBuf>,
    /// The keys file (RON; `<config dir>/delve/keys.ron` when left out).
    #[arg(long, value_name = "FILE")]
    keys: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum View {
    Judge,
    Party,
}

/// What `delve play` takes.
#[derive(clap::Args)]
struct PlayArgs {
    /// The level; the built-in crypt when left out (or the save's, with --load).
    level: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    saves: SaveArgs,
    #[command(flatten)]
    show: ShowArgs,
    /// The party policy's settings (RON) the A key hands the party to.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Save the window's image to this PNG file and exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a level alone: the party's view, the party under your keys, the monsters under
    /// their minds; A hands the party to its policy and takes it back. Ctrl+S saves, and
    /// `delve play --load FILE` goes on.
    Play(PlayArgs),
    /// Check level files: print every problem with file, line and column. Exits 1 if any is an
    /// error.
    Check {
        #[arg(required = true, value_name = "LEVEL")]
        levels: Vec<PathBuf>,
        /// Also report design problems (unreachable areas, keys behind their own doors, locks
        /// no one can open, factions with no enemies) as warnings, with line and column.
        #[arg(long)]
        lint: bool,
    },
    /// Run a delve headless and print its event log.
    Sim {
        level: PathBuf,
        /// Seed for the dice: the same level, seed and commands give the same log.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rounds to play (10 rounds make a turn); with --auto, at most this many (the delve
        /// ends by itself, at the latest at the policy's turn limit).
        #[arg(long, required_unless_present = "auto")]
        rounds: Option<u64>,
        /// Hand the party to its policy: it delves by itself until the delve ends.
        #[arg(long)]
        auto: bool,
        /// The party policy's settings (RON); the defaults when left out. Implies --auto.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// Also write the journal (the commands given, which replay the delve) to this file.
        #[arg(long, value_name = "FILE")]
        journal: Option<PathBuf>,
        /// Also save the delve where it ended, for the window to go on from (`delve --load`).
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// A RON script of commands: [(round: 0, command: Move(who: "Sera", to: (5, 3))), …]
        #[arg(long, value_name = "FILE")]
        commands: Option<PathBuf>,
        /// Also write the log as JSON lines to this file.
        #[arg(long, value_name = "FILE.jsonl")]
        log: Option<PathBuf>,
        /// Print the log as JSON lines instead of text.
        #[arg(long)]
        json: bool,
        /// Play without an optional rule module, whatever the level file says (repeatable).
        #[arg(long, value_enum, value_name = "MODULE")]
        without: Vec<delve::rules::modules::RuleModule>,
    },
    /// Play many autonomous delves of a level in parallel and write what came of them:
    /// `runs.jsonl` (a line a delve), pictures, `report.md` and `report.html`; or compare two
    /// labs, or merge the shards of one.
    Lab(LabArgs),
    /// Make a level of a map drawn in another tool: Universal VTT (.dd2vtt, .uvtt, .df2vtt from
    /// Dungeondraft, DungeonFog, Dungeon Alchemist): its walls, doors and lights, and its
    /// battlemap image kept beside the level (LEVEL.png).
    Import {
        map: PathBuf,
        /// The level file to write.
        #[arg(long, value_name = "LEVEL.ron")]
        out: PathBuf,
        /// How many feet a cell of the map's grid is (Universal VTT does not say).
        #[arg(long, default_value_t = 10, value_name = "FEET")]
        cell_feet: u32,
        /// Squares a side to a cell: 2 or more keeps a corridor one cell wide open between the
        /// walls drawn along its edges.
        #[arg(long, default_value_t = 2, value_name = "N")]
        squares_per_cell: u32,
    },
    /// Write a level as Universal VTT, to open in Foundry, MapTool and the others: its walls,
    /// doors and lights, and its battlemap (or the level drawn with the window's tiles).
    Export {
        level: PathBuf,
        /// The Universal VTT file to write.
        #[arg(long, value_name = "OUT.dd2vtt")]
        uvtt: PathBuf,
    },
    /// Write a new rooms-and-corridors level (RON) to start a design from.
    Generate {
        /// The level's name.
        #[arg(long, default_value = "Generated Halls")]
        name: String,
        #[arg(long, default_value_t = 64)]
        width: usize,
        #[arg(long, default_value_t = 64)]
        height: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Answer a Judge's question about a level without running a delve.
    Query {
        level: PathBuf,
        #[command(subcommand)]
        question: Question,
        /// Answer as one JSON object (stable field names; see the README).
        #[arg(long, global = true)]
        json: bool,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct LabArgs {
    #[command(subcommand)]
    action: Option<LabAction>,
    /// The level to play.
    #[arg(required = true)]
    level: Option<PathBuf>,
    /// How many delves (seeded SEED, SEED + 1, …).
    #[arg(long, default_value_t = 100)]
    runs: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The party policy's settings (RON); the defaults when left out.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Threads to play on; all the machine's cores when left out.
    #[arg(long)]
    jobs: Option<usize>,
    /// Where to write the report; `lab-LEVEL` in the current folder when left out.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only the I-th (from 0) of N slices of the seeds and write a partial result for
    /// `delve lab merge` (a scheduler's array index picks I).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Go on with a lab that was interrupted (Ctrl-C) in `--out`: the delves it kept are not
    /// played again.
    #[arg(long)]
    resume: bool,
}

#[derive(Subcommand)]
enum LabAction {
    /// Which numbers moved beyond their 95% intervals between two labs (before and after).
    Compare { before: PathBuf, after: PathBuf },
    /// Merge the partial results of a lab's shards into one report, as if played at once.
    Merge {
        #[arg(required = true, value_name = "DIR")]
        parts: Vec<PathBuf>,
        /// Where to write the report.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Subcommand)]
enum Question {
    /// Is there line of sight between two squares, and how far apart are they (5-10-5 feet)?
    Los {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        #[arg(long, value_name = "X,Y")]
        to: GridPos,
    },
    /// A creature's exploration, combat and running speeds, and why.
    Speeds {
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The light level of a square, or of the whole map as text.
    Light {
        #[arg(long, value_name = "X,Y")]
        at: Option<GridPos>,
    },
    /// How far a noise carries: earshot distance and verdict at a square, or a map of verdicts.
    Hear {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        /// The earshot table's row.
        #[arg(long, value_enum)]
        sound: delve::rules::sound::SoundRow,
        #[arg(long, value_name = "X,Y")]
        at: Option<GridPos>,
        /// The table's column; the level's environment when left out.
        #[arg(long, value_enum)]
        environment: Option<delve::level::schema::Environment>,
    },
    /// The ways a creature can get through a door, each with its time and chance.
    Door {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The Squeezing throw a creature would make in a squeeze, with every modifier and its chance.
    Squeeze {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The Swimming throw a creature would make in water over the head, its speeds and breath.
    Swim {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// Climbing down into (or out of) a pit or chasm square: the throw, its chance, speed.
    Climb {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// A jump across a chasm to a square (from where the creature stands, or `--from`): the gap
    /// and the chances with and without a run-up.
    Jump {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
        #[arg(long, value_name = "X,Y")]
        from: Option<GridPos>,
    },
    /// Faction initiative as if every faction met: members, modifiers, rolls, results, order.
    Initiative {
        /// Seed for the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The squares a creature sees, as the level stands.
    Sees {
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The shortest walk between two squares and its length in feet.
    Path {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        #[arg(long, value_name = "X,Y")]
        to: GridPos,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => window(cli),
        Some(Cmd::Check { levels, lint }) => check(&levels, lint),
        Some(Cmd::Sim {
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
            without,
        }) => run_sim(SimOptions {
            save: save.as_deref(),
            path: &level,
            seed,
            rounds,
            auto: auto || policy.is_some(),
            policy: policy.as_deref(),
            journal: journal.as_deref(),
            commands: commands.as_deref(),
            log_file: log.as_deref(),
            json,
            without: &without,
        }),
        Some(Cmd::Query {
            level,
            question,
            json,
        }) => run_query(&level, question, json),
        Some(Cmd::Play(args)) => play(args),
        Some(Cmd::Lab(args)) => match args.action {
            Some(LabAction::Compare { before, after }) => lab_compare(&before, &after),
            Some(LabAction::Merge { parts, out }) => lab_merge(&parts, &out),
            None => run_lab(args),
        },
        Some(Cmd::Import {
            map,
            out,
            cell_feet,
            squares_per_cell,
        }) => {
            let options = delve::import::ImportOptions {
                cell_feet,
                squares_per_cell,
            };
            match delve::import::import(&map, &out, options) {
                Ok(written) => {
                    for w in written {
                        println!("wrote {}", w.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(1)
                }
            }
        }
        Some(Cmd::Export { level, uvtt }) => match delve::import::export::export(&level, &uvtt) {
            Ok(()) => {
                println!("wrote {}", uvtt.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        },
        Some(Cmd::Generate {
            name,
            width,
            height,
            seed,
        }) => {
            print!(
                "{}",
                delve::level::generate::rooms_and_corridors(&name, width, height, seed)
            );
            ExitCode::SUCCESS
        }
    }
}

#[cfg(feature = "gui")]
fn window(cli: Cli) -> ExitCode {
    use gui::lighting::ViewMode;
    let replay = match cli.replay.as_deref().map(load_script).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(problems) => {
            eprint!("{problems}");
            return ExitCode::from(1);
        }
    };
    let Some(policy) = load_policy(cli.policy.as_deref()) else {
        return ExitCode::from(1);
    };
    gui::run(gui::WindowOptions {
        level: cli.level,
        seed: cli.seed,
        screenshot: cli.screenshot,
        select: cli.select,
        journal: cli.journal,
        replay,
        policy,
        view: match cli.view {
            View::Judge => ViewMode::Judge,
            View::Party => ViewMode::Party,
        },
        ..window_options(cli.saves, cli.show)
    })
}

/// What the window and `delve play` take alike: saves, keys, and how the window shows itself.
#[cfg(feature = "gui")]
fn window_options(saves: SaveArgs, show: ShowArgs) -> gui::WindowOptions {
    gui::WindowOptions {
        load: saves.load,
        anyway: saves.anyway,
        save: saves.save,
        autosave: saves.autosave,
        keys: saves.keys,
        no_panels: show.no_panels,
        measure_frames: show.measure_frames,
        player_window: show.player_window,
        ..Default::default()
    }
}

#[cfg(feature = "gui")]
fn play(args: PlayArgs) -> ExitCode {
    let Some(policy) = load_policy(args.policy.as_deref()) else {
        return ExitCode::from(1);
    };
    gui::run(gui::WindowOptions {
        level: args.level,
        seed: args.seed,
        screenshot: args.screenshot,
        policy,
        view: gui::lighting::ViewMode::Party,
        solo: true,
        ..window_options(args.saves, args.show)
    })
}

#[cfg(not(feature = "gui"))]
fn play(_: PlayArgs) -> ExitCode {
    window_missing()
}

#[cfg(not(feature = "gui"))]
fn window(_: Cli) -> ExitCode {
    window_missing()
}

#[cfg(not(feature = "gui"))]
fn window_missing() -> ExitCode {
    eprintln!(
        "delve was built without the window (feature `gui`); use `delve check`, `delve sim` or `delve query`"
    );
    ExitCode::from(2)
}

/// Loads a level, printing its warnings, or prints its errors and returns `None`.
fn load(path: &Path) -> Option<Loaded> {
    match level::load_level_file(path) {
        Ok(loaded) => {
            eprint!("{}", loaded.warnings);
            Some(loaded)
        }
        Err(problems) => {
            eprint!("{problems}");
            None
        }
    }
}

fn check(levels: &[PathBuf], lint: bool) -> ExitCode {
    let mut failed = 0;
    for path in levels {
        match level::load_level_file(path) {
            Ok(mut loaded) => {
                if lint {
                    let src = std::fs::read_to_string(path).unwrap_or_default();
                    let file = path.display().to_string();
                    for l in delve::lint::lint(&loaded.level, &src) {
                        loaded.warnings.push(l.diagnostic(&file));
                    }
                }
                print!("{}", loaded.warnings);
                let l = &loaded.level;
                println!(
                    "{}: ok: \"{}\", {}x{} squares, {} doors, {} traps, {} lights, {} creatures, {} warning(s)",
                    path.display(),
                    l.name,
                    l.grid.width(),
                    l.grid.height(),
                    l.doors.len(),
                    l.traps.len(),
                    l.lights.len(),
                    l.creatures.len(),
                    loaded.warnings.0.len()
                );
            }
            Err(problems) => {
                failed += 1;
                print!("{problems}");
                println!(
                    "{}: {} error(s), {} warning(s)",
                    path.display(),
                    problems.errors().count(),
                    problems.warnings().count()
                );
            }
        }
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn load_script(path: &Path) -> Result<Vec<ScriptedCommand>, Diagnostics> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| {
        Diagnostics(vec![level::Diagnostic::error(
            &file,
            SourcePos::START,
            format!("cannot read command script: {e}"),
        )])
    })?;
    delve::command::script_options()
        .from_str::<Vec<ScriptedCommand>>(&src)
        .map_err(|e| {
            Diagnostics(vec![level::Diagnostic::error(
                &file,
                SourcePos::new(e.span.start.line, e.span.start.col),
                format!("{} (while reading a command script)", e.code),
            )])
        })
}

/// The party policy in `path` (the defaults when none), or its error printed.
fn load_policy(path: Option<&Path>) -> Option<delve::policy::PartyPolicy> {
    match path.map(delve::policy::PartyPolicy::load).transpose() {
        Ok(p) => Some(p.unwrap_or_default()),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// Does the level have a party for a policy to play (a faction with a marching order)? If
/// not, says so.
fn has_party(path: &Path, level: &delve::level::Level) -> bool {
    let any = level.factions.iter().any(|f| !f.marching_order.is_empty());
    if !any {
        eprintln!(
            "{}: a delve that plays itself needs a party, and this level has none: give a \
             faction a `marching_order` (README › Levels)",
            path.display()
        );
    }
    any
}

/// `delve lab`: the delves in parallel with a progress bar, then the report (or, for a shard,
/// its partial result).
fn run_lab(args: LabArgs) -> ExitCode {
    let path = args.level.expect("clap requires the level");
    let Some(policy) = load_policy(args.policy.as_deref()) else {
        return ExitCode::from(1);
    };
    let Some(loaded) = load(&path) else {
        return ExitCode::from(1);
    };
    if !has_party(&path, &loaded.level) {
        return ExitCode::from(2);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let whole = delve::lab::LabPlan {
        level: loaded.level,
        policy,
        seed: args.seed,
        runs: args.runs,
        jobs,
    };
    let plan = match args.shard.as_deref().map(parse_shard) {
        None => whole,
        Some(Ok((i, n))) => match whole.shard(i, n) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stem = path
        .file_stem()
        .map_or("level".into(), |s| s.to_string_lossy());
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("lab-{stem}")));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("{}: cannot make the report's folder: {e}", out.display());
        return ExitCode::from(1);
    }
    let file = path.display().to_string();
    // What an interrupted lab kept, when resuming it.
    let kept = if args.resume && out.join("lab.json").exists() {
        match delve::lab::read_partial(&out) {
            Ok((meta, kept))
                if meta.level_file == file
                    && meta.policy == plan.policy
                    && (meta.seed, meta.runs) == (plan.seed, plan.runs) =>
            {
                kept
            }
            Ok(_) => {
                eprintln!(
                    "error: {} holds a lab of another level, policy or seeds: nothing to resume",
                    out.display()
                );
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        delve::lab::LabResult::default()
    };
    let seeds: Vec<u64> = plan
        .seeds()
        .filter(|s| !kept.records.iter().any(|r| r.seed == *s))
        .collect();
    // Ctrl-C lets the delves under way finish and keeps what was played.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    let bar = indicatif::ProgressBar::new(plan.runs).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} delves, {per_sec}, {eta} left",
        )
        .expect("the progress bar's template"),
    );
    bar.set_position(kept.records.len() as u64);
    let result = match delve::lab::run_seeds(&plan, &seeds, |_| bar.inc(1), &stop) {
        Ok(r) => delve::lab::join(kept, r),
        Err(e) => {
            bar.abandon();
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        bar.abandon();
        if let Err(e) = delve::lab::write_partial(&plan, &file, &result, &out) {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
        eprintln!(
            "interrupted: {} of {} delves kept in {}; the same command with --resume goes on",
            result.records.len(),
            plan.runs,
            out.display()
        );
        return ExitCode::from(130);
    }
    bar.finish();
    let written = if args.shard.is_some() {
        delve::lab::write_partial(&plan, &file, &result, &out)
    } else {
        delve::lab::report::write_all(&plan, &file, &result, &out)
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    tell_failed(&result.records, plan.runs, &file, &out);
    ExitCode::SUCCESS
}

fn tell_failed(records: &[delve::lab::RunRecord], runs: u64, file: &str, out: &Path) {
    let failed = records.iter().filter(|r| r.error.is_some()).count();
    eprintln!(
        "{runs} delves of {file}: the results are in {}{}",
        out.display(),
        if failed > 0 {
            format!(" ({failed} failed: see the report)")
        } else {
            String::new()
        }
    );
}

/// `I/N`, both whole numbers.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("--shard {s}: expected I/N, as 0/4"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<u64>()
            .map_err(|_| format!("--shard {s}: expected I/N, as 0/4"))
    };
    Ok((num(i)?, num(n)?))
}

/// `delve lab compare BEFORE AFTER`.
fn lab_compare(before: &Path, after: &Path) -> ExitCode {
    let read = |dir: &Path| {
        let at = dir.join("runs.jsonl");
        std::fs::read_to_string(&at)
            .map_err(|e| format!("{}: cannot read: {e}", at.display()))
            .and_then(|t| {
                delve::lab::read_runs_jsonl(&t).map_err(|e| format!("{}: {e}", at.display()))
            })
    };
    match (read(before), read(after)) {
        (Ok(a), Ok(b)) => {
            let changes = delve::lab::compare::compare(&a, &b);
            print!("{}", delve::lab::compare::table(&changes));
            let moved = changes.iter().filter(|c| c.moved).count();
            println!(
                "{moved} of {} numbers moved beyond their 95% intervals ({} delves before, {} after)",
                changes.len(),
                a.len(),
                b.len()
            );
            ExitCode::SUCCESS
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `delve lab merge DIR... --out DIR`.
fn lab_merge(parts: &[PathBuf], out: &Path) -> ExitCode {
    let read: Result<Vec<_>, String> = parts.iter().map(|d| delve::lab::read_partial(d)).collect();
    let merged = read.and_then(delve::lab::merge);
    let (meta, result) = match merged {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let Some(loaded) = load(Path::new(&meta.level_file)) else {
        return ExitCode::from(1);
    };
    let plan = delve::lab::LabPlan {
        level: loaded.level,
        policy: meta.policy.clone(),
        seed: meta.seed,
        runs: meta.runs,
        jobs: 1,
    };
    if let Err(e) = std::fs::create_dir_all(out)
        .map_err(|e| format!("{}: cannot make the folder: {e}", out.display()))
        .and_then(|()| delve::lab::report::write_all(&plan, &meta.level_file, &result, out))
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    tell_failed(&result.records, meta.runs, &meta.level_file, out);
    ExitCode::SUCCESS
}

/// What `delve sim` was asked for.
struct SimOptions<'a> {
    path: &'a Path,
    seed: u64,
    rounds: Option<u64>,
    auto: bool,
    policy: Option<&'a Path>,
    journal: Option<&'a Path>,
    save: Option<&'a Path>,
    commands: Option<&'a Path>,
    log_file: Option<&'a Path>,
    json: bool,
    without: &'a [delve::rules::modules::RuleModule],
}

fn run_sim(o: SimOptions) -> ExitCode {
    let SimOptions {
        path,
        seed,
        rounds,
        auto,
        policy,
        journal,
        save,
        commands,
        log_file,
        json,
        without,
    } = o;
    let Some(policy) = load_policy(policy) else {
        return ExitCode::from(1);
    };
    // With --auto, the turn limit ends the delve; one more round logs the end.
    let rounds = rounds.unwrap_or(policy.turn_limit * delve::time::ROUNDS_PER_TURN + 1);
    let Some(mut loaded) = load(path) else {
        return ExitCode::from(1);
    };
    for module in without {
        module.set_in(&mut loaded.level.modules, false);
    }
    if auto && !has_party(path, &loaded.level) {
        return ExitCode::from(2);
    }
    let script = match commands.map(load_script).transpose() {
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
    let app = if auto {
        sim::play_autonomous(&loaded.level, seed, &policy, &script, rounds)
    } else {
        sim::play(&loaded.level, seed, &script, rounds)
    };
    let world = app.world();
    if let Some(file) = journal
        && let Err(e) = std::fs::write(file, sim::journal_script(world))
    {
        eprintln!("{}: cannot write the journal: {e}", file.display());
        return ExitCode::from(1);
    }
    if let Some(file) = save {
        let text = match delve::level::LevelText::read(path) {
            Ok(text) => text,
            Err(problems) => {
                eprint!("{problems}");
                return ExitCode::from(1);
            }
        };
        if let Err(e) = delve::save::Save::of(world, &text).write(file) {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    }
    let log = world.resource::<delve::log::EventLog>();
    if json {
        print!("{}", log.to_json_lines());
    } else {
        print!("{}", log.to_text());
    }
    if let Some(file) = log_file
        && let Err(e) = std::fs::write(file, log.to_json_lines())
    {
        eprintln!("{}: cannot write the log: {e}", file.display());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn run_query(path: &Path, question: Question, json: bool) -> ExitCode {
    let Some(loaded) = load(path) else {
        return ExitCode::from(1);
    };
    // The delve as it stands before the first round: the questions are asked of its world.
    let mut app = delve::sim::sim_app(&loaded.level, 1);
    let world = app.world_mut();
    let answer: Result<(String, String), String> = match question {
        Question::Los { from, to } => {
            query::los(world, from, to).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Path { from, to } => {
            query::path(world, from, to).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Speeds { who } => {
            query::speeds(world, &who).map(|a| (a.to_string().trim_end().to_owned(), to_json(&a)))
        }
        Question::Light { at } => query::light(world, at).map(|a| (a.to_string(), to_json(&a))),
        Question::Sees { who } => query::sees(world, &who).map(|a| (a.to_string(), to_json(&a))),
        Question::Initiative { seed } => {
            query::initiative(world, seed).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Door { at, who } => {
            query::door(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Squeeze { at, who } => {
            query::squeeze(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Swim { at, who } => {
            query::swim(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Climb { at, who } => {
            query::climb(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Jump { at, who, from } => {
            query::jump(world, at, &who, from).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Hear {
            from,
            sound,
            at,
            environment,
        } => query::hear(world, from, sound, at, environment).map(|a| (a.to_string(), to_json(&a))),
    };
    match answer {
        Ok((text, json_text)) => {
            println!("{}", if json { json_text } else { text });
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

fn to_json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).expect("answers serialize")
}
