//! Fewer givens than one pass reaches: iterated local search over minimal puzzles.
//!
//! A minimal puzzle is a local optimum of blanking: no orbit can go. One *round* here gives
//! back [`PERTURB`] blanked orbits at random and blanks again, in a random order, every orbit
//! it can: a given orbit whose witness (the second solution that showed it necessary, see
//! [`super::generate`]) still keeps the other givens stays without a check, since giving
//! cells back can only kill second solutions, not make them; any other orbit, the two given
//! back included, gets a complete proof. The round ends minimal again.
//!
//! Rounds run [`SIDE_BY_SIDE`] at a time from the same puzzle, each on one worker with its
//! own generator, and each proves its removals one after another. Of the rounds of a step
//! that keep the givens as evenly spread (every band and stack at least [`SPREAD`] of the
//! mean per band, or the starting puzzle's share if that was lower), the first with the
//! fewest givens goes on if it has no more than the best so far; otherwise the best stays.
//! Rounds that end level let the search drift across plateaus. On one thread the rounds of
//! a step run one after the other, with the same outcome.
//!
//! Every puzzle in between is unique for the same reason as in the first pass: a given
//! goes back only from the solution, and an orbit is blanked only when proven safe. The
//! outcome of each check is a fact about the puzzle, and an orbit spared a check by a
//! witness is one a check would have found refuted, so the puzzle after `k` rounds depends
//! on the seed only, not on the thread count, on which second solutions the learners
//! found, or on what they learned.
//!
//! Measured at 25×25 with `--automorphic` (seeds 1–5, `benches/givens.sh 5`, 2026-11-25):
//! 12 rounds give a median of 40.0% givens against 41.6% after the first pass, in a median
//! of 6.3 s; 24 rounds 39.0% (38.7–40.3%) in 14 s; 36 rounds 38.7% in 25 s. Over seeds
//! 1–10, 16 rounds gave 39.7% (39.0–40.6%) in 7.6 s and 20 rounds 39.2% in 11.1 s; 16 are
//! the 25×25 default ([`super::GenerateConfig::IMPROVE_25X25`]). On random grids
//! 24 rounds take the median from 43.8% to 41.9%. The rounds' time goes mostly to second
//! solutions that the given-back orbits killed: finding a new one takes the learner up to
//! a few thousand conflicts under the givens' assumptions.
//!
//! Rounds used to run one at a time, their checks in batches across the workers as in the
//! first pass (the first safe removal of a batch taken, the checks after it done again).
//! That way 12 rounds took a median of 24 s for 39.7% givens (the same seeds, alternating
//! runs); side by side they take 6.3 s for 40.0%, and 24 rounds 14 s for 39.0%. Each
//! learner now sees every check of its round, and no check is thrown away: that is most
//! of the gain, since on one thread the same rounds take only about 1.4 times as long as
//! on two (seed 1: 4.4 s against 3.3 s; seed 3: 6.1 s against 4.3 s; idle machine).
//!
//! Nearly every witness dies in each round. The learner's second solutions differ from
//! the solution on about 220 of 625 cells at 25×25 (the short search's, which prefers the
//! solution's symbols, on about 40), so giving back two orbits seldom misses one.
//!
//! Tried and dropped, with rounds one at a time (2026-11-25, 25×25; `--automorphic
//! --improve 12` with seed 2 unless noted: 1,238 checks, 21–26 s):
//! - *A pool of every witness found*, offered to any orbit whose own witness died: it
//!   spared 27 of 895 refutations.
//! - *Smaller witnesses.*
//!   - Splitting the difference between the two solutions into trades (joining, per unit
//!     and symbol, the cell that holds it in one solution with the cell that holds it in
//!     the other) always left one component.
//!   - A search inside the differing cells that prefers the solution's symbols found
//!     218 cells where the learner had found 222.
//!   - Steering the learner's decisions to the solution's option of the item it decides:
//!     138-cell witnesses and 1,057 checks, but no faster (23.7 s).
//! - *Steering the proof to the witness that died* (decide its options first): 1,176
//!   checks, 23.4 s.
//! - *Giving back an orbit that shares a unit with the first.* It kept more givens: 12
//!   rounds gave a median of 40.0% against 39.7% (seeds 1–5). With 30 rounds the median
//!   was 38.7%, but one seed took 460 s.
//! - *Giving back more.*
//!   - With the point symmetry, 4 orbits instead of 2: the same median (39.7%) over a
//!     wider range (38.4–41.0%).
//!   - With `--symmetry none` (8 rounds, seeds 1–10), 2, 4 or 8 cells gave 40.0%, 39.8%
//!     and 39.4% givens in a median of 5.3, 5.6 and 7.9 s; 16 rounds of 2 cells gave
//!     39.7% in 9.2 s.

use std::sync::atomic::Ordering;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::prove::{Check, Worker, is_witness};
use super::{Fallback, GenerateStats, MoreRounds, Symmetry};
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

/// Rounds run side by side from the same puzzle, each on its own worker; the best of them
/// goes on. A constant, so that the puzzle does not depend on the thread count.
pub(super) const SIDE_BY_SIDE: usize = 2;

/// Runs up to `rounds` rounds on `best` (minimal, solved by `solution`), then those of
/// `more` while it keeps too many givens, leaving the best puzzle found in it. Returns
/// whether `control` stopped it; `best` is then the best puzzle of the rounds that
/// finished.
// Why the allow: these are the generator's own pieces of state (its RNG, workers, stats),
// lent for the rounds; a struct bundling them would exist for this call alone.
#[allow(clippy::too_many_arguments)]
pub(super) fn improve(
    shape: Shape,
    symmetry: Symmetry,
    rounds: u32,
    more: MoreRounds,
    best: &mut Minimal,
    solution: &[u8],
    rng: &mut ChaCha8Rng,
    workers: &mut [Worker],
    control: &SearchControl,
    stats: &mut GenerateStats,
) -> bool {
    let orbits = symmetry.orbits(shape);
    let floor = SPREAD.min(spread(shape, &best.cells));
    control.improving.store(true, Ordering::Relaxed);
    let mut left = rounds as usize;
    let mut extra = more.rounds as usize;
    loop {
        if left == 0 {
            if extra == 0 || !more.wanted(best.givens(), shape.cells()) {
                break;
            }
            left = SIDE_BY_SIDE.min(extra);
            extra -= left;
            control
                .more_rounds
                .fetch_add(left as u64, Ordering::Relaxed);
        }
        if control.should_stop() {
            return true;
        }
        let width = SIDE_BY_SIDE.min(left);
        left -= width;
        // Each round draws from its own generator, seeded in order from the run's.
        let mut rngs: Vec<ChaCha8Rng> = (0..width)
            .map(|_| ChaCha8Rng::seed_from_u64(rng.r#gen()))
            .collect();
        let start = &*best;
        let run = |rng: &mut ChaCha8Rng, worker: &mut Worker| {
            let mut counts = GenerateStats::default();
            let out = round(
                shape,
                &orbits,
                start,
                solution,
                rng,
                worker,
                control,
                &mut counts,
            );
            (out, counts)
        };
        let results: Vec<(Option<Minimal>, GenerateStats)> = if workers.len() >= width {
            rngs.par_iter_mut()
                .zip(workers.par_iter_mut())
                .map(|(rng, worker)| run(rng, worker))
                .collect()
        } else {
            rngs.iter_mut()
                .map(|rng| run(rng, &mut workers[0]))
                .collect()
        };
        // Of the rounds that keep the spread, the first with the fewest givens, if it has
        // no more than the best; a stopped round ends the run with what came before it.
        let mut pick: Option<Minimal> = None;
        let mut stopped = false;
        for (out, counts) in results {
            stats.checks += counts.checks;
            stats.by_propagation += counts.by_propagation;
            stats.by_search += counts.by_search;
            stats.refuted += counts.refuted;
            stats.unproven += counts.unproven;
            let Some(now) = out.filter(|_| !stopped) else {
                stopped = true;
                continue;
            };
            stats.rounds += 1;
            let bar = pick.as_ref().map_or(best.givens() + 1, |p| p.givens());
            if now.givens() < bar && spread(shape, &now.cells) >= floor {
                pick = Some(now);
            }
        }
        if let Some(p) = pick {
            *best = p;
            control
                .givens
                .store(best.givens() as u64, Ordering::Relaxed);
        }
        control.checks.store(stats.checks, Ordering::Relaxed);
        control.rounds.store(stats.rounds, Ordering::Relaxed);
        if stopped {
            return true;
        }
    }
    false
}

/// One round from `start` on one worker: `None` when `control` stopped it.
// Why the allow: as for `improve`, whose state this lends to one round.
#[allow(clippy::too_many_arguments)]
fn round(
    shape: Shape,
    orbits: &[Vec<u32>],
    start: &Minimal,
    solution: &[u8],
    rng: &mut ChaCha8Rng,
    worker: &mut Worker,
    control: &SearchControl,
    stats: &mut GenerateStats,
) -> Option<Minimal> {
    let mut now = start.clone();
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
    // In cell order before the shuffle: the round then depends on which orbits the start
    // keeps, not on the order they were found in.
    trial.sort_unstable_by_key(|(o, _)| o[0]);
    trial.shuffle(rng);
    for (orbit, witness) in trial {
        if let Some(w) = witness {
            if is_witness(shape, &now.cells, solution, &orbit, &w) {
                now.kept.push((orbit, w));
                continue;
            }
        }
        stats.checks += 1;
        let result = worker.check(&now.cells, solution, &orbit, Fallback::Full, control);
        // Live for the progress bar; the step sets the exact total when its rounds end.
        control.checks.fetch_add(1, Ordering::Relaxed);
        match result {
            Check::Unproven => {
                stats.unproven += 1;
                return None;
            }
            Check::Refuted => {
                stats.refuted += 1;
                now.kept.push((orbit, std::mem::take(&mut worker.witness)));
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
    Some(now)
}
