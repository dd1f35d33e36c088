//! A second solution without search: a swap that a puzzle's givens cannot see.
//!
//! Two shifts that no given names can be exchanged everywhere in a solution; two staff rows
//! of one band, or two day columns of one stack, that hold no given can be exchanged. Either
//! way the result is another solution (rows, columns and blocks keep their symbols; the
//! givens are untouched) and a different one (two symbols swap in every row; two rows of a
//! Latin square differ in every cell). On sparse boards, where a search for a second
//! solution can run for minutes (one given on a 100×100 board: over 90 s), this settles
//! the uniqueness test as soon as one solution is found.

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
    let shape = puzzle.shape();
    let (n, b) = (shape.side(), shape.box_size());
    let cells = puzzle.cells();
    let mut named = vec![false; n + 1];
    let mut row_given = vec![false; n];
    let mut col_given = vec![false; n];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            named[usize::from(v)] = true;
            row_given[i / n] = true;
            col_given[i % n] = true;
        }
    }
    let mut free = (1..=n).filter(|&v| !named[v]);
    if let (Some(a), Some(c)) = (free.next(), free.next()) {
        return Some(Swap::Symbols(a as u8, c as u8));
    }
    let two_in_a_band = |given: &[bool]| {
        (0..n).step_by(b).find_map(|start| {
            let mut empty = (start..start + b).filter(|&k| !given[k]);
            match (empty.next(), empty.next()) {
                (Some(x), Some(y)) => Some((x, y)),
                _ => None,
            }
        })
    };
    if let Some((x, y)) = two_in_a_band(&row_given) {
        return Some(Swap::Rows(x, y));
    }
    two_in_a_band(&col_given).map(|(x, y)| Swap::Cols(x, y))
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
