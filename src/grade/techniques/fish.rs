//! Fish of size `k`, shared by X-Wing (`k = 2`) and Swordfish (`k = 3`).
//!
//! If a symbol's candidates in `k` base rows all lie in the same `k` columns (the cover),
//! each of those columns takes the symbol in one of the base rows, so the rest of each cover
//! column loses it. The same holds with rows and columns exchanged. Rows are swept as bases
//! first (for every symbol), then columns.

use super::subsets::combinations;
use std::fmt;

use crate::cells::{Symbol, SymbolSet, bit_indices, bits_between};
use crate::grade::candidates::{Candidates, Memo};
use crate::grade::step::{Namer, Recorder, Step};
use crate::grade::techniques::Technique;
use crate::grid::House;

/// One sweep of fish of size `k` for every symbol, rows as bases then columns, reported as
/// technique `t`.
pub(crate) fn fish(c: &mut Candidates, rec: &mut Recorder, k: usize, t: Technique) -> bool {
    let memos = [Memo::new(t, 0), Memo::new(t, 1)];
    let n = c.n;
    let mut any = false;
    let mut lines = std::mem::take(&mut c.list);
    let mut pos = std::mem::take(&mut c.masks);
    let mut base = std::mem::take(&mut c.masks2);
    for (by_col, memo) in [false, true].into_iter().zip(memos) {
        // Symbols whose candidates changed since this search last found nothing for them.
        let todo = (0..n)
            .filter(|&v| !c.symbol_quiet(memo, v))
            .map(Symbol::from_index)
            .collect::<SymbolSet>();
        if todo.is_empty() {
            continue;
        }
        // pos[v * n + line]: where symbol v can go along `line`, as a mask of cross lines.
        pos.clear();
        pos.resize(n * n, 0);
        for &cell in &c.blanks {
            let (r, col) = (cell as usize / n, cell as usize % n);
            let (line, cross) = if by_col { (col, r) } else { (r, col) };
            for v in (c.cand[cell as usize] & todo).indices() {
                pos[v * n + line] |= 1u128 << cross;
            }
        }
        for v in todo.indices() {
            let before = c.version;
            lines.clear();
            base.clear();
            for line in 0..n {
                let p = pos[v * n + line];
                if bits_between(p, 2, k) {
                    lines.push(line as u32);
                    base.push(p);
                }
            }
            if lines.len() < k {
                c.set_symbol_quiet(memo, v);
                continue;
            }
            let bit = SymbolSet::single(Symbol::from_index(v));
            let cell_at = |line: usize, cross: usize| -> u32 {
                (if by_col {
                    cross * n + line
                } else {
                    line * n + cross
                }) as u32
            };
            combinations(&base, k, &mut |chosen, cover| {
                let mut chosen_lines = [0usize; 4];
                for (slot, &i) in chosen_lines.iter_mut().zip(chosen) {
                    *slot = lines[i] as usize;
                }
                let chosen_lines = &chosen_lines[..k];
                for cross in bit_indices(cover) {
                    for line in (0..n).filter(|l| !chosen_lines.contains(l)) {
                        let cell = cell_at(line, cross);
                        let gone = c.remove(cell, bit);
                        rec.note(cell, gone);
                    }
                }
                let mut houses = [0usize; 8];
                let mut cells = [0u32; 16];
                let mut m = 0;
                if rec.explain {
                    let (base_off, cover_off) = if by_col { (n, 0) } else { (0, n) };
                    for (slot, &l) in houses.iter_mut().zip(chosen_lines) {
                        *slot = base_off + l;
                    }
                    for (slot, x) in houses[k..].iter_mut().zip(bit_indices(cover)) {
                        *slot = cover_off + x;
                    }
                    for &l in chosen_lines {
                        for x in bit_indices(cover) {
                            let cell = cell_at(l, x);
                            if !(c.cand[cell as usize] & bit).is_empty() {
                                cells[m] = cell;
                                m += 1;
                            }
                        }
                    }
                    cells[..m].sort_unstable();
                }
                any |= rec.finish(c, t, &houses[..2 * k], &cells[..m], bit);
            });
            if c.conflict.is_some() {
                break;
            }
            if c.version == before {
                c.set_symbol_quiet(memo, v);
            }
        }
        if c.conflict.is_some() {
            break;
        }
    }
    c.list = lines;
    c.masks = pos;
    c.masks2 = base;
    any
}

/// "X-Wing: staff 2 and 7 can work shift 6 only on days 3 and 8, so no one else works it on
/// those days", or the same with columns as the base lines.
pub(crate) fn describe(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    let k = s.houses.len() / 2;
    let index = |h: &House| match *h {
        House::Row(i) | House::Col(i) | House::Block(i) => i,
    };
    let (bases, covers) = s.houses.split_at(k);
    let bases: Vec<usize> = bases.iter().map(index).collect();
    let covers: Vec<usize> = covers.iter().map(index).collect();
    let syms = s.symbol_words(nm);
    if matches!(s.houses.first(), Some(House::Row(_))) {
        write!(
            f,
            "{}: {} can work {syms} only on {}, so no one else works it on those days",
            s.technique,
            nm.staff_list(&bases),
            nm.day_list(&covers)
        )
    } else {
        write!(
            f,
            "{}: on {}, {syms} can only go to {}, so they work it on no other day",
            s.technique,
            nm.day_list(&bases),
            nm.staff_list(&covers)
        )
    }
}
