//! Engines raced side by side: the first complete answer wins and the others are cancelled.
//!
//! No engine dominates above 9×9. Propagation is orders of magnitude faster than DLX on
//! sparse generated puzzles (locked candidates), DLX on some dense published ones (one 1996
//! 25×25 benchmark puzzle takes propagation seconds). A race costs one thread per engine and
//! returns as soon as the fastest finishes, so on two cores it is within a few percent of the
//! better engine on every puzzle where either finishes fast. Counts are exact whichever engine
//! answers; for a puzzle with several solutions, which ones are kept depends on the winner.
//!
//! [`auto_plan`] is what [`Engine::Auto`] runs, chosen from the measurements in README
//! ("Solving").

use std::sync::atomic::Ordering;

use super::{Engine, Outcome, SearchControl, SolveLimits, Workspace};
use crate::grid::{GridError, Puzzle};

/// The engines [`Engine::Auto`] runs for `puzzle` under `limits`: DLX alone up to 16×16
/// (it is the fastest there and a race would only add a thread's start-up per puzzle), DLX
/// and propagation raced from 25×25 up.
pub fn auto_plan(puzzle: &Puzzle, _limits: &SolveLimits) -> Vec<Engine> {
    if puzzle.shape().box_size() <= 4 {
        vec![Engine::Dlx]
    } else {
        vec![Engine::Dlx, Engine::Propagate]
    }
}

/// Runs every engine of `engines` (each on a thread of its own; the last on the calling
/// thread) and returns the first complete outcome, stopping the rest. When none completes
/// (the user interrupted, or the deadline or node limit came first), the one that found
/// the most solutions.
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
///
/// # Panics
/// If `engines` is empty or names [`Engine::Auto`].
pub fn race(
    puzzle: &Puzzle,
    engines: &[Engine],
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    assert!(!engines.is_empty(), "a race needs an engine");
    assert!(
        !engines.contains(&Engine::Auto),
        "a race runs concrete engines"
    );
    puzzle.check()?;
    if let [only] = engines {
        return Workspace::default().solve(puzzle, *only, limits, control);
    }
    let children: Vec<_> = engines.iter().map(|_| control.child()).collect();
    let run = |k: usize| {
        let (child, _) = &children[k];
        let o = Workspace::default().solve(puzzle, engines[k], limits, child);
        if o.as_ref().is_ok_and(|o| o.complete) {
            // The others lose: their answers would only repeat this one.
            for (j, (_, flag)) in children.iter().enumerate() {
                if j != k {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        }
        o
    };
    let outcomes: Vec<Result<Outcome, GridError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..engines.len() - 1)
            .map(|k| {
                let run = &run;
                scope.spawn(move || run(k))
            })
            .collect();
        let last = run(engines.len() - 1);
        let mut all: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().expect("engines do not panic"))
            .collect();
        all.push(last);
        all
    });
    let mut best: Option<Outcome> = None;
    for o in outcomes {
        let o = o?;
        let better = match &best {
            None => true,
            Some(b) => {
                (o.complete && !b.complete) || (o.complete == b.complete && o.count > b.count)
            }
        };
        if better {
            best = Some(o);
        }
    }
    Ok(best.expect("at least one engine ran"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    #[test]
    fn race_agrees_with_each_engine() {
        let p = Puzzle::empty(Shape::new(2).unwrap());
        let o = race(
            &p,
            &[Engine::Dlx, Engine::Propagate],
            &SolveLimits::count_up_to(1000),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!((o.count, o.complete), (288, true));
    }

    #[test]
    fn an_interrupted_race_is_incomplete() {
        let p = Puzzle::empty(Shape::new(3).unwrap());
        let control = SearchControl::default();
        control.interrupt.store(true, Ordering::Relaxed);
        let o = race(
            &p,
            &[Engine::Dlx, Engine::Propagate],
            &SolveLimits::count_up_to(u64::MAX),
            &control,
        )
        .unwrap();
        assert!(!o.complete);
    }
}
