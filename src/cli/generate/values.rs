//! The values of `generate`'s `--method`, `--grid`, `--order` and `--symmetry` flags, and
//! how they map onto the library's settings.

use clap::ValueEnum;

use crate::generate::{GridKind, Symmetry};

/// `--method` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MethodArg {
    /// Blank while uniqueness is proven (propagation, searches).
    Prove,
    /// Empty-cell expansion: blank while techniques 1..--max-level solve.
    Expand,
    /// Genetic algorithm for exactly --level with a long path.
    Ga,
}

/// `--grid` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum GridArg {
    /// A random grid from the fill search.
    Random,
    /// A random grid that the half turn maps onto itself with the shifts renamed in pairs (or kept).
    Automorphic,
}

impl From<GridArg> for GridKind {
    fn from(g: GridArg) -> GridKind {
        match g {
            GridArg::Random => GridKind::Random,
            GridArg::Automorphic => GridKind::HalfTurn,
        }
    }
}

impl From<SymmetryArg> for Symmetry {
    fn from(s: SymmetryArg) -> Symmetry {
        match s {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rot180 => Symmetry::Rot180,
            SymmetryArg::Rot90 => Symmetry::Rot90,
            SymmetryArg::Mirror => Symmetry::Mirror,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
            SymmetryArg::AntiDiagonal => Symmetry::AntiDiagonal,
            SymmetryArg::Dihedral => Symmetry::Dihedral,
        }
    }
}

/// The command-line name of `value`: that of the flag value `A` that maps to it (each
/// library value has one).
pub(super) fn name_of<A: ValueEnum + Into<T>, T: PartialEq>(value: T) -> String {
    A::value_variants()
        .iter()
        .find(|a| (*a).clone().into() == value)
        .and_then(|a| a.to_possible_value())
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// `--order` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum OrderArg {
    Bands,
    Sweep,
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum SymmetryArg {
    /// No symmetry: each cell on its own.
    None,
    /// Half turn about the centre: (r, c) with (n-1-r, n-1-c).
    Rot180,
    /// Quarter turns: orbits of up to four cells.
    Rot90,
    /// Left-right mirror: (r, c) with (r, n-1-c).
    Mirror,
    /// Mirror in the main diagonal: (r, c) with (c, r).
    Diagonal,
    /// Mirror in the anti-diagonal: (r, c) with (n-1-c, n-1-r).
    AntiDiagonal,
    /// Both axis mirrors, left-right and top-bottom (the dihedral group of order 4, which
    /// holds the half turn but not the quarter turns or the diagonals).
    #[value(alias = "both-mirrors")]
    Dihedral,
}
