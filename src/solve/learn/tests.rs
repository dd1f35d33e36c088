//! The engine against independent facts: the 288 grids of 4×4, planted solutions, the DLX
//! engine's counts (which share no code with this module), fresh learners for incremental
//! calls, and its own determinism.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::generate::fill::{FillConfig, fill_grid};
use crate::grid::Grid;
use crate::solve::{SearchControl, SolveLimits, dlx::Solver};

fn planted(b: usize, seed: u64) -> Vec<u8> {
    let shape = Shape::new(b).unwrap();
    let cfg = FillConfig {
        workers: 1,
        ..FillConfig::new(seed)
    };
    fill_grid(shape, &cfg, &SearchControl::default())
        .unwrap()
        .grid
        .cells()
        .to_vec()
}

fn blank(full: &[u8], holes: f64, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    full.iter()
        .map(|&v| if rng.r#gen::<f64>() < holes { 0 } else { v })
        .collect()
}

fn learn_count(p: &Puzzle, cap: u64) -> LearnOutcome {
    count(p, cap, 2, &LearnConfig::new(3), &Budget::unlimited()).unwrap()
}

/// The four branching × locked-candidates settings, the focused ones (Glucose restarts),
/// then the stable settings (target phases) as the portfolio runs them and with a rephase
/// every 10 conflicts through every kind of rephase.
fn configs(seed: u64) -> Vec<LearnConfig> {
    let mut out = Vec::new();
    for branch in [Branch::Vsids, Branch::Global] {
        for locked in [false, true] {
            out.push(LearnConfig {
                branch,
                locked,
                ..LearnConfig::new(seed)
            });
        }
    }
    out.push(LearnConfig::focused(seed));
    out.push(LearnConfig::stable(seed));
    out.push(LearnConfig {
        rephase: &[Rephase::Best, Rephase::False, Rephase::True, Rephase::Flip],
        rephase_int: 10,
        ..LearnConfig::stable(seed)
    });
    out
}

#[test]
fn every_setting_counts_all_288_grids_of_4x4() {
    // Counting every grid blocks 287 solutions: learned clauses resolve on every kind of
    // reason, locked candidates' included.
    let p = Puzzle::empty(Shape::new(2).unwrap());
    for cfg in configs(5) {
        let o = count(&p, 1000, 1000, &cfg, &Budget::unlimited()).unwrap();
        assert_eq!((o.count, o.complete), (288, true), "{cfg:?}");
        let distinct: std::collections::HashSet<_> = o.solutions.iter().collect();
        assert_eq!(distinct.len(), 288);
    }
}

#[test]
fn empty_4x4_has_288_solutions() {
    let p = Puzzle::empty(Shape::new(2).unwrap());
    let o = learn_count(&p, 1000);
    assert_eq!(o.count, 288);
    assert!(o.complete);
}

#[test]
fn empty_boards_up_to_25x25_are_filled() {
    for b in 2..=5 {
        let shape = Shape::new(b).unwrap();
        let o = learn_count(&Puzzle::empty(shape), 1);
        assert_eq!(o.count, 1);
        Grid::new(shape, o.solutions[0].clone()).unwrap();
    }
}

#[test]
fn contradictory_givens_have_no_solution() {
    // Row 1 of a 9×9 board misses symbol 9 everywhere but cell 9, which column 9 forbids.
    let shape = Shape::new(3).unwrap();
    let mut cells = vec![0u8; 81];
    cells[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    cells[8 + 9 * 4] = 9;
    let o = learn_count(&Puzzle::new(shape, cells).unwrap(), 2);
    assert_eq!((o.count, o.complete), (0, true));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn planted_grid_completes_and_agrees_with_dlx(
        b in 2usize..=6,
        seed in 0u64..1000,
        holes in 0.1f64..0.9,
        setting in 0usize..6,
    ) {
        let shape = Shape::new(b).unwrap();
        // 36×36 with 40–75 % holes is the hard band (seconds each): keep to its easy edge.
        let holes = if b == 6 { holes * 0.4 } else { holes };
        let full = planted(b, seed);
        let p = Puzzle::new(shape, blank(&full, holes, seed)).unwrap();
        let cfg = &configs(seed)[setting];
        let o = count(&p, 2, 2, cfg, &Budget::unlimited()).unwrap();
        prop_assert!(o.complete);
        prop_assert!(o.count >= 1);
        for s in &o.solutions {
            let g = Grid::new(shape, s.clone()).unwrap();
            prop_assert!(p.is_completed_by(&g));
        }
        if o.count == 1 {
            prop_assert_eq!(&o.solutions[0], &full);
        } else {
            prop_assert!(o.solutions[0] != o.solutions[1]);
        }
        if b <= 4 {
            // Dancing links where they finish: a 16×16 near the hardness peak can take them
            // minutes (a random case once ran past six), so their search is bounded and
            // compared when complete.
            let limits = SolveLimits {
                node_limit: 2_000_000,
                ..SolveLimits::count_up_to(2)
            };
            let d = Solver::new(&p).unwrap().solve(&limits);
            if d.complete {
                prop_assert_eq!(d.count, o.count);
                if d.count == 1 {
                    prop_assert_eq!(d.solutions[0].cells(), &o.solutions[0][..]);
                }
            }
        }
    }
}

#[test]
fn incremental_assumptions_match_fresh_learners() {
    // The generator's pattern: givens as assumptions, one of them negated, one learner.
    for (b, seed) in [(3, 1), (3, 2), (4, 5)] {
        let shape = Shape::new(b).unwrap();
        let n = shape.side();
        let full = planted(b, seed);
        let cells = blank(&full, 0.6, seed);
        let givens: Vec<usize> = (0..n * n).filter(|&c| cells[c] != 0).collect();
        let cfg = LearnConfig::new(seed);
        let mut inc = Learner::new(shape, &cfg);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut kept: Vec<usize> = givens.clone();
        let mut order = givens.clone();
        order.shuffle(&mut rng);
        let mut answers = [0; 2];
        for &c in &order {
            let mut assume: Vec<Lit> = kept
                .iter()
                .filter(|&&g| g != c)
                .map(|&g| Lit::pos(g, full[g], n))
                .collect();
            assume.push(Lit::neg(c, full[c], n));
            let a = inc.solve(&assume, &Budget::unlimited());
            let mut fresh = Learner::new(shape, &cfg);
            let f = fresh.solve(&assume, &Budget::unlimited());
            assert_eq!(a, f, "b {b} seed {seed} cell {c}");
            if a == Answer::Sat {
                answers[0] += 1;
                let m = inc.model_cells();
                let g = Grid::new(shape, m.clone()).unwrap();
                assert!(assume.iter().all(|l| {
                    let cell = l.var() as usize / n;
                    let v = (l.var() as usize % n) as u8 + 1;
                    (g.cells()[cell] == v) == l.is_pos()
                }));
            } else {
                answers[1] += 1;
                // Removal proven: the cell stays blank from now on.
                kept.retain(|&g| g != c);
            }
        }
        // Both answers occur, so both paths were exercised.
        assert!(answers[0] > 0 && answers[1] > 0, "{answers:?}");
    }
}

#[test]
fn same_seed_same_model() {
    let shape = Shape::new(4).unwrap();
    let p = Puzzle::new(shape, blank(&planted(4, 9), 0.75, 9)).unwrap();
    let a = learn_count(&p, 2);
    let b = learn_count(&p, 2);
    assert_eq!(a.solutions, b.solutions);
    assert_eq!(a.stats, b.stats);
}

#[test]
fn a_conflict_budget_gives_unknown() {
    let shape = Shape::new(5).unwrap();
    let p = Puzzle::new(shape, blank(&planted(5, 4), 0.7, 4)).unwrap();
    let budget = Budget {
        conflicts: 1,
        ..Budget::unlimited()
    };
    let mut l = Learner::new(shape, &LearnConfig::new(0));
    for (cell, &v) in p.cells().iter().enumerate() {
        if v != 0 {
            l.add_clause(&[Lit::pos(cell, v, 25)]);
        }
    }
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(l.solve(&[], &budget));
    }
    // Each call may make one conflict; whatever it says, it says nothing wrong.
    assert!(answers.iter().all(|&a| a != Answer::Unsat));
}

#[test]
#[ignore = "timing of the generator's removal checks, 5 000 conflicts each; about 60 s in release"]
fn removal_checks_reuse_the_learner() {
    use std::time::Instant;
    let budget = Budget {
        conflicts: 5000,
        ..Budget::unlimited()
    };
    for b in [5, 6] {
        let shape = Shape::new(b).unwrap();
        let n = shape.side();
        let full = planted(b, 21);
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut order: Vec<usize> = (0..n * n).collect();
        order.shuffle(&mut rng);
        let cfg = LearnConfig::new(1);
        let mut learner = Learner::new(shape, &cfg);
        let mut kept = vec![true; n * n];
        let start = Instant::now();
        let (mut removed, mut calls, mut unknown) = (0, 0, 0);
        let mut assume = Vec::new();
        for &c in &order {
            assume.clear();
            assume.extend(
                (0..n * n)
                    .filter(|&g| kept[g] && g != c)
                    .map(|g| Lit::pos(g, full[g], n)),
            );
            assume.push(Lit::neg(c, full[c], n));
            calls += 1;
            match learner.solve(&assume, &budget) {
                Answer::Unsat => {
                    kept[c] = false;
                    removed += 1;
                }
                Answer::Sat => {}
                Answer::Unknown => unknown += 1,
            }
        }
        let took = start.elapsed();
        let s = learner.stats();
        println!(
            "{n}x{n}: {calls} checks, {removed} removed, {unknown} out of budget, {:.3} s ({:.2} ms/check), {} conflicts, {} propagations",
            took.as_secs_f64(),
            took.as_secs_f64() * 1000.0 / calls as f64,
            s.conflicts,
            s.propagations
        );
    }
}

/// Learners that count together, sharing every clause they learn (so the epochs that
/// keep a clause learned after blocking a solution away from a learner that has not blocked
/// it matter), count exactly what DLX counts: all 288 grids of 4×4, and planted puzzles
/// with up to 40 solutions. One of them is a scout, which leaves once a solution is listed,
/// and one is late, which starts once a solution is listed, as in the portfolio.
#[test]
fn learners_counting_together_agree_with_dlx() {
    let share_all = |c: LearnConfig| LearnConfig {
        share_lbd: u32::MAX,
        ..c
    };
    let configs = [
        share_all(LearnConfig {
            late: true,
            ..LearnConfig::new(1)
        }),
        share_all(LearnConfig::stable(2)),
        share_all(LearnConfig {
            scout: true,
            ..LearnConfig::stable(3)
        }),
    ];
    let p = Puzzle::empty(Shape::new(2).unwrap());
    let o = count_together(&p, 1000, 1000, &configs, &Budget::unlimited()).unwrap();
    assert_eq!((o.count, o.complete), (288, true));
    let distinct: std::collections::HashSet<_> = o.solutions.iter().collect();
    assert_eq!(distinct.len(), 288);
    // The late learner starts only if the count is not settled in the epoch of the first
    // solution; the counters are summed over those that ran.
    assert!(
        (2..=3).contains(&o.stats.learners),
        "the counters are summed over all: {}",
        o.stats.learners
    );
    let mut several = 0;
    for b in [3, 4, 5] {
        for seed in 0..8u64 {
            let shape = Shape::new(b).unwrap();
            let holes = match b {
                3 => 0.65,
                4 => 0.6,
                _ => 0.5,
            };
            let p = Puzzle::new(shape, blank(&planted(b, seed), holes, seed)).unwrap();
            let o = count_together(&p, 40, 40, &configs, &Budget::unlimited()).unwrap();
            assert!(o.complete);
            let distinct: std::collections::HashSet<_> = o.solutions.iter().collect();
            assert_eq!(distinct.len() as u64, o.count);
            for s in &o.solutions {
                assert!(p.is_completed_by(&Grid::new(shape, s.clone()).unwrap()));
            }
            if b <= 4 {
                let d = Solver::new(&p)
                    .unwrap()
                    .solve(&SolveLimits::count_up_to(40));
                assert_eq!(d.count, o.count, "b {b}, seed {seed}");
            }
            several += usize::from(o.count > 1);
        }
    }
    assert!(
        several >= 8,
        "the puzzles have several solutions: {several}"
    );
}

/// A late learner does not hold up a proof that the others finish before any solution:
/// a 4×4 puzzle with no completion (found by exhaustive search) is settled at once.
#[test]
fn a_late_learner_waits_for_no_solution_that_never_comes() {
    let cells = [0, 0, 0, 0, 0, 0, 3, 4, 0, 0, 0, 2, 3, 0, 0, 0];
    let p = Puzzle::new(Shape::new(2).unwrap(), cells.to_vec()).unwrap();
    let configs = [
        LearnConfig {
            late: true,
            ..LearnConfig::new(0)
        },
        LearnConfig::stable(0),
    ];
    let o = count_together(&p, 2, 2, &configs, &Budget::unlimited()).unwrap();
    assert_eq!((o.count, o.complete), (0, true));
    assert_eq!(o.stats.learners, 1, "the late learner never started");
}

/// Learners counting together give the same solutions in the same order on every run,
/// whatever the thread timing (they exchange clauses and solutions in lockstep): planted
/// 25×25 puzzles with several solutions, counted to 40 five times each, one run with a
/// learner slowed down by a busy thread beside it.
#[test]
fn learners_counting_together_give_the_same_answer_every_run() {
    let configs = [LearnConfig::new(0), LearnConfig::focused(1)];
    for seed in 0..3u64 {
        let p = Puzzle::new(Shape::new(5).unwrap(), blank(&planted(5, seed), 0.6, seed)).unwrap();
        let first = count_together(&p, 40, 40, &configs, &Budget::unlimited()).unwrap();
        assert!(
            first.complete && first.count > 1,
            "seed {seed}: {}",
            first.count
        );
        for run in 0..4 {
            let stop = std::sync::atomic::AtomicBool::new(false);
            let again = std::thread::scope(|scope| {
                if run == 0 {
                    // A third thread competing for the two cores.
                    scope.spawn(|| {
                        let mut x = 0u64;
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                        }
                    });
                }
                let o = count_together(&p, 40, 40, &configs, &Budget::unlimited()).unwrap();
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                o
            });
            assert_eq!(again.count, first.count, "seed {seed}, run {run}");
            assert_eq!(again.solutions, first.solutions, "seed {seed}, run {run}");
            assert_eq!(again.stats, first.stats, "seed {seed}, run {run}");
        }
    }
}

/// Learners counting together stop when interrupted and say the count is not final, and a
/// conflict budget cuts each of them short the same way.
#[test]
fn learners_counting_together_stop_when_told() {
    let shape = Shape::new(6).unwrap();
    // A 36×36 roster near the hardness peak: seconds to minutes of search.
    let p = Puzzle::new(shape, blank(&planted(6, 1), 0.5, 1)).unwrap();
    let configs = [LearnConfig::new(0), LearnConfig::stable(0)];
    let stop = std::sync::atomic::AtomicBool::new(true);
    let interrupted = Budget {
        interrupt: &stop,
        ..Budget::unlimited()
    };
    let o = count_together(&p, 2, 2, &configs, &interrupted).unwrap();
    assert!(!o.complete);
    let short = Budget {
        conflicts: 10,
        ..Budget::unlimited()
    };
    let o = count_together(&p, 2, 2, &configs, &short).unwrap();
    assert!(
        !o.complete || o.count >= 1,
        "ten conflicts prove nothing here"
    );
    assert!(o.stats.conflicts <= 2 * 10 * 3, "{:?}", o.stats);
}

/// Scouts only look for the first solution, so a count needs a learner that is not one.
#[test]
#[should_panic(expected = "not a scout")]
fn counting_together_needs_a_learner_that_is_not_a_scout() {
    let scout = LearnConfig {
        scout: true,
        ..LearnConfig::stable(0)
    };
    let p = Puzzle::empty(Shape::new(2).unwrap());
    let _ = count_together(&p, 2, 2, &[scout.clone(), scout], &Budget::unlimited());
}

/// The progress counters a bar reads: conflicts and restarts add up over the learners, and
/// the learned clauses they hold are given back when they end, so the gauge returns to
/// zero after a count.
#[test]
fn learners_show_their_progress_on_the_control() {
    let shape = Shape::new(6).unwrap();
    let p = Puzzle::new(shape, blank(&planted(6, 1), 0.5, 1)).unwrap();
    let control = SearchControl::default();
    let budget = Budget::from_control(&control, 3000);
    let configs = [LearnConfig::new(0), LearnConfig::stable(0)];
    let o = count_together(&p, 2, 2, &configs, &budget).unwrap();
    let load = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(load(&control.conflicts), o.stats.conflicts);
    assert_eq!(load(&control.restarts), o.stats.restarts);
    assert!(o.stats.restarts > 0 && o.stats.learned > 0, "{:?}", o.stats);
    assert_eq!(load(&control.learned), 0, "every learner has ended");
    // While a learner lives, the gauge holds its clauses.
    let mut l = Learner::for_puzzle(&p, &configs[0], &Budget::unlimited());
    let _ = l.solve(&[], &Budget::from_control(&control, 500));
    assert_eq!(load(&control.learned), l.stats().learned);
    drop(l);
    assert_eq!(load(&control.learned), 0);
}

/// Vivification run often (a reduction every few conflicts, a restart every 8, no limit
/// on its effort) shortens clauses and still counts exactly what DLX counts: all 288 grids
/// of 4×4 (where blocked solutions are clauses it must not touch) and planted puzzles with
/// up to 40 solutions.
#[test]
fn vivified_clauses_keep_the_counts() {
    let config = LearnConfig {
        reduce_first: 20,
        reduce_inc: 5,
        restarts: RestartPolicy::Luby(8),
        vivify: 100_000,
        locked: false,
        branch: Branch::Vsids,
        ..LearnConfig::new(5)
    };
    let p = Puzzle::empty(Shape::new(2).unwrap());
    let o = count(&p, 1000, 1000, &config, &Budget::unlimited()).unwrap();
    assert_eq!((o.count, o.complete), (288, true));
    let mut vivified = o.stats.vivified;
    for (b, holes) in [(3, 0.8), (4, 0.7)] {
        for seed in 0..6u64 {
            let shape = Shape::new(b).unwrap();
            let p = Puzzle::new(shape, blank(&planted(b, seed), holes, seed)).unwrap();
            let o = count(&p, 40, 40, &config, &Budget::unlimited()).unwrap();
            let d = Solver::new(&p)
                .unwrap()
                .solve(&SolveLimits::count_up_to(40));
            assert_eq!((o.count, o.complete), (d.count, true), "b {b}, seed {seed}");
            for s in &o.solutions {
                assert!(p.is_completed_by(&Grid::new(shape, s.clone()).unwrap()));
            }
            vivified += o.stats.vivified;
        }
    }
    assert!(vivified > 0, "vivification shortened no clause");
}

/// A Luby unit of 0, and a first mode phase of 0 conflicts, count as 1: they used to
/// restart before every decision, reach no conflict and never return. A decay factor
/// outside (0, 1] is taken as the default (NaN used to break the heap's order and panic).
#[test]
fn degenerate_restart_and_decay_settings_still_search() {
    let p = Puzzle::empty(Shape::new(3).unwrap());
    let modes = |luby, first| RestartPolicy::Modes {
        glue: 1.25,
        luby,
        first,
    };
    let settings = [
        (RestartPolicy::Luby(0), 0.95),
        (modes(0, 10), 0.95),
        (modes(100, 0), 0.95),
        (modes(0, 0), 0.95),
        (RestartPolicy::Luby(100), f64::NAN),
        (modes(100, 10), 0.0),
        (modes(100, 10), -1.0),
        (modes(100, 10), f64::INFINITY),
    ];
    for (restarts, decay) in settings {
        let config = LearnConfig {
            restarts,
            decay,
            focused_decay: decay,
            ..LearnConfig::new(1)
        };
        let budget = Budget {
            conflicts: 20_000,
            total_conflicts: 20_000,
            ..Budget::unlimited()
        };
        let o = count(&p, 3, 3, &config, &budget).unwrap();
        assert_eq!(o.count, 3, "{restarts:?}, decay {decay}");
        let o = count(
            &Puzzle::empty(Shape::new(4).unwrap()),
            2,
            2,
            &config,
            &budget,
        )
        .unwrap();
        assert_eq!(o.count, 2, "16x16: {restarts:?}, decay {decay}");
    }
}

/// A cell number too large for any grid panics, as documented, instead of wrapping to
/// another cell's option that `add_clause` would then accept.
#[test]
#[should_panic(expected = "beyond any grid")]
fn a_literal_beyond_any_grid_panics_rather_than_wrap() {
    let _ = Lit::pos(1 << 30, 1, 4);
}

/// `Learner::lit` makes literals with the learner's own side: a unit on it fixes that
/// cell to that shift; a cell off the grid or a shift above the side panics rather than
/// naming another option.
#[test]
fn literals_from_the_learner_use_its_own_side() {
    let mut l = Learner::new(Shape::new(2).unwrap(), &LearnConfig::new(0));
    assert_eq!(l.lit(5, 3), Lit::pos(5, 3, 4));
    assert!(l.add_clause(&[l.lit(2, 1)]));
    assert_eq!(l.solve(&[], &Budget::unlimited()), Answer::Sat);
    assert_eq!(l.model_cells()[2], 1);
    for (cell, v) in [(16, 1), (0, 5), (0, 0)] {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| l.lit(cell, v)));
        assert!(r.is_err(), "cell {cell} shift {v}");
    }
}

/// A stop raised before the givens are set stops their propagation too, which at 100×100
/// took 0.2 s past a time limit (the search polled, the set-up did not).
#[test]
fn setting_up_the_givens_heeds_the_budget() {
    let shape = Shape::new(10).unwrap();
    let full = crate::io::fixtures::pattern(shape);
    let puzzle = Puzzle::new(shape, blank(full.cells(), 0.5, 1)).unwrap();
    let stop = AtomicBool::new(true);
    let budget = Budget {
        interrupt: &stop,
        ..Budget::unlimited()
    };
    let o = count(&puzzle, 2, 0, &LearnConfig::new(0), &budget).unwrap();
    assert!(!o.complete && o.count == 0);
    // The first poll's givens only: all 5,000 propagate about 900,000 options.
    assert!(o.stats.propagations < 50_000, "{}", o.stats.propagations);
}
