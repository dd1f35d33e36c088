//! Conflict analysis: the first unique implication point (Marques-Silva & Sakallah; Chaff),
//! recursive minimisation of the learned clause (Sörensson & Biere 2009), its LBD
//! (Audemard & Simon 2009) and the backjump level.
//!
//! Reasons are implicit (see `trail.rs`), so resolving on a variable enumerates its
//! antecedents from the tag: one true option for at-most-one, the item's other members for
//! at-least-one, the clause's other literals for a clause, the members of a symbol item
//! outside the crossing item for locked candidates. Nothing is allocated per
//! conflict: the learned clause, the minimisation stack and the seen marks are reused.

use super::clauses::ClauseDb;
use super::heuristic::Heuristic;
use super::items::Items;
use super::propagate::Conflict;
use super::trail::{Lit, Trail, reason};

/// What a resolution step resolves with: a constraint, minus the variable it implied.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// At-most-one: the other option(s); `u32::MAX` for none.
    Pair(u32, u32),
    /// At-least-one of an item, skipping one member.
    Item(u32, u32),
    /// A clause, skipping one variable.
    Clause(u32, u32),
    /// Locked candidates: the members of item `.0` outside the crossing item of `.1`.
    Line(u32, u32),
}

impl Source {
    fn of_conflict(c: Conflict) -> Source {
        match c {
            Conflict::Amo(x, y) => Source::Pair(x, y),
            Conflict::Alo(it) => Source::Item(it, u32::MAX),
            Conflict::Clause(cref) => Source::Clause(cref, u32::MAX),
        }
    }

    /// The antecedents of `var`, which must have a reason.
    fn of_reason(r: u32, var: u32) -> Source {
        match reason::decode(r) {
            reason::Kind::Amo(x) => Source::Pair(x, u32::MAX),
            reason::Kind::Alo(it) => Source::Item(it, var),
            reason::Kind::Clause(cref) => Source::Clause(cref, var),
            reason::Kind::Line(a) => Source::Line(a, var),
            reason::Kind::None => unreachable!("a decision has no antecedents"),
        }
    }

    /// Calls `f` on each antecedent variable until it returns `false`; returns whether
    /// every call returned `true`.
    #[inline]
    fn each(self, items: &Items, db: &ClauseDb, mut f: impl FnMut(u32) -> bool) -> bool {
        match self {
            Source::Pair(x, y) => f(x) && (y == u32::MAX || f(y)),
            Source::Item(it, skip) => {
                for j in 0..items.n {
                    let v = items.member(it, j);
                    if v != skip && !f(v) {
                        return false;
                    }
                }
                true
            }
            Source::Clause(cref, skip) => {
                for i in 0..db.len(cref) {
                    let v = db.lit(cref, i).var();
                    if v != skip && !f(v) {
                        return false;
                    }
                }
                true
            }
            Source::Line(a, x) => {
                let cross = items.crossing(a, x);
                for j in 0..items.n {
                    let v = items.member(a, j);
                    if !items.contains(cross, v) && !f(v) {
                        return false;
                    }
                }
                true
            }
        }
    }
}

/// Reusable buffers of conflict analysis.
#[derive(Clone, Debug)]
pub(super) struct Analyzer {
    seen: Vec<bool>,
    /// The learned clause: the asserting literal first, a literal of the backjump level
    /// second.
    pub learnt: Vec<Lit>,
    stack: Vec<u32>,
    toclear: Vec<u32>,
    level_stamp: Vec<u32>,
    stamp: u32,
    /// Marks of the level being shrunk, and the variables to unmark.
    mark: Vec<bool>,
    marked: Vec<u32>,
    /// Antecedents of one reason, while shrinking.
    ante: Vec<u32>,
    /// Variables known not to be removable in this analysis (failed minimisation).
    poison: Vec<bool>,
    poisoned: Vec<u32>,
}

impl Analyzer {
    pub(super) fn new(vars: usize) -> Analyzer {
        Analyzer {
            seen: vec![false; vars],
            learnt: Vec::new(),
            stack: Vec::new(),
            toclear: Vec::new(),
            level_stamp: Vec::new(),
            stamp: 0,
            mark: vec![false; vars],
            marked: Vec::new(),
            ante: Vec::new(),
            poison: vec![false; vars],
            poisoned: Vec::new(),
        }
    }

    /// Learns a clause from `conflict` (at a level above 0) into [`Analyzer::learnt`];
    /// returns the backjump level and the clause's LBD.
    pub(super) fn analyze(
        &mut self,
        conflict: Conflict,
        trail: &Trail,
        items: &Items,
        db: &mut ClauseDb,
        heur: &mut Heuristic,
        bump_reasons: bool,
    ) -> (u32, u32) {
        let cur = trail.decision_level();
        self.learnt.clear();
        self.learnt.push(Lit(0));
        self.toclear.clear();
        let mut path = 0u32;
        let mut idx = trail.lits.len();
        let mut src = Source::of_conflict(conflict);
        loop {
            if let Source::Clause(cref, _) = src {
                db.touch(cref, None);
            }
            let (seen, learnt, toclear) = (&mut self.seen, &mut self.learnt, &mut self.toclear);
            src.each(items, db, |u| {
                let lvl = trail.level[u as usize];
                if !seen[u as usize] && lvl > 0 {
                    seen[u as usize] = true;
                    heur.bump(u);
                    if lvl >= cur {
                        path += 1;
                    } else {
                        learnt.push(trail.false_lit(u));
                        toclear.push(u);
                    }
                }
                true
            });
            let v = loop {
                idx -= 1;
                let v = trail.lits[idx].var();
                if self.seen[v as usize] {
                    break v;
                }
            };
            self.seen[v as usize] = false;
            path -= 1;
            if path == 0 {
                self.learnt[0] = trail.lits[idx].negate();
                break;
            }
            src = Source::of_reason(trail.reason[v as usize], v);
        }
        self.minimise(trail, items, db);
        self.shrink(trail, items, db);
        if bump_reasons {
            self.bump_reasons(trail, items, db, heur);
        }
        for &v in &self.toclear {
            self.seen[v as usize] = false;
        }
        for &v in &self.poisoned {
            self.poison[v as usize] = false;
        }
        self.poisoned.clear();
        // Backjump to the highest level among the rest, kept in slot 1 for the watches.
        let mut bt = 0;
        if self.learnt.len() > 1 {
            let mut best = 1;
            for i in 1..self.learnt.len() {
                let l = trail.level[self.learnt[i].var() as usize];
                if l > bt {
                    bt = l;
                    best = i;
                }
            }
            self.learnt.swap(1, best);
        }
        let lbd = self.lbd(trail);
        (bt, lbd)
    }

    /// Also bumps the antecedents of the learned clause's literals (CaDiCaL's
    /// `bumpreason`): the options that made the clause false, one step back. Gives up past
    /// ten per clause literal, as reasons through items are long.
    fn bump_reasons(&mut self, trail: &Trail, items: &Items, db: &ClauseDb, heur: &mut Heuristic) {
        let limit = 10 * self.learnt.len();
        let mut bumped = 0;
        for i in 0..self.learnt.len() {
            let v = self.learnt[i].var();
            let r = trail.reason[v as usize];
            if r == reason::NONE {
                continue;
            }
            let (seen, toclear) = (&mut self.seen, &mut self.toclear);
            let done = Source::of_reason(r, v).each(items, db, |u| {
                if !seen[u as usize] && trail.level[u as usize] > 0 {
                    seen[u as usize] = true;
                    toclear.push(u);
                    heur.bump(u);
                    bumped += 1;
                }
                bumped <= limit
            });
            if !done {
                break;
            }
        }
    }

    /// Drops each literal whose negation is implied by the others (recursive minimisation).
    fn minimise(&mut self, trail: &Trail, items: &Items, db: &ClauseDb) {
        let mut levels = 0u32;
        for l in &self.learnt[1..] {
            levels |= abstract_level(trail.level[l.var() as usize]);
        }
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let lit = self.learnt[i];
            let v = lit.var();
            if trail.reason[v as usize] == reason::NONE
                || !self.redundant(v, levels, trail, items, db)
            {
                self.learnt[kept] = lit;
                kept += 1;
            }
        }
        self.learnt.truncate(kept);
    }

    /// Replaces the literals of each lower level by that level's own first UIP when the
    /// reasons between them stay inside the level or the clause (shrinking, Fleury & Biere
    /// 2020). A true option excludes `4(n−1)` others at its level, and a conflict through
    /// at-least-one reasons pulls many of them into the clause: without shrinking the
    /// clauses of a 25×25 search average 50 literals over 5 levels.
    fn shrink(&mut self, trail: &Trail, items: &Items, db: &ClauseDb) {
        let level = |l: &Lit| trail.level[l.var() as usize];
        self.learnt[1..].sort_unstable_by_key(|l| std::cmp::Reverse(level(l)));
        let len = self.learnt.len();
        let mut levels = 0u32;
        for l in &self.learnt[1..] {
            levels |= abstract_level(level(l));
        }
        let mut out = 1;
        let mut i = 1;
        while i < len {
            let lvl = level(&self.learnt[i]);
            let mut j = i + 1;
            while j < len && level(&self.learnt[j]) == lvl {
                j += 1;
            }
            let uip = if j - i >= 2 {
                self.level_uip(lvl, levels, i..j, trail, items, db)
            } else {
                None
            };
            if let Some(u) = uip {
                self.learnt[out] = u;
                out += 1;
            } else {
                for k in i..j {
                    self.learnt[out] = self.learnt[k];
                    out += 1;
                }
            }
            i = j;
        }
        self.learnt.truncate(out);
    }

    /// The literal that implies all the clause's literals `range` of level `lvl` through
    /// reasons whose other antecedents are in the clause, if there is one.
    #[allow(clippy::too_many_arguments)] // the pieces of the solver it reads, borrowed apart
    fn level_uip(
        &mut self,
        lvl: u32,
        levels: u32,
        range: std::ops::Range<usize>,
        trail: &Trail,
        items: &Items,
        db: &ClauseDb,
    ) -> Option<Lit> {
        self.marked.clear();
        for l in &self.learnt[range] {
            self.mark[l.var() as usize] = true;
            self.marked.push(l.var());
        }
        let mut open = self.marked.len();
        let start = trail.lim[lvl as usize - 1] as usize;
        let end = trail
            .lim
            .get(lvl as usize)
            .map_or(trail.lits.len(), |&e| e as usize);
        let mut found = None;
        for idx in (start..end).rev() {
            let v = trail.lits[idx].var();
            if !self.mark[v as usize] {
                continue;
            }
            if open == 1 {
                found = Some(trail.lits[idx].negate());
                break;
            }
            open -= 1;
            if trail.reason[v as usize] == reason::NONE {
                // The level's decision, with other marked literals still open.
                break;
            }
            let src = Source::of_reason(trail.reason[v as usize], v);
            let mut ante = std::mem::take(&mut self.ante);
            ante.clear();
            src.each(items, db, |u| {
                ante.push(u);
                true
            });
            let mut ok = true;
            for &u in &ante {
                let l = trail.level[u as usize];
                if l == lvl {
                    if !self.mark[u as usize] {
                        self.mark[u as usize] = true;
                        self.marked.push(u);
                        open += 1;
                    }
                } else if !(l == 0
                    || self.seen[u as usize]
                    || (trail.reason[u as usize] != reason::NONE
                        && self.redundant(u, levels, trail, items, db)))
                {
                    ok = false;
                    break;
                }
            }
            self.ante = ante;
            if !ok {
                break;
            }
        }
        for &v in &self.marked {
            self.mark[v as usize] = false;
        }
        found
    }

    /// Whether `var`'s reason is covered by the clause and by literals that are
    /// themselves redundant. Marks found redundant stay set (and are cleared with the rest).
    fn redundant(
        &mut self,
        var: u32,
        levels: u32,
        trail: &Trail,
        items: &Items,
        db: &ClauseDb,
    ) -> bool {
        if self.poison[var as usize] {
            return false;
        }
        self.stack.clear();
        self.stack.push(var);
        let top = self.toclear.len();
        while let Some(q) = self.stack.pop() {
            let src = Source::of_reason(trail.reason[q as usize], q);
            let (seen, stack, toclear, poison) = (
                &mut self.seen,
                &mut self.stack,
                &mut self.toclear,
                &self.poison,
            );
            let mut failed = u32::MAX;
            let ok = src.each(items, db, |u| {
                let lvl = trail.level[u as usize];
                if seen[u as usize] || lvl == 0 {
                    return true;
                }
                if !poison[u as usize]
                    && trail.reason[u as usize] != reason::NONE
                    && abstract_level(lvl) & levels != 0
                {
                    seen[u as usize] = true;
                    stack.push(u);
                    toclear.push(u);
                    true
                } else {
                    failed = u;
                    false
                }
            });
            if !ok {
                for &u in &self.toclear[top..] {
                    self.seen[u as usize] = false;
                }
                self.toclear.truncate(top);
                // Neither can be removed: later queries in this analysis stop at once.
                for u in [var, failed] {
                    if !self.poison[u as usize] {
                        self.poison[u as usize] = true;
                        self.poisoned.push(u);
                    }
                }
                return false;
            }
        }
        true
    }

    /// Number of distinct decision levels in the learned clause.
    fn lbd(&mut self, trail: &Trail) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.level_stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let need = trail.decision_level() as usize + 1;
        if self.level_stamp.len() < need {
            self.level_stamp.resize(need, 0);
        }
        let mut count = 0;
        for l in &self.learnt {
            let lvl = trail.level[l.var() as usize] as usize;
            if self.level_stamp[lvl] != self.stamp {
                self.level_stamp[lvl] = self.stamp;
                count += 1;
            }
        }
        count
    }
}

/// A one-bit summary of a level, for the cheap "could this level be in the clause" test.
#[inline]
fn abstract_level(level: u32) -> u32 {
    1 << (level & 31)
}
