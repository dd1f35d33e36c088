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
//! The check (`prove.rs`) has two steps:
//!
//! 1. **Propagation** ([`crate::solve::propagate`]): each `c ∈ O` is refuted separately by
//!    excluding `S[c]` from the givens' candidates and propagating naked and hidden singles and
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
//! none), but the top of the grid ends sparse and the bottom dense (the emptiest band holds
//! 55–75% of the mean givens per band). [`Order::Bands`], the default, runs that sweep in
//! every band at once: each band's first rows are emptied against its own dense last rows,
//! every band and stack ends within a few percent of the mean, and it costs 1.5–2.5 points
//! of givens against the sweep from 25×25 up (45% at 25×25, 61% at 100×100 with the point
//! symmetry; about 1 point at 16×16 and none at 9×9).
//! README has the table.
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

mod blank;
mod improve;
mod prove;

use std::time::{Duration, Instant};

use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::SearchControl;
use blank::blank;
#[cfg(test)]
use blank::{house_cells, houses_of};
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
    Sweep,
    /// A uniformly random order: blanks spread evenly over the grid.
    Random,
    /// The sweep taken in every band at once: the first row of each band, then the second
    /// row of each band, and so on (random within a row). Each band is a small sweep, so
    /// its dense rows pin down its sparse ones, and every band and every stack ends up
    /// with about the same number of givens.
    #[default]
    Bands,
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
    /// What backs propagation up. Not used with [`Target::Minimal`], which needs complete
    /// proofs: it runs [`Fallback::Full`] (from 25×25 after a pass of
    /// [`Fallback::None`]).
    pub fallback: Fallback,
    /// Stop with the best puzzle so far after this long.
    pub time_limit: Option<Duration>,
    /// Removal checks run in parallel per batch; `0` means one per rayon thread, and at
    /// most [`fill::MAX_WORKERS`] are used. The puzzle does not depend on it. Use `1` when
    /// generating many puzzles in parallel.
    pub check_threads: usize,
    /// The kind of full grid the puzzle is made from.
    pub grid: GridKind,
    /// Rounds of local search after a minimal puzzle is reached (only with
    /// [`Target::Minimal`]): each gives back two blanked orbits and blanks again all it
    /// can with complete proofs, and is kept when it leaves no more givens and the givens
    /// as evenly spread. `0` stops at the first minimal puzzle: the default except at 25×25,
    /// where [`GenerateConfig::for_shape`] sets [`GenerateConfig::IMPROVE_25X25`]. README
    /// has what the rounds buy; a time limit or interrupt stops them with the best puzzle.
    /// The puzzle depends on the seed only; the counts of checks can differ with the
    /// thread count (on one thread a step's rounds share a learner, whose second solutions,
    /// and so the checks they spare, differ).
    pub improve: u32,
    /// Further rounds after those of [`GenerateConfig::improve`] (none without them), run
    /// only while the puzzle keeps more givens than wanted: [`MoreRounds::NONE`] but at
    /// 25×25 ([`GenerateConfig::for_shape`]).
    pub improve_more: MoreRounds,
    /// Keep a given in every row, column and box: an orbit whose removal would empty one
    /// is not blanked. The orders blank whole regions against a dense rest, so without it
    /// the rows visited first end empty (at 9×9 with the point symmetry, the middle row
    /// of every puzzle). Such orbits are checked at the end of a minimal run, so that
    /// [`Generated::minimal`] still says whether any given could go (it is `false` after
    /// any other run that held one back). Rounds of [`GenerateConfig::improve`] are
    /// skipped with it.
    pub every_house: bool,
}

/// Rounds of improvement that go on while a puzzle keeps too many givens: after the
/// [`GenerateConfig::improve`] rounds, two more at a time (as the rounds run) for as long
/// as more than `above_percent`% of the cells are givens, up to `rounds` more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoreRounds {
    /// The most rounds to add.
    pub rounds: u32,
    /// The share of givens, in percent of the cells, above which rounds are added.
    pub above_percent: u32,
}

impl MoreRounds {
    /// No rounds added.
    pub const NONE: MoreRounds = MoreRounds {
        rounds: 0,
        above_percent: 100,
    };

    /// Whether a puzzle of `givens` givens out of `cells` keeps more than wanted.
    pub fn wanted(self, givens: usize, cells: usize) -> bool {
        givens * 100 > self.above_percent as usize * cells
    }
}

/// The kind of full grid a puzzle is made from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GridKind {
    /// A random grid from [`fill`]'s search.
    #[default]
    Random,
    /// A random grid that the half turn maps onto itself with its symbols renamed in pairs (or kept),
    /// `S[n-1-r][n-1-c] = σ(S[r][c])` (an *automorphic* grid). With the point symmetry
    /// ([`Symmetry::Rot180`], or a symmetry that holds it: [`Symmetry::Rot90`],
    /// [`Symmetry::Dihedral`]; with the others it changes nothing) the two cells of a
    /// half-turn pair then pin down mirror images of the same alternatives, and puzzles keep fewer givens: minimal ones
    /// 2–3 points fewer (medians of seeds 1–5: 36.7% against 39.8% at 16×16, 41.6% against
    /// 43.8% at 25×25), one pass of propagation proofs about 4 (45.8% against 49.5% at
    /// 36×36, 55.1% against 59.1% at 81×81), and the paper's expansion too. The puzzle's
    /// solution has the symmetry too, which a solver who spots it can use (the centre cell
    /// holds the symbol σ fixes, and every placement gives its mirror: Gurth's symmetrical
    /// placement), so it is the default only at 25×25, where it is what brings the
    /// default puzzle under 40% givens ([`GenerateConfig::for_shape`]). The fill (the fill search on the quotient of
    /// the exact cover by the half turn) takes milliseconds up to 64×64 and under half a
    /// second at 81×81; at 100×100 it took from 30 s to 5 minutes, so the CLI stops at
    /// 81×81 ([`GridKind::HALF_TURN_MAX_BOX`]).
    HalfTurn,
}

impl GridKind {
    /// The largest box size the CLI fills [`GridKind::HalfTurn`] grids for (81×81).
    pub const HALF_TURN_MAX_BOX: usize = 9;
}

impl GenerateConfig {
    /// Rounds of [`GenerateConfig::improve`] in the 25×25 defaults.
    pub const IMPROVE_25X25: u32 = 16;
    /// Rounds added in the 25×25 defaults to a puzzle that keeps more than 40% givens
    /// after [`Self::IMPROVE_25X25`] rounds (3 of seeds 1–20 do).
    pub const MORE_25X25: MoreRounds = MoreRounds {
        rounds: 32,
        above_percent: 40,
    };

    /// The defaults for a size: minimal puzzles with complete proofs up to 25×25, where the
    /// learning engine makes that cheap (well under a second for the first minimal puzzle
    /// at 25×25); above, one pass of propagation proofs only, which keeps every size fast
    /// (complete proofs lower the givens there by about a point for tens of seconds at
    /// 36×36: see README).
    ///
    /// At 25×25 the puzzle is made from an automorphic grid ([`GridKind::HalfTurn`]) and
    /// improved by [`Self::IMPROVE_25X25`] rounds, then up to [`Self::MORE_25X25`] while
    /// above 40% givens: the givens keep the point symmetry and come to a median of 39.7%
    /// (39.0–40.6% over seeds 1–10 after 16 rounds) in a median of 7.6 s on two cores (the
    /// seeds that need more rounds, minutes), where a random grid's first minimal puzzle
    /// keeps 43.8% in 0.5 s. On a random grid the point symmetry costs about three points,
    /// and rounds there gain little for their time (24 rounds: 41.9% in a median of 59 s).
    /// Up to 16×16 the random grid stays: those are
    /// the sizes people solve by hand, where the automorphic grid's symmetric solution is a
    /// known short cut, and the first minimal puzzle is already at 35–40%.
    ///
    /// For another symmetry of the givens, start from [`GenerateConfig::with_symmetry`]:
    /// it drops the automorphic grid and the rounds where they do not pay.
    pub fn for_shape(shape: Shape, seed: u64) -> GenerateConfig {
        let small = shape.box_size() <= 5;
        let (grid, improve, improve_more) = if shape.box_size() == 5 {
            (GridKind::HalfTurn, Self::IMPROVE_25X25, Self::MORE_25X25)
        } else {
            (GridKind::Random, 0, MoreRounds::NONE)
        };
        GenerateConfig {
            seed,
            symmetry: Symmetry::Rot180,
            order: Order::Bands,
            target: if small { Target::Minimal } else { Target::Pass },
            fallback: if small {
                Fallback::Full
            } else {
                Fallback::None
            },
            time_limit: None,
            check_threads: 0,
            grid,
            improve,
            improve_more,
            every_house: false,
        }
    }
}

impl GenerateConfig {
    /// The defaults for a size ([`GenerateConfig::for_shape`]) with `symmetry` for the
    /// givens. A symmetry without the half turn gains nothing from the automorphic grid,
    /// and rounds on a random grid gain little for their time, so it gets a random grid and
    /// no rounds. The default rounds are for the point symmetry alone: with orbits of four
    /// cells ([`Symmetry::Rot90`], [`Symmetry::Dihedral`]) a round costs several times as
    /// much (25×25 rot90, seed 2: 2 rounds 5 s, 16 rounds over 10 minutes), so those keep
    /// the automorphic grid without rounds.
    ///
    /// ```
    /// use shiftgrid::Shape;
    /// use shiftgrid::generate::{GenerateConfig, GridKind, Symmetry};
    /// let shape = Shape::new(5).unwrap();
    /// let cfg = GenerateConfig::with_symmetry(shape, 1, Symmetry::None);
    /// assert_eq!((cfg.grid, cfg.improve), (GridKind::Random, 0));
    /// let cfg = GenerateConfig::with_symmetry(shape, 1, Symmetry::Rot90);
    /// assert_eq!((cfg.grid, cfg.improve), (GridKind::HalfTurn, 0));
    /// let cfg = GenerateConfig::with_symmetry(shape, 1, Symmetry::Rot180);
    /// assert_eq!((cfg.grid, cfg.improve), (GridKind::HalfTurn, 16));
    /// ```
    pub fn with_symmetry(shape: Shape, seed: u64, symmetry: Symmetry) -> GenerateConfig {
        let mut cfg = GenerateConfig::for_shape(shape, seed);
        cfg.symmetry = symmetry;
        if symmetry != Symmetry::Rot180 {
            cfg.improve = 0;
        }
        if !symmetry.has_half_turn() {
            cfg.grid = GridKind::Random;
        }
        cfg
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
    /// Rounds of local search finished ([`GenerateConfig::improve`]).
    pub rounds: u64,
    /// Givens of the first minimal puzzle, before any round (0 when no round ran).
    pub first_givens: u64,
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
    /// Whether every remaining orbit was shown necessary: each has a witness, a second
    /// solution of the final puzzle without it (found by a search, complete or bounded),
    /// checked by the grid checker. Never true when the run stopped before trying every
    /// orbit or left one unproven.
    pub minimal: bool,
    /// Whether the run stopped early (time limit or interrupt).
    pub stopped_early: bool,
    /// Counters.
    pub stats: GenerateStats,
}

/// Where an orbit goes in `order` (orbits are sorted by it, stably, after a shuffle):
/// [`Order::Sweep`] by its last row, so a symmetric pattern grows from the middle rows
/// outward; [`Order::Bands`] by its last row in band-interleaved order (row k of every band
/// before row k + 1 of any); [`Order::Random`] all alike.
pub(crate) fn order_key(order: Order, shape: Shape, orbit: &[u32]) -> u32 {
    let n = shape.side() as u32;
    let b = shape.box_size() as u32;
    let rows = orbit.iter().map(|&c| c / n);
    match order {
        Order::Sweep => rows.max().unwrap_or(0),
        Order::Bands => rows.map(|r| (r % b) * b + r / b).max().unwrap_or(0),
        Order::Random => 0,
    }
}

/// Generates a puzzle of `shape` with a unique solution.
///
/// Returns `None` only if interrupted before the grid was filled, or, for a half-turn
/// grid above 81×81 ([`GridKind::HALF_TURN_MAX_BOX`]), if the time limit passed first.
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
    // A limit too far off to represent is no limit.
    let deadline = config.time_limit.and_then(|d| start.checked_add(d));
    // Searches poll the deadline themselves, so a long check stops on time instead of
    // finishing first.
    let control = &control.clone().with_deadline(deadline);
    // The grid is filled even past the deadline (at most about a second at 100x100 on an
    // idle machine, 2 s seen on a busy one; a
    // half-turn grid above 81x81, minutes, is the exception), so a time-limited run always
    // has a puzzle to return; only Ctrl-C stops it.
    let solution = expand::fill_for_seed(shape, config.seed, config.grid, control)?;
    let fill_micros = start.elapsed().as_micros() as u64;
    Some(blank(solution, None, config, control, start, fill_micros))
}

/// Generates a puzzle whose unique solution is `solution` (a grid of the caller's: a
/// roster to publish the fewest shifts of), keeping every given of `keep` (shifts already
/// agreed) as a given: only the other cells are blanked, as [`generate`] blanks them
/// (`config.grid` is not used). With `keep`, [`Generated::minimal`] means that no other
/// given (orbit) can go; an orbit that holds a kept cell is kept whole.
///
/// ```
/// use shiftgrid::{Grid, Puzzle, Shape, solve::{dlx::Solver, SearchControl, SolveLimits}};
/// use shiftgrid::generate::{generate_from, GenerateConfig, Symmetry};
/// let grid: Grid = "1234341221434321".parse().unwrap();
/// let agreed: Puzzle = "1...............".parse().unwrap();
/// let cfg = GenerateConfig::with_symmetry(grid.shape(), 3, Symmetry::None);
/// let g = generate_from(&grid, Some(&agreed), &cfg, &SearchControl::default()).unwrap();
/// assert_eq!(g.solution, grid);
/// assert_eq!(g.puzzle.cells()[0], 1);
/// let count = Solver::new(&g.puzzle).unwrap().solve(&SolveLimits::count_up_to(2)).count;
/// assert_eq!(count, 1);
/// ```
///
/// # Errors
/// [`GenerateFromError`] when `keep` is of another size or a given of it disagrees with
/// `solution`.
pub fn generate_from(
    solution: &Grid,
    keep: Option<&Puzzle>,
    config: &GenerateConfig,
    control: &SearchControl,
) -> Result<Generated, GenerateFromError> {
    if let Some(k) = keep {
        if k.shape() != solution.shape() {
            return Err(GenerateFromError::Shape);
        }
        if let Some(i) =
            (0..k.cells().len()).find(|&i| k.cells()[i] != 0 && k.cells()[i] != solution.cells()[i])
        {
            let n = solution.shape().side();
            return Err(GenerateFromError::Disagrees {
                pos: crate::grid::Pos {
                    row: i / n,
                    col: i % n,
                },
            });
        }
    }
    let start = Instant::now();
    let deadline = config.time_limit.and_then(|d| start.checked_add(d));
    let control = &control.clone().with_deadline(deadline);
    Ok(blank(solution.clone(), keep, config, control, start, 0))
}

/// Why [`generate_from`] cannot use its grid and kept givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateFromError {
    /// The givens to keep are of another size than the grid.
    #[error("the givens to keep are of another size than the grid")]
    Shape,
    /// A given to keep is not the grid's symbol there.
    #[error("a given to keep at row {}, column {} is not the grid's symbol there", .pos.row + 1, .pos.col + 1)]
    Disagrees {
        /// Where (0-based).
        pos: crate::grid::Pos,
    },
}

#[cfg(test)]
mod tests;
