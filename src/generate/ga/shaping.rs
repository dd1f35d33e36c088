//! The shaping (repair) step of the genetic algorithm, step 5 of the [module
//! documentation](super), and the fitness of its result: each genome becomes a symmetric
//! puzzle that techniques `1..=L_t` solve, without redundant givens (or as many tries as
//! the budget allows), shaped in parallel with one random stream per child.

use bitvec::vec::BitVec;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{GaConfig, Individual, fitness};
use crate::generate::expand::Shaper;
use crate::grid::{Grid, Shape};
use crate::solve::SearchControl;

/// The cells of `solution` that `genome` gives, `0` elsewhere.
pub(super) fn puzzle_cells(solution: &Grid, genome: &BitVec) -> Vec<u8> {
    solution
        .cells()
        .iter()
        .zip(genome.iter())
        .map(|(&v, given)| if *given { v } else { 0 })
        .collect()
}

/// Shapes and grades `genomes` in parallel; child `i` of `generation` draws from its own
/// stream, so the result does not depend on the thread count. Once `control` says stop,
/// the genomes not yet started are left out, so the result can be shorter than `genomes`
/// (never empty when they are not); which ones are kept then depends on timing and the
/// thread count.
pub(super) fn evaluate(
    template: &Shaper,
    genomes: Vec<(BitVec, Option<BitVec>)>,
    config: &GaConfig,
    generation: u32,
    control: &SearchControl,
    grading_runs: &mut u64,
) -> Vec<Individual> {
    let results: Vec<(Individual, u64)> = genomes
        .into_par_iter()
        .enumerate()
        .map_init(
            || template.clone(),
            |shaper, (i, (genome, parent))| {
                // Once stopped, genomes not yet started are left out (the first is always
                // shaped, so the population is never empty): the caller stops after this
                // generation, and a large one is not worth finishing.
                if i > 0 && control.should_stop() {
                    return None;
                }
                let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
                rng.set_stream((u64::from(generation) << 24 | i as u64) + 64);
                let before = shaper.trials;
                let ind = shape_genome(shaper, &genome, parent.as_ref(), config, control, &mut rng);
                Some((ind, shaper.trials - before))
            },
        )
        .flatten()
        .collect();
    *grading_runs += results.iter().map(|r| r.1).sum::<u64>();
    results.into_iter().map(|r| r.0).collect()
}

/// The shaping (repair) step and the fitness of its result.
fn shape_genome(
    shaper: &mut Shaper,
    genome: &BitVec,
    parent: Option<&BitVec>,
    config: &GaConfig,
    control: &SearchControl,
    rng: &mut ChaCha8Rng,
) -> Individual {
    let shape = shaper.shape();
    let mut cells = vec![0u8; shape.cells()];
    // Symmetry: each orbit follows the majority of its bits.
    for k in 0..shaper.orbits.len() {
        let orbit = &shaper.orbits[k];
        let ones = orbit.iter().filter(|&&c| genome[c as usize]).count();
        let given = match (2 * ones).cmp(&orbit.len()) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => rng.gen_bool(0.5),
        };
        if given {
            shaper.set(&mut cells, k, true);
        }
    }
    // Solvable by techniques 1..=L_t.
    let solved = shaper.add_until_solved(&mut cells, rng, control);
    // No redundant givens (or as many tries as the budget allows).
    let mut order: Vec<usize> = (0..shaper.orbits.len())
        .filter(|&k| shaper.is_given(&cells, k))
        .collect();
    order.shuffle(rng);
    let mut budget = config.drop_trials;
    match parent {
        // Orbits the parent did not have go last: tried first, they would mostly just
        // undo the mutation (the parent was minimal without them).
        Some(parent) if budget.is_none() => {
            order.sort_by_key(|&k| !parent[shaper.orbits[k][0] as usize]);
        }
        // With a budget, the parent's orbits that share a house with a changed cell come
        // first: a given becomes redundant through what changed near it.
        Some(parent) => {
            let near = houses_near_changes(shape, &cells, parent);
            let n = shape.side();
            let is_near = |k: usize| {
                shaper.orbits[k].iter().any(|&c| {
                    let (r, col) = (c as usize / n, c as usize % n);
                    near[r] || near[n + col] || near[2 * n + shape.block_of(r, col)]
                })
            };
            order.sort_by_key(|&k| (!parent[shaper.orbits[k][0] as usize], !is_near(k)));
        }
        // The full grid's shaping is a complete expansion, whatever the budget: the run
        // then never does worse than expansion.
        None if genome.all() => budget = None,
        None => {}
    }
    if let Some(t) = budget {
        order.truncate(t);
    }
    shaper.blank_while_solved(&mut cells, &order, control);
    // The grade of the last orbit blanked, or, when none was, the cells are as solved.
    let g = shaper.last_solved.take().unwrap_or(solved);
    let level = g.level.expect("shaping leaves a solved puzzle");
    Individual {
        genome: cells.iter().map(|&v| v != 0).collect(),
        fitness: fitness(shape, level, g.steps),
        level,
        steps: g.steps,
        grade: g,
        climbed: false,
    }
}

/// Which houses (rows `0..n`, columns `n..2n`, blocks `2n..3n`) hold a cell whose
/// given/blank state differs between `cells` and `parent`.
fn houses_near_changes(shape: Shape, cells: &[u8], parent: &BitVec) -> Vec<bool> {
    let n = shape.side();
    let mut near = vec![false; 3 * n];
    for (c, &v) in cells.iter().enumerate() {
        if (v != 0) != parent[c] {
            let (r, col) = (c / n, c % n);
            near[r] = true;
            near[n + col] = true;
            near[2 * n + shape.block_of(r, col)] = true;
        }
    }
    near
}
