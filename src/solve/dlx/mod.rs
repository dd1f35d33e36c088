//! The exact-cover engine: Knuth's Algorithm X with dancing links (TAOCP 4B, §7.2.2.1),
//! specialised to sudoku-shaped grids of every supported size.
//!
//! [`Solver::new`] encodes a [`Puzzle`] (see `sudoku.rs` for the model) and
//! [`Solver::solve`] searches it: for the first solution, for every solution up to a cap, or
//! just to count. [`Solver::solve_parallel`] splits the top of the search tree into subtrees
//! run on rayon's thread pool (*root splitting*) and stops them all once the cap is reached.
//!
//! Layout: `matrix.rs` owns the link arena, `search.rs` the iterative search loop,
//! `parallel.rs` the splitting and merging. The hot loop allocates nothing and does no I/O;
//! progress and stopping go through the atomics of a [`SearchControl`].

pub(crate) mod fill;
pub(crate) mod half_turn;
mod matrix;
mod parallel;
mod search;
pub(crate) mod sudoku;

use std::time::Instant;

pub use fill::FillStats;
pub use search::Stats;

use super::{Outcome, SearchControl, SolveLimits};
use crate::cells::SymbolSet;
use crate::grid::{GridError, Puzzle, Shape};
use matrix::Matrix;
use search::{End, Flow, Halt, Stacks};
use sudoku::Encoding;

/// A puzzle encoded for the exact-cover search. Build once, search many times.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, solve::{dlx::Solver, SolveLimits}};
/// // The empty 4×4 grid has 288 solutions.
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// let outcome = Solver::new(&empty).unwrap().solve(&SolveLimits::count_up_to(1000));
/// assert_eq!(outcome.count, 288);
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    enc: Encoding,
}

impl Solver {
    /// Encodes `puzzle`.
    ///
    /// # Errors
    /// [`GridError::Duplicate`] when a symbol is given twice in a house.
    pub fn new(puzzle: &Puzzle) -> Result<Solver, GridError> {
        puzzle.check()?;
        Ok(Solver {
            enc: Encoding::new(puzzle),
        })
    }

    /// Encodes `puzzle` keeping, for each blank cell, only the symbols in `candidates[cell]`.
    /// The candidates must be *sound* (every solution of the
    /// puzzle uses only allowed symbols) for counts to mean anything about the puzzle.
    ///
    /// # Errors
    /// [`GridError::Duplicate`] when a symbol is given twice in a house.
    ///
    /// # Panics
    /// If `candidates` is not one mask per cell.
    pub fn with_candidates(puzzle: &Puzzle, candidates: &[SymbolSet]) -> Result<Solver, GridError> {
        puzzle.check()?;
        assert_eq!(candidates.len(), puzzle.cells().len(), "one mask per cell");
        Ok(Solver {
            enc: Encoding::with_candidates(puzzle, Some(candidates)),
        })
    }

    /// The shape of the puzzle.
    pub fn shape(&self) -> Shape {
        self.enc.shape
    }

    /// The size of the exact-cover problem: `(items, options)`.
    pub fn problem_size(&self) -> (usize, usize) {
        (self.enc.matrix.items(), self.enc.matrix.options())
    }

    /// Searches on the calling thread. The search works on the solver's own matrix and leaves
    /// it as it found it, so a solver can be searched again without rebuilding.
    pub fn solve(&mut self, limits: &SolveLimits) -> Outcome {
        self.solve_with(limits, &SearchControl::default())
    }

    /// Searches on the calling thread, watched and stoppable through `control`.
    pub fn solve_with(&mut self, limits: &SolveLimits, control: &SearchControl) -> Outcome {
        let start = Instant::now();
        let enc = &mut self.enc;
        let (count, kept, complete, stats) = serial(
            &mut enc.matrix,
            &enc.options,
            &enc.givens,
            &mut Stacks::default(),
            limits,
            control,
        );
        finish(
            enc.shape,
            &enc.givens,
            count,
            kept,
            complete,
            limits,
            stats,
            start,
        )
    }

    /// Searches with root splitting over the current rayon thread pool: the top levels of the
    /// tree are expanded (by MRV, as the serial search would) into at least eight subtrees per
    /// thread, each searched on its own copy of the matrix. Once the shared count reaches the
    /// cap, every worker stops.
    ///
    /// The count is the same as [`Solver::solve`]'s. Kept solutions are merged in subtree
    /// order, so they are the same for every thread count when the search runs to the end;
    /// when the cap cuts it short, which solutions were kept can depend on timing.
    pub fn solve_parallel(&self, limits: &SolveLimits, control: &SearchControl) -> Outcome {
        let start = Instant::now();
        let limits = &limits.at_least_one();
        let r = parallel::run(&self.enc, limits, control);
        finish(
            self.enc.shape,
            &self.enc.givens,
            r.count,
            r.kept,
            r.complete,
            limits,
            r.stats,
            start,
        )
    }
}

/// The serial search over `m` (restored afterwards): `(count, kept cells, complete, stats)`.
fn serial(
    m: &mut Matrix,
    options: &[(u32, u8)],
    givens: &[u8],
    stacks: &mut Stacks,
    limits: &SolveLimits,
    control: &SearchControl,
) -> (u64, Vec<Vec<u8>>, bool, Stats) {
    let mut stats = Stats::default();
    let mut kept: Vec<Vec<u8>> = Vec::new();
    let mut buf = Vec::with_capacity(givens.len());
    let mut count = 0u64;
    let shape = Shape::from_cells(givens.len()).expect("an encoding's givens fill a shape");
    let halt = Halt {
        control: Some(control),
        done: None,
        nodes: Some(&control.nodes),
        node_limit: limits.node_limit,
    };
    let end = search::run(m, stacks, halt, &mut stats, |m, xs| {
        count += 1;
        if kept.len() < limits.keep {
            sudoku::decode_into(options, givens, m, xs, &mut buf);
            kept.push(buf.clone());
        } else if count <= super::CHECKED {
            sudoku::decode_into(options, givens, m, xs, &mut buf);
            assert!(
                crate::grid::solves(shape, givens, &buf),
                "every solution DLX counts solves the puzzle"
            );
        }
        if count >= limits.max_solutions {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    (count, kept, end != End::Halted, stats)
}

/// Wraps a search's results into an [`Outcome`], checking every kept grid (valid, and
/// keeping `givens`).
#[allow(clippy::too_many_arguments)]
fn finish(
    shape: Shape,
    givens: &[u8],
    count: u64,
    kept: Vec<Vec<u8>>,
    complete: bool,
    limits: &SolveLimits,
    stats: Stats,
    start: Instant,
) -> Outcome {
    Outcome {
        count,
        solutions: super::checked_grids(shape, givens, kept),
        complete,
        capped: count >= limits.max_solutions,
        stats: super::Stats::Dlx(stats),
        elapsed: start.elapsed(),
    }
}

/// A solver for many puzzles of one shape, one after another, that allocates nothing per
/// puzzle. It has two ways to set a puzzle up, chosen by size from measurements
/// (`cargo bench --bench dlx`; README "Solving"):
///
/// * **Encode in place** (16x16 and up): each puzzle is encoded into the arrays of the last
///   one, so the matrix is the puzzle's own, exactly as [`Solver::new`] builds it.
/// * **Cover the givens** (4x4 and 9x9): the full `n³`-option matrix of the empty board is
///   kept, each puzzle's givens are covered before the search and uncovered after it.
///
/// Covering is cheaper than encoding at 9x9 (on the 17-clue set, where set-up is a third of
/// the time, it is about 20% faster overall), but the search then scans the covered items
/// in every MRV step and runs over links spread through the whole full matrix. At 9x9 that
/// costs little: the full matrix's links (23 KB) fit the L1 cache. At 16x16 they take
/// 128 KB, and the in-place encoding is about 40% faster.
///
/// Encoding in place gives [`Solver`]'s search tree exactly. Covering gives the same items
/// in the same order, but the MRV scan's blocks of 16 items fall differently, so ties can
/// break differently: counts agree, and so do first solutions of proper puzzles, but the
/// node counts differ slightly.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, solve::{dlx::BatchSolver, SearchControl, SolveLimits}};
/// let mut batch = BatchSolver::new(Shape::new(2).unwrap());
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// let o = batch.solve(&empty, &SolveLimits::count_up_to(1000), &SearchControl::default());
/// assert_eq!(o.unwrap().count, 288);
/// ```
#[derive(Clone, Debug)]
pub struct BatchSolver {
    enc: Encoding,
    /// Whether each puzzle is encoded in place (else its givens are covered).
    encode: bool,
    scratch: sudoku::Scratch,
    /// When covering: the first node of option `(cell, v)`, at `cell * n + v - 1`.
    first_node: Vec<u32>,
    stacks: Stacks,
    /// When covering: the givens' option nodes, in the order they were covered.
    applied: Vec<u32>,
}

impl BatchSolver {
    /// A solver for puzzles of `shape`, with the empty board's matrix.
    pub fn new(shape: Shape) -> BatchSolver {
        // Encoding the empty board also sizes every array for the largest puzzle.
        let mut scratch = sudoku::Scratch::default();
        let enc = Encoding::with_scratch(&Puzzle::empty(shape), None, &mut scratch);
        let encode = shape.box_size() >= 4;
        let mut first_node = Vec::new();
        if !encode {
            let n = shape.side();
            first_node.resize(n * n * n, 0);
            let m = &enc.matrix;
            // Every fourth node starts an option (see `matrix.rs`).
            for x in m.option_nodes().step_by(4) {
                let (cell, v) = enc.options[m.option_of(x as u32) as usize];
                first_node[cell as usize * n + v as usize - 1] = x as u32;
            }
        }
        BatchSolver {
            enc,
            encode,
            scratch,
            first_node,
            stacks: Stacks::default(),
            applied: Vec::new(),
        }
    }

    /// The shape this solver takes.
    pub fn shape(&self) -> Shape {
        self.enc.shape
    }

    /// Searches `puzzle` on the calling thread.
    ///
    /// # Errors
    /// [`GridError::Duplicate`] for repeated givens; [`GridError::Shape`] when the
    /// puzzle's shape is not this solver's.
    pub fn solve(
        &mut self,
        puzzle: &Puzzle,
        limits: &SolveLimits,
        control: &SearchControl,
    ) -> Result<Outcome, GridError> {
        let shape = self.enc.shape;
        if puzzle.shape() != shape {
            return Err(GridError::Shape {
                expected: shape,
                found: puzzle.shape(),
            });
        }
        puzzle.check()?;
        let start = Instant::now();
        if self.encode {
            let enc = &mut self.enc;
            enc.rebuild(puzzle, None, &mut self.scratch);
            let (count, kept, complete, stats) = serial(
                &mut enc.matrix,
                &enc.options,
                &enc.givens,
                &mut self.stacks,
                limits,
                control,
            );
            return Ok(finish(
                shape,
                puzzle.cells(),
                count,
                kept,
                complete,
                limits,
                stats,
                start,
            ));
        }
        let n = shape.side();
        let m = &mut self.enc.matrix;
        self.applied.clear();
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                // Distinct cells and no repeated symbol in a house: the option is active.
                let x = self.first_node[cell * n + v as usize - 1];
                m.cover(m.top[x as usize]);
                m.commit(x);
                self.applied.push(x);
            }
        }
        let (count, kept, complete, stats) = serial(
            m,
            &self.enc.options,
            puzzle.cells(),
            &mut self.stacks,
            limits,
            control,
        );
        for &x in self.applied.iter().rev() {
            m.uncommit(x);
            m.uncover(m.top[x as usize]);
        }
        Ok(finish(
            shape,
            puzzle.cells(),
            count,
            kept,
            complete,
            limits,
            stats,
            start,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(p: &Puzzle, cap: u64) -> u64 {
        Solver::new(p)
            .unwrap()
            .solve(&SolveLimits::count_up_to(cap))
            .count
    }

    #[test]
    fn empty_4x4_has_288_solutions() {
        // A fact from the literature: 288 4×4 sudoku grids.
        let p = Puzzle::empty(Shape::new(2).unwrap());
        assert_eq!(count(&p, 10_000), 288);
        let par = Solver::new(&p)
            .unwrap()
            .solve_parallel(&SolveLimits::all_up_to(10_000), &SearchControl::default());
        assert_eq!(par.count, 288);
        assert_eq!(par.solutions.len(), 288);
        let mut distinct: Vec<_> = par.solutions.iter().map(|g| g.cells().to_vec()).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 288);
    }

    #[test]
    fn cap_is_respected() {
        let p = Puzzle::empty(Shape::new(2).unwrap());
        assert_eq!(count(&p, 5), 5);
        let s = Solver::new(&p).unwrap();
        let o = s.solve_parallel(&SolveLimits::count_up_to(5), &SearchControl::default());
        assert_eq!(o.count, 5);
        assert!(o.complete);
    }

    #[test]
    fn full_grid_counts_once_and_contradiction_zero() {
        let shape = Shape::new(2).unwrap();
        let full = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let p = Puzzle::new(shape, full).unwrap();
        assert_eq!(count(&p, 2), 1);
        // Rule-consistent but unsolvable: row 1 is 1 2 _ _, and column 3 already holds
        // 3 and 4 below, so cell (1,3) has no candidate.
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[1] = 2;
        cells[2 * 4 + 2] = 3;
        cells[3 * 4 + 2] = 4;
        let p = Puzzle::new(shape, cells).unwrap();
        assert_eq!(count(&p, 2), 0);
    }

    #[test]
    fn interrupt_stops_a_search() {
        let p = Puzzle::empty(Shape::new(3).unwrap());
        let control = SearchControl::default();
        control
            .interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let o = Solver::new(&p)
            .unwrap()
            .solve_with(&SolveLimits::count_up_to(u64::MAX), &control);
        assert!(!o.complete);
        assert_eq!(o.verdict(), Some(crate::solve::Verdict::Multiple));
    }
}
