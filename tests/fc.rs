//! The forward-checking engine (`shiftgrid::solve::fc`) against the dancing-links engine, which
//! shares no code with it, on published puzzle sets: count for count, and solution for
//! solution where the solution is unique. Sets come from `grids/` (always present) and
//! `../shared/peers` (skipped with a note when absent). Then planted solutions: a random full
//! grid with cells blanked must be among the completions found.

use proptest::prelude::*;
use shiftgrid::solve::fc::{self, FcBudget};
use shiftgrid::{Puzzle, Shape};

use crate::util::{
    CountCase, blank, count, full_grid, independently_valid, peers, puzzles, repo, solution_cells,
    tdoku_counts,
};

/// Counts `p` up to `cap` with both engines and asserts that they agree; returns the count,
/// or `None` when forward checking ran out of its node budget.
fn agree(p: &Puzzle, cap: u64, node_limit: u64, what: &str) -> Option<u64> {
    let budget = FcBudget {
        node_limit,
        ..FcBudget::unlimited()
    };
    let f = fc::solve(p, cap, 2, &budget).expect("no repeated givens");
    if !f.complete {
        return None;
    }
    let d = count(p, cap);
    assert_eq!(f.count, d.count, "{what}: fc and dlx counts");
    let n = p.shape().side();
    for g in &f.solutions {
        assert!(
            independently_valid(n, g.cells()),
            "{what}: invalid solution"
        );
        assert!(
            p.is_completed_by(g),
            "{what}: solution disagrees with a given"
        );
    }
    if f.count == 1 {
        assert_eq!(
            f.solutions[0], d.solutions[0],
            "{what}: fc and dlx solutions"
        );
    }
    Some(f.count)
}

#[test]
fn fc_top95_unique_like_dlx() {
    // grids/top95.txt is ../shared/peers/norvig_top95 byte for byte (grids/README.md).
    for (i, p) in puzzles(&repo("grids/top95.txt")).iter().enumerate() {
        assert_eq!(agree(p, 2, u64::MAX, &format!("top95 #{}", i + 1)), Some(1));
    }
}

#[test]
fn fc_norvig_hardest_unique_like_dlx() {
    let Some(dir) = peers() else { return };
    for (i, p) in puzzles(&dir.join("norvig_hardest/puzzles.txt"))
        .iter()
        .enumerate()
    {
        assert_eq!(
            agree(p, 2, u64::MAX, &format!("hardest #{}", i + 1)),
            Some(1)
        );
    }
}

#[test]
fn fc_tdoku_exact_counts() {
    // PUZZLE:COUNT[:SOLUTION]: counts 0, 1 and 3..847 (tdoku's test oracle).
    let mut seen = 0;
    for case in tdoku_counts() {
        let CountCase {
            text,
            puzzle: p,
            count: want,
            solution,
        } = case;
        let puzzle = text.as_str();
        assert_eq!(agree(&p, 10_000, u64::MAX, puzzle), Some(want), "{puzzle}");
        if let Some(sol) = solution.as_deref() {
            let o = fc::solve(&p, 1, 1, &FcBudget::unlimited()).unwrap();
            assert_eq!(o.solutions[0].cells(), solution_cells(sol).as_slice());
        }
        seen += 1;
    }
    assert_eq!(seen, 43);
}

/// Janko's 16×16 puzzles, each given `node_limit` nodes; returns how many were decided.
fn janko(node_limit: u64) -> Option<usize> {
    let dir = peers()?;
    let ps = puzzles(&dir.join("gecode_16x16_janko/puzzles.numeric.txt"));
    assert_eq!(ps.len(), 55);
    let decided = ps
        .iter()
        .enumerate()
        .filter_map(|(i, p)| agree(p, 2, node_limit, &format!("janko #{}", i + 1)))
        .inspect(|&c| assert_eq!(c, 1))
        .count();
    Some(decided)
}

#[test]
fn fc_janko_16x16_within_a_budget() {
    // Proving uniqueness takes forward checking from 0.04 ms to 7 s per puzzle (module docs
    // of `shiftgrid::fc`); half a million nodes (under 0.1 s) decides 44 of them.
    if let Some(decided) = janko(500_000) {
        assert!(decided >= 44, "only {decided} of 55 decided");
    }
}

#[test]
#[ignore = "all 55 janko 16x16 to the end: 8 to 12 s in release, most of it on #55"]
fn fc_janko_16x16_all() {
    assert_eq!(janko(u64::MAX), Some(55).filter(|_| peers().is_some()));
}

#[test]
fn fc_serg_sample_has_multiple_solutions_like_dlx() {
    let Some(dir) = peers() else { return };
    for (i, p) in puzzles(&dir.join("serg_benchmark/puzzles.txt"))
        .iter()
        .take(1000)
        .enumerate()
    {
        assert_eq!(agree(p, 2, u64::MAX, &format!("serg #{}", i + 1)), Some(2));
    }
}

#[test]
fn fc_bprolog_25x25_first() {
    // Only sudoku250 (368 givens) is within reach: on sudoku368 and sudoku378 (257 and
    // 247 givens) forward checking had not finished after 5 minutes.
    let Some(dir) = peers() else { return };
    let p = &puzzles(&dir.join("bprolog_25x25/puzzles.numeric.txt"))[0];
    assert_eq!(p.givens(), 368);
    assert_eq!(agree(p, 2, u64::MAX, "bprolog sudoku250"), Some(1));
}

#[test]
fn every_size_with_most_cells_given() {
    // Empty boards of 25×25 and up defeat chronological backtracking (see the module
    // docs); with 80% of a planted grid given, every size is solved in milliseconds.
    for b in 2..=10 {
        let p = blank(&full_grid(b, b as u64), 0.2, b as u64);
        let o = fc::solve(&p, 1, 1, &FcBudget::unlimited()).unwrap();
        assert_eq!(o.count, 1, "b = {b}");
        assert!(p.is_completed_by(&o.solutions[0]), "b = {b}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn planted_grid_is_found(
        b in 2usize..=5,
        seed in 0u64..1000,
        blank_seed in any::<u64>(),
        fraction in 0.0f64..1.0,
    ) {
        // Up to every cell blank at 4×4, fewer as the grids grow: at 25×25 with up to 40%
        // blank, 300 seeds needed at most 75 000 nodes; with 50% blank, many never finish.
        let fraction = fraction * [1.0, 0.6, 0.5, 0.4][b - 2];
        let shape = Shape::new(b).unwrap();
        let planted = full_grid(b, seed);
        let p = blank(&planted, fraction, blank_seed);
        let cap = 500;
        // Bounded (about a second), so that an unlucky seed cannot hold the run for long:
        // the 33k cases a probe drew took at most 6.3M nodes, the others far fewer.
        let budget = FcBudget { node_limit: 2_000_000, ..FcBudget::unlimited() };
        let o = fc::solve(&p, cap, cap as usize, &budget).unwrap();
        // Only 16×16 and 25×25 may run out of nodes; the rest is compared when finished.
        prop_assert!(o.complete || b >= 4);
        if !o.complete {
            return Ok(());
        }
        prop_assert!(o.count >= 1);
        for g in &o.solutions {
            prop_assert!(p.is_completed_by(g));
            prop_assert!(independently_valid(shape.side(), g.cells()));
        }
        if o.count < cap {
            prop_assert!(o.solutions.contains(&planted));
        }
    }
}
