//! Problems found in a level file, each pointing at a file, a line and a column.

use std::fmt;

use serde::Serialize;

/// How bad a problem is: errors stop a level from loading, warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A place in a source file, both numbers counted from 1 (columns in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SourcePos {
    pub line: usize,
    pub col: usize,
}

impl SourcePos {
    pub const START: SourcePos = SourcePos { line: 1, col: 1 };

    pub fn new(line: usize, col: usize) -> Self {
        Self { line, col }
    }
}

/// What kind of problem a diagnostic reports, for tests and tools to ask by type (the message
/// says it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    /// The file cannot be read as a level (RON syntax, a wrong type, an unknown field).
    Syntax,
    /// The file (or a bestiary it names) cannot be read at all.
    Unreadable,
    /// The map's shape or legend: no rows, uneven rows, too big, an unknown or repeated
    /// character.
    Map,
    /// A square outside the map.
    OutsideTheMap,
    /// Something placed where it cannot be: a trap or light in a wall, a creature where no one
    /// can stand, a door off a door square, a patrol through rock.
    InTheWay,
    /// A name that names nothing: a faction, a template, a door a trap waits on, a member.
    UnknownName,
    /// The same thing given twice.
    Duplicate,
    /// Something required is not given: a name, a faction, a square, hit points, a speed.
    Missing,
    /// A value out of its range or form.
    BadValue,
    /// Parts that do not fit together: a key or goal no one carries, a mapper outside the party,
    /// a marching order that leaves someone out.
    Inconsistent,
    /// A design problem `delve check --lint` finds.
    Lint,
}

/// One problem in one file: `crypt.ron:12:9: error: …`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub kind: DiagnosticKind,
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn error(
        kind: DiagnosticKind,
        file: &str,
        at: SourcePos,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Error,
            kind,
            file: file.to_owned(),
            line: at.line,
            col: at.col,
            message: message.into(),
        }
    }

    pub fn warning(
        kind: DiagnosticKind,
        file: &str,
        at: SourcePos,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(kind, file, at, message)
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn pos(&self) -> SourcePos {
        SourcePos::new(self.line, self.col)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {kind}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// All the problems of one load. A level loads when none of them is an error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| !d.is_error())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorted by line and column, so a reader meets them in file order.
    pub fn sorted(mut self) -> Self {
        self.0
            .sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
        self
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}
