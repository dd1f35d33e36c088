//! shiftgrid builds, solves, counts, generates, grades and exports schedule-shaped sudoku
//! grids of every size from 4×4 to 100×100.
//!
//! A grid of box size `b` has side `n = b*b`. Read as a roster, rows are staff, columns are
//! days and the symbol in a cell is a shift: every staff member works each shift once, every
//! shift is worked once a day, and each `b×b` block of staff × days holds every shift once.
//! That is an exact-cover problem with `n³` options and `4n²` items. The [`solve`] module
//! holds the engines that solve and count it (Knuth's dancing links, propagation with
//! search, the source report's forward checking, conflict-driven clause learning over the
//! items for the hard instances, and a portfolio that races them) behind one entry point,
//! [`solve::solve`]. [`generate`] fills empty boards and makes puzzles with a proven unique
//! solution, [`grade`] rates puzzles by the human techniques they need, and [`io`] reads
//! and writes the text, JSON, roster CSV and SVG forms.
//!
//! The main types are [`Shape`] (a supported size), [`Puzzle`] (cells with blanks) and
//! [`Grid`] (a full grid, valid by construction: the only constructor runs an independent
//! check that shares no code with the engine). The propagation engine and the grader keep
//! their candidates as [`cells::SymbolSet`]s.
//!
//! ```
//! use shiftgrid::Puzzle;
//! use shiftgrid::solve::{solve, Engine, SearchControl, SolveLimits};
//!
//! // The Solver Foundation article's demo puzzle, one 81-character line (any text form
//! // reads: grid, line, JSON; `io::parse::parse_puzzles` reads a batch).
//! let text = "006200080008970000004810500000060002070000030600050000002047100003028400050001200";
//! let puzzle: Puzzle = text.parse().unwrap();
//! // The default limits are the uniqueness test: count up to 2.
//! let outcome = solve(&puzzle, Engine::Auto, &SolveLimits::default(), &SearchControl::default())
//!     .unwrap();
//! assert_eq!(outcome.count, 1);
//! let grid = &outcome.solutions[0];
//! assert!(puzzle.is_completed_by(grid));
//! println!("{grid}"); // 9 lines of 9 cells; "{grid:#}" gives one line
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cells;
#[cfg(feature = "cli")]
pub mod cli;
pub mod generate;
pub mod grade;
pub mod grid;
pub mod io;
pub mod solve;

pub use grid::{Grid, GridError, House, Pos, Puzzle, Shape, ShapeError};

// Keeps the README's Rust example compiling and passing.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
