//! JSON lines: one puzzle per line as an object with a `cells` field, an array of rows, a
//! flat array or a line-form string (what `shiftgrid` itself writes as JSON).

use super::text::{Cells, Line, parse_line_puzzle, spaced_expected};
use super::{Alphabet, ParseError, ParseErrorKind, error};
use crate::grid::{Puzzle, Shape};
use crate::io::lines::quote_prefix;

/// One JSON line: an object with the puzzle in `cells` (or `puzzle`, `solution`, `grid`),
/// or the puzzle itself (rows, a flat array, or a line-form string).
pub(super) fn parse_json_line(
    no: usize,
    text: &str,
    alphabet: Alphabet,
) -> Result<Puzzle, ParseError> {
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
