//! Reading the house's Rust source as the compiler would, for the tests that hold its shape
//! (`layers`, `tidy`): the code without comments, strings and test modules; every path it
//! names, from `use` trees (grouped, renamed, re-exported, `super::super`, `crate as x`) and
//! from inline paths; and the length of every function.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, relative to it, in a fixed order.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, under, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(under).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The module path of a file under a crate's `src/`: `rules/doors/mod.rs` is `rules::doors`,
/// `lib.rs` the root (empty).
pub fn module_of_file(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// The source with comments, string and character literals blanked (newlines kept, so line
/// numbers hold).
pub fn without_comments(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char, out: &mut String| out.push(if c == '\n' { '\n' } else { ' ' });
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(b[i], &mut out);
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            out.push_str("\"\"");
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                blank(b[j], &mut out);
                j += 1;
            }
            i = j;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    blank(b[i], &mut out);
                    i += 1;
                }
                if i < b.len() {
                    blank(b[i], &mut out);
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\''), or a lifetime ('a) left as it is.
            let lit = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&j| b[j] == '\'' && j > i + 2)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match lit {
                Some(end) => {
                    out.push_str("' '");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The index of the brace closing the one opened at `open`.
fn closing(code: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The code of a file as the build (not its tests) sees it: comments and strings blanked, and
/// every item under `#[cfg(test)]` blanked to its end (an empty `mod tests {}` hides nothing
/// after it).
pub fn code_of(text: &str) -> String {
    let mut code = without_comments(text).into_bytes();
    let mut from = 0;
    while let Some(at) = find(&code, b"#[cfg(test)]", from) {
        // The item the attribute is on ends at its first `;` or at the brace closing its first
        // `{`, whichever comes first.
        let semi = code[at..].iter().position(|&c| c == b';').map(|p| at + p);
        let brace = code[at..].iter().position(|&c| c == b'{').map(|p| at + p);
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s,
            (_, Some(b)) => closing(&code, b),
            (Some(s), None) => s,
            (None, None) => code.len() - 1,
        };
        let last = end.min(code.len() - 1);
        for c in &mut code[at..=last] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(code).unwrap()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A path a file names, as written, and whether it is a `pub use` (a re-export).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub path: Vec<String>,
    pub reexport: bool,
    pub line: usize,
}

/// Every path a file's code names: each leaf of each `use` tree (`use a::{b::c, d as e}` names
/// `a::b::c` and `a::d`), and each inline path of two parts or more that starts with `crate`,
/// `super`, `self` or a name a `use` brought in (`core_::level::Level` after `use crate as
/// core_`).
pub fn named(code: &str) -> Vec<Named> {
    // A visibility (`pub(in crate::a)`) names a module without importing it.
    let mut code = code.to_owned();
    while let Some(at) = code.find("pub(in ") {
        let end = code[at..].find(')').map_or(code.len(), |e| at + e + 1);
        code.replace_range(at..end, &" ".repeat(end - at));
    }
    let code = code.as_str();
    let mut found = Vec::new();
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let line_at = |i: usize| code[..i].matches('\n').count() + 1;
    // The `use` declarations.
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("use ") {
        let at = from + p;
        from = at + 4;
        let before = code[..at].trim_end();
        let starts = at == 0 || !is_word(code[..at].chars().last().unwrap());
        if !starts {
            continue;
        }
        let reexport = before.ends_with("pub")
            || before.ends_with(')') && {
                let open = before.rfind("pub(").unwrap_or(usize::MAX);
                open != usize::MAX && before[open..].starts_with("pub(")
            };
        let Some(end) = code[at..].find(';').map(|e| at + e) else {
            break;
        };
        spans.push((at, end));
        let mut leaves = Vec::new();
        leaves_of(&tight(&code[at + 4..end]), &mut Vec::new(), &mut leaves);
        for (path, alias) in leaves {
            // A path through a name brought in before (`use crate as core_; use core_::x;`).
            let path = match aliases.get(&path[0]) {
                Some(to) if !matches!(path[0].as_str(), "crate" | "super" | "self") => {
                    let mut p = to.clone();
                    p.extend(path[1..].iter().cloned());
                    p
                }
                _ => path,
            };
            let name = alias.or_else(|| path.last().filter(|l| *l != "*").cloned());
            if let Some(name) = name {
                aliases.insert(name, path.clone());
            }
            found.push(Named {
                path,
                reexport,
                line: line_at(at),
            });
        }
    }
    // Inline paths, outside the `use` declarations.
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        let starts = is_word(c) && (k == 0 || !(is_word(chars[k - 1].1) || chars[k - 1].1 == ':'));
        if !starts || spans.iter().any(|&(a, e)| i >= a && i < e) {
            k += 1;
            continue;
        }
        let mut j = k;
        while j < chars.len() && (is_word(chars[j].1) || chars[j].1 == ':') {
            j += 1;
        }
        let end = chars.get(j).map_or(code.len(), |c| c.0);
        let text = &code[i..end];
        let parts: Vec<String> = text
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        if parts.len() >= 2 && text.contains("::") {
            let head = parts[0].as_str();
            let path = if matches!(head, "crate" | "super" | "self") {
                Some(parts.clone())
            } else {
                aliases.get(head).map(|to| {
                    let mut p = to.clone();
                    p.extend(parts[1..].iter().cloned());
                    p
                })
            };
            if let Some(path) = path {
                found.push(Named {
                    path,
                    reexport: false,
                    line: line_at(i),
                });
            }
        }
        k = j.max(k + 1);
    }
    found
}

/// A `use` tree with its spaces only between words (`crate as x`, `a::{b,c}`).
fn tight(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        let joins = out.ends_with(is_word) && w.starts_with(is_word);
        if joins {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// The leaves of a `use` tree, with their renames.
fn leaves_of(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    let tree = tree.trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let added: Vec<String> = head
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        let n = added.len();
        prefix.extend(added);
        let mut depth = 0;
        let mut item = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth == 0 {
                leaves_of(item.trim(), prefix, out);
                item.clear();
            } else {
                item.push(c);
            }
        }
        if !item.trim().is_empty() {
            leaves_of(item.trim(), prefix, out);
        }
        prefix.truncate(prefix.len() - n);
        return;
    }
    let tree = tree.trim();
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p.trim(), Some(a.trim().to_owned())),
        None => (tree, None),
    };
    let mut full = prefix.clone();
    full.extend(
        path.split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned),
    );
    if full.last().is_some_and(|l| l == "self") {
        full.pop();
    }
    if !full.is_empty() {
        out.push((full, alias));
    }
}

/// A named path made absolute within its crate, from the module `here` of the file naming it:
/// `crate::a::b` is `a::b`; `super::x` is `x` in the parent; a path whose first part is a
/// module of the crate under `here` (`use combat::X` in `rules/mod.rs`) is that module's.
/// `None` for a path into another crate.
pub fn absolute(
    here: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut at: Vec<String> = here.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|p| p == "super") {
                at.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = at.clone();
            child.push(first.to_owned());
            if !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    at.extend(rest.iter().cloned());
    Some(at)
}

/// Every function of a file whose body is over `limit` lines: (its name, its first line, its
/// lines), counting from the line of `fn` to the line of its closing brace.
pub fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let code = without_comments(text);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find(bytes, b"fn ", from) {
        from = at + 3;
        if at > 0 && is_word(bytes[at - 1] as char) {
            continue;
        }
        let name: String = code[at + 3..].chars().take_while(|&c| is_word(c)).collect();
        if name.is_empty() {
            continue;
        }
        // The body: the first `{` before any `;` (a declaration without a body has none).
        let Some(open) = code[at..].find(['{', ';']).map(|p| at + p) else {
            break;
        };
        if bytes[open] == b';' {
            continue;
        }
        let close = closing(bytes, open);
        let first = code[..at].matches('\n').count() + 1;
        let last = code[..close].matches('\n').count() + 1;
        let lines = last - first + 1;
        if lines > limit {
            out.push((name, first, lines));
        }
    }
    out
}
