//! The blanking loop of [`generate`](super::generate): orbits tried in order, in batches
//! checked side by side with the sequential result, the stages of proofs, the houses kept
//! by [`GenerateConfig::every_house`], then the rounds of [`improve`] and the
//! minimality check on the witnesses.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::prove::{Check, Worker, is_witness};
use super::{Fallback, GenerateConfig, GenerateStats, Generated, Target, fill, improve, order_key};
use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::SearchControl;

/// Blanks `solution` as [`generate`](super::generate) describes, never blanking an orbit that holds a given
/// of `keep`; `control` already carries the deadline counted from `start`.
pub(super) fn blank(
    solution: Grid,
    keep: Option<&Puzzle>,
    config: &GenerateConfig,
    control: &SearchControl,
    start: Instant,
    fill_micros: u64,
) -> Generated {
    let shape = solution.shape();
    let mut puzzle: Vec<u8> = solution.cells().to_vec();
    let mut givens = puzzle.len();
    control.givens.store(givens as u64, Ordering::Relaxed);

    let mut orbits = config.symmetry.orbits(shape);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(1);
    orbits.shuffle(&mut rng);
    // Kept givens: their orbits are never tried (after the shuffle, so that the same seed
    // blanks the rest in the same order whatever is kept).
    if let Some(k) = keep {
        orbits.retain(|o| o.iter().all(|&c| k.cells()[c as usize] == 0));
    }
    // Stable: the shuffled order stays random among orbits of one key.
    orbits.sort_by_key(|o| order_key(config.order, shape, o));
    let mut queue: VecDeque<Vec<u32>> = orbits.into();
    // Orbits whose removal was refuted (final), and those left unproven (retried by a
    // later stage, if any).
    // Refuted orbits, each with its witness: a second solution of the puzzle it was
    // checked against, without the orbit.
    let mut kept: Vec<(Vec<u32>, Vec<u8>)> = Vec::new();
    let mut unproven: Vec<Vec<u32>> = Vec::new();
    let mut stats = GenerateStats {
        fill_micros,
        ..GenerateStats::default()
    };
    // Minimal runs from 25×25 up first take every removal propagation proves (fast: no
    // searches), then retry what is left with searches of growing budgets, and complete
    // ones last. The cheap passes come before any expensive check, so one hard orbit does
    // not hold up the easy ones and a time limit keeps a good puzzle. (Up to 16×16 one
    // complete pass is faster.)
    let mut stages = if config.target == Target::Minimal && shape.box_size() >= 5 {
        vec![Fallback::None, Fallback::Full]
    } else if config.target == Target::Minimal {
        vec![Fallback::Full]
    } else {
        vec![config.fallback]
    };
    stages.reverse();
    let mut fallback = stages.pop().expect("one stage at least");
    let batch = match config.check_threads {
        0 => rayon::current_num_threads(),
        t => t,
    }
    .clamp(1, fill::MAX_WORKERS);
    let stop_early = |givens: usize| -> bool {
        control.should_stop() || matches!(config.target, Target::Givens(k) if givens <= k)
    };
    let mut stopped_early = false;
    let sol = solution.cells();
    let mut workers: Vec<Worker> = (0..batch).map(|_| Worker::new(shape)).collect();
    // Givens per house (rows, columns, blocks), and the orbits held back because their
    // removal would empty one (`every_house`): givens only go, so they stay held.
    let n = shape.side();
    let mut house_givens: Vec<usize> = (0..3 * n)
        .map(|h| house_cells(shape, h).filter(|&c| puzzle[c] != 0).count())
        .collect();
    let mut held: Vec<Vec<u32>> = Vec::new();
    loop {
        if queue.is_empty() {
            match stages.pop() {
                Some(next) if !unproven.is_empty() => {
                    fallback = next;
                    queue = std::mem::take(&mut unproven).into();
                    continue;
                }
                _ => break,
            }
        }
        if stop_early(givens) {
            stopped_early = !matches!(config.target, Target::Givens(k) if givens <= k);
            break;
        }
        let mut trial: Vec<Vec<u32>> = Vec::with_capacity(batch);
        while trial.len() < batch {
            let Some(orbit) = queue.pop_front() else {
                break;
            };
            if config.every_house && empties_a_house(shape, &house_givens, &orbit) {
                held.push(orbit);
            } else {
                trial.push(orbit);
            }
        }
        let take = trial.len();
        if take == 0 {
            continue;
        }
        let results: Vec<Check> = if take == 1 {
            vec![workers[0].check(&puzzle, sol, &trial[0], fallback, control)]
        } else {
            trial
                .par_iter()
                .zip(workers.par_iter_mut())
                .map(|(orbit, w)| w.check(&puzzle, sol, orbit, fallback, control))
                .collect()
        };
        // Accept the first safe removal; everything before it failed against the same
        // puzzle a sequential run would have seen; everything after it is re-queued.
        let first_safe = results.iter().position(|r| r.is_safe());
        let settled = first_safe.map_or(take, |k| k + 1);
        for (k, (orbit, result)) in trial.iter().zip(&results).enumerate().take(settled) {
            stats.checks += 1;
            match result {
                Check::Propagation => stats.by_propagation += 1,
                Check::Search => stats.by_search += 1,
                Check::Refuted => stats.refuted += 1,
                Check::Unproven => stats.unproven += 1,
            }
            if result.is_safe() {
                for &c in orbit {
                    puzzle[c as usize] = 0;
                    for h in houses_of(shape, c as usize) {
                        house_givens[h] -= 1;
                    }
                }
                givens -= orbit.len();
            } else if *result == Check::Refuted {
                kept.push((orbit.clone(), std::mem::take(&mut workers[k].witness)));
            } else {
                unproven.push(orbit.clone());
            }
        }
        for orbit in trial.into_iter().skip(settled).rev() {
            queue.push_front(orbit);
        }
        control.checks.store(stats.checks, Ordering::Relaxed);
        control.givens.store(givens as u64, Ordering::Relaxed);
        // Checks still to come in this pass: the queue, and the unproven orbits a later
        // stage retries.
        let retried = if stages.is_empty() { 0 } else { unproven.len() };
        control
            .queued
            .store((queue.len() + retried) as u64, Ordering::Relaxed);
    }
    // A stop in the last checks leaves them unproven with the queue empty: cut short too.
    if control.should_stop() && !(queue.is_empty() && unproven.is_empty()) {
        stopped_early = true;
    }
    let finished = !stopped_early && queue.is_empty() && unproven.is_empty();
    // Orbits held back for their houses: a minimal run checks them, so that `minimal` says
    // whether any given could go; after any other run they leave the puzzle not minimal.
    let mut held_open = !held.is_empty();
    if config.target == Target::Minimal && finished && held_open {
        held_open = false;
        for orbit in held {
            stats.checks += 1;
            match workers[0].check(&puzzle, sol, &orbit, Fallback::Full, control) {
                Check::Refuted => {
                    stats.refuted += 1;
                    kept.push((orbit, std::mem::take(&mut workers[0].witness)));
                }
                _ => {
                    held_open = true;
                    break;
                }
            }
        }
    }
    if config.target == Target::Minimal && finished && config.improve > 0 && !config.every_house {
        stats.first_givens = givens as u64;
        let mut best = improve::Minimal {
            cells: puzzle,
            kept,
        };
        stopped_early = improve::improve(
            shape,
            config.symmetry,
            config.improve,
            config.improve_more,
            &mut best,
            sol,
            &mut rng,
            &mut workers,
            control,
            &mut stats,
        );
        (puzzle, kept) = (best.cells, best.kept);
    }
    // Minimal: every orbit was tried and none is left unproven, and every kept orbit's
    // witness is still a second solution of the final puzzle without that orbit. It was one
    // for a puzzle with more givens, so it is one now; checking it (with the independent
    // grid checker) makes the claim rest on the witnesses rather than on the bookkeeping,
    // and costs no search. This holds whatever the target: a pass with bounded searches
    // (`--search-nodes`) that refuted every orbit it kept is minimal too.
    let minimal = finished
        && !held_open
        && kept
            .iter()
            .all(|(orbit, witness)| is_witness(shape, &puzzle, sol, orbit, witness));
    stats.micros = start.elapsed().as_micros() as u64;
    let puzzle = Puzzle::new(shape, puzzle).expect("cells come from a valid grid");
    Generated {
        puzzle,
        solution,
        minimal,
        stopped_early,
        stats,
    }
}

/// The houses of `cell`: its row, column and block, numbered as rows `0..n`, columns
/// `n..2n`, blocks `2n..3n`.
pub(super) fn houses_of(shape: Shape, cell: usize) -> [usize; 3] {
    let (n, b) = (shape.side(), shape.box_size());
    let (r, c) = (cell / n, cell % n);
    [r, n + c, 2 * n + (r / b) * b + c / b]
}

/// The cells of house `h` (numbered as [`houses_of`] numbers them).
pub(super) fn house_cells(shape: Shape, h: usize) -> impl Iterator<Item = usize> {
    let (n, b) = (shape.side(), shape.box_size());
    (0..n).map(move |k| match h / n {
        0 => h * n + k,
        1 => k * n + (h - n),
        _ => {
            let blk = h - 2 * n;
            ((blk / b) * b + k / b) * n + (blk % b) * b + k % b
        }
    })
}

/// Whether blanking `orbit` would leave a house with no given.
fn empties_a_house(shape: Shape, house_givens: &[usize], orbit: &[u32]) -> bool {
    orbit.iter().enumerate().any(|(i, &c)| {
        houses_of(shape, c as usize).into_iter().any(|h| {
            let from_orbit = orbit[..=i]
                .iter()
                .filter(|&&d| houses_of(shape, d as usize).contains(&h))
                .count();
            from_orbit >= house_givens[h]
        })
    })
}
