//! Unit propagation over the items and the watched clauses, and backtracking.
//!
//! The trail is processed in order. A true option excludes the other members of its four
//! items (at-most-one, reason "implied by x"); a false option leaves its items' counters,
//! and an item down to one live member forces it (at-least-one, reason "the item"), down to
//! none is a conflict. Then the clauses watching the literal that just became false are
//! visited. With [`super::LearnConfig::locked`], a symbol item whose live members lie in one
//! crossing item (a box's in one row or column, a row's or column's in one box) clears the
//! rest of that item. Only the processed prefix of the trail (`qhead`) is reflected in the item
//! counters, so backtracking restores exactly the entries that were counted.

use super::Learner;
use super::trail::{FALSE, Lit, TRUE, reason};

/// A constraint with every literal false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Conflict {
    /// Two true options share an item.
    Amo(u32, u32),
    /// Every member of the item is false.
    Alo(u32),
    /// Every literal of the clause is false.
    Clause(u32),
}

impl Learner {
    /// Propagates to a fixpoint or the first conflict.
    pub(super) fn propagate(&mut self) -> Option<Conflict> {
        while self.trail.qhead < self.trail.lits.len() {
            let p = self.trail.lits[self.trail.qhead];
            self.stats.propagations += 1;
            let found = if p.is_pos() {
                self.trail.qhead += 1;
                self.exclude(p.var())
            } else {
                self.count_out(p.var())
            };
            if found.is_some() {
                return found;
            }
            let found = self.propagate_clauses(p.negate());
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Option `x` is true: every other member of its items becomes false.
    fn exclude(&mut self, x: u32) -> Option<Conflict> {
        let (its, _) = self.items.of(x);
        for it in its {
            // Only x left alive: the others are already counted out.
            if self.items.live(it).0 == 1 {
                continue;
            }
            let (base, offsets) = self.items.members(it);
            // Members counted out already are false: only the live ones need a look.
            let mut mask = self.items.live_mask(it);
            while mask != 0 {
                let j = mask.trailing_zeros();
                mask &= mask - 1;
                let y = base + offsets[j as usize];
                if y == x {
                    continue;
                }
                let yl = Lit::of(y, true);
                match self.trail.value(yl) {
                    TRUE => return Some(Conflict::Amo(x, y)),
                    FALSE => {}
                    _ => self.trail.assign(yl.negate(), reason::amo(x)),
                }
            }
        }
        None
    }

    /// Option `y` is false: count it out of its items, then force or fail what that leaves.
    fn count_out(&mut self, y: u32) -> Option<Conflict> {
        let (its, pos) = self.items.of(y);
        let counts = self.items.remove(&its, &pos);
        // Counted: from here on the entry is part of the processed prefix.
        self.trail.qhead += 1;
        for (it, live) in its.into_iter().zip(counts) {
            match live {
                0 => return Some(Conflict::Alo(it)),
                1 => {
                    let z = Lit::of(self.items.member(it, self.items.last(it)), true);
                    match self.trail.value(z) {
                        TRUE => {}
                        // False but not yet counted: the item has no live member left.
                        FALSE => return Some(Conflict::Alo(it)),
                        _ => self.trail.assign(z, reason::alo(it)),
                    }
                }
                _ => {}
            }
        }
        if self.config.locked {
            self.lock(&its, &counts);
        }
        None
    }

    /// Locked candidates (pointing and claiming): a symbol item whose live members all lie
    /// in one crossing item makes that item's other members false. Checked on the symbol
    /// items of the option just counted out, when they have 2..=b live members; each
    /// elimination's reason names the item (`reason::line`). `counts` are the items' live
    /// counts, as `count_out` read them.
    fn lock(&mut self, its: &[u32; 4], counts: &[u32; 4]) {
        let b = self.items.box_side();
        for t in 1..4 {
            let (a, live) = (its[t], counts[t]);
            if live < 2 || live > b {
                continue;
            }
            let Some((cross, shared)) = self.items.locked(a) else {
                continue;
            };
            let (base, offsets) = self.items.members(cross);
            // Members counted out already are false, and those shared with `a` stay: only
            // the other live ones need a look.
            let mut mask = self.items.live_mask(cross) & !shared;
            while mask != 0 {
                let j = mask.trailing_zeros();
                mask &= mask - 1;
                let x = base + offsets[j as usize];
                // True (its exclusions will empty `a`) or already false: nothing to add.
                if self.trail.value(Lit::of(x, true)) != 0 {
                    continue;
                }
                self.trail.assign(Lit::of(x, false), reason::line(a));
                self.stats.locked += 1;
            }
        }
    }

    /// Visits the clauses watching `f`, which just became false.
    fn propagate_clauses(&mut self, f: Lit) -> Option<Conflict> {
        if !self.db.is_watched(f) {
            return None;
        }
        let mut ws = std::mem::take(&mut self.db.watches[f.index()]);
        let mut conflict = None;
        let mut i = 0;
        let mut j = 0;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.trail.value(w.blocker) == TRUE {
                ws[j] = w;
                j += 1;
                continue;
            }
            let range = self.db.range(w.cref);
            let arena = &mut self.db.arena;
            let (c0, c1) = (range.start, range.start + 1);
            // Keep the false literal in slot 1.
            if arena[c0] == f.0 {
                arena.swap(c0, c1);
            }
            let first = Lit(arena[c0]);
            if first != w.blocker && self.trail.value(first) == TRUE {
                ws[j] = super::clauses::Watch {
                    cref: w.cref,
                    blocker: first,
                };
                j += 1;
                continue;
            }
            // A new watch: prefer a true literal or an open negative one ("x is not here"),
            // which turns false only when x is chosen, 1 time in n; an open positive one
            // turns false n−1 times in n.
            // The look past an open positive one is short: clauses learned under hundreds
            // of assumptions end in long runs of false literals (sorted by falling level),
            // and scanning them to the end made conflicts 4x slower.
            // The search starts where the last one ended (the clause's `pos` word, just
            // before its literals) and wraps around.
            let len = range.end - c0;
            let mut k = c0 + (arena[c0 - 1] as usize).clamp(2, len);
            let mut pick = usize::MAX;
            let mut left = len - 2;
            while left > 0 {
                if k >= range.end {
                    k = c1 + 1;
                }
                let l = Lit(arena[k]);
                let v = self.trail.value(l);
                if v == TRUE || (v == 0 && !l.is_pos()) {
                    pick = k;
                    break;
                }
                if v == 0 && pick == usize::MAX {
                    pick = k;
                    left = left.min(8);
                }
                k += 1;
                left -= 1;
            }
            if pick != usize::MAX {
                arena[c0 - 1] = (pick - c0) as u32;
                arena.swap(c1, pick);
                let new = Lit(arena[c1]);
                self.db.push_watch(
                    new,
                    super::clauses::Watch {
                        cref: w.cref,
                        blocker: first,
                    },
                );
                continue;
            }
            ws[j] = w;
            j += 1;
            if self.trail.value(first) == FALSE {
                conflict = Some(Conflict::Clause(w.cref));
                while i < ws.len() {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                }
            } else {
                self.trail.assign(first, reason::clause(w.cref));
            }
        }
        ws.truncate(j);
        self.db.put_watches(f, ws);
        conflict
    }

    /// Undoes every level above `level`, saving phases and returning options to the heap.
    pub(super) fn backtrack(&mut self, level: u32) {
        if self.trail.decision_level() <= level {
            return;
        }
        if self.config.target {
            self.update_target_and_best();
        }
        self.undo(level, true);
    }

    /// Undoes every level above `level`, returning options to the heap; `save` keeps
    /// their values as saved phases (not for vivification's probes).
    pub(super) fn undo(&mut self, level: u32, save: bool) {
        if self.trail.decision_level() <= level {
            return;
        }
        let start = self.trail.lim[level as usize] as usize;
        for i in (start..self.trail.lits.len()).rev() {
            let lit = self.trail.lits[i];
            let var = lit.var();
            if !lit.is_pos() && i < self.trail.qhead {
                let (its, pos) = self.items.of(var);
                self.items.restore(&its, &pos);
            }
            self.trail.unassign(lit);
            if save {
                self.heur.phase[var as usize] = lit.is_pos();
                if lit.is_pos() {
                    let (its, pos) = self.items.of(var);
                    self.heur.cell_phase[its[0] as usize] = pos[0] as u8;
                }
            }
            self.heur.insert(var);
        }
        self.trail.lits.truncate(start);
        self.trail.lim.truncate(level as usize);
        self.trail.qhead = self.trail.qhead.min(start);
        self.no_conflict_until = self.no_conflict_until.min(start);
    }

    /// Before backtracking: a conflict-free trail longer than the target's (best's) becomes
    /// the target (best) phases.
    fn update_target_and_best(&mut self) {
        let upto = self.no_conflict_until.min(self.trail.lits.len());
        let (target, best) = (upto > self.target_assigned, upto > self.best_assigned);
        if !(target || best) {
            return;
        }
        for &l in &self.trail.lits {
            let value = if l.is_pos() { 1 } else { -1 };
            if target {
                self.heur.target[l.var() as usize] = value;
            }
            if best {
                self.heur.best[l.var() as usize] = value;
            }
        }
        if target {
            self.target_assigned = upto;
        }
        if best {
            self.best_assigned = upto;
        }
    }
}
