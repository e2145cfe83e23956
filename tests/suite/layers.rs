//! The layers of the core (DESIGN.md › Layout: layers that import only downward), read from the
//! source: every `crate::` and `super::` path in `src/` (outside comments and test modules) is
//! an import of the module it names, and
//! - every module of `src/` has its place in [`LAYERS`] (a new module must be placed);
//! - no module imports one of a layer above its own;
//! - a rule area uses only the areas [`AREAS`] lets it, each for the reason given there;
//! - no module imports one that imports it back, through any number of others.
//!
//! A module is a file or folder directly under `src/`; under `rules/` and `policy/`, each
//! area or mind is one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: each imports only the layers below it and its own.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "the ground: the level file and its types, the grid, dice, time, the log's entries, \
         query caches, the tile art, the policy file, reading a user's files",
        &[
            "grid",
            "level",
            "dice",
            "time",
            "log",
            "query_cache",
            "tile_art",
            "party_policy",
            "files",
        ],
    ),
    (
        "creatures, throws and the round: components, names and factions, the throw and its \
         modifiers, the phases of a round and the clock, the turn checks",
        &[
            "creature",
            "rules::abilities",
            "rules::tactical",
            "rules::calls",
            "rules::throws",
            "schedule",
            "turn_check",
        ],
    ),
    (
        "what the rule areas register into, naming none of them: kept state, holds and costs, \
         the modules switched on, what every command shares (the act, its refusal, its offer, \
         the commands waiting), the areas' installers and offers (`rules::choices_for`)",
        &[
            "state",
            "rules::acting",
            "rules::modules",
            "act",
            "rules::areas",
            "rules",
        ],
    ),
    (
        "the rule areas, each alone but for the areas it may use (AREAS)",
        &[
            "rules::conditions",
            "rules::movement",
            "rules::light",
            "rules::task",
            "rules::damage",
            "rules::penalties",
            "rules::rest",
            "rules::carrying",
            "rules::party",
            "rules::sound",
            "rules::vision",
            "rules::water",
            "rules::doors",
            "rules::combat",
            "rules::traps",
            "rules::search",
            "rules::caving",
            "rules::judge",
        ],
    ),
    (
        "the one list of commands, the dispatcher and the journal",
        &["command"],
    ),
    (
        "the minds: the party's policy and the monsters', choosing among the offers",
        &[
            "policy",
            "policy::knowledge",
            "policy::outcome",
            "policy::monsters",
            "policy::party",
        ],
    ),
    (
        "playing delves: keyframes, the plugin list (composing every area and mind), \
         playing, saving and replaying, the timeline's marks, scenarios",
        &["keyframe", "plugins", "sim", "save", "timeline", "scenario"],
    ),
    (
        "the tools: the lab, queries, imports, the level's lint",
        &["lab", "query", "import", "lint"],
    ),
];

/// The rule areas each area may use, and why: where the rules tie two areas, the one that
/// depends on the other uses its types and functions. An area not listed uses none.
const AREAS: &[(&str, &[&str], &str)] = &[
    (
        "movement",
        &["conditions"],
        "a creature down, prone or stuck does not walk (Dungeon Delves › Movement)",
    ),
    (
        "task",
        &["movement"],
        "moving sets a task aside (RULINGS › Time)",
    ),
    (
        "carrying",
        &["conditions", "movement"],
        "only one who is down is carried, at the speed of the new load (RULINGS › Rest)",
    ),
    (
        "damage",
        &["conditions", "movement", "task"],
        "damage brings a creature down, stops its walk and its work",
    ),
    (
        "penalties",
        &["conditions", "light", "movement"],
        "the situational penalties read the light, the creature's conditions and its pace",
    ),
    (
        "rest",
        &["conditions", "movement"],
        "resting is not moving; the down do not rest (RULINGS › Rest)",
    ),
    (
        "party",
        &["conditions", "light", "movement", "rest"],
        "a party walks in formation, carries its lights and rests as one (Marching Order)",
    ),
    (
        "sound",
        &["conditions", "movement", "party", "penalties"],
        "noise comes of walking at a pace; listeners throw with their penalties; a party \
         hears as one (Dungeon Delves › Noise)",
    ),
    (
        "vision",
        &["conditions", "light", "movement", "party", "penalties"],
        "what a creature sees is lit; the party maps what it sees; sneaking is a pace",
    ),
    (
        "water",
        &["carrying", "conditions", "damage", "movement", "penalties"],
        "a drowning ally is grabbed and carried; drowning kills; swimming is moving with \
         penalties (Dungeon Delves › Drowning)",
    ),
    (
        "doors",
        &[
            "conditions",
            "damage",
            "party",
            "penalties",
            "sound",
            "task",
        ],
        "forcing a door is noisy work that can hurt; a party's member holds a door \
         (Dungeon Delves › Doors)",
    ),
    (
        "combat",
        &[
            "conditions",
            "damage",
            "light",
            "movement",
            "party",
            "penalties",
            "sound",
            "task",
            "vision",
        ],
        "battle is fought by sight and light, moving and hearing, and deals damage \
         (Tactical Combat)",
    ),
    (
        "traps",
        &[
            "conditions",
            "damage",
            "doors",
            "movement",
            "penalties",
            "sound",
            "task",
            "vision",
        ],
        "a trap is stepped on or set off by a door, seen or not, heard, disarmed as work, \
         and hurts (Dungeon Delves › Traps)",
    ),
    (
        "search",
        &["doors", "movement", "penalties", "task", "traps"],
        "a search finds secret doors and traps, as work that stops for moving \
         (Dungeon Delves › Searching)",
    ),
    (
        "caving",
        &[
            "conditions",
            "damage",
            "doors",
            "movement",
            "penalties",
            "sound",
            "traps",
        ],
        "climbing and squeezing are movement with throws; a fall hurts; a pit is a trap's \
         hole; forcing rock is a door's bash (Dungeon Delves › Caving)",
    ),
    (
        "judge",
        &[
            "conditions",
            "damage",
            "doors",
            "light",
            "movement",
            "traps",
        ],
        "the Judge's hand sets hit points, conditions, doors, traps and lights",
    ),
];

/// A module of `src/`: the first part of its path, or `rules::<area>`, `policy::<mind>`.
fn module_of(parts: &[&str]) -> Option<String> {
    let first = *parts.first()?;
    match (first, parts.get(1)) {
        ("rules" | "policy", Some(second)) if !second.is_empty() => {
            Some(format!("{first}::{second}"))
        }
        _ => Some(first.to_owned()),
    }
}

/// The module path of a file: `rules/doors/mod.rs` is `["rules", "doors"]`.
fn path_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The source without comments and without its test module.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string ("http://") is rare in the core; a path after it on the
            // same line would be missed, not invented.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file's code names: `crate::a::b` (also inside `use crate::{a::b, c}`) and
/// `super::a` (relative to the file's own module).
fn imports_of(file: &Path, code: &str) -> Vec<Vec<String>> {
    let here = path_of(file);
    let mut found = Vec::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + 7..];
        if after.starts_with('{') {
            // `use crate::{a::b, c::{d, e}}`: the first part of each item.
            let end = after.find("};").unwrap_or(after.len());
            let mut depth = 0;
            let mut item = String::new();
            for c in after[1..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push(split(&item));
                        item.clear();
                    }
                    _ if depth == 0 => item.push(c),
                    _ => {}
                }
            }
            found.push(split(&item));
        } else {
            let end = after
                .find(|c: char| !(word(c) || c == ':'))
                .unwrap_or(after.len());
            found.push(split(&after[..end]));
        }
        rest = after;
    }
    let mut rest = code;
    while let Some(i) = rest.find("super::") {
        let before_ok = i == 0 || !rest[..i].ends_with(|c: char| word(c) || c == ':');
        let after = &rest[i + 7..];
        if before_ok {
            let end = after
                .find(|c: char| !(word(c) || c == ':'))
                .unwrap_or(after.len());
            // `super` of `a/b.rs` and of `a/b/mod.rs` is `a`.
            let mut path: Vec<String> = here[..here.len().saturating_sub(1)].to_vec();
            path.extend(split(&after[..end]));
            found.push(path);
        }
        rest = after;
    }
    found.retain(|p| !p.is_empty());
    found
}

fn split(path: &str) -> Vec<String> {
    path.split("::")
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "self")
        .map(str::to_owned)
        .collect()
}

/// Every `.rs` file under `dir`, relative to it.
fn files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, under, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            // A module's unit tests (`mod tests;` in `tests.rs`) may use anything.
            out.push(path.strip_prefix(under).unwrap().to_path_buf());
        }
    }
}

/// Every module's imports of other modules: module → (module it imports → the files and paths
/// that import it).
fn module_imports(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut all = Vec::new();
    files(src, src, &mut all);
    // The modules that exist: a path names the longest of them it starts with.
    let known: BTreeSet<Vec<String>> = all.iter().map(|f| path_of(f)).collect();
    let mut imports: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &all {
        let here: Vec<String> = path_of(file);
        let here_parts: Vec<&str> = here.iter().map(String::as_str).collect();
        let Some(from) = module_of(&here_parts) else {
            continue; // lib.rs
        };
        imports.entry(from.clone()).or_default();
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for path in imports_of(file, &code_of(&text)) {
            let Some(k) = (1..=path.len()).rev().find(|&k| known.contains(&path[..k])) else {
                continue; // a crate's own item at the root, or a macro
            };
            let parts: Vec<&str> = path[..k].iter().map(String::as_str).collect();
            let Some(to) = module_of(&parts) else {
                continue;
            };
            if to != from {
                imports
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(format!("{} names {}", file.display(), path.join("::")));
            }
        }
    }
    imports
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// The upward imports, the area pairs not allowed and the modules not placed, in `src`.
fn breaches(src: &Path) -> Vec<String> {
    let imports = module_imports(src);
    let mut found = Vec::new();
    for module in imports.keys() {
        if layer_of(module).is_none() {
            found.push(format!(
                "`{module}` has no place in the layers (tests/suite/layers.rs › LAYERS)"
            ));
        }
    }
    for (from, tos) in &imports {
        let Some(lf) = layer_of(from) else { continue };
        for (to, why) in tos {
            let Some(lt) = layer_of(to) else { continue };
            let example = why.iter().next().cloned().unwrap_or_default();
            if lt > lf {
                found.push(format!(
                    "`{from}` ({}) imports `{to}` from the layer above ({}): {example}",
                    LAYERS[lf].0.split(':').next().unwrap_or_default(),
                    LAYERS[lt].0.split(':').next().unwrap_or_default()
                ));
            }
            let (Some(a), Some(b)) = (from.strip_prefix("rules::"), to.strip_prefix("rules::"))
            else {
                continue;
            };
            let areas = &LAYERS[3].1;
            if areas.contains(&from.as_str()) && areas.contains(&to.as_str()) {
                let allowed = AREAS
                    .iter()
                    .find(|(area, ..)| *area == a)
                    .is_some_and(|(_, uses, _)| uses.contains(&b));
                if !allowed {
                    found.push(format!(
                        "the rule area `{a}` uses `{b}`, which AREAS does not let it: {example}"
                    ));
                }
            }
        }
    }
    // Circles among the modules: depth-first, a module met again on the current way.
    fn visit<'a>(
        m: &'a str,
        imports: &'a BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        way: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        found: &mut Vec<String>,
    ) {
        if let Some(i) = way.iter().position(|w| *w == m) {
            found.push(format!(
                "an import circle: {} -> {m}",
                way[i..].join(" -> ")
            ));
            return;
        }
        if !done.insert(m) {
            return;
        }
        way.push(m);
        for to in imports.get(m).into_iter().flat_map(|t| t.keys()) {
            visit(to, imports, way, done, found);
        }
        way.pop();
    }
    let mut done = BTreeSet::new();
    for m in imports.keys() {
        visit(m, &imports, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn the_core_imports_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = breaches(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_area_that_may_use_another_is_a_rule_area() {
    let areas = &LAYERS[3].1;
    for (area, uses, why) in AREAS {
        assert!(areas.contains(&format!("rules::{area}").as_str()), "{area}");
        assert!(!why.is_empty(), "{area}: say why");
        for u in *uses {
            assert!(
                areas.contains(&format!("rules::{u}").as_str()),
                "{area} uses {u}"
            );
        }
    }
}

/// The test itself: an import up a layer, an area using one it may not, a module with no
/// place and a circle are each found, in a copy of the core with one such line added.
#[test]
fn an_upward_import_an_unlisted_pair_and_a_circle_are_found() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let scratch = std::env::temp_dir().join(format!("delve-layers-{}", std::process::id()));
    let copy = |to: &Path| {
        let mut all = Vec::new();
        files(&src, &src, &mut all);
        for f in all {
            let target = to.join(&f);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(src.join(&f), target).unwrap();
        }
    };
    let add = |root: &Path, file: &str, line: &str| {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(path, format!("{line}\n{text}")).unwrap();
    };
    let cases: [(&str, &str, &str); 4] = [
        (
            "rules/light/mod.rs",
            "use crate::sim::sim_app;",
            "imports `sim` from the layer above",
        ),
        (
            "rules/movement/mod.rs",
            "use crate::rules::doors::Door;",
            "the rule area `movement` uses `doors`",
        ),
        (
            "grid/mod.rs",
            "use crate::level::Level;",
            "an import circle",
        ),
        (
            "new_area.rs",
            "use crate::grid::GridPos;",
            "`new_area` has no place",
        ),
    ];
    for (i, (file, line, expected)) in cases.into_iter().enumerate() {
        let root = scratch.join(i.to_string());
        copy(&root);
        add(&root, file, line);
        let found = breaches(&root);
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{line} in {file}: {found:#?}"
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(breaches(&src).is_empty());
}
