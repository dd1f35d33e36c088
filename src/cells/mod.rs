//! The candidate core every engine shares: sets of symbols, counting them over a house, and
//! the house tables.
//!
//! - [`SymbolSet`] is a set of symbols `1..=n` as one `u128` (bit `v − 1` for symbol `v`;
//!   a side `n ≤ 100` fits). The propagation engine, the grader, the exact-cover encoder and
//!   the SVG renderer keep their candidates and their used-per-house symbols in it.
//! - [`Symbol`] is one symbol, 1-based as the grid shows it, so that the 0-based bit index
//!   and the 1-based value cannot be mixed up.
//! - [`Tally`] counts, bit-parallel, how many of a house's cells hold each symbol (once,
//!   twice, three times, …): hidden singles, hidden subsets and branching all ask it.
//! - [`Placed`] holds the symbols placed in each house of a grid and answers which symbols
//!   a cell may still take.
//! - `Houses` (crate-internal) lists each house's cells and each cell's houses.
//!
//! Houses are numbered `0..3n` throughout: rows `0..n`, columns `n..2n`, blocks `2n..3n`
//! (blocks row-major, as [`Shape::block_of`](crate::Shape::block_of) numbers them).
//!
//! [`grid::check_cells`](crate::grid::check_cells) does not use this module on purpose: it
//! is the independent check that every grid passes before it is written.

mod houses;
mod set;
mod tally;

pub(crate) use houses::Houses;
pub use houses::Placed;
pub use set::{Symbol, SymbolSet, Symbols};
pub(crate) use set::{bit_indices, bits_between, more_than};
pub use tally::Tally;
