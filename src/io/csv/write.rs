//! Rosters out: one grid in either layout ([`write_roster`]), or several in one long file
//! ([`LongWriter`]). Every grid is checked before anything of it is written.

use std::io::{self, Write};

use super::Layout;
use super::errors::ExportError;
use super::names::{Names, check_name};
use crate::grid::Puzzle;

fn csv_writer<W: Write>(out: W) -> ::csv::Writer<W> {
    ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(out)
}

/// Checks that `puzzle` may be written with `names`: same shape, and valid (blanks allowed).
fn check_fit(puzzle: &Puzzle, names: &Names) -> Result<(), ExportError> {
    if puzzle.shape() != names.shape() {
        return Err(ExportError::ShapeMismatch {
            names: names.shape(),
            grid: puzzle.shape(),
        });
    }
    puzzle.check()?;
    Ok(())
}

/// Writes one puzzle or grid (a [`Grid`](crate::Grid) converts with
/// [`to_puzzle`](crate::Grid::to_puzzle)) as a roster CSV in `layout`, header included.
///
/// # Errors
/// [`ExportError::ShapeMismatch`] when `names` are for another size,
/// [`ExportError::Grid`] when the puzzle repeats a shift in a house (checked before anything
/// is written), or an I/O error from `out`.
pub fn write_roster<W: Write>(
    out: W,
    puzzle: &Puzzle,
    names: &Names,
    layout: Layout,
) -> Result<(), ExportError> {
    check_fit(puzzle, names)?;
    let mut w = csv_writer(out);
    let n = puzzle.shape().side();
    match layout {
        Layout::Wide => {
            w.write_record(std::iter::once("staff").chain(names.days.iter().map(String::as_str)))
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
    let last = puzzle.cells().len() - 1;
    for (i, &v) in puzzle.cells().iter().enumerate() {
        // Blanks are left out, except the last cell's: its row (with an empty shift) says
        // the size, which a reader would otherwise guess from the largest number used, too
        // small for a sparse roster.
        if v == 0 && i != last {
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
}

impl<W: Write> LongWriter<W> {
    /// Starts the file: writes the header.
    ///
    /// # Errors
    /// An I/O error from `out`.
    pub fn new(out: W) -> Result<LongWriter<W>, ExportError> {
        let mut csv = csv_writer(out);
        csv.write_record(["grid", "staff", "day", "shift"])
            .map_err(io::Error::from)?;
        Ok(LongWriter { csv })
    }

    /// Writes the assignments of one grid, labelled `label`.
    ///
    /// # Errors
    /// [`ExportError::Label`] for a label that fails [`check_name`], and the errors of
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
        check_fit(puzzle, names)?;
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
mod tests {
    use super::super::test_util::s2;
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn refuses_to_write_bad_grids() {
        let s = s2();
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[1] = 1;
        let p = Puzzle::new(s, cells).unwrap();
        let mut out = Vec::new();
        let e = write_roster(&mut out, &p, &Names::defaults(s), Layout::Wide).unwrap_err();
        assert!(matches!(e, ExportError::Grid(_)));
        assert!(out.is_empty());
        let e = write_roster(
            &mut out,
            &p,
            &Names::defaults(Shape::new(3).unwrap()),
            Layout::Long,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the names are for a 9x9 roster, but the grid is 4x4"
        );
    }
}
