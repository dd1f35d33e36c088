//! Solving and counting by constraint propagation with search, the second engine beside
//! [`crate::dlx`].
//!
//! Each node propagates naked and hidden singles and locked candidates (pointing and
//! claiming) to a fixpoint, then branches on the cell with fewest candidates (or the
//! house–symbol with fewest places). The root also probes: every candidate of a cell with
//! two or three is placed in turn, and one that propagates to a contradiction is removed;
//! that is what solves the generator's sweep-order puzzles, which no branching order does
//! in reasonable time from 49×49 up. Locked
//! candidates are what DLX's item choice cannot see, and at 25×25 and up they are the
//! difference between milliseconds and minutes on sparse puzzles (those `generate` makes,
//! for one: their uniqueness proofs use the same rules). For 9×9 batches DLX is faster.
//! Both engines are checked against the same published puzzle sets in the tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::dlx::{Outcome, SearchControl, SolveLimits, Stats};
use crate::generate::propagate::{Propagator, SearchLimits};
use crate::grid::{Grid, GridError, Puzzle};

/// Counts the solutions of `puzzle` up to `limits.max_solutions`, keeping the first
/// `limits.keep`, by propagation and search (see the module docs).
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, dlx::{SearchControl, SolveLimits}, logic::count};
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// let o = count(&empty, &SolveLimits::count_up_to(1000), &SearchControl::default()).unwrap();
/// assert_eq!(o.count, 288);
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
            interrupt: &control.interrupt,
            nodes: &control.nodes,
            prefer: None,
        },
    );
    let solutions = r
        .kept
        .into_iter()
        .map(|cells| {
            // The independent check before anything leaves the engine.
            Grid::new(shape, cells).expect("a propagation fixpoint with every cell fixed is valid")
        })
        .collect();
    Ok(Outcome {
        count: r.count,
        solutions,
        complete: r.complete,
        stats: Stats {
            nodes: r.nodes,
            updates: 0,
            dead_ends: r.dead_ends,
            solutions: r.count,
        },
        elapsed: start.elapsed(),
    })
}

/// Runs the DLX engine and this one side by side on two threads and returns whichever
/// finishes first, stopping the other. Neither engine dominates above 9×9: propagation is
/// orders of magnitude faster on sparse generated puzzles (locked candidates), DLX on some
/// dense published ones. Counts are exact either way; for a puzzle with several solutions,
/// which ones are kept depends on the winner.
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
pub fn race(
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    let mut solver = crate::dlx::Solver::new(puzzle)?;
    let a = SearchControl {
        interrupt: Arc::new(AtomicBool::new(false)),
        ..control.clone()
    };
    let b = SearchControl {
        interrupt: Arc::new(AtomicBool::new(false)),
        ..control.clone()
    };
    let finished = AtomicBool::new(false);
    let (da, db) = std::thread::scope(|scope| {
        // Ctrl-C reaches both engines through a watcher.
        let watcher = scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if control.interrupt.load(Ordering::Relaxed) {
                    a.interrupt.store(true, Ordering::Relaxed);
                    b.interrupt.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        });
        let dlx = scope.spawn(|| {
            let o = solver.solve_with(limits, &a);
            if o.complete {
                b.interrupt.store(true, Ordering::Relaxed);
            }
            o
        });
        let prop = count(puzzle, limits, &b).inspect(|o| {
            if o.complete {
                a.interrupt.store(true, Ordering::Relaxed);
            }
        });
        let dlx = dlx.join().expect("the DLX thread does not panic");
        finished.store(true, Ordering::Relaxed);
        let _ = watcher.join();
        (dlx, prop)
    });
    let db = db?;
    Ok(match (da.complete, db.complete) {
        (true, false) => da,
        (false, true) => db,
        // Both finished (a tie) or both were interrupted: the better-informed one.
        _ => {
            if db.count >= da.count {
                db
            } else {
                da
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    #[test]
    fn empty_4x4_and_contradiction() {
        let s = Shape::new(2).unwrap();
        let o = count(
            &Puzzle::empty(s),
            &SolveLimits::all_up_to(1000),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!(o.count, 288);
        let mut distinct: Vec<_> = o.solutions.iter().map(|g| g.cells().to_vec()).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 288);
        let dead = Puzzle::new(s, vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0]).unwrap();
        let o = count(
            &dead,
            &SolveLimits::count_up_to(2),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!(o.count, 0);
        assert!(o.complete);
    }

    #[test]
    fn race_agrees_with_both_engines() {
        let s = Shape::new(2).unwrap();
        let o = race(
            &Puzzle::empty(s),
            &SolveLimits::count_up_to(1000),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!(o.count, 288);
        assert!(o.complete);
    }

    #[test]
    fn node_limit_makes_it_incomplete() {
        let s = Shape::new(3).unwrap();
        let limits = SolveLimits {
            node_limit: 5,
            ..SolveLimits::count_up_to(u64::MAX)
        };
        let o = count(&Puzzle::empty(s), &limits, &SearchControl::default()).unwrap();
        assert!(!o.complete);
    }
}
