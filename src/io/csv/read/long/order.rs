//! The order of a long file's own staff and day names: rows that list them in another
//! order than the first row's staff member (day) does, and days named by dates.

use std::collections::HashMap;

use super::Assignment;

/// The first row (with the ids of its names) that lists the keys of one axis against the
/// order `order` gives them, among the rows of its key on the other axis: `key` gives a
/// row's (other, this) keys. The ids are of the name that comes first in `order` and of
/// the one the row lists after it.
pub(super) fn out_of_order<'a>(
    rows: &'a [Assignment],
    order: &[usize],
    key: impl Fn(&Assignment) -> (usize, usize),
) -> Option<(&'a Assignment, usize, usize)> {
    // The last key of this axis each key of the other has listed.
    let mut last: HashMap<usize, usize> = HashMap::new();
    for a in rows {
        let (other, this) = key(a);
        match last.get(&other) {
            Some(&prev) if order[this] < order[prev] => return Some((a, this, prev)),
            Some(&prev) if order[this] == order[prev] => {}
            _ => {
                last.insert(other, this);
            }
        }
    }
    None
}

/// Whether `name` is a date written `YYYY-MM-DD` (ISO 8601), whose text order is its order
/// in time.
pub(super) fn is_iso_date(name: &str) -> bool {
    let b = name.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let number = |r: std::ops::Range<usize>| name[r].parse::<u32>().unwrap_or(0);
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && (1..=12).contains(&number(5..7))
        && (1..=31).contains(&number(8..10))
}

/// The places of names that are all dates (see [`is_iso_date`]), in date order.
pub(super) fn date_order(names: &[String]) -> Vec<usize> {
    let mut ids: Vec<usize> = (0..names.len()).collect();
    ids.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut order = vec![0; names.len()];
    for (at, id) in ids.into_iter().enumerate() {
        order[id] = at;
    }
    order
}
