//! Every bad-CSV path: bad roster CSVs and bad name files refused with their position,
//! exit status 65 and nothing written, and CSV flags that would be ignored refused as
//! usage errors.

use std::fs;

use predicates::prelude::*;
use predicates::str::contains;

use super::assert_bad;
use crate::util::shiftgrid;

#[test]
fn bad_csvs_give_positions_exit_65_and_write_nothing() {
    let head = "staff,Day 1,Day 2,Day 3,Day 4\n";
    let rest = "C,,,,\nD,,,,\n";
    let cases: Vec<(String, &str)> = vec![
        (
            format!("{head}A,,,,,Shift 2\nB,,,,\n{rest}"),
            "bad.csv:2:6: row has 6 fields, expected 5",
        ),
        (
            format!("{head}A,,Early,,\nB,,,,\n{rest}"),
            "bad.csv:2:3: the roster names 1 shift of its own (\"Early\"), but a 4x4 roster has \
             4: name all 4, in order, in a shift list (--shifts FILE)",
        ),
        (
            format!("{head}A,Early,Late,Night,Off\nB,Late,,,\nC,,,,Rest\nD,,,,\n"),
            "bad.csv:4:5: the roster names 5 shifts of its own (\"Early\", \"Late\", \"Night\", \
             \"Off\", \"Rest\"), but a 4x4 roster has 4",
        ),
        (
            format!("{head}A,Early,Late,Night,Off\nB,Late,,,\nC,,,,3\nD,,,,\n"),
            "bad.csv:4:5: shift \"3\" is a number, but the roster's other shifts are names of its \
             own (\"Early\", \"Late\", \"Night\", \"Off\")",
        ),
        (
            format!("{head}A,1,2,3,4\nB,2,,,\nC,,,,Late\nD,,,,\n"),
            "bad.csv:4:5: shift \"Late\" is a name, but the roster's other shifts are numbers 1 \
             to 4 (or \"Shift 1\" to \"Shift 4\")",
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
            "bad.csv:5:2: shift \"1\" is given twice on day \"Day 1\" (also at line 2, \
             field 2)",
        ),
        (
            "staff,day,shift\n1,1,1\n1,1,2\n".to_string(),
            "bad.csv:3:1: staff \"Staff 1\" on day \"Day 1\" is assigned a second time (first on \
             line 2)",
        ),
        (
            "staff,day,shift\nAnn,Mon,1\n".to_string(),
            "bad.csv:1:1: the file names 1 staff: a roster has 4, 9,",
        ),
        (
            "staff,day,shift\n1,1,1\nAnn,Mon,1\n".to_string(),
            "bad.csv:3:1: unknown staff \"Ann\"",
        ),
        (
            "staff,day,shift\n1,-1,1\n".to_string(),
            "bad.csv:2:2: day \"-1\" starts with '-', which spreadsheets run as a formula",
        ),
        (
            "staff,day,shift\n1,1,1\n1,-1,1\n".to_string(),
            "bad.csv:3:2: day \"-1\" starts with '-', which spreadsheets run as a formula",
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
            "employee,when,shift\n".to_string(),
            "bad.csv:1:1: the header has 3 fields",
        ),
        (
            // A long header under the names rostering tools use, with no rows.
            "employee,date,shift\n".to_string(),
            "bad.csv:1:1: cannot tell the roster's size: the file has no assignments",
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
        "nul.csv:1:2: input is not CSV text: NUL byte (is this a binary file?) at column 7",
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
            "names.txt:2:2: name \"B<U+0007>b\" holds the control character U+0007",
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
         1,Staff 4,Day 1,Shift 4\n1,Staff 4,Day 4,Shift 1\n2,Staff 1,Day 2,Shift 2\n\
         2,Staff 4,Day 4,\n"
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

/// In a long file of several labelled grids, an error in one names its grid label.
#[test]
fn errors_in_a_labelled_grid_name_it() {
    let dir = tempfile::tempdir().unwrap();
    for (text, message) in [
        (
            "grid,staff,day,shift\nW1,1,1,1\nW2,1,1,1\nW2,1,1,2\n",
            "two.csv:4:1: staff \"Staff 1\" on day \"Day 1\" is assigned a second time (first on line 3) (grid \"W2\")",
        ),
        (
            "grid,staff,day,shift\nW1,1,1,1\nW2,1,1,1\nW2,1,2,1\n",
            "(grid \"W2\")",
        ),
    ] {
        let file = dir.path().join("two.csv");
        std::fs::write(&file, text).unwrap();
        crate::util::shiftgrid()
            .arg("count")
            .arg(&file)
            .assert()
            .code(65)
            .stderr(predicates::str::contains(message));
    }
}

/// The library's errors speak of "a name list" and "a named alphabet"; the command line
/// adds the flag that gives one.
#[test]
fn errors_name_the_flag_that_helps() {
    let dir = tempfile::tempdir().unwrap();
    let run = |file: &str, text: &str, expected: &str| {
        let path = dir.path().join(file);
        fs::write(&path, text).unwrap();
        shiftgrid()
            .arg("solve")
            .arg(&path)
            .assert()
            .code(65)
            .stderr(contains(expected));
    };
    run(
        "letters.txt",
        "ABCD\nDCBA\nBADC\nCDAB\n",
        "0-9A-F reads 4x4 and 9x9 in digits) (--alphabet NAME)\n",
    );
    // Days in another order on Bob's rows than on Ann's.
    let days = "staff,day,shift\nAnn,Mon,1\nBob,Mon,2\nCat,Mon,3\nDee,Mon,4\nAnn,Tue,2\n\
                Ann,Wed,3\nAnn,Thu,4\nBob,Wed,1\nBob,Tue,3\n";
    run(
        "days.csv",
        days,
        "or give the order with a name list (--days FILE)\n",
    );
    // The same with staff and days swapped: the staff are in doubt.
    let staff = "day,staff,shift\nMon,Ann,1\nMon,Bob,2\nMon,Cat,3\nMon,Dee,4\nTue,Ann,2\n\
                 Thu,Ann,4\nWed,Cat,1\nWed,Ann,3\n";
    run(
        "staff.csv",
        staff,
        "or give the order with a name list (--staff FILE)\n",
    );
}
