//! Pictures of puzzles and grids as standalone SVG 1.1, ready to view or print.
//!
//! [`render_svg`] draws a [`Puzzle`] and, optionally, a solution that fills its blanks:
//!
//! - givens in bold near-black, cells filled from the solution in normal-weight blue, so the
//!   two can be told apart on screen and, by weight, on a grey-scale print;
//! - thin grey lines between cells, thick black lines every `b` cells and around the grid;
//! - optional pencil-mark candidates in the blank cells (grids up to
//!   [`MAX_CANDIDATE_SIDE`]×[`MAX_CANDIDATE_SIDE`]), laid out in a `b×b` mini-grid so that
//!   symbol `s` always sits in the same spot of a cell;
//! - optional roster labels, the staff names down the left and the day names across the top
//!   (`Staff 1…N` and `Day 1…N` unless [`SvgOptions::names`] has others; turned upright when
//!   they would be wider than a cell);
//! - with roster names whose shifts are named (not the default `Shift k`), each cell shows
//!   its shift's name, set smaller where it would not fit the cell.
//!
//! The cell size is chosen from the grid's side unless [`SvgOptions::cell_px`] is set: about
//! 48 px for 9×9, down to 24 px for 100×100, which makes a 2 400 px poster. The output stays
//! small (about 0.4 MB for a full 100×100 grid): attributes shared by many texts sit on a
//! `<g>`, each cell is one short `<text>`, and the grid lines are two `<path>`s. Groups carry a
//! `class` (`thin`, `thick`, `givens`, `filled`, `candidates`, `labels`) for restyling.
//!
//! ```
//! use shiftgrid::{io::svg::{render_svg, SvgOptions}, Grid, Puzzle, Shape};
//!
//! let shape = Shape::new(2)?;
//! let grid = Grid::new(shape, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])?;
//! let puzzle = Puzzle::new(shape, vec![1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1])?;
//! let opts = SvgOptions { title: Some("Rota <week 1>".into()), ..SvgOptions::default() };
//! let svg = render_svg(&puzzle, Some(&grid), &opts)?;
//! assert!(svg.starts_with("<?xml"));
//! assert!(svg.contains("<title>Rota &lt;week 1&gt;</title>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};

use crate::cells::Placed;
use crate::grid::{Grid, Pos, Puzzle, Shape};
use crate::io::csv::Names;

/// The largest side for which [`SvgOptions::show_candidates`] is allowed (25×25, box size 5).
///
/// Beyond it a cell would need room for 36 or more pencil marks, too small to read.
pub const MAX_CANDIDATE_SIDE: usize = 25;

/// The smallest cell size accepted in [`SvgOptions::cell_px`], in pixels.
pub const MIN_CELL_PX: f64 = 4.0;

/// The largest cell size accepted in [`SvgOptions::cell_px`], in pixels.
pub const MAX_CELL_PX: f64 = 400.0;

/// What to draw and how large. The default is an automatic cell size, no candidates, no labels
/// and no title.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// The side of one cell in pixels (user units), within
    /// [`MIN_CELL_PX`]`..=`[`MAX_CELL_PX`]. `None` picks a size from the grid's side: readable
    /// on screen for small grids (48 px at 9×9) and poster-sized at 100×100 (24 px, 2 400 px in
    /// all), larger when candidates are shown so that they stay legible.
    pub cell_px: Option<f64>,
    /// Whether to write pencil-mark candidates in the cells left blank: the symbols not yet
    /// given in the cell's row, column or block. Allowed up to
    /// [`MAX_CANDIDATE_SIDE`]×[`MAX_CANDIDATE_SIDE`]; larger grids give
    /// [`SvgError::CandidatesTooLarge`]. With a solution there are no blank cells left, so
    /// nothing is added.
    pub show_candidates: bool,
    /// Whether to write the staff names down the left and the day names across the top.
    pub labels: bool,
    /// The roster's names: staff and days for the labels, and shift names written in the
    /// cells in place of symbol numbers unless they are the defaults (`Shift 1…N`). Pencil
    /// marks stay numbers (mark `k` is the `k`-th shift). `None`, or names of another size:
    /// `Staff 1…N`, `Day 1…N` and numbers.
    pub names: Option<Names>,
    /// A title, written as the SVG's `<title>` (shown by viewers as the name or tooltip).
    pub title: Option<String>,
}

/// Why a picture could not be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SvgError {
    /// The solution is of another size than the puzzle.
    #[error("the solution is a {solution} grid but the puzzle is {puzzle}")]
    SolutionShape {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The solution's shape.
        solution: Shape,
    },
    /// The solution disagrees with one of the puzzle's givens.
    #[error("the solution has {solution} at {pos}, where the puzzle gives {given}")]
    SolutionConflict {
        /// The first such cell in reading order.
        pos: Pos,
        /// The puzzle's given there.
        given: u8,
        /// The solution's symbol there.
        solution: u8,
    },
    /// Candidates were asked for on a grid larger than [`MAX_CANDIDATE_SIDE`].
    #[error(
        "candidates are drawn only for grids up to {max}x{max}; this puzzle is {shape}",
        max = MAX_CANDIDATE_SIDE
    )]
    CandidatesTooLarge {
        /// The puzzle's shape.
        shape: Shape,
    },
    /// The cell size is not a number in [`MIN_CELL_PX`]`..=`[`MAX_CELL_PX`].
    #[error("cell size {0} px is out of range: use {MIN_CELL_PX} to {MAX_CELL_PX} px")]
    CellSize(f64),
}

/// Draws `puzzle`, with the blanks that `solution` fills, as a standalone SVG 1.1 document.
///
/// Givens are bold and near-black; symbols taken from `solution` where the puzzle is blank are
/// blue. Without a solution the blanks stay empty, or show their candidates when
/// [`SvgOptions::show_candidates`] is set (candidates are computed from the givens alone). A
/// puzzle that repeats a given in a house is drawn as it is. Text is escaped for XML, and
/// characters XML cannot hold at all (most control characters) become U+FFFD.
///
/// # Errors
/// - [`SvgError::SolutionShape`] when `solution` is of another size than `puzzle`;
/// - [`SvgError::SolutionConflict`] when `solution` does not complete `puzzle`;
/// - [`SvgError::CandidatesTooLarge`] when candidates are asked for a grid larger than
///   [`MAX_CANDIDATE_SIDE`];
/// - [`SvgError::CellSize`] when [`SvgOptions::cell_px`] is out of range.
pub fn render_svg(
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    opts: &SvgOptions,
) -> Result<String, SvgError> {
    let shape = puzzle.shape();
    if let Some(grid) = solution {
        check_solution(puzzle, grid)?;
    }
    if opts.show_candidates && shape.side() > MAX_CANDIDATE_SIDE {
        return Err(SvgError::CandidatesTooLarge { shape });
    }
    if let Some(px) = opts.cell_px {
        if !(MIN_CELL_PX..=MAX_CELL_PX).contains(&px) {
            return Err(SvgError::CellSize(px));
        }
    }
    let layout = Layout::new(shape, opts);
    let mut out = String::with_capacity(estimate_len(shape, opts));
    layout.write_document(&mut out, puzzle, solution, opts);
    Ok(out)
}

/// The first cell where `grid` is not a completion of `puzzle`.
fn check_solution(puzzle: &Puzzle, grid: &Grid) -> Result<(), SvgError> {
    if grid.shape() != puzzle.shape() {
        return Err(SvgError::SolutionShape {
            puzzle: puzzle.shape(),
            solution: grid.shape(),
        });
    }
    let n = puzzle.shape().side();
    let conflict = puzzle
        .cells()
        .iter()
        .zip(grid.cells())
        .position(|(&g, &s)| g != 0 && g != s);
    match conflict {
        None => Ok(()),
        Some(i) => Err(SvgError::SolutionConflict {
            pos: Pos {
                row: i / n,
                col: i % n,
            },
            given: puzzle.cells()[i],
            solution: grid.cells()[i],
        }),
    }
}

/// A rough upper bound on the output length, to allocate once.
fn estimate_len(shape: Shape, opts: &SvgOptions) -> usize {
    let per_cell = if opts.show_candidates {
        40 * shape.side()
    } else {
        40
    };
    4096 + shape.cells() * per_cell + if opts.labels { 120 * shape.side() } else { 0 }
}

/// Average advance of a sans-serif character, in ems, for estimating label widths. Digits are
/// 0.556 em in Helvetica/Arial and 0.636 em in DejaVu Sans (the usual fallback on Linux); 0.6
/// lies between, and every use leaves at least 15% of slack for the wider fonts.
const CHAR_EM: f64 = 0.6;

/// Half the height of a digit, in ems (digits are about 0.72 em tall in common sans-serif
/// fonts). Moving the baseline down by this centres a digit vertically without relying on
/// `dominant-baseline`, which not every renderer honours.
const HALF_DIGIT_EM: f64 = 0.36;

/// Colours: givens, filled cells, candidates, labels, thin and thick lines.
const GIVEN_FILL: &str = "#111111";
const FILLED_FILL: &str = "#1f5fbf";
const CANDIDATE_FILL: &str = "#6b6b6b";
const LABEL_FILL: &str = "#333333";
const THIN_STROKE: &str = "#9a9a9a";
const THICK_STROKE: &str = "#000000";

/// Sizes and positions of everything, in user units (pixels).
struct Layout {
    b: usize,
    n: usize,
    /// Side of a cell.
    cell: f64,
    /// Where the grid's top-left corner sits on the page.
    origin_x: f64,
    origin_y: f64,
    width: f64,
    height: f64,
    /// Font size of the symbols in the cells.
    digit_font: f64,
    /// Font size of the one three-digit symbol, `100`, smaller so that it fits a cell.
    wide_digit_font: f64,
    thin: f64,
    thick: f64,
    candidate_font: f64,
    /// Inset of the candidate mini-grid from the cell's lines.
    candidate_inset: f64,
    label_font: f64,
    /// Font size of the day labels: `label_font`, or smaller to fit a cell's width.
    day_font: f64,
    label_gap: f64,
    /// Whether day labels run bottom-to-top (they are wider than a cell).
    rotate_days: bool,
    /// The row and column labels.
    staff: Vec<String>,
    days: Vec<String>,
    /// Shift names to write in the cells instead of numbers, when the roster has them.
    shifts: Option<Vec<String>>,
}

impl Layout {
    fn new(shape: Shape, opts: &SvgOptions) -> Layout {
        let b = shape.box_size();
        let n = shape.side();
        let cell = opts
            .cell_px
            .unwrap_or_else(|| auto_cell_px(shape, opts.show_candidates));
        let symbol_digits = digits(n);
        // Two bold digits (about 1.4 em in DejaVu Sans Bold) at half the cell leave a margin on
        // either side. Only the 100×100 grid has a three-digit symbol; sizing every symbol for
        // it would shrink 9 999 cells for the sake of 100, so `100` alone is set smaller.
        let digit_font = cell * if symbol_digits == 1 { 0.6 } else { 0.5 };
        let wide_digit_font = cell * 0.4;
        // Odd stroke widths on half-pixel positions (see `origin_x`) render crisp.
        let thin = 1.0;
        let thick = if cell < 64.0 { 3.0 } else { 5.0 };
        let candidate_inset = thin + 1.0;
        let mini = (cell - 2.0 * candidate_inset) / b as f64;
        let candidate_font = mini
            * match symbol_digits {
                1 => 0.8,
                _ => 0.62,
            };
        // Staff labels only need to fit a cell's height.
        let label_font = (cell * 0.42).clamp(8.0, 14.0);
        let label_gap = (label_font * 0.5).max(4.0);
        let mut day_font = label_font;
        let pad = (cell * 0.5).max(10.0).round();

        let names = match &opts.names {
            Some(names) if names.shape() == shape => names.clone(),
            _ => Names::defaults(shape),
        };
        let custom_shifts = names.shifts() != Names::defaults(shape).shifts();
        let widest = |list: &[String]| list.iter().map(|s| text_width(s, 1.0)).fold(0.0, f64::max);
        let mut left = pad;
        let mut top = pad;
        let mut rotate_days = false;
        if opts.labels {
            let staff_w = widest(names.staff()) * label_font;
            // Day labels read across when a slightly smaller font fits them into a cell's
            // width with room between neighbours; otherwise they turn to run up the page.
            let day_w = widest(names.days());
            let fitted = 0.85 * cell / day_w;
            rotate_days = fitted < 0.8 * label_font;
            left += (staff_w + label_gap).ceil();
            top += if rotate_days {
                (day_w * label_font + label_gap).ceil()
            } else {
                day_font = fitted.min(label_font);
                (day_font + label_gap).ceil()
            };
        }
        let grid = n as f64 * cell;
        // The grid sits on half pixels so that 1-px and 3-px lines cover whole pixels.
        let origin_x = left + 0.5;
        let origin_y = top + 0.5;
        Layout {
            b,
            n,
            cell,
            origin_x,
            origin_y,
            width: (origin_x + grid + pad).ceil(),
            height: (origin_y + grid + pad).ceil(),
            digit_font,
            wide_digit_font,
            thin,
            thick,
            candidate_font,
            candidate_inset,
            label_font,
            day_font,
            label_gap,
            rotate_days,
            staff: names.staff().to_vec(),
            days: names.days().to_vec(),
            shifts: custom_shifts.then(|| names.shifts().to_vec()),
        }
    }

    fn write_document(
        &self,
        out: &mut String,
        puzzle: &Puzzle,
        solution: Option<&Grid>,
        opts: &SvgOptions,
    ) {
        let (w, h) = (Num(self.width), Num(self.height));
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        put(
            out,
            format_args!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" \
                 height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n"
            ),
        );
        if let Some(title) = &opts.title {
            out.push_str("<title>");
            push_escaped(out, title);
            out.push_str("</title>\n");
        }
        put(
            out,
            format_args!("<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"),
        );
        put(
            out,
            format_args!(
                "<g transform=\"translate({} {})\">\n",
                Num(self.origin_x),
                Num(self.origin_y)
            ),
        );
        self.write_lines(out, false);
        self.write_symbols(out, puzzle, solution);
        if opts.show_candidates {
            self.write_candidates(out, puzzle, solution);
        }
        if opts.labels {
            self.write_labels(out);
        }
        // Thick lines last, so that they cover the ends of the thin ones.
        self.write_lines(out, true);
        out.push_str("</g>\n</svg>\n");
    }

    /// One path holding every thin (or every thick) line: `n + 1 - (b + 1)` or `b + 1` in each
    /// direction.
    fn write_lines(&self, out: &mut String, thick: bool) {
        let (class, stroke, width, cap) = if thick {
            ("thick", THICK_STROKE, self.thick, "square")
        } else {
            ("thin", THIN_STROKE, self.thin, "butt")
        };
        let end = Num(self.n as f64 * self.cell);
        put(
            out,
            format_args!(
                "<path class=\"{class}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" \
                 stroke-linecap=\"{cap}\" d=\"",
                Num(width)
            ),
        );
        for k in (0..=self.n).filter(|k| (k % self.b == 0) == thick) {
            let at = Num(k as f64 * self.cell);
            put(out, format_args!("M0 {at}H{end}M{at} 0V{end}"));
        }
        out.push_str("\"/>\n");
    }

    /// The givens, then the cells filled from the solution, each as one `<text>` in a group.
    fn write_symbols(&self, out: &mut String, puzzle: &Puzzle, solution: Option<&Grid>) {
        let cells = puzzle.cells();
        let font = Num(self.digit_font);
        if cells.iter().any(|&v| v != 0) {
            put(
                out,
                format_args!(
                    "<g class=\"givens\" font-size=\"{font}\" font-weight=\"bold\" \
                     text-anchor=\"middle\" fill=\"{GIVEN_FILL}\">\n"
                ),
            );
            for (i, &v) in cells.iter().enumerate() {
                if v != 0 {
                    self.write_cell_text(out, i, v);
                }
            }
            out.push_str("</g>\n");
        }
        let Some(grid) = solution else { return };
        if cells.contains(&0) {
            put(
                out,
                format_args!(
                    "<g class=\"filled\" font-size=\"{font}\" text-anchor=\"middle\" \
                     fill=\"{FILLED_FILL}\">\n"
                ),
            );
            for (i, (&g, &s)) in cells.iter().zip(grid.cells()).enumerate() {
                if g == 0 {
                    self.write_cell_text(out, i, s);
                }
            }
            out.push_str("</g>\n");
        }
    }

    fn write_cell_text(&self, out: &mut String, i: usize, v: u8) {
        let (row, col) = (i / self.n, i % self.n);
        let x = (col as f64 + 0.5) * self.cell;
        let x = Num(x);
        if let Some(shifts) = &self.shifts {
            // A name set at the symbols' size, or smaller to fit the cell with a margin.
            let name = &shifts[usize::from(v) - 1];
            let font = self
                .digit_font
                .min(0.85 * self.cell / text_width(name, 1.0).max(f64::MIN_POSITIVE));
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * font);
            put(
                out,
                format_args!("<text x=\"{x}\" y=\"{y}\" font-size=\"{}\">", Num(font)),
            );
            push_escaped(out, name);
            out.push_str("</text>\n");
        } else if v >= 100 {
            let font = self.wide_digit_font;
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * font);
            let font = Num(font);
            put(
                out,
                format_args!("<text x=\"{x}\" y=\"{y}\" font-size=\"{font}\">{v}</text>\n"),
            );
        } else {
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * self.digit_font);
            put(out, format_args!("<text x=\"{x}\" y=\"{y}\">{v}</text>\n"));
        }
    }

    /// Pencil marks in the cells left blank: symbol `s` at spot `s - 1` of a `b×b` mini-grid.
    fn write_candidates(&self, out: &mut String, puzzle: &Puzzle, solution: Option<&Grid>) {
        if solution.is_some() {
            // A solution fills every blank, so no cell is left for pencil marks.
            return;
        }
        let (n, b) = (self.n, self.b);
        let placed = Placed::of(puzzle.shape(), puzzle.cells());
        put(
            out,
            format_args!(
                "<g class=\"candidates\" font-size=\"{}\" text-anchor=\"middle\" \
                 fill=\"{CANDIDATE_FILL}\">\n",
                Num(self.candidate_font)
            ),
        );
        let mini = (self.cell - 2.0 * self.candidate_inset) / b as f64;
        for (i, _) in puzzle.cells().iter().enumerate().filter(|(_, v)| **v == 0) {
            let (row, col) = (i / n, i % n);
            let left = col as f64 * self.cell + self.candidate_inset;
            let top = row as f64 * self.cell + self.candidate_inset;
            for s in placed.free(i) {
                let spot = s.index();
                let x = left + ((spot % b) as f64 + 0.5) * mini;
                let y =
                    top + ((spot / b) as f64 + 0.5) * mini + HALF_DIGIT_EM * self.candidate_font;
                put(
                    out,
                    format_args!("<text x=\"{}\" y=\"{}\">{s}</text>\n", Num(x), Num(y)),
                );
            }
        }
        out.push_str("</g>\n");
    }

    /// Staff `i`'s name right-aligned left of row `i`; day `j`'s centred above column `j`, or
    /// running upwards from just above it when it is wider than a cell.
    fn write_labels(&self, out: &mut String) {
        let gap = self.label_gap;
        let half = HALF_DIGIT_EM * self.label_font;
        put(
            out,
            format_args!(
                "<g class=\"labels\" font-size=\"{}\" fill=\"{LABEL_FILL}\">\n\
                 <g text-anchor=\"end\">\n",
                Num(self.label_font)
            ),
        );
        for i in 0..self.n {
            let y = (i as f64 + 0.5) * self.cell + half;
            self.write_label(out, -gap, y, &self.staff[i]);
        }
        out.push_str("</g>\n");
        if self.rotate_days {
            // In the frame turned by -90°, x runs up the page and y runs right, so a label at
            // (gap, column centre) starts `gap` above the grid and reads bottom to top.
            out.push_str("<g transform=\"rotate(-90)\" text-anchor=\"start\">\n");
            for j in 0..self.n {
                let y = (j as f64 + 0.5) * self.cell + half;
                self.write_label(out, gap, y, &self.days[j]);
            }
        } else {
            put(
                out,
                format_args!(
                    "<g text-anchor=\"middle\" font-size=\"{}\">\n",
                    Num(self.day_font)
                ),
            );
            for j in 0..self.n {
                let x = (j as f64 + 0.5) * self.cell;
                self.write_label(out, x, -gap, &self.days[j]);
            }
        }
        out.push_str("</g>\n</g>\n");
    }

    fn write_label(&self, out: &mut String, x: f64, y: f64, label: &str) {
        put(
            out,
            format_args!("<text x=\"{}\" y=\"{}\">", Num(x), Num(y)),
        );
        push_escaped(out, label);
        out.push_str("</text>\n");
    }
}

/// The automatic cell size for a side: readable on screen for small grids, 24 px at 100×100.
/// With candidates a cell needs `b` pencil marks across, each at least 16 px wide.
fn auto_cell_px(shape: Shape, candidates: bool) -> f64 {
    let base: f64 = match shape.side() {
        0..=4 => 56.0,
        5..=9 => 48.0,
        10..=16 => 40.0,
        17..=25 => 34.0,
        26..=36 => 30.0,
        37..=64 => 26.0,
        _ => 24.0,
    };
    if candidates {
        base.max(16.0 * shape.box_size() as f64)
    } else {
        base
    }
}

/// The number of decimal digits of `n`.
fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// An estimate of the width of `text` at `font` px, erring wide.
fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * CHAR_EM * font
}

/// Appends formatted text to a `String`.
fn put(out: &mut String, args: fmt::Arguments<'_>) {
    out.write_fmt(args)
        .expect("formatting into a String cannot fail");
}

/// Appends `text` escaped for XML content and attribute values. Characters that XML 1.0 cannot
/// hold even as references (most C0 controls, U+FFFE, U+FFFF) become U+FFFD.
fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' => out.push(c),
            '\u{10000}'..='\u{10FFFF}' => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
}

/// A coordinate or size, written with at most two decimals and no trailing zeros.
#[derive(Clone, Copy)]
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every value here is a layout size well inside i64 hundredths.
        let hundredths = (self.0 * 100.0).round() as i64;
        if hundredths < 0 {
            f.write_str("-")?;
        }
        let h = hundredths.unsigned_abs();
        let (whole, frac) = (h / 100, h % 100);
        match frac {
            0 => write!(f, "{whole}"),
            _ if frac % 10 == 0 => write!(f, "{whole}.{}", frac / 10),
            _ => write!(f, "{whole}.{frac:02}"),
        }
    }
}

#[cfg(test)]
mod tests;
