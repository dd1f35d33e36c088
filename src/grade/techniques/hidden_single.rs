//! Level 2, hidden single: a symbol with one possible cell in a house; that cell keeps only
//! that symbol. A symbol with no possible cell in a house where it is not placed is a
//! contradiction.

use std::fmt;

use crate::cells::{SymbolSet, Tally};
use crate::grade::Conflict;
use crate::grade::candidates::{Candidates, Memo};
use crate::grade::step::{Namer, Recorder, Step};
use crate::grade::techniques::Technique;
use crate::grid::House;

const MEMO: Memo = Memo::new(Technique::HiddenSingle, 0);

/// One sweep over the houses: rows, then columns, then blocks.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    let mut any = false;
    for h in 0..3 * c.n {
        if c.house_quiet(MEMO, h) {
            continue;
        }
        let before = c.version;
        let count = Tally::<2>::of(c.house_cells(h).iter().map(|&x| c.cand[x as usize]));
        let missing = c.full - (count.seen() | c.placed.house(h));
        if !missing.is_empty() {
            no_place(c, h, missing);
            return any;
        }
        for v in count.exactly(1) {
            let bit = SymbolSet::single(v);
            let Some(&cell) = c
                .house_cells(h)
                .iter()
                .find(|&&x| c.cand[x as usize].contains(v))
            else {
                // An earlier single of this sweep took the only cell: contradiction.
                no_place(c, h, bit);
                return any;
            };
            let gone = c.remove(cell, !bit);
            rec.note(cell, gone);
            any |= rec.finish(c, Technique::HiddenSingle, &[h], &[cell], bit);
        }
        if c.version == before {
            c.set_house_quiet(MEMO, h);
        }
    }
    any
}

fn no_place(c: &mut Candidates, h: usize, missing: SymbolSet) {
    if c.conflict.is_none() {
        c.conflict = Some(Conflict::NoPlace {
            house: c.house(h),
            symbol: missing.first().expect("a missing symbol").get(),
        });
    }
}

/// "hidden single: staff 5 / day 6 gets shift 5, the only place in block 5".
pub(crate) fn describe(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    let place = match s.house(0) {
        House::Row(r) => format!("the only day {} can work it", nm.staff(r)),
        House::Col(c) => format!("the only staff member free for it on {}", nm.day(c)),
        House::Block(k) => format!("the only place in block {}", k + 1),
    };
    write!(
        f,
        "hidden single: {} gets {}, {place}",
        nm.cell(s.cell_or_origin()),
        s.symbol_words(nm)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::techniques::testutil::{at, blank9, m, only};

    #[test]
    fn finds_the_only_place_in_a_block() {
        let (mut c, mut rec) = blank9();
        // Block 5 (rows 4-6, columns 4-6): shift 5 fits only staff 4 / day 7... within the
        // block, only (5, 6).
        let block: Vec<u32> = c.house_cells(18 + 4).to_vec();
        only(&mut c, 5, &block, &[at(5, 6)]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(5, 6) as usize], m(&[5]));
        let s = rec
            .log
            .iter()
            .find(|s| s.houses == vec![House::Block(4)])
            .expect("found in block 5");
        assert_eq!(s.technique, Technique::HiddenSingle);
        assert_eq!(s.eliminations.len(), 8);
        assert_eq!(
            s.to_string(),
            "step 1, level 1, hidden single: staff 5 / day 6 gets shift 5, the only place in \
             block 5"
        );
    }

    #[test]
    fn row_and_column_wording() {
        let (mut c, mut rec) = blank9();
        let row: Vec<u32> = c.house_cells(3).to_vec();
        only(&mut c, 5, &row, &[at(4, 7)]);
        apply(&mut c, &mut rec);
        assert_eq!(
            rec.log[0].to_string(),
            "step 1, level 1, hidden single: staff 4 / day 7 gets shift 5, the only day staff 4 \
             can work it"
        );
        assert_eq!(c.cand[at(4, 7) as usize], m(&[5]));
    }

    #[test]
    fn no_place_is_a_contradiction() {
        let (mut c, mut rec) = blank9();
        let col: Vec<u32> = c.house_cells(9 + 2).to_vec();
        only(&mut c, 7, &col, &[]);
        apply(&mut c, &mut rec);
        assert_eq!(
            c.conflict,
            Some(Conflict::NoPlace {
                house: House::Col(2),
                symbol: 7
            })
        );
    }

    #[test]
    fn nothing_on_a_blank_grid() {
        let (mut c, mut rec) = blank9();
        assert!(!apply(&mut c, &mut rec));
        assert!(rec.log.is_empty());
    }
}
