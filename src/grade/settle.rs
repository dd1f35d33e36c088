//! How many solutions a puzzle the techniques cannot finish has: [`settle`], a short
//! search within fixed budgets of work.

use crate::grid::Puzzle;
use crate::solve::{Engine, SearchControl, SolveLimits, Workspace};

/// Whether a solution of the puzzle gives another by a swap its givens cannot see
/// (`solve::swap`): with one solution found, a proof of a second without search, for
/// sparse boards where a short count runs out of nodes.
fn has_a_swap(puzzle: &Puzzle) -> bool {
    crate::solve::swap::swap_of(puzzle).is_some()
}

/// Dancing-links nodes [`settle`] may spend on a puzzle.
const SHORT_COUNT_NODES: u64 = 50_000;

/// Conflicts the learning engine may spend in [`settle`] where dancing links could
/// not tell (about a second at 25×25).
const SHORT_COUNT_CONFLICTS: u64 = 20_000;

/// The largest box size at which [`settle`] runs the learning engine (its clauses
/// grow with N³).
const SHORT_COUNT_LEARN_MAX_BOX: usize = 7;

/// What the short search of [`settle`] settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Exactly one solution: a proper puzzle beyond the techniques.
    Unique,
    /// No solution (0) or several (2 and more): no puzzle to grade.
    Improper(u64),
    /// The search could not tell within its budget.
    Unknown,
}

/// Whether a puzzle has exactly one solution, by a short search: for a puzzle the
/// techniques cannot finish ([`Outcome::Beyond`](super::Outcome::Beyond)), which is
/// [extreme](super::Difficulty::Extreme) only if it is proper.
///
/// Dancing links for at most 50,000 nodes, then up to 49×49 the learning engine for at most
/// 20,000 conflicts: budgets of work, not time, so the answer is the same on every
/// machine (about a second at 25×25). A board without givens, and one whose first solution
/// gives a second by swapping two shifts, two rows of a band or two columns of a stack that
/// its givens cannot see, have several solutions without
/// more search; one with a symbol given twice in a house has none. `control` can stop it
/// early (then [`Settled::Unknown`]); its counters add up the work.
///
/// ```
/// use shiftgrid::grade::{grade, settle, Outcome, Settled};
/// use shiftgrid::solve::{SearchControl, Workspace};
/// use shiftgrid::Puzzle;
///
/// // One given: no technique finishes it, and it has many solutions.
/// let puzzle: Puzzle = format!("1{}", ".".repeat(80)).parse().unwrap();
/// assert_eq!(grade(&puzzle).outcome, Outcome::Beyond);
/// let settled = settle(&mut Workspace::default(), &puzzle, &SearchControl::default());
/// assert_eq!(settled, Settled::Improper(2));
/// ```
pub fn settle(workspace: &mut Workspace, puzzle: &Puzzle, control: &SearchControl) -> Settled {
    if puzzle.givens() == 0 {
        // An empty board of any size has many grids (rename two shifts of one).
        return Settled::Improper(2);
    }
    let settled = |o: crate::solve::Outcome| match (o.count, o.complete) {
        (0, true) => Some(Settled::Improper(0)),
        (1, true) => Some(Settled::Unique),
        (c, _) if c >= 2 => Some(Settled::Improper(c)),
        _ => None,
    };
    let dlx = SolveLimits {
        node_limit: SHORT_COUNT_NODES,
        keep: 0,
        ..SolveLimits::count_up_to(2)
    };
    // A symbol given twice in a house (the only error a puzzle can give) leaves none.
    let Ok(o) = workspace.solve(puzzle, Engine::Dlx, &dlx, control) else {
        return Settled::Improper(0);
    };
    let found_one = o.count == 1;
    if let Some(s) = settled(o) {
        return s;
    }
    // One found, and a swap its givens cannot see makes another.
    if found_one && has_a_swap(puzzle) {
        return Settled::Improper(2);
    }
    if puzzle.shape().box_size() > SHORT_COUNT_LEARN_MAX_BOX {
        return Settled::Unknown;
    }
    let learn = SolveLimits {
        node_limit: SHORT_COUNT_CONFLICTS,
        ..dlx
    };
    match workspace.solve(puzzle, Engine::Learn, &learn, control) {
        Ok(o) => settled(o).unwrap_or(Settled::Unknown),
        Err(_) => Settled::Improper(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn a_symbol_given_twice_leaves_no_solution() {
        let shape = Shape::new(2).unwrap();
        let twice = Puzzle::new(shape, [1, 1].into_iter().chain([0; 14]).collect()).unwrap();
        let settled = settle(&mut Workspace::default(), &twice, &SearchControl::default());
        assert_eq!(settled, Settled::Improper(0));
    }

    #[test]
    fn swaps_the_givens_cannot_see() {
        let shape = Shape::new(2).unwrap();
        let p = |cells: [u8; 16]| Puzzle::new(shape, cells.to_vec()).unwrap();
        // Shifts 3 and 4 named nowhere.
        assert!(has_a_swap(&p([
            1, 2, 0, 0, 0, 0, 1, 2, 2, 1, 0, 0, 0, 0, 2, 1
        ])));
        // Every shift named, but staff rows 3 and 4 (one band) hold no given.
        assert!(has_a_swap(&p([
            1, 2, 3, 4, 3, 4, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0
        ])));
        // Every shift named, one given in each row and each column: no swap.
        assert!(!has_a_swap(&p([
            1, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 4
        ])));
    }

    #[test]
    fn proper_none_and_several() {
        let control = SearchControl::default();
        let ws = &mut Workspace::default();
        // A 9x9 with 17 givens that singles do not finish (magictour's top95, line 1):
        // exactly one solution.
        let top95 =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let hard: Puzzle = top95.parse().unwrap();
        assert_eq!(settle(ws, &hard, &control), Settled::Unique);
        // Less its first given, it has several: no sudoku has 16 givens and one solution
        // (McGuire, Tugemann and Civario 2012).
        let loose: Puzzle = format!(".{}", &top95[1..]).parse().unwrap();
        assert_eq!(settle(ws, &loose, &control), Settled::Improper(2));
        // Staff 1 needs shift 3 or 4 on day 3, which has both already: none.
        let shape = Shape::new(2).unwrap();
        let none = Puzzle::new(shape, vec![1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0]);
        assert_eq!(settle(ws, &none.unwrap(), &control), Settled::Improper(0));
        // The empty board, at a size no search would finish, by the rule.
        let empty = Puzzle::new(Shape::new(10).unwrap(), vec![0; 10_000]).unwrap();
        assert_eq!(settle(ws, &empty, &control), Settled::Improper(2));
    }
}
