//! Where each value of a RON document starts, so that a problem found after deserializing
//! (an unknown faction, a door on a wall) can still be reported at its line and column.
//!
//! serde forgets positions; this small scanner reads the same text again and records the start
//! of every value under its path (`doors[2].at`). It is built only when a problem is reported.
//! It never panics: on text it cannot follow it keeps what it has, and lookups fall back to the
//! nearest enclosing value.

use super::diagnostic::SourcePos;

/// One step of a path into the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    /// A named field of a struct, `name: value`.
    Field(&'a str),
    /// The n-th element of a list, the n-th positional value in parentheses, or the n-th entry of
    /// a map (its value).
    Index(usize),
}

#[derive(Debug, Default)]
struct Node {
    pos: SourcePos,
    /// Named fields (struct) in order.
    fields: Vec<(String, usize)>,
    /// Positional children: list elements, tuple members, map values.
    items: Vec<usize>,
    /// Map keys, parallel to `items` for maps.
    keys: Vec<usize>,
    /// For a string literal: where its first character (after the quote) stands.
    string_start: Option<SourcePos>,
}

/// The positions of the values of one RON document.
#[derive(Debug)]
pub struct SpanIndex {
    nodes: Vec<Node>,
}

impl SpanIndex {
    pub fn build(src: &str) -> Self {
        let mut p = Parser {
            chars: src.chars().collect(),
            i: 0,
            line: 1,
            col: 1,
            nodes: Vec::new(),
            depth: 0,
        };
        p.skip_ws();
        // `#![enable(...)]` extension attributes before the value.
        while p.peek() == Some('#') {
            while let Some(c) = p.bump() {
                if c == ']' {
                    break;
                }
            }
            p.skip_ws();
        }
        if p.value().is_none() && p.nodes.is_empty() {
            p.nodes.push(Node {
                pos: SourcePos::START,
                ..Node::default()
            });
        }
        SpanIndex { nodes: p.nodes }
    }

    /// The start of the value at `path`, or of the deepest value on the way that exists.
    pub fn pos(&self, path: &[Seg]) -> SourcePos {
        self.node(path).map_or(SourcePos::START, |n| n.pos)
    }

    /// The start of a map key at `path` (the path names the map, `index` the entry).
    pub fn key_pos(&self, path: &[Seg], index: usize) -> SourcePos {
        match self.node(path) {
            Some(n) => n.keys.get(index).map_or(n.pos, |&k| self.nodes[k].pos),
            None => SourcePos::START,
        }
    }

    /// The position of the `offset`-th character inside the string literal at `path`.
    pub fn char_pos(&self, path: &[Seg], offset: usize) -> SourcePos {
        match self.node(path) {
            Some(n) => match n.string_start {
                Some(s) => SourcePos::new(s.line, s.col + offset),
                None => n.pos,
            },
            None => SourcePos::START,
        }
    }

    fn node(&self, path: &[Seg]) -> Option<&Node> {
        let mut n = self.nodes.first()?;
        for seg in path {
            let next = match *seg {
                Seg::Field(name) => n
                    .fields
                    .iter()
                    .find(|(f, _)| f == name)
                    .map(|&(_, id)| id)
                    // `Some(x)` and newtype wrappers: look through one positional value.
                    .or_else(|| {
                        n.items.first().and_then(|&id| {
                            self.nodes[id]
                                .fields
                                .iter()
                                .find(|(f, _)| f == name)
                                .map(|&(_, id)| id)
                        })
                    }),
                Seg::Index(i) => n.items.get(i).copied(),
            };
            match next {
                Some(id) => n = &self.nodes[id],
                None => return Some(n),
            }
        }
        Some(n)
    }
}

struct Parser {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
    nodes: Vec<Node>,
    depth: usize,
}

/// Deeper nesting than this is not followed (the document is then reported at its outer values).
const MAX_DEPTH: usize = 128;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn here(&self) -> SourcePos {
        SourcePos::new(self.line, self.col)
    }

    fn skip_ws(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut level = 1;
                    while level > 0 {
                        match (self.bump(), self.peek()) {
                            (None, _) => return,
                            (Some('*'), Some('/')) => {
                                self.bump();
                                level -= 1;
                            }
                            (Some('/'), Some('*')) => {
                                self.bump();
                                level += 1;
                            }
                            _ => {}
                        }
                    }
                }
                _ => return,
            }
        }
    }

    fn new_node(&mut self, pos: SourcePos) -> usize {
        self.nodes.push(Node {
            pos,
            ..Node::default()
        });
        self.nodes.len() - 1
    }

    /// Reads one value and returns its node, or `None` where the text cannot be followed.
    fn value(&mut self) -> Option<usize> {
        self.skip_ws();
        if self.depth > MAX_DEPTH {
            return None;
        }
        let pos = self.here();
        let id = self.new_node(pos);
        match self.peek()? {
            '(' => self.parens(id)?,
            '[' => self.list(id)?,
            '{' => self.map(id)?,
            '"' => {
                self.bump();
                self.nodes[id].string_start = Some(self.here());
                self.string_body()?;
            }
            '\'' => {
                self.bump();
                loop {
                    match self.bump()? {
                        '\\' => {
                            self.bump()?;
                        }
                        '\'' => break,
                        _ => {}
                    }
                }
            }
            'r' if matches!(self.peek_at(1), Some('#') | Some('"')) => {
                self.bump();
                let mut hashes = 0;
                while self.peek() == Some('#') {
                    self.bump();
                    hashes += 1;
                }
                self.bump(); // opening quote
                self.nodes[id].string_start = Some(self.here());
                'outer: loop {
                    if self.bump()? == '"' {
                        for _ in 0..hashes {
                            if self.peek() != Some('#') {
                                continue 'outer;
                            }
                            self.bump();
                        }
                        break;
                    }
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                while matches!(self.peek(), Some(c) if c.is_alphanumeric() || c == '_') {
                    self.bump();
                }
                self.skip_ws();
                if self.peek() == Some('(') {
                    self.parens(id)?;
                }
            }
            _ => {
                // Numbers and anything else atomic.
                while matches!(self.peek(), Some(c) if c.is_alphanumeric() || "+-._".contains(c)) {
                    self.bump();
                }
                if self.i < self.chars.len() && self.here() == pos {
                    return None;
                }
            }
        }
        Some(id)
    }

    fn string_body(&mut self) -> Option<()> {
        loop {
            match self.bump()? {
                '\\' => {
                    self.bump()?;
                }
                '"' => return Some(()),
                _ => {}
            }
        }
    }

    fn parens(&mut self, id: usize) -> Option<()> {
        self.bump(); // (
        self.depth += 1;
        loop {
            self.skip_ws();
            match self.peek()? {
                ')' => {
                    self.bump();
                    break;
                }
                ',' => {
                    self.bump();
                }
                _ => {
                    if let Some(name) = self.field_name() {
                        let child = self.value()?;
                        self.nodes[id].fields.push((name, child));
                    } else {
                        let child = self.value()?;
                        self.nodes[id].items.push(child);
                    }
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// `ident :` at the cursor: consumes it and returns the name; otherwise consumes nothing.
    fn field_name(&mut self) -> Option<String> {
        let start = self.i;
        let mut k = 0;
        while matches!(self.peek_at(k), Some(c) if c.is_alphanumeric() || c == '_') {
            k += 1;
        }
        if k == 0 || !self.chars[start].is_alphabetic() && self.chars[start] != '_' {
            return None;
        }
        let mut j = k;
        while matches!(self.peek_at(j), Some(c) if c.is_whitespace()) {
            j += 1;
        }
        if self.peek_at(j) != Some(':') {
            return None;
        }
        let name: String = self.chars[start..start + k].iter().collect();
        for _ in 0..=j {
            self.bump();
        }
        Some(name)
    }

    fn list(&mut self, id: usize) -> Option<()> {
        self.bump(); // [
        self.depth += 1;
        loop {
            self.skip_ws();
            match self.peek()? {
                ']' => {
                    self.bump();
                    break;
                }
                ',' => {
                    self.bump();
                }
                _ => {
                    let child = self.value()?;
                    self.nodes[id].items.push(child);
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    fn map(&mut self, id: usize) -> Option<()> {
        self.bump(); // {
        self.depth += 1;
        loop {
            self.skip_ws();
            match self.peek()? {
                '}' => {
                    self.bump();
                    break;
                }
                ',' => {
                    self.bump();
                }
                _ => {
                    let key = self.value()?;
                    self.skip_ws();
                    if self.peek() == Some(':') {
                        self.bump();
                    }
                    let val = self.value()?;
                    self.nodes[id].keys.push(key);
                    self.nodes[id].items.push(val);
                }
            }
        }
        self.depth -= 1;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r####"(
    name: "x", // a comment
    map: [
        "###",
        "#.#",
    ],
    legend: { '#': Wall(Stone), '.': Floor },
    doors: [ (at: (1, 1), lock: Locked(key: Some("k"))) ],
)"####;

    #[test]
    fn finds_fields_items_and_keys() {
        let ix = SpanIndex::build(SRC);
        assert_eq!(ix.pos(&[Seg::Field("name")]), SourcePos::new(2, 11));
        assert_eq!(
            ix.pos(&[Seg::Field("map"), Seg::Index(1)]),
            SourcePos::new(5, 9)
        );
        assert_eq!(
            ix.char_pos(&[Seg::Field("map"), Seg::Index(1)], 1),
            SourcePos::new(5, 11)
        );
        assert_eq!(
            ix.key_pos(&[Seg::Field("legend")], 1),
            SourcePos::new(7, 33)
        );
        assert_eq!(
            ix.pos(&[Seg::Field("doors"), Seg::Index(0), Seg::Field("at")]),
            SourcePos::new(8, 19)
        );
        // A missing step falls back to the deepest value found.
        assert_eq!(
            ix.pos(&[Seg::Field("doors"), Seg::Index(5)]),
            SourcePos::new(8, 12)
        );
    }

    #[test]
    fn never_panics_on_broken_text() {
        for s in ["", "(", "(a: [1, 2", "{'", "r#\"abc", "(x: /* open", "\"\\"] {
            let ix = SpanIndex::build(s);
            let _ = ix.pos(&[Seg::Field("a"), Seg::Index(3)]);
        }
    }
}
