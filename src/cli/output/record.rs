//! The JSON form: one [`Record`] per result and line, keyed by its place in the input
//! ([`InInput`]) or in a batch ([`InBatch`]), with cells as arrays of rows ([`Rows`]).

use serde::{Serialize, Serializer};

use crate::cli::input::Item;
use crate::grid::Shape;

/// The JSON record of one result, one per line: what identifies the result (`key`: its
/// place in the input, [`InInput`], or in a batch, [`InBatch`]), then the grid's `box` and
/// `size` when the record shows cells, then the command's own `fields`.
#[derive(Serialize)]
pub(in crate::cli) struct Record<K, M> {
    #[serde(flatten)]
    key: K,
    #[serde(flatten)]
    shape: Option<ShapeJson>,
    #[serde(flatten)]
    fields: M,
}

impl<K: Serialize, M: Serialize> Record<K, M> {
    /// A record of a result of `shape` (`None` leaves out `box` and `size`).
    pub(in crate::cli) fn new(key: K, shape: Option<Shape>, fields: M) -> Record<K, M> {
        Record {
            key,
            shape: shape.map(|s| ShapeJson {
                box_size: s.box_size(),
                size: s.side(),
            }),
            fields,
        }
    }
}

#[derive(Serialize)]
struct ShapeJson {
    #[serde(rename = "box")]
    box_size: usize,
    size: usize,
}

/// A record's key for a puzzle of the input: its 1-based number and the line it starts on,
/// for a roster of a long CSV with a `grid` column, its label there (as `label`:
/// `generate`'s records use `grid` for the kind of grid), and for a roster CSV, its names,
/// which map the record's numbers back to them (shift `s` is `names.shifts[s - 1]`).
#[derive(Serialize)]
pub(in crate::cli) struct InInput<'a> {
    puzzle: usize,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    names: Option<NamesJson<'a>>,
}

/// A roster's names, in the order of its rows, columns and symbols.
#[derive(Serialize)]
struct NamesJson<'a> {
    staff: &'a [String],
    days: &'a [String],
    shifts: &'a [String],
}

impl<'a> InInput<'a> {
    /// The key of `item`.
    pub(in crate::cli) fn of(item: &'a Item) -> InInput<'a> {
        InInput {
            puzzle: item.index + 1,
            line: item.line,
            label: item.grid_label(),
            names: item.roster_names().map(|n| NamesJson {
                staff: n.staff(),
                days: n.days(),
                shifts: n.shifts(),
            }),
        }
    }
}

/// The first item of a batch to make, `--first-index` (0 without it), once it is checked
/// that the last of the `count` items to make keeps a number within 2^53 (labels and
/// JSON's `"index"`), which JSON tools that read numbers as doubles (jq, JavaScript) hold
/// exactly. `what`: "puzzle" or "grid", for the error.
///
/// # Errors
/// A usage error when the numbers would run past 2^53.
pub(in crate::cli) fn first_in_batch(
    first_index: Option<u64>,
    count: u64,
    what: &str,
) -> anyhow::Result<u64> {
    const LAST_INDEX: u64 = 1 << 53;
    let first = first_index.unwrap_or(0);
    if first.checked_add(count).is_none_or(|end| end > LAST_INDEX) {
        return Err(crate::cli::exit::usage_error(format!(
            "--first-index {first} --count {count} runs past the last {what} number \
             ({LAST_INDEX})"
        )));
    }
    Ok(first)
}

/// A record's key for a grid a run made: its 1-based number in the batch and its seed.
#[derive(Serialize)]
pub(in crate::cli) struct InBatch {
    /// 1-based.
    pub(in crate::cli) index: u64,
    /// The seed it was made from, written as a string of decimal digits: a batch's seeds
    /// use all 64 bits, which JSON tools that read numbers as doubles (jq, JavaScript)
    /// would round to another seed, as protobuf's JSON writes 64-bit integers.
    #[serde(serialize_with = "decimal")]
    pub(in crate::cli) seed: u64,
}

/// A `u64` as a JSON string of its decimal digits.
fn decimal<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// Cells in JSON: one array per row (`0` for a blank).
pub(in crate::cli) struct Rows<'a>(pub(in crate::cli) &'a [u8], pub(in crate::cli) Shape);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.chunks(self.1.side()))
    }
}
