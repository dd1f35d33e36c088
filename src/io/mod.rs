//! Reading and writing puzzles and grids.
//!
//! - [`parse`] reads puzzles from text in the grid form (one row per line) or the line form
//!   (one puzzle per line), detecting which per block of lines, and reports every bad puzzle
//!   with its line and column while carrying on with the rest of a batch.
//! - [`write`](mod@write) writes puzzles and grids back out as grids, lines or JSON; what it
//!   writes as a grid or a line reads back unchanged with [`parse`]'s automatic detection.
//! - [`csv`] writes grids and puzzles as staff × day roster CSVs (wide or long) with names,
//!   and reads roster CSVs with some shifts filled in back as puzzles to complete.
//! - [`svg`] draws a puzzle or a solved grid as SVG ready to print, from 4×4 to 100×100.
//!
//! With the `cli` feature (the default), two modules serve the command line's output and
//! Ctrl-C, with state of the whole process (the temporary files to remove on a second
//! press, the call under way), so a library user leaves them out with the feature:
//! - `atomic` replaces an output file only once everything has been written, so a failed
//!   or interrupted run never leaves a half-written file behind.
//! - `blocking` marks the reads and writes that wait for another process (a pipe, a FIFO,
//!   a terminal), so that Ctrl-C can end a run stuck in one.

#[cfg(feature = "cli")]
pub mod atomic;
#[cfg(feature = "cli")]
pub mod blocking;
pub mod csv;
pub mod lines;
pub mod parse;
pub mod quote;
pub mod svg;
pub mod write;

#[cfg(test)]
pub(crate) mod fixtures;
