//! Blank-grid solutions: full random grids of every size from an empty board.
//!
//! [`fill_grid`] runs one randomised band-restart search per worker (see `dlx/fill.rs` for
//! the search itself and what made it fast). Worker `w` commits to the `w`-th option of the
//! first item, so the workers split the tree at its root into disjoint subtrees (by symbol
//! relabelling every root branch is equally rich), and draws from its own ChaCha8 stream
//! (`seed`, stream `w`). A grid from the empty board then has its symbols renamed by a
//! permutation drawn from the seed, since the lowest worker, which usually wins, always
//! starts from the first symbol.
//!
//! **Determinism.** Workers run in rounds of [`FillConfig::round_nodes`] nodes. After each
//! round the lowest-numbered worker that finished wins; workers numbered above a finished
//! one stop at once, those below it finish their round. A worker's progress within a round
//! depends only on its seed, so the grid depends only on the seed and the number of
//! workers, never on timing. [`FillConfig::new`] uses [`DEFAULT_WORKERS`], so a seed gives
//! the same grid everywhere; `shiftgrid fill` uses one worker per thread, so the same
//! `--seed` with the same `--threads` gives the same grid and a different thread count a
//! different (equally random) grid.
//!
//! **Scaling.** Workers share nothing but two atomics polled once per round and the
//! read-only plan; each owns its matrix copy (67 MB at 100×100). With W workers the
//! time to the first grid is the minimum of W independent heavy-tailed run times, which
//! keeps falling as cores are added until it meets the cost of a search with no dead ends.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::dlx::fill::{FillPlan, FillSearch, FillStatus};
use crate::solve::dlx::sudoku::Encoding;
use crate::solve::{SearchControl, dlx::FillStats};

/// Nodes a worker searches between updates of the shared counters and polls of the
/// interrupt flag (about a millisecond at 100x100).
const PUBLISH_NODES: u64 = 1024;

/// The most workers a fill runs, whatever [`FillConfig::workers`] asks for (as the CLI's
/// `--threads`).
pub const MAX_WORKERS: usize = 256;

/// The memory that the search matrices of [`FillConfig::workers`] `0` stay within: 1 GiB,
/// at [`MATRIX_BYTES_PER_OPTION`] per option (N³ options at N×N).
pub const AUTO_WORKERS_BYTES: u64 = 1 << 30;

/// The memory a worker's search matrix takes per option, measured (67 MB at 100×100).
pub const MATRIX_BYTES_PER_OPTION: u64 = 67;

/// The workers of [`FillConfig::workers`] `0` at `shape`: one per rayon thread, no more
/// than keep their matrices within [`AUTO_WORKERS_BYTES`], at least one.
pub fn auto_workers(shape: Shape) -> usize {
    let matrix = MATRIX_BYTES_PER_OPTION * (shape.side() as u64).pow(3);
    let fit = usize::try_from(AUTO_WORKERS_BYTES / matrix).unwrap_or(usize::MAX);
    rayon::current_num_threads().min(fit).clamp(1, MAX_WORKERS)
}

/// How to fill a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillConfig {
    /// The run's seed: the same seed and worker count give the same grid.
    pub seed: u64,
    /// Parallel workers (root subtrees); `0` means one per rayon thread, but no more than
    /// keep the matrices within [`AUTO_WORKERS_BYTES`] (16 at 100×100), so that a large
    /// pool does not multiply the memory of one call. At most [`MAX_WORKERS`] are used
    /// (each holds a search matrix, 67 MB at 100×100).
    pub workers: usize,
    /// Nodes each worker searches between synchronisation points (0 counts as 1).
    pub round_nodes: u64,
}

/// [`FillConfig::new`] with seed 0.
impl Default for FillConfig {
    fn default() -> FillConfig {
        FillConfig::new(0)
    }
}

/// The workers of [`FillConfig::new`]: a fixed count, so that a seed gives the same grid on
/// every machine and thread pool.
pub const DEFAULT_WORKERS: usize = 2;

impl FillConfig {
    /// Defaults for `seed`: [`DEFAULT_WORKERS`] workers (the same grid for the seed
    /// everywhere; set `workers: 0` for one per rayon thread, faster on many cores but a
    /// grid that depends on the thread count), rounds of 32 768 nodes.
    pub fn new(seed: u64) -> FillConfig {
        FillConfig {
            seed,
            workers: DEFAULT_WORKERS,
            round_nodes: 1 << 15,
        }
    }
}

/// A filled grid and how it was found.
#[derive(Clone, Debug)]
pub struct Filled {
    /// The grid, checked valid by [`Grid::new`].
    pub grid: Grid,
    /// The winning worker's counters.
    pub stats: FillStats,
    /// Nodes searched by all workers together.
    pub total_nodes: u64,
    /// Which worker found the grid.
    pub winner: usize,
    /// Number of workers.
    pub workers: usize,
    /// Time to build the exact-cover matrix (shared by every fill of one [`Filler`]).
    pub build_time: Duration,
    /// Wall-clock time of the fill plus the build time.
    pub elapsed: Duration,
}

/// Fills an empty board of `shape` with a random valid grid.
///
/// Returns `None` only when `control` stops it: interrupted, or past its deadline.
///
/// ```
/// use shiftgrid::{Shape, solve::SearchControl, generate::fill::{fill_grid, FillConfig}};
/// let shape = Shape::new(3).unwrap();
/// let a = fill_grid(shape, &FillConfig::new(7), &SearchControl::default()).unwrap();
/// let b = fill_grid(shape, &FillConfig::new(7), &SearchControl::default()).unwrap();
/// assert_eq!(a.grid, b.grid); // same seed, same workers: same grid
/// ```
pub fn fill_grid(shape: Shape, config: &FillConfig, control: &SearchControl) -> Option<Filled> {
    complete(&Puzzle::empty(shape), config, control)
        .ok()
        .flatten()
}

/// Completes `puzzle` with a random solution (the empty puzzle gives a blank-grid solution).
///
/// Returns `Ok(None)` when `control` stops it (interrupted, or past its deadline), and an
/// error when the givens repeat a symbol in a house or have no completion at all.
///
/// # Errors
/// [`FillError::Grid`] for repeated givens; [`FillError::NoCompletion`] when the search
/// exhausts.
pub fn complete(
    puzzle: &Puzzle,
    config: &FillConfig,
    control: &SearchControl,
) -> Result<Option<Filled>, FillError> {
    Filler::new(puzzle)?.fill(config, control)
}

/// A board prepared for filling: build it once, then fill it as often as needed (the
/// exact-cover matrix of a 100×100 board takes about 0.1 s to build; `--count` reuses it).
pub struct Filler {
    plan: FillPlan,
    givens: usize,
    build_time: Duration,
}

impl std::fmt::Debug for Filler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filler")
            .field("givens", &self.givens)
            .field("build_time", &self.build_time)
            .finish_non_exhaustive()
    }
}

impl Filler {
    /// Prepares `puzzle` (usually empty) for filling.
    ///
    /// # Errors
    /// [`FillError::Grid`] when the givens repeat a symbol in a house.
    pub fn new(puzzle: &Puzzle) -> Result<Filler, FillError> {
        let start = Instant::now();
        puzzle.check().map_err(FillError::Grid)?;
        let plan = FillPlan::new(Encoding::new(puzzle));
        Ok(Filler {
            plan,
            givens: puzzle.givens(),
            build_time: start.elapsed(),
        })
    }

    /// Prepares the empty board of `shape`.
    pub fn empty(shape: Shape) -> Filler {
        Filler::new(&Puzzle::empty(shape)).expect("the empty board has no repeated givens")
    }

    /// One random completion. `Ok(None)` when interrupted through `control`.
    ///
    /// # Errors
    /// [`FillError::NoCompletion`] when the givens admit no full grid.
    pub fn fill(
        &self,
        config: &FillConfig,
        control: &SearchControl,
    ) -> Result<Option<Filled>, FillError> {
        if control.should_stop() {
            return Ok(None);
        }
        let start = Instant::now();
        let plan = &self.plan;
        let shape = plan.enc.shape;
        let (givens, build_time) = (self.givens, self.build_time);
        let workers = if config.workers == 0 {
            auto_workers(shape)
        } else {
            config.workers
        }
        .clamp(1, MAX_WORKERS);
        // Root splitting is safe only on the empty board, where every root branch has solutions;
        // with givens, every worker searches the whole tree from its own seed.
        let split = workers > 1 && givens == 0;
        let mut searches: Vec<FillSearch<'_>> = (0..workers)
            .into_par_iter()
            .map(|w| {
                let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
                rng.set_stream(w as u64);
                FillSearch::new(plan, rng, split.then_some(w))
            })
            .collect();
        let mut exhausted = vec![false; workers];
        loop {
            if control.should_stop() {
                return Ok(None);
            }
            let winner = AtomicUsize::new(usize::MAX);
            // The lowest worker the deadline or Ctrl-C cut short in this round.
            let cut = AtomicUsize::new(usize::MAX);
            let paced_out = AtomicBool::new(false);
            let round = |(w, s): (usize, &mut FillSearch<'_>)| {
                if exhausted[w] || winner.load(Ordering::Relaxed) < w {
                    return FillStatus::Budget;
                }
                // The round runs in slices that publish the counters (for progress
                // bars) and poll Ctrl-C and the deadline; slicing does not change the
                // search. A worker stops early once a lower one has a grid (its own
                // result can no longer matter).
                let mut left = config.round_nodes.max(1);
                let mut status = FillStatus::Budget;
                while left > 0 {
                    let slice = left.min(PUBLISH_NODES);
                    let (nodes0, restarts0) = (s.stats.nodes, s.stats.restarts);
                    status = s.run(slice);
                    left -= slice;
                    control
                        .nodes
                        .fetch_add(s.stats.nodes - nodes0, Ordering::Relaxed);
                    control
                        .restarts
                        .fetch_add(s.stats.restarts - restarts0, Ordering::Relaxed);
                    control.placed.fetch_max(s.stats.deepest, Ordering::Relaxed);
                    if status != FillStatus::Budget || winner.load(Ordering::Relaxed) < w {
                        break;
                    }
                    if control.should_stop() {
                        cut.fetch_min(w, Ordering::Relaxed);
                        break;
                    }
                    // In a race (one worker): the end of an epoch, and the wait for
                    // the other engines.
                    if workers == 1 && control.paced_stop(s.stats.nodes) {
                        paced_out.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                if status == FillStatus::Solved {
                    winner.fetch_min(w, Ordering::Relaxed);
                }
                status
            };
            // One worker (as in a race) runs on the calling thread: it may wait at the
            // race's barrier, which must not hold a thread of the pool that other puzzles
            // of a batch need.
            let statuses: Vec<FillStatus> = if workers == 1 {
                searches.iter_mut().enumerate().map(round).collect()
            } else {
                searches.par_iter_mut().enumerate().map(round).collect()
            };
            // A grid found is returned when every worker before the winner ran its round
            // out: the same winner as without the stop. Otherwise the winner would depend
            // on timing, and the stop yields no grid.
            let w = winner.load(Ordering::Relaxed);
            let settled = w != usize::MAX && cut.load(Ordering::Relaxed) > w;
            if paced_out.load(Ordering::Relaxed) || (control.should_stop() && !settled) {
                return Ok(None);
            }
            for (w, status) in statuses.iter().enumerate() {
                if *status == FillStatus::Exhausted {
                    exhausted[w] = true;
                }
            }
            if w != usize::MAX {
                let s = &searches[w];
                let mut cells = s.cells();
                if givens == 0 {
                    relabel(&mut cells, shape, config.seed);
                }
                let grid = Grid::new(shape, cells)
                    .expect("a completed exact cover of the sudoku matrix is a valid grid");
                return Ok(Some(Filled {
                    grid,
                    stats: s.stats,
                    total_nodes: searches.iter().map(|s| s.stats.nodes).sum(),
                    winner: w,
                    workers,
                    build_time,
                    elapsed: start.elapsed() + build_time,
                }));
            }
            if exhausted.iter().all(|&e| e) {
                return Err(FillError::NoCompletion);
            }
        }
    }
}

/// The stream of the seed's generator that draws [`relabel`]'s permutation (workers use
/// streams `0..`[`MAX_WORKERS`]).
const RELABEL_STREAM: u64 = u64::MAX;

/// Renames the symbols of a grid from the empty board by a permutation drawn from `seed`.
/// The search's own grids are not symmetric in the symbols: worker `w` commits to the
/// `w`-th symbol of the first cell, and the lowest worker that finishes wins, so with two
/// workers the top-left cell was 1 in nearly every grid (200,000 of 200,000 generated
/// 9×9 puzzles). Renamed at random, every cell holds each symbol equally often, and
/// whatever depends only on the grid's structure (givens, levels) is unchanged.
fn relabel(cells: &mut [u8], shape: Shape, seed: u64) {
    use rand::seq::SliceRandom;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(RELABEL_STREAM);
    let mut to: Vec<u8> = (1..=shape.side() as u8).collect();
    to.shuffle(&mut rng);
    for v in cells.iter_mut().filter(|v| **v != 0) {
        *v = to[usize::from(*v) - 1];
    }
}

/// Why a board cannot be completed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FillError {
    /// The givens break a rule.
    #[error(transparent)]
    Grid(crate::GridError),
    /// The givens are consistent cell by cell but admit no full grid.
    #[error("the givens have no completion")]
    NoCompletion,
}

/// The seed of grid `index` in a batch run with `seed`: a SplitMix64 mix, so neighbouring
/// indices give unrelated streams.
pub fn batch_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_small_size_fills_for_twenty_seeds() {
        for b in 2..=5 {
            let shape = Shape::new(b).unwrap();
            for seed in 0..20 {
                let cfg = FillConfig {
                    workers: 1,
                    ..FillConfig::new(seed)
                };
                let f = fill_grid(shape, &cfg, &SearchControl::default()).unwrap();
                // Independent check again, explicitly.
                assert!(crate::grid::check_cells(shape, f.grid.cells()).is_ok());
                assert!(f.grid.cells().iter().all(|&v| v != 0));
            }
        }
    }

    /// One per rayon thread, but a large pool does not multiply the memory of one call
    /// past 1 GiB of matrices: 16 at 100×100 in a pool of 32.
    #[test]
    fn automatic_workers_keep_their_matrices_within_a_gigabyte() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(32)
            .build()
            .unwrap();
        let at = |b| pool.install(|| auto_workers(Shape::new(b).unwrap()));
        assert_eq!(at(10), 16);
        assert_eq!(at(9), 30);
        assert_eq!(at(3), 32);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(one.install(|| auto_workers(Shape::new(10).unwrap())), 1);
    }

    /// With root splitting the top-left cell once held 1 in nearly every grid (worker 0
    /// commits to the first symbol and usually wins); renamed at random, each symbol
    /// holds it about as often (expected 30 of 270 each).
    #[test]
    fn every_symbol_starts_grids_about_as_often() {
        let shape = Shape::new(3).unwrap();
        let mut seen = [0u32; 10];
        for seed in 0..270 {
            let g = fill_grid(shape, &FillConfig::new(seed), &SearchControl::default()).unwrap();
            assert_eq!(g.workers, DEFAULT_WORKERS);
            seen[usize::from(g.grid.cells()[0])] += 1;
        }
        assert!(
            seen[1..].iter().all(|&k| (12..=55).contains(&k)),
            "{seen:?}"
        );
    }

    #[test]
    fn same_seed_same_grid_for_each_worker_count() {
        let shape = Shape::new(4).unwrap();
        for workers in [1, 2, 3] {
            let cfg = FillConfig {
                workers,
                round_nodes: 64,
                ..FillConfig::new(11)
            };
            let a = fill_grid(shape, &cfg, &SearchControl::default()).unwrap();
            let b = fill_grid(shape, &cfg, &SearchControl::default()).unwrap();
            assert_eq!(a.grid, b.grid, "workers {workers}");
            assert_eq!(a.winner, b.winner);
        }
    }

    #[test]
    fn rounds_of_zero_nodes_still_fill() {
        // It used to loop for ever: no worker searched a node.
        let cfg = FillConfig {
            round_nodes: 0,
            ..FillConfig::new(3)
        };
        let f = fill_grid(Shape::new(3).unwrap(), &cfg, &SearchControl::default()).unwrap();
        assert!(crate::grid::check_cells(f.grid.shape(), f.grid.cells()).is_ok());
    }

    #[test]
    fn different_seeds_differ() {
        let shape = Shape::new(3).unwrap();
        let grids: std::collections::HashSet<_> = (0..20)
            .map(|s| {
                fill_grid(shape, &FillConfig::new(s), &SearchControl::default())
                    .unwrap()
                    .grid
            })
            .collect();
        assert!(grids.len() >= 19);
    }

    #[test]
    fn completes_a_puzzle_and_rejects_a_dead_one() {
        let shape = Shape::new(2).unwrap();
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[5] = 2;
        let p = Puzzle::new(shape, cells.clone()).unwrap();
        let f = complete(&p, &FillConfig::new(1), &SearchControl::default())
            .unwrap()
            .unwrap();
        assert!(p.is_completed_by(&f.grid));
        // Row 1 is 1 2 _ _ and column 3 holds 3 and 4 below: cell (1,3) has no candidate.
        let mut dead = vec![0u8; 16];
        dead[0] = 1;
        dead[1] = 2;
        dead[10] = 3;
        dead[14] = 4;
        let p = Puzzle::new(shape, dead).unwrap();
        assert_eq!(
            complete(&p, &FillConfig::new(1), &SearchControl::default()).unwrap_err(),
            FillError::NoCompletion
        );
    }

    #[test]
    fn batch_seeds_are_distinct() {
        let s: std::collections::HashSet<u64> = (0..1000).map(|i| batch_seed(42, i)).collect();
        assert_eq!(s.len(), 1000);
    }
}
