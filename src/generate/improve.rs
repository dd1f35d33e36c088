//! Fewer givens than one pass reaches: iterated local search over minimal puzzles.
//!
//! A minimal puzzle is a local optimum of blanking: no orbit can go. One *round* here gives
//! back [`PERTURB`] blanked orbits at random and blanks again, in a random order, every orbit
//! it can: a given orbit whose witness (the second solution that showed it necessary, see
//! [`super::generate`]) still keeps the other givens stays without a check, since giving
//! cells back can only kill second solutions, not make them; any other orbit, the two given
//! back included, gets a complete proof. The round ends minimal again, and is kept when it
//! has no more givens than the best so far and its givens stay as evenly spread (every band
//! and stack at least [`SPREAD`] of the mean per band, or the starting puzzle's share if
//! that was lower); otherwise the best is restored. Rounds that end level let the search
//! drift across plateaus.
//!
//! Every puzzle in between is unique for the same reason as in the first pass: a given
//! goes back only from the solution, and an orbit is blanked only when proven safe. The
//! outcome of each check is a fact about the puzzle, and an orbit spared a check by a
//! witness is one a check would have found refuted, so the puzzle after `k` rounds depends
//! on the seed only, not on the thread count, on which second solutions the learners
//! found, or on what they learned.
//!
//! Measured at 25×25 with `--automorphic`, 12 rounds, seeds 1–5: median 39.7% givens
//! (39.4–40.6%) against 41.6% after the first pass, in 6–27 s; seed 1 went on to 38.4%
//! after 25 rounds (10.5 s). On random grids 12 rounds take the median from 43.8% to 42.6%
//! (`benches/givens.sh 5`). The rounds' time goes mostly to second solutions that
//! the given-back orbits killed: finding a new one takes the learner up to a few thousand
//! conflicts under the givens' assumptions.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::prove::{Check, Worker, is_witness};
use super::{Fallback, GenerateStats, Symmetry};
use crate::grid::Shape;
use crate::solve::SearchControl;

/// Blanked orbits given back at the start of each round.
pub(super) const PERTURB: usize = 2;
/// The least share of the mean givens per band that every band and stack keeps.
pub(super) const SPREAD: f64 = 0.85;

/// A minimal puzzle with each given orbit's witness.
#[derive(Clone)]
pub(super) struct Minimal {
    pub cells: Vec<u8>,
    pub kept: Vec<(Vec<u32>, Vec<u8>)>,
}

impl Minimal {
    fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }
}

/// The emptiest band or stack's givens as a share of the mean per band (1 for no givens).
pub(super) fn spread(shape: Shape, cells: &[u8]) -> f64 {
    let n = shape.side();
    let b = shape.box_size();
    let mut bands = vec![0usize; b];
    let mut stacks = vec![0usize; b];
    for (i, _) in cells.iter().enumerate().filter(|(_, v)| **v != 0) {
        bands[i / n / b] += 1;
        stacks[i % n / b] += 1;
    }
    let total: usize = bands.iter().sum();
    if total == 0 {
        return 1.0;
    }
    let least = bands.iter().chain(&stacks).copied().min().unwrap_or(0);
    least as f64 * b as f64 / total as f64
}

/// Runs up to `rounds` rounds on `best` (minimal, solved by `solution`), leaving the best
/// puzzle found in it. Returns whether `control` stopped it; `best` is then the best
/// puzzle of the rounds that finished.
#[allow(clippy::too_many_arguments)]
pub(super) fn improve(
    shape: Shape,
    symmetry: Symmetry,
    rounds: u32,
    best: &mut Minimal,
    solution: &[u8],
    rng: &mut ChaCha8Rng,
    workers: &mut [Worker],
    control: &SearchControl,
    stats: &mut GenerateStats,
) -> bool {
    let orbits = symmetry.orbits(shape);
    let floor = SPREAD.min(spread(shape, &best.cells));
    let mut best_givens = best.givens();
    for _ in 0..rounds {
        if control.should_stop() {
            return true;
        }
        let mut now = best.clone();
        let blanks: Vec<&Vec<u32>> = orbits
            .iter()
            .filter(|o| now.cells[o[0] as usize] == 0)
            .collect();
        let mut trial: Vec<(Vec<u32>, Option<Vec<u8>>)> = Vec::new();
        for &orbit in blanks.choose_multiple(rng, PERTURB) {
            for &c in orbit {
                now.cells[c as usize] = solution[c as usize];
            }
            trial.push((orbit.clone(), None));
        }
        trial.extend(now.kept.drain(..).map(|(o, w)| (o, Some(w))));
        // In cell order first: the order `kept` was filled in depends on which checks a
        // witness spared, which depends on the thread count.
        trial.sort_unstable_by_key(|(o, _)| o[0]);
        trial.shuffle(rng);
        // Checks run in batches, one per worker, against the same puzzle, as in the first
        // pass: the first safe removal is taken, the refutations before it are final and
        // the orbits after it go back to the queue, so the outcome is the sequential one.
        let mut queue: VecDeque<(Vec<u32>, Option<Vec<u8>>)> = trial.into();
        loop {
            let mut batch: Vec<Vec<u32>> = Vec::with_capacity(workers.len());
            while batch.len() < workers.len() {
                let Some((orbit, witness)) = queue.pop_front() else {
                    break;
                };
                match witness {
                    Some(w) if is_witness(shape, &now.cells, solution, &orbit, &w) => {
                        now.kept.push((orbit, w));
                    }
                    _ => batch.push(orbit),
                }
            }
            if batch.is_empty() {
                break;
            }
            let cells = &now.cells;
            let results: Vec<Check> = if batch.len() == 1 {
                vec![workers[0].check(cells, solution, &batch[0], Fallback::Full, control)]
            } else {
                batch
                    .par_iter()
                    .zip(workers.par_iter_mut())
                    .map(|(orbit, w)| w.check(cells, solution, orbit, Fallback::Full, control))
                    .collect()
            };
            let settled = results
                .iter()
                .position(|r| r.is_safe())
                .map_or(batch.len(), |k| k + 1);
            let mut rest = batch.split_off(settled);
            for (k, (orbit, result)) in batch.into_iter().zip(results).enumerate() {
                stats.checks += 1;
                match result {
                    Check::Unproven => {
                        stats.unproven += 1;
                        return true;
                    }
                    Check::Refuted => {
                        stats.refuted += 1;
                        now.kept
                            .push((orbit, std::mem::take(&mut workers[k].witness)));
                    }
                    safe => {
                        if safe == Check::Propagation {
                            stats.by_propagation += 1;
                        } else {
                            stats.by_search += 1;
                        }
                        for &c in &orbit {
                            now.cells[c as usize] = 0;
                        }
                    }
                }
            }
            while let Some(orbit) = rest.pop() {
                queue.push_front((orbit, None));
            }
            control.checks.store(stats.checks, Ordering::Relaxed);
        }
        stats.rounds += 1;
        let givens = now.givens();
        if givens <= best_givens && spread(shape, &now.cells) >= floor {
            best_givens = givens;
            *best = now;
            control.givens.store(givens as u64, Ordering::Relaxed);
        }
    }
    false
}
