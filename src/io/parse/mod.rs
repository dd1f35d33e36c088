//! Reading puzzles from text.
//!
//! # Formats
//!
//! Lines whose first non-blank character is `#` are comments and are skipped wherever they
//! appear (even inside a grid), and a `#` after a space or tab starts a comment to the end
//! of its line. On a line of several fields (split by whitespace, `,`, `;` or `:`) whose
//! first is a whole compact 9×9, 16×16 or 25×25 puzzle (81, 256 or 625 characters), or
//! whose second is one after an identifier of fewer than 16 characters, only that puzzle is
//! read: the other fields are the identifier, rating, solution or count that other tools'
//! lists put beside each puzzle (`4.....8.5…,SE 9.0`, tdoku's `puzzle:count:solution`,
//! sudoku-exchange's `hash puzzle rating`). Trailing whitespace and CRLF line ends are fine, and a
//! byte-order mark at the start of a line is ignored. Blank lines split the input into
//! *blocks*. Grids printed with bars between the boxes and rules between the bands (`4 . . |
//! . . . | 8 . 5`, `4..|...|8.5`, `------+------+------`) read as without them: a rule line
//! or a row of bars alone is skipped (and Simple Sudoku's frame, `*-----------*`), and a bar is a space between spaced cells and nothing
//! between compact ones (a column in a message is still the column in the file). A
//! title line of a word and a number (`Grid 01`, as in Project Euler's file) starts a new
//! block.
//!
//! - **Grid form** (every size): `n` lines of `n` whitespace-separated tokens, each an integer
//!   `1..=n`, or `0` or `.` for a blank. Grids are separated by blank lines; grids that follow
//!   one another without a blank line are also read, `n` rows at a time. Rows may instead be
//!   written *compactly*, one character per cell with no spaces (`420000000`), when the
//!   alphabet has enough symbols: 4×4 and 9×9 with the default numeric alphabet, up to 16×16
//!   or 25×25 with a named one.
//! - **Line form**: one puzzle per line, either `n²` whitespace-separated integers (every size)
//!   or, compactly, `n²` characters (`16` or `81` digits with `.` or `0` for a blank; with a
//!   named alphabet, e.g. 256 characters for 16×16 or 625 for 25×25).
//!
//! Whitespace-separated tokens are decimal integers, or with a letter alphabet named, one
//! letter read in it (`. . C B G P …`). The [`Alphabet`] otherwise governs the compact
//! forms; the non-numeric alphabets are used only when named, since they conflict with
//! each other and with the digits (`0` is a blank in all but [`Alphabet::Hex`], where it is 1).
//!
//! # Automatic detection
//!
//! With [`InputFormat::Auto`] each block is read in one form, decided by its first line. Let `t`
//! be the number of tokens on that line, or the number of characters when it holds a single
//! token:
//!
//! 1. `t = n²` for a supported `n` (16, 81, 256, …, 10 000) and `t` is not itself a supported
//!    side: line form.
//! 2. `t = n` for a supported `n` (4, 9, 25, 36, …, 100) and `t` is not a square of one: grid
//!    form, `n` rows per grid.
//! 3. `t` is both (16 = 4² or a 16×16 row, 81 = 9² or an 81×81 row): among that line and
//!    the following `t − 1` lines of the same width (the rest of what would be the first
//!    grid), grid form when some line holds a value above the small side (4 or 9) and either
//!    most non-blank lines do or some line is blank (a sparse grid), or when those `t` lines
//!    are all blank (an empty `t×t` grid, not `t` copies of the empty small puzzle);
//!    otherwise line form, where a line with such a value is one bad puzzle. A block of
//!    that one line alone is in line form too (no grid has one row). A compact
//!    single token only counts as a row or line the alphabet can write, so 16 digits are
//!    always a 4×4 line with the numeric alphabet.
//! 4. Anything else: the next lines of the block are tried in turn; if none fits, a one-line
//!    block (or one wider than 100) is read as a bad line puzzle, and otherwise the block is
//!    one bad grid reported with the list of supported sizes. When none of its first 128
//!    lines fits, the block is reported then and skipped up to the next good line puzzle,
//!    which starts a new block.
//!
//! [`InputFormat::Line`] reads every line as one puzzle, its size given by its own length;
//! [`InputFormat::Grid`] reads every block as grids whose side is the width of its first line.
//!
//! # Errors
//!
//! Each puzzle found gives one [`Record`]; a bad one gives an `Err` with the line and column of
//! the first problem, and reading goes on with the next puzzle. In a grid, a bad row spoils
//! only its own grid: the next grid starts `n` rows after the first.
//!
//! ```
//! use shiftgrid::io::parse::{parse_puzzles, ParseOptions};
//!
//! let text = "# two 4x4 puzzles\n1 . . 4\n. . . .\n. . . .\n4 . . 1\n\n1..4........4..5\n";
//! let records = parse_puzzles(text, &ParseOptions::default());
//! assert_eq!(records.len(), 2);
//! assert_eq!(records[0].puzzle.as_ref().unwrap().givens(), 4);
//! let err = records[1].puzzle.as_ref().unwrap_err();
//! assert_eq!(err.to_string(), "line 7, column 16: 5 is out of range for a 4x4 grid (symbols 1..4)");
//! ```

use std::fmt;

use super::lines::LineReader;
use super::quote::Quoted;
use crate::grid::{GridError, Puzzle, ShapeError};

mod json;
mod reader;
mod text;

pub use reader::PuzzleReader;
#[cfg(feature = "cli")]
pub(crate) use {reader::without_comment, text::puzzle_field, text::separated};

/// The largest supported side (100×100).
const MAX_SIDE: usize = crate::grid::MAX_BOX * crate::grid::MAX_BOX;

/// How to read the blocks of the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Decide per block of lines (see the module documentation).
    #[default]
    Auto,
    /// Every block holds grids, one row per line.
    Grid,
    /// Every line is one whole puzzle.
    Line,
}

/// The symbols of the compact forms, where every cell is one character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Alphabet {
    /// Digits `1`-`9`, with `0` or `.` for a blank: compact forms for 4×4 and 9×9.
    #[default]
    Numeric,
    /// Gecode's symbols: `1`-`9` are 1..9 and `A`, `B`, … are 10, 11, … (16×16 uses `1`-`9`
    /// and `A`-`G`, 25×25 `1`-`9` and `A`-`P`), with `0` or `.` for a blank.
    Gecode,
    /// Hexadecimal: `0`-`9` are 1..10 and `A`-`F` are 11..16 (for 16×16); only `.` is a blank.
    Hex,
    /// Letters: `A` is 1, `B` is 2, … (16×16 uses `A`-`P`, 25×25 `A`-`Y`), with `0` or `.`
    /// for a blank; the digits `1`-`9` are read as themselves.
    Letters,
}

impl Alphabet {
    /// The largest supported side this alphabet can write one character per cell.
    pub fn max_side(self) -> usize {
        match self {
            Alphabet::Numeric => 9,
            Alphabet::Hex => 16,
            Alphabet::Gecode | Alphabet::Letters => 25,
        }
    }

    /// The alphabet compact text of side `side` is read and written in: this one, except
    /// that [`Alphabet::Hex`], whose `0` is a shift, leaves 4×4 and 9×9 to the digits (where
    /// `0` is a blank), so that a numeric line in a hexadecimal batch keeps its meaning.
    pub fn for_side(self, side: usize) -> Alphabet {
        match self {
            Alphabet::Hex if side <= 9 => Alphabet::Numeric,
            a => a,
        }
    }

    /// The characters that name the symbols `1..=side` of a grid written in this alphabet,
    /// one per cell (as `solve` writes its text): `None` where digits write it (the
    /// numeric alphabet, 4×4 and 9×9 in every alphabet) or it has no room for `side`.
    pub fn symbol_names(self, side: usize) -> Option<Vec<String>> {
        let alphabet = self.for_side(side);
        if alphabet == Alphabet::Numeric || side < 16 || side > alphabet.max_side() {
            return None;
        }
        Some(
            (1..=side)
                .filter_map(|v| alphabet.encode(v))
                .map(String::from)
                .collect(),
        )
    }

    /// The value of the symbol `c` (letters in either case): `Some(0)` for a blank, `None` when
    /// `c` is not a symbol of this alphabet. The value may exceed a grid's side.
    pub fn decode(self, c: char) -> Option<usize> {
        let upper = c.to_ascii_uppercase();
        let letter = upper
            .is_ascii_uppercase()
            .then(|| upper as usize - 'A' as usize);
        let digit = c.to_digit(10).map(|d| d as usize);
        match self {
            Alphabet::Numeric => match c {
                '.' => Some(0),
                _ => digit,
            },
            Alphabet::Gecode => match c {
                '.' => Some(0),
                _ => digit.or(letter.map(|l| l + 10)),
            },
            Alphabet::Hex => match c {
                '.' => Some(0),
                _ => digit
                    .map(|d| d + 1)
                    .or(letter.filter(|&l| l < 6).map(|l| l + 11)),
            },
            // Digits too, as themselves (4x4 and 9x9 are written in digits in every alphabet).
            Alphabet::Letters => match c {
                '.' | '0' => Some(0),
                _ => letter.map(|l| l + 1).or(digit),
            },
        }
    }

    /// The character for `value`: `.` for `0`, `None` when the alphabet has no such symbol.
    pub fn encode(self, value: usize) -> Option<char> {
        let digit = |d: usize| char::from_digit(d as u32, 10);
        let letter = |l: usize| (l < 26).then(|| (b'A' + l as u8) as char);
        match (self, value) {
            (_, 0) => Some('.'),
            (Alphabet::Numeric | Alphabet::Gecode, 1..=9) => digit(value),
            (Alphabet::Numeric, _) => None,
            (Alphabet::Gecode, _) => letter(value - 10),
            (Alphabet::Hex, 1..=10) => digit(value - 1),
            (Alphabet::Hex, 11..=16) => letter(value - 11),
            (Alphabet::Hex, _) => None,
            (Alphabet::Letters, _) => letter(value - 1),
        }
    }

    /// What a cell of a `side×side` grid may hold in this alphabet, for error messages.
    fn describe(self, side: usize) -> String {
        // Group the symbols of 1..=side into runs of consecutive characters: "1-9 and A-G".
        let mut runs: Vec<(char, char)> = Vec::new();
        for c in (1..=side).filter_map(|v| self.encode(v)) {
            match runs.last_mut() {
                Some((_, end)) if *end as u32 + 1 == c as u32 => *end = c,
                _ => runs.push((c, c)),
            }
        }
        let runs: Vec<String> = runs
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        let blank = if self == Alphabet::Hex { "." } else { "0 or ." };
        format!("a symbol {}, or {blank} for a blank", runs.join(" and "))
    }
}

/// The alphabet as the command line's `--alphabet` names it (`numeric`, `1-9A`, `0-9A-F`,
/// `A-Z`).
impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Alphabet::Numeric => "numeric",
            Alphabet::Gecode => "1-9A",
            Alphabet::Hex => "0-9A-F",
            Alphabet::Letters => "A-Z",
        })
    }
}

/// How to read the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Grid form, line form, or detect per block.
    pub format: InputFormat,
    /// The symbols of the compact forms.
    pub alphabet: Alphabet,
}

/// A problem in the input, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {col}: {kind}")]
pub struct ParseError {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based, counted in characters.
    pub col: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a puzzle's text.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The input holds no puzzle: it is empty or all blank and comment lines.
    #[error("no puzzle found")]
    Empty,
    /// The input is not text: invalid UTF-8, NUL bytes or other control characters.
    #[error("input is not text: {reason}")]
    NotText {
        /// What was found.
        reason: String,
    },
    /// A token or character that is not a symbol.
    #[error("unexpected {}: expected {expected}", Quoted(token))]
    BadToken {
        /// The token (or character, in a compact form) as written.
        token: String,
        /// What a cell may hold.
        expected: String,
    },
    /// A symbol larger than the grid's side.
    #[error("{value} is out of range for a {side}x{side} grid (symbols 1..{side})")]
    OutOfRange {
        /// The symbol as written.
        value: String,
        /// The grid side `n`.
        side: usize,
    },
    /// A grid row with too many or too few cells.
    #[error("row has {found} cells, expected {expected}")]
    WrongRowLength {
        /// Cells on the row (tokens, or characters in a compact row).
        found: usize,
        /// The grid side.
        expected: usize,
    },
    /// A grid that ends before its last row.
    #[error(
        "grid ends after {found} {}, expected {expected} (truncated grid)",
        if *found == 1 { "row" } else { "rows" }
    )]
    WrongRowCount {
        /// Rows read.
        found: usize,
        /// The grid side.
        expected: usize,
    },
    /// A puzzle of an unsupported size; the message lists the supported sizes.
    #[error(transparent)]
    Size(ShapeError),
    /// A grid too large to write one character per cell in the alphabet in use.
    #[error(
        "{side}x{side} puzzles need more symbols than the {alphabet} alphabet has for one \
         character per cell (it goes up to {max}x{max}): separate the numbers with spaces or \
         name another alphabet"
    )]
    CompactTooLarge {
        /// The grid side.
        side: usize,
        /// The alphabet in use.
        alphabet: Alphabet,
        /// The alphabet's largest side.
        max: usize,
    },
    /// The cells break a rule, such as a symbol given twice in a row, column or block.
    #[error(transparent)]
    Grid(GridError),
    /// A line longer than the readers accept (see [`crate::io::lines::MAX_LINE`]); nothing
    /// after it is read.
    #[error("line is longer than {} MiB ({limit} bytes): not a puzzle file (a 100x100 puzzle on one line is about 30 KB)", limit >> 20)]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A JSON line that cannot be read, or that holds no puzzle.
    #[error("bad JSON record: {message}")]
    Json {
        /// What is wrong.
        message: String,
    },
    /// Text read as one puzzle ([`str::parse`]) holds another after the first.
    #[error("more than one puzzle: another starts here (read a batch with parse_puzzles)")]
    SeveralPuzzles,
    /// Text read as a full grid ([`str::parse`] into a [`Grid`](crate::Grid)) has a blank.
    #[error("a full grid has no blank cells: this one has {blanks}")]
    Blanks {
        /// How many cells are blank.
        blanks: usize,
    },
}

impl ParseErrorKind {
    /// Whether this error ends the input (a line too long or not text): nothing after it
    /// is read, so a binary file gives one error rather than thousands.
    pub fn ends_input(&self) -> bool {
        matches!(
            self,
            ParseErrorKind::NotText { .. } | ParseErrorKind::LineTooLong { .. }
        )
    }

    /// Whether this is a letter met where the digits are read: the input is likely written
    /// in a letter alphabet ([`Alphabet`], through
    /// [`ParseOptions::alphabet`]), as the message says.
    pub fn wants_alphabet(&self) -> bool {
        matches!(self, ParseErrorKind::BadToken { expected, .. } if expected.contains(text::LETTERS_NOTE))
    }
}

/// One puzzle found in the input, or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The first line of the puzzle, 1-based.
    pub line: usize,
    /// The puzzle, or the first problem found in its text.
    pub puzzle: Result<Puzzle, ParseError>,
}

/// One puzzle in any text form of [`parse_puzzles`] (grid, line, JSON record; the default
/// [`ParseOptions`]: detected form, numeric alphabet).
///
/// ```
/// use shiftgrid::Puzzle;
/// let p: Puzzle = "1 . . 4\n. 4 1 .\n. 1 4 .\n4 . . 1".parse().unwrap();
/// assert_eq!(p.givens(), 8);
/// assert_eq!(p.to_string(), "1 . . 4\n. 4 1 .\n. 1 4 .\n4 . . 1");
/// assert_eq!(format!("{p:#}"), "1..4.41..14.4..1");
/// let e = "1234\n4321".parse::<Puzzle>().unwrap_err();
/// assert_eq!(e.to_string(), "line 2, column 1: grid ends after 2 rows, expected 4 (truncated grid)");
/// let e = "1..4.41..14.4..1\n4..1.14..41.1..4".parse::<Puzzle>().unwrap_err();
/// assert_eq!((e.line, e.kind), (2, shiftgrid::io::parse::ParseErrorKind::SeveralPuzzles));
/// ```
impl std::str::FromStr for Puzzle {
    type Err = ParseError;

    /// # Errors
    /// The first problem in the text ([`ParseErrorKind`]), including
    /// [`ParseErrorKind::SeveralPuzzles`] at the line where a second puzzle starts.
    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        let mut reader =
            PuzzleReader::new(LineReader::new(text.as_bytes()), ParseOptions::default());
        // Reading from memory cannot fail, and an input without a puzzle gives an
        // `Empty` record.
        let mut next = || reader.next_record().ok().flatten();
        let puzzle = match next() {
            Some(first) => first.puzzle?,
            None => return Err(error(1, 1, ParseErrorKind::Empty)),
        };
        match next() {
            None => Ok(puzzle),
            // Text after the puzzle that is no puzzle: what is wrong with it.
            Some(Record { puzzle: Err(e), .. }) => Err(e),
            Some(second) => Err(ParseError {
                line: second.line,
                col: 1,
                kind: ParseErrorKind::SeveralPuzzles,
            }),
        }
    }
}

/// A full grid in any text form of [`parse_puzzles`], checked valid.
///
/// ```
/// use shiftgrid::Grid;
/// let g: Grid = "1234341221434321".parse().unwrap();
/// assert_eq!(g.cells()[4], 3);
/// assert!("12343412214343.1".parse::<Grid>().is_err());
/// ```
impl std::str::FromStr for crate::Grid {
    type Err = ParseError;

    /// # Errors
    /// As for [`Puzzle`], and [`ParseErrorKind::Blanks`] when a cell is blank.
    fn from_str(text: &str) -> Result<crate::Grid, ParseError> {
        let puzzle: Puzzle = text.parse()?;
        let blanks = puzzle.cells().iter().filter(|&&v| v == 0).count();
        if blanks > 0 {
            return Err(ParseError {
                line: 1,
                col: 1,
                kind: ParseErrorKind::Blanks { blanks },
            });
        }
        crate::Grid::new(puzzle.shape(), puzzle.cells().to_vec()).map_err(|e| ParseError {
            line: 1,
            col: 1,
            kind: ParseErrorKind::Grid(e),
        })
    }
}

/// Parses every puzzle in `text`.
///
/// Gives one [`Record`] per puzzle found, in order. A bad puzzle gives an `Err` record and
/// parsing continues with the next one, so a batch keeps going. When the input holds no puzzle
/// at all, the result is a single `Err` record ([`ParseErrorKind::Empty`], line 1, column 1).
/// A control character other than tab, CR and LF ends the input with a
/// [`ParseErrorKind::NotText`] record naming it (the puzzles before it are read). Puzzles
/// repeating a given in a row, column or block are `Err` records ([`ParseErrorKind::Grid`])
/// placed at the second occurrence. This is [`PuzzleReader`] over a string.
pub fn parse_puzzles(text: &str, opts: &ParseOptions) -> Vec<Record> {
    parse_bytes(text.as_bytes(), opts)
}

/// Parses every puzzle in raw bytes, as [`parse_puzzles`] does.
///
/// Invalid UTF-8, NUL bytes and other control characters (except tab, CR and LF) end the
/// input with an `Err` record ([`ParseErrorKind::NotText`]) naming the line and column of
/// the first bad byte.
pub fn parse_bytes(bytes: &[u8], opts: &ParseOptions) -> Vec<Record> {
    let mut reader = PuzzleReader::new(LineReader::new(bytes).lossy_comments(), *opts);
    // Reading from memory cannot fail.
    std::iter::from_fn(|| reader.next_record().ok().flatten()).collect()
}

fn error(line: usize, col: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { line, col, kind }
}

#[cfg(test)]
mod tests;
