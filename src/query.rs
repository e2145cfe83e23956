//! Questions a Judge asks of a level without running a delve. Each answer is a serde struct: the
//! command line prints it as text, or with `--json` as one JSON object whose field names are
//! stable (documented in the README).

use std::fmt;

use serde::Serialize;

use crate::grid::GridPos;
use crate::grid::los::line_of_sight;
use crate::grid::path::find_path;
use crate::level::Level;

/// `los --from X,Y --to X,Y`: is there line of sight, and how far apart are the squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LosAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub to: GridPos,
    pub line_of_sight: bool,
    pub distance_feet: u32,
}

/// `path --from X,Y --to X,Y`: the cheapest walk and its length, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathAnswer {
    pub question: &'static str,
    pub from: GridPos,
    pub to: GridPos,
    pub found: bool,
    pub feet: Option<u32>,
    pub squares: Vec<GridPos>,
    pub reason: Option<String>,
}

fn check_square(level: &Level, p: GridPos, what: &str) -> Result<(), String> {
    let g = &level.grid;
    if g.in_bounds(p) {
        Ok(())
    } else {
        Err(format!(
            "--{what} {p} is outside the map, which is {} wide and {} high",
            g.width(),
            g.height()
        ))
    }
}

pub fn los(level: &Level, from: GridPos, to: GridPos) -> Result<LosAnswer, String> {
    check_square(level, from, "from")?;
    check_square(level, to, "to")?;
    Ok(LosAnswer {
        question: "los",
        from,
        to,
        line_of_sight: line_of_sight(&level.grid, from, to),
        distance_feet: level.grid.distance_feet(from, to),
    })
}

pub fn path(level: &Level, from: GridPos, to: GridPos) -> Result<PathAnswer, String> {
    check_square(level, from, "from")?;
    check_square(level, to, "to")?;
    let found = find_path(&level.grid, from, to);
    let reason = match (&found, level.grid.terrain(to)) {
        (Some(_), _) => None,
        (None, Some(t)) if !level.grid.is_passable(to) => {
            Some(format!("{to} is {t:?}, where no one can stand"))
        }
        (None, _) => Some(format!(
            "no open path: walls, rock, chasms or closed doors lie between {from} and {to}"
        )),
    };
    Ok(PathAnswer {
        question: "path",
        from,
        to,
        found: found.is_some(),
        feet: found.as_ref().map(|p| p.feet),
        squares: found.map(|p| p.squares).unwrap_or_default(),
        reason,
    })
}

impl fmt::Display for LosAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} line of sight from {} to {}; {}' apart",
            if self.line_of_sight {
                "there is"
            } else {
                "there is no"
            },
            self.from,
            self.to,
            self.distance_feet
        )
    }
}

impl fmt::Display for PathAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.feet, &self.reason) {
            (Some(feet), _) => {
                write!(
                    f,
                    "path from {} to {}: {feet}', {} squares:",
                    self.from,
                    self.to,
                    self.squares.len()
                )?;
                for s in &self.squares {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            (None, reason) => write!(
                f,
                "no path from {} to {}: {}",
                self.from,
                self.to,
                reason.as_deref().unwrap_or("unreachable")
            ),
        }
    }
}
