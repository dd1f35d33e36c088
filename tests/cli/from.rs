//! `generate --from FILE`: puzzles made from the file's grid, or from a partial roster
//! with its agreed shifts kept; what it refuses.

use predicates::str::contains;

use super::grids_of;
use crate::util::shiftgrid;

/// `generate --from`: puzzles whose unique solution is the file's grid (counted by DLX),
/// for every method; a partial roster's agreed shifts kept as givens, its names and
/// dialect in the output; what it cannot use refused with a clear error.
#[test]
fn generate_from_a_grid_or_a_partial_roster() {
    use shiftgrid::Puzzle;
    let dir = tempfile::tempdir().unwrap();
    let grid_file = dir.path().join("grid.txt");
    let grid = shiftgrid()
        .args(["fill", "--box", "3", "--seed", "4"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    std::fs::write(&grid_file, &grid).unwrap();
    let grid_cells = &grids_of(&grid)[0];
    for method in [
        &["--method", "prove"][..],
        &["--method", "expand"],
        &["--level", "4"],
    ] {
        let out = shiftgrid()
            .args(["generate", "--seed", "3", "-f", "line", "--from"])
            .arg(&grid_file)
            .args(method)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let puzzle: Puzzle = String::from_utf8(out).unwrap().parse().unwrap();
        let o = crate::util::count(&puzzle, 2);
        assert_eq!(o.count, 1, "{method:?}");
        assert_eq!(o.solutions[0].cells(), &grid_cells[..], "{method:?}");
    }
    // A partial roster: its agreed shifts stay, in its own names and dialect.
    let roster = dir.path().join("agreed.csv");
    std::fs::write(
        &roster,
        "staff;Mon;Tue;Wed;Thu\r\nAnn;Early;;;\r\nBob;;;;\r\nCy;;;;\r\nDee;;;Late;\r\n",
    )
    .unwrap();
    let shifts = dir.path().join("shifts.txt");
    std::fs::write(&shifts, "Early\nLate\nNight\nOff\n").unwrap();
    for seed in ["1", "2", "3", "4", "5"] {
        let out = shiftgrid()
            .args(["generate", "--symmetry", "none", "--seed", seed, "--shifts"])
            .arg(&shifts)
            .arg("--from")
            .arg(&roster)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("staff;Mon;Tue;Wed;Thu\r\nAnn;Early;"),
            "{text}"
        );
        assert!(
            text.contains("\r\nDee;")
                && text.split("\r\n").nth(4).unwrap().split(';').nth(3) == Some("Late"),
            "{text}"
        );
        // Unique: counted by the binary's `count` on what it wrote.
        shiftgrid()
            .args(["count", "-", "--shifts"])
            .arg(&shifts)
            .write_stdin(text)
            .assert()
            .success()
            .stdout(contains("\tunique"));
    }
    // --input-format is --from's: the grid form read as grid, refused as CSV or as lines.
    shiftgrid()
        .args([
            "generate",
            "--seed",
            "3",
            "--input-format",
            "grid",
            "--from",
        ])
        .arg(&grid_file)
        .assert()
        .success();
    for (form, says) in [
        ("csv", "the header has 1 field"),
        ("line", "9 cells is not a supported grid"),
    ] {
        shiftgrid()
            .args(["generate", "--seed", "3", "--input-format", form, "--from"])
            .arg(&grid_file)
            .assert()
            .code(65)
            .stderr(contains(says));
    }
    // Refused: another size, a partial grid with expand, two puzzles, no completion.
    shiftgrid()
        .args(["generate", "--box", "4", "--from"])
        .arg(&grid_file)
        .assert()
        .code(2)
        .stderr(contains(
            "--box 4 does not match --from's grid, which is 9x9",
        ));
    shiftgrid()
        .args(["generate", "--method", "expand", "--shifts"])
        .arg(&shifts)
        .arg("--from")
        .arg(&roster)
        .assert()
        .code(2)
        .stderr(contains(
            "has blank cells: --method expand and ga make puzzles from a full grid",
        ));
    let two = dir.path().join("two.txt");
    std::fs::write(&two, [&grid[..], b"\n", &grid[..]].concat()).unwrap();
    shiftgrid()
        .args(["generate", "--from"])
        .arg(&two)
        .assert()
        .code(65)
        .stderr(contains("--from takes one grid, but"));
    // The input is never overwritten, and the same completion comes at any thread count.
    shiftgrid()
        .args(["generate", "--from"])
        .arg(&grid_file)
        .arg("-o")
        .arg(&grid_file)
        .assert()
        .code(2)
        .stderr(contains("refusing to overwrite the input file"));
    assert_eq!(std::fs::read(&grid_file).unwrap(), grid);
    let partial = dir.path().join("partial.txt");
    std::fs::write(&partial, "1 . . .\n. . . .\n. . . .\n. . 3 .\n").unwrap();
    let made: Vec<Vec<u8>> = ["1", "2"]
        .iter()
        .map(|j| {
            shiftgrid()
                .args([
                    "generate",
                    "--seed",
                    "5",
                    "--solution",
                    "-f",
                    "line",
                    "-j",
                    j,
                    "--from",
                ])
                .arg(&partial)
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        })
        .collect();
    assert_eq!(made[0], made[1]);
    // Name files read a roster given to --from, whatever the output.
    shiftgrid()
        .args(["generate", "-f", "line", "--shifts"])
        .arg(&shifts)
        .arg("--from")
        .arg(&roster)
        .assert()
        .success();
    let stuck = dir.path().join("stuck.txt");
    // Staff 1 / day 3 has no shift left: 1 and 2 are in its row, 3 and 4 on its day.
    std::fs::write(&stuck, "1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n").unwrap();
    shiftgrid()
        .args(["generate", "--from"])
        .arg(&stuck)
        .assert()
        .code(65)
        .stderr(contains("the shifts given have no completion"));
    shiftgrid()
        .args(["generate"])
        .assert()
        .code(2)
        .stderr(contains("--box"));
}

/// A grid read from a long roster keeps its `grid` label: the puzzle is labelled with it
/// ("Week 12", its solution "Week 12 solution", a batch's "Week 12 1", …), in the long
/// CSV's `grid` column and the JSON record.
#[test]
fn generate_from_a_labelled_long_roster_keeps_the_label() {
    let dir = tempfile::tempdir().unwrap();
    let grid = crate::util::full_grid(2, 9);
    let mut csv = String::from("grid,staff,day,shift\n");
    for (i, v) in grid.cells().iter().enumerate() {
        csv += &format!("Week 12,Staff {},Day {},Shift {v}\n", i / 4 + 1, i % 4 + 1);
    }
    let file = dir.path().join("week.csv");
    std::fs::write(&file, csv).unwrap();
    let labels = |args: &[&str]| -> Vec<String> {
        let out = shiftgrid()
            .args(["generate", "--seed", "2", "--from"])
            .arg(&file)
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("grid,staff,day,shift"), "{text}");
        let mut seen: Vec<String> = Vec::new();
        for l in lines {
            let label = l.split(',').next().unwrap().to_string();
            if !seen.contains(&label) {
                seen.push(label);
            }
        }
        seen
    };
    assert_eq!(labels(&[]), ["Week 12"]);
    assert_eq!(labels(&["--solution"]), ["Week 12", "Week 12 solution"]);
    assert_eq!(labels(&["-n", "2"]), ["Week 12 1", "Week 12 2"]);
    let out = shiftgrid()
        .args(["generate", "--seed", "2", "-f", "json", "--from"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["label"], "Week 12");
    // In a batch, each record's label is its puzzle's, as in the CSV.
    let out = shiftgrid()
        .args(["generate", "--seed", "2", "-n", "2", "-f", "json", "--from"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let labels: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["label"].to_string())
        .collect();
    assert_eq!(labels, ["\"Week 12 1\"", "\"Week 12 2\""]);
}

/// A partial roster whose completion the time limit cuts short: exit 1, as a time limit
/// gives elsewhere, not 65 (the roster is not bad input).
#[test]
fn generate_from_a_roster_cut_by_the_time_limit_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("half.txt");
    let half = crate::util::blank(&crate::util::full_grid(6, 11), 0.55, 3);
    std::fs::write(&file, format!("{half:#}\n")).unwrap();
    shiftgrid()
        .args(["generate", "--seed", "1", "--time-limit", "1ms", "--from"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(contains("within the time limit"));
}

/// `--from` with a second puzzle in the file names the line where it starts.
#[test]
fn generate_from_a_file_of_two_puzzles_names_the_second() {
    let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
    shiftgrid()
        .args(["generate", "--from", "-"])
        .write_stdin(format!("# two\n{grid}\n{grid}"))
        .assert()
        .code(65)
        .stdout("")
        .stderr(contains(
            "<stdin>:7: --from takes one grid, but <stdin> holds more than one puzzle (the \
             second starts here, the first on line 2)",
        ));
}
