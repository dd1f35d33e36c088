//! Reading puzzles from text.
//!
//! # Formats
//!
//! Lines whose first non-blank character is `#` are comments and are skipped wherever they
//! appear (even inside a grid). Trailing whitespace and CRLF line ends are fine, and a leading
//! byte-order mark is ignored. Blank lines split the input into *blocks*.
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
//! Whitespace-separated tokens are always decimal integers. The [`Alphabet`] only governs the
//! compact forms; the non-numeric alphabets are used only when named, since they conflict with
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
//! 3. `t` is both (16 = 4² or a 16×16 row, 81 = 9² or an 81×81 row): grid form when any value
//!    on that line, or on the following `t − 1` lines of the same width (the rest of what would
//!    be the first grid), exceeds the small side (4 or 9), or when those `t` lines are all
//!    blank (an empty `t×t` grid, not `t` copies of the empty small puzzle); otherwise line
//!    form. A compact single token only counts as a row or line the alphabet can write, so 16
//!    digits are always a 4×4 line with the numeric alphabet.
//! 4. Anything else: the next lines of the block are tried in turn; if none fits, a one-line
//!    block (or one wider than 100) is read as a bad line puzzle, and otherwise the block is
//!    one bad grid reported with the list of supported sizes.
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

use std::collections::VecDeque;
use std::fmt;

use super::lines::{LineError, LineReader, quote_prefix};
use crate::grid::{GridError, Puzzle, Shape, ShapeError};

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
    /// for a blank.
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
            Alphabet::Letters => match c {
                '.' | '0' => Some(0),
                _ => letter.map(|l| l + 1),
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

impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Alphabet::Numeric => "numeric",
            Alphabet::Gecode => "gecode",
            Alphabet::Hex => "hex",
            Alphabet::Letters => "letters",
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
    #[error("unexpected {token:?}: expected {expected}")]
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
    #[error("grid ends after {found} rows, expected {expected} (truncated grid)")]
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
}

/// One puzzle found in the input, or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The first line of the puzzle, 1-based.
    pub line: usize,
    /// The puzzle, or the first problem found in its text.
    pub puzzle: Result<Puzzle, ParseError>,
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
    let mut reader = PuzzleReader::new(LineReader::new(bytes), *opts);
    // Reading from memory cannot fail.
    std::iter::from_fn(|| reader.next_record().ok().flatten()).collect()
}

fn error(line: usize, col: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { line, col, kind }
}

/// The most lines of a block read before its form is decided; past it the block is taken
/// for what its first line says (see [`PuzzleReader`]).
const UNDECIDED_LINES: usize = 128;

/// The most bytes of a block held before its form is decided.
const UNDECIDED_BYTES: usize = 8 << 20;

/// Reads puzzles one at a time from a stream of lines, holding at most one grid (or the few
/// lines that decide a block's form) in memory, so that batches of any length are read with
/// bounded memory.
///
/// It reads what [`parse_puzzles`] documents, plus **JSON lines**: when the first line that
/// is neither blank nor a comment starts with `{` or `[`, every line is one JSON value: an
/// object whose `cells` field (or `puzzle`, `solution` or `grid`) holds the puzzle, or the
/// puzzle itself. A puzzle is an array of rows of numbers, a flat array of `n²` numbers, or
/// a string in the line form; `0` or `null` is a blank. Everything `shiftgrid` writes as JSON
/// (`fill`, `generate`, `solve`) reads back this way.
///
/// A block whose first 128 lines (or 8 MiB) fit no form is reported at its
/// first line and skipped up to the next blank line, instead of being held to its end.
///
/// ```
/// use shiftgrid::io::{lines::LineReader, parse::{ParseOptions, PuzzleReader}};
/// let text = "{\"cells\":[[1,0,0,4],[0,0,0,0],[0,0,0,0],[4,0,0,1]]}\n";
/// let mut r = PuzzleReader::new(LineReader::new(text.as_bytes()), ParseOptions::default());
/// let rec = r.next_record()?.unwrap();
/// assert_eq!(rec.puzzle.unwrap().givens(), 4);
/// assert!(r.next_record()?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct PuzzleReader<R> {
    lines: LineReader<R>,
    opts: ParseOptions,
    out: VecDeque<Record>,
    block: Block,
    /// Decided at the first content line: JSON lines or text.
    json: Option<bool>,
    records: usize,
    done: bool,
}

/// Where the reader is in the current block.
enum Block {
    /// Between blocks.
    Idle,
    /// Lines whose form is not decided yet; the first `scan` fit no form.
    Undecided {
        lines: Vec<(usize, String)>,
        bytes: usize,
        scan: usize,
    },
    /// One puzzle per line.
    Line,
    /// Grids of this shape; the one being read.
    Grid(Shape, Option<GridAcc>),
    /// The rest of a block already reported as unreadable.
    Skip,
}

/// A grid being read row by row.
struct GridAcc {
    cells: Cells,
    first: usize,
    last: usize,
    rows: usize,
    err: Option<ParseError>,
}

impl<R: std::io::BufRead> PuzzleReader<R> {
    /// A reader of the puzzles in `lines`, read as `opts` says.
    pub fn new(lines: LineReader<R>, opts: ParseOptions) -> PuzzleReader<R> {
        PuzzleReader {
            lines,
            opts,
            out: VecDeque::new(),
            block: Block::Idle,
            json: None,
            records: 0,
            done: false,
        }
    }

    /// The next puzzle (or bad puzzle), `None` at the end of the input. An input that holds
    /// no puzzle gives one [`ParseErrorKind::Empty`] record; a line that is too long or not
    /// text gives one last `Err` record.
    ///
    /// # Errors
    /// A failed read of the underlying input.
    pub fn next_record(&mut self) -> std::io::Result<Option<Record>> {
        loop {
            if let Some(r) = self.out.pop_front() {
                self.records += 1;
                return Ok(Some(r));
            }
            if self.done {
                return Ok(None);
            }
            match self.lines.next_line() {
                Some(Ok((no, text))) => self.line(no, &text),
                Some(Err(LineError::Io(e))) => {
                    self.done = true;
                    return Err(e);
                }
                Some(Err(e)) => {
                    // A line too long or not text ends the input: nothing after it is read.
                    self.block = Block::Idle;
                    self.done = true;
                    let (line, col) = e.position();
                    let kind = match e {
                        LineError::TooLong { limit, .. } => ParseErrorKind::LineTooLong { limit },
                        other => ParseErrorKind::NotText {
                            reason: other.to_string(),
                        },
                    };
                    self.push(line, Err(error(line, col, kind)));
                }
                None => {
                    self.end_block();
                    self.done = true;
                    if self.records == 0 && self.out.is_empty() {
                        self.push(1, Err(error(1, 1, ParseErrorKind::Empty)));
                    }
                }
            }
        }
    }

    fn push(&mut self, line: usize, puzzle: Result<Puzzle, ParseError>) {
        self.out.push_back(Record { line, puzzle });
    }

    fn line(&mut self, no: usize, text: &str) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            self.end_block();
            return;
        }
        if trimmed.starts_with('#') {
            return;
        }
        let json = *self
            .json
            .get_or_insert_with(|| trimmed.starts_with('{') || trimmed.starts_with('['));
        if json {
            let puzzle = parse_json_line(no, text, self.opts.alphabet);
            self.push(no, puzzle);
            return;
        }
        match &mut self.block {
            Block::Idle => {
                self.block = if self.opts.format == InputFormat::Line {
                    Block::Line
                } else {
                    Block::Undecided {
                        lines: Vec::new(),
                        bytes: 0,
                        scan: 0,
                    }
                };
                self.line(no, text);
            }
            Block::Undecided { lines, bytes, .. } => {
                *bytes += text.len();
                lines.push((no, text.to_string()));
                self.decide(false);
            }
            Block::Line => {
                let puzzle = parse_line_puzzle(&Line::new(no, text), self.opts.alphabet);
                self.push(no, puzzle);
            }
            Block::Grid(shape, acc) => {
                let shape = *shape;
                let acc = acc.get_or_insert_with(|| GridAcc {
                    cells: Cells::with_capacity(shape.cells()),
                    first: no,
                    last: no,
                    rows: 0,
                    err: None,
                });
                if acc.err.is_none() {
                    let line = Line::new(no, text);
                    if let Err(e) =
                        read_row(&line, shape.side(), self.opts.alphabet, &mut acc.cells)
                    {
                        acc.err = Some(e);
                    }
                }
                acc.rows += 1;
                acc.last = no;
                if acc.rows == shape.side() {
                    if let Block::Grid(_, acc) = &mut self.block {
                        if let Some(acc) = acc.take() {
                            let puzzle = match acc.err {
                                Some(e) => Err(e),
                                None => acc.cells.finish(shape, acc.first),
                            };
                            self.push(acc.first, puzzle);
                        }
                    }
                }
            }
            Block::Skip => {}
        }
    }

    /// Decides the form of an undecided block when its lines allow it (all of them when the
    /// block has `ended`), then reads the lines held so far in that form.
    fn decide(&mut self, ended: bool) {
        let Block::Undecided { lines, bytes, scan } = &mut self.block else {
            return;
        };
        let alphabet = self.opts.alphabet;
        let mut mode = None;
        while *scan < lines.len() && mode.is_none() {
            let (no, text) = &lines[*scan];
            let (t, compact) = Line::new(*no, text).width();
            let fits = (Shape::from_cells(t).ok(), Shape::from_side(t).ok());
            mode = match (self.opts.format, fits) {
                (InputFormat::Grid, (_, Some(s))) => Some(Mode::Grid(s)),
                (InputFormat::Grid, _) | (_, (None, None)) => None,
                (_, (Some(_), None)) => Some(Mode::Line),
                (_, (None, Some(s))) => Some(Mode::Grid(s)),
                (_, (Some(small), Some(big))) => {
                    let cap = alphabet.max_side();
                    if compact && big.side() > cap {
                        Some(Mode::Line)
                    } else if compact && small.side() > cap {
                        Some(Mode::Grid(big))
                    } else if lines.len() >= *scan + big.side() || ended {
                        let end = lines.len().min(*scan + big.side());
                        let views: Vec<Line<'_>> = lines[*scan..end]
                            .iter()
                            .map(|(no, s)| Line::new(*no, s))
                            .collect();
                        Some(if looks_like_grid(&views, 0, small, big, alphabet) {
                            Mode::Grid(big)
                        } else {
                            Mode::Line
                        })
                    } else {
                        // Wait for the rest of what would be the first grid.
                        return;
                    }
                }
            };
            if mode.is_none() {
                *scan += 1;
            }
        }
        let overflow = *scan >= UNDECIDED_LINES || *bytes >= UNDECIDED_BYTES;
        let mode = match mode {
            Some(m) => m,
            None if ended || overflow => {
                let first = lines.first().map(|(no, s)| Line::new(*no, s));
                let wide = first.as_ref().is_some_and(|l| l.width().0 > MAX_SIDE);
                if self.opts.format == InputFormat::Auto && (lines.len() == 1 || wide) {
                    Mode::Line
                } else {
                    Mode::Unknown
                }
            }
            None => return,
        };
        let held = std::mem::take(lines);
        match mode {
            Mode::Line => self.block = Block::Line,
            Mode::Grid(shape) => self.block = Block::Grid(shape, None),
            Mode::Unknown => {
                self.block = Block::Skip;
                if let Some((no, text)) = held.first() {
                    let first = Line::new(*no, text);
                    let err = syntax_check(&first, alphabet).err().unwrap_or_else(|| {
                        let kind = ParseErrorKind::Size(ShapeError::Side(first.width().0));
                        error(first.no, first.first_col(), kind)
                    });
                    self.push(*no, Err(err));
                }
                return;
            }
        }
        for (no, text) in held {
            self.line(no, &text);
        }
    }

    /// Ends the current block: decides its form if still open and reports a grid cut short.
    fn end_block(&mut self) {
        if matches!(self.block, Block::Undecided { .. }) {
            self.decide(true);
        }
        if let Block::Grid(shape, Some(acc)) = std::mem::replace(&mut self.block, Block::Idle) {
            let err = acc.err.unwrap_or_else(|| {
                let kind = ParseErrorKind::WrongRowCount {
                    found: acc.rows,
                    expected: shape.side(),
                };
                error(acc.last + 1, 1, kind)
            });
            self.push(acc.first, Err(err));
        }
        self.block = Block::Idle;
    }
}

/// One JSON line: an object with the puzzle in `cells` (or `puzzle`, `solution`, `grid`),
/// or the puzzle itself (rows, a flat array, or a line-form string).
fn parse_json_line(no: usize, text: &str, alphabet: Alphabet) -> Result<Puzzle, ParseError> {
    use serde_json::Value;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let kind = ParseErrorKind::Json {
            message: e.to_string(),
        };
        error(no, e.column().max(1), kind)
    })?;
    let first_col = text.len() - text.trim_start().len() + 1;
    let missing = || {
        error(
            no,
            first_col,
            ParseErrorKind::Json {
                message: "no puzzle in this record: expected a \"cells\" field holding rows of \
                          numbers (0 or null for a blank)"
                    .into(),
            },
        )
    };
    let puzzle = match &value {
        Value::Object(map) => ["cells", "puzzle", "solution", "grid"]
            .iter()
            .filter_map(|k| map.get(*k))
            .find(|v| v.is_array() || v.is_string())
            .ok_or_else(missing)?,
        v => v,
    };
    let bad = |what: &Value, side: Option<usize>| {
        let token = quote_prefix(&what.to_string());
        let kind = ParseErrorKind::BadToken {
            token,
            expected: spaced_expected(side),
        };
        error(no, first_col, kind)
    };
    let items: Vec<&Value> = match puzzle {
        Value::String(s) => return parse_line_puzzle(&Line::new(no, s), alphabet),
        Value::Array(rows) if !rows.is_empty() && rows.iter().all(Value::is_array) => {
            let shape = Shape::from_side(rows.len())
                .map_err(|e| error(no, first_col, ParseErrorKind::Size(e)))?;
            for row in rows {
                let len = row.as_array().map_or(0, Vec::len);
                if len != shape.side() {
                    let kind = ParseErrorKind::WrongRowLength {
                        found: len,
                        expected: shape.side(),
                    };
                    return Err(error(no, first_col, kind));
                }
            }
            rows.iter().filter_map(Value::as_array).flatten().collect()
        }
        Value::Array(cells) => cells.iter().collect(),
        other => return Err(bad(other, None)),
    };
    let shape = Shape::from_cells(items.len())
        .map_err(|e| error(no, first_col, ParseErrorKind::Size(e)))?;
    let side = shape.side();
    let mut cells = Cells::with_capacity(items.len());
    for v in items {
        let value = match v {
            Value::Null => 0,
            Value::Number(x) => match x.as_u64() {
                Some(k) if k <= side as u64 => k as usize,
                Some(_) => {
                    let kind = ParseErrorKind::OutOfRange {
                        value: quote_prefix(&x.to_string()),
                        side,
                    };
                    return Err(error(no, first_col, kind));
                }
                None => return Err(bad(v, Some(side))),
            },
            other => return Err(bad(other, Some(side))),
        };
        cells.push(value, no, first_col);
    }
    cells.finish(shape, no)
}

/// A whitespace-separated token and its 1-based column in characters.
#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    col: usize,
    text: &'a str,
}

/// A content line: not blank, not a comment.
#[derive(Debug)]
struct Line<'a> {
    /// 1-based line number.
    no: usize,
    toks: Vec<Tok<'a>>,
    /// Column of the last non-whitespace character.
    end_col: usize,
}

impl<'a> Line<'a> {
    fn new(no: usize, s: &'a str) -> Line<'a> {
        let mut toks = Vec::new();
        let mut start: Option<(usize, usize)> = None;
        let mut end_col = 0;
        for (col, (byte, c)) in (1..).zip(s.char_indices()) {
            if c.is_whitespace() {
                if let Some((b, tc)) = start.take() {
                    toks.push(Tok {
                        col: tc,
                        text: &s[b..byte],
                    });
                }
            } else {
                end_col = col;
                start.get_or_insert((byte, col));
            }
        }
        if let Some((b, tc)) = start {
            toks.push(Tok {
                col: tc,
                text: &s[b..],
            });
        }
        Line { no, toks, end_col }
    }

    /// The single token of a compact line, one character per cell.
    fn compact(&self) -> Option<Tok<'a>> {
        match self.toks.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }

    /// The number of cells the line would hold (characters of a single token, else tokens),
    /// and whether it is compact.
    fn width(&self) -> (usize, bool) {
        match self.compact() {
            Some(t) => (t.text.chars().count(), true),
            None => (self.toks.len(), false),
        }
    }

    fn first_col(&self) -> usize {
        self.toks.first().map_or(1, |t| t.col)
    }

    /// Every readable value on the line (unreadable tokens are skipped).
    fn values(&self, alphabet: Alphabet) -> Vec<usize> {
        match self.compact() {
            Some(t) => t.text.chars().filter_map(|c| alphabet.decode(c)).collect(),
            None => self.toks.iter().filter_map(|t| number(t.text)).collect(),
        }
    }

    /// Whether every cell on the line is a blank.
    fn is_blank(&self, alphabet: Alphabet) -> bool {
        match self.compact() {
            Some(t) => t.text.chars().all(|c| alphabet.decode(c) == Some(0)),
            None => self.toks.iter().all(|t| number(t.text) == Some(0)),
        }
    }
}

/// A whitespace-separated token's value: `.` and `0` are blanks, otherwise decimal digits.
/// Huge numbers saturate (they are out of range anyway).
fn number(s: &str) -> Option<usize> {
    if s == "." {
        return Some(0);
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0usize, |v, b| {
        v.saturating_mul(10)
            .saturating_add(usize::from(b - b'0'))
            .min(1 << 20)
    }))
}

fn spaced_expected(side: Option<usize>) -> String {
    match side {
        Some(n) => format!("a number 1-{n}, or 0 or . for a blank"),
        None => "a number, or 0 or . for a blank".to_string(),
    }
}

/// How a block is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Line,
    Grid(Shape),
    /// No line of the block has a supported width.
    Unknown,
}

/// Rule 3: whether lines `i..i+n` of a block read better as one `n×n` grid than as `n`
/// line puzzles of side `small`.
fn looks_like_grid(
    lines: &[Line<'_>],
    i: usize,
    small: Shape,
    big: Shape,
    alphabet: Alphabet,
) -> bool {
    let n = big.side();
    let width = lines[i].width();
    let window = &lines[i..lines.len().min(i + n)];
    let too_big = window
        .iter()
        .filter(|l| l.width() == width)
        .any(|l| l.values(alphabet).iter().any(|&v| v > small.side()));
    too_big
        || (window.len() == n
            && window
                .iter()
                .all(|l| l.width() == width && l.is_blank(alphabet)))
}

/// The first token (or character of a compact token) that is no symbol at all.
fn syntax_check(line: &Line<'_>, alphabet: Alphabet) -> Result<(), ParseError> {
    match line.compact() {
        Some(t) => {
            for (col, c) in (t.col..).zip(t.text.chars()) {
                if alphabet.decode(c).is_none() {
                    let kind = ParseErrorKind::BadToken {
                        token: c.to_string(),
                        expected: alphabet.describe(alphabet.max_side()),
                    };
                    return Err(error(line.no, col, kind));
                }
            }
        }
        None => {
            if let Some(t) = line.toks.iter().find(|t| number(t.text).is_none()) {
                let kind = ParseErrorKind::BadToken {
                    token: quote_prefix(t.text),
                    expected: spaced_expected(None),
                };
                return Err(error(line.no, t.col, kind));
            }
        }
    }
    Ok(())
}

/// Cells read so far, with where each came from.
struct Cells {
    values: Vec<u8>,
    at: Vec<(usize, usize)>,
}

impl Cells {
    fn with_capacity(n: usize) -> Cells {
        Cells {
            values: Vec::with_capacity(n),
            at: Vec::with_capacity(n),
        }
    }

    /// Adds a value already checked to be at most the side (so at most 100).
    fn push(&mut self, value: usize, line: usize, col: usize) {
        self.values.push(u8::try_from(value).unwrap_or(u8::MAX));
        self.at.push((line, col));
    }

    /// The puzzle, checked for repeated givens.
    fn finish(self, shape: Shape, first_line: usize) -> Result<Puzzle, ParseError> {
        let at = self.at;
        let puzzle = Puzzle::new(shape, self.values)
            .map_err(|e| error(first_line, 1, ParseErrorKind::Grid(e)))?;
        if let Err(e) = puzzle.check() {
            let (line, col) = match &e {
                GridError::Duplicate { second, .. } => at
                    .get(second.row * shape.side() + second.col)
                    .copied()
                    .unwrap_or((first_line, 1)),
                _ => (first_line, 1),
            };
            return Err(error(line, col, ParseErrorKind::Grid(e)));
        }
        Ok(puzzle)
    }
}

/// Reads `expected` cells, one per character of `tok`.
fn read_compact(
    line: &Line<'_>,
    tok: Tok<'_>,
    side: usize,
    expected: usize,
    alphabet: Alphabet,
    cells: &mut Cells,
) -> Result<(), ParseError> {
    let mut count = 0;
    for (k, c) in tok.text.chars().enumerate() {
        let col = tok.col + k;
        if k >= expected {
            let found = tok.text.chars().count();
            return Err(error(
                line.no,
                col,
                ParseErrorKind::WrongRowLength { found, expected },
            ));
        }
        let v = alphabet.decode(c).ok_or_else(|| {
            let kind = ParseErrorKind::BadToken {
                token: c.to_string(),
                expected: alphabet.describe(side),
            };
            error(line.no, col, kind)
        })?;
        if v > side {
            let kind = ParseErrorKind::OutOfRange {
                value: c.to_string(),
                side,
            };
            return Err(error(line.no, col, kind));
        }
        cells.push(v, line.no, col);
        count += 1;
    }
    if count < expected {
        let kind = ParseErrorKind::WrongRowLength {
            found: count,
            expected,
        };
        return Err(error(line.no, tok.col + count, kind));
    }
    Ok(())
}

/// Reads `expected` whitespace-separated cells.
fn read_spaced(
    line: &Line<'_>,
    side: usize,
    expected: usize,
    cells: &mut Cells,
) -> Result<(), ParseError> {
    for (k, t) in line.toks.iter().enumerate() {
        if k >= expected {
            let found = line.toks.len();
            return Err(error(
                line.no,
                t.col,
                ParseErrorKind::WrongRowLength { found, expected },
            ));
        }
        let v = number(t.text).ok_or_else(|| {
            let kind = ParseErrorKind::BadToken {
                token: quote_prefix(t.text),
                expected: spaced_expected(Some(side)),
            };
            error(line.no, t.col, kind)
        })?;
        if v > side {
            let kind = ParseErrorKind::OutOfRange {
                value: quote_prefix(t.text),
                side,
            };
            return Err(error(line.no, t.col, kind));
        }
        cells.push(v, line.no, t.col);
    }
    if line.toks.len() < expected {
        let kind = ParseErrorKind::WrongRowLength {
            found: line.toks.len(),
            expected,
        };
        return Err(error(line.no, line.end_col + 1, kind));
    }
    Ok(())
}

/// One puzzle on one line.
fn parse_line_puzzle(line: &Line<'_>, alphabet: Alphabet) -> Result<Puzzle, ParseError> {
    let (count, _) = line.width();
    let size_error = |e| error(line.no, line.first_col(), ParseErrorKind::Size(e));
    let mut cells = Cells::with_capacity(count);
    let shape = match line.compact() {
        Some(tok) => {
            let shape = match Shape::from_cells(count) {
                Ok(s) => s,
                Err(e) => {
                    syntax_check(line, alphabet)?;
                    return Err(size_error(e));
                }
            };
            let side = shape.side();
            if side > alphabet.max_side() {
                let kind = ParseErrorKind::CompactTooLarge {
                    side,
                    alphabet,
                    max: alphabet.max_side(),
                };
                return Err(error(line.no, tok.col, kind));
            }
            read_compact(line, tok, side, count, alphabet, &mut cells)?;
            shape
        }
        None => {
            syntax_check(line, alphabet)?;
            let shape = Shape::from_cells(count).map_err(size_error)?;
            read_spaced(line, shape.side(), count, &mut cells)?;
            shape
        }
    };
    cells.finish(shape, line.no)
}

/// One grid row: `n` tokens, or `n` characters when the alphabet can write the size.
fn read_row(
    line: &Line<'_>,
    n: usize,
    alphabet: Alphabet,
    cells: &mut Cells,
) -> Result<(), ParseError> {
    if let Some(tok) = line.compact() {
        if n <= alphabet.max_side() {
            return read_compact(line, tok, n, n, alphabet, cells);
        }
        if tok.text.chars().count() == n {
            let kind = ParseErrorKind::CompactTooLarge {
                side: n,
                alphabet,
                max: alphabet.max_side(),
            };
            return Err(error(line.no, tok.col, kind));
        }
    }
    read_spaced(line, n, n, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{House, Pos};
    use proptest::prelude::*;

    const DEMO: &str = "006200080\n008970000\n004810500\n000060002\n070000030\n\
                        600050000\n002047100\n003028400\n050001200\n";

    fn opts(format: InputFormat, alphabet: Alphabet) -> ParseOptions {
        ParseOptions { format, alphabet }
    }

    fn parse(text: &str) -> Vec<Record> {
        parse_puzzles(text, &ParseOptions::default())
    }

    fn ok(r: &Record) -> &Puzzle {
        match &r.puzzle {
            Ok(p) => p,
            Err(e) => panic!("record at line {} failed: {e}", r.line),
        }
    }

    fn err(r: &Record) -> &ParseError {
        match &r.puzzle {
            Ok(p) => panic!("record at line {} parsed: {p:?}", r.line),
            Err(e) => e,
        }
    }

    /// The cells of a valid full grid of box size `b`.
    fn pattern(b: usize) -> Vec<u8> {
        crate::io::fixtures::pattern(Shape::new(b).unwrap())
            .cells()
            .to_vec()
    }

    fn spaced_grid(n: usize, cells: &[u8]) -> String {
        cells
            .chunks(n)
            .map(|row| {
                let r: Vec<String> = row.iter().map(u8::to_string).collect();
                r.join(" ") + "\n"
            })
            .collect()
    }

    #[test]
    fn compact_grid_rows() {
        let r = parse(DEMO);
        assert_eq!(r.len(), 1);
        let p = ok(&r[0]);
        assert_eq!(p.shape().side(), 9);
        assert_eq!(p.givens(), 27);
        assert_eq!(p.get(0, 2), 6);
        assert_eq!(r[0].line, 1);
    }

    #[test]
    fn compact_line_equals_grid() {
        let line: String = DEMO.split('\n').collect();
        let a = parse(&line);
        let b = parse(DEMO);
        assert_eq!(ok(&a[0]), ok(&b[0]));
        let dots = line.replace('0', ".");
        assert_eq!(ok(&parse(&dots)[0]), ok(&b[0]));
        let spaced: Vec<String> = line.chars().map(String::from).collect();
        assert_eq!(ok(&parse(&spaced.join(" "))[0]), ok(&b[0]));
    }

    #[test]
    fn comments_crlf_and_trailing_space() {
        let text = "# header\r\n\r\n1 2 . 4   \r\n  # a note inside\r\n3 4 1 2\t\r\n\
                    2 1 4 3\r\n4 3 2 1 \r\n# trailer";
        let r = parse(text);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].line, 3);
        assert_eq!(ok(&r[0]).givens(), 15);
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let r = parse("\u{feff}1234341221434321\n");
        assert!(ok(&r[0]).is_full());
    }

    #[test]
    fn consecutive_grids_without_blank_lines() {
        let g = pattern(2);
        let text = spaced_grid(4, &g).repeat(3);
        let r = parse(&text);
        assert_eq!(r.len(), 3);
        assert_eq!(r.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 5, 9]);
        for rec in &r {
            assert_eq!(ok(rec).cells(), g.as_slice());
        }
    }

    #[test]
    fn bad_puzzle_in_batch_does_not_stop_it() {
        let line: String = DEMO.split('\n').collect();
        let mut bad = line.clone();
        bad.replace_range(10..11, "x");
        let text = format!("{line}\n{bad}\n# c\n{line}\n");
        let r = parse(&text);
        assert_eq!(r.len(), 3);
        ok(&r[0]);
        let e = err(&r[1]);
        assert_eq!((e.line, e.col), (2, 11));
        assert!(matches!(&e.kind, ParseErrorKind::BadToken { token, .. } if token == "x"));
        assert_eq!(r[2].line, 4);
        ok(&r[2]);
    }

    #[test]
    fn bad_grid_spoils_only_itself() {
        let g = spaced_grid(4, &pattern(2));
        let mut rows: Vec<&str> = g.lines().collect();
        rows[1] = "3 4 1";
        let bad = rows.join("\n");
        let text = format!("{g}\n{bad}\n\n{g}");
        let r = parse(&text);
        assert_eq!(r.len(), 3);
        ok(&r[0]);
        let e = err(&r[1]);
        assert_eq!((e.line, e.col), (7, 6));
        assert_eq!(
            e.kind,
            ParseErrorKind::WrongRowLength {
                found: 3,
                expected: 4
            }
        );
        ok(&r[2]);
    }

    #[test]
    fn extra_token_is_located() {
        let text = "1 2 3 4\n3 4 1 2 7  9\n2 1 4 3\n4 3 2 1\n";
        let e = err(&parse(text)[0]).clone();
        assert_eq!((e.line, e.col), (2, 9));
        assert_eq!(
            e.to_string(),
            "line 2, column 9: row has 6 cells, expected 4"
        );
        // Compact rows count characters.
        let text = "420000000\n0070530011\n";
        let e = err(&parse(text)[0]).clone();
        assert_eq!((e.line, e.col), (2, 10));
        let text = "420000000\n00705300\n";
        let e = err(&parse(text)[0]).clone();
        assert_eq!((e.line, e.col), (2, 9));
    }

    #[test]
    fn truncated_grid_names_the_line_after() {
        let text = "1 2 3 4\n3 4 1 2\n\n# next\n1234341221434321\n";
        let r = parse(text);
        assert_eq!(r.len(), 2);
        let e = err(&r[0]);
        assert_eq!((e.line, e.col), (3, 1));
        assert_eq!(
            e.to_string(),
            "line 3, column 1: grid ends after 2 rows, expected 4 (truncated grid)"
        );
        ok(&r[1]);
        // Truncated at the end of the input too.
        let head: String = DEMO.lines().take(8).map(|l| format!("{l}\n")).collect();
        let e = err(&parse(&head)[0]).clone();
        assert_eq!(e.line, 9);
    }

    #[test]
    fn non_numeric_and_out_of_range() {
        let e = err(&parse("1 2 3 4\n3 4 one 2\n2 1 4 3\n4 3 2 1\n")[0]).clone();
        assert_eq!((e.line, e.col), (2, 5));
        assert_eq!(
            e.to_string(),
            "line 2, column 5: unexpected \"one\": expected a number 1-4, or 0 or . for a blank"
        );
        let e = err(&parse("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 10\n")[0]).clone();
        assert_eq!((e.line, e.col), (4, 7));
        assert_eq!(
            e.kind,
            ParseErrorKind::OutOfRange {
                value: "10".into(),
                side: 4
            }
        );
        let e = err(&parse("-1 2 3 4\n")[0]).clone();
        assert!(matches!(e.kind, ParseErrorKind::BadToken { .. }), "{e}");
        // A huge number does not overflow.
        let e =
            err(&parse("1 2 3 99999999999999999999999999\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")[0]).clone();
        assert!(matches!(e.kind, ParseErrorKind::OutOfRange { side: 4, .. }));
    }

    #[test]
    fn unsupported_sizes() {
        // A 5x5 grid.
        let row = "1 2 3 4 5\n";
        let e = err(&parse(&row.repeat(5))[0]).clone();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(matches!(e.kind, ParseErrorKind::Size(ShapeError::Side(5))));
        assert!(
            e.to_string().contains("supported sizes are 4x4, 9x9"),
            "{e}"
        );
        // A line of 80 cells.
        let line = "1".repeat(80);
        let e = err(&parse(&line)[0]).clone();
        assert!(matches!(
            e.kind,
            ParseErrorKind::Size(ShapeError::Cells(80))
        ));
        // Forced line form: a grid row is not a puzzle.
        let r = parse_puzzles("1 2 3 4\n", &opts(InputFormat::Line, Alphabet::Numeric));
        assert!(matches!(
            err(&r[0]).kind,
            ParseErrorKind::Size(ShapeError::Cells(4))
        ));
        // 16x16 compact lines need a named alphabet.
        let line = "1".repeat(256);
        let e = err(&parse(&line)[0]).clone();
        assert!(
            matches!(e.kind, ParseErrorKind::CompactTooLarge { side: 16, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("name another alphabet"));
    }

    #[test]
    fn first_row_too_short_uses_the_next_rows() {
        let text = "1 2 3\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        let e = err(&parse(text)[0]).clone();
        assert_eq!(
            e.kind,
            ParseErrorKind::WrongRowLength {
                found: 3,
                expected: 4
            }
        );
        assert_eq!((e.line, e.col), (1, 6));
    }

    #[test]
    fn empty_input() {
        for text in ["", "\n\n", "# only a comment\n\n  # another\n", "  \t \r\n"] {
            let r = parse(text);
            assert_eq!(r.len(), 1);
            let e = err(&r[0]);
            assert_eq!((e.line, e.col), (1, 1));
            assert_eq!(e.kind, ParseErrorKind::Empty);
            assert_eq!(e.to_string(), "line 1, column 1: no puzzle found");
        }
    }

    #[test]
    fn duplicate_given_is_placed_at_second_occurrence() {
        let text = "# dup\n. 3 . .\n. . . .\n. . . .\n. 3 . .\n";
        let e = err(&parse(text)[0]).clone();
        assert_eq!((e.line, e.col), (5, 3));
        assert_eq!(
            e.kind,
            ParseErrorKind::Grid(GridError::Duplicate {
                symbol: 3,
                house: House::Col(1),
                first: Pos { row: 0, col: 1 },
                second: Pos { row: 3, col: 1 },
            })
        );
        assert!(
            e.to_string()
                .contains("at row 1, column 2 and at row 4, column 2")
        );
        // Compact line: the column is the character's.
        let e = err(&parse("11..............\n")[0]).clone();
        assert_eq!((e.line, e.col), (1, 2));
    }

    #[test]
    fn ambiguous_sixteen_tokens() {
        // 4x4 line puzzles: no value above 4.
        let r = parse("1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
        assert_eq!(r.len(), 2);
        assert_eq!(ok(&r[0]).shape().side(), 4);
        assert_eq!(ok(&r[1]).givens(), 0);
        // A 16x16 grid: a value above 4 on the first row.
        let g = pattern(4);
        let r = parse(&spaced_grid(16, &g));
        assert_eq!(r.len(), 1);
        assert_eq!(ok(&r[0]).cells(), g.as_slice());
        // A 16x16 grid whose first row has only small values but later rows do not.
        let mut h = g.clone();
        for v in &mut h[..16] {
            if *v > 4 {
                *v = 0;
            }
        }
        let r = parse(&spaced_grid(16, &h));
        assert_eq!(r.len(), 1);
        assert_eq!(ok(&r[0]).cells(), h.as_slice());
        // The empty 16x16 grid is one grid, not sixteen empty 4x4 puzzles.
        let r = parse(&". ".repeat(16).trim_end().to_string().repeat_lines(16));
        assert_eq!(r.len(), 1);
        assert_eq!(ok(&r[0]).shape().side(), 16);
        // Forced line form reads a 16x16 row as a (bad) 4x4 line puzzle.
        let r = parse_puzzles(
            &spaced_grid(16, &g),
            &opts(InputFormat::Line, Alphabet::Numeric),
        );
        assert_eq!(r.len(), 16);
        assert!(matches!(
            err(&r[0]).kind,
            ParseErrorKind::OutOfRange { side: 4, .. }
        ));
    }

    trait RepeatLines {
        fn repeat_lines(&self, n: usize) -> String;
    }
    impl RepeatLines for String {
        fn repeat_lines(&self, n: usize) -> String {
            format!("{self}\n").repeat(n)
        }
    }

    #[test]
    fn ambiguous_eighty_one_tokens() {
        let line: String = DEMO.split('\n').collect();
        let spaced: Vec<String> = line.chars().map(String::from).collect();
        let r = parse(&spaced.join(" ").repeat_lines(3));
        assert_eq!(r.len(), 3);
        assert_eq!(ok(&r[2]).shape().side(), 9);
        let g = pattern(9);
        let r = parse(&spaced_grid(81, &g));
        assert_eq!(r.len(), 1);
        assert_eq!(ok(&r[0]).cells(), g.as_slice());
    }

    #[test]
    fn forced_grid_form() {
        let r = parse_puzzles(
            "1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n",
            &opts(InputFormat::Grid, Alphabet::Numeric),
        );
        let e = err(&r[0]);
        assert_eq!(
            e.kind,
            ParseErrorKind::WrongRowCount {
                found: 1,
                expected: 16
            }
        );
        let r = parse_puzzles(DEMO, &opts(InputFormat::Grid, Alphabet::Numeric));
        ok(&r[0]);
        let r = parse_puzzles("1 2 3\n", &opts(InputFormat::Grid, Alphabet::Numeric));
        assert!(matches!(
            err(&r[0]).kind,
            ParseErrorKind::Size(ShapeError::Side(3))
        ));
    }

    fn encode(cells: &[u8], a: Alphabet) -> String {
        cells
            .iter()
            .map(|&v| a.encode(v as usize).unwrap_or('?'))
            .collect()
    }

    #[test]
    fn alphabets() {
        for (a, b) in [
            (Alphabet::Gecode, 4),
            (Alphabet::Gecode, 5),
            (Alphabet::Hex, 4),
            (Alphabet::Letters, 4),
            (Alphabet::Letters, 5),
            (Alphabet::Gecode, 3),
            (Alphabet::Letters, 2),
        ] {
            let n = b * b;
            let mut g = pattern(b);
            for (i, v) in g.iter_mut().enumerate() {
                if i % 3 == 0 {
                    *v = 0;
                }
            }
            let o = opts(InputFormat::Auto, a);
            let line = encode(&g, a);
            let r = parse_puzzles(&line, &o);
            assert_eq!(r.len(), 1, "{a} {n}");
            assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
            // Compact rows, one per line.
            let rows: String = line
                .chars()
                .collect::<Vec<_>>()
                .chunks(n)
                .map(|c| c.iter().collect::<String>() + "\n")
                .collect();
            let r = parse_puzzles(&rows, &o);
            assert_eq!(r.len(), 1, "{a} {n}");
            assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
            // Lower case reads the same.
            let r = parse_puzzles(&line.to_lowercase(), &o);
            assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
        }
        assert_eq!(Alphabet::Gecode.encode(16), Some('G'));
        assert_eq!(Alphabet::Gecode.encode(25), Some('P'));
        assert_eq!(Alphabet::Letters.encode(25), Some('Y'));
        assert_eq!(Alphabet::Hex.decode('0'), Some(1));
        assert_eq!(Alphabet::Hex.decode('f'), Some(16));
        assert_eq!(Alphabet::Hex.decode('G'), None);
        assert_eq!(Alphabet::Gecode.decode('0'), Some(0));
        assert_eq!(
            Alphabet::Gecode.describe(16),
            "a symbol 1-9 and A-G, or 0 or . for a blank"
        );
        assert_eq!(
            Alphabet::Hex.describe(16),
            "a symbol 0-9 and A-F, or . for a blank"
        );
        // Out of range in an alphabet.
        let mut line = encode(&pattern(4), Alphabet::Gecode);
        line.replace_range(5..6, "Z");
        let r = parse_puzzles(&line, &opts(InputFormat::Auto, Alphabet::Gecode));
        let e = err(&r[0]);
        assert_eq!(e.col, 6);
        assert_eq!(
            e.to_string(),
            "line 1, column 6: Z is out of range for a 16x16 grid (symbols 1..16)"
        );
        // Hex has no 0 blank: a 0 is a 1.
        let r = parse_puzzles(&"0.".repeat(128), &opts(InputFormat::Auto, Alphabet::Hex));
        assert!(matches!(
            err(&r[0]).kind,
            ParseErrorKind::Grid(GridError::Duplicate { symbol: 1, .. })
        ));
        // Sixteen letters: a 4x4 line unless a symbol is above 4.
        let r = parse_puzzles(
            "AB..............",
            &opts(InputFormat::Auto, Alphabet::Letters),
        );
        assert_eq!(ok(&r[0]).shape().side(), 4);
    }

    #[test]
    fn not_text() {
        let r = parse_bytes(b"1234\n12\x0034\n", &ParseOptions::default());
        assert_eq!(r.len(), 1);
        let e = err(&r[0]);
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.to_string().contains("NUL byte"), "{e}");
        let r = parse_bytes(b"12\n\xc3\xa9\xff\xfe", &ParseOptions::default());
        let e = err(&r[0]);
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.to_string().contains("invalid UTF-8"), "{e}");
        let r = parse_bytes(b"\x07", &ParseOptions::default());
        assert!(err(&r[0]).to_string().contains("U+0007"));
        let r = parse_puzzles("1\u{1b}[0m", &ParseOptions::default());
        assert_eq!(err(&r[0]).col, 2);
        let r = parse_bytes(DEMO.as_bytes(), &ParseOptions::default());
        ok(&r[0]);
    }

    fn all_options() -> Vec<ParseOptions> {
        let mut v = Vec::new();
        for format in [InputFormat::Auto, InputFormat::Grid, InputFormat::Line] {
            for alphabet in [
                Alphabet::Numeric,
                Alphabet::Gecode,
                Alphabet::Hex,
                Alphabet::Letters,
            ] {
                v.push(opts(format, alphabet));
            }
        }
        v
    }

    fn sane(records: &[Record], what: &str) {
        assert!(!records.is_empty(), "{what}");
        for r in records {
            assert!(r.line >= 1);
            match &r.puzzle {
                Ok(p) => assert!(p.check().is_ok(), "{what}"),
                Err(e) => {
                    assert!(e.line >= 1 && e.col >= 1, "{what}: {e}");
                    let _ = e.to_string();
                }
            }
        }
    }

    /// Any combination of form and alphabet.
    fn any_options() -> impl Strategy<Value = ParseOptions> {
        prop::sample::select(all_options())
    }

    /// Text from characters every reader has a rule for, in random order.
    fn near_text() -> impl Strategy<Value = String> {
        let chars: Vec<char> = "0123456789 .\n\n\n\t#AaGgPZz\r-é,:".chars().collect();
        prop::collection::vec(prop::sample::select(chars), 0..400)
            .prop_map(|cs| cs.into_iter().collect())
    }

    /// Valid inputs of every form: the demo as a grid and as a line, a spaced 16x16 grid,
    /// three 4x4 grids, a gecode-lettered 16x16 line, and a batch mixing forms.
    fn valid_inputs() -> Vec<String> {
        let line: String = DEMO.split('\n').collect();
        vec![
            DEMO.to_string(),
            line.clone(),
            spaced_grid(16, &pattern(4)),
            spaced_grid(4, &pattern(2)).repeat(3),
            encode(&pattern(4), Alphabet::Gecode),
            format!("{line}\n{line}\n\n{DEMO}"),
        ]
    }

    /// One edit of a text: delete the byte at a place, overwrite it, or insert a piece.
    #[derive(Clone, Debug)]
    enum Edit {
        Delete(prop::sample::Index),
        Replace(prop::sample::Index, u8),
        Insert(prop::sample::Index, &'static str),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        const PIECES: [&str; 12] = [
            "", " ", "\n", "\n\n", "#", ".", "0", "9", "17", "x", "Z", "\r\n",
        ];
        prop_oneof![
            any::<prop::sample::Index>().prop_map(Edit::Delete),
            (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
            (
                any::<prop::sample::Index>(),
                prop::sample::select(&PIECES[..])
            )
                .prop_map(|(i, p)| Edit::Insert(i, p)),
        ]
    }

    fn apply(text: &mut Vec<u8>, e: &Edit) {
        match e {
            Edit::Delete(i) if !text.is_empty() => {
                text.remove(i.index(text.len()));
            }
            Edit::Replace(i, b) if !text.is_empty() => {
                let at = i.index(text.len());
                text[at] = *b;
            }
            Edit::Delete(_) | Edit::Replace(..) => {}
            Edit::Insert(i, p) => {
                let at = i.index(text.len() + 1);
                text.splice(at..at, p.bytes());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn random_bytes_never_panic(
            bytes in prop::collection::vec(any::<u8>(), 0..400),
            o in any_options(),
        ) {
            sane(&parse_bytes(&bytes, &o), "bytes");
        }

        #[test]
        fn random_text_never_panics(text in near_text(), o in any_options()) {
            sane(&parse_puzzles(&text, &o), &text);
        }

        #[test]
        fn mutated_puzzles_never_panic(
            start in prop::sample::select(valid_inputs()),
            edits in prop::collection::vec(edit(), 1..5),
            o in any_options(),
        ) {
            let mut text = start.into_bytes();
            for e in &edits {
                apply(&mut text, e);
            }
            sane(&parse_bytes(&text, &o), &String::from_utf8_lossy(&text));
        }
    }

    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("grids")
            .join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn fixture_puzzles(name: &str, o: &ParseOptions) -> Vec<Puzzle> {
        parse_puzzles(&fixture(name), o)
            .iter()
            .map(|r| ok(r).clone())
            .collect()
    }

    #[test]
    fn fixtures_parse() {
        let d = ParseOptions::default();
        let demo = fixture_puzzles("demo_9x9.txt", &d);
        assert_eq!(demo.len(), 1);
        assert_eq!(demo[0], *ok(&parse(DEMO)[0]));
        assert_eq!(demo[0].givens(), 27);
        let fc = fixture_puzzles("fc_report_9x9.txt", &d);
        assert_eq!((fc.len(), fc[0].givens()), (1, 26));
        let top = fixture_puzzles("top95.txt", &d);
        assert_eq!(top.len(), 95);
        assert!(top.iter().all(|p| p.shape().side() == 9));
        for (name, side, count) in [
            ("sudsoln_16x16.txt", 16, 1),
            ("sudsoln_16x16_solutions.txt", 16, 1),
            ("sudsoln_25x25.txt", 25, 2),
            ("sudsoln_25x25_solutions.txt", 25, 2),
            ("janko_16x16.txt", 16, 5),
            ("empty_4x4.txt", 4, 1),
            ("roster_4x4.txt", 4, 1),
        ] {
            let ps = fixture_puzzles(name, &d);
            assert_eq!(ps.len(), count, "{name}");
            assert!(ps.iter().all(|p| p.shape().side() == side), "{name}");
        }
        for name in ["sudsoln_16x16_solutions.txt", "sudsoln_25x25_solutions.txt"] {
            assert!(fixture_puzzles(name, &d).iter().all(Puzzle::is_full));
        }
        assert_eq!(fixture_puzzles("empty_4x4.txt", &d)[0].givens(), 0);
        // tdoku's file is PUZZLE:COUNT[:SOLUTION]; the puzzle is the part before the colon.
        let counts = fixture("tdoku_counts.txt");
        let puzzles: String = counts
            .lines()
            .filter_map(|l| l.split(':').next())
            .map(|p| format!("{p}\n"))
            .collect();
        assert_eq!(parse(&puzzles).iter().map(ok).count(), 43);
    }
}
