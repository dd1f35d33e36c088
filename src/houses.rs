//! The houses of a grid (rows, columns, blocks), numbered `0..3n`: rows `0..n`, columns
//! `n..2n`, blocks `2n..3n`; each house's cells and each cell's three houses, computed once
//! per shape and shared by the propagation engine and the grader.

use crate::grid::Shape;

/// The houses of a shape (rows, columns, blocks) and each cell's houses, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct Houses {
    pub(crate) n: usize,
    pub(crate) b: usize,
    /// `3n` houses of `n` cells: rows, then columns, then blocks.
    cells: Vec<u32>,
    /// For each cell, its row, column and block house numbers.
    pub(crate) of_cell: Vec<[u32; 3]>,
}

impl Houses {
    /// The tables for `shape`.
    pub(crate) fn new(shape: Shape) -> Houses {
        let n = shape.side();
        let b = shape.box_size();
        let mut cells = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            cells.extend((0..n).map(|c| (r * n + c) as u32));
        }
        for c in 0..n {
            cells.extend((0..n).map(|r| (r * n + c) as u32));
        }
        for k in 0..n {
            let (r0, c0) = (k / b * b, k % b * b);
            cells.extend((0..n).map(|i| ((r0 + i / b) * n + c0 + i % b) as u32));
        }
        let of_cell = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                [
                    r as u32,
                    (n + c) as u32,
                    (2 * n + shape.block_of(r, c)) as u32,
                ]
            })
            .collect();
        Houses {
            n,
            b,
            cells,
            of_cell,
        }
    }

    /// The cells of house `h`.
    #[inline]
    pub(crate) fn house(&self, h: usize) -> &[u32] {
        &self.cells[h * self.n..(h + 1) * self.n]
    }
}
