//! [`Tally`]: how many of a house's cells hold each symbol, counted bit-parallel.

use super::SymbolSet;

/// Counts, for every symbol at once, how many of the sets added hold it, up to `K`.
///
/// After adding the candidate sets of a house's cells, [`Tally::at_least`]`(j)` is the set
/// of symbols with `j` or more possible cells and [`Tally::exactly`]`(j)` those with exactly
/// `j`: `exactly(1)` are the hidden singles, `exactly(2)` the symbols a branch on the house
/// splits two ways. Each [`Tally::add`] is `K` ANDs and ORs over all symbols together, so
/// one pass over a house counts every symbol (the *once*/*twice*/*thrice* masks of
/// bit-sliced counting).
///
/// ```
/// use shiftgrid::cells::{Symbol, SymbolSet, Tally};
/// let cells = [[1, 2], [2, 3], [2, 4]].map(|vs| {
///     vs.into_iter().filter_map(Symbol::new).collect::<SymbolSet>()
/// });
/// let t = Tally::<3>::of(cells);
/// let values = |s: SymbolSet| s.iter().map(Symbol::get).collect::<Vec<_>>();
/// assert_eq!(values(t.exactly(1)), [1, 3, 4]);
/// assert_eq!(values(t.at_least(3)), [2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally<const K: usize> {
    /// `at_least[j]`: the symbols held by at least `j + 1` of the sets added.
    at_least: [SymbolSet; K],
}

impl<const K: usize> Default for Tally<K> {
    fn default() -> Self {
        Tally {
            at_least: [SymbolSet::EMPTY; K],
        }
    }
}

impl<const K: usize> Tally<K> {
    /// Nothing counted yet.
    #[inline]
    pub fn new() -> Tally<K> {
        Tally::default()
    }

    /// The tally of `sets`.
    #[inline]
    pub fn of(sets: impl IntoIterator<Item = SymbolSet>) -> Tally<K> {
        let mut t = Tally::new();
        for s in sets {
            t.add(s);
        }
        t
    }

    /// Counts one more set.
    #[inline]
    pub fn add(&mut self, s: SymbolSet) {
        for j in (1..K).rev() {
            self.at_least[j] |= self.at_least[j - 1] & s;
        }
        if K > 0 {
            self.at_least[0] |= s;
        }
    }

    /// The symbols held by at least one set added.
    #[inline]
    pub fn seen(&self) -> SymbolSet {
        self.at_least(1)
    }

    /// The symbols held by at least `j` of the sets added (`1 <= j <= K`).
    ///
    /// # Panics
    /// If `j` is 0 or above `K`.
    #[inline]
    pub fn at_least(&self, j: usize) -> SymbolSet {
        self.at_least[j - 1]
    }

    /// The symbols held by exactly `j` of the sets added (`1 <= j < K`: the count is exact
    /// only below the cap).
    ///
    /// # Panics
    /// If `j` is 0 or not below `K`.
    #[inline]
    pub fn exactly(&self, j: usize) -> SymbolSet {
        self.at_least[j - 1] - self.at_least[j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::Symbol;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn counts_agree_with_counting_one_by_one(
            sets in prop::collection::vec(any::<u128>().prop_map(SymbolSet::from_bits), 0..12),
            v in 1u8..=128,
        ) {
            let v = Symbol::new(v).unwrap();
            let holding = sets.iter().filter(|s| s.contains(v)).count();
            let t = Tally::<4>::of(sets.iter().copied());
            for j in 1..=4 {
                prop_assert_eq!(t.at_least(j).contains(v), holding >= j);
            }
            for j in 1..4 {
                prop_assert_eq!(t.exactly(j).contains(v), holding == j);
            }
            prop_assert_eq!(t.seen().contains(v), holding > 0);
        }
    }
}
