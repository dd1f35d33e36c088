//! Level 4, naked pair: two cells of a house with the same two candidates take those two
//! symbols between them, so every other cell of the house loses both.

use super::{Technique, subsets};
use crate::grade::candidates::Candidates;
use crate::grade::step::Recorder;

/// One sweep over the houses: rows, then columns, then blocks.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    subsets::naked(c, rec, 2, Technique::NakedPair)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m};
    use crate::grid::{House, Pos};

    #[test]
    fn pair_in_a_row_and_block() {
        let (mut c, mut rec) = blank9();
        c.cand[at(1, 1) as usize] = m(&[3, 8]);
        c.cand[at(1, 3) as usize] = m(&[3, 8]);
        assert!(apply(&mut c, &mut rec));
        // Row 1 and block 1 lose 3 and 8 everywhere else; column 1 does not.
        for col in [2, 4, 9] {
            assert_eq!(c.cand[at(1, col) as usize] & m(&[3, 8]), SymbolSet::EMPTY);
        }
        assert_eq!(c.cand[at(2, 2) as usize] & m(&[3, 8]), SymbolSet::EMPTY);
        assert_eq!(c.cand[at(4, 1) as usize] & m(&[3, 8]), m(&[3, 8]));
        assert_eq!(rec.counts[3], 2);
        let s = &rec.log[0];
        assert_eq!(s.houses, vec![House::Row(0)]);
        assert_eq!(
            s.cells,
            vec![Pos { row: 0, col: 0 }, Pos { row: 0, col: 2 }]
        );
        assert_eq!(s.symbols, vec![3, 8]);
        assert_eq!(s.eliminations.len(), 14);
        assert_eq!(rec.log[1].houses, vec![House::Block(0)]);
        assert_eq!(rec.log[1].eliminations.len(), 12);
        assert_eq!(
            s.to_string(),
            "step 1, level 1, naked pair: staff 1 / day 1 and staff 1 / day 3 can only take \
             shifts 3 and 8 between them, so staff 1 works them on no other day: removes \
             shifts 3 and 8 from staff 1 / day 2, staff 1 / day 4, staff 1 / day 5, staff 1 / \
             day 6, staff 1 / day 7, staff 1 / day 8 and staff 1 / day 9"
        );
    }

    #[test]
    fn two_different_pairs_are_not_a_pair() {
        let (mut c, mut rec) = blank9();
        c.cand[at(1, 1) as usize] = m(&[3, 8]);
        c.cand[at(1, 5) as usize] = m(&[3, 9]);
        assert!(!apply(&mut c, &mut rec));
    }
}
