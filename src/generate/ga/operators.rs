//! The genetic operators of the algorithm, steps 2 to 4 of the [module
//! documentation](super), and the initial population: tournament selection, two-point
//! crossover over orbits, mutation by flipping orbits, and fresh genomes spanning densities.
//! All draw from the run's one ChaCha8 stream.

use bitvec::vec::BitVec;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Individual;
use crate::generate::expand::Shaper;
use crate::solve::SearchControl;

/// The index of the fittest of `size` individuals drawn at random (`pop` is sorted best
/// first, so the smallest index drawn wins).
pub(super) fn tournament(pop: &[Individual], size: usize, rng: &mut ChaCha8Rng) -> usize {
    // More draws than individuals only make the best more certain: at most that many, so
    // that a huge size cannot hold the run past its time limit.
    (0..size.clamp(1, pop.len().max(1)))
        .map(|_| rng.gen_range(0..pop.len()))
        .min()
        .expect("at least one draw")
}

/// Two-point crossover over the orbits in the order of their smallest cell (row-major
/// order of the cells when there is no symmetry): a whole orbit comes from one parent, so
/// crossing never breaks the symmetry that both parents have.
pub(super) fn crossover(a: &BitVec, b: &BitVec, shaper: &Shaper, rng: &mut ChaCha8Rng) -> BitVec {
    let len = shaper.orbits.len();
    let mut cut = [rng.gen_range(0..=len), rng.gen_range(0..=len)];
    cut.sort_unstable();
    let mut child = a.clone();
    for orbit in &shaper.orbits[cut[0]..cut[1]] {
        for &c in orbit {
            child.set(c as usize, b[c as usize]);
        }
    }
    child
}

/// Flips 1 to `max` random orbits.
pub(super) fn mutate(genome: &mut BitVec, shaper: &Shaper, max: usize, rng: &mut ChaCha8Rng) {
    // More flips than orbits only flip some back: at most that many (see `tournament`).
    let flips = rng.gen_range(1..=max.clamp(1, shaper.orbits.len().max(1)));
    for _ in 0..flips {
        let orbit = &shaper.orbits[rng.gen_range(0..shaper.orbits.len())];
        let given = genome[orbit[0] as usize];
        for &c in orbit {
            genome.set(c as usize, !given);
        }
    }
}

/// A fresh population spanning densities: genome 0 is the full grid (its shaping is a plain
/// expansion), the others keep each cell with a probability from 20% to 80%. Once `control`
/// says stop, no more are drawn (at least genome 0 is): a population of 100,000 at 100×100
/// takes seconds to draw, and the run stops after shaping what it has.
pub(super) fn initial_genomes(
    cells: usize,
    pop_size: usize,
    rng: &mut ChaCha8Rng,
    control: &SearchControl,
) -> Vec<(BitVec, Option<BitVec>)> {
    (0..pop_size)
        .take_while(|&i| i == 0 || !control.should_stop())
        .map(|i| {
            let keep = if i == 0 {
                1.0
            } else {
                0.2 + 0.6 * (i as f64 / pop_size as f64)
            };
            ((0..cells).map(|_| rng.gen_bool(keep)).collect(), None)
        })
        .collect()
}
