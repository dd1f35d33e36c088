//! Roster CSV (issue 8): round trips at every size, the exported files read with the `csv`
//! crate and checked as rosters, roster completion end to end, and every bad-CSV path.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use predicates::str::contains;

use shiftgrid::io::csv::{CustomNames, Layout, NameList, Names, read_rosters, write_roster};
use shiftgrid::{Grid, Puzzle};

use crate::util::{full_grid, independently_valid, shiftgrid};

mod grade;

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

fn write_lines(path: &Path, names: &[String]) {
    fs::write(path, names.join("\n") + "\n").unwrap();
}

#[test]
fn cli_fill_csv_reads_back_as_the_same_full_grid() {
    let dir = tempfile::tempdir().unwrap();
    for b in ["2", "3", "5"] {
        let fill = |extra: &[&str]| {
            shiftgrid()
                .args(["fill", "--box", b, "--seed", "11", "--threads", "2"])
                .args(extra)
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        };
        let line = fill(&["-f", "line"]);
        for shape in ["wide", "long"] {
            let csv = fill(&["-f", "csv", "--csv-shape", shape]);
            let path = dir.path().join(format!("grid-{b}-{shape}.csv"));
            fs::write(&path, &csv).unwrap();
            shiftgrid()
                .args(["solve", "-f", "line"])
                .arg(&path)
                .assert()
                .success()
                .stdout(line.clone());
        }
        let n: usize = b.parse::<usize>().unwrap().pow(2);
        assert_full_wide_roster(&fill(&["-f", "csv"]), n, &default_shifts(n));
    }
}

#[test]
fn cli_name_files_name_the_roster() {
    let dir = tempfile::tempdir().unwrap();
    let names = custom(9);
    let files: Vec<_> = ["staff.txt", "days.txt", "shifts.txt"]
        .iter()
        .zip([&names.staff, &names.days, &names.shifts])
        .map(|(f, l)| {
            let path = dir.path().join(f);
            write_lines(&path, l.as_ref().unwrap().names());
            path
        })
        .collect();
    let out = dir.path().join("roster.csv");
    shiftgrid()
        .args(["fill", "--box", "3", "--seed", "5", "--threads", "2", "-o"])
        .arg(&out)
        .arg("--staff")
        .arg(&files[0])
        .arg("--days")
        .arg(&files[1])
        .arg("--shifts")
        .arg(&files[2])
        .assert()
        .success();
    let bytes = fs::read(&out).unwrap();
    let shifts = names.shifts.as_ref().unwrap().names();
    assert_full_wide_roster(&bytes, 9, shifts);
    let (header, rows) = read_wide(&bytes);
    assert_eq!(header[1], "Day 9");
    assert_eq!(rows[0][0], "Nurse 001, \"RN\"");
    // The roster's own staff names come back; the days, named `Day 9` … `Day 1` like
    // default names in reverse, need their file to keep their order (without it they are
    // placed by number, as a long file would place them); the shifts need theirs.
    let line = shiftgrid()
        .args([
            "fill",
            "--box",
            "3",
            "--seed",
            "5",
            "--threads",
            "2",
            "-f",
            "line",
        ])
        .output()
        .unwrap()
        .stdout;
    shiftgrid()
        .args(["solve", "-f", "line", "--shifts"])
        .arg(&files[2])
        .arg("--days")
        .arg(&files[1])
        .arg(&out)
        .assert()
        .success()
        .stdout(line.clone());
    // A 9x9 line is 81 digits: each row of 9 reversed.
    let mirrored: Vec<u8> = line
        .trim_ascii_end()
        .chunks(9)
        .flat_map(|row| row.iter().rev().copied())
        .chain([b'\n'])
        .collect();
    shiftgrid()
        .args(["solve", "-f", "line", "--shifts"])
        .arg(&files[2])
        .arg(&out)
        .assert()
        .success()
        .stdout(mirrored);
    // Without the shift names, the cells are unknown shifts.
    shiftgrid()
        .args(["solve"])
        .arg(&out)
        .assert()
        .code(65)
        .stderr(contains("roster.csv:2:2: unknown shift \"Ward "));
}

#[test]
fn roster_completion_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("puzzle.csv");
    let solved = dir.path().join("solved.csv");
    shiftgrid()
        .args(["generate", "--box", "3", "--seed", "1", "-f", "csv", "-o"])
        .arg(&puzzle)
        .assert()
        .success();
    let before = fs::read(&puzzle).unwrap();
    shiftgrid()
        .args(["solve", "-f", "csv", "-o"])
        .arg(&solved)
        .arg(&puzzle)
        .assert()
        .success();
    assert_eq!(fs::read(&puzzle).unwrap(), before, "the input is untouched");
    let after = fs::read(&solved).unwrap();
    let shifts = default_shifts(9);
    assert_full_wide_roster(&after, 9, &shifts);
    let given = wide_cells(&before, &shifts);
    let filled = wide_cells(&after, &shifts);
    assert!(given.iter().filter(|&&v| v != 0).count() >= 17);
    assert!(given.contains(&0));
    for (g, f) in given.iter().zip(&filled) {
        assert!(*g == 0 || g == f, "a fixed shift was changed");
    }
    assert!(independently_valid(9, &filled));
    // The staff and day columns are kept, in order.
    assert_eq!(read_wide(&before).0, read_wide(&after).0);
    shiftgrid()
        .arg("count")
        .arg(&puzzle)
        .assert()
        .success()
        .stdout(contains("\t1\tunique"));
}

#[test]
fn hand_made_roster_with_spreadsheet_habits() {
    // Semicolons, a byte-order mark, CRLF, a blank row, names in any case; rows in the name
    // file's order but columns not. Each staff row misses one shift, so the completion is
    // unique and known.
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("week.csv");
    fs::write(
        &roster,
        "\u{feff}Name;Thu;Tue;Wed;Mon\r\n\
         Ann;Off;Late;Night;\r\n\
         ;;;;\r\n\
         Bob;Late;Off;;Night\r\n\
         Cy;Night;;Off;Late\r\n\
         Dee;;Night;Late;Off\r\n",
    )
    .unwrap();
    let shifts = dir.path().join("shifts.txt");
    fs::write(&shifts, "# shifts\nEarly\nLate\nNight\nOff\n").unwrap();
    let days = dir.path().join("days.txt");
    fs::write(&days, "Mon\nTue\nWed\nThu\n").unwrap();
    shiftgrid()
        .args(["solve", "-f", "csv", "--shifts"])
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .arg(&roster)
        .assert()
        .success()
        .stdout(
            "staff,Mon,Tue,Wed,Thu\n\
             Ann,Early,Late,Night,Off\n\
             Bob,Night,Off,Early,Late\n\
             Cy,Late,Early,Off,Night\n\
             Dee,Off,Night,Late,Early\n",
        );
    shiftgrid()
        .args(["solve", "-f", "csv", "--csv-shape", "long", "--shifts"])
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .arg(&roster)
        .assert()
        .success()
        .stdout(contains("staff,day,shift\nAnn,Mon,Early\nAnn,Tue,Late\n"));
    // Without the day list the file's column order is the roster's, and the blocks (pairs
    // of adjacent days) change: Thu and Tue now share a block, and Late repeats in it.
    shiftgrid()
        .args(["solve", "--shifts"])
        .arg(&shifts)
        .arg(&roster)
        .assert()
        .code(65)
        .stderr(contains(
            "week.csv:4:2: shift \"Late\" is given twice in the block of staff \"Ann\" to \
             \"Bob\" and days \"Thu\" to \"Tue\" (also at line 2, field 3)",
        ));
}

/// Runs `args` + `file` with `-o out.csv` in a fresh directory holding `file` = `content`, and
/// checks exit 65, the message and that nothing was written.
fn assert_bad(file: &str, content: &[u8], args: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(file);
    fs::write(&input, content).unwrap();
    let out = dir.path().join("out.csv");
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

#[test]
fn bad_csvs_give_positions_exit_65_and_write_nothing() {
    let head = "staff,Day 1,Day 2,Day 3,Day 4\n";
    let rest = "C,,,,\nD,,,,\n";
    let cases: Vec<(String, &str)> = vec![
        (
            format!("{head}A,Shift 1,,\nB,,,,\n{rest}"),
            "bad.csv:2:1: row has 4 fields, expected 5 (staff and 4 days)",
        ),
        (
            format!("{head}A,,,,,Shift 2\nB,,,,\n{rest}"),
            "bad.csv:2:6: row has 6 fields, expected 5",
        ),
        (
            format!("{head}A,,Early,,\nB,,,,\n{rest}"),
            "bad.csv:2:3: unknown shift \"Early\": expected \"Shift 1\" to \"Shift 4\" or a \
             number 1 to 4 (other shift names need a name file: --shifts FILE)",
        ),
        (
            format!("{head}A,,5,,\nB,,,,\n{rest}"),
            "bad.csv:2:3: unknown shift \"5\"",
        ),
        (
            format!("{head}A,,,,\nA,,,,\n{rest}"),
            "bad.csv:3:1: staff \"A\" has a second row (the first is on line 2)",
        ),
        (
            format!("staff,Mon,Tue,Mon,Thu\nA,,,,\nB,,,,\n{rest}"),
            "bad.csv:1:4: day \"Mon\" has a second column (the first is field 2)",
        ),
        (
            format!("{head}A,,,,\nB,,,,\n{rest}E,,,,\n"),
            "bad.csv:6:1: 5 staff rows, but a 4x4 roster has 4 staff",
        ),
        (
            format!("{head}A,,,,\n"),
            "bad.csv:2:1: 1 staff row, but a 4x4 roster has 4 staff",
        ),
        (
            format!("{head}=cmd|' /C calc'!A0,,,,\nB,,,,\n{rest}"),
            "bad.csv:2:1: staff \"=cmd|' /C calc'!A0\" starts with '=', which spreadsheets run \
             as a formula (CSV injection)",
        ),
        (
            format!("staff,Mon,Tue,@SUM(A1),Thu\nA,,,,\nB,,,,\n{rest}"),
            "bad.csv:1:4: day \"@SUM(A1)\" starts with '@'",
        ),
        (
            format!("{head}A,1,,,\nB,,,,\nC,,,,\nD,1,,,\n"),
            "bad.csv:5:2: shift \"Shift 1\" is given twice on day \"Day 1\" (also at line 2, \
             field 2)",
        ),
        (
            "staff,day,shift\n1,1,1\n1,1,2\n".to_string(),
            "bad.csv:3:1: staff \"Staff 1\" on day \"Day 1\" is assigned a second time (first on \
             line 2)",
        ),
        (
            "staff,day,shift\nAnn,Mon,1\n".to_string(),
            "bad.csv:2:1: unknown staff \"Ann\"",
        ),
        (
            "staff,day,shift\n1,-1,1\n".to_string(),
            "bad.csv:2:2: unknown day \"-1\"",
        ),
        (
            "grid,staff,day,shift\n@x,1,1,1\n".to_string(),
            "bad.csv:2:1: grid label \"@x\" starts with '@'",
        ),
        (
            "staff,Mon,Tue,Wed,Thu,Fri,Sat,Sun\nA,,,,,,,\n".to_string(),
            "bad.csv:1:1: 7 day columns: unsupported size 7x7",
        ),
        (
            "employee,date,shift\n".to_string(),
            "bad.csv:1:1: the header has 3 fields",
        ),
        (String::new(), "bad.csv:1:1: no roster found"),
    ];
    for (content, message) in &cases {
        assert_bad(
            "bad.csv",
            content.as_bytes(),
            &["solve", "-f", "csv"],
            message,
        );
    }
    // count and export read the same way.
    let (content, message) = &cases[2];
    assert_bad("bad.csv", content.as_bytes(), &["count"], message);
    assert_bad("bad.csv", content.as_bytes(), &["export"], message);
    // Not CSV at all: binary junk, and a text grid forced to be read as CSV.
    let mut junk = b"staff,Day 1,Day 2,Day 3,Day 4\n".to_vec();
    junk.extend((0..200u32).map(|i| (i * 37 % 251) as u8 | 0x80));
    assert_bad(
        "junk.csv",
        &junk,
        &["solve"],
        "junk.csv:2:1: input is not CSV text",
    );
    assert_bad(
        "nul.csv",
        b"staff,\0,,,\n",
        &["solve"],
        "nul.csv:1:1: input is not CSV text: NUL byte (is this a binary file?) at column 7",
    );
    assert_bad(
        "grid.txt",
        b"1 . . 4\n. . . .\n. . . .\n4 . . 1\n",
        &["solve", "--input-format", "csv"],
        "grid.txt:1:1: the header has 1 field: a wide roster's header",
    );
}

#[test]
fn bad_name_files_give_positions_exit_65_and_write_nothing() {
    let cases: [(&str, &str); 5] = [
        (
            "Ann\nBob\nAnn\nDee\n",
            "names.txt:3:1: name \"Ann\" is repeated (first on line 1)",
        ),
        (
            "Ann\n  +Bob\nCy\nDee\n",
            "names.txt:2:3: name \"+Bob\" starts with '+'",
        ),
        (
            "Ann\n-Bob\nCy\nDee\n",
            "names.txt:2:1: name \"-Bob\" starts with '-'",
        ),
        (
            "Ann\nBob\nCy\n",
            "names.txt: holds 3 names, but a 4x4 roster has 4 staff",
        ),
        (
            "Ann\nB\u{7}b\nCy\nDee\n",
            "names.txt:2:1: name \"B\\u{7}b\" holds the control character U+0007",
        ),
    ];
    for (content, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("names.txt"), content).unwrap();
        shiftgrid()
            .current_dir(dir.path())
            .args([
                "fill",
                "--box",
                "2",
                "-f",
                "csv",
                "--staff",
                "names.txt",
                "-o",
                "out.csv",
            ])
            .assert()
            .code(65)
            .stderr(contains(message));
        assert!(!dir.path().join("out.csv").exists());
    }
    // Names that do not fit a puzzle of the input: found before solving, nothing written.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("four.txt"), "A\nB\nC\nD\n").unwrap();
    shiftgrid()
        .current_dir(dir.path())
        .args(["solve", "-f", "csv", "--staff", "four.txt", "-o", "out.csv"])
        .arg(crate::util::repo("grids/demo_9x9.txt"))
        .assert()
        .code(65)
        .stderr(contains(
            "four.txt: holds 4 names, but a 9x9 roster has 9 staff (puzzle 1, ",
        ));
    assert!(!dir.path().join("out.csv").exists());
    // A missing name file is an I/O error.
    shiftgrid()
        .args([
            "fill",
            "--box",
            "2",
            "-f",
            "csv",
            "--days",
            "/no/such/days.txt",
        ])
        .assert()
        .code(74)
        .stderr(contains("cannot read /no/such/days.txt"));
}

#[test]
fn csv_flags_are_never_ignored() {
    // --csv-shape and name files without CSV anywhere are usage errors.
    shiftgrid()
        .args(["fill", "--box", "2", "--csv-shape", "long"])
        .assert()
        .code(2)
        .stderr(contains("--csv-shape applies only to CSV output"));
    shiftgrid()
        .args(["generate", "--box", "2", "-f", "line", "--shifts", "x.txt"])
        .assert()
        .code(2)
        .stderr(contains("--staff, --days and --shifts name"));
    shiftgrid()
        .args(["count", "--staff", "x.txt", "-"])
        .write_stdin("1..4........4..1\n")
        .assert()
        .code(2);
    // --alphabet is for compact text lines, not CSV.
    shiftgrid()
        .args(["solve", "--alphabet", "A-Z", "-"])
        .write_stdin("staff,day,shift\n1,1,1\n")
        .assert()
        .code(2)
        .stderr(contains("--alphabet applies to compact text puzzles"));
    // Several grids never go into one wide CSV; long labels them in a grid column.
    for args in [
        &["fill", "--box", "2", "--count", "2", "-f", "csv"][..],
        &["generate", "--box", "2", "--solution", "-f", "csv"][..],
    ] {
        shiftgrid()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("a wide CSV holds one roster").and(contains("--csv-shape long")));
    }
    let two = "1..4........4..1\n.2..............\n";
    shiftgrid()
        .args(["export", "-"])
        .write_stdin(two)
        .assert()
        .code(2)
        .stderr(contains("<stdin> holds more than one puzzle"));
    let out = shiftgrid()
        .args(["export", "-", "--csv-shape", "long"])
        .write_stdin(two)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "grid,staff,day,shift\n1,Staff 1,Day 1,Shift 1\n1,Staff 1,Day 4,Shift 4\n\
         1,Staff 4,Day 1,Shift 4\n1,Staff 4,Day 4,Shift 1\n2,Staff 1,Day 2,Shift 2\n"
    );
    // ... and reads back as two puzzles, solved as a batch with their labels kept.
    shiftgrid()
        .args(["solve", "-", "--first", "-f", "csv", "--csv-shape", "long"])
        .write_stdin(out)
        .assert()
        .success()
        .stdout(
            contains("grid,staff,day,shift\n1,Staff 1,Day 1,Shift 1\n")
                .and(contains("\n2,Staff 1,Day 2,Shift 2\n")),
        );
}

#[test]
fn generate_with_solution_in_long_csv() {
    let out = shiftgrid()
        .args([
            "generate",
            "--box",
            "3",
            "--seed",
            "4",
            "--solution",
            "-f",
            "csv",
            "--csv-shape",
            "long",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rosters = read_rosters(&out, &CustomNames::default()).unwrap();
    assert_eq!(rosters.len(), 2);
    assert_eq!(rosters[0].label.as_deref(), Some("1"));
    assert_eq!(rosters[1].label.as_deref(), Some("1 solution"));
    assert!(rosters[1].puzzle.is_full());
    let solution = Grid::new(
        rosters[1].puzzle.shape(),
        rosters[1].puzzle.cells().to_vec(),
    )
    .unwrap();
    assert!(rosters[0].puzzle.is_completed_by(&solution));
    assert!(independently_valid(9, solution.cells()));
}

#[test]
fn csv_file_names_and_stdin_are_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("grid.CSV");
    // -o FILE.csv means CSV unless --format says otherwise.
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-o"])
        .arg(&out)
        .assert()
        .success();
    let bytes = fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"staff,Day 1,Day 2,Day 3,Day 4\n"));
    assert_full_wide_roster(&bytes, 4, &default_shifts(4));
    // A roster CSV on stdin is told by its commas.
    shiftgrid()
        .args(["count", "-"])
        .write_stdin(bytes.clone())
        .assert()
        .success()
        .stdout(contains("\t1\tunique"));
    // --format grid wins over the file name.
    let txt = dir.path().join("grid2.csv");
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-f", "grid", "-o"])
        .arg(&txt)
        .assert()
        .success();
    assert!(!fs::read_to_string(&txt).unwrap().contains(','));
    // export refuses to overwrite its input.
    shiftgrid()
        .arg("export")
        .arg(&out)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("refusing to overwrite the input"));
    assert_eq!(fs::read(&out).unwrap(), bytes);
}

#[test]
fn export_converts_text_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let demo = crate::util::repo("grids/demo_9x9.txt");
    let wide = dir.path().join("demo.csv");
    shiftgrid()
        .arg("export")
        .arg(&demo)
        .arg("-o")
        .arg(&wide)
        .assert()
        .success();
    // Wide to long and back: the same puzzle as the text file.
    let long = dir.path().join("demo-long.csv");
    shiftgrid()
        .args(["export", "--csv-shape", "long"])
        .arg(&wide)
        .arg("-o")
        .arg(&long)
        .assert()
        .success();
    let text = crate::util::puzzles(&demo);
    for f in [&wide, &long] {
        let r = read_rosters(&fs::read(f).unwrap(), &CustomNames::default()).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].puzzle, text[0]);
    }
    let long_text = fs::read_to_string(&long).unwrap();
    assert!(long_text.starts_with("staff,day,shift\n"));
    assert_eq!(long_text.lines().count(), 1 + text[0].givens());
    // Solving the CSV gives the same grid as solving the text.
    let from_text = shiftgrid()
        .args(["solve", "-f", "line"])
        .arg(&demo)
        .output()
        .unwrap();
    shiftgrid()
        .args(["solve", "-f", "line"])
        .arg(&long)
        .assert()
        .success()
        .stdout(from_text.stdout);
    // A text batch with a bad puzzle: the good one is exported, the bad one reported, 65.
    shiftgrid()
        .args(["export", "--csv-shape", "long", "-"])
        .write_stdin("1..4........4..1\n1..5........4..1\n")
        .assert()
        .code(65)
        .stdout(contains("1,Staff 1,Day 1,Shift 1"))
        .stderr(contains("<stdin>:2:4:"));
    // JSON output of solve reports the givens too.
    shiftgrid()
        .args(["solve", "-f", "json"])
        .arg(&wide)
        .assert()
        .success()
        .stdout(contains(format!("\"givens\":{}", text[0].givens())));
}
