//! The vocabulary every other module shares: the [`Shape`] of a grid, [`Puzzle`]s (with blanks)
//! and full [`Grid`]s, and the validity check that runs before anything is written.
//!
//! A grid of box size `b` has side `n = b*b` (4, 9, 16, … 100). In roster terms a row is a
//! staff member, a column is a day and a symbol `1..=n` is a shift; `0` is a blank cell.
//! Cells are numbered row-major, `cell = row * n + col`.
//!
//! The validity check ([`check_cells`]) is deliberately written with nothing but bitmasks over
//! houses: it shares no code with the `dlx` engine, so a bug in the engine cannot hide a bad grid.

use std::fmt;

mod serial;

/// The smallest supported box size (4×4 grids).
pub const MIN_BOX: usize = 2;
/// The largest supported box size (100×100 grids).
pub const MAX_BOX: usize = 10;

/// The list of supported sizes, for error messages.
pub const SUPPORTED_SIZES: &str = "4x4, 9x9, 16x16, 25x25, 36x36, 49x49, 64x64, 81x81, 100x100";

/// A supported grid size, from its box size `b` in `2..=10`.
///
/// ```
/// use shiftgrid::Shape;
/// let s = Shape::new(3).unwrap();
/// assert_eq!((s.box_size(), s.side(), s.cells()), (3, 9, 81));
/// assert!(Shape::from_side(10).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    b: u8,
}

/// A size that is not `b*b` for `b` in `2..=10`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// The box size is outside `2..=10`.
    #[error("unsupported box size {0}: supported box sizes are 2..10 (sizes {SUPPORTED_SIZES})")]
    Box(usize),
    /// The side length is not one of the supported squares.
    #[error("unsupported size {0}x{0}: supported sizes are {SUPPORTED_SIZES}")]
    Side(usize),
    /// A cell count that is not the square of a supported side.
    #[error("{0} cells is not a supported grid: supported sizes are {SUPPORTED_SIZES}")]
    Cells(usize),
}

impl Shape {
    /// The shape with box size `b` (side `b*b`).
    ///
    /// # Errors
    /// [`ShapeError::Box`] unless `2 <= b <= 10`.
    pub fn new(b: usize) -> Result<Shape, ShapeError> {
        if (MIN_BOX..=MAX_BOX).contains(&b) {
            Ok(Shape { b: b as u8 })
        } else {
            Err(ShapeError::Box(b))
        }
    }

    /// The shape whose side is `n` (4, 9, …, 100).
    ///
    /// # Errors
    /// [`ShapeError::Side`] when `n` is not `b*b` for a supported `b`.
    pub fn from_side(n: usize) -> Result<Shape, ShapeError> {
        (MIN_BOX..=MAX_BOX)
            .find(|b| b * b == n)
            .map(|b| Shape { b: b as u8 })
            .ok_or(ShapeError::Side(n))
    }

    /// The shape with `count` cells (16, 81, …, 10 000).
    ///
    /// # Errors
    /// [`ShapeError::Cells`] when `count` is not `n*n` for a supported side `n`.
    pub fn from_cells(count: usize) -> Result<Shape, ShapeError> {
        (MIN_BOX..=MAX_BOX)
            .find(|b| b * b * b * b == count)
            .map(|b| Shape { b: b as u8 })
            .ok_or(ShapeError::Cells(count))
    }

    /// Every supported shape, smallest first.
    pub fn all() -> impl Iterator<Item = Shape> {
        (MIN_BOX..=MAX_BOX).map(|b| Shape { b: b as u8 })
    }

    /// The box size `b`.
    #[inline]
    pub fn box_size(self) -> usize {
        self.b as usize
    }

    /// The side length `n = b*b`: number of staff, days and shifts.
    #[inline]
    pub fn side(self) -> usize {
        let b = self.b as usize;
        b * b
    }

    /// The number of cells, `n*n`.
    #[inline]
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The block (box) index of the cell at `row`, `col` (each in `0..n`), numbered
    /// row-major over blocks. Outside the grid the number means nothing (and may overflow).
    #[inline]
    pub fn block_of(self, row: usize, col: usize) -> usize {
        let b = self.box_size();
        (row / b) * b + col / b
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// A house: one row, column or block, numbered `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum House {
    /// A row (a staff member).
    Row(usize),
    /// A column (a day).
    Col(usize),
    /// A block, numbered row-major over blocks.
    Block(usize),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(i) => write!(f, "row {}", one_based(*i)),
            House::Col(i) => write!(f, "column {}", one_based(*i)),
            House::Block(i) => write!(f, "block {}", one_based(*i)),
        }
    }
}

/// A cell position, 0-based; shown 1-based as `(row, column)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
}

/// The 1-based number of index `i`, for messages: wide enough for any `usize`, so that a
/// position a caller built out of range still prints.
fn one_based(i: usize) -> u128 {
    i as u128 + 1
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "row {}, column {}",
            one_based(self.row),
            one_based(self.col)
        )
    }
}

/// Why a set of cells is not a valid puzzle or grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// The number of cells does not match the shape.
    #[error("expected {expected} cells for a {shape} grid, found {found}")]
    Length {
        /// The shape asked for.
        shape: Shape,
        /// `shape.cells()`.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A symbol outside `0..=n`.
    #[error("{pos}: symbol {symbol} is out of range 1..{side}")]
    Symbol {
        /// Where.
        pos: Pos,
        /// The bad value.
        symbol: usize,
        /// The grid side `n`.
        side: usize,
    },
    /// The same symbol twice in one house.
    #[error("symbol {symbol} appears twice in {house}: at {first} and at {second}")]
    Duplicate {
        /// The repeated symbol.
        symbol: u8,
        /// The house holding both.
        house: House,
        /// The first occurrence in reading order.
        first: Pos,
        /// The second occurrence.
        second: Pos,
    },
    /// A blank cell where a full grid is required.
    #[error("{pos} is blank, but a full grid is required")]
    Blank {
        /// Where.
        pos: Pos,
    },
    /// A puzzle of one shape given to a solver built for another.
    #[error("a {found} puzzle given to a solver built for {expected}")]
    Shape {
        /// The solver's shape.
        expected: Shape,
        /// The puzzle's shape.
        found: Shape,
    },
}

/// Checks `cells` (row-major, `0` = blank) against `shape`: length, symbol range and no symbol
/// twice in any row, column or block. Blanks are allowed; see [`Grid::new`] for full grids.
///
/// This is the independent check run before output: it uses only per-house bitmasks.
///
/// # Errors
/// The first problem found, in reading order; duplicates report both positions.
pub fn check_cells(shape: Shape, cells: &[u8]) -> Result<(), GridError> {
    let n = shape.side();
    if cells.len() != shape.cells() {
        return Err(GridError::Length {
            shape,
            expected: shape.cells(),
            found: cells.len(),
        });
    }
    // Masks of symbols seen so far in each house; u128 holds n <= 100 symbols.
    let mut rows = vec![0u128; n];
    let mut cols = vec![0u128; n];
    let mut blocks = vec![0u128; n];
    for (i, &v) in cells.iter().enumerate() {
        let pos = Pos {
            row: i / n,
            col: i % n,
        };
        let v_us = v as usize;
        if v_us > n {
            return Err(GridError::Symbol {
                pos,
                symbol: v_us,
                side: n,
            });
        }
        if v == 0 {
            continue;
        }
        let bit = 1u128 << (v - 1);
        let blk = shape.block_of(pos.row, pos.col);
        let checks = [
            (&mut rows[pos.row], House::Row(pos.row)),
            (&mut cols[pos.col], House::Col(pos.col)),
            (&mut blocks[blk], House::Block(blk)),
        ];
        for (mask, house) in checks {
            if *mask & bit != 0 {
                let first = find_in_house(shape, cells, house, v, i);
                return Err(GridError::Duplicate {
                    symbol: v,
                    house,
                    first,
                    second: pos,
                });
            }
            *mask |= bit;
        }
    }
    Ok(())
}

/// The first cell of `house` (before `limit` in reading order) that holds `v`.
fn find_in_house(shape: Shape, cells: &[u8], house: House, v: u8, limit: usize) -> Pos {
    let n = shape.side();
    (0..limit)
        .map(|i| Pos {
            row: i / n,
            col: i % n,
        })
        .find(|p| {
            cells[p.row * n + p.col] == v
                && match house {
                    House::Row(r) => p.row == r,
                    House::Col(c) => p.col == c,
                    House::Block(k) => shape.block_of(p.row, p.col) == k,
                }
        })
        .expect("a duplicate's first occurrence precedes it in reading order")
}

/// A puzzle: a grid of shape `n×n` whose cells hold a symbol `1..=n` or `0` for blank.
///
/// A `Puzzle` always has the right length and symbols in range; it may still hold a repeated
/// given (see [`Puzzle::check`]), because such input is a fact to report, not to refuse to hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    shape: Shape,
    cells: Vec<u8>,
}

impl Puzzle {
    /// A puzzle from row-major cells, `0` = blank.
    ///
    /// # Errors
    /// [`GridError::Length`] or [`GridError::Symbol`]; repeated givens are allowed here.
    pub fn new(shape: Shape, cells: Vec<u8>) -> Result<Puzzle, GridError> {
        let n = shape.side();
        if cells.len() != shape.cells() {
            return Err(GridError::Length {
                shape,
                expected: shape.cells(),
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > n) {
            return Err(GridError::Symbol {
                pos: Pos {
                    row: i / n,
                    col: i % n,
                },
                symbol: cells[i] as usize,
                side: n,
            });
        }
        Ok(Puzzle { shape, cells })
    }

    /// The empty puzzle of a shape: every cell blank.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells, row-major, `0` = blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The symbol at `row`, `col` (`0` = blank).
    ///
    /// # Panics
    /// When `row` or `col` is not below the side.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let n = self.shape.side();
        assert!(
            row < n && col < n,
            "({row}, {col}) is outside a {n}x{n} grid"
        );
        self.cells[row * n + col]
    }

    /// The number of givens (non-blank cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Checks that no symbol is given twice in a house.
    ///
    /// # Errors
    /// [`GridError::Duplicate`] naming both cells.
    pub fn check(&self) -> Result<(), GridError> {
        check_cells(self.shape, &self.cells)
    }

    /// Whether `cells` (row-major) is a solution of this puzzle: a full, valid grid of its
    /// shape that agrees on every given. It checks what [`Grid::new`] and
    /// [`Puzzle::is_completed_by`] check together (its own code, with per-house masks on
    /// the stack, and no [`Grid`] built): engines run it on solutions they count but do
    /// not keep (the learning engine on every one, the others on the first two), where
    /// kept ones become [`Grid`]s.
    pub fn is_solved_by(&self, cells: &[u8]) -> bool {
        solves(self.shape, &self.cells, cells)
    }

    /// Whether `grid` is a completion of this puzzle: same shape and agrees on every given.
    pub fn is_completed_by(&self, grid: &Grid) -> bool {
        grid.shape() == self.shape
            && self
                .cells
                .iter()
                .zip(grid.cells())
                .all(|(&g, &s)| g == 0 || g == s)
    }
}

/// Whether `cells` solves the puzzle whose cells are `givens` (see [`Puzzle::is_solved_by`]),
/// for engines that hold a puzzle's cells rather than a [`Puzzle`].
pub(crate) fn solves(shape: Shape, givens: &[u8], cells: &[u8]) -> bool {
    let (n, b) = (shape.side(), shape.box_size());
    if cells.len() != shape.cells() || givens.len() != cells.len() {
        return false;
    }
    // Row by row, with the block counted along rather than divided out: engines call this
    // on every solution they count, and divisions were most of its time.
    let (mut cols, mut blocks) = ([0u128; 100], [0u128; 100]);
    for (row, (line, given)) in cells
        .chunks_exact(n)
        .zip(givens.chunks_exact(n))
        .enumerate()
    {
        let mut seen = 0u128;
        let band = row / b * b;
        for (col, (&c, &g)) in line.iter().zip(given).enumerate() {
            if c == 0 || usize::from(c) > n || (g != 0 && g != c) {
                return false;
            }
            let bit = 1u128 << (c - 1);
            let block = &mut blocks[band + col / b];
            if (seen | cols[col] | *block) & bit != 0 {
                return false;
            }
            seen |= bit;
            cols[col] |= bit;
            *block |= bit;
        }
    }
    true
}

/// A full, valid grid: every cell filled, every house a permutation of `1..=n`.
///
/// The only way to build one is [`Grid::new`], which runs the independent check, so holding a
/// `Grid` is proof that it is valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// A full grid from row-major cells, checked.
    ///
    /// # Errors
    /// Any [`GridError`]: wrong length, symbol out of range, a blank, a repeated symbol.
    pub fn new(shape: Shape, cells: Vec<u8>) -> Result<Grid, GridError> {
        check_cells(shape, &cells)?;
        let n = shape.side();
        if let Some(i) = cells.iter().position(|&v| v == 0) {
            return Err(GridError::Blank {
                pos: Pos {
                    row: i / n,
                    col: i % n,
                },
            });
        }
        Ok(Grid { shape, cells })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells, row-major, symbols `1..=n`.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The symbol at `row`, `col`.
    ///
    /// # Panics
    /// When `row` or `col` is not below the side.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let n = self.shape.side();
        assert!(
            row < n && col < n,
            "({row}, {col}) is outside a {n}x{n} grid"
        );
        self.cells[row * n + col]
    }

    /// This grid as a puzzle with every cell given.
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle {
            shape: self.shape,
            cells: self.cells.clone(),
        }
    }
}

impl From<Grid> for Puzzle {
    fn from(g: Grid) -> Puzzle {
        Puzzle {
            shape: g.shape,
            cells: g.cells,
        }
    }
}

#[cfg(test)]
mod tests;
