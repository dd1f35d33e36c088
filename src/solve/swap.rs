//! More solutions without search: swaps that a puzzle's givens cannot see.
//!
//! Two shifts that no given names can be exchanged everywhere in a solution; two staff rows
//! of one band, or two day columns of one stack, that hold no given can be exchanged. Either
//! way the result is another solution (rows, columns and blocks keep their symbols; the
//! givens are untouched) and a different one (two symbols swap in every row; two rows of a
//! Latin square differ in every cell). On sparse boards, where a search for a second
//! solution can run for minutes (one given on a 100×100 board: over 90 s), this settles
//! the uniqueness test as soon as one solution is found, and a count to a few more takes
//! them from the permutations the swaps make (`solutions_by_swaps`).

use crate::grid::Puzzle;

/// The swap a puzzle's givens cannot see, if it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Swap {
    /// Two symbols (1-based) no given names.
    Symbols(u8, u8),
    /// Two rows (0-based) of one band without a given.
    Rows(usize, usize),
    /// Two columns (0-based) of one stack without a given.
    Cols(usize, usize),
}

/// The first swap of `puzzle`'s that its givens cannot see: two unnamed symbols, else two
/// empty rows of a band, else two empty columns of a stack.
pub(crate) fn swap_of(puzzle: &Puzzle) -> Option<Swap> {
    let unseen = Unseen::of(puzzle);
    unseen.swaps().next()
}

/// What a puzzle's givens leave unseen: the symbols no given names, and each band's rows
/// and each stack's columns without a given.
struct Unseen {
    symbols: Vec<usize>,
    rows: Vec<Vec<usize>>,
    cols: Vec<Vec<usize>>,
}

impl Unseen {
    fn of(puzzle: &Puzzle) -> Unseen {
        let shape = puzzle.shape();
        let (n, b) = (shape.side(), shape.box_size());
        let mut named = vec![false; n + 1];
        let mut row_given = vec![false; n];
        let mut col_given = vec![false; n];
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                named[usize::from(v)] = true;
                row_given[i / n] = true;
                col_given[i % n] = true;
            }
        }
        let empty = |given: &[bool]| -> Vec<Vec<usize>> {
            (0..n)
                .step_by(b)
                .map(|start| (start..start + b).filter(|&k| !given[k]).collect())
                .collect()
        };
        Unseen {
            symbols: (1..=n).filter(|&v| !named[v]).collect(),
            rows: empty(&row_given),
            cols: empty(&col_given),
        }
    }

    /// Swaps of neighbours in each class (symbols, then each band's rows, then each
    /// stack's columns): together they make every permutation within the classes.
    fn swaps(&self) -> impl Iterator<Item = Swap> + '_ {
        let symbols = self
            .symbols
            .windows(2)
            .map(|w| Swap::Symbols(w[0] as u8, w[1] as u8));
        let rows = self
            .rows
            .iter()
            .flat_map(|band| band.windows(2).map(|w| Swap::Rows(w[0], w[1])));
        let cols = self
            .cols
            .iter()
            .flat_map(|stack| stack.windows(2).map(|w| Swap::Cols(w[0], w[1])));
        symbols.chain(rows).chain(cols)
    }

    /// Whether the permutations within the classes number at least `want`.
    fn at_least(&self, want: u64) -> bool {
        let mut product = 1u64;
        let classes = std::iter::once(self.symbols.len())
            .chain(self.rows.iter().map(Vec::len))
            .chain(self.cols.iter().map(Vec::len));
        for size in classes {
            for k in 2..=size as u64 {
                product = product.saturating_mul(k);
                if product >= want {
                    return true;
                }
            }
        }
        product >= want
    }
}

/// Up to `want` distinct solutions of `puzzle`, `solution` first, made from `solution` by
/// the swaps its givens cannot see (each another solution; see the module documentation),
/// or `None` when their permutations are fewer than `want` (then a search must count).
/// Fewer than `want` come back where some permutations give the same grid. Each is
/// distinct from the others.
pub(crate) fn solutions_by_swaps(
    puzzle: &Puzzle,
    solution: &[u8],
    want: u64,
) -> Option<Vec<Vec<u8>>> {
    let unseen = Unseen::of(puzzle);
    if !unseen.at_least(want) {
        return None;
    }
    let swaps: Vec<Swap> = unseen.swaps().collect();
    let n = puzzle.shape().side();
    let want = usize::try_from(want).unwrap_or(usize::MAX);
    // Grids seen, by a 64-bit hash (fixed keys, so the same on every run): two grids with
    // one hash would only make this find fewer, and a search count instead.
    let hash = |cells: &[u8]| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        cells.hash(&mut h);
        h.finish()
    };
    let mut seen = std::collections::HashSet::new();
    seen.insert(hash(solution));
    let mut found = vec![solution.to_vec()];
    let mut next = 0;
    while found.len() < want && next < found.len() {
        for &swap in &swaps {
            let other = apply(swap, n, &found[next]);
            if seen.insert(hash(&other)) {
                found.push(other);
                if found.len() == want {
                    break;
                }
            }
        }
        next += 1;
    }
    Some(found)
}

/// Whether `puzzle`'s unseen swaps make at least `want` permutations (see
/// [`solutions_by_swaps`]).
pub(crate) fn swaps_reach(puzzle: &Puzzle, want: u64) -> bool {
    Unseen::of(puzzle).at_least(want)
}

/// `solution` (row-major cells of a solution of the puzzle `swap` came from) with `swap`
/// applied: another solution of that puzzle.
pub(crate) fn apply(swap: Swap, n: usize, solution: &[u8]) -> Vec<u8> {
    let mut out = solution.to_vec();
    match swap {
        Swap::Symbols(a, c) => {
            for v in &mut out {
                if *v == a {
                    *v = c;
                } else if *v == c {
                    *v = a;
                }
            }
        }
        Swap::Rows(x, y) => {
            for col in 0..n {
                out.swap(x * n + col, y * n + col);
            }
        }
        Swap::Cols(x, y) => {
            for row in 0..n {
                out.swap(row * n + x, row * n + y);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Shape};

    #[test]
    fn every_swap_gives_another_solution() {
        let shape = Shape::new(3).unwrap();
        let g: Grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let keep = |f: &dyn Fn(usize) -> bool| {
            Puzzle::new(
                shape,
                g.cells()
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| if f(i) { v } else { 0 })
                    .collect(),
            )
            .unwrap()
        };
        // Givens naming 7 symbols (rows 1-2 minus the 1s and 2s): symbols 1 and 2 are free.
        let p = keep(&|i| i < 18 && g.cells()[i] > 2);
        assert_eq!(swap_of(&p), Some(Swap::Symbols(1, 2)));
        // Every symbol named, rows 2 and 3 (band 1) empty: a row swap.
        let p = keep(&|i| i / 9 == 0 || i / 9 >= 3);
        assert_eq!(swap_of(&p), Some(Swap::Rows(1, 2)));
        // Every row given, columns 8 and 9 empty: a column swap.
        let p = keep(&|i| i % 9 < 7);
        assert_eq!(swap_of(&p), Some(Swap::Cols(7, 8)));
        // One empty row per band and column per stack, every symbol named: none.
        let p = keep(&|i| i / 9 % 3 != 0 && i % 9 % 3 != 0);
        assert_eq!(swap_of(&p), None);
        for p in [
            keep(&|i| i < 18 && g.cells()[i] > 2),
            keep(&|i| i / 9 == 0 || i / 9 >= 3),
            keep(&|i| i % 9 < 7),
        ] {
            let s = swap_of(&p).unwrap();
            let other = Grid::new(shape, apply(s, 9, g.cells())).expect("a valid grid");
            assert_ne!(other, g);
            assert!(p.is_completed_by(&other));
        }
    }

    /// Counts to a cap by swaps (which `auto` uses from 16×16 up) agree with dancing links'
    /// exact count on 16×16 boards made from a grid by blanking every cell of three
    /// shifts, or three rows of a band: at least 3! = 6 completions, and the caps on both
    /// sides of the true count. The solutions are distinct completions.
    #[test]
    fn counts_by_swaps_agree_with_an_exact_count() {
        use crate::solve::{Engine, SearchControl, SolveLimits, solve};
        let control = SearchControl::default();
        let shape = Shape::new(4).unwrap();
        for seed in [1u64, 2, 3] {
            let cfg = crate::generate::fill::FillConfig::new(seed);
            let grid = crate::generate::fill::fill_grid(shape, &cfg, &control).unwrap();
            let blank = |f: &dyn Fn(usize, u8) -> bool| {
                let cells = (grid.grid.cells().iter().enumerate())
                    .map(|(i, &v)| if f(i, v) { 0 } else { v })
                    .collect();
                Puzzle::new(shape, cells).unwrap()
            };
            for p in [blank(&|_, v| v >= 14), blank(&|i, _| i / 16 < 3)] {
                let all = SolveLimits::count_up_to(u64::MAX);
                let exact = solve(&p, Engine::Dlx, &all, &control).unwrap().count;
                assert!(exact >= 6, "{exact}");
                for cap in [2, 3, 5, 6, 7, exact, exact + 1] {
                    assert!(swaps_reach(&p, cap) == (cap <= 6), "{cap}");
                    let limits = SolveLimits {
                        keep: usize::MAX,
                        ..SolveLimits::count_up_to(cap)
                    };
                    let o = solve(&p, Engine::Auto, &limits, &control).unwrap();
                    assert_eq!(o.count, exact.min(cap), "seed {seed}, cap {cap}");
                    let distinct: std::collections::HashSet<_> =
                        o.solutions.iter().map(|g| g.cells().to_vec()).collect();
                    assert_eq!(distinct.len() as u64, o.count);
                    assert!(o.solutions.iter().all(|g| p.is_completed_by(g)));
                }
                // By the swaps alone: as many as asked, each a completion.
                let one = solve(&p, Engine::Dlx, &SolveLimits::count_up_to(1), &control)
                    .unwrap()
                    .solutions
                    .remove(0);
                let six = solutions_by_swaps(&p, one.cells(), 6).unwrap();
                let distinct: std::collections::HashSet<_> = six.iter().collect();
                assert_eq!(distinct.len(), 6);
                for cells in &six {
                    let g = crate::grid::Grid::new(shape, cells.clone()).expect("valid");
                    assert!(p.is_completed_by(&g));
                }
                assert!(solutions_by_swaps(&p, one.cells(), 7).is_none());
            }
        }
    }

    /// The uniqueness test on a 100×100 board with one given (it searched for minutes for a
    /// second solution): two distinct solutions, both completing the puzzle.
    #[test]
    fn auto_settles_a_sparse_uniqueness_test_by_a_swap() {
        use crate::solve::{Engine, SearchControl, SolveLimits, solve};
        for b in [4, 6, 10] {
            let shape = Shape::new(b).unwrap();
            let mut cells = vec![0u8; shape.cells()];
            cells[0] = 1;
            let p = Puzzle::new(shape, cells).unwrap();
            let o = solve(
                &p,
                Engine::Auto,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
            assert_eq!((o.count, o.complete), (2, true), "{shape}");
            assert_eq!(o.solutions.len(), 2);
            assert_ne!(o.solutions[0], o.solutions[1]);
            assert!(o.solutions.iter().all(|g| p.is_completed_by(g)));
        }
    }
}
