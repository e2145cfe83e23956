//! `delve`: open a level in the window, check levels, run delves headless, answer a Judge's
//! questions.

use delve::import::ImportOptions;
use delve_ground::level::Level;
use delve_ground::party_policy::PartyPolicy;
use delve_play::save::Save;
use delve_play::sim::JournalFile;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use delve_ground::level::{self, Diagnostics, Loaded, SourcePos};
use delve_rules::command::ScriptedCommand;

mod cli;
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
    /// The party policy the A key hands a party to: a settings file (RON) or a persona's name; the
    /// careful persona when left out.
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
    /// The players' window's size in logical pixels, WIDTHxHEIGHT (1280x800 when left out), or
    /// `full`: the whole of the second screen (of the only one, when there is one).
    #[arg(long, value_name = "WxH|full", value_parser = players_size, requires = "player_window")]
    players_size: Option<PlayersSize>,
    /// The window's size in logical pixels, WIDTHxHEIGHT (`1280x800`); the screen's size when
    /// left out.
    #[arg(long, value_name = "WxH", value_parser = window_size)]
    window: Option<(u32, u32)>,
    /// The window's settings file, remembered between runs: the panels' widths and open
    /// sections, the interface's scale, the minimap (RON; `<config dir>/delve/window.ron` when
    /// left out).
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
}

/// `--window 1280x800`.
fn window_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s}: a size is WIDTHxHEIGHT, e.g. 1280x800"))?;
    let number = |n: &str| {
        n.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (200..=16_384).contains(n))
            .ok_or_else(|| format!("{s}: {n} is not a width or height from 200 to 16384"))
    };
    Ok((number(w)?, number(h)?))
}

/// The players' window's size: logical pixels, or a whole screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlayersSize {
    Window(u32, u32),
    Full,
}

/// `--players-size 1280x800` or `full`.
fn players_size(s: &str) -> Result<PlayersSize, String> {
    if s.eq_ignore_ascii_case("full") {
        return Ok(PlayersSize::Full);
    }
    let (w, h) = window_size(s).map_err(|e| format!("{e}, or full"))?;
    Ok(PlayersSize::Window(w, h))
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
    /// The selected creature's (--select NAME): what it sees, what it heard.
    Creature,
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
    /// The party policy the A key hands the party to: a settings file (RON) or a persona's name.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Save the window's image to this PNG file and exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Open on the map, without the level's briefing (F2 shows it).
    #[arg(long)]
    no_briefing: bool,
}

/// What `delve replay` takes.
#[derive(clap::Args)]
struct ReplayArgs {
    /// A lab's folder (with --seed), a journal (`--journal` of the window or `delve sim`), or a
    /// save.
    source: PathBuf,
    /// The lab's delve to watch: its seed (the lab's first when left out); for a journal
    /// without its seed, the seed it was played with.
    #[arg(long)]
    seed: Option<u64>,
    /// The level, for a journal that does not name it (a command script written by hand).
    #[arg(long, value_name = "LEVEL")]
    level: Option<PathBuf>,
    /// Open at this round, or after the first mark of a kind: death, downed, battle, door,
    /// forced, trap, light, noise, goal, end.
    #[arg(long, value_name = "ROUND|MARK")]
    at: Option<String>,
    /// The view to open in.
    #[arg(long, value_enum, default_value_t = View::Judge)]
    view: View,
    /// The creature selected when the window opens.
    #[arg(long, value_name = "NAME")]
    select: Option<String>,
    /// Write the journal of the delve as watched and forked after every round played.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Save the window's image to this PNG file and exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    #[command(flatten)]
    show: ShowArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a level alone: the party's view, the party under your keys, the monsters under
    /// their minds; A hands the party to its policy and takes it back. Ctrl+S saves, and
    /// `delve play --load FILE` goes on.
    Play(PlayArgs),
    /// Watch a delve on the timeline: a lab's (`delve replay LAB_DIR --seed S`), a journal's or
    /// a save's. It is played to its end, then shown from its first round (or --at): drag the
    /// timeline under the map, step with , and . (Shift: a turn), jump between marks with [ and
    /// ], play with K; an order given at a round forks the delve there.
    Replay(ReplayArgs),
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
    Sim(cli::sim::SimArgs),
    /// Play many autonomous delves of a level in parallel and write what came of them:
    /// `runs.jsonl` (a line a delve), pictures, `report.md` and `report.html`; or compare two
    /// labs, or merge the shards of one.
    Lab(cli::lab::LabArgs),
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
    /// Write a new rooms-and-corridors level (RON) to start a design from; or, with
    /// `--situation`, a fresh instance of one situation a careful party meets and its
    /// expectations (README › Situations).
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
        /// Draw an instance of this situation: writes `NAME-SEED.ron` and
        /// `NAME-SEED.expect.ron` into `--out`.
        #[arg(long, value_name = "NAME")]
        situation: Option<String>,
        /// List the situations, a line each.
        #[arg(long, conflicts_with = "situation")]
        situations: bool,
        /// The folder the situation's files are written to (made if missing).
        #[arg(long, default_value = ".", requires = "situation")]
        out: PathBuf,
    },
    /// Answer a Judge's question about a level without running a delve.
    Query {
        level: PathBuf,
        #[command(subcommand)]
        question: cli::query::Question,
        /// Answer as one JSON object (stable field names; see the README).
        #[arg(long, global = true)]
        json: bool,
        /// Ask after this many rounds of the delve (seed 1), no one given any command: the
        /// monsters go about their business, battles begin where creatures meet.
        #[arg(
            long,
            global = true,
            value_name = "ROUNDS",
            default_value_t = 0,
            value_parser = clap::value_parser!(u64).range(0..=delve_ground::time::MAX_ROUNDS)
        )]
        after: u64,
    },
}

/// Output piped to a reader that stops reading (`delve check … | head -1`) ends the process
/// quietly, as Unix tools do, instead of a panic in the next line printed: SIGPIPE's default.
#[cfg(unix)]
fn quiet_when_the_reader_goes() {
    // SAFETY: setting a signal's disposition to its default, once, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_when_the_reader_goes() {}

fn main() -> ExitCode {
    quiet_when_the_reader_goes();
    let cli = Cli::parse();
    match cli.command {
        None => window(cli),
        Some(Cmd::Check { levels, lint }) => check(&levels, lint),
        Some(Cmd::Sim(args)) => cli::sim::run_sim(args),
        Some(Cmd::Query {
            level,
            question,
            json,
            after,
        }) => cli::query::run_query(&level, question, json, after),
        Some(Cmd::Play(args)) => play(args),
        Some(Cmd::Replay(args)) => replay(args),
        Some(Cmd::Lab(args)) => match args.action {
            Some(cli::lab::LabAction::Compare { before, after }) => {
                cli::lab::lab_compare(&before, &after)
            }
            Some(cli::lab::LabAction::Merge { parts, out, expect }) => {
                cli::lab::lab_merge(&parts, &out, expect.as_deref())
            }
            None => cli::lab::run_lab(args),
        },
        Some(Cmd::Import {
            map,
            out,
            cell_feet,
            squares_per_cell,
        }) => {
            let options = ImportOptions {
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
            situations: true, ..
        }) => {
            for s in delve::situations::SITUATIONS {
                println!("{}: {}", s.name, s.about);
            }
            ExitCode::SUCCESS
        }
        Some(Cmd::Generate {
            situation: Some(name),
            seed,
            out,
            ..
        }) => cli::generate_situation(&name, seed, &out),
        Some(Cmd::Generate {
            name,
            width,
            height,
            seed,
            ..
        }) => {
            print!(
                "{}",
                delve_ground::level::generate::rooms_and_corridors(&name, width, height, seed)
            );
            ExitCode::SUCCESS
        }
    }
}

#[cfg(feature = "gui")]
fn window(cli: Cli) -> ExitCode {
    use gui::state::ViewMode;
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
            View::Creature => ViewMode::Creature,
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
        settings: show.settings,
        no_panels: show.no_panels,
        measure_frames: show.measure_frames,
        player_window: show.player_window.then(|| match show.players_size {
            None => gui::players::PlayersSize::default(),
            Some(PlayersSize::Window(w, h)) => gui::players::PlayersSize::Window(w, h),
            Some(PlayersSize::Full) => gui::players::PlayersSize::Full,
        }),
        window_size: show.window,
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
        view: gui::state::ViewMode::Party,
        solo: true,
        briefing: !args.no_briefing,
        ..window_options(args.saves, args.show)
    })
}

#[cfg(not(feature = "gui"))]
fn play(_: PlayArgs) -> ExitCode {
    window_missing()
}

#[cfg(not(feature = "gui"))]
fn replay(_: ReplayArgs) -> ExitCode {
    window_missing()
}

/// Where `--at` opens the delve.
#[cfg(feature = "gui")]
fn watch_at(at: Option<&str>) -> Result<gui::WatchAt, String> {
    use delve_play::timeline::MarkKind as K;
    let Some(at) = at else {
        return Ok(gui::WatchAt::Start);
    };
    if let Ok(round) = at.parse() {
        return Ok(gui::WatchAt::Round(round));
    }
    let kind = K::named(at).ok_or_else(|| {
        format!(
            "--at {at}: a round, or a mark: death, downed, battle, door, forced, trap, light, noise, goal, end"
        )
    })?;
    Ok(gui::WatchAt::Mark(kind))
}

/// `delve replay`: a lab's delve, a journal or a save, played to its end and opened on the
/// timeline.
#[cfg(feature = "gui")]
fn replay(args: ReplayArgs) -> ExitCode {
    let at = match watch_at(args.at.as_deref()) {
        Ok(at) => at,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let source = args.source.as_path();
    let mut options = gui::WindowOptions {
        screenshot: args.screenshot.clone(),
        select: args.select.clone(),
        journal: args.journal.clone(),
        view: match args.view {
            View::Judge => gui::state::ViewMode::Judge,
            View::Party => gui::state::ViewMode::Party,
            View::Creature => gui::state::ViewMode::Creature,
        },
        ..window_options(
            SaveArgs {
                load: None,
                anyway: false,
                save: None,
                autosave: None,
                keys: None,
            },
            args.show,
        )
    };
    let Some(policy) = load_policy(None) else {
        return ExitCode::from(1);
    };
    options.policy = policy;
    if source.is_dir() {
        // A lab's delve: its level as played, its policy, the seed asked for.
        let (plan, _) = match delve::lab::read_lab(source) {
            Ok(lab) => lab,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(1);
            }
        };
        let seed = args.seed.unwrap_or(plan.seed);
        if !plan.seeds().contains(&seed) {
            eprintln!(
                "--seed {seed}: the lab in {} played seeds {} to {}",
                source.display(),
                plan.seed,
                plan.seed + plan.runs - 1
            );
            return ExitCode::from(2);
        }
        let copy = source.join(delve::lab::LEVEL_COPY);
        options.level = Some(if copy.exists() {
            copy
        } else {
            PathBuf::from(&plan.level.source)
        });
        options.seed = seed;
        options.watch = Some(gui::Watch {
            rounds: plan.max_rounds(),
            policy: Some(plan.policy),
            at,
            ..Default::default()
        });
        return gui::run(options);
    }
    let text = match delve_ground::files::read_text(source) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: cannot read: {e}", source.display());
            return ExitCode::from(1);
        }
    };
    if text.contains("fingerprint") {
        // A save: the window goes on from it, then back to the round asked for.
        if let Err(e) = Save::from_text(&text, &source.display().to_string()) {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
        options.load = Some(source.to_owned());
        options.watch = Some(gui::Watch {
            at,
            ..Default::default()
        });
        return gui::run(options);
    }
    let journal = match load_journal(source) {
        Ok(j) => j,
        Err(problems) => {
            eprint!("{problems}");
            return ExitCode::from(1);
        }
    };
    let Some(level) = args
        .level
        .or_else(|| journal.level.as_ref().map(PathBuf::from))
    else {
        eprintln!(
            "{}: the journal does not name its level: give it with --level LEVEL",
            source.display()
        );
        return ExitCode::from(2);
    };
    options.level = Some(level);
    options.seed = args.seed.or(journal.seed).unwrap_or(1);
    let last = journal
        .commands
        .iter()
        .map(|c| c.round + 1)
        .max()
        .unwrap_or(0);
    options.watch = Some(gui::Watch {
        rounds: journal.rounds.unwrap_or(last),
        script: journal.commands,
        checks: journal.checks,
        at,
        ..Default::default()
    });
    gui::run(options)
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
                    let src = delve_ground::files::read_text(path).unwrap_or_default();
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
    load_journal(path).map(|j| j.commands)
}

/// A journal (its commands and the checks of its turns) or a command script.
fn load_journal(path: &Path) -> Result<JournalFile, Diagnostics> {
    let file = path.display().to_string();
    let src = delve_ground::files::read_text(path).map_err(|e| {
        Diagnostics(vec![level::Diagnostic::error(
            level::DiagnosticKind::Unreadable,
            &file,
            SourcePos::START,
            format!("cannot read command script: {e}"),
        )])
    })?;
    JournalFile::from_text(&src).map_err(|e| {
        Diagnostics(vec![level::Diagnostic::error(
            level::DiagnosticKind::Syntax,
            &file,
            SourcePos::new(e.span.start.line, e.span.start.col),
            format!("{} (while reading a command script)", e.code),
        )])
    })
}

/// The party policy in the file `path`, or the persona of that name (the defaults when none),
/// or its error printed.
fn load_policy(path: Option<&Path>) -> Option<PartyPolicy> {
    match path.map(PartyPolicy::find).transpose() {
        Ok(p) => Some(p.unwrap_or_else(|| PartyPolicy {
            name: Some("careful".to_owned()),
            ..Default::default()
        })),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// Does the level have a party for a policy to play (a faction with a marching order)? If
/// not, says so.
fn has_party(path: &Path, level: &Level) -> bool {
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
