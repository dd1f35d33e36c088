//! Level 6, naked and hidden triples: the size-3 subsets. Three cells of a house whose
//! candidates together are three symbols (each cell may hold only two of them) take those
//! symbols; three symbols whose possible cells in a house are together three cells take
//! those cells. Naked triples are swept first, then hidden ones.

use super::{Technique, subsets};
use crate::grade::candidates::Candidates;
use crate::grade::step::Recorder;

/// One sweep of naked triples over all houses: rows, then columns, then blocks.
pub(crate) fn naked(c: &mut Candidates, rec: &mut Recorder) -> bool {
    subsets::naked(c, rec, 3, Technique::NakedTriple)
}

/// One sweep of hidden triples over all houses.
pub(crate) fn hidden(c: &mut Candidates, rec: &mut Recorder) -> bool {
    subsets::hidden(c, rec, 3, Technique::HiddenTriple)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Level 6: naked triples, then hidden ones.
    fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
        crate::grade::techniques::apply_level(6, c, rec)
    }
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m, only};
    use crate::grid::{House, Pos};

    #[test]
    fn naked_triple_of_pairs_in_a_column() {
        let (mut c, mut rec) = blank9();
        // {2,5}, {5,7}, {2,7} on day 9, in three different blocks.
        c.cand[at(1, 9) as usize] = m(&[2, 5]);
        c.cand[at(5, 9) as usize] = m(&[5, 7]);
        c.cand[at(9, 9) as usize] = m(&[2, 7]);
        assert!(apply(&mut c, &mut rec));
        for r in [2, 3, 4, 6, 7, 8] {
            assert_eq!(c.cand[at(r, 9) as usize] & m(&[2, 5, 7]), SymbolSet::EMPTY);
        }
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::NakedTriple);
        assert_eq!(s.houses, vec![House::Col(8)]);
        assert_eq!(s.symbols, vec![2, 5, 7]);
        assert_eq!(
            s.cells,
            vec![
                Pos { row: 0, col: 8 },
                Pos { row: 4, col: 8 },
                Pos { row: 8, col: 8 }
            ]
        );
        assert_eq!(s.eliminations.len(), 18);
        assert_eq!(rec.counts[5], 1);
    }

    #[test]
    fn hidden_triple_in_a_block() {
        let (mut c, mut rec) = blank9();
        // Block 9: shifts 3, 4 and 9 fit only three cells, with no pair among them.
        let block: Vec<u32> = c.house_cells(18 + 8).to_vec();
        let cells = [at(7, 7), at(8, 8), at(9, 9)];
        only(&mut c, 3, &block, &[cells[0], cells[1]]);
        only(&mut c, 4, &block, &[cells[1], cells[2]]);
        only(&mut c, 9, &block, &[cells[0], cells[2]]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[cells[0] as usize], m(&[3, 9]));
        assert_eq!(c.cand[cells[1] as usize], m(&[3, 4]));
        assert_eq!(c.cand[cells[2] as usize], m(&[4, 9]));
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::HiddenTriple);
        assert_eq!(s.houses, vec![House::Block(8)]);
        assert_eq!(s.symbols, vec![3, 4, 9]);
        assert_eq!(s.eliminations.len(), 18);
        assert_eq!(
            s.to_string(),
            "step 1, level 1, hidden triple: in block 9, shifts 3, 4 and 9 can only go to \
             staff 7 / day 7, staff 8 / day 8 or staff 9 / day 9, so those cells take them and \
             nothing else: removes shifts 1, 2, 5, 6, 7 and 8 from staff 7 / day 7, staff 8 / \
             day 8 and staff 9 / day 9"
        );
    }
}
