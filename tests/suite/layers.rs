//! The layers the crates cannot hold (DESIGN.md › Layout: layers that import only downward).
//! The core's crates are its layers (`crates/ground`, `crates/rules`, `crates/minds`,
//! `crates/play`, then the tools in `src/`), so an upward import between them does not
//! compile. Inside the rules' crate, read from the source as the compiler would (every path of
//! every `use` tree, grouped, renamed or re-exported, `super::super` and inline paths, outside
//! comments, strings and test modules: [`source`](super::source)):
//! - every module of the rules' crate has its place in [`LAYERS`] (a new module must be placed);
//! - no module imports one of a layer above its own;
//! - a rule area uses only the areas [`AREAS`] lets it, each for the reason given there;
//! - in every crate of the core, no module imports one that imports it back, through any
//!   number of others.
//!
//! A module is a file or folder directly under a crate's `src/`; under `rules/` and `policy/`,
//! each area or mind is one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::source::{absolute, code_of, files, module_of_file, named, root};

/// The layers of the rules' crate, lowest first: each imports only the layers below it and
/// its own.
const LAYERS: &[(&str, &[&str])] = &[
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
];

/// The rule areas: the third of the rules' layers.
const AREA_LAYER: usize = 2;

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
            "carrying",
            "conditions",
            "damage",
            "doors",
            "movement",
            "penalties",
            "sound",
            "traps",
        ],
        "climbing and squeezing are movement with throws; a fall hurts; a pit is a trap's \
         hole; forcing rock is a door's bash (Dungeon Delves › Caving); hauling bears a share \
         of the hauled one's weight (RULINGS › Carrying and hauling)",
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

/// The crates of the core, each a folder with its `src/`.
const CRATES: &[&str] = &[
    "crates/ground",
    "crates/rules",
    "crates/minds",
    "crates/play",
    ".",
];

/// A module of a crate: the first part of its path, or `rules::<area>`, `policy::<mind>`.
fn module_of(path: &[String]) -> Option<String> {
    let first = path.first()?;
    match path.get(1) {
        Some(second) if first == "rules" || first == "policy" => Some(format!("{first}::{second}")),
        _ => Some(first.clone()),
    }
}

/// Every module's imports of other modules of its crate: module → (module it imports → the
/// files and paths that import it).
fn module_imports(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let all = files(src);
    let known: BTreeSet<Vec<String>> = all.iter().map(|f| module_of_file(f)).collect();
    let mut imports: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &all {
        let here = module_of_file(file);
        let Some(from) = module_of(&here) else {
            continue; // lib.rs
        };
        imports.entry(from.clone()).or_default();
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for n in named(&code_of(&text)) {
            let Some(path) = absolute(&here, &n.path, &known) else {
                continue; // another crate's
            };
            let Some(k) = (1..=path.len()).rev().find(|&k| known.contains(&path[..k])) else {
                continue; // an item at the crate's root, or a macro
            };
            let Some(to) = module_of(&path[..k]) else {
                continue;
            };
            if to != from {
                imports
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(format!(
                        "{}:{} names {}",
                        file.display(),
                        n.line,
                        n.path.join("::")
                    ));
            }
        }
    }
    imports
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// The modules of the rules' crate not placed, its upward imports and the area pairs not
/// allowed.
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
            if lf != AREA_LAYER || lt != AREA_LAYER {
                continue;
            }
            let (a, b) = (&from["rules::".len()..], &to["rules::".len()..]);
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
    found.extend(circles(&imports));
    found
}

/// Circles among a crate's modules: depth-first, a module met again on the current way.
fn circles(imports: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Vec<String> {
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
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for m in imports.keys() {
        visit(m, imports, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

fn rules_src() -> std::path::PathBuf {
    root().join("crates/rules/src")
}

#[test]
fn the_rules_import_only_downward_and_each_area_only_what_it_may() {
    let found = breaches(&rules_src());
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_crate_of_the_core_has_an_import_circle_among_its_modules() {
    for krate in CRATES {
        let found = circles(&module_imports(&root().join(krate).join("src")));
        assert!(found.is_empty(), "{krate}: {}", found.join("\n"));
    }
}

#[test]
fn every_area_that_may_use_another_is_a_rule_area() {
    let areas = &LAYERS[AREA_LAYER].1;
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

/// The test itself: an import up a layer, an area using one it may not (grouped, through
/// `super::super`, re-exported, through `crate as`, after an empty test module), a module with
/// no place and a circle are each found, in a copy of the rules with one such line added.
#[test]
fn an_upward_import_an_unlisted_pair_and_a_circle_are_found_however_written() {
    let src = rules_src();
    let scratch = std::env::temp_dir().join(format!("delve-layers-{}", std::process::id()));
    let copy = |to: &Path| {
        for f in files(&src) {
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
    let uses_doors = "the rule area `movement` uses `doors`";
    let cases: [(&str, &str, &str); 8] = [
        (
            "rules/light/mod.rs",
            "use crate::command::Command;",
            "imports `command` from the layer above",
        ),
        (
            "rules/movement/mod.rs",
            "use crate::rules::doors::Door;",
            uses_doors,
        ),
        (
            "rules/movement/mod.rs",
            "use crate::rules::{doors::Door};",
            uses_doors,
        ),
        (
            "rules/light/commands.rs",
            "use super::super::super::command::Command;",
            "imports `command` from the layer above",
        ),
        (
            "rules/mod.rs",
            "pub use combat::CombatEvent;",
            "imports `rules::combat` from the layer above",
        ),
        (
            "rules/movement/mod.rs",
            "use crate as core_;\nuse core_::rules::doors::Door;",
            uses_doors,
        ),
        (
            "rules/movement/mod.rs",
            "#[cfg(test)]\nmod tests {}\nfn f() -> Option<crate::rules::doors::Door> { None }",
            uses_doors,
        ),
        (
            "creature/mod.rs",
            "use crate::schedule::Phase;",
            "an import circle",
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
    let root = scratch.join("new");
    copy(&root);
    add(&root, "new_area.rs", "use crate::creature::Position;");
    assert!(
        breaches(&root)
            .iter()
            .any(|f| f.contains("`new_area` has no place")),
    );
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(breaches(&src).is_empty());
}
