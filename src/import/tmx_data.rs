//! A Tiled map's tile layer data checked before the `tiled` crate reads it: each layer's (or
//! chunk's) data holds a tile for each of its squares — the crate indexes its data by square
//! and would panic on data cut short — and compressed data inflates to no more than that (a
//! 300 KB zlib layer once inflated to 2.3 GB). A layer is at most 1,024 squares a side, as an
//! imported map is.

use std::io::Read;

use base64::Engine;
use quick_xml::events::{BytesStart, Event};

use super::{ImportError, Problem, line_col};

/// The most squares a side a layer or chunk may have.
const MOST_A_SIDE: u64 = 1024;

/// A `<layer>` or `<chunk>` being read: its name, its squares, and the data read so far.
struct Open {
    name: String,
    squares: u64,
    encoding: Option<String>,
    compression: Option<String>,
    text: String,
    tiles: u64,
    at: usize,
}

/// Checks every tile layer's data in the TMX `text` (`file` names it in messages).
pub fn check(text: &str, file: &str) -> Result<(), ImportError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let fail = |at: usize, problem: Problem| {
        Err(ImportError::new(file, Some(line_col(text, at)), problem))
    };
    let mut layer: Option<(String, u64, u64)> = None;
    let mut open: Option<Open> = None;
    let mut data_attrs: (Option<String>, Option<String>) = (None, None);
    loop {
        let at = reader.buffer_position();
        let event = match reader.read_event() {
            Ok(Event::Eof) => return Ok(()),
            Ok(e) => e,
            // Malformed XML is the well-formedness check's to report.
            Err(_) => return Ok(()),
        };
        match event {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"layer" => {
                let name = attr(&e, "name").unwrap_or_default();
                let (w, h) = (number(&e, "width"), number(&e, "height"));
                if w > MOST_A_SIDE || h > MOST_A_SIDE {
                    return fail(
                        at,
                        Problem::LayerData {
                            layer: name,
                            why: format!("{w} × {h} squares: at most {MOST_A_SIDE} a side"),
                        },
                    );
                }
                layer = Some((name, w, h));
            }
            Event::Start(e) if e.name().as_ref() == b"data" => {
                data_attrs = (attr(&e, "encoding"), attr(&e, "compression"));
                if let Some((name, w, h)) = &layer {
                    open = Some(Open::new(name, w * h, &data_attrs, at));
                }
            }
            Event::Empty(e) if e.name().as_ref() == b"data" => {
                if let Some((name, w, h)) = &layer
                    && w * h > 0
                {
                    return fail(
                        at,
                        Problem::LayerData {
                            layer: name.clone(),
                            why: format!("its data holds no tiles for its {} squares", w * h),
                        },
                    );
                }
            }
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"chunk" => {
                let (w, h) = (number(&e, "width"), number(&e, "height"));
                let name = layer.as_ref().map(|l| l.0.clone()).unwrap_or_default();
                if w > MOST_A_SIDE || h > MOST_A_SIDE {
                    return fail(
                        at,
                        Problem::LayerData {
                            layer: name,
                            why: format!(
                                "a chunk of {w} × {h} squares: at most {MOST_A_SIDE} a side"
                            ),
                        },
                    );
                }
                open = Some(Open::new(&name, w * h, &data_attrs, at));
            }
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"tile" => {
                if let Some(o) = &mut open {
                    o.tiles += 1;
                }
            }
            Event::Text(t) => {
                if let Some(o) = &mut open {
                    o.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::CData(t) => {
                if let Some(o) = &mut open {
                    o.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            // A layer of chunks: each `<chunk>` took the place of its `<data>` as it opened.
            Event::End(e) if matches!(e.name().as_ref(), b"data" | b"chunk") => {
                let Some(o) = open.take() else { continue };
                if let Err(why) = o.count().and_then(|n| o.enough(n)) {
                    return fail(o.at, Problem::LayerData { layer: o.name, why });
                }
            }
            Event::End(e) if e.name().as_ref() == b"layer" => layer = None,
            _ => {}
        }
    }
}

impl Open {
    fn new(name: &str, squares: u64, attrs: &(Option<String>, Option<String>), at: usize) -> Self {
        Open {
            name: name.to_owned(),
            squares,
            encoding: attrs.0.clone(),
            compression: attrs.1.clone(),
            text: String::new(),
            tiles: 0,
            at,
        }
    }

    /// How many tiles the data holds; compressed data inflated no further than one past its
    /// squares' bytes.
    fn count(&self) -> Result<u64, String> {
        match self.encoding.as_deref() {
            None => Ok(self.tiles),
            Some("csv") => Ok(self
                .text
                .split(',')
                .filter(|v| !v.trim().is_empty())
                .count() as u64),
            Some("base64") => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(self.text.trim())
                    .map_err(|e| format!("its data is not base64: {e}"))?;
                let cap = self.squares * 4 + 1;
                let inflated = match self.compression.as_deref() {
                    None => bytes.len() as u64,
                    Some("zlib") => inflate(flate2::read::ZlibDecoder::new(&bytes[..]), cap)?,
                    Some("gzip") => inflate(flate2::read::GzDecoder::new(&bytes[..]), cap)?,
                    Some(other) => {
                        return Err(format!(
                            "its data is compressed with {other}: save the map with zlib, gzip or no compression"
                        ));
                    }
                };
                if inflated >= cap {
                    return Err(format!(
                        "its data inflates past the {} bytes of its {} squares",
                        self.squares * 4,
                        self.squares
                    ));
                }
                Ok(inflated / 4)
            }
            Some(other) => Err(format!(
                "its data is encoded as {other:?}: save it as CSV or Base64"
            )),
        }
    }

    /// Data cut short would leave squares without a tile.
    fn enough(&self, tiles: u64) -> Result<(), String> {
        if tiles < self.squares {
            return Err(format!(
                "its data holds {tiles} tiles for its {} squares (was the file cut short?)",
                self.squares
            ));
        }
        Ok(())
    }
}

/// Bytes inflated, reading no more than `cap`.
fn inflate(decoder: impl Read, cap: u64) -> Result<u64, String> {
    std::io::copy(&mut decoder.take(cap), &mut std::io::sink())
        .map_err(|e| format!("its compressed data is broken: {e}"))
}

fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.try_get_attribute(name)
        .ok()
        .flatten()
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// A whole-number attribute; missing or not a number, 0 (the `tiled` crate says so).
fn number(e: &BytesStart, name: &str) -> u64 {
    attr(e, name)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}
