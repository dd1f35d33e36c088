//! The long layout: a header `staff,day,shift` (or `grid,staff,day,shift`) and one row per
//! assignment.

use std::collections::HashMap;
use std::io::BufRead;

use super::{Fail, Lookup, Roster, Row, Rows, default_index, finish, names_error};
use crate::grid::{MAX_BOX, Shape};
use crate::io::csv::errors::{CsvErrorKind, err};
use crate::io::csv::names::{Axis, CustomNames, Names, check_name};
use crate::io::csv::{Layout, MAX_SIDE};
use crate::io::lines::quote_prefix;

/// One assignment of a long file: its line and 0-based staff, day, and shift (0 for blank).
struct Assignment {
    line: usize,
    staff: u8,
    day: u8,
    shift: u8,
}

/// The assignments of one grid of a long file.
struct Group {
    label: Option<String>,
    rows: Vec<Assignment>,
    /// The line and shift of each (staff, day) assigned so far.
    first: HashMap<(u8, u8), (usize, u8)>,
    /// The largest staff, day or shift number used (for the size without name lists).
    max: usize,
}

/// Reads a long roster (with a leading `grid` column when `with_grid`): one roster per
/// grid label, in order of first appearance.
pub(super) fn read_long<R: BufRead>(
    header: &Row,
    body: &mut Rows<'_, R>,
    with_grid: bool,
    custom: &CustomNames,
) -> Result<Vec<Roster>, Fail> {
    let width = if with_grid { 4 } else { 3 };
    let hint = if with_grid {
        " (grid, staff, day, shift)"
    } else {
        " (staff, day, shift)"
    };
    let offset = usize::from(with_grid);
    // With name lists the size is known now and names are looked up as rows come;
    // without, numbers are read now and the size is the smallest that holds them all.
    let fixed = custom.shape().map_err(|e| names_error(header.line, e))?;
    let known = match fixed {
        Some(shape) => {
            let names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
            Some((shape, names))
        }
        None => None,
    };
    let lookups = known.as_ref().map(|(shape, _)| {
        let n = shape.side();
        [Axis::Staff, Axis::Day, Axis::Shift].map(|axis| Lookup::new(axis, n, custom))
    });
    // Names for messages before the size is known: the defaults, which do not depend on it.
    let default_names = Names::defaults(Shape::new(MAX_BOX).expect("the largest box is valid"));
    let message_names = known.as_ref().map_or(&default_names, |(_, names)| names);
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    if !with_grid {
        groups.push(Group {
            label: None,
            rows: Vec::new(),
            first: HashMap::new(),
            max: 0,
        });
    }
    while let Some(row) = body.next()? {
        let fields = row.fit(width, hint)?;
        let (g, rest) = if with_grid {
            let label = fields[0].as_str();
            check_name(label).map_err(|problem| {
                err(
                    row.line,
                    Some(1),
                    CsvErrorKind::BadName {
                        what: "grid label".into(),
                        name: quote_prefix(label),
                        problem,
                    },
                )
            })?;
            let g = match group_of.get(label) {
                Some(&g) => g,
                None => {
                    groups.push(Group {
                        label: Some(label.to_string()),
                        rows: Vec::new(),
                        first: HashMap::new(),
                        max: 0,
                    });
                    group_of.insert(label.to_string(), groups.len() - 1);
                    groups.len() - 1
                }
            };
            (g, &fields[1..])
        } else {
            (0, fields)
        };
        let group = &mut groups[g];
        let mut index = [0usize; 3];
        for (k, axis) in [Axis::Staff, Axis::Day, Axis::Shift]
            .into_iter()
            .enumerate()
        {
            let name = rest[k].as_str();
            let field = k + 1 + offset;
            if axis == Axis::Shift && name.is_empty() {
                continue;
            }
            index[k] = match &lookups {
                Some(l) => l[k].get(name, row.line, field)? + 1,
                None => match default_index(axis, name) {
                    Some(v) if (1..=MAX_SIDE).contains(&v) => v,
                    _ => {
                        let expected = format!(
                            "\"{w} 1\", \"{w} 2\", … or a number 1 to {MAX_SIDE}",
                            w = axis.word()
                        );
                        let kind = CsvErrorKind::Unknown {
                            axis,
                            name: quote_prefix(name),
                            expected,
                        };
                        return Err(err(row.line, Some(field), kind).into());
                    }
                },
            };
            group.max = group.max.max(index[k]);
        }
        // Every index is 1..=100 here, so it fits a byte.
        let [staff, day, shift] = index.map(|v| u8::try_from(v).unwrap_or(u8::MAX));
        let (staff, day) = (staff - 1, day - 1);
        if let Some(&(first_line, first_shift)) = group.first.get(&(staff, day)) {
            if first_shift == shift {
                // The same row again (a paste made twice): it says nothing new.
                continue;
            }
            return Err(err(
                row.line,
                None,
                CsvErrorKind::DuplicateCell {
                    staff: message_names.staff[usize::from(staff)].clone(),
                    day: message_names.days[usize::from(day)].clone(),
                    first_line,
                },
            )
            .into());
        }
        group.first.insert((staff, day), (row.line, shift));
        group.rows.push(Assignment {
            line: row.line,
            staff,
            day,
            shift,
        });
    }
    if groups.is_empty() {
        return Err(err(header.line, None, CsvErrorKind::NoRows).into());
    }
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let (shape, names) = match &known {
            Some((shape, names)) => (*shape, names.clone()),
            None => {
                let shape = Shape::all()
                    .find(|s| group.max > 0 && s.side() >= group.max)
                    .ok_or_else(|| err(header.line, None, CsvErrorKind::UnknownSize))?;
                let names = Names::new(shape, custom).map_err(|e| names_error(header.line, e))?;
                (shape, names)
            }
        };
        let n = shape.side();
        let mut cells = vec![0u8; shape.cells()];
        let mut origin = vec![(0usize, 0usize); shape.cells()];
        for a in &group.rows {
            let i = usize::from(a.staff) * n + usize::from(a.day);
            origin[i] = (a.line, 3 + offset);
            cells[i] = a.shift;
        }
        let puzzle = finish(shape, cells, &origin, &names)?;
        out.push(Roster {
            label: group.label,
            line: group.rows.first().map_or(header.line, |a| a.line),
            layout: Layout::Long,
            puzzle,
            names,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::grid::Puzzle;
    use crate::io::csv::test_util::{list, read, read_err, s2};
    use crate::io::csv::{CsvErrorKind, CustomNames};

    #[test]
    fn numbers_and_case_for_default_names() {
        let text = "staff,day,shift\nstaff 1,DAY 1,3\n2,Day2,shift 4\n";
        let r = &read(text, &CustomNames::default()).unwrap()[0];
        assert_eq!(r.puzzle.get(0, 0), 3);
        assert_eq!(r.puzzle.get(1, 1), 4);
        // With a shift list, numbers are names like any other: unknown.
        let custom = CustomNames {
            shifts: Some(list("sh.txt", &["E", "L", "N", "O"])),
            ..CustomNames::default()
        };
        let e = read_err(text, &custom);
        assert_eq!(
            e.to_string(),
            "line 2, field 3: unknown shift \"3\": expected one of \"E\", \"L\", \"N\", \"O\" \
             (from sh.txt)"
        );
    }

    #[test]
    fn long_size_is_inferred_or_from_lists() {
        let text = "staff,day,shift\nStaff 1,Day 1,Shift 5\n";
        assert_eq!(
            read(text, &CustomNames::default()).unwrap()[0]
                .puzzle
                .shape()
                .side(),
            9
        );
        let text = "staff,day,shift\nStaff 1,Day 1,Shift 101\n";
        let e = read_err(text, &CustomNames::default());
        assert_eq!((e.line, e.field), (2, Some(3)));
        let e = read_err(
            "staff,day,shift\nAnn,Day 1,Shift 1\n",
            &CustomNames::default(),
        );
        assert!(e.to_string().contains("unknown staff \"Ann\""), "{e}");
    }

    #[test]
    fn empty_long_needs_names() {
        let e = read_err("staff,day,shift\n", &CustomNames::default());
        assert_eq!(e.kind, CsvErrorKind::UnknownSize);
        let custom = CustomNames {
            staff: Some(list("s", &["A", "B", "C", "D"])),
            ..CustomNames::default()
        };
        let r = &read("staff,day,shift\n", &custom).unwrap()[0];
        assert_eq!(r.puzzle, Puzzle::empty(s2()));
    }
}
