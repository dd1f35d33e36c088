//! `generate`'s knobs each change what it makes, as `--help` says they do: the order cells
//! are tried in, the search that backs propagation's proofs, the GA's population; its
//! seeds and JSON records repeat a run, and the Kubernetes job's shards make its batch.

use predicates::prelude::*;

use crate::util::shiftgrid;

/// `generate`'s output and `--stats` line for `args`.
fn generate(args: &[&str]) -> (String, String) {
    let out = shiftgrid()
        .args(["generate", "-f", "line", "--stats"])
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr))
}

/// The givens in each band of `b` rows of a line puzzle of side `n`.
fn givens_by_band(line: &str, n: usize, b: usize) -> Vec<usize> {
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cells.len(), n * n, "{line}");
    (0..n / b)
        .map(|k| {
            cells[k * b * n..(k + 1) * b * n]
                .iter()
                .filter(|c| !matches!(**c, "." | "0"))
                .count()
        })
        .collect()
}

/// The number after `key` in a stats line (`630 evaluations` for `" evaluations"`).
fn stat(line: &str, key: &str) -> u64 {
    let before = &line[..line.find(key).unwrap_or_else(|| panic!("{key}: {line}"))];
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

/// Each order gives its own puzzle; at 25×25 `sweep` leaves the middle band far sparser
/// than the outer ones (README's reason for `bands`), which `bands` does not.
#[test]
fn the_order_of_cells_shapes_the_puzzle() {
    let puzzles: Vec<String> = ["bands", "sweep", "random"]
        .iter()
        .map(|o| generate(&["--box", "3", "--seed", "5", "--order", o]).0)
        .collect();
    assert!(puzzles[0] != puzzles[1] && puzzles[1] != puzzles[2] && puzzles[0] != puzzles[2]);
    let at_25 = |order| {
        let args = [
            "--box",
            "5",
            "--seed",
            "1",
            "--improve",
            "0",
            "--order",
            order,
        ];
        givens_by_band(&generate(&args).0, 25, 5)
    };
    let (sweep, bands) = (at_25("sweep"), at_25("bands"));
    assert!(2 * sweep[2] < sweep[0] + sweep[4] - 20, "sweep {sweep:?}");
    let spread = |v: &[usize]| v.iter().max().unwrap() - v.iter().min().unwrap();
    assert!(
        spread(&bands) < spread(&sweep),
        "bands {bands:?}, sweep {sweep:?}"
    );
}

/// `--search-nodes` backs the removals propagation cannot prove with a bounded search
/// (`--stats` counts them), and what it proves that way holds: the learning engine, which
/// that path does not use, finds the puzzle unique.
#[test]
fn search_nodes_prove_removals_that_hold() {
    for (b, seed) in [("5", "1"), ("6", "1")] {
        let (none, _) = generate(&["--box", b, "--seed", seed, "--search-nodes", "0"]);
        let (line, stats) = generate(&["--box", b, "--seed", seed, "--search-nodes", "100"]);
        assert!(stat(&stats, " by search") > 0, "{stats}");
        assert_ne!(line, none);
        shiftgrid()
            .args(["count", "-", "--limit", "2", "--engine", "learn"])
            .write_stdin(line)
            .assert()
            .success()
            .stdout(predicate::str::ends_with("\t1\tunique\n"));
    }
}

/// A larger population evaluates more individuals over the same generations.
#[test]
fn the_population_sets_the_work_per_generation() {
    let evaluations = |p: &str| {
        let args = [
            "--box",
            "3",
            "--seed",
            "1",
            "--level",
            "3",
            "--generations",
            "20",
        ];
        let (_, stats) = generate(&[&args[..], &["--population", p]].concat());
        assert_eq!(stat(&stats, " generations"), 20, "{stats}");
        stat(&stats, " evaluations")
    };
    let (small, large) = (evaluations("4"), evaluations("16"));
    assert!(large > 2 * small, "{small} and {large} evaluations");
}

/// A record's `"seed"` is a string of digits (a batch's seeds use all 64 bits, which jq
/// and JavaScript would round to another seed), and `--seed` that string makes the same
/// grid again: for a seed picked at random, and for every grid of a `fill` or `generate`
/// batch.
#[test]
fn json_seeds_repeat_the_grid() {
    let records = |args: &[&str]| -> Vec<serde_json::Value> {
        let out = shiftgrid()
            .args(args)
            .args(["-f", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::Deserializer::from_slice(&out.stdout)
            .into_iter()
            .map(Result::unwrap)
            .collect()
    };
    let mut runs = vec![];
    for _ in 0..4 {
        runs.push(records(&["generate", "--box", "2"]));
    }
    runs.push(records(&[
        "generate", "--box", "2", "--seed", "1", "--count", "4",
    ]));
    runs.push(records(&[
        "fill", "--box", "2", "--seed", "1", "--count", "4",
    ]));
    let mut seeds = std::collections::HashSet::new();
    for (run, command) in runs.iter().zip(["generate"; 5].iter().chain(&["fill"])) {
        for record in run {
            let seed = record["seed"].as_str().expect("a string");
            assert!(seed.parse::<u64>().is_ok(), "{seed}");
            seeds.insert(seed.to_string());
            // One fill worker, as a batch's grids are each made (a lone fill's grid
            // depends on the thread count).
            let twin = &records(&[command, "-j", "1", "--box", "2", "--seed", seed])[0];
            assert_eq!(twin["cells"], record["cells"], "{command} {seed}");
            assert_eq!(twin["seed"], record["seed"]);
        }
    }
    // Four random seeds and the four of the batch of seed 1 (fill's and generate's alike).
    assert!(seeds.len() >= 8, "{seeds:?}");
    // Batches use seeds beyond a double's integers: the case the string is for.
    assert!(seeds.iter().any(|s| s.parse::<u64>().unwrap() > 1 << 53));
}

/// Without `--stats` a JSON record holds no timing: the same seed writes the same bytes,
/// by every method; with it, the record says how long the puzzle took.
#[test]
fn json_records_repeat_byte_for_byte_without_stats() {
    for method in ["prove", "expand", "ga"] {
        let run = |stats: bool| {
            let mut cmd = shiftgrid();
            cmd.args(["generate", "--box", "3", "--seed", "7", "-f", "json"])
                .args(["--method", method]);
            if method == "ga" {
                cmd.args(["--level", "3", "--generations", "5"]);
            }
            if stats {
                cmd.arg("--stats");
            }
            let out = cmd.output().unwrap();
            assert!(out.status.success(), "{method}: {out:?}");
            out.stdout
        };
        let first = run(false);
        assert_eq!(first, run(false), "{method}");
        assert!(
            !String::from_utf8_lossy(&first).contains("micros"),
            "{method}"
        );
        // Once: prove's in its `stats` object, expand's and ga's beside their level.
        assert_eq!(
            String::from_utf8_lossy(&run(true))
                .matches("\"micros\":")
                .count(),
            1,
            "{method}"
        );
    }
}

/// The Kubernetes job's shell line (`deploy/generate-indexed-job.yaml`), run by hand for
/// three shards of one puzzle: they merge into the bytes of one run of the whole batch,
/// and only whole shards get the name the merge reads.
#[cfg(unix)]
#[test]
fn the_indexed_jobs_shards_merge_into_the_batch() {
    let yaml =
        std::fs::read_to_string(crate::util::repo("deploy/generate-indexed-job.yaml")).unwrap();
    // The folded `>-` scalar after `args:`: its lines joined by spaces.
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "- >-").unwrap() + 1;
    let script: Vec<&str> = lines[start..]
        .iter()
        .take_while(|l| !l.trim_end().ends_with(':'))
        .map(|l| l.trim())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    // Three generations, not the default 9x9 budget (a minute for three puzzles): the
    // shards must merge into the batch whatever the budget.
    let script = script
        .join(" ")
        .replace("/book", dir.path().to_str().unwrap())
        .replace("--level 5", "--level 5 --generations 3");
    assert!(script.contains("--generations 3"), "{script}");
    let bin = assert_cmd::cargo::cargo_bin("shiftgrid");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for k in 0..3 {
        let status = std::process::Command::new("sh")
            .args(["-c", &script])
            .env("PATH", &path)
            .env("JOB_COMPLETION_INDEX", k.to_string())
            .env("PER_SHARD", "1")
            .env("SEED", "2024")
            .status()
            .unwrap();
        assert!(status.success(), "shard {k}: {script}");
    }
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["shard-000.txt", "shard-001.txt", "shard-002.txt"]);
    let merged: String = names
        .iter()
        .map(|n| std::fs::read_to_string(dir.path().join(n)).unwrap())
        .collect();
    let whole = shiftgrid()
        .args([
            "generate",
            "--box",
            "3",
            "--level",
            "5",
            "--generations",
            "3",
        ])
        .args(["--seed", "2024"])
        .args(["--count", "3", "-f", "line"])
        .output()
        .unwrap();
    assert_eq!(merged, String::from_utf8(whole.stdout).unwrap());
}

/// A lone `fill` without `--seed` prints the flags that repeat it, the thread count
/// included (its grid depends on it), and they do; a batch's grids do not depend on it.
#[test]
fn the_printed_seed_repeats_a_fill() {
    for (threads, count) in [("3", "1"), ("1", "1"), ("2", "2")] {
        let out = shiftgrid()
            .args(["fill", "--box", "4", "-j", threads, "-n", count])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        let flags = err
            .split("(repeat with ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("{err}"));
        let words: Vec<&str> = flags.split(' ').collect();
        assert_eq!(words.len(), if count == "1" { 4 } else { 2 }, "{flags}");
        // Another thread count where the printed flags name none.
        let other: &[&str] = if words.contains(&"-j") {
            &[]
        } else {
            &["-j", "4"]
        };
        let again = shiftgrid()
            .args(["fill", "--box", "4", "-n", count])
            .args(other)
            .args(&words)
            .output()
            .unwrap();
        assert_eq!(again.stdout, out.stdout, "{flags}");
    }
}

/// `RAYON_NUM_THREADS` sets the thread count when `--threads` is not given, checked as
/// `--threads` is: a lone fill under it is the fill of that `-j`, and `-j` wins over it.
#[test]
fn rayon_num_threads_is_a_checked_default() {
    let fill = |env: Option<&str>, flags: &[&str]| {
        let mut cmd = shiftgrid();
        cmd.env_remove("RAYON_NUM_THREADS");
        if let Some(v) = env {
            cmd.env("RAYON_NUM_THREADS", v);
        }
        cmd.args(flags)
            .args(["fill", "--box", "7", "--seed", "7"])
            .output()
            .unwrap()
    };
    let one = fill(None, &["-j", "1"]).stdout;
    let two = fill(None, &["-j", "2"]).stdout;
    assert_ne!(
        one, two,
        "seed 7 at 49x49 differs between one and two threads"
    );
    assert_eq!(fill(Some("1"), &[]).stdout, one);
    assert_eq!(fill(Some("1"), &["-j", "2"]).stdout, two);
    assert_eq!(fill(Some("2"), &[]).stdout, two);
    for bad in ["abc", "300"] {
        let out = fill(Some(bad), &[]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("RAYON_NUM_THREADS"),
            "{bad}"
        );
    }
}
