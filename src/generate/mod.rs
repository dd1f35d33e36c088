//! Making grids: [`fill`] produces full random grids (blank-grid solutions) from a seed.
pub mod fill;
