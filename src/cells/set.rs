//! [`Symbol`] and [`SymbolSet`]: one symbol, and a set of them as one `u128`.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// The most symbols a [`SymbolSet`] holds (a side of 100 needs 100).
pub(crate) const MAX_SYMBOLS: usize = 128;

/// One symbol `1..=n`, as the grid shows it (in roster terms, a shift).
///
/// Bit `index()` of a [`SymbolSet`] stands for it, so `Symbol::new(1)` is bit 0.
///
/// ```
/// use shiftgrid::cells::Symbol;
/// let s = Symbol::new(3).unwrap();
/// assert_eq!((s.get(), s.index()), (3, 2));
/// assert_eq!(Symbol::from_index(2), s);
/// assert_eq!(Symbol::new(0), None); // 0 is a blank cell, not a symbol
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u8);

impl Symbol {
    /// The symbol with value `value`, or `None` for `0` (a blank) and values above 128.
    #[inline]
    pub const fn new(value: u8) -> Option<Symbol> {
        if value == 0 || value as usize > MAX_SYMBOLS {
            None
        } else {
            Some(Symbol(value))
        }
    }

    /// The symbol whose bit is `index` (0-based): `from_index(0)` is symbol 1.
    ///
    /// # Panics
    /// If `index >= 128`.
    #[inline]
    pub const fn from_index(index: usize) -> Symbol {
        assert!(index < MAX_SYMBOLS, "a symbol index below 128");
        Symbol(index as u8 + 1)
    }

    /// The value `1..=n`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The 0-based index, `value − 1`: its bit in a [`SymbolSet`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A set of symbols: bit `v − 1` of a `u128` for symbol `v`.
///
/// The operators are the bitwise ones: `|` union, `&` intersection, `^` symmetric
/// difference, `-` difference. `!` complements within all 128 bits, so intersect the result
/// with a set of the grid's `n` symbols (such as [`SymbolSet::full`]) before counting it.
///
/// ```
/// use shiftgrid::cells::{Symbol, SymbolSet};
/// let all = SymbolSet::full(9);
/// let taken: SymbolSet = [1, 5, 9].into_iter().filter_map(Symbol::new).collect();
/// let left = all - taken;
/// assert_eq!(left.len(), 6);
/// assert_eq!(left.first(), Symbol::new(2));
/// assert_eq!(left.iter().map(Symbol::get).collect::<Vec<_>>(), [2, 3, 4, 6, 7, 8]);
/// assert_eq!((left & SymbolSet::of_value(4)).only(), Symbol::new(4));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct SymbolSet(u128);

impl SymbolSet {
    /// No symbol.
    pub const EMPTY: SymbolSet = SymbolSet(0);

    /// Every symbol `1..=n`.
    ///
    /// # Panics
    /// If `n > 128`.
    #[inline]
    pub const fn full(n: usize) -> SymbolSet {
        assert!(n <= MAX_SYMBOLS, "at most 128 symbols");
        if n == MAX_SYMBOLS {
            SymbolSet(u128::MAX)
        } else {
            SymbolSet((1u128 << n) - 1)
        }
    }

    /// The set holding `s` alone.
    #[inline]
    pub const fn single(s: Symbol) -> SymbolSet {
        SymbolSet(1u128 << s.index())
    }

    /// The set holding the symbol `value`, or no symbol for `0` (a blank cell).
    ///
    /// # Panics
    /// If `value > 128`.
    #[inline]
    pub const fn of_value(value: u8) -> SymbolSet {
        assert!(value as usize <= MAX_SYMBOLS, "a symbol value up to 128");
        if value == 0 {
            SymbolSet::EMPTY
        } else {
            SymbolSet(1u128 << (value - 1))
        }
    }

    /// The set whose bit `v − 1` is set for each symbol `v`.
    #[inline]
    pub const fn from_bits(bits: u128) -> SymbolSet {
        SymbolSet(bits)
    }

    /// The bits: bit `v − 1` for each symbol `v`.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The number of symbols.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `s` is in the set.
    #[inline]
    pub const fn contains(self, s: Symbol) -> bool {
        // A mask rather than shifting the set: in a loop over cells the mask is computed once.
        self.0 & 1u128 << s.index() != 0
    }

    /// Adds `s`.
    #[inline]
    pub fn insert(&mut self, s: Symbol) {
        self.0 |= 1u128 << s.index();
    }

    /// Removes `s`.
    #[inline]
    pub fn remove(&mut self, s: Symbol) {
        self.0 &= !(1u128 << s.index());
    }

    /// The smallest symbol, if any.
    #[inline]
    pub const fn first(self) -> Option<Symbol> {
        if self.0 == 0 {
            None
        } else {
            Some(Symbol(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The set holding only the smallest symbol (empty when this is).
    #[inline]
    pub const fn lowest(self) -> SymbolSet {
        SymbolSet(self.0 & self.0.wrapping_neg())
    }

    /// The symbol, when the set holds exactly one.
    #[inline]
    pub const fn only(self) -> Option<Symbol> {
        if self.is_single() { self.first() } else { None }
    }

    /// Whether the set holds exactly one symbol.
    #[inline]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// Whether the set holds at most one symbol.
    #[inline]
    pub const fn at_most_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) == 0
    }

    /// Whether the set holds more than `k` symbols, for small `k`: cheaper than
    /// [`SymbolSet::len`] on targets without a population-count instruction (the default
    /// x86-64 baseline).
    #[inline]
    pub fn more_than(self, k: usize) -> bool {
        more_than(self.0, k)
    }

    /// Whether the set holds between `lo` and `hi` symbols (`1 <= lo <= hi`, small).
    #[inline]
    pub fn len_between(self, lo: usize, hi: usize) -> bool {
        bits_between(self.0, lo, hi)
    }

    /// The symbols, in increasing order.
    #[inline]
    pub fn iter(self) -> Symbols {
        Symbols(self.0)
    }

    /// The 0-based indices of the symbols (`v − 1` for symbol `v`), in increasing order.
    #[inline]
    pub fn indices(self) -> impl Iterator<Item = usize> {
        bit_indices(self.0)
    }
}

/// Whether `m` has more than `k` bits set, by clearing the lowest bit `k` times.
#[inline]
pub(crate) fn more_than(mut m: u128, k: usize) -> bool {
    for _ in 0..k {
        m &= m.wrapping_sub(1);
    }
    m != 0
}

/// Whether `m` has between `lo` and `hi` bits set (`1 <= lo <= hi`, small).
#[inline]
pub(crate) fn bits_between(m: u128, lo: usize, hi: usize) -> bool {
    more_than(m, lo - 1) && !more_than(m, hi)
}

/// The indices of the set bits of `mask`, in increasing order: for masks of positions
/// (cells of a house, lines of a grid) that the grader handles beside its symbol sets.
#[inline]
pub(crate) fn bit_indices(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// The symbols of a [`SymbolSet`], in increasing order.
#[derive(Clone, Debug)]
pub struct Symbols(u128);

impl Iterator for Symbols {
    type Item = Symbol;

    #[inline]
    fn next(&mut self) -> Option<Symbol> {
        if self.0 == 0 {
            None
        } else {
            let v = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Symbol(v + 1))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let k = self.0.count_ones() as usize;
        (k, Some(k))
    }
}

impl ExactSizeIterator for Symbols {}

impl IntoIterator for SymbolSet {
    type Item = Symbol;
    type IntoIter = Symbols;

    fn into_iter(self) -> Symbols {
        self.iter()
    }
}

impl FromIterator<Symbol> for SymbolSet {
    fn from_iter<I: IntoIterator<Item = Symbol>>(iter: I) -> SymbolSet {
        iter.into_iter()
            .fold(SymbolSet::EMPTY, |m, s| m | SymbolSet::single(s))
    }
}

impl fmt::Debug for SymbolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Symbol::get)).finish()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, |$a:ident, $b:ident| $e:expr) => {
        impl $trait for SymbolSet {
            type Output = SymbolSet;

            #[inline]
            fn $method(self, other: SymbolSet) -> SymbolSet {
                let ($a, $b) = (self.0, other.0);
                SymbolSet($e)
            }
        }

        impl $assign for SymbolSet {
            #[inline]
            fn $assign_method(&mut self, other: SymbolSet) {
                *self = $trait::$method(*self, other);
            }
        }
    };
}

bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| a | b);
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| a & b);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, |a, b| a ^ b);
bit_op!(Sub, sub, SubAssign, sub_assign, |a, b| a & !b);

impl Not for SymbolSet {
    type Output = SymbolSet;

    #[inline]
    fn not(self) -> SymbolSet {
        SymbolSet(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(values: &[u8]) -> SymbolSet {
        values.iter().map(|&v| Symbol::new(v).unwrap()).collect()
    }

    #[test]
    fn full_sets() {
        assert_eq!(SymbolSet::full(0), SymbolSet::EMPTY);
        assert_eq!(SymbolSet::full(4).bits(), 0b1111);
        assert_eq!(SymbolSet::full(100).len(), 100);
        assert_eq!(SymbolSet::full(128).bits(), u128::MAX);
        assert_eq!(SymbolSet::full(9), set(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
    }

    #[test]
    fn symbols_and_values() {
        assert_eq!(Symbol::new(129), None);
        assert_eq!(Symbol::new(128).map(Symbol::index), Some(127));
        assert_eq!(SymbolSet::of_value(0), SymbolSet::EMPTY);
        assert_eq!(SymbolSet::of_value(7).only(), Symbol::new(7));
        assert_eq!(format!("{:?}", set(&[1, 6, 8])), "{1, 6, 8}");
        assert_eq!(set(&[3, 100]).indices().collect::<Vec<_>>(), [2, 99]);
        assert_eq!(bit_indices(1u128 << 99 | 1).collect::<Vec<_>>(), [0, 99]);
    }

    #[test]
    fn singles_and_counts() {
        assert!(SymbolSet::EMPTY.at_most_one() && !SymbolSet::EMPTY.is_single());
        assert!(set(&[5]).is_single() && set(&[5]).at_most_one());
        assert!(!set(&[5, 6]).at_most_one());
        assert_eq!(set(&[5, 6]).only(), None);
        assert_eq!(set(&[5, 6]).lowest(), set(&[5]));
        assert!(set(&[1, 2, 3]).len_between(2, 3));
        assert!(!set(&[1, 2, 3, 4]).len_between(2, 3));
        assert!(!set(&[1]).len_between(2, 3));
    }

    fn any_set() -> impl Strategy<Value = SymbolSet> {
        any::<u128>().prop_map(SymbolSet::from_bits)
    }

    proptest! {
        #[test]
        fn iteration_agrees_with_membership(s in any_set()) {
            let listed: Vec<Symbol> = s.iter().collect();
            prop_assert_eq!(listed.len(), s.len());
            prop_assert_eq!(s.iter().len(), s.len());
            prop_assert!(listed.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(listed.iter().all(|&v| s.contains(v)));
            prop_assert_eq!(listed.iter().copied().collect::<SymbolSet>(), s);
            prop_assert_eq!(s.indices().map(Symbol::from_index).collect::<Vec<_>>(), listed.clone());
            prop_assert_eq!(s.first(), listed.first().copied());
            prop_assert_eq!(s.only().is_some(), listed.len() == 1);
            prop_assert_eq!(s.is_single(), s.len() == 1);
            prop_assert_eq!(s.at_most_one(), s.len() <= 1);
        }

        #[test]
        fn counting_agrees_with_len(s in any_set(), k in 0usize..6, lo in 1usize..4, span in 0usize..3) {
            prop_assert_eq!(s.more_than(k), s.len() > k);
            let hi = lo + span;
            prop_assert_eq!(s.len_between(lo, hi), (lo..=hi).contains(&s.len()));
        }

        #[test]
        fn operators_are_set_algebra(a in any_set(), b in any_set(), v in 1u8..=128) {
            let v = Symbol::new(v).unwrap();
            prop_assert_eq!((a | b).contains(v), a.contains(v) || b.contains(v));
            prop_assert_eq!((a & b).contains(v), a.contains(v) && b.contains(v));
            prop_assert_eq!((a ^ b).contains(v), a.contains(v) != b.contains(v));
            prop_assert_eq!((a - b).contains(v), a.contains(v) && !b.contains(v));
            prop_assert_eq!((!a).contains(v), !a.contains(v));
            let mut c = a;
            c.insert(v);
            prop_assert!(c.contains(v));
            c.remove(v);
            prop_assert!(!c.contains(v));
            prop_assert_eq!(c | (a & SymbolSet::single(v)), a);
        }

        #[test]
        fn full_holds_exactly_the_first_n(n in 0usize..=128, v in 1u8..=128) {
            let full = SymbolSet::full(n);
            prop_assert_eq!(full.len(), n);
            prop_assert_eq!(full.contains(Symbol::new(v).unwrap()), (v as usize) <= n);
        }
    }
}
