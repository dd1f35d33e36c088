//! Clauses that are not items: learned clauses and the caller's permanent ones (givens come
//! as units, blocked solutions as long clauses), in one `u32` arena with two watched
//! literals each, and the periodic reduction that keeps learned memory bounded.
//!
//! A clause is `[len, meta, pos, lit…]` at an arena offset (its `cref`). `meta` holds the
//! LBD (Glucose's count of distinct decision levels, the best cheap predictor of a learned
//! clause's future use), a learned flag and a used-since-last-reduction flag. `pos` is where
//! the last search for a new watch ended: the next one starts there and wraps around
//! (Gent, "Optimal implementation of watched literals and more general techniques", 2013),
//! so a long clause whose front is false is not rescanned from the front every time. With
//! the stable settings it halved the time on fifteen 36×36 rosters (3.9–4.9 s against
//! 8.4–8.5 s, alternating runs); Frisch's proofs were unchanged. Watch lists
//! hold `(cref, blocker)` pairs: when the blocker is true the clause is skipped without
//! touching the arena, which in MiniSat-style solvers saves most clause visits.
//!
//! Reduction keeps every clause of LBD ≤ [`CORE_LBD`] and every clause that is the reason of
//! an assigned variable, sorts the rest by (LBD, unused first) and deletes the worse half;
//! then it compacts the arena and rebuilds the watch lists from scratch. Rebuilding costs one
//! pass over `2n³` lists (4 ms at 100×100) and saves any per-watch bookkeeping of deleted
//! clauses in the propagation loop.

use super::trail::{Lit, Trail, reason};

const HEADER: usize = 3;
const LBD_MASK: u32 = (1 << 24) - 1;
const LEARNED: u32 = 1 << 29;
const USED: u32 = 1 << 30;
/// Set on a learned clause once vivification has looked at it.
const VIVIFIED: u32 = 1 << 28;
/// The meta word of a clause marked for deletion.
const DELETED: u32 = u32::MAX;

/// Learned clauses with at most this LBD ("glue" clauses) are never deleted.
pub(super) const CORE_LBD: u32 = 2;

/// One entry of a watch list.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    pub cref: u32,
    pub blocker: Lit,
}

/// The clause arena and its watch lists.
#[derive(Clone, Debug)]
pub(super) struct ClauseDb {
    /// `[len, meta, pos, lits…]` per clause.
    pub arena: Vec<u32>,
    /// Offsets of the learned clauses, oldest first.
    learned: Vec<u32>,
    /// Per literal: clauses watching it (visited when it becomes false).
    pub watches: Vec<Vec<Watch>>,
    /// One bit per literal: whether its watch list may be non-empty. Most lists are empty
    /// and the list headers (24 bytes per literal, 2.2 MB at 36×36) miss the cache, while
    /// this map (12 KB at 36×36) stays in L1: reading the header cost 11 % of all time.
    watched: Vec<u64>,
    /// Learned clauses deleted so far.
    pub deleted: u64,
    /// Most learned clauses held at once.
    pub peak: u64,
    /// Scratch for reduction.
    scratch: Vec<(u32, u32)>,
}

impl ClauseDb {
    pub(super) fn new(vars: usize) -> ClauseDb {
        ClauseDb {
            arena: Vec::new(),
            learned: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            watched: vec![0; (2 * vars).div_ceil(64)],
            deleted: 0,
            peak: 0,
            scratch: Vec::new(),
        }
    }

    /// Learned clauses currently held.
    pub(super) fn learned_count(&self) -> u64 {
        self.learned.len() as u64
    }

    /// Stores a clause of at least two literals and watches its first two.
    pub(super) fn add(&mut self, lits: &[Lit], learned: bool, lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let cref = self.arena.len() as u32;
        let meta = lbd.min(LBD_MASK) | if learned { LEARNED } else { 0 };
        self.arena.push(lits.len() as u32);
        self.arena.push(meta);
        self.arena.push(2);
        self.arena.extend(lits.iter().map(|l| l.0));
        self.watch(cref);
        if learned {
            self.learned.push(cref);
            self.peak = self.peak.max(self.learned.len() as u64);
        }
        cref
    }

    fn watch(&mut self, cref: u32) {
        let c = cref as usize + HEADER;
        let (a, b) = (Lit(self.arena[c]), Lit(self.arena[c + 1]));
        self.push_watch(a, Watch { cref, blocker: b });
        self.push_watch(b, Watch { cref, blocker: a });
    }

    /// Adds `w` to the watch list of `lit`.
    #[inline]
    pub(super) fn push_watch(&mut self, lit: Lit, w: Watch) {
        let i = lit.index();
        self.watched[i / 64] |= 1 << (i % 64);
        self.watches[i].push(w);
    }

    /// Whether `lit` may have watches.
    #[inline]
    pub(super) fn is_watched(&self, lit: Lit) -> bool {
        let i = lit.index();
        self.watched[i / 64] & (1 << (i % 64)) != 0
    }

    /// Puts back the watch list of `lit` taken for propagation.
    #[inline]
    pub(super) fn put_watches(&mut self, lit: Lit, ws: Vec<Watch>) {
        let i = lit.index();
        if ws.is_empty() {
            self.watched[i / 64] &= !(1 << (i % 64));
        }
        self.watches[i] = ws;
    }

    /// Number of literals of a clause.
    #[inline]
    pub(super) fn len(&self, cref: u32) -> usize {
        self.arena[cref as usize] as usize
    }

    /// Literal `i` of a clause.
    #[inline]
    pub(super) fn lit(&self, cref: u32, i: usize) -> Lit {
        Lit(self.arena[cref as usize + HEADER + i])
    }

    /// The literals of a clause, in order.
    #[inline]
    pub(super) fn lits(&self, cref: u32) -> impl Iterator<Item = Lit> + '_ {
        self.arena[self.range(cref)].iter().map(|&l| Lit(l))
    }

    /// Arena range of a clause's literals.
    #[inline]
    pub(super) fn range(&self, cref: u32) -> std::ops::Range<usize> {
        let start = cref as usize + HEADER;
        start..start + self.len(cref)
    }

    /// Marks a learned clause as useful (seen in conflict analysis) and lowers its LBD if a
    /// fresh count is smaller.
    #[inline]
    pub(super) fn touch(&mut self, cref: u32, lbd: Option<u32>) {
        let meta = &mut self.arena[cref as usize + 1];
        if *meta & LEARNED != 0 {
            *meta |= USED;
            if let Some(l) = lbd {
                if l < *meta & LBD_MASK {
                    *meta = (*meta & !LBD_MASK) | l;
                }
            }
        }
    }

    /// The learned clauses vivification has not looked at yet, as `(LBD, cref)`.
    pub(super) fn vivify_candidates(&self, out: &mut Vec<(u32, u32)>) {
        for &cref in &self.learned {
            let meta = self.arena[cref as usize + 1];
            if meta != DELETED && meta & VIVIFIED == 0 {
                out.push((meta & LBD_MASK, cref));
            }
        }
    }

    /// Marks a learned clause as looked at by vivification.
    pub(super) fn set_vivified(&mut self, cref: u32) {
        let meta = &mut self.arena[cref as usize + 1];
        if *meta != DELETED {
            *meta |= VIVIFIED;
        }
    }

    /// Marks a learned clause for deletion; it keeps propagating (it is still implied)
    /// until [`ClauseDb::flush`] removes it.
    pub(super) fn delete(&mut self, cref: u32) {
        self.arena[cref as usize + 1] = DELETED;
        self.deleted += 1;
    }

    /// Removes the clauses marked for deletion, at level 0. A root-level option whose
    /// reason was one of them keeps its value without a reason, which conflict analysis
    /// never asks for at level 0.
    pub(super) fn flush(&mut self, trail: &mut Trail) {
        debug_assert_eq!(trail.decision_level(), 0);
        self.compact(trail, false);
    }

    /// Deletes the worse half of the deletable learned clauses, compacts the arena, fixes the
    /// reasons on the trail and rebuilds every watch list.
    pub(super) fn reduce(&mut self, trail: &mut Trail) {
        let locked = |db: &ClauseDb, cref: u32| {
            let v = db.lit(cref, 0).var();
            trail.is_assigned(v) && trail.reason[v as usize] == reason::clause(cref)
        };
        self.scratch.clear();
        for &cref in &self.learned {
            let meta = self.arena[cref as usize + 1];
            let lbd = meta & LBD_MASK;
            if lbd > CORE_LBD && !locked(self, cref) {
                // Sort key: LBD, then unused before used; ties broken by age (older first).
                let key = (lbd << 1) | u32::from(meta & USED == 0);
                self.scratch.push((key, cref));
            }
        }
        // Worst first: high LBD, unused; among equals the older clause goes first.
        self.scratch
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let victims = self.scratch.len() / 2;
        for &(_, cref) in &self.scratch[..victims] {
            self.arena[cref as usize + 1] = DELETED;
        }
        self.deleted += victims as u64;
        self.compact(trail, true);
    }

    /// Moves live clauses to the front of the arena, remaps reasons and learned offsets and
    /// rebuilds the watch lists; `new_round` starts a new "used since the last reduction"
    /// period.
    fn compact(&mut self, trail: &mut Trail, new_round: bool) {
        // Old offset → new offset, recorded in the old clause's length slot after moving
        // (clauses only move towards the front, so a slot is read before it is overwritten).
        let mut forward: Vec<(u32, u32)> = Vec::with_capacity(self.learned.len());
        let mut read = 0usize;
        let mut write = 0usize;
        let end = self.arena.len();
        while read < end {
            let len = self.arena[read] as usize;
            let meta = self.arena[read + 1];
            let total = HEADER + len;
            if meta != DELETED {
                if write != read {
                    self.arena.copy_within(read..read + total, write);
                }
                forward.push((read as u32, write as u32));
                write += total;
            }
            read += total;
        }
        self.arena.truncate(write);
        // `forward` is sorted by old offset: binary search to remap.
        let map = |old: u32| -> Option<u32> {
            forward
                .binary_search_by_key(&old, |&(o, _)| o)
                .ok()
                .map(|i| forward[i].1)
        };
        self.learned.retain_mut(|c| match map(*c) {
            Some(new) => {
                *c = new;
                true
            }
            None => false,
        });
        for &lit in &trail.lits {
            let v = lit.var() as usize;
            if let reason::Kind::Clause(c) = reason::decode(trail.reason[v]) {
                trail.reason[v] = match map(c) {
                    Some(new) => reason::clause(new),
                    None if trail.level[v] == 0 => reason::NONE,
                    None => unreachable!("a reason clause above level 0 is never deleted"),
                };
            }
        }
        for w in &mut self.watches {
            w.clear();
        }
        self.watched.iter_mut().for_each(|w| *w = 0);
        let mut at = 0usize;
        while at < self.arena.len() {
            let len = self.arena[at] as usize;
            // Clear the used flags: "used" means used since the last reduction.
            if new_round {
                self.arena[at + 1] &= !USED;
            }
            self.watch(at as u32);
            at += HEADER + len;
        }
    }
}
