//! The propagation engine: candidate masks, propagation rules, root probing, and a search
//! that propagates at every node. It also proves the generator's removals, with no search at
//! all when the rules reach a contradiction.
//!
//! Candidates are one [`SymbolSet`] per cell; a fixed cell's set holds its one symbol.
//! The files split the engine by concern:
//!
//! * `rules.rs`: naked and hidden singles and locked candidates (pointing and claiming) to a
//!   fixpoint or a contradiction. Every rule is sound, so a contradiction proves that no
//!   solution extends the starting state. Work is proportional to what changes: fixed cells
//!   go through a queue and are processed once; the hidden-single sweep is bit-parallel over
//!   each house (`once`/`twice` masks) and visits only houses that changed.
//! * `probe.rs`: failed-literal probing at the root, which the generator's sweep-order
//!   puzzles need (each blank was proven against a denser puzzle, so solving from scratch
//!   takes one refutation per cell, in the reverse order; at 100×100, seconds with probing
//!   and beyond minutes without).
//! * `search.rs`: branching on the cell with fewest candidates or the house–symbol with
//!   fewest places, propagating every branch.
//!
//! Locked candidates are what DLX's item choice cannot see, and at 25×25 and up they are the
//! difference between milliseconds and minutes on sparse puzzles. For 9×9 batches DLX is
//! faster.

mod probe;
mod rules;
mod search;

use std::time::Instant;

use super::{Outcome, SearchControl, SolveLimits};
use crate::cells::{Houses, Placed, SymbolSet};
use crate::grid::{GridError, Puzzle, Shape};

/// Counters of one propagation search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Branches taken (search-tree nodes below the root).
    pub nodes: u64,
    /// Branches that propagated to a contradiction.
    pub dead_ends: u64,
}

/// Counts the solutions of `puzzle` up to `limits.max_solutions`, keeping the first
/// `limits.keep`, by propagation, root probing and search (see the module docs).
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, solve::{propagate, SearchControl, SolveLimits}};
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// let o = propagate::count(&empty, &SolveLimits::count_up_to(1000), &SearchControl::default());
/// assert_eq!(o.unwrap().count, 288);
/// ```
pub fn count(
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    puzzle.check()?;
    let start = Instant::now();
    let shape = puzzle.shape();
    let mut prop = Propagator::new(shape);
    let r = prop.count(
        puzzle.cells(),
        &SearchLimits {
            cap: limits.max_solutions,
            keep: limits.keep,
            node_limit: limits.node_limit,
            control,
            prefer: None,
            givens: Some(puzzle.cells()),
        },
    );
    Ok(Outcome {
        count: r.count,
        solutions: super::checked_grids(shape, puzzle.cells(), r.kept),
        complete: r.complete,
        capped: r.count >= limits.max_solutions,
        stats: super::Stats::Propagate(Stats {
            nodes: r.nodes,
            dead_ends: r.dead_ends,
        }),
        elapsed: start.elapsed(),
    })
}

/// Reusable buffers for propagation (one per worker thread).
#[derive(Clone, Debug)]
pub(crate) struct Propagator {
    shape: Shape,
    houses: Houses,
    full: SymbolSet,
    queue: Vec<u32>,
    done: Vec<bool>,
    /// Block–line segment masks for locked candidates.
    seg: Vec<SymbolSet>,
    /// Symbols placed per house, for [`Propagator::eliminated`].
    placed: Placed,
    /// Houses whose candidates changed since their last hidden-single sweep.
    dirty: Vec<bool>,
    /// Stop (reporting no contradiction) after this many fixed cells are processed.
    pub(crate) fix_budget: usize,
    fixes: usize,
}

impl Propagator {
    pub(crate) fn new(shape: Shape) -> Propagator {
        let n = shape.side();
        Propagator {
            shape,
            houses: Houses::new(shape),
            full: SymbolSet::full(n),
            queue: Vec::with_capacity(n * n),
            done: vec![false; n * n],
            seg: Vec::with_capacity(n * shape.box_size()),
            placed: Placed::new(shape),
            dirty: vec![true; 3 * n],
            fix_budget: usize::MAX,
            fixes: 0,
        }
    }

    /// Candidates of a puzzle before any deduction: a given is its own symbol, a blank
    /// has every symbol.
    #[cfg(test)]
    pub(crate) fn initial(&self, cells: &[u8], out: &mut Vec<SymbolSet>) {
        out.clear();
        out.extend(cells.iter().map(|&v| {
            if v == 0 {
                self.full
            } else {
                SymbolSet::of_value(v)
            }
        }));
    }

    /// Candidates of a puzzle after removing every given's symbol from its peers (the
    /// cheap part of propagation, done with one mask per house instead of peer by peer).
    /// Givens are then already accounted for: pass the same `cells` to
    /// [`Propagator::propagate_with`] so they are not processed again.
    pub(crate) fn eliminated(&mut self, cells: &[u8], out: &mut Vec<SymbolSet>) {
        self.placed.load(self.shape, cells);
        out.clear();
        out.extend(cells.iter().enumerate().map(|(i, &v)| {
            if v == 0 {
                self.placed.free(i)
            } else {
                SymbolSet::of_value(v)
            }
        }));
    }

    /// Counts the completions of the puzzle `cells` up to `cap` by propagation and search:
    /// propagate, probe (see [`Propagator::probe`]), then branch (see
    /// [`Propagator::search_from`]), propagating every branch. Keeps the first `keep`
    /// solutions.
    pub(crate) fn count(&mut self, cells: &[u8], limits: &SearchLimits<'_>) -> PropCount {
        let mut root = Vec::with_capacity(cells.len());
        self.eliminated(cells, &mut root);
        // Probing at the root is what solves the generator's sweep-order puzzles (module
        // docs).
        let probed = if self.propagate_with(&mut root, Some(cells)) {
            self.probe(&mut root, &|| limits.control.should_stop())
        } else {
            Some(false)
        };
        match probed {
            Some(true) => self.search_from(root, limits),
            settled_or_stopped => PropCount {
                count: 0,
                kept: Vec::new(),
                complete: settled_or_stopped.is_some(),
                nodes: 0,
                dead_ends: u64::from(settled_or_stopped.is_some()),
            },
        }
    }
}

/// Bounds and hooks of a propagation search.
pub(crate) struct SearchLimits<'a> {
    /// Stop after this many solutions.
    pub cap: u64,
    /// Keep the first this many solutions.
    pub keep: usize,
    /// Stop (incomplete) after this many branches.
    pub node_limit: u64,
    /// Stop (incomplete) when it says so (polled before each cell probed at the root,
    /// then every 256 branches, which are also published to its node counter).
    pub control: &'a SearchControl,
    /// Try this grid's symbols first.
    pub prefer: Option<&'a [u8]>,
    /// The puzzle's cells, to check the first solutions counted beyond `keep` against
    /// ([`crate::solve::CHECKED`]; kept ones are checked by the caller).
    pub givens: Option<&'a [u8]>,
}

/// What [`Propagator::count`] found.
#[derive(Clone, Debug)]
pub(crate) struct PropCount {
    /// Solutions found, capped.
    pub count: u64,
    /// The first solutions, as cells.
    pub kept: Vec<Vec<u8>>,
    /// Whether the search ended (tree exhausted or cap reached) rather than being stopped.
    pub complete: bool,
    /// Branches taken.
    pub nodes: u64,
    /// Branches that propagated to a contradiction.
    pub dead_ends: u64,
}

/// Whether every cell of `cand` is fixed.
#[cfg(test)]
pub(crate) fn is_solved(cand: &[SymbolSet]) -> bool {
    cand.iter().all(|m| m.is_single())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|c| if c == b'.' { 0 } else { c - b'0' })
            .collect()
    }

    #[test]
    fn singles_solve_an_easy_puzzle() {
        // Project Euler 96, grid 01: solvable by singles alone.
        let p = cells(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(is_solved(&cand));
        let solved: Vec<u8> = cand.iter().map(|m| m.only().unwrap().get()).collect();
        assert!(crate::grid::Grid::new(shape, solved).is_ok());
    }

    #[test]
    fn contradiction_is_found() {
        // Row 1 is 1 2 _ _, column 3 holds 3 and 4 below: no candidate for (1, 3).
        let shape = Shape::new(2).unwrap();
        let p = vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0];
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(!pr.propagate(&mut cand));
    }

    #[test]
    fn empty_board_does_not_move() {
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&[0; 81], &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(cand.iter().all(|&m| m == SymbolSet::full(9)));
    }

    #[test]
    fn counts_and_contradictions() {
        let s = Shape::new(2).unwrap();
        let all = count(
            &Puzzle::empty(s),
            &SolveLimits::all_up_to(1000),
            &SearchControl::default(),
        )
        .unwrap();
        let mut distinct: Vec<_> = all.solutions.iter().map(|g| g.cells().to_vec()).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!((all.count, distinct.len()), (288, 288));
        let dead = Puzzle::new(s, vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0]).unwrap();
        let o = count(
            &dead,
            &SolveLimits::count_up_to(2),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!((o.count, o.complete), (0, true));
    }

    #[test]
    fn node_limit_makes_it_incomplete() {
        let limits = SolveLimits {
            node_limit: 5,
            ..SolveLimits::count_up_to(u64::MAX)
        };
        let p = Puzzle::empty(Shape::new(3).unwrap());
        let o = count(&p, &limits, &SearchControl::default()).unwrap();
        assert!(!o.complete);
    }
}
