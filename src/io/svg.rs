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
//!   its shift's name, set smaller where it would not fit the cell; when a name would come
//!   out too small to read (under 7 px, or a quarter of the symbols' size), the cells show
//!   shift numbers instead and a key below the grid (`class="legend"`) names each one, as
//!   it does with [`SvgOptions::show_candidates`], whose pencil marks are numbers, unless
//!   every shift is named by one character (an alphabet's letters), which marks show too.
//!
//! The cell size is chosen from the grid's side unless [`SvgOptions::cell_px`] is set: about
//! 48 px for 9×9, down to 24 px for 100×100, which makes a 2 400 px poster. The output stays
//! small (about 0.4 MB for a full 100×100 grid): attributes shared by many texts sit on a
//! `<g>`, each cell is one short `<text>`, and the grid lines are two `<path>`s. Groups carry a
//! `class` (`thin`, `thick`, `givens`, `filled`, `candidates`, `labels`, `legend`) for
//! restyling.
//!
//! This module checks the request; `layout` computes every size and position, `document`
//! writes the SVG, `text` estimates how wide text comes out, and `xml` escapes and formats
//! what goes into the document.
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

mod document;
mod layout;
mod text;
mod xml;

use crate::grid::{Grid, Pos, Puzzle, Shape};
use crate::io::csv::Names;
use layout::Layout;

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
    opts.check(shape)?;
    let layout = Layout::new(shape, opts);
    let mut out = String::with_capacity(estimate_len(shape, opts));
    layout.write_document(&mut out, puzzle, solution, opts);
    Ok(out)
}

impl SvgOptions {
    /// Whether these options can draw a grid of `shape`, before any work on it (such as
    /// solving the puzzle first).
    ///
    /// # Errors
    /// [`SvgError::CandidatesTooLarge`] and [`SvgError::CellSize`], as [`render_svg`].
    pub fn check(&self, shape: Shape) -> Result<(), SvgError> {
        if self.show_candidates && shape.side() > MAX_CANDIDATE_SIDE {
            return Err(SvgError::CandidatesTooLarge { shape });
        }
        if let Some(px) = self.cell_px {
            if !(MIN_CELL_PX..=MAX_CELL_PX).contains(&px) {
                return Err(SvgError::CellSize(px));
            }
        }
        Ok(())
    }
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

#[cfg(test)]
mod tests;
