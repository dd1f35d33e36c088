//! Level 3, locked candidates.
//!
//! - **Pointing**: when a symbol's candidates in a block all lie on one row (or column), the
//!   symbol must go there, so the rest of that row (column) outside the block loses it.
//! - **Claiming**: the converse; when a symbol's candidates on a row (column) all lie in one
//!   block, the rest of that block loses it.
//!
//! Both work on *segments*, the `b` cells where a block meets a line: a symbol present in
//! one segment of a block (or line) and in no other is locked into that segment.
//!
//! A symbol locked into a *single* cell is a hidden single (level 2), not locked
//! candidates: the grader places it at the end of the round and its peers lose it in the
//! next round's peer elimination. Both techniques leave such a symbol alone, as human
//! solving guides do, so that level 3 counts only deductions of its own (the level of a
//! puzzle cannot change by this: the same removals follow one round later).

use std::fmt;

use crate::cells::{SymbolSet, Tally};
use crate::grade::candidates::{Candidates, Memo};
use crate::grade::step::{Namer, Recorder, Step};
use crate::grade::techniques::Technique;

/// One sweep of pointing over every block, along its rows and then its columns.
pub(crate) fn pointing(c: &mut Candidates, rec: &mut Recorder) -> bool {
    let mut any = false;
    for blk in 0..c.n {
        for by_col in [false, true] {
            any |= point_from(c, rec, blk, by_col);
            if c.conflict.is_some() {
                return any;
            }
        }
    }
    any
}

/// One sweep of claiming over every row, then every column.
pub(crate) fn claiming(c: &mut Candidates, rec: &mut Recorder) -> bool {
    let mut any = false;
    for by_col in [false, true] {
        for line in 0..c.n {
            any |= claim_from(c, rec, line, by_col);
            if c.conflict.is_some() {
                return any;
            }
        }
    }
    any
}

/// The cell at offset `i` along `line` (a row, or a column when `by_col`).
#[inline]
fn line_cell(n: usize, line: usize, i: usize, by_col: bool) -> u32 {
    (if by_col { i * n + line } else { line * n + i }) as u32
}

/// The candidates of segment `j` of `line`: the cells `j*b .. j*b+b` along it.
#[inline]
fn segment(c: &Candidates, line: usize, j: usize, by_col: bool) -> SymbolSet {
    (j * c.b..(j + 1) * c.b).fold(SymbolSet::EMPTY, |m, i| {
        m | c.cand[line_cell(c.n, line, i, by_col) as usize]
    })
}

/// The symbols held by at least two cells of segment `j` of `line`.
fn in_two_cells(c: &Candidates, line: usize, j: usize, by_col: bool) -> SymbolSet {
    Tally::<2>::of(
        (j * c.b..(j + 1) * c.b).map(|i| c.cand[line_cell(c.n, line, i, by_col) as usize]),
    )
    .at_least(2)
}

/// Symbols of `segs[j]` found in no other segment, for every `j` (bit-parallel).
fn locked(segs: &[SymbolSet], out: &mut [SymbolSet]) {
    let shared = Tally::<2>::of(segs.iter().copied()).at_least(2);
    for (o, &s) in out.iter_mut().zip(segs) {
        *o = s - shared;
    }
}

/// Pointing from block `blk` along its rows (or columns, when `by_col`).
fn point_from(c: &mut Candidates, rec: &mut Recorder, blk: usize, by_col: bool) -> bool {
    let (n, b) = (c.n, c.b);
    let memo = Memo::new(Technique::Pointing, by_col as usize);
    if c.house_quiet(memo, 2 * n + blk) {
        return false;
    }
    let before = c.version;
    // The block's lines: rows r0..r0+b (or columns c0..c0+b); its segment on each is
    // segment number `blk % b` (or `blk / b`) of that line.
    let (first_line, seg_no) = if by_col {
        (blk % b * b, blk / b)
    } else {
        (blk / b * b, blk % b)
    };
    let mut segs = [SymbolSet::EMPTY; 10];
    let mut only = [SymbolSet::EMPTY; 10];
    for (k, s) in segs.iter_mut().enumerate().take(b) {
        *s = segment(c, first_line + k, seg_no, by_col);
    }
    locked(&segs[..b], &mut only[..b]);
    let mut any = false;
    for (k, &locked_here) in only[..b].iter().enumerate() {
        let line = first_line + k;
        if locked_here.is_empty() {
            continue;
        }
        // Most locked symbols are already gone from the rest of the line: look first.
        let outside = (0..seg_no * b).chain((seg_no + 1) * b..n);
        let rest = outside.fold(SymbolSet::EMPTY, |m, i| {
            m | c.cand[line_cell(n, line, i, by_col) as usize]
        });
        let found = locked_here & rest;
        if found.is_empty() {
            continue;
        }
        for v in found & in_two_cells(c, line, seg_no, by_col) {
            let bit = SymbolSet::single(v);
            for i in (0..seg_no * b).chain((seg_no + 1) * b..n) {
                let cell = line_cell(n, line, i, by_col);
                let gone = c.remove(cell, bit);
                rec.note(cell, gone);
            }
            let line_house = if by_col { n + line } else { line };
            any |= finish(
                c,
                rec,
                Technique::Pointing,
                [2 * n + blk, line_house],
                |i| {
                    let cell = line_cell(n, line, seg_no * b + i, by_col);
                    c.cand[cell as usize].contains(v).then_some(cell)
                },
                bit,
            );
        }
    }
    if c.version == before {
        c.set_house_quiet(memo, 2 * n + blk);
    }
    any
}

/// Claiming from row `line` (or column, when `by_col`).
fn claim_from(c: &mut Candidates, rec: &mut Recorder, line: usize, by_col: bool) -> bool {
    let (n, b) = (c.n, c.b);
    let house = if by_col { n + line } else { line };
    const MEMO: Memo = Memo::new(Technique::Claiming, 0);
    if c.house_quiet(MEMO, house) {
        return false;
    }
    let before = c.version;
    let mut segs = [SymbolSet::EMPTY; 10];
    let mut only = [SymbolSet::EMPTY; 10];
    for (j, s) in segs.iter_mut().enumerate().take(b) {
        *s = segment(c, line, j, by_col);
    }
    locked(&segs[..b], &mut only[..b]);
    let mut any = false;
    for (j, &locked_here) in only[..b].iter().enumerate() {
        // The block meeting `line` at segment `j`.
        let band = line / b * b;
        let blk = if by_col {
            j * b + line / b
        } else {
            line / b * b + j
        };
        if locked_here.is_empty() {
            continue;
        }
        let rest = (band..band + b)
            .filter(|&o| o != line)
            .flat_map(|o| (j * b..(j + 1) * b).map(move |i| (o, i)))
            .fold(SymbolSet::EMPTY, |m, (o, i)| {
                m | c.cand[line_cell(n, o, i, by_col) as usize]
            });
        let found = locked_here & rest;
        if found.is_empty() {
            continue;
        }
        for v in found & in_two_cells(c, line, j, by_col) {
            let bit = SymbolSet::single(v);
            for other in (band..band + b).filter(|&o| o != line) {
                for i in j * b..(j + 1) * b {
                    let cell = line_cell(n, other, i, by_col);
                    let gone = c.remove(cell, bit);
                    rec.note(cell, gone);
                }
            }
            let line_house = if by_col { n + line } else { line };
            any |= finish(
                c,
                rec,
                Technique::Claiming,
                [line_house, 2 * n + blk],
                |i| {
                    let cell = line_cell(n, line, j * b + i, by_col);
                    c.cand[cell as usize].contains(v).then_some(cell)
                },
                bit,
            );
        }
    }
    if c.version == before {
        c.set_house_quiet(MEMO, house);
    }
    any
}

/// Closes a deduction whose pattern cells are the segment cells `cell_at(0..b)` that hold
/// the symbol (only computed when explaining).
fn finish(
    c: &Candidates,
    rec: &mut Recorder,
    t: Technique,
    houses: [usize; 2],
    cell_at: impl Fn(usize) -> Option<u32>,
    bit: SymbolSet,
) -> bool {
    let mut cells = [0u32; 10];
    let mut k = 0;
    if rec.explain {
        for i in 0..c.b {
            if let Some(cell) = cell_at(i) {
                cells[k] = cell;
                k += 1;
            }
        }
    }
    rec.finish(c, t, &houses, &cells[..k], bit)
}

/// "pointing: in block 1, shift 4 can only go to …, so staff 2 works it on no other day".
pub(crate) fn describe_pointing(
    s: &Step,
    f: &mut fmt::Formatter<'_>,
    nm: Namer<'_>,
) -> fmt::Result {
    write!(
        f,
        "pointing: {}, {} can only go to {}, so {}",
        nm.in_house(s.house(0)),
        s.symbol_words(nm),
        s.cells_or(nm),
        nm.nowhere_else(s.house(1), "it")
    )
}

/// "claiming: on day 5, shift 2 can only go to …, all in block 5, so …".
pub(crate) fn describe_claiming(
    s: &Step,
    f: &mut fmt::Formatter<'_>,
    nm: Namer<'_>,
) -> fmt::Result {
    write!(
        f,
        "claiming: {}, {} can only go to {}, all in {}, so {}",
        nm.in_house(s.house(0)),
        s.symbol_words(nm),
        s.cells_or(nm),
        nm.house(s.house(1)),
        nm.nowhere_else(s.house(1), "it")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Level 3: pointing, then claiming.
    fn apply(c: &mut Candidates, rec: &mut Recorder) -> bool {
        crate::grade::techniques::apply_level(3, c, rec)
    }
    use crate::cells::SymbolSet;
    use crate::grade::techniques::testutil::{at, blank9, m, only};
    use crate::grid::{House, Pos};

    #[test]
    fn pointing_along_a_row() {
        let (mut c, mut rec) = blank9();
        // In block 1, shift 4 fits only staff 2 / days 1 and 3: staff 2 cannot work it on
        // days 4..9.
        let block: Vec<u32> = c.house_cells(18).to_vec();
        only(&mut c, 4, &block, &[at(2, 1), at(2, 3)]);
        assert!(apply(&mut c, &mut rec));
        for col in 4..=9 {
            assert_eq!(c.cand[at(2, col) as usize] & m(&[4]), SymbolSet::EMPTY);
        }
        // The rest of the grid keeps it.
        assert_ne!(c.cand[at(3, 4) as usize] & m(&[4]), SymbolSet::EMPTY);
        let s = &rec.log[0];
        assert_eq!(s.technique, Technique::Pointing);
        assert_eq!(s.houses, vec![House::Block(0), House::Row(1)]);
        assert_eq!(
            s.cells,
            vec![Pos { row: 1, col: 0 }, Pos { row: 1, col: 2 }]
        );
        assert_eq!(s.eliminations.len(), 6);
        assert_eq!(
            s.to_string(),
            "step 1, level 1, pointing: in block 1, shift 4 can only go to staff 2 / day 1 or \
             staff 2 / day 3, so staff 2 works it on no other day: removes shift 4 from staff \
             2 / day 4, staff 2 / day 5, staff 2 / day 6, staff 2 / day 7, staff 2 / day 8 and \
             staff 2 / day 9"
        );
    }

    #[test]
    fn pointing_along_a_column() {
        let (mut c, mut rec) = blank9();
        let block: Vec<u32> = c.house_cells(18 + 8).to_vec();
        only(&mut c, 9, &block, &[at(7, 8), at(9, 8)]);
        assert!(apply(&mut c, &mut rec));
        for r in 1..=6 {
            assert_eq!(c.cand[at(r, 8) as usize] & m(&[9]), SymbolSet::EMPTY);
        }
        assert_eq!(rec.log[0].houses, vec![House::Block(8), House::Col(7)]);
    }

    #[test]
    fn claiming_from_a_column() {
        let (mut c, mut rec) = blank9();
        // Day 5 can have shift 2 only in block 5 (staff 4..6): the rest of block 5 loses it.
        let col: Vec<u32> = c.house_cells(9 + 4).to_vec();
        only(&mut c, 2, &col, &[at(4, 5), at(6, 5)]);
        assert!(apply(&mut c, &mut rec));
        for r in 4..=6 {
            for col in [4, 6] {
                assert_eq!(
                    c.cand[at(r, col) as usize] & m(&[2]),
                    SymbolSet::EMPTY,
                    "({r},{col})"
                );
            }
        }
        let s = rec
            .log
            .iter()
            .find(|s| s.technique == Technique::Claiming)
            .expect("a claim");
        assert_eq!(s.houses, vec![House::Col(4), House::Block(4)]);
        assert_eq!(s.eliminations.len(), 6);
    }

    #[test]
    fn sixteen_by_sixteen_claiming_from_a_row() {
        let mut c = Candidates::new(crate::Shape::new(4).unwrap());
        c.load(&[0; 256]);
        let mut rec = Recorder::default();
        rec.reset(false);
        // Row 6 (index 5) has symbol 11 only in columns 8..12 (block 6, index 5 is rows
        // 4..8 × columns 4..8; columns 8..12 of rows 4..8 is block index 6).
        let row: Vec<u32> = c.house_cells(5).to_vec();
        let keep: Vec<u32> = (8..12).map(|col| 5 * 16 + col).collect();
        only(&mut c, 11, &row, &keep);
        assert!(apply(&mut c, &mut rec));
        for r in [4, 6, 7] {
            for col in 8..12 {
                assert_eq!(c.cand[r * 16 + col] & m(&[11]), SymbolSet::EMPTY);
            }
        }
        assert_ne!(c.cand[4 * 16 + 7] & m(&[11]), SymbolSet::EMPTY);
        assert_eq!(rec.counts[2], 1);
        assert_eq!(rec.removed[2], 12);
    }

    #[test]
    fn a_single_cell_is_a_hidden_single_not_locked_candidates() {
        // In block 1, shift 4 fits only staff 2 / day 1, and on staff 2's row only there too
        // (claiming), and on day 1 only there (claiming by column): a hidden single, which
        // level 2 places. Level 3 removes nothing, though staff 2 / day 4 and staff 3 / day 1
        // still hold shift 4.
        let (mut c, mut rec) = blank9();
        let block: Vec<u32> = c.house_cells(18).to_vec();
        only(&mut c, 4, &block, &[at(2, 1)]);
        assert!(!apply(&mut c, &mut rec));
        assert_ne!(c.cand[at(2, 4) as usize] & m(&[4]), SymbolSet::EMPTY);
        assert_ne!(c.cand[at(4, 1) as usize] & m(&[4]), SymbolSet::EMPTY);
        assert!(rec.log.is_empty());
        // A second cell in the same row makes it pointing again.
        let (mut c, mut rec) = blank9();
        only(&mut c, 4, &block, &[at(2, 1), at(2, 2)]);
        assert!(apply(&mut c, &mut rec));
        assert_eq!(c.cand[at(2, 4) as usize] & m(&[4]), SymbolSet::EMPTY);
    }

    #[test]
    fn pointing_from_a_single_of_this_round_is_left_to_peer_elimination() {
        // Staff 2 / day 1 was left with shift 4 earlier in the round (a hidden single, say),
        // and staff 2 / day 3 still holds it: the pointing along staff 2's row would only
        // remove what placing the single does, so at level 3 it reports nothing.
        let (mut c, mut rec) = blank9();
        let block: Vec<u32> = c.house_cells(18).to_vec();
        only(&mut c, 4, &block, &[at(2, 1), at(2, 3)]);
        c.remove(at(2, 1), !m(&[4]));
        c.defer = true;
        assert!(!apply(&mut c, &mut rec));
        assert!(rec.log.is_empty());
        assert_ne!(c.cand[at(2, 5) as usize] & m(&[4]), SymbolSet::EMPTY);
    }

    #[test]
    fn nothing_on_a_blank_grid() {
        let (mut c, mut rec) = blank9();
        assert!(!apply(&mut c, &mut rec));
    }
}
