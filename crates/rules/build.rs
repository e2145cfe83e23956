//! Writes the one list of commands from the rule areas' own declarations, so a command is
//! declared once, in its area: every `impl Act for X` under `src/rules/<area>/`, and every
//! entry of the areas' command macros (`creature_commands!`, `door_commands!`, whose entries
//! are written `X: "words" => …;`), becomes `rules::<area>::X` in the list `command/list.rs`
//! includes. The area re-exports the command at `rules::<area>::X` (the list does not compile
//! otherwise).

use std::fs;
use std::path::{Path, PathBuf};

/// The command macros whose entries declare commands.
const MACROS: &[&str] = &["creature_commands!", "door_commands!"];

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let rules = Path::new(&manifest).join("src/rules");
    println!("cargo:rerun-if-changed=src/rules");
    let mut files = Vec::new();
    walk(&rules, &mut files);
    files.sort();
    let mut list = String::from(
        "// Written by build.rs from the rule areas' declarations: do not edit.\ncommands! {\n",
    );
    let mut seen = std::collections::BTreeSet::new();
    for file in files {
        let area = area_of(&rules, &file);
        let text = fs::read_to_string(&file).expect("a rule file is readable");
        for name in declared(&code_of(&text)) {
            if !seen.insert(name.clone()) {
                panic!(
                    "the command {name} is declared twice (again in {})",
                    file.display()
                );
            }
            list += &format!("    rules::{area}::{name},\n");
        }
    }
    list += "}\n";
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("commands.rs");
    fs::write(&out, list).expect("the list is written");
}

/// Every `.rs` file under `dir` but the areas' unit tests.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/rules is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The rule area a file belongs to: its folder under `src/rules`, or its name for an area of
/// one file.
fn area_of(rules: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(rules).expect("under src/rules");
    let first = rel.components().next().expect("a file under src/rules");
    let first = first.as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// The commands a file declares, in the order it declares them.
fn declared(code: &str) -> Vec<String> {
    let mut found: Vec<(usize, String)> = Vec::new();
    let word = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("impl Act for ") {
        let name = word(&code[at + "impl Act for ".len()..]);
        if !name.is_empty() {
            found.push((at, name));
        }
    }
    for invocation in MACROS {
        for (at, _) in code.match_indices(invocation) {
            // A macro's definition (`macro_rules! creature_commands`) is not an invocation.
            if code[..at].trim_end().ends_with("macro_rules!") {
                continue;
            }
            let Some(open) = code[at..].find('{').map(|o| at + o + 1) else {
                continue;
            };
            let close = closing(code, open);
            let mut offset = open;
            for entry in code[open..close].split(';') {
                let trimmed = entry.trim_start();
                let name = word(trimmed);
                if !name.is_empty() && trimmed[name.len()..].trim_start().starts_with(':') {
                    found.push((offset, name));
                }
                offset += entry.len() + 1;
            }
        }
    }
    found.sort();
    found.into_iter().map(|(_, n)| n).collect()
}

/// The index of the brace closing the one opened just before `from`.
fn closing(code: &str, from: usize) -> usize {
    let mut depth = 1;
    for (i, c) in code[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return from + i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The code of a file with its comments and string literals blanked and its unit tests cut
/// (`#[cfg(test)]` to the end: the areas keep their tests last).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            i += 2;
            while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if bytes[i] == b'"' {
            out.push('"');
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            out.push('"');
            i += 1;
        } else if bytes[i] == b'\'' && i + 2 < bytes.len() && bytes[i + 2] == b'\'' {
            // A character literal such as '{' is no brace.
            out.push_str("' '");
            i += 3;
        } else {
            let c = text[i..].chars().next().expect("within the text");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}
