//! The errors of name lists and of names: [`NameProblem`], [`NamesError`] (file, line,
//! column) and [`NamesErrorKind`].

use super::super::names::Axis;
use crate::grid::{SUPPORTED_SIZES, Shape};
use crate::io::quote::Quoted;

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
    /// It holds a byte-order mark (U+FEFF), invisible, and dropped where it starts a line
    /// or a file, so the name would not read back as written.
    #[error("holds a byte-order mark (U+FEFF), which is invisible: delete it")]
    ByteOrderMark,
}

/// A problem with a list of names, with where it is.
///
/// Displays as `source:line:col: message`, or `source: message` when it concerns the whole
/// list (`line` is then 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", location(file, *line, *col))]
pub struct NamesError {
    /// Where the list came from: a file name, or the label given to [`NameList::new`](crate::io::csv::NameList::new).
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
    #[error("name {} {problem}", Quoted(name))]
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
    #[error(
        "name {} is repeated (first on line {first_line}); names must be unique",
        Quoted(name)
    )]
    Duplicate {
        /// The name.
        name: String,
        /// Where it first appears.
        first_line: usize,
    },
    /// The name of an earlier line written with other code points: an accent composed in
    /// one and combined in the other, which look the same.
    #[error(
        "name {} is the one on line {first_line} in another Unicode form (an accent composed \
         in one, a combining mark in the other, which look the same); names must be unique",
        Quoted(name)
    )]
    OtherForm {
        /// The name.
        name: String,
        /// Where the other form appears.
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
