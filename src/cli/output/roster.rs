//! The roster CSV form: [`CsvOut`], the CSV a [`Sink`](super::Sink) in CSV form writes its
//! grids into, and the rule that a wide CSV holds one roster while a long one labels each.

use anyhow::Result;

use super::Spool;
use crate::cli::exit;
use crate::grid::Puzzle;
use crate::io::csv::{Dialect, Layout, LongWriter, Names, write_roster_as};

/// Roster CSV output: several grids are written as they come (long layout), one grid is
/// held until the end (the wide layout needs it whole).
pub(in crate::cli) struct CsvOut {
    layout: Layout,
    dialect: Dialect,
    /// Several grids may come: long CSV with a grid column (decided up front, so that the
    /// columns do not depend on how many grids a run happens to produce).
    long: Option<LongWriter<Spool>>,
    single: Option<(Puzzle, Names)>,
}

impl CsvOut {
    /// CSV output for a run that may write several grids (`several`, because `what`).
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    pub(super) fn new(
        layout: Layout,
        dialect: Dialect,
        several: bool,
        what: impl FnOnce() -> String,
    ) -> Result<CsvOut> {
        if several && layout == Layout::Wide {
            return Err(exit::usage_error(format!(
                "a wide CSV holds one roster, but {}: use --csv-shape long, which labels each \
                 grid in a leading grid column",
                what()
            )));
        }
        let long = if several {
            Some(LongWriter::with_dialect(Spool::new(), dialect)?)
        } else {
            None
        };
        Ok(CsvOut {
            layout,
            dialect,
            long,
            single: None,
        })
    }

    /// Adds a grid (or puzzle) with its label for the long layout's grid column. Every grid
    /// is checked before it is written.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn push(&mut self, label: &str, puzzle: &Puzzle, names: &Names) -> Result<()> {
        match &mut self.long {
            Some(w) => w.write(label, puzzle, names)?,
            None => {
                if self.single.is_none() {
                    self.single = Some((puzzle.clone(), names.clone()));
                }
            }
        }
        Ok(())
    }

    /// The CSV text.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn into_spool(self) -> Result<Spool> {
        if let Some(w) = self.long {
            return Ok(w.finish()?);
        }
        let mut out = Spool::new();
        if let Some((puzzle, names)) = &self.single {
            write_roster_as(&mut out, puzzle, names, self.layout, self.dialect)?;
        }
        Ok(out)
    }
}

/// Notes staff or day names that are the numbers 1 to N (or `Staff 3`, `Day 5`) in
/// another order: a roster read back without the list puts each row or column where its
/// number says, which makes another puzzle.
pub(in crate::cli) fn note_numbered_out_of_order(names: &crate::io::csv::Names) {
    use crate::io::csv::{Axis, default_number};
    for (axis, list, flag) in [
        (Axis::Staff, names.staff(), "--staff"),
        (Axis::Day, names.days(), "--days"),
    ] {
        let n = list.len();
        let mut seen = vec![false; n + 1];
        let numbers: Option<Vec<usize>> = list
            .iter()
            .map(|s| default_number(axis, s).filter(|&k| (1..=n).contains(&k)))
            .collect();
        let Some(numbers) = numbers else { continue };
        let permutation = numbers
            .iter()
            .all(|&k| !std::mem::replace(&mut seen[k], true));
        if permutation && numbers.iter().enumerate().any(|(i, &k)| k != i + 1) {
            msg!(
                "shiftgrid: note: the {axis} names are the numbers 1 to {n} in another order: \
                 read back without the list, each goes where its number says (another \
                 puzzle); read it with the list ({flag} FILE)"
            );
        }
    }
}

/// What a roster's own shift names would do read back without the list, for a note: two
/// that differ only in letter case (taken for one shift), or two that look like one name
/// misspelt (refused). `names` are the shifts the file uses.
pub(in crate::cli) fn shift_names_note(names: &[&str]) -> Option<String> {
    use crate::io::quote::Quoted;
    if let Some((a, b)) = crate::io::csv::case_twins(names) {
        return Some(format!(
            "shiftgrid: note: shifts {} and {} differ only in letter case: read back without \
             the shift list, the file takes them for one shift (and may be solved into another \
             roster); read it with the list (--shifts FILE)",
            Quoted(names[a]),
            Quoted(names[b]),
        ));
    }
    crate::io::csv::look_alike(names).map(|(a, b)| {
        format!(
            "shiftgrid: note: read back without the shift list, the file is refused: shifts {} \
             and {} look like one name misspelt; read it with the list (--shifts FILE)",
            Quoted(names[a]),
            Quoted(names[b]),
        )
    })
}

/// The notes on a roster CSV of full grids (`fill`): names that read back otherwise
/// without their lists.
pub(in crate::cli) fn note_full_roster_names(names: &Names) {
    note_numbered_out_of_order(names);
    let shifts = names.shifts();
    if !crate::io::csv::placed_by_number(crate::io::csv::Axis::Shift, shifts) {
        let list: Vec<&str> = shifts.iter().map(String::as_str).collect();
        if let Some(note) = shift_names_note(&list) {
            msg!("{note}");
        }
    }
}
