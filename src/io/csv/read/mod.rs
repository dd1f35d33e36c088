//! Rosters in: [`read_rosters`] reads a wide or a long CSV (the [module
//! documentation](super) states the rules) one line at a time, and stops at the first
//! problem with its line and field. This module holds what both layouts share: the rows,
//! the delimiter, name lookup and the final check; `wide` and `long` read one layout each.

mod long;
mod own;
mod quotes;
mod sniff;
mod split;
mod wide;

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead};

use super::errors::{CsvError, CsvErrorKind, NamesError, err};
use super::names::{Axis, CustomNames, NameList, Names, canonical};
use super::{Delimiter, Dialect, Layout};
use crate::grid::{GridError, House, Puzzle, Shape};
use crate::io::lines::{LineError, LineReader, quote_prefix};
use crate::io::quote::quoted;
use long::{Columns, read_long};
#[cfg(feature = "cli")]
pub(crate) use own::{case_twins, look_alike};
use quotes::{fields_up_to, quote_left_open, unspace_quotes};
use sniff::{DELIMITERS, SNIFF_LINES, delimiter_is_ambiguous, sniff_delimiter};
use wide::read_wide;

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
    /// How the file is spelled: its delimiter, line ends and byte-order mark (one file,
    /// one dialect: every roster of a long file has the same).
    pub dialect: Dialect,
    /// The shifts given, blanks for the rest; no shift repeats in a house.
    pub puzzle: Puzzle,
    /// The names it uses: the lists given, the file's own staff and day names (wide), or the
    /// defaults.
    pub names: Names,
}

/// A record: its line and its trimmed fields.
struct Row {
    line: usize,
    fields: Vec<String>,
    /// Whether the line is one quoted field (`"a;b"`): split as the file's delimiter says,
    /// whatever it holds.
    one_quoted: bool,
}

impl Row {
    /// Whether a field holds one of [`DELIMITERS`] other than the file's `delimiter`, outside
    /// quotes (a line that is one quoted field was split as the file says).
    fn holds_another_delimiter(&self, delimiter: Option<u8>) -> bool {
        if self.one_quoted {
            return false;
        }
        let others: Vec<char> = DELIMITERS
            .iter()
            .filter(|&&d| Some(d) != delimiter)
            .map(|&d| char::from(d))
            .collect();
        self.fields.iter().any(|f| f.contains(&others[..]))
    }

    /// Pads a wide roster's row to `width` fields with empty ones (blanks), as spreadsheets
    /// and hand edits leave a row's trailing empty cells out.
    fn pad(&mut self, width: usize) {
        if self.fields.len() < width {
            self.fields.resize(width, String::new());
        }
    }

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

/// Whether `names` are the default names or numbers of `axis` in order, in any spelling
/// (`Staff 1`, `2`, `staff 3`, …): what a roster read with default names or numbers 1 to
/// N, each once, holds once it has put them in place by number (whatever the file's
/// order). Other numbers (staff IDs, dates, a gap) are names taken in the file's order.
pub fn placed_by_number(axis: Axis, names: &[String]) -> bool {
    names
        .iter()
        .enumerate()
        .all(|(i, n)| default_index(axis, n) == Some(i + 1))
}

/// The number a default name or number of `axis` stands for (`Shift 3`, `shift 3`, `3`:
/// 3), which a roster reads by number; `None` for a name of its own.
pub fn default_number(axis: Axis, name: &str) -> Option<usize> {
    default_index(axis, name)
}

/// The number `k` of a default name: `Staff 3`/`staff3`/`3` for staff, and so on.
pub(super) fn default_index(axis: Axis, name: &str) -> Option<usize> {
    let word = axis.word();
    let digits = match name.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => name[word.len()..].trim_start_matches(' '),
        _ => name,
    };
    // Floats (`3.0`) are numbers for shifts only, the cells data tools write as floats;
    // staff and day labels such as `3.0` or `3.` (an ordinal), or with a leading zero
    // (`007`, a staff ID: no roster is written so), stay names.
    let digits = match axis {
        Axis::Shift => whole_number(digits)?,
        _ if !digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            digits
        }
        _ => return None,
    };
    if digits.len() > 6 {
        // Too long to number anything: a code (`1000001`), a name.
        return None;
    }
    digits.parse().ok()
}

/// The digits of a whole number as spreadsheets and data tools write it: `3`, or with a
/// zero fraction, `3.0`, `3.00`, `3.` (pandas writes a number column that has blanks as
/// floats). `None` for anything else (`3.5`, `+3`, `3e0`, empty, or `06.00`, a time).
pub(super) fn whole_number(text: &str) -> Option<&str> {
    let (digits, float) = match text.split_once('.') {
        Some((whole, fraction)) if fraction.bytes().all(|b| b == b'0') => (whole, true),
        Some(_) => return None,
        None => (text, false),
    };
    // A float as data tools write it has no leading zero: `06.00` is a time, a name.
    let padded = float && digits.len() > 1 && digits.starts_with('0');
    (!digits.is_empty() && !padded && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// How a roster's shifts were written: whether every shift given is a plain number (`3`).
/// Without a shift list, such a roster keeps that spelling ([`Names`] of `1`…`N`), so that
/// what is written from it reads as its input did (a numeric import stays numeric).
#[derive(Clone, Copy, Debug)]
pub(super) struct ShiftSpelling {
    any: bool,
    numbers: bool,
}

impl Default for ShiftSpelling {
    fn default() -> ShiftSpelling {
        ShiftSpelling {
            any: false,
            numbers: true,
        }
    }
}

impl ShiftSpelling {
    /// Notes a shift given as `name`.
    pub(super) fn note(&mut self, name: &str) {
        self.any = true;
        self.numbers &= whole_number(name).is_some();
    }

    /// Numbers as the shift names of `names` when every shift given was one and no list
    /// names the shifts.
    pub(super) fn apply(self, names: &mut Names, custom: &CustomNames) {
        if self.any && self.numbers && custom.get(Axis::Shift).is_none() {
            names.shifts = (1..=names.shifts.len()).map(|k| k.to_string()).collect();
        }
    }
}

/// Maps the names of one axis to indices: by a name list, or by default names and numbers.
struct Lookup<'a> {
    axis: Axis,
    n: usize,
    /// The list, with each name in its Unicode form for comparing ([`canonical`]).
    list: Option<(&'a NameList, HashMap<String, usize>)>,
}

impl<'a> Lookup<'a> {
    fn new(axis: Axis, n: usize, custom: &'a CustomNames) -> Lookup<'a> {
        let list = custom.get(axis).map(|l| {
            let map = l
                .names
                .iter()
                .enumerate()
                .map(|(i, s)| (canonical(s).into_owned(), i))
                .collect();
            (l, map)
        });
        Lookup { axis, n, list }
    }

    /// The 0-based index of `name`: in a name list as written (an accent composed or
    /// combined alike: see [`canonical`]), or else in any letter case when that matches one
    /// name only (`early` for `Early`, as default names are matched).
    fn find(&self, name: &str) -> Option<usize> {
        let name = canonical(name);
        match &self.list {
            Some((list, map)) => map.get(name.as_ref()).copied().or_else(|| {
                let lower = name.to_lowercase();
                let mut found = list
                    .names
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| canonical(s).to_lowercase() == lower);
                match (found.next(), found.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            }),
            None => default_index(self.axis, &name)
                .filter(|k| (1..=self.n).contains(k))
                .map(|k| k - 1),
        }
    }

    fn unknown(&self, name: &str) -> CsvErrorKind {
        let expected = match &self.list {
            Some((l, _)) if l.len() <= 12 => {
                let quoted: Vec<String> = l.names.iter().map(|s| quoted(s)).collect();
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
///
/// Line numbers are [`LineReader`]'s, not the `csv` crate's: with CRLF line ends
/// `csv::Reader::position().line()` lags a record behind, because the reader consumes only
/// the `\r` of the terminator and counts lines on `\n`
/// (<https://github.com/BurntSushi/rust-csv/issues/395>, open). Each line is parsed
/// afresh ([`split::Splitter`]), so its record is on the line [`LineReader`] counted, whatever the
/// line end (`line_numbers_with_crlf_and_no_quoted_line_breaks` below checks both).
struct Rows<'r, R> {
    lines: &'r mut LineReader<R>,
    /// The parser, once the delimiter is known.
    split: Option<split::Splitter>,
    delimiter: Option<u8>,
    /// Whether the first non-empty line ends in a carriage return.
    crlf: bool,
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
                    // The field where the bad character sits, by the delimiter (the
                    // first line's own when the problem is on it).
                    let field = match &e {
                        LineError::NotText { before, .. } => {
                            let d = self
                                .delimiter
                                .or_else(|| sniff_delimiter(before, &[]))
                                .unwrap_or(b',');
                            Some(fields_up_to(before, d).0)
                        }
                        _ => None,
                    };
                    let kind = CsvErrorKind::NotText {
                        reason: e.to_string(),
                    };
                    return Err(err(line, field, kind).into());
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            let delimiter = match self.delimiter {
                Some(d) => d,
                None => {
                    // Excel's `sep=;` line names the delimiter, and is no row.
                    if let Some(d) = sep_line(&text) {
                        self.delimiter = Some(d);
                        self.crlf = text.ends_with('\r');
                        continue;
                    }
                    let Some(d) = self.sniff(&text) else {
                        let kind = CsvErrorKind::Malformed {
                            message: "cannot tell the delimiter: the header holds as many of \
                                      two of ',', ';' and tab, and the next lines do not \
                                      settle it (quote the names that hold the other one)"
                                .into(),
                        };
                        return Err(err(line, None, kind).into());
                    };
                    self.delimiter = Some(d);
                    self.crlf = text.ends_with('\r');
                    d
                }
            };
            // Blanks before a quote go where the quote then closes on its line (a quote in
            // a free-text note, `, "ask HR`, stays text).
            let unspaced = unspace_quotes(&text, delimiter);
            let text = if quote_left_open(&unspaced, delimiter).is_some() {
                std::borrow::Cow::Borrowed(text.as_str())
            } else {
                unspaced
            };
            if let Some(field) = quote_left_open(&text, delimiter) {
                let kind = CsvErrorKind::Malformed {
                    message: "a quoted field is not closed on its line (names cannot hold \
                              line breaks)"
                        .into(),
                };
                return Err(err(line, Some(field), kind).into());
            }
            let split = self
                .split
                .get_or_insert_with(|| split::Splitter::new(delimiter));
            let pending = &mut self.pending;
            split.records(&text, |fields| {
                let fields: Vec<String> = fields.iter().map(|f| f.trim().to_string()).collect();
                if fields.iter().any(|f| !f.is_empty()) {
                    let t = text.trim();
                    let one_quoted =
                        fields.len() == 1 && t.len() >= 2 && t.starts_with('"') && t.ends_with('"');
                    pending.push_back(Row {
                        line,
                        fields,
                        one_quoted,
                    });
                }
            });
        }
    }
}

/// The delimiter a first line `sep=X` names (as Excel writes and reads it, to say which
/// delimiter a file uses), when X is one of [`DELIMITERS`].
fn sep_line(text: &str) -> Option<u8> {
    let t = text.trim_end_matches(['\r', ' ']);
    if !t.get(..4).is_some_and(|h| h.eq_ignore_ascii_case("sep=")) {
        return None;
    }
    match t.as_bytes()[4..] {
        [d] if DELIMITERS.contains(&d) => Some(d),
        _ => None,
    }
}

impl<R: BufRead> Rows<'_, R> {
    /// The delimiter of a file whose first non-empty line is `first`, looking ahead to the
    /// next non-empty line when `first` leaves it open (the lines read ahead are handed
    /// back to the reader).
    fn sniff(&mut self, first: &str) -> Option<u8> {
        if !delimiter_is_ambiguous(first) {
            return sniff_delimiter(first, &[]);
        }
        let mut ahead = Vec::new();
        let mut next = Vec::new();
        while let Some(l) = self.lines.next_line() {
            let stop = match &l {
                Ok((_, text)) if text.trim().is_empty() => false,
                Ok((_, text)) => {
                    next.push(text.clone());
                    next.len() == SNIFF_LINES
                }
                Err(_) => true,
            };
            ahead.push(l);
            if stop {
                break;
            }
        }
        self.lines.unread(ahead);
        let next: Vec<&str> = next.iter().map(String::as_str).collect();
        sniff_delimiter(first, &next)
    }
}

/// Reads the header, then the rosters of the layout it tells.
fn read_all<R: BufRead>(
    lines: &mut LineReader<R>,
    custom: &CustomNames,
) -> Result<Vec<Roster>, Fail> {
    let mut rows = Rows {
        lines,
        split: None,
        delimiter: None,
        crlf: false,
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
    let mut rosters = match Columns::of(&head) {
        Some(columns) => read_long(&header, width, columns, &mut rows, custom),
        None => read_wide(&header, width, &mut rows, custom).map(|r| vec![r]),
    }?;
    let dialect = Dialect {
        delimiter: rows
            .delimiter
            .and_then(Delimiter::from_byte)
            .unwrap_or_default(),
        crlf: rows.crlf,
        bom: rows.lines.had_bom(),
    };
    for r in &mut rosters {
        r.dialect = dialect;
    }
    Ok(rosters)
}

/// A name list that does not fit the roster whose header is on `line`.
fn names_error(line: usize, e: NamesError) -> CsvError {
    err(line, None, CsvErrorKind::Names(e))
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
            let quote = |v: &[String], k: usize| quoted(&v[k]);
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
mod tests;
