//! Vivification of learned clauses (Piette, Hamadi & Saïs 2008; Luo, Li, Xiao, Manyà & Lü
//! 2017, as CaDiCaL does it between restarts): for a learned clause `C`, make its literals
//! false one at a time as decisions and propagate. If that conflicts, the literals made
//! false so far already form a clause; if a later literal of `C` comes out true, the ones
//! made false plus that one do; literals that come out false are left out. Either way the
//! shorter clause `D ⊆ C` follows from the clauses with `C`, and implies `C`, so it
//! replaces `C`. Shorter clauses propagate sooner and make shorter learned clauses.
//!
//! It runs at level 0 with no assumptions (a clause found under assumptions would depend
//! on them), over the clauses not looked at yet, best LBD first, within a share of the
//! propagations the search made since the last round ([`LearnConfig::vivify`](super::LearnConfig::vivify)).

use super::Learner;
use super::trail::{FALSE, TRUE, reason};

impl Learner {
    /// One round of vivification, at level 0 with no assumptions. Returns `false` if it
    /// found the clauses unsatisfiable.
    pub(super) fn vivify(&mut self) -> bool {
        debug_assert!(self.trail.decision_level() == 0 && self.assumed.is_empty());
        let spent = self.stats.propagations - self.vivify_mark;
        let limit = self.stats.propagations + spent * u64::from(self.config.vivify) / 1000;
        let mut cands = std::mem::take(&mut self.vivify_cands);
        cands.clear();
        self.db.vivify_candidates(&mut cands);
        cands.sort_unstable();
        let mut changed = false;
        for &(lbd, cref) in &cands {
            if self.stats.propagations >= limit || !self.ok {
                break;
            }
            self.db.set_vivified(cref);
            let Some(shorter) = self.vivify_clause(cref) else {
                continue;
            };
            changed = true;
            self.stats.vivified += 1;
            self.db.delete(cref);
            let new = std::mem::take(&mut self.vivify_lits);
            if shorter == 1 {
                if self.trail.value(new[0]) == 0 {
                    self.trail.assign(new[0], reason::NONE);
                }
                if self.propagate().is_some() {
                    self.ok = false;
                }
            } else {
                let c = self.db.add(&new[..shorter], true, lbd.min(shorter as u32));
                self.db.set_vivified(c);
            }
            self.vivify_lits = new;
        }
        self.vivify_cands = cands;
        if changed {
            self.db.flush(&mut self.trail);
        }
        self.vivify_mark = self.stats.propagations;
        self.ok
    }

    /// Probes one clause; on success leaves the shorter clause in the first `len` entries
    /// of `vivify_lits` and returns `len`.
    fn vivify_clause(&mut self, cref: u32) -> Option<usize> {
        let len = self.db.len(cref);
        let mut lits = std::mem::take(&mut self.vivify_lits);
        lits.clear();
        for i in 0..len {
            let l = self.db.lit(cref, i);
            match self.trail.value(l) {
                // Satisfied at the root: nothing to gain here.
                TRUE => {
                    self.vivify_lits = lits;
                    return None;
                }
                FALSE => {}
                _ => lits.push(l),
            }
        }
        // `lits[..kept]` are the literals made false so far, in place.
        let mut kept = 0;
        let mut found = None;
        for i in 0..lits.len() {
            let l = lits[i];
            match self.trail.value(l) {
                TRUE => {
                    lits[kept] = l;
                    found = Some(kept + 1);
                    break;
                }
                FALSE => {}
                _ => {
                    lits[kept] = l;
                    kept += 1;
                    self.trail.new_level();
                    self.trail.assign(l.negate(), reason::NONE);
                    if self.propagate().is_some() {
                        found = Some(kept);
                        break;
                    }
                }
            }
        }
        self.undo(0, false);
        self.vivify_lits = lits;
        // Root-level false literals dropped count too.
        found.filter(|&k| k < len)
    }
}
