//! Fuzzing that stays: every input kind a user hands Delve — a level, a command script, a
//! journal, a save, an expectations file, a lab's records, a Universal VTT map, a Tiled map —
//! mutated from a corpus of the sample files (bytes flipped, numbers swapped for the edges of
//! their types, lines cut, doubled and swapped, brackets and quotes put in) and fed to its
//! reader, and what loads played a few rounds. Each input must come to an answer within its
//! time and its memory, without a panic, and an error must say where (a line, an element, a
//! record). A failing input is written to `tests/fuzz/regressions/` (commit it: every run
//! replays that folder first) and the test fails naming it.
//!
//! On the stable toolchain, without libFuzzer: a seeded generator, so a run is repeatable. The
//! time each target takes is `DELVE_FUZZ_SECS` (3 seconds by default; `.ci/run` gives more).

mod inputs;
mod mutate;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use inputs::Kind;

/// Counts the bytes each thread holds, and the most it held since the count was reset: an
/// input's peak is what reading and playing it took.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn counted(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        counted(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        counted(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The most an input may take: memory above what the thread held before it, and time (a debug
/// build; a sample level loads and plays its rounds in a fraction of it).
const MEMORY_CAP: isize = 512 << 20;
const TIME_CAP: Duration = Duration::from_secs(10);

/// What went wrong with one input.
enum Failure {
    Panicked(String),
    TooMuchMemory(isize),
    TooLong(Duration),
    /// An error that names no place.
    Nowhere(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panicked(what) => write!(f, "panicked: {what}"),
            Failure::TooMuchMemory(bytes) => write!(f, "took {} MiB", bytes >> 20),
            Failure::TooLong(took) => write!(f, "took {took:?}"),
            Failure::Nowhere(error) => write!(f, "an error that names no place: {error}"),
        }
    }
}

/// Feeds one input to its reader, measuring it.
fn try_one(kind: Kind, input: &[u8], scratch: &Path) -> Result<(), Failure> {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| inputs::feed(kind, input, scratch)));
    let took = started.elapsed();
    let peak = PEAK.with(Cell::get) - before;
    match outcome {
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Failure::Panicked(what))
        }
        Ok(_) if peak > MEMORY_CAP => Err(Failure::TooMuchMemory(peak)),
        Ok(_) if took > TIME_CAP => Err(Failure::TooLong(took)),
        Ok(Err(nowhere)) => Err(Failure::Nowhere(nowhere)),
        Ok(Ok(())) => Ok(()),
    }
}

fn regressions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/regressions")
}

/// Runs a target: its regressions first, then mutated inputs for its time; the failures are
/// written to the regressions folder and named in the panic.
fn fuzz(kind: Kind) {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{kind:?}"));
    std::fs::create_dir_all(&scratch).unwrap();
    let secs: f64 = std::env::var("DELVE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    // Quiet: a caught panic would print its message for every input.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let prefix = format!("{}-", kind.name());
    let mut kept: Vec<PathBuf> = std::fs::read_dir(regressions())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .collect();
    kept.sort();
    for file in &kept {
        let input = std::fs::read(file).unwrap();
        if let Err(f) = try_one(kind, &input, &scratch) {
            failures.push(format!("{}: {f}", file.display()));
        }
    }
    let corpus = kind.corpus();
    let mut rng = mutate::Rng::new(0x0de1_7e00 ^ kind as u64);
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut tried = 0;
    while Instant::now() < deadline && failures.len() < 5 {
        let seed = &corpus[rng.below(corpus.len())];
        let input = mutate::mutate(seed, &mut rng);
        tried += 1;
        if let Err(f) = try_one(kind, &input, &scratch) {
            let name = format!("{}-{:016x}.txt", kind.name(), mutate::hash(&input));
            let _ = std::fs::create_dir_all(regressions());
            let at = regressions().join(name);
            let _ = std::fs::write(&at, &input);
            failures.push(format!("{}: {f}", at.display()));
        }
    }
    std::panic::set_hook(hook);
    println!(
        "{}: {} regression files and {tried} mutated inputs",
        kind.name(),
        kept.len()
    );
    assert!(
        failures.is_empty(),
        "{} inputs failed (kept in tests/fuzz/regressions/):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn levels() {
    fuzz(Kind::Level);
}

#[test]
fn command_scripts() {
    fuzz(Kind::Script);
}

#[test]
fn journals() {
    fuzz(Kind::Journal);
}

#[test]
fn saves() {
    fuzz(Kind::Save);
}

#[test]
fn expectations() {
    fuzz(Kind::Expect);
}

#[test]
fn lab_records() {
    fuzz(Kind::LabRecords);
}

#[test]
fn universal_vtt_maps() {
    fuzz(Kind::Uvtt);
}

#[test]
fn tiled_maps() {
    fuzz(Kind::Tmx);
}

/// The corpus itself reads (a seed that does not read fuzzes only the errors).
#[test]
fn the_corpus_reads() {
    assert!(delve_play::sim::JournalFile::from_text(inputs::SCRIPT).is_ok());
    let expect = Kind::Expect.corpus();
    let level = delve_ground::level::load_level_file(Path::new("levels/gym/climbers.ron"))
        .unwrap()
        .level;
    let text = String::from_utf8(expect[0].clone()).unwrap();
    assert!(delve::lab::expect::parse(&text, "x", &level).is_ok());
}
