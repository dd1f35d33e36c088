//! What `generate` says on stderr when a run falls short of what was asked: a `--level`
//! the genetic algorithm missed, a `--time-limit` that cut a puzzle short (and whether the
//! puzzle is minimal all the same).

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
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--time-limit stopped the puzzle before the genetic algorithm's last")
            && err.contains("(a longer --time-limit may get there)"),
        "{err}"
    );
}

/// A time limit that cuts a puzzle short is said on stderr (it used to show only in JSON):
/// at 1 ms a 25x25 "puzzle" is the full grid.
#[test]
fn generate_says_when_the_time_limit_cut_it_short() {
    for extra in [&[][..], &["--minimal"][..]] {
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
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        let when = if extra.is_empty() {
            "before every removal was tried"
        } else {
            "before it was minimal"
        };
        assert!(
            err.contains(&format!(
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
