//! The memetic step of the genetic algorithm: a local search from one shaped puzzle over
//! **swap moves**. A move blanks one given orbit and gives one blank orbit (the number of
//! givens stays, before the redundancy step), keeps it only if techniques `1..=L_t` still
//! solve the puzzle, then blanks every given orbit that became redundant (the swapped-in
//! orbit last). The resulting minimal puzzle is scored with the same fitness as the GA.
//!
//! Each round grades the whole neighbourhood (every given × blank pair, a few hundred at
//! 9×9) in parallel and moves to its best member when that improves the fitness; when none
//! does, it may take an equal-fitness move to a puzzle not seen before (a plateau move, at
//! most [`ClimbConfig::plateau`] in a row): paths of equal `S` often lie next to a longer
//! one that no single swap from the first reaches. Mutation and crossover make large jumps
//! and rarely land on such a neighbour; the climb finds it in a few rounds.
//!
//! Determinism: the neighbourhood is listed in a fixed order, move `i` of round `r`
//! draws from its own stream, and the best move is the first of the highest fitness in
//! that order, so the climb does not depend on the thread count.

use std::collections::HashSet;

use bitvec::vec::BitVec;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::fitness;
use crate::generate::expand::Shaper;
use crate::grade::Grade;
use crate::solve::SearchControl;

/// How long a climb may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClimbConfig {
    /// Neighbourhood rounds at most.
    pub(crate) rounds: u32,
    /// Equal-fitness moves in a row at most before the climb stops.
    pub(crate) plateau: u32,
}

/// A climbed puzzle: its cells (a minimal puzzle solved by techniques `1..=L_t`), level,
/// steps and fitness, and the grading runs it took.
pub(crate) struct Climbed {
    pub(crate) cells: Vec<u8>,
    pub(crate) level: u8,
    pub(crate) steps: u32,
    pub(crate) fitness: u64,
    /// The grade of `cells` with the shaper's techniques.
    pub(crate) grade: Grade,
    pub(crate) grading_runs: u64,
}

/// Climbs from `cells` (solved by the shaper's techniques, with no redundant givens, and
/// graded `start` by them) by swap moves; `seed` and `stream` fix every random choice
/// (`stream` must leave its low 40 bits clear: they number the round and the move).
pub(crate) fn climb(
    template: &Shaper,
    cells: &[u8],
    start: Grade,
    config: &ClimbConfig,
    seed: u64,
    stream: u64,
    control: &SearchControl,
) -> Climbed {
    let shape = template.shape();
    let mut best = Climbed {
        level: start.level.expect("the climb starts from a solved puzzle"),
        steps: start.steps,
        fitness: 0,
        cells: cells.to_vec(),
        grade: start,
        grading_runs: 0,
    };
    best.fitness = fitness(shape, best.level, best.steps);
    let mut seen: HashSet<BitVec> = HashSet::new();
    seen.insert(genome(&best.cells));
    let mut flat = 0u32;
    for round in 0..config.rounds {
        if control.should_stop() {
            break;
        }
        let orbits = template.orbits.len();
        let (given, blank): (Vec<usize>, Vec<usize>) =
            (0..orbits).partition(|&k| template.is_given(&best.cells, k));
        let moves: Vec<(usize, usize)> = given
            .iter()
            .flat_map(|&g| blank.iter().map(move |&a| (g, a)))
            .collect();
        let (next, runs) = best_move(
            template,
            &best,
            &moves,
            &seen,
            seed,
            stream | u64::from(round) << 24,
            control,
        );
        best.grading_runs += runs;
        let Some(next) = next else { break };
        if next.fitness > best.fitness {
            flat = 0;
        } else {
            flat += 1;
            if flat > config.plateau {
                break;
            }
        }
        seen.insert(genome(&next.cells));
        let runs = best.grading_runs;
        best = Climbed {
            grading_runs: runs,
            ..next
        };
    }
    best
}

/// The best of `moves` from `from` (the first of the highest fitness), if it is at least
/// as fit and, when only as fit, not seen before; with the grading runs it took.
fn best_move(
    template: &Shaper,
    from: &Climbed,
    moves: &[(usize, usize)],
    seen: &HashSet<BitVec>,
    seed: u64,
    stream: u64,
    control: &SearchControl,
) -> (Option<Climbed>, u64) {
    let results: Vec<(Option<Climbed>, u64)> = moves
        .par_iter()
        .enumerate()
        .map_init(
            || template.clone(),
            |shaper, (i, &(g, a))| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(stream | i as u64);
                let before = shaper.trials;
                let r = swap(shaper, &from.cells, g, a, &mut rng, control);
                (r, shaper.trials - before)
            },
        )
        .collect();
    let runs = results.iter().map(|r| r.1).sum::<u64>();
    let mut next: Option<Climbed> = None;
    for (r, _) in results {
        let Some(r) = r else { continue };
        let better = match &next {
            None => r.fitness >= from.fitness,
            Some(n) => r.fitness > n.fitness,
        };
        if better && (r.fitness > from.fitness || !seen.contains(&genome(&r.cells))) {
            next = Some(r);
        }
    }
    (next, runs)
}

/// One swap move: blank orbit `g`, give orbit `a`, and if the techniques still solve the
/// puzzle, blank the orbits that became redundant (in a random order, `a` last).
fn swap(
    shaper: &mut Shaper,
    cells: &[u8],
    g: usize,
    a: usize,
    rng: &mut ChaCha8Rng,
    control: &SearchControl,
) -> Option<Climbed> {
    let mut trial = cells.to_vec();
    shaper.set(&mut trial, g, false);
    shaper.set(&mut trial, a, true);
    let solved = shaper.grade(&trial);
    if !solved.is_solved() {
        return None;
    }
    let mut order: Vec<usize> = (0..shaper.orbits.len())
        .filter(|&k| k != a && shaper.is_given(&trial, k))
        .collect();
    order.shuffle(rng);
    order.push(a);
    shaper.blank_while_solved(&mut trial, &order, control);
    // The grade of the last orbit blanked, or, when none was, the trial is as solved.
    let grade = shaper.last_solved.take().unwrap_or(solved);
    let level = grade.level.expect("blanking keeps the puzzle solved");
    Some(Climbed {
        fitness: fitness(shaper.shape(), level, grade.steps),
        level,
        steps: grade.steps,
        cells: trial,
        grade,
        grading_runs: 0,
    })
}

fn genome(cells: &[u8]) -> BitVec {
    cells.iter().map(|&v| v != 0).collect()
}
