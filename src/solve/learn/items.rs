//! The exact-cover items, handled natively: geometry (which options an item holds) and the
//! live counters that turn "an option went false" into a unit or a conflict in O(1).
//!
//! An option (variable) is `cell * n + s` for symbol `s + 1`. Item ids run over four blocks
//! of `n²`: cell, row-symbol, column-symbol, block-symbol. Member `j` of item `i` is
//! `base[i] + offset[kind * n + j]`, so enumerating an item is one add per member and no
//! per-option tables exist: at 100×100 a table of each option's four items would be 16 MB
//! of mostly cold memory, while these tables are 160 KB.
//!
//! Each item keeps one `u32`: the number of members not yet *processed* false (low 8 bits,
//! `n ≤ 100`) and the sum of their positions (the rest; at most 4 950). When the count
//! reaches 1 the sum *is* the last member's position, so finding the forced option needs no
//! scan of the item. Counters change only when the propagation loop processes a false
//! option, and are restored when that option is unassigned, so they always describe exactly
//! the processed prefix of the trail.

use crate::grid::Shape;

/// One item's counter step: one member fewer, position `j` out of the sum.
#[inline]
fn step(j: u32) -> u32 {
    1 + (j << 8)
}

/// Geometry and counters of the `4n²` items of one shape.
#[derive(Clone, Debug)]
pub(super) struct Items {
    /// Side `n`.
    pub n: u32,
    nn: u32,
    /// Per item: live count (low 8 bits) and sum of live positions (`<< 8`).
    state: Vec<u32>,
    /// Per item: the option of its member 0.
    base: Vec<u32>,
    /// Per kind and position: offset of member `j` from the item's base.
    offset: Vec<u32>,
    /// `⌈2⁴⁰ / n⌉`: `x / n` is `x * magic >> 40` for every `x < 2²⁰` (all options of
    /// 100×100), a multiply instead of a 25-cycle division on every processed option.
    magic: u64,
    /// Per cell: the first item id of its row, column and block item groups, and its
    /// position in each (column, row, place in the block).
    cell_items: Vec<[u32; 6]>,
}

impl Items {
    pub(super) fn new(shape: Shape) -> Items {
        let n = shape.side() as u32;
        let b = shape.box_size() as u32;
        let nn = n * n;
        let mut base = Vec::with_capacity(4 * nn as usize);
        // Cell items: options cell*n .. cell*n + n.
        base.extend((0..nn).map(|cell| cell * n));
        // Row r, symbol s: cells r*n + j.
        base.extend((0..nn).map(|i| (i / n) * nn + i % n));
        // Column c, symbol s: cells j*n + c.
        base.extend((0..nn).map(|i| (i / n) * n + i % n));
        // Block k, symbol s: from the block's top-left cell.
        base.extend((0..nn).map(|i| {
            let (k, s) = (i / n, i % n);
            let top_left = (k / b * b) * n + (k % b) * b;
            top_left * n + s
        }));
        let mut offset = Vec::with_capacity(4 * n as usize);
        offset.extend(0..n);
        offset.extend((0..n).map(|j| j * n));
        offset.extend((0..n).map(|j| j * nn));
        offset.extend((0..n).map(|j| ((j / b) * n + j % b) * n));
        let full = n + ((n * (n - 1) / 2) << 8);
        let cell_items = (0..nn)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                let k = (r / b) * b + c / b;
                [
                    nn + r * n,
                    2 * nn + c * n,
                    3 * nn + k * n,
                    c,
                    r,
                    (r % b) * b + c % b,
                ]
            })
            .collect();
        Items {
            n,
            nn,
            state: vec![full; 4 * nn as usize],
            base,
            offset,
            magic: (1u64 << 40) / u64::from(n) + 1,
            cell_items,
        }
    }

    /// Number of items.
    #[cfg(test)]
    pub(super) fn count(&self) -> usize {
        self.state.len()
    }

    /// Member `j` of item `item`.
    #[inline]
    pub(super) fn member(&self, item: u32, j: u32) -> u32 {
        let kind = item / self.nn;
        self.base[item as usize] + self.offset[(kind * self.n + j) as usize]
    }

    /// The members of `item`: its base option and the offsets of its members from it.
    #[inline]
    pub(super) fn members(&self, item: u32) -> (u32, &[u32]) {
        let n = self.n as usize;
        let kind = (item / self.nn) as usize;
        (
            self.base[item as usize],
            &self.offset[kind * n..kind * n + n],
        )
    }

    /// The four items of option `var` and its position in each.
    #[inline]
    pub(super) fn of(&self, var: u32) -> ([u32; 4], [u32; 4]) {
        let cell = ((u64::from(var) * self.magic) >> 40) as u32;
        let s = var - cell * self.n;
        let h = &self.cell_items[cell as usize];
        ([cell, h[0] + s, h[1] + s, h[2] + s], [s, h[3], h[4], h[5]])
    }

    /// Takes processed-false option `var` out of its items' counters.
    #[inline]
    pub(super) fn remove(&mut self, items: &[u32; 4], pos: &[u32; 4]) {
        for t in 0..4 {
            self.state[items[t] as usize] -= step(pos[t]);
        }
    }

    /// Undoes [`Items::remove`] when the option is unassigned.
    #[inline]
    pub(super) fn restore(&mut self, items: &[u32; 4], pos: &[u32; 4]) {
        for t in 0..4 {
            self.state[items[t] as usize] += step(pos[t]);
        }
    }

    /// Members not processed false, and (when that is 1) the position of the last one.
    #[inline]
    pub(super) fn live(&self, item: u32) -> (u32, u32) {
        let s = self.state[item as usize];
        (s & 0xff, s >> 8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_its_four_items_at_its_position() {
        for b in 2..=4 {
            let items = Items::new(Shape::new(b).unwrap());
            let n = items.n;
            let mut seen = vec![0u32; (n * n * n) as usize];
            for it in 0..items.count() as u32 {
                for j in 0..n {
                    let v = items.member(it, j);
                    seen[v as usize] += 1;
                    let (its, pos) = items.of(v);
                    let t = its
                        .iter()
                        .position(|&x| x == it)
                        .expect("item of its member");
                    assert_eq!(pos[t], j);
                }
            }
            assert!(seen.iter().all(|&c| c == 4));
        }
    }

    #[test]
    fn the_sum_names_the_last_live_member() {
        let mut items = Items::new(Shape::new(3).unwrap());
        let it = 2 * 81 + 4;
        for j in (0..9).filter(|&j| j != 6) {
            let (its, pos) = items.of(items.member(it, j));
            items.remove(&its, &pos);
        }
        assert_eq!(items.live(it), (1, 6));
    }
}
