//! The CDCL loop: propagate; on a conflict learn and backjump; otherwise restart, reduce,
//! place the next assumption or decide. Assumption levels left on the trail by the previous
//! call are kept when the new assumptions still contain them, so a caller that changes a
//! few assumptions between calls re-propagates only what changed after the first of them.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::trail::{FALSE, Lit, TRUE, reason};
use super::{Answer, Branch, Budget, Learner, Phase, Rephase, RestartPolicy};

/// Conflicts between polls of the interrupt flag and the deadline (a poll costs tens of
/// nanoseconds, a conflict tens of microseconds). A race waits for its losers to notice
/// they lost, so this bounds that wait: 16 conflicts are about a millisecond at 25×25,
/// where 256 were up to 15 ms.
const POLL_CONFLICTS: u64 = 16;
/// Propagations between polls when conflicts are rare (an empty 100×100 board makes about
/// 400 per decision).
const POLL_PROPAGATIONS: u64 = 1 << 12;

impl Learner {
    /// Orders `assumptions` so that the assumption levels still valid come first, and
    /// backtracks to the last of those.
    fn arrange(&mut self, assumptions: &[Lit]) {
        self.mark_gen += 2;
        let g = self.mark_gen;
        for a in assumptions {
            self.mark[a.index()] = g;
        }
        let on_trail = (self.trail.decision_level() as usize).min(self.assumed.len());
        let keep = self.assumed[..on_trail]
            .iter()
            .take_while(|a| self.mark[a.index()] == g)
            .count();
        self.assumed.truncate(keep);
        for a in &self.assumed {
            self.mark[a.index()] = g + 1;
        }
        for &a in assumptions {
            if self.mark[a.index()] == g {
                self.assumed.push(a);
                self.mark[a.index()] = g + 1;
            }
        }
        self.backtrack(keep as u32);
    }

    /// Runs the search under `assumptions` until an answer or the budget runs out.
    pub(super) fn search(&mut self, assumptions: &[Lit], budget: &Budget) -> Answer {
        if !self.ok {
            return Answer::Unsat;
        }
        // The polls below count from this call: a count of many quick solutions (an empty
        // 9×9) makes each call too short to reach one.
        if budget.is_over() {
            return Answer::Unknown;
        }
        self.arrange(assumptions);
        let start_conflicts = self.stats.conflicts;
        let mut published = self.stats.conflicts;
        let mut next_poll_conflicts = self.stats.conflicts + POLL_CONFLICTS;
        let mut next_poll_props = self.stats.propagations + POLL_PROPAGATIONS;
        let answer = loop {
            let found = self.propagate();
            if found.is_none() {
                self.no_conflict_until = self.trail.lits.len();
            }
            if let Some(conflict) = found {
                self.stats.conflicts += 1;
                if let Some(&start) = self.trail.lim.last() {
                    self.no_conflict_until = start as usize;
                }
                if self.trail.decision_level() == 0 {
                    self.ok = false;
                    break Answer::Unsat;
                }
                let (bt, lbd) = self.analyzer.analyze(
                    conflict,
                    &self.trail,
                    &self.items,
                    &mut self.db,
                    &mut self.heur,
                    self.config.bump_reasons,
                );
                self.export_learned(lbd);
                // A clause that asserts inside the assumption levels is assigned at the
                // last of them instead: backjumping further would re-place and re-propagate
                // hundreds of assumptions after every such conflict (5x slower conflicts in
                // the generator's removal checks). The clause is unit there too, and every
                // literal keeps antecedents of lower or equal level.
                let assumed = self.assumed.len() as u32;
                let bt = if self.analyzer.learnt.len() > 1 && bt < assumed {
                    bt.max(assumed.min(self.trail.decision_level() - 1))
                } else {
                    bt
                };
                self.backtrack(bt);
                let asserting = self.analyzer.learnt[0];
                if self.analyzer.learnt.len() == 1 {
                    self.trail.assign(asserting, reason::NONE);
                } else {
                    let cref = self.db.add(&self.analyzer.learnt, true, lbd);
                    self.trail.assign(asserting, reason::clause(cref));
                }
                self.heur.decay();
                self.restarts.on_conflict(lbd);
                if self.stats.conflicts - start_conflicts >= budget.conflicts {
                    break Answer::Unknown;
                }
                if self.stats.conflicts >= next_poll_conflicts {
                    next_poll_conflicts = self.stats.conflicts + POLL_CONFLICTS;
                    if let Some(p) = budget.progress {
                        p.fetch_add(self.stats.conflicts - published, Ordering::Relaxed);
                        published = self.stats.conflicts;
                    }
                    self.publish(budget);
                    if budget.is_over() || self.pace(budget) {
                        break Answer::Unknown;
                    }
                }
                continue;
            }
            if self.stats.propagations >= next_poll_props {
                next_poll_props = self.stats.propagations + POLL_PROPAGATIONS;
                if budget.is_over() || self.pace(budget) {
                    break Answer::Unknown;
                }
            }
            // Clauses from learners counting alongside (`share.rs`).
            if self.share_pending() {
                if !self.import() {
                    self.ok = false;
                    break Answer::Unsat;
                }
                continue;
            }
            let level = self.trail.decision_level();
            if self.restarts.due() {
                if self.restarts.restarted() {
                    self.heur.set_decay(if self.restarts.stable {
                        self.config.decay
                    } else {
                        self.config.focused_decay
                    });
                }
                self.stats.restarts += 1;
                self.backtrack(level.min(self.assumed.len() as u32));
                if self.vivify_due && self.assumed.is_empty() {
                    self.vivify_due = false;
                    if self.config.vivify > 0 && !self.vivify() {
                        break Answer::Unsat;
                    }
                }
            }
            if self.config.target && self.stats.conflicts >= self.next_rephase {
                self.rephase();
            }
            if self.stats.conflicts >= self.next_reduce {
                self.reductions += 1;
                // Saturating: a huge interval (a library caller's) means no more reductions.
                self.next_reduce = self.stats.conflicts.saturating_add(
                    self.config
                        .reduce_first
                        .saturating_add(self.config.reduce_inc.saturating_mul(self.reductions)),
                );
                self.db.reduce(&mut self.trail);
                self.vivify_due = true;
            }
            let level = self.trail.decision_level() as usize;
            if level < self.assumed.len() {
                let a = self.assumed[level];
                match self.trail.value(a) {
                    TRUE => self.trail.new_level(),
                    FALSE => break Answer::Unsat,
                    _ => {
                        self.trail.new_level();
                        self.trail.assign(a, reason::NONE);
                    }
                }
                continue;
            }
            let Some(lit) = self.decide() else {
                self.save_model();
                break Answer::Sat;
            };
            self.stats.decisions += 1;
            self.trail.new_level();
            self.trail.assign(lit, reason::NONE);
        };
        if let Some(p) = budget.progress {
            p.fetch_add(self.stats.conflicts - published, Ordering::Relaxed);
        }
        self.publish(budget);
        answer
    }

    /// The next decision, or `None` when every option has a value.
    fn decide(&mut self) -> Option<Lit> {
        match self.config.branch {
            Branch::Vsids | Branch::Auto => self.decide_vsids(),
            Branch::Global => {
                // The open item with the fewest live options; ties go to the item with
                // the highest-scored option. After a complete propagation every live
                // member of an item with 2+ live is open.
                // Two passes: the smallest count first (a plain scan of the counters),
                // then the scores of the items that have it.
                let fewest = self.items.fewest_live_above_one();
                let mut best = (u32::MAX, 0.0f64, u32::MAX);
                if fewest != u32::MAX {
                    self.items.items_with(fewest, |it| {
                        let (_, act) = self.best_member(it);
                        if best.2 == u32::MAX || act > best.1 {
                            best = (fewest, act, it);
                        }
                    });
                }
                if best.2 == u32::MAX {
                    // Every item is down to one option, so every option has a value (the
                    // last one of an item is forced true, which makes the rest false). The
                    // heap is empty with these decisions (`Heuristic::without_heap`).
                    debug_assert!((0..self.items.n.pow(3)).all(|v| self.trail.is_assigned(v)));
                    return self.decide_vsids();
                }
                Some(Lit::of(self.best_member(best.2).0, true))
            }
        }
    }

    /// The highest-scored live member of `item`, and its score.
    fn best_member(&self, item: u32) -> (u32, f64) {
        let (base, offsets) = self.items.members(item);
        let mut mask = self.items.live_mask(item);
        let mut best = (u32::MAX, f64::MIN);
        while mask != 0 {
            let j = mask.trailing_zeros();
            mask &= mask - 1;
            let x = base + offsets[j as usize];
            let a = self.heur.activity(x);
            if a > best.1 && !self.trail.is_assigned(x) {
                best = (x, a);
            }
        }
        best
    }

    /// The VSIDS decision.
    fn decide_vsids(&mut self) -> Option<Lit> {
        // At the root, when most of the heap is options with a value (the givens'), drop
        // them at once rather than one pop each.
        if self.trail.decision_level() == 0 {
            let open = self.trail.pos.len() - self.trail.lits.len();
            if self.heur.len() > 2 * open + 1024 {
                let trail = &self.trail;
                self.heur.retain(|v| !trail.is_assigned(v));
            }
        }
        loop {
            let v = self.heur.pop()?;
            if self.trail.is_assigned(v) {
                continue;
            }
            // Modes: stable mode uses saved phases, focused mode the configured choice.
            let phase = if self.restarts.stable
                && matches!(self.config.restarts, RestartPolicy::Modes { .. })
            {
                Phase::Saved
            } else {
                self.config.phase
            };
            if self.config.target {
                let t = self.heur.target[v as usize];
                if t != 0 {
                    return Some(Lit::of(v, t > 0));
                }
            }
            return Some(match phase {
                Phase::True => Lit::of(v, true),
                Phase::Saved => Lit::of(v, self.heur.phase[v as usize]),
                Phase::Cell => {
                    let n = self.items.n;
                    let cell = v / n;
                    let s = u32::from(self.heur.cell_phase[cell as usize]);
                    let w = cell * n + s;
                    if s < n && w != v && !self.trail.is_assigned(w) {
                        // v stays a candidate.
                        self.heur.insert(v);
                        Lit::of(w, true)
                    } else {
                        Lit::of(v, true)
                    }
                }
            });
        }
    }

    /// Resets the saved phases by the next step of the rephase cycle and forgets the target.
    fn rephase(&mut self) {
        let cycle = self.config.rephase;
        self.rephases += 1;
        self.next_rephase = self
            .stats
            .conflicts
            .saturating_add(self.config.rephase_int.saturating_mul(self.rephases + 1));
        if cycle.is_empty() {
            return;
        }
        let step = cycle[(self.rephases as usize - 1) % cycle.len()];
        let phase = &mut self.heur.phase;
        match step {
            Rephase::Best => {
                for (p, &b) in phase.iter_mut().zip(&self.heur.best) {
                    if b != 0 {
                        *p = b > 0;
                    }
                }
                self.best_assigned = 0;
            }
            Rephase::False => phase.fill(false),
            Rephase::True => phase.fill(true),
            Rephase::Flip => phase.iter_mut().for_each(|p| *p = !*p),
        }
        self.heur.target.fill(0);
        self.target_assigned = 0;
    }

    /// Copies the full assignment into the model (symbol per cell).
    fn save_model(&mut self) {
        let n = self.items.n as usize;
        self.model.clear();
        for cell in 0..n * n {
            let v = (0..n)
                .find(|&s| self.trail.is_true_var((cell * n + s) as u32))
                .expect("a full assignment without conflict has one true option per cell");
            self.model.push(v as u8 + 1);
        }
    }

    /// The negated decisions of the current (satisfying) trail: a clause that every other
    /// solution satisfies and this one does not, since propagation from the decisions
    /// fixes every option.
    pub(super) fn blocking_clause(&self, out: &mut Vec<Lit>) {
        out.clear();
        for &start in &self.trail.lim {
            let start = start as usize;
            if let Some(&lit) = self.trail.lits.get(start) {
                if self.trail.reason[lit.var() as usize] == reason::NONE
                    && self.trail.level[lit.var() as usize] > 0
                {
                    out.push(lit.negate());
                }
            }
        }
        debug_assert!(out.iter().all(|&l| self.trail.value(l) == FALSE));
    }
}

impl Budget<'_> {
    /// Whether the interrupt flag is up or the deadline has passed.
    pub(super) fn is_over(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .control
                .is_some_and(crate::solve::SearchControl::should_stop)
    }
}
