//! Creature templates: the built-in bestiary (embedded) and the bestiary files a level names.

use std::collections::BTreeMap;

use super::diagnostic::{Diagnostic, Diagnostics};
use super::schema::{RawBestiary, RawCreature};
use super::validate::{ron_diagnostic, ron_options};

/// The built-in bestiary, embedded in the binary.
pub const BUILTIN_BESTIARY: &str = include_str!("../../../../assets/bestiary.ron");
pub const BUILTIN_BESTIARY_NAME: &str = "assets/bestiary.ron";

/// Templates by name, each with the file it came from.
#[derive(Clone, Debug, Default)]
pub struct Bestiary {
    templates: BTreeMap<String, (RawCreature, String)>,
}

impl Bestiary {
    /// The built-in bestiary alone.
    pub fn builtin() -> Self {
        let mut b = Bestiary::default();
        let mut problems = Diagnostics::default();
        b.add_source(BUILTIN_BESTIARY, BUILTIN_BESTIARY_NAME, &mut problems);
        debug_assert!(problems.is_empty(), "{problems}");
        b
    }

    /// Adds the templates of one bestiary file; later files override earlier ones.
    pub fn add_source(&mut self, src: &str, file: &str, problems: &mut Diagnostics) {
        let wild = super::validate::numbers_out_of_bounds(src, file);
        if !wild.is_empty() {
            wild.into_iter().for_each(|d| problems.push(d));
            return;
        }
        match ron_options().from_str::<RawBestiary>(src) {
            Ok(raw) => {
                for (name, t) in raw.templates {
                    self.templates.insert(name, (t, file.to_owned()));
                }
            }
            Err(e) => problems.push(ron_diagnostic(file, src, &e, "a bestiary")),
        }
    }

    pub fn get(&self, name: &str) -> Option<&RawCreature> {
        self.templates.get(name).map(|(t, _)| t)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.templates.keys().map(String::as_str)
    }
}

/// A problem with a bestiary file that could not be read.
pub fn unreadable(
    file: &str,
    at: super::SourcePos,
    path: &str,
    err: &std::io::Error,
) -> Diagnostic {
    Diagnostic::error(
        super::DiagnosticKind::Unreadable,
        file,
        at,
        format!("cannot read bestiary `{path}`: {err}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_bestiary_loads() {
        let mut problems = Diagnostics::default();
        let mut b = Bestiary::default();
        b.add_source(BUILTIN_BESTIARY, BUILTIN_BESTIARY_NAME, &mut problems);
        assert!(problems.is_empty(), "{problems}");
        assert!(b.get("ghoul").is_some());
    }
}
