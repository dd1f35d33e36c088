//! More solutions from one: trades among a puzzle's blank cells.
//!
//! Take two rows of one band in a solution. Going from a column to the column where the
//! first row holds the second row's symbol closes a cycle of columns on which the two rows
//! hold the same symbols; exchanging the rows' symbols on those columns keeps every row,
//! every column (each keeps its two symbols) and every box (the band's boxes hold both
//! rows) a permutation, so the result is another solution whenever none of those cells is
//! a given. The same holds for two columns of one stack. Such a cycle is a *trade* (an
//! unavoidable set of the solution): a unique puzzle gives at least one cell of each.
//!
//! On a sparse board (most cells blank) the first solution nearly always has trades in its
//! blanks, and cell-disjoint ones combine: `m` of them make `2^m` solutions. That settles a
//! uniqueness test or a count to a few as soon as one solution is found, where a search for
//! a second can stall (100×100 at 90% blank: minutes). Rows and columns with givens are
//! used too, unlike the whole-line swaps of `swap`, which need lines without a given.

use crate::grid::Puzzle;

/// A trade: pairs of cells (row-major indices) whose symbols are exchanged.
type Trade = Vec<(usize, usize)>;

/// The cell-disjoint trades of `solution` among `puzzle`'s blank cells, found in order
/// (row pairs of each band, then column pairs of each stack; each pair's cycles by their
/// first column or row), at most `most` of them.
fn disjoint_trades(puzzle: &Puzzle, solution: &[u8], most: usize) -> Vec<Trade> {
    let shape = puzzle.shape();
    let (n, b) = (shape.side(), shape.box_size());
    let givens = puzzle.cells();
    let mut used = vec![false; n * n];
    let mut trades = Vec::new();
    // Where a line holds each symbol, for the line of the first of the pair.
    let mut at = vec![0usize; n + 1];
    let mut on_cycle = vec![false; n];
    // `cell(line, k)`: the k-th cell of a line, rows then columns.
    for by_rows in [true, false] {
        let cell = |line: usize, k: usize| if by_rows { line * n + k } else { k * n + line };
        for first in 0..n {
            for second in first + 1..(first / b + 1) * b {
                if trades.len() >= most {
                    return trades;
                }
                for k in 0..n {
                    at[usize::from(solution[cell(first, k)])] = k;
                }
                on_cycle.fill(false);
                for start in 0..n {
                    if on_cycle[start] {
                        continue;
                    }
                    let mut pairs = Vec::new();
                    let mut free = true;
                    let mut k = start;
                    loop {
                        on_cycle[k] = true;
                        let (x, y) = (cell(first, k), cell(second, k));
                        free &= givens[x] == 0 && givens[y] == 0 && !used[x] && !used[y];
                        pairs.push((x, y));
                        k = at[usize::from(solution[y])];
                        if k == start {
                            break;
                        }
                    }
                    if free && trades.len() < most {
                        for &(x, y) in &pairs {
                            used[x] = true;
                            used[y] = true;
                        }
                        trades.push(pairs);
                    }
                }
            }
        }
    }
    trades
}

/// Up to `want` distinct solutions of `puzzle`, `solution` (one of them) first, made by the
/// cell-disjoint trades of `solution` among the blank cells and their combinations; `None`
/// when those make fewer than `want` (then a search must count).
pub(crate) fn solutions_by_trades(
    puzzle: &Puzzle,
    solution: &[u8],
    want: u64,
) -> Option<Vec<Vec<u8>>> {
    // 2^m combinations of m trades: enough trades for `want`, and no more.
    let needed = (64 - want.saturating_sub(1).leading_zeros()) as usize;
    let trades = disjoint_trades(puzzle, solution, needed);
    if trades.len() < needed {
        return None;
    }
    // Combination `mask` applies the trades of its set bits: distinct masks change
    // distinct sets of cells, so they give distinct grids.
    let found = (0..want)
        .map(|mask| {
            let mut cells = solution.to_vec();
            for (t, trade) in trades.iter().enumerate() {
                if mask >> t & 1 == 1 {
                    for &(x, y) in trade {
                        cells.swap(x, y);
                    }
                }
            }
            cells
        })
        .collect();
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Shape};
    use crate::solve::{Engine, SearchControl, SolveLimits, solve};
    use rand::{Rng, SeedableRng};

    /// `grid` with each cell blanked with probability `blank`.
    fn blanked(grid: &Grid, blank: f64, rng: &mut impl Rng) -> Puzzle {
        let cells = grid
            .cells()
            .iter()
            .map(|&v| if rng.gen_bool(blank) { 0 } else { v });
        Puzzle::new(grid.shape(), cells.collect()).unwrap()
    }

    fn full(shape: Shape, seed: u64) -> Grid {
        use crate::generate::fill::{FillConfig, fill_grid};
        fill_grid(shape, &FillConfig::new(seed), &SearchControl::default())
            .unwrap()
            .grid
    }

    /// On random sparse boards (a grid blanked at 70–95% at random), the trades make as
    /// many distinct completions as asked, each a valid grid holding the givens; DLX
    /// counts agree where they are small.
    #[test]
    fn trades_make_distinct_completions() {
        let control = SearchControl::default();
        for (b, seed) in [(2, 1), (3, 2), (3, 3), (4, 4), (5, 5), (6, 6)] {
            let shape = Shape::new(b).unwrap();
            let grid = full(shape, seed);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for blank in [0.7, 0.8, 0.95] {
                let p = blanked(&grid, blank, &mut rng);
                for want in [2u64, 3, 8] {
                    let Some(found) = solutions_by_trades(&p, grid.cells(), want) else {
                        // Too few trades: only on the smaller or fuller boards.
                        assert!(b <= 3 || blank < 0.8, "{shape} {blank}: too few for {want}");
                        continue;
                    };
                    if b <= 3 {
                        // As many solutions by an independent count.
                        let o = solve(&p, Engine::Dlx, &SolveLimits::count_up_to(want), &control);
                        assert_eq!(o.unwrap().count, want, "{shape} {blank}");
                    }
                    assert_eq!(found.len() as u64, want);
                    assert_eq!(found[0], grid.cells());
                    let distinct: std::collections::HashSet<_> = found.iter().collect();
                    assert_eq!(distinct.len() as u64, want, "{shape} {blank}");
                    for cells in found {
                        let g = Grid::new(shape, cells).expect("a trade keeps the grid valid");
                        assert!(p.is_completed_by(&g));
                    }
                }
            }
        }
    }

    /// A unique puzzle has no trade in its blanks (every trade is an unavoidable set), so
    /// no second solution comes from them; a sparse one has many.
    #[test]
    fn a_unique_puzzle_has_no_trade_and_a_sparse_board_has_many() {
        let p: Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let control = SearchControl::default();
        let o = solve(&p, Engine::Dlx, &SolveLimits::count_up_to(2), &control).unwrap();
        assert_eq!(o.count, 1);
        assert!(disjoint_trades(&p, o.solutions[0].cells(), usize::MAX).is_empty());
        let shape = Shape::new(10).unwrap();
        let grid = full(shape, 1);
        let mut cells = grid.cells().to_vec();
        for (i, v) in cells.iter_mut().enumerate() {
            if i % 10 != 0 {
                *v = 0;
            }
        }
        let p = Puzzle::new(shape, cells).unwrap();
        assert!(disjoint_trades(&p, grid.cells(), usize::MAX).len() >= 12);
        assert_eq!(
            solutions_by_trades(&p, grid.cells(), 4096).unwrap().len(),
            4096
        );
    }

    /// `auto` settles a count to a few on a sparse board whose givens see every whole-line
    /// swap by the trades of its first solution: as many distinct completions as asked.
    #[test]
    fn auto_counts_a_sparse_board_by_trades() {
        let control = SearchControl::default();
        for (b, seed, blank) in [(6, 3, 0.8), (8, 4, 0.9)] {
            let shape = Shape::new(b).unwrap();
            let grid = full(shape, seed);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let p = blanked(&grid, blank, &mut rng);
            assert!(!crate::solve::swap::swaps_reach(&p, 2), "{shape}");
            for cap in [2, 5] {
                let limits = SolveLimits {
                    keep: usize::MAX,
                    ..SolveLimits::count_up_to(cap)
                };
                let o = solve(&p, Engine::Auto, &limits, &control).unwrap();
                assert_eq!((o.count, o.complete), (cap, true), "{shape}");
                let distinct: std::collections::HashSet<_> =
                    o.solutions.iter().map(|g| g.cells().to_vec()).collect();
                assert_eq!(distinct.len() as u64, cap);
                assert!(o.solutions.iter().all(|g| p.is_completed_by(g)));
            }
        }
    }
}
