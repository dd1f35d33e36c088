//! Input and output files: `-o` written and the input never overwritten, every bad input
//! named by its place with nothing written, a bad puzzle in a batch skipped, a missing
//! file an I/O error, and letter alphabets that must be named.

use predicates::prelude::*;
use predicates::str::contains;

use super::grids_of;
use crate::util::{assert_solves, puzzle_of, repo, shiftgrid};

#[test]
fn output_file_is_written_and_input_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("p.txt");
    let text = std::fs::read(repo("grids/demo_9x9.txt")).unwrap();
    std::fs::write(&input, &text).unwrap();
    let out = dir.path().join("out.txt");
    shiftgrid()
        .arg("solve")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let demo = puzzle_of(std::str::from_utf8(&text).unwrap());
    assert_solves(&demo, &grids_of(&std::fs::read(&out).unwrap())[0], "-o");
    shiftgrid()
        .arg("solve")
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .assert()
        .code(2)
        .stderr(contains("refusing to overwrite"));
    assert_eq!(std::fs::read(&input).unwrap(), text);
    // Nor when standard input is redirected from it (`solve - -o p.txt < p.txt`).
    let redirected = std::process::Command::new(assert_cmd::cargo::cargo_bin("shiftgrid"))
        .args(["--quiet", "solve", "-", "-o"])
        .arg(&input)
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(redirected.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&redirected.stderr).contains("refusing to overwrite"));
    assert_eq!(std::fs::read(&input).unwrap(), text);
}

/// Runs `solve` on `input` with `-o`, expecting `code`, a stderr naming `place`, and no
/// output file left behind.
fn bad_input(input: &str, code: i32, place: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, input).unwrap();
    let out = dir.path().join("out.txt");
    shiftgrid()
        .arg("solve")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(code)
        .stderr(contains(place));
    assert!(!out.exists(), "no output file after a failure");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left behind");
}

#[test]
fn bad_inputs_name_the_place_and_write_nothing() {
    // Wrong number of tokens in a grid row.
    bad_input("1 2 3 4\n3 4 1\n2 1 4 3\n4 3 2 1\n", 65, "bad.txt:2:");
    // Too few rows (a truncated grid).
    bad_input("1 2 3 4\n3 4 1 2\n2 1 4 3\n", 65, "bad.txt:");
    // A token out of range.
    bad_input("1 2 3 4\n3 4 1 2\n2 1 9 3\n4 3 2 1\n", 65, "bad.txt:3:5:");
    // Not a number.
    bad_input("1 2 3 4\n3 x 1 2\n2 1 4 3\n4 3 2 1\n", 65, "bad.txt:2:3:");
    // Unsupported size.
    bad_input("1 2 3\n2 3 1\n3 1 2\n", 65, "supported sizes are 4x4");
    // A given repeated in a column: both positions named.
    bad_input(
        "1 . . .\n. . . .\n1 . . .\n. . . .\n",
        65,
        "row 1, column 1",
    );
    // Empty input.
    bad_input("", 65, "bad.txt:1:1:");
    bad_input("# only a comment\n\n", 65, "bad.txt:");
    // Binary junk.
    bad_input("\u{0}\u{1}\u{2}garbage", 65, "bad.txt:1:");
}

#[test]
fn bad_binary_bytes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.bin");
    std::fs::write(&path, [0xffu8, 0xfe, 0x00, 0x12, 0x80]).unwrap();
    shiftgrid()
        .arg("count")
        .arg(&path)
        .assert()
        .code(65)
        .stderr(contains("junk.bin:1:"));
}

/// A line that is not text ends the input, and the message says so rather than calling
/// only that puzzle skipped.
#[test]
fn a_binary_line_mid_batch_says_the_input_ends_there() {
    let good =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let mut batch = good.as_bytes().to_vec();
    batch.extend_from_slice(
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....\xff\n",
    );
    batch.extend_from_slice(good.as_bytes());
    let out = shiftgrid()
        .args(["solve", "-", "-f", "line"])
        .write_stdin(batch)
        .assert()
        .code(65)
        .stderr(contains("<stdin>:2:81:").and(contains(
            "input ends here: puzzle 2 and anything after it not read",
        )))
        .get_output()
        .stdout
        .clone();
    assert_eq!(std::str::from_utf8(&out).unwrap().lines().count(), 1);
}

#[test]
fn a_bad_puzzle_in_a_batch_does_not_stop_the_rest() {
    let batch = "\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....x
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4..
";
    let out = shiftgrid()
        .args(["solve", "-", "-f", "line"])
        .write_stdin(batch)
        .assert()
        .code(65)
        .stderr(contains("<stdin>:2:81:").and(contains("puzzle 2 skipped")))
        .stderr(contains("<stdin>:4:").and(contains("puzzle 4 skipped")))
        .get_output()
        .stdout
        .clone();
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), 2, "puzzles 1 and 3 are still solved");
    let given: Vec<&str> = batch.lines().collect();
    for (line, k) in lines.iter().zip([0, 2]) {
        let cells: Vec<u8> = line.bytes().map(|c| c - b'0').collect();
        assert_solves(&puzzle_of(given[k]), &cells, &format!("puzzle {}", k + 1));
    }
}

#[test]
fn missing_file_is_an_io_error() {
    shiftgrid()
        .args(["solve", "/nonexistent/nope.txt"])
        .assert()
        .code(74)
        .stderr(contains("nope.txt"));
}

#[test]
fn letter_alphabets_need_naming() {
    let Some(dir) = crate::util::peers() else {
        return;
    };
    for (file, alphabet) in [
        ("gecode_16x16_janko/puzzles.txt", "1-9A"),
        ("sudsoln_misc/puzzles_25x25.txt", "A-Z"),
    ] {
        let path = dir.join(file);
        let records = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        // Named, every puzzle is read and counted.
        let out = shiftgrid()
            .args(["count", "--alphabet", alphabet])
            .arg(&path)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(
            String::from_utf8_lossy(&out).lines().count(),
            records,
            "{file}"
        );
        // Unnamed, the letters are not read as numbers: every puzzle is refused, nothing
        // is written, and the message says to name an alphabet.
        shiftgrid()
            .arg("count")
            .arg(&path)
            .assert()
            .code(65)
            .stdout("")
            .stderr(contains("name another alphabet"));
    }
}

/// An `-o` file named `.json` (or `.jsonl`, `.ndjson`) gets JSON lines, as one named `.csv`
/// gets CSV; `-f` still decides when given.
#[test]
fn output_named_json_gets_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("grid.txt");
    std::fs::write(&grid, crate::util::full_grid(2, 3).to_string()).unwrap();
    for (cmd, name) in [
        (&["fill", "--box", "2", "--seed", "1"][..], "a.json"),
        (&["solve"], "b.jsonl"),
        (&["count"], "c.NDJSON"),
        (&["grade"], "d.json"),
    ] {
        let out = dir.path().join(name);
        let mut c = shiftgrid();
        c.args(cmd);
        if cmd[0] != "fill" {
            c.arg(&grid);
        }
        c.arg("-o").arg(&out).assert().success();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(!text.is_empty(), "{cmd:?} -o {name}");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{cmd:?} -o {name}: {e}: {line}"));
            assert!(v.is_object(), "{line}");
        }
    }
    let out = dir.path().join("e.json");
    shiftgrid()
        .args(["count", "-f", "text", "-o"])
        .arg(&out)
        .arg(&grid)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "1\t1\t1\tunique\n");
}

/// An `-o` name whose extension says a form the command does not write is refused before
/// any work, instead of holding something else than its name says.
#[test]
fn output_names_of_another_form_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("grid.txt");
    std::fs::write(&grid, crate::util::full_grid(2, 3).to_string()).unwrap();
    for (cmd, name, advice) in [
        ("count", "x.svg", "name it .tsv"),
        ("grade", "x.svg", "name it .tsv"),
        // Tab-separated lines under a .csv name would open one line to a cell.
        ("grade", "x.csv", "name it .tsv"),
        ("export", "x.json", "name it .csv"),
        ("render", "x.csv", "name it .svg"),
        ("solve", "x.svg", "name it .csv"),
    ] {
        let out = dir.path().join(name);
        shiftgrid()
            .arg(cmd)
            .arg(&grid)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains(format!("-o names a .{}", &name[2..])))
            .stderr(contains(advice));
        assert!(!out.exists(), "{cmd} -o {name}");
    }
    // What a command writes, by a name that says so, is fine.
    let tsv = dir.path().join("counts.tsv");
    shiftgrid()
        .arg("count")
        .arg(&grid)
        .arg("-o")
        .arg(&tsv)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&tsv).unwrap(), "1\t1\t1\tunique\n");
}

/// A workbook, document, image or archive name is refused before any work (text under
/// such a name would not open in the program it promises), and such a file given as input
/// is named for what it is.
#[test]
fn binary_output_names_are_refused_and_binary_inputs_named() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("grid.txt");
    std::fs::write(&grid, crate::util::full_grid(2, 3).to_string()).unwrap();
    for (cmd, name, said) in [
        ("solve", "x.xlsx", "a spreadsheet workbook"),
        ("export", "x.ods", "a spreadsheet workbook"),
        ("count", "x.pdf", "a document"),
        ("generate", "x.zip", "an archive"),
        ("solve", "x.PNG", "(an image), but this command writes"),
        ("grade", "x.ods", "name it .tsv"),
        ("render", "x.xlsx", "a spreadsheet workbook"),
    ] {
        let out = dir.path().join(name);
        let mut cmd_line = shiftgrid();
        cmd_line.arg(cmd);
        if cmd == "generate" {
            cmd_line.args(["--box", "2"]);
        } else {
            cmd_line.arg(&grid);
        }
        cmd_line
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains(said));
        assert!(!out.exists(), "{cmd} -o {name}");
    }
    // render names images in its own words.
    shiftgrid()
        .arg("render")
        .arg(&grid)
        .arg("-o")
        .arg(dir.path().join("x.png"))
        .assert()
        .code(2)
        .stderr(contains("render writes SVG, not PNG"));
    // A workbook given as input: its first bytes are a zip archive's.
    let book = dir.path().join("roster.csv");
    std::fs::write(&book, b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00").unwrap();
    shiftgrid()
        .arg("solve")
        .arg(&book)
        .assert()
        .code(65)
        .stderr(contains("zip archive, such as an .xlsx"));
}

/// Lists from other tools, read as they are published: tdoku's `puzzle:count:solution`
/// (its counts re-counted up to 1,000, line by line) and sudoku-exchange's `hash puzzle
/// rating` records (every one unique, as the bank states), a first line whose comment holds
/// a comma (not a roster CSV's header), and Simple Sudoku's framed grid.
#[test]
fn puzzle_lists_with_ids_ratings_and_solutions_read_as_published() {
    let text = std::fs::read_to_string(repo("grids/tdoku_counts.txt")).unwrap();
    let want: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(':').nth(1).unwrap().to_string())
        .collect();
    let out = shiftgrid()
        .args(["count", "--limit", "1000"])
        .arg(repo("grids/tdoku_counts.txt"))
        .output()
        .unwrap();
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').nth(2).unwrap().to_string())
        .collect();
    assert!(want.len() > 10);
    assert_eq!(got, want);

    let hardest =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let solved =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    shiftgrid()
        .args(["solve", "-f", "line"])
        .write_stdin(format!(
            "# Norvig, 2006\n{hardest} # SE 9.0, by his count\n"
        ))
        .assert()
        .success()
        .stdout(format!("{solved}\n"));
    let framed = "*-----------*\n|4..|...|8.5|\n|.3.|...|...|\n|...|7..|...|\n|---+---+---|\n\
                  |.2.|...|.6.|\n|...|.8.|4..|\n|...|.1.|...|\n|---+---+---|\n\
                  |...|6.3|.7.|\n|5..|2..|...|\n|1.4|...|...|\n*-----------*\n";
    shiftgrid()
        .args(["solve", "-f", "line"])
        .write_stdin(framed)
        .assert()
        .success()
        .stdout(format!("{solved}\n"));

    // A list named .csv is a list; a header of two fields is no roster's, and the error
    // says how to read the list under it.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("puzzles.csv");
    std::fs::write(&list, format!("{hardest}\n{hardest},SE 9.0\n")).unwrap();
    shiftgrid()
        .arg("count")
        .arg(&list)
        .assert()
        .success()
        .stdout("1\t1\t1\tunique\n2\t2\t1\tunique\n");
    std::fs::write(&list, format!("quizzes,solutions\n{hardest},{solved}\n")).unwrap();
    shiftgrid()
        .arg("count")
        .arg(&list)
        .assert()
        .code(65)
        .stderr(contains("puzzles.csv:1:1: the header has 2 fields"))
        .stderr(contains(
            "take this header line away and read the rest with --input-format line",
        ));
    shiftgrid()
        .args(["count", "--input-format", "line"])
        .arg(&list)
        .assert()
        .code(65)
        .stdout("2\t2\t1\tunique\n");

    let Some(dir) = crate::util::peers() else {
        return;
    };
    let bank = dir.join("sudoku_exchange_diabolical_sample/original_lines.txt");
    let out = shiftgrid().arg("count").arg(&bank).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let lines = String::from_utf8(out.stdout).unwrap();
    assert_eq!(lines.lines().count(), 160);
    assert!(lines.lines().all(|l| l.ends_with("\t1\tunique")), "{lines}");
}

/// A grid saved by a spreadsheet as CSV (numbers split by commas, empty cells blank) is a
/// puzzle, whatever the file's name, not a roster whose header is its first row; a roster
/// CSV is still one.
#[test]
fn a_grid_saved_as_csv_is_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let grid = "5,3,,,7,,,,\n6,,,1,9,5,,,\n,9,8,,,,,6,\n8,,,,6,,,,3\n4,,,8,,3,,,1\n\
                7,,,,2,,,,6\n,6,,,,,2,8,\n,,,4,1,9,,,5\n,,,,8,,,7,9\n";
    for name in ["grid.csv", "grid.txt"] {
        let file = dir.path().join(name);
        std::fs::write(&file, grid).unwrap();
        shiftgrid()
            .args(["solve", "-f", "line"])
            .arg(&file)
            .assert()
            .success()
            .stdout(
                "534678912672195348198342567859761423426853791713924856961537284287419635345286179\n",
            );
    }
    let roster = dir.path().join("week.csv");
    std::fs::write(
        &roster,
        "staff,Mon,Tue,Wed,Thu\nAnn,1,,,\nBob,,,,\nCy,,,,\nDee,,,,\n",
    )
    .unwrap();
    shiftgrid()
        .args(["count"])
        .arg(&roster)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("multiple"));
}

/// Output past 16 MiB waits beside the `-o` file, not in TMPDIR: with a TMPDIR that does
/// not exist a long batch still writes its file (it ran for nothing and exited 74).
#[test]
fn long_output_waits_beside_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let grids = shiftgrid()
        .args([
            "fill", "--box", "3", "--seed", "2", "--count", "70000", "-f", "line",
        ])
        .output()
        .unwrap();
    assert!(grids.status.success());
    let input = dir.path().join("grids.txt");
    std::fs::write(&input, &grids.stdout).unwrap();
    let out = dir.path().join("solved.json");
    shiftgrid()
        .env("TMPDIR", dir.path().join("missing"))
        .args(["solve", "-f", "json", "-o"])
        .arg(&out)
        .arg(&input)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.len() > 16 << 20, "{} bytes", text.len());
    assert_eq!(text.lines().count(), 70000);
}

/// A `#` comment in another encoding (Latin-1) or with a control character is skipped as
/// any comment is: it once ended the input, and every puzzle after it was lost.
#[test]
fn comments_in_other_encodings_end_nothing() {
    let puzzle = std::fs::read_to_string(repo("grids/demo_9x9.txt")).unwrap();
    let line: String = puzzle
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split_whitespace())
        .collect();
    assert_eq!(line.len(), 81);
    let mut input = b"# puzzles by M\xfcller\n".to_vec();
    input.extend_from_slice(format!("{line}\n").as_bytes());
    input.extend_from_slice(b"# page 2 \x0c\n");
    input.extend_from_slice(format!("{line}\n").as_bytes());
    let out = shiftgrid()
        .args(["count", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}
