//! Learners that count together: one thread per configuration, sharing the solutions they
//! find and their short learned clauses (a parallel portfolio with clause sharing, as
//! ManySAT and Plingeling do, on the item model).
//!
//! # Why sharing is sound while counting
//!
//! A learned clause follows from the items, the givens and the blocking clauses its learner
//! held when it learned it, not from the items alone: after blocking a solution, a learner
//! learns clauses that this solution violates, and another learner that imports one may
//! never see that solution. That loses nothing, because the solutions live in one list that
//! every learner appends to (unless the solution is there already) and the count is the
//! list's length. Every clause any learner holds follows from the givens and the blocking
//! clauses of listed solutions, so when one learner proves that its clauses leave no further
//! solution, every solution of the puzzle is in the list: the count is exact, whichever
//! learner proved it and whatever it imported. Each learner still blocks every listed
//! solution as soon as it sees the list grow (when it takes its inbox or finds a solution
//! itself), so that it does not search for a solution found already, and takes that
//! solution as its phases, as if it had found it: the second solution of a roster is
//! usually next to the first.
//!
//! # What is shared
//!
//! Learned clauses of LBD at most [`SHARE_LBD`] and at most [`SHARE_LEN`] literals (units
//! included): the "glue" clauses that reductions never delete, which are the ones worth
//! another learner's propagation time. A learner takes its inbox when it polls its budget
//! (every few conflicts) at a point where its propagation is complete, and adds each clause
//! where it is still useful: a clause that is unit or false on the current trail backjumps
//! to the level where it became so, as if it had been there all along.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::trail::{FALSE, Lit, TRUE, reason};
use super::{Answer, Budget, LearnConfig, LearnOutcome, LearnStats, Learner};
use crate::grid::{Grid, GridError, Puzzle};

/// Learned clauses with at most this LBD are sent to the other learners by default
/// ([`LearnConfig::share_lbd`]).
pub(super) const SHARE_LBD: u32 = 6;
/// Longer learned clauses are never sent.
pub(super) const SHARE_LEN: usize = 64;

/// What the learners of one count share.
#[derive(Debug)]
pub(super) struct Exchange {
    /// Per learner: clauses from the others, `[lbd, len, lit…]` each.
    inbox: Vec<Mutex<Vec<u32>>>,
    /// Per learner: whether its inbox may hold something.
    pending: Vec<AtomicBool>,
    /// The solutions found so far, in order, symbol per cell.
    solutions: Mutex<Vec<Vec<u8>>>,
    /// The length of `solutions`, readable without the lock.
    found: AtomicUsize,
    /// Raised when the count is settled (or a learner failed): everyone stops.
    done: AtomicBool,
}

impl Exchange {
    fn new(learners: usize) -> Exchange {
        Exchange {
            inbox: (0..learners).map(|_| Mutex::new(Vec::new())).collect(),
            pending: (0..learners).map(|_| AtomicBool::new(false)).collect(),
            solutions: Mutex::new(Vec::new()),
            found: AtomicUsize::new(0),
            done: AtomicBool::new(false),
        }
    }
}

/// A learner's place in an [`Exchange`].
#[derive(Clone, Debug)]
pub(super) struct Link {
    exchange: std::sync::Arc<Exchange>,
    /// This learner's index.
    me: usize,
    /// How many solutions of the shared list (its first ones) this learner has blocked.
    blocked: usize,
    /// The taken inbox, kept for its capacity.
    buffer: Vec<u32>,
}

impl Learner {
    /// Whether another learner settled the count, or this one is a scout and a solution
    /// is listed.
    #[inline]
    pub(super) fn share_done(&self) -> bool {
        self.share.as_ref().is_some_and(|l| {
            l.exchange.done.load(Ordering::Relaxed)
                || (self.config.scout && l.exchange.found.load(Ordering::Relaxed) > 0)
        })
    }

    /// Whether clauses or newly listed solutions wait for this learner.
    #[inline]
    pub(super) fn share_pending(&self) -> bool {
        self.share
            .as_ref()
            .is_some_and(|l| l.exchange.pending[l.me].load(Ordering::Relaxed))
    }

    /// Sends the clause just learned (in the analyzer) to the other learners if it is short
    /// and glue.
    pub(super) fn export_learned(&self, lbd: u32) {
        let Some(link) = &self.share else { return };
        let c = &self.analyzer.learnt;
        if c.len() > SHARE_LEN || (c.len() > 1 && lbd > self.config.share_lbd) {
            return;
        }
        for (k, inbox) in link.exchange.inbox.iter().enumerate() {
            if k == link.me {
                continue;
            }
            let mut q = inbox.lock().expect("no learner panics holding an inbox");
            q.extend([lbd, c.len() as u32]);
            q.extend(c.iter().map(|l| l.0));
            link.exchange.pending[k].store(true, Ordering::Release);
        }
    }

    /// Blocks the solutions other learners listed since the last look, then adds the
    /// clauses waiting in the inbox. Called with propagation complete and no conflict.
    /// Returns `false` when the clauses are now unsatisfiable.
    pub(super) fn import(&mut self) -> bool {
        let Some(mut link) = self.share.take() else {
            return true;
        };
        let mut ok = self.ok && self.block_listed(&mut link, None);
        let mut buf = std::mem::take(&mut link.buffer);
        if link.exchange.pending[link.me].swap(false, Ordering::Acquire) {
            let mut q = link.exchange.inbox[link.me]
                .lock()
                .expect("no learner panics holding an inbox");
            std::mem::swap(&mut *q, &mut buf);
        }
        let mut at = 0;
        while ok && at < buf.len() {
            let (lbd, len) = (buf[at], buf[at + 1] as usize);
            let c = at + 2;
            self.scratch.clear();
            self.scratch.extend(buf[c..c + len].iter().map(|&l| Lit(l)));
            ok = self.add_shared(lbd);
            at = c + len;
        }
        buf.clear();
        link.buffer = buf;
        self.share = Some(link);
        ok
    }

    /// Blocks every listed solution this learner has not blocked yet, except `own` (an
    /// index into the list, blocked by the caller), by the negation of every cell's symbol:
    /// a clause that excludes exactly that grid.
    fn block_listed(&mut self, link: &mut Link, own: Option<usize>) -> bool {
        if link.exchange.found.load(Ordering::Acquire) <= link.blocked {
            return true;
        }
        let n = self.shape.side();
        let (from, missing): (usize, Vec<Vec<u8>>) = {
            let list = link
                .exchange
                .solutions
                .lock()
                .expect("no learner panics holding the solutions");
            (link.blocked, list[link.blocked..].to_vec())
        };
        link.blocked += missing.len();
        let mut ok = true;
        let mut block = Vec::new();
        for (k, cells) in missing.iter().enumerate() {
            if Some(from + k) != own {
                block.clear();
                block.extend(cells.iter().enumerate().map(|(c, &v)| Lit::neg(c, v, n)));
                ok &= self.add_clause(&block);
                self.adopt_phases(cells);
            }
        }
        ok
    }

    /// Takes `cells`, a solution another learner found, as this learner's saved, target
    /// and best phases, as if it had found it itself: with target phases the search then
    /// looks next to it first, where a second solution usually is. On one 36×36 roster the
    /// default settings found the first solution in 0.13 s and needed 0.38 s more for a
    /// second, which the stable settings find without a conflict once they hold a solution.
    fn adopt_phases(&mut self, cells: &[u8]) {
        let n = self.shape.side();
        for (cell, &v) in cells.iter().enumerate() {
            for s in 0..n {
                let var = cell * n + s;
                let on = s + 1 == usize::from(v);
                self.heur.phase[var] = on;
                if self.config.target {
                    let t = if on { 1 } else { -1 };
                    self.heur.target[var] = t;
                    self.heur.best[var] = t;
                }
            }
        }
        if self.config.target {
            self.target_assigned = n * n * n;
            self.best_assigned = n * n * n;
        }
        self.config.phase = self.config.later_phase;
    }

    /// Adds `self.scratch` (a clause another learner learned) in the middle of a search:
    /// watched on two literals that are not false, or, when it is unit or false on the
    /// trail, after backjumping to where it became so, asserting its last open literal.
    fn add_shared(&mut self, lbd: u32) -> bool {
        let mut c = std::mem::take(&mut self.scratch);
        let trail = &self.trail;
        let root = |l: &Lit| trail.level[l.var() as usize] == 0 && trail.value(*l) != 0;
        if c.iter().any(|l| root(l) && trail.value(*l) == TRUE) {
            self.scratch = c;
            return true;
        }
        c.retain(|l| !root(l));
        c.sort_unstable();
        c.dedup();
        // Not false first, then false ones by falling level.
        c.sort_by_key(|l| {
            if trail.value(*l) == FALSE {
                (1, u32::MAX - trail.level[l.var() as usize])
            } else {
                (0, 0)
            }
        });
        let ok = match c.len() {
            0 => false,
            1 => {
                self.backtrack(0);
                self.trail.assign(c[0], reason::NONE);
                true
            }
            _ => {
                let (a, b) = (c[0], c[1]);
                let level = |l: Lit| self.trail.level[l.var() as usize];
                let (va, vb) = (self.trail.value(a), self.trail.value(b));
                if vb != FALSE || (va == TRUE && level(a) <= level(b)) {
                    self.db.add(&c, true, lbd);
                } else if va == FALSE && level(a) == level(b) {
                    // False, its two latest literals on one level: from the level below
                    // both are open.
                    self.backtrack(level(b) - 1);
                    self.db.add(&c, true, lbd);
                } else {
                    // Unit since level(b): `a` follows there.
                    self.backtrack(level(b));
                    let cref = self.db.add(&c, true, lbd);
                    self.trail.assign(a, reason::clause(cref));
                }
                true
            }
        };
        self.scratch = c;
        ok
    }
}

/// [`super::count`] with one learner per configuration, each on a thread of its own,
/// sharing solutions and short learned clauses; the first learner to settle the count
/// stops the others. The count is exact; with several solutions, which ones are kept
/// depends on which learner found them first. Stats are summed over the learners.
///
/// # Errors
/// [`GridError::Duplicate`] when the givens repeat a symbol in a house.
///
/// # Panics
/// If `configs` is empty or holds only scouts ([`LearnConfig::scout`]), or an engine
/// returns a grid that fails [`Grid::new`]'s check.
pub fn count_together(
    puzzle: &Puzzle,
    cap: u64,
    keep: usize,
    configs: &[LearnConfig],
    budget: &Budget,
) -> Result<LearnOutcome, GridError> {
    assert!(
        configs.iter().any(|c| !c.scout),
        "counting needs a learner that is not a scout"
    );
    if configs.len() == 1 {
        return super::count(puzzle, cap, keep, &configs[0], budget);
    }
    puzzle.check()?;
    let exchange = std::sync::Arc::new(Exchange::new(configs.len()));
    // Per learner: whether it settled the count, and its counters.
    let run = |me: usize| -> (bool, LearnStats) {
        let mut learner = Learner::for_puzzle(puzzle, &configs[me]);
        learner.share = Some(Link {
            exchange: exchange.clone(),
            me,
            blocked: 0,
            buffer: Vec::new(),
        });
        if configs[me].late {
            let start = std::time::Instant::now();
            while exchange.found.load(Ordering::Relaxed) == 0
                && !exchange.done.load(Ordering::Relaxed)
                && !budget.is_over()
                && start.elapsed() < super::config::LATE_WAIT
            {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        let settled = learner.count_shared(cap, &configs[me], budget);
        if settled {
            exchange.done.store(true, Ordering::Relaxed);
        }
        (settled, learner.stats())
    };
    let results: Vec<(bool, LearnStats)> = std::thread::scope(|scope| {
        let run = &run;
        let handles: Vec<_> = (1..configs.len())
            .map(|k| scope.spawn(move || run(k)))
            .collect();
        let first = run(0);
        std::iter::once(first)
            .chain(
                handles
                    .into_iter()
                    .map(|h| h.join().expect("learners do not panic")),
            )
            .collect()
    });
    let solutions = exchange
        .solutions
        .lock()
        .expect("no learner panics holding the solutions")
        .clone();
    let mut stats = LearnStats::default();
    for (_, s) in &results {
        stats.conflicts += s.conflicts;
        stats.decisions += s.decisions;
        stats.propagations += s.propagations;
        stats.restarts += s.restarts;
        stats.learned += s.learned;
        stats.deleted += s.deleted;
        stats.peak_learned += s.peak_learned;
        stats.locked += s.locked;
        stats.vivified += s.vivified;
        stats.learners += s.learners;
    }
    let shape = puzzle.shape();
    let count = (solutions.len() as u64).min(cap);
    let kept = solutions
        .into_iter()
        .take(keep.min(count as usize))
        .inspect(|cells| {
            let grid = Grid::new(shape, cells.clone()).expect("a learner's model is a valid grid");
            assert!(puzzle.is_completed_by(&grid), "the model keeps the givens");
        })
        .collect();
    Ok(LearnOutcome {
        count,
        solutions: kept,
        complete: results.iter().any(|r| r.0),
        stats,
    })
}

impl Learner {
    /// The counting loop of one learner of [`count_together`]; returns whether it settled
    /// the count (the cap reached, or no solution beyond the ones it blocked).
    fn count_shared(&mut self, cap: u64, config: &LearnConfig, budget: &Budget) -> bool {
        let mut block = Vec::new();
        loop {
            if !self.ok {
                return true;
            }
            if self.share_done() {
                return false;
            }
            match self.solve(&[], budget) {
                Answer::Sat => {
                    // This learner's own solution is blocked by its decisions (a short
                    // clause), every other one by the full grid.
                    self.blocking_clause(&mut block);
                    let mut link = self.share.take().expect("a shared learner has a link");
                    let own = {
                        let mut list = link
                            .exchange
                            .solutions
                            .lock()
                            .expect("no learner panics holding the solutions");
                        let own = list.iter().position(|s| *s == self.model);
                        own.unwrap_or_else(|| {
                            list.push(self.model.clone());
                            link.exchange.found.store(list.len(), Ordering::Release);
                            // The others block it when they next look at their inboxes.
                            for flag in &link.exchange.pending {
                                flag.store(true, Ordering::Release);
                            }
                            list.len() - 1
                        })
                    };
                    let mut ok = self.add_clause(&block);
                    ok &= self.block_listed(&mut link, Some(own));
                    let listed = link.blocked;
                    self.share = Some(link);
                    self.config.phase = config.later_phase;
                    if listed as u64 >= cap || !ok {
                        return true;
                    }
                }
                Answer::Unsat => return true,
                Answer::Unknown => return false,
            }
        }
    }
}
