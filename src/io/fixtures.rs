//! Grids shared by the unit tests of the `io` modules.

use crate::grid::{Grid, Puzzle, Shape};

/// A valid full grid of `shape`: row `r` is the row `0, 1, …` shifted by `(r % b) * b + r / b`.
pub(crate) fn pattern(shape: Shape) -> Grid {
    let (b, n) = (shape.box_size(), shape.side());
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            (((r % b) * b + r / b + c) % n + 1) as u8
        })
        .collect();
    Grid::new(shape, cells).expect("the shifted pattern is a valid grid")
}

/// The pattern grid with about a third of the cells blanked.
pub(crate) fn holes(shape: Shape) -> Puzzle {
    let cells = pattern(shape)
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &v)| if (i * 7 + i / 3) % 3 == 0 { 0 } else { v })
        .collect();
    Puzzle::new(shape, cells).expect("blanks keep a puzzle valid")
}
