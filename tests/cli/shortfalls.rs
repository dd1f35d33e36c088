//! What `generate` says on stderr when a run falls short of what was asked: a `--level`
//! the genetic algorithm missed, a `--time-limit` that cut a puzzle short (and whether the
//! puzzle is minimal all the same); and what `count` says of a status 1 where no summary is
//! shown.

use crate::util::shiftgrid_loud;

/// `generate --level L` says so when the genetic algorithm did not reach L in its budget
/// (the puzzles are still written, unique, with the level they have): with two generations
/// of eight, three puzzles at 9×9 do not all reach level 6. A run that reaches it says
/// nothing.
#[test]
fn generate_says_when_the_target_level_is_missed() {
    let out = shiftgrid_loud()
        .args(["generate", "--box", "3", "--seed", "11", "--level", "6"])
        .args([
            "--generations",
            "2",
            "--population",
            "8",
            "--count",
            "3",
            "-f",
            "line",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did not reach --level 6"), "{err}");
    // The note names the puzzles that missed, as `grade` rates them.
    let graded = crate::util::shiftgrid()
        .arg("grade")
        .write_stdin(out.stdout.clone())
        .output()
        .unwrap();
    let missed: Vec<String> = String::from_utf8_lossy(&graded.stdout)
        .lines()
        .filter(|l| l.split('\t').nth(2) != Some("6"))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert!(!missed.is_empty());
    let named = match missed.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => unreachable!(),
    };
    assert!(
        err.contains(&format!("of the 3 puzzles ({named}) did not reach")),
        "{err}"
    );
    let out = shiftgrid_loud()
        .args([
            "generate", "--box", "3", "--seed", "11", "--level", "2", "-f", "line",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("did not reach") && !err.contains("--time-limit stopped"));
    // Missed because the time limit stopped it: the note says so, and advises a longer one.
    let out = shiftgrid_loud()
        .args(["generate", "--box", "3", "--seed", "1", "--level", "8"])
        .args(["--time-limit", "1ms", "-f", "line"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.stdout.contains(&b'.') {
        // On a busy machine the limit can come before any cell is blanked: no puzzle.
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("before any cell was blanked"), "{err}");
        assert!(!err.contains("did not reach"), "{err}");
        return;
    }
    assert!(out.status.success());
    assert!(
        err.contains("--time-limit stopped the puzzle before the genetic algorithm's last")
            && err.contains("(a longer --time-limit may get there)"),
        "{err}"
    );
}

/// A time limit that cuts a puzzle short is said on stderr (it used to show only in JSON).
/// At 1 ms a 25x25 run has seldom blanked a cell: the full grid it then writes is said to
/// be no puzzle, even with --quiet, and the run exits 1.
#[test]
fn generate_says_when_the_time_limit_cut_it_short() {
    for extra in [&[][..], &["--minimal"][..], &["-q"][..]] {
        let out = shiftgrid_loud()
            .args([
                "generate",
                "--box",
                "5",
                "--seed",
                "3",
                "--time-limit",
                "1ms",
            ])
            .args(extra)
            .args(["-f", "line"])
            .output()
            .unwrap();
        let line = String::from_utf8_lossy(&out.stdout);
        let blanks = line.split_whitespace().filter(|t| *t == "." || *t == "0");
        let err = String::from_utf8_lossy(&out.stderr);
        if blanks.count() == 0 {
            assert_eq!(out.status.code(), Some(1), "{err}");
            assert!(
                err.contains(
                    "--time-limit stopped the puzzle before any cell was blanked: it is the \
                     full grid, not a puzzle (give it a longer limit)"
                ),
                "{err}"
            );
            continue;
        }
        assert!(out.status.success());
        let when = if extra == ["--minimal"] {
            "before it was minimal"
        } else {
            "before every removal was tried"
        };
        assert!(
            extra == ["-q"]
                || err.contains(&format!(
                    "--time-limit stopped the puzzle {when}: it is unique"
                )),
            "{err}"
        );
    }
}

/// A time limit that cuts the rounds of improvement (the 25×25 default's) leaves a minimal
/// puzzle, and the note says so; one that cuts the first pass says that removals were left
/// untried. Which one the limit cuts depends on the machine: the note must match the record.
#[test]
fn the_time_limit_note_says_whether_the_puzzle_is_minimal() {
    let out = shiftgrid_loud()
        .args([
            "generate",
            "--box",
            "5",
            "--seed",
            "1",
            "--time-limit",
            "3s",
        ])
        .args(["-f", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // The rounds take about 8 s on two idle cores, the first pass half a second.
    assert_eq!(record["stopped_early"], true, "{err}");
    {
        let said = if record["minimal"] == true {
            "in the rounds of improvement: it is unique and minimal, but a longer limit may \
             leave fewer givens"
        } else {
            "before every removal was tried: it is unique, but"
        };
        assert!(err.contains(said), "{err}");
    }
}

/// `count` exits 1 when a puzzle is not proper; where no summary line is shown (stderr not
/// a terminal, as here, or --quiet), a note says why and which, with the output in a file.
/// A run where every puzzle is proper says nothing.
#[test]
fn count_says_why_it_exits_1_without_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("p.txt");
    // A 4x4 grid with all its cells given (unique), then two with one given and none.
    std::fs::write(
        &input,
        "1234341221434321\n1...............\n................\n",
    )
    .unwrap();
    let out_file = dir.path().join("c.txt");
    for quiet in [false, true] {
        let mut cmd = shiftgrid_loud();
        cmd.arg("count").arg(&input).arg("-o").arg(&out_file);
        if quiet {
            cmd.arg("-q");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(
                "shiftgrid: 2 of the 3 puzzles (2 and 3) are not proper (no solution, or two \
                 or more)"
            ),
            "{err}"
        );
        let counts = std::fs::read_to_string(&out_file).unwrap();
        assert_eq!(counts.lines().count(), 3);
    }
    std::fs::write(&input, "1234341221434321\n").unwrap();
    let out = shiftgrid_loud()
        .arg("count")
        .arg(&input)
        .arg("-o")
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("not proper"));
}

/// At 4x4 every proper puzzle is level 1: a higher --level is refused at once, not searched
/// for in vain.
#[test]
fn generate_refuses_a_level_no_4x4_puzzle_has() {
    let out = shiftgrid_loud()
        .args(["generate", "--box", "2", "--seed", "3", "--level", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "--level 2 cannot be reached at 4x4: every 4x4 puzzle with one solution is solved at level 1"
    ));
    let out = shiftgrid_loud()
        .args(["generate", "--box", "2", "--seed", "3", "--level", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
}
