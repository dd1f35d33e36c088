//! Naked and hidden subsets of size `k` (pairs and triples), shared by levels 4, 5 and 6,
//! and the combination search that fish use too.
//!
//! - **Naked subset**: `k` cells of a house whose candidates together are exactly `k`
//!   symbols. Those cells take those symbols, so the rest of the house loses them.
//! - **Hidden subset**: `k` symbols whose possible cells in a house are together exactly
//!   `k` cells. Those cells take those symbols, so they lose every other candidate.
//!
//! Each house is searched on a snapshot of its masks taken when the house's turn comes;
//! a deduction earlier in the same house can only have shrunk the real masks, and every
//! pattern found on a superset of candidates still holds (see `candidates`).

use std::fmt;

use crate::cells::{Symbol, SymbolSet, Tally, bit_indices, more_than};
use crate::grade::candidates::{Candidates, Memo};
use crate::grade::step::{Namer, Recorder, Step, join};
use crate::grade::techniques::Technique;

/// Calls `found(chosen, union)` for every choice of `k` entries of `masks` (indices
/// increasing) whose union has exactly `k` bits. Unions that grow past `k` bits are pruned.
/// The masks are of symbols (naked subsets) or of positions (hidden subsets, fish).
pub(crate) fn combinations(masks: &[u128], k: usize, found: &mut impl FnMut(&[usize], u128)) {
    let mut chosen = [0usize; 4];
    search(masks, k, 0, 0, 0, &mut chosen, found);
}

fn search(
    masks: &[u128],
    k: usize,
    start: usize,
    depth: usize,
    union: u128,
    chosen: &mut [usize; 4],
    found: &mut impl FnMut(&[usize], u128),
) {
    // Leave room for the entries still to choose.
    for i in start..masks.len() + depth + 1 - k {
        let u = union | masks[i];
        if more_than(u, k) {
            continue;
        }
        chosen[depth] = i;
        if depth + 1 == k {
            if more_than(u, k - 1) {
                found(&chosen[..k], u);
            }
        } else {
            search(masks, k, i + 1, depth + 1, u, chosen, found);
        }
    }
}

/// Naked subsets of size `k` in every house, reported as technique `t`.
pub(crate) fn naked(c: &mut Candidates, rec: &mut Recorder, k: usize, t: Technique) -> bool {
    let memo = Memo::new(t, 0);
    let mut any = false;
    let mut cells = std::mem::take(&mut c.list);
    let mut masks = std::mem::take(&mut c.masks);
    for h in 0..3 * c.n {
        if c.house_quiet(memo, h) {
            continue;
        }
        let before = c.version;
        cells.clear();
        masks.clear();
        for &cell in c.house_cells(h) {
            let m = c.cand[cell as usize];
            if m.len_between(2, k) {
                cells.push(cell);
                masks.push(m.bits());
            }
        }
        if cells.len() < k {
            c.set_house_quiet(memo, h);
            continue;
        }
        combinations(&masks, k, &mut |chosen, union| {
            let union = SymbolSet::from_bits(union);
            let mut pattern = [0u32; 4];
            for (slot, &i) in pattern.iter_mut().zip(chosen) {
                *slot = cells[i];
            }
            let pattern = &pattern[..k];
            for i in 0..c.n {
                let cell = c.house_cells(h)[i];
                if !pattern.contains(&cell) {
                    let gone = c.remove(cell, union);
                    rec.note(cell, gone);
                }
            }
            any |= rec.finish(c, t, &[h], pattern, union);
        });
        if c.conflict.is_some() {
            break;
        }
        if c.version == before {
            c.set_house_quiet(memo, h);
        }
    }
    c.list = cells;
    c.masks = masks;
    any
}

/// Hidden subsets of size `k` in every house, reported as technique `t`.
pub(crate) fn hidden(c: &mut Candidates, rec: &mut Recorder, k: usize, t: Technique) -> bool {
    let memo = Memo::new(t, 0);
    let mut any = false;
    let n = c.n;
    let mut syms = std::mem::take(&mut c.list);
    let mut pos = std::mem::take(&mut c.masks);
    let mut lists = std::mem::take(&mut c.masks2);
    for h in 0..3 * n {
        if c.house_quiet(memo, h) {
            continue;
        }
        let before = c.version;
        // Only symbols with 2..=k possible cells can take part.
        let want = match k {
            2 => with_two_to_k::<3>(c, h),
            _ => with_two_to_k::<4>(c, h),
        };
        if !want.more_than(k - 1) {
            c.set_house_quiet(memo, h);
            continue;
        }
        // Where each wanted symbol can go in this house, as a mask of offsets.
        pos.clear();
        pos.resize(n, 0);
        for (i, &cell) in c.house_cells(h).iter().enumerate() {
            for v in (c.cand[cell as usize] & want).indices() {
                pos[v] |= 1u128 << i;
            }
        }
        syms.clear();
        lists.clear();
        for v in want.indices() {
            syms.push(v as u32);
            lists.push(pos[v]);
        }
        combinations(&lists, k, &mut |chosen, union| {
            let keep = chosen
                .iter()
                .map(|&i| Symbol::from_index(syms[i] as usize))
                .collect::<SymbolSet>();
            let mut pattern = [0u32; 4];
            for (slot, i) in pattern.iter_mut().zip(bit_indices(union)) {
                *slot = c.house_cells(h)[i];
            }
            for &cell in &pattern[..k] {
                let gone = c.remove(cell, !keep);
                rec.note(cell, gone);
            }
            any |= rec.finish(c, t, &[h], &pattern[..k], keep);
        });
        if c.conflict.is_some() {
            break;
        }
        if c.version == before {
            c.set_house_quiet(memo, h);
        }
    }
    c.list = syms;
    c.masks = pos;
    c.masks2 = lists;
    any
}

/// "naked pair: staff 1 / day 1 and staff 1 / day 3 can only take shifts 3 and 8 between
/// them, so staff 1 works them on no other day".
pub(crate) fn describe_naked(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    write!(
        f,
        "{}: {} can only take {} between them, so {}",
        s.technique,
        join(s.cells.iter().map(|&p| nm.cell(p))),
        s.symbol_words(nm),
        nm.nowhere_else(s.house(0), "them")
    )
}

/// "hidden triple: in block 9, shifts 3, 4 and 9 can only go to …, so those cells take them
/// and nothing else".
pub(crate) fn describe_hidden(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    write!(
        f,
        "{}: {}, {} can only go to {}, so those cells take them and nothing else",
        s.technique,
        nm.in_house(s.house(0)),
        s.symbol_words(nm),
        s.cells_or(nm)
    )
}

/// The symbols with 2 to `K − 1` possible cells in house `h`, from one bit-parallel count.
#[inline]
fn with_two_to_k<const K: usize>(c: &Candidates, h: usize) -> SymbolSet {
    let count = Tally::<K>::of(c.house_cells(h).iter().map(|&x| c.cand[x as usize]));
    count.at_least(2) - count.at_least(K)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_with_union_of_size_k() {
        let masks = [0b011, 0b110, 0b101, 0b011, 0b1000_0001];
        let mut seen = Vec::new();
        combinations(&masks, 2, &mut |ch, u| seen.push((ch.to_vec(), u)));
        assert_eq!(seen, vec![(vec![0, 3], 0b011)]);
        seen.clear();
        combinations(&masks, 3, &mut |ch, u| seen.push((ch.to_vec(), u)));
        assert_eq!(
            seen,
            vec![
                (vec![0, 1, 2], 0b111),
                (vec![0, 1, 3], 0b111),
                (vec![0, 2, 3], 0b111),
                (vec![0, 3, 4], 0b1000_0011),
                (vec![1, 2, 3], 0b111)
            ]
        );
        seen.clear();
        combinations(&masks[..1], 2, &mut |ch, u| seen.push((ch.to_vec(), u)));
        assert!(seen.is_empty());
    }
}
