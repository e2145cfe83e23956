//! The bound every number of a level or bestiary file keeps, whatever its field: within
//! ±[`MAX_NUMBER`], a float finite. The fields with a range of their own (a critical's
//! multiplier, a light's reach, hit points, an armour class) are held to it where they are
//! read; this is the floor under all of them, so that no number of a file a user wrote reaches
//! the rules' arithmetic at the edge of its type (a throw of −2147483648 once overflowed the
//! chance of a climb).

use super::{Diagnostic, SourcePos};
use crate::level::DiagnosticKind;

/// The largest number, either way, in a level or bestiary file.
pub const MAX_NUMBER: f64 = 100_000.0;

/// Every number of the RON text `src` (outside strings and comments) out of bounds, as errors
/// of `file` at its line and column.
pub fn out_of_bounds(src: &str, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let (mut line, mut col) = (1usize, 1usize);
    let mut i = 0;
    // What the text is in at `i`: code, a string, a line comment, a block comment (depth).
    let (mut in_string, mut line_comment, mut block) = (false, false, 0usize);
    let mut prev: u8 = b' ';
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        let starts_number = !in_string
            && !line_comment
            && block == 0
            && (b.is_ascii_digit() || (b == b'-' && next.is_ascii_digit()))
            && !(prev.is_ascii_alphanumeric() || prev == b'_' || prev == b'.');
        if starts_number {
            let from = i;
            let (at_line, at_col) = (line, col);
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'.'
                    || bytes[i] == b'_'
                    || ((bytes[i] == b'-' || bytes[i] == b'+')
                        && matches!(bytes[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let token = &src[from..i];
            col += i - from;
            prev = bytes[i - 1];
            if let Some(why) = out_of_range(token) {
                out.push(Diagnostic::error(
                    DiagnosticKind::BadValue,
                    file,
                    SourcePos::new(at_line, at_col),
                    why,
                ));
            }
            continue;
        }
        if in_string && b != b'\\' && b != b'"' && b != b'\n' {
            // Through the string to its next quote, escape or line end at once (a map row is
            // a long string).
            let run = bytes[i..]
                .iter()
                .position(|&c| c == b'\\' || c == b'"' || c == b'\n')
                .unwrap_or(bytes.len() - i);
            col += bytes[i..i + run]
                .iter()
                .filter(|&&c| (c & 0xC0) != 0x80)
                .count();
            i += run;
            prev = bytes[i - 1];
            continue;
        }
        if in_string {
            if b == b'\\' {
                i += 1;
                col += 1;
            } else if b == b'"' {
                in_string = false;
            }
        } else if line_comment {
            line_comment = b != b'\n';
        } else if block > 0 {
            if b == b'*' && next == b'/' {
                block -= 1;
                i += 1;
                col += 1;
            } else if b == b'/' && next == b'*' {
                block += 1;
                i += 1;
                col += 1;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'/' && next == b'/' {
            line_comment = true;
        } else if b == b'/' && next == b'*' {
            block += 1;
            i += 1;
            col += 1;
        } else if b == b'\'' && bytes.get(i + 2) == Some(&b'\'') {
            // A character (a legend's key): skipped whole, a digit in it is no number.
            i += 2;
            col += 2;
        }
        if b == b'\n' {
            line += 1;
            col = 1;
        } else if (b & 0xC0) != 0x80 {
            col += 1;
        }
        prev = b;
        i += 1;
    }
    out
}

/// [`out_of_bounds`] of the part of `src` from `from` to `to` (byte offsets at code, not in a
/// string or a comment), at their lines and columns in the whole text.
pub fn out_of_bounds_within(src: &str, from: usize, to: usize, file: &str) -> Vec<Diagnostic> {
    let masked: String = src
        .char_indices()
        .map(|(i, c)| {
            if (from..to).contains(&i) || c == '\n' {
                c
            } else {
                ' '
            }
        })
        .collect();
    out_of_bounds(&masked, file)
}

/// Why a number token is out of bounds, if it is.
fn out_of_range(token: &str) -> Option<String> {
    // Most numbers are a few plain digits: within bounds without parsing.
    let digits = token.trim_start_matches('-');
    if digits.len() <= 5 && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let plain = token.replace('_', "");
    let value = if let Some(hex) = plain.strip_prefix("0x") {
        i128::from_str_radix(hex, 16).ok().map(|v| v as f64)
    } else {
        plain.parse::<f64>().ok()
    }?;
    (!value.is_finite() || value.abs() > MAX_NUMBER).then(|| {
        format!(
            "the number {token} is out of bounds: a number in a level is {} to {}",
            -MAX_NUMBER, MAX_NUMBER
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_code_are_bounded_and_those_in_strings_and_comments_are_not() {
        let src = "(\n  hp: 2147483648, // 99999999999\n  name: \"a 1e300 b\",\n  ac: -3,\n  x: 1e9, '9': Floor,\n)";
        let found = out_of_bounds(src, "f.ron");
        let at: Vec<(usize, usize)> = found.iter().map(|d| (d.line, d.col)).collect();
        assert_eq!(at, [(2, 7), (5, 6)], "{found:?}");
        assert!(found[0].message.contains("2147483648 is out of bounds"));
    }
}
