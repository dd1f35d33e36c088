//! Level 7, X-Wing: the fish of size 2. When a symbol can go in only the same two columns
//! in each of two rows, those rows take it in those columns, so the rest of both columns
//! loses it (and likewise with rows and columns exchanged).

use super::Technique;
use super::fish::fish;
use crate::grade::candidates::Candidates;
use crate::grade::step::Recorder;

/// One sweep for every symbol, rows as bases then columns.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    fish(c, rec, 2, Technique::XWing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m, only};
    use crate::grid::{House, Pos};

    #[test]
    fn rows_as_bases() {
        let (mut c, mut rec) = blank9();
        // Staff 2 and staff 7 can work shift 6 only on days 3 and 8.
        for r in [2, 7] {
            let row: Vec<u32> = c.house_cells(r - 1).to_vec();
            only(&mut c, 6, &row, &[at(r, 3), at(r, 8)]);
        }
        assert!(apply(&mut c, &mut rec));
        for r in [1, 3, 4, 5, 6, 8, 9] {
            for col in [3, 8] {
                assert_eq!(c.cand[at(r, col) as usize] & m(&[6]), SymbolSet::EMPTY);
            }
        }
        assert_ne!(c.cand[at(1, 4) as usize] & m(&[6]), SymbolSet::EMPTY);
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::XWing);
        assert_eq!(
            s.houses,
            vec![House::Row(1), House::Row(6), House::Col(2), House::Col(7)]
        );
        assert_eq!(
            s.cells,
            vec![
                Pos { row: 1, col: 2 },
                Pos { row: 1, col: 7 },
                Pos { row: 6, col: 2 },
                Pos { row: 6, col: 7 }
            ]
        );
        assert_eq!(s.eliminations.len(), 14);
        assert_eq!(rec.counts[6], 1);
        assert!(s.to_string().starts_with(
            "step 1, level 1, X-Wing: staff 2 and 7 can work shift 6 only on days 3 and 8, so \
             no one else works it on those days: removes shift 6 from staff 1 / day 3, staff 1 \
             / day 8, staff 3 / day 3"
        ));
    }

    #[test]
    fn columns_as_bases() {
        let (mut c, mut rec) = blank9();
        for col in [1, 9] {
            let column: Vec<u32> = c.house_cells(9 + col - 1).to_vec();
            only(&mut c, 2, &column, &[at(4, col), at(6, col)]);
        }
        assert!(apply(&mut c, &mut rec));
        for r in [4, 6] {
            for col in 2..=8 {
                assert_eq!(c.cand[at(r, col) as usize] & m(&[2]), SymbolSet::EMPTY);
            }
        }
        assert_eq!(
            rec.log[0].houses,
            vec![House::Col(0), House::Col(8), House::Row(3), House::Row(5)]
        );
    }

    #[test]
    fn three_columns_are_not_an_x_wing() {
        let (mut c, mut rec) = blank9();
        let row: Vec<u32> = c.house_cells(1).to_vec();
        only(&mut c, 6, &row, &[at(2, 3), at(2, 8)]);
        let row: Vec<u32> = c.house_cells(6).to_vec();
        only(&mut c, 6, &row, &[at(7, 3), at(7, 9)]);
        assert!(!apply(&mut c, &mut rec));
    }
}
