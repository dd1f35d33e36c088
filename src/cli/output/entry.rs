//! What a command hands its [`Sink`](super::Sink): each result as an [`Entry`], which
//! describes it once for every output form, and its grids as [`Shown`] puzzles or full grids
//! ([`GridRef`]).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use crate::grid::{Grid, Puzzle, Shape};
use crate::io::csv::Names;

/// One grid of a result, as the grid, line and CSV forms write it.
pub(in crate::cli) struct Shown<'a> {
    /// Its label in a long CSV's grid column.
    pub(in crate::cli) label: String,
    /// The grid.
    pub(in crate::cli) grid: GridRef<'a>,
}

/// A puzzle (blanks allowed) or a full grid.
#[derive(Clone, Copy)]
pub(in crate::cli) enum GridRef<'a> {
    /// A puzzle.
    Puzzle(&'a Puzzle),
    /// A full grid.
    Grid(&'a Grid),
}

impl GridRef<'_> {
    pub(super) fn shape(self) -> Shape {
        match self {
            GridRef::Puzzle(p) => p.shape(),
            GridRef::Grid(g) => g.shape(),
        }
    }

    pub(super) fn cells(&self) -> &[u8] {
        match self {
            GridRef::Puzzle(p) => p.cells(),
            GridRef::Grid(g) => g.cells(),
        }
    }
}

/// One result of a command as every output form sees it. A command implements what its
/// forms use; the rest is empty.
pub(in crate::cli) trait Entry {
    /// The JSON record ([`Form::Json`](super::Form::Json)); `null` for an entry of a
    /// command without JSON output.
    fn record(&self) -> impl Serialize {}

    /// The grids ([`Form::Grids`](super::Form::Grids), [`Form::Csv`](super::Form::Csv)), in
    /// the order written.
    fn grids(&self) -> Vec<Shown<'_>> {
        Vec::new()
    }

    /// The roster names of the grids in a CSV, when they are the entry's own (a roster
    /// read from CSV keeps its names); `None` for the sink's names.
    ///
    /// # Errors
    /// The names do not fit the grid.
    fn names(&self) -> Result<Option<Names>> {
        Ok(None)
    }

    /// The text lines ([`Form::Text`](super::Form::Text)).
    ///
    /// # Errors
    /// A failed write.
    fn text(&self, _out: &mut dyn Write) -> std::io::Result<()> {
        Ok(())
    }
}
