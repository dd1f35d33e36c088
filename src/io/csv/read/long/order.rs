//! The order of a long file's own staff and day names: rows that list them in another
//! order than the first row's staff member (day) does.

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
