//! The text forms: a content line split into tokens, the reading of one line puzzle or one
//! grid row (spaced or compact), rule 3 of the detection, and the cells gathered with where
//! each came from so that a repeated given is reported at its own line and column.

use super::{Alphabet, ParseError, ParseErrorKind, error};
use crate::grid::{GridError, Puzzle, Shape};
use crate::io::lines::quote_prefix;

/// A whitespace-separated token and its 1-based column in characters.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tok<'a> {
    col: usize,
    text: &'a str,
}

/// A content line: not blank, not a comment.
#[derive(Debug)]
pub(super) struct Line<'a> {
    /// 1-based line number.
    pub(super) no: usize,
    toks: Vec<Tok<'a>>,
    /// Column of the last non-whitespace character.
    end_col: usize,
}

impl<'a> Line<'a> {
    pub(super) fn new(no: usize, s: &'a str) -> Line<'a> {
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
    pub(super) fn compact(&self) -> Option<Tok<'a>> {
        match self.toks.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }

    /// The number of cells the line would hold (characters of a single token, else tokens),
    /// and whether it is compact.
    pub(super) fn width(&self) -> (usize, bool) {
        match self.compact() {
            Some(t) => (t.text.chars().count(), true),
            None => (self.toks.len(), false),
        }
    }

    pub(super) fn first_col(&self) -> usize {
        self.toks.first().map_or(1, |t| t.col)
    }

    /// Every readable value on the line (unreadable tokens are skipped).
    pub(super) fn values(&self, alphabet: Alphabet) -> Vec<usize> {
        match self.compact() {
            Some(t) => t.text.chars().filter_map(|c| alphabet.decode(c)).collect(),
            None => self
                .toks
                .iter()
                .filter_map(|t| token_value(t.text, alphabet))
                .collect(),
        }
    }

    /// Whether every cell on the line is a blank.
    pub(super) fn is_blank(&self, alphabet: Alphabet) -> bool {
        match self.compact() {
            Some(t) => t.text.chars().all(|c| alphabet.decode(c) == Some(0)),
            None => self
                .toks
                .iter()
                .all(|t| token_value(t.text, alphabet) == Some(0)),
        }
    }
}

/// Whether `c` ends a line's first field: whitespace, or the `,`, `;` and `:` that puzzle
/// lists put between a puzzle and what follows it (a rating, a solution, a count).
fn ends_field(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

/// The byte range of a line's whole compact puzzle among other fields: 81, 256 or 625
/// printable ASCII characters other than `|` (9×9, 16×16, 25×25, which no compact grid row
/// can be), fields being split by whitespace, `,`, `;` and `:`. Lists from other tools put
/// an identifier before each puzzle and a rating, a solution or a count after it
/// (sudoku-exchange's `hash puzzle rating`, tdoku's `puzzle:count:solution`), which the
/// caller leaves unread. The puzzle is the first field, or the second after an identifier
/// of fewer than 16 characters (too short to be a puzzle of its own), so that a solution
/// beside a puzzle in another form (spaced, with bars, one cell short) is never taken for
/// it. `None` when there is none, and for a compact puzzle of another size split by stray
/// whitespace (its fields make 256 or 625 characters together).
pub(crate) fn puzzle_field(line: &str) -> Option<std::ops::Range<usize>> {
    let is_puzzle = |r: &std::ops::Range<usize>| {
        let f = &line[r.clone()];
        matches!(f.len(), 81 | 256 | 625) && f.bytes().all(|b| b.is_ascii_graphic() && b != b'|')
    };
    let mut fields = fields(line);
    let first = fields.next()?;
    let found = if is_puzzle(&first) {
        first
    } else {
        let second = fields.next()?;
        if first.len() >= 16 || !is_puzzle(&second) {
            return None;
        }
        second
    };
    let joined = line.chars().filter(|c| !c.is_whitespace()).count();
    let split = !line.contains([',', ';', ':']) && joined != found.len();
    (!(split && matches!(joined, 256 | 625))).then_some(found)
}

/// The byte ranges of a line's non-empty fields (split as [`puzzle_field`] splits them).
fn fields(line: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let ends = line
        .char_indices()
        .filter(|&(_, c)| ends_field(c))
        .map(|(i, c)| (i, i + c.len_utf8()))
        .chain([(line.len(), line.len())]);
    let mut start = 0;
    ends.filter_map(move |(end, next)| {
        let field = start..end;
        start = next;
        (!field.is_empty()).then_some(field)
    })
}

/// A whitespace-separated token's value: `.` and `0` are blanks, otherwise decimal digits.
/// Huge numbers saturate (they are out of range anyway).
pub(super) fn number(s: &str) -> Option<usize> {
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

/// What a letter read with the digits adds to [`expected_compact`]'s answer (and what
/// [`ParseErrorKind::wants_alphabet`](super::ParseErrorKind::wants_alphabet) looks for).
pub(super) const LETTERS_NOTE: &str = "letters are read in a named alphabet";

/// What a compact cell of a `side×side` grid may hold in `alphabet`, where `c` was found;
/// a letter read with the digits says how letters are read.
fn expected_compact(alphabet: Alphabet, side: usize, c: char) -> String {
    let what = alphabet.describe(side);
    if alphabet == Alphabet::Numeric && c.is_ascii_alphabetic() {
        format!("{what} ({LETTERS_NOTE}: 1-9A, 0-9A-F or A-Z; 0-9A-F reads 4x4 and 9x9 in digits)")
    } else {
        what
    }
}

/// A spaced token's value in `alphabet`: a [`number`], or with a letter alphabet named, one
/// letter read in it (`. . C B G P …`); digits stay decimal.
pub(super) fn token_value(s: &str, alphabet: Alphabet) -> Option<usize> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if alphabet != Alphabet::Numeric && c.is_ascii_alphabetic() => {
            alphabet.decode(c)
        }
        _ => number(s),
    }
}

pub(super) fn spaced_expected(side: Option<usize>) -> String {
    match side {
        Some(n) => format!("a number 1-{n}, or 0 or . for a blank"),
        None => "a number, or 0 or . for a blank".to_string(),
    }
}

/// How a block is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Line,
    Grid(Shape),
    /// No line of the block has a supported width.
    Unknown,
}

/// Rule 3: whether lines `i..i+n` of a block read better as one `n×n` grid than as `n`
/// line puzzles of side `small`: some line holds a value above the small side, and either
/// most non-blank lines do or some line is blank. A row of an `n×n` grid with a few givens
/// nearly always holds such a value, and a sparse grid (a roster with a few shifts set)
/// has blank rows; a batch of small line puzzles has neither, so one mistyped value (a
/// `10` among 9×9 lines) spoils only its own line, not the batch read as one bad grid.
pub(super) fn looks_like_grid(
    lines: &[Line<'_>],
    i: usize,
    small: Shape,
    big: Shape,
    alphabet: Alphabet,
) -> bool {
    let n = big.side();
    let width = lines[i].width();
    let window = &lines[i..lines.len().min(i + n)];
    let (mut lines, mut filled, mut big_values) = (0, 0, 0);
    for l in window.iter().filter(|l| l.width() == width) {
        lines += 1;
        // Read as a small line, in the alphabet of that size (hexadecimal leaves 4x4 and
        // 9x9 to the digits); a symbol no small line has (a hexadecimal letter) counts too.
        let small_alphabet = alphabet.for_side(small.side());
        let values = l.values(small_alphabet);
        if values.iter().any(|&v| v != 0) {
            filled += 1;
        }
        let beyond = small_alphabet != alphabet && l.values(alphabet).iter().any(|&v| v > 9);
        if beyond || values.iter().any(|&v| v > small.side()) {
            big_values += 1;
        }
    }
    (big_values > 0 && (2 * big_values > filled || filled < lines))
        || (window.len() == n
            && window
                .iter()
                .all(|l| l.width() == width && l.is_blank(alphabet)))
}

/// The first token (or character of a compact token) that is no symbol at all.
pub(super) fn syntax_check(line: &Line<'_>, alphabet: Alphabet) -> Result<(), ParseError> {
    match line.compact() {
        Some(t) => {
            for (col, c) in (t.col..).zip(t.text.chars()) {
                if alphabet.decode(c).is_none() {
                    let kind = ParseErrorKind::BadToken {
                        token: c.to_string(),
                        expected: expected_compact(alphabet, alphabet.max_side(), c),
                    };
                    return Err(error(line.no, col, kind));
                }
            }
        }
        None => {
            if let Some(t) = line
                .toks
                .iter()
                .find(|t| token_value(t.text, alphabet).is_none())
            {
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
pub(super) struct Cells {
    values: Vec<u8>,
    at: Vec<(usize, usize)>,
}

impl Cells {
    pub(super) fn with_capacity(n: usize) -> Cells {
        Cells {
            values: Vec::with_capacity(n),
            at: Vec::with_capacity(n),
        }
    }

    /// Adds a value already checked to be at most the side (so at most 100).
    pub(super) fn push(&mut self, value: usize, line: usize, col: usize) {
        self.values.push(u8::try_from(value).unwrap_or(u8::MAX));
        self.at.push((line, col));
    }

    /// The puzzle, checked for repeated givens.
    pub(super) fn finish(self, shape: Shape, first_line: usize) -> Result<Puzzle, ParseError> {
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
pub(super) fn read_compact(
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
                expected: expected_compact(alphabet, side, c),
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
pub(super) fn read_spaced(
    line: &Line<'_>,
    side: usize,
    expected: usize,
    alphabet: Alphabet,
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
        let v = token_value(t.text, alphabet).ok_or_else(|| {
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
pub(super) fn parse_line_puzzle(line: &Line<'_>, alphabet: Alphabet) -> Result<Puzzle, ParseError> {
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
            read_compact(line, tok, side, count, alphabet.for_side(side), &mut cells)?;
            shape
        }
        None => {
            syntax_check(line, alphabet)?;
            let shape = Shape::from_cells(count).map_err(size_error)?;
            read_spaced(line, shape.side(), count, alphabet, &mut cells)?;
            shape
        }
    };
    cells.finish(shape, line.no)
}

/// One grid row: `n` tokens, or `n` characters when the alphabet can write the size.
pub(super) fn read_row(
    line: &Line<'_>,
    n: usize,
    alphabet: Alphabet,
    cells: &mut Cells,
) -> Result<(), ParseError> {
    if let Some(tok) = line.compact() {
        if n <= alphabet.max_side() {
            return read_compact(line, tok, n, n, alphabet.for_side(n), cells);
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
    read_spaced(line, n, n, alphabet, cells)
}

/// A row of numbers split by commas or semicolons, as a spreadsheet saves a grid as CSV
/// (`5,3,,,7,,,,`; empty fields are blanks): the row spaced (an empty field as `.`) and,
/// for each character of it, the column in `text` it stands for. `None` for any other
/// line: fewer than four fields, or a field that is not a number, `.` or empty; with
/// `numbers` false, a field of more than one word (the reader then names a field that is
/// no symbol, where it stands).
pub(crate) fn separated(text: &str, numbers: bool) -> Option<(String, Vec<usize>)> {
    let body = text.trim_end();
    if !body.contains([',', ';']) {
        return None;
    }
    let fields: Vec<&str> = body.split([',', ';']).collect();
    let fits = |f: &str| {
        let f = f.trim();
        match numbers {
            true => f.is_empty() || f == "." || f.bytes().all(|b| b.is_ascii_digit()),
            false => !f.contains(char::is_whitespace),
        }
    };
    if fields.len() < 4 || !fields.iter().all(|f| fits(f)) {
        return None;
    }
    let (mut out, mut map) = (String::with_capacity(body.len() + 8), Vec::new());
    let mut col = 1;
    for (k, field) in fields.iter().enumerate() {
        if k > 0 {
            // The separator before this field becomes a space.
            out.push(' ');
            map.push(col);
            col += 1;
        }
        if field.trim().is_empty() {
            out.push('.');
            map.push(col);
        }
        for c in field.chars() {
            out.push(c);
            map.push(col);
            col += 1;
        }
    }
    Some((out, map))
}
