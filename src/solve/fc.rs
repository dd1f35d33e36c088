//! The forward-checking report's solver: sudoku as a constraint-satisfaction problem, solved by
//! chronological backtracking with MRV and forward checking (Russell & Norvig, *AIMA*, ch. 6,
//! as followed by the Amirkabir University course report summarised in `REFERENCES.md`).
//!
//! **Model.** The *variables* are the blank cells; a variable's *domain* is a bitset (`u128`,
//! bit `v−1` for symbol `v`, so `n ≤ 100` fits); a variable's *neighbours* are the other cells
//! of its row, column and block, and every constraint says "differs from that neighbour".
//!
//! **Search.** The report's three aids, in its order:
//! 1. *Initial domain reduction*: each given's symbol leaves its blank neighbours' domains.
//! 2. *MRV*: branch on the unassigned variable with the smallest domain. Ties go to the
//!    lowest cell index (row-major). The report's Python takes `min` over a `set` of
//!    `(row, col)` tuples, so its ties go to whichever cell the set's hash order yields first;
//!    that order is an accident of CPython (Python 3.11 reproduces the first two rows of the
//!    report's table, not the last two). Same-size ties are frequent, so node counts differ.
//! 3. *Forward checking* (FC): after assigning `v` to a cell, `v` leaves every unassigned
//!    neighbour's domain. If a neighbour would be left with nothing, the assignment is an *FC
//!    failure*: it is undone and the next value tried.
//!
//! Values are tried in ascending order; there is no LCV. The report iterates a Python set of
//! small integers: ascending, until forward checking removes and restores a value, which can
//! then move to the end of the set's order.
//!
//! **Statistics**, defined as the report's code counts them (`csp_solver.py` and `sudoku.py`
//! in github.com/nimahsn/AI-Course-Projects, `report05-CSP`, whose notebook prints the table):
//! * `nodes` ("nodes discovered"): calls of its recursive `backtrack`, that is the root plus
//!   one per assignment that survives forward checking (a solution is such a node).
//! * `fc_removed`: values removed by forward checking, counted for surviving assignments only
//!   (a failing check discards what it had collected, uncounted).
//! * `backtracks` ("times backtracked"): nodes whose values all ran out.
//! * `fc_failures`: assignments rejected by forward checking.
//! * `initial_removed`: `(cell, symbol)` pairs removed by the initial reduction. It depends on
//!   the puzzle only, so it matches the report's table exactly (297, 298, 286, 295).
//!
//! The other columns depend on the order of variables and values only. The report's own code
//! with both orders made deterministic (`min` over the sorted variables, values sorted; run
//! under Python 3.11) gives, for the table's four puzzles (`grids/fc_report_table_9x9.txt`),
//! exactly the counts this module gives; the unit tests hold them. On the sample: 130 nodes,
//! 364 FC removals, 74 backtracks, 4 FC failures, 297 initial removals, where the report
//! printed 74, 209, 18, 1 and 297.
//!
//! **Reach.** Forward checking sees only naked singles and backtracks chronologically, so its
//! trees are heavy-tailed. On norvig's top95 it needs 15 700 nodes per puzzle on average
//! (268 000 at worst); proving Janko's 16×16 puzzles unique takes from 0.04 ms to 7 s. Empty
//! boards from 25×25 up, and random blankings of planted grids beyond about 40% (25×25) or
//! 30% (up to 81×81), did not finish in 10 s: use `dlx` there.
//!
//! **Engine.** One loop over an explicit stack of frames (no recursion: a 100×100 search is
//! 10 000 levels deep). Each removal is recorded on a trail of cells; the removed symbol is the
//! one assigned at that level, so a cell is enough to undo it. The stack, the trail (sized by
//! the domains after reduction, a bound on what one path can remove) and the neighbour table
//! are allocated once per [`FcSolver`]; nothing allocates in the loop except copies of the
//! solutions kept. MRV scans a byte per cell (domain sizes, `u8::MAX` for assigned cells),
//! 10 KB at 100×100, and stops early at a singleton.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::grid::{Grid, GridError, Puzzle, Shape};
use crate::solve::SearchControl;

/// How often, in values tried, the search polls its interrupt, deadline and node limit and
/// publishes its node count.
const POLL_INTERVAL: u64 = 1024;

/// `size` of a cell that is not a variable any more: a given, or assigned on the stack.
const ASSIGNED: u8 = u8::MAX;

/// The report's statistics for one search (see the module docs for exact definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FcStats {
    /// Givens of the puzzle.
    pub givens: usize,
    /// Nodes discovered: the root plus one per assignment that survived forward checking.
    pub nodes: u64,
    /// Values removed from domains by forward checking (surviving assignments only).
    pub fc_removed: u64,
    /// Nodes left after every value was tried.
    pub backtracks: u64,
    /// Assignments rejected because forward checking emptied a neighbour's domain.
    pub fc_failures: u64,
    /// Values removed from domains by the initial reduction.
    pub initial_removed: u64,
    /// Wall-clock time of domain set-up, reduction and search.
    #[serde(skip)]
    pub elapsed: Duration,
}

/// The result of [`solve`] or [`FcSolver::solve`].
#[derive(Clone, Debug)]
pub struct FcOutcome {
    /// Solutions found, capped at the `cap` asked for. Exact when [`FcOutcome::complete`] and
    /// below the cap; a lower bound otherwise.
    pub count: u64,
    /// The first `keep` solutions in search order, each checked valid by [`Grid::new`].
    pub solutions: Vec<Grid>,
    /// Whether the search ended by itself (tree exhausted or cap reached) rather than by the
    /// interrupt, the deadline or the node limit.
    pub complete: bool,
    /// The report's counters.
    pub stats: FcStats,
}

/// When to give up, and where to report progress.
#[derive(Clone, Copy, Debug)]
pub struct FcBudget<'a> {
    /// Stop (incomplete) once this is raised, e.g. by a Ctrl-C handler.
    pub interrupt: &'a AtomicBool,
    /// Stop (incomplete) after this instant.
    pub deadline: Option<Instant>,
    /// Stop (incomplete) after about this many nodes; `u64::MAX` for no limit.
    pub node_limit: u64,
    /// Nodes are added here as the search goes, for progress displays.
    pub nodes: Option<&'a AtomicU64>,
    /// Also stop when this control says so (its deadline, the user's interrupt).
    pub control: Option<&'a SearchControl>,
}

/// A flag nobody raises, for [`FcBudget::unlimited`].
static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> FcBudget<'a> {
    /// Stoppable through `interrupt` only: no deadline, no node limit, no counter.
    pub fn new(interrupt: &'a AtomicBool) -> FcBudget<'a> {
        FcBudget {
            interrupt,
            deadline: None,
            node_limit: u64::MAX,
            nodes: None,
            control: None,
        }
    }

    /// Everything `control` says (interrupt, deadline, node counter), with
    /// `node_limit`.
    pub fn from_control(control: &'a SearchControl, node_limit: u64) -> FcBudget<'a> {
        FcBudget {
            interrupt: &control.interrupt,
            deadline: control.deadline,
            node_limit,
            nodes: Some(&control.nodes),
            control: Some(control),
        }
    }

    /// No limit at all: the search runs to its end.
    pub fn unlimited() -> FcBudget<'static> {
        FcBudget::new(&NEVER)
    }
}

/// Solves `puzzle` by backtracking with MRV and forward checking: the first solution with
/// `cap = 1`, or counts up to `cap` (at least 1), keeping the first `keep` solutions.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, solve::fc::{solve, FcBudget}};
/// // The empty 4×4 grid has 288 solutions.
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// let o = solve(&empty, 1000, 0, &FcBudget::unlimited()).unwrap();
/// assert_eq!((o.count, o.complete), (288, true));
/// ```
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
pub fn solve(
    puzzle: &Puzzle,
    cap: u64,
    keep: usize,
    budget: &FcBudget<'_>,
) -> Result<FcOutcome, GridError> {
    puzzle.check()?;
    FcSolver::new(puzzle.shape()).solve(puzzle, cap, keep, budget)
}

/// One level of the search: a variable and where its values stand.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The variable branched on.
    cell: u32,
    /// Trail length before the current value's forward check.
    mark: u32,
    /// Its domain when it was chosen (restored when the frame is left).
    domain: u128,
    /// Values not yet tried.
    untried: u128,
    /// The value being tried (one bit), 0 before the first.
    value: u128,
}

/// A forward-checking solver for puzzles of one shape. The neighbour table and every buffer
/// are allocated by [`FcSolver::new`] and reused by each [`FcSolver::solve`].
#[derive(Clone, Debug)]
pub struct FcSolver {
    shape: Shape,
    /// `3(n−1) − 2(b−1)` neighbours per cell (row, then column, then the rest of the block);
    /// `u16` suffices, 10 000 cells at most.
    neighbours: Vec<u16>,
    /// Neighbours per cell.
    degree: usize,
    /// Each cell's domain; 0 for givens and for assigned variables.
    domain: Vec<u128>,
    /// Each cell's domain size, or [`ASSIGNED`].
    size: Vec<u8>,
    /// The grid being built: givens, then the value tried at each level.
    values: Vec<u8>,
    stack: Vec<Frame>,
    /// Cells whose domain lost the value of the level that pushed them.
    trail: Vec<u16>,
}

impl FcSolver {
    /// A solver for puzzles of `shape`, with its neighbour table (5.6 MB at 100×100).
    pub fn new(shape: Shape) -> FcSolver {
        let (n, b) = (shape.side(), shape.box_size());
        let cells = shape.cells();
        let degree = 2 * (n - 1) + (b - 1) * (b - 1);
        let mut neighbours = Vec::with_capacity(cells * degree);
        for cell in 0..cells {
            let (r, c) = (cell / n, cell % n);
            let at = |r: usize, c: usize| (r * n + c) as u16;
            neighbours.extend((0..n).filter(|&j| j != c).map(|j| at(r, j)));
            neighbours.extend((0..n).filter(|&i| i != r).map(|i| at(i, c)));
            let (r0, c0) = (r / b * b, c / b * b);
            for i in (r0..r0 + b).filter(|&i| i != r) {
                neighbours.extend((c0..c0 + b).filter(|&j| j != c).map(|j| at(i, j)));
            }
        }
        debug_assert_eq!(neighbours.len(), cells * degree);
        FcSolver {
            shape,
            neighbours,
            degree,
            domain: vec![0; cells],
            size: vec![ASSIGNED; cells],
            values: vec![0; cells],
            stack: Vec::with_capacity(cells),
            trail: Vec::new(),
        }
    }

    /// The shape this solver was built for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Solves `puzzle` as [`solve`] does, reusing this solver's buffers.
    ///
    /// # Errors
    /// [`GridError::Shape`] when `puzzle` is not of this solver's shape;
    /// [`GridError::Duplicate`] when a symbol is given twice in a house.
    pub fn solve(
        &mut self,
        puzzle: &Puzzle,
        cap: u64,
        keep: usize,
        budget: &FcBudget<'_>,
    ) -> Result<FcOutcome, GridError> {
        if puzzle.shape() != self.shape {
            return Err(GridError::Shape {
                expected: self.shape,
                found: puzzle.shape(),
            });
        }
        puzzle.check()?;
        let start = Instant::now();
        let mut stats = FcStats {
            givens: puzzle.givens(),
            ..FcStats::default()
        };
        let has_empty = self.reduce(puzzle, &mut stats);
        let mut out = FcOutcome {
            count: 0,
            solutions: Vec::with_capacity(keep.min(16)),
            complete: true,
            stats,
        };
        out.complete = self.search(
            cap.max(1),
            keep,
            has_empty,
            puzzle.cells(),
            budget,
            &mut out,
        );
        out.stats.elapsed = start.elapsed();
        Ok(out)
    }

    /// Sets up the domains of `puzzle` and runs the initial reduction. Returns whether some
    /// variable's domain is empty (the puzzle then has no solution).
    fn reduce(&mut self, puzzle: &Puzzle, stats: &mut FcStats) -> bool {
        let full = u128::MAX >> (128 - self.shape.side());
        self.values.copy_from_slice(puzzle.cells());
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            self.domain[cell] = if v == 0 { full } else { 0 };
        }
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u128 << (v - 1);
            for k in 0..self.degree {
                let nb = self.neighbours[cell * self.degree + k] as usize;
                if self.domain[nb] & bit != 0 {
                    self.domain[nb] &= !bit;
                    stats.initial_removed += 1;
                }
            }
        }
        let mut has_empty = false;
        let mut total = 0usize;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            self.size[cell] = if v == 0 {
                let s = self.domain[cell].count_ones();
                has_empty |= s == 0;
                total += s as usize;
                s as u8
            } else {
                ASSIGNED
            };
        }
        // A path removes each (cell, value) pair at most once.
        self.trail.clear();
        self.trail.reserve(total);
        has_empty
    }

    /// The MRV choice: the unassigned variable with the smallest domain, lowest index first;
    /// `None` when every variable is assigned. The scan stops at the first domain of size
    /// `floor`, the smallest size possible (1, or 0 at a root with an empty domain).
    fn choose(&self, floor: u8) -> Option<usize> {
        let mut best = (ASSIGNED, 0);
        for (cell, &s) in self.size.iter().enumerate() {
            if s < best.0 {
                best = (s, cell);
                if s <= floor {
                    break;
                }
            }
        }
        (best.0 != ASSIGNED).then_some(best.1)
    }

    /// The backtracking loop. Returns whether it ended by itself (exhausted or capped).
    fn search(
        &mut self,
        cap: u64,
        keep: usize,
        has_empty: bool,
        givens: &[u8],
        budget: &FcBudget<'_>,
        out: &mut FcOutcome,
    ) -> bool {
        let floor = u8::from(!has_empty);
        let mut open = self.size.iter().filter(|&&s| s != ASSIGNED).count();
        let stats = &mut out.stats;
        self.stack.clear();
        let mut tries = 0u64;
        let mut next_poll = 0u64;
        let mut published = 0u64;
        stats.nodes = 1;

        let complete = 'search: loop {
            // A node: every assignment on the stack survived forward checking.
            if open == 0 {
                out.count += 1;
                // The first solutions pass the independent check, kept or not.
                assert!(
                    out.count > super::CHECKED
                        || crate::grid::solves(self.shape, givens, &self.values),
                    "every solution forward checking counts solves the puzzle"
                );
                if out.solutions.len() < keep {
                    let grid = Grid::new(self.shape, self.values.clone()).expect("checked above");
                    out.solutions.push(grid);
                }
                if out.count >= cap {
                    break 'search true;
                }
            } else {
                let cell = self.choose(floor).expect("an open variable exists");
                let domain = self.domain[cell];
                self.domain[cell] = 0;
                self.size[cell] = ASSIGNED;
                open -= 1;
                self.stack.push(Frame {
                    cell: cell as u32,
                    mark: self.trail.len() as u32,
                    domain,
                    untried: domain,
                    value: 0,
                });
            }
            // Try the next value of the deepest variable, leaving the variables that ran out.
            loop {
                if tries >= next_poll {
                    next_poll = tries + POLL_INTERVAL;
                    if let Some(counter) = budget.nodes {
                        counter.fetch_add(stats.nodes - published, Ordering::Relaxed);
                        published = stats.nodes;
                    }
                    if budget.interrupt.load(Ordering::Relaxed)
                        || budget.control.is_some_and(SearchControl::should_stop)
                        || budget.deadline.is_some_and(|d| Instant::now() >= d)
                        || stats.nodes >= budget.node_limit
                    {
                        break 'search false;
                    }
                }
                let Some(frame) = self.stack.last_mut() else {
                    break 'search true;
                };
                let cell = frame.cell as usize;
                // Undo the previous value's forward check.
                let mark = frame.mark as usize;
                for &nb in &self.trail[mark..] {
                    self.domain[nb as usize] |= frame.value;
                    self.size[nb as usize] += 1;
                }
                self.trail.truncate(mark);
                if frame.untried == 0 {
                    stats.backtracks += 1;
                    self.domain[cell] = frame.domain;
                    self.size[cell] = frame.domain.count_ones() as u8;
                    open += 1;
                    self.stack.pop();
                    continue;
                }
                tries += 1;
                let value = frame.untried & frame.untried.wrapping_neg();
                frame.untried ^= value;
                frame.value = value;
                self.values[cell] = value.trailing_zeros() as u8 + 1;
                // Forward check: take the value from every unassigned neighbour.
                let mut wiped = false;
                for &nb in &self.neighbours[cell * self.degree..(cell + 1) * self.degree] {
                    let i = nb as usize;
                    if self.domain[i] & value != 0 {
                        if self.size[i] == 1 {
                            wiped = true;
                            break;
                        }
                        self.domain[i] ^= value;
                        self.size[i] -= 1;
                        self.trail.push(nb);
                    }
                }
                if wiped {
                    // Undone at the top of this loop, with the next value.
                    stats.fc_failures += 1;
                } else {
                    stats.fc_removed += (self.trail.len() - mark) as u64;
                    stats.nodes += 1;
                    continue 'search;
                }
            }
        };
        if let Some(counter) = budget.nodes {
            counter.fetch_add(stats.nodes - published, Ordering::Relaxed);
        }
        complete
    }
}

#[cfg(test)]
mod tests;
