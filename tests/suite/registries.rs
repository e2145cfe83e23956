//! Additions that cannot be forgotten silently (DESIGN.md › Examples worth following:
//! architecture invariants, checked): every rule plugin is in the plugin list, and every
//! command is offered by its area or says why not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use delve::command::{Command, OFFERS, Offered};

use super::common::sample;

/// Every `.rs` file under `dir` with its text, up to its unit tests.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap().to_owned();
                out.push((path, code));
            }
        }
    }
    out
}

/// A plugin of the core left out of the plugin list would still carry out its commands but
/// never run its systems, install its part of a level or offer its choices: every `impl Plugin`
/// of `src/` is added by the list (`plugins::SimPlugins`).
#[test]
fn every_rule_plugin_is_in_the_plugin_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let list = std::fs::read_to_string(src.join("plugins.rs")).unwrap();
    let group = list
        .split("impl PluginGroup for SimPlugins")
        .nth(1)
        .and_then(|rest| rest.split("\n}\n").next())
        .expect("plugins.rs builds SimPlugins");
    let mut plugins = Vec::new();
    for (path, code) in sources(&src) {
        for part in code.split("impl Plugin for ").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            plugins.push((path.display().to_string(), name));
        }
    }
    assert!(plugins.len() > 15, "{plugins:?}");
    let added = |name: &str| {
        group.contains(&format!(".add({name})")) || group.contains(&format!("::{name})"))
    };
    let missing: Vec<_> = plugins
        .iter()
        .filter(|(path, name)| !path.ends_with("plugins.rs") && !added(name))
        .collect();
    assert!(missing.is_empty(), "not in SimPlugins: {missing:#?}");
}

/// Every command is declared offered by its area or not offered, with why (the list does not
/// compile without one or the other); one declared offered is made into an offer by a rule
/// area; and whatever is offered to any creature in delves of the four samples is declared
/// offered.
#[test]
fn every_command_is_offered_or_says_why_not() {
    let names: BTreeSet<&str> = OFFERS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names.len(), OFFERS.len(), "a command listed twice");
    for (name, offered) in OFFERS {
        if let Offered::NotOffered(why) = offered {
            assert!(why.len() > 10, "{name}: say why it is not offered");
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let rules: String = sources(&src).into_iter().map(|(_, c)| c).collect();
    for (name, offered) in OFFERS {
        if *offered == Offered::Offered {
            let made = [
                format!("AnyAct::from({name} "),
                format!("AnyAct::from(super::{name} "),
            ]
            .iter()
            .any(|m| rules.contains(m.as_str()));
            assert!(
                made,
                "{name} is declared offered, but no rule area offers it"
            );
        }
    }
    let mut seen = BTreeSet::new();
    for file in ["crypt", "cave", "undercroft", "descent"] {
        let level = sample(&format!("levels/{file}.ron"));
        let policy = delve::policy::PartyPolicy::default();
        let _ = delve::sim::play_autonomous_watched(&level, 2, &policy, &[], 200, |world| {
            for &e in world
                .resource::<delve::creature::CreatureIndex>()
                .0
                .values()
            {
                if world.get_entity(e).is_err() {
                    continue;
                }
                for (_, choice) in delve::rules::choices_for(world, e) {
                    seen.insert(Command::from(&choice.command).name());
                }
            }
        });
    }
    assert!(seen.len() >= 8, "{seen:?}");
    for name in &seen {
        let declared = OFFERS.iter().find(|(n, _)| n == name).map(|(_, o)| *o);
        assert_eq!(
            declared,
            Some(Offered::Offered),
            "{name} is offered but declared otherwise"
        );
    }
}
