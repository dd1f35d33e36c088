//! Tests of the generator against independent counts: minimal and unique puzzles, the same
//! puzzle for the same seed at any thread count, the givens target, sweep against random
//! order, the time limit at 25×25, and how evenly the default order spreads the givens.

use super::*;
use crate::solve::{SolveLimits, dlx::Solver};
use std::sync::atomic::Ordering;

fn count(p: &Puzzle) -> u64 {
    Solver::new(p)
        .unwrap()
        .solve(&SolveLimits::count_up_to(2))
        .count
}

#[test]
fn minimal_puzzles_are_unique_and_minimal() {
    for b in 2..=3 {
        let shape = Shape::new(b).unwrap();
        for seed in 0..5 {
            for symmetry in [Symmetry::None, Symmetry::Rot180] {
                let cfg = GenerateConfig {
                    symmetry,
                    ..GenerateConfig::for_shape(shape, seed)
                };
                let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
                assert!(g.minimal);
                assert_eq!(count(&g.puzzle), 1);
                assert!(g.puzzle.is_completed_by(&g.solution));
                assert!(symmetry.holds_for(shape, g.puzzle.cells()));
                // Every orbit of givens is necessary.
                for orbit in symmetry.orbits(shape) {
                    if g.puzzle.cells()[orbit[0] as usize] == 0 {
                        continue;
                    }
                    let mut cells = g.puzzle.cells().to_vec();
                    for &c in &orbit {
                        cells[c as usize] = 0;
                    }
                    assert!(count(&Puzzle::new(shape, cells).unwrap()) >= 2);
                }
            }
        }
    }
}

/// `generate_from` over many seeds: the puzzle's unique solution is the caller's grid,
/// every kept given is a given, and every other orbit of givens is necessary (counted by
/// DLX); a kept given that disagrees with the grid is refused.
#[test]
fn puzzles_from_a_given_grid_keep_the_agreed_givens_and_are_minimal_beside_them() {
    use rand::{Rng, SeedableRng};
    for b in 2..=3 {
        let shape = Shape::new(b).unwrap();
        for seed in 0..12u64 {
            // The grid: one of another seed's puzzles' solutions, not the one generate
            // would fill for `seed`.
            let grid = generate(
                shape,
                &GenerateConfig::for_shape(shape, seed + 100),
                &SearchControl::default(),
            )
            .unwrap()
            .solution;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let keep_cells: Vec<u8> = grid
                .cells()
                .iter()
                .map(|&v| if rng.gen_range(0..6) == 0 { v } else { 0 })
                .collect();
            let keep = Puzzle::new(shape, keep_cells).unwrap();
            for symmetry in [Symmetry::None, Symmetry::Rot180] {
                let cfg = GenerateConfig::with_symmetry(shape, seed, symmetry);
                for kept in [None, Some(&keep)] {
                    let g = generate_from(&grid, kept, &cfg, &SearchControl::default()).unwrap();
                    assert_eq!(g.solution, grid);
                    assert!(g.minimal);
                    assert_eq!(count(&g.puzzle), 1, "b {b} seed {seed}");
                    assert!(g.puzzle.is_completed_by(&grid));
                    for (i, &v) in keep.cells().iter().enumerate() {
                        if kept.is_some() && v != 0 {
                            assert_eq!(g.puzzle.cells()[i], v);
                        }
                    }
                    for orbit in symmetry.orbits(shape) {
                        let held = orbit.iter().any(|&c| keep.cells()[c as usize] != 0);
                        if g.puzzle.cells()[orbit[0] as usize] == 0 || (kept.is_some() && held) {
                            continue;
                        }
                        let mut cells = g.puzzle.cells().to_vec();
                        for &c in &orbit {
                            cells[c as usize] = 0;
                        }
                        assert!(count(&Puzzle::new(shape, cells).unwrap()) >= 2);
                    }
                }
            }
        }
    }
    let shape = Shape::new(2).unwrap();
    let grid: Grid = "1234341221434321".parse().unwrap();
    let wrong: Puzzle = ".3..............".parse().unwrap();
    let cfg = GenerateConfig::for_shape(shape, 1);
    let e = generate_from(&grid, Some(&wrong), &cfg, &SearchControl::default()).unwrap_err();
    assert_eq!(
        e,
        GenerateFromError::Disagrees {
            pos: crate::grid::Pos { row: 0, col: 1 }
        }
    );
    let other = Puzzle::empty(Shape::new(3).unwrap());
    assert_eq!(
        generate_from(&grid, Some(&other), &cfg, &SearchControl::default()).unwrap_err(),
        GenerateFromError::Shape
    );
}

#[test]
fn same_seed_same_puzzle_for_any_thread_count() {
    let shape = Shape::new(3).unwrap();
    let cfg = GenerateConfig::for_shape(shape, 42);
    let run = |t| on_threads(t, shape, &cfg);
    let a = run(1);
    for t in [2, 3, 8] {
        assert_eq!(run(t).puzzle, a.puzzle, "threads {t}");
    }
}

#[test]
fn a_caller_deadline_already_past_still_gives_a_puzzle() {
    // Only an interrupt stops the fill; a deadline, the caller's or the config's, cuts
    // the removals, and the full grid's puzzle is still unique.
    let shape = Shape::new(3).unwrap();
    let past = SearchControl::default().with_deadline(Some(Instant::now()));
    let g = generate(shape, &GenerateConfig::for_shape(shape, 1), &past)
        .expect("a deadline does not stop the fill");
    assert!(g.stopped_early);
    assert_eq!(count(&g.puzzle), 1);
}

#[test]
fn givens_target_stops_early() {
    let shape = Shape::new(3).unwrap();
    let cfg = GenerateConfig {
        target: Target::Givens(50),
        ..GenerateConfig::for_shape(shape, 3)
    };
    let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
    assert!(g.puzzle.givens() <= 50 && g.puzzle.givens() >= 48);
    assert_eq!(count(&g.puzzle), 1);
    assert!(!g.minimal);
}

/// A complete count to 2 by the learning engine and by the propagation engine, which
/// must agree (plain DLX is slow at 25x25). The two share no code, and each proof of a
/// removal came from one of them, so every proof is re-checked by an engine that did
/// not make it.
fn engine_count(p: &Puzzle) -> crate::solve::Outcome {
    let limits = SolveLimits::count_up_to(2);
    let control = SearchControl::default();
    let learn = crate::solve::solve(p, crate::solve::Engine::Learn, &limits, &control).unwrap();
    let prop = crate::solve::propagate::count(p, &limits, &control).unwrap();
    assert_eq!((learn.count, learn.complete), (prop.count, prop.complete));
    assert_eq!(learn.solutions, prop.solutions);
    learn
}

#[test]
fn sweep_leaves_fewer_givens_than_random_and_both_are_unique() {
    // The reason the sweep is the default (module docs), on fixed seeds at 25x25.
    let shape = Shape::new(5).unwrap();
    let mut total = [0usize; 2];
    for seed in 0..3 {
        for (k, order) in [Order::Sweep, Order::Random].into_iter().enumerate() {
            // One pass of propagation proofs, the default above 25x25.
            let cfg = GenerateConfig {
                order,
                target: Target::Pass,
                fallback: Fallback::None,
                grid: GridKind::Random,
                ..GenerateConfig::for_shape(shape, seed)
            };
            let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
            let o = engine_count(&g.puzzle);
            assert_eq!((o.count, o.complete), (1, true), "{order:?} seed {seed}");
            assert!(Symmetry::Rot180.holds_for(shape, g.puzzle.cells()));
            total[k] += g.puzzle.givens();
        }
    }
    assert!(
        total[0] < total[1],
        "sweep {} vs random {}",
        total[0],
        total[1]
    );
}

#[test]
fn time_limited_minimal_25x25_is_unique_and_sparse() {
    // A 25x25 minimal run with a short limit stops early but stays unique.
    let shape = Shape::new(5).unwrap();
    let cfg = GenerateConfig {
        target: Target::Minimal,
        // Room for the propagation pass (about 20 ms idle) on a loaded machine, short of
        // the complete proofs (seconds).
        time_limit: Some(Duration::from_millis(2000)),
        ..GenerateConfig::for_shape(shape, 2)
    };
    let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
    assert_eq!(engine_count(&g.puzzle).count, 1);
    // The propagation pass alone gets below half the cells.
    assert!(g.puzzle.givens() < shape.cells() / 2);
    assert!(g.stats.checks > 0);
}

/// The fraction of the mean givens per band held by the emptiest band and by the
/// emptiest stack.
fn spread(shape: Shape, cells: &[u8]) -> (f64, f64) {
    let (n, b) = (shape.side(), shape.box_size());
    let mut bands = vec![0usize; b];
    let mut stacks = vec![0usize; b];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            bands[i / n / b] += 1;
            stacks[i % n / b] += 1;
        }
    }
    let mean = cells.iter().filter(|&&v| v != 0).count() as f64 / b as f64;
    let min = |v: &[usize]| *v.iter().min().unwrap() as f64 / mean;
    (min(&bands), min(&stacks))
}

/// The 25×25 default (an automorphic grid, a minimal puzzle, then rounds): givens spread
/// evenly, minimal, unique by a count from scratch, and fewer givens than a random grid's
/// first minimal puzzle over the same seeds (about four points in the median).
#[test]
fn default_25x25_spreads_givens_evenly_and_keeps_fewer_than_a_random_grid() {
    // The measure: every band and every stack holds at least 80% of the mean.
    let shape = Shape::new(5).unwrap();
    let (mut default, mut random) = (0, 0);
    for seed in 0..2 {
        let cfg = GenerateConfig::for_shape(shape, seed);
        let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
        let (band, stack) = spread(shape, g.puzzle.cells());
        assert!(
            band >= 0.8 && stack >= 0.8,
            "seed {seed}: {band:.2} {stack:.2}"
        );
        assert!(g.minimal, "the default is minimal up to 25x25");
        assert!(Symmetry::Rot180.holds_for(shape, g.puzzle.cells()));
        assert!(
            crate::solve::dlx::half_turn::induced(&g.solution).is_some(),
            "seed {seed}: the half turn renames the solution consistently"
        );
        // 16 rounds, and up to 32 more while above 40% givens.
        let (least, more) = (GenerateConfig::IMPROVE_25X25, GenerateConfig::MORE_25X25);
        let most = u64::from(least + more.rounds);
        assert!((u64::from(least)..=most).contains(&g.stats.rounds));
        assert!(g.puzzle.givens() * 100 <= 40 * 625 || g.stats.rounds == most);
        assert!(g.puzzle.givens() as u64 <= g.stats.first_givens);
        default += g.puzzle.givens();
        let plain = GenerateConfig {
            grid: GridKind::Random,
            improve: 0,
            ..cfg
        };
        random += generate(shape, &plain, &SearchControl::default())
            .unwrap()
            .puzzle
            .givens();
        // Re-counted from scratch by the learning engine, without the generator's
        // assumptions (propagation's search takes minutes on minimal 25x25 puzzles).
        let limits = SolveLimits::count_up_to(2);
        let o = crate::solve::solve(
            &g.puzzle,
            crate::solve::Engine::Learn,
            &limits,
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!((o.count, o.complete), (1, true), "seed {seed}");
        assert_eq!(o.solutions[0].cells(), g.solution.cells());
    }
    assert!(
        default < random,
        "default {default} against random {random}"
    );
}

#[test]
fn minimal_25x25_is_minimal_by_independent_counts() {
    // Complete proofs by the learning engine under assumptions: the puzzle is unique
    // (re-counted from scratch, no assumptions, by the learning engine: propagation's
    // search takes minutes on minimal 25x25 puzzles, and most removals were proven by
    // propagation anyway), and removing any one given admits a second solution (each
    // grid checked by the independent checker).
    let shape = Shape::new(5).unwrap();
    let cfg = GenerateConfig {
        target: Target::Minimal,
        symmetry: Symmetry::None,
        grid: GridKind::Random,
        improve: 0,
        ..GenerateConfig::for_shape(shape, 1)
    };
    let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
    assert!(g.minimal && !g.stopped_early);
    let learn = |p: &Puzzle| {
        crate::solve::solve(
            p,
            crate::solve::Engine::Learn,
            &SolveLimits::count_up_to(2),
            &SearchControl::default(),
        )
        .unwrap()
    };
    let o = learn(&g.puzzle);
    assert_eq!((o.count, o.complete), (1, true));
    assert_eq!(o.solutions[0], g.solution);
    let cells = g.puzzle.cells();
    for c in (0..cells.len()).filter(|&c| cells[c] != 0) {
        let mut fewer = cells.to_vec();
        fewer[c] = 0;
        let o = learn(&Puzzle::new(shape, fewer).unwrap());
        assert_eq!(o.count, 2, "given {c} is necessary");
    }
}

/// `GridKind::HalfTurn`: minimal, unique (DLX re-counts) puzzles on grids that the half
/// turn renames consistently, with fewer givens in all than on random grids over the same
/// seeds (about 4 points at 16×16).
#[test]
fn half_turn_grids_give_unique_minimal_puzzles_with_fewer_givens() {
    for b in [3, 4] {
        let shape = Shape::new(b).unwrap();
        let (mut half_turn, mut random) = (0, 0);
        for seed in 1..=4 {
            let base = GenerateConfig::for_shape(shape, seed);
            let cfg = GenerateConfig {
                grid: GridKind::HalfTurn,
                ..base
            };
            let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
            assert!(g.minimal);
            assert_eq!(count(&g.puzzle), 1, "b = {b}, seed {seed}");
            assert!(g.puzzle.is_completed_by(&g.solution));
            assert!(Symmetry::Rot180.holds_for(shape, g.puzzle.cells()));
            let sigma = crate::solve::dlx::half_turn::induced(&g.solution)
                .expect("the half turn renames symbols");
            assert!((1..sigma.len()).all(|s| sigma[sigma[s] as usize] as usize == s));
            half_turn += g.puzzle.givens();
            random += generate(shape, &base, &SearchControl::default())
                .unwrap()
                .puzzle
                .givens();
        }
        assert!(half_turn < random, "b = {b}: {half_turn} against {random}");
    }
}

/// `improve` rounds: the puzzle stays unique and minimal (DLX re-counts every orbit), never
/// keeps more givens than the first minimal puzzle nor spreads them less evenly than
/// `SPREAD` allows, and is the same at any thread count.
#[test]
fn improve_rounds_keep_puzzles_unique_minimal_and_reproducible() {
    let shape = Shape::new(3).unwrap();
    let mut fewer = 0;
    for seed in 1..=6 {
        let base = GenerateConfig::for_shape(shape, seed);
        let first = generate(shape, &base, &SearchControl::default()).unwrap();
        // An odd count: the last step runs one round alone.
        let cfg = GenerateConfig { improve: 7, ..base };
        let run = |t| on_threads(t, shape, &cfg);
        let g = run(1);
        assert_eq!(run(3).puzzle, g.puzzle, "seed {seed}: any thread count");
        assert!(g.minimal && !g.stopped_early);
        assert_eq!(g.stats.rounds, 7);
        assert_eq!(g.solution, first.solution);
        assert_eq!(count(&g.puzzle), 1);
        assert!(Symmetry::Rot180.holds_for(shape, g.puzzle.cells()));
        for orbit in Symmetry::Rot180.orbits(shape) {
            if g.puzzle.cells()[orbit[0] as usize] == 0 {
                continue;
            }
            let mut cells = g.puzzle.cells().to_vec();
            for &c in &orbit {
                cells[c as usize] = 0;
            }
            assert!(
                count(&Puzzle::new(shape, cells).unwrap()) >= 2,
                "seed {seed}"
            );
        }
        assert!(g.puzzle.givens() <= first.puzzle.givens());
        let floor = improve::SPREAD.min(improve::spread(shape, first.puzzle.cells()));
        assert!(improve::spread(shape, g.puzzle.cells()) >= floor);
        fewer += usize::from(g.puzzle.givens() < first.puzzle.givens());
    }
    assert!(
        fewer >= 2,
        "the rounds lowered the givens of {fewer} of 6 puzzles"
    );
    // At 16x16 on half-turn grids, where the learners find the second solutions.
    let shape = Shape::new(4).unwrap();
    for seed in 1..=2 {
        let cfg = GenerateConfig {
            improve: 4,
            grid: GridKind::HalfTurn,
            ..GenerateConfig::for_shape(shape, seed)
        };
        let run = |t| on_threads(t, shape, &cfg);
        let g = run(1);
        assert_eq!(
            run(2).puzzle,
            g.puzzle,
            "16x16 seed {seed}: any thread count"
        );
        assert!(g.minimal);
        assert_eq!(count(&g.puzzle), 1);
    }
}

/// [`MoreRounds`] add rounds, two at a time, only while the puzzle keeps more givens than
/// wanted, and never more than their count.
#[test]
fn more_rounds_run_only_while_the_givens_are_above_the_share() {
    let shape = Shape::new(3).unwrap();
    let base = GenerateConfig {
        improve: 2,
        ..GenerateConfig::for_shape(shape, 4)
    };
    let two = generate(shape, &base, &SearchControl::default()).unwrap();
    let share = |above_percent| GenerateConfig {
        improve_more: MoreRounds {
            rounds: 5,
            above_percent,
        },
        ..base
    };
    // Always above: all five more.
    let all = generate(shape, &share(0), &SearchControl::default()).unwrap();
    assert_eq!(all.stats.rounds, 7);
    // Never above: none more, and the same puzzle as without them.
    let none = generate(shape, &share(100), &SearchControl::default()).unwrap();
    assert_eq!((none.stats.rounds, &none.puzzle), (2, &two.puzzle));
    // Above a share between: rounds stop once the givens are at most that share (or run
    // out), and the givens are never above it with rounds left.
    let want = two.puzzle.givens() * 100 / 81 - 1;
    let some = generate(shape, &share(want as u32), &SearchControl::default()).unwrap();
    let at_most = some.puzzle.givens() * 100 <= want * 81;
    assert!(some.stats.rounds > 2 && (at_most || some.stats.rounds == 7));
    if at_most && some.stats.rounds > 4 {
        // The step before (rounds of two, then the one left) ended above the share.
        let step = if some.stats.rounds == 7 { 1 } else { 2 };
        let before = GenerateConfig {
            improve: some.stats.rounds as u32 - step,
            ..base
        };
        let g = generate(shape, &before, &SearchControl::default()).unwrap();
        assert!(g.puzzle.givens() * 100 > want * 81);
    }
}

/// [`generate`] on a pool of `threads` threads.
fn on_threads(threads: usize, shape: Shape, cfg: &GenerateConfig) -> Generated {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| generate(shape, cfg, &SearchControl::default()).unwrap())
}

/// Worker and check-thread counts far beyond any machine are capped (they used to
/// overflow an allocation): the grid and the puzzle come out as with a sane count.
#[test]
fn huge_worker_counts_are_capped() {
    let shape = Shape::new(2).unwrap();
    let control = SearchControl::default();
    let filled = fill::fill_grid(
        shape,
        &fill::FillConfig {
            workers: usize::MAX,
            ..fill::FillConfig::new(5)
        },
        &control,
    )
    .expect("a grid");
    assert_eq!(filled.workers, fill::MAX_WORKERS);
    let cfg = |t| GenerateConfig {
        check_threads: t,
        ..GenerateConfig::for_shape(shape, 7)
    };
    let a = generate(shape, &cfg(usize::MAX), &control).expect("a puzzle");
    let b = generate(shape, &cfg(1), &control).expect("a puzzle");
    assert_eq!(a.puzzle, b.puzzle);
}

/// A half-turn grid above 81×81 takes minutes to fill, so there the time limit stops the
/// fill too (it used to be ignored for the whole fill); the CLI refuses the size.
#[test]
fn a_time_limit_stops_a_100x100_half_turn_fill() {
    let shape = Shape::new(10).unwrap();
    let cfg = GenerateConfig {
        grid: GridKind::HalfTurn,
        time_limit: Some(std::time::Duration::from_millis(300)),
        ..GenerateConfig::for_shape(shape, 1)
    };
    let start = Instant::now();
    let g = generate(shape, &cfg, &SearchControl::default());
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert!(g.is_none());
}

/// An interrupt raised before the call gives no puzzle at any size (at 25×25 the quick
/// half-turn fill used to miss it, and the full grid came back as the puzzle).
#[test]
fn an_interrupt_raised_before_gives_no_puzzle() {
    let control = SearchControl::default();
    control.interrupt.store(true, Ordering::SeqCst);
    for b in [2, 3, 5] {
        let shape = Shape::new(b).unwrap();
        let cfg = GenerateConfig::for_shape(shape, 3);
        assert!(generate(shape, &cfg, &control).is_none(), "{b}");
    }
}

/// `every_house`: no row, column or box is left without a given (the default order empties
/// the rows it visits first), the puzzle is unique, and a `minimal` claim holds orbit by
/// orbit, counted by DLX (the orbits held back for their houses included).
#[test]
fn every_house_keeps_a_given_in_each_and_minimal_still_means_minimal() {
    let mut minimal_runs = 0;
    for b in 2..=3 {
        let shape = Shape::new(b).unwrap();
        let n = shape.side();
        for seed in 0..8 {
            for symmetry in [Symmetry::None, Symmetry::Rot180, Symmetry::Dihedral] {
                let cfg = GenerateConfig {
                    symmetry,
                    every_house: true,
                    ..GenerateConfig::for_shape(shape, seed)
                };
                let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
                let cells = g.puzzle.cells();
                for h in 0..3 * n {
                    assert!(
                        house_cells(shape, h).any(|c| cells[c] != 0),
                        "house {h} empty: {}",
                        g.puzzle
                    );
                }
                assert_eq!(count(&g.puzzle), 1);
                assert!(g.puzzle.is_completed_by(&g.solution));
                assert!(symmetry.holds_for(shape, cells));
                if !g.minimal {
                    continue;
                }
                minimal_runs += 1;
                for orbit in symmetry.orbits(shape) {
                    if cells[orbit[0] as usize] == 0 {
                        continue;
                    }
                    let mut less = cells.to_vec();
                    for &c in &orbit {
                        less[c as usize] = 0;
                    }
                    assert!(count(&Puzzle::new(shape, less).unwrap()) >= 2);
                }
            }
        }
    }
    // Most runs end minimal: the orbits held back are almost always necessary anyway.
    assert!(minimal_runs >= 24, "{minimal_runs} of 48 minimal");
    // The houses as numbered: row 0, column 0, and block 0 of a 9x9.
    let s = Shape::new(3).unwrap();
    assert_eq!(
        house_cells(s, 0).collect::<Vec<_>>(),
        (0..9).collect::<Vec<_>>()
    );
    assert_eq!(
        house_cells(s, 9).collect::<Vec<_>>(),
        (0..9).map(|r| r * 9).collect::<Vec<_>>()
    );
    assert_eq!(
        house_cells(s, 18).collect::<Vec<_>>(),
        [0, 1, 2, 9, 10, 11, 18, 19, 20]
    );
    assert_eq!(houses_of(s, 80), [8, 17, 26]);
}
