//! Level 8 (with Swordfish), XY-Wing. A pivot cell with candidates `{x, y}` sees a pincer
//! `{x, z}` and a pincer `{y, z}`. Whichever of `x` and `y` the pivot takes, one pincer is
//! left with `z`, so every cell that sees both pincers loses `z`.

use std::fmt;

use crate::grade::candidates::Candidates;
use crate::grade::step::{Namer, Recorder, Step, join_with};
use crate::grade::techniques::Technique;

/// One sweep with every bivalue cell as a pivot, in reading order.
pub(crate) fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
    let n = c.n;
    let mut any = false;
    let mut wings = std::mem::take(&mut c.list);
    let mut pivots = std::mem::take(&mut c.list2);
    pivots.clear();
    pivots.extend(
        c.blanks
            .iter()
            .copied()
            .filter(|&x| c.cand[x as usize].len_between(2, 2)),
    );
    for &p in &pivots {
        let pm = c.cand[p as usize];
        if !pm.len_between(2, 2) {
            continue;
        }
        // Bivalue peers sharing exactly one symbol with the pivot.
        wings.clear();
        let [row, col, blk] = c.houses.of_cell[p as usize];
        for h in [row, col, blk] {
            for &w in c.house_cells(h as usize) {
                let wm = c.cand[w as usize];
                // Block cells on the pivot's row or column were seen with that house.
                let [wr, wc, _] = c.houses.of_cell[w as usize];
                let seen_before = h == blk && (wr == row || wc == col);
                if w != p && !seen_before && wm.len_between(2, 2) && (wm & pm).is_single() {
                    wings.push(w);
                }
            }
        }
        for i in 0..wings.len() {
            for j in i + 1..wings.len() {
                let (a, b) = (wings[i], wings[j]);
                let (am, bm) = (c.cand[a as usize], c.cand[b as usize]);
                // Still the shapes found above (an earlier wing may have shrunk them), and the
                // pincers share the pivot's two symbols between them and one other symbol.
                if !am.len_between(2, 2) || !bm.len_between(2, 2) || am & pm == bm & pm {
                    continue;
                }
                let z = am - pm;
                if z.is_empty() || z != bm - pm || !(am & pm).is_single() {
                    continue;
                }
                let [ar, ac, ab] = c.houses.of_cell[a as usize];
                for h in [ar, ac, ab] {
                    for k in 0..n {
                        let x = c.house_cells(h as usize)[k];
                        if x != a && x != b && c.sees(x, b) {
                            let gone = c.remove(x, z);
                            rec.note(x, gone);
                        }
                    }
                }
                let mut houses = [0usize; 2];
                if rec.explain {
                    houses = [common_house(c, p, a), common_house(c, p, b)];
                }
                let wing = rec.finish(c, Technique::XYWing, &houses, &[p, a, b], pm | z);
                if wing && rec.explain {
                    // The pivot's two symbols, then the one removed (whatever their order).
                    if let Some(step) = rec.log.last_mut() {
                        step.symbols = pm.iter().chain(z.iter()).map(|s| s.get()).collect();
                    }
                }
                any |= wing;
                if c.conflict.is_some() {
                    break;
                }
            }
            if c.conflict.is_some() {
                break;
            }
        }
        if c.conflict.is_some() {
            break;
        }
    }
    c.list = wings;
    c.list2 = pivots;
    any
}

/// "XY-Wing: staff 2 / day 2 takes shift 1 or 2 and one of its pincers … is then left with
/// shift 3, so no cell seeing both pincers can take 3".
pub(crate) fn describe(s: &Step, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
    let name = |i: usize| s.cells.get(i).map_or(String::new(), |&p| nm.cell(p));
    let z = s.symbols.last().copied().unwrap_or(0);
    let xy: Vec<u8> = s.symbols.iter().copied().filter(|&v| v != z).collect();
    let takes = match nm.0 {
        Some(_) if xy.iter().all(|&v| nm.named_shift(v).is_some()) => {
            let names = join_with(xy.iter().map(|&v| nm.bare_shift(v)), "or");
            if nm.symbolic() {
                format!("shift {names}")
            } else {
                names
            }
        }
        _ => format!("shift {}", join_with(&xy, "or")),
    };
    write!(
        f,
        "XY-Wing: {} takes {takes} and one of its pincers {} and {} is then left with {}, so \
         no cell seeing both pincers can take {}",
        name(0),
        name(1),
        name(2),
        nm.shift(z),
        nm.bare_shift(z),
    )
}

/// A house holding both cells (the block if they share one, else the row, else the column).
fn common_house(c: &Candidates, a: u32, b: u32) -> usize {
    let (x, y) = (c.houses.of_cell[a as usize], c.houses.of_cell[b as usize]);
    [2, 0, 1]
        .into_iter()
        .find(|&i| x[i] == y[i])
        .map_or(x[0] as usize, |i| x[i] as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m};
    use crate::grid::{House, Pos};

    /// The symbol removed need not be the largest: the text and the symbols name the
    /// pivot's pair and the removed one as they are (a sorted list used to swap them).
    #[test]
    fn the_removed_symbol_is_named_whatever_its_order() {
        let (mut c, mut rec) = blank9();
        // Pivot {4,8}; pincers {4,5} and {5,8}: 5 leaves the cells that see both.
        c.cand[at(2, 2) as usize] = m(&[4, 8]);
        c.cand[at(2, 8) as usize] = m(&[4, 5]);
        c.cand[at(8, 2) as usize] = m(&[5, 8]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(8, 8) as usize] & m(&[5]), SymbolSet::EMPTY);
        let s = &rec.log[0];
        assert_eq!(s.symbols, vec![4, 8, 5]);
        let text = s.to_string();
        assert!(
            text.contains("takes shift 4 or 8 and")
                && text.contains(
                    "left with shift 5, so no cell seeing both pincers can take 5: removes shift 5"
                ),
            "{text}"
        );
    }

    #[test]
    fn pincers_that_see_each_other_keep_their_symbols() {
        let (mut c, mut rec) = blank9();
        // Pivot staff 1 / day 1 {1,2}; pincers staff 1 / day 2 {1,3} and staff 2 / day 1
        // {2,3}, which share block 1. Every one of the three is a pivot of the other two,
        // so 1, 2 and 3 leave the cells that see two of them; none leaves the three.
        let (p, a, b) = (at(1, 1), at(1, 2), at(2, 1));
        c.cand[p as usize] = m(&[1, 2]);
        c.cand[a as usize] = m(&[1, 3]);
        c.cand[b as usize] = m(&[2, 3]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[p as usize], m(&[1, 2]));
        assert_eq!(c.cand[a as usize], m(&[1, 3]));
        assert_eq!(c.cand[b as usize], m(&[2, 3]));
        // Seeing both pincers (row 1 and block 1, block 1): 3 is gone.
        for x in [at(1, 3), at(2, 2), at(3, 3)] {
            assert_eq!(c.cand[x as usize] & m(&[3]), SymbolSet::EMPTY);
        }
        // Seeing one pincer only (day 2 sees staff 1 / day 2, staff 2 on day 5 sees staff 2 /
        // day 1): 3 stays.
        for x in [at(5, 2), at(2, 5)] {
            assert_eq!(c.cand[x as usize] & m(&[3]), m(&[3]));
        }
    }

    #[test]
    fn pivot_with_pincers_in_its_row_and_column() {
        let (mut c, mut rec) = blank9();
        // Pivot staff 2 / day 2 {1,2}; pincers staff 2 / day 8 {1,3} and staff 8 / day 2
        // {2,3}: staff 8 / day 8 sees both and loses 3.
        c.cand[at(2, 2) as usize] = m(&[1, 2]);
        c.cand[at(2, 8) as usize] = m(&[1, 3]);
        c.cand[at(8, 2) as usize] = m(&[2, 3]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(8, 8) as usize] & m(&[3]), SymbolSet::EMPTY);
        assert_eq!(c.cand[at(8, 8) as usize].len(), 8);
        assert_eq!(rec.removed[7], 1);
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::XYWing);
        assert_eq!(
            s.cells,
            vec![
                Pos { row: 1, col: 1 },
                Pos { row: 1, col: 7 },
                Pos { row: 7, col: 1 }
            ]
        );
        assert_eq!(s.symbols, vec![1, 2, 3]);
        assert_eq!(s.houses, vec![House::Row(1), House::Col(1)]);
        assert_eq!(
            s.to_string(),
            "step 1, level 1, XY-Wing: staff 2 / day 2 takes shift 1 or 2 and one of its \
             pincers staff 2 / day 8 and staff 8 / day 2 is then left with shift 3, so no cell \
             seeing both pincers can take 3: removes shift 3 from staff 8 / day 8"
        );
    }

    #[test]
    fn pincer_in_the_block_removes_from_two_segments() {
        let (mut c, mut rec) = blank9();
        // Pivot (1,1) {4,5}; pincer (2,3) {4,6} in its block; pincer (1,7) {5,6} in its row.
        // Cells seeing both: (1,2), (1,3) in row 1 and block 1; (2,7), (2,8), (2,9) in row 2
        // and block 3.
        c.cand[at(1, 1) as usize] = m(&[4, 5]);
        c.cand[at(2, 3) as usize] = m(&[4, 6]);
        c.cand[at(1, 7) as usize] = m(&[5, 6]);
        assert!(apply(&mut c, &mut rec));
        let lost: Vec<(usize, usize)> = (1..=9)
            .flat_map(|r| (1..=9).map(move |col| (r, col)))
            .filter(|&(r, col)| (c.cand[at(r, col) as usize] & m(&[6])).is_empty())
            .collect();
        assert_eq!(lost, vec![(1, 1), (1, 2), (1, 3), (2, 7), (2, 8), (2, 9)]);
    }

    #[test]
    fn same_shared_symbol_is_no_wing() {
        let (mut c, mut rec) = blank9();
        c.cand[at(2, 2) as usize] = m(&[1, 2]);
        c.cand[at(2, 8) as usize] = m(&[1, 3]);
        c.cand[at(8, 2) as usize] = m(&[1, 3]);
        assert!(!apply(&mut c, &mut rec));
    }
}
