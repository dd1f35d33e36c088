//! The columns of a long file, told by its header: `staff`, `day` and `shift` (and `grid`),
//! or the names rostering tools give the staff and day columns.

use crate::io::csv::errors::{CsvError, CsvErrorKind, err};
use crate::io::csv::read::Row;
use crate::io::lines::quote_prefix;

/// Other names of the staff column in long files, as rostering tools and spreadsheets
/// export them (in lower case; used where no column is named `staff`).
const STAFF_COLUMNS: [&str; 5] = ["employee", "person", "worker", "name", "staff member"];

/// Other names of the day column (used where no column is named `day`).
const DAY_COLUMNS: [&str; 2] = ["date", "shift date"];

/// The columns of a long file, told by its header.
#[derive(Clone, Copy, Debug)]
pub(in crate::io::csv::read) struct Columns {
    pub(super) grid: Option<usize>,
    pub(super) staff: usize,
    pub(super) day: usize,
    pub(super) shift: usize,
}

impl Columns {
    /// The columns a header (fields in lower case) names, when it names `staff`, `day` and
    /// `shift` once each (and `grid` at most once): a long file. `None`: not a long header.
    pub(in crate::io::csv::read) fn of(head: &[&str]) -> Option<Columns> {
        let once = |name: &str| -> Option<Option<usize>> {
            let mut at = head.iter().enumerate().filter(|(_, f)| **f == name);
            match (at.next(), at.next()) {
                (Some((k, _)), None) => Some(Some(k)),
                (None, _) => Some(None),
                _ => None,
            }
        };
        // A column named as rostering tools export it (`Employee,Date,Shift`) where the
        // header has no column of our own name.
        let named = |ours: &str, others: &[&str]| -> Option<usize> {
            match once(ours)? {
                Some(k) => Some(k),
                None => {
                    let mut found = others.iter().filter_map(|name| once(name)).flatten();
                    match (found.next(), found.next()) {
                        (Some(k), None) => Some(k),
                        _ => None,
                    }
                }
            }
        };
        Some(Columns {
            grid: once("grid")?,
            staff: named("staff", &STAFF_COLUMNS)?,
            day: named("day", &DAY_COLUMNS)?,
            shift: once("shift")??,
        })
    }

    /// The fields a row needs: up to the last named column.
    pub(super) fn width(&self) -> usize {
        [
            Some(self.staff),
            Some(self.day),
            Some(self.shift),
            self.grid,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0)
            + 1
    }
}

impl Columns {
    /// The error for a row with data under a column the header leaves unnamed between
    /// named ones, when the row ends before a named column (`Ann,Mon,Early` under
    /// `staff,day,,shift`): its fields may be out of place, and padding would read the
    /// shift as blank, so it is refused rather than guessed (a note there needs its row's
    /// later fields, or a name for its column). An unnamed first column is an index, as
    /// pandas writes, and is fine.
    pub(in crate::io::csv::read) fn out_of_place(
        &self,
        header: &Row,
        header_width: usize,
        row: &Row,
    ) -> Option<CsvError> {
        let short = row.fields.len();
        if short >= self.width() {
            return None;
        }
        let first_named = header.fields.iter().position(|f| !f.is_empty())?;
        let k = (first_named + 1..short.min(header_width))
            .find(|&k| header.fields[k].is_empty() && !row.fields[k].is_empty())?;
        let missing = (short..self.width())
            .find(|&c| !header.fields.get(c).is_none_or(String::is_empty))
            .unwrap_or(short);
        let kind = CsvErrorKind::UnnamedColumn {
            value: quote_prefix(&row.fields[k]),
            column: header.fields.get(missing).cloned().unwrap_or_default(),
            field: missing + 1,
        };
        Some(err(row.line, Some(k + 1), kind))
    }
}
