//! The exact-cover items, handled natively: geometry (which options an item holds) and the
//! live counters that turn "an option went false" into a unit or a conflict in O(1).
//!
//! An option (variable) is `cell * n + s` for symbol `s + 1`. Item ids run over four blocks
//! of `n²`: cell, row-symbol, column-symbol, block-symbol. Member `j` of item `i` is
//! `base[i] + offset[kind * n + j]`, so enumerating an item is one add per member and no
//! per-option tables exist: at 100×100 a table of each option's four items would be 16 MB
//! of mostly cold memory, while these tables are 160 KB.
//!
//! Each item keeps a bit mask of its members not yet *processed* false (`n ≤ 100` bits) and
//! their count: when that is 1 the mask's lowest bit is the last member's position, so
//! finding the forced option needs no scan of the item. (A word per item holding the count
//! and the sum of the live positions, as before 2026-11-25, was a third read-modify-write
//! per item on every processed false option; without it conflicts are 1–2 % cheaper. The
//! count is kept as a byte rather than counted from the mask: without a `popcnt` target
//! feature, `u128::count_ones` made them 8 % dearer.) Counters change only when the
//! propagation loop processes a false option, and are restored when that option is
//! unassigned, so they always describe exactly the processed prefix of the trail.

use crate::grid::Shape;

/// Geometry and counters of the `4n²` items of one shape.
#[derive(Clone, Debug)]
pub(super) struct Items {
    /// Side `n`.
    pub n: u32,
    /// Box side `b`.
    b: u32,
    nn: u32,
    /// Per item: one bit per member not processed false.
    live_mask: Vec<u128>,
    /// Per item: the live count, one byte each, so that the decision's scans for the
    /// smallest item read 16 items per vector instruction (`fewest_live_above_one`,
    /// `items_with`).
    live_count: Vec<u8>,
    /// Per group `g < b`: the positions `g·b .. g·b + b` (a stack of columns in a row
    /// item, a band of rows in a column item, a row of the box in a box item).
    run_mask: Vec<u128>,
    /// Per column `i < b` of a box: the box item positions `i, i + b, i + 2b, …`.
    box_col_mask: Vec<u128>,
    /// Per item: the option of its member 0.
    base: Vec<u32>,
    /// Per kind and position: offset of member `j` from the item's base.
    offset: Vec<u32>,
    /// `⌈2⁴⁰ / n⌉`: `x / n` is `x * magic >> 40` for every `x < 2²⁰` (all options of
    /// 100×100), a multiply instead of a 25-cycle division on every processed option.
    magic: u64,
    /// `⌈2⁴⁰ / b⌉`, the same for division by `b` (of positions, below `n`).
    magic_b: u64,
    /// Per cell: the first item id of its row, column and block item groups, and its
    /// position in each (column, row, place in the block).
    cell_items: Vec<[u32; 6]>,
    /// One bit per position, `n` bits.
    all: u128,
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
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        let run = (1u128 << b) - 1;
        Items {
            n,
            b,
            nn,
            live_mask: vec![all; 4 * nn as usize],
            live_count: vec![n as u8; 4 * nn as usize],
            run_mask: (0..b).map(|g| run << (g * b)).collect(),
            box_col_mask: (0..b)
                .map(|i| (0..b).fold(0u128, |m, r| m | 1u128 << (r * b + i)))
                .collect(),
            base,
            offset,
            magic: (1u64 << 40) / u64::from(n) + 1,
            magic_b: (1u64 << 40) / u64::from(b) + 1,
            cell_items,
            all,
        }
    }

    /// Number of items.
    #[cfg(test)]
    pub(super) fn count(&self) -> usize {
        self.live_mask.len()
    }

    /// Member `j` of item `item`.
    #[inline]
    pub(super) fn member(&self, item: u32, j: u32) -> u32 {
        let (base, offsets) = self.members(item);
        base + offsets[j as usize]
    }

    /// The members of `item` as its member 0 and the offsets from it by position (member
    /// `j` is `base + offsets[j]`), for loops over an item: one lookup per item rather than
    /// a division of the item id per member.
    #[inline]
    pub(super) fn members(&self, item: u32) -> (u32, &[u32]) {
        let n = self.n as usize;
        let kind = self.div_n(self.div_n(item)) as usize;
        (
            self.base[item as usize],
            &self.offset[kind * n..kind * n + n],
        )
    }

    /// `x / n` for `x < 2²⁰`, by multiplication.
    #[inline]
    fn div_n(&self, x: u32) -> u32 {
        ((u64::from(x) * self.magic) >> 40) as u32
    }

    /// The four items of option `var` and its position in each.
    #[inline]
    pub(super) fn of(&self, var: u32) -> ([u32; 4], [u32; 4]) {
        let cell = self.div_n(var);
        let s = var - cell * self.n;
        let h = &self.cell_items[cell as usize];
        ([cell, h[0] + s, h[1] + s, h[2] + s], [s, h[3], h[4], h[5]])
    }

    /// Takes processed-false option `var` out of its items' counters; returns the items'
    /// live counts after it.
    #[inline]
    pub(super) fn remove(&mut self, items: &[u32; 4], pos: &[u32; 4]) -> [u32; 4] {
        // Both tables have one entry per item: one bounds check per item covers both.
        let masks = &mut self.live_mask[..];
        let counts = &mut self.live_count[..masks.len()];
        let mut left = [0; 4];
        for t in 0..4 {
            let i = items[t] as usize;
            masks[i] &= !(1u128 << pos[t]);
            counts[i] -= 1;
            left[t] = u32::from(counts[i]);
        }
        left
    }

    /// Undoes [`Items::remove`] when the option is unassigned.
    #[inline]
    pub(super) fn restore(&mut self, items: &[u32; 4], pos: &[u32; 4]) {
        let masks = &mut self.live_mask[..];
        let counts = &mut self.live_count[..masks.len()];
        for t in 0..4 {
            let i = items[t] as usize;
            masks[i] |= 1u128 << pos[t];
            counts[i] += 1;
        }
    }

    /// The position of the lowest member of `item` not processed false (the last one when
    /// it has one live member).
    #[inline]
    pub(super) fn last(&self, item: u32) -> u32 {
        self.live_mask[item as usize].trailing_zeros()
    }

    /// Members not processed false, and (when that is 1) the position of the last one.
    #[inline]
    pub(super) fn live(&self, item: u32) -> (u32, u32) {
        let i = item as usize;
        (
            u32::from(self.live_count[i]),
            self.live_mask[i].trailing_zeros(),
        )
    }

    /// The fewest live members of any item that has two or more, `u32::MAX` if none has.
    pub(super) fn fewest_live_above_one(&self) -> u32 {
        // Counts 0 and 1 wrap to 254 and 255 (n ≤ 100 keeps real ones below), so one
        // byte-wise minimum does it, which the compiler turns into vector instructions.
        let least = self
            .live_count
            .iter()
            .fold(u8::MAX, |m, &c| m.min(c.wrapping_sub(2)));
        if least >= 254 {
            u32::MAX
        } else {
            u32::from(least) + 2
        }
    }

    /// Calls `f` with every item that has exactly `live` live members, in item order.
    #[inline]
    pub(super) fn items_with(&self, live: u32, mut f: impl FnMut(u32)) {
        const CHUNK: usize = 32;
        let live = live as u8;
        let chunks = self.live_count.chunks_exact(CHUNK);
        let rest = chunks.remainder();
        for (k, chunk) in chunks.enumerate() {
            // A vector compare per chunk into a bit mask (over a fixed-size array, which
            // the compiler vectorizes), then one step per item found. The decision's
            // smallest items number in the hundreds, so most chunks hold some: testing each
            // chunk for any and then comparing its bytes one by one cost 3 % of all
            // instructions on Frisch's puzzles.
            let chunk: &[u8; CHUNK] = chunk.try_into().expect("chunks_exact");
            let mut hits = chunk
                .iter()
                .enumerate()
                .fold(0u32, |m, (j, &c)| m | u32::from(c == live) << j);
            while hits != 0 {
                let j = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                f((k * CHUNK + j) as u32);
            }
        }
        let done = self.live_count.len() - rest.len();
        for (j, &c) in rest.iter().enumerate() {
            if c == live {
                f((done + j) as u32);
            }
        }
    }

    /// One bit per member of `item` not processed false.
    #[inline]
    pub(super) fn live_mask(&self, item: u32) -> u128 {
        self.live_mask[item as usize]
    }

    /// Box side `b`.
    #[inline]
    pub(super) fn box_side(&self) -> u32 {
        self.b
    }

    /// Whether option `var` is a member of `item`.
    #[cfg(test)]
    pub(super) fn contains(&self, item: u32, var: u32) -> bool {
        self.of(var).0.contains(&item)
    }

    /// Locked candidates: if the live members of symbol item `a` (a row, column or box
    /// item with at least two live members) all lie in one crossing item — the box of a
    /// row's or column's members, the row or column of a box's — that item, and the
    /// positions in it of its members that are also in `a`. Its other members are then
    /// false: `a` must take one of the shared options.
    #[inline]
    pub(super) fn locked(&self, a: u32) -> Option<(u32, u128)> {
        let (n, nn, b) = (self.n, self.nn, self.b);
        let mask = self.live_mask[a as usize];
        let j0 = mask.trailing_zeros();
        let (g, col) = self.divrem_b(j0);
        let in_run = mask & !self.run_mask[g as usize] == 0;
        // Most calls find no lock: test that first, from the mask alone (a box's live
        // places may also share a column of it).
        if !in_run && (a < 3 * nn || mask & !self.box_col_mask[col as usize] != 0) {
            return None;
        }
        // a = (kind · n + line) · n + s.
        let q = self.div_n(a);
        let kind = self.div_n(q);
        let line = q - kind * n;
        let s = a - q * n;
        let (band, place) = self.divrem_b(line);
        match kind {
            // Row `line`: the live columns are in stack `g`; the row is the box's row
            // `line % b`.
            1 if in_run => Some((
                3 * nn + (band * b + g) * n + s,
                self.run_mask[place as usize],
            )),
            // Column `line`: the live rows are in band `g`; the column is the box's column
            // `line % b`.
            2 if in_run => Some((
                3 * nn + (g * b + band) * n + s,
                self.box_col_mask[place as usize],
            )),
            // Box `line`: the live places are in the box's row `g`, which meets the box in
            // the box's stack of columns `line % b`, or in its column `j0 % b`, which meets
            // it in its band `line / b`.
            3 if in_run => Some((nn + (band * b + g) * n + s, self.run_mask[place as usize])),
            3 if mask & !self.box_col_mask[col as usize] == 0 => Some((
                2 * nn + (place * b + col) * n + s,
                self.run_mask[band as usize],
            )),
            _ => None,
        }
    }

    /// For option `x` made false by [`Items::locked`] on item `a`: the positions in `a` of
    /// its members outside the crossing item that holds `x` (the antecedents of `x`), as a
    /// mask. The same members as testing each of `a`'s against the crossing item
    /// (`Items::crossing`, kept for the tests that check this), without a division and a
    /// lookup per member.
    #[inline]
    pub(super) fn line_outside(&self, a: u32, x: u32) -> u128 {
        let n = self.n;
        let q = self.div_n(a);
        let kind = self.div_n(q);
        let cell = self.div_n(x);
        let r = self.div_n(cell);
        let c = cell - r * n;
        let inside = match kind {
            // A row: the columns of x's stack of boxes.
            1 => self.run_mask[self.divrem_b(c).0 as usize],
            // A column: the rows of x's band.
            2 => self.run_mask[self.divrem_b(r).0 as usize],
            // A box: x's row if it crosses the box's band, else x's column.
            _ => {
                let band = self.divrem_b(q - kind * n).0;
                let (rb, rp) = self.divrem_b(r);
                if rb == band {
                    self.run_mask[rp as usize]
                } else {
                    self.box_col_mask[self.divrem_b(c).1 as usize]
                }
            }
        };
        self.all & !inside
    }

    /// `(x / b, x % b)` for `x < n`, by multiplication.
    #[inline]
    fn divrem_b(&self, x: u32) -> (u32, u32) {
        let q = ((u64::from(x) * self.magic_b) >> 40) as u32;
        (q, x - q * self.b)
    }

    /// For option `x` made false by [`Items::locked`] on item `a`: the crossing item that
    /// holds `x` and meets `a`.
    #[cfg(test)]
    pub(super) fn crossing(&self, a: u32, x: u32) -> u32 {
        let (n, nn, b) = (self.n, self.nn, self.b);
        let (its, _) = self.of(x);
        if a / nn == 3 {
            // x shares a row with the box's live places if its row crosses the box.
            let band = (a - 3 * nn) / n / b;
            let row = (its[1] - nn) / n;
            if row / b == band { its[1] } else { its[2] }
        } else {
            its[3]
        }
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

    /// Counts out every member of `item` but those at `keep`.
    fn keep_only(items: &mut Items, item: u32, keep: &[u32]) {
        for j in (0..items.n).filter(|j| !keep.contains(j)) {
            let (its, pos) = items.of(items.member(item, j));
            items.remove(&its, &pos);
        }
    }

    /// The crossing item [`Items::locked`] names for `a`, after checking its shared
    /// positions against [`Items::contains`].
    fn locked_item(items: &Items, a: u32) -> Option<u32> {
        let (cross, shared) = items.locked(a)?;
        for j in 0..items.n {
            let inside = items.contains(a, items.member(cross, j));
            assert_eq!(
                shared >> j & 1 == 1,
                inside,
                "item {a}, crossing {cross}, {j}"
            );
        }
        Some(cross)
    }

    #[test]
    fn locked_candidates_name_the_crossing_item() {
        // 9×9, symbol index 4; items are (kind · 81 + line · 9 + symbol).
        let (nn, s) = (81, 4);
        let item = |kind: u32, line: u32| kind * nn + line * 9 + s;
        // Box 4 (rows 3–5, columns 3–5): places 3 and 5 are its row 1, grid row 4.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(3, 4), &[3, 5]);
        assert_eq!(locked_item(&items, item(3, 4)), Some(item(1, 4)));
        // Places 1 and 7 are its column 1, grid column 4.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(3, 4), &[1, 7]);
        assert_eq!(locked_item(&items, item(3, 4)), Some(item(2, 4)));
        // Places 0 and 4 share neither.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(3, 4), &[0, 4]);
        assert_eq!(locked_item(&items, item(3, 4)), None);
        // Row 7, columns 6 and 8: box 8.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(1, 7), &[6, 8]);
        assert_eq!(locked_item(&items, item(1, 7)), Some(item(3, 8)));
        // Column 2, rows 3 and 4: box 3.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(2, 2), &[3, 4]);
        assert_eq!(locked_item(&items, item(2, 2)), Some(item(3, 3)));
        // Column 2, rows 2 and 3: two boxes.
        let mut items = Items::new(Shape::new(3).unwrap());
        keep_only(&mut items, item(2, 2), &[2, 3]);
        assert_eq!(locked_item(&items, item(2, 2)), None);
    }

    #[test]
    fn crossing_items_hold_the_option_and_meet_the_item() {
        let items = Items::new(Shape::new(3).unwrap());
        for a in 81..4 * 81u32 {
            for x in 0..729u32 {
                if items.contains(a, x) {
                    continue;
                }
                let c = items.crossing(a, x);
                assert!(items.contains(c, x));
                let shared = (0..9)
                    .filter(|&j| items.contains(c, items.member(a, j)))
                    .count();
                // Either it meets `a` in a run of b (a crossing) or x is not on one.
                assert!(shared == 3 || shared <= 1, "{a} {x} {c} {shared}");
                if shared == 3 {
                    let outside = (0..9)
                        .filter(|&j| !items.contains(c, items.member(a, j)))
                        .fold(0u128, |m, j| m | 1 << j);
                    assert_eq!(items.line_outside(a, x), outside, "{a} {x}");
                }
            }
        }
    }

    #[test]
    fn live_names_the_last_live_member() {
        let mut items = Items::new(Shape::new(3).unwrap());
        let it = 2 * 81 + 4;
        for j in (0..9).filter(|&j| j != 6) {
            let (its, pos) = items.of(items.member(it, j));
            items.remove(&its, &pos);
        }
        assert_eq!(items.live(it), (1, 6));
    }
}
