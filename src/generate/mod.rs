//! Making grids and puzzles.
//!
//! [`fill`] produces full random grids (blank-grid solutions). [`generate`] turns one into a
//! puzzle with a **proven** unique solution, the Schedule Nurse post's procedure made
//! automatic: visit the cells (or symmetric orbits, see [`symmetry`]) in a chosen
//! [`Order`], blank each tentatively, and keep the blank only when the removal is proven
//! safe.
//!
//! # The proof
//!
//! Let `P` be the current puzzle, unique with solution `S`, and `P'` = `P` with orbit `O`
//! blanked. A solution of `P'` that agrees with `S` on `O` is a solution of `P`, hence `S`;
//! so `P'` is unique iff for every cell `c ∈ O` no solution of `P'` has `c ≠ S[c]`.
//!
//! 1. **Propagation** (`propagate.rs`): each `c ∈ O` is refuted separately by excluding
//!    `S[c]` from the givens' candidates and propagating naked and hidden singles and
//!    locked candidates to a contradiction. No search, microseconds at 9×9.
//! 2. **A search** when propagation is silent (unless the fallback is [`Fallback::None`]):
//!    branch on the cell with fewest candidates (or the house–symbol with fewest places),
//!    propagating at every node, trying `S`'s symbols first, until a solution with
//!    `c ≠ S[c]` turns up (the removal is refuted) or the tree is exhausted (proven).
//!    Complete with [`Fallback::Full`]; capped at a number of branches with
//!    [`Fallback::Bounded`].
//!
//! A removal that is neither proven nor refuted keeps its givens, so every puzzle returned
//! is unique by construction. A refuted orbit stays refuted as more cells are blanked (a
//! puzzle with fewer givens has at least the solutions of one with more), so one pass with
//! complete proofs gives a minimal puzzle; [`Target::Minimal`] then re-checks every remaining
//! orbit to guarantee it.
//!
//! # Where the blanks go
//!
//! Propagation proves a removal when the cells around it pin it down. With a random order
//! the blanks spread evenly and, past a density that grows with the size, almost no removal
//! can be proven: 47% givens stay at 25×25 and 66% at 100×100. [`Order::Sweep`] blanks row
//! by row instead: the blanks grow as one region whose edge the dense rest pins down, and
//! far fewer givens stay (43% and 59% with the default point symmetry, 39% and 55% with
//! none). README has the table.
//!
//! # Parallelism and determinism
//!
//! Orbits are checked in batches, one per thread, all against the current puzzle. The first
//! success in the batch is accepted; the failures before it are final (they were checked
//! against the same puzzle a sequential run would have used); the orbits after it go back to
//! the queue. The result is therefore the sequential result, whatever the thread count: the
//! same seed gives the same puzzle (a time limit can cut a run short at a different point).

pub mod expand;
pub mod fill;
pub mod ga;
pub mod symmetry;

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::SearchControl;
use crate::solve::propagate::{Propagator, SearchLimits};
use fill::{FillConfig, Filler};
pub use symmetry::Symmetry;

/// When to stop blanking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Try every orbit once.
    Pass,
    /// Stop at this many givens or fewer (or report the lowest reached).
    Givens(usize),
    /// Blank until no orbit can be removed, with complete proofs, and verify it.
    Minimal,
}

/// What to do when propagation cannot prove a removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Keep the givens.
    None,
    /// A search with propagation at every node, giving up after this many branches per
    /// blanked cell.
    Bounded(u64),
    /// A complete search.
    Full,
}

/// The order in which orbits are tried.
///
/// Propagation proves a removal when the cells around it pin it down, so where the blanks
/// are matters as much as how many there are. Measured over 6 seeds (propagation proofs,
/// no symmetry): a random order leaves 44.0% givens at 25×25, a sweep 39.4%; at 36×36,
/// 48.6% against 43.1%. See README for every size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Row by row, in a random order within each row; symmetric orbits go with their last
    /// row, so a symmetric pattern grows from the middle rows outward. The blanks form one
    /// region whose edge the dense rest of the grid pins down, and it leaves far fewer
    /// givens than a random order. Puzzles are sparse on one side (the top, or the middle
    /// rows with a symmetry) and dense on the other.
    #[default]
    Sweep,
    /// A uniformly random order: blanks spread evenly over the grid.
    Random,
}

/// How to generate a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// Seed for the grid and the order of removals.
    pub seed: u64,
    /// Symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// The order in which orbits are tried.
    pub order: Order,
    /// When to stop.
    pub target: Target,
    /// What backs propagation up.
    pub fallback: Fallback,
    /// Stop with the best puzzle so far after this long.
    pub time_limit: Option<Duration>,
    /// Removal checks run in parallel per batch; `0` means one per rayon thread. The
    /// puzzle does not depend on it. Use `1` when generating many puzzles in parallel.
    pub check_threads: usize,
}

impl GenerateConfig {
    /// The defaults for a size: minimal puzzles with complete proofs up to 16×16, where that
    /// is cheap; above, one pass of propagation proofs only, which keeps every size fast
    /// (searches barely lower the givens there for many times the work: see README).
    pub fn for_shape(shape: Shape, seed: u64) -> GenerateConfig {
        let small = shape.box_size() <= 4;
        GenerateConfig {
            seed,
            symmetry: Symmetry::Rot180,
            order: Order::Sweep,
            target: if small { Target::Minimal } else { Target::Pass },
            fallback: if small {
                Fallback::Full
            } else {
                Fallback::None
            },
            time_limit: None,
            check_threads: 0,
        }
    }
}

/// Counters of a generation run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GenerateStats {
    /// Removal checks made. A minimal run from 25×25 up checks an orbit twice when the
    /// propagation pass leaves it unproven: once there, once with a complete search.
    pub checks: u64,
    /// Removals proven safe by propagation alone.
    pub by_propagation: u64,
    /// Removals proven safe by a search with propagation at every node.
    pub by_search: u64,
    /// Removals refuted (a second solution was found).
    pub refuted: u64,
    /// Checks that neither proved nor refuted their removal (givens kept, or re-checked
    /// by the complete pass of a minimal run).
    pub unproven: u64,
    /// Microseconds spent filling the grid.
    pub fill_micros: u64,
    /// Microseconds in total.
    pub micros: u64,
}

/// A generated puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle; its solution is unique by construction.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// Whether every remaining orbit was shown necessary by a complete search.
    pub minimal: bool,
    /// Whether the run stopped early (time limit or interrupt).
    pub stopped_early: bool,
    /// Counters.
    pub stats: GenerateStats,
}

/// How one removal check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Propagation,
    Search,
    Refuted,
    Unproven,
}

impl Check {
    fn is_safe(self) -> bool {
        matches!(self, Check::Propagation | Check::Search)
    }
}

/// Unless proofs must be complete, a refutation gives up after `FIXES_PER_SIDE × n` fixed
/// cells without a contradiction. Measured with the random order at 100×100 (seed 1,
/// rot180): `8n` kept the givens within 1% of the uncapped run for 7× less time; `2n`
/// cost 9 points of givens. With the sweep order the cap changes neither the givens nor,
/// much, the time (2.7 s against 2.8 s at 100×100), and it bounds the worst case.
const FIXES_PER_SIDE: usize = 8;

/// Branches of the first, short search per cell when propagation is silent.
const QUICK_SEARCH_NODES: u64 = 256;

/// Per-thread buffers for checks.
struct Worker {
    fix_budget: usize,
    prop: Propagator,
    cand: Vec<u128>,
    trial: Vec<u128>,
    cells: Vec<u8>,
}

impl Worker {
    fn new(shape: Shape) -> Worker {
        Worker {
            fix_budget: FIXES_PER_SIDE * shape.side(),
            prop: Propagator::new(shape),
            cand: Vec::new(),
            trial: Vec::new(),
            cells: Vec::new(),
        }
    }

    /// Is blanking `orbit` in `puzzle` (unique, solved by `solution`) safe?
    fn check(
        &mut self,
        puzzle: &[u8],
        solution: &[u8],
        orbit: &[u32],
        fallback: Fallback,
        control: &SearchControl,
    ) -> Check {
        self.cells.clear();
        self.cells.extend_from_slice(puzzle);
        for &c in orbit {
            self.cells[c as usize] = 0;
        }
        // Sound candidates for the blanked puzzle, then one refutation per orbit cell:
        // exclude its solution symbol and propagate to a contradiction. Each refutation
        // starts from the givens' eliminations, so its work is only the cascade it causes.
        self.prop.eliminated(&self.cells, &mut self.cand);
        // Each refutation's cascade is capped: one that has not hit a contradiction after
        // this many fixed cells rarely does, and such failures were most of the work at the
        // big sizes. The cap only ever keeps a given (no search follows a cut cascade).
        self.prop.fix_budget = match fallback {
            Fallback::Full => usize::MAX,
            _ => self.fix_budget,
        };
        let node_limit = match fallback {
            Fallback::None => 0,
            Fallback::Bounded(n) => n,
            Fallback::Full => u64::MAX,
        };
        // Cells that propagation could not refute, each with its propagated state.
        let mut pending: Vec<Vec<u128>> = Vec::new();
        for &c in orbit {
            let c = c as usize;
            let bit = 1u128 << (solution[c] - 1);
            self.trial.clear();
            self.trial.extend_from_slice(&self.cand);
            self.trial[c] &= !bit;
            if !self.prop.propagate_with(&mut self.trial, Some(&self.cells)) {
                continue;
            }
            if node_limit == 0 || self.prop.budget_ran_out() {
                return Check::Unproven;
            }
            pending.push(self.trial.clone());
        }
        if pending.is_empty() {
            return Check::Propagation;
        }
        // Propagation is silent: search for a solution with `c` ≠ its symbol, propagating
        // at every node and trying the known solution's symbols first (a second solution
        // usually turns up within a few dozen branches). Every cell gets a short search
        // first, so an orbit refuted through its second cell does not wait for a long
        // proof on its first.
        for limit in [node_limit.min(QUICK_SEARCH_NODES), node_limit] {
            let mut open = Vec::new();
            for state in pending {
                let r = self.prop.search_from(
                    state.clone(),
                    &SearchLimits {
                        cap: 1,
                        keep: 0,
                        node_limit: limit,
                        control,
                        prefer: Some(solution),
                    },
                );
                if r.count > 0 {
                    return Check::Refuted;
                }
                if !r.complete {
                    open.push(state);
                }
            }
            pending = open;
            if pending.is_empty() {
                return Check::Search;
            }
        }
        Check::Unproven
    }
}

/// Generates a puzzle of `shape` with a unique solution.
///
/// Returns `None` only if interrupted before the grid was filled.
///
/// ```
/// use shiftgrid::{Shape, solve::{dlx::Solver, SearchControl, SolveLimits}};
/// use shiftgrid::generate::{generate, GenerateConfig};
/// let shape = Shape::new(3).unwrap();
/// let g = generate(shape, &GenerateConfig::for_shape(shape, 5), &SearchControl::default())
///     .unwrap();
/// let count = Solver::new(&g.puzzle).unwrap().solve(&SolveLimits::count_up_to(2)).count;
/// assert_eq!(count, 1);
/// assert!(g.minimal);
/// ```
pub fn generate(
    shape: Shape,
    config: &GenerateConfig,
    control: &SearchControl,
) -> Option<Generated> {
    let start = Instant::now();
    let deadline = config.time_limit.map(|d| start + d);
    // Searches poll the deadline themselves, so a long check stops on time instead of
    // finishing first.
    let search = control.clone().with_deadline(deadline);
    generate_until(shape, config, &search, control, start)
}

/// [`generate`] with searches watching `search` (the user's control with the run's
/// deadline) and the fill watching only `user`'s interrupt.
fn generate_until(
    shape: Shape,
    config: &GenerateConfig,
    search: &SearchControl,
    user: &SearchControl,
    start: Instant,
) -> Option<Generated> {
    let control = search;
    // Two fill workers whatever the thread count: the grid depends only on the seed.
    let fill_cfg = FillConfig {
        workers: 2,
        ..FillConfig::new(config.seed)
    };
    // The grid is filled even past the deadline (it takes at most about a second), so a
    // time-limited run always has a puzzle to return; only Ctrl-C stops it.
    let filled = Filler::empty(shape)
        .fill(&fill_cfg, user)
        .expect("the empty board always has a completion")?;
    let fill_micros = start.elapsed().as_micros() as u64;
    let solution = filled.grid;
    let mut puzzle: Vec<u8> = solution.cells().to_vec();
    let mut givens = puzzle.len();
    control.givens.store(givens as u64, Ordering::Relaxed);

    let mut orbits = config.symmetry.orbits(shape);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(1);
    orbits.shuffle(&mut rng);
    if config.order == Order::Sweep {
        // Row by row (stable: random within a row); an orbit goes with its last row, so a
        // symmetric pattern grows from the middle rows outward.
        let n = shape.side() as u32;
        orbits.sort_by_key(|o| o.iter().map(|&c| c / n).max());
    }
    let mut queue: VecDeque<Vec<u32>> = orbits.into();
    // Orbits whose removal was refuted (final), and those left unproven (retried by a
    // later stage, if any).
    let mut kept: Vec<Vec<u32>> = Vec::new();
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
        vec![
            Fallback::None,
            Fallback::Bounded(1_000),
            Fallback::Bounded(30_000),
            Fallback::Full,
        ]
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
    .max(1);
    let stop_early = |givens: usize| -> bool {
        control.should_stop() || matches!(config.target, Target::Givens(k) if givens <= k)
    };
    let mut stopped_early = false;
    let sol = solution.cells();
    let mut serial_worker = Worker::new(shape);
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
        let take = batch.min(queue.len());
        let trial: Vec<Vec<u32>> = queue.drain(..take).collect();
        let results: Vec<Check> = if take == 1 {
            vec![serial_worker.check(&puzzle, sol, &trial[0], fallback, control)]
        } else {
            trial
                .par_iter()
                .map_init(
                    || Worker::new(shape),
                    |w, orbit| w.check(&puzzle, sol, orbit, fallback, control),
                )
                .collect()
        };
        // Accept the first safe removal; everything before it failed against the same
        // puzzle a sequential run would have seen; everything after it is re-queued.
        let first_safe = results.iter().position(|r| r.is_safe());
        let settled = first_safe.map_or(take, |k| k + 1);
        for (orbit, result) in trial.iter().zip(&results).take(settled) {
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
                }
                givens -= orbit.len();
            } else if *result == Check::Refuted {
                kept.push(orbit.clone());
            } else {
                unproven.push(orbit.clone());
            }
        }
        for orbit in trial.into_iter().skip(settled).rev() {
            queue.push_front(orbit);
        }
        control.checks.store(stats.checks, Ordering::Relaxed);
        control.givens.store(givens as u64, Ordering::Relaxed);
    }
    if (user.should_stop() || control.should_stop()) && !queue.is_empty() {
        stopped_early = true;
    }
    kept.append(&mut unproven);
    // Minimal: every kept orbit must have been refuted by a complete search, and the
    // final pass re-checks that against the final puzzle.
    let minimal = config.target == Target::Minimal && !stopped_early && queue.is_empty() && {
        let mut w = Worker::new(shape);
        kept.iter()
            .all(|orbit| w.check(&puzzle, sol, orbit, Fallback::Full, control) == Check::Refuted)
    };
    stats.micros = start.elapsed().as_micros() as u64;
    let puzzle = Puzzle::new(shape, puzzle).expect("cells come from a valid grid");
    Some(Generated {
        puzzle,
        solution,
        minimal,
        stopped_early,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{SolveLimits, dlx::Solver};

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

    #[test]
    fn same_seed_same_puzzle_for_any_thread_count() {
        let shape = Shape::new(3).unwrap();
        let cfg = GenerateConfig::for_shape(shape, 42);
        let run = |t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
                .install(|| generate(shape, &cfg, &SearchControl::default()).unwrap())
        };
        let a = run(1);
        for t in [2, 3, 8] {
            assert_eq!(run(t).puzzle, a.puzzle, "threads {t}");
        }
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

    /// A complete count to 2 by the propagation engine (plain DLX is slow at 25x25).
    fn engine_count(p: &Puzzle) -> crate::solve::Outcome {
        crate::solve::propagate::count(p, &SolveLimits::count_up_to(2), &SearchControl::default())
            .unwrap()
    }

    #[test]
    fn sweep_leaves_fewer_givens_than_random_and_both_are_unique() {
        // The reason the sweep is the default (module docs), on fixed seeds at 25x25.
        let shape = Shape::new(5).unwrap();
        let mut total = [0usize; 2];
        for seed in 0..3 {
            for (k, order) in [Order::Sweep, Order::Random].into_iter().enumerate() {
                let cfg = GenerateConfig {
                    order,
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
            time_limit: Some(Duration::from_millis(300)),
            ..GenerateConfig::for_shape(shape, 2)
        };
        let g = generate(shape, &cfg, &SearchControl::default()).unwrap();
        assert_eq!(engine_count(&g.puzzle).count, 1);
        // The propagation pass alone gets below half the cells.
        assert!(g.puzzle.givens() < shape.cells() / 2);
        assert!(g.stats.checks > 0);
    }
}
