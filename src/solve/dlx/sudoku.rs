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

use crate::cells::{Placed, Symbol, SymbolSet};
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

/// Working space of the encoder, kept by callers that encode many puzzles.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// Symbols given per house.
    placed: Placed,
    /// Item number of each `(family, house, symbol)`, 0 for an item the givens satisfy.
    item_id: Vec<u32>,
}

impl Encoding {
    /// Builds the matrix of `puzzle`. Repeated givens must have been rejected already
    /// (`Puzzle::check`); they would only make the puzzle unsolvable here.
    pub(crate) fn new(puzzle: &Puzzle) -> Encoding {
        Encoding::with_candidates(puzzle, None)
    }

    /// Like [`Encoding::new`], keeping for each blank cell only the symbols allowed by
    /// `allowed[cell]` when given.
    pub(crate) fn with_candidates(puzzle: &Puzzle, allowed: Option<&[SymbolSet]>) -> Encoding {
        Encoding::with_scratch(puzzle, allowed, &mut Scratch::default())
    }

    /// [`Encoding::with_candidates`] in the caller's working space.
    pub(crate) fn with_scratch(
        puzzle: &Puzzle,
        allowed: Option<&[SymbolSet]>,
        scratch: &mut Scratch,
    ) -> Encoding {
        let mut enc = Encoding {
            matrix: Matrix::new(0, 0),
            options: Vec::new(),
            givens: Vec::new(),
            shape: puzzle.shape(),
        };
        enc.rebuild(puzzle, allowed, scratch);
        enc
    }

    /// Replaces this encoding with `puzzle`'s, as [`Encoding::with_candidates`] would build
    /// it, reusing the allocations of the last one and of `scratch`.
    pub(crate) fn rebuild(
        &mut self,
        puzzle: &Puzzle,
        allowed: Option<&[SymbolSet]>,
        scratch: &mut Scratch,
    ) {
        let shape = puzzle.shape();
        let n = shape.side();
        let cells = puzzle.cells();
        let Scratch { placed, item_id } = scratch;
        placed.load(shape, cells);
        // Number the items that are still open, family by family, so that list order (the MRV
        // tie-break) is cells first, as in Knuth's sudoku programs.
        let n2 = n * n;
        item_id.clear();
        item_id.resize(4 * n2, 0);
        let mut next = 0u32;
        // Houses are numbered rows, columns, blocks, like the families after `Cell`.
        let open = |fam: Family, k: usize| -> bool {
            match fam {
                Family::Cell => cells[k] == 0,
                _ => {
                    let house = (fam as usize - 1) * n + k / n;
                    !placed.house(house).contains(Symbol::from_index(k % n))
                }
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
        // The symbols each blank cell may still take: one option each.
        let free = |i: usize| -> SymbolSet {
            let free = placed.free(i);
            allowed.map_or(free, |a| free & a[i])
        };
        let count: usize = (0..cells.len())
            .filter(|&i| cells[i] == 0)
            .map(|i| free(i).len())
            .sum();
        let matrix = &mut self.matrix;
        matrix.reset(next as usize, count);
        let options = &mut self.options;
        options.clear();
        options.reserve(count);
        for (i, &given) in cells.iter().enumerate() {
            if given != 0 {
                continue;
            }
            let (r, c) = (i / n, i % n);
            let k = shape.block_of(r, c);
            for v in free(i).indices() {
                let ids = [
                    item_id[i],
                    item_id[n2 + r * n + v],
                    item_id[2 * n2 + c * n + v],
                    item_id[3 * n2 + k * n + v],
                ];
                debug_assert!(ids.iter().all(|&id| id != 0));
                matrix.add_option(ids);
                options.push((i as u32, v as u8 + 1));
            }
        }
        matrix.seal();
        self.givens.clear();
        self.givens.extend_from_slice(cells);
        self.shape = shape;
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
    fn rebuilding_in_place_matches_a_fresh_encoding() {
        // Big, small, big again: the reused arrays must end up exactly as fresh ones,
        // padding included, whatever the last puzzle left in them.
        let shape = Shape::new(3).unwrap();
        let mut sparse = vec![0u8; 81];
        sparse[0] = 1;
        sparse[40] = 5;
        let dense: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                if (r + c) % 3 == 0 {
                    ((r * 3 + r / 3 + c) % 9 + 1) as u8
                } else {
                    0
                }
            })
            .collect();
        let puzzles = [
            Puzzle::empty(shape),
            Puzzle::new(shape, dense).unwrap(),
            Puzzle::new(shape, sparse).unwrap(),
            Puzzle::empty(shape),
        ];
        let mut scratch = Scratch::default();
        let mut enc = Encoding::with_scratch(&puzzles[1], None, &mut scratch);
        for p in &puzzles {
            enc.rebuild(p, None, &mut scratch);
            let fresh = Encoding::new(p);
            let (a, b) = (&enc.matrix, &fresh.matrix);
            assert_eq!((a.items(), a.options()), (b.items(), b.options()));
            assert_eq!(a.nodes[..b.nodes.len()], b.nodes[..]);
            assert_eq!(a.top[..b.top.len()], b.top[..]);
            assert_eq!(a.len[..b.len.len()], b.len[..]);
            assert_eq!(a.rlink[..b.rlink.len()], b.rlink[..]);
            assert_eq!(a.llink[..b.llink.len()], b.llink[..]);
            assert!(
                a.option_nodes()
                    .all(|x| a.option_of(x as u32) == b.option_of(x as u32))
            );
            assert_eq!(enc.options, fresh.options);
            assert_eq!(enc.givens, fresh.givens);
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
