//! Conflict analysis: the first unique implication point (Marques-Silva & Sakallah; Chaff),
//! recursive minimisation of the learned clause (Sörensson & Biere 2009), its LBD
//! (Audemard & Simon 2009) and the backjump level.
//!
//! The minimisation searches depth first and keeps what it learns for the whole analysis,
//! as CaDiCaL does: a variable shown implied by the clause is marked seen, one shown not to
//! be is poisoned along with every open variable that needed it, and a variable is given up
//! at once when its level holds no literal of the clause or it precedes all of them on the
//! trail (exact tests, where MiniSat's one-bit level summary lets most levels through at the
//! trail depths of 36×36). Against the breadth-first version with a level summary, this made
//! conflicts about 13% cheaper on a 36×36 roster near the peak (2026-11-24).
//!
//! Reasons are implicit (see `trail.rs`), so resolving on a variable enumerates its
//! antecedents from the tag: one true option for at-most-one, the item's other members for
//! at-least-one, the clause's other literals for a clause, the members of a symbol item
//! outside the crossing item for locked candidates. Nothing is allocated per
//! conflict: the learned clause, the minimisation stack and the seen marks are reused.
//! The two hottest walks (the resolution loop's and the minimisation's) mark their
//! closures `#[inline(always)]`: left to itself the compiler called them once per
//! antecedent, and inlining them made conflicts 5–8 % cheaper (2026-11-25).

use super::clauses::ClauseDb;
use super::heuristic::Heuristic;
use super::items::Items;
use super::propagate::Conflict;
use super::trail::{Lit, Trail, reason};
use source::Source;

mod source;

/// Reusable buffers of conflict analysis.
#[derive(Clone, Debug)]
pub(super) struct Analyzer {
    seen: Vec<bool>,
    /// The learned clause: the asserting literal first, a literal of the backjump level
    /// second.
    pub learnt: Vec<Lit>,
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
    /// The open variables of the minimisation's depth-first search, and the antecedents
    /// they still have to look at (each frame's slice of `ante_buf`).
    frames: Vec<Frame>,
    ante_buf: Vec<u32>,
    /// Per decision level: the earliest trail position of the clause's literals there,
    /// valid where `level_epoch` holds this analysis' `epoch` (the level is in the clause).
    level_first: Vec<u32>,
    level_epoch: Vec<u32>,
    epoch: u32,
    /// Per item: one bit per member not fixed at level 0, for the first `root` entries of
    /// the trail (level 0 only grows). Antecedents at level 0 play no part in a learned
    /// clause, and on a puzzle with many givens they are most members of most items.
    unfixed: Vec<u128>,
    root: usize,
}

/// A variable whose antecedents the minimisation is checking: `ante_buf[next..end]` are
/// the ones left, and `base` is where its slice starts.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: u32,
    base: u32,
    next: u32,
    end: u32,
}

/// How deep the minimisation's search may go before it gives up on a literal (CaDiCaL's
/// `minimizedepth`).
const MAX_DEPTH: usize = 1000;

impl Analyzer {
    pub(super) fn new(vars: usize) -> Analyzer {
        Analyzer {
            seen: vec![false; vars],
            learnt: Vec::new(),
            toclear: Vec::new(),
            level_stamp: Vec::new(),
            stamp: 0,
            mark: vec![false; vars],
            marked: Vec::new(),
            ante: Vec::new(),
            poison: vec![false; vars],
            poisoned: Vec::new(),
            frames: Vec::new(),
            ante_buf: Vec::new(),
            level_first: Vec::new(),
            level_epoch: Vec::new(),
            epoch: 0,
            unfixed: Vec::new(),
            root: 0,
        }
    }

    /// Brings [`Analyzer::unfixed`] up to date with the trail's level 0.
    fn note_root(&mut self, trail: &Trail, items: &Items) {
        let end = trail.lim.first().map_or(trail.lits.len(), |&e| e as usize);
        if self.unfixed.is_empty() || end < self.root {
            let n = items.n;
            let all = if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            };
            self.unfixed.clear();
            self.unfixed.resize(4 * (n * n) as usize, all);
            self.root = 0;
        }
        for l in &trail.lits[self.root..end] {
            let (its, pos) = items.of(l.var());
            for t in 0..4 {
                self.unfixed[its[t] as usize] &= !(1u128 << pos[t]);
            }
        }
        self.root = end;
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
        self.note_root(trail, items);
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
            src.each(
                items,
                db,
                &self.unfixed,
                #[inline(always)]
                |u| {
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
                },
            );
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
        self.note_levels(trail);
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
            let done = Source::of_reason(r, v).each(items, db, &self.unfixed, |u| {
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
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let lit = self.learnt[i];
            let v = lit.var();
            if !self.redundant(v, trail, items, db) {
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
        let mut out = 1;
        let mut i = 1;
        while i < len {
            let lvl = level(&self.learnt[i]);
            let mut j = i + 1;
            while j < len && level(&self.learnt[j]) == lvl {
                j += 1;
            }
            let uip = if j - i >= 2 {
                self.level_uip(lvl, i..j, trail, items, db)
            } else {
                None
            };
            if let Some(u) = uip {
                // The level's literals are now implied by `u`, which is in the clause and
                // earlier on the trail than any of them.
                let v = u.var() as usize;
                if !self.seen[v] {
                    self.seen[v] = true;
                    self.toclear.push(u.var());
                }
                self.level_first[lvl as usize] = trail.pos[v];
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
    fn level_uip(
        &mut self,
        lvl: u32,
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
            src.each(items, db, &self.unfixed, |u| {
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
                } else if !(l == 0 || self.seen[u as usize] || self.redundant(u, trail, items, db))
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

    /// Notes, per decision level of the clause's literals (the asserting one aside), the
    /// earliest trail position among them: the anchors of [`Analyzer::redundant`].
    fn note_levels(&mut self, trail: &Trail) {
        let need = trail.decision_level() as usize + 1;
        next_stamp(&mut self.epoch, &mut self.level_epoch, need);
        if self.level_first.len() < need {
            self.level_first.resize(need, 0);
        }
        for l in &self.learnt[1..] {
            let v = l.var() as usize;
            let (lvl, pos) = (trail.level[v] as usize, trail.pos[v]);
            if self.level_epoch[lvl] != self.epoch {
                self.level_epoch[lvl] = self.epoch;
                self.level_first[lvl] = pos;
            } else if pos < self.level_first[lvl] {
                self.level_first[lvl] = pos;
            }
        }
    }

    /// Whether `u` could be implied by the clause at all: it has a reason, its level holds
    /// a literal of the clause, and it comes after the earliest of them on the trail.
    /// Otherwise following its reasons within its level ends at the level's decision,
    /// since every implied option has an antecedent at its own level (Van Gelder 2009;
    /// CaDiCaL's `minimize_literal`). A clause learned out of order could break that rule,
    /// which would only keep a literal that could have gone.
    #[inline]
    fn may_remove(&self, u: u32, trail: &Trail) -> bool {
        may_remove(u, trail, &self.level_epoch, &self.level_first, self.epoch)
    }

    /// Pushes a search frame for `var` with the antecedents that still need a look: those
    /// neither in the clause (seen), shown implied (seen) nor at level 0. Returns the first
    /// antecedent that cannot be implied, if any, and then pushes nothing.
    fn open(&mut self, var: u32, trail: &Trail, items: &Items, db: &ClauseDb) -> Option<u32> {
        let base = self.ante_buf.len();
        let (buf, seen, poison) = (&mut self.ante_buf, &self.seen, &self.poison);
        let (epochs, firsts, epoch) = (&self.level_epoch, &self.level_first, self.epoch);
        let mut dead = None;
        Source::of_reason(trail.reason[var as usize], var).each(
            items,
            db,
            &self.unfixed,
            #[inline(always)]
            |u| {
                if seen[u as usize] || trail.level[u as usize] == 0 {
                    return true;
                }
                if poison[u as usize] || !may_remove(u, trail, epochs, firsts, epoch) {
                    dead = Some(u);
                    return false;
                }
                buf.push(u);
                true
            },
        );
        if dead.is_some() {
            self.ante_buf.truncate(base);
            return dead;
        }
        self.frames.push(Frame {
            var,
            base: base as u32,
            next: base as u32,
            end: self.ante_buf.len() as u32,
        });
        None
    }

    /// Whether `var` is implied by the clause's literals (recursive minimisation, depth
    /// first). What is learned sticks for the rest of the analysis: a variable shown
    /// implied is marked seen (and cleared with the rest), and a variable shown not to be,
    /// with every open one that needed it, is poisoned.
    fn redundant(&mut self, var: u32, trail: &Trail, items: &Items, db: &ClauseDb) -> bool {
        if self.poison[var as usize] || !self.may_remove(var, trail) {
            return false;
        }
        self.frames.clear();
        self.ante_buf.clear();
        let mut dead = self.open(var, trail, items, db);
        if dead.is_none() {
            while let Some(top) = self.frames.last_mut() {
                if top.next == top.end {
                    let (v, base) = (top.var, top.base);
                    self.frames.pop();
                    self.ante_buf.truncate(base as usize);
                    if !self.seen[v as usize] {
                        self.seen[v as usize] = true;
                        self.toclear.push(v);
                    }
                    continue;
                }
                let u = self.ante_buf[top.next as usize];
                top.next += 1;
                // Shown implied since it was pushed (through another antecedent).
                if self.seen[u as usize] {
                    continue;
                }
                if self.poison[u as usize] {
                    dead = Some(u);
                    break;
                }
                if self.frames.len() >= MAX_DEPTH {
                    break;
                }
                dead = self.open(u, trail, items, db);
                if dead.is_some() {
                    // `u` needs `dead`: both fail, with every open frame.
                    self.set_poison(u);
                    break;
                }
            }
            if self.frames.is_empty() {
                return true;
            }
        }
        if let Some(d) = dead {
            self.set_poison(d);
        }
        for k in 0..self.frames.len() {
            let v = self.frames[k].var;
            self.set_poison(v);
        }
        self.set_poison(var);
        self.frames.clear();
        false
    }

    #[inline]
    fn set_poison(&mut self, v: u32) {
        if !self.poison[v as usize] {
            self.poison[v as usize] = true;
            self.poisoned.push(v);
        }
    }

    /// Number of distinct decision levels in the learned clause.
    fn lbd(&mut self, trail: &Trail) -> u32 {
        let need = trail.decision_level() as usize + 1;
        next_stamp(&mut self.stamp, &mut self.level_stamp, need);
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

/// [`Analyzer::may_remove`], on the borrowed pieces (for use inside a reason's walk).
#[inline]
fn may_remove(u: u32, trail: &Trail, epochs: &[u32], firsts: &[u32], epoch: u32) -> bool {
    let u = u as usize;
    let lvl = trail.level[u] as usize;
    trail.reason[u] != reason::NONE && epochs.get(lvl) == Some(&epoch) && trail.pos[u] > firsts[lvl]
}

/// Starts a new round of per-level marks: advances `stamp` (clearing `marks` when it wraps
/// around, so no old mark can equal the new stamp) and makes room for `need` levels.
fn next_stamp(stamp: &mut u32, marks: &mut Vec<u32>, need: usize) {
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        marks.iter_mut().for_each(|m| *m = 0);
        *stamp = 1;
    }
    if marks.len() < need {
        marks.resize(need, 0);
    }
}
