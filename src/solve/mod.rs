//! Solving and counting: every engine, one vocabulary, one entry point.
//!
//! [`solve`] takes a [`Puzzle`], an [`Engine`], [`SolveLimits`] (what to look for) and a
//! [`SearchControl`] (how to stop it and watch it) and returns an [`Outcome`]. The engines:
//!
//! * [`dlx`]: Knuth's Algorithm X with dancing links over the exact-cover matrix; the
//!   fastest on 9×9 and 16×16 batches, and it splits one puzzle across cores at the root.
//! * [`propagate`]: candidate masks with naked and hidden singles, locked candidates and
//!   root probing, then search; orders of magnitude faster than DLX on sparse 25×25-and-up
//!   puzzles that locked candidates crack.
//! * [`fc`]: the forward-checking report's solver (MRV, forward checking, chronological
//!   backtracking), with the report's statistics; a reference point, not a contender
//!   beyond 9×9.
//! * [`learn`]: conflict-driven clause learning over the exact-cover items themselves, for
//!   the hard instances (partial rosters near the hardness peak, minimal 25×25 puzzles) that
//!   search without learning cannot finish; incremental under assumptions, which is how the
//!   generator proves its removals.
//! * [`portfolio`]: several engines raced on threads in lockstep; the first to answer in
//!   lockstep time wins.
//!
//! [`Engine::Auto`] picks what the measurements in README ("Solving") justify for the
//! puzzle's size and the limits asked for. Counts are exact whichever engine answers; for a
//! puzzle with several solutions, *which* ones are kept depends on the engine, but every
//! engine, the portfolio included, gives the same answer for the same input on every run:
//! the portfolio's races run in lockstep (`lockstep.rs`), so thread timing never picks the
//! winner. The one exception is DLX split at the root ([`Workspace`] with `split`, which
//! `solve --engine dlx` and `count --engine dlx` use for fewer puzzles than threads): its
//! subtrees share only a solution counter, so under a cap the counts and verdicts are the
//! same on every run but which solutions are kept can depend on timing.
//!
//! Stopping: a search polls [`SearchControl::should_stop`] every few hundred nodes. That
//! covers the user's interrupt (Ctrl-C) and a deadline, so nothing needs a watcher thread;
//! in a race the same poll is where an engine waits for the others at the end of each
//! epoch, and learns there that a rival has answered.

mod control;
pub mod dlx;
pub mod fc;
pub mod learn;
pub(crate) mod lockstep;
pub mod portfolio;
pub mod propagate;
pub(crate) mod swap;
pub(crate) mod trade;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::grid::{Grid, GridError, Puzzle};
pub use control::SearchControl;

/// What a search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Stop once this many solutions are found (the cap of the count); 0 counts as 1.
    pub max_solutions: u64,
    /// Keep at most this many solved grids (the rest are only counted).
    pub keep: usize,
    /// Give up (incomplete) after about this many nodes; `u64::MAX` for no limit. Checked
    /// every few hundred nodes, per worker. The learning engine counts conflicts and the
    /// solutions it found against it (per learner, over the whole count), and `auto`
    /// leaves the fill search, which has no node budget, out of its races when a limit is
    /// set.
    pub node_limit: u64,
}

/// The uniqueness test, as `shiftgrid solve` runs it: [`SolveLimits::count_up_to`]`(2)`.
impl Default for SolveLimits {
    fn default() -> SolveLimits {
        SolveLimits::count_up_to(2)
    }
}

impl SolveLimits {
    /// Find one solution and keep it.
    pub fn first() -> SolveLimits {
        SolveLimits {
            max_solutions: 1,
            keep: 1,
            node_limit: u64::MAX,
        }
    }

    /// Count solutions up to `cap` (at least 1), keeping the first two grids: `cap = 2` is
    /// the uniqueness test (0 = no solution, 1 = unique, 2 = more than one).
    pub fn count_up_to(cap: u64) -> SolveLimits {
        SolveLimits {
            max_solutions: cap.max(1),
            keep: 2,
            node_limit: u64::MAX,
        }
    }

    /// Enumerate up to `cap` solutions and keep them all.
    pub fn all_up_to(cap: u64) -> SolveLimits {
        SolveLimits {
            max_solutions: cap.max(1),
            keep: usize::try_from(cap).unwrap_or(usize::MAX),
            node_limit: u64::MAX,
        }
    }

    /// These limits with a cap of at least 1 (a cap of 0 counts as 1).
    pub(crate) fn at_least_one(&self) -> SolveLimits {
        SolveLimits {
            max_solutions: self.max_solutions.max(1),
            ..*self
        }
    }

    /// Whether only one solution is wanted (`solve --first`).
    pub fn is_first(&self) -> bool {
        self.max_solutions == 1
    }
}

/// How many solutions a puzzle has, as far as a search capped at 2 can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No solution: the givens contradict each other.
    None,
    /// Exactly one solution: a proper puzzle.
    Unique,
    /// Two or more solutions.
    Multiple,
}

/// A solving engine. See the module docs for what each is good at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Engine {
    /// Dancing links (exact cover).
    Dlx,
    /// Propagation (singles, locked candidates, probing) with search.
    Propagate,
    /// The forward-checking report's backtracking search.
    Fc,
    /// Conflict-driven clause learning over the exact-cover items.
    Learn,
    /// The portfolio that the measurements justify for the puzzle and limits.
    Auto,
}

impl Engine {
    /// Every engine a user can name, in the order help texts list them.
    pub const ALL: &'static [Engine] = &[
        Engine::Auto,
        Engine::Dlx,
        Engine::Propagate,
        Engine::Fc,
        Engine::Learn,
    ];

    /// The engine's name, as `--engine` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dlx => "dlx",
            Engine::Propagate => "propagate",
            Engine::Fc => "fc",
            Engine::Learn => "learn",
            Engine::Auto => "auto",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`Engine::from_str`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {name:?}: expected one of {}", engine_names())]
pub struct UnknownEngine {
    /// The name given.
    pub name: String,
}

/// The engines' names, comma-separated.
fn engine_names() -> String {
    let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    names.join(", ")
}

impl FromStr for Engine {
    type Err = UnknownEngine;

    /// An engine by its name, in any case (`"dlx"`, `"Auto"`).
    ///
    /// ```
    /// use shiftgrid::solve::Engine;
    /// assert_eq!("Learn".parse::<Engine>(), Ok(Engine::Learn));
    /// let e = "fast".parse::<Engine>().unwrap_err();
    /// assert!(e.to_string().starts_with("unknown engine \"fast\": expected one of auto, dlx"));
    /// ```
    fn from_str(s: &str) -> Result<Engine, UnknownEngine> {
        Engine::ALL
            .iter()
            .copied()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownEngine {
                name: s.to_string(),
            })
    }
}

impl Default for Engine {
    /// [`Engine::Auto`], the portfolio, as the CLI's default.
    fn default() -> Engine {
        Engine::Auto
    }
}

/// Each engine's own counters.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "engine", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stats {
    /// From [`dlx`].
    Dlx(dlx::Stats),
    /// From [`propagate`].
    Propagate(propagate::Stats),
    /// From [`fc`]: the report's columns.
    Fc(fc::FcStats),
    /// From [`learn`].
    Learn(learn::LearnStats),
    /// From the fill search, which [`Engine::Auto`] races for first solutions.
    Fill(dlx::FillStats),
}

impl Stats {
    /// Search-tree nodes (branches tried; decisions for the learning engine), the one
    /// counter every engine has.
    pub fn nodes(&self) -> u64 {
        match self {
            Stats::Dlx(s) => s.nodes,
            Stats::Propagate(s) => s.nodes,
            Stats::Fc(s) => s.nodes,
            Stats::Learn(s) => s.decisions,
            Stats::Fill(s) => s.nodes,
        }
    }

    /// The name of the search that produced these counters (an engine's, or `fill`).
    pub fn source(&self) -> &'static str {
        match self {
            Stats::Dlx(_) => Engine::Dlx.name(),
            Stats::Propagate(_) => Engine::Propagate.name(),
            Stats::Fc(_) => Engine::Fc.name(),
            Stats::Learn(_) => Engine::Learn.name(),
            Stats::Fill(_) => "fill",
        }
    }

    /// The counters as `name value` pairs, for `--stats` lines and tables.
    pub fn fields(&self) -> Vec<(&'static str, u64)> {
        match self {
            Stats::Dlx(s) => vec![
                ("nodes", s.nodes),
                ("updates", s.updates),
                ("dead ends", s.dead_ends),
            ],
            Stats::Propagate(s) => vec![("nodes", s.nodes), ("dead ends", s.dead_ends)],
            Stats::Fc(s) => vec![
                ("givens", s.givens as u64),
                ("nodes", s.nodes),
                ("removed by FC", s.fc_removed),
                ("backtracks", s.backtracks),
                ("FC failures", s.fc_failures),
                ("removed initially", s.initial_removed),
            ],
            Stats::Learn(s) => {
                // Learners counting together: their counters are summed.
                let together = (s.learners > 1).then_some(("learners", s.learners));
                together
                    .into_iter()
                    .chain([
                        ("conflicts", s.conflicts),
                        ("decisions", s.decisions),
                        ("propagations", s.propagations),
                        ("restarts", s.restarts),
                        ("clauses held", s.learned),
                        ("deleted", s.deleted),
                    ])
                    .collect()
            }
            Stats::Fill(s) => vec![
                ("nodes", s.nodes),
                ("dead ends", s.dead_ends),
                ("restarts", s.restarts),
            ],
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Solutions found, capped at `max_solutions`. Exact when [`Outcome::complete`] and below
    /// the cap; a lower bound when interrupted.
    pub count: u64,
    /// The first `keep` solutions found, each checked valid by [`Grid::new`].
    pub solutions: Vec<Grid>,
    /// Whether the search finished (tree exhausted or cap reached) rather than being
    /// stopped.
    pub complete: bool,
    /// Whether the count reached the cap ([`SolveLimits::max_solutions`]), where the search
    /// stops. With a cap of 1 a count of 1 says that a solution exists, not that it is the
    /// only one.
    pub capped: bool,
    /// The answering engine's counters, summed over its workers.
    pub stats: Stats,
    /// Wall-clock time of the search, set-up included.
    pub elapsed: Duration,
}

impl Outcome {
    /// The verdict a capped count supports: `None` if no solution, `Unique` if exactly one
    /// and the search ran out of places to look (not stopped by a cap of 1), `Multiple` if
    /// two or more. `Option::None` when the search cannot say: stopped by a limit before
    /// it could, or capped at one solution.
    pub fn verdict(&self) -> Option<Verdict> {
        match (self.count, self.complete) {
            (0, true) => Some(Verdict::None),
            (1, true) if !self.capped => Some(Verdict::Unique),
            (c, _) if c >= 2 => Some(Verdict::Multiple),
            _ => None,
        }
    }

    /// The name of the search that answered (see [`Stats::source`]).
    pub fn source(&self) -> &'static str {
        self.stats.source()
    }
}

/// The learning engine with `config`, as an [`Outcome`].
fn learn_outcome(
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
    config: &learn::LearnConfig,
) -> Result<Outcome, GridError> {
    learn_outcome_within(
        puzzle,
        limits,
        control,
        std::slice::from_ref(config),
        u64::MAX,
    )
}

/// The learning engine as an [`Outcome`], giving up after `conflicts` conflicts in each
/// search call (the first solution, the proof): with one of `configs` on the calling
/// thread, with several on a thread each, sharing solutions and short learned clauses
/// ([`learn::count_together`]).
fn learn_outcome_within(
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
    configs: &[learn::LearnConfig],
    conflicts: u64,
) -> Result<Outcome, GridError> {
    let start = Instant::now();
    let budget = learn::Budget {
        total_conflicts: limits.node_limit,
        ..learn::Budget::from_control(control, conflicts)
    };
    let o = learn::count_together(puzzle, limits.max_solutions, limits.keep, configs, &budget)?;
    Ok(Outcome {
        count: o.count,
        solutions: checked_grids(puzzle.shape(), puzzle.cells(), o.solutions),
        complete: o.complete,
        capped: o.count >= limits.max_solutions,
        stats: Stats::Learn(o.stats),
        elapsed: start.elapsed(),
    })
}

/// The solutions a search of dancing links, propagation or forward checking checks with
/// the independent check ([`crate::grid::solves`]) though it does not keep them (kept ones
/// are checked as grids by [`checked_grids`]): the first two, on which a verdict (none,
/// unique, several) rests. Checking every one made counts of many solutions slower: 2-4
/// times for dancing links (300,000 of a 9×9 board with one row given: 0.25 s, against
/// 0.54-1.0 s), 30-70% for propagation and forward checking. The learning engine, which
/// spends far more per solution, checks every one.
pub(crate) const CHECKED: u64 = 2;

/// Checks an engine's kept solutions with the independent checker: each must be a valid
/// grid that keeps every given of `givens` (the puzzle's cells, 0 for a blank), and no two
/// the same. An engine bug must never reach the user as a grid, nor as a "solution" of
/// another puzzle, nor as a second solution of a unique one.
pub(crate) fn checked_grids(shape: crate::Shape, givens: &[u8], kept: Vec<Vec<u8>>) -> Vec<Grid> {
    let distinct: std::collections::HashSet<&[u8]> = kept.iter().map(Vec::as_slice).collect();
    assert_eq!(
        distinct.len(),
        kept.len(),
        "an engine's solutions are distinct"
    );
    kept.into_iter()
        .map(|cells| {
            assert!(
                givens.len() == cells.len()
                    && givens.iter().zip(&cells).all(|(&g, &c)| g == 0 || g == c),
                "every engine solution keeps the givens"
            );
            Grid::new(shape, cells).expect("every engine solution is a valid grid")
        })
        .collect()
}

/// Solves `puzzle` with `engine` on the calling thread (a portfolio adds threads of its
/// own; DLX alone splits across rayon's pool for a single hard puzzle only through a
/// [`Workspace`] with splitting on).
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
///
/// ```
/// use shiftgrid::{Puzzle, Shape, solve::{solve, Engine, SearchControl, SolveLimits}};
/// let empty = Puzzle::empty(Shape::new(2).unwrap());
/// for engine in [Engine::Dlx, Engine::Propagate, Engine::Auto] {
///     let o = solve(&empty, engine, &SolveLimits::count_up_to(1000), &SearchControl::default());
///     assert_eq!(o.unwrap().count, 288);
/// }
/// ```
pub fn solve(
    puzzle: &Puzzle,
    engine: Engine,
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    Workspace::default().solve(puzzle, engine, limits, control)
}

/// Buffers reused across the puzzles of a batch (one per thread): a batch of 9×9 puzzles
/// with a fresh matrix each would spend a third of its time building matrices.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    batch: Option<dlx::BatchSolver>,
    fc: Option<fc::FcSolver>,
    /// The puzzle has the machine to itself (a batch smaller than rayon's pool): DLX
    /// splits its search across the pool, and [`Engine::Auto`] races its engines at once.
    /// Without it (each thread of a batch has a puzzle of its own) `auto` first gives the
    /// default learner a short budget on the calling thread at 25×25, so easy puzzles cost
    /// no race.
    pub split: bool,
}

impl Workspace {
    /// A workspace that splits single DLX searches across rayon's pool, and lets `auto`
    /// race at once, when `split`.
    pub fn new(split: bool) -> Workspace {
        Workspace {
            split,
            ..Workspace::default()
        }
    }

    /// Solves `puzzle` with `engine` (see [`solve`]).
    ///
    /// # Errors
    /// [`GridError::Duplicate`] when a symbol is given twice in a house.
    pub fn solve(
        &mut self,
        puzzle: &Puzzle,
        engine: Engine,
        limits: &SolveLimits,
        control: &SearchControl,
    ) -> Result<Outcome, GridError> {
        puzzle.check()?;
        let limits = &limits.at_least_one();
        match engine {
            Engine::Dlx => self.dlx(puzzle, limits, control),
            Engine::Propagate => propagate::count(puzzle, limits, control),
            Engine::Learn => learn_outcome(puzzle, limits, control, &learn::LearnConfig::new(0)),
            Engine::Fc => {
                let start = Instant::now();
                if self.fc.as_ref().is_none_or(|f| f.shape() != puzzle.shape()) {
                    self.fc = Some(fc::FcSolver::new(puzzle.shape()));
                }
                let budget = fc::FcBudget::from_control(control, limits.node_limit);
                let solver = self.fc.as_mut().expect("set just above");
                let o = solver.solve(puzzle, limits.max_solutions, limits.keep, &budget)?;
                let solutions = o
                    .solutions
                    .into_iter()
                    .map(|g| g.cells().to_vec())
                    .collect();
                Ok(Outcome {
                    count: o.count,
                    solutions: checked_grids(puzzle.shape(), puzzle.cells(), solutions),
                    complete: o.complete,
                    capped: o.count >= limits.max_solutions,
                    stats: Stats::Fc(o.stats),
                    elapsed: start.elapsed(),
                })
            }
            Engine::Auto => portfolio::auto(self, puzzle, limits, control),
        }
    }

    fn dlx(
        &mut self,
        puzzle: &Puzzle,
        limits: &SolveLimits,
        control: &SearchControl,
    ) -> Result<Outcome, GridError> {
        // The matrix is built here: its time counts in the outcome's, as the docs say.
        let start = Instant::now();
        let mut outcome = if self.split {
            dlx::Solver::new(puzzle)?.solve_parallel(limits, control)
        } else {
            if self
                .batch
                .as_ref()
                .is_none_or(|b| b.shape() != puzzle.shape())
            {
                self.batch = Some(dlx::BatchSolver::new(puzzle.shape()));
            }
            self.batch
                .as_mut()
                .expect("set just above")
                .solve(puzzle, limits, control)?
        };
        outcome.elapsed = start.elapsed();
        Ok(outcome)
    }
}

/// The `i`-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 …, the restart
/// schedule of the fill search (`dlx::fill`) and of the learning engine.
pub(crate) fn luby(mut i: u64) -> u64 {
    loop {
        // Find k with 2^(k-1) <= i < 2^k.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests;
