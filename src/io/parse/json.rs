//! JSON lines: one puzzle per line as an object with a `cells` field, an array of rows, a
//! flat array or a line-form string (what `shiftgrid` itself writes as JSON).
//!
//! The record is read as raw values borrowed from the line, so an error names the column
//! of the value at fault (a cell, a row, the puzzle) and quotes it as written.

use serde_json::value::RawValue;

use super::text::{Cells, Line, parse_line_puzzle, spaced_expected};
use super::{Alphabet, ParseError, ParseErrorKind, error};
use crate::grid::{Puzzle, Shape};
use crate::io::lines::quote_prefix;

/// The fields of a record that may hold the puzzle, tried in this order; the others are
/// skipped unread.
#[derive(serde::Deserialize)]
struct Fields<'a> {
    #[serde(borrow)]
    cells: Option<&'a RawValue>,
    #[serde(borrow)]
    puzzle: Option<&'a RawValue>,
    #[serde(borrow)]
    solution: Option<&'a RawValue>,
    #[serde(borrow)]
    grid: Option<&'a RawValue>,
    /// The box size the record declares (`"box": 3`), checked against its cells.
    #[serde(borrow, rename = "box")]
    box_size: Option<&'a RawValue>,
    /// The side it declares (`"size": 9`), checked likewise.
    #[serde(borrow)]
    size: Option<&'a RawValue>,
}

/// One JSON line: an object with the puzzle in `cells` (or `puzzle`, `solution`, `grid`),
/// or the puzzle itself (rows, a flat array, or a line-form string). A record's `box` and
/// `size`, where it has them, must be its puzzle's.
pub(super) fn parse_json_line(
    no: usize,
    text: &str,
    alphabet: Alphabet,
) -> Result<Puzzle, ParseError> {
    let mut declared = (None, None);
    let puzzle = read_json_line(no, text, alphabet, &mut declared)?;
    let shape = puzzle.shape();
    for (value, is, what) in [
        (declared.0, shape.box_size(), "box"),
        (declared.1, shape.side(), "size"),
    ] {
        let Some(value) = value else { continue };
        let record = Record {
            no,
            text,
            seen: std::cell::Cell::new((0, 0)),
        };
        let message = match serde_json::from_str::<u64>(value.get()) {
            Ok(v) if v == is as u64 => continue,
            _ if value.get() == "null" => continue,
            Ok(_) => format!(
                "the record's \"{what}\" is {}, but its cells make a {shape} puzzle",
                quote_prefix(value.get())
            ),
            Err(_) => format!(
                "the record's \"{what}\" is {}, not a whole number (its cells make a {shape} \
                 puzzle)",
                quote_prefix(value.get())
            ),
        };
        return Err(error(
            no,
            record.col(value),
            ParseErrorKind::Json { message },
        ));
    }
    Ok(puzzle)
}

/// [`parse_json_line`] before the check of `declared`, the record's `box` and `size`.
fn read_json_line<'a>(
    no: usize,
    text: &'a str,
    alphabet: Alphabet,
    declared: &mut (Option<&'a RawValue>, Option<&'a RawValue>),
) -> Result<Puzzle, ParseError> {
    let record = Record {
        no,
        text,
        seen: std::cell::Cell::new((0, 0)),
    };
    let json_error = |e: serde_json::Error| {
        // serde_json counts columns in bytes; ours are in characters.
        let col = record.col_of_byte(e.column().saturating_sub(1));
        error(no, col, json_kind(&e))
    };
    // Each step reads the text once: the record's puzzle fields as raw values (or the
    // puzzle itself), then the puzzle's rows.
    let start = text.len() - text.trim_start().len();
    let puzzle: &RawValue = if text[start..].starts_with('{') {
        let f: Fields = serde_json::from_str(text).map_err(json_error)?;
        *declared = (f.box_size, f.size);
        [f.cells, f.puzzle, f.solution, f.grid]
            .into_iter()
            .flatten()
            .find(|v| v.get().starts_with(['[', '"']))
            .ok_or_else(|| {
                let kind = ParseErrorKind::Json {
                    message: "no puzzle in this record: expected a \"cells\" field holding \
                              rows of numbers (0 or null for a blank)"
                        .into(),
                };
                error(no, record.col_of_byte(start), kind)
            })?
    } else {
        let value: &RawValue = serde_json::from_str(text).map_err(json_error)?;
        if value.get().starts_with('[') && value.get()[1..].trim_start().starts_with('{') {
            // `[{…}, {…}]`: the records gathered into one array (`jq -s`).
            let kind = ParseErrorKind::Json {
                message: "an array of records: JSON input is one record per line (e.g. \
                          jq -c '.[]')"
                    .into(),
            };
            return Err(error(no, record.col_of_byte(start), kind));
        }
        value
    };
    let bad = |what: &RawValue, side: Option<usize>| {
        let kind = ParseErrorKind::BadToken {
            token: quote_prefix(what.get()),
            expected: spaced_expected(side),
        };
        error(no, record.col(what), kind)
    };
    if puzzle.get().starts_with('"') {
        return record.line_form(puzzle, alphabet);
    }
    if !puzzle.get().starts_with('[') {
        let kind = ParseErrorKind::Json {
            message: format!(
                "{} is not a puzzle record: expected an object with a \"cells\" field, an \
                 array of rows, or a line-form string",
                quote_prefix(puzzle.get())
            ),
        };
        return Err(error(no, record.col(puzzle), kind));
    }
    let items = match square_rows(puzzle) {
        Some(items) => items,
        None => record.items(puzzle)?,
    };
    let shape = Shape::from_cells(items.len())
        .map_err(|e| error(no, record.col(puzzle), ParseErrorKind::Size(e)))?;
    let side = shape.side();
    let mut cells = Cells::with_capacity(items.len());
    for item in items {
        let raw = item.get();
        // The usual cell, a small number, read directly: one to three digits (JSON allows
        // no leading zero) are at most 999.
        let small = (1..=3).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit());
        let parsed = if small && !(raw.len() > 1 && raw.starts_with('0')) {
            Some(raw.bytes().fold(0u64, |k, b| k * 10 + u64::from(b - b'0')))
        } else {
            None
        };
        let value = match parsed.map_or_else(|| serde_json::from_str(raw), |k| Ok(k.into())) {
            Ok(serde_json::Value::Null) => 0,
            Ok(serde_json::Value::Number(x)) => match x.as_u64() {
                Some(k) if k <= side as u64 => k as usize,
                Some(_) => {
                    let kind = ParseErrorKind::OutOfRange {
                        value: quote_prefix(raw),
                        side,
                    };
                    return Err(error(no, record.col(item), kind));
                }
                None => return Err(bad(item, Some(side))),
            },
            _ => return Err(bad(item, Some(side))),
        };
        cells.push(value, no, record.col(item));
    }
    cells.finish(shape, no)
}

/// The cells of `puzzle` when it is rows of a supported size, each as long as there are
/// rows, read in one pass; `None` for anything else (a flat array, a short row, a size
/// not supported), which [`Record::items`] reads and reports on.
fn square_rows(puzzle: &RawValue) -> Option<Vec<&RawValue>> {
    if !puzzle.get()[1..].trim_start().starts_with('[') {
        return None;
    }
    let rows: Vec<Vec<&RawValue>> = serde_json::from_str(puzzle.get()).ok()?;
    let side = Shape::from_side(rows.len()).ok()?.side();
    if rows.iter().any(|r| r.len() != side) {
        return None;
    }
    Some(rows.into_iter().flatten().collect())
}

/// serde_json's message without the position it appends (the error names the column).
fn json_kind(e: &serde_json::Error) -> ParseErrorKind {
    let full = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    let mut message = full.strip_suffix(&at).unwrap_or(&full).to_string();
    if e.is_eof() {
        // Most often a record printed over several lines (`jq .`).
        message += " (JSON input is one record per line: compact a record printed over \
                    several lines, e.g. with jq -c)";
    }
    ParseErrorKind::Json { message }
}

/// The line a record was read from, to turn the values borrowed from it into columns.
struct Record<'a> {
    no: usize,
    text: &'a str,
    /// The last byte offset turned into a column, and the characters before it.
    seen: std::cell::Cell<(usize, usize)>,
}

impl<'a> Record<'a> {
    /// `value` read again as a `T` (a map, a list or a string of raw values borrowed from
    /// the line). The whole line was read once already, so this fails only if `T` does not
    /// match what `value` starts with; the error then names `value`.
    fn inner<T: serde::Deserialize<'a>>(&self, value: &'a RawValue) -> Result<T, ParseError> {
        serde_json::from_str(value.get())
            .map_err(|e| error(self.no, self.col(value), json_kind(&e)))
    }

    /// The cells of `puzzle`, an array: rows of them, or the cells themselves.
    ///
    /// # Errors
    /// A size not supported (at the puzzle), a row of the wrong length (at the row).
    fn items(&self, puzzle: &'a RawValue) -> Result<Vec<&'a RawValue>, ParseError> {
        let outer: Vec<&RawValue> = self.inner(puzzle)?;
        if outer.is_empty() || !outer.iter().all(|v| v.get().starts_with('[')) {
            return Ok(outer);
        }
        // Rows of rows (`[[[1,2,3,4],…]]`, a puzzle wrapped once more): the first array
        // where a cell should be is the fault, not the number of rows.
        let first: Vec<&RawValue> = self.inner(outer[0])?;
        if let Some(cell) = first.iter().find(|v| v.get().starts_with('[')) {
            let kind = ParseErrorKind::BadToken {
                token: quote_prefix(cell.get()),
                expected: super::text::spaced_expected(None),
            };
            return Err(error(self.no, self.col(cell), kind));
        }
        let side = Shape::from_side(outer.len())
            .map_err(|e| error(self.no, self.col(puzzle), ParseErrorKind::Size(e)))?
            .side();
        let mut items = Vec::with_capacity(side * side);
        for row in outer {
            let cells: Vec<&RawValue> = self.inner(row)?;
            if cells.len() != side {
                let kind = ParseErrorKind::WrongRowLength {
                    found: cells.len(),
                    expected: side,
                };
                return Err(error(self.no, self.col(row), kind));
            }
            items.extend(cells);
        }
        Ok(items)
    }

    /// The 1-based column, in characters, of the character at byte `at` (or of the one
    /// that holds it). Values are asked for left to right, so the count goes on from the
    /// last one asked and a line is counted once, not once per cell.
    fn col_of_byte(&self, at: usize) -> usize {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let (from, chars) = match self.seen.get() {
            (byte, chars) if byte <= at => (byte, chars),
            _ => (0, 0),
        };
        let chars = chars + self.text[from..at].chars().count();
        self.seen.set((at, chars));
        chars + 1
    }

    /// The column where `value` starts. Every value here is borrowed from the line; one
    /// that were not would be placed at the start of the line.
    fn col(&self, value: &RawValue) -> usize {
        let start = (value.get().as_ptr() as usize).checked_sub(self.text.as_ptr() as usize);
        match start {
            Some(at) if at <= self.text.len() => self.col_of_byte(at),
            _ => self.col_of_byte(self.text.len() - self.text.trim_start().len()),
        }
    }

    /// A puzzle in line form inside a JSON string. Columns are those of the line when the
    /// string holds no escape (each character is itself); with escapes, errors name the
    /// string's opening quote.
    fn line_form(&self, string: &'a RawValue, alphabet: Alphabet) -> Result<Puzzle, ParseError> {
        let quote = self.col(string);
        let s: String = self.inner(string)?;
        let plain = !string.get().contains('\\');
        parse_line_puzzle(&Line::new(self.no, &s), alphabet).map_err(|mut e| {
            e.col = if plain { quote + e.col } else { quote };
            e
        })
    }
}
