//! The long layout: a header naming the columns `staff`, `day` and `shift` (and `grid` for
//! several rosters) in any order, other columns ignored, and one row per assignment. A
//! staff or day column may go by the names rostering tools give it (`columns`:
//! `STAFF_COLUMNS`, `DAY_COLUMNS`) where no column has ours.
//!
//! Staff and days are matched against their name lists; without a list, an axis whose
//! names are all default ones (`Staff 3`, `3`) is placed by number, and one with names of
//! its own is placed in the order the file lists them: the staff in the order of the rows on
//! the first row's day, the days in the order of the rows of the first row's staff member
//! (which must name every staff member and every day, blank ones with an empty shift, as
//! the long writer does for such rosters). The other rows must keep that order (a file
//! sorted by shift does not, and is refused: which order is meant is not guessed).

use std::collections::HashMap;
use std::io::BufRead;

use super::own::OwnShifts;
use super::{Fail, Lookup, Roster, Row, Rows, ShiftSpelling, default_index, finish, names_error};
use crate::grid::Shape;
use crate::io::csv::errors::{CsvError, CsvErrorKind, OrderNames, err};
use crate::io::csv::names::{Axis, CustomNames, Names, check_name};
use crate::io::csv::{Dialect, Layout, MAX_SIDE};
use crate::io::lines::quote_prefix;
pub(super) use columns::Columns;
use misspelt::{stray, typo, unnumbered};
use order::out_of_order;
use seen::Seen;

/// One assignment of a long file: its line, the keys of its staff member and day (0-based
/// indices on a listed axis, [`Seen`] ids on the others), and its shift (0 for blank).
#[derive(Clone, Copy)]
struct Assignment {
    line: usize,
    staff: u16,
    day: u16,
    shift: u8,
}

/// The most distinct spellings of staff (or day) names one grid may use.
const MAX_SPELLINGS: usize = 10 * MAX_SIDE;

/// The rows of one grid of a long file.
struct Group {
    label: Option<String>,
    rows: Vec<Assignment>,
    /// The line, shift and row of each (staff, day) key assigned so far.
    first: HashMap<(u16, u16), (usize, u8, usize)>,
    staff: Seen,
    days: Seen,
    /// The largest shift number used, and where (for the size without name lists).
    max_shift: (usize, usize, usize),
    /// How its shifts were written.
    spelling: ShiftSpelling,
}

impl Group {
    fn new(label: Option<String>) -> Group {
        Group {
            label,
            rows: Vec::new(),
            first: HashMap::new(),
            staff: Seen::default(),
            days: Seen::default(),
            max_shift: (0, 0, 0),
            spelling: ShiftSpelling::default(),
        }
    }
}

/// Reads a long roster: one roster per grid label, in order of first appearance (one in
/// all without a `grid` column).
pub(super) fn read_long<R: BufRead>(
    header: &Row,
    header_width: usize,
    columns: Columns,
    body: &mut Rows<'_, R>,
    custom: &CustomNames,
) -> Result<Vec<Roster>, Fail> {
    let width = columns.width().max(header_width);
    let hint = format!(" ({})", header.fields[..header_width].join(", "));
    // With any name list the size is known now; without, it is told once a grid is read.
    let fixed = custom.shape().map_err(|e| names_error(header.line, e))?;
    let lists = fixed.map(|shape| {
        let n = shape.side();
        [Axis::Staff, Axis::Day, Axis::Shift].map(|axis| Lookup::new(axis, n, custom))
    });
    let listed = |axis: Axis| custom.get(axis).is_some();
    let mut groups: Vec<Group> = Vec::new();
    // Shift names of the file's own, over all its grids (one grid may name fewer).
    let mut own = OwnShifts::default();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    if columns.grid.is_none() {
        groups.push(Group::new(None));
    }
    while let Some(mut row) = body.next()? {
        // The header again: files joined with `cat` (the shards of a batch run in parts).
        if is_header_again(&row, header, header_width) {
            continue;
        }
        if let Some(e) = columns.out_of_place(header, header_width, &row) {
            return Err(e.into());
        }
        // A row may leave out empty fields at its end (a blank shift, an empty note).
        row.pad(width);
        let fields = row.fit(width, &hint)?;
        let g = match columns.grid {
            None => 0,
            Some(k) => {
                let label = fields[k].as_str();
                check_name(label).map_err(|problem| {
                    err(
                        row.line,
                        Some(k + 1),
                        CsvErrorKind::BadName {
                            what: "grid label".into(),
                            name: quote_prefix(label),
                            problem,
                        },
                    )
                })?;
                match group_of.get(label) {
                    Some(&g) => g,
                    None => {
                        groups.push(Group::new(Some(label.to_string())));
                        group_of.insert(label.to_string(), groups.len() - 1);
                        groups.len() - 1
                    }
                }
            }
        };
        let group = &mut groups[g];
        let mut keys = [0u16; 2];
        for (slot, (axis, k)) in [(Axis::Staff, columns.staff), (Axis::Day, columns.day)]
            .into_iter()
            .enumerate()
        {
            let name = fields[k].as_str();
            keys[slot] = match &lists {
                Some(l) if listed(axis) => l[slot].get(name, row.line, k + 1)? as u16,
                _ => {
                    let seen = if axis == Axis::Staff {
                        &mut group.staff
                    } else {
                        &mut group.days
                    };
                    seen.id(axis, name, row.line, k + 1)?
                }
            };
        }
        let name = fields[columns.shift].as_str();
        let field = columns.shift + 1;
        // Without a shift list: a number (or default name), or a name of the roster's own.
        let shift = if name.is_empty() {
            0
        } else {
            match &lists {
                Some(l) if listed(Axis::Shift) => l[2].get(name, row.line, field)? + 1,
                _ => match default_index(Axis::Shift, name) {
                    Some(v) if (1..=MAX_SIDE).contains(&v) => {
                        own.number(v, name, row.line, field);
                        if v > group.max_shift.0 {
                            group.max_shift = (v, row.line, field);
                        }
                        v
                    }
                    Some(_) => return Err(unnumbered(Axis::Shift, name, row.line, field).into()),
                    None => own.id(name, row.line, field, fixed)?,
                },
            }
        };
        if shift > 0 {
            group.spelling.note(name);
        }
        // Every shift is 1..=200 here (own names past the size are counted before the
        // roster is refused), so it fits a byte.
        let shift = u8::try_from(shift).unwrap_or(u8::MAX);
        let (staff, day) = (keys[0], keys[1]);
        if let Some(&(first_line, first_shift, at)) = group.first.get(&(staff, day)) {
            if first_shift == shift || shift == 0 {
                // The same row again (a paste made twice), or a blank: nothing new.
                continue;
            }
            if first_shift == 0 {
                // A shift for a cell written blank (added to an exported file).
                group.rows[at].shift = shift;
                group.rows[at].line = row.line;
                group.first.insert((staff, day), (row.line, shift, at));
                continue;
            }
            let kind = CsvErrorKind::DuplicateCell {
                staff: shown(Axis::Staff, &fields[columns.staff]),
                day: shown(Axis::Day, &fields[columns.day]),
                first_line,
            };
            let mut e = err(row.line, None, kind);
            e.grid = group.label.clone().map(Box::new);
            return Err(e.into());
        }
        group
            .first
            .insert((staff, day), (row.line, shift, group.rows.len()));
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
        let label = group.label.clone().map(Box::new);
        // A problem of one grid of a labelled file names it.
        let roster =
            finish_group(header.line, columns, group, &own, fixed, custom).map_err(|mut e| {
                e.grid = label;
                e
            })?;
        out.push(roster);
    }
    Ok(out)
}

/// Whether `row` repeats the header (in any letter case; empty fields past the header's
/// last named one aside), as where long files were joined.
fn is_header_again(row: &Row, header: &Row, header_width: usize) -> bool {
    let named = &header.fields[..header_width];
    row.fields.len() >= named.len()
        && row.fields[named.len()..].iter().all(String::is_empty)
        && row
            .fields
            .iter()
            .zip(named)
            .all(|(a, b)| a.eq_ignore_ascii_case(b))
}

/// A name as messages show it: a default name in full (`3` as `Staff 3`), others as written.
fn shown(axis: Axis, name: &str) -> String {
    match default_index(axis, name) {
        Some(k) => format!("{} {k}", axis.word()),
        None => name.to_string(),
    }
}

/// How the staff or the days of a grid are placed.
enum Placing {
    /// By the name list: keys are indices.
    Listed,
    /// By number (every name a default one): the index of each id, and the largest number
    /// with the id that has it.
    Numbered(Vec<usize>, Option<(usize, u16)>),
    /// In the file's order (names of its own).
    Own,
}

/// Places one axis of a grid whose names `seen` holds (`listed`: a list names it;
/// `complete`: the grid has a row for every pair of its staff and days, as the long writer
/// writes rosters whose names could pass for numbers).
///
/// Names that are all default ones numbering `1..=k` (each once) go by number; so do
/// default names with gaps (a sparse numbered roster) unless the grid is complete, when they
/// are names of their own (`Day 1`, `Day 2`, `Day 3`, `Day 5` of a wide roster), as are
/// two spellings of one number (`1` and `Day 1`). Names of which some are default ones and
/// some not are the roster's own when the grid is complete; otherwise the first one that
/// is not a default name, after a default first name, is a typo (see [`typo`]).
fn placing(axis: Axis, seen: &Seen, listed: bool, complete: bool) -> Result<Placing, CsvError> {
    if listed {
        return Ok(Placing::Listed);
    }
    let numbered = |numbers: &[usize]| {
        let max = (0..numbers.len())
            .max_by_key(|&id| numbers[id])
            .map(|id| (numbers[id], id as u16));
        Placing::Numbered(numbers.iter().map(|k| k - 1).collect(), max)
    };
    match seen.numbers(axis) {
        Some(numbers) => {
            let mut sorted = numbers.clone();
            sorted.sort_unstable();
            let one_to_k = sorted.iter().enumerate().all(|(i, &k)| k == i + 1);
            Ok(if one_to_k || !complete {
                numbered(&numbers)
            } else {
                Placing::Own
            })
        }
        None if complete => Ok(Placing::Own),
        None => match typo(axis, seen) {
            Some(e) => Err(e),
            None => Ok(Placing::Own),
        },
    }
}

/// Tells the size of a grid, places its staff and days, and makes its roster.
fn finish_group(
    header_line: usize,
    columns: Columns,
    group: Group,
    own_shifts: &OwnShifts,
    fixed: Option<Shape>,
    custom: &CustomNames,
) -> Result<Roster, CsvError> {
    let axes = [
        (Axis::Staff, &group.staff, columns.staff),
        (Axis::Day, &group.days, columns.day),
    ];
    // Whether the grid has a row for every pair of the staff and days it names.
    let distinct = |key: fn(&Assignment) -> u16| {
        group
            .rows
            .iter()
            .map(key)
            .collect::<std::collections::HashSet<u16>>()
            .len()
    };
    let (staff_named, days_named) = (distinct(|a| a.staff), distinct(|a| a.day));
    let complete = staff_named == days_named
        && group.first.len() == staff_named * days_named
        && Shape::from_side(staff_named).is_ok();
    let [staff_placing, day_placing] =
        axes.map(|(axis, seen, _)| placing(axis, seen, custom.get(axis).is_some(), complete));
    let mut placings = [staff_placing?, day_placing?];
    // Names of its own that do not make a roster: where the file numbers an axis but for a
    // few names, the first of those is most likely a typo, and is named as one; else a name
    // missing from the rows that give the order of its axis (`Bbo` beside Ann, Bob, Cat
    // and Dee on the first day) is named as the likely typo.
    // (`placings` is given where the file names too many of an axis: a name missing from
    // the ordering rows is then a stray, where with the right count it is only unordered.)
    let fail = |kind: CsvErrorKind,
                line: usize,
                too_many: Option<(&[Placing; 2], [Option<usize>; 2])>|
     -> CsvError {
        axes.iter()
            .find_map(|(axis, seen, _)| typo(*axis, seen))
            .or_else(|| {
                too_many.and_then(|(p, expected)| stray(&group, &axes, p, expected, custom))
            })
            .unwrap_or_else(|| err(line, None, kind))
    };
    // The size: the lists', else the count of names an axis of its own uses, else the
    // smallest that holds every number used.
    let own = |k: usize| matches!(placings[k], Placing::Own).then(|| axes[k].1.names.len());
    let shape = match (fixed, own(0), own(1)) {
        (Some(shape), _, _) => {
            for (k, (axis, _, _)) in axes.iter().enumerate() {
                if let Some(count) = own(k).filter(|&c| c != shape.side()) {
                    let kind = CsvErrorKind::OwnCountListed {
                        axis: *axis,
                        count,
                        shape,
                    };
                    let side = Some(shape.side());
                    return Err(fail(kind, header_line, Some((&placings, [side, side]))));
                }
            }
            shape
        }
        (None, Some(a), Some(b)) if a != b => {
            let kind = CsvErrorKind::OwnCounts { staff: a, days: b };
            return Err(fail(
                kind,
                header_line,
                Some((&placings, [Some(b), Some(a)])),
            ));
        }
        (None, Some(count), _) | (None, None, Some(count)) => {
            let axis = if own(0).is_some() {
                Axis::Staff
            } else {
                Axis::Day
            };
            Shape::from_side(count).map_err(|_| {
                fail(
                    CsvErrorKind::OwnCount { axis, count },
                    header_line,
                    Some((&placings, [None, None])),
                )
            })?
        }
        (None, None, None) => {
            // Shift names of its own number at least as many shifts.
            let mut max = group.max_shift.0.max(own_shifts.len());
            for p in &placings {
                if let Placing::Numbered(_, Some((m, _))) = p {
                    max = max.max(*m);
                }
            }
            Shape::all()
                .find(|s| max > 0 && s.side() >= max)
                .ok_or_else(|| err(header_line, None, CsvErrorKind::UnknownSize))?
        }
    };
    let n = shape.side();
    let mut names = Names::new(shape, custom).map_err(|e| names_error(header_line, e))?;
    group.spelling.apply(&mut names, custom);
    own_shifts.apply(&mut names)?;
    // Numbers beyond the size: names of its own that look like default ones (days `Day 1`
    // to `Day 3` and `Day 5` of a wide roster, as many as the size), or else unknown.
    for (k, (axis, seen, _)) in axes.iter().enumerate() {
        if let Placing::Numbered(_, Some((m, id))) = placings[k]
            && m > n
        {
            if seen.names.len() == n {
                placings[k] = Placing::Own;
                continue;
            }
            let (line, field) = seen.at[usize::from(id)];
            let name = &seen.names[usize::from(id)];
            let kind = Lookup::new(*axis, n, custom).unknown(name);
            return Err(err(line, Some(field), kind));
        }
    }
    if custom.get(Axis::Shift).is_none() && group.max_shift.0 > n {
        let (shift, line, field) = group.max_shift;
        let kind = Lookup::new(Axis::Shift, n, custom).unknown(&shift.to_string());
        return Err(err(line, Some(field), kind));
    }
    // Each key's index: listed keys are indices already, numbered ones go by number, and
    // own names in the file's order (below).
    let mut index: [Vec<usize>; 2] = [0, 1].map(|k| match &placings[k] {
        Placing::Listed => (0..n).collect(),
        Placing::Numbered(of, _) => of.clone(),
        Placing::Own => Vec::new(),
    });
    // A key's place on its axis, where it is known (any axis not of its own names).
    let canon = |a: &Assignment, slot: usize| -> usize {
        let key = usize::from(if slot == 0 { a.staff } else { a.day });
        match placings[slot] {
            Placing::Own => key,
            _ => index[slot][key],
        }
    };
    let mut own_order: [Option<Vec<usize>>; 2] = [None, None];
    for k in 0..2 {
        if !matches!(placings[k], Placing::Own) {
            continue;
        }
        let (axis, seen, _) = axes[k];
        let other = 1 - k;
        let Some(first) = group.rows.first() else {
            // Names of its own come with rows.
            return Err(err(header_line, None, CsvErrorKind::UnknownSize));
        };
        // The first row's staff member (day) lists the days (staff) in order.
        let anchor = canon(first, other);
        let mut order = vec![usize::MAX; seen.names.len()];
        let mut next = 0;
        for a in group.rows.iter().filter(|a| canon(a, other) == anchor) {
            let id = canon(a, k);
            if order[id] == usize::MAX {
                order[id] = next;
                next += 1;
            }
        }
        let (other_axis, other_seen, _) = axes[other];
        let other_name = |key: usize| match placings[other] {
            Placing::Own => other_seen.names[key].clone(),
            _ => names.get(other_axis)[key].clone(),
        };
        if next < seen.names.len() {
            let kind = CsvErrorKind::Unordered {
                axis,
                anchor: other_name(anchor),
                listed: next,
                count: seen.names.len(),
            };
            return Err(fail(kind, first.line, None));
        }
        // Every other staff member (day) must list the days (staff) in that order too: a
        // file sorted by shift lists them in another order on each, and which is meant is
        // then anybody's guess.
        if let Some((a, late, earlier)) =
            out_of_order(&group.rows, &order, |a| (canon(a, other), canon(a, k)))
        {
            let names = OrderNames {
                anchor: other_name(anchor),
                other: other_name(canon(a, other)),
                late: seen.names[late].clone(),
                earlier: seen.names[earlier].clone(),
            };
            let kind = CsvErrorKind::OrderDiffers {
                axis,
                names: Box::new(names),
            };
            return Err(err(a.line, None, kind));
        }
        own_order[k] = Some(order);
    }
    for (k, order) in own_order.into_iter().enumerate() {
        if let Some(order) = order {
            let seen = axes[k].1;
            for (id, &at) in order.iter().enumerate() {
                names.get_mut(axes[k].0)[at] = seen.names[id].clone();
            }
            index[k] = order;
        }
    }
    // The cells, checked again on indices: two default names of one number ("3" and
    // "Staff 3") are one staff member.
    let mut cells = vec![0u8; shape.cells()];
    let mut origin = vec![(0usize, 0usize); shape.cells()];
    let mut line_of = vec![0usize; shape.cells()];
    for a in &group.rows {
        let (r, c) = (index[0][usize::from(a.staff)], index[1][usize::from(a.day)]);
        let i = r * n + c;
        if line_of[i] != 0 && cells[i] != 0 {
            if cells[i] == a.shift || a.shift == 0 {
                continue;
            }
            let kind = CsvErrorKind::DuplicateCell {
                staff: names.get(Axis::Staff)[r].clone(),
                day: names.get(Axis::Day)[c].clone(),
                first_line: line_of[i],
            };
            return Err(err(a.line, None, kind));
        }
        line_of[i] = a.line;
        origin[i] = (a.line, columns.shift + 1);
        cells[i] = a.shift;
    }
    let puzzle = finish(shape, cells, &origin, &names)?;
    Ok(Roster {
        label: group.label,
        line: group.rows.first().map_or(header_line, |a| a.line),
        layout: Layout::Long,
        dialect: Dialect::default(),
        puzzle,
        names,
    })
}

mod columns;
mod misspelt;
mod order;
mod seen;
#[cfg(test)]
mod tests;
