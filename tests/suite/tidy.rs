//! The house's numbers (DESIGN.md › Layout), held over every crate of the core, the window and
//! the tests, as rust-analyzer's `tidy` holds its own:
//! - no file over [`MAX_FILE_LINES`] lines;
//! - no function over [`MAX_FUNCTION_LINES`] lines, but for the few in [`LONG_FUNCTIONS`], each
//!   of which may only shrink (and leaves the list when it is short);
//! - no `pub use …::*` (one path and one name for each item);
//! - no `too_many_arguments` allowed in the core (a context struct instead: a system gathers
//!   its parameters in a `SystemParam`, as the rules' `Table`);
//! - no import circle over [`MAX_CIRCLE`] files in a crate, counting `super::` imports, but for
//!   the circles in [`LARGE_CIRCLES`], each of which may only shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::source::{absolute, code_of, files, long_functions, module_of_file, named, root};

const MAX_FILE_LINES: usize = 800;
const MAX_FUNCTION_LINES: usize = 100;
const MAX_CIRCLE: usize = 5;

/// The functions over [`MAX_FUNCTION_LINES`] lines today: (file, function, its lines). Each
/// may only shrink: split one and lower its number, or strike it once it is short.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[
    (
        "crates/ground/src/level/generate.rs",
        "rooms_and_corridors",
        167,
    ),
    ("crates/ground/src/level/validate/mod.rs", "level", 180),
    ("crates/ground/src/tile_art.rs", "tileset_rgba", 118),
    (
        "crates/minds/src/policy/behaviour.rs",
        "fighting_behaviour",
        200,
    ),
    ("crates/minds/src/policy/knowledge.rs", "distances", 105),
    (
        "crates/minds/src/policy/monsters/doors.rs",
        "through_doors",
        146,
    ),
    ("crates/minds/src/policy/outcome.rs", "tally", 127),
    (
        "crates/minds/src/policy/party/doors.rs",
        "deal_with_door",
        137,
    ),
    ("crates/minds/src/policy/party/gaps.rs", "cross_one", 139),
    ("crates/minds/src/policy/party/way.rs", "on_the_way", 102),
    (
        "crates/rules/src/rules/caving/climbing/mod.rs",
        "climb_a_round",
        141,
    ),
    ("crates/rules/src/rules/caving/events.rs", "fmt", 127),
    ("crates/rules/src/rules/caving/refusals.rs", "fmt", 105),
    ("crates/rules/src/rules/combat/attack.rs", "defence", 124),
    ("crates/rules/src/rules/combat/attack.rs", "strike", 157),
    ("crates/rules/src/rules/combat/events.rs", "fmt", 149),
    (
        "crates/rules/src/rules/combat/offers.rs",
        "battle_choices",
        140,
    ),
    ("crates/rules/src/rules/movement/mod.rs", "walk", 134),
    (
        "crates/rules/src/rules/party/formation.rs",
        "keep_formation",
        191,
    ),
    (
        "crates/rules/src/rules/rest/mod.rs",
        "rest_and_fatigue",
        125,
    ),
    ("crates/rules/src/rules/sound/hearing.rs", "hear", 140),
    ("crates/rules/src/rules/traps/springing.rs", "spring", 128),
    ("src/import/export.rs", "to_uvtt", 108),
    ("src/import/tiled_map.rs", "read", 194),
    ("src/import/uvtt.rs", "read", 193),
    ("src/lab/expect.rs", "expectation", 157),
    ("src/lab/folder.rs", "resume", 133),
    ("src/lab/watch/mod.rs", "entry", 203),
    ("src/lint.rs", "lint", 184),
    (
        "tests/suite/keyframes.rs",
        "a_replay_with_one_die_changed_stops_at_the_first_event_that_differs",
        107,
    ),
    ("tests/suite/registries.rs", "showcases", 143),
    ("tests/suite/scenario.rs", "play", 160),
    ("window/src/cli/lab.rs", "run_lab", 140),
    ("window/src/cli/sim.rs", "run_sim", 110),
    ("window/src/gui/battle.rs", "battle_panel", 103),
    ("window/src/gui/briefing.rs", "show_briefing", 102),
    ("window/src/gui/controls.rs", "default_input_map", 105),
    ("window/src/gui/legend.rs", "legend", 129),
    ("window/src/gui/lighting.rs", "shade", 143),
    ("window/src/gui/panels/hand.rs", "hand", 159),
    ("window/src/gui/panels/inspector.rs", "inspector", 117),
    ("window/src/gui/panels/keys.rs", "keys_panel", 110),
    ("window/src/gui/panels/log.rs", "log_panel", 116),
    ("window/src/gui/panels/mod.rs", "panels", 154),
    ("window/src/gui/panels/timers.rs", "timers", 118),
    ("window/src/gui/players.rs", "players_panels", 118),
    ("window/src/gui/preview.rs", "preview", 133),
    ("window/src/main.rs", "replay", 121),
];

/// The import circles over [`MAX_CIRCLE`] files that are left, by crate: (its `src`, its files,
/// why it is still there). Each may only shrink: lower the number as it does.
const LARGE_CIRCLES: &[(&str, usize, &str)] = &[(
    "crates/minds/src",
    18,
    "the party's mind: policy/party/mod.rs holds PartyMind, whose memories live in the tactics that read it; the one planner of the next issue replaces it",
)];

/// The crates of the core: their sources are held to every rule here.
const CORE: &[&str] = &[
    "crates/ground/src",
    "crates/rules/src",
    "crates/minds/src",
    "crates/play/src",
    "src",
];

/// Everything held to the lengths: the core, the window, the tests and benchmarks.
fn everything() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = CORE.iter().map(|d| root().join(d)).collect();
    for d in ["window/src", "window/tests", "tests", "benches"] {
        dirs.push(root().join(d));
    }
    dirs
}

/// Every file of the folders, with its path from the workspace's root and its text.
fn sources(dirs: &[PathBuf]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in dirs {
        for f in files(dir) {
            let path = dir.join(&f);
            let shown = path
                .strip_prefix(root())
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push((shown, std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

/// What a tree breaks of the house's numbers.
fn untidy(dirs: &[PathBuf], core: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    let mut listed: BTreeMap<(String, String), usize> = LONG_FUNCTIONS
        .iter()
        .map(|&(f, n, l)| ((f.to_owned(), n.to_owned()), l))
        .collect();
    let mut seen = BTreeSet::new();
    for (path, text) in sources(dirs) {
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            found.push(format!(
                "{path}: {lines} lines, over {MAX_FILE_LINES}: split it"
            ));
        }
        for (name, line, n) in long_functions(&text, MAX_FUNCTION_LINES) {
            let key = (path.clone(), name.clone());
            if listed.contains_key(&key) {
                seen.insert(key.clone());
            }
            match listed.get(&key) {
                Some(max) if n <= *max => {
                    if n < *max {
                        found.push(format!(
                            "{path}:{line}: `{name}` is {n} lines now: lower its number in \
                             LONG_FUNCTIONS to {n}"
                        ));
                    }
                }
                Some(max) => found.push(format!(
                    "{path}:{line}: `{name}` grew to {n} lines from {max}: it may only shrink"
                )),
                None => found.push(format!(
                    "{path}:{line}: `{name}` is {n} lines, over {MAX_FUNCTION_LINES}: split it"
                )),
            }
        }
        let code = code_of(&text);
        if code.contains("pub use") {
            for n in named(&code) {
                if n.reexport && n.path.last().is_some_and(|l| l == "*") {
                    found.push(format!(
                        "{path}:{}: `pub use {}`: name what it brings, from where it lives",
                        n.line,
                        n.path.join("::")
                    ));
                }
            }
        }
    }
    listed.retain(|key, _| {
        !seen.contains(key) && dirs.iter().any(|d| root().join(&key.0).starts_with(d))
    });
    for (f, n) in listed.keys() {
        found.push(format!(
            "{f}: `{n}` is listed in LONG_FUNCTIONS but is no longer long (or gone): strike it"
        ));
    }
    many_arguments(core, &mut found);
    large_circles(core, &mut found);
    found
}

/// `too_many_arguments` allowed anywhere in the core.
fn many_arguments(core: &[PathBuf], found: &mut Vec<String>) {
    for (path, text) in sources(core) {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.contains("clippy::too_many_arguments") || line.trim_start().starts_with("//") {
                continue;
            }
            // The function the attribute is on: the next `fn name`.
            let name: String = lines[i..]
                .iter()
                .find_map(|l| l.split("fn ").nth(1))
                .map(|rest| {
                    rest.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect()
                })
                .unwrap_or_default();
            found.push(format!(
                "{path}:{}: too_many_arguments allowed in the core on `{name}`: gather the \
                 arguments in a context struct",
                i + 1
            ));
        }
    }
}

/// Import circles over their limit, or smaller than LARGE_CIRCLES says.
fn large_circles(core: &[PathBuf], found: &mut Vec<String>) {
    for dir in core {
        let shown = dir
            .strip_prefix(root())
            .unwrap_or(dir)
            .display()
            .to_string();
        let biggest = largest_circle(dir);
        let allowed = LARGE_CIRCLES
            .iter()
            .find(|(c, ..)| *c == shown)
            .map_or(MAX_CIRCLE, |&(_, n, _)| n);
        if biggest.len() > allowed {
            found.push(format!(
                "{shown}: an import circle of {} files, over {allowed}: {}",
                biggest.len(),
                biggest.join(" ")
            ));
        } else if allowed > MAX_CIRCLE && biggest.len() < allowed {
            found.push(format!(
                "{shown}: its largest import circle is {} files now: lower its number in \
                 LARGE_CIRCLES to {} (or strike it at {MAX_CIRCLE} or fewer): {}",
                biggest.len(),
                biggest.len(),
                biggest.join(" ")
            ));
        }
    }
}

/// The largest circle of files importing one another in a crate (a strongly connected
/// component of its imports, `super::` ones counted).
fn largest_circle(src: &Path) -> Vec<String> {
    let all = files(src);
    let by_module: BTreeMap<Vec<String>, usize> = all
        .iter()
        .enumerate()
        .map(|(i, f)| (module_of_file(f), i))
        .collect();
    let known: BTreeSet<Vec<String>> = by_module.keys().cloned().collect();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); all.len()];
    for (i, f) in all.iter().enumerate() {
        let here = module_of_file(f);
        let text = std::fs::read_to_string(src.join(f)).unwrap();
        for n in named(&code_of(&text)) {
            let Some(path) = absolute(&here, &n.path, &known) else {
                continue;
            };
            if let Some(&j) = (1..=path.len())
                .rev()
                .find_map(|k| by_module.get(&path[..k]))
                && j != i
            {
                edges[i].insert(j);
            }
        }
    }
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on: Vec<bool>,
        next: usize,
        best: Vec<usize>,
    }
    fn strong(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on[v] = true;
        for u in w.edges[v].clone() {
            match w.index[u] {
                None => {
                    strong(w, u);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(iu) if w.on[u] => w.low[v] = w.low[v].min(iu),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut c = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on[u] = false;
                c.push(u);
                if u == v {
                    break;
                }
            }
            if c.len() > w.best.len() {
                w.best = c;
            }
        }
    }
    let mut w = Walk {
        edges: &edges,
        index: vec![None; all.len()],
        low: vec![0; all.len()],
        stack: Vec::new(),
        on: vec![false; all.len()],
        next: 0,
        best: Vec::new(),
    };
    for v in 0..all.len() {
        if w.index[v].is_none() {
            strong(&mut w, v);
        }
    }
    let mut names: Vec<String> = w
        .best
        .iter()
        .map(|&i| all[i].display().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn the_house_keeps_its_numbers() {
    let core: Vec<PathBuf> = CORE.iter().map(|d| root().join(d)).collect();
    let found = untidy(&everything(), &core);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The test itself: in a scratch crate, a file over the length, a function of 101 lines, a
/// glob re-exported, `too_many_arguments` allowed and a circle of six files are each found,
/// however the circle's imports are written.
#[test]
fn each_thing_out_of_shape_is_found() {
    let scratch = std::env::temp_dir().join(format!("delve-tidy-{}", std::process::id()));
    let src = scratch.join("src");
    std::fs::create_dir_all(src.join("ring")).unwrap();
    let write = |file: &str, text: &str| std::fs::write(src.join(file), text).unwrap();
    let body = "    let _ = 1;\n".repeat(99);
    write(
        "lib.rs",
        &format!("pub mod ring;\npub use ring::*;\n\npub fn long() {{\n{body}}}\n"),
    );
    write("long.rs", &"// a line\n".repeat(801));
    write(
        "args.rs",
        "#[allow(clippy::too_many_arguments)]\npub fn f(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8) {}\n",
    );
    // A ring of six: each imports the next, in another of the forms the compiler reads.
    let ways = [
        "use super::b::B;",
        "use crate::ring::{c::C};",
        "use super::super::ring::d::D;",
        "use crate as core_;\nuse core_::ring::e::E;",
        "pub fn g() -> Option<crate::ring::f::F> { None }",
        "use super::{a::A};",
    ];
    let names = ["a", "b", "c", "d", "e", "f"];
    write(
        "ring/mod.rs",
        &names.map(|n| format!("pub mod {n};\n")).concat(),
    );
    for (n, way) in names.iter().zip(ways) {
        write(
            &format!("ring/{n}.rs"),
            &format!("{way}\npub struct {};\n", n.to_uppercase()),
        );
    }
    let found = untidy(std::slice::from_ref(&src), std::slice::from_ref(&src));
    let _ = std::fs::remove_dir_all(&scratch);
    for expected in [
        "long.rs: 801 lines",
        "`long` is 101 lines",
        "`pub use ring::*`",
        "too_many_arguments allowed in the core",
        "an import circle of 6 files",
    ] {
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{expected}: {found:#?}"
        );
    }
}
