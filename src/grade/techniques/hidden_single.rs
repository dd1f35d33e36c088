//! Level 2, hidden single: a symbol with one possible cell in a house; that cell keeps only
//! that symbol. A symbol with no possible cell in a house where it is not placed is a
//! contradiction.

use std::fmt;

use crate::cells::{Symbol, SymbolSet, Tally};
use crate::grade::Conflict;
use crate::grade::candidates::{Candidates, Memo};
use crate::grade::step::{Namer, Recorder, Step};
use crate::grade::techniques::Technique;
use crate::grid::House;

const MEMO: Memo = Memo::new(Technique::HiddenSingle, 0);

/// One sweep over the houses: every house's singles found in the state at the start of the
/// sweep, then applied. A single found in a row does not make one in a column of the same
/// sweep (its cell losing its other candidates), so what a step finds does not depend on
/// the order of the houses, and a grid graded turned or mirrored gets the same S.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    // Triples (house, cell, symbol index) in `c.list`, the grader's scratch.
    let mut found = std::mem::take(&mut c.list);
    found.clear();
    for h in 0..3 * c.n {
        if c.house_quiet(MEMO, h) {
            continue;
        }
        let count = Tally::<2>::of(c.house_cells(h).iter().map(|&x| c.cand[x as usize]));
        let missing = c.full - (count.seen() | c.placed.house(h));
        if !missing.is_empty() {
            no_place(c, h, missing);
            c.list = found;
            return false;
        }
        let singles = count.exactly(1);
        if singles.is_empty() {
            c.set_house_quiet(MEMO, h);
        }
        for v in singles {
            let cell = c
                .house_cells(h)
                .iter()
                .copied()
                .find(|&x| c.cand[x as usize].contains(v))
                .expect("a symbol counted once has its cell");
            found.extend([h as u32, cell, v.index() as u32]);
        }
    }
    let mut any = false;
    for t in found.chunks_exact(3) {
        let (h, cell) = (t[0] as usize, t[1]);
        let bit = SymbolSet::single(Symbol::from_index(t[2] as usize));
        if (c.live(cell) & bit).is_empty() {
            // Another single of this sweep took the only cell of this symbol in `h`: two
            // symbols need one cell, a contradiction.
            no_place(c, h, bit);
            break;
        }
        let gone = c.remove(cell, !bit);
        rec.note(cell, gone);
        any |= rec.finish(c, Technique::HiddenSingle, &[h], &[cell], bit);
    }
    c.list = found;
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
        House::Block(k) => format!("the only place in {}", nm.block(k)),
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
