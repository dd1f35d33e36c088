//! Encodes a [`Puzzle`] as an exact-cover [`Matrix`] and decodes covers back into cells.
//!
//! The full model has `n³` options, one per (cell, symbol) — in roster terms one per
//! (staff, day, shift) — and `4n²` items: each cell holds one symbol, each row holds each
//! symbol once, each column holds each symbol once, each block holds each symbol once.
//! An option covers exactly four items.
//!
//! Givens are applied while building rather than by covering afterwards: the items a given
//! already satisfies are left out, and so is every option that contradicts a given. An item
//! left with no option (a symbol with no place in a row, say) stays in the matrix with length
//! zero, so the search fails on it at once.

use crate::grid::{Puzzle, Shape};

use super::matrix::Matrix;

/// A puzzle's matrix plus what is needed to turn a cover back into cells.
#[derive(Clone, Debug)]
pub(crate) struct Encoding {
    /// The exact-cover matrix.
    pub matrix: Matrix,
    /// For each option number: `(cell, symbol)`.
    pub options: Vec<(u32, u8)>,
    /// The puzzle's cells (givens) that every solution starts from.
    pub givens: Vec<u8>,
    /// The shape.
    pub shape: Shape,
}

/// Which of the four constraint families an item belongs to.
#[derive(Clone, Copy)]
enum Family {
    Cell = 0,
    RowSymbol = 1,
    ColSymbol = 2,
    BlockSymbol = 3,
}

impl Encoding {
    /// Builds the matrix of `puzzle`. Repeated givens must have been rejected already
    /// (`Puzzle::check`); they would only make the puzzle unsolvable here.
    pub(crate) fn new(puzzle: &Puzzle) -> Encoding {
        Encoding::with_candidates(puzzle, None)
    }

    /// Like [`Encoding::new`], keeping for each blank cell only the symbols allowed by
    /// `allowed[cell]` (bit `v−1` for `v`) when given.
    pub(crate) fn with_candidates(puzzle: &Puzzle, allowed: Option<&[u128]>) -> Encoding {
        let shape = puzzle.shape();
        let n = shape.side();
        let cells = puzzle.cells();
        let mut row_used = vec![0u128; n];
        let mut col_used = vec![0u128; n];
        let mut block_used = vec![0u128; n];
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                let (r, c) = (i / n, i % n);
                let bit = 1u128 << (v - 1);
                row_used[r] |= bit;
                col_used[c] |= bit;
                block_used[shape.block_of(r, c)] |= bit;
            }
        }
        // Number the items that are still open, family by family, so that list order (the MRV
        // tie-break) is cells first, as in Knuth's sudoku programs.
        let n2 = n * n;
        let mut item_id = vec![0u32; 4 * n2];
        let mut next = 0u32;
        let open = |fam: Family, k: usize| -> bool {
            let (house, v) = (k / n, k % n);
            match fam {
                Family::Cell => cells[k] == 0,
                Family::RowSymbol => row_used[house] >> v & 1 == 0,
                Family::ColSymbol => col_used[house] >> v & 1 == 0,
                Family::BlockSymbol => block_used[house] >> v & 1 == 0,
            }
        };
        for fam in [
            Family::Cell,
            Family::RowSymbol,
            Family::ColSymbol,
            Family::BlockSymbol,
        ] {
            for k in 0..n2 {
                if open(fam, k) {
                    next += 1;
                    item_id[fam as usize * n2 + k] = next;
                }
            }
        }
        let blanks = cells.iter().filter(|&&v| v == 0).count();
        let mut matrix = Matrix::new_fixed4(next as usize, blanks * n);
        let mut options = Vec::with_capacity(blanks * n);
        for (i, &given) in cells.iter().enumerate() {
            if given != 0 {
                continue;
            }
            let (r, c) = (i / n, i % n);
            let k = shape.block_of(r, c);
            let mut taken = row_used[r] | col_used[c] | block_used[k];
            if let Some(a) = allowed {
                taken |= !a[i];
            }
            for v in 0..n {
                if taken >> v & 1 != 0 {
                    continue;
                }
                let ids = [
                    item_id[i],
                    item_id[n2 + r * n + v],
                    item_id[2 * n2 + c * n + v],
                    item_id[3 * n2 + k * n + v],
                ];
                debug_assert!(ids.iter().all(|&id| id != 0));
                matrix.add_option(&ids);
                options.push((i as u32, v as u8 + 1));
            }
        }
        matrix.seal();
        Encoding {
            matrix,
            options,
            givens: cells.to_vec(),
            shape,
        }
    }

    /// Writes the cells of the cover `xs` (option nodes) into `out`, givens included.
    pub(crate) fn decode_into(&self, m: &Matrix, xs: &[u32], out: &mut Vec<u8>) {
        decode_into(&self.options, &self.givens, m, xs, out);
    }
}

/// [`Encoding::decode_into`] on the parts of an encoding, for callers that hold its matrix
/// mutably at the same time.
pub(crate) fn decode_into(
    options: &[(u32, u8)],
    givens: &[u8],
    m: &Matrix,
    xs: &[u32],
    out: &mut Vec<u8>,
) {
    out.clear();
    out.extend_from_slice(givens);
    for &x in xs {
        let (cell, v) = options[m.option_of(x) as usize];
        out[cell as usize] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_grid_sizes() {
        for b in 2..=4 {
            let shape = Shape::new(b).unwrap();
            let e = Encoding::new(&Puzzle::empty(shape));
            let n = shape.side();
            assert_eq!(e.matrix.items(), 4 * n * n);
            assert_eq!(e.matrix.options(), n * n * n);
        }
    }

    #[test]
    fn givens_shrink_the_matrix() {
        let shape = Shape::new(2).unwrap();
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        let e = Encoding::new(&Puzzle::new(shape, cells).unwrap());
        // One cell, one row-symbol, one col-symbol, one block-symbol item fewer.
        assert_eq!(e.matrix.items(), 64 - 4);
        // 15 blank cells × 4 symbols, less symbol 1 in the 7 peers of cell 0.
        assert_eq!(e.matrix.options(), 15 * 4 - 7);
    }
}
