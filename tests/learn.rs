//! The CDCL engine (`shiftgrid::solve::learn`) against the DLX engine, which shares no code with
//! it, and against the peers' published facts: counts up to 2, the solution of every unique
//! puzzle, exact counts where the set gives them.

use std::path::Path;

use shiftgrid::Puzzle;
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::learn::{Budget, LearnConfig, LearnOutcome, count};
use shiftgrid::solve::{SolveLimits, dlx::Solver};

use crate::util::{CountCase, independently_valid, peers, puzzles, repo, tdoku_counts};

fn learn(p: &Puzzle, cap: u64) -> LearnOutcome {
    let o = count(p, cap, 2, &LearnConfig::new(1), &Budget::unlimited()).unwrap();
    assert!(o.complete);
    for s in &o.solutions {
        assert!(independently_valid(p.shape().side(), s));
        assert!(s.iter().zip(p.cells()).all(|(&a, &g)| g == 0 || a == g));
    }
    o
}

/// Counts (up to 2) and unique solutions agree with DLX on the first `limit` puzzles.
fn agree(path: &Path, limit: usize, what: &str) {
    let ps = puzzles(path);
    assert!(!ps.is_empty());
    for (i, p) in ps.iter().take(limit).enumerate() {
        let d = Solver::new(p).unwrap().solve(&SolveLimits::count_up_to(2));
        let l = learn(p, 2);
        assert_eq!(l.count, d.count, "{what} #{}", i + 1);
        if d.count == 1 {
            assert_eq!(l.solutions[0], d.solutions[0].cells(), "{what} #{}", i + 1);
        }
    }
}

#[test]
fn learn_agrees_on_committed_fixtures() {
    agree(&repo("grids/top95.txt"), usize::MAX, "top95");
    agree(&repo("grids/janko_16x16.txt"), usize::MAX, "janko");
    agree(&repo("grids/sudsoln_25x25.txt"), usize::MAX, "sudsoln 25");
}

#[test]
fn learn_exact_tdoku_counts() {
    // PUZZLE:COUNT[:SOLUTION]; counts 0, 1 and 3..847 (tdoku's tests).
    for case in tdoku_counts() {
        let CountCase {
            text,
            puzzle: p,
            count: want,
            ..
        } = case;
        let puzzle = text.as_str();
        assert_eq!(learn(&p, 10_000).count, want, "{puzzle}");
        assert_eq!(learn(&p, 2).count, want.min(2), "{puzzle}");
    }
}

#[test]
fn learn_agrees_on_peer_sets() {
    let Some(dir) = peers() else { return };
    for (rel, limit) in [
        ("norvig_top95/puzzles.txt", usize::MAX),
        ("magictour_top1465/puzzles.txt", 300),
        ("forum_hardest_1905_11plus/puzzles.txt", 200),
        ("gecode_16x16_janko/puzzles.numeric.txt", usize::MAX),
        ("bprolog_25x25/puzzles.numeric.txt", usize::MAX),
        ("tdoku_test_puzzles/puzzles.txt", usize::MAX),
    ] {
        agree(&dir.join(rel), limit, rel);
    }
}

#[test]
fn learn_serg_sample_has_multiple_solutions() {
    let Some(dir) = peers() else { return };
    for (i, p) in puzzles(&dir.join("serg_benchmark/puzzles.txt"))
        .iter()
        .take(300)
        .enumerate()
    {
        let o = learn(p, 2);
        assert_eq!(o.count, 2, "serg #{}", i + 1);
        assert_ne!(o.solutions[0], o.solutions[1]);
    }
}

#[test]
fn learn_emerentius_invalid_have_no_solution() {
    // Three repeat a given (refused), four parse but have no solution.
    let Some(dir) = peers() else { return };
    let text = std::fs::read_to_string(dir.join("emerentius_sudoku/invalid.txt")).unwrap();
    let mut refused = 0;
    let mut none = 0;
    for r in parse_puzzles(&text, &ParseOptions::default()) {
        match r.puzzle {
            Err(_) => refused += 1,
            Ok(p) => match count(&p, 2, 2, &LearnConfig::new(1), &Budget::unlimited()) {
                Err(_) => refused += 1,
                Ok(o) => {
                    assert_eq!((o.count, o.complete), (0, true));
                    none += 1;
                }
            },
        }
    }
    assert_eq!((refused, none), (3, 4));
}
