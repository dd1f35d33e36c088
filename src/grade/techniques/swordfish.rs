//! Level 8 (with XY-Wing), Swordfish: the fish of size 3. When a symbol's candidates in
//! three rows all lie in the same three columns (each row may use only two of them), the
//! rest of those columns loses it (and likewise with rows and columns exchanged).

use super::Technique;
use super::fish::fish;
use crate::grade::candidates::Candidates;
use crate::grade::step::Recorder;

/// One sweep for every symbol, rows as bases then columns.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    fish(c, rec, 3, Technique::Swordfish)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m, only};
    use crate::grid::House;

    #[test]
    fn rows_as_bases_with_two_candidates_each() {
        let (mut c, mut rec) = blank9();
        // Shift 7: staff 1 on days 1, 5; staff 4 on days 5, 9; staff 8 on days 1, 9.
        for (r, cols) in [(1, [1, 5]), (4, [5, 9]), (8, [1, 9])] {
            let row: Vec<u32> = c.house_cells(r - 1).to_vec();
            only(&mut c, 7, &row, &[at(r, cols[0]), at(r, cols[1])]);
        }
        assert!(apply(&mut c, &mut rec));
        for r in [2, 3, 5, 6, 7, 9] {
            for col in [1, 5, 9] {
                assert_eq!(c.cand[at(r, col) as usize] & m(&[7]), SymbolSet::EMPTY);
            }
        }
        assert_ne!(c.cand[at(2, 2) as usize] & m(&[7]), SymbolSet::EMPTY);
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(
            s.houses,
            vec![
                House::Row(0),
                House::Row(3),
                House::Row(7),
                House::Col(0),
                House::Col(4),
                House::Col(8)
            ]
        );
        assert_eq!(s.cells.len(), 6);
        assert_eq!(s.eliminations.len(), 18);
        assert_eq!(rec.counts[7], 1);
    }
}
