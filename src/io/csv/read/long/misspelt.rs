//! Names a long roster misspells: an unknown name in a numbered file, and a name the rows
//! that give an axis's order leave out when the file names one too many.

use super::{Assignment, Group, Placing, Seen};
use crate::grid::Shape;
use crate::io::csv::MAX_SIDE;
use crate::io::csv::errors::{CsvError, CsvErrorKind, err};
use crate::io::csv::names::{Axis, CustomNames};
use crate::io::csv::read::default_index;
use crate::io::lines::quote_prefix;

/// An unknown name on an axis read by number (no list names it).
pub(super) fn unnumbered(axis: Axis, name: &str, line: usize, field: usize) -> CsvError {
    let expected = format!(
        "\"{w} 1\", \"{w} 2\", … or a number 1 to {MAX_SIDE}",
        w = axis.word()
    );
    let kind = CsvErrorKind::Unknown {
        axis,
        name: quote_prefix(name),
        expected,
    };
    err(line, Some(field), kind)
}

/// The first name of an axis that is not a default one, as an unknown name, when the
/// axis's first name is a default one: a numbered file with a typo.
pub(super) fn typo(axis: Axis, seen: &Seen) -> Option<CsvError> {
    let number = |name: &str| default_index(axis, name).filter(|k| (1..=MAX_SIDE).contains(k));
    number(seen.names.first()?)?;
    let id = seen.names.iter().position(|name| number(name).is_none())?;
    let (line, field) = seen.at[id];
    Some(unnumbered(axis, &seen.names[id], line, field))
}

/// For an axis of names of its own whose order the first row gives (the staff on the first
/// row's day, the days of the first row's staff member): the first name, by line, that
/// those rows leave out, as the likely typo, when the file names more than those rows do
/// and those rows name as many as the roster needs (`expected`, or when not known a
/// supported side). `None` otherwise.
pub(super) fn stray(
    group: &Group,
    axes: &[(Axis, &Seen, usize); 2],
    placings: &[Placing; 2],
    expected: [Option<usize>; 2],
    custom: &CustomNames,
) -> Option<CsvError> {
    let first = group.rows.first()?;
    // A key's place on the other axis, where that is known without the size.
    let place = |a: &Assignment, slot: usize| -> usize {
        let key = usize::from(if slot == 0 { a.staff } else { a.day });
        match &placings[slot] {
            Placing::Numbered(of, _) => of[key],
            Placing::Listed | Placing::Own => key,
        }
    };
    (0..2)
        .filter(|&k| matches!(placings[k], Placing::Own))
        .find_map(|k| {
            let (axis, seen, field) = axes[k];
            let other = 1 - k;
            let anchor = place(first, other);
            let mut on_anchor = vec![false; seen.names.len()];
            for a in group.rows.iter().filter(|a| place(a, other) == anchor) {
                on_anchor[place(a, k)] = true;
            }
            let listed = on_anchor.iter().filter(|&&on| on).count();
            let enough = match expected[k] {
                Some(e) => listed == e,
                None => Shape::from_side(listed).is_ok(),
            };
            if !enough || seen.names.len() <= listed {
                return None;
            }
            let id = (0..seen.names.len())
                .filter(|&id| !on_anchor[id])
                .min_by_key(|&id| seen.at[id])?;
            let (line, _) = seen.at[id];
            let key = usize::from(if other == 0 { first.staff } else { first.day });
            let anchor_name = match (&placings[other], custom.get(axes[other].0)) {
                (Placing::Listed, Some(list)) => list.names.get(key),
                _ => axes[other].1.names.get(key),
            };
            Some(err(
                line,
                Some(field + 1),
                CsvErrorKind::Stray {
                    axis,
                    name: quote_prefix(&seen.names[id]),
                    anchor: anchor_name.map_or_else(String::new, |s| quote_prefix(s)),
                    listed,
                },
            ))
        })
}
