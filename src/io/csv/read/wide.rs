//! The wide layout: a header `staff,<day 1>,…,<day N>` and one row per staff member.

use std::collections::HashMap;
use std::io::BufRead;

use super::own::OwnShifts;
use super::{Fail, Lookup, Roster, Row, Rows, ShiftSpelling, default_index, finish, names_error};
use crate::grid::Shape;
use crate::io::csv::errors::{CsvErrorKind, err};
use crate::io::csv::names::{Axis, CustomNames, Names, canonical, check_name};
use crate::io::csv::{Dialect, Layout};
use crate::io::lines::quote_prefix;

/// Reads a wide roster: `header` is its first row, `width` its fields up to the last
/// non-empty one.
pub(super) fn read_wide<R: BufRead>(
    header: &Row,
    width: usize,
    body: &mut Rows<'_, R>,
    custom: &CustomNames,
) -> Result<Roster, Fail> {
    let n = width.saturating_sub(1);
    if n < 4 {
        return Err(err(header.line, None, CsvErrorKind::Header { fields: width }).into());
    }
    let shape = Shape::from_side(n).map_err(|source| {
        let (hint, field) = size_hint(&header.fields[1..width]);
        err(
            header.line,
            field,
            CsvErrorKind::Size {
                days: n,
                source,
                hint,
            },
        )
    })?;
    let mut names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
    // The header's first cell labels the staff column: kept as written (empty too), so it
    // is written back, unless it is no name to write (a formula, say; it is not read).
    let corner = &header.fields[0];
    if corner.is_empty() || check_name(corner).is_ok() {
        names.corner = corner.clone();
    }
    let hint = format!(" (staff and {n} days)");

    // Columns: the field of each day, by the day list or in the header's order.
    let days = Lookup::new(Axis::Day, n, custom);
    let mut day_of_field = Vec::with_capacity(n);
    let mut field_of_day: Vec<Option<usize>> = vec![None; n];
    for (j, name) in header.fields[1..width].iter().enumerate() {
        let field = j + 2;
        let d = if days.list.is_some() {
            days.get(name, header.line, field)?
        } else {
            check_name(name).map_err(|problem| {
                err(
                    header.line,
                    Some(field),
                    CsvErrorKind::BadName {
                        what: "day".into(),
                        name: quote_prefix(name),
                        problem,
                    },
                )
            })?;
            // One name in two Unicode forms is one day (see `canonical`).
            let key = canonical(name);
            let first = (0..j).find(|&k| canonical(&header.fields[k + 1]) == key);
            first.unwrap_or(j)
        };
        if let Some(first_field) = field_of_day[d] {
            return Err(err(
                header.line,
                Some(field),
                CsvErrorKind::DuplicateDay {
                    name: quote_prefix(name),
                    first_field,
                },
            )
            .into());
        }
        field_of_day[d] = Some(field);
        day_of_field.push(d);
        if days.list.is_none() {
            names.days[d] = name.clone();
        }
    }

    // Rows: one per staff member, by the staff list or in the file's order.
    let staff = Lookup::new(Axis::Staff, n, custom);
    let shifts = Lookup::new(Axis::Shift, n, custom);
    let mut spelling = ShiftSpelling::default();
    let mut own = OwnShifts::default();
    // Shifts as written in the rows (a few per symbol), to tell a header that is a row.
    let mut shift_texts: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut cells = vec![0u8; shape.cells()];
    let mut origin = vec![(0usize, 0usize); shape.cells()];
    let mut line_of_staff: Vec<Option<usize>> = vec![None; n];
    let mut seen_names: HashMap<String, usize> = HashMap::new();
    let mut count = 0;
    let mut last = header.line;
    while let Some(mut row) = body.next()? {
        last = row.line;
        // A short row ends in blanks, unless it is one field holding another of the
        // delimiters: then it was most likely not split at all (saved with another
        // delimiter), and padding would lose its shifts.
        if row.fields.len() > 1 || !row.holds_another_delimiter(body.delimiter) {
            row.pad(width);
        }
        let fields = row.fit(width, &hint)?;
        let name = &fields[0];
        let r = if staff.list.is_some() {
            staff.get(name, row.line, 1)?
        } else {
            check_name(name).map_err(|problem| {
                err(
                    row.line,
                    Some(1),
                    CsvErrorKind::BadName {
                        what: "staff".into(),
                        name: quote_prefix(name),
                        problem,
                    },
                )
            })?;
            // A name seen before points at its first row, which is then reported.
            seen_names
                .get(canonical(name).as_ref())
                .copied()
                .unwrap_or(count)
        };
        if let Some(first_line) = line_of_staff.get(r).copied().flatten() {
            return Err(err(
                row.line,
                Some(1),
                CsvErrorKind::DuplicateStaff {
                    name: quote_prefix(name),
                    first_line,
                },
            )
            .into());
        }
        if count == n {
            return Err(err(
                row.line,
                None,
                CsvErrorKind::RowCount {
                    found: n + 1,
                    shape,
                    header_like_row: false,
                },
            )
            .into());
        }
        line_of_staff[r] = Some(row.line);
        if staff.list.is_none() {
            seen_names.insert(canonical(name).into_owned(), r);
            names.staff[r] = name.clone();
        }
        for (j, text) in fields[1..].iter().enumerate() {
            let i = r * n + day_of_field[j];
            origin[i] = (row.line, j + 2);
            if !text.is_empty() {
                if shift_texts.len() < 4 * n {
                    shift_texts.insert(text.clone());
                }
                let field = j + 2;
                let shift = match shifts.find(text) {
                    Some(k) if shifts.list.is_none() => {
                        own.number(k + 1, text, row.line, field);
                        k + 1
                    }
                    Some(k) => k + 1,
                    None if shifts.list.is_none() && default_index(Axis::Shift, text).is_none() => {
                        own.id(text, row.line, field, Some(shape))?
                    }
                    None => return Err(err(row.line, Some(field), shifts.unknown(text)).into()),
                };
                cells[i] = shift as u8;
                spelling.note(text);
            }
        }
        count += 1;
    }
    if count < n {
        let kind = match custom.staff.as_ref() {
            Some(list) => {
                let r = line_of_staff.iter().position(Option::is_none).unwrap_or(0);
                CsvErrorKind::Missing {
                    axis: Axis::Staff,
                    name: list.names[r].clone(),
                    source_name: list.source.clone(),
                }
            }
            None => CsvErrorKind::RowCount {
                found: count,
                shape,
                // One row short, and every day name is a shift the rows use: most likely
                // the first staff row, in a file without a header.
                header_like_row: count + 1 == n
                    && header.fields[1..width]
                        .iter()
                        .all(|d| !d.is_empty() && shift_texts.contains(d.as_str())),
            },
        };
        return Err(err(last, None, kind).into());
    }
    spelling.apply(&mut names, custom);
    own.apply(&mut names)?;
    // Default names out of order (`Staff 4` on the first row): each goes where its number
    // says, as in a long file, so that converting between the layouts never moves a shift.
    if staff.list.is_none() {
        if let Some(place) = default_places(Axis::Staff, &names.staff) {
            permute(&mut cells, &mut origin, &mut names.staff, n, &place, true);
        }
    }
    if days.list.is_none() {
        if let Some(place) = default_places(Axis::Day, &names.days) {
            permute(&mut cells, &mut origin, &mut names.days, n, &place, false);
        }
    }
    let puzzle = finish(shape, cells, &origin, &names)?;
    Ok(Roster {
        label: None,
        line: header.line,
        layout: Layout::Wide,
        dialect: Dialect::default(),
        puzzle,
        names,
    })
}

/// When every name of an axis is a default one (`Day 3`, `day3`, `3`) and together they
/// number `1..=n` in some order other than the file's: the place (from 0) of each.
fn default_places(axis: Axis, names: &[String]) -> Option<Vec<usize>> {
    let n = names.len();
    let mut seen = vec![false; n];
    let mut place = Vec::with_capacity(n);
    for name in names {
        let k = default_index(axis, name).filter(|k| (1..=n).contains(k))? - 1;
        if std::mem::replace(&mut seen[k], true) {
            return None;
        }
        place.push(k);
    }
    place
        .iter()
        .enumerate()
        .any(|(i, &k)| i != k)
        .then_some(place)
}

/// Moves row (`rows`) or column `i` of the grid, its cells' origins and its name to
/// `place[i]`.
fn permute(
    cells: &mut [u8],
    origin: &mut [(usize, usize)],
    names: &mut [String],
    n: usize,
    place: &[usize],
    rows: bool,
) {
    let at = |i: usize, j: usize| if rows { i * n + j } else { j * n + i };
    let (old_cells, old_origin, old_names) = (cells.to_vec(), origin.to_vec(), names.to_vec());
    for (i, &k) in place.iter().enumerate() {
        for j in 0..n {
            cells[at(k, j)] = old_cells[at(i, j)];
            origin[at(k, j)] = old_origin[at(i, j)];
        }
        names[k] = old_names[i].clone();
    }
}

/// For a header whose day columns (`days`) make no supported size, the likely slip: one or
/// two columns past a size (a notes or totals column added), with the field of the first
/// of them, or one day short of one; before either, a day column with no name whose
/// removal leaves a size, with its field. Empty otherwise (a week of 7 days is no slip).
fn size_hint(days: &[String]) -> (String, Option<usize>) {
    let n = days.len();
    // A day column with no name, whose removal leaves a size, is the likelier slip,
    // wherever it is.
    // (Otherwise it is still named, but no size is guessed past it.)
    if let Some(j) = days.iter().position(String::is_empty) {
        let hint = if Shape::from_side(n - 1).is_ok() {
            "; one of them has no name (a column added by mistake?)"
        } else {
            "; one of them has no name"
        };
        return (hint.to_string(), Some(j + 2));
    }
    let below = Shape::all().map(Shape::side).filter(|&s| s < n).last();
    let above = Shape::all().map(Shape::side).find(|&s| s > n);
    match (below, above) {
        (Some(s), _) if n - s <= 2 => {
            let extra: Vec<String> = days[s..]
                .iter()
                .map(|d| crate::io::quote::quoted(&quote_prefix(d)))
                .collect();
            let hint = format!(
                "; a {s}x{s} roster has {s} days: {} {} {}? (remove the columns that are not \
                 days)",
                if extra.len() == 1 { "is" } else { "are" },
                extra.join(", "),
                if extra.len() == 1 { "one" } else { "days" }
            );
            // Field s + 2: the staff column, then s days.
            (hint, Some(s + 2))
        }
        (_, Some(s)) if s - n == 1 => (
            format!("; a {s}x{s} roster has {s} days: one is missing?"),
            None,
        ),
        _ => (String::new(), None),
    }
}

#[cfg(test)]
mod tests {
    use crate::io::csv::CustomNames;
    use crate::io::csv::test_util::{list, read, read_err};

    #[test]
    fn wide_rows_and_columns_match_lists_in_any_order() {
        let custom = CustomNames {
            staff: Some(list("s", &["A", "B", "C", "D"])),
            days: Some(list("d", &["W", "X", "Y", "Z"])),
            ..CustomNames::default()
        };
        // Columns Z Y X W, rows D C B A: the grid is the pattern reversed both ways.
        let text = "who,Z,Y,X,W\nD,1,,,\nC,,,,\nB,,,,\nA,,,,2\n";
        let r = &read(text, &custom).unwrap()[0];
        assert_eq!(r.puzzle.get(3, 3), 1);
        assert_eq!(r.puzzle.get(0, 0), 2);
        assert_eq!(r.names.staff(), ["A", "B", "C", "D"]);
        let e = read_err("who,Z,Y,X,W\nD,,,,\nC,,,,\nB,,,,\n", &custom);
        assert_eq!(e.to_string(), "line 4: no row for staff \"A\" (from s)");
    }

    /// Default names out of order go where their numbers say, as in a long file: this
    /// file is the normal-order roster with `Staff 4` first and the days reversed.
    #[test]
    fn wide_default_names_out_of_order_are_placed_by_number() {
        let none = CustomNames::default();
        let text = "staff,Day 4,Day 3,Day 2,Day 1\nStaff 4,1,3,,\nStaff 1,,,2,1\nStaff 2,,,,\nStaff 3,,,,\n";
        let r = &read(text, &none).unwrap()[0];
        let long =
            "staff,day,shift\nStaff 4,Day 4,1\nStaff 4,Day 3,3\nStaff 1,Day 2,2\nStaff 1,Day 1,1\n";
        let l = &read(long, &none).unwrap()[0];
        assert_eq!(r.puzzle.cells(), l.puzzle.cells());
        assert_eq!((r.puzzle.get(3, 3), r.puzzle.get(0, 0)), (1, 1));
        assert_eq!(
            r.names.staff(),
            ["Staff 1", "Staff 2", "Staff 3", "Staff 4"]
        );
        assert_eq!(r.names.days(), ["Day 1", "Day 2", "Day 3", "Day 4"]);
        // Custom names keep the file's order.
        let r = &read("who,W,X,Y,Z\nD,1,,,\nC,,,,\nB,,,,\nA,,,,\n", &none).unwrap()[0];
        assert_eq!((r.puzzle.get(0, 0), r.names.staff()[0].as_str()), (1, "D"));
    }
}
