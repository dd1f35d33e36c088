//! Full grids that the half turn maps onto themselves, up to a renaming of the symbols:
//! `S[n-1-r][n-1-c] = σ(S[r][c])` for an involution `σ` of the symbols.
//!
//! The half turn `φ` with `σ` maps options to options, `(r, c, s) ↦ (n-1-r, n-1-c, σ(s))`,
//! and items to items of the same kind (cell, row–symbol, column–symbol, box–symbol; box `k`
//! goes to box `n-1-k`). A grid that `φ` keeps is an exact cover made of whole orbits of
//! options, so it is an exact cover of the *quotient*: one item per orbit of items, one
//! option per orbit of options, each still covering four items. An orbit `{o, φo}` of two
//! options is left out when `o` covers an item that `φ` fixes (the centre cell, or the
//! middle row, column or box with a symbol `σ` fixes), since `o` and `φo` would then both
//! cover it; every other orbit covers each of its four item orbits exactly once. The
//! quotient has half the options and items of the sudoku matrix, and the fill search of
//! `fill.rs` solves it as it fills an empty board.
//!
//! `σ` has the cycle type of the canonical pattern grid `S[r][c] = b·(r mod b) + ⌊r/b⌋ + c
//! (mod n)`, which the half turn maps to `-2 - S (mod n)`: one fixed symbol when `n` is odd
//! (the centre cell holds it), two when `n` is even. Renaming the symbols of that grid
//! gives a grid for every involution of the type, so the quotient always has a solution.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::grid::{Grid, Shape};
use crate::solve::SearchControl;

use super::fill::{FillPlan, FillSearch, FillStatus};
use super::matrix::Matrix;
use super::sudoku::Encoding;

/// Nodes searched between polls of the interrupt flag.
const POLL_NODES: u64 = 1 << 12;
/// Nodes per cell to place the first search is given before the fill starts afresh; each
/// fresh start doubles it. Without them the band-local restarts of the fill search leave a
/// heavy tail from 49×49 on (0.7 s to 9.5 s at 49×49 over three seeds). Up to 81×81 the
/// fill takes well under a second (0.08–0.43 s at 81×81, eight seeds); at 100×100 it took
/// 30 s to 5 minutes, so callers stop at 81×81.
const FIRST_BUDGET_PER_CELL: u64 = 16;

/// The involution of the symbols (`0..n`): the cycle type of the canonical grid's (see the
/// module docs), on symbols picked at random.
fn random_involution(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut symbols: Vec<u8> = (0..n as u8).collect();
    symbols.shuffle(rng);
    let fixed = if n % 2 == 1 { 1 } else { 2 };
    let mut sigma: Vec<u8> = (0..n as u8).collect();
    for pair in symbols[fixed..].chunks_exact(2) {
        sigma[pair[0] as usize] = pair[1];
        sigma[pair[1] as usize] = pair[0];
    }
    sigma
}

/// The quotient matrix for `σ` as an [`Encoding`] the fill search takes: each option is
/// named by the member of its orbit whose cell comes first (so in the top half of the
/// grid, or the left half of the middle row), and the cells of the other half are marked
/// given, so that the fill search's bands count only the cells it places.
fn quotient(shape: Shape, sigma: &[u8]) -> Encoding {
    let n = shape.side();
    let b = shape.box_size();
    let nn = n * n;
    // Items of the sudoku matrix, in the order the fill search expects: cell, row–symbol,
    // column–symbol, box–symbol.
    let items_of = |r: usize, c: usize, s: usize| -> [usize; 4] {
        let k = (r / b) * b + c / b;
        [
            r * n + c,
            nn + r * n + s,
            2 * nn + c * n + s,
            3 * nn + k * n + s,
        ]
    };
    let image = |r: usize, c: usize, s: usize| (n - 1 - r, n - 1 - c, sigma[s] as usize);
    // Number the item orbits 1.. in the order their first member is met.
    let mut orbit_id = vec![0u32; 4 * nn];
    let mut fixed = vec![false; 4 * nn];
    let mut next = 0u32;
    for r in 0..n {
        for c in 0..n {
            for s in 0..n {
                let (r2, c2, s2) = image(r, c, s);
                for (i, j) in items_of(r, c, s).into_iter().zip(items_of(r2, c2, s2)) {
                    if orbit_id[i] == 0 {
                        next += 1;
                        orbit_id[i] = next;
                        orbit_id[j] = next;
                        fixed[i] = i == j;
                    }
                }
            }
        }
    }
    let mut options: Vec<(u32, u8)> = Vec::with_capacity(n * nn / 2 + 1);
    let mut matrix = Matrix::new(next as usize, n * nn / 2 + 1);
    for r in 0..n {
        for c in 0..n {
            let (cell, mirror) = (r * n + c, nn - 1 - (r * n + c));
            if cell > mirror {
                continue;
            }
            for (s, &partner) in sigma.iter().enumerate() {
                let items = items_of(r, c, s);
                // A pair of options that would both cover a fixed item is no option; the
                // centre's option with a fixed symbol is its own image.
                let own_image = cell == mirror && partner as usize == s;
                if own_image || !items.iter().any(|&i| fixed[i]) {
                    options.push((cell as u32, s as u8 + 1));
                    matrix.add_option(items.map(|i| orbit_id[i]));
                }
            }
        }
    }
    matrix.seal();
    let givens = (0..nn).map(|cell| u8::from(cell > nn - 1 - cell)).collect();
    Encoding {
        matrix,
        options,
        givens,
        shape,
    }
}

/// A random full grid of `shape` that the half turn maps onto itself with the symbols
/// renamed by an involution, the same for the same `seed`. `None` when `control` stops it
/// (its deadline included).
///
/// The fill search (forced items first, band by band, band-local restarts: `fill.rs`) on
/// the quotient matrix of the module docs.
pub(crate) fn fill(shape: Shape, seed: u64, control: &SearchControl) -> Option<Grid> {
    let n = shape.side();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(11);
    let sigma = random_involution(n, &mut rng);
    let plan = FillPlan::new(quotient(shape, &sigma));
    let mut budget = FIRST_BUDGET_PER_CELL * (n * n / 2) as u64;
    let mut search = FillSearch::new(&plan, rng.clone(), None);
    loop {
        match search.run(POLL_NODES) {
            FillStatus::Solved => break,
            FillStatus::Budget if control.should_stop() => return None,
            FillStatus::Budget if search.stats.nodes >= budget => {
                // A fresh search with fresh random choices, and twice the patience.
                rng.set_stream(rng.get_stream() + 1);
                search = FillSearch::new(&plan, rng.clone(), None);
                budget = budget.saturating_mul(2);
            }
            FillStatus::Budget => {}
            FillStatus::Exhausted => unreachable!("the quotient has a solution (module docs)"),
        }
    }
    let mut cells = search.cells();
    let nn = n * n;
    for cell in 0..nn / 2 {
        cells[nn - 1 - cell] = sigma[cells[cell] as usize - 1] + 1;
    }
    Some(Grid::new(shape, cells).expect("an exact cover of the quotient is a valid grid"))
}

/// The renaming the half turn induces on `grid`'s symbols (`sigma[s]` is the symbol
/// opposite each `s`, index 0 unused), if it is consistent; for tests here and in
/// `generate`.
#[cfg(test)]
pub(crate) fn induced(grid: &Grid) -> Option<Vec<u8>> {
    let cells = grid.cells();
    let last = cells.len() - 1;
    let mut sigma = vec![0u8; grid.shape().side() + 1];
    for (i, &s) in cells.iter().enumerate() {
        let t = cells[last - i];
        if sigma[s as usize] != 0 && sigma[s as usize] != t {
            return None;
        }
        sigma[s as usize] = t;
    }
    Some(sigma)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_valid_and_kept_by_the_half_turn_at_every_small_size() {
        for b in 2..=6 {
            let shape = Shape::new(b).unwrap();
            let n = shape.side();
            let mut seen = Vec::new();
            for seed in 0..4 {
                let grid = fill(shape, seed, &SearchControl::default()).unwrap();
                let sigma = induced(&grid).expect("the half turn renames symbols consistently");
                let fixed = (1..=n).filter(|&s| sigma[s] as usize == s).count();
                assert_eq!(
                    fixed,
                    if n % 2 == 1 { 1 } else { 2 },
                    "b = {b}, seed {seed}"
                );
                assert!((1..=n).all(|s| sigma[sigma[s] as usize] as usize == s));
                assert_eq!(grid, fill(shape, seed, &SearchControl::default()).unwrap());
                seen.push(grid);
            }
            seen.dedup();
            assert_eq!(
                seen.len(),
                4,
                "different seeds give different grids at b = {b}"
            );
        }
    }

    #[test]
    fn a_stopped_fill_returns_nothing() {
        let control = SearchControl::default();
        control
            .interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(fill(Shape::new(10).unwrap(), 1, &control).is_none());
    }
}
