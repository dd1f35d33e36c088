//! Tests of the roster writer: rows that would not read back (line limit, CRLF, byte-order
//! mark), rows measured as written, quoted headers, repeated labels and bad grids.

use super::super::test_util::s2;
use super::*;
use crate::grid::Shape;

/// Names as long as fit: a roster whose rows stay within a line is written and reads
/// back; one a row of which would not is refused before anything is written, in either
/// layout (a roster written must read back).
#[test]
fn rows_that_would_not_read_back_are_refused() {
    use super::super::test_util::read;
    use super::super::{CustomNames, NameList};
    use crate::io::lines::MAX_LINE;
    let s = s2();
    let grid = crate::io::fixtures::pattern(s).to_puzzle();
    // Four names of `len` characters each, `"` among them (written doubled, quoted).
    let shifts = |len: usize| {
        let names: Vec<String> = ["A", "B", "C", "D"]
            .iter()
            .map(|c| format!("{c}\"{}", "x".repeat(len - 2)))
            .collect();
        CustomNames {
            shifts: Some(NameList::new("shifts", &names).unwrap()),
            ..CustomNames::default()
        }
    };
    // A staff row holds the four: 4 × (len + 3) + the staff name and 4 commas.
    let fits = (MAX_LINE - 20) / 4 - 3;
    for (len, ok) in [(fits, true), (MAX_LINE / 4, false)] {
        let custom = shifts(len);
        let names = Names::new(s, &custom).unwrap();
        for layout in [Layout::Wide, Layout::Long] {
            let mut out = Vec::new();
            let r = write_roster(&mut out, &grid, &names, layout);
            match (ok, layout) {
                (true, _) | (false, Layout::Long) => {
                    r.unwrap();
                    let text = String::from_utf8(out).unwrap();
                    let back = read(&text, &custom).unwrap();
                    assert_eq!(back[0].puzzle.cells(), grid.cells(), "{layout:?}");
                }
                (false, Layout::Wide) => {
                    let e = r.unwrap_err();
                    assert!(matches!(e, ExportError::RowTooLong { .. }), "{e}");
                    assert!(out.is_empty());
                    // The first row, written as it would have been, is over the limit
                    // the reader holds lines to.
                    let mut w = csv_writer(Vec::new(), false, Dialect::default());
                    let row = std::iter::once(names.staff[0].as_str())
                        .chain(grid.cells()[..4].iter().map(|&v| names.shift_text(v)));
                    w.write_record(row).unwrap();
                    assert!(w.into_inner().unwrap().len() - 1 > MAX_LINE);
                }
            }
        }
    }
    // Long rows: three names of half a line each cannot share one.
    let half: Vec<String> = (1..=4)
        .map(|k| format!("{k}{}", "y".repeat(MAX_LINE / 2)))
        .collect();
    let custom = CustomNames {
        staff: Some(NameList::new("staff", &half).unwrap()),
        days: Some(NameList::new("days", &half).unwrap()),
        ..CustomNames::default()
    };
    let names = Names::new(s, &custom).unwrap();
    let e = write_roster(Vec::new(), &grid, &names, Layout::Long).unwrap_err();
    assert!(matches!(e, ExportError::RowTooLong { .. }), "{e}");
    // A wide header of exactly a line's limit: written and read back without a
    // byte-order mark or CRLF; with either, the reader's first line is longer, so it
    // is refused before anything is written.
    let day_len = (MAX_LINE - "staff".len() - 4) / 4;
    let mut days: Vec<String> = (1..=4)
        .map(|k| format!("{k}{}", "d".repeat(day_len - 1)))
        .collect();
    let header = "staff".len() + 4 + days.iter().map(String::len).sum::<usize>();
    days[0].push_str(&"d".repeat(MAX_LINE - header));
    let custom = CustomNames {
        days: Some(NameList::new("days", &days).unwrap()),
        ..CustomNames::default()
    };
    let names = Names::new(s, &custom).unwrap();
    for (bom, crlf) in [(false, false), (true, false), (false, true)] {
        let dialect = Dialect {
            bom,
            crlf,
            ..Dialect::default()
        };
        let mut out = Vec::new();
        let r = write_roster_as(&mut out, &grid, &names, Layout::Wide, dialect);
        if bom || crlf {
            assert!(
                matches!(r, Err(ExportError::RowTooLong { .. })),
                "{dialect:?}"
            );
            assert!(out.is_empty());
        } else {
            r.unwrap();
            let back = read(&String::from_utf8(out).unwrap(), &custom).unwrap();
            assert_eq!(back[0].puzzle.cells(), grid.cells());
        }
    }
}

/// Only rows that are written count: a blank cell's long staff and day names never
/// share a row in the long layout (away from the first staff member and first day,
/// whose blanks are written when the names are the roster's own).
#[test]
fn long_rows_are_measured_as_written() {
    use super::super::test_util::read;
    use super::super::{CustomNames, NameList};
    use crate::io::lines::MAX_LINE;
    let s = s2();
    let mut cells = crate::io::fixtures::pattern(s).cells().to_vec();
    cells[5] = 0;
    let puzzle = Puzzle::new(s, cells).unwrap();
    let big = |tag: &str| {
        let mut v = vec![format!("{tag}1")];
        v.push(format!("{tag}{}", "z".repeat(MAX_LINE * 3 / 5)));
        v.extend((3..=4).map(|k| format!("{tag}{k}")));
        NameList::new(tag, &v).unwrap()
    };
    let custom = CustomNames {
        staff: Some(big("S")),
        days: Some(big("D")),
        ..CustomNames::default()
    };
    let names = Names::new(s, &custom).unwrap();
    let mut out = Vec::new();
    write_roster(&mut out, &puzzle, &names, Layout::Long).unwrap();
    let back = read(std::str::from_utf8(&out).unwrap(), &custom).unwrap();
    assert_eq!(back[0].puzzle.cells(), puzzle.cells());
    // Given, that cell's row would not fit.
    let full = crate::io::fixtures::pattern(s).to_puzzle();
    let e = write_roster(Vec::new(), &full, &names, Layout::Long).unwrap_err();
    assert!(matches!(e, ExportError::RowTooLong { .. }), "{e}");
}

/// Day names with `;` in them: the wide header quotes every field, so that the
/// delimiter guessed from it is still the comma, and the roster reads back.
#[test]
fn day_names_with_semicolons_read_back() {
    use super::super::test_util::read;
    use super::super::{CustomNames, NameList};
    let s = s2();
    let days = NameList::new("days", ["M;a;b;c", "T;d;e", "W", "X"]).unwrap();
    let custom = CustomNames {
        days: Some(days),
        ..CustomNames::default()
    };
    let names = Names::new(s, &custom).unwrap();
    let mut cells = crate::io::fixtures::pattern(s).cells().to_vec();
    cells[5] = 0;
    let puzzle = Puzzle::new(s, cells).unwrap();
    for layout in [Layout::Wide, Layout::Long] {
        let mut out = Vec::new();
        write_roster(&mut out, &puzzle, &names, layout).unwrap();
        let text = String::from_utf8(out).unwrap();
        let back = read(&text, &custom).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back[0].puzzle.cells(), puzzle.cells(), "{layout:?}\n{text}");
    }
}

/// A label used twice is refused: two grids under one label read back as one grid, or
/// not at all.
#[test]
fn a_repeated_label_is_refused() {
    use super::super::test_util::read;
    let s = s2();
    let names = Names::defaults(s);
    let grid = crate::io::fixtures::pattern(s).to_puzzle();
    let mut w = LongWriter::new(Vec::new()).unwrap();
    w.write("wk", &grid, &names).unwrap();
    let e = w.write("wk", &Puzzle::empty(s), &names).unwrap_err();
    assert!(
        matches!(&e, ExportError::RepeatedLabel(l) if l == "wk"),
        "{e}"
    );
    w.write("wk2", &Puzzle::empty(s), &names).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    let back = read(&text, &super::super::CustomNames::default()).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].puzzle.cells(), grid.cells());
}

#[test]
fn refuses_to_write_bad_grids() {
    let s = s2();
    let mut cells = vec![0u8; 16];
    cells[0] = 1;
    cells[1] = 1;
    let p = Puzzle::new(s, cells).unwrap();
    let mut out = Vec::new();
    let e = write_roster(&mut out, &p, &Names::defaults(s), Layout::Wide).unwrap_err();
    assert!(matches!(e, ExportError::Grid(_)));
    assert!(out.is_empty());
    let e = write_roster(
        &mut out,
        &p,
        &Names::defaults(Shape::new(3).unwrap()),
        Layout::Long,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the names are for a 9x9 roster, but the grid is 4x4"
    );
}

#[test]
fn export_errors_say_their_cause_once() {
    use std::error::Error as _;
    // The message holds the cause; a source as well would print it twice in a chain
    // (`cannot write the roster: No space left on device: No space left on device`).
    let e = crate::io::csv::ExportError::from(std::io::Error::other("disk full"));
    assert_eq!(e.to_string(), "cannot write the roster: disk full");
    assert!(e.source().is_none());
}
