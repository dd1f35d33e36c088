//! The commands that make grids: `fill` (valid, reproducible, its seed printed, sizes
//! refused) and `generate` (unique by an independent count, reproducible and symmetric,
//! with solutions and JSON, and a note when `--givens` cannot be reached).

use predicates::prelude::*;
use predicates::str::contains;

use super::grids_of;
use crate::util::{independently_valid, shiftgrid, shiftgrid_loud};

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
    shiftgrid_loud()
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
fn generated_puzzles_are_unique_by_an_independent_count() {
    // Up to 16x16 the generator proves removals by propagation and the learning engine,
    // and DLX (which shares code with neither) re-counts; at 25x25 it proves them by
    // propagation alone, and the learning engine re-counts (plain DLX can take minutes).
    // One at 25x25, where the default runs rounds of improvement (seconds per puzzle, a
    // minute on a loaded machine).
    for (b, engine, m) in [
        ("2", "dlx", 6),
        ("3", "dlx", 6),
        ("4", "dlx", 6),
        ("5", "learn", 1),
    ] {
        let out = shiftgrid()
            .args(["generate", "--box", b, "--seed", "3", "-f", "line"])
            .args(["--count", &m.to_string()])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(String::from_utf8_lossy(&out).lines().count(), m);
        let counted = shiftgrid()
            .args(["count", "-", "--limit", "2", "--stats", "--engine", engine])
            .write_stdin(out)
            .assert()
            .success()
            .get_output()
            .clone();
        let text = String::from_utf8(counted.stdout).unwrap();
        assert_eq!(text.lines().count(), m);
        assert!(text.lines().all(|l| l.ends_with("\t1\tunique")), "{text}");
        // The engine asked for did the counting (`auto` would race the generator's own).
        let stats = String::from_utf8(counted.stderr).unwrap();
        let by = format!("1 solution, {engine}: ");
        assert_eq!(stats.matches(&by).count(), m, "{stats}");
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

/// `generate --givens K` says so when the puzzle keeps more than K givens, also with
/// `--quiet` (the line itself does not show it).
#[test]
fn givens_target_not_reached_is_noted() {
    let out = shiftgrid_loud()
        .args([
            "--quiet", "generate", "--box", "3", "--seed", "3", "--givens", "20", "-f", "line",
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
    // JSON records the target beside the givens kept.
    let record: serde_json::Value = serde_json::from_slice(
        &crate::util::shiftgrid()
            .args([
                "generate", "--box", "3", "--seed", "3", "--givens", "20", "-f", "json",
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(record["target_givens"], 20);
    assert_eq!(record["givens"], givens);
}

/// `generate --automorphic`, by proofs and by expansion: the puzzle is unique by an
/// independent count, its givens keep the point symmetry and its solution is renamed
/// consistently by the half turn; the flag is refused where it cannot apply.
#[test]
fn automorphic_puzzles_are_unique_and_their_solutions_symmetric() {
    for method in ["prove", "expand"] {
        let out = shiftgrid()
            .args(["generate", "--box", "4", "--seed", "5", "--automorphic"])
            .args(["--method", method, "--solution", "-f", "line"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        // 16x16 line form: numbers separated by spaces, 0 blank.
        let read = |l: &str| -> Vec<u8> { l.split(' ').map(|v| v.parse().unwrap()).collect() };
        let (puzzle, solution) = (read(lines[0]), read(lines[1]));
        assert!(independently_valid(16, &solution));
        for i in 0..256 {
            assert_eq!(
                puzzle[i] != 0,
                puzzle[255 - i] != 0,
                "{method}: symmetry at {i}"
            );
        }
        assert!(renamed_by_half_turn(&solution), "{method}");
        assert_unique_by_dlx(lines[0]);
    }
    for (args, why) in [
        (["--symmetry", "none"], "needs a symmetry"),
        (["--symmetry", "mirror"], "needs a symmetry"),
        (["--box", "10"], "up to 81x81"),
    ] {
        let mut cmd = shiftgrid();
        cmd.args(["generate", "--automorphic", "--seed", "1"]);
        if args[0] != "--box" {
            cmd.args(["--box", "3"]);
        }
        cmd.args(args).assert().code(2).stderr(contains(why));
    }
    // A refused command prints its error only, not a random seed to repeat it with (not
    // quiet: the note is printed unless --quiet).
    shiftgrid_loud()
        .args([
            "generate",
            "--box",
            "3",
            "--automorphic",
            "--symmetry",
            "mirror",
        ])
        .assert()
        .code(2)
        .stderr(contains("needs a symmetry").and(contains("--seed").not()));
}

/// The puzzle and solution lines of a 25x25 `generate ... --solution -f line` run.
fn puzzle_and_solution(out: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let text = String::from_utf8(out.to_vec()).unwrap();
    let read = |l: &str| -> Vec<u8> { l.split(' ').map(|v| v.parse().unwrap()).collect() };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    (read(lines[0]), read(lines[1]))
}

/// Whether the half turn renames `solution`'s symbols consistently (an automorphic grid).
fn renamed_by_half_turn(solution: &[u8]) -> bool {
    let last = solution.len() - 1;
    let mut sigma = [0u8; 101];
    (0..solution.len()).all(|i| {
        let (s, t) = (solution[i] as usize, solution[last - i]);
        let ok = sigma[s] == 0 || sigma[s] == t;
        sigma[s] = t;
        ok
    })
}

/// The 25x25 default: an automorphic grid, a minimal puzzle, then 16 rounds (the stats line
/// says so), fewer givens than `--grid random` (the first minimal puzzle of a random grid,
/// no rounds by default) and unique by the learning engine's count from scratch; `--grid`
/// and `--automorphic` do not go together; with rot90, no rounds by default.
#[test]
fn default_25x25_starts_from_an_automorphic_grid_and_improves() {
    let run = |extra: &[&str]| {
        let out = shiftgrid()
            .args(["generate", "--box", "5", "--seed", "1", "--solution"])
            .args(["-f", "line", "--stats"])
            .args(extra)
            .assert()
            .success()
            .get_output()
            .clone();
        let (puzzle, solution) = puzzle_and_solution(&out.stdout);
        assert!(independently_valid(25, &solution));
        (puzzle, solution, String::from_utf8(out.stderr).unwrap())
    };
    let (puzzle, solution, stats) = run(&[]);
    assert!(renamed_by_half_turn(&solution));
    assert!(
        stats.contains("minimal") && stats.contains("16 rounds from"),
        "{stats}"
    );
    for i in 0..625 {
        assert_eq!(
            puzzle[i] != 0,
            puzzle[624 - i] != 0,
            "point symmetry at {i}"
        );
    }
    let (random, random_solution, random_stats) = run(&["--grid", "random"]);
    assert!(!renamed_by_half_turn(&random_solution));
    assert!(!random_stats.contains("rounds"), "{random_stats}");
    let count = |p: &[u8]| p.iter().filter(|&&v| v != 0).count();
    assert!(
        count(&puzzle) < count(&random),
        "{} against {}",
        count(&puzzle),
        count(&random)
    );
    let line: Vec<String> = puzzle.iter().map(|v| v.to_string()).collect();
    shiftgrid()
        .args(["count", "-", "--limit", "2", "--stats", "--engine", "learn"])
        .write_stdin(line.join(" "))
        .assert()
        .success()
        .stdout(predicates::str::ends_with("\t1\tunique\n"))
        .stderr(contains("1 solution, learn: "));
    shiftgrid()
        .args([
            "generate",
            "--box",
            "3",
            "--automorphic",
            "--grid",
            "random",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
    // The default rounds are for the point symmetry alone (four-cell orbits make them
    // several times dearer); rot90 keeps the automorphic grid.
    let (_, rot90_solution, rot90_stats) = run(&["--symmetry", "rot90"]);
    assert!(renamed_by_half_turn(&rot90_solution));
    assert!(!rot90_stats.contains("rounds"), "{rot90_stats}");
}

/// `generate --improve`: a unique puzzle with no more givens than without it; refused where
/// there is no minimal puzzle to start from.
#[test]
fn improve_rounds_give_unique_puzzles_and_are_refused_without_minimal_ones() {
    let givens = |extra: &[&str]| -> (usize, String) {
        let out = shiftgrid()
            .args(["generate", "--box", "4", "--seed", "3", "-f", "line"])
            .args(extra)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let line = String::from_utf8(out).unwrap();
        let n = line.trim().split(' ').filter(|v| *v != "0").count();
        (n, line)
    };
    let (before, _) = givens(&[]);
    let (after, line) = givens(&["--improve", "6"]);
    shiftgrid()
        .args([
            "generate",
            "--box",
            "4",
            "--seed",
            "3",
            "--improve",
            "6",
            "--stats",
        ])
        .assert()
        .success()
        .stderr(
            contains(format!("{after} givens"))
                .and(contains(format!("6 rounds from {before} givens"))),
        );
    assert!(after <= before, "{after} givens against {before}");
    assert_unique_by_dlx(&line);
    for (args, why) in [
        (vec!["--box", "3", "--method", "expand"], "--method prove"),
        (vec!["--box", "3", "--givens", "30"], "not with --givens"),
        (
            vec!["--box", "3", "--search-nodes", "50"],
            "not with --search-nodes",
        ),
        (vec!["--box", "6"], "add --minimal"),
        (vec!["--box", "3", "--every-house"], "do not go together"),
    ] {
        shiftgrid()
            .args(["generate", "--improve", "3", "--seed", "1"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(why));
    }
    // No rounds go with anything: the same puzzle as without the flag.
    for args in [
        vec!["--box", "3", "--method", "expand"],
        vec!["--box", "3", "--givens", "30"],
        vec!["--box", "4", "--search-nodes", "50"],
        vec!["--box", "6"],
    ] {
        let run = |extra: &[&str]| {
            shiftgrid()
                .args(["generate", "--seed", "1", "-f", "line"])
                .args(&args)
                .args(extra)
                .assert()
                .success()
                .get_output()
                .stdout
                .clone()
        };
        assert_eq!(run(&["--improve", "0"]), run(&[]), "{args:?}");
    }
}

/// Asserts that DLX (`count --limit 2 --engine dlx`, which shares no code with the
/// generator's proofs) finds exactly one solution of the puzzle `line`.
pub(super) fn assert_unique_by_dlx(line: &str) {
    shiftgrid()
        .args(["count", "-", "--limit", "2", "--stats", "--engine", "dlx"])
        .write_stdin(line.to_string())
        .assert()
        .success()
        .stdout(predicates::str::ends_with("\t1\tunique\n"))
        .stderr(contains("1 solution, dlx: "));
}

/// `generate -f json` names the kind of grid and the symmetry each puzzle was made with,
/// since the defaults differ by size.
#[test]
fn generate_json_names_its_grid_and_symmetry() {
    for (args, grid, symmetry) in [
        (vec![], "random", "rot180"),
        (
            vec!["--grid", "automorphic", "--symmetry", "dihedral"],
            "automorphic",
            "dihedral",
        ),
        (
            vec!["--symmetry", "none", "--method", "expand"],
            "random",
            "none",
        ),
    ] {
        let out = shiftgrid()
            .args(["generate", "--box", "3", "--seed", "2", "-f", "json"])
            .args(&args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            (v["grid"].as_str(), v["symmetry"].as_str()),
            (Some(grid), Some(symmetry)),
            "{args:?}"
        );
    }
}

/// A shard of one puzzle in long CSV carries its number in the `grid` column, like the
/// same puzzle in a larger batch (it used to have no `grid` column at all).
#[test]
fn a_one_puzzle_shard_in_long_csv_keeps_its_number() {
    let run = |count: &str, first: &str| {
        let out = shiftgrid()
            .args([
                "generate",
                "--box",
                "3",
                "--seed",
                "4",
                "-f",
                "csv",
                "--csv-shape",
                "long",
            ])
            .args(["--count", count, "--first-index", first])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let alone = run("1", "5");
    assert!(alone.starts_with("grid,staff,day,shift\n6,"), "{alone}");
    let batch = run("2", "4");
    let sixth: String = batch
        .lines()
        .filter(|l| l.starts_with("6,"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(alone.trim_start_matches("grid,staff,day,shift\n"), sixth);
}
