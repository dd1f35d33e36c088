//! Making grids and puzzles.
//!
//! [`fill`] produces full random grids (blank-grid solutions). [`generate`] turns one into a
//! puzzle with a **proven** unique solution, the Schedule Nurse post's procedure made
//! automatic: visit the cells (or symmetric orbits, see [`symmetry`]) in random order, blank
//! each tentatively, and keep the blank only when the removal is proven safe.
//!
//! # The proof
//!
//! Let `P` be the current puzzle, unique with solution `S`, and `P'` = `P` with orbit `O`
//! blanked. A solution of `P'` that agrees with `S` on `O` is a solution of `P`, hence `S`;
//! so `P'` is unique iff for every cell `c ∈ O` no solution of `P'` has `c ≠ S[c]`.
//!
//! 1. **Propagation** (`propagate.rs`): naked and hidden singles from `P'` to a fixpoint;
//!    every `c ∈ O` that is not already fixed is then refuted separately by excluding
//!    `S[c]` and propagating to a contradiction. No search, microseconds at 9×9.
//! 2. **A small search** when propagation is silent (unless the fallback is
//!    [`Fallback::None`]): branch on the cell with fewest candidates, propagating at every
//!    node, for at most 64 branches per refutation. Finding a completion refutes the removal.
//! 3. **DLX** when that is not enough: count the solutions of `P'` up to 2, on a matrix
//!    restricted to the givens' eliminations. Complete when `fallback` is
//!    [`Fallback::Full`]; capped at a node budget with [`Fallback::Bounded`].
//!
//! A removal that is neither proven nor refuted keeps its givens, so every puzzle returned
//! is unique by construction. A refuted orbit stays refuted as more cells are blanked (a
//! puzzle with fewer givens has at least the solutions of one with more), so one pass with
//! complete proofs gives a minimal puzzle; [`Target::Minimal`] then re-checks every remaining
//! orbit to guarantee it.
//!
//! # Parallelism and determinism
//!
//! Orbits are checked in batches, one per thread, all against the current puzzle. The first
//! success in the batch is accepted; the failures before it are final (they were checked
//! against the same puzzle a sequential run would have used); the orbits after it go back to
//! the queue. The result is therefore the sequential result, whatever the thread count: the
//! same seed gives the same puzzle (a time limit can cut a run short at a different point).

pub mod fill;
pub(crate) mod propagate;
pub mod symmetry;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::dlx::{SearchControl, SolveLimits, Solver};
use crate::grid::{Grid, Puzzle, Shape};
use fill::{FillConfig, Filler};
use propagate::Propagator;
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
    /// A DLX count to 2, giving up after this many nodes.
    Bounded(u64),
    /// A complete DLX count to 2.
    Full,
}

/// How to generate a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// Seed for the grid and the order of removals.
    pub seed: u64,
    /// Symmetry of the pattern of givens.
    pub symmetry: Symmetry,
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
    /// Removal checks made.
    pub checks: u64,
    /// Removals proven safe by propagation alone.
    pub by_propagation: u64,
    /// Removals proven safe by a small search with propagation at every node.
    pub by_search: u64,
    /// Removals proven safe by a DLX count.
    pub by_dlx: u64,
    /// Removals refuted (a second solution was found).
    pub refuted: u64,
    /// Removals neither proven nor refuted (givens kept).
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
    Dlx,
    Refuted,
    Unproven,
}

impl Check {
    fn is_safe(self) -> bool {
        matches!(self, Check::Propagation | Check::Search | Check::Dlx)
    }
}

/// Branches a propagation search may take for one refutation before the DLX fallback.
const PROPAGATION_SEARCH_BUDGET: u64 = 64;

/// In propagation-only runs, a refutation gives up after `FIXES_PER_SIDE × n` fixed cells
/// without a contradiction. Measured at 64×64 and 100×100 (seed 1, rot180): `8n` keeps the
/// givens within 1% of the uncapped run (66.0% against 65.4% at 100×100) for 7× less time
/// (3.0 s against 22.9 s); `2n` costs 9 points of givens.
const FIXES_PER_SIDE: usize = 8;

/// Per-thread buffers for checks.
struct Worker {
    fix_budget: usize,
    prop: Propagator,
    cand: Vec<u128>,
    trial: Vec<u128>,
    child: Vec<u128>,
    cells: Vec<u8>,
}

impl Worker {
    fn new(shape: Shape) -> Worker {
        Worker {
            fix_budget: FIXES_PER_SIDE * shape.side(),
            prop: Propagator::new(shape),
            cand: Vec::new(),
            trial: Vec::new(),
            child: Vec::new(),
            cells: Vec::new(),
        }
    }

    /// With `self.trial` a propagated state in which cell `c` lost its solution symbol:
    /// whether placing each remaining candidate of `c` propagates to a contradiction.
    fn refute_each_value(&mut self, c: usize) -> bool {
        let mut rest = self.trial[c];
        if rest & (rest - 1) == 0 {
            // A single left that propagation did not refute: it is consistent so far.
            return false;
        }
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            self.child.clear();
            self.child.extend_from_slice(&self.trial);
            self.child[c] = bit;
            if self.prop.propagate_changed(&mut self.child, &[c]) {
                return false;
            }
        }
        true
    }

    /// Is blanking `orbit` in `puzzle` (unique, solved by `solution`) safe?
    fn check(
        &mut self,
        shape: Shape,
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
        // Propagation-only runs (the big sizes) cap each refutation's cascade: a refutation
        // that has not hit a contradiction after this many fixed cells rarely does, and the
        // failures were most of the time. The cap only ever keeps a given.
        self.prop.fix_budget = match fallback {
            Fallback::None => self.fix_budget,
            _ => usize::MAX,
        };
        let mut proven = true;
        let mut searched = false;
        for &c in orbit {
            let c = c as usize;
            let bit = 1u128 << (solution[c] - 1);
            self.trial.clear();
            self.trial.extend_from_slice(&self.cand);
            self.trial[c] &= !bit;
            if !self.prop.propagate_with(&mut self.trial, Some(&self.cells)) {
                continue;
            }
            if fallback == Fallback::None {
                proven = false;
                break;
            }
            // Split on the cell itself: every other symbol it could take must fail. (At
            // 25×25 and up this proved almost nothing more for ten times the work, so
            // propagation-only runs skip it.)
            if self.refute_each_value(c) {
                continue;
            }
            // Propagation is silent: a small search with propagation at every node.
            let mut budget = PROPAGATION_SEARCH_BUDGET;
            searched = true;
            match self.prop.search(&self.trial, &mut budget) {
                Some(false) => {}
                Some(true) => return Check::Refuted,
                None => {
                    proven = false;
                    break;
                }
            }
        }
        if proven {
            return if searched {
                Check::Search
            } else {
                Check::Propagation
            };
        }
        let node_limit = match fallback {
            Fallback::None => return Check::Unproven,
            Fallback::Bounded(n) => n,
            Fallback::Full => u64::MAX,
        };
        let p = Puzzle::new(shape, self.cells.clone()).expect("cells come from a valid grid");
        let mut solver = Solver::with_candidates(&p, &self.cand)
            .expect("a puzzle taken from a valid grid has no repeated givens");
        let limits = SolveLimits {
            node_limit,
            keep: 0,
            ..SolveLimits::count_up_to(2)
        };
        let o = solver.solve_with(&limits, control);
        match (o.count, o.complete) {
            (c, _) if c >= 2 => Check::Refuted,
            (1, true) => Check::Dlx,
            _ => Check::Unproven,
        }
    }
}

/// Generates a puzzle of `shape` with a unique solution.
///
/// Returns `None` only if interrupted before the grid was filled.
///
/// ```
/// use shiftgrid::{Shape, dlx::{SearchControl, Solver, SolveLimits}};
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
    match deadline {
        None => generate_until(shape, config, control, control, start, None),
        Some(deadline) => {
            // Searches poll one flag; a watcher raises it at the deadline (or on Ctrl-C),
            // so a long DLX check stops on time instead of finishing first.
            let inner = SearchControl {
                interrupt: Arc::new(AtomicBool::new(false)),
                ..control.clone()
            };
            let finished = AtomicBool::new(false);
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    while !finished.load(Ordering::Relaxed) {
                        if Instant::now() >= deadline || control.interrupt.load(Ordering::Relaxed) {
                            inner.interrupt.store(true, Ordering::Relaxed);
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                });
                let r = generate_until(shape, config, &inner, control, start, Some(deadline));
                finished.store(true, Ordering::Relaxed);
                r
            })
        }
    }
}

/// [`generate`] with searches watching `search` and the run stopping on `user`'s interrupt
/// or at `deadline`.
fn generate_until(
    shape: Shape,
    config: &GenerateConfig,
    search: &SearchControl,
    user: &SearchControl,
    start: Instant,
    deadline: Option<Instant>,
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
    let mut queue: VecDeque<Vec<u32>> = orbits.into();
    let mut kept: Vec<Vec<u32>> = Vec::new();
    let mut stats = GenerateStats {
        fill_micros,
        ..GenerateStats::default()
    };
    let fallback = if config.target == Target::Minimal {
        Fallback::Full
    } else {
        config.fallback
    };
    let batch = match config.check_threads {
        0 => rayon::current_num_threads(),
        t => t,
    }
    .max(1);
    let stop_early = |givens: usize| -> bool {
        control.interrupt.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
            || matches!(config.target, Target::Givens(k) if givens <= k)
    };
    let mut stopped_early = false;
    let sol = solution.cells();
    let mut serial_worker = Worker::new(shape);
    while !queue.is_empty() {
        if stop_early(givens) {
            stopped_early = !matches!(config.target, Target::Givens(k) if givens <= k);
            break;
        }
        let take = batch.min(queue.len());
        let trial: Vec<Vec<u32>> = queue.drain(..take).collect();
        let results: Vec<Check> = if take == 1 {
            vec![serial_worker.check(shape, &puzzle, sol, &trial[0], fallback, control)]
        } else {
            trial
                .par_iter()
                .map_init(
                    || Worker::new(shape),
                    |w, orbit| w.check(shape, &puzzle, sol, orbit, fallback, control),
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
                Check::Dlx => stats.by_dlx += 1,
                Check::Refuted => stats.refuted += 1,
                Check::Unproven => stats.unproven += 1,
            }
            if result.is_safe() {
                for &c in orbit {
                    puzzle[c as usize] = 0;
                }
                givens -= orbit.len();
            } else {
                kept.push(orbit.clone());
            }
        }
        for orbit in trial.into_iter().skip(settled).rev() {
            queue.push_front(orbit);
        }
        control.checks.store(stats.checks, Ordering::Relaxed);
        control.givens.store(givens as u64, Ordering::Relaxed);
    }
    if (user.interrupt.load(Ordering::Relaxed) || control.interrupt.load(Ordering::Relaxed))
        && !queue.is_empty()
    {
        stopped_early = true;
    }
    // Minimal: every kept orbit must have been refuted by a complete search, and the
    // final pass re-checks that against the final puzzle.
    let minimal = config.target == Target::Minimal && !stopped_early && queue.is_empty() && {
        let mut w = Worker::new(shape);
        kept.iter().all(|orbit| {
            w.check(shape, &puzzle, sol, orbit, Fallback::Full, control) == Check::Refuted
        })
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
}
