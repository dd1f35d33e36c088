//! Rosters out: one grid in either layout ([`write_roster`]), or several in one long file
//! ([`LongWriter`]). Every grid is checked before anything of it is written.

use std::io::{self, Write};

use super::errors::ExportError;
use super::names::{Axis, Names, check_name};
use super::read::default_index;
use super::{Delimiter, Dialect, Layout};
use crate::grid::Puzzle;

/// A writer in `dialect` (its delimiter and line ends; the byte-order mark is the caller's)
/// quoting fields where needed, or every field when `quote_all`.
fn csv_writer<W: Write>(out: W, quote_all: bool, dialect: Dialect) -> ::csv::Writer<W> {
    ::csv::WriterBuilder::new()
        .delimiter(dialect.delimiter.byte())
        .terminator(if dialect.crlf {
            ::csv::Terminator::CRLF
        } else {
            ::csv::Terminator::Any(b'\n')
        })
        .quote_style(if quote_all {
            ::csv::QuoteStyle::Always
        } else {
            ::csv::QuoteStyle::Necessary
        })
        .from_writer(out)
}

/// Writes the byte-order mark, when `dialect` has one, at the start of `out`.
fn start<W: Write>(mut out: W, dialect: Dialect) -> io::Result<W> {
    if dialect.bom {
        out.write_all("\u{feff}".as_bytes())?;
    }
    Ok(out)
}

/// Whether a roster's fields are all quoted: in a wide file whose header (day names or its
/// first cell) holds one of the other delimiters, which it would otherwise show outside
/// quotes, so that a reader guessing the delimiter from the header (shiftgrid's, or a
/// spreadsheet's) could take that one.
fn quote_all(names: &Names, layout: Layout, delimiter: Delimiter) -> bool {
    let other = |s: &str| {
        Delimiter::ALL
            .iter()
            .any(|&d| d != delimiter && s.as_bytes().contains(&d.byte()))
    };
    layout == Layout::Wide && (names.days.iter().any(|d| other(d)) || other(&names.corner))
}

/// Checks that `puzzle` may be written with `names` in `layout` (with a `grid` column of
/// `label` in a long file): same shape, valid (blanks allowed), and no row longer than a
/// line may be when it is read back.
fn check_fit(
    puzzle: &Puzzle,
    names: &Names,
    layout: Layout,
    label: Option<&str>,
    dialect: Dialect,
) -> Result<(), ExportError> {
    if puzzle.shape() != names.shape() {
        return Err(ExportError::ShapeMismatch {
            names: names.shape(),
            grid: puzzle.shape(),
        });
    }
    puzzle.check()?;
    check_row_lengths(puzzle, names, layout, label, dialect)
}

/// The bytes `field` takes in a row, quoting included, as [`csv_writer`] writes it.
fn field_len(field: &str, quote_all: bool, delimiter: Delimiter) -> usize {
    if field.is_empty() {
        // Within a row, an empty field is nothing (or `""`); a record of one empty field
        // alone would be written `""` either way.
        return if quote_all { 2 } else { 0 };
    }
    let dialect = Dialect::with_delimiter(delimiter);
    let mut w = csv_writer(Vec::with_capacity(field.len() + 3), quote_all, dialect);
    // Writing into memory does not fail; were it to, count the worst quoting instead.
    let worst = 2 * field.len() + 2;
    if w.write_record([field]).is_err() {
        return worst;
    }
    // The record and its line feed.
    w.into_inner().map_or(worst, |bytes| bytes.len() - 1)
}

/// Which cells of a roster the long layout writes a row for.
struct LongRows {
    n: usize,
    last: usize,
    /// The staff and days are `Staff 1`…, `Day 1`… in order, which a reader places by
    /// number.
    numbered: bool,
    /// Not numbered, but some staff or day name could pass for a number (`1`, `Day 5`):
    /// every cell has a row, which tells a reader the names are the roster's own.
    every_cell: bool,
}

impl LongRows {
    fn new(puzzle: &Puzzle, names: &Names) -> LongRows {
        let numbered = |axis: Axis, list: &[String]| {
            list.iter()
                .enumerate()
                .all(|(k, name)| default_index(axis, name) == Some(k + 1))
        };
        let numbered = numbered(Axis::Staff, names.staff()) && numbered(Axis::Day, names.days());
        let looks_numbered = |axis: Axis, list: &[String]| {
            list.iter().any(|name| default_index(axis, name).is_some())
        };
        LongRows {
            n: puzzle.shape().side(),
            last: puzzle.cells().len() - 1,
            numbered,
            every_cell: !numbered
                && (looks_numbered(Axis::Staff, names.staff())
                    || looks_numbered(Axis::Day, names.days())),
        }
    }

    /// Whether cell `i`, holding `v`, has a row: every shift given; of the blanks (written
    /// with an empty shift), the last cell's, which tells the size (a reader would
    /// otherwise guess it from the largest number used, too small for a sparse roster);
    /// and with names of the roster's own, the first staff member's and the first day's,
    /// so that the file names every staff member and day in order (a reader places such
    /// names in the order the file gives), or every blank when some of those names could
    /// pass for numbers.
    fn has(&self, i: usize, v: u8) -> bool {
        v != 0
            || i == self.last
            || self.every_cell
            || (!self.numbered && (i < self.n || i % self.n == 0))
    }
}

/// [`ExportError::RowTooLong`] for the first row of `puzzle` in `layout` that would not
/// read back, each row's length counted from its fields (names are measured once).
fn check_row_lengths(
    puzzle: &Puzzle,
    names: &Names,
    layout: Layout,
    label: Option<&str>,
    dialect: Dialect,
) -> Result<(), ExportError> {
    use crate::io::lines::MAX_LINE;
    let n = puzzle.shape().side();
    let all = quote_all(names, layout, dialect.delimiter);
    // A line is read without its line feed but with the carriage return before it, and
    // the first with the byte-order mark.
    let cr = usize::from(dialect.crlf);
    let bom = if dialect.bom { 3 } else { 0 };
    let field_len = |f: &str| field_len(f, all, dialect.delimiter);
    let shift_len: Vec<usize> = (0..=n)
        .map(|v| field_len(names.shift_text(v as u8)))
        .collect();
    let too_long = |what: String, bytes: usize| ExportError::RowTooLong {
        what,
        bytes,
        limit: MAX_LINE,
    };
    match layout {
        Layout::Wide => {
            // Fields, a delimiter between each two, no line feed (the reader's limit
            // counts the line without it).
            let header = field_len(&names.corner)
                + n
                + cr
                + bom
                + names.days.iter().map(|d| field_len(d)).sum::<usize>();
            if header > MAX_LINE {
                return Err(too_long("the header".into(), header));
            }
            for (r, row) in puzzle.cells().chunks(n).enumerate() {
                let staff = &names.staff[r];
                let len = field_len(staff)
                    + n
                    + cr
                    + row
                        .iter()
                        .map(|&v| shift_len[usize::from(v)])
                        .sum::<usize>();
                if len > MAX_LINE {
                    let who = crate::io::lines::quote_prefix(staff);
                    return Err(too_long(format!("staff \"{who}\""), len));
                }
            }
        }
        Layout::Long => {
            // The rows written: one per shift given, and the last cell's.
            let label_len = label.map_or(0, |l| field_len(l) + 1);
            let staff_len: Vec<usize> = names.staff.iter().map(|s| field_len(s)).collect();
            let day_len: Vec<usize> = names.days.iter().map(|d| field_len(d)).collect();
            let written = LongRows::new(puzzle, names);
            for (i, &v) in puzzle.cells().iter().enumerate() {
                if !written.has(i, v) {
                    continue;
                }
                let len = label_len
                    + staff_len[i / n]
                    + day_len[i % n]
                    + shift_len[usize::from(v)]
                    + 2
                    + cr;
                if len > MAX_LINE {
                    let who = crate::io::lines::quote_prefix(&names.staff[i / n]);
                    let day = crate::io::lines::quote_prefix(&names.days[i % n]);
                    return Err(too_long(format!("staff \"{who}\" on \"{day}\""), len));
                }
            }
        }
    }
    Ok(())
}

/// Writes one puzzle or grid (a [`Grid`](crate::Grid) converts with
/// [`to_puzzle`](crate::Grid::to_puzzle)) as a roster CSV in `layout`, header included.
///
/// # Errors
/// [`ExportError::ShapeMismatch`] when `names` are for another size,
/// [`ExportError::Grid`] when the puzzle repeats a shift in a house, and
/// [`ExportError::RowTooLong`] when a row would be longer than a line may be when read back
/// (both checked before anything is written), or an I/O error from `out`.
pub fn write_roster<W: Write>(
    out: W,
    puzzle: &Puzzle,
    names: &Names,
    layout: Layout,
) -> Result<(), ExportError> {
    write_roster_as(out, puzzle, names, layout, Dialect::default())
}

/// [`write_roster`] in `dialect`: its delimiter, line ends and byte-order mark (a roster
/// read from a spreadsheet's file goes back as [`Roster::dialect`](super::Roster::dialect)
/// says it came).
///
/// ```
/// use shiftgrid::io::csv::{read_rosters, write_roster_as, CustomNames, Delimiter, Dialect, Layout};
/// let file = "\u{feff}staff;Mon;Tue;Wed;Thu\r\nAnn;1;;;\r\nBob;;;;\r\nCy;;;;\r\nDee;;;;4\r\n";
/// let roster = &read_rosters(file.as_bytes(), &CustomNames::default())?[0];
/// let dialect = roster.dialect;
/// assert_eq!(dialect, Dialect { delimiter: Delimiter::Semicolon, crlf: true, bom: true });
/// let mut out = Vec::new();
/// write_roster_as(&mut out, &roster.puzzle, &roster.names, Layout::Wide, dialect)?;
/// // Shifts written as numbers stay numbers.
/// assert!(String::from_utf8(out)?.starts_with("\u{feff}staff;Mon;Tue;Wed;Thu\r\nAnn;1;;;\r\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`write_roster`].
pub fn write_roster_as<W: Write>(
    out: W,
    puzzle: &Puzzle,
    names: &Names,
    layout: Layout,
    dialect: Dialect,
) -> Result<(), ExportError> {
    check_fit(puzzle, names, layout, None, dialect)?;
    let out = start(out, dialect)?;
    let mut w = csv_writer(out, quote_all(names, layout, dialect.delimiter), dialect);
    let n = puzzle.shape().side();
    match layout {
        Layout::Wide => {
            w.write_record(
                std::iter::once(names.corner.as_str()).chain(names.days.iter().map(String::as_str)),
            )
            .map_err(io::Error::from)?;
            for (r, row) in puzzle.cells().chunks(n).enumerate() {
                let fields = std::iter::once(names.staff[r].as_str())
                    .chain(row.iter().map(|&v| names.shift_text(v)));
                w.write_record(fields).map_err(io::Error::from)?;
            }
        }
        Layout::Long => {
            w.write_record(["staff", "day", "shift"])
                .map_err(io::Error::from)?;
            write_long_rows(&mut w, None, puzzle, names)?;
        }
    }
    w.flush()?;
    Ok(())
}

fn write_long_rows<W: Write>(
    w: &mut ::csv::Writer<W>,
    label: Option<&str>,
    puzzle: &Puzzle,
    names: &Names,
) -> Result<(), ExportError> {
    let n = puzzle.shape().side();
    let written = LongRows::new(puzzle, names);
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if !written.has(i, v) {
            continue;
        }
        let (staff, day, shift) = (
            names.staff[i / n].as_str(),
            names.days[i % n].as_str(),
            names.shift_text(v),
        );
        match label {
            Some(l) => w.write_record([l, staff, day, shift]),
            None => w.write_record([staff, day, shift]),
        }
        .map_err(io::Error::from)?;
    }
    Ok(())
}

/// Writes several grids into one long CSV, `grid,staff,day,shift`, where the `grid` column
/// holds each grid's label. Grids may differ in size and names.
///
/// ```
/// use shiftgrid::io::csv::{LongWriter, Names};
/// use shiftgrid::{Puzzle, Shape};
///
/// let s = Shape::new(2)?;
/// let mut w = LongWriter::new(Vec::new())?;
/// w.write("1", &Puzzle::new(s, [[1, 0, 0, 0], [0; 4], [0; 4], [0; 4]].concat())?, &Names::defaults(s))?;
/// w.write("2", &Puzzle::new(s, [[0, 2, 0, 0], [0; 4], [0; 4], [0; 4]].concat())?, &Names::defaults(s))?;
/// let text = String::from_utf8(w.finish()?)?;
/// // A blank last cell is written with an empty shift: it tells the size.
/// assert_eq!(
///     text,
///     "grid,staff,day,shift\n1,Staff 1,Day 1,Shift 1\n1,Staff 4,Day 4,\n\
///      2,Staff 1,Day 2,Shift 2\n2,Staff 4,Day 4,\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LongWriter<W: Write> {
    csv: ::csv::Writer<W>,
    dialect: Dialect,
    /// The labels written so far.
    labels: std::collections::HashSet<String>,
}

impl<W: Write> LongWriter<W> {
    /// Starts the file: writes the header.
    ///
    /// # Errors
    /// An I/O error from `out`.
    pub fn new(out: W) -> Result<LongWriter<W>, ExportError> {
        LongWriter::with_dialect(out, Dialect::default())
    }

    /// Starts the file in `dialect` (see [`write_roster_as`]): writes the header.
    ///
    /// # Errors
    /// An I/O error from `out`.
    pub fn with_dialect(out: W, dialect: Dialect) -> Result<LongWriter<W>, ExportError> {
        let out = start(out, dialect)?;
        let mut csv = csv_writer(out, false, dialect);
        csv.write_record(["grid", "staff", "day", "shift"])
            .map_err(io::Error::from)?;
        Ok(LongWriter {
            csv,
            dialect,
            labels: std::collections::HashSet::new(),
        })
    }

    /// Writes the assignments of one grid, labelled `label`.
    ///
    /// # Errors
    /// [`ExportError::Label`] for a label that fails [`check_name`],
    /// [`ExportError::RepeatedLabel`] for one this file already holds, and the errors of
    /// [`write_roster`]. Nothing of this grid is written on an error found before writing.
    pub fn write(
        &mut self,
        label: &str,
        puzzle: &Puzzle,
        names: &Names,
    ) -> Result<(), ExportError> {
        check_name(label).map_err(|problem| ExportError::Label {
            label: label.to_string(),
            problem,
        })?;
        if self.labels.contains(label) {
            return Err(ExportError::RepeatedLabel(label.to_string()));
        }
        check_fit(puzzle, names, Layout::Long, Some(label), self.dialect)?;
        self.labels.insert(label.to_string());
        write_long_rows(&mut self.csv, Some(label), puzzle, names)
    }

    /// Flushes and gives back the writer.
    ///
    /// # Errors
    /// An I/O error from flushing.
    pub fn finish(self) -> Result<W, ExportError> {
        self.csv
            .into_inner()
            .map_err(|e| ExportError::Io(e.into_error()))
    }
}

#[cfg(test)]
mod tests;
