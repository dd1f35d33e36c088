//! Symmetries a puzzle's pattern of givens can keep, and the cell orbits they induce.
//!
//! The generator blanks whole orbits at once, so the pattern of blanks is invariant under
//! the chosen symmetry. The default is [`Symmetry::Rot180`], the point symmetry published
//! puzzles (and the difficulty paper) use.

use crate::grid::Shape;

/// A symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry: cells are blanked one at a time.
    None,
    /// Point symmetry through the centre: (r, c) ↔ (n−1−r, n−1−c).
    #[default]
    Rot180,
    /// Quarter-turn symmetry: orbits of up to four cells.
    Rot90,
    /// Mirror in the vertical axis: (r, c) ↔ (r, n−1−c).
    Mirror,
    /// Mirror in the main diagonal: (r, c) ↔ (c, r).
    Diagonal,
    /// Mirror in the anti-diagonal: (r, c) ↔ (n−1−c, n−1−r).
    AntiDiagonal,
    /// Both axis mirrors: orbits of up to four cells.
    Dihedral,
}

impl Symmetry {
    /// The images of `(row, col)` under the group this symmetry generates (including itself).
    fn images(self, n: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let m = n - 1;
        match self {
            Symmetry::None => vec![(r, c)],
            Symmetry::Rot180 => vec![(r, c), (m - r, m - c)],
            Symmetry::Rot90 => vec![(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
            Symmetry::Mirror => vec![(r, c), (r, m - c)],
            Symmetry::Diagonal => vec![(r, c), (c, r)],
            Symmetry::AntiDiagonal => vec![(r, c), (m - c, m - r)],
            Symmetry::Dihedral => vec![(r, c), (r, m - c), (m - r, c), (m - r, m - c)],
        }
    }

    /// The orbits of the cells of `shape`: each cell appears in exactly one orbit, orbits are
    /// listed by their smallest cell, and cells within an orbit are sorted.
    pub fn orbits(self, shape: Shape) -> Vec<Vec<u32>> {
        let n = shape.side();
        let mut seen = vec![false; n * n];
        let mut out = Vec::new();
        for cell in 0..n * n {
            if seen[cell] {
                continue;
            }
            let mut orbit: Vec<u32> = self
                .images(n, cell / n, cell % n)
                .into_iter()
                .map(|(r, c)| (r * n + c) as u32)
                .collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &c in &orbit {
                seen[c as usize] = true;
            }
            out.push(orbit);
        }
        out
    }

    /// Whether the group holds the half turn (the point symmetry): [`Symmetry::Rot180`],
    /// [`Symmetry::Rot90`] and [`Symmetry::Dihedral`]. Only those patterns gain from an
    /// automorphic grid ([`super::GridKind::HalfTurn`]).
    pub fn has_half_turn(self) -> bool {
        matches!(
            self,
            Symmetry::Rot180 | Symmetry::Rot90 | Symmetry::Dihedral
        )
    }

    /// Whether the pattern of non-blank cells of `cells` is invariant under this symmetry.
    ///
    /// # Panics
    /// If `cells` does not have `shape.cells()` entries.
    pub fn holds_for(self, shape: Shape, cells: &[u8]) -> bool {
        assert_eq!(
            cells.len(),
            shape.cells(),
            "one entry per cell of the shape"
        );
        self.orbits(shape).iter().all(|orbit| {
            let given = cells[orbit[0] as usize] != 0;
            orbit.iter().all(|&c| (cells[c as usize] != 0) == given)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_cells() {
        for b in 2..=5 {
            let shape = Shape::new(b).unwrap();
            for sym in [
                Symmetry::None,
                Symmetry::Rot180,
                Symmetry::Rot90,
                Symmetry::Mirror,
                Symmetry::Diagonal,
                Symmetry::AntiDiagonal,
                Symmetry::Dihedral,
            ] {
                let orbits = sym.orbits(shape);
                let mut all: Vec<u32> = orbits.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..shape.cells() as u32).collect::<Vec<_>>(),
                    "{sym:?}"
                );
            }
        }
    }

    #[test]
    fn hand_checked_9x9_orbits() {
        let s = Shape::new(3).unwrap();
        let rot = Symmetry::Rot180.orbits(s);
        assert_eq!(rot.len(), 41); // 40 pairs and the centre
        assert_eq!(rot[0], vec![0, 80]);
        assert!(rot.contains(&vec![40]));
        let quarter = Symmetry::Rot90.orbits(s);
        assert_eq!(quarter[0], vec![0, 8, 72, 80]);
        assert_eq!(quarter.len(), 21); // 20 orbits of four and the centre
        assert_eq!(Symmetry::Diagonal.orbits(s).len(), 45); // 36 pairs and 9 diagonal cells
        // The orbit of cell 1 (row 0, column 1) under each, worked out by hand, and the
        // number of orbits (each mirror: 36 pairs and 9 cells on its axis).
        let orbit_of_1 =
            |sym: Symmetry| sym.orbits(s).into_iter().find(|o| o.contains(&1)).unwrap();
        assert_eq!(orbit_of_1(Symmetry::Rot180), vec![1, 79]);
        assert_eq!(orbit_of_1(Symmetry::Rot90), vec![1, 17, 63, 79]);
        assert_eq!(orbit_of_1(Symmetry::Mirror), vec![1, 7]);
        assert_eq!(orbit_of_1(Symmetry::Diagonal), vec![1, 9]);
        assert_eq!(orbit_of_1(Symmetry::AntiDiagonal), vec![1, 71]);
        assert_eq!(orbit_of_1(Symmetry::Dihedral), vec![1, 7, 73, 79]);
        assert_eq!(Symmetry::Mirror.orbits(s)[0], vec![0, 8]);
        assert_eq!(Symmetry::Mirror.orbits(s).len(), 45);
        assert_eq!(Symmetry::AntiDiagonal.orbits(s).len(), 45);
        assert!(Symmetry::AntiDiagonal.orbits(s).contains(&vec![8]));
        // 16 orbits of four off both axes, 4 pairs on each axis, and the centre.
        assert_eq!(Symmetry::Dihedral.orbits(s).len(), 25);
    }
}
