//! The step log: what each deduction used and removed, and how it reads in roster terms.
//!
//! A *deduction* is one instance of a technique that removed at least one candidate (one
//! hidden single, one naked pair, one X-Wing, …). The grader always counts deductions per
//! level; it builds a [`Step`] for each only when asked (`GradeOptions::explain`), so the
//! fast path never allocates for the log. [`Recorder`] is the part that does both.
//!
//! Display is in roster terms: a row is a staff member, a column a day, a symbol a shift,
//! and a cell "staff 4 / day 7".

use std::fmt;

use crate::cells::SymbolSet;
use crate::grid::{House, Pos};

use super::candidates::Candidates;
use super::techniques::{MAX_LEVEL, Says, Technique};

/// One candidate removed: `symbol` can no longer go at `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elimination {
    /// The cell.
    pub pos: Pos,
    /// The symbol removed from its candidates.
    pub symbol: u8,
}

/// A cell a step leaves with a single candidate; it is placed at the end of the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The cell.
    pub pos: Pos,
    /// Its last candidate.
    pub symbol: u8,
}

/// One deduction in the step log.
///
/// `step` is the round it belongs to: the value the step count `S` takes when that round
/// ends (several deductions share a round). The pattern is described by `houses`, `cells`
/// and `symbols`; what it removed is in `eliminations`, and any cell it leaves with one
/// candidate is in `places`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The round, `1..=S`.
    pub step: u32,
    /// The level `L` the grader was at.
    pub level: u8,
    /// What was applied.
    pub technique: Technique,
    /// The houses of the pattern: for peer elimination, the houses that hold the removed
    /// symbols; for a fish, the base lines then the cover lines; for an XY-Wing, the houses
    /// joining the pivot to each pincer.
    pub houses: Vec<House>,
    /// The cells of the pattern (for an XY-Wing: pivot, then the two pincers).
    pub cells: Vec<Pos>,
    /// The symbols of the pattern, increasing; for an XY-Wing, the pivot's two increasing,
    /// then the one removed.
    pub symbols: Vec<u8>,
    /// Every candidate removed, by cell in reading order then symbol.
    pub eliminations: Vec<Elimination>,
    /// Cells left with one candidate by this step.
    pub places: Vec<Placement>,
}

/// Names for the rows, columns and symbols of step text: a roster's staff, days and
/// shifts. Without them (or past their end) steps say "staff 4", "day 7", "shift 3".
/// With all three complete (one name per row, column and symbol), blocks are named by
/// their staff and days; otherwise by number ("block 5").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// Row names.
    pub staff: Vec<String>,
    /// Column names.
    pub days: Vec<String>,
    /// Symbol names: `shifts[v - 1]` names symbol `v`.
    pub shifts: Vec<String>,
}

/// Words for cells, houses and symbols, from [`Labels`] or numbers.
#[derive(Clone, Copy)]
pub(crate) struct Namer<'a>(pub(crate) Option<&'a Labels>);

impl Namer<'_> {
    fn pick(list: Option<&Vec<String>>, i: usize) -> Option<&String> {
        list.and_then(|l| l.get(i))
    }

    /// "staff 4", or the staff member's name.
    pub(crate) fn staff(&self, r: usize) -> String {
        Namer::pick(self.0.map(|l| &l.staff), r).map_or(format!("staff {}", r + 1), Clone::clone)
    }

    /// "day 7", or the day's name.
    pub(crate) fn day(&self, c: usize) -> String {
        Namer::pick(self.0.map(|l| &l.days), c).map_or(format!("day {}", c + 1), Clone::clone)
    }

    /// "staff 4 / day 7".
    pub(crate) fn cell(&self, p: Pos) -> String {
        format!("{} / {}", self.staff(p.row), self.day(p.col))
    }

    /// "staff 4", "day 7", "block 5".
    pub(crate) fn house(&self, h: House) -> String {
        match h {
            House::Row(r) => self.staff(r),
            House::Col(c) => self.day(c),
            House::Block(k) => self.block(k),
        }
    }

    /// "block 5", or with a roster's names, where it is: "the block of staff Ann to Cat
    /// and days Mon to Wed" (as roster errors say it), since a spreadsheet numbers no block.
    /// Only labels that name every row, column and symbol (as many of each, a square
    /// number) name blocks so: shorter ones cannot tell the puzzle's block size.
    pub(crate) fn block(&self, k: usize) -> String {
        if let Some(l) = self.0 {
            let n = l.staff.len();
            let b = (1..=n).find(|b| b * b >= n).unwrap_or(0);
            if n > 0 && b * b == n && l.days.len() == n && l.shifts.len() == n && k < n {
                let (r, c) = (k / b * b, k % b * b);
                return format!(
                    "the block of staff {} to {} and days {} to {}",
                    l.staff[r],
                    l.staff[r + b - 1],
                    l.days[c],
                    l.days[c + b - 1]
                );
            }
        }
        format!("block {}", k + 1)
    }

    /// Shifts named by their own numbers, `1`…`N` (a roster that writes shifts as numbers),
    /// have no names of their own: they read "shift 3". A list that only partly numbers
    /// them (`1`, `2`, `3`, `5`) names them all.
    pub(crate) fn named_shift(&self, v: u8) -> Option<&String> {
        Namer::pick(
            self.0
                .filter(|l| !crate::io::csv::is_numbered(&l.shifts))
                .map(|l| &l.shifts),
            usize::from(v).wrapping_sub(1),
        )
    }

    /// "3", or the shift's name.
    pub(crate) fn bare_shift(&self, v: u8) -> String {
        self.named_shift(v).map_or(v.to_string(), Clone::clone)
    }

    /// Whether shift names are symbols, one character each (an alphabet's `A`…`P` or
    /// `0`…`F`, or a roster's `E`, `L`, `N`), which read better after the word: "gets
    /// shift C", not "gets C".
    pub(crate) fn symbolic(&self) -> bool {
        self.0.is_some_and(|l| {
            !l.shifts.is_empty() && l.shifts.iter().all(|s| s.chars().count() == 1)
        })
    }

    /// "shift 3", or the shift's name ("shift C" for a one-character name).
    pub(crate) fn shift(&self, v: u8) -> String {
        match self.named_shift(v) {
            Some(name) if self.symbolic() => format!("shift {name}"),
            Some(name) => name.clone(),
            None => format!("shift {v}"),
        }
    }

    /// "shifts 2, 5 and 9" (`last` instead of "and"), or their names ("shifts B, E and I"
    /// for one-character names).
    pub(crate) fn shifts(&self, vs: &[u8], last: &str) -> String {
        if vs.iter().all(|&v| self.named_shift(v).is_some()) && self.0.is_some() {
            let names = join_with(vs.iter().map(|&v| self.bare_shift(v)), last);
            if self.symbolic() {
                format!("{} {names}", plural(vs.len(), "shift", "shifts"))
            } else {
                names
            }
        } else {
            let word = plural(vs.len(), "shift", "shifts");
            format!("{word} {}", join_with(vs, last))
        }
    }

    /// "staff 1 and 4", or their names.
    pub(crate) fn staff_list(&self, rs: &[usize]) -> String {
        match self.0 {
            Some(l) if rs.iter().all(|&r| r < l.staff.len()) => {
                join(rs.iter().map(|&r| self.staff(r)))
            }
            _ => format!("staff {}", join(rs.iter().map(|r| r + 1))),
        }
    }

    /// "days 2 and 5", or their names.
    pub(crate) fn day_list(&self, cs: &[usize]) -> String {
        match self.0 {
            Some(l) if cs.iter().all(|&c| c < l.days.len()) => {
                join(cs.iter().map(|&c| self.day(c)))
            }
            _ => format!("days {}", join(cs.iter().map(|c| c + 1))),
        }
    }

    /// "for staff 4", "on day 7", "in block 5".
    pub(crate) fn in_house(&self, h: House) -> String {
        match h {
            House::Row(r) => format!("for {}", self.staff(r)),
            House::Col(c) => format!("on {}", self.day(c)),
            House::Block(k) => format!("in {}", self.block(k)),
        }
    }

    /// Why the rest of house `h` loses symbols that some cells of it must take: "staff 4
    /// works {it} on no other day", "no one else works {it} on day 7", "no one else in
    /// block 5 works {it}" (`it` is "it" or "them").
    pub(crate) fn nowhere_else(&self, h: House, it: &str) -> String {
        match h {
            House::Row(r) => format!("{} works {it} on no other day", self.staff(r)),
            House::Col(c) => format!("no one else works {it} on {}", self.day(c)),
            House::Block(k) => format!("no one else in {} works {it}", self.block(k)),
        }
    }
}

/// "1", "1 and 2", "1, 2 and 3" (with `or` instead of `and` when asked).
pub(crate) fn join_with<T: fmt::Display>(items: impl IntoIterator<Item = T>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        k => format!("{} {last} {}", items[..k - 1].join(", "), items[k - 1]),
    }
}

pub(crate) fn join<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    join_with(items, "and")
}

fn plural(k: usize, one: &'static str, many: &'static str) -> &'static str {
    if k == 1 { one } else { many }
}

impl Step {
    /// The step in words, with a roster's names for staff, days and shifts where given
    /// (`Display` is the same with numbers).
    pub fn named<'a>(&'a self, labels: Option<&'a Labels>) -> impl fmt::Display + 'a {
        Named(self, Namer(labels))
    }

    /// What the step removed, cells grouped by the shifts they lose: "shift 7 from staff 2 /
    /// day 1 and staff 2 / day 3; shifts 3 and 7 from staff 1 / day 8".
    fn removals(&self, nm: Namer<'_>) -> String {
        // Per cell (eliminations are sorted by cell), the symbols it lost.
        let mut per_cell: Vec<(Pos, Vec<u8>)> = Vec::new();
        for e in &self.eliminations {
            match per_cell.last_mut() {
                Some((pos, syms)) if *pos == e.pos => syms.push(e.symbol),
                _ => per_cell.push((e.pos, vec![e.symbol])),
            }
        }
        // Groups of cells losing the same symbols, in order of first appearance.
        let mut groups: Vec<(&[u8], Vec<Pos>)> = Vec::new();
        for (pos, syms) in &per_cell {
            match groups.iter_mut().find(|(s, _)| *s == syms.as_slice()) {
                Some((_, cells)) => cells.push(*pos),
                None => groups.push((syms, vec![*pos])),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|(syms, cells)| {
                format!(
                    "{} from {}",
                    nm.shifts(syms, "and"),
                    join(cells.iter().map(|&p| nm.cell(p)))
                )
            })
            .collect();
        parts.join("; ")
    }

    /// "shifts 2, 5 and 9": the symbols this step removed (from its one cell).
    pub(crate) fn shift_words(&self, nm: Namer<'_>) -> String {
        let syms: Vec<u8> = self.eliminations.iter().map(|e| e.symbol).collect();
        nm.shifts(&syms, "and")
    }

    /// "for staff 1, on day 3 and in block 1": where the removed symbols are placed.
    pub(crate) fn where_placed(&self, nm: Namer<'_>) -> String {
        join(self.houses.iter().map(|&h| nm.in_house(h)))
    }

    pub(crate) fn cells_or(&self, nm: Namer<'_>) -> String {
        join_with(self.cells.iter().map(|&p| nm.cell(p)), "or")
    }

    pub(crate) fn cell_or_origin(&self) -> Pos {
        self.cells
            .first()
            .copied()
            .unwrap_or(Pos { row: 0, col: 0 })
    }

    pub(crate) fn house(&self, i: usize) -> House {
        self.houses.get(i).copied().unwrap_or(House::Block(0))
    }

    /// "shifts 2, 5 and 9": the symbols of the pattern.
    pub(crate) fn symbol_words(&self, nm: Namer<'_>) -> String {
        nm.shifts(&self.symbols, "and")
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, nm: Namer<'_>) -> fmt::Result {
        write!(f, "step {}, level {}, ", self.step, self.level)?;
        let def = self.technique.definition();
        (def.describe)(self, f, nm)?;
        // Singles already say what they place; other steps list removals and what they left.
        let skip = match def.says {
            Says::Removals => {
                write!(f, ": removes {}", self.removals(nm))?;
                0
            }
            Says::FirstPlacement => 1,
            Says::Placements => self.places.len(),
        };
        for p in self.places.iter().skip(skip) {
            write!(f, "; {} gets {}", nm.cell(p.pos), nm.shift(p.symbol))?;
        }
        Ok(())
    }
}

/// A step shown with names.
struct Named<'a>(&'a Step, Namer<'a>);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, self.1)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Namer(None))
    }
}

/// Counts deductions and, when explaining, builds the [`Step`] for each.
///
/// A technique reports what it removed with [`Recorder::note`] and closes each deduction
/// with [`Recorder::finish`]; nothing is allocated unless `explain` is on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    /// Build [`Step`]s.
    pub(crate) explain: bool,
    /// The current round's number (`S + 1` while it runs).
    pub(crate) step: u32,
    /// The current level.
    pub(crate) level: u8,
    /// Deductions per level.
    pub(crate) counts: [u32; MAX_LEVEL as usize],
    /// Candidates removed per level.
    pub(crate) removed: [u64; MAX_LEVEL as usize],
    /// The log, when explaining.
    pub(crate) log: Vec<Step>,
    /// The open deduction's removals (explain only): cell and symbols.
    pending: Vec<(u32, SymbolSet)>,
    /// The open deduction's number of removed candidates.
    pending_count: u32,
}

impl Recorder {
    /// Clears the counts and the log for a new puzzle.
    pub(crate) fn reset(&mut self, explain: bool) {
        self.explain = explain;
        self.step = 0;
        self.level = 1;
        self.counts = [0; MAX_LEVEL as usize];
        self.removed = [0; MAX_LEVEL as usize];
        self.log = Vec::new();
        self.pending.clear();
        self.pending_count = 0;
    }

    /// Notes that `gone` was removed from `cell` in the open deduction.
    #[inline]
    pub(crate) fn note(&mut self, cell: u32, gone: SymbolSet) {
        if !gone.is_empty() {
            self.pending_count += gone.len() as u32;
            if self.explain {
                self.pending.push((cell, gone));
            }
        }
    }

    /// Closes the open deduction: counts it if it removed anything (and, when explaining,
    /// logs it with its pattern). Returns whether it removed anything.
    pub(crate) fn finish(
        &mut self,
        c: &Candidates,
        technique: Technique,
        houses: &[usize],
        cells: &[u32],
        syms: SymbolSet,
    ) -> bool {
        if self.pending_count == 0 {
            return false;
        }
        let lvl = technique.level() as usize - 1;
        self.counts[lvl] += 1;
        self.removed[lvl] += u64::from(self.pending_count);
        self.pending_count = 0;
        if self.explain {
            let mut pending = std::mem::take(&mut self.pending);
            pending.sort_unstable_by_key(|&(cell, _)| cell);
            let mut eliminations = Vec::new();
            let mut places = Vec::new();
            for (i, &(cell, gone)) in pending.iter().enumerate() {
                let pos = c.pos(cell);
                eliminations.extend(gone.iter().map(|s| Elimination {
                    pos,
                    symbol: s.get(),
                }));
                let last = pending.get(i + 1).is_none_or(|&(next, _)| next != cell);
                if let Some(left) = c.live(cell).only().filter(|_| last) {
                    places.push(Placement {
                        pos,
                        symbol: left.get(),
                    });
                }
            }
            // Merge a cell's removals, which the sort made adjacent, into symbol order.
            eliminations.sort_unstable_by_key(|e| (e.pos.row, e.pos.col, e.symbol));
            self.log.push(Step {
                step: self.step,
                level: self.level,
                technique,
                houses: houses.iter().map(|&h| c.house(h)).collect(),
                cells: cells.iter().map(|&x| c.pos(x)).collect(),
                symbols: syms.iter().map(|s| s.get()).collect(),
                eliminations,
                places,
            });
            pending.clear();
            self.pending = pending;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_shifts_read_as_shifts_and_other_lists_as_names() {
        let labels = |shifts: &[&str]| Labels {
            staff: (1..=4).map(|k| format!("S{k}")).collect(),
            days: (1..=4).map(|k| format!("D{k}")).collect(),
            shifts: shifts.iter().map(|s| s.to_string()).collect(),
        };
        // Shifts written as their numbers: "shift 3", as without names.
        let numbered = labels(&["1", "2", "3", "4"]);
        assert_eq!(Namer(Some(&numbered)).shift(3), "shift 3");
        assert_eq!(
            Namer(Some(&numbered)).shifts(&[1, 2, 4], "and"),
            "shifts 1, 2 and 4"
        );
        // A list that numbers them only in part names every one as the list does (it once
        // read "shifts 1, 2 and 4" for the names 1, 2 and 5).
        let mixed = labels(&["1", "2", "3", "5"]);
        assert_eq!(
            Namer(Some(&mixed)).shifts(&[1, 2, 4], "and"),
            "shifts 1, 2 and 5"
        );
        assert_eq!(Namer(Some(&mixed)).shift(4), "shift 5");
        let named = labels(&["A", "2", "C", "D"]);
        assert_eq!(Namer(Some(&named)).shifts(&[1, 2], "and"), "shifts A and 2");
        assert_eq!(Namer(Some(&named)).shift(3), "shift C");
        // Longer names stand alone.
        let words = labels(&["Early", "Late", "Night", "N"]);
        assert_eq!(Namer(Some(&words)).shifts(&[1, 4], "and"), "Early and N");
        assert_eq!(Namer(Some(&words)).shift(4), "N");
    }

    #[test]
    fn nowhere_else_reads_for_it_and_them() {
        let nm = Namer(None);
        // Before: "so them goes nowhere else in block 4".
        assert_eq!(
            nm.nowhere_else(House::Block(3), "them"),
            "no one else in block 4 works them"
        );
        assert_eq!(
            nm.nowhere_else(House::Row(1), "it"),
            "staff 2 works it on no other day"
        );
    }

    #[test]
    fn blocks_are_named_by_their_staff_and_days_in_a_roster() {
        let labels = Labels {
            staff: ["Ann", "Bob", "Cat", "Dan"].map(String::from).to_vec(),
            days: ["Mon", "Tue", "Wed", "Thu"].map(String::from).to_vec(),
            shifts: ["E", "L", "N", "O"].map(String::from).to_vec(),
        };
        let nm = Namer(Some(&labels));
        // Block 4 of a 4x4 roster: the last two staff by the last two days.
        assert_eq!(
            nm.house(House::Block(3)),
            "the block of staff Cat to Dan and days Wed to Thu"
        );
        assert_eq!(
            nm.in_house(House::Block(1)),
            "in the block of staff Ann to Bob and days Wed to Thu"
        );
        // Without names, or with lists that make no square or leave a kind out, blocks
        // keep their numbers.
        assert_eq!(Namer(None).house(House::Block(2)), "block 3");
        let odd = Labels {
            staff: labels.staff[..3].to_vec(),
            ..labels.clone()
        };
        assert_eq!(Namer(Some(&odd)).house(House::Block(2)), "block 3");
        let no_shifts = Labels {
            shifts: Vec::new(),
            ..labels.clone()
        };
        assert_eq!(Namer(Some(&no_shifts)).house(House::Block(2)), "block 3");
    }
}
