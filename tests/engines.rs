//! Every engine agrees with DLX, solution for solution and count for count: on the peers'
//! unique, multi-solution and contradictory sets, and on planted random puzzles of every
//! size up to 25×25. New engines join through `Engine::ALL`.

use proptest::prelude::*;
use shiftgrid::Puzzle;
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::{Engine, Outcome, SearchControl, SolveLimits, solve};

use crate::util::{
    CountCase, blank, count, full_grid, independently_valid, peers, puzzles, tdoku_counts,
};

/// The engines under test: every one a user can name.
fn engines() -> impl Iterator<Item = Engine> {
    Engine::ALL.iter().copied()
}

/// The engines under test on a set of hard 16×16 and 25×25 puzzles: all but the forward-
/// checking search, which only sees naked singles and takes minutes on some of them (janko
/// #55: 45M nodes; bprolog #2 and #3: unfinished after 5 minutes). `tests/fc.rs` checks it
/// on the ones it finishes.
fn engines_for_big_sets() -> impl Iterator<Item = Engine> {
    engines().filter(|&e| e != Engine::Fc)
}

fn run(p: &Puzzle, engine: Engine, cap: u64) -> Outcome {
    solve(
        p,
        engine,
        &SolveLimits::count_up_to(cap),
        &SearchControl::default(),
    )
    .expect("no repeated givens")
}

/// `engine`'s count up to `cap` equals DLX's, every kept solution is valid (by the
/// independent checker) and keeps the givens, and a unique puzzle's solution is DLX's.
fn agrees(p: &Puzzle, engine: Engine, cap: u64, reference: &Outcome, what: &str) {
    let o = run(p, engine, cap);
    assert!(o.complete, "{what}: {engine} did not finish");
    assert_eq!(o.count, reference.count, "{what}: {engine} count");
    for g in &o.solutions {
        assert!(
            independently_valid(p.shape().side(), g.cells()),
            "{what}: {engine} invalid grid"
        );
        assert!(p.is_completed_by(g), "{what}: {engine} broke a given");
    }
    if reference.count == 1 {
        assert_eq!(
            o.solutions, reference.solutions,
            "{what}: {engine} solution"
        );
    }
}

/// Every engine against DLX on the first `limit` puzzles of a peer set.
fn peer_set(rel: &str, limit: usize) {
    peer_set_with(rel, limit, engines);
}

/// [`peer_set`] over the engines `which` gives.
fn peer_set_with<I: Iterator<Item = Engine>>(rel: &str, limit: usize, which: fn() -> I) {
    let Some(dir) = peers() else { return };
    let ps = puzzles(&dir.join(rel));
    assert!(!ps.is_empty(), "{rel} is empty");
    for (i, p) in ps.iter().take(limit).enumerate() {
        let reference = count(p, 2);
        for e in which() {
            agrees(p, e, 2, &reference, &format!("{rel} #{}", i + 1));
        }
    }
}

#[test]
fn engines_agree_on_norvig_sets() {
    peer_set("norvig_top95/puzzles.txt", usize::MAX);
    peer_set("norvig_hardest/puzzles.txt", usize::MAX);
    peer_set("project_euler_96/puzzles.txt", usize::MAX);
}

#[test]
fn engines_agree_on_magictour_and_forum_hardest() {
    peer_set("magictour_top1465/puzzles.txt", 300);
    peer_set("forum_hardest_1905_11plus/puzzles.txt", 100);
}

#[test]
fn engines_agree_on_multi_solution_sets() {
    peer_set("serg_benchmark/puzzles.txt", 200);
}

#[test]
fn engines_agree_on_janko_and_bprolog() {
    peer_set_with(
        "gecode_16x16_janko/puzzles.numeric.txt",
        usize::MAX,
        engines_for_big_sets,
    );
    peer_set_with(
        "bprolog_25x25/puzzles.numeric.txt",
        usize::MAX,
        engines_for_big_sets,
    );
}

#[test]
fn engines_agree_on_exact_counts() {
    // tdoku's test puzzles: counts 0, 1 and 3..847 (committed fixture, always present).
    for case in tdoku_counts() {
        let CountCase {
            text,
            puzzle: p,
            count: want,
            ..
        } = case;
        let puzzle = text.as_str();
        for e in engines() {
            let o = run(&p, e, 1000);
            assert_eq!((o.count, o.complete), (want, true), "{e}: {puzzle}");
        }
    }
}

/// A cap of 1 asks whether a solution exists: one found is never called unique, whether the
/// puzzle has one solution or 847 (tdoku's counts). With a cap of 2, exactly the puzzles
/// with one solution are.
#[test]
fn a_count_capped_at_one_never_claims_uniqueness() {
    use shiftgrid::solve::Verdict;
    for case in tdoku_counts() {
        let (p, want) = (&case.puzzle, case.count);
        for e in engines() {
            let one = run(p, e, 1);
            let two = run(p, e, 2);
            let (v1, v2) = (one.verdict(), two.verdict());
            if want == 0 {
                assert_eq!((v1, one.capped), (Some(Verdict::None), false), "{e}");
            } else {
                assert_eq!(
                    (one.count, one.capped, v1),
                    (1, true, None),
                    "{e}: {}",
                    case.text
                );
                let expect = if want == 1 {
                    Verdict::Unique
                } else {
                    Verdict::Multiple
                };
                assert_eq!(v2, Some(expect), "{e}: {}", case.text);
                assert_eq!(two.capped, want >= 2, "{e}");
            }
        }
    }
}

#[test]
fn engines_agree_on_contradictions() {
    // emerentius' invalid set: four rule-consistent puzzles with no solution.
    let Some(dir) = peers() else { return };
    let text = std::fs::read_to_string(dir.join("emerentius_sudoku/invalid.txt")).unwrap();
    let mut seen = 0;
    for r in parse_puzzles(&text, &ParseOptions::default()) {
        let Ok(p) = r.puzzle else { continue };
        if p.check().is_err() {
            continue;
        }
        for e in engines() {
            let o = run(&p, e, 2);
            assert_eq!((o.count, o.complete), (0, true), "{e}: line {}", r.line);
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
}

/// A random full grid of box size `b` with about `holes` of its cells blanked.
fn planted(b: usize, seed: u64, holes: f64) -> (Vec<u8>, Puzzle) {
    let full = full_grid(b, seed);
    let p = blank(&full, holes, seed);
    (full.cells().to_vec(), p)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The planted grid completes the puzzle, so every engine must find a completion that
    /// keeps the givens, count at least one, and, when it enumerates everything below the
    /// cap, include the planted grid.
    #[test]
    fn every_engine_finds_planted_completions(
        b in 2usize..=4,
        seed in 0u64..10_000,
        holes in 0.1f64..0.75,
    ) {
        // Forward checking sees only naked singles: keep 16×16 at most half blank, where it
        // is mostly fast (its own tests map how far each size goes), and bound it: of 4,000
        // such cases one took 25 s, while every other engine finished each in milliseconds.
        let holes = if b == 4 { holes.min(0.5) } else { holes };
        let (full, p) = planted(b, seed, holes);
        let cap = 50;
        let reference = count(&p, cap);
        for e in engines() {
            let limits = SolveLimits {
                node_limit: if e == Engine::Fc { 2_000_000 } else { u64::MAX },
                ..SolveLimits::all_up_to(cap)
            };
            let o = solve(&p, e, &limits, &SearchControl::default()).unwrap();
            // Forward checking may run out of nodes at 16×16 only; then nothing to compare.
            prop_assert!(o.complete || (e == Engine::Fc && b == 4), "{}", e);
            if !o.complete {
                continue;
            }
            prop_assert_eq!(o.count, reference.count, "{}", e);
            for g in &o.solutions {
                prop_assert!(independently_valid(b * b, g.cells()) && p.is_completed_by(g));
            }
            if o.count < cap {
                prop_assert!(o.solutions.iter().any(|g| g.cells() == full.as_slice()), "{}", e);
            }
        }
    }
}

#[test]
fn every_engine_completes_planted_25x25_puzzles() {
    // Dense enough for every engine (DLX and forward checking included) to finish fast.
    for seed in 0..6 {
        let (full, p) = planted(5, seed, 0.3);
        let reference = count(&p, 2);
        for e in engines() {
            agrees(&p, e, 2, &reference, &format!("25x25 seed {seed}"));
        }
        let first = run(&p, Engine::Auto, 1);
        assert!(p.is_completed_by(&first.solutions[0]));
        if reference.count == 1 {
            assert_eq!(first.solutions[0].cells(), full.as_slice());
        }
    }
}

/// A node limit is honoured by every engine: on a 36×36 roster with 60% of its cells blank,
/// which none settles without search, a limit of one node (one conflict for the learning
/// engine) leaves each of them incomplete, `auto` too (whose fill search, which has no node
/// budget, then stays out of the race); without the limit they finish.
#[test]
fn a_node_limit_stops_every_engine() {
    let p = blank(&full_grid(6, 2), 0.6, 2);
    for engine in engines_for_big_sets() {
        let limits = SolveLimits {
            node_limit: 1,
            ..SolveLimits::first()
        };
        let o = solve(&p, engine, &limits, &SearchControl::default()).unwrap();
        assert!(!o.complete && o.count == 0, "{engine:?}: {o:?}");
    }
    let o = solve(
        &p,
        Engine::Auto,
        &SolveLimits::first(),
        &SearchControl::default(),
    )
    .unwrap();
    assert!(o.complete && o.count == 1);
}

/// Counting many quick solutions (the empty 9×9 has billions, each a few conflicts for the
/// learning engine) is bounded too: the node limit counts over the whole count, not per
/// solution, and a stop raised before the search is seen before the first solution.
#[test]
fn limits_hold_over_a_count_of_many_quick_solutions() {
    let empty = Puzzle::empty(shiftgrid::Shape::new(3).unwrap());
    for engine in engines() {
        let limits = SolveLimits {
            node_limit: 1000,
            ..SolveLimits::count_up_to(u64::MAX)
        };
        let o = solve(&empty, engine, &limits, &SearchControl::default()).unwrap();
        assert!(!o.complete, "{engine:?}: {o:?}");
        if engine == Engine::Learn {
            // Each solution costs the learner at least one unit of its budget (it found
            // 25,245 solutions within 1,000 conflicts before that was so).
            assert!(o.count <= 1000, "{engine:?}: {}", o.count);
        }
        let stopped = SearchControl::default();
        stopped
            .interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let o = solve(
            &empty,
            engine,
            &SolveLimits::count_up_to(u64::MAX),
            &stopped,
        )
        .unwrap();
        // Node searches poll every thousand nodes or so; the learner before each search.
        assert!(!o.complete && o.count < 1000, "{engine:?}: {o:?}");
        if engine == Engine::Learn {
            assert_eq!(o.count, 0, "{engine:?}");
        }
    }
}

/// A cap of 0 counts as 1 on every engine: the empty 4×4 is never reported as having no
/// solution.
#[test]
fn a_cap_of_zero_counts_as_one() {
    let empty = Puzzle::empty(shiftgrid::Shape::new(2).unwrap());
    let limits = SolveLimits {
        max_solutions: 0,
        ..SolveLimits::count_up_to(2)
    };
    for engine in engines() {
        let o = solve(&empty, engine, &limits, &SearchControl::default()).unwrap();
        assert_eq!((o.count, o.complete), (1, true), "{engine:?}");
    }
    // The public entry points below `solve` too: root splitting, and the portfolio on a
    // board it fills (16x16, past the serial 9x9 path).
    let control = SearchControl::default();
    let o = shiftgrid::solve::dlx::Solver::new(&empty)
        .unwrap()
        .solve_parallel(&limits, &control);
    assert_eq!((o.count, o.complete), (1, true), "solve_parallel");
    let empty16 = Puzzle::empty(shiftgrid::Shape::new(4).unwrap());
    let mut ws = shiftgrid::solve::Workspace::default();
    let o = shiftgrid::solve::portfolio::auto(&mut ws, &empty16, &limits, &control).unwrap();
    assert_eq!((o.count, o.complete), (1, true), "portfolio::auto");
}
