//! Randomised Algorithm X for blank-grid solutions, with band-local restarts.
//!
//! Filling an empty `n×n` board is easy in principle (every branch near the root leads to a
//! solution) and hard in practice: plain MRV with random tie-breaks wanders into huge dead
//! subtrees from 25×25 on. Three things make the search reliable at every size:
//!
//! 1. **Forced items first.** The search keeps, incrementally as the matrix's `hide`/`unhide`
//!    report length changes to its [`Watch`], the number of active items with no option left (`zeros`) and a stack of items that dropped to one
//!    option (`singles`). A zero means the branch is dead, detected right after the commit
//!    instead of levels later; a single is taken before anything else, which is unit
//!    propagation over rows, columns, blocks and cells at once.
//! 2. **Band order.** Otherwise the search branches on the smallest item of the lowest
//!    unfinished band (the `b` rows of blocks it is filling), with random tie-breaks and a
//!    random first option. Filling band by band keeps the frontier narrow, so dead ends are
//!    found close to their cause.
//! 3. **Band-local Luby restarts.** When the failures since the last restart exceed
//!    `RESTART_UNIT × luby(k)`, the search undoes only the current band (back to the depth
//!    at which that band became the lowest unfinished one) and refills it with fresh random
//!    choices; after `ESCALATE_AFTER` restarts of the same band it also undoes the band above.
//!
//! The numbers that chose these (see README "Performance" for the current table): plain MRV
//! with random tie-breaks timed out from 49×49 on; global restarts were 10–30× slower than
//! band-local ones; forced-first plus band order with band restarts fills 100×100 in about a
//! second on one core.
//!
//! The search is resumable: [`FillSearch::run`] takes a node budget and returns, keeping its
//! state, which is what the deterministic parallel portfolio in `generate::fill` builds on.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::matrix::{Matrix, Watch};
use super::sudoku::Encoding;
use crate::solve::luby;

/// Failures per unit of the Luby sequence.
const RESTART_UNIT: u64 = 256;
/// Restarts of one band before the band above it is undone too.
const ESCALATE_AFTER: u32 = 16;

/// How a call to [`FillSearch::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FillStatus {
    /// The grid is full.
    Solved,
    /// The node budget ran out; call `run` again to continue.
    Budget,
    /// The whole tree was exhausted (only possible with contradictory givens).
    Exhausted,
}

/// Counters of a fill search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FillStats {
    /// Options tried.
    pub nodes: u64,
    /// Dead ends met (a branch that left some item without options).
    pub dead_ends: u64,
    /// Band restarts.
    pub restarts: u64,
    /// Cells placed at the deepest point so far.
    pub deepest: u64,
}

/// Item bookkeeping that `Matrix`'s plain cover/uncover does not do, fed through [`Watch`].
struct Tracker {
    zeros: u32,
    ones: u32,
    singles: Vec<u32>,
    /// Band of each item (`u32::MAX` for items outside every band).
    item_band: Vec<u32>,
    /// Per band, its items; the first `band_count[k]` are the active ones. Covers and
    /// uncovers come in strict LIFO order, so a cover swaps the item to the end of the active
    /// prefix and the matching uncover only has to grow the prefix again (a reversible
    /// sparse set).
    band_active: Vec<Vec<u32>>,
    band_count: Vec<u32>,
    /// Position of each item in its band's list.
    pos: Vec<u32>,
}

impl Tracker {
    #[inline]
    fn deactivate(&mut self, i: u32) {
        let k = self.item_band[i as usize];
        if k == u32::MAX {
            return;
        }
        let list = &mut self.band_active[k as usize];
        let last = self.band_count[k as usize] - 1;
        let p = self.pos[i as usize];
        let j = list[last as usize];
        list.swap(p as usize, last as usize);
        self.pos[j as usize] = p;
        self.pos[i as usize] = last;
        self.band_count[k as usize] = last;
    }

    #[inline]
    fn reactivate(&mut self, i: u32) {
        let k = self.item_band[i as usize];
        if k == u32::MAX {
            return;
        }
        debug_assert_eq!(self.pos[i as usize], self.band_count[k as usize]);
        self.band_count[k as usize] += 1;
    }
}

/// The fill search's bookkeeping, kept up to date by the matrix's link operations.
impl Watch for Tracker {
    #[inline(always)]
    fn hidden(&mut self, x: u32, len: u32) {
        if len == 1 {
            self.ones += 1;
            self.singles.push(x);
        } else if len == 0 {
            self.ones -= 1;
            self.zeros += 1;
        }
    }

    #[inline(always)]
    fn unhidden(&mut self, _x: u32, len: u32) {
        if len == 1 {
            self.zeros -= 1;
            self.ones += 1;
        } else if len == 2 {
            self.ones -= 1;
        }
    }

    #[inline(always)]
    fn covered(&mut self, i: u32, len: u32) {
        match len {
            0 => self.zeros -= 1,
            1 => self.ones -= 1,
            _ => {}
        }
        self.deactivate(i);
    }

    #[inline(always)]
    fn uncovered(&mut self, i: u32, len: u32) {
        match len {
            0 => self.zeros += 1,
            1 => self.ones += 1,
            _ => {}
        }
        self.reactivate(i);
    }
}

/// One level of the search stack.
#[derive(Clone, Copy)]
struct Level {
    item: u32,
    /// The first option tried at this level (options are tried cyclically from it).
    start: u32,
    x: u32,
    /// `singles.len()` before the item was covered, and before the option was committed.
    mark_cover: u32,
    mark_commit: u32,
}

/// What every worker filling the same board shares: the encoding and the band lists.
pub(crate) struct FillPlan {
    pub(crate) enc: Encoding,
    /// Per band: the items the band heuristic may branch on.
    band_items: Vec<Vec<u32>>,
    /// Band of each item, `u32::MAX` for column-symbol items.
    item_band: Vec<u32>,
}

impl FillPlan {
    /// Prepares `enc` for filling.
    pub(crate) fn new(enc: Encoding) -> FillPlan {
        let n = enc.shape.side();
        let b = enc.shape.box_size();
        let m = &enc.matrix;
        // Each item's band, read off the options that cover it: cell, row-symbol and
        // block-symbol items lie in one band; column-symbol items (the third node of every
        // option, see `sudoku.rs`) span all bands and are left to the forced-item rule.
        let mut item_band = vec![u32::MAX; m.items() + 1];
        for x in m.option_nodes() {
            let i = m.top[x];
            // Node `x` is item family `x & 3` of its option (see `matrix.rs`).
            if x & 3 != 2 {
                let (cell, _) = enc.options[m.option_of(x as u32) as usize];
                item_band[i as usize] = (cell as usize / n / b) as u32;
            }
        }
        let mut band_items = vec![Vec::new(); b];
        for (i, &band) in item_band.iter().enumerate().skip(1) {
            if band != u32::MAX {
                band_items[band as usize].push(i as u32);
            }
        }
        FillPlan {
            enc,
            band_items,
            item_band,
        }
    }
}

/// A resumable randomised search for one completion of a (usually empty) board.
pub(crate) struct FillSearch<'a> {
    plan: &'a FillPlan,
    m: Matrix,
    /// Blank cells left per band.
    band_left: Vec<u32>,
    /// Depth at which each band became the lowest unfinished one.
    band_start: Vec<usize>,
    /// The band that was lowest unfinished at the last choice.
    last_band: usize,
    restarts_in_band: Vec<u32>,
    levels: Vec<Level>,
    track: Tracker,
    rng: ChaCha8Rng,
    fails_since_restart: u64,
    luby_index: u64,
    /// The root option this worker starts from (its subtree), if any.
    root: Option<u32>,
    /// Whether the search must backtrack before choosing again.
    pending_backtrack: bool,
    pub(crate) stats: FillStats,
}

impl<'a> FillSearch<'a> {
    /// A search over `plan` drawing from `rng`. `root` picks which option of the first
    /// item this worker commits to (modulo the number of options), so that workers started
    /// with different roots explore disjoint subtrees.
    pub(crate) fn new(plan: &'a FillPlan, rng: ChaCha8Rng, root: Option<usize>) -> FillSearch<'a> {
        let enc = &plan.enc;
        let n = enc.shape.side();
        let b = enc.shape.box_size();
        let m = enc.matrix.clone();
        let mut band_left = vec![0u32; b];
        for (cell, &v) in enc.givens.iter().enumerate() {
            if v == 0 {
                band_left[cell / n / b] += 1;
            }
        }
        let items = m.items();
        // Every band item starts active (the plan lists only items of the matrix, all of
        // which are active before the search).
        let mut pos = vec![0u32; items + 1];
        for list in &plan.band_items {
            for (p, &i) in list.iter().enumerate() {
                pos[i as usize] = p as u32;
            }
        }
        let mut track = Tracker {
            zeros: 0,
            ones: 0,
            singles: Vec::with_capacity(items + 1),
            item_band: plan.item_band.clone(),
            band_active: plan.band_items.clone(),
            band_count: plan.band_items.iter().map(|l| l.len() as u32).collect(),
            pos,
        };
        for i in m.active_items() {
            match m.len[i as usize] {
                0 => track.zeros += 1,
                1 => {
                    track.ones += 1;
                    track.singles.push(i);
                }
                _ => {}
            }
        }
        let root = match root {
            Some(r) if items > 0 && m.len[m.rlink[0] as usize] > 0 => {
                let i = m.rlink[0];
                let mut x = m.nodes[i as usize].down;
                for _ in 0..(r % m.len[i as usize] as usize) {
                    x = m.nodes[x as usize].down;
                }
                Some(x)
            }
            _ => None,
        };
        FillSearch {
            plan,
            m,
            band_left,
            band_start: vec![0; b],
            last_band: 0,
            restarts_in_band: vec![0; b],
            levels: Vec::with_capacity(items + 1),
            track,
            rng,
            fails_since_restart: 0,
            luby_index: 1,
            root,
            pending_backtrack: false,
            stats: FillStats::default(),
        }
    }

    fn band_of_option(&self, x: u32) -> usize {
        let (cell, _) = self.plan.enc.options[self.m.option_of(x) as usize];
        let shape = self.plan.enc.shape;
        cell as usize / shape.side() / shape.box_size()
    }

    fn lowest_unfinished_band(&self) -> Option<usize> {
        self.band_left.iter().position(|&l| l > 0)
    }

    /// Chooses the next item: a forced one if any, else the smallest in the lowest
    /// unfinished band.
    fn choose(&mut self) -> Option<u32> {
        if self.track.ones > 0 {
            let m = &self.m;
            let found = self
                .track
                .singles
                .iter()
                .rev()
                .copied()
                .find(|&j| m.len[j as usize] == 1 && m.is_active(j));
            debug_assert!(found.is_some(), "an active single is on the singles stack");
            if found.is_some() {
                return found;
            }
        }
        let band = self.lowest_unfinished_band()?;
        if band != self.last_band {
            if band > self.last_band {
                self.band_start[band] = self.levels.len();
            }
            self.last_band = band;
        }
        let count = self.track.band_count[band] as usize;
        if count == 0 {
            return self.m.choose_mrv_linked();
        }
        let active = &self.track.band_active[band][..count];
        // Scan the active items cyclically from a random place; the first of the smallest
        // wins, and 2 is the smallest possible here (no zeros or singles are left).
        let offset = self.rng.gen_range(0..count);
        let (tail, head) = active.split_at(offset);
        let len = &self.m.len;
        let mut best = head[0];
        let mut best_len = u32::MAX;
        for &i in head.iter().chain(tail) {
            let l = len[i as usize];
            if l < best_len {
                best_len = l;
                best = i;
                if l <= 2 {
                    break;
                }
            }
        }
        Some(best)
    }

    fn push_option(&mut self, item: u32, start: u32, x: u32, mark_cover: u32) {
        let mark_commit = self.track.singles.len() as u32;
        self.m.commit_watched(x, &mut self.track);
        self.stats.nodes += 1;
        let band = self.band_of_option(x);
        self.band_left[band] -= 1;
        self.levels.push(Level {
            item,
            start,
            x,
            mark_cover,
            mark_commit,
        });
        let depth = self.levels.len() as u64;
        if depth > self.stats.deepest {
            self.stats.deepest = depth;
        }
    }

    fn pop_option(&mut self) -> Level {
        let lv = self.levels.pop().expect("pop_option on a non-empty stack");
        self.m.uncommit_watched(lv.x, &mut self.track);
        self.track.singles.truncate(lv.mark_commit as usize);
        let band = self.band_of_option(lv.x);
        self.band_left[band] += 1;
        lv
    }

    fn leave_level(&mut self, lv: &Level) {
        self.m.uncover_watched(lv.item, &mut self.track);
        self.track.singles.truncate(lv.mark_cover as usize);
    }

    /// Backtracks to the next untried option. Returns false when the tree is exhausted.
    fn backtrack(&mut self) -> bool {
        loop {
            let Some(_) = self.levels.last() else {
                return false;
            };
            let lv = self.pop_option();
            let mut next = self.m.nodes[lv.x as usize].down;
            if next == lv.item {
                next = self.m.nodes[lv.item as usize].down;
            }
            // The root level of a split worker has only its own option.
            let is_root = self.root.is_some() && self.levels.is_empty();
            if next != lv.start && next != lv.item && !is_root {
                self.push_option(lv.item, lv.start, next, lv.mark_cover);
                return true;
            }
            self.leave_level(&lv);
            if is_root {
                return false;
            }
        }
    }

    /// Undoes levels down to `depth`.
    fn unwind_to(&mut self, depth: usize) {
        while self.levels.len() > depth {
            let lv = self.pop_option();
            self.leave_level(&lv);
        }
    }

    fn restart(&mut self) {
        self.stats.restarts += 1;
        self.fails_since_restart = 0;
        self.luby_index += 1;
        let Some(band) = self.lowest_unfinished_band() else {
            return;
        };
        let mut target = band;
        self.restarts_in_band[band] += 1;
        if self.restarts_in_band[band] > ESCALATE_AFTER && band > 0 {
            self.restarts_in_band[band] = 0;
            target = band - 1;
        }
        let floor = usize::from(self.root.is_some());
        let depth = self.band_start[target].max(floor).min(self.levels.len());
        self.unwind_to(depth);
        self.last_band = self.lowest_unfinished_band().unwrap_or(0);
        self.pending_backtrack = false;
    }

    /// Searches for at most `budget` more nodes.
    pub(crate) fn run(&mut self, budget: u64) -> FillStatus {
        let stop_at = self.stats.nodes.saturating_add(budget);
        if self.levels.is_empty() && self.stats.nodes == 0 {
            if let Some(x) = self.root {
                let i = self.m.top[x as usize];
                let mark = self.track.singles.len() as u32;
                self.m.cover_watched(i, &mut self.track);
                self.push_option(i, x, x, mark);
                self.band_start.fill(1);
            }
        }
        loop {
            if self.stats.nodes >= stop_at {
                return FillStatus::Budget;
            }
            if self.pending_backtrack || self.track.zeros > 0 {
                self.pending_backtrack = false;
                self.stats.dead_ends += 1;
                self.fails_since_restart += 1;
                if self.fails_since_restart > RESTART_UNIT * luby(self.luby_index) {
                    self.restart();
                    continue;
                }
                if !self.backtrack() {
                    return FillStatus::Exhausted;
                }
                continue;
            }
            if self.m.is_solved() {
                return FillStatus::Solved;
            }
            let Some(i) = self.choose() else {
                return FillStatus::Solved;
            };
            if self.m.len[i as usize] == 0 {
                self.pending_backtrack = true;
                continue;
            }
            let mark = self.track.singles.len() as u32;
            self.m.cover_watched(i, &mut self.track);
            let l = self.m.options_of(i);
            let mut x = self.m.nodes[i as usize].down;
            for _ in 0..self.rng.gen_range(0..l) {
                x = self.m.nodes[x as usize].down;
            }
            self.push_option(i, x, x, mark);
        }
    }

    /// The cells of the current (full, once `run` returned `Solved`) assignment.
    pub(crate) fn cells(&self) -> Vec<u8> {
        let enc = &self.plan.enc;
        let mut out = enc.givens.clone();
        for lv in &self.levels {
            let (cell, v) = enc.options[self.m.option_of(lv.x) as usize];
            out[cell as usize] = v;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Puzzle, Shape};
    use rand::SeedableRng;

    #[test]
    fn fills_small_boards() {
        for b in 2..=4 {
            let shape = Shape::new(b).unwrap();
            let plan = FillPlan::new(Encoding::new(&Puzzle::empty(shape)));
            for seed in 0..10 {
                let rng = ChaCha8Rng::seed_from_u64(seed);
                let mut s = FillSearch::new(&plan, rng, Some(seed as usize));
                assert_eq!(s.run(u64::MAX), FillStatus::Solved);
                assert!(Grid::new(shape, s.cells()).is_ok());
            }
        }
    }
}
