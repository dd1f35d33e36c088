//! The propagating search: branch on the narrowest cell or house–symbol, propagate each
//! branch, count solutions up to a cap. Iterative, so depth costs no call stack.

use std::sync::atomic::Ordering;

use super::{PropCount, Propagator, SearchLimits};
use crate::cells::{SymbolSet, Tally};
use crate::solve::CHECKED;

impl Propagator {
    /// Counts the completions of `root`, a propagation fixpoint, up to `limits.cap`: branch
    /// on the cell with fewest candidates, or on the house–symbol with fewest places when
    /// that is fewer (as DLX's MRV chooses between its cell and house items), propagating
    /// every branch. With `limits.prefer`, each branch tries that grid's symbol first, which
    /// finds a solution near it quickly (the generator's counterexamples usually are).
    /// Stops (incomplete) after `limits.node_limit` branches or when `limits.control` says
    /// so (polled every 256 branches, which also feed its node counter). Iterative, so
    /// depth costs no call stack.
    pub(crate) fn search_from(
        &mut self,
        root: Vec<SymbolSet>,
        limits: &SearchLimits<'_>,
    ) -> PropCount {
        // A solution must be a true fixpoint: no cascade is cut short inside a search.
        let saved_budget = std::mem::replace(&mut self.fix_budget, usize::MAX);
        let out = self.search_uncapped(root, limits);
        self.fix_budget = saved_budget;
        out
    }

    fn search_uncapped(&mut self, root: Vec<SymbolSet>, limits: &SearchLimits<'_>) -> PropCount {
        /// A node to branch on: its state and the alternatives left, each a (cell, symbol
        /// bit) placement; together they cover every completion of the state.
        struct Frame {
            cand: Vec<SymbolSet>,
            alts: Vec<(u32, SymbolSet)>,
        }
        let mut out = PropCount {
            count: 0,
            kept: Vec::new(),
            complete: true,
            nodes: 0,
            dead_ends: 0,
        };
        let mut stack: Vec<Frame> = Vec::new();
        let mut pool: Vec<Vec<SymbolSet>> = Vec::new();
        let mut alt_pool: Vec<Vec<(u32, SymbolSet)>> = Vec::new();
        let mut published = 0u64;
        // A fixpoint is either a solution (counted) or pushed as a frame to branch on.
        let visit = |this: &Self,
                     cand: Vec<SymbolSet>,
                     stack: &mut Vec<Frame>,
                     pool: &mut Vec<Vec<SymbolSet>>,
                     alt_pool: &mut Vec<Vec<(u32, SymbolSet)>>,
                     out: &mut PropCount|
         -> bool {
            let mut alts = alt_pool.pop().unwrap_or_default();
            alts.clear();
            if !this.branches(&cand, limits.prefer, &mut alts) {
                out.count += 1;
                let cells = || -> Vec<u8> {
                    cand.iter()
                        .map(|m| m.first().map_or(0, |v| v.get()))
                        .collect()
                };
                if out.kept.len() < limits.keep {
                    out.kept.push(cells());
                } else if let Some(givens) = limits.givens.filter(|_| out.count <= CHECKED) {
                    // Counted, not kept: checked all the same (kept ones are, as grids).
                    assert!(
                        crate::grid::solves(this.shape, givens, &cells()),
                        "every solution propagation counts solves the puzzle"
                    );
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
                    .control
                    .nodes
                    .fetch_add(out.nodes - published, Ordering::Relaxed);
                published = out.nodes;
                if limits.control.paced_stop(out.nodes) {
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
            .control
            .nodes
            .fetch_add(out.nodes - published, Ordering::Relaxed);
        out
    }

    /// The branches of a fixpoint `cand`, into `alts`: every placement of the cell with
    /// fewest candidates, or of the house–symbol with fewest places if that is fewer.
    /// `false` when every cell is fixed (a solution). With `prefer`, the placement that
    /// agrees with it comes first.
    fn branches(
        &self,
        cand: &[SymbolSet],
        prefer: Option<&[u8]>,
        alts: &mut Vec<(u32, SymbolSet)>,
    ) -> bool {
        let mut best: Option<(usize, u32)> = None;
        for (i, m) in cand.iter().enumerate() {
            let w = m.len() as u32;
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
            let mut three: Option<(usize, SymbolSet)> = None;
            for h in 0..3 * self.houses.n {
                let mut count = Tally::<4>::new();
                let mut fixed = SymbolSet::EMPTY;
                for &c in self.houses.house(h) {
                    let m = cand[c as usize];
                    count.add(m);
                    if m.at_most_one() {
                        fixed |= m;
                    }
                }
                let exactly_two = count.exactly(2) - fixed;
                if !exactly_two.is_empty() {
                    self.house_places(h, exactly_two.lowest(), cand, prefer, alts);
                    return true;
                }
                let exactly_three = count.exactly(3) - fixed;
                if width > 3 && three.is_none() && !exactly_three.is_empty() {
                    three = Some((h, exactly_three.lowest()));
                }
            }
            if let Some((h, bit)) = three {
                self.house_places(h, bit, cand, prefer, alts);
                return true;
            }
        }
        let mut rest = cand[cell];
        let first = prefer.map_or(SymbolSet::EMPTY, |p| SymbolSet::of_value(p[cell])) & rest;
        if !first.is_empty() {
            alts.push((cell as u32, first));
            rest -= first;
        }
        alts.extend(rest.iter().map(|v| (cell as u32, SymbolSet::single(v))));
        true
    }

    /// The places of symbol `bit` in house `h`, the one `prefer` puts it in first.
    fn house_places(
        &self,
        h: usize,
        bit: SymbolSet,
        cand: &[SymbolSet],
        prefer: Option<&[u8]>,
        alts: &mut Vec<(u32, SymbolSet)>,
    ) {
        let start = alts.len();
        for &c in self.houses.house(h) {
            if !(cand[c as usize] & bit).is_empty() {
                alts.push((c, bit));
            }
        }
        if let Some(p) = prefer {
            let sym = bit.first().map_or(0, |v| v.get());
            if let Some(k) = alts[start..]
                .iter()
                .position(|&(c, _)| p[c as usize] == sym)
            {
                alts.swap(start, start + k);
            }
        }
    }
}
