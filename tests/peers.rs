//! Published puzzle sets, solved and counted against their known facts. Sets live in
//! `../shared/peers` (skipped cleanly when absent) or, for a few, in `grids/`.

use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::{Engine, SearchControl, SolveLimits, dlx::Solver};
use shiftgrid::{Puzzle, Shape};

use crate::util::{
    CountCase, assert_unique, count, independently_valid, peers, puzzles, repo, solution_cells,
    tdoku_counts,
};

#[test]
fn article_demo_has_exactly_one_solution() {
    // The Solver Foundation article's demo puzzle: one solution (REFERENCES.md).
    let p = &puzzles(&repo("grids/demo_9x9.txt"))[0];
    assert_eq!(p.givens(), 27);
    assert_unique(p, "demo");
}

#[test]
fn forward_checking_report_sample_matches_its_printed_solution() {
    let p = &puzzles(&repo("grids/fc_report_9x9.txt"))[0];
    let got = assert_unique(p, "fc report");
    // The solution the report prints (REFERENCES.md).
    let want = solution_cells(
        "428617359967253481135498276612549837749381625583726914296135748854972163371864592",
    );
    assert_eq!(got, want);
}

#[test]
fn empty_4x4_has_288_solutions() {
    let p = &puzzles(&repo("grids/empty_4x4.txt"))[0];
    assert_eq!(count(p, 1000).count, 288);
}

#[test]
fn top95_fixture_all_unique() {
    for (i, p) in puzzles(&repo("grids/top95.txt")).iter().enumerate() {
        assert_unique(p, &format!("top95 #{}", i + 1));
    }
}

#[test]
fn tdoku_exact_counts() {
    // Each line: PUZZLE:COUNT[:SOLUTION]; counts 0, 1 and 3..847 re-counted by tdoku's tests.
    let mut seen = 0;
    for case in tdoku_counts() {
        let CountCase {
            text,
            puzzle: p,
            count: want,
            solution,
        } = case;
        let puzzle = text.as_str();
        let o = count(&p, 10_000);
        assert_eq!(o.count, want, "{puzzle}");
        for g in &o.solutions {
            assert!(independently_valid(9, g.cells()) && p.is_completed_by(g));
        }
        if let Some(sol) = solution.as_deref() {
            assert_eq!(o.solutions[0].cells(), solution_cells(sol).as_slice());
        }
        seen += 1;
    }
    assert_eq!(seen, 43);
}

#[test]
fn sudsoln_16_and_25_match_their_answers() {
    for (p, s) in [
        (
            "grids/sudsoln_16x16.txt",
            "grids/sudsoln_16x16_solutions.txt",
        ),
        (
            "grids/sudsoln_25x25.txt",
            "grids/sudsoln_25x25_solutions.txt",
        ),
    ] {
        let ps = puzzles(&repo(p));
        let ss = puzzles(&repo(s));
        assert_eq!(ps.len(), ss.len());
        for (i, (p, s)) in ps.iter().zip(&ss).enumerate() {
            let got = assert_unique(p, &format!("{p:?} #{i}"));
            assert_eq!(got, s.cells());
        }
    }
}

/// Solves every puzzle of a peer file (first `limit`), asserting uniqueness, validity by the
/// independent check and agreement with the givens.
fn all_unique(rel: &str, limit: usize) {
    let Some(dir) = peers() else { return };
    let ps = puzzles(&dir.join(rel));
    assert!(!ps.is_empty());
    for (i, p) in ps.iter().take(limit).enumerate() {
        assert_unique(p, &format!("{rel} #{}", i + 1));
    }
}

#[test]
fn norvig_top95_and_hardest() {
    all_unique("norvig_top95/puzzles.txt", usize::MAX);
    all_unique("norvig_hardest/puzzles.txt", usize::MAX);
}

#[test]
fn magictour_top1465() {
    all_unique("magictour_top1465/puzzles.txt", usize::MAX);
}

#[test]
fn royle_17clue_sample() {
    all_unique("royle_17clue/puzzles.txt", 3000);
}

#[test]
fn forum_hardest_sample() {
    all_unique("forum_hardest_1905_11plus/puzzles.txt", 300);
}

#[test]
fn janko_16x16_all() {
    all_unique("gecode_16x16_janko/puzzles.numeric.txt", usize::MAX);
}

#[test]
fn bprolog_25x25_all_with_parallel_split() {
    let Some(dir) = peers() else { return };
    for (i, p) in puzzles(&dir.join("bprolog_25x25/puzzles.numeric.txt"))
        .iter()
        .enumerate()
    {
        assert_unique(p, &format!("bprolog #{}", i + 1));
        let par = Solver::new(p)
            .unwrap()
            .solve_parallel(&SolveLimits::count_up_to(2), &SearchControl::default());
        assert_eq!(par.count, 1, "bprolog #{} in parallel", i + 1);
    }
}

#[test]
fn emerentius_sets_match_their_solutions() {
    let Some(dir) = peers() else { return };
    for set in ["easy", "medium", "hard"] {
        let dir = dir.join("emerentius_sudoku");
        let ps = puzzles(&dir.join(format!("{set}.txt")));
        let sols = std::fs::read_to_string(dir.join(format!("{set}_solutions.txt"))).unwrap();
        let sols: Vec<&str> = sols.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(ps.len(), sols.len());
        for (i, (p, s)) in ps.iter().zip(sols).enumerate() {
            let got = assert_unique(p, &format!("emerentius {set} #{}", i + 1));
            assert_eq!(got, solution_cells(s), "emerentius {set} #{}", i + 1);
        }
    }
}

#[test]
fn emerentius_invalid_are_not_proper() {
    // Three break a rule outright (refused with a duplicate error), four have no solution.
    let Some(dir) = peers() else { return };
    let text = std::fs::read_to_string(dir.join("emerentius_sudoku/invalid.txt")).unwrap();
    let records = parse_puzzles(&text, &ParseOptions::default());
    assert_eq!(records.len(), 7);
    let mut refused = 0;
    for r in records {
        match r.puzzle {
            Err(_) => refused += 1,
            Ok(p) => match Solver::new(&p) {
                Err(_) => refused += 1,
                Ok(mut s) => assert_eq!(s.solve(&SolveLimits::count_up_to(2)).count, 0),
            },
        }
    }
    assert_eq!(refused, 3);
}

#[test]
fn serg_benchmark_sample_has_multiple_solutions() {
    let Some(dir) = peers() else { return };
    for (i, p) in puzzles(&dir.join("serg_benchmark/puzzles.txt"))
        .iter()
        .take(1000)
        .enumerate()
    {
        assert!(count(p, 2).count >= 2, "serg #{}", i + 1);
    }
}

#[test]
fn sudsoln_9x9_counts_from_its_index() {
    // index_9x9.tsv: name, clues, verified count, … ; counts include 12, 3, 296,245 and 0.
    let Some(dir) = peers() else { return };
    let dir = dir.join("sudsoln_misc");
    let ps = puzzles(&dir.join("puzzles_9x9.txt"));
    let index = std::fs::read_to_string(dir.join("index_9x9.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = index
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), ps.len());
    for (p, row) in ps.iter().zip(&rows) {
        let want: u64 = row[3].trim().replace(',', "").parse().expect("a count");
        let cap = 400_000;
        let got = Solver::new(p)
            .unwrap()
            .solve_parallel(&SolveLimits::count_up_to(cap), &SearchControl::default())
            .count;
        assert_eq!(got, want, "{}", row[1]);
    }
}

#[test]
fn small_empty_grids_have_many_solutions() {
    for b in 2..=5 {
        let p = Puzzle::empty(Shape::new(b).unwrap());
        let o = Solver::new(&p)
            .unwrap()
            .solve_parallel(&SolveLimits::count_up_to(2), &SearchControl::default());
        assert_eq!(o.count, 2, "b = {b}");
        for g in &o.solutions {
            assert!(independently_valid(b * b, g.cells()));
        }
    }
}

#[test]
fn batch_solver_agrees_with_solver_on_tdoku_counts() {
    // The reusable full-matrix solver must give the same counts and first solutions.
    let text = std::fs::read_to_string(repo("grids/tdoku_counts.txt")).unwrap();
    let mut batch = shiftgrid::solve::dlx::BatchSolver::new(Shape::new(3).unwrap());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let puzzle = line.split(':').next().unwrap();
        let p = parse_puzzles(puzzle, &ParseOptions::default())
            .remove(0)
            .puzzle
            .unwrap();
        let a = count(&p, 10_000);
        let b = batch
            .solve(
                &p,
                &SolveLimits::count_up_to(10_000),
                &SearchControl::default(),
            )
            .unwrap();
        assert_eq!(a.count, b.count, "{puzzle}");
        assert_eq!(a.solutions, b.solutions, "{puzzle}");
    }
    // A puzzle of another shape is refused, not mis-solved.
    let other = Puzzle::empty(Shape::new(2).unwrap());
    assert!(
        batch
            .solve(&other, &SolveLimits::first(), &SearchControl::default())
            .is_err()
    );
}

#[test]
fn propagation_engine_agrees_on_tdoku_counts_and_top95() {
    for case in tdoku_counts() {
        let CountCase {
            text,
            puzzle: p,
            count: want,
            solution,
        } = case;
        let puzzle = text.as_str();
        let o = shiftgrid::solve::propagate::count(
            &p,
            &SolveLimits::all_up_to(10_000),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!(o.count, want, "{puzzle}");
        for g in &o.solutions {
            assert!(independently_valid(9, g.cells()) && p.is_completed_by(g));
        }
        if let Some(sol) = solution.as_deref() {
            assert_eq!(o.solutions[0].cells(), solution_cells(sol).as_slice());
        }
    }
    for p in puzzles(&repo("grids/top95.txt")) {
        let o = shiftgrid::solve::propagate::count(
            &p,
            &SolveLimits::count_up_to(2),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!(o.count, 1);
        assert_eq!(o.solutions[0], count(&p, 2).solutions[0]);
    }
}

#[test]
fn frisch_minimal_25x25_puzzles_proven_unique() {
    // Alain Frisch's sixteen hand-made minimal 25x25 puzzles (Gecode's examples 18-33),
    // each unique by its source and by CaDiCaL. Proving it is the learning engine's job:
    // DLX and propagation do not finish. The three easiest take tenths of a second.
    let all = puzzles(&repo("grids/frisch_25x25.txt"));
    let givens: Vec<usize> = all.iter().map(|p| p.givens()).collect();
    assert_eq!(
        givens,
        [
            274, 270, 268, 273, 273, 268, 268, 272, 267, 275, 268, 266, 266, 268, 270, 269
        ]
    );
    for gecode in [19, 20, 31] {
        let p = &all[gecode - 18];
        for engine in [Engine::Auto, Engine::Learn] {
            let o = shiftgrid::solve::solve(
                p,
                engine,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
            assert!(o.complete, "Gecode {gecode}, {engine:?}");
            assert_eq!(o.count, 1, "Gecode {gecode}, {engine:?}");
            assert!(independently_valid(25, o.solutions[0].cells()));
            assert!(p.is_completed_by(&o.solutions[0]));
        }
    }
}

#[test]
fn race_solves_the_big_peer_sets() {
    let Some(dir) = peers() else { return };
    for rel in [
        "gecode_16x16_janko/puzzles.numeric.txt",
        "bprolog_25x25/puzzles.numeric.txt",
        "sudsoln_misc/puzzles_25x25.numeric.txt",
    ] {
        for (i, p) in puzzles(&dir.join(rel)).iter().enumerate() {
            let o = shiftgrid::solve::solve(
                p,
                Engine::Auto,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
            assert_eq!(o.count, 1, "{rel} #{}", i + 1);
            assert!(independently_valid(
                p.shape().side(),
                o.solutions[0].cells()
            ));
            assert!(p.is_completed_by(&o.solutions[0]));
        }
    }
}

#[test]
fn generated_big_puzzles_are_unique_by_two_engines() {
    // Puzzles that `generate` proved unique by propagation: the learning engine, which
    // shares no code with propagation, must confirm each (plain DLX can take minutes on
    // these), and so must the propagation engine's own complete search (the sweep order's
    // puzzles need its root probing from 49x49 up; the random order's do not).
    use shiftgrid::generate::{GenerateConfig, GridKind, Order};
    let cases = [
        (5, Order::Sweep, 3),
        (6, Order::Sweep, 3),
        (8, Order::Sweep, 2),
        (8, Order::Random, 1),
        (10, Order::Sweep, 1),
    ];
    for (b, order, seeds) in cases {
        let shape = Shape::new(b).unwrap();
        for seed in 0..seeds {
            // Random grids, no rounds: propagation's count is the claim under test here,
            // on the sweep's puzzles (the 25×25 default's are re-counted by the learning
            // engine in the lib and CLI tests).
            let cfg = GenerateConfig {
                order,
                grid: GridKind::Random,
                improve: 0,
                ..GenerateConfig::for_shape(shape, seed)
            };
            let g = shiftgrid::generate::generate(shape, &cfg, &SearchControl::default()).unwrap();
            let o = shiftgrid::solve::propagate::count(
                &g.puzzle,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
            assert!(o.complete);
            assert_eq!(o.count, 1, "b {b} seed {seed}");
            assert_eq!(o.solutions[0], g.solution);
            let learn = shiftgrid::solve::solve(
                &g.puzzle,
                Engine::Learn,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
            assert_eq!(
                (learn.count, learn.complete),
                (1, true),
                "b {b} seed {seed}"
            );
            assert_eq!(learn.solutions[0], g.solution);
        }
    }
}

#[test]
fn batch_solver_at_16x16_searches_the_same_tree_as_solver() {
    // At 16x16 the batch solver encodes each puzzle in place: same matrix as `Solver`,
    // so the same counts, solutions and node counts, puzzle after puzzle.
    let text = std::fs::read_to_string(repo("grids/janko_16x16.txt")).unwrap();
    let puzzles: Vec<Puzzle> = parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .map(|r| r.puzzle.unwrap())
        .collect();
    assert!(!puzzles.is_empty());
    let mut batch = shiftgrid::solve::dlx::BatchSolver::new(Shape::new(4).unwrap());
    // The empty board between puzzles makes the reused arrays shrink and grow again.
    let empty = Puzzle::empty(Shape::new(4).unwrap());
    for p in puzzles.iter().flat_map(|p| [p, &empty]) {
        let limits = SolveLimits::count_up_to(2);
        let a = Solver::new(p).unwrap().solve(&limits);
        let b = batch.solve(p, &limits, &SearchControl::default()).unwrap();
        assert_eq!(a.count, b.count);
        assert_eq!(a.solutions, b.solutions);
        assert_eq!(a.stats, b.stats);
    }
}

#[test]
fn regression_batch_solver_with_first_cell_given() {
    // The padding of the sealed arena once aliased option 0 (cell 0 = symbol 1), so a
    // puzzle giving that cell corrupted the shared matrix and hung `solve` on batches.
    let shape = Shape::new(3).unwrap();
    let mut batch = shiftgrid::solve::dlx::BatchSolver::new(shape);
    for seed in 0..40 {
        let g = shiftgrid::generate::generate(
            shape,
            &shiftgrid::generate::GenerateConfig::for_shape(shape, seed),
            &SearchControl::default(),
        )
        .unwrap();
        // Relabel so that the first cell holds 1, and give it.
        let first = g.solution.cells()[0];
        let swap = |v: u8| match v {
            0 => 0,
            v if v == first => 1,
            1 => first,
            v => v,
        };
        let mut cells: Vec<u8> = g.puzzle.cells().iter().map(|&v| swap(v)).collect();
        cells[0] = 1;
        let p = Puzzle::new(shape, cells).unwrap();
        let a = count(&p, 2);
        let b = batch
            .solve(&p, &SolveLimits::count_up_to(2), &SearchControl::default())
            .unwrap();
        assert_eq!(a.count, 1);
        assert_eq!(a.count, b.count, "seed {seed}");
        assert_eq!(a.solutions, b.solutions, "seed {seed}");
    }
}
