//! The errors of roster CSV and name lists: [`NamesError`] for a name list (file, line,
//! column), [`ExportError`] for writing, [`CsvError`] for reading (line, field).

use std::io;

mod names;

pub use names::{NameProblem, NamesError, NamesErrorKind};

use super::names::Axis;
use crate::grid::{GridError, Shape, ShapeError};
use crate::io::quote::Quoted;

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
    Grid(GridError),
    /// A grid label that cannot be written (see [`check_name`](super::check_name)).
    #[error("grid label {} {problem}", Quoted(label))]
    Label {
        /// The label.
        label: String,
        /// Why not.
        problem: NameProblem,
    },
    /// A grid label already used in the same long file (the grids would read back as one).
    #[error("grid label {} is used twice in one file: each grid needs its own", Quoted(.0))]
    RepeatedLabel(String),
    /// A row would be longer than a line may be when it is read back (the names are too
    /// long for this roster).
    #[error(
        "a roster row would be {bytes} bytes ({what}), over the {limit} bytes a line may \
         hold when it is read back: use shorter names"
    )]
    RowTooLong {
        /// Which row: the header, or whose.
        what: String,
        /// Its length with delimiters and quoting.
        bytes: usize,
        /// The most a line may hold ([`MAX_LINE`](crate::io::lines::MAX_LINE)).
        limit: usize,
    },
    /// Writing failed. (The message holds the cause, so it is not also given as the
    /// source: a chain of both would say it twice.)
    #[error("cannot write the roster: {0}")]
    Io(io::Error),
}

impl From<io::Error> for ExportError {
    fn from(e: io::Error) -> ExportError {
        ExportError::Io(e)
    }
}

impl From<GridError> for ExportError {
    fn from(e: GridError) -> ExportError {
        ExportError::Grid(e)
    }
}

/// A problem in a roster CSV, with where it is.
///
/// Displays as `line L, field F: message`, or `line L: message` when no single field is to
/// blame, with ` (grid "W2")` after it in a long file of several labelled grids.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "line {line}{}: {kind}{}",
    field.map(|f| format!(", field {f}")).unwrap_or_default(),
    grid.as_deref().map(|g| format!(" (grid {})", crate::io::quote::Quoted(g))).unwrap_or_default()
)]
pub struct CsvError {
    /// The line, 1-based (a record's first line when it spans several).
    pub line: usize,
    /// The field (the spreadsheet column, 1-based) when one is to blame.
    pub field: Option<usize>,
    /// What is wrong.
    pub kind: CsvErrorKind,
    /// The label of the grid it is in, in a long file with a `grid` column (boxed: errors
    /// stay small).
    pub grid: Option<Box<String>>,
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
    #[error("{days} day columns: {source}{hint}")]
    Size {
        /// The number of day columns.
        days: usize,
        /// Why it is not supported.
        source: ShapeError,
        /// A guess at the slip, for the message: columns past a supported size (`; a 9x9
        /// roster has 9 days: is "Notes" one?`), or days missing from one; may be empty.
        hint: String,
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
        "{found} staff row{}, but a {shape} roster has {} staff (one row each){}",
        if *found == 1 { "" } else { "s" },
        shape.side(),
        if *header_like_row {
            "; the first line was read as the header, but it reads like a staff row: a wide \
             roster's first line names the days (such as `staff,Day 1,Day 2,…`)"
        } else {
            ""
        }
    )]
    RowCount {
        /// Staff rows found (so far, when there are too many).
        found: usize,
        /// The roster's shape.
        shape: Shape,
        /// Whether the roster is one row short and its header reads like a staff row (its
        /// day names are shifts as the rows give them): a file with no header line.
        header_like_row: bool,
    },
    /// A staff or day name, or grid label, that cannot be used (see [`check_name`](super::check_name)).
    #[error("{what} {} {problem}", Quoted(name))]
    BadName {
        /// `staff`, `day` or `grid label`.
        what: String,
        /// The text.
        name: String,
        /// Why not.
        problem: NameProblem,
    },
    /// A name that is not on the list for its axis. Without a list for that axis, only the
    /// default names and numbers are known: other names need a [`NameList`](super::NameList).
    #[error("unknown {axis} {}: expected {expected}", Quoted(name))]
    Unknown {
        /// Which axis.
        axis: Axis,
        /// The text as written.
        name: String,
        /// What would be accepted.
        expected: String,
    },
    /// A roster read without a shift list that names more or fewer shifts of its own than
    /// its size: fewer cannot be completed without the others' names. With too many, the
    /// error is placed where the name used least is first used.
    #[error(
        "the roster names {found} shift{} of its own ({}), but a {side}x{side} roster has \
         {side}: {}name all {side}, in order, in a shift list",
        if *found == 1 { "" } else { "s" },
        quoted_list(names),
        rarest.as_ref().map_or(String::new(), |(name, uses)| format!(
            "{} is the least used ({}): correct it, or ",
            Quoted(name),
            if *uses == 1 { "once, here".to_string() } else { format!("{}, first here", times(*uses)) }
        ))
    )]
    OwnShifts {
        /// Distinct names found (so far, when there are too many).
        found: usize,
        /// The roster's side.
        side: usize,
        /// The names found so far, in order of first use (each its first 40 characters).
        names: Vec<String>,
        /// With more names than the size, the one used least and how many cells use it.
        rarest: Option<(String, usize)>,
    },
    /// A roster read without a shift list whose own shift names include two that look like
    /// one name misspelt: a typo would otherwise pass for a shift. The error is placed
    /// where the one used less is first used.
    #[error(
        "shift {} (used {}) looks like {} (used {}, first on line {}, field {}) misspelt: \
         correct it, or name the shifts in a shift list",
        Quoted(name),
        times(*uses),
        Quoted(like),
        times(*like_uses),
        like_at.0,
        like_at.1
    )]
    LookAlikeShifts {
        /// The name used less (of two used as often, the one met later).
        name: String,
        /// How many cells use it.
        uses: usize,
        /// The name it looks like.
        like: String,
        /// How many cells use that one.
        like_uses: usize,
        /// Where that one is first used (line, field).
        like_at: (usize, usize),
    },
    /// A roster read without a shift list that gives some shifts as numbers (or default
    /// names) and others as names of its own: the fewer kind is reported, as the slip.
    #[error(
        "shift {} is {}, but the roster's other shifts are {others}",
        Quoted(name),
        if *number { "a number" } else { "a name" }
    )]
    MixedShifts {
        /// The shift as written.
        name: String,
        /// Whether it is a number (or default name) among names.
        number: bool,
        /// What the others are, for the message.
        others: String,
    },
    /// Two rows for one staff member in a wide roster.
    #[error(
        "staff {} has a second row (the first is on line {first_line})",
        Quoted(name)
    )]
    DuplicateStaff {
        /// The name.
        name: String,
        /// The line of the first row.
        first_line: usize,
    },
    /// Two columns for one day in a wide roster.
    #[error(
        "day {} has a second column (the first is field {first_field})",
        Quoted(name)
    )]
    DuplicateDay {
        /// The name.
        name: String,
        /// The field of the first column.
        first_field: usize,
    },
    /// Two rows for one staff member on one day in a long roster.
    #[error(
        "staff {staff_q} on day {day_q} is assigned a second time (first on line {first_line})", day_q = Quoted(day), staff_q = Quoted(staff))]
    DuplicateCell {
        /// The staff name.
        staff: String,
        /// The day name.
        day: String,
        /// The line of the first assignment.
        first_line: usize,
    },
    /// A staff member or day of the name list with no row or column.
    #[error("no {} for {axis} {name_q} (from {source_name})", if *axis == Axis::Day { "column" } else { "row" }, name_q = Quoted(name))]
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
    /// More distinct staff or day names in one grid of a long roster than it may spell.
    #[error("more than {limit} different {axis} names")]
    TooManyNames {
        /// Which axis.
        axis: Axis,
        /// The largest side.
        limit: usize,
    },
    /// A long roster naming staff and days of its own (no list), as many of one as of the
    /// other, which is not a supported side.
    #[error(
        "the file names {count} {}: a roster has 4, 9, 16, 25, 36, 49, 64, 81 or 100; list \
         every one, with an empty shift where none is assigned, or name them with a name list",
        axis.plural()
    )]
    OwnCount {
        /// Which axis.
        axis: Axis,
        /// How many names.
        count: usize,
    },
    /// A long roster naming staff or days of its own, not as many as its name lists give.
    #[error(
        "the file names {count} {}, but its name lists make it a {shape} roster; list every \
         one, with an empty shift where none is assigned, or name them with a name list",
        axis.plural()
    )]
    OwnCountListed {
        /// Which axis.
        axis: Axis,
        /// How many names.
        count: usize,
        /// The size the lists give.
        shape: Shape,
    },
    /// A long roster naming different numbers of staff and days of its own.
    #[error("the file names {staff} staff but {days} days: a roster has as many of each")]
    OwnCounts {
        /// Staff names.
        staff: usize,
        /// Day names.
        days: usize,
    },
    /// A long roster with staff (or day) names of its own whose order it does not give:
    /// the rows on the first row's day (of its staff member) must name them all.
    #[error(
        "the order of the {} is not given: the rows of {anchor_q}, the first row's {}, name \
         {listed} of the {count} {}; list every one there, with an empty shift where none is \
         assigned (as shiftgrid writes long rosters), or give their order with a name list",
        axis.plural(),
        if *axis == Axis::Staff { "day" } else { "staff member" },
        axis.plural(),
        anchor_q = Quoted(anchor))]
    Unordered {
        /// The axis whose order is missing.
        axis: Axis,
        /// The first row's name on the other axis.
        anchor: String,
        /// How many of them those rows name.
        listed: usize,
        /// How many the file names.
        count: usize,
    },
    /// A long roster's row with a value under a column its header leaves unnamed, ending
    /// before a named column: its fields are out of place.
    #[error(
        "{} is under a column the header does not name, and the row ends before the {} \
         column (field {field}): are the fields out of place? (name every column of the \
         header, or remove the empty one)",
        Quoted(value),
        Quoted(column)
    )]
    UnnamedColumn {
        /// The value under the unnamed column.
        value: String,
        /// The named column the row does not reach.
        column: String,
        /// Its field number, from 1.
        field: usize,
    },
    /// A long roster with staff (or day) names of its own that its rows list in different
    /// orders: the first row's day (staff member) gives one, another day (staff member)
    /// another, as in a file sorted by shift.
    #[error(
        "the rows list the {} in different orders: those of {other_q} have {late_q} after \
         {earlier_q}, where those of {anchor_q}, the first row's {}, have it first; sort the \
         file by staff and day (as shiftgrid writes long rosters), or give the order with a \
         name list",
        axis.plural(),
        if *axis == Axis::Staff { "day" } else { "staff member" },
        anchor_q = Quoted(&names.anchor), other_q = Quoted(&names.other),
        late_q = Quoted(&names.late), earlier_q = Quoted(&names.earlier))]
    OrderDiffers {
        /// The axis listed in different orders.
        axis: Axis,
        /// The names the message gives.
        names: Box<OrderNames>,
    },
    /// A long roster naming more staff or days of its own than make a roster, one of which
    /// is missing from the rows that give their order: most likely a typo.
    #[error(
        "{axis} {name_q} is not among the {listed} {} on the rows of {anchor_q}, which are as \
         many as the roster has: a misspelling, here or there? List every one there, with \
         an empty shift where none is assigned, or name them with a name list",
        axis.plural(),
        anchor_q = Quoted(anchor), name_q = Quoted(name))]
    Stray {
        /// The axis of the name.
        axis: Axis,
        /// The name (its first 40 characters).
        name: String,
        /// The first row's name on the other axis, whose rows give the order.
        anchor: String,
        /// How many names of the axis those rows give.
        listed: usize,
    },
    /// A name list that does not fit this roster.
    #[error(transparent)]
    Names(NamesError),
    /// A shift given twice in one staff member's row, one day or one block.
    #[error(
        "shift {shift_q} is given twice {place} (also at line {other_line}, field {other_field})", shift_q = Quoted(shift))]
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

/// A [`CsvError`] at `line` (and `field`).
pub(super) fn err(line: usize, field: Option<usize>, kind: CsvErrorKind) -> CsvError {
    CsvError {
        line,
        field,
        kind,
        grid: None,
    }
}

/// The names of a [`CsvErrorKind::OrderDiffers`] error (boxed: errors stay small).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderNames {
    /// The first row's name on the other axis, whose rows give the order.
    pub anchor: String,
    /// The name on the other axis whose rows list it in another order.
    pub other: String,
    /// The name those rows list too late.
    pub late: String,
    /// The name they list before it.
    pub earlier: String,
}

/// `once`, `twice`, `3 times`: how many cells use a name, for messages.
fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// Names quoted and joined for a message, the first ten and `…` when there are more than
/// twelve.
pub(super) fn quoted_list(names: &[String]) -> String {
    let all: Vec<String> = names.iter().map(|n| Quoted(n).to_string()).collect();
    if all.len() <= 12 {
        all.join(", ")
    } else {
        format!("{}, …", all[..10].join(", "))
    }
}
