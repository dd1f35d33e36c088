//! Rosters as CSV: grids and puzzles written for spreadsheets and rostering tools, and roster
//! CSVs read back as puzzles to complete.
//!
//! A roster names its three axes: the rows are **staff**, the columns are **days** and the
//! symbols are **shifts**. [`Names`] holds one name per staff member, day and shift; by default
//! `Staff 1…N`, `Day 1…N` and `Shift 1…N`, and otherwise from [`NameList`]s (one name per line,
//! see [`NameList::parse`]).
//!
//! # Layouts
//!
//! - [`Layout::Wide`], what people read: a header `staff,<day 1>,…,<day N>`, then one row per
//!   staff member, `<staff>,<shift>,…,<shift>`, with an empty cell for a blank.
//! - [`Layout::Long`], what rostering tools import: a header `staff,day,shift`, then one row per
//!   assignment, blank cells left out. [`LongWriter`] puts several grids in one file by adding
//!   a leading `grid` column (`grid,staff,day,shift`) that labels each row's grid. A wide file
//!   holds exactly one grid, because CSV has no way to separate tables that every reader
//!   understands.
//!
//! Records end with `\n`; fields are quoted only where CSV needs it (a comma, quote or line
//! break), by the `csv` crate.
//!
//! # Reading (roster completion)
//!
//! [`read_rosters`] takes a wide or long CSV with some shifts filled in and the rest blank and
//! gives the puzzles. The layout is told by the header: `staff,day,shift`, or
//! `grid,staff,day,shift`, in any letter case, is long; anything else is wide (its first
//! header cell is a label and is not read). The delimiter is the one of `,`, `;` and tab that
//! occurs most often in the first line (outside quotes), so spreadsheets that save with `;`
//! are read too. Fields are trimmed, a leading byte-order mark is skipped, rows whose fields
//! are all empty are skipped (spreadsheets write them for blank rows), and so are empty
//! fields past the end of the header.
//!
//! - **Names.** Shifts are matched against the shift name list when one is given; otherwise
//!   against the default names, where `Shift 3`, `shift 3` and the plain number `3` all mean
//!   shift 3 (numbers are accepted only with default names, so that a typo in a custom roster
//!   is never read as a number). In a wide file, the staff and day names are the file's own
//!   first column and header, in the file's order, unless a list is given: then rows and
//!   columns are matched to the list by name and may come in any order. In a long file, staff
//!   and days are matched against their lists, or taken by number as shifts are.
//! - **Size.** A wide file has `N` day columns and `N` staff rows. A long file's `N` is the
//!   length of the name lists when any is given, and otherwise the smallest supported side
//!   that holds the largest staff, day or shift number used.
//! - **Errors.** The first problem stops reading, with its 1-based line and, where one
//!   field is to blame, its 1-based field number ([`CsvError`]): unknown or repeated names,
//!   rows of the wrong width, the wrong number of staff rows, an unsupported size, a shift
//!   given twice in one staff row, day or block.
//!
//! # Spreadsheet formula injection
//!
//! Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` as a formula (tab and carriage
//! return lead to the same in some), so a name such as `=HYPERLINK(…)` in a CSV can run code or
//! leak data when the file is opened. Instead of mangling such names with a quote, every name
//! and grid label is checked by [`check_name`] when it enters (from a name list, from a CSV
//! being read, or from code), and refused with a clear error. Every other cell shiftgrid
//! writes is a header word, a shift name or empty, so anything written is safe to open.
//!
//! ```
//! use shiftgrid::io::csv::{CustomNames, Layout, NameList, Names, read_rosters, write_roster};
//! use shiftgrid::{Puzzle, Shape};
//!
//! let shape = Shape::new(2)?;
//! let puzzle = Puzzle::new(shape, vec![1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1])?;
//! let custom = CustomNames {
//!     shifts: Some(NameList::parse("shifts.txt", b"Early\nLate\nNight\nOff\n")?),
//!     ..CustomNames::default()
//! };
//! let names = Names::new(shape, &custom)?;
//!
//! let mut wide = Vec::new();
//! write_roster(&mut wide, &puzzle, &names, Layout::Wide)?;
//! assert_eq!(
//!     String::from_utf8(wide.clone())?,
//!     "staff,Day 1,Day 2,Day 3,Day 4\n\
//!      Staff 1,Early,,,Off\n\
//!      Staff 2,,,Early,\n\
//!      Staff 3,,Early,,\n\
//!      Staff 4,Off,,,Early\n"
//! );
//!
//! let mut long = Vec::new();
//! write_roster(&mut long, &puzzle, &names, Layout::Long)?;
//! assert!(String::from_utf8(long.clone())?.starts_with("staff,day,shift\nStaff 1,Day 1,Early\n"));
//!
//! // Both read back as the same puzzle with the same names.
//! for bytes in [&wide, &long] {
//!     let rosters = read_rosters(bytes, &custom)?;
//!     assert_eq!(rosters[0].puzzle, puzzle);
//!     assert_eq!(rosters[0].names, names);
//! }
//!
//! // A formula-like name is refused where it enters.
//! let err = NameList::parse("staff.txt", b"Ann\n=1+1\n").unwrap_err();
//! assert!(err.to_string().starts_with("staff.txt:2:1: name \"=1+1\" starts with '='"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::{self, BufRead, Write};

use super::lines::{LineError, LineReader, quote_prefix};

use crate::grid::{GridError, House, MAX_BOX, Puzzle, SUPPORTED_SIZES, Shape, ShapeError};

/// The largest supported side (100).
const MAX_SIDE: usize = MAX_BOX * MAX_BOX;

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 4] = ['=', '+', '-', '@'];

/// One of the three things a roster names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Staff members: the rows.
    Staff,
    /// Days: the columns.
    Day,
    /// Shifts: the symbols.
    Shift,
}

impl Axis {
    /// The word of the default names (`Staff 3`, `Day 3`, `Shift 3`).
    fn word(self) -> &'static str {
        match self {
            Axis::Staff => "Staff",
            Axis::Day => "Day",
            Axis::Shift => "Shift",
        }
    }

    /// The plural, for counts.
    fn plural(self) -> &'static str {
        match self {
            Axis::Staff => "staff",
            Axis::Day => "days",
            Axis::Shift => "shifts",
        }
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axis::Staff => "staff",
            Axis::Day => "day",
            Axis::Shift => "shift",
        })
    }
}

/// The two CSV layouts of a roster (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// A header `staff,<day 1>,…,<day N>` and one row per staff member.
    #[default]
    Wide,
    /// A header `staff,day,shift` and one row per assignment.
    Long,
}

/// Why a name (or grid label) cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameProblem {
    /// Nothing but whitespace.
    #[error("is empty")]
    Empty,
    /// Whitespace at either end (names are stored trimmed).
    #[error("has whitespace at its start or end")]
    Untrimmed,
    /// It starts with a character that spreadsheets read as the start of a formula.
    #[error("starts with {0:?}, which spreadsheets run as a formula (CSV injection): rename it")]
    FormulaLike(char),
    /// It holds a control character (tab, carriage return, line feed, NUL, …).
    #[error("holds the control character U+{:04X}", u32::from(*.0))]
    Control(char),
}

/// Checks that `name` can be a staff, day or shift name or a grid label: not empty, trimmed,
/// not starting with `=`, `+`, `-` or `@` (which spreadsheets run as formulas), and free of
/// control characters (tab and carriage return start formulas in some spreadsheets too).
///
/// Every name that [`Names`] holds has passed this check.
///
/// # Errors
/// The first problem found.
///
/// ```
/// use shiftgrid::io::csv::{NameProblem, check_name};
/// assert_eq!(check_name("Early"), Ok(()));
/// assert_eq!(check_name("@SUM(A1)"), Err(NameProblem::FormulaLike('@')));
/// assert_eq!(check_name("a\tb"), Err(NameProblem::Control('\t')));
/// ```
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    if name.trim().is_empty() {
        return Err(NameProblem::Empty);
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(NameProblem::Control(c));
    }
    if name.trim() != name {
        return Err(NameProblem::Untrimmed);
    }
    match name.chars().next() {
        Some(c) if FORMULA_STARTS.contains(&c) => Err(NameProblem::FormulaLike(c)),
        _ => Ok(()),
    }
}

/// A problem with a list of names, with where it is.
///
/// Displays as `source:line:col: message`, or `source: message` when it concerns the whole
/// list (`line` is then 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", location(file, *line, *col))]
pub struct NamesError {
    /// Where the list came from: a file name, or the label given to [`NameList::new`].
    pub file: String,
    /// The line, 1-based; 0 when the error is about the list as a whole.
    pub line: usize,
    /// The column, 1-based, counted in characters.
    pub col: usize,
    /// What is wrong.
    pub kind: NamesErrorKind,
}

fn location(file: &str, line: usize, col: usize) -> String {
    if line == 0 {
        format!("{file}: ")
    } else {
        format!("{file}:{line}:{col}: ")
    }
}

/// What is wrong with a list of names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NamesErrorKind {
    /// The file is not UTF-8 text, or has a line too long to be a name.
    #[error("not UTF-8 text: {reason}")]
    NotText {
        /// What was found.
        reason: String,
    },
    /// A name that cannot be used.
    #[error("name {name:?} {problem}")]
    Bad {
        /// The name as written (trimmed).
        name: String,
        /// Why not.
        problem: NameProblem,
    },
    /// A line longer than any name (see [`crate::io::lines::MAX_LINE`]).
    #[error("line is longer than {} MiB ({limit} bytes): not a name file", limit >> 20)]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// More names than the largest roster has.
    #[error("more than {limit} names: the largest roster (100x100) has {limit} of each")]
    TooMany {
        /// The most names a list may hold.
        limit: usize,
    },
    /// The same name twice.
    #[error("name {name:?} is repeated (first on line {first_line}); names must be unique")]
    Duplicate {
        /// The name.
        name: String,
        /// Where it first appears.
        first_line: usize,
    },
    /// The list does not have one name per staff member, day or shift of the roster.
    #[error("holds {found} names, but a {shape} roster has {} {}", shape.side(), axis.plural())]
    Count {
        /// Which names the list gives.
        axis: Axis,
        /// Names in the list.
        found: usize,
        /// The roster's shape.
        shape: Shape,
    },
    /// The list's length is not a supported roster size, and nothing else sets the size.
    #[error(
        "holds {found} {} names, but a roster has 4, 9, 16, 25, 36, 49, 64, 81 or 100 \
         (sizes {SUPPORTED_SIZES})",
        axis
    )]
    Size {
        /// Which names the list gives.
        axis: Axis,
        /// Names in the list.
        found: usize,
    },
}

/// A list of names for one axis, as read from a file: trimmed, each checked with
/// [`check_name`], no two alike. Its length is checked against a roster only when it is used
/// ([`Names::new`]), so one list can serve rosters read before their size is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameList {
    source: String,
    names: Vec<String>,
    lines: Vec<usize>,
}

impl NameList {
    /// Reads a name file: one name per line, trimmed; blank lines and lines whose first
    /// non-blank character is `#` are skipped (so a name cannot start with `#` in a file).
    /// A leading byte-order mark and CRLF line ends are fine. `source` names the file in
    /// errors.
    ///
    /// # Errors
    /// [`NamesError`] with the line and column of the first bad or repeated name, or of the
    /// first byte that is not UTF-8.
    pub fn parse(source: impl Into<String>, bytes: &[u8]) -> Result<NameList, NamesError> {
        let source = source.into();
        NameList::read_from(source.clone(), bytes).unwrap_or_else(|e| {
            // Reading from memory does not fail; keep a message anyway.
            Err(NamesError {
                file: source,
                line: 0,
                col: 0,
                kind: NamesErrorKind::NotText {
                    reason: e.to_string(),
                },
            })
        })
    }

    /// Reads a name file from a stream, as [`NameList::parse`] does, holding one line at a
    /// time: a line longer than [`MAX_LINE`](crate::io::lines::MAX_LINE) or a name past the
    /// 100th (the largest roster has 100 of each) stops reading with an error.
    ///
    /// # Errors
    /// The outer error is a failed read; the inner one the first problem in the list.
    pub fn read_from<R: BufRead>(
        source: impl Into<String>,
        reader: R,
    ) -> io::Result<Result<NameList, NamesError>> {
        let mut list = NameList {
            source: source.into(),
            names: Vec::new(),
            lines: Vec::new(),
        };
        let mut lines = LineReader::new(reader).allow_controls();
        while let Some(next) = lines.next_line() {
            let (no, raw) = match next {
                Ok(l) => l,
                Err(LineError::Io(e)) => return Err(e),
                Err(e) => {
                    let (line, col) = e.position();
                    let kind = match e {
                        LineError::TooLong { limit, .. } => NamesErrorKind::LineTooLong { limit },
                        other => NamesErrorKind::NotText {
                            reason: other.to_string(),
                        },
                    };
                    return Ok(Err(NamesError {
                        file: list.source,
                        line,
                        col,
                        kind,
                    }));
                }
            };
            let name = raw.trim();
            if name.is_empty() || name.starts_with('#') {
                continue;
            }
            let col = raw.chars().take_while(|c| c.is_whitespace()).count() + 1;
            if list.names.len() == MAX_SIDE {
                return Ok(Err(NamesError {
                    file: list.source,
                    line: no,
                    col,
                    kind: NamesErrorKind::TooMany { limit: MAX_SIDE },
                }));
            }
            if let Err(e) = list.push(name, no, col) {
                return Ok(Err(e));
            }
        }
        Ok(Ok(list))
    }

    /// A list from names given in code, checked as [`NameList::parse`] checks a file; errors
    /// name `source` and give the position of the name in the list as its line.
    ///
    /// # Errors
    /// [`NamesError`] for the first bad or repeated name.
    pub fn new<I, S>(source: impl Into<String>, names: I) -> Result<NameList, NamesError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list = NameList {
            source: source.into(),
            names: Vec::new(),
            lines: Vec::new(),
        };
        for (i, name) in names.into_iter().enumerate() {
            list.push(name.as_ref().trim(), i + 1, 1)?;
        }
        Ok(list)
    }

    fn push(&mut self, name: &str, line: usize, col: usize) -> Result<(), NamesError> {
        let err = |kind| NamesError {
            file: self.source.clone(),
            line,
            col,
            kind,
        };
        if let Err(problem) = check_name(name) {
            return Err(err(NamesErrorKind::Bad {
                name: quote_prefix(name),
                problem,
            }));
        }
        if let Some(k) = self.names.iter().position(|n| n == name) {
            return Err(err(NamesErrorKind::Duplicate {
                name: quote_prefix(name),
                first_line: self.lines[k],
            }));
        }
        self.names.push(name.to_string());
        self.lines.push(line);
        Ok(())
    }

    /// Where the list came from (a file name or a label), for messages.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the list has no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The name lists a user gave, each optional: an axis without a list gets the default names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomNames {
    /// Staff names (rows), or `None` for `Staff 1…N`.
    pub staff: Option<NameList>,
    /// Day names (columns), or `None` for `Day 1…N`.
    pub days: Option<NameList>,
    /// Shift names (symbols), or `None` for `Shift 1…N`.
    pub shifts: Option<NameList>,
}

impl CustomNames {
    /// The list for `axis`, if one was given.
    pub fn get(&self, axis: Axis) -> Option<&NameList> {
        match axis {
            Axis::Staff => self.staff.as_ref(),
            Axis::Day => self.days.as_ref(),
            Axis::Shift => self.shifts.as_ref(),
        }
    }

    /// Whether no list was given.
    pub fn is_empty(&self) -> bool {
        self.staff.is_none() && self.days.is_none() && self.shifts.is_none()
    }

    /// The roster shape that the first given list (staff, then days, then shifts) implies,
    /// or `None` when no list was given. The other lists are checked by [`Names::new`].
    ///
    /// # Errors
    /// [`NamesErrorKind::Size`] when that list's length is not a supported side.
    pub fn shape(&self) -> Result<Option<Shape>, NamesError> {
        let first = [Axis::Staff, Axis::Day, Axis::Shift]
            .into_iter()
            .find_map(|a| self.get(a).map(|l| (a, l)));
        match first {
            None => Ok(None),
            Some((axis, list)) => Shape::from_side(list.len())
                .map(Some)
                .map_err(|_| NamesError {
                    file: list.source.clone(),
                    line: 0,
                    col: 0,
                    kind: NamesErrorKind::Size {
                        axis,
                        found: list.len(),
                    },
                }),
        }
    }
}

/// The names of one roster: `n` staff, `n` days and `n` shifts for a grid of side `n`, each
/// checked with [`check_name`] and unique within its axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    shape: Shape,
    staff: Vec<String>,
    days: Vec<String>,
    shifts: Vec<String>,
}

impl Names {
    /// The default names: `Staff 1…N`, `Day 1…N`, `Shift 1…N`.
    pub fn defaults(shape: Shape) -> Names {
        let n = shape.side();
        let list = |axis: Axis| (1..=n).map(|k| format!("{} {k}", axis.word())).collect();
        Names {
            shape,
            staff: list(Axis::Staff),
            days: list(Axis::Day),
            shifts: list(Axis::Shift),
        }
    }

    /// The names for a roster of `shape`: each given list, defaults for the others.
    ///
    /// # Errors
    /// [`NamesErrorKind::Count`] when a list does not hold exactly `n` names.
    pub fn new(shape: Shape, custom: &CustomNames) -> Result<Names, NamesError> {
        let mut names = Names::defaults(shape);
        for axis in [Axis::Staff, Axis::Day, Axis::Shift] {
            if let Some(list) = custom.get(axis) {
                if list.len() != shape.side() {
                    return Err(NamesError {
                        file: list.source.clone(),
                        line: 0,
                        col: 0,
                        kind: NamesErrorKind::Count {
                            axis,
                            found: list.len(),
                            shape,
                        },
                    });
                }
                *names.get_mut(axis) = list.names.clone();
            }
        }
        Ok(names)
    }

    /// The shape these names fit.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The staff names, one per row.
    pub fn staff(&self) -> &[String] {
        &self.staff
    }

    /// The day names, one per column.
    pub fn days(&self) -> &[String] {
        &self.days
    }

    /// The shift names: `shifts()[s - 1]` is the name of symbol `s`.
    pub fn shifts(&self) -> &[String] {
        &self.shifts
    }

    /// The names of `axis`.
    pub fn get(&self, axis: Axis) -> &[String] {
        match axis {
            Axis::Staff => &self.staff,
            Axis::Day => &self.days,
            Axis::Shift => &self.shifts,
        }
    }

    fn get_mut(&mut self, axis: Axis) -> &mut Vec<String> {
        match axis {
            Axis::Staff => &mut self.staff,
            Axis::Day => &mut self.days,
            Axis::Shift => &mut self.shifts,
        }
    }

    /// The shift name of a cell value, `""` for a blank.
    fn shift_text(&self, v: u8) -> &str {
        match v {
            0 => "",
            s => &self.shifts[usize::from(s) - 1],
        }
    }
}

/// Why a roster could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The names were made for another size of roster.
    #[error("the names are for a {names} roster, but the grid is {grid}")]
    ShapeMismatch {
        /// The names' shape.
        names: Shape,
        /// The grid's shape.
        grid: Shape,
    },
    /// The puzzle repeats a shift in a row, column or block; nothing invalid is written.
    #[error("refusing to write an invalid grid: {0}")]
    Grid(#[from] GridError),
    /// A grid label that cannot be written (see [`check_name`]).
    #[error("grid label {label:?} {problem}")]
    Label {
        /// The label.
        label: String,
        /// Why not.
        problem: NameProblem,
    },
    /// Writing failed.
    #[error("cannot write the roster: {0}")]
    Io(#[from] io::Error),
}

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
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v == 0 {
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
/// assert_eq!(text, "grid,staff,day,shift\n1,Staff 1,Day 1,Shift 1\n2,Staff 1,Day 2,Shift 2\n");
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

/// One roster read from a CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// The grid label of a long file with a `grid` column; `None` otherwise.
    pub label: Option<String>,
    /// The 1-based line where the roster starts: the header of a wide file, the first row of
    /// the grid in a long one.
    pub line: usize,
    /// The layout it was read from.
    pub layout: Layout,
    /// The shifts given, blanks for the rest; no shift repeats in a house.
    pub puzzle: Puzzle,
    /// The names it uses: the lists given, the file's own staff and day names (wide), or the
    /// defaults.
    pub names: Names,
}

/// A problem in a roster CSV, with where it is.
///
/// Displays as `line L, field F: message`, or `line L: message` when no single field is to
/// blame.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {kind}", field.map(|f| format!(", field {f}")).unwrap_or_default())]
pub struct CsvError {
    /// The line, 1-based (a record's first line when it spans several).
    pub line: usize,
    /// The field (the spreadsheet column, 1-based) when one is to blame.
    pub field: Option<usize>,
    /// What is wrong.
    pub kind: CsvErrorKind,
}

/// What is wrong with a roster CSV.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CsvErrorKind {
    /// The input holds no CSV record at all.
    #[error("no roster found: the input is empty")]
    Empty,
    /// A long file with a `grid` column but no rows.
    #[error("no roster found: the header is not followed by any row")]
    NoRows,
    /// Invalid UTF-8 or control characters: not a CSV text file.
    #[error("input is not CSV text: {reason}")]
    NotText {
        /// What was found.
        reason: String,
    },
    /// An error from the CSV reader.
    #[error("malformed CSV: {message}")]
    Malformed {
        /// The reader's message.
        message: String,
    },
    /// A header that is neither wide nor long.
    #[error(
        "the header has {fields} field{}: a wide roster's header is a label such as `staff` \
         and one column per day (5, 10, 17, 26, 37, 50, 65, 82 or 101 fields), a long \
         roster's is `staff,day,shift` (or `grid,staff,day,shift`)",
        if *fields == 1 { "" } else { "s" }
    )]
    Header {
        /// The number of fields in the header.
        fields: usize,
    },
    /// A wide header with an unsupported number of days.
    #[error("{days} day columns: {source}")]
    Size {
        /// The number of day columns.
        days: usize,
        /// Why it is not supported.
        source: ShapeError,
    },
    /// A row of the wrong width.
    #[error("row has {found} fields, expected {expected}{hint}")]
    Width {
        /// Fields on the row (up to its last non-empty one when it is too long).
        found: usize,
        /// Fields in the header.
        expected: usize,
        /// What the fields are, for the message.
        hint: String,
    },
    /// A wide roster without exactly one row per staff member.
    #[error(
        "{found} staff row{}, but a {shape} roster has {} staff (one row each)",
        if *found == 1 { "" } else { "s" },
        shape.side()
    )]
    RowCount {
        /// Staff rows found (so far, when there are too many).
        found: usize,
        /// The roster's shape.
        shape: Shape,
    },
    /// A staff or day name, or grid label, that cannot be used (see [`check_name`]).
    #[error("{what} {name:?} {problem}")]
    BadName {
        /// `staff`, `day` or `grid label`.
        what: String,
        /// The text.
        name: String,
        /// Why not.
        problem: NameProblem,
    },
    /// A name that is not on the list for its axis. Without a list for that axis, only the
    /// default names and numbers are known: other names need a [`NameList`].
    #[error("unknown {axis} {name:?}: expected {expected}")]
    Unknown {
        /// Which axis.
        axis: Axis,
        /// The text as written.
        name: String,
        /// What would be accepted.
        expected: String,
    },
    /// Two rows for one staff member in a wide roster.
    #[error("staff {name:?} has a second row (the first is on line {first_line})")]
    DuplicateStaff {
        /// The name.
        name: String,
        /// The line of the first row.
        first_line: usize,
    },
    /// Two columns for one day in a wide roster.
    #[error("day {name:?} has a second column (the first is field {first_field})")]
    DuplicateDay {
        /// The name.
        name: String,
        /// The field of the first column.
        first_field: usize,
    },
    /// Two rows for one staff member on one day in a long roster.
    #[error(
        "staff {staff:?} on day {day:?} is assigned a second time (first on line {first_line})"
    )]
    DuplicateCell {
        /// The staff name.
        staff: String,
        /// The day name.
        day: String,
        /// The line of the first assignment.
        first_line: usize,
    },
    /// A staff member or day of the name list with no row or column.
    #[error("no {} for {axis} {name:?} (from {source_name})", if *axis == Axis::Day { "column" } else { "row" })]
    Missing {
        /// Which axis.
        axis: Axis,
        /// The missing name.
        name: String,
        /// The name list it comes from.
        source_name: String,
    },
    /// A long roster whose size cannot be told: no name list and no assignment.
    #[error(
        "cannot tell the roster's size: the file has no assignments and no name list was \
         given (a name list of N names makes an empty NxN roster)"
    )]
    UnknownSize,
    /// A name list that does not fit this roster.
    #[error(transparent)]
    Names(NamesError),
    /// A shift given twice in one staff member's row, one day or one block.
    #[error(
        "shift {shift:?} is given twice {place} (also at line {other_line}, field {other_field})"
    )]
    Repeated {
        /// The shift's name.
        shift: String,
        /// The house, in roster terms (`to staff "Ann"`, `on day "Mon"`, `in the block …`).
        place: String,
        /// Where the other copy is.
        other_line: usize,
        /// Its field.
        other_field: usize,
    },
    /// Any other problem with the cells (should not happen: kept for completeness).
    #[error(transparent)]
    Grid(GridError),
    /// A line longer than the readers accept (see [`crate::io::lines::MAX_LINE`]).
    #[error("line is longer than {} MiB ({limit} bytes): not a roster file", limit >> 20)]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
}

fn err(line: usize, field: Option<usize>, kind: CsvErrorKind) -> CsvError {
    CsvError { line, field, kind }
}

/// The delimiter: whichever of `,`, `;` and tab is most frequent outside quotes on the first
/// non-empty line (`,` on a tie or when there is none).
fn sniff_delimiter(text: &str) -> u8 {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for c in first.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => counts[0] += 1,
            ';' if !quoted => counts[1] += 1,
            '\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let delims = [b',', b';', b'\t'];
    let mut best = 0;
    for k in 1..3 {
        if counts[k] > counts[best] {
            best = k;
        }
    }
    delims[best]
}

/// A record: its line and its trimmed fields.
struct Row {
    line: usize,
    fields: Vec<String>,
}

impl Row {
    /// The fields of a row that must be `width` wide: shorter is an error, and so is any
    /// non-empty field past `width`.
    fn fit(&self, width: usize, hint: &str) -> Result<&[String], CsvError> {
        let last = self.fields.iter().rposition(|f| !f.is_empty()).unwrap_or(0);
        if self.fields.len() < width || last >= width {
            let (found, field) = if last >= width {
                let extra = self.fields[width..].iter().position(|f| !f.is_empty());
                (last + 1, extra.map(|k| width + k + 1))
            } else {
                (self.fields.len(), None)
            };
            return Err(err(
                self.line,
                field,
                CsvErrorKind::Width {
                    found,
                    expected: width,
                    hint: hint.to_string(),
                },
            ));
        }
        Ok(&self.fields[..width])
    }
}

/// The number `k` of a default name: `Staff 3`/`staff3`/`3` for staff, and so on.
fn default_index(axis: Axis, name: &str) -> Option<usize> {
    let word = axis.word();
    let digits = match name.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => name[word.len()..].trim_start_matches(' '),
        _ => name,
    };
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Maps the names of one axis to indices: by a name list, or by default names and numbers.
struct Lookup<'a> {
    axis: Axis,
    n: usize,
    list: Option<(&'a NameList, HashMap<&'a str, usize>)>,
}

impl<'a> Lookup<'a> {
    fn new(axis: Axis, n: usize, custom: &'a CustomNames) -> Lookup<'a> {
        let list = custom.get(axis).map(|l| {
            let map = l
                .names
                .iter()
                .enumerate()
                .map(|(i, s)| (s.as_str(), i))
                .collect();
            (l, map)
        });
        Lookup { axis, n, list }
    }

    /// The 0-based index of `name`.
    fn find(&self, name: &str) -> Option<usize> {
        match &self.list {
            Some((_, map)) => map.get(name).copied(),
            None => default_index(self.axis, name)
                .filter(|k| (1..=self.n).contains(k))
                .map(|k| k - 1),
        }
    }

    fn unknown(&self, name: &str) -> CsvErrorKind {
        let expected = match &self.list {
            Some((l, _)) if l.len() <= 12 => {
                let quoted: Vec<String> = l.names.iter().map(|s| format!("{s:?}")).collect();
                format!("one of {} (from {})", quoted.join(", "), l.source)
            }
            Some((l, _)) => format!("one of the {} names in {}", l.len(), l.source),
            None => format!(
                "\"{w} 1\" to \"{w} {n}\" or a number 1 to {n}",
                w = self.axis.word(),
                n = self.n,
            ),
        };
        CsvErrorKind::Unknown {
            axis: self.axis,
            name: quote_prefix(name),
            expected,
        }
    }

    fn get(&self, name: &str, line: usize, field: usize) -> Result<usize, CsvError> {
        self.find(name)
            .ok_or_else(|| err(line, Some(field), self.unknown(name)))
    }
}

/// Reads every roster in a wide or long CSV (see the module documentation for the rules).
/// A wide file gives one roster, a long file one per `grid` label (in order of first
/// appearance), or one when it has no `grid` column.
///
/// # Errors
/// The first problem found, with its line and field; nothing is returned on an error.
pub fn read_rosters(bytes: &[u8], custom: &CustomNames) -> Result<Vec<Roster>, CsvError> {
    read_rosters_from(&mut LineReader::new(bytes), custom).unwrap_or_else(|e| {
        // Reading from memory does not fail; keep a message anyway.
        Err(err(
            1,
            None,
            CsvErrorKind::Malformed {
                message: e.to_string(),
            },
        ))
    })
}

/// Reads every roster of a CSV streamed line by line, as [`read_rosters`] does. Memory is
/// bounded by one line (at most [`MAX_LINE`](crate::io::lines::MAX_LINE)) plus what the
/// rosters read so far hold, and reading stops at the first problem.
///
/// # Errors
/// The outer error is a failed read; the inner one the first problem in the CSV.
pub fn read_rosters_from<R: BufRead>(
    lines: &mut LineReader<R>,
    custom: &CustomNames,
) -> io::Result<Result<Vec<Roster>, CsvError>> {
    match read_all(lines, custom) {
        Ok(r) => Ok(Ok(r)),
        Err(Fail::Csv(e)) => Ok(Err(e)),
        Err(Fail::Io(e)) => Err(e),
    }
}

/// Why reading stopped: a problem in the CSV, or a failed read.
enum Fail {
    Csv(CsvError),
    Io(io::Error),
}

impl From<CsvError> for Fail {
    fn from(e: CsvError) -> Fail {
        Fail::Csv(e)
    }
}

/// The rows of a CSV, one line at a time. Names cannot hold line breaks, so every record
/// sits on one line; a quoted field left open at the end of its line is an error (and
/// keeps the reader from holding more than a line).
struct Rows<'r, R> {
    lines: &'r mut LineReader<R>,
    builder: ::csv::ReaderBuilder,
    delimiter: Option<u8>,
    pending: VecDeque<Row>,
}

impl<R: BufRead> Rows<'_, R> {
    /// The next row with a non-empty field.
    fn next(&mut self) -> Result<Option<Row>, Fail> {
        loop {
            if let Some(r) = self.pending.pop_front() {
                return Ok(Some(r));
            }
            let (line, text) = match self.lines.next_line() {
                None => return Ok(None),
                Some(Ok(l)) => l,
                Some(Err(LineError::Io(e))) => return Err(Fail::Io(e)),
                Some(Err(LineError::TooLong { line, limit })) => {
                    return Err(err(line, None, CsvErrorKind::LineTooLong { limit }).into());
                }
                Some(Err(e)) => {
                    let (line, _) = e.position();
                    let kind = CsvErrorKind::NotText {
                        reason: e.to_string(),
                    };
                    return Err(err(line, None, kind).into());
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            let delimiter = *self.delimiter.get_or_insert_with(|| {
                let d = sniff_delimiter(&text);
                self.builder.delimiter(d);
                d
            });
            if quote_left_open(&text, delimiter) {
                let kind = CsvErrorKind::Malformed {
                    message: "a quoted field is not closed on its line (names cannot hold \
                              line breaks)"
                        .into(),
                };
                return Err(err(line, None, kind).into());
            }
            let mut reader = self.builder.from_reader(text.as_bytes());
            for record in reader.records() {
                let record = record.map_err(|e| {
                    let kind = CsvErrorKind::Malformed {
                        message: e.to_string(),
                    };
                    err(line, None, kind)
                })?;
                let fields: Vec<String> = record.iter().map(|f| f.trim().to_string()).collect();
                if fields.iter().any(|f| !f.is_empty()) {
                    self.pending.push_back(Row { line, fields });
                }
            }
        }
    }
}

/// Whether `line` ends inside a quoted field: a quote opens one only at the start of a
/// field, and `""` inside one is a quote (the `csv` crate's rules).
fn quote_left_open(line: &str, delimiter: u8) -> bool {
    let bytes = line.as_bytes();
    let (mut quoted, mut at_start) = (false, true);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if quoted {
            if c == b'"' {
                if bytes.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    quoted = false;
                }
            }
        } else if c == b'"' && at_start {
            quoted = true;
            at_start = false;
        } else {
            at_start = c == delimiter || c == b'\r';
        }
        i += 1;
    }
    quoted
}

fn read_all<R: BufRead>(
    lines: &mut LineReader<R>,
    custom: &CustomNames,
) -> Result<Vec<Roster>, Fail> {
    let mut builder = ::csv::ReaderBuilder::new();
    builder
        .has_headers(false)
        .flexible(true)
        .buffer_capacity(4096);
    let mut rows = Rows {
        lines,
        builder,
        delimiter: None,
        pending: VecDeque::new(),
    };
    let Some(header) = rows.next()? else {
        return Err(err(1, None, CsvErrorKind::Empty).into());
    };
    let width = header
        .fields
        .iter()
        .rposition(|f| !f.is_empty())
        .map_or(0, |p| p + 1);
    let lower: Vec<String> = header.fields[..width]
        .iter()
        .map(|f| f.to_ascii_lowercase())
        .collect();
    let head: Vec<&str> = lower.iter().map(String::as_str).collect();
    match head.as_slice() {
        ["staff", "day", "shift"] => read_long(&header, &mut rows, false, custom),
        ["grid", "staff", "day", "shift"] => read_long(&header, &mut rows, true, custom),
        _ => read_wide(&header, width, &mut rows, custom).map(|r| vec![r]),
    }
}

fn names_error(line: usize, e: NamesError) -> CsvError {
    err(line, None, CsvErrorKind::Names(e))
}

fn read_wide<R: BufRead>(
    header: &Row,
    width: usize,
    body: &mut Rows<'_, R>,
    custom: &CustomNames,
) -> Result<Roster, Fail> {
    let n = width.saturating_sub(1);
    if n < 4 {
        return Err(err(header.line, None, CsvErrorKind::Header { fields: width }).into());
    }
    let shape = Shape::from_side(n)
        .map_err(|source| err(header.line, None, CsvErrorKind::Size { days: n, source }))?;
    let mut names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
    let hint = format!(" (staff and {n} days)");

    // Columns: the field of each day, by the day list or in the header's order.
    let days = Lookup::new(Axis::Day, n, custom);
    let mut day_of_field = Vec::with_capacity(n);
    let mut field_of_day: Vec<Option<usize>> = vec![None; n];
    for (j, name) in header.fields[1..width].iter().enumerate() {
        let field = j + 2;
        let d = if days.list.is_some() {
            days.get(name, header.line, field)?
        } else {
            check_name(name).map_err(|problem| {
                err(
                    header.line,
                    Some(field),
                    CsvErrorKind::BadName {
                        what: "day".into(),
                        name: quote_prefix(name),
                        problem,
                    },
                )
            })?;
            let first = (0..j).find(|&k| header.fields[k + 1] == *name);
            first.unwrap_or(j)
        };
        if let Some(first_field) = field_of_day[d] {
            return Err(err(
                header.line,
                Some(field),
                CsvErrorKind::DuplicateDay {
                    name: quote_prefix(name),
                    first_field,
                },
            )
            .into());
        }
        field_of_day[d] = Some(field);
        day_of_field.push(d);
        if days.list.is_none() {
            names.days[d] = name.clone();
        }
    }

    // Rows: one per staff member, by the staff list or in the file's order.
    let staff = Lookup::new(Axis::Staff, n, custom);
    let shifts = Lookup::new(Axis::Shift, n, custom);
    let mut cells = vec![0u8; shape.cells()];
    let mut origin = vec![(0usize, 0usize); shape.cells()];
    let mut line_of_staff: Vec<Option<usize>> = vec![None; n];
    let mut seen_names: HashMap<String, usize> = HashMap::new();
    let mut count = 0;
    let mut last = header.line;
    while let Some(row) = body.next()? {
        last = row.line;
        let fields = row.fit(width, &hint)?;
        let name = &fields[0];
        let r = if staff.list.is_some() {
            staff.get(name, row.line, 1)?
        } else {
            check_name(name).map_err(|problem| {
                err(
                    row.line,
                    Some(1),
                    CsvErrorKind::BadName {
                        what: "staff".into(),
                        name: quote_prefix(name),
                        problem,
                    },
                )
            })?;
            // A name seen before points at its first row, which is then reported.
            seen_names.get(name.as_str()).copied().unwrap_or(count)
        };
        if let Some(first_line) = line_of_staff.get(r).copied().flatten() {
            return Err(err(
                row.line,
                Some(1),
                CsvErrorKind::DuplicateStaff {
                    name: quote_prefix(name),
                    first_line,
                },
            )
            .into());
        }
        if count == n {
            return Err(err(
                row.line,
                None,
                CsvErrorKind::RowCount {
                    found: n + 1,
                    shape,
                },
            )
            .into());
        }
        line_of_staff[r] = Some(row.line);
        if staff.list.is_none() {
            seen_names.insert(name.clone(), r);
            names.staff[r] = name.clone();
        }
        for (j, text) in fields[1..].iter().enumerate() {
            let i = r * n + day_of_field[j];
            origin[i] = (row.line, j + 2);
            if !text.is_empty() {
                cells[i] = (shifts.get(text, row.line, j + 2)? + 1) as u8;
            }
        }
        count += 1;
    }
    if count < n {
        let kind = match custom.staff.as_ref() {
            Some(list) => {
                let r = line_of_staff.iter().position(Option::is_none).unwrap_or(0);
                CsvErrorKind::Missing {
                    axis: Axis::Staff,
                    name: list.names[r].clone(),
                    source_name: list.source.clone(),
                }
            }
            None => CsvErrorKind::RowCount {
                found: count,
                shape,
            },
        };
        return Err(err(last, None, kind).into());
    }
    let puzzle = finish(shape, cells, &origin, &names)?;
    Ok(Roster {
        label: None,
        line: header.line,
        layout: Layout::Wide,
        puzzle,
        names,
    })
}

/// One assignment of a long file: its line and 0-based staff, day, and shift (0 for blank).
struct Assignment {
    line: usize,
    staff: u8,
    day: u8,
    shift: u8,
}

/// The assignments of one grid of a long file.
struct Group {
    label: Option<String>,
    rows: Vec<Assignment>,
    /// The line of each (staff, day) assigned so far.
    first: HashMap<(u8, u8), usize>,
    /// The largest staff, day or shift number used (for the size without name lists).
    max: usize,
}

fn read_long<R: BufRead>(
    header: &Row,
    body: &mut Rows<'_, R>,
    with_grid: bool,
    custom: &CustomNames,
) -> Result<Vec<Roster>, Fail> {
    let width = if with_grid { 4 } else { 3 };
    let hint = if with_grid {
        " (grid, staff, day, shift)"
    } else {
        " (staff, day, shift)"
    };
    let offset = usize::from(with_grid);
    // With name lists the size is known now and names are looked up as rows come;
    // without, numbers are read now and the size is the smallest that holds them all.
    let fixed = custom.shape().map_err(|e| names_error(header.line, e))?;
    let known = match fixed {
        Some(shape) => {
            let names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
            Some((shape, names))
        }
        None => None,
    };
    let lookups = known.as_ref().map(|(shape, _)| {
        let n = shape.side();
        [Axis::Staff, Axis::Day, Axis::Shift].map(|axis| Lookup::new(axis, n, custom))
    });
    // Names for messages before the size is known: the defaults, which do not depend on it.
    let default_names = Names::defaults(Shape::new(MAX_BOX).expect("the largest box is valid"));
    let message_names = known.as_ref().map_or(&default_names, |(_, names)| names);
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    if !with_grid {
        groups.push(Group {
            label: None,
            rows: Vec::new(),
            first: HashMap::new(),
            max: 0,
        });
    }
    while let Some(row) = body.next()? {
        let fields = row.fit(width, hint)?;
        let (g, rest) = if with_grid {
            let label = fields[0].as_str();
            check_name(label).map_err(|problem| {
                err(
                    row.line,
                    Some(1),
                    CsvErrorKind::BadName {
                        what: "grid label".into(),
                        name: quote_prefix(label),
                        problem,
                    },
                )
            })?;
            let g = match group_of.get(label) {
                Some(&g) => g,
                None => {
                    groups.push(Group {
                        label: Some(label.to_string()),
                        rows: Vec::new(),
                        first: HashMap::new(),
                        max: 0,
                    });
                    group_of.insert(label.to_string(), groups.len() - 1);
                    groups.len() - 1
                }
            };
            (g, &fields[1..])
        } else {
            (0, fields)
        };
        let group = &mut groups[g];
        let mut index = [0usize; 3];
        for (k, axis) in [Axis::Staff, Axis::Day, Axis::Shift]
            .into_iter()
            .enumerate()
        {
            let name = rest[k].as_str();
            let field = k + 1 + offset;
            if axis == Axis::Shift && name.is_empty() {
                continue;
            }
            index[k] = match &lookups {
                Some(l) => l[k].get(name, row.line, field)? + 1,
                None => match default_index(axis, name) {
                    Some(v) if (1..=MAX_SIDE).contains(&v) => v,
                    _ => {
                        let expected = format!(
                            "\"{w} 1\", \"{w} 2\", … or a number 1 to {MAX_SIDE}",
                            w = axis.word()
                        );
                        let kind = CsvErrorKind::Unknown {
                            axis,
                            name: quote_prefix(name),
                            expected,
                        };
                        return Err(err(row.line, Some(field), kind).into());
                    }
                },
            };
            group.max = group.max.max(index[k]);
        }
        // Every index is 1..=100 here, so it fits a byte.
        let [staff, day, shift] = index.map(|v| u8::try_from(v).unwrap_or(u8::MAX));
        let (staff, day) = (staff - 1, day - 1);
        if let Some(&first_line) = group.first.get(&(staff, day)) {
            return Err(err(
                row.line,
                None,
                CsvErrorKind::DuplicateCell {
                    staff: message_names.staff[usize::from(staff)].clone(),
                    day: message_names.days[usize::from(day)].clone(),
                    first_line,
                },
            )
            .into());
        }
        group.first.insert((staff, day), row.line);
        group.rows.push(Assignment {
            line: row.line,
            staff,
            day,
            shift,
        });
    }
    if groups.is_empty() {
        return Err(err(header.line, None, CsvErrorKind::NoRows).into());
    }
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let (shape, names) = match &known {
            Some((shape, names)) => (*shape, names.clone()),
            None => {
                let shape = Shape::all()
                    .find(|s| group.max > 0 && s.side() >= group.max)
                    .ok_or_else(|| err(header.line, None, CsvErrorKind::UnknownSize))?;
                let names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
                (shape, names)
            }
        };
        let n = shape.side();
        let mut cells = vec![0u8; shape.cells()];
        let mut origin = vec![(0usize, 0usize); shape.cells()];
        for a in &group.rows {
            let i = usize::from(a.staff) * n + usize::from(a.day);
            origin[i] = (a.line, 3 + offset);
            cells[i] = a.shift;
        }
        let puzzle = finish(shape, cells, &origin, &names)?;
        out.push(Roster {
            label: group.label,
            line: group.rows.first().map_or(header.line, |a| a.line),
            layout: Layout::Long,
            puzzle,
            names,
        });
    }
    Ok(out)
}

/// The puzzle of the cells read, checked for repeated shifts; `origin[i]` is where cell `i`
/// was read (line, field).
fn finish(
    shape: Shape,
    cells: Vec<u8>,
    origin: &[(usize, usize)],
    names: &Names,
) -> Result<Puzzle, CsvError> {
    let puzzle = Puzzle::new(shape, cells).map_err(|e| err(1, None, CsvErrorKind::Grid(e)))?;
    match puzzle.check() {
        Ok(()) => Ok(puzzle),
        Err(GridError::Duplicate {
            symbol,
            house,
            first,
            second,
        }) => {
            let n = shape.side();
            let a = origin[first.row * n + first.col];
            let b = origin[second.row * n + second.col];
            let (here, other) = if a > b { (a, b) } else { (b, a) };
            let quote = |v: &[String], k: usize| format!("{:?}", v[k]);
            let place = match house {
                House::Row(r) => format!("to staff {}", quote(&names.staff, r)),
                House::Col(c) => format!("on day {}", quote(&names.days, c)),
                House::Block(k) => {
                    let bsz = shape.box_size();
                    let (r0, c0) = ((k / bsz) * bsz, (k % bsz) * bsz);
                    format!(
                        "in the block of staff {} to {} and days {} to {}",
                        quote(&names.staff, r0),
                        quote(&names.staff, r0 + bsz - 1),
                        quote(&names.days, c0),
                        quote(&names.days, c0 + bsz - 1)
                    )
                }
            };
            Err(err(
                here.0,
                Some(here.1),
                CsvErrorKind::Repeated {
                    shift: names.shift_text(symbol).to_string(),
                    place,
                    other_line: other.0,
                    other_field: other.1,
                },
            ))
        }
        Err(e) => Err(err(1, None, CsvErrorKind::Grid(e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    /// A valid full grid of box size `b` (the usual shifted pattern).
    fn pattern(shape: Shape) -> Grid {
        let (b, n) = (shape.box_size(), shape.side());
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                (((r % b) * b + r / b + c) % n + 1) as u8
            })
            .collect();
        Grid::new(shape, cells).unwrap()
    }

    fn holes(shape: Shape) -> Puzzle {
        let cells = pattern(shape)
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &v)| if (i * 7 + i / 3) % 3 == 0 { 0 } else { v })
            .collect();
        Puzzle::new(shape, cells).unwrap()
    }

    fn write(p: &Puzzle, names: &Names, layout: Layout) -> String {
        let mut out = Vec::new();
        write_roster(&mut out, p, names, layout).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn read(text: &str, custom: &CustomNames) -> Result<Vec<Roster>, CsvError> {
        read_rosters(text.as_bytes(), custom)
    }

    fn read_err(text: &str, custom: &CustomNames) -> CsvError {
        read(text, custom).unwrap_err()
    }

    fn s2() -> Shape {
        Shape::new(2).unwrap()
    }

    fn list(src: &str, names: &[&str]) -> NameList {
        NameList::new(src, names).unwrap()
    }

    #[test]
    fn names_checks() {
        assert_eq!(check_name(""), Err(NameProblem::Empty));
        assert_eq!(check_name("  "), Err(NameProblem::Empty));
        assert_eq!(check_name(" Ann"), Err(NameProblem::Untrimmed));
        for c in FORMULA_STARTS {
            assert_eq!(
                check_name(&format!("{c}x")),
                Err(NameProblem::FormulaLike(c))
            );
        }
        assert_eq!(check_name("\tx"), Err(NameProblem::Control('\t')));
        assert_eq!(check_name("a\rb"), Err(NameProblem::Control('\r')));
        assert_eq!(check_name("Ann-Marie"), Ok(()));
        assert_eq!(check_name("O'Neil, Pat"), Ok(()));
        assert_eq!(check_name("#1"), Ok(()));
    }

    #[test]
    fn name_files() {
        let l = NameList::parse(
            "s.txt",
            "\u{feff}# staff\r\n  Ann  \r\n\r\nBob\n# Carl left\nDee\nEve\n".as_bytes(),
        )
        .unwrap();
        assert_eq!(l.names(), ["Ann", "Bob", "Dee", "Eve"]);
        let e = NameList::parse("s.txt", b"Ann\nBob\n  Ann\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.txt:3:3: name \"Ann\" is repeated (first on line 1); names must be unique"
        );
        let e = NameList::parse("s.txt", b"Ann\n+Bob\n").unwrap_err();
        assert!(matches!(
            e.kind,
            NamesErrorKind::Bad {
                problem: NameProblem::FormulaLike('+'),
                ..
            }
        ));
        assert_eq!((e.line, e.col), (2, 1));
        let e = NameList::parse("s.txt", b"Ann\n\xff\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.to_string().contains("not UTF-8"), "{e}");
        let e = NameList::parse("s.txt", b"Ann\nB\x00b\n").unwrap_err();
        assert!(e.to_string().contains("U+0000"), "{e}");
    }

    #[test]
    fn names_count_and_size() {
        let custom = CustomNames {
            days: Some(list("d.txt", &["Mon", "Tue", "Wed"])),
            ..CustomNames::default()
        };
        let e = Names::new(s2(), &custom).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.txt: holds 3 names, but a 4x4 roster has 4 days"
        );
        assert!(
            custom
                .shape()
                .unwrap_err()
                .to_string()
                .starts_with("d.txt: holds 3 day names, but a roster has 4, 9, 16")
        );
        assert_eq!(CustomNames::default().shape(), Ok(None));
        let d = Names::defaults(Shape::new(10).unwrap());
        assert_eq!(d.staff()[99], "Staff 100");
        assert_eq!(d.days()[0], "Day 1");
        assert_eq!(d.shifts()[41], "Shift 42");
    }

    #[test]
    fn round_trip_every_shape_and_layout() {
        for shape in Shape::all() {
            let names = Names::defaults(shape);
            for p in [
                pattern(shape).to_puzzle(),
                holes(shape),
                Puzzle::empty(shape),
            ] {
                for layout in [Layout::Wide, Layout::Long] {
                    if layout == Layout::Long && p.givens() == 0 {
                        // Nothing to say the size: covered by `empty_long_needs_names`.
                        continue;
                    }
                    let text = write(&p, &names, layout);
                    let back = read(&text, &CustomNames::default()).unwrap();
                    assert_eq!(back.len(), 1);
                    assert_eq!(back[0].puzzle, p, "{shape} {layout:?}");
                    assert_eq!(back[0].names, names);
                    assert_eq!(back[0].layout, layout);
                }
            }
        }
    }

    #[test]
    fn custom_names_round_trip() {
        let shape = Shape::new(3).unwrap();
        let custom = CustomNames {
            staff: Some(list(
                "staff",
                &["Ann", "Bob", "Cy", "Dee", "Ed", "Flo", "Gus", "Hal", "Ivy"],
            )),
            days: Some(list(
                "days",
                &[
                    "Mon 1", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon 2", "Tue 2",
                ],
            )),
            shifts: Some(list(
                "shifts",
                &[
                    "E",
                    "L",
                    "N",
                    "D",
                    "\"Split\"",
                    "On call",
                    "Off, paid",
                    "X",
                    "Y",
                ],
            )),
        };
        let names = Names::new(shape, &custom).unwrap();
        let p = holes(shape);
        for layout in [Layout::Wide, Layout::Long] {
            let text = write(&p, &names, layout);
            let back = read(&text, &custom).unwrap();
            assert_eq!(back[0].puzzle, p);
            assert_eq!(back[0].names, names);
        }
        // Wide files carry their own staff and day names: only the shifts are needed.
        let text = write(&p, &names, Layout::Wide);
        assert!(text.contains("\"Off, paid\"") && text.contains("\"\"\"Split\"\"\""));
        let shifts_only = CustomNames {
            shifts: custom.shifts.clone(),
            ..CustomNames::default()
        };
        let back = read(&text, &shifts_only).unwrap();
        assert_eq!(back[0].names, names);
        assert_eq!(back[0].puzzle, p);
    }

    #[test]
    fn wide_rows_and_columns_match_lists_in_any_order() {
        let custom = CustomNames {
            staff: Some(list("s", &["A", "B", "C", "D"])),
            days: Some(list("d", &["W", "X", "Y", "Z"])),
            ..CustomNames::default()
        };
        // Columns Z Y X W, rows D C B A: the grid is the pattern reversed both ways.
        let text = "who,Z,Y,X,W\nD,1,,,\nC,,,,\nB,,,,\nA,,,,2\n";
        let r = &read(text, &custom).unwrap()[0];
        assert_eq!(r.puzzle.get(3, 3), 1);
        assert_eq!(r.puzzle.get(0, 0), 2);
        assert_eq!(r.names.staff(), ["A", "B", "C", "D"]);
        let e = read_err("who,Z,Y,X,W\nD,,,,\nC,,,,\nB,,,,\n", &custom);
        assert_eq!(e.to_string(), "line 4: no row for staff \"A\" (from s)");
    }

    #[test]
    fn numbers_and_case_for_default_names() {
        let text = "staff,day,shift\nstaff 1,DAY 1,3\n2,Day2,shift 4\n";
        let r = &read(text, &CustomNames::default()).unwrap()[0];
        assert_eq!(r.puzzle.get(0, 0), 3);
        assert_eq!(r.puzzle.get(1, 1), 4);
        // With a shift list, numbers are names like any other: unknown.
        let custom = CustomNames {
            shifts: Some(list("sh.txt", &["E", "L", "N", "O"])),
            ..CustomNames::default()
        };
        let e = read_err(text, &custom);
        assert_eq!(
            e.to_string(),
            "line 2, field 3: unknown shift \"3\": expected one of \"E\", \"L\", \"N\", \"O\" \
             (from sh.txt)"
        );
    }

    #[test]
    fn long_size_is_inferred_or_from_lists() {
        let text = "staff,day,shift\nStaff 1,Day 1,Shift 5\n";
        assert_eq!(
            read(text, &CustomNames::default()).unwrap()[0]
                .puzzle
                .shape()
                .side(),
            9
        );
        let text = "staff,day,shift\nStaff 1,Day 1,Shift 101\n";
        let e = read_err(text, &CustomNames::default());
        assert_eq!((e.line, e.field), (2, Some(3)));
        let e = read_err(
            "staff,day,shift\nAnn,Day 1,Shift 1\n",
            &CustomNames::default(),
        );
        assert!(e.to_string().contains("unknown staff \"Ann\""), "{e}");
    }

    #[test]
    fn empty_long_needs_names() {
        let e = read_err("staff,day,shift\n", &CustomNames::default());
        assert_eq!(e.kind, CsvErrorKind::UnknownSize);
        let custom = CustomNames {
            staff: Some(list("s", &["A", "B", "C", "D"])),
            ..CustomNames::default()
        };
        let r = &read("staff,day,shift\n", &custom).unwrap()[0];
        assert_eq!(r.puzzle, Puzzle::empty(s2()));
    }

    #[test]
    fn several_grids_in_long() {
        let s = s2();
        let names = Names::defaults(s);
        let a = holes(s);
        let b = pattern(Shape::new(3).unwrap()).to_puzzle();
        let mut w = LongWriter::new(Vec::new()).unwrap();
        w.write("1", &a, &names).unwrap();
        w.write("1 solution", &b, &Names::defaults(b.shape()))
            .unwrap();
        let e = w.write("=2", &a, &names).unwrap_err();
        assert!(matches!(e, ExportError::Label { .. }));
        let bytes = w.finish().unwrap();
        let back = read_rosters(&bytes, &CustomNames::default()).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].label.as_deref(), Some("1"));
        assert_eq!(back[0].puzzle, a);
        assert_eq!(back[1].label.as_deref(), Some("1 solution"));
        assert_eq!(back[1].puzzle, b);
        assert_eq!(back[1].line, 2 + a.givens());
    }

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

    #[test]
    fn tolerates_spreadsheet_habits() {
        // BOM, CRLF, semicolons, quoted fields, trailing empty columns, blank rows.
        let text = "\u{feff}staff;\"Day 1\";Day 2;Day 3;Day 4;;\r\n\
                    Staff 1; 1 ;;;;;\r\n;;;;;;\r\nStaff 2;;;;;\r\nStaff 3;;;;\r\nStaff 4;;;;\r\n";
        let r = &read(text, &CustomNames::default()).unwrap()[0];
        assert_eq!(r.puzzle.get(0, 0), 1);
        assert_eq!(r.puzzle.givens(), 1);
        let tabs =
            "staff\tDay 1\tDay 2\tDay 3\tDay 4\nA\t\t\t\t2\nB\t\t\t\t\nC\t\t\t\t\nD\t\t\t\t\n";
        assert_eq!(
            read(tabs, &CustomNames::default()).unwrap()[0]
                .puzzle
                .get(0, 3),
            2
        );
    }

    #[test]
    fn error_positions() {
        let d = CustomNames::default();
        let head = "staff,Day 1,Day 2,Day 3,Day 4\n";
        let cases: &[(String, &str)] = &[
            (String::new(), "line 1: no roster found: the input is empty"),
            (
                "1 2 3 4\n".into(),
                "line 1: the header has 1 field: a wide roster's header",
            ),
            ("a,b,c\n".into(), "line 1: the header has 3 fields"),
            (
                "s,1,2,3,4,5,6,7,8\n".into(),
                "line 1: 8 day columns: unsupported size 8x8",
            ),
            (
                format!("{head}A,,,\n"),
                "line 2: row has 4 fields, expected 5 (staff and 4 days)",
            ),
            (
                format!("{head}A,,,,,x\n"),
                "line 2, field 6: row has 6 fields, expected 5",
            ),
            (
                format!("{head}A,,Shift 5,,\n"),
                "line 2, field 3: unknown shift \"Shift 5\": expected \"Shift 1\" to \"Shift 4\"",
            ),
            (
                format!("{head}A,,,,\nB,,,,\nA,,,,\n"),
                "line 4, field 1: staff \"A\" has a second row (the first is on line 2)",
            ),
            (
                format!("{head}A,,,,\nB,,,,\nC,,,,\nD,,,,\nE,,,,\n"),
                "line 6: 5 staff rows, but a 4x4 roster has 4 staff",
            ),
            (
                format!("{head}A,,,,\nB,,,,\n"),
                "line 3: 2 staff rows, but a 4x4 roster has 4 staff",
            ),
            (
                "staff,Mon,Tue,Mon,Thu\n".into(),
                "line 1, field 4: day \"Mon\" has a second column (the first is field 2)",
            ),
            (
                "staff,Mon,Tue,=Wed(),Thu\n".into(),
                "line 1, field 4: day \"=Wed()\" starts with '='",
            ),
            (
                format!("{head}@A,,,,\n"),
                "line 2, field 1: staff \"@A\" starts with '@'",
            ),
            (
                format!("{head}A,1,,,\nB,,,,\nC,,,,\nD,1,,,\n"),
                "line 5, field 2: shift \"Shift 1\" is given twice on day \"Day 1\" (also at \
                 line 2, field 2)",
            ),
            (
                format!("{head}A,1,,,\nB,,1,,\nC,,,,\nD,,,,\n"),
                "line 3, field 3: shift \"Shift 1\" is given twice in the block of staff \"A\" \
                 to \"B\" and days \"Day 1\" to \"Day 2\" (also at line 2, field 2)",
            ),
            (
                "staff,day,shift\n1,1,1\n1,1,2\n".into(),
                "line 3: staff \"Staff 1\" on day \"Day 1\" is assigned a second time \
                 (first on line 2)",
            ),
            (
                "staff,day,shift\n1,1,1\n2,2,1\n".into(),
                "line 3, field 3: shift \"Shift 1\" is given twice in the block",
            ),
            (
                "grid,staff,day,shift\n+1,1,1,1\n".into(),
                "line 2, field 1: grid label \"+1\" starts with '+'",
            ),
            (
                "grid,staff,day,shift\n".into(),
                "line 1: no roster found: the header is not followed by any row",
            ),
            (
                "staff,day,shift\n1,1\n".into(),
                "line 2: row has 2 fields, expected 3 (staff, day, shift)",
            ),
            (
                format!("{head}A,\"unclosed,,,\n"),
                "line 2: malformed CSV: a quoted field is not closed on its line",
            ),
            (
                "staff,a\u{1}b\n".into(),
                "line 1: input is not CSV text: control character U+0001 at column 8",
            ),
        ];
        for (text, want) in cases {
            let e = read_err(text, &d);
            assert!(
                e.to_string().starts_with(want),
                "{text:?}:\n got {e}\nwant {want}"
            );
        }
        let e = read_rosters(b"staff,\xfe\n", &d).unwrap_err();
        assert_eq!((e.line, e.field), (1, None));
        assert!(e.to_string().contains("0xFE at column 7"), "{e}");
    }

    #[test]
    fn line_numbers_with_crlf_and_no_quoted_line_breaks() {
        let d = CustomNames::default();
        for end in ["\n", "\r\n"] {
            let text = [
                "staff,day,shift",
                "1,1,1",
                "",
                "\"2\",\"Day",
                "1\",1",
                "1,1,3",
            ]
            .join(end);
            let e = read_err(&text, &d);
            // A quoted field may not span lines 4-5 (no name holds a line break): the
            // reader stops on line 4 instead of holding the rest of the file.
            assert_eq!((e.line, e.field), (4, None), "{end:?}: {e}");
            assert!(e.to_string().contains("not closed on its line"), "{e}");
            let text = ["staff,day,shift", "1,1,1", "", "2,2,1", "1,1,3"].join(end);
            let e = read_err(&text, &d);
            assert_eq!(e.line, 5, "{end:?}: {e}");
        }
    }

    #[test]
    fn name_lists_must_fit_the_roster() {
        let custom = CustomNames {
            shifts: Some(list("sh.txt", &["E", "L", "N"])),
            ..CustomNames::default()
        };
        let e = read_err("staff,Day 1,Day 2,Day 3,Day 4\n", &custom);
        assert_eq!(
            e.to_string(),
            "line 1: sh.txt: holds 3 names, but a 4x4 roster has 4 shifts"
        );
    }
}
