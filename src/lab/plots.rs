//! The lab's pictures, drawn in Rust to PNG (plotters' bitmap backend, with the DejaVu Sans font
//! embedded, so no system library is needed): heatmaps over the level's map, and histograms of
//! a delve's length and of the party's survivors.

use std::path::Path;

use plotters::prelude::*;

use super::RunRecord;
use super::heat::{Heat, HeatKind};
use delve_ground::grid::{DungeonGrid, GridPos, Terrain};

/// The embedded font (DejaVu Sans; assets/fonts/LICENSE-DejaVu.txt).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Pixels a square of the map takes.
const SQUARE_PX: u32 = 14;

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The font is ours and valid: registering it cannot fail.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

fn drawing_error(path: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: cannot draw: {e}", path.display())
}

/// The level's map with one kind of heat over it: floor pale, walls dark, and each square's
/// count as a warm colour from faint (few) to deep red (the most).
pub fn heatmap(
    grid: &DungeonGrid,
    heat: &Heat,
    kind: HeatKind,
    runs: u64,
    path: &Path,
) -> Result<(), String> {
    register_font();
    let (w, h) = (grid.width(), grid.height());
    let title_px = 28;
    let scale_px = 34;
    let size = (
        (w * SQUARE_PX).max(SCALE_MIN_WIDTH),
        h * SQUARE_PX + title_px + scale_px,
    );
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&RGBColor(24, 24, 28))
        .map_err(|e| drawing_error(path, e))?;
    let counts = heat.counts(kind);
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let (_, title) = kind.file_and_title();
    root.draw(&Text::new(
        format!("{title}: {runs} delves, most {most}"),
        (6, 6),
        ("sans-serif", 16).into_font().color(&WHITE),
    ))
    .map_err(|e| drawing_error(path, e))?;
    for y in 0..h {
        for x in 0..w {
            let p = GridPos::new(x as i32, y as i32);
            let i = (y * w + x) as usize;
            let base = match grid.terrain(p) {
                Some(Terrain::Wall(_) | Terrain::Rock) | None => RGBColor(40, 40, 46),
                Some(Terrain::Water(_)) => RGBColor(70, 90, 120),
                Some(Terrain::Door) => RGBColor(140, 110, 70),
                Some(Terrain::Chasm { .. }) => RGBColor(12, 12, 14),
                _ => RGBColor(150, 150, 140),
            };
            let n = counts.get(i).copied().unwrap_or(0);
            let colour = if n == 0 {
                base
            } else {
                heat_colour(n as f64 / most as f64)
            };
            let (px, py) = ((x * SQUARE_PX) as i32, (y * SQUARE_PX + title_px) as i32);
            root.draw(&Rectangle::new(
                [
                    (px, py),
                    (px + SQUARE_PX as i32 - 1, py + SQUARE_PX as i32 - 1),
                ],
                colour.filled(),
            ))
            .map_err(|e| drawing_error(path, e))?;
        }
    }
    colour_scale(&root, most, (6, (h * SQUARE_PX + title_px + 4) as i32))
        .map_err(|e| drawing_error(path, e))?;
    root.present().map_err(|e| drawing_error(path, e))
}

/// The narrowest a heatmap is drawn, so its colour scale fits.
const SCALE_MIN_WIDTH: u32 = 300;

/// A count's colour, by its share `t` of the most: from a pale yellow (few) to a deep red.
fn heat_colour(t: f64) -> RGBColor {
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    RGBColor(mix(250, 180), mix(230, 20), mix(120, 20))
}

/// The colour scale under a heatmap: the colours from 1 to `most`, with the counts they mean.
fn colour_scale<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    most: u32,
    (x, y): (i32, i32),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let font = ("sans-serif", 13).into_font().color(&WHITE);
    let steps = 24;
    let width = 200;
    root.draw(&Text::new("1", (x, y + 2), font.clone()))?;
    let left = x + 14;
    for k in 0..steps {
        let t = if steps > 1 {
            k as f64 / (steps - 1) as f64
        } else {
            1.0
        };
        let (x0, x1) = (left + k * width / steps, left + (k + 1) * width / steps);
        root.draw(&Rectangle::new(
            [(x0, y), (x1, y + 14)],
            heat_colour(t.max(1.0 / most as f64)).filled(),
        ))?;
    }
    root.draw(&Text::new(
        format!("{most} (count a square)"),
        (left + width + 6, y + 2),
        font,
    ))?;
    Ok(())
}

/// A histogram of whole numbers per delve (turns taken, survivors), one bar per value.
pub fn histogram(values: &[u32], title: &str, x_label: &str, path: &Path) -> Result<(), String> {
    register_font();
    let root = BitMapBackend::new(path, (640, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| drawing_error(path, e))?;
    let top = values.iter().copied().max().unwrap_or(0) + 1;
    let mut bins = vec![0.0; top as usize];
    for &v in values {
        bins[v as usize] += 1.0;
    }
    let bars: Vec<(u32, f64)> = (0..top).zip(bins).collect();
    let labels = Labels {
        title,
        title_px: 20,
        x: x_label,
        y: "delves",
        whole: true,
    };
    draw_bars(&root, &labels, 0..top, &bars).map_err(|e| drawing_error(path, e))?;
    root.present().map_err(|e| drawing_error(path, e))
}

/// The words of a chart: its title (and its size in pixels), and its axes.
struct Labels<'a> {
    title: &'a str,
    title_px: u32,
    x: &'a str,
    y: &'a str,
    /// The heights are counts: the axis is marked in whole numbers.
    whole: bool,
}

/// Bars of `(x, height)` over the whole numbers `xs`, on `area`, the axis up to a tenth above
/// the tallest.
fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    labels: &Labels,
    xs: std::ops::Range<u32>,
    bars: &[(u32, f64)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let tallest = bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1e-9);
    let mut chart = ChartBuilder::on(area)
        .caption(labels.title, ("sans-serif", labels.title_px))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(xs.into_segmented(), 0f64..tallest * 1.1)?;
    let whole = |v: &f64| format!("{v:.0}");
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .label_style(("sans-serif", 13));
    if labels.whole {
        mesh.y_labels((tallest as usize + 1).min(11))
            .y_label_formatter(&whole);
    }
    mesh.draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RGBColor(180, 60, 40).filled())
            .margin(1)
            .data(bars.iter().copied()),
    )?;
    Ok(())
}

/// Every picture of a lab into `dir`; their file names, in the order the report shows them.
pub fn draw_all(
    grid: &DungeonGrid,
    heat: &Heat,
    records: &[RunRecord],
    party_size: u32,
    dir: &Path,
) -> Result<Vec<(String, String)>, String> {
    let mut drawn = Vec::new();
    let runs = records.len() as u64;
    for &kind in HeatKind::ALL {
        let (file, title) = kind.file_and_title();
        whole(&dir.join(file), |p| heatmap(grid, heat, kind, runs, p))?;
        drawn.push((file.to_owned(), title.to_owned()));
    }
    let ended: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.is_some()).collect();
    let turns: Vec<u32> = ended.iter().map(|r| r.tally.turns.ceil() as u32).collect();
    whole(&dir.join("turns.png"), |p| {
        histogram(&turns, "Length of a delve", "turns", p)
    })?;
    drawn.push(("turns.png".into(), "length of a delve (turns)".into()));
    let survivors: Vec<u32> = ended
        .iter()
        .map(|r| {
            let lost = r
                .features
                .casualties
                .iter()
                .filter(|c| c.fate != super::watch::Fate::Rescued)
                .count();
            party_size.saturating_sub(lost as u32)
        })
        .collect();
    whole(&dir.join("survivors.png"), |p| {
        histogram(
            &survivors,
            "Survivors of a delve",
            "members out alive with the party, or standing at the end (not dead, dying or left behind)",
            p,
        )
    })?;
    drawn.push(("survivors.png".into(), "survivors of a delve".into()));
    whole(&dir.join("survival.png"), |p| {
        survival(&ended, party_size as usize, p)
    })?;
    drawn.push((
        "survival.png".into(),
        "delves still going and members still standing by turn, and the hazard".into(),
    ));
    Ok(drawn)
}

/// Draws a picture to `path` whole or not at all: into a file beside it, renamed over it once
/// drawn (a lab stopped midway leaves the pictures of the last report, not half of one).
fn whole(path: &Path, draw: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let name = path.file_name().map_or_else(
        || "picture.png".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let beside = path.with_file_name(format!(".{}.{name}", std::process::id()));
    let drawn = draw(&beside).and_then(|()| {
        std::fs::rename(&beside, path).map_err(|e| format!("{}: cannot write: {e}", path.display()))
    });
    if drawn.is_err() {
        let _ = std::fs::remove_file(&beside);
    }
    drawn
}

/// The survival curves (Kaplan–Meier): delves still going and members still standing by turn,
/// above; the hazard of each turn (delves ending of those going), below.
pub fn survival(ended: &[&RunRecord], party_size: usize, path: &Path) -> Result<(), String> {
    use super::survival::{at, delves, hazard_by_turn, kaplan_meier, members};
    register_font();
    let root = BitMapBackend::new(path, (720, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| drawing_error(path, e))?;
    let (upper, lower) = root.split_vertically(360);
    let d = delves(ended);
    let (dc, mc) = (kaplan_meier(&d), kaplan_meier(&members(ended, party_size)));
    let last = ended
        .iter()
        .map(|r| r.tally.turns.ceil() as u32)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut chart = ChartBuilder::on(&upper)
        .caption("Survival by turn (Kaplan–Meier)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..last as f64, 0f64..100f64)
        .map_err(|e| drawing_error(path, e))?;
    chart
        .configure_mesh()
        .x_desc("turn")
        .y_desc("% still")
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    let steps = |curve: &[(f64, f64)]| -> Vec<(f64, f64)> {
        (0..=last * 4)
            .map(|k| {
                let t = k as f64 / 4.0;
                (t, 100.0 * at(curve, t))
            })
            .collect()
    };
    for (curve, colour, label) in [
        (&dc, RGBColor(180, 60, 40), "delves still going"),
        (&mc, RGBColor(40, 90, 170), "members still standing"),
    ] {
        chart
            .draw_series(LineSeries::new(steps(curve), colour.stroke_width(2)))
            .map_err(|e| drawing_error(path, e))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .position(SeriesLabelPosition::LowerLeft)
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    let hazard: Vec<(u32, f64)> = hazard_by_turn(&d, last)
        .iter()
        .map(|(k, h, _, _)| (*k, 100.0 * h))
        .collect();
    let labels = Labels {
        title: "Hazard: delves ending in the turn, of those going",
        title_px: 16,
        x: "turn",
        y: "%",
        whole: false,
    };
    draw_bars(&lower, &labels, 1..last + 1, &hazard).map_err(|e| drawing_error(path, e))?;
    root.present().map_err(|e| drawing_error(path, e))
}
