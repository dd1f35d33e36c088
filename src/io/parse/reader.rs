//! The streaming reader: blocks of lines, the decision of each block's form (the rules in the
//! [parent module](super)), and grids gathered row by row with bounded memory.

use std::collections::VecDeque;

use super::json::parse_json_line;
use super::text::{
    Cells, Line, Mode, looks_like_grid, parse_line_puzzle, puzzle_field, read_row, syntax_check,
};
use super::{
    Alphabet, InputFormat, MAX_SIDE, ParseError, ParseErrorKind, ParseOptions, Record, error,
};
use crate::grid::{Puzzle, Shape, ShapeError};
use crate::io::lines::{LineError, LineReader};

/// The most lines of a block read before its form is decided; past it the block is taken
/// for what its first line says (see [`PuzzleReader`]).
const UNDECIDED_LINES: usize = 128;

/// The most bytes of a block held before its form is decided.
const UNDECIDED_BYTES: usize = 8 << 20;

/// Reads puzzles one at a time from a stream of lines, holding at most one grid (or the few
/// lines that decide a block's form) in memory, so that batches of any length are read with
/// bounded memory.
///
/// It reads what [`parse_puzzles`](super::parse_puzzles) documents, plus **JSON lines**: when
/// the first line that is neither blank nor a comment starts with `{` or `[`, every line is one
/// JSON value: an object whose `cells` field (or `puzzle`, `solution` or `grid`) holds the
/// puzzle, or the puzzle itself. A puzzle is an array of rows of numbers, a flat array of `n²`
/// numbers, or a string in the line form; `0` or `null` is a blank. Everything `shiftgrid`
/// writes as JSON (`fill`, `generate`, `solve`) reads back this way.
///
/// A block whose first 128 lines (or 8 MiB) fit no form is reported at its first line and
/// skipped up to the next blank line or (unless grids are asked for) the next good line
/// puzzle, which starts a new block, instead of being held to its end.
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
    /// For the last compact rows read without their bars: the line, and the column in the
    /// file of each character left (so that an error names the column as the file has it).
    columns: VecDeque<(usize, Vec<usize>)>,
}

/// How many lines' column maps are kept: more than the rows of any grid or the lines a
/// block waits for its form.
const COLUMN_MAPS: usize = 256;

/// The records one by one, as [`PuzzleReader::next_record`] gives them (after a failed
/// read, `None`).
impl<R: std::io::BufRead> Iterator for PuzzleReader<R> {
    type Item = std::io::Result<Record>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

impl<R> std::fmt::Debug for PuzzleReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PuzzleReader")
            .field("opts", &self.opts)
            .field("records", &self.records)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
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
    /// The rest of a block already reported as unreadable, up to a good line puzzle.
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
            columns: VecDeque::new(),
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
                    // The lines held before it are read as if the input ended there (spaced
                    // 9x9 lines wait up to 81 lines for their form); a grid it cuts short is
                    // not reported beside it.
                    self.decide(true);
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
                    self.end_block(true);
                    self.done = true;
                    if self.records == 0 && self.out.is_empty() {
                        self.push(1, Err(error(1, 1, ParseErrorKind::Empty)));
                    }
                }
            }
        }
    }

    /// Keeps line `no`'s map from the columns read to the columns in the file (the most
    /// recent [`COLUMN_MAPS`] lines'), for the errors found in it.
    fn remember_columns(&mut self, no: usize, map: Vec<usize>) {
        if self.columns.len() == COLUMN_MAPS {
            self.columns.pop_front();
        }
        self.columns.push_back((no, map));
    }

    fn push(&mut self, line: usize, mut puzzle: Result<Puzzle, ParseError>) {
        if let Err(e) = &mut puzzle {
            // A column of a row read without its bars: the column in the file.
            if let Some((_, map)) = self.columns.iter().find(|(l, _)| *l == e.line) {
                e.col = match map.get(e.col.wrapping_sub(1)) {
                    Some(&c) => c,
                    None => map.last().map_or(e.col, |&c| c + 1),
                };
            }
        }
        self.out.push_back(Record { line, puzzle });
    }

    fn line(&mut self, no: usize, text: &str) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            self.end_block(false);
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
        let text = without_comment(text);
        let trimmed = text.trim();
        if is_rule(trimmed)
            || trimmed
                .chars()
                .all(|c| matches!(c, '|' | '+') || c.is_whitespace())
        {
            // `------+-------+------` between the bands of a printed grid, or a row of
            // bars alone (a spacer).
            return;
        }
        let field = match self.opts.format {
            InputFormat::Grid => None,
            _ => puzzle_field(text),
        };
        if let Some(field) = field {
            // A whole compact puzzle among other fields: only it is read, where it stands
            // (so that a column in a message is still the column in the file).
            let before = &text[..field.start];
            if before.trim().is_empty() {
                return self.content(no, &text[..field.end]);
            }
            let blank = " ".repeat(before.chars().count());
            return self.content(no, &format!("{blank}{}", &text[field]));
        }
        if let Some((spaced, map)) = super::text::separated(text, false) {
            // A grid's row or a line puzzle saved as CSV: read as spaced numbers, its
            // columns kept for messages.
            self.remember_columns(no, map);
            return self.content(no, &spaced);
        }
        if is_title(trimmed) {
            // `Grid 01` before each puzzle (Project Euler's file): a new block.
            self.end_block(false);
            return;
        }
        if text.contains('|') {
            let (text, map) = without_bars_mapped(text);
            if let Some(map) = map {
                self.remember_columns(no, map);
            }
            return self.content(no, &text);
        }
        self.content(no, text);
    }

    /// A line of puzzle text (not blank, a comment, JSON or a rule), read into the block.
    fn content(&mut self, no: usize, text: &str) {
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
                self.content(no, text);
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
            Block::Skip => {
                // Skipped up to a good line puzzle, which starts a new block: puzzles
                // after many bad lines are still read (garbage that happens to have a
                // grid row's width does not end it).
                let line = Line::new(no, text);
                if self.opts.format != InputFormat::Grid
                    && Shape::from_cells(line.width().0).is_ok()
                    && parse_line_puzzle(&line, self.opts.alphabet).is_ok()
                {
                    self.block = Block::Idle;
                    self.content(no, text);
                }
            }
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
                    let lettered = big.side() <= Alphabet::Letters.max_side();
                    // What no small line puzzle holds (a letter, a digit above its side),
                    // or nothing at all (no small puzzle is empty; a grid's row may be).
                    let unlike_small = text.chars().any(|c| {
                        c.is_ascii_alphabetic()
                            || c.to_digit(10).is_some_and(|d| d as usize > small.side())
                    }) || text
                        .chars()
                        .all(|c| matches!(c, '.' | '0') || c.is_whitespace());
                    if compact && big.side() > cap && lettered && unlike_small {
                        // Rows one character per cell of a 16x16 grid in an alphabet not
                        // named, or small line puzzles: read as that grid (whose error
                        // names the alphabet) when its rows hold more distinct symbols
                        // than any small puzzle has, not as a small puzzle per row. (A
                        // first line a small puzzle may be is read as one at once, so a
                        // list streamed from a pipe is read as it comes.)
                        if lines.len() < *scan + big.side() && !ended {
                            return;
                        }
                        let rows = &lines[*scan..lines.len().min(*scan + big.side())];
                        let mut seen = std::collections::BTreeSet::new();
                        let mut whole = rows.len() == big.side();
                        for (no, s) in rows {
                            whole &= Line::new(*no, s).width() == (t, true);
                            seen.extend(s.chars().filter(|c| !c.is_whitespace() && *c != '.'));
                        }
                        Some(if whole && seen.len() > 2 * small.side() {
                            Mode::Grid(big)
                        } else {
                            Mode::Line
                        })
                    } else if compact && big.side() > cap {
                        Some(Mode::Line)
                    } else if compact && small.side() > cap {
                        Some(Mode::Grid(big))
                    } else if ended && lines.len() == *scan + 1 {
                        // The block's last line, alone: no grid, so a line puzzle (with a
                        // value too large for it, which the error names).
                        Some(Mode::Line)
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

    /// Ends the current block: decides its form if still open and reports a grid cut short,
    /// at the line after its last row, or at its last row when the input ends there
    /// (`at_end`; there is no line after).
    fn end_block(&mut self, at_end: bool) {
        if matches!(self.block, Block::Undecided { .. }) {
            self.decide(true);
        }
        if let Block::Grid(shape, Some(acc)) = std::mem::replace(&mut self.block, Block::Idle) {
            let err = acc.err.unwrap_or_else(|| {
                let kind = ParseErrorKind::WrongRowCount {
                    found: acc.rows,
                    expected: shape.side(),
                };
                error(if at_end { acc.last } else { acc.last + 1 }, 1, kind)
            });
            self.push(acc.first, Err(err));
        }
        self.block = Block::Idle;
    }
}

/// Whether `trimmed` is a rule between the bands of a printed grid: only `-`, `=`, `+`, `|`,
/// `*` and spaces, with at least two dashes or equals signs (`------+-------+------`, or
/// Simple Sudoku's frame `*-----------*`).
fn is_rule(trimmed: &str) -> bool {
    trimmed.chars().filter(|&c| c == '-' || c == '=').count() >= 2
        && trimmed
            .chars()
            .all(|c| matches!(c, '-' | '=' | '+' | '|' | '*') || c.is_whitespace())
}

/// `text` without the bars between the boxes of a printed row (`4 . . | . . . | 8 . 5`,
/// `4..|...|8.5`): each bar becomes a space where the cells are spaced, and goes where they
/// are compact (no space between them once the bars are gone), so that the row reads as
/// it would unprinted; and for a compact row, whose characters move, the column in `text`
/// of each character of the result.
pub(super) fn without_bars_mapped(text: &str) -> (String, Option<Vec<usize>>) {
    let spaced = text
        .trim()
        .split('|')
        .map(str::trim)
        .any(|part| part.contains(char::is_whitespace));
    if spaced {
        // Each bar becomes a space: the columns stay.
        return (text.replace('|', " "), None);
    }
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    for (col, c) in (1..).zip(text.chars()) {
        if c != '|' && !c.is_whitespace() {
            out.push(c);
            map.push(col);
        }
    }
    (out, Some(map))
}

/// `text` up to a `#` that follows whitespace: a comment after the puzzle, to the end of
/// the line (`4.....8.5.3… # Norvig's hardest`).
pub(crate) fn without_comment(text: &str) -> &str {
    let mut after_space = false;
    for (i, c) in text.char_indices() {
        if c == '#' && after_space {
            return &text[..i];
        }
        after_space = c.is_whitespace();
    }
    text
}

/// Whether `trimmed` is a puzzle's title line, a word and a number (`Grid 01`, `Puzzle 7`),
/// as Project Euler's file puts one before each grid.
fn is_title(trimmed: &str) -> bool {
    let mut words = trimmed.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(word), Some(number), None) => {
            word.len() >= 2
                && word.chars().all(|c| c.is_ascii_alphabetic())
                && number.chars().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}
