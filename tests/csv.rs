//! Roster CSV (issue 8): round trips at every size, the exported files read with the `csv`
//! crate and checked as rosters, roster completion end to end, and every bad-CSV path.
//!
//! This file holds the shared helpers and the library's round trips; `end_to_end` runs
//! rosters through the binary, `errors` covers the bad-CSV paths, `grade` grades rosters and
//! `excel` writes the byte-order mark Excel needs; `forms` reads names in two Unicode forms.

use std::fs;
use std::path::Path;

use predicates::str::contains;

use shiftgrid::io::csv::{
    CustomNames, Delimiter, Dialect, Layout, LongWriter, NameList, Names, read_rosters,
    write_roster, write_roster_as,
};
use shiftgrid::{Grid, Puzzle};

use crate::util::{full_grid, independently_valid, shiftgrid};

mod end_to_end;
mod errors;
mod excel;
mod forms;
mod grade;
mod json_names;
mod notes;

/// `g` with about a third of its cells blank.
fn with_blanks(g: &Grid) -> Puzzle {
    let cells = g
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &v)| if (i * 7 + i / 5) % 3 == 0 { 0 } else { v })
        .collect();
    Puzzle::new(g.shape(), cells).unwrap()
}

fn to_csv(p: &Puzzle, names: &Names, layout: Layout) -> Vec<u8> {
    let mut out = Vec::new();
    write_roster(&mut out, p, names, layout).unwrap();
    out
}

/// A wide roster read with the `csv` crate alone: the header and the rows.
fn read_wide(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(bytes);
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// Checks, from the text alone, that a wide CSV is a full roster: `n` staff rows of `n`
/// days, and every one of `shifts` exactly once in each staff row and each day column.
fn assert_full_wide_roster(bytes: &[u8], n: usize, shifts: &[String]) {
    let (header, rows) = read_wide(bytes);
    assert_eq!(header.len(), n + 1);
    assert_eq!(header[0], "staff");
    assert_eq!(rows.len(), n);
    let mut want = shifts.to_vec();
    want.sort();
    for row in &rows {
        assert_eq!(row.len(), n + 1);
        let mut got = row[1..].to_vec();
        got.sort();
        assert_eq!(got, want, "staff row {:?}", row[0]);
    }
    for day in 1..=n {
        let mut got: Vec<String> = rows.iter().map(|r| r[day].clone()).collect();
        got.sort();
        assert_eq!(got, want, "day column {:?}", header[day]);
    }
}

/// The same for a long CSV (`staff,day,shift`): each staff member and each day has every shift
/// once, and there are n² assignments.
fn assert_full_long_roster(bytes: &[u8], n: usize, shifts: &[String]) {
    let mut r = csv::Reader::from_reader(bytes);
    assert_eq!(r.headers().unwrap(), vec!["staff", "day", "shift"]);
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), n * n);
    let mut want = shifts.to_vec();
    want.sort();
    for key in [0, 1] {
        let mut by: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
        for row in &rows {
            by.entry(&row[key]).or_default().push(row[2].clone());
        }
        assert_eq!(by.len(), n);
        for (who, mut got) in by {
            got.sort();
            assert_eq!(got, want, "{who}");
        }
    }
}

/// Maps the shift names of a wide roster to numbers 1..=n (0 for empty), row-major.
fn wide_cells(bytes: &[u8], shifts: &[String]) -> Vec<u8> {
    let (_, rows) = read_wide(bytes);
    rows.iter()
        .flat_map(|r| r[1..].to_vec())
        .map(|s| {
            if s.is_empty() {
                0
            } else {
                shifts.iter().position(|x| *x == s).expect("a shift name") as u8 + 1
            }
        })
        .collect()
}

fn default_shifts(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("Shift {k}")).collect()
}

#[test]
fn every_size_round_trips_wide_and_long() {
    for b in 2..=10 {
        let g = full_grid(b, 40 + b as u64);
        let shape = g.shape();
        let n = shape.side();
        let names = Names::defaults(shape);
        for p in [g.to_puzzle(), with_blanks(&g)] {
            for layout in [Layout::Wide, Layout::Long] {
                let bytes = to_csv(&p, &names, layout);
                let back = read_rosters(&bytes, &CustomNames::default())
                    .unwrap_or_else(|e| panic!("{shape} {layout:?}: {e}"));
                assert_eq!(back.len(), 1);
                assert_eq!(back[0].puzzle, p, "{shape} {layout:?}");
                assert_eq!(back[0].names, names);
                if p.is_full() {
                    match layout {
                        Layout::Wide => assert_full_wide_roster(&bytes, n, names.shifts()),
                        Layout::Long => assert_full_long_roster(&bytes, n, names.shifts()),
                    }
                    assert!(independently_valid(
                        n,
                        &wide_cells(&to_csv(&p, &names, Layout::Wide), names.shifts())
                    ));
                }
            }
        }
    }
}

/// Names that a spreadsheet must quote, or that look like default names in another order.
fn custom(n: usize) -> CustomNames {
    let staff: Vec<String> = (1..=n).map(|k| format!("Nurse {k:03}, \"RN\"")).collect();
    let days: Vec<String> = (1..=n).rev().map(|k| format!("Day {k}")).collect();
    let shifts: Vec<String> = (1..=n)
        .map(|k| format!("Ward {} – shift {k}", k % 3))
        .collect();
    CustomNames {
        staff: Some(NameList::new("staff", staff).unwrap()),
        days: Some(NameList::new("days", days).unwrap()),
        shifts: Some(NameList::new("shifts", shifts).unwrap()),
    }
}

#[test]
fn custom_names_survive_the_round_trip() {
    for b in [2, 3, 5, 10] {
        let g = full_grid(b, 7);
        let shape = g.shape();
        let custom = custom(shape.side());
        let names = Names::new(shape, &custom).unwrap();
        for p in [g.to_puzzle(), with_blanks(&g)] {
            for layout in [Layout::Wide, Layout::Long] {
                let bytes = to_csv(&p, &names, layout);
                let back = read_rosters(&bytes, &custom).unwrap();
                assert_eq!(back[0].puzzle, p, "{shape} {layout:?}");
                assert_eq!(back[0].names, names);
            }
        }
        assert_full_wide_roster(
            &to_csv(&g.to_puzzle(), &names, Layout::Wide),
            shape.side(),
            names.shifts(),
        );
    }
}

/// Every dialect (delimiter, line ends, byte-order mark) reads back as written, with the
/// same roster, in both layouts and in a long file of several grids, with names that hold
/// every delimiter; the `csv` crate, told the delimiter, reads the same fields.
#[test]
fn every_dialect_round_trips() {
    for b in [2, 3, 4] {
        let g = full_grid(b, 11);
        let shape = g.shape();
        let n = shape.side();
        let mut custom = custom(n);
        // Day names holding each delimiter, which the header must not show unquoted.
        let days: Vec<String> = (1..=n)
            .map(|k| ["Mon, 1", "Tue; 2", "Wed\u{a0}3"][k % 3].to_string() + &k.to_string())
            .collect();
        custom.days = Some(NameList::new("days", days).unwrap());
        for names_of in [&CustomNames::default(), &custom] {
            let names = Names::new(shape, names_of).unwrap();
            for delimiter in Delimiter::ALL {
                for (crlf, bom) in [(false, false), (true, false), (false, true), (true, true)] {
                    let dialect = Dialect {
                        delimiter,
                        crlf,
                        bom,
                    };
                    for p in [g.to_puzzle(), with_blanks(&g)] {
                        for layout in [Layout::Wide, Layout::Long] {
                            let mut bytes = Vec::new();
                            write_roster_as(&mut bytes, &p, &names, layout, dialect).unwrap();
                            let back = read_rosters(&bytes, names_of)
                                .unwrap_or_else(|e| panic!("{dialect:?} {layout:?}: {e}"));
                            assert_eq!(back[0].puzzle, p, "{dialect:?} {layout:?}");
                            assert_eq!(back[0].names, names, "{dialect:?} {layout:?}");
                            assert_eq!(back[0].dialect, dialect, "{layout:?}");
                            assert_eq!(bytes.starts_with("\u{feff}".as_bytes()), bom);
                            let text = String::from_utf8(bytes.clone()).unwrap();
                            assert_eq!(
                                text.matches("\r\n").count(),
                                if crlf { text.lines().count() } else { 0 }
                            );
                            if layout == Layout::Wide {
                                let body = &bytes[if bom { 3 } else { 0 }..];
                                let mut r = csv::ReaderBuilder::new()
                                    .delimiter(delimiter.byte())
                                    .from_reader(body);
                                let header: Vec<String> =
                                    r.headers().unwrap().iter().map(str::to_string).collect();
                                assert_eq!(&header[1..], names.days());
                                assert_eq!(r.records().count(), n);
                            }
                        }
                    }
                    let mut w = LongWriter::with_dialect(Vec::new(), dialect).unwrap();
                    w.write("week 1", &g.to_puzzle(), &names).unwrap();
                    w.write("week 2", &with_blanks(&g), &names).unwrap();
                    let back = read_rosters(&w.finish().unwrap(), names_of).unwrap();
                    assert_eq!(back.len(), 2);
                    assert_eq!(back[1].puzzle, with_blanks(&g));
                    assert!(back.iter().all(|r| r.dialect == dialect));
                }
            }
        }
    }
}

fn write_lines(path: &Path, names: &[String]) {
    fs::write(path, names.join("\n") + "\n").unwrap();
}

/// Runs `args` + `file` with `-o out.tsv` (`out.svg` for `render`: a name every command
/// writes) in a fresh directory holding `file` = `content`, and checks exit 65, the message
/// and that nothing was written.
fn assert_bad(file: &str, content: &[u8], args: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(file);
    fs::write(&input, content).unwrap();
    let out = dir.path().join(if args.contains(&"render") {
        "out.svg"
    } else {
        "out.tsv"
    });
    shiftgrid()
        .current_dir(dir.path())
        .args(args)
        .arg(file)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(65)
        .stderr(contains(message));
    assert!(!out.exists(), "{file}: an output file was written");
    assert_eq!(fs::read(&input).unwrap(), content, "the input is untouched");
    let entries = fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(entries, 1, "no temporary file is left behind");
}
