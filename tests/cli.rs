//! The `shiftgrid` binary end to end: outputs, exit codes, and every bad-input path.
//!
//! This file holds `solve`, `count` and `grade` and what all commands share (help, quiet,
//! time limits); `make` covers `fill` and `generate`, `files` the input and output files
//! and every bad-input path, `render` the SVG pictures.

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{assert_solves, blank, full_grid, puzzle_of, puzzles, repo, shiftgrid};

mod examples;
mod files;
mod from;
mod houses;
mod knobs;
mod letters;
mod make;
mod render;
mod shortfalls;

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
        // In the record only, as with `count` (they used to go on stderr too).
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let record: serde_json::Value = serde_json::from_slice(&out).expect("one JSON record");
    let rows: Vec<Vec<u8>> =
        serde_json::from_value(record["solution"].clone()).expect("rows of cells");
    assert_solves(&p, &rows.concat(), "json");
}

/// One rule for `--stats` with `-f json` in every command: the statistics go in each
/// record as `"stats"` and not on stderr; without `--stats`, no record carries them.
#[test]
fn stats_with_json_go_in_the_record_in_every_command() {
    let puzzle = "1..4........4..1\n";
    let runs: [&[&str]; 4] = [
        &["fill", "--box", "2", "--seed", "1"],
        &["generate", "--box", "2", "--seed", "1"],
        &["solve", "-"],
        &["count", "-"],
    ];
    for args in runs {
        for stats in [false, true] {
            let mut cmd = shiftgrid();
            cmd.args(args).args(["-f", "json"]).write_stdin(puzzle);
            if stats {
                cmd.arg("--stats");
            }
            let out = cmd.output().unwrap();
            let record: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("one JSON record");
            assert_eq!(record.get("stats").is_some(), stats, "{args:?} {stats}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                !err.contains("puzzle 1:") && !err.contains("grid 1:"),
                "{args:?}: statistics on stderr: {err}"
            );
        }
    }
}

/// A long GA run's record lists at most 500 generations of its history, evenly spaced with
/// both ends, so it stays a short line that reads back as input (15,000 generations made a
/// 1 MB line, over the reader's limit).
#[test]
fn a_long_ga_runs_record_reads_back() {
    let out = shiftgrid()
        .args(["generate", "--box", "2", "--level", "1", "--seed", "1"])
        .args(["--generations", "3000", "--population", "2", "-f", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.len() < 100_000, "{} bytes", out.stdout.len());
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let generations: Vec<u64> = record["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["generation"].as_u64().unwrap())
        .collect();
    assert_eq!(generations.len(), 500);
    assert_eq!((generations[0], generations[499]), (0, 3000));
    shiftgrid()
        .args(["count", "-"])
        .write_stdin(out.stdout)
        .assert()
        .success()
        .stdout("1\t1\t1\tunique\n");
}

/// `generate --method expand|ga`: what their statistics line shows (level, steps, counts)
/// is in every JSON record, with or without `--stats`, and agrees with that line.
#[test]
fn expand_and_ga_records_hold_what_their_stats_line_shows() {
    let runs: [&[&str]; 2] = [
        &["--method", "expand"],
        &[
            "--method",
            "ga",
            "--level",
            "2",
            "--generations",
            "3",
            "--population",
            "8",
        ],
    ];
    for method in runs {
        let base = ["generate", "--box", "3", "--seed", "1"];
        let json = |stats: bool| {
            let mut cmd = shiftgrid();
            cmd.args(base).args(method).args(["-f", "json"]);
            if stats {
                cmd.arg("--stats");
            }
            let out = cmd.output().unwrap();
            let mut record: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("one JSON record");
            record.as_object_mut().unwrap().remove("micros");
            (record, String::from_utf8_lossy(&out.stderr).into_owned())
        };
        let (plain, _) = json(false);
        let (with, err) = json(true);
        assert_eq!(plain, with, "{method:?}");
        assert!(!err.contains("puzzle 1:"), "{method:?}: {err}");
        let line = shiftgrid()
            .args(base)
            .args(method)
            .args(["--stats", "-q"])
            .output()
            .unwrap()
            .stderr;
        let line = String::from_utf8_lossy(&line);
        let counts: Vec<String> = plain["counts"]
            .as_array()
            .expect("counts in the record")
            .iter()
            .map(|c| c.to_string())
            .collect();
        let shown = format!(
            ", L {}, S {}, counts {}",
            plain["level"],
            plain["steps"],
            counts.join(",")
        );
        assert!(line.contains(&shown), "{method:?}: {line} lacks {shown}");
    }
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

/// `--engine` picks the engine that counts: every one of them gets the 288 grids of the
/// empty 4×4 and names itself in `--stats`, and `auto` names the one that answered.
#[test]
fn each_engine_counts_and_names_itself() {
    for engine in ["dlx", "propagate", "fc", "learn", "auto"] {
        let out = shiftgrid()
            .args(["count", "--limit", "1000", "--stats", "--engine", engine])
            .arg(repo("grids/empty_4x4.txt"))
            .assert()
            .code(1)
            .stdout(contains("\t288\tmultiple"))
            .get_output()
            .clone();
        let stats = String::from_utf8(out.stderr).unwrap();
        let named = ["dlx", "propagate", "fc", "learn"]
            .into_iter()
            .filter(|e| stats.contains(&format!("288 solutions, {e}: ")))
            .collect::<Vec<_>>();
        match engine {
            "auto" => assert_eq!(named.len(), 1, "{stats}"),
            _ => assert_eq!(named, [engine], "{stats}"),
        }
    }
}

/// At 9×9 `auto` is DLX, searched serially: the empty board gets the same grid on every
/// run and at every thread count (with root splitting, whichever subtree finished first
/// won, and about one run in five printed another grid).
#[test]
fn an_empty_9x9_gets_the_same_solution_on_every_run_and_thread_count() {
    let line = vec!["0"; 81].join(" ") + "\n";
    for first in [true, false] {
        let run = |threads: &str| {
            let mut args = vec!["-j", threads, "solve", "-f", "line", "-"];
            if first {
                args.push("--first");
            }
            let out = shiftgrid()
                .args(&args)
                .write_stdin(line.clone())
                .output()
                .unwrap();
            out.stdout
        };
        let serial = run("1");
        assert!(serial.len() >= 81, "a grid is printed");
        for threads in ["2", "8"] {
            for _ in 0..15 {
                assert_eq!(run(threads), serial, "-j {threads}, --first {first}");
            }
        }
    }
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
    shiftgrid()
        .args(["solve", "--time-limit", "300ms", "-f", "json", "-"])
        .write_stdin(line.clone())
        .assert()
        .code(1)
        .stdout(contains(
            "\"status\":\"timeout\",\"complete\":false,\"solution\":null",
        ));
    // Four runs of 0.3 s each; a limit ignored would take minutes.
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    // A 100x100 puzzle that propagation alone solves, after about 0.3 s of probing at the
    // root: the limit also cuts that phase short (it used to run to its end and answer).
    let out = shiftgrid()
        .args(["generate", "--box", "10", "--seed", "1", "-f", "line"])
        .output()
        .unwrap();
    assert!(out.status.success());
    shiftgrid()
        .args(["count", "--engine", "propagate", "--time-limit", "5ms", "-"])
        .write_stdin(out.stdout)
        .assert()
        .code(1)
        .stdout("1\t1\t0?\ttimeout\n");
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
    // A puzzle settled well within its limit is reported as usual, as complete; so is a
    // first solution when only one was asked for.
    for first in [&[][..], &["--first"][..]] {
        let status = if first.is_empty() { "unique" } else { "solved" };
        shiftgrid()
            .args(["solve", "--time-limit", "1m", "-f", "json"])
            .args(first)
            .arg(repo("grids/demo_9x9.txt"))
            .assert()
            .success()
            .stdout(contains(format!(
                "\"status\":\"{status}\",\"complete\":true,"
            )));
    }
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
