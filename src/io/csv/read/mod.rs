//! Rosters in: [`read_rosters`] reads a wide or a long CSV (the [module
//! documentation](super) states the rules) one line at a time, and stops at the first
//! problem with its line and field. This module holds what both layouts share: the rows,
//! the delimiter, name lookup and the final check; `wide` and `long` read one layout each.

mod long;
mod wide;

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead};

use super::Layout;
use super::errors::{CsvError, CsvErrorKind, NamesError, err};
use super::names::{Axis, CustomNames, NameList, Names};
use crate::grid::{GridError, House, Puzzle, Shape};
use crate::io::lines::{LineError, LineReader, quote_prefix};
use long::{Columns, read_long};
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
    /// The shifts given, blanks for the rest; no shift repeats in a house.
    pub puzzle: Puzzle,
    /// The names it uses: the lists given, the file's own staff and day names (wide), or the
    /// defaults.
    pub names: Names,
}

/// The candidate delimiters, in the order that breaks ties.
const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// How often each of [`DELIMITERS`] occurs outside quotes in `line`.
fn delimiter_counts(line: &str) -> [usize; 3] {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for c in line.bytes() {
        match c {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            _ => {
                if let Some(k) = DELIMITERS.iter().position(|&d| d == c) {
                    counts[k] += 1;
                }
            }
        }
    }
    counts
}

/// Whether the delimiter of a file whose first line is `first` needs a look at its second
/// line: more than one candidate occurs in it.
fn delimiter_is_ambiguous(first: &str) -> bool {
    delimiter_counts(first).iter().filter(|&&c| c > 0).count() > 1
}

/// The non-empty lines after the first that [`sniff_delimiter`] looks at, at most.
const SNIFF_LINES: usize = 5;

/// The delimiter, from the first non-empty line and, when more than one candidate occurs
/// in it, the next ones (`next`, up to [`SNIFF_LINES`]): a European file saved with `;`
/// may name its days `Mon, 1 Jan`, as many commas as semicolons. Of the candidates in the
/// first line, the one that splits the most of the next lines into as many fields as the
/// first wins; then the one that occurs most in them (rows may be short of their trailing
/// empty fields); then the most frequent in the first line. `,` when none occurs; `None`
/// when two candidates stay level (nothing tells them apart: refuse rather than guess).
fn sniff_delimiter(first: &str, next: &[&str]) -> Option<u8> {
    let head = delimiter_counts(first);
    let counts: Vec<[usize; 3]> = next.iter().map(|l| delimiter_counts(l)).collect();
    let rank = |k: usize| -> (usize, usize, usize) {
        let same = counts.iter().filter(|c| c[k] == head[k]).count();
        let total = counts.iter().map(|c| c[k]).sum();
        (same, total, head[k])
    };
    let present: Vec<usize> = (0..DELIMITERS.len()).filter(|&k| head[k] > 0).collect();
    let Some(&best) = present
        .iter()
        .max_by_key(|&&k| (rank(k), std::cmp::Reverse(k)))
    else {
        return Some(b',');
    };
    if present.iter().any(|&k| k != best && rank(k) == rank(best)) {
        return None;
    }
    Some(DELIMITERS[best])
}

/// A record: its line and its trimmed fields.
struct Row {
    line: usize,
    fields: Vec<String>,
}

impl Row {
    /// Whether a field holds one of [`DELIMITERS`] other than the file's `delimiter`.
    fn holds_another_delimiter(&self, delimiter: Option<u8>) -> bool {
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

/// The number `k` of a default name: `Staff 3`/`staff3`/`3` for staff, and so on.
pub(super) fn default_index(axis: Axis, name: &str) -> Option<usize> {
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

    /// The 0-based index of `name`: in a name list as written, or else in any letter case
    /// when that matches one name only (`early` for `Early`, as default names are matched).
    fn find(&self, name: &str) -> Option<usize> {
        match &self.list {
            Some((list, map)) => map.get(name).copied().or_else(|| {
                let mut found = list
                    .names
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.to_lowercase() == name.to_lowercase());
                match (found.next(), found.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            }),
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
///
/// Line numbers are [`LineReader`]'s, not the `csv` crate's: with CRLF line ends
/// `csv::Reader::position().line()` lags a record behind, because the reader consumes only
/// the `\r` of the terminator and counts lines on `\n`
/// (<https://github.com/BurntSushi/rust-csv/issues/395>, open). Each line goes to a fresh
/// `csv` reader, so its record is on the line [`LineReader`] counted, whatever the line end
/// (`line_numbers_with_crlf_and_no_quoted_line_breaks` below checks both).
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
                    let Some(d) = self.sniff(&text) else {
                        let kind = CsvErrorKind::Malformed {
                            message: "cannot tell the delimiter: the header holds as many of \
                                      two of ',', ';' and tab, and the next lines do not \
                                      settle it (quote the names that hold the other one)"
                                .into(),
                        };
                        return Err(err(line, None, kind).into());
                    };
                    self.builder.delimiter(d);
                    self.delimiter = Some(d);
                    d
                }
            };
            if let Some(field) = quote_left_open(&text, delimiter) {
                let kind = CsvErrorKind::Malformed {
                    message: "a quoted field is not closed on its line (names cannot hold \
                              line breaks)"
                        .into(),
                };
                return Err(err(line, Some(field), kind).into());
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

/// The field (spreadsheet column, from 1) whose quote `line` leaves open at its end, if
/// any: a quote opens a quoted field only at the start of a field, and `""` inside one is a
/// quote (the `csv` crate's rules).
fn quote_left_open(line: &str, delimiter: u8) -> Option<usize> {
    let (field, quoted) = fields_up_to(line, delimiter);
    quoted.then_some(field)
}

/// The field (from 1) that the end of `line` lies in, and whether a quoted field is open
/// there (the `csv` crate's rules: a quote opens a quoted field only at the start of a
/// field, and `""` inside one is a quote).
fn fields_up_to(line: &str, delimiter: u8) -> (usize, bool) {
    let bytes = line.as_bytes();
    let (mut quoted, mut at_start) = (false, true);
    let mut field = 1;
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
            if c == delimiter {
                field += 1;
            }
            at_start = c == delimiter || c == b'\r';
        }
        i += 1;
    }
    (field, quoted)
}

/// Reads the header, then the rosters of the layout it tells.
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
    match Columns::of(&head) {
        Some(columns) => read_long(&header, width, columns, &mut rows, custom),
        None => read_wide(&header, width, &mut rows, custom).map(|r| vec![r]),
    }
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
    use super::super::test_util::{list, read, read_err};
    use super::*;

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
    fn the_header_label_is_kept_for_writing_back() {
        let d = CustomNames::default();
        let body = "Ann,1,,,\nBob,,2,,\nCy\nDi\n";
        for (label, kept) in [("Employee", "Employee"), ("", ""), ("=cmd()", "staff")] {
            let text = format!("{label},Mo,Tu,We,Th\n{body}");
            let r = &read(&text, &d).unwrap()[0];
            assert_eq!(r.names.corner(), kept);
            let back = super::super::test_util::write(&r.puzzle, &r.names, Layout::Wide);
            assert!(back.starts_with(&format!("{kept},Mo,Tu,We,Th\n")), "{back}");
        }
    }

    #[test]
    fn a_short_row_split_on_another_delimiter_is_refused() {
        // Padding it would lose Ann's shift.
        let text = "staff,Mo,Tu,We,Th\nAnn;1;;;\nBob,,2,,\nCy\nDi\n";
        let e = read_err(text, &CustomNames::default());
        assert!(
            e.to_string()
                .starts_with("line 2: row has 1 fields, expected 5"),
            "{e}"
        );
        // A row that was split, whose name holds another delimiter, is only short.
        let text = "staff\tMo\tTu\tWe\tTh\nSmith, Ann\t1\nBob\nCy\nDi\n";
        let r = &read(text, &CustomNames::default()).unwrap()[0];
        assert_eq!(
            (r.names.staff[0].as_str(), r.puzzle.get(0, 0)),
            ("Smith, Ann", 1)
        );
    }

    #[test]
    fn a_delimiter_nothing_settles_is_refused() {
        let text = "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan\nAnn\nBob\nCy\nDi\n";
        let e = read_err(text, &CustomNames::default());
        assert!(e.to_string().contains("cannot tell the delimiter"), "{e}");
    }

    #[test]
    fn short_rows_end_in_blanks() {
        // Trailing empty cells left out, as hand edits and some spreadsheets save rows.
        let text = "staff,Mon,Tue,Wed,Thu\nAnn,1,2\nBob\nCy,,,\nDee,,,1,3\n";
        let r = &read(text, &CustomNames::default()).unwrap()[0];
        let want = [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3];
        assert_eq!(r.puzzle.cells(), want);
        assert_eq!(r.names.staff[1], "Bob");
    }

    #[test]
    fn delimiter_from_the_first_two_lines() {
        let d = CustomNames::default();
        // As many commas as semicolons in the header: the second line decides, whole or
        // short of its trailing empty fields.
        for row in ["Ann;1;2;;", "Ann;1;2", "Smith, Ann;1;2;;"] {
            let text = format!(
                "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan\r\n\r\n{row}\r\nB;;;;\r\nC;;;;\r\nD;;;1;3\r\n"
            );
            let r = &read(&text, &d).unwrap()[0];
            assert_eq!(r.names.days[0], "Mon, 1 Jan", "{row}");
            assert_eq!(r.puzzle.get(0, 1), 2, "{row}");
            assert_eq!(r.puzzle.get(3, 3), 3, "{row}");
        }
        // Commas with a semicolon in a name: the comma still splits the second line alike.
        let text = "staff,Mon;am,Tue,Wed,Thu\nA,1,,,\nB,,,,\nC,,,,\nD,,,,\n";
        assert_eq!(read(text, &d).unwrap()[0].names.days[0], "Mon;am");
        // Tabs with commas in the names.
        let text = "staff\tMon, 1\tTue, 2\tWed, 3\tThu, 4\nA\t\t4\nB\nC\nD\n";
        let r = &read(text, &d).unwrap()[0];
        assert_eq!(
            (r.names.days[3].as_str(), r.puzzle.get(0, 1)),
            ("Thu, 4", 4)
        );
        // A header alone has nothing to look ahead to: the most frequent wins.
        assert_eq!(sniff_delimiter("a;b;c,d", &[]), Some(b';'));
        assert_eq!(sniff_delimiter("a;b,c", &[]), None);
        // A first row with no delimiter at all (short of every field) settles nothing;
        // the rows after it do.
        let head = "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan";
        assert_eq!(
            sniff_delimiter(head, &["Ann", "Bob;1;;;", "Cy;;;;"]),
            Some(b';')
        );
        assert_eq!(sniff_delimiter(head, &["Ann", "Bob"]), None);
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
                "staff,day,shift\n1,1,1\n1,1,1\n1,1,2\n".into(),
                "line 4: staff \"Staff 1\" on day \"Day 1\" is assigned a second time \
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
                "staff,day,shift\n1,1,1,x\n".into(),
                "line 2, field 4: row has 4 fields, expected 3 (staff, day, shift)",
            ),
            (
                format!("{head}A,\"unclosed,,,\n"),
                "line 2, field 2: malformed CSV: a quoted field is not closed on its line",
            ),
            (
                "staff,a\u{1}b\n".into(),
                "line 1, field 2: input is not CSV text: control character U+0001 at column 8",
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
        assert_eq!((e.line, e.field), (1, Some(2)));
        assert!(e.to_string().contains("0xFE at column 7"), "{e}");
        // The field is told by the delimiter, quotes and all.
        let e = read_rosters(b"staff;\"a;b\";c\xfe\n", &d).unwrap_err();
        assert_eq!((e.line, e.field), (1, Some(3)));
        let e = read_rosters(b"staff,D1,D2,D3,D4\nA,1,\"x,\x01\"\n", &d).unwrap_err();
        assert_eq!((e.line, e.field), (2, Some(3)));
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
            assert_eq!((e.line, e.field), (4, Some(2)), "{end:?}: {e}");
            assert!(e.to_string().contains("not closed on its line"), "{e}");
            let text = ["staff,day,shift", "1,1,1", "", "2,2,1", "1,1,3"].join(end);
            let e = read_err(&text, &d);
            assert_eq!(e.line, 5, "{end:?}: {e}");
        }
    }

    #[test]
    fn custom_names_match_in_any_case_when_that_is_unambiguous() {
        let custom = CustomNames {
            shifts: Some(list("sh.txt", &["Early", "Late", "Night", "late"])),
            ..CustomNames::default()
        };
        let head = "staff,Mo,Tu,We,Th\n";
        let r = &read(
            &format!("{head}A,EARLY,Night,late,Late\nB\nC\nD\n"),
            &custom,
        )
        .unwrap()[0];
        assert_eq!(&r.puzzle.cells()[..4], [1, 3, 4, 2]);
        // `LATE` could be either of two names: refused, as before.
        let e = read_err(&format!("{head}A,LATE\nB\nC\nD\n"), &custom);
        assert!(e.to_string().contains("unknown shift \"LATE\""), "{e}");
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
