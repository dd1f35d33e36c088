//! The removal check: whether blanking one orbit keeps the puzzle unique, by the proof the
//! [parent module](super) describes (propagation, then a short search, then the learning
//! engine for complete proofs), with the second solution kept as a witness when it does not.

use crate::cells::SymbolSet;
use crate::grid::{Grid, Shape};
use crate::solve::SearchControl;
use crate::solve::learn::{Answer, Budget, LearnConfig, Learner, Lit};
use crate::solve::propagate::{Propagator, SearchLimits};

use super::Fallback;

/// How one removal check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    Propagation,
    Search,
    Refuted,
    Unproven,
}

impl Check {
    pub(super) fn is_safe(self) -> bool {
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

/// Per-thread buffers for checks, kept for the whole run: the learner's clauses, learned
/// while proving one removal, speed up the proofs of the next ones.
pub(super) struct Worker {
    shape: Shape,
    fix_budget: usize,
    prop: Propagator,
    cand: Vec<SymbolSet>,
    trial: Vec<SymbolSet>,
    cells: Vec<u8>,
    /// The learning engine over the empty board's items, built on first use; every proof
    /// passes the puzzle's givens as assumptions, so what it learns holds for every puzzle.
    learner: Option<Learner>,
    assumptions: Vec<Lit>,
    /// After a [`Check::Refuted`]: the second solution that refuted it.
    pub(super) witness: Vec<u8>,
}

impl Worker {
    pub(super) fn new(shape: Shape) -> Worker {
        Worker {
            shape,
            fix_budget: FIXES_PER_SIDE * shape.side(),
            prop: Propagator::new(shape),
            cand: Vec::new(),
            trial: Vec::new(),
            cells: Vec::new(),
            learner: None,
            assumptions: Vec::new(),
            witness: Vec::new(),
        }
    }

    /// Proves with the learning engine that no solution of `self.cells` (the puzzle with
    /// the orbit blanked) has `cell` ≠ `symbol`: the givens and `cell ≠ symbol` are
    /// assumptions, so an unsatisfiable answer is the proof and a model is a second
    /// solution. `None` when `control` stopped it first.
    fn learn_proof(&mut self, cell: usize, symbol: u8, control: &SearchControl) -> Option<bool> {
        let shape = self.shape;
        let n = shape.side();
        let learner = self
            .learner
            .get_or_insert_with(|| Learner::new(shape, &LearnConfig::new(0)));
        self.assumptions.clear();
        for (c, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                self.assumptions.push(Lit::pos(c, v, n));
            }
        }
        self.assumptions.push(Lit::neg(cell, symbol, n));
        match learner.solve(&self.assumptions, &Budget::from_control(control, u64::MAX)) {
            Answer::Unsat => Some(true),
            Answer::Sat => {
                self.witness = learner.model_cells();
                Some(false)
            }
            Answer::Unknown => None,
        }
    }

    /// Is blanking `orbit` in `puzzle` (unique, solved by `solution`) safe?
    pub(super) fn check(
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
        let mut pending: Vec<Vec<SymbolSet>> = Vec::new();
        for &c in orbit {
            let c = c as usize;
            self.trial.clear();
            self.trial.extend_from_slice(&self.cand);
            self.trial[c] -= SymbolSet::of_value(solution[c]);
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
        // proof on its first. Complete proofs then go to the learning engine, which
        // finishes where a search without learning re-discovers the same dead ends
        // exponentially often (minimal puzzles from 25×25 up).
        // A bounded search no longer than the short one runs once: a second pass with the
        // same limit would repeat the same search.
        let bounded = [node_limit.min(QUICK_SEARCH_NODES), node_limit];
        let limits: &[u64] = if fallback == Fallback::Full {
            &[QUICK_SEARCH_NODES]
        } else if node_limit <= QUICK_SEARCH_NODES {
            &bounded[..1]
        } else {
            &bounded
        };
        for &limit in limits {
            let mut open = Vec::new();
            for state in pending {
                let r = self.prop.search_from(
                    state.clone(),
                    &SearchLimits {
                        cap: 1,
                        keep: 1,
                        node_limit: limit,
                        control,
                        prefer: Some(solution),
                        // Its one solution is kept, and checked as a witness.
                        givens: None,
                    },
                );
                if let Some(second) = r.kept.into_iter().next() {
                    self.witness = second;
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
        if fallback == Fallback::Full {
            for &c in orbit {
                let c = c as usize;
                // Cells that propagation refuted need no proof.
                if self.proven_by_propagation(c, solution[c]) {
                    continue;
                }
                match self.learn_proof(c, solution[c], control) {
                    Some(true) => {}
                    Some(false) => return Check::Refuted,
                    None => return Check::Unproven,
                }
            }
            return Check::Search;
        }
        Check::Unproven
    }

    /// Whether propagation alone refutes `cell` ≠ `symbol` in `self.cells` (cheap: the
    /// cascade of one elimination from the givens' candidates, which `self.cand` holds).
    fn proven_by_propagation(&mut self, cell: usize, symbol: u8) -> bool {
        self.trial.clear();
        self.trial.extend_from_slice(&self.cand);
        self.trial[cell] -= SymbolSet::of_value(symbol);
        !self.prop.propagate_with(&mut self.trial, Some(&self.cells))
    }
}

/// Whether `witness` proves that blanking `orbit` in `puzzle` (solved by `solution`) loses
/// uniqueness: a valid grid that keeps every other given and differs from the solution on
/// the orbit.
pub(super) fn is_witness(
    shape: Shape,
    puzzle: &[u8],
    solution: &[u8],
    orbit: &[u32],
    witness: &[u8],
) -> bool {
    let keeps_givens = puzzle
        .iter()
        .zip(witness)
        .enumerate()
        .all(|(c, (&g, &w))| g == 0 || g == w || orbit.contains(&(c as u32)));
    let differs = orbit
        .iter()
        .any(|&c| witness[c as usize] != solution[c as usize]);
    keeps_givens && differs && Grid::new(shape, witness.to_vec()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checked by hand: the 4x4 grid of rows 1234/3412/2143/4321, and the same with its
    /// first two rows exchanged (also valid: they are in one band).
    #[test]
    fn a_witness_is_a_valid_grid_that_keeps_the_other_givens_and_differs_on_the_orbit() {
        let shape = Shape::new(2).unwrap();
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let swapped = [3, 4, 1, 2, 1, 2, 3, 4, 2, 1, 4, 3, 4, 3, 2, 1];
        // Givens: cell 0 (a 1) and cell 15 (a 1).
        let mut puzzle = [0u8; 16];
        puzzle[0] = 1;
        puzzle[15] = 1;
        // Blanking cell 0 lets the swapped grid in.
        assert!(is_witness(shape, &puzzle, &solution, &[0], &swapped));
        // The solution itself proves nothing.
        assert!(!is_witness(shape, &puzzle, &solution, &[0], &solution));
        // Blanking cell 15 does not: the swapped grid changes the kept given of cell 0 and
        // agrees with the solution on cell 15.
        assert!(!is_witness(shape, &puzzle, &solution, &[15], &swapped));
        // An invalid grid (the first row's 3 and 4 made 3 and 3) is no witness.
        let mut bad = swapped;
        bad[1] = 3;
        assert!(!is_witness(shape, &puzzle, &solution, &[0], &bad));
        // Nor one that changes a given outside the orbit (cell 5: the solution's 4 given,
        // the swapped grid's 2).
        puzzle[5] = 4;
        assert!(!is_witness(shape, &puzzle, &solution, &[0], &swapped));
    }
}
