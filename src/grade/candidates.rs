//! Candidate sets, the grader's hot state.
//!
//! Every cell has a [`SymbolSet`] of the symbols it may still take. A placed cell's set is
//! empty: techniques reason about blank cells only, and a placed symbol reaches its peers
//! through technique 1 (peer elimination), never implicitly. Houses are numbered as in
//! [`crate::cells`]; their cells and each cell's three houses are computed once per shape.
//!
//! Invariants kept between rounds of the grader:
//!
//! - `value[c] == 0` exactly for blank cells, and `cand[c]` is empty for every placed cell;
//! - `placed[h]` is the set of symbols placed in house `h`;
//! - `blanks` lists the blank cells in increasing order.
//!
//! Masks only ever lose bits while a puzzle is graded, which is what makes every technique
//! sound even when it reasons from a snapshot taken earlier in the same sweep: a pattern
//! found on a superset of the current candidates still holds on the current ones.
//!
//! The scratch buffers live here too, so a sweep allocates nothing once they have grown.

use crate::cells::{Houses, Placed, SymbolSet};
use crate::grid::{House, Pos, Shape};

use super::Conflict;
use super::techniques::{self, Technique};

/// Candidate masks, placements and the precomputed houses of one shape, plus scratch space
/// reused by the techniques.
#[derive(Clone, Debug)]
pub(crate) struct Candidates {
    pub(crate) shape: Shape,
    /// Side `n`.
    pub(crate) n: usize,
    /// Box size `b`.
    pub(crate) b: usize,
    /// All `n` symbols.
    pub(crate) full: SymbolSet,
    /// Candidates per cell; empty once the cell is placed.
    pub(crate) cand: Vec<SymbolSet>,
    /// Symbol per cell, `0` while blank.
    pub(crate) value: Vec<u8>,
    /// Symbols placed per house.
    pub(crate) placed: Placed,
    /// Blank cells, increasing.
    pub(crate) blanks: Vec<u32>,
    /// Each house's cells and each cell's houses.
    pub(crate) houses: Houses,
    /// The first inconsistency found, if any.
    pub(crate) conflict: Option<Conflict>,
    /// Bumped by every removal and placement: equal versions mean equal states.
    pub(crate) version: u64,
    /// Per house, the version of its last change (a removal or placement in one of its cells).
    stamp: Vec<u64>,
    /// Per house, the symbols of its blank cells left with one candidate since the last
    /// placement (this round's singles, placed at its end).
    settled: Vec<SymbolSet>,
    /// Whether [`Candidates::remove`] leaves alone what this round's singles take from
    /// their peers (set for the techniques above level 2: see [`Candidates::remove`]).
    pub(crate) defer: bool,
    /// Per symbol, the version of the last change to where it can go.
    sym_stamp: Vec<u64>,
    /// Per [`Memo`] slot and house, the house's stamp when the technique last found nothing
    /// to remove there (`u64::MAX`: never).
    house_memo: Vec<u64>,
    /// The same per slot and symbol.
    sym_memo: Vec<u64>,
    /// Whether [`Candidates::remove`] queues its removals until [`Candidates::flush`] (one
    /// technique's sweep: every pattern is found in the state at its start).
    sweeping: bool,
    /// Per cell, the removals queued in this sweep.
    queued: Vec<SymbolSet>,
    /// The cells with removals queued, in the order first queued.
    touched: Vec<u32>,
    /// Scratch: a list of indices (cells or positions within a house).
    pub(crate) list: Vec<u32>,
    /// Scratch: a second list.
    pub(crate) list2: Vec<u32>,
    /// Scratch: masks of symbols or of positions (`n` or `n²` of them).
    pub(crate) masks: Vec<u128>,
    /// Scratch: a second set of masks.
    pub(crate) masks2: Vec<u128>,
}

impl Candidates {
    /// Empty state for `shape`: call [`Candidates::load`] before use.
    pub(crate) fn new(shape: Shape) -> Candidates {
        let n = shape.side();
        let b = shape.box_size();
        Candidates {
            shape,
            n,
            b,
            full: SymbolSet::full(n),
            cand: vec![SymbolSet::EMPTY; n * n],
            value: vec![0; n * n],
            placed: Placed::new(shape),
            blanks: Vec::with_capacity(n * n),
            houses: Houses::new(shape),
            conflict: None,
            version: 0,
            stamp: vec![0; 3 * n],
            settled: vec![SymbolSet::EMPTY; 3 * n],
            defer: false,
            sym_stamp: vec![0; n],
            house_memo: vec![u64::MAX; Memo::COUNT * 3 * n],
            sym_memo: vec![u64::MAX; Memo::COUNT * n],
            sweeping: false,
            queued: vec![SymbolSet::EMPTY; n * n],
            touched: Vec::with_capacity(n * n),
            list: Vec::with_capacity(n * n),
            list2: Vec::with_capacity(n * n),
            masks: Vec::with_capacity(n * n),
            masks2: Vec::with_capacity(n * n),
        }
    }

    /// Loads a puzzle's cells (row-major, `0` = blank): givens are placed, blanks get every
    /// symbol. A repeated given is recorded as a [`Conflict::Clash`].
    ///
    /// # Panics
    /// If `cells` does not have `n²` entries (a `Puzzle` of this shape always has).
    pub(crate) fn load(&mut self, cells: &[u8]) {
        assert_eq!(
            cells.len(),
            self.n * self.n,
            "a puzzle of the grader's shape"
        );
        self.conflict = None;
        self.version = 0;
        self.stamp.fill(0);
        self.settled.fill(SymbolSet::EMPTY);
        self.defer = false;
        self.sweeping = false;
        self.queued.fill(SymbolSet::EMPTY);
        self.touched.clear();
        self.sym_stamp.fill(0);
        self.house_memo.fill(u64::MAX);
        self.sym_memo.fill(u64::MAX);
        self.placed.clear(self.shape);
        self.blanks.clear();
        self.value.copy_from_slice(cells);
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                self.cand[i] = self.full;
                self.blanks.push(i as u32);
            } else {
                self.cand[i] = SymbolSet::EMPTY;
                self.mark_placed(i, v);
            }
        }
    }

    /// Records `v` as placed at `cell` in its three houses; a symbol already there is a clash.
    fn mark_placed(&mut self, cell: usize, v: u8) {
        let bit = SymbolSet::of_value(v);
        self.sym_stamp[v as usize - 1] = self.version;
        for h in self.houses.of_cell[cell] {
            let h = h as usize;
            self.stamp[h] = self.version;
            if self.placed.insert(h, bit) && self.conflict.is_none() {
                self.conflict = Some(Conflict::Clash {
                    house: self.house(h),
                    symbol: v,
                });
            }
        }
    }

    /// The cells of house `h`, in house order (row-major within a block).
    #[inline]
    pub(crate) fn house_cells(&self, h: usize) -> &[u32] {
        self.houses.house(h)
    }

    /// House number `h` as a [`House`].
    pub(crate) fn house(&self, h: usize) -> House {
        let n = self.n;
        match h / n {
            0 => House::Row(h),
            1 => House::Col(h - n),
            _ => House::Block(h - 2 * n),
        }
    }

    /// The position of `cell`.
    #[inline]
    pub(crate) fn pos(&self, cell: u32) -> Pos {
        let c = cell as usize;
        Pos {
            row: c / self.n,
            col: c % self.n,
        }
    }

    /// Whether two distinct cells share a house.
    #[inline]
    pub(crate) fn sees(&self, a: u32, b: u32) -> bool {
        let (x, y) = (
            self.houses.of_cell[a as usize],
            self.houses.of_cell[b as usize],
        );
        a != b && (x[0] == y[0] || x[1] == y[1] || x[2] == y[2])
    }

    /// Removes the symbols of `mask` from `cell`'s candidates and returns those that were
    /// there. A blank cell left with none is recorded as a [`Conflict::NoCandidate`]; one
    /// left with one is recorded as settled in its houses until the singles are placed.
    ///
    /// With [`Candidates::defer`] set, a symbol that a single of this round (another cell
    /// in one of `cell`'s houses) already holds is left in place: the single is placed at
    /// the end of the round and the next round's peer elimination removes it. A technique
    /// above level 2 thus never takes credit for, nor explains, what placing a single
    /// does; a pattern whose every removal is of that kind removes nothing and is not
    /// reported. The level a puzzle needs cannot change by this, since the same removals
    /// follow one round later.
    ///
    /// In a sweep ([`Candidates::begin_sweep`]) the removal is queued: the candidates stay
    /// as they were until [`Candidates::flush`], and what is returned is what was there
    /// and not queued already.
    #[inline]
    pub(crate) fn remove(&mut self, cell: u32, mask: SymbolSet) -> SymbolSet {
        let c = cell as usize;
        let mask = if self.defer {
            let [r, k, b] = self.houses.of_cell[c];
            let taken =
                self.settled[r as usize] | self.settled[k as usize] | self.settled[b as usize];
            // The cell's own single (when it is one) is not another cell's: removing it is a
            // contradiction to report now.
            let own = if self.cand[c].len() == 1 {
                self.cand[c]
            } else {
                SymbolSet::EMPTY
            };
            mask - (taken - own)
        } else {
            mask
        };
        if self.sweeping {
            let gone = self.cand[c] & mask & !self.queued[c];
            if !gone.is_empty() {
                if self.queued[c].is_empty() {
                    self.touched.push(cell);
                }
                self.queued[c] |= gone;
            }
            return gone;
        }
        self.remove_now(cell, mask)
    }

    /// The candidates of `cell` less the removals queued in this sweep.
    #[inline]
    pub(crate) fn live(&self, cell: u32) -> SymbolSet {
        self.cand[cell as usize] & !self.queued[cell as usize]
    }

    /// Starts one technique's sweep: removals are queued until [`Candidates::flush`], so
    /// that no pattern found in it feeds another, and what a step finds does not depend on
    /// the order of the houses or symbols visited (a grid graded turned, mirrored or with
    /// its symbols renamed gets the same L and S).
    pub(crate) fn begin_sweep(&mut self) {
        self.sweeping = true;
    }

    /// Ends a sweep: applies its queued removals, in the order queued.
    pub(crate) fn flush(&mut self) {
        self.sweeping = false;
        let mut touched = std::mem::take(&mut self.touched);
        for &cell in &touched {
            let mask = std::mem::replace(&mut self.queued[cell as usize], SymbolSet::EMPTY);
            self.remove_now(cell, mask);
        }
        touched.clear();
        self.touched = touched;
    }

    /// Removes `mask` from `cell` now (what [`Candidates::remove`] does out of a sweep,
    /// after its deferral).
    fn remove_now(&mut self, cell: u32, mask: SymbolSet) -> SymbolSet {
        let c = cell as usize;
        let gone = self.cand[c] & mask;
        if !gone.is_empty() {
            self.version += 1;
            let now = self.version;
            for h in self.houses.of_cell[c] {
                self.stamp[h as usize] = now;
            }
            for v in gone.indices() {
                self.sym_stamp[v] = now;
            }
            self.cand[c] ^= gone;
            let left = self.cand[c];
            if left.len() == 1 {
                for h in self.houses.of_cell[c] {
                    self.settled[h as usize] |= left;
                }
            } else if left.is_empty() && self.conflict.is_none() {
                self.conflict = Some(Conflict::NoCandidate {
                    pos: self.pos(cell),
                });
            }
        }
        gone
    }

    /// Places every blank cell that is down to one candidate. Returns how many were placed;
    /// two of them (or one and an earlier placement) with the same symbol in one house are a
    /// [`Conflict::Clash`], and a blank cell with no candidate a [`Conflict::NoCandidate`].
    pub(crate) fn place_singles(&mut self) -> usize {
        let mut placed = 0;
        self.version += 1;
        self.settled.fill(SymbolSet::EMPTY);
        let mut blanks = std::mem::take(&mut self.blanks);
        blanks.retain(|&cell| {
            let m = self.cand[cell as usize];
            if m.is_empty() {
                if self.conflict.is_none() {
                    self.conflict = Some(Conflict::NoCandidate {
                        pos: self.pos(cell),
                    });
                }
                return true;
            }
            let Some(v) = m.only() else {
                return true;
            };
            let v = v.get();
            self.cand[cell as usize] = SymbolSet::EMPTY;
            self.value[cell as usize] = v;
            self.mark_placed(cell as usize, v);
            placed += 1;
            false
        });
        self.blanks = blanks;
        placed
    }

    /// Whether `memo` already found nothing in house `h` in its current state.
    #[inline]
    pub(crate) fn house_quiet(&self, memo: Memo, h: usize) -> bool {
        self.house_memo[memo.0 * 3 * self.n + h] == self.stamp[h]
    }

    /// Records that `memo` found nothing in house `h` in its current state.
    #[inline]
    pub(crate) fn set_house_quiet(&mut self, memo: Memo, h: usize) {
        self.house_memo[memo.0 * 3 * self.n + h] = self.stamp[h];
    }

    /// Whether `memo` already found nothing for symbol index `v` (0-based) in its current
    /// state.
    #[inline]
    pub(crate) fn symbol_quiet(&self, memo: Memo, v: usize) -> bool {
        self.sym_memo[memo.0 * self.n + v] == self.sym_stamp[v]
    }

    /// Records that `memo` found nothing for symbol index `v` in its current state.
    #[inline]
    pub(crate) fn set_symbol_quiet(&mut self, memo: Memo, v: usize) {
        self.sym_memo[memo.0 * self.n + v] = self.sym_stamp[v];
    }
}

/// A slot for remembering where a technique found nothing: two per technique (pointing
/// and fish use one per orientation, the others only the first), per house for the
/// house-based sweeps and per symbol for fish.
///
/// A sweep's result in a house depends only on that house's candidates (and placements), or,
/// for pointing and claiming, on the block (line) searched and on candidates elsewhere that
/// can only have shrunk since, which cannot turn "nothing to remove" into something. So
/// while a house is unchanged, a sweep that found nothing there would find nothing again,
/// and skipping it changes no result: only the time. A fish search for a symbol likewise
/// depends only on where that symbol can go.
///
/// Within a sweep ([`Candidates::begin_sweep`]) removals wait for the flush, so the
/// sweeps' "the version did not move" test marks a house (symbol) quiet even where the
/// sweep found something. That is still right: the flush stamps every house (symbol)
/// whose candidates it changes, which undoes the mark, and a house whose candidates it
/// left alone (pointing, whose removals lie outside the block) would only find the same
/// pattern again, which now removes nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Memo(usize);

impl Memo {
    /// Slots per technique.
    const SLOTS: usize = 2;
    /// Slots in all.
    const COUNT: usize = Memo::SLOTS * techniques::COUNT;

    /// Slot `slot` (0 or 1) of technique `t`.
    pub(crate) const fn new(t: Technique, slot: usize) -> Memo {
        assert!(slot < Memo::SLOTS, "two memo slots per technique");
        Memo(t as usize * Memo::SLOTS + slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn houses_and_peers() {
        let s = Shape::new(3).unwrap();
        let c = Candidates::new(s);
        assert_eq!(c.house_cells(0), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(c.house_cells(9 + 2)[3], 29);
        assert_eq!(c.house_cells(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(c.house(20), House::Block(2));
        assert!(c.sees(0, 80 - 8));
        assert!(c.sees(0, 20));
        assert!(!c.sees(0, 40));
        assert!(!c.sees(5, 5));
        for cell in 0..81u32 {
            for h in c.houses.of_cell[cell as usize] {
                assert!(c.house_cells(h as usize).contains(&cell));
            }
        }
    }

    #[test]
    fn deferred_removals_leave_this_rounds_singles_to_peer_elimination() {
        let s = Shape::new(2).unwrap();
        let mut c = Candidates::new(s);
        c.load(&[0; 16]);
        let set = SymbolSet::from_bits;
        // Cell 0 (row 1, column 1, block 1) is left with symbol 1 this round.
        c.remove(0, set(0b1110));
        c.defer = true;
        // Its row, column and block peers keep symbol 1 but lose the rest as asked.
        for peer in [1, 4, 5] {
            assert_eq!(c.remove(peer, set(0b0011)), set(0b0010), "cell {peer}");
            assert_eq!(c.cand[peer as usize], set(0b1101));
        }
        // A cell that does not see it loses symbol 1.
        assert_eq!(c.remove(10, set(0b0001)), set(0b0001));
        // Its own single can still be removed: a contradiction, reported at once.
        assert_eq!(c.remove(0, set(0b0001)), set(0b0001));
        assert!(matches!(c.conflict, Some(Conflict::NoCandidate { .. })));
        // Without deferral, or once the singles are placed, peers lose it as before.
        let mut c = Candidates::new(s);
        c.load(&[0; 16]);
        c.remove(0, set(0b1110));
        assert_eq!(c.remove(1, set(0b0001)), set(0b0001));
        c.defer = true;
        assert_eq!(c.place_singles(), 1);
        assert_eq!(c.remove(4, set(0b0001)), set(0b0001));
    }

    #[test]
    fn load_remove_place() {
        let s = Shape::new(2).unwrap();
        let mut c = Candidates::new(s);
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        c.load(&cells);
        assert_eq!(c.blanks.len(), 15);
        let set = SymbolSet::from_bits;
        assert_eq!(c.placed.house(0), set(1));
        assert_eq!(c.remove(1, set(0b0110)), set(0b0110));
        assert_eq!(c.remove(1, set(0b0110)), SymbolSet::EMPTY);
        assert_eq!(c.cand[1], set(0b1001));
        c.remove(1, set(0b0001));
        assert_eq!(c.place_singles(), 1);
        assert_eq!(c.value[1], 4);
        assert!(c.conflict.is_none());
        // A second 4 in row 1 is a clash.
        c.remove(2, set(0b0111));
        assert_eq!(c.place_singles(), 1);
        assert!(matches!(
            c.conflict,
            Some(Conflict::Clash {
                house: House::Row(0),
                symbol: 4
            })
        ));
    }
}
