//! [`Source`]: what a resolution step resolves with, and its antecedents, enumerated from
//! the implicit reason's tag (see `trail.rs`).

use super::super::clauses::ClauseDb;
use super::super::items::Items;
use super::super::propagate::Conflict;
use super::super::trail::reason;

/// What a resolution step resolves with: a constraint, minus the variable it implied.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
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
    pub(super) fn of_conflict(c: Conflict) -> Source {
        match c {
            Conflict::Amo(x, y) => Source::Pair(x, y),
            Conflict::Alo(it) => Source::Item(it, u32::MAX),
            Conflict::Clause(cref) => Source::Clause(cref, u32::MAX),
        }
    }

    /// The antecedents of `var`, which must have a reason.
    pub(super) fn of_reason(r: u32, var: u32) -> Source {
        match reason::decode(r) {
            reason::Kind::Amo(x) => Source::Pair(x, u32::MAX),
            reason::Kind::Alo(it) => Source::Item(it, var),
            reason::Kind::Clause(cref) => Source::Clause(cref, var),
            reason::Kind::Line(a) => Source::Line(a, var),
            reason::Kind::None => unreachable!("a decision has no antecedents"),
        }
    }

    /// Calls `f` on each antecedent variable until it returns `false`; returns whether
    /// every call returned `true`. Members of an item fixed at level 0 (not in `unfixed`,
    /// see [`Analyzer::note_root`](super::Analyzer::note_root)) may be left out, as every caller ignores them.
    #[inline]
    pub(super) fn each(
        self,
        items: &Items,
        db: &ClauseDb,
        unfixed: &[u128],
        mut f: impl FnMut(u32) -> bool,
    ) -> bool {
        match self {
            Source::Pair(x, y) => f(x) && (y == u32::MAX || f(y)),
            Source::Item(it, skip) => {
                let (base, offsets) = items.members(it);
                let mut mask = unfixed[it as usize];
                while mask != 0 {
                    let j = mask.trailing_zeros();
                    mask &= mask - 1;
                    let v = base + offsets[j as usize];
                    if v != skip && !f(v) {
                        return false;
                    }
                }
                true
            }
            Source::Clause(cref, skip) => {
                for l in db.lits(cref) {
                    let v = l.var();
                    if v != skip && !f(v) {
                        return false;
                    }
                }
                true
            }
            Source::Line(a, x) => {
                let (base, offsets) = items.members(a);
                let mut mask = items.line_outside(a, x) & unfixed[a as usize];
                while mask != 0 {
                    let j = mask.trailing_zeros();
                    mask &= mask - 1;
                    if !f(base + offsets[j as usize]) {
                        return false;
                    }
                }
                true
            }
        }
    }
}
