//! Learners that count together: one thread per configuration, sharing the solutions they
//! find and their short learned clauses (a parallel portfolio with clause sharing, as
//! ManySAT and Plingeling do, on the item model).
//!
//! # Why sharing is sound while counting
//!
//! A learned clause follows from the items, the givens and the blocking clauses its learner
//! held when it learned it, not from the items alone: after blocking a solution, a learner
//! learns clauses that this solution violates, and another learner that imports one may
//! never see that solution. That loses nothing, because every solution a learner finds goes
//! into one list (unless it is there already) and the count is the list's length. Every
//! clause any learner holds follows from the givens and the blocking clauses of solutions in
//! the list (or handed in for it at the end of the epoch), so when one learner proves that
//! its clauses leave no further solution, every solution of the puzzle is in the list: the
//! count is exact, whichever learner proved it and whatever it imported. Each learner still
//! blocks every listed solution as soon as it reads the list, so that it does not search for
//! a solution found already, and takes that solution as its phases, as if it had found it:
//! the second solution of a roster is usually next to the first.
//!
//! # What is shared
//!
//! Learned clauses of LBD at most [`SHARE_LBD`] and at most [`SHARE_LEN`] literals (units
//! included): the "glue" clauses that reductions never delete, which are the ones worth
//! another learner's propagation time.
//!
//! # Lockstep
//!
//! The learners exchange at barriers (`solve::lockstep`): each hands in what it learned and
//! found during an epoch of [`epoch_propagations`](super::epoch_propagations) propagated
//! options (a few milliseconds), and once all have arrived, each reads what the others
//! handed in, in learner order, at the next point where its propagation is complete. A
//! clause is added where it is still useful: one that is unit or false on the current trail
//! backjumps to the level where it became so, as if it had been there all along. Nothing a
//! learner does depends on when the others' clauses arrive on the clock, so a count gives
//! the same solutions in the same order on every run. Sending at once instead, as before,
//! made `solve --first` print a different completion of a roster on each run. Against that
//! lockstep costs the faster learner its wait at each barrier and delays every shared
//! clause by up to an epoch: measured in the portfolio docs.
//!
//! A scout leaves at the first barrier where a solution is listed; a late learner starts at
//! that barrier.

use std::sync::Arc;

use super::trail::{FALSE, Lit, TRUE, reason};
use super::{Answer, Budget, LearnConfig, LearnOutcome, LearnStats, Learner};
use crate::grid::{GridError, Puzzle};
use crate::solve::lockstep::{Deposit, LeaveOnPanic, Lockstep, Pacer, Step};

/// Learned clauses with at most this LBD are sent to the other learners by default
/// ([`LearnConfig::share_lbd`]).
pub(super) const SHARE_LBD: u32 = 6;
/// Longer learned clauses are never sent.
pub(super) const SHARE_LEN: usize = 64;

/// A learner's place in a [`Lockstep`].
#[derive(Clone, Debug)]
pub(super) struct Link {
    /// Its clock (in propagated options) and place in the lockstep.
    pacer: Arc<Pacer>,
    /// What it hands in at the end of the epoch.
    deposit: Deposit,
    /// The log has something new for it (set at each barrier).
    pending: bool,
    /// Solutions of the shared list it has read.
    listed: usize,
    /// Its own solutions not read back from the list yet (blocked by its own clause).
    own: Vec<Vec<u8>>,
    /// Read buffer, kept for its capacity.
    buffer: Vec<u32>,
}

impl Learner {
    /// Whether the lockstep told this learner to stop (another participant settled the
    /// count, or this one is a scout and a solution is listed).
    #[inline]
    pub(super) fn share_done(&self) -> bool {
        self.share.as_ref().is_some_and(|l| l.pacer.is_stopped())
    }

    /// Whether clauses or newly listed solutions wait for this learner.
    #[inline]
    pub(super) fn share_pending(&self) -> bool {
        self.share.as_ref().is_some_and(|l| l.pending)
    }

    /// Keeps the clause just learned (in the analyzer) for the other learners if it is
    /// short and glue; they get it at the end of the epoch.
    pub(super) fn export_learned(&mut self, lbd: u32) {
        let Some(link) = &mut self.share else { return };
        let c = &self.analyzer.learnt;
        if c.len() > SHARE_LEN || (c.len() > 1 && lbd > self.config.share_lbd) {
            return;
        }
        link.deposit.clauses.extend([lbd, c.len() as u32]);
        link.deposit.clauses.extend(c.iter().map(|l| l.0));
    }

    /// Where the search polls its budget: at the end of an epoch (counted in propagated
    /// options), waits at the lockstep's barrier. `true` when the search must stop.
    pub(super) fn pace(&mut self, budget: &Budget) -> bool {
        let props = self.stats.propagations;
        if let Some(link) = &mut self.share {
            let scout = self.config.scout;
            return match link
                .pacer
                .step(props, &mut link.deposit, scout, &|| budget.is_over())
            {
                None => false,
                Some(Step::Continue) => {
                    link.pending = true;
                    false
                }
                Some(Step::Stop) => true,
            };
        }
        // A lone learner in a race of engines keeps pace with the others.
        budget
            .control
            .and_then(|c| c.pacer.as_deref())
            .is_some_and(|p| p.pace(props, &|| budget.is_over()))
    }

    /// Blocks the solutions listed since the last look, then adds the clauses the others
    /// handed in. Called with propagation complete and no conflict. Returns `false` when
    /// the clauses are now unsatisfiable.
    pub(super) fn import(&mut self) -> bool {
        let Some(mut link) = self.share.take() else {
            return true;
        };
        link.pending = false;
        let mut buf = std::mem::take(&mut link.buffer);
        let listed = link
            .pacer
            .lockstep
            .read(link.pacer.me, &mut buf, link.listed);
        link.listed += listed.len();
        let mut ok = self.ok;
        let n = self.shape.side();
        let mut block = Vec::new();
        for cells in &listed {
            if let Some(k) = link.own.iter().position(|o| o == cells) {
                // Found here: blocked already.
                link.own.swap_remove(k);
                continue;
            }
            block.clear();
            block.extend(cells.iter().enumerate().map(|(c, &v)| Lit::neg(c, v, n)));
            ok &= self.add_clause(&block);
            self.adopt_phases(cells);
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
/// sharing solutions and short learned clauses in lockstep (see the module docs); the first
/// learner to settle the count stops the others. The count is exact, and the same puzzle
/// and configurations give the same solutions in the same order on every run. Inside a
/// race (a `budget` whose control carries a pacer), the learners take the race's
/// participant places from the pacer's on. Stats are summed over the learners.
///
/// # Errors
/// [`GridError::Duplicate`] when the givens repeat a symbol in a house.
///
/// # Panics
/// If `configs` is empty or holds only scouts ([`LearnConfig::scout`]), or a solution it
/// counts, kept or not, fails [`Puzzle::is_solved_by`]'s independent check (a bug).
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
    let cap = cap.max(1);
    if configs.len() == 1 {
        return super::count(puzzle, cap, keep, &configs[0], budget);
    }
    puzzle.check()?;
    let (lockstep, first) = match budget.control.and_then(|c| c.pacer.as_deref()) {
        Some(p) => (p.lockstep.clone(), p.me),
        None => {
            let late: Vec<bool> = configs.iter().map(|c| c.late).collect();
            (Arc::new(Lockstep::new(&late)), 0)
        }
    };
    // Per learner: whether it settled the count, and its counters.
    let run = |k: usize| -> (bool, LearnStats) {
        let me = first + k;
        let _left = LeaveOnPanic(&lockstep, me);
        if configs[k].late && !lockstep.wait_start(me, &|| budget.is_over()) {
            return (false, LearnStats::default());
        }
        let mut learner = Learner::for_puzzle(puzzle, &configs[k], budget);
        learner.share = Some(Link {
            // The epochs count from here: the givens' propagation is not part of them.
            pacer: Arc::new(Pacer::new(
                lockstep.clone(),
                me,
                super::epoch_propagations(puzzle.shape().side()),
                learner.stats.propagations,
            )),
            deposit: Deposit::default(),
            // A late learner first reads what the others shared before it started.
            pending: true,
            listed: 0,
            own: Vec::new(),
            buffer: Vec::new(),
        });
        let settled = learner.count_shared(cap, &configs[k], budget);
        let mut link = learner.share.take().expect("a shared learner has a link");
        link.pacer.leave(&mut link.deposit, settled);
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
    let (solutions, winner) = lockstep.outcome();
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
    let count = (solutions.len() as u64).min(cap);
    // Every counted model, kept or not, passes the independent check.
    assert!(
        solutions[..count as usize]
            .iter()
            .all(|cells| puzzle.is_solved_by(cells)),
        "every model the learners count solves the puzzle"
    );
    let kept = solutions
        .into_iter()
        .take(keep.min(count as usize))
        .collect();
    Ok(LearnOutcome {
        count,
        solutions: kept,
        // Settled by one of these learners (in a race, another engine may have won).
        complete: winner.is_some_and(|w| (first..first + configs.len()).contains(&w))
            && results.iter().any(|r| r.0),
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
            match self.solve_within_total(budget) {
                Answer::Sat => {
                    // Its own solution is blocked by its decisions (a short clause), and
                    // listed for the others at the end of the epoch.
                    self.blocking_clause(&mut block);
                    let link = self.share.as_mut().expect("a shared learner has a link");
                    link.own.push(self.model.clone());
                    link.deposit.solutions.push(self.model.clone());
                    let known = (link.listed + link.own.len()) as u64;
                    let ok = self.add_clause(&block);
                    self.config.phase = config.later_phase;
                    if known >= cap || !ok {
                        return true;
                    }
                }
                Answer::Unsat => return true,
                Answer::Unknown => return false,
            }
        }
    }
}
