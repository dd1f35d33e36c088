//! Property tests with planted answers: a random full grid, scrambled by symmetries that keep
//! it a sudoku, with cells blanked, must still have that grid among its solutions; serial
//! and parallel searches must agree.

use proptest::prelude::*;
use shiftgrid::generate::fill::{FillConfig, fill_grid};
use shiftgrid::solve::{SearchControl, SolveLimits, dlx::Solver};
use shiftgrid::{Puzzle, Shape};

use crate::util::independently_valid;

/// A random full grid of box size `b` from the fill engine, scrambled by the symmetries of
/// sudoku: its shifts relabelled, its bands, the rows within each band, its stacks and the
/// columns within each stack permuted, and half the time transposed. The result is again a
/// valid grid (checked).
fn planted(b: usize, seed: u64, perm_seed: u64) -> Vec<u8> {
    let shape = Shape::new(b).unwrap();
    let cfg = FillConfig {
        workers: 1,
        ..FillConfig::new(seed)
    };
    let g = fill_grid(shape, &cfg, &SearchControl::default()).unwrap();
    let n = shape.side();
    // A cheap deterministic shuffle from perm_seed.
    let mut state = perm_seed | 1;
    let mut next = |m: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % m as u64) as usize
    };
    let mut shuffled = |len: usize| {
        let mut v: Vec<usize> = (0..len).collect();
        for i in (1..len).rev() {
            v.swap(i, next(i + 1));
        }
        v
    };
    let relabel = shuffled(n);
    // Line k of the output is line lines[k] of the input: a band (stack) order, then an
    // order of the lines within each band (stack).
    let mut lines = || {
        let bands = shuffled(b);
        let within: Vec<Vec<usize>> = (0..b).map(|_| shuffled(b)).collect();
        (0..n)
            .map(|k| bands[k / b] * b + within[k / b][k % b])
            .collect::<Vec<usize>>()
    };
    let (rows, cols) = (lines(), lines());
    let transpose = shuffled(2)[0] == 1;
    let mut out = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let (i, j) = (rows[r], cols[c]);
            let v = g.grid.cells()[if transpose { j * n + i } else { i * n + j }];
            out[r * n + c] = relabel[usize::from(v) - 1] as u8 + 1;
        }
    }
    assert!(independently_valid(n, &out));
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn planted_grid_is_among_the_solutions(
        b in 2usize..=3,
        seed in 0u64..1000,
        perm in 1u64..u64::MAX,
        keep in 0.3f64..0.9,
    ) {
        let full = planted(b, seed, perm);
        let n = b * b;
        let mut cells = full.clone();
        let mut s = perm;
        for c in cells.iter_mut() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if ((s >> 33) as f64 / (1u64 << 31) as f64) > keep {
                *c = 0;
            }
        }
        let p = Puzzle::new(Shape::new(b).unwrap(), cells).unwrap();
        let mut solver = Solver::new(&p).unwrap();
        let cap = 5000;
        let serial = solver.solve(&SolveLimits::all_up_to(cap));
        // Every solution is listed, the planted one among them (a sparser draw is redrawn).
        prop_assume!(serial.count < cap);
        for g in &serial.solutions {
            prop_assert!(independently_valid(n, g.cells()));
            prop_assert!(p.is_completed_by(g));
        }
        prop_assert!(serial.solutions.iter().any(|g| g.cells() == full.as_slice()));
        for threads in [1usize, 2, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let par = pool.install(|| {
                solver.solve_parallel(&SolveLimits::all_up_to(cap), &SearchControl::default())
            });
            prop_assert_eq!(par.count, serial.count);
            // Exhaustive runs keep the same solutions in the same order.
            prop_assert_eq!(&par.solutions, &serial.solutions);
        }
    }
}

#[test]
fn fill_many_seeds_every_size_up_to_36() {
    for b in 2..=6 {
        let shape = Shape::new(b).unwrap();
        for seed in 0..20 {
            for workers in [1, 2] {
                let cfg = FillConfig {
                    workers,
                    ..FillConfig::new(seed)
                };
                let f = fill_grid(shape, &cfg, &SearchControl::default()).unwrap();
                assert!(
                    independently_valid(shape.side(), f.grid.cells()),
                    "b {b} seed {seed}"
                );
            }
        }
    }
}

#[test]
#[ignore = "big sizes: 20 seeds each for b = 7..10, about 40 s in release on 2 cores"]
fn fill_many_seeds_big_sizes() {
    for b in 7..=10 {
        let shape = Shape::new(b).unwrap();
        for seed in 0..20 {
            let f = fill_grid(shape, &FillConfig::new(seed), &SearchControl::default()).unwrap();
            assert!(
                independently_valid(shape.side(), f.grid.cells()),
                "b {b} seed {seed}"
            );
        }
    }
}
