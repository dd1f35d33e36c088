//! The houses of a grid (rows, columns, blocks), numbered `0..3n`: rows `0..n`, columns
//! `n..2n`, blocks `2n..3n`. [`Houses`] lists each house's cells and each cell's three
//! houses, computed once per shape and shared by the propagation engine and the grader;
//! [`Placed`] holds the symbols placed in each house.

use super::SymbolSet;
use crate::grid::Shape;

/// The houses of a shape (rows, columns, blocks) and each cell's houses, precomputed.
/// The default is the tables of no grid at all (side 0).
#[derive(Clone, Debug, Default)]
pub(crate) struct Houses {
    /// Side `n`.
    pub(crate) n: usize,
    /// Box size `b`.
    pub(crate) b: usize,
    /// `3n` houses of `n` cells: rows, then columns, then blocks.
    cells: Vec<u32>,
    /// For each cell, its row, column and block house numbers.
    pub(crate) of_cell: Vec<[u32; 3]>,
}

impl Houses {
    /// The tables for `shape`.
    pub(crate) fn new(shape: Shape) -> Houses {
        let n = shape.side();
        let b = shape.box_size();
        let mut cells = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            cells.extend((0..n).map(|c| (r * n + c) as u32));
        }
        for c in 0..n {
            cells.extend((0..n).map(|r| (r * n + c) as u32));
        }
        for k in 0..n {
            let (r0, c0) = (k / b * b, k % b * b);
            cells.extend((0..n).map(|i| ((r0 + i / b) * n + c0 + i % b) as u32));
        }
        let of_cell = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                [
                    r as u32,
                    (n + c) as u32,
                    (2 * n + shape.block_of(r, c)) as u32,
                ]
            })
            .collect();
        Houses {
            n,
            b,
            cells,
            of_cell,
        }
    }

    /// The cells of house `h`.
    #[inline]
    pub(crate) fn house(&self, h: usize) -> &[u32] {
        &self.cells[h * self.n..(h + 1) * self.n]
    }
}

/// The symbols placed in each house of a grid (houses numbered as in the [module
/// docs](crate::cells)), and from them the symbols each cell may still take.
///
/// ```
/// use shiftgrid::{Shape, cells::{Placed, SymbolSet}};
/// let shape = Shape::new(2).unwrap();
/// let mut cells = vec![0u8; 16];
/// cells[1] = 2; // row 1, column 2, block 1
/// cells[8] = 3; // row 3, column 1, block 3
/// let placed = Placed::of(shape, &cells);
/// assert_eq!(placed.house(0), SymbolSet::of_value(2));
/// // Row 1, column 1: 2 is in its row and block, 3 in its column.
/// assert_eq!(placed.free(0), SymbolSet::of_value(1) | SymbolSet::of_value(4));
/// ```
///
/// The default is the placement of no grid at all (side 0), with no houses and no cells:
/// [`Placed::clear`] or [`Placed::load`] gives it a shape.
///
/// # Panics
/// The queries ([`Placed::house`], [`Placed::insert`], [`Placed::around`],
/// [`Placed::free`]) panic for a house or cell outside the shape.
#[derive(Clone, Debug, Default)]
pub struct Placed {
    /// Each cell's houses: looked up rather than divided out, because the propagator loads a
    /// puzzle for every removal it proves (the divisions were 8% of a 100×100 `generate`).
    houses: Houses,
    /// Every symbol `1..=n`.
    full: SymbolSet,
    /// Per house, its placed symbols.
    sets: Vec<SymbolSet>,
}

impl Placed {
    /// No symbol placed, in a grid of `shape`.
    pub fn new(shape: Shape) -> Placed {
        let mut p = Placed::default();
        p.clear(shape);
        p
    }

    /// The symbols placed in `cells` (row-major, `0` = blank), a grid of `shape`.
    ///
    /// # Panics
    /// If `cells` does not have `shape.cells()` entries, or one holds a symbol above the
    /// side (a [`Puzzle`](crate::Puzzle)'s cells never do).
    pub fn of(shape: Shape, cells: &[u8]) -> Placed {
        let mut p = Placed::default();
        p.load(shape, cells);
        p
    }

    /// Empties every house of a grid of `shape`, reusing the allocation (and the house
    /// tables, while the shape stays the same).
    pub fn clear(&mut self, shape: Shape) {
        let n = shape.side();
        if self.houses.n != n {
            self.houses = Houses::new(shape);
            self.full = SymbolSet::full(n);
        }
        self.sets.clear();
        self.sets.resize(3 * n, SymbolSet::EMPTY);
    }

    /// Replaces the contents with the symbols placed in `cells`, as [`Placed::of`] does,
    /// reusing the allocation. A symbol placed twice in a house is simply there.
    ///
    /// # Panics
    /// If `cells` does not have `shape.cells()` entries, or one holds a symbol above the
    /// side.
    pub fn load(&mut self, shape: Shape, cells: &[u8]) {
        assert_eq!(
            cells.len(),
            shape.cells(),
            "one entry per cell of the shape"
        );
        self.clear(shape);
        let n = shape.side();
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                assert!(usize::from(v) <= n, "symbol {v} in a {n}x{n} grid");
                let s = SymbolSet::of_value(v);
                for h in self.houses.of_cell[cell] {
                    self.sets[h as usize] |= s;
                }
            }
        }
    }

    /// The symbols placed in house `h`.
    #[inline]
    pub fn house(&self, h: usize) -> SymbolSet {
        self.sets[h]
    }

    /// Adds the symbols `s` to house `h`; returns whether any of them was there already.
    #[inline]
    pub fn insert(&mut self, h: usize, s: SymbolSet) -> bool {
        let clash = !(self.sets[h] & s).is_empty();
        self.sets[h] |= s;
        clash
    }

    /// The symbols placed in the row, column or block of `cell` (row-major index).
    #[inline]
    pub fn around(&self, cell: usize) -> SymbolSet {
        let [r, c, k] = self.houses.of_cell[cell];
        self.sets[r as usize] | self.sets[c as usize] | self.sets[k as usize]
    }

    /// The symbols `cell` may still take: those placed in none of its houses.
    #[inline]
    pub fn free(&self, cell: usize) -> SymbolSet {
        self.full - self.around(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::Symbol;
    use proptest::prelude::*;

    /// A shape (4x4 to 25x25) and cells for it, about half blank; symbols may repeat.
    fn grid() -> impl Strategy<Value = (Shape, Vec<u8>)> {
        (2usize..=5).prop_flat_map(|b| {
            let shape = Shape::new(b).unwrap();
            let n = shape.side() as u8;
            let cell = prop_oneof![Just(0u8), 1..=n];
            prop::collection::vec(cell, shape.cells()).prop_map(move |cells| (shape, cells))
        })
    }

    #[test]
    fn house_tables() {
        let h = Houses::new(Shape::new(3).unwrap());
        assert_eq!(h.house(0), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(h.house(9 + 2)[3], 29);
        assert_eq!(h.house(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        for cell in 0..81u32 {
            for k in h.of_cell[cell as usize] {
                assert!(h.house(k as usize).contains(&cell));
            }
        }
    }

    /// A symbol above the side panics, as documented, rather than filling a house with
    /// a symbol no cell of the grid can hold.
    #[test]
    #[should_panic(expected = "symbol 5 in a 4x4 grid")]
    fn a_symbol_above_the_side_panics() {
        let mut cells = vec![0; 16];
        cells[3] = 5;
        let _ = Placed::of(Shape::new(2).unwrap(), &cells);
    }

    proptest! {
        /// `free` against a direct scan of the cell's row, column and block.
        #[test]
        fn free_is_what_no_peer_holds((shape, cells) in grid()) {
            let (n, b) = (shape.side(), shape.box_size());
            let placed = Placed::of(shape, &cells);
            for cell in 0..shape.cells() {
                let (r, c) = (cell / n, cell % n);
                let peers = (0..shape.cells()).filter(|&o| {
                    let (r2, c2) = (o / n, o % n);
                    r2 == r || c2 == c || (r2 / b == r / b && c2 / b == c / b)
                });
                let held: SymbolSet = peers.filter_map(|o| Symbol::new(cells[o])).collect();
                prop_assert_eq!(placed.free(cell), SymbolSet::full(n) - held);
                prop_assert_eq!(placed.around(cell), held);
            }
        }
    }
}
