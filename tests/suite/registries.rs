//! Additions that cannot be forgotten silently (DESIGN.md › Examples worth following:
//! architecture invariants, checked): every rule plugin is in the plugin list, and every
//! command is offered by its area or says why not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bevy::prelude::World;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::act::Offered;
use delve_rules::command::{Command, offers};

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
/// of the rules and the minds (`crates/rules`, `crates/minds`) is added by the list
/// (`plugins::SimPlugins`, in `crates/play`).
#[test]
fn every_rule_plugin_is_in_the_plugin_list() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let list = std::fs::read_to_string(crates.join("play/src/plugins.rs")).unwrap();
    let group = list
        .split("impl PluginGroup for SimPlugins")
        .nth(1)
        .and_then(|rest| rest.split("\n}\n").next())
        .expect("plugins.rs builds SimPlugins");
    let mut plugins = Vec::new();
    let sources = ["rules", "minds", "play"]
        .into_iter()
        .flat_map(|c| sources(&crates.join(c).join("src")));
    for (path, code) in sources {
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

/// Scenarios where the rare offers come up: a battle with a jammed pistol, an enchanted
/// sword, a shield, Acrobatics and Sneaking; a pole within reach of a known trap beside a
/// closed door; a torch and a ghoul in the dark beyond it.
fn showcases() -> Vec<Delve> {
    let fighter = r#"(name: "Ada", faction: "party", at: (2, 1), hp: 30, ac: 14,
        encumbrance_stone: 2.0, attack_bonus: 2, dex: 14,
        proficiencies: [Acrobatics, Gunsmithing, UseMagicDevice, Sneaking],
        throws: { Sneaking: 14 },
        shield: Some((weight: Heavy, ac_bonus: 1)),
        weapons: [(name: "sword", damage: "1d8", damage_type: Slashing,
                   enchantment: Some((name: "flaming", damage: "1d6"))),
                  (name: "pistol", damage: "1d8", damage_type: Piercing, range_feet: 20,
                   kind: Some(Firearm(misfire: 2, advanced: true)))])"#;
    let mut battle = Scenario::new(&["XXXXXXXX", "X......X", "X......X", "XXXXXXXX"])
        .light("(at: (5, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
        .creature(fighter)
        .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (3, 1), hp: 30)"#)
        .build();
    for who in ["Ada", "Gnawbone"] {
        let e = battle.entity(who);
        battle
            .world_mut()
            .entity_mut(e)
            .insert(delve_rules::rules::combat::battle::Controlled);
    }
    battle.script_dice(&[11, 9, 6, 6]);
    battle.run(1);
    let ada = battle.entity("Ada");
    battle
        .world_mut()
        .entity_mut(ada)
        .insert(delve_rules::rules::combat::gear::Jammed);

    let mut trap = Scenario::new(&["XXXXXXX", "X...+.X", "XXXXXXX"])
        .legend("'+': Door")
        .door("(at: (4, 1))")
        .trap(r#"(at: (2, 1), kind: Custom(name: "dart", damage: "1d4"), hidden: false)"#)
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(r#"(name: "Sera", faction: "party", at: (3, 1), hp: 10, ac: 12, encumbrance_stone: 2.0, gear: [TenFootPole])"#)
        .build();
    trap.run(1);

    // A thief beside a trap it sees and a prone hider; a disarmed trap beside it.
    let thief = r#"(name: "Nim", faction: "party", at: (3, 1), hp: 10, ac: 12,
        encumbrance_stone: 2.0, proficiencies: [Trapbreaking, Hiding], conditions: [Prone],
        throws: { Trapbreaking: 12, Hiding: 12 }, gear: [ThievesTools])"#;
    let mut traps = Scenario::new(&["XXXXXXX", "X.....X", "XXXXXXX"])
        .trap(r#"(at: (2, 1), kind: Custom(name: "dart", damage: "1d4"), hidden: false)"#)
        .trap(r#"(at: (4, 1), kind: Custom(name: "needle", damage: "1d4"), hidden: false)"#)
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(thief)
        .build();
    traps.run(1);
    let world = traps.world_mut();
    let mut q = world.query::<(
        &delve_rules::creature::Position,
        &mut delve_rules::rules::traps::Trap,
    )>();
    for (p, mut t) in q.iter_mut(world) {
        if p.0.x == 4 {
            t.state = delve_rules::rules::traps::TrapState::Disarmed;
        }
    }

    // A giant with the key, an axe and a maul beside a locked door, which it has tried (a lock
    // is known only once tried).
    let mut doors = Scenario::new(&["XXXXXXX", "X...+.X", "XXXXXXX"])
        .legend("'+': Door")
        .door(r#"(at: (4, 1), lock: Locked(key: Some("ash key")))"#)
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Grom", faction: "party", at: (3, 1), hp: 40, ac: 15, speed_feet: 120,
                gear: [Key("ash key"), Axe], weapons: [
                    (name: "maul", damage: "2d8", damage_type: Bludgeoning,
                     structural_damage: (wood: "1d10", stone: "1d2"))])"#,
        )
        .build();
    doors.act(delve_rules::command::acts::OpenDoor {
        who: "Grom".into(),
        at: (4, 1),
    });

    // Caving: Jess fallen into a chasm with a hook and a rope; a traverse rigged; Ada climbing
    // out of a pit with Bo beside it.
    let kit = ", at: (5, 1), attack_bonus: 1, gear: [GrapplingHook, Rope(50)]";
    let mut fallen = crate::caving::chasm(kit, 13, '.');
    fallen.script_dice(&[6, 1, 1, 1]);
    crate::caving::jump_across(&mut fallen);
    let mut rigged = crate::caving::chasm(kit, 13, '.');
    rigged.give(delve_rules::command::acts::RigTraverse {
        who: "Jess".into(),
        to: (8, 1),
    });
    rigged.script_dice(&[13]);
    rigged.run(4);
    let mut pit = crate::caving::ada_in_a_pit(
        ", proficiencies: [Climbing], throws: { Climbing: 6 }",
        ", str: 18, gear: [Rope(50)]",
    );
    pit.give(delve_rules::command::acts::Climb {
        who: "Ada".into(),
        to: (2, 1),
        pace: delve_rules::rules::caving::ClimbPace::Third,
    });
    pit.script_dice(&[20]);
    pit.run(1);

    // Water: Pip goes under (Bo is offered to grab it), and Bo grabs it (to let go).
    let drowning = || {
        let mut pool = crate::water::pool(", encumbrance_stone: 3.0", "judge: ()");
        pool.script_dice(&[1]);
        pool.run(1);
        pool
    };
    let mut held = drowning();
    held.act(delve_rules::command::acts::Grab {
        who: "Bo".into(),
        whom: "Pip".into(),
    });
    // Caving: stuck in a squeeze (to wiggle back or push forward).
    let stuck = crate::autonomy::stuck_in_a_squeeze(
        "Tam",
        r#"(name: "Tam", faction: "party", at: (3, 1), hp: 8, ac: 12, encumbrance_stone: 2.0,
            saves: { Paralysis: 14 })"#,
        &[],
    );
    vec![
        stuck,
        battle,
        trap,
        traps,
        doors,
        fallen,
        rigged,
        pit,
        drowning(),
        held,
        dark(),
        super::hauling::roped_shaft(),
    ]
}

/// A torch in a dark passage and a ghoul beyond its light.
fn dark() -> Delve {
    let mut dark = Scenario::new(&[
        "XXXXXXXXXXXXXXXXXXXXXX",
        "X....................X",
        "XXXXXXXXXXXXXXXXXXXXXX",
    ])
    .faction(r#"(name: "party")"#)
    .faction(r#"(name: "ghouls", hostile_to: ["party"])"#)
    .creature(
        r#"(name: "Bo", faction: "party", at: (1, 1), hp: 10, ac: 12, encumbrance_stone: 2.0,
            carries: [(kind: Torch, lit: true)])"#,
    )
    .creature(r#"(name: "Gnawbone", template: "ghoul", faction: "ghouls", at: (12, 1), hp: 30)"#)
    .build();
    dark.run(1);
    dark
}

/// The names of the commands offered to anyone in this world now.
fn offered_now(world: &World, seen: &mut BTreeSet<&'static str>) {
    for &e in world
        .resource::<delve_rules::creature::CreatureIndex>()
        .0
        .values()
    {
        if world.get_entity(e).is_err() {
            continue;
        }
        for (_, choice) in delve_rules::rules::choices_for(world, e) {
            seen.insert(Command::from(&choice.command).name());
        }
    }
}

/// The commands a rule area's source defines: each `impl Act for X`, and each entry of the
/// areas' command macros (`creature_commands!`, `door_commands!`), whose entries are written
/// `Name: "words" => …;`.
fn commands_defined() -> BTreeSet<(String, String)> {
    let rules = super::source::root().join("crates/rules/src");
    let mut defined = BTreeSet::new();
    for file in super::source::files(&rules) {
        let text = std::fs::read_to_string(rules.join(&file)).unwrap();
        let code = super::source::code_of(&text);
        let at = file.display().to_string();
        for chunk in code.split("impl Act for ").skip(1) {
            let name: String = chunk.chars().take_while(|c| c.is_alphanumeric()).collect();
            if !name.is_empty() {
                defined.insert((name, at.clone()));
            }
        }
        for invocation in ["creature_commands! {", "door_commands! {"] {
            for block in code.split(invocation).skip(1) {
                let body = &block[..block.find("\n}").unwrap_or(block.len())];
                for entry in body.split(';') {
                    let entry = entry.trim();
                    if let Some((name, _)) = entry.split_once(':')
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_alphanumeric())
                    {
                        defined.insert((name.to_owned(), at.clone()));
                    }
                }
            }
        }
    }
    defined
}

/// The list is written by the rules crate's build script from the areas' declarations; read
/// again here another way, every command an area defines is in it, and it names nothing the
/// areas do not define (a command the script failed to read could be neither given nor offered,
/// and nothing else would say so).
#[test]
fn every_command_an_area_defines_is_listed() {
    let defined = commands_defined();
    let listed: BTreeSet<&str> = offers().iter().map(|(n, _)| *n).collect();
    let unlisted: Vec<_> = defined
        .iter()
        .filter(|(name, _)| !listed.contains(name.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "defined in a rule area but not in the list the build script wrote \
         (crates/rules/build.rs): {unlisted:?}"
    );
    let names: BTreeSet<&str> = defined.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, listed, "the list and the areas' commands differ");
}

/// Every command is declared offered by its area or not offered, with why (the list does not
/// compile without one or the other); every command declared offered is offered to some
/// creature, in delves of the four samples or in the showcases; and whatever is offered is
/// declared offered.
#[test]
fn every_command_is_offered_or_says_why_not() {
    let names: BTreeSet<&str> = offers().iter().map(|(n, _)| *n).collect();
    assert_eq!(names.len(), offers().len(), "a command listed twice");
    for (name, offered) in &offers() {
        if let Offered::NotOffered(why) = offered {
            assert!(why.len() > 10, "{name}: say why it is not offered");
        }
    }
    let mut seen = BTreeSet::new();
    for file in ["crypt", "cave", "undercroft", "descent"] {
        let level = sample(&format!("levels/{file}.ron"));
        let policy = delve_ground::party_policy::PartyPolicy::default();
        let _ = delve_play::sim::play_autonomous_watched(&level, 2, &policy, &[], 200, |world| {
            offered_now(world, &mut seen);
        });
    }
    for delve in showcases() {
        offered_now(delve.world(), &mut seen);
    }
    let never: Vec<&str> = offers()
        .iter()
        .filter(|(n, o)| *o == Offered::Offered && !seen.contains(n))
        .map(|(n, _)| *n)
        .collect();
    assert!(
        never.is_empty(),
        "declared offered, but offered to no one: {never:?}"
    );
    for name in &seen {
        let declared = offers().iter().find(|(n, _)| n == name).map(|(_, o)| *o);
        assert_eq!(
            declared,
            Some(Offered::Offered),
            "{name} is offered but declared otherwise"
        );
    }
}

/// A misspelt field in a script is refused, never skipped: `Move(…, pase: Running)` once
/// walked at exploration pace. Every listed command denies fields it does not have (a new
/// command without `#[serde(deny_unknown_fields)]` fails here).
#[test]
fn every_command_refuses_a_field_it_does_not_have() {
    for (name, _) in &offers() {
        let text = format!("{name}(pase: Running)");
        let read = delve_rules::command::script_options().from_str::<Command>(&text);
        let why = read.expect_err(&text).code.to_string();
        assert!(why.contains("pase"), "{text}: {why}");
    }
    let script = "[(round: 0, command: Move(who: \"Brannoc\", to: (6, 2), pase: Running))]";
    let e = delve_play::sim::JournalFile::from_text(script).unwrap_err();
    assert_eq!(
        (e.span.start.line, e.code.to_string().contains("pase")),
        (1, true)
    );
}

/// The README's forms of optional values in a script read as written: `from: (5, 2)` and
/// `policy: (…)` bare; `Some((5, 2))` (which reads as `Some(5, 2)` among unwrapped commands)
/// is refused with how to write it.
#[test]
fn optional_values_in_a_script_are_written_bare() {
    let bare = "[(round: 0, command: Jump(who: \"Sera\", to: (6, 2), from: (5, 2))),
                 (round: 0, command: Autonomy(party: \"party\", policy: (turn_limit: 9)))]";
    let read = delve_play::sim::JournalFile::from_text(bare).unwrap();
    assert_eq!(read.commands.len(), 2);
    let wrapped = "[(round: 0, command: Jump(who: \"Sera\", to: (6, 2), from: Some((5, 2))))]";
    let why = delve_play::sim::JournalFile::from_text(wrapped)
        .unwrap_err()
        .code
        .to_string();
    assert!(why.contains("written bare: `from: (5, 2)`"), "{why}");
}

/// A name a script gives is printed in the log as text: a newline or a terminal's escape in it
/// is written escaped, and forges no line (`who: "Ghost\n[h0 t0 r0] …"` once printed a second
/// line as the log's own).
#[test]
fn a_name_from_a_script_forges_no_log_line() {
    let script = r#"[(round: 0, command: Halt(who: "Ghost\n[h0 t0 r0] the party reaches its goal\u{1b}[31m"))]"#;
    let script = delve_play::sim::JournalFile::from_text(script)
        .unwrap()
        .commands;
    let level = sample("levels/crypt.ron");
    let app = delve_play::sim::play(&level, 1, &script, 1);
    let text = app
        .world()
        .resource::<delve_ground::log::EventLog>()
        .to_text();
    assert!(text.contains("Ghost\\n[h0 t0 r0] the party"), "{text}");
    assert!(text.contains("\\u{1b}[31m"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("[h0 t0 r0] the party reaches"))
    );
}
