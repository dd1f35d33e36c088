//! The `shiftgrid` binary end to end: outputs, exit codes, and every bad-input path.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{
    assert_solves, blank, full_grid, independently_valid, puzzle_of, puzzles, repo, shiftgrid,
};

/// Parses grid-form output (blank-line separated grids of integers) into cell vectors.
fn grids_of(stdout: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    text.split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            g.split_whitespace()
                .map(|t| t.parse().expect("a number"))
                .collect()
        })
        .collect()
}

#[test]
fn help_and_version() {
    shiftgrid()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("fill"));
    shiftgrid().arg("--version").assert().success();
    shiftgrid().arg("frobnicate").assert().code(2);
}

#[test]
fn solve_prints_the_unique_solution() {
    let out = shiftgrid()
        .args(["solve"])
        .arg(repo("grids/demo_9x9.txt"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let grids = grids_of(&out);
    assert_eq!(grids.len(), 1);
    let demo = &puzzles(&repo("grids/demo_9x9.txt"))[0];
    assert_solves(demo, &grids[0], "demo");
}

#[test]
fn solve_reads_stdin_and_writes_lines_and_json() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let out = shiftgrid()
        .args(["solve", "-", "--format", "line"])
        .write_stdin(puzzle)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let line = String::from_utf8(out).unwrap();
    let cells: Vec<u8> = line.trim().bytes().map(|c| c - b'0').collect();
    let p = puzzle_of(puzzle);
    assert_solves(&p, &cells, "line");
    let out = shiftgrid()
        .args(["solve", "-", "--format", "json", "--stats"])
        .write_stdin(puzzle)
        .assert()
        .success()
        .stdout(contains("\"status\":\"unique\"").and(contains("\"nodes\"")))
        .get_output()
        .stdout
        .clone();
    let record: serde_json::Value = serde_json::from_slice(&out).expect("one JSON record");
    let rows: Vec<Vec<u8>> =
        serde_json::from_value(record["solution"].clone()).expect("rows of cells");
    assert_solves(&p, &rows.concat(), "json");
}

#[test]
fn solve_flags_multiple_and_none() {
    // The empty 4x4 grid has 288 solutions: one is printed, exit status 1.
    shiftgrid()
        .arg("solve")
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stderr(contains("more than one solution"));
    shiftgrid()
        .args(["solve", "--first"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .success();
    // Rule-consistent, no solution: row 1 is 1 2 _ _, column 3 holds 3 and 4 below.
    shiftgrid()
        .args(["solve", "-"])
        .write_stdin("1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n")
        .assert()
        .code(1)
        .stderr(contains("no solution"));
}

#[test]
fn count_reports_and_sets_status() {
    shiftgrid()
        .args(["count", "--limit", "1000"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stdout(contains("\t288\tmultiple"));
    shiftgrid()
        .args(["count"])
        .arg(repo("grids/demo_9x9.txt"))
        .assert()
        .success()
        .stdout(contains("\t1\tunique"));
    shiftgrid()
        .args(["count", "--format", "json"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stdout(contains("\"solutions\":2,\"capped\":true"));
    // `--limit 1` asks whether a solution exists: found, it is "at least one", never
    // "unique", and that is a success; the 4×4 has 288.
    shiftgrid()
        .args(["count", "--limit", "1"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .success()
        .stdout(contains("\t>=1\tat least one"));
}

/// The same input gives the same answer on every run, `auto`'s races included: a 36×36
/// roster with 60% of its cells blank has many completions, found by whichever of the
/// fill search and three learners gets there first, and `solve --first` prints the same
/// one each time (before the races ran in lockstep, each run printed another), as does
/// `solve`, which finds two and prints one.
#[test]
fn a_roster_gets_the_same_completion_on_every_run() {
    let p = blank(&full_grid(6, 2), 0.6, 2);
    let line: Vec<String> = p.cells().iter().map(|v| v.to_string()).collect();
    let line = line.join(" ") + "\n";
    for args in [
        &["solve", "--first", "-f", "line", "-"][..],
        &["solve", "-f", "line", "-"][..],
    ] {
        let run = || {
            let out = shiftgrid()
                .args(args)
                .write_stdin(line.clone())
                .output()
                .unwrap();
            assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}");
            out.stdout
        };
        let first = run();
        assert!(first.len() > 36 * 36, "{args:?}: a grid is printed");
        for _ in 0..3 {
            assert_eq!(run(), first, "{args:?}");
        }
    }
}

/// `--time-limit` stops a search that would run for minutes (a 49×49 roster with half its
/// cells blank, at the hardness peak, where CaDiCaL and `auto` both need more than 30 s)
/// and says so: `count` prints `0?` and `timeout`, `solve` prints no grid and names the
/// limit; both exit 1, soon after the limit. Without a limit nothing says "timed out".
#[test]
fn time_limit_stops_hard_searches_and_says_so() {
    let p = blank(&full_grid(7, 1), 0.5, 1);
    let line: Vec<String> = p.cells().iter().map(|v| v.to_string()).collect();
    let line = line.join(" ") + "\n";
    let start = std::time::Instant::now();
    shiftgrid()
        .args(["count", "--time-limit", "300ms", "-"])
        .write_stdin(line.clone())
        .assert()
        .code(1)
        .stdout("1\t1\t0?\ttimeout\n");
    shiftgrid()
        .args(["count", "--time-limit", "0.3s", "-f", "json", "-"])
        .write_stdin(line.clone())
        .assert()
        .code(1)
        .stdout(contains(
            "\"solutions\":0,\"capped\":false,\"complete\":false,\"verdict\":\"timeout\"",
        ));
    shiftgrid()
        .args(["solve", "--time-limit", "300ms", "-"])
        .write_stdin(line.clone())
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("no solution found within the time limit"));
    // Three runs of 0.3 s each; a limit ignored would take minutes.
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    // Cut short after finding some of the 9x9's 6.7e21 grids: the count is a lower bound
    // (`N?`), and "multiple" is already known.
    shiftgrid()
        .args([
            "count",
            "--limit",
            "1000000000000",
            "--time-limit",
            "200ms",
            "-",
        ])
        .write_stdin(". ".repeat(81))
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"^1\t1\t[0-9]+\?\tmultiple\n$").unwrap());
    // A puzzle settled well within its limit is reported as usual.
    shiftgrid()
        .args(["count", "--time-limit", "1m"])
        .arg(repo("grids/demo_9x9.txt"))
        .assert()
        .success()
        .stdout(contains("\t1\tunique"));
    shiftgrid()
        .args(["count", "--time-limit", "soon", "-"])
        .write_stdin(line)
        .assert()
        .code(2)
        .stderr(contains("not a duration"));
}

#[test]
fn fill_is_valid_and_reproducible() {
    for b in ["2", "3", "4", "5"] {
        let run = || {
            shiftgrid()
                .args(["fill", "--box", b, "--seed", "9", "--threads", "2"])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        };
        let a = run();
        assert_eq!(a, run(), "same seed, same threads, same grid");
        let g = &grids_of(&a)[0];
        let n: usize = b.parse::<usize>().unwrap().pow(2);
        assert!(independently_valid(n, g));
    }
    let out = shiftgrid()
        .args([
            "fill", "--box", "3", "--seed", "1", "--count", "5", "-f", "line",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), 5);
    for l in lines {
        let cells: Vec<u8> = l.bytes().map(|c| c - b'0').collect();
        assert!(independently_valid(9, &cells));
    }
}

#[test]
fn fill_without_seed_prints_it() {
    Command::cargo_bin("shiftgrid")
        .unwrap()
        .args(["fill", "--box", "2"])
        .assert()
        .success()
        .stderr(contains("--seed"));
}

#[test]
fn fill_refuses_unsupported_sizes() {
    shiftgrid()
        .args(["fill", "--box", "11"])
        .assert()
        .code(2)
        .stderr(contains("supported"));
    shiftgrid()
        .args(["fill", "--box", "1"])
        .assert()
        .code(2)
        .stderr(contains("4x4"));
}

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

#[test]
fn generated_puzzles_are_unique_by_an_independent_count() {
    // Up to 16x16 the generator proves removals by propagation and the learning engine,
    // and DLX (which shares code with neither) re-counts; at 25x25 it proves them by
    // propagation alone, and the learning engine re-counts (plain DLX can take minutes).
    for (b, engine) in [("2", "dlx"), ("3", "dlx"), ("4", "dlx"), ("5", "learn")] {
        let out = shiftgrid()
            .args([
                "generate", "--box", b, "--seed", "3", "--count", "6", "-f", "line",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(String::from_utf8_lossy(&out).lines().count(), 6);
        let counted = shiftgrid()
            .args(["count", "-", "--limit", "2", "--engine", engine])
            .write_stdin(out)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(counted).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert!(text.lines().all(|l| l.ends_with("\t1\tunique")), "{text}");
    }
}

#[test]
fn generate_is_reproducible_and_symmetric() {
    let run = |threads: &str| {
        shiftgrid()
            .args([
                "generate",
                "--box",
                "3",
                "--seed",
                "77",
                "--symmetry",
                "rot90",
            ])
            .args(["--threads", threads, "-f", "line"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run("1");
    assert_eq!(a, run("2"), "same seed, any thread count, same puzzle");
    let line = String::from_utf8(a).unwrap();
    let cells: Vec<u8> = line
        .trim()
        .bytes()
        .map(|c| if c == b'.' { 0 } else { c - b'0' })
        .collect();
    for r in 0..9 {
        for c in 0..9 {
            let given = cells[r * 9 + c] != 0;
            assert_eq!(
                given,
                cells[c * 9 + (8 - r)] != 0,
                "rot90 pattern at ({r},{c})"
            );
        }
    }
}

#[test]
fn generate_with_solution_and_json() {
    shiftgrid()
        .args([
            "generate",
            "--box",
            "3",
            "--seed",
            "1",
            "--solution",
            "-f",
            "json",
        ])
        .assert()
        .success()
        .stdout(contains("\"minimal\":true").and(contains("\"solution\":[[")));
    shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--seed",
            "1",
            "--givens",
            "10",
            "--minimal",
        ])
        .assert()
        .code(2);
}

#[test]
fn render_draws_an_svg_with_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.svg");
    shiftgrid()
        .arg("render")
        .arg(repo("grids/demo_9x9.txt"))
        .args(["--solve", "--labels", "-o"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    // 81 digits drawn: 27 givens and 54 filled cells.
    assert_eq!(
        svg.matches("</text>").count()
            - svg.matches("Staff ").count()
            - svg.matches("Day ").count(),
        81
    );
    // A contradictory puzzle cannot be solved for drawing.
    shiftgrid()
        .args(["render", "-", "--solve"])
        .write_stdin("1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n")
        .assert()
        .code(1);
    // An improper one is drawn with one of its solutions, with a note and exit 1, as
    // `solve` does.
    shiftgrid()
        .args(["render", "--solve"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stdout(contains("</svg>"))
        .stderr(contains("more than one solution; drawing one"));
}

/// `render` draws a roster with its names: a roster CSV's own staff, days and shifts, or
/// the name files given with any input.
#[test]
fn render_draws_roster_names() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    std::fs::write(&shifts, "Early\nLate\nNight\nOff\n").unwrap();
    let roster = "staff,Mon,Tue,Wed,Thu\nAnn,Early,Late,,\nBob,,,,\nCid,,,,\nDee,,,Early,Night\n";
    let svg = shiftgrid()
        .args([
            "render",
            "-",
            "--labels",
            "--input-format",
            "csv",
            "--shifts",
        ])
        .arg(&shifts)
        .write_stdin(roster)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let svg = String::from_utf8(svg).unwrap();
    for name in ["Ann", "Dee", "Mon", "Thu", ">Early<", ">Late<", ">Night<"] {
        assert!(svg.contains(name), "{name} missing");
    }
    assert!(!svg.contains("Staff 1") && !svg.contains("Day 1"));
    // Text input with name files: the same labels.
    let staff = dir.path().join("staff.txt");
    std::fs::write(&staff, "Ann\nBob\nCid\nDee\n").unwrap();
    shiftgrid()
        .args(["render", "-", "--labels", "--staff"])
        .arg(&staff)
        .write_stdin("1 2 . .\n. . . .\n. . . .\n. . . .\n")
        .assert()
        .success()
        .stdout(contains(">Cid<").and(contains("Day 4")));
}

/// `--quiet` silences progress and notes, not the `--stats` lines the user asked for.
#[test]
fn quiet_keeps_the_stats_asked_for() {
    for cmd in [&["solve"][..], &["count"][..]] {
        // (`shiftgrid()` passes --quiet.)
        shiftgrid()
            .args(cmd)
            .arg(repo("grids/demo_9x9.txt"))
            .arg("--stats")
            .assert()
            .success()
            .stderr(contains("puzzle 1: 1 solution").and(contains("nodes")));
    }
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "--stats"])
        .assert()
        .success()
        .stderr(contains("grid 1: seed 1"));
}

/// `grade` says when a puzzle the techniques cannot finish is not proper (a short search
/// finds two solutions), and stays quiet on proper ones they cannot finish: most of
/// Norvig's top 95 are beyond level 8, and each has exactly one solution.
#[test]
fn grade_notes_puzzles_with_several_solutions() {
    shiftgrid()
        .arg("grade")
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stdout(contains(">8"))
        .stderr(contains("more than one solution"));
    shiftgrid()
        .arg("grade")
        .arg(repo("grids/top95.txt"))
        .assert()
        .success()
        .stdout(contains(">8"))
        .stderr(predicate::str::is_empty());
}

/// `generate --givens K` says so when the puzzle keeps more than K givens.
#[test]
fn givens_target_not_reached_is_noted() {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("shiftgrid"))
        .args([
            "generate", "--box", "3", "--seed", "3", "--givens", "20", "-f", "line",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let givens = out.stdout.iter().filter(|&&c| c.is_ascii_digit()).count();
    assert!(givens > 20);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kept more than --givens 20 givens")
            && err.contains(&format!("(the fewest: {givens})")),
        "{err}"
    );
}
