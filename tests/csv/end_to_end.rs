//! Rosters through the binary: `fill`, `generate`, `solve` and `export` writing roster CSVs
//! that read back as the same grids, name files naming the roster, a roster completed end
//! to end, a hand-made roster with spreadsheet habits, and CSV told by file name or content.

use std::fs;

use predicates::str::contains;

use shiftgrid::Grid;
use shiftgrid::io::csv::{CustomNames, read_rosters};

use super::{assert_full_wide_roster, custom, default_shifts, read_wide, wide_cells, write_lines};
use crate::util::{independently_valid, shiftgrid};

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
    // Without the shift file, the roster's nine shift names are its shifts (in another
    // order): the roster written back is the same.
    let solve = |with_shifts: bool| {
        let mut cmd = shiftgrid();
        cmd.args(["solve", "--days"]).arg(&files[1]).arg(&out);
        if with_shifts {
            cmd.arg("--shifts").arg(&files[2]);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    assert_eq!(solve(false), solve(true));
    assert_eq!(solve(false), bytes);
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
            // The header's own label, `Name`, is written back, in the file's own dialect: the
            // byte-order mark, semicolons and CRLF.
            "\u{feff}Name;Mon;Tue;Wed;Thu\r\n\
             Ann;Early;Late;Night;Off\r\n\
             Bob;Night;Off;Early;Late\r\n\
             Cy;Late;Early;Off;Night\r\n\
             Dee;Off;Night;Late;Early\r\n",
        );
    // Rosters in, rosters out: without --format the solution is a roster in the input's
    // layout (here wide), and --csv-shape alone picks the other.
    shiftgrid()
        .args(["solve", "--shifts"])
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .arg(&roster)
        .assert()
        .success()
        .stdout(
            "\u{feff}Name;Mon;Tue;Wed;Thu\r\n\
             Ann;Early;Late;Night;Off\r\n\
             Bob;Night;Off;Early;Late\r\n\
             Cy;Late;Early;Off;Night\r\n\
             Dee;Off;Night;Late;Early\r\n",
        );
    let long = dir.path().join("week-long.csv");
    for args in [
        &["-f", "csv", "--csv-shape", "long"][..],
        &["--csv-shape", "long"],
    ] {
        shiftgrid()
            .arg("solve")
            .args(args)
            .arg("--shifts")
            .arg(&shifts)
            .arg("--days")
            .arg(&days)
            .arg(&roster)
            .assert()
            .success()
            .stdout(contains(
                "staff;day;shift\r\nAnn;Mon;Early\r\nAnn;Tue;Late\r\n",
            ));
    }
    // A long roster comes back long, and -f grid still gives the grid.
    shiftgrid()
        .args(["export", "--csv-shape", "long", "--shifts"])
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .arg(&roster)
        .arg("-o")
        .arg(&long)
        .assert()
        .success();
    shiftgrid()
        .arg("solve")
        .arg(&long)
        .arg("--shifts")
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .assert()
        .success()
        .stdout(contains(
            "staff;day;shift\r\nAnn;Mon;Early\r\nAnn;Tue;Late\r\nAnn;Wed;Night\r\n",
        ))
        .stdout(contains("\nDee;Thu;Early\r\n"));
    shiftgrid()
        .args(["solve", "-f", "grid"])
        .arg(&long)
        .arg("--shifts")
        .arg(&shifts)
        .arg("--days")
        .arg(&days)
        .assert()
        .success()
        .stdout("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n");
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
    // JSON records of count, grade and solve name each roster by its grid label.
    for command in ["count", "grade", "solve"] {
        let json = shiftgrid()
            .args([command, "-", "-f", "json"])
            .write_stdin(out.clone())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let labels: Vec<String> = String::from_utf8(json)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["label"].as_str().unwrap_or_default().to_string()
            })
            .collect();
        assert_eq!(labels, ["1", "1 solution"], "{command}");
    }
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
    // A spreadsheet's "Text (Tab delimited)" file, saved as .txt or .tsv, with commas in
    // the day names and rows short of their trailing empty cells: the same roster.
    let tabs =
        "staff\tMon, 1\tTue, 2\tWed, 3\tThu, 4\r\nAnn\t1\t2\r\nBob\r\nCy\r\nDee\t\t\t1\t3\r\n";
    for name in ["tabs.txt", "tabs.tsv"] {
        let path = dir.path().join(name);
        fs::write(&path, tabs).unwrap();
        shiftgrid()
            .arg("solve")
            .arg(&path)
            .args(["-f", "csv"])
            .assert()
            .success()
            // Back as it came: tabs, CRLF, shifts as numbers; every field quoted, since the
            // day names hold commas that a reader must not take for the delimiter.
            .stdout(contains(
                "\"staff\"\t\"Mon, 1\"\t\"Tue, 2\"\t\"Wed, 3\"\t\"Thu, 4\"\r\n\"Ann\"\t\"1\"\t\"2\"\t",
            ));
    }
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
    // One puzzle and a stray bad line: the bad line is reported as what it is (exit 65,
    // the puzzle still written), not refused as a second puzzle for a wide CSV.
    for command in [&["export", "-"][..], &["solve", "-", "-f", "csv"][..]] {
        shiftgrid()
            .args(command)
            .write_stdin("1.2..........1.3\nhello\n")
            .assert()
            .code(65)
            .stdout(contains("staff,Day 1,Day 2,Day 3,Day 4\nStaff 1,Shift 1,"))
            .stderr(contains("<stdin>:2:1: unexpected \"h\""));
    }
    shiftgrid()
        .args(["export", "-"])
        .write_stdin("1.2..........1.3\nhello\n1.2..........1.3\n")
        .assert()
        .code(2)
        .stderr(contains("holds more than one puzzle"));
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
    // One row per given, and one for the last cell when it is blank (it tells the size).
    let last_blank = usize::from(*text[0].cells().last().unwrap() == 0);
    assert_eq!(long_text.lines().count(), 1 + text[0].givens() + last_blank);
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

/// Rosters in, rosters out: `solve` writes a roster in the input's layout, delimiter, line
/// ends and byte-order mark, with its shifts spelled as the input spelled them and a long
/// file's grid label kept; `--delimiter` and a `.tsv` name choose the delimiter.
#[test]
fn rosters_come_back_as_they_came() {
    let dir = tempfile::tempdir().unwrap();
    // A 4x4 roster with shifts as numbers, from a semicolon-locale spreadsheet: BOM, CRLF,
    // `;`.
    let roster = dir.path().join("numbers.csv");
    fs::write(
        &roster,
        "\u{feff}Name;Mon;Tue;Wed;Thu\r\nAnn;1;2;;\r\nBob;;;1;\r\nCy;;1;;4\r\nDee;;4;3;\r\n",
    )
    .unwrap();
    // Checked by hand: Ann's Thu is 3 (Cy has 4 on Thu), so Bob's Thu is 2 and his Tue 3
    // (Tue has 2, 1 and 4), Cy's Wed 2 (Wed has 4, 1 and 3) and Dee's Thu 1.
    let solved = "\u{feff}Name;Mon;Tue;Wed;Thu\r\n\
                  Ann;1;2;4;3\r\n\
                  Bob;4;3;1;2\r\n\
                  Cy;3;1;2;4\r\n\
                  Dee;2;4;3;1\r\n";
    shiftgrid()
        .arg("solve")
        .arg(&roster)
        .assert()
        .success()
        .stdout(solved);
    // --delimiter changes only the delimiter; a .tsv name, tabs.
    shiftgrid()
        .args(["solve", "--delimiter", "comma"])
        .arg(&roster)
        .assert()
        .success()
        .stdout(solved.replace(';', ","));
    let tsv = dir.path().join("done.tsv");
    shiftgrid()
        .arg("solve")
        .arg(&roster)
        .arg("-o")
        .arg(&tsv)
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&tsv).unwrap(), solved.replace(';', "\t"));
    // The tab file reads back as the same roster, and export keeps its dialect too.
    shiftgrid()
        .arg("count")
        .arg(&tsv)
        .assert()
        .success()
        .stdout(contains("\t1\tunique"));
    shiftgrid()
        .args(["export", "--csv-shape", "long"])
        .arg(&tsv)
        .assert()
        .success()
        .stdout(contains("\u{feff}staff\tday\tshift\r\nAnn\tMon\t1\r\n"));
    // A shift written as a name anywhere keeps the default names.
    let mixed = dir.path().join("mixed.csv");
    fs::write(
        &mixed,
        "staff,Mon,Tue,Wed,Thu\nAnn,1,Shift 2,,\nBob,,,,\nCy,,,,\nDee,,,,\n",
    )
    .unwrap();
    shiftgrid()
        .args(["solve", "--first"])
        .arg(&mixed)
        .assert()
        .success()
        .stdout(contains("\nAnn,Shift 1,Shift 2,"));
    // A long file's grid label stays, for one grid too.
    let long = dir.path().join("week12.csv");
    fs::write(
        &long,
        "grid,staff,day,shift\nWeek 12,Ann,Mon,1\nWeek 12,Ann,Tue,2\nWeek 12,Ann,Wed,\n\
         Week 12,Ann,Thu,\nWeek 12,Bob,Mon,\nWeek 12,Cy,Mon,\nWeek 12,Dee,Mon,\n\
         Week 12,Bob,Wed,1\nWeek 12,Cy,Tue,1\nWeek 12,Cy,Thu,4\nWeek 12,Dee,Tue,4\n\
         Week 12,Dee,Wed,3\n",
    )
    .unwrap();
    shiftgrid()
        .arg("solve")
        .arg(&long)
        .assert()
        .success()
        .stdout(contains(
            "grid,staff,day,shift\nWeek 12,Ann,Mon,1\nWeek 12,Ann,Tue,2\nWeek 12,Ann,Wed,4\n",
        ))
        .stdout(contains("\nWeek 12,Dee,Thu,1\n"));
    // Messages about a labelled grid name it by its label too.
    let two = dir.path().join("two.csv");
    fs::write(
        &two,
        "grid,staff,day,shift\nWeek 1,1,1,1\nWeek 1,4,4,\nWeek 2,1,1,2\nWeek 2,4,4,\n",
    )
    .unwrap();
    shiftgrid()
        .arg("solve")
        .arg(&two)
        .assert()
        .code(1)
        .stderr(contains(
            "two.csv:4: puzzle 2 (\"Week 2\") has more than one solution; printing one",
        ));
    // --delimiter needs CSV output.
    shiftgrid()
        .args(["solve", "-f", "grid", "--delimiter", "tab"])
        .arg(&roster)
        .assert()
        .code(2)
        .stderr(contains("--delimiter applies only to CSV output"));
}
