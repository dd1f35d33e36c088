//! A genetic algorithm that makes puzzles of a chosen technique level `L_t` with long
//! solving paths: the generator the difficulty paper (Ishida et al., summarised in
//! `../shared/REFERENCES.md`) proposes, made concrete.
//!
//! # The algorithm
//!
//! The full grid is fixed for a run (filled from the seed). An individual is a **genome** of
//! one bit per cell, `1` = given, `0` = blank, stored as a [`BitVec`]. The initial
//! population spans densities: one genome is the full grid (its shaping is a plain
//! expansion), the others keep each cell with a probability from 20% to 80%. Each
//! generation:
//!
//! 1. **Elitism**: the best [`GaConfig::elite`] individuals pass unchanged.
//! 2. **Selection**: a parent is the fittest of [`GaConfig::tournament`] individuals drawn
//!    at random.
//! 3. **Crossover** (with probability [`GaConfig::crossover`], else the child copies one
//!    parent): two-point over the symmetry's orbits, listed by their first cell in
//!    row-major order. Whole orbits come from one parent, so crossing two symmetric
//!    parents gives a symmetric child, and runs of rows travel together (a region's givens
//!    work as a unit). Crossing cells rather than orbits cost 1–2 steps of mean `S` at
//!    9×9 with point symmetry: the two cells of an orbit came from different parents and
//!    the shaping had to pick one at random.
//! 4. **Mutation**: 1 to [`GaConfig::mutations`] random orbits flip (given ↔ blank).
//! 5. **Shaping** (the paper's repair step), in parallel over the children:
//!    *symmetry*: each orbit becomes given or blank by the majority of its bits (ties at
//!    random); *solvable*: while techniques `1..=L_t` do not fill the grid, orbits of cells
//!    they left blank are given back, at random; *no redundant givens*: the given orbits
//!    are tried in a random order, the parent's first, and blanked when techniques
//!    `1..=L_t` still solve without them (the expansion step of [`super::expand`]). Trying
//!    the orbits the mutation added last makes a mutation a swap (a parent's given goes,
//!    the new one stays) rather than an undo. The shaped puzzle is written back into the
//!    genome, so what the next generation inherits is a valid puzzle.
//! 6. **Fitness** of the shaped puzzle, graded with techniques `1..=L_t` only:
//!
//!    `f = k × L + S`, with `k = n³`.
//!
//!    This is the paper's formula with its constant chosen: `S` counts rounds that removed
//!    at least one of the `n³` candidates, so `S < n³` and a higher level always beats a
//!    longer path. After shaping `L ≤ L_t` (the techniques above `L_t` are not allowed),
//!    so the fitness asks for **exactly** `L_t` first and, among puzzles of the same
//!    level, for the longest path. A smaller `k` would let a long easy puzzle beat a short
//!    one of the target level, and the target level is what the user asked for.
//! 7. **Local search** (memetic step, `climb.rs`): whenever the best individual of the
//!    population is new, up to [`GaConfig::climb_rounds`] rounds of swap moves (one given
//!    orbit out, one blank orbit in, then the redundancy step) move it to the fittest
//!    neighbour that is at least as fit, with at most [`GaConfig::climb_plateau`]
//!    equal-fitness moves in a row; the climbed puzzle replaces it in the population.
//!    Fitness is unchanged: the climb only picks among puzzles the shaping could also
//!    make. At 9×9 without symmetry it raised the mean `S` over 10 seeds at `L_t` = 4..8
//!    by 1.1 to 2.3 steps (to 27.1, 26.3, 24.1, 25.3, 29.0), enough to beat the paper's
//!    commercial means at every level; with point symmetry it moved them by less than a
//!    step either way (README has both tables). Crossover and mutation rarely land on the
//!    one swap that lengthens the path.
//! 8. **Restart**: after [`GaConfig::restart_after`] generations without a better best,
//!    the population starts over from fresh genomes; the best so far is kept aside. Runs
//!    stall on one local optimum within a few dozen generations, and at 9×9 fresh starts
//!    gave about one step more of mean `S` than running on.
//!
//! Every shaped individual is solved by the techniques, so it is unique (see
//! [`super::expand`]: sound eliminations that fill the grid leave one solution); the best
//! one is returned with its grade. From 49×49 up the redundancy step tries only
//! [`GaConfig::drop_trials`] orbits per shaping (each grading run costs milliseconds
//! there), so puzzles keep givens that could go; so does a shaping that a time limit cut
//! short.
//!
//! The generation loop is here; the genetic operators (steps 2 to 4) are in `operators.rs`,
//! the shaping and fitness (steps 5 and 6) in `shaping.rs`, the local search in `climb.rs`.
//!
//! # Determinism
//!
//! Selection, crossover and mutation draw from one ChaCha8 stream; the shaping of child
//! `i` in generation `g` draws from its own stream, derived from the seed, `g` and `i`, and
//! results are gathered in index order; so does each move of the local search, which
//! takes the first best move in a fixed order. So the same seed gives the same puzzle whatever
//! the thread count. A time limit or an interrupt cuts the run at a point that depends on
//! timing (the best puzzle found so far is returned, still unique and solved at its
//! level).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bitvec::vec::BitVec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use self::climb::{ClimbConfig, climb};
use self::operators::{crossover, initial_genomes, mutate, tournament};
use self::shaping::{evaluate, puzzle_cells};
use super::expand::{Shaper, fill_for_seed};
use super::{GridKind, Symmetry};
use crate::grade::{Grade, MAX_LEVEL};
use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::SearchControl;

/// How to run the genetic algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaConfig {
    /// Seed of the grid and of every random choice.
    pub seed: u64,
    /// The target level `L_t` (1..8, values outside clamped as
    /// [`GradeOptions::max_level`](crate::grade::GradeOptions::max_level) is): puzzles are
    /// shaped and graded with techniques `1..=L_t`.
    pub level: u8,
    /// Symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// The kind of full grid the population is made over.
    pub grid: GridKind,
    /// Individuals per generation (fewer than 2 count as 2).
    pub population: usize,
    /// Generations after the initial one.
    pub generations: u32,
    /// Individuals copied unchanged into the next generation.
    pub elite: usize,
    /// Individuals drawn per parent selection; the fittest is the parent. At least 1 and
    /// at most the population (more draws only make the best more certain).
    pub tournament: usize,
    /// Restart from fresh genomes after this many generations without a better best.
    pub restart_after: Option<u32>,
    /// Probability that a child is a crossover of two parents rather than a copy of one
    /// (clamped to `0..=1`; NaN counts as 0).
    pub crossover: f64,
    /// A child flips between 1 and this many orbits (at most the number of orbits).
    pub mutations: usize,
    /// Given orbits tried by the redundancy step of one shaping (`None`: all of them).
    /// From 49×49 up, trying all costs thousands of grading runs per individual.
    pub drop_trials: Option<usize>,
    /// Stop after this long with the best puzzle so far. With [`evolve`] the time counts
    /// from the start, the grid's fill included (which it never cuts short); with
    /// [`evolve_grid`] from the start of the evolution. Too far off to represent is no
    /// limit.
    pub time_limit: Option<Duration>,
    /// Rounds of the local search (swap moves) run on each new best individual of the
    /// population (0: none; see the module docs).
    pub climb_rounds: u32,
    /// Equal-fitness moves in a row the local search may take.
    pub climb_plateau: u32,
}

impl GaConfig {
    /// Defaults for a size and a target level, measured to fit a run in seconds at 9×9 and
    /// about a minute at 25×25 on two cores (README has the figures).
    pub fn for_shape(shape: Shape, seed: u64, level: u8) -> GaConfig {
        let (population, generations, restart_after, drop_trials) = match shape.box_size() {
            0..=3 => (48, 300, Some(20), None),
            4 => (32, 60, Some(15), None),
            5 => (24, 30, Some(10), None),
            6..=7 => (12, 10, None, Some(400)),
            _ => (8, 6, None, Some(400)),
        };
        // A round of the local search grades every given × blank swap: a few hundred
        // puzzles at 9×9, thousands of slower ones from 16×16 up, where it would take
        // most of a run's budget.
        let climb_rounds = if shape.box_size() <= 3 { 50 } else { 0 };
        GaConfig {
            seed,
            level: level.clamp(1, MAX_LEVEL),
            symmetry: Symmetry::Rot180,
            grid: GridKind::Random,
            population,
            generations,
            elite: 2,
            tournament: 3,
            crossover: 0.5,
            restart_after,
            mutations: (symmetry_orbits(shape) / 16).clamp(2, 64),
            drop_trials,
            time_limit: None,
            climb_rounds,
            climb_plateau: 10,
        }
    }
}

/// Rot180 orbits of a shape, for sizing mutations.
fn symmetry_orbits(shape: Shape) -> usize {
    shape.cells().div_ceil(2)
}

/// Counters a progress display can read while a run goes on (the library never draws).
/// Clones share the counters.
#[derive(Clone, Debug, Default)]
pub struct GaProgress {
    /// Generations finished (the initial population is generation 0).
    pub generation: Arc<AtomicU64>,
    /// Best fitness so far.
    pub best_fitness: Arc<AtomicU64>,
    /// Level of the best individual.
    pub best_level: Arc<AtomicU64>,
    /// Step count of the best individual.
    pub best_steps: Arc<AtomicU64>,
    /// Mean fitness of the last generation, times 1000.
    pub mean_fitness_milli: Arc<AtomicU64>,
    /// Individuals shaped and graded so far.
    pub evaluations: Arc<AtomicU64>,
}

/// One generation's summary, for the fitness history.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct GenerationRecord {
    /// Generation number (0 = the initial population).
    pub generation: u32,
    /// Best fitness so far (a restart can leave the population below it).
    pub best: u64,
    /// Mean fitness of the population.
    pub mean: f64,
    /// Level `L` of the best individual so far.
    pub best_level: u8,
    /// Step count `S` of the best individual so far.
    pub best_steps: u32,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Evolved {
    /// The best puzzle: solved by techniques `1..=L_t`, so unique.
    pub puzzle: Puzzle,
    /// Its solution, the run's fixed grid.
    pub solution: Grid,
    /// Its grade with techniques `1..=L_t` (the same as with all techniques when the
    /// level is `L_t` or below, which it always is).
    pub grade: Grade,
    /// Its fitness `n³ × L + S`.
    pub fitness: u64,
    /// Best and mean fitness per generation.
    pub history: Vec<GenerationRecord>,
    /// Individuals shaped and graded.
    pub evaluations: u64,
    /// Grading runs, shaping included.
    pub grading_runs: u64,
    /// Whether a time limit or an interrupt ended the run before the last generation.
    pub stopped_early: bool,
    /// Microseconds in total, the fill included.
    pub micros: u64,
}

/// The fitness of a puzzle of `shape` graded at level `level` with `steps` steps:
/// `n³ × level + steps` (see the module docs for why).
pub fn fitness(shape: Shape, level: u8, steps: u32) -> u64 {
    let n = shape.side() as u64;
    n * n * n * u64::from(level) + u64::from(steps)
}

#[derive(Clone, Debug)]
struct Individual {
    genome: BitVec,
    fitness: u64,
    level: u8,
    steps: u32,
    /// Its grade (with techniques `1..=L_t`), kept so that the best is not graded again
    /// at the end: at 100×100 that took a fifth of a second after Ctrl-C.
    grade: Grade,
    /// Whether the local search already ran from this genome.
    climbed: bool,
}

/// Fills a grid from `config.seed` and evolves puzzles over it (see the module docs).
///
/// Returns `None` only if interrupted before the grid was filled.
///
/// ```
/// use shiftgrid::{Shape, solve::SearchControl};
/// use shiftgrid::generate::ga::{evolve, GaConfig};
/// let shape = Shape::new(3).unwrap();
/// let cfg = GaConfig { generations: 5, population: 8, ..GaConfig::for_shape(shape, 1, 4) };
/// let e = evolve(shape, &cfg, &SearchControl::default(), None).unwrap();
/// assert!(e.grade.is_solved() && e.grade.level.unwrap() <= 4);
/// assert_eq!(e.history.len(), 6);
/// ```
pub fn evolve(
    shape: Shape,
    config: &GaConfig,
    control: &SearchControl,
    progress: Option<&GaProgress>,
) -> Option<Evolved> {
    let start = Instant::now();
    // The time limit counts the fill too (0.2 s at 100×100), but never cuts it: without a
    // grid there is no puzzle to return.
    let solution = fill_for_seed(shape, config.seed, config.grid, control)?;
    let control = control
        .clone()
        .with_deadline(config.time_limit.and_then(|d| start.checked_add(d)));
    let mut e = evolve_grid(&solution, config, &control, progress);
    e.micros = start.elapsed().as_micros() as u64;
    Some(e)
}

/// Evolves puzzles over the fixed grid `solution` (see the module docs).
pub fn evolve_grid(
    solution: &Grid,
    config: &GaConfig,
    control: &SearchControl,
    progress: Option<&GaProgress>,
) -> Evolved {
    let start = Instant::now();
    let shape = solution.shape();
    let control = control
        .clone()
        .with_deadline(config.time_limit.and_then(|d| start.checked_add(d)));
    let template = Shaper::new(solution, config.symmetry, config.level);
    let cells = shape.cells();
    let pop_size = config.population.max(2);
    let elite = config.elite.min(pop_size - 1);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(11);

    let genomes = initial_genomes(cells, pop_size, &mut rng, &control);
    let mut evaluations = 0u64;
    let mut grading_runs = 0u64;
    let mut pop = evaluate(&template, genomes, config, 0, &control, &mut grading_runs);
    evaluations += pop.len() as u64;
    let mut history = Vec::new();
    let mut stopped_early = false;
    let mut best_ever: Option<Individual> = None;
    let mut since_improvement = 0u32;
    for generation in 0..=config.generations {
        // Best first; ties keep the earlier index, so the order is reproducible.
        pop.sort_by_key(|i| std::cmp::Reverse(i.fitness));
        if config.climb_rounds > 0 && !pop[0].climbed && !control.should_stop() {
            let cells = puzzle_cells(solution, &pop[0].genome);
            let cfg = ClimbConfig {
                rounds: config.climb_rounds,
                plateau: config.climb_plateau,
            };
            let stream = 1 << 63 | u64::from(generation) << 40;
            let start = pop[0].grade.clone();
            let c = climb(
                &template,
                &cells,
                start,
                &cfg,
                config.seed,
                stream,
                &control,
            );
            grading_runs += c.grading_runs;
            pop[0] = Individual {
                genome: c.cells.iter().map(|&v| v != 0).collect(),
                fitness: c.fitness,
                level: c.level,
                steps: c.steps,
                grade: c.grade,
                climbed: true,
            };
        }
        if best_ever
            .as_ref()
            .is_none_or(|b| pop[0].fitness > b.fitness)
        {
            best_ever = Some(pop[0].clone());
            since_improvement = 0;
        } else {
            since_improvement += 1;
        }
        let record = summarise(&pop, best_ever.as_ref().expect("set above"), generation);
        history.push(record);
        if let Some(p) = progress {
            p.generation.store(u64::from(generation), Ordering::Relaxed);
            p.best_fitness.store(record.best, Ordering::Relaxed);
            p.best_level
                .store(u64::from(record.best_level), Ordering::Relaxed);
            p.best_steps
                .store(u64::from(record.best_steps), Ordering::Relaxed);
            p.mean_fitness_milli
                .store((record.mean * 1000.0) as u64, Ordering::Relaxed);
            p.evaluations.store(evaluations, Ordering::Relaxed);
        }
        // A stop during the last generation cut its shaping short too: checked first.
        if control.should_stop() {
            stopped_early = true;
            break;
        }
        if generation == config.generations {
            break;
        }
        if config.restart_after.is_some_and(|r| since_improvement >= r) {
            // Stagnation: start over from fresh genomes; the best so far is kept aside.
            since_improvement = 0;
            let genomes = initial_genomes(cells, pop_size, &mut rng, &control);
            pop = evaluate(
                &template,
                genomes,
                config,
                generation + 1,
                &control,
                &mut grading_runs,
            );
            evaluations += pop.len() as u64;
            continue;
        }
        let mut children: Vec<(BitVec, Option<BitVec>)> = Vec::with_capacity(pop_size - elite);
        while children.len() < pop_size - elite {
            let a = tournament(&pop, config.tournament, &mut rng);
            let p = if config.crossover.is_nan() {
                0.0
            } else {
                config.crossover.clamp(0.0, 1.0)
            };
            let mut child = if rng.gen_bool(p) {
                let b = tournament(&pop, config.tournament, &mut rng);
                crossover(&pop[a].genome, &pop[b].genome, &template, &mut rng)
            } else {
                pop[a].genome.clone()
            };
            mutate(&mut child, &template, config.mutations, &mut rng);
            children.push((child, Some(pop[a].genome.clone())));
        }
        let elites: Vec<Individual> = pop.drain(..elite).collect();
        let mut next = evaluate(
            &template,
            children,
            config,
            generation + 1,
            &control,
            &mut grading_runs,
        );
        evaluations += next.len() as u64;
        // Children first: the stable sort then ranks a child above an elite of equal
        // fitness, so the population drifts along plateaus of equal (L, S).
        next.extend(elites);
        pop = next;
    }
    let best = best_ever.expect("one generation at least");
    let cells = puzzle_cells(solution, &best.genome);
    // The techniques' grid is the solution: the puzzle is unique because they fill it.
    assert!(
        best.grade.is_solved() && best.grade.cells == solution.cells(),
        "an evolved puzzle is filled by the techniques, to its grid"
    );
    Evolved {
        puzzle: Puzzle::new(shape, cells).expect("cells come from a valid grid"),
        solution: solution.clone(),
        grade: best.grade,
        fitness: best.fitness,
        history,
        evaluations,
        grading_runs,
        stopped_early,
        micros: start.elapsed().as_micros() as u64,
    }
}

fn summarise(pop: &[Individual], best: &Individual, generation: u32) -> GenerationRecord {
    GenerationRecord {
        generation,
        best: best.fitness,
        mean: pop.iter().map(|i| i.fitness as f64).sum::<f64>() / pop.len() as f64,
        best_level: best.level,
        best_steps: best.steps,
    }
}

mod climb;
mod operators;
mod shaping;
#[cfg(test)]
mod tests;
