//! Search-free proofs: candidate propagation by naked and hidden singles and locked
//! candidates.
//!
//! Candidates are one `u128` bitmask per cell (bit `v−1` for symbol `v`; `n ≤ 100` fits).
//! [`Propagator::propagate`] removes a fixed cell's symbol from its peers (naked singles) and
//! fixes a symbol that has one place left in a house (hidden singles), and applies pointing
//! and claiming (locked candidates) when singles are stuck, until nothing moves or
//! some cell or house runs out of candidates. Both rules are sound, so a contradiction proves
//! that no solution extends the starting state: that is how the generator proves a removal
//! keeps the solution unique, with no search at all.
//!
//! Work is proportional to what changes: fixed cells go through a queue and are processed
//! once; the hidden-single sweep is bit-parallel over each house (`once`/`twice` masks).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::grid::Shape;
use crate::houses::Houses;

/// Reusable buffers for propagation (one per worker thread).
#[derive(Clone, Debug)]
pub(crate) struct Propagator {
    houses: Houses,
    full: u128,
    queue: Vec<u32>,
    done: Vec<bool>,
    /// Block–line segment masks for locked candidates.
    seg: Vec<u128>,
    /// Houses whose candidates changed since their last hidden-single sweep.
    dirty: Vec<bool>,
    /// Stop (reporting no contradiction) after this many fixed cells are processed.
    pub(crate) fix_budget: usize,
    fixes: usize,
}

impl Propagator {
    pub(crate) fn new(shape: Shape) -> Propagator {
        let n = shape.side();
        Propagator {
            houses: Houses::new(shape),
            full: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            queue: Vec::with_capacity(n * n),
            done: vec![false; n * n],
            seg: Vec::with_capacity(n * shape.box_size()),
            dirty: vec![true; 3 * n],
            fix_budget: usize::MAX,
            fixes: 0,
        }
    }

    /// Candidates of a puzzle before any deduction: a given is its own symbol, a blank
    /// has every symbol.
    #[cfg(test)]
    pub(crate) fn initial(&self, cells: &[u8], out: &mut Vec<u128>) {
        out.clear();
        out.extend(
            cells
                .iter()
                .map(|&v| if v == 0 { self.full } else { 1u128 << (v - 1) }),
        );
    }

    /// Candidates of a puzzle after removing every given's symbol from its peers (the
    /// cheap part of propagation, done with one mask per house instead of peer by peer).
    /// Givens are then already accounted for: pass the same `cells` to
    /// [`Propagator::propagate_with`] so they are not processed again.
    pub(crate) fn eliminated(&self, cells: &[u8], out: &mut Vec<u128>) {
        let n = self.houses.n;
        let mut used = vec![0u128; 3 * n];
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                for h in self.houses.of_cell[i] {
                    used[h as usize] |= 1u128 << (v - 1);
                }
            }
        }
        out.clear();
        out.extend(cells.iter().enumerate().map(|(i, &v)| {
            if v == 0 {
                let [r, c, k] = self.houses.of_cell[i];
                self.full & !(used[r as usize] | used[c as usize] | used[k as usize])
            } else {
                1u128 << (v - 1)
            }
        }));
    }

    /// Propagates naked and hidden singles and locked candidates to a fixpoint. Returns
    /// `false` on a contradiction (then `cand` is left in an unspecified state).
    #[cfg(test)]
    pub(crate) fn propagate(&mut self, cand: &mut [u128]) -> bool {
        self.propagate_with(cand, None)
    }

    /// Propagates after the cells in `changed` were narrowed in a state that was a
    /// fixpoint: every other fixed cell is taken as already processed, and only the houses
    /// of changed cells are swept for hidden singles first.
    pub(crate) fn propagate_changed(&mut self, cand: &mut [u128], changed: &[usize]) -> bool {
        self.queue.clear();
        for (i, &m) in cand.iter().enumerate() {
            self.done[i] = m & m.wrapping_sub(1) == 0;
        }
        self.dirty.iter_mut().for_each(|d| *d = false);
        for &c in changed {
            let m = cand[c];
            if m == 0 {
                return false;
            }
            self.done[c] = false;
            if m & (m - 1) == 0 {
                self.queue.push(c as u32);
            }
            for h in self.houses.of_cell[c] {
                self.dirty[h as usize] = true;
            }
        }
        self.run(cand)
    }

    /// Counts the completions of the puzzle `cells` up to `cap` by propagation and search:
    /// propagate, probe (see [`Propagator::probe`]), then branch (see
    /// [`Propagator::search_from`]), propagating every branch. Keeps the first `keep`
    /// solutions.
    pub(crate) fn count(&mut self, cells: &[u8], limits: &SearchLimits<'_>) -> PropCount {
        let mut root = Vec::with_capacity(cells.len());
        self.eliminated(cells, &mut root);
        // Probing at the root is what solves the generator's sweep-order puzzles: each
        // removal was proven against a denser puzzle, so undoing them one by one takes a
        // refutation each, which plain propagation does not try (at 100×100, seconds with
        // it; beyond minutes without).
        if !self.propagate_with(&mut root, Some(cells)) || !self.probe(&mut root) {
            return PropCount {
                count: 0,
                kept: Vec::new(),
                complete: true,
                nodes: 0,
                dead_ends: 1,
            };
        }
        self.search_from(root, limits)
    }

    /// Failed-literal probing on a fixpoint: place each candidate of every cell with at
    /// most three; one that propagates to a contradiction is eliminated (and the state
    /// re-propagated), until a whole round finds nothing. `false` on a contradiction.
    pub(crate) fn probe(&mut self, cand: &mut [u128]) -> bool {
        let mut child: Vec<u128> = Vec::with_capacity(cand.len());
        loop {
            let mut moved = false;
            for c in 0..cand.len() {
                let m = cand[c];
                if m.count_ones() < 2 || m.count_ones() > 3 {
                    continue;
                }
                let mut rest = m;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    child.clear();
                    child.extend_from_slice(cand);
                    child[c] = bit;
                    if !self.propagate_changed(&mut child, &[c]) {
                        cand[c] &= !bit;
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

    /// Counts the completions of `root`, a propagation fixpoint, up to `limits.cap`: branch
    /// on the cell with fewest candidates, or on the house–symbol with fewest places when
    /// that is fewer (as DLX's MRV chooses between its cell and house items), propagating
    /// every branch. With `limits.prefer`, each branch tries that grid's symbol first, which
    /// finds a solution near it quickly (the generator's counterexamples usually are).
    /// Stops (incomplete) after `limits.node_limit` branches or when `limits.interrupt` is
    /// raised (polled every 256 branches, which also feed `limits.nodes`). Iterative, so
    /// depth costs no call stack.
    pub(crate) fn search_from(&mut self, root: Vec<u128>, limits: &SearchLimits<'_>) -> PropCount {
        // A solution must be a true fixpoint: no cascade is cut short inside a search.
        let saved_budget = std::mem::replace(&mut self.fix_budget, usize::MAX);
        let out = self.search_uncapped(root, limits);
        self.fix_budget = saved_budget;
        out
    }

    fn search_uncapped(&mut self, root: Vec<u128>, limits: &SearchLimits<'_>) -> PropCount {
        /// A node to branch on: its state and the alternatives left, each a (cell, symbol
        /// bit) placement; together they cover every completion of the state.
        struct Frame {
            cand: Vec<u128>,
            alts: Vec<(u32, u128)>,
        }
        let mut out = PropCount {
            count: 0,
            kept: Vec::new(),
            complete: true,
            nodes: 0,
            dead_ends: 0,
        };
        let mut stack: Vec<Frame> = Vec::new();
        let mut pool: Vec<Vec<u128>> = Vec::new();
        let mut alt_pool: Vec<Vec<(u32, u128)>> = Vec::new();
        let mut published = 0u64;
        // A fixpoint is either a solution (counted) or pushed as a frame to branch on.
        let visit = |this: &Self,
                     cand: Vec<u128>,
                     stack: &mut Vec<Frame>,
                     pool: &mut Vec<Vec<u128>>,
                     alt_pool: &mut Vec<Vec<(u32, u128)>>,
                     out: &mut PropCount|
         -> bool {
            let mut alts = alt_pool.pop().unwrap_or_default();
            alts.clear();
            if !this.branches(&cand, limits.prefer, &mut alts) {
                out.count += 1;
                if out.kept.len() < limits.keep {
                    out.kept
                        .push(cand.iter().map(|m| m.trailing_zeros() as u8 + 1).collect());
                }
                pool.push(cand);
                alt_pool.push(alts);
                return out.count >= limits.cap;
            }
            // Alternatives are popped from the end: reverse to try them in order.
            alts.reverse();
            stack.push(Frame { cand, alts });
            false
        };
        if visit(self, root, &mut stack, &mut pool, &mut alt_pool, &mut out) {
            return out;
        }
        while let Some(frame) = stack.last_mut() {
            let Some((cell, bit)) = frame.alts.pop() else {
                let f = stack.pop().expect("the loop saw a frame");
                pool.push(f.cand);
                alt_pool.push(f.alts);
                continue;
            };
            let cell = cell as usize;
            let mut child = pool.pop().unwrap_or_default();
            child.clear();
            child.extend_from_slice(&frame.cand);
            child[cell] = bit;
            out.nodes += 1;
            if out.nodes % 256 == 0 {
                limits
                    .nodes
                    .fetch_add(out.nodes - published, Ordering::Relaxed);
                published = out.nodes;
                if limits.interrupt.load(Ordering::Relaxed) {
                    out.complete = false;
                    break;
                }
            }
            if out.nodes >= limits.node_limit {
                out.complete = false;
                break;
            }
            if self.propagate_changed(&mut child, &[cell]) {
                if visit(self, child, &mut stack, &mut pool, &mut alt_pool, &mut out) {
                    break;
                }
            } else {
                out.dead_ends += 1;
                pool.push(child);
            }
        }
        limits
            .nodes
            .fetch_add(out.nodes - published, Ordering::Relaxed);
        out
    }

    /// The branches of a fixpoint `cand`, into `alts`: every placement of the cell with
    /// fewest candidates, or of the house–symbol with fewest places if that is fewer.
    /// `false` when every cell is fixed (a solution). With `prefer`, the placement that
    /// agrees with it comes first.
    fn branches(&self, cand: &[u128], prefer: Option<&[u8]>, alts: &mut Vec<(u32, u128)>) -> bool {
        let mut best: Option<(usize, u32)> = None;
        for (i, m) in cand.iter().enumerate() {
            let w = m.count_ones();
            if w > 1 && best.is_none_or(|(_, bw)| w < bw) {
                best = Some((i, w));
                if w == 2 {
                    break;
                }
            }
        }
        let Some((cell, width)) = best else {
            return false;
        };
        if width > 2 {
            // A house–symbol with exactly two places (else three, if cells have more),
            // from bit-sliced counts: one sweep of each house.
            let mut three: Option<(usize, u128)> = None;
            for h in 0..3 * self.houses.n {
                let (mut once, mut twice, mut thrice, mut four, mut fixed) =
                    (0u128, 0u128, 0u128, 0u128, 0u128);
                for &c in self.houses.house(h) {
                    let m = cand[c as usize];
                    four |= thrice & m;
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                    if m & (m - 1) == 0 {
                        fixed |= m;
                    }
                }
                let exactly_two = twice & !thrice & !fixed;
                if exactly_two != 0 {
                    let bit = exactly_two & exactly_two.wrapping_neg();
                    self.house_places(h, bit, cand, prefer, alts);
                    return true;
                }
                let exactly_three = thrice & !four & !fixed;
                if width > 3 && three.is_none() && exactly_three != 0 {
                    three = Some((h, exactly_three & exactly_three.wrapping_neg()));
                }
            }
            if let Some((h, bit)) = three {
                self.house_places(h, bit, cand, prefer, alts);
                return true;
            }
        }
        let mut rest = cand[cell];
        let first = prefer.map_or(0, |p| 1u128 << (p[cell] - 1)) & rest;
        if first != 0 {
            alts.push((cell as u32, first));
            rest &= !first;
        }
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            alts.push((cell as u32, bit));
        }
        true
    }

    /// The places of symbol `bit` in house `h`, the one `prefer` puts it in first.
    fn house_places(
        &self,
        h: usize,
        bit: u128,
        cand: &[u128],
        prefer: Option<&[u8]>,
        alts: &mut Vec<(u32, u128)>,
    ) {
        let start = alts.len();
        for &c in self.houses.house(h) {
            if cand[c as usize] & bit != 0 {
                alts.push((c, bit));
            }
        }
        if let Some(p) = prefer {
            let sym = bit.trailing_zeros() as u8 + 1;
            if let Some(k) = alts[start..]
                .iter()
                .position(|&(c, _)| p[c as usize] == sym)
            {
                alts.swap(start, start + k);
            }
        }
    }

    /// [`Propagator::propagate`], where the cells given in `given` (non-zero) have already
    /// been removed from their peers' candidates (as [`Propagator::eliminated`] does).
    pub(crate) fn propagate_with(&mut self, cand: &mut [u128], given: Option<&[u8]>) -> bool {
        self.queue.clear();
        self.dirty.iter_mut().for_each(|d| *d = true);
        for (i, &m) in cand.iter().enumerate() {
            if m == 0 {
                return false;
            }
            if given.is_some_and(|g| g[i] != 0) {
                self.done[i] = true;
            } else {
                self.done[i] = false;
                if m & (m - 1) == 0 {
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
    fn run(&mut self, cand: &mut [u128]) -> bool {
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
    fn locked(&mut self, cand: &mut [u128]) -> Option<bool> {
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
                    let mut m = 0u128;
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
                    let mut line_rest = 0u128;
                    for k2 in (0..b).filter(|&k2| k2 != k) {
                        line_rest |= self.seg[line * b + k2];
                    }
                    let mut block_rest = 0u128;
                    for l2 in (band * b..(band + 1) * b).filter(|&l2| l2 != line) {
                        block_rest |= self.seg[l2 * b + k];
                    }
                    let pointing = here & !block_rest & line_rest;
                    let claiming = here & !line_rest & block_rest;
                    if pointing != 0 {
                        for k2 in (0..b).filter(|&k2| k2 != k) {
                            for i in k2 * b..(k2 + 1) * b {
                                if !self.eliminate(cand, cell(line, i), pointing, &mut moved) {
                                    return None;
                                }
                            }
                        }
                    }
                    if claiming != 0 {
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
    fn eliminate(&mut self, cand: &mut [u128], c: usize, mask: u128, moved: &mut bool) -> bool {
        let m = cand[c];
        if m & mask == 0 {
            return true;
        }
        let m = m & !mask;
        cand[c] = m;
        *moved = true;
        for h in self.houses.of_cell[c] {
            self.dirty[h as usize] = true;
        }
        if m == 0 {
            return false;
        }
        if m & (m - 1) == 0 {
            self.queue.push(c as u32);
        }
        true
    }

    /// Processes the queue of fixed cells: removes each one's symbol from its peers.
    fn naked(&mut self, cand: &mut [u128]) -> bool {
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
                    if p == c || cand[p] & bit == 0 {
                        continue;
                    }
                    let m = cand[p] & !bit;
                    cand[p] = m;
                    if m == 0 {
                        return false;
                    }
                    for h2 in self.houses.of_cell[p] {
                        self.dirty[h2 as usize] = true;
                    }
                    if m & (m - 1) == 0 {
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
    fn hidden(&mut self, cand: &mut [u128]) -> Option<bool> {
        let mut moved = false;
        for h in 0..3 * self.houses.n {
            if !self.dirty[h] {
                continue;
            }
            self.dirty[h] = false;
            let (mut once, mut twice, mut fixed) = (0u128, 0u128, 0u128);
            for &c in self.houses.house(h) {
                let m = cand[c as usize];
                twice |= once & m;
                once |= m;
                if m & (m - 1) == 0 {
                    fixed |= m;
                }
            }
            if once != self.full {
                return None;
            }
            let mut single = once & !twice & !fixed;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single &= single - 1;
                for &c in self.houses.house(h) {
                    let c = c as usize;
                    if cand[c] & bit != 0 {
                        if cand[c] & !bit != 0 {
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

/// Bounds and hooks of a propagation search.
pub(crate) struct SearchLimits<'a> {
    /// Stop after this many solutions.
    pub cap: u64,
    /// Keep the first this many solutions.
    pub keep: usize,
    /// Stop (incomplete) after this many branches.
    pub node_limit: u64,
    /// Stop (incomplete) when raised.
    pub interrupt: &'a AtomicBool,
    /// Branches taken, published every 256.
    pub nodes: &'a AtomicU64,
    /// Try this grid's symbols first.
    pub prefer: Option<&'a [u8]>,
}

/// What [`Propagator::count`] found.
#[derive(Clone, Debug)]
pub(crate) struct PropCount {
    /// Solutions found, capped.
    pub count: u64,
    /// The first solutions, as cells.
    pub kept: Vec<Vec<u8>>,
    /// Whether the search ended (tree exhausted or cap reached) rather than being stopped.
    pub complete: bool,
    /// Branches taken.
    pub nodes: u64,
    /// Branches that propagated to a contradiction.
    pub dead_ends: u64,
}

/// Whether every cell of `cand` is fixed.
#[cfg(test)]
pub(crate) fn is_solved(cand: &[u128]) -> bool {
    cand.iter().all(|&m| m != 0 && m & (m - 1) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|c| if c == b'.' { 0 } else { c - b'0' })
            .collect()
    }

    #[test]
    fn singles_solve_an_easy_puzzle() {
        // Project Euler 96, grid 01: solvable by singles alone.
        let p = cells(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(is_solved(&cand));
        let solved: Vec<u8> = cand.iter().map(|m| m.trailing_zeros() as u8 + 1).collect();
        assert!(crate::grid::Grid::new(shape, solved).is_ok());
    }

    #[test]
    fn contradiction_is_found() {
        // Row 1 is 1 2 _ _, column 3 holds 3 and 4 below: no candidate for (1, 3).
        let shape = Shape::new(2).unwrap();
        let p = vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0];
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(!pr.propagate(&mut cand));
    }

    #[test]
    fn empty_board_does_not_move() {
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&[0; 81], &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(cand.iter().all(|&m| m == 0x1ff));
    }
}
