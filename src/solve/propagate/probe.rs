//! Failed-literal probing at the root (why: the module docs of `propagate`).

use super::Propagator;
use crate::cells::SymbolSet;

impl Propagator {
    /// Failed-literal probing on a fixpoint: place each candidate of every cell with at
    /// most three; one that propagates to a contradiction is eliminated (and the state
    /// re-propagated), until a whole round finds nothing. `false` on a contradiction.
    pub(crate) fn probe(&mut self, cand: &mut [SymbolSet]) -> bool {
        let mut child: Vec<SymbolSet> = Vec::with_capacity(cand.len());
        loop {
            let mut moved = false;
            for c in 0..cand.len() {
                let m = cand[c];
                if !m.len_between(2, 3) {
                    continue;
                }
                for v in m {
                    let bit = SymbolSet::single(v);
                    child.clear();
                    child.extend_from_slice(cand);
                    child[c] = bit;
                    if !self.propagate_changed(&mut child, &[c]) {
                        cand[c] -= bit;
                        if !self.propagate_changed(cand, &[c]) {
                            return false;
                        }
                        moved = true;
                        break;
                    }
                }
            }
            if !moved {
                return true;
            }
        }
    }
}
