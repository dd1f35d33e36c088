//! Failed-literal probing at the root (why: the module docs of `propagate`).

use super::Propagator;
use crate::cells::SymbolSet;

impl Propagator {
    /// Failed-literal probing on a fixpoint: place each candidate of every cell with at
    /// most three; one that propagates to a contradiction is eliminated (and the state
    /// re-propagated), until a whole round finds nothing. `Some(false)` on a
    /// contradiction, `None` when `stop` (asked before each cell probed: a round takes
    /// about 0.3 s at 100×100) says so, leaving `cand` narrowed soundly but not to a
    /// fixpoint.
    pub(crate) fn probe(
        &mut self,
        cand: &mut [SymbolSet],
        stop: &dyn Fn() -> bool,
    ) -> Option<bool> {
        let mut child: Vec<SymbolSet> = Vec::with_capacity(cand.len());
        loop {
            let mut moved = false;
            for c in 0..cand.len() {
                let m = cand[c];
                if !m.len_between(2, 3) {
                    continue;
                }
                if stop() {
                    return None;
                }
                for v in m {
                    let bit = SymbolSet::single(v);
                    child.clear();
                    child.extend_from_slice(cand);
                    child[c] = bit;
                    if !self.propagate_changed(&mut child, &[c]) {
                        cand[c] -= bit;
                        if !self.propagate_changed(cand, &[c]) {
                            return Some(false);
                        }
                        moved = true;
                        break;
                    }
                }
            }
            if !moved {
                return Some(true);
            }
        }
    }
}
