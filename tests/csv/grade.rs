//! `grade` on roster CSVs: the same levels, steps and explanations as for the same puzzles
//! as grids, with staff and day names in the explanations, and bad rosters refused with
//! their position.

use std::fs;
use std::path::Path;

use predicates::str::contains;

use shiftgrid::Puzzle;

use super::{assert_bad, write_lines};
use crate::util::shiftgrid;

/// Runs `shiftgrid grade` + `args` in `dir`, with `stdin` as standard input, expecting
/// success; returns its standard output.
fn grade_stdout(dir: &Path, args: &[&str], stdin: &str) -> String {
    let out = shiftgrid()
        .current_dir(dir)
        .arg("grade")
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Grades `args` (the input and its flags) with `--explain -f json`; returns each puzzle's
/// record without its input line and a roster's names, which differ between forms of one
/// puzzle.
fn grade_records(dir: &Path, args: &[&str], stdin: &str) -> Vec<serde_json::Value> {
    let all: Vec<&str> = ["--explain", "-f", "json"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    grade_stdout(dir, &all, stdin)
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let record = v.as_object_mut().unwrap();
            record.remove("line").expect("a line field");
            record.remove("names");
            v
        })
        .collect()
}

/// A wide roster CSV of `p`, written by hand (not by shiftgrid): staff rows in `order`, the
/// days in their own order, shift `v` named `shifts[v - 1]`, an empty cell for a blank.
fn hand_wide(
    p: &Puzzle,
    staff: &[String],
    days: &[String],
    shifts: &[String],
    order: &[usize],
) -> String {
    let n = p.shape().side();
    let mut text = format!("staff,{}\n", days.join(","));
    for &r in order {
        let cells: Vec<&str> = p.cells()[r * n..(r + 1) * n]
            .iter()
            .map(|&v| {
                if v == 0 {
                    ""
                } else {
                    shifts[v as usize - 1].as_str()
                }
            })
            .collect();
        text += &format!("{},{}\n", staff[r], cells.join(","));
    }
    text
}

#[test]
fn grade_reads_rosters_as_it_reads_grids() {
    let dir = tempfile::tempdir().unwrap();
    let top95 = crate::util::repo("grids/top95.txt");
    let demo = crate::util::repo("grids/demo_9x9.txt");
    let puzzles = [
        crate::util::puzzles(&demo).remove(0),
        crate::util::puzzles(&top95).remove(0),
    ];
    let n = 9;
    let numbered = |what: &str| -> Vec<String> { (1..=n).map(|k| format!("{what} {k}")).collect() };
    let staff: Vec<String> = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]
        .map(String::from)
        .to_vec();
    let days: Vec<String> = [
        "Mo1", "Tu1", "We1", "Th1", "Fr1", "Mo2", "Tu2", "We2", "Th2",
    ]
    .map(String::from)
    .to_vec();
    let shifts: Vec<String> = ["A", "B", "C", "D", "E", "F", "G", "H", "N"]
        .map(String::from)
        .to_vec();
    write_lines(&dir.path().join("staff.txt"), &staff);
    write_lines(&dir.path().join("days.txt"), &days);
    write_lines(&dir.path().join("shifts.txt"), &shifts);
    let names = [
        "--staff",
        "staff.txt",
        "--days",
        "days.txt",
        "--shifts",
        "shifts.txt",
    ];
    for (k, p) in puzzles.iter().enumerate() {
        // The grid form, by hand: rows of digits, `.` for a blank.
        let grid: String = p
            .cells()
            .chunks(n)
            .map(|row| {
                let row: String = row
                    .iter()
                    .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
                    .collect();
                row + "\n"
            })
            .collect();
        fs::write(dir.path().join(format!("p{k}.txt")), grid).unwrap();
        let want = grade_records(dir.path(), &[&format!("p{k}.txt")], "");
        assert_eq!(want.len(), 1);
        assert!(want[0]["steps"].as_u64().unwrap() > 0, "{}", want[0]);
        // Wide with the default names, told by its file name.
        let in_order: Vec<usize> = (0..n).collect();
        let wide = hand_wide(
            p,
            &numbered("Staff"),
            &numbered("Day"),
            &numbered("Shift"),
            &in_order,
        );
        fs::write(dir.path().join(format!("p{k}.csv")), wide).unwrap();
        assert_eq!(grade_records(dir.path(), &[&format!("p{k}.csv")], ""), want);
        // Wide with name files and the staff rows in reverse order, told by its first line.
        let reversed: Vec<usize> = (0..n).rev().collect();
        let named = hand_wide(p, &staff, &days, &shifts, &reversed);
        fs::write(dir.path().join(format!("p{k}.roster")), named).unwrap();
        let roster = format!("p{k}.roster");
        let args: Vec<&str> = names.iter().copied().chain([roster.as_str()]).collect();
        let mut got = grade_records(dir.path(), &args, "");
        // The step log speaks in the roster's own names (issue 14): "Ann / Mo1 loses B";
        // everything else is the same.
        let text = |v: &serde_json::Value| v["log"][0]["text"].as_str().unwrap_or("").to_string();
        let (named_text, plain_text) = (text(&got[0]), text(&want[0]));
        // No staff member by number ("staff 4"); blocks are named by their staff and days.
        let by_number = |t: &str| {
            t.split("staff ")
                .skip(1)
                .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        };
        assert!(!by_number(&named_text), "{named_text}");
        assert!(
            staff
                .iter()
                .any(|s| named_text.contains(&format!("{s} / "))),
            "{named_text}"
        );
        assert!(by_number(&plain_text), "{plain_text}");
        let strip = |records: &mut Vec<serde_json::Value>| {
            for r in records.iter_mut() {
                for step in r["log"].as_array_mut().into_iter().flatten() {
                    step["text"] = serde_json::Value::Null;
                }
                r["conflict"] = serde_json::Value::Null;
            }
        };
        let mut plain = want.clone();
        strip(&mut got);
        strip(&mut plain);
        assert_eq!(got, plain);
        // Long, from standard input, staff and days by number and plain shift numbers.
        let mut long = String::from("staff,day,shift\n");
        for (i, &v) in p.cells().iter().enumerate().rev() {
            if v != 0 {
                long += &format!("{},{},{v}\n", i / n + 1, i % n + 1);
            }
        }
        assert_eq!(grade_records(dir.path(), &["-"], &long), want);
    }
    // Text output: the same columns after the input line.
    let columns = |args: &[&str]| -> Vec<String> {
        let text = grade_stdout(dir.path(), args, "");
        let fields = text.trim_end().split('\t').skip(2);
        fields.map(str::to_string).collect()
    };
    let roster: Vec<&str> = names.iter().copied().chain(["p1.roster"]).collect();
    assert_eq!(columns(&roster), columns(&["p1.txt"]));
    // Name files still need CSV somewhere.
    shiftgrid()
        .current_dir(dir.path())
        .args(["grade", "p0.txt", "--staff", "staff.txt"])
        .assert()
        .code(2)
        .stderr(contains("--staff, --days and --shifts name"));
}

#[test]
fn grade_refuses_bad_rosters_with_their_position() {
    let head = "staff,Day 1,Day 2,Day 3,Day 4\n";
    let rest = "C,,,,\nD,,,,\n";
    assert_bad(
        "bad.csv",
        format!("{head}A,,Early,,\nB,,,,\n{rest}").as_bytes(),
        &["grade"],
        "bad.csv:2:3: the roster names 1 shift of its own (\"Early\"), but a 4x4 roster has 4: \
         name all 4, in order, in a shift list (--shifts FILE)",
    );
    assert_bad(
        "bad.csv",
        format!("{head}A,1,,,\nB,,,,\nC,,,,\nD,1,,,\n").as_bytes(),
        &["grade", "-f", "json"],
        "bad.csv:5:2: shift \"1\" is given twice on day \"Day 1\" (also at line 2, field 2)",
    );
    assert_bad(
        "bad.csv",
        format!("{head}A,,,,,Shift 2\nB,,,,\n{rest}").as_bytes(),
        &["grade", "--explain"],
        "bad.csv:2:6: row has 6 fields, expected 5 (staff and 4 days)",
    );
    // A text grid forced to be read as CSV is refused too, not graded as text.
    assert_bad(
        "grid.txt",
        b"1 . . 4\n. . . .\n. . . .\n4 . . 1\n",
        &["grade", "--input-format", "csv"],
        "grid.txt:1:1: the header has 1 field: a wide roster's header",
    );
}
