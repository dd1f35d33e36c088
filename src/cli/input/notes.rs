//! What a roster CSV input's names say beyond its output: the labels of messages and step
//! logs, a shift the file cannot name, and an order of rows and columns that sets the
//! blocks.

use super::names::names_flag;
use super::{Item, Loaded};
use crate::grade::Labels;
use crate::io::csv::{Axis, CsvErrorKind, CustomNames, Roster, placed_by_number};

/// What to add to a roster CSV's error: the flag that gives the name list it asks for, or
/// for a header of one or two fields (no roster's: `quizzes,solutions` above a list of
/// puzzles, say), how to read a list of puzzles.
pub(super) fn csv_hint(kind: &CsvErrorKind, custom: &CustomNames) -> String {
    match kind {
        CsvErrorKind::Unknown { axis, .. } if custom.get(*axis).is_none() => format!(
            " (other {axis} names need a name file: {} FILE)",
            names_flag(*axis)
        ),
        CsvErrorKind::OwnShifts { .. } | CsvErrorKind::LookAlikeShifts { .. } => {
            " (--shifts FILE)".to_string()
        }
        // The library says "a name list"; here is how to give one.
        CsvErrorKind::OwnCount { axis, .. }
        | CsvErrorKind::OwnCountListed { axis, .. }
        | CsvErrorKind::Unordered { axis, .. }
        | CsvErrorKind::OrderDiffers { axis, .. }
        | CsvErrorKind::Stray { axis, .. } => format!(" ({} FILE)", names_flag(*axis)),
        CsvErrorKind::Header { fields } if *fields <= 2 => {
            " (if this is a list of puzzles, take this header line away and read the rest with \
             --input-format line)"
                .to_string()
        }
        _ => String::new(),
    }
}

/// For rosters (of file `name`) read without a shift list that name all their shifts but
/// the last, which no cell holds (a unique puzzle may leave one out of its givens): the
/// note that it is written `Shift N`. `None` when a cell holds it, by its default name or
/// number (as `solve` writes such a roster), or the shifts are numbers or default names.
pub(super) fn unnamed_shift(name: &str, rosters: &[Roster]) -> Option<String> {
    let shifts = rosters.first()?.names.shifts();
    let n = shifts.len();
    let by_default = |k: usize| shifts[k] == format!("Shift {}", k + 1);
    let held = rosters
        .iter()
        .any(|r| r.puzzle.cells().iter().any(|&v| usize::from(v) == n));
    if n < 2 || held || !by_default(n - 1) || placed_by_number(Axis::Shift, &shifts[..n - 1]) {
        return None;
    }
    Some(format!(
        "shiftgrid: note: {name} names {} of its {n} shifts (the last is in no given cell), \
         so the last is written \"Shift {n}\": to name it, give all {n} in a shift list \
         (--shifts FILE)",
        n - 1
    ))
}

impl Loaded {
    /// For a roster CSV: its staff, day and shift names, for messages and step logs.
    /// `None` when the roster uses the default names (the step text then reads as for text
    /// input: "staff 4 / day 7"). For a 16x16 or 25x25 text puzzle read in a letter
    /// alphabet, its shifts in the alphabet's characters, as the puzzle and its solution
    /// are written ("shift C", not "shift 3" for the cell that shows `C`).
    pub(in crate::cli) fn labels(&self, item: &Item) -> Option<Labels> {
        let Some((_, names)) = item.roster.as_ref() else {
            let shifts = self.alphabet.symbol_names(item.puzzle.shape().side())?;
            return Some(Labels {
                staff: Vec::new(),
                days: Vec::new(),
                shifts,
            });
        };
        // Default staff and days, and default shifts or shifts written as their numbers
        // (which hints name "shift 3" either way), need no labels.
        // (Names written as numbers, `3`, or in another case, `staff 3`, are placed by
        // number: "staff 3" says it best.)
        if [Axis::Staff, Axis::Day, Axis::Shift]
            .into_iter()
            .all(|axis| placed_by_number(axis, names.get(axis)))
        {
            return None;
        }
        Some(Labels {
            staff: names.staff().to_vec(),
            days: names.days().to_vec(),
            shifts: names.shifts().to_vec(),
        })
    }

    /// The note of [`unnamed_shift`], for a command whose output shows shift names (a
    /// solved roster, hints).
    pub(in crate::cli) fn shift_note(&self) -> Option<&str> {
        self.shift_note.as_deref()
    }

    /// For a roster CSV whose staff or days have names of their own and no list, a note
    /// (after a puzzle with no solution or several) that the file's order sets the blocks:
    /// a file whose rows or columns were sorted is another puzzle. Default names and
    /// numbers are placed by number, whatever the file's order.
    pub(in crate::cli) fn order_note(&self, custom: &CustomNames) -> Option<String> {
        let (_, names) = self.rosters_meta.first()?;
        let own =
            |axis: Axis| custom.get(axis).is_none() && !placed_by_number(axis, names.get(axis));
        let which = match (own(Axis::Staff), own(Axis::Day)) {
            (true, true) => "staff and days",
            (true, false) => "staff",
            (false, true) => "days",
            (false, false) => return None,
        };
        let b = names.shape().box_size();
        Some(format!(
            "shiftgrid: note: {}'s {which} are taken in the file's order, which sets the \
             blocks (the first {b} staff by the first {b} days are the first): if its rows or \
             columns were sorted or moved, restore their order, or give name lists (--staff \
             FILE, --days FILE) in the roster's order",
            self.name
        ))
    }
}
