//! Propagation rules to a fixpoint: naked and hidden singles, locked candidates.

use super::Propagator;
use crate::cells::{SymbolSet, Tally};

impl Propagator {
    /// Propagates naked and hidden singles and locked candidates to a fixpoint. Returns
    /// `false` on a contradiction (then `cand` is left in an unspecified state).
    #[cfg(test)]
    pub(crate) fn propagate(&mut self, cand: &mut [SymbolSet]) -> bool {
        self.propagate_with(cand, None)
    }

    /// Propagates after the cells in `changed` were narrowed in a state that was a
    /// fixpoint: every other fixed cell is taken as already processed, and only the houses
    /// of changed cells are swept for hidden singles first.
    pub(crate) fn propagate_changed(&mut self, cand: &mut [SymbolSet], changed: &[usize]) -> bool {
        self.queue.clear();
        for (i, &m) in cand.iter().enumerate() {
            self.done[i] = m.at_most_one();
        }
        self.dirty.iter_mut().for_each(|d| *d = false);
        for &c in changed {
            let m = cand[c];
            if m.is_empty() {
                return false;
            }
            self.done[c] = false;
            if m.is_single() {
                self.queue.push(c as u32);
            }
            for h in self.houses.of_cell[c] {
                self.dirty[h as usize] = true;
            }
        }
        self.run(cand)
    }

    /// `propagate`, where the cells given in `given` (non-zero) have already
    /// been removed from their peers' candidates (as [`Propagator::eliminated`] does).
    pub(crate) fn propagate_with(&mut self, cand: &mut [SymbolSet], given: Option<&[u8]>) -> bool {
        self.queue.clear();
        self.dirty.iter_mut().for_each(|d| *d = true);
        for (i, &m) in cand.iter().enumerate() {
            if m.is_empty() {
                return false;
            }
            if given.is_some_and(|g| g[i] != 0) {
                self.done[i] = true;
            } else {
                self.done[i] = false;
                if m.is_single() {
                    self.queue.push(i as u32);
                }
            }
        }
        self.run(cand)
    }

    /// Whether the last propagation stopped at [`Propagator::fix_budget`] rather than at a
    /// fixpoint or a contradiction.
    pub(crate) fn budget_ran_out(&self) -> bool {
        self.fixes > self.fix_budget
    }

    /// The propagation loop proper, from the prepared queue, `done` and `dirty` flags.
    fn run(&mut self, cand: &mut [SymbolSet]) -> bool {
        self.fixes = 0;
        loop {
            if !self.naked(cand) {
                return false;
            }
            if self.fixes > self.fix_budget {
                return true;
            }
            match self.hidden(cand) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.locked(cand) {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// One sweep of locked candidates (pointing and claiming) over every block–line
    /// intersection. Segment masks are computed once per direction and go stale as the
    /// sweep eliminates; a stale mask is a superset of the truth, which only ever means
    /// fewer eliminations (never an unsound one), and the caller sweeps again after
    /// singles. A symbol whose candidates in a block all lie on one line leaves the rest
    /// of that line (pointing); one whose candidates on a line all lie in one block leaves
    /// the rest of that block (claiming). `Some(true)` if anything was eliminated.
    fn locked(&mut self, cand: &mut [SymbolSet]) -> Option<bool> {
        let n = self.houses.n;
        let b = self.houses.b;
        let mut moved = false;
        // Rows, then columns: `seg[line * b + k]` is the OR of the b cells where line `line`
        // crosses its k-th block.
        for by_col in [false, true] {
            let cell = |line: usize, i: usize| if by_col { i * n + line } else { line * n + i };
            self.seg.clear();
            for line in 0..n {
                for k in 0..b {
                    let mut m = SymbolSet::EMPTY;
                    for i in k * b..(k + 1) * b {
                        m |= cand[cell(line, i)];
                    }
                    self.seg.push(m);
                }
            }
            for line in 0..n {
                let band = line / b;
                for k in 0..b {
                    let here = self.seg[line * b + k];
                    // The rest of the line, and the rest of the block (same band, other lines).
                    let mut line_rest = SymbolSet::EMPTY;
                    for k2 in (0..b).filter(|&k2| k2 != k) {
                        line_rest |= self.seg[line * b + k2];
                    }
                    let mut block_rest = SymbolSet::EMPTY;
                    for l2 in (band * b..(band + 1) * b).filter(|&l2| l2 != line) {
                        block_rest |= self.seg[l2 * b + k];
                    }
                    let pointing = (here - block_rest) & line_rest;
                    let claiming = (here - line_rest) & block_rest;
                    if !pointing.is_empty() {
                        for k2 in (0..b).filter(|&k2| k2 != k) {
                            for i in k2 * b..(k2 + 1) * b {
                                if !self.eliminate(cand, cell(line, i), pointing, &mut moved) {
                                    return None;
                                }
                            }
                        }
                    }
                    if !claiming.is_empty() {
                        for l2 in (band * b..(band + 1) * b).filter(|&l2| l2 != line) {
                            for i in k * b..(k + 1) * b {
                                if !self.eliminate(cand, cell(l2, i), claiming, &mut moved) {
                                    return None;
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(moved)
    }

    /// Removes `mask` from cell `c`. `false` on a contradiction.
    #[inline]
    fn eliminate(
        &mut self,
        cand: &mut [SymbolSet],
        c: usize,
        mask: SymbolSet,
        moved: &mut bool,
    ) -> bool {
        let m = cand[c];
        if (m & mask).is_empty() {
            return true;
        }
        let m = m - mask;
        cand[c] = m;
        *moved = true;
        for h in self.houses.of_cell[c] {
            self.dirty[h as usize] = true;
        }
        if m.is_empty() {
            return false;
        }
        if m.is_single() {
            self.queue.push(c as u32);
        }
        true
    }

    /// Processes the queue of fixed cells: removes each one's symbol from its peers.
    fn naked(&mut self, cand: &mut [SymbolSet]) -> bool {
        while let Some(c) = self.queue.pop() {
            let c = c as usize;
            if self.done[c] {
                continue;
            }
            self.done[c] = true;
            self.fixes += 1;
            if self.fixes > self.fix_budget {
                // Out of budget: report "no contradiction found", which only ever makes a
                // caller keep a given.
                self.queue.clear();
                return true;
            }
            let bit = cand[c];
            for h in self.houses.of_cell[c] {
                for &p in self.houses.house(h as usize) {
                    let p = p as usize;
                    if p == c || (cand[p] & bit).is_empty() {
                        continue;
                    }
                    let m = cand[p] - bit;
                    cand[p] = m;
                    if m.is_empty() {
                        return false;
                    }
                    for h2 in self.houses.of_cell[p] {
                        self.dirty[h2 as usize] = true;
                    }
                    if m.is_single() {
                        self.queue.push(p as u32);
                    }
                }
            }
        }
        true
    }

    /// One sweep of hidden singles over every house. `None` on a contradiction (a symbol
    /// with no place in a house, or one cell needed for two symbols), `Some(true)` if a
    /// cell was fixed.
    fn hidden(&mut self, cand: &mut [SymbolSet]) -> Option<bool> {
        let mut moved = false;
        for h in 0..3 * self.houses.n {
            if !self.dirty[h] {
                continue;
            }
            self.dirty[h] = false;
            let mut count = Tally::<2>::new();
            let mut fixed = SymbolSet::EMPTY;
            for &c in self.houses.house(h) {
                let m = cand[c as usize];
                count.add(m);
                if m.at_most_one() {
                    fixed |= m;
                }
            }
            if count.seen() != self.full {
                return None;
            }
            for v in count.exactly(1) - fixed {
                let bit = SymbolSet::single(v);
                for &c in self.houses.house(h) {
                    let c = c as usize;
                    if cand[c].contains(v) {
                        if cand[c] != bit {
                            // Another symbol may already have claimed this cell this sweep.
                            cand[c] = bit;
                            for h2 in self.houses.of_cell[c] {
                                self.dirty[h2 as usize] = true;
                            }
                            self.queue.push(c as u32);
                            moved = true;
                        } else if !self.done[c] {
                            self.queue.push(c as u32);
                        }
                        break;
                    }
                }
            }
            if moved && !self.naked(cand) {
                return None;
            }
        }
        Some(moved)
    }
}
