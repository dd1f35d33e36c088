//! The eight levels of techniques, one file each (levels 6 and 8 hold two techniques), plus
//! the search for naked/hidden subsets and fish that several levels share.
//!
//! Every technique is a sweep over all houses (or all symbols) that only *removes*
//! candidates, through [`Candidates::remove`], and reports each deduction to the
//! [`Recorder`]. None places a cell: the grader does that at the end of the round. Each
//! returns whether it removed anything. A sweep stops early once a contradiction is recorded.
//!
//! All techniques are sound for any puzzle (they never remove a symbol that some solution
//! has in that cell); none relies on the solution being unique.

pub(crate) mod fish;
pub(crate) mod hidden_pair;
pub(crate) mod hidden_single;
pub(crate) mod locked_candidates;
pub(crate) mod naked_pair;
pub(crate) mod peer_elimination;
pub(crate) mod subsets;
pub(crate) mod swordfish;
pub(crate) mod triples;
pub(crate) mod x_wing;
pub(crate) mod xy_wing;

use super::candidates::Candidates;
use super::step::Recorder;

/// Applies the techniques of `level` (`1..=8`) once, over the whole grid.
pub(crate) fn apply_level(level: u8, c: &mut Candidates, rec: &mut Recorder) -> bool {
    match level {
        1 => peer_elimination::apply(c, rec),
        2 => hidden_single::apply(c, rec),
        3 => locked_candidates::apply(c, rec),
        4 => naked_pair::apply(c, rec),
        5 => hidden_pair::apply(c, rec),
        6 => triples::apply(c, rec),
        7 => x_wing::apply(c, rec),
        8 => swordfish::apply(c, rec) | xy_wing::apply(c, rec),
        _ => false,
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Hand-built positions for the technique tests.

    use crate::cells::SymbolSet;
    use crate::grade::candidates::Candidates;
    use crate::grade::step::Recorder;
    use crate::grid::Shape;

    /// A 9×9 state with every cell blank and full, and a recorder that explains.
    pub(crate) fn blank9() -> (Candidates, Recorder) {
        let mut c = Candidates::new(Shape::new(3).unwrap());
        c.load(&[0; 81]);
        let mut rec = Recorder::default();
        rec.reset(true);
        rec.step = 1;
        (c, rec)
    }

    /// The mask of the given symbols.
    pub(crate) fn m(syms: &[u8]) -> SymbolSet {
        syms.iter()
            .fold(SymbolSet::EMPTY, |a, &v| a | SymbolSet::of_value(v))
    }

    /// Cell index of 1-based (row, column).
    pub(crate) fn at(r: usize, col: usize) -> u32 {
        ((r - 1) * 9 + col - 1) as u32
    }

    /// Restricts `v` in `house` (a list of cells) to the listed cells: every other cell of
    /// the list loses it.
    pub(crate) fn only(c: &mut Candidates, v: u8, cells: &[u32], keep: &[u32]) {
        for &x in cells {
            if !keep.contains(&x) {
                c.cand[x as usize] &= !m(&[v]);
            }
        }
    }
}
