//! Search-free proofs: candidate propagation by naked and hidden singles.
//!
//! Candidates are one `u128` bitmask per cell (bit `v−1` for symbol `v`; `n ≤ 100` fits).
//! [`Propagator::propagate`] removes a fixed cell's symbol from its peers (naked singles) and
//! fixes a symbol that has one place left in a house (hidden singles), until nothing moves or
//! some cell or house runs out of candidates. Both rules are sound, so a contradiction proves
//! that no solution extends the starting state: that is how the generator proves a removal
//! keeps the solution unique, with no search at all.
//!
//! Work is proportional to what changes: fixed cells go through a queue and are processed
//! once; the hidden-single sweep is bit-parallel over each house (`once`/`twice` masks).

use crate::grid::Shape;

/// The houses of a shape (rows, columns, blocks) and each cell's houses, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct Houses {
    n: usize,
    /// `3n` houses of `n` cells: rows, then columns, then blocks.
    cells: Vec<u32>,
    /// For each cell, its row, column and block house numbers.
    of_cell: Vec<[u32; 3]>,
}

impl Houses {
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
        Houses { n, cells, of_cell }
    }

    #[inline]
    fn house(&self, h: usize) -> &[u32] {
        &self.cells[h * self.n..(h + 1) * self.n]
    }
}

/// Reusable buffers for propagation (one per worker thread).
#[derive(Clone, Debug)]
pub(crate) struct Propagator {
    houses: Houses,
    full: u128,
    queue: Vec<u32>,
    done: Vec<bool>,
}

impl Propagator {
    pub(crate) fn new(shape: Shape) -> Propagator {
        let n = shape.side();
        Propagator {
            houses: Houses::new(shape),
            full: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            queue: Vec::with_capacity(n * n),
            done: vec![false; n * n],
        }
    }

    /// Candidates of a puzzle before any deduction: a given is its own symbol, a blank
    /// has every symbol.
    pub(crate) fn initial(&self, cells: &[u8], out: &mut Vec<u128>) {
        out.clear();
        out.extend(
            cells
                .iter()
                .map(|&v| if v == 0 { self.full } else { 1u128 << (v - 1) }),
        );
    }

    /// Propagates naked and hidden singles to a fixpoint. Returns `false` on a
    /// contradiction (then `cand` is left in an unspecified state).
    pub(crate) fn propagate(&mut self, cand: &mut [u128]) -> bool {
        self.queue.clear();
        self.done.iter_mut().for_each(|d| *d = false);
        for (i, &m) in cand.iter().enumerate() {
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                self.queue.push(i as u32);
            }
        }
        loop {
            if !self.naked(cand) {
                return false;
            }
            match self.hidden(cand) {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// Processes the queue of fixed cells: removes each one's symbol from its peers.
    fn naked(&mut self, cand: &mut [u128]) -> bool {
        while let Some(c) = self.queue.pop() {
            let c = c as usize;
            if self.done[c] {
                continue;
            }
            self.done[c] = true;
            let bit = cand[c];
            for h in self.houses.of_cell[c] {
                for &p in self.houses.house(h as usize) {
                    let p = p as usize;
                    if p == c || cand[p] & bit == 0 {
                        continue;
                    }
                    let m = cand[p] & !bit;
                    cand[p] = m;
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 {
                        self.queue.push(p as u32);
                    }
                }
            }
        }
        true
    }

    /// One sweep of hidden singles over every house. `None` on a contradiction (a symbol
    /// with no place in a house, or one cell needed for two symbols), `Some(true)` if a
    /// cell was fixed.
    fn hidden(&mut self, cand: &mut [u128]) -> Option<bool> {
        let mut moved = false;
        for h in 0..3 * self.houses.n {
            let (mut once, mut twice, mut fixed) = (0u128, 0u128, 0u128);
            for &c in self.houses.house(h) {
                let m = cand[c as usize];
                twice |= once & m;
                once |= m;
                if m & (m - 1) == 0 {
                    fixed |= m;
                }
            }
            if once != self.full {
                return None;
            }
            let mut single = once & !twice & !fixed;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single &= single - 1;
                for &c in self.houses.house(h) {
                    let c = c as usize;
                    if cand[c] & bit != 0 {
                        if cand[c] & !bit != 0 {
                            // Another symbol may already have claimed this cell this sweep.
                            cand[c] = bit;
                            self.queue.push(c as u32);
                            moved = true;
                        } else if !self.done[c] {
                            self.queue.push(c as u32);
                        }
                        break;
                    }
                }
            }
            if moved && !self.naked(cand) {
                return None;
            }
        }
        Some(moved)
    }
}

/// Whether every cell of `cand` is fixed.
#[cfg(test)]
pub(crate) fn is_solved(cand: &[u128]) -> bool {
    cand.iter().all(|&m| m != 0 && m & (m - 1) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|c| if c == b'.' { 0 } else { c - b'0' })
            .collect()
    }

    #[test]
    fn singles_solve_an_easy_puzzle() {
        // Project Euler 96, grid 01: solvable by singles alone.
        let p = cells(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(is_solved(&cand));
        let solved: Vec<u8> = cand.iter().map(|m| m.trailing_zeros() as u8 + 1).collect();
        assert!(crate::grid::Grid::new(shape, solved).is_ok());
    }

    #[test]
    fn contradiction_is_found() {
        // Row 1 is 1 2 _ _, column 3 holds 3 and 4 below: no candidate for (1, 3).
        let shape = Shape::new(2).unwrap();
        let p = vec![1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0];
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&p, &mut cand);
        assert!(!pr.propagate(&mut cand));
    }

    #[test]
    fn empty_board_does_not_move() {
        let shape = Shape::new(3).unwrap();
        let mut pr = Propagator::new(shape);
        let mut cand = Vec::new();
        pr.initial(&[0; 81], &mut cand);
        assert!(pr.propagate(&mut cand));
        assert!(cand.iter().all(|&m| m == 0x1ff));
    }
}
