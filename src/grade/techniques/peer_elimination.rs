//! Level 1, peer elimination (the paper's technique 1): remove from every blank cell each
//! symbol already placed in its row, column or block. A cell left with one candidate is a
//! naked single; the grader places it at the end of the round.

use std::fmt;

use crate::cells::SymbolSet;
use crate::grade::candidates::Candidates;
use crate::grade::step::{Namer, Recorder, Step};
use crate::grade::techniques::Technique;

/// One sweep over the blank cells. Each narrowed cell is one deduction.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    let mut any = false;
    for i in 0..c.blanks.len() {
        let cell = c.blanks[i];
        let [r, col, blk] = c.houses.of_cell[cell as usize];
        let taken = c.placed.house(r as usize)
            | c.placed.house(col as usize)
            | c.placed.house(blk as usize);
        let gone = c.remove(cell, taken);
        if gone.is_empty() {
            continue;
        }
        rec.note(cell, gone);
        if rec.explain {
            let mut houses = [0usize; 3];
            let mut k = 0;
            for h in [r, col, blk] {
                if !(c.placed.house(h as usize) & gone).is_empty() {
                    houses[k] = h as usize;
                    k += 1;
                }
            }
            let none = SymbolSet::EMPTY;
            any |= rec.finish(c, Technique::PeerElimination, &houses[..k], &[cell], none);
        } else {
            any |= rec.finish(c, Technique::PeerElimination, &[], &[], SymbolSet::EMPTY);
        }
        if c.conflict.is_some() {
            break;
        }
    }
    any
}

/// "naked single: staff 1 / day 1 gets shift 4, the only one left after removing …", or
/// "peer elimination: staff 1 / day 1 loses shift 4, already placed in block 1".
pub(crate) fn describe(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    match s.places.first() {
        Some(p) => write!(
            f,
            "naked single: {} gets {}, the only one left after removing {}, \
             already placed {}",
            nm.cell(p.pos),
            nm.shift(p.symbol),
            s.shift_words(nm),
            s.where_placed(nm),
        ),
        None => write!(
            f,
            "peer elimination: {} loses {}, already placed {}",
            nm.cell(s.cell_or_origin()),
            s.shift_words(nm),
            s.where_placed(nm),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::techniques::testutil::{at, blank9, m};
    use crate::grid::House;

    #[test]
    fn removes_placed_symbols_of_row_column_and_block() {
        let (mut c, mut rec) = blank9();
        let mut cells = [0u8; 81];
        cells[at(1, 5) as usize] = 3; // same row as (1,1)
        cells[at(7, 1) as usize] = 4; // same column
        cells[at(2, 2) as usize] = 5; // same block
        cells[at(9, 9) as usize] = 6; // unrelated
        c.load(&cells);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(1, 1) as usize], c.full & !m(&[3, 4, 5]));
        assert_eq!(c.cand[at(5, 5) as usize], c.full & !m(&[3]));
        let first = &rec.log[0];
        assert_eq!(first.technique, Technique::PeerElimination);
        assert_eq!(
            first.houses,
            vec![House::Row(0), House::Col(0), House::Block(0)]
        );
        assert_eq!(
            first
                .eliminations
                .iter()
                .map(|e| e.symbol)
                .collect::<Vec<_>>(),
            vec![3, 4, 5]
        );
        // One deduction per narrowed cell; a second sweep finds nothing.
        assert_eq!(rec.counts[0] as usize, rec.log.len());
        assert!(!apply(&mut c, &mut rec));
    }

    #[test]
    fn naked_single_is_reported() {
        let (mut c, mut rec) = blank9();
        let mut cells = [0u8; 81];
        for (k, v) in (2..=9).zip(1..=8u8) {
            cells[at(1, k) as usize] = v;
        }
        c.load(&cells);
        apply(&mut c, &mut rec);
        assert_eq!(c.cand[0], m(&[9]));
        let s = rec
            .log
            .iter()
            .find(|s| s.cells[0].col == 0 && s.cells[0].row == 0);
        let s = s.expect("the cell was narrowed");
        assert_eq!(s.places.len(), 1);
        assert_eq!(s.places[0].symbol, 9);
        let text = s.to_string();
        assert!(
            text.contains("naked single: staff 1 / day 1 gets shift 9"),
            "{text}"
        );
    }
}
