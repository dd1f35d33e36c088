//! [`SearchControl`]: the shared handles that stop a search and let another thread watch
//! it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::lockstep;

/// Shared handles that stop a search and let another thread watch it.
///
/// Clones share the same atomics. Searches poll [`SearchControl::should_stop`] and add to
/// [`SearchControl::nodes`] every few hundred nodes, so a progress bar can read the counters
/// on a timer and Ctrl-C stops a search within milliseconds. Which counter moves depends on
/// the engine ([`SearchControl::work`] sums the two that searches count). The counters add
/// up over every search that uses the control, and a stop stays raised: give each search
/// that should start afresh a control of its own.
///
/// ```
/// use shiftgrid::Puzzle;
/// use shiftgrid::solve::{solve, Engine, SearchControl, SolveLimits};
///
/// let puzzle: Puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///     .parse()
///     .unwrap();
/// let control = SearchControl::default();
/// let watcher = control.clone(); // another thread would poll watcher.work() on a timer
/// let o = solve(&puzzle, Engine::Auto, &SolveLimits::count_up_to(2), &control).unwrap();
/// assert!(o.complete && o.count == 1);
/// assert!(watcher.work() > 0);
/// // Stopped (from any thread holding a clone), a search ends incomplete: here a count of
/// // every 9×9 grid, which would otherwise run for ages.
/// watcher.stop();
/// let empty: Puzzle = ".".repeat(81).parse().unwrap();
/// let all = SolveLimits { keep: 0, ..SolveLimits::count_up_to(u64::MAX) };
/// let o = solve(&empty, Engine::Dlx, &all, &control).unwrap();
/// assert!(!o.complete);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    /// The user's stop (Ctrl-C): raise it to stop every search using this control, and
    /// every control derived from it.
    pub interrupt: Arc<AtomicBool>,
    /// Stop (incomplete) once this instant has passed.
    pub deadline: Option<Instant>,
    /// Search-tree nodes explored so far, summed over workers and the engines that count
    /// nodes (DLX, propagation, forward checking, fill); the learning engine counts
    /// [`SearchControl::conflicts`] instead.
    pub nodes: Arc<AtomicU64>,
    /// Conflicts of the learning engine so far.
    pub conflicts: Arc<AtomicU64>,
    /// Learned clauses the learning engine's live learners hold now, summed (it falls at
    /// each reduction and when a learner ends).
    pub learned: Arc<AtomicU64>,
    /// For fills: the most cells any worker has placed so far.
    pub placed: Arc<AtomicU64>,
    /// Restarts so far, summed over fill workers and learners.
    pub restarts: Arc<AtomicU64>,
    /// For puzzle generation: removal checks done.
    pub checks: Arc<AtomicU64>,
    /// For puzzle generation: givens left in the puzzle being made.
    pub givens: Arc<AtomicU64>,
    /// For puzzle generation: removal checks still to come in the first pass (0 until the
    /// first batch of checks is done).
    pub queued: Arc<AtomicU64>,
    /// For puzzle generation: whether the first minimal puzzle is made and rounds of
    /// improvement are under way.
    pub improving: Arc<AtomicBool>,
    /// For puzzle generation: rounds of improvement finished.
    pub rounds: Arc<AtomicU64>,
    /// For puzzle generation: rounds of improvement added to those asked for, because the
    /// puzzle kept more givens than wanted (`generate::MoreRounds`).
    pub more_rounds: Arc<AtomicU64>,
    /// In a race: this engine's clock and place in the race's lockstep (see
    /// `solve::lockstep`), which makes the race's answer independent of thread timing.
    pub(crate) pacer: Option<Arc<lockstep::Pacer>>,
}

impl SearchControl {
    /// This control with `deadline` (replacing any earlier one, unless that one is sooner).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> SearchControl {
        self.deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// Stops every search that uses this control or a clone of it (what Ctrl-C does in the
    /// CLI): they end soon after, incomplete. The stop stays raised.
    pub fn stop(&self) {
        self.interrupt.store(true, Ordering::Relaxed);
    }

    /// The search work done so far, in the units the engines count: nodes (dancing links,
    /// propagation, forward checking, fill) plus conflicts (the learning engine), for a
    /// progress display that need not know which engine runs.
    pub fn work(&self) -> u64 {
        self.nodes
            .load(Ordering::Relaxed)
            .saturating_add(self.conflicts.load(Ordering::Relaxed))
    }

    /// Whether a search should stop now: the user interrupted or the deadline passed.
    pub fn should_stop(&self) -> bool {
        self.is_interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// [`SearchControl::should_stop`], and in a race, at the end of an epoch of `work`
    /// (the engine's own deterministic counter, such as nodes), the wait for the others.
    pub(crate) fn paced_stop(&self, work: u64) -> bool {
        self.should_stop()
            || self
                .pacer
                .as_deref()
                .is_some_and(|p| p.pace(work, &|| self.should_stop()))
    }

    /// Whether the user interrupted (Ctrl-C), as opposed to a deadline.
    pub fn is_interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Whether the deadline has passed.
    pub fn is_past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
