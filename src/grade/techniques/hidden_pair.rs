//! Level 5, hidden pair: two symbols that can go in only the same two cells of a house take
//! those cells, so both cells lose every other candidate.

use super::{Technique, subsets};
use crate::grade::candidates::Candidates;
use crate::grade::step::Recorder;

/// One sweep over the houses: rows, then columns, then blocks.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    subsets::hidden(c, rec, 2, Technique::HiddenPair)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::techniques::testutil::{at, blank9, m, only};
    use crate::grid::{House, Pos};

    #[test]
    fn pair_in_a_column() {
        let (mut c, mut rec) = blank9();
        // Day 4: shifts 1 and 6 fit only staff 2 and staff 8.
        let col: Vec<u32> = c.house_cells(9 + 3).to_vec();
        only(&mut c, 1, &col, &[at(2, 4), at(8, 4)]);
        only(&mut c, 6, &col, &[at(2, 4), at(8, 4)]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(2, 4) as usize], m(&[1, 6]));
        assert_eq!(c.cand[at(8, 4) as usize], m(&[1, 6]));
        assert_eq!(rec.counts[4], 1);
        let s = &rec.log[0];
        assert_eq!(s.houses, vec![House::Col(3)]);
        assert_eq!(
            s.cells,
            vec![Pos { row: 1, col: 3 }, Pos { row: 7, col: 3 }]
        );
        assert_eq!(s.symbols, vec![1, 6]);
        assert_eq!(s.eliminations.len(), 14);
    }

    #[test]
    fn one_shared_cell_is_not_a_pair() {
        let (mut c, mut rec) = blank9();
        let col: Vec<u32> = c.house_cells(9 + 3).to_vec();
        only(&mut c, 1, &col, &[at(2, 4), at(8, 4)]);
        only(&mut c, 6, &col, &[at(2, 4), at(9, 4)]);
        assert!(!apply(&mut c, &mut rec));
    }
}
