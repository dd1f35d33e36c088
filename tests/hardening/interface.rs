//! Issue 14 (hardening), items 6 to 9: thread limits, progress (on a terminal:
//! `terminal.rs`), round trips and one error style, and the peer sets CI requires.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{repo, shiftgrid};

// ---- 6. --threads ----

#[test]
fn issue14_6_absurd_thread_counts_are_refused() {
    for t in ["2000", "100000", "257"] {
        shiftgrid()
            .args(["-j", t, "fill", "--box", "3"])
            .assert()
            .code(2)
            .stderr(contains("more than the 256 allowed"));
    }
    shiftgrid()
        .args(["-j", "16", "fill", "--box", "3", "--seed", "2"])
        .assert()
        .success();
}

// ---- 7. progress (on a terminal: `terminal.rs`) ----

#[test]
fn issue14_7_parallel_fill_publishes_progress_during_a_round() {
    use shiftgrid::Shape;
    use shiftgrid::generate::fill::{FillConfig, fill_grid};
    use shiftgrid::solve::SearchControl;
    use std::sync::atomic::Ordering;
    // One round for the whole fill: before the fix the counters stayed 0 until the grid was
    // done. Stop as soon as any progress shows: the fill must then give up (None).
    let control = SearchControl::default();
    let config = FillConfig {
        workers: 2,
        round_nodes: u64::MAX / 4,
        ..FillConfig::new(5)
    };
    let watcher = {
        let control = control.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(60) {
                if control.nodes.load(Ordering::Relaxed) > 0
                    && control.placed.load(Ordering::Relaxed) > 0
                {
                    control.interrupt.store(true, Ordering::Relaxed);
                    return true;
                }
                std::thread::yield_now();
            }
            false
        })
    };
    let filled = fill_grid(Shape::new(10).unwrap(), &config, &control);
    control.interrupt.store(true, Ordering::Relaxed);
    assert!(watcher.join().unwrap(), "no progress was published");
    assert!(
        filled.is_none(),
        "the fill finished before publishing any progress"
    );
}

// ---- 8. round trips and one error style ----

#[test]
fn issue14_8_json_output_reads_back_everywhere() {
    let generated = shiftgrid()
        .args([
            "generate", "--box", "3", "--seed", "4", "-f", "json", "-n", "3",
        ])
        .output()
        .unwrap()
        .stdout;
    let solved = shiftgrid()
        .args(["solve", "-", "-f", "json"])
        .write_stdin(generated.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&solved)
            .matches("\"unique\"")
            .count(),
        3
    );
    // solve's own JSON (the solution field) reads back as full grids.
    shiftgrid()
        .args(["count", "-"])
        .write_stdin(solved)
        .assert()
        .success()
        .stdout(contains("\t1\tunique").count(3));
    // fill's JSON, grade and export read it too.
    let filled = shiftgrid()
        .args(["fill", "--box", "2", "--seed", "4", "-f", "json", "-n", "2"])
        .output()
        .unwrap()
        .stdout;
    shiftgrid()
        .args(["grade", "-"])
        .write_stdin(filled.clone())
        .assert()
        .success();
    shiftgrid()
        .args(["export", "-", "--csv-shape", "long"])
        .write_stdin(filled)
        .assert()
        .success()
        .stdout(contains("grid,staff,day,shift"));
    // generate --solution -f json reads as the puzzle; a bad record names its line.
    let with_solution = shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--seed",
            "4",
            "-f",
            "json",
            "--solution",
        ])
        .output()
        .unwrap()
        .stdout;
    let mut input = with_solution.clone();
    input.extend_from_slice(b"{\"cells\": [[1, 2], [3]]}\n{\"index\": 7}\n");
    shiftgrid()
        .args(["count", "-"])
        .write_stdin(input)
        .assert()
        .code(65)
        .stdout(contains("1\t1\t1\tunique"))
        .stderr(
            contains("shiftgrid: error: <stdin>:2:11: unsupported size").and(contains(
                "<stdin>:3:1: bad JSON record: no puzzle in this record",
            )),
        );
}

#[test]
fn issue14_8_grade_explain_speaks_the_roster_names() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("staff.txt"), "Ann\nBob\nCy\nDee\n").unwrap();
    fs::write(dir.path().join("days.txt"), "Mon\nTue\nWed\nThu\n").unwrap();
    fs::write(dir.path().join("shifts.txt"), "Early\nLate\nNight\nOff\n").unwrap();
    let roster = "staff,Mon,Tue,Wed,Thu\nAnn,Early,,,Off\nBob,,,Early,\nCy,,Early,,\nDee,Off,,,\n";
    fs::write(dir.path().join("r.csv"), roster).unwrap();
    let out = shiftgrid()
        .current_dir(dir.path())
        .args(["grade", "--explain", "r.csv"])
        .args([
            "--staff",
            "staff.txt",
            "--days",
            "days.txt",
            "--shifts",
            "shifts.txt",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let log: Vec<&str> = text.lines().filter(|l| l.starts_with("  step")).collect();
    assert!(!log.is_empty(), "{text}");
    for l in &log {
        for k in 1..=4 {
            for word in ["staff", "day", "shift"] {
                assert!(!l.contains(&format!("{word} {k}")), "{l}");
            }
        }
    }
    assert!(
        log.iter().any(|l| l.contains("Dee / Thu gets Early")),
        "{text}"
    );
    // A contradiction names them too.
    let bad = "staff,Mon,Tue,Wed,Thu\nAnn,Early,Late,Night,\nBob,,,,Off\nCy,,,,\nDee,,,,\n";
    fs::write(dir.path().join("bad.csv"), bad).unwrap();
    shiftgrid()
        .current_dir(dir.path())
        .args(["grade", "bad.csv"])
        .args([
            "--staff",
            "staff.txt",
            "--days",
            "days.txt",
            "--shifts",
            "shifts.txt",
        ])
        .assert()
        .code(1)
        .stderr(contains("Ann / Thu has no shift left"));
}

#[test]
fn issue14_8_every_error_has_the_same_prefix() {
    for (args, input) in [
        (vec!["solve", "-"], "1234\n"),
        (vec!["count", "-"], "1..4........4..5\n1..4........4..1\n"),
        (vec!["grade", "-"], "\u{1}\n"),
        (vec!["render", "-"], "12\n"),
        (vec!["export", "-"], "staff,a\n"),
    ] {
        let out = shiftgrid().args(&args).write_stdin(input).output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?}: no error");
        for line in err.lines() {
            assert!(line.starts_with("shiftgrid: error: "), "{args:?}: {line}");
        }
    }
    shiftgrid()
        .args(["render", "--help"])
        .assert()
        .success()
        .stdout(contains("Not with --solve"));
    // Command-line errors (clap's) and refused values carry it too.
    for args in [
        &["solve", "--bogus"][..],
        &["generate", "--box", "3", "--seed", "1", "--givens", "81"][..],
    ] {
        shiftgrid()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("shiftgrid: error: "));
    }
    // --givens at or past the cell count says which, with the most there can be.
    for (k, says) in [
        ("81", "asks for no blank cell"),
        ("99999", "is more than the cells"),
    ] {
        shiftgrid()
            .args(["generate", "--box", "3", "--givens", k])
            .assert()
            .code(2)
            .stderr(contains(says).and(contains("(at most 80 givens)")));
    }
    // A missing output directory is named, not the temporary file inside it.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("missing").join("x.txt");
    shiftgrid()
        .args(["fill", "--box", "2", "-o"])
        .arg(&out)
        .assert()
        .code(74)
        .stderr(
            contains("missing is not a directory that exists").and(contains(".shiftgrid-").not()),
        );
}

// ---- 9. peer sets required in CI ----

#[test]
#[should_panic(expected = "SHIFTGRID_REQUIRE_PEERS")]
fn issue14_9_missing_peer_sets_fail_when_required() {
    crate::util::peers_at(Path::new("/nonexistent/shared/peers"), true);
}

#[test]
fn issue14_9_ci_requires_the_peer_sets() {
    let ci = fs::read_to_string(repo(".ci/run")).unwrap();
    assert!(ci.contains("export SHIFTGRID_REQUIRE_PEERS=1"), "{ci}");
    assert!(crate::util::peers_at(Path::new("/nonexistent/shared/peers"), false).is_none());
}

/// The binary run with `args` under an address-space limit of `bytes` (`prlimit --as`, as
/// `ulimit -v` sets it); `None`, with a note, where prlimit is missing.
#[cfg(target_os = "linux")]
fn under_address_limit(bytes: u64, args: &[&str]) -> Option<std::process::Output> {
    under_limit(&format!("--as={bytes}"), args)
}

/// The binary run with `args` under the `prlimit` limit `limit` (`--fsize=1000`, …);
/// `None`, with a note, where prlimit is missing.
#[cfg(target_os = "linux")]
fn under_limit(limit: &str, args: &[&str]) -> Option<std::process::Output> {
    let out = std::process::Command::new("prlimit")
        .arg(limit)
        .arg(super::binary())
        .args(args)
        .output();
    if out.is_err() {
        eprintln!("note: no prlimit here; skipping a test under {limit}");
    }
    out.ok()
}

/// Under an address-space limit (`ulimit -v`, as a memory-capped job sets), `fill` at
/// 100x100 on more threads than fit is refused before any work, naming the limit, with the
/// out-of-resources status 71; before, an allocation failed and the process aborted
/// (status 134) with a backtrace.
#[cfg(target_os = "linux")]
#[test]
fn fill_refuses_threads_beyond_the_address_space_limit() {
    let args = [
        "-q",
        "-j",
        "16",
        "fill",
        "--box",
        "10",
        "--seed",
        "1",
        "-o",
        "/dev/null",
    ];
    let Some(out) = under_address_limit(800_000_000, &args) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(71), "{stderr}");
    assert!(
        stderr.contains("ulimit -v") && stderr.contains("--threads"),
        "{stderr}"
    );
    // The threads it names fit: the allocator keeps one arena under the limit, where it
    // reserved 64 MB a thread (8 threads, which fit now, aborted under 800 MB).
    let fit = stderr
        .split("use --threads ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .unwrap();
    assert!(fit.parse::<u32>().unwrap() >= 8, "{stderr}");
    let mut args = args;
    args[2] = fit;
    let out = under_address_limit(800_000_000, &args).unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// Under an address-space limit that holds fewer puzzles than threads, a `generate` batch
/// from 64x64 up makes as many at a time as fit, and the same puzzles as without the
/// limit; before, an allocation failed and the process aborted (status 134).
#[cfg(target_os = "linux")]
#[test]
fn generate_makes_fewer_puzzles_at_once_under_an_address_space_limit() {
    let args = [
        "-j", "8", "generate", "--box", "8", "--seed", "1", "-n", "8", "-f", "line",
    ];
    let Some(out) = under_address_limit(900_000_000, &args) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(" at a time, not 8"), "{stderr}");
    let free = shiftgrid().args(args).output().unwrap();
    assert_eq!(out.stdout, free.stdout);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 8);
}

/// A roster CSV is read whole: one too large for the memory left is refused before it is
/// read, saying why (status 71), where a failed allocation aborted the run (status 134).
#[cfg(target_os = "linux")]
#[test]
fn a_roster_csv_too_large_to_read_whole_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.csv");
    let mut text = String::from("grid,staff,day,shift\n");
    while text.len() < 32 << 20 {
        text.push_str("1,1,1,1\n");
    }
    fs::write(&file, text).unwrap();
    let Some(out) = under_address_limit(500_000_000, &["-q", "count", file.to_str().unwrap()])
    else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(71), "{stderr}");
    assert!(
        stderr.contains("lines, read whole") && stderr.contains("ulimit -v"),
        "{stderr}"
    );
}

/// A run that runs out of memory or threads where nothing weighed its needs first
/// (`solve` racing its engines on a sparse 100x100 board under `ulimit -v`) ends with one
/// line and status 71, and writes no output file; before, a failed allocation aborted it
/// (status 134) with a backtrace, and a thread that could not start panicked (101).
#[cfg(target_os = "linux")]
#[test]
fn running_out_of_memory_or_threads_is_one_line_and_status_71() {
    let dir = tempfile::tempdir().unwrap();
    let grid = shiftgrid()
        .args(["fill", "--box", "10", "--seed", "1", "-f", "line"])
        .output()
        .unwrap();
    assert!(grid.status.success());
    // Nine cells in ten blank.
    let sparse: String = String::from_utf8(grid.stdout)
        .unwrap()
        .split_whitespace()
        .enumerate()
        .map(|(i, v)| if i % 10 == 3 { v } else { "0" })
        .collect::<Vec<_>>()
        .join(" ");
    let input = dir.path().join("sparse.txt");
    fs::write(&input, sparse + "\n").unwrap();
    let output = dir.path().join("out.txt");
    // Either an allocation fails or a thread cannot start, whichever comes first at each
    // limit (the run needs about 800 MB).
    for limit in [100_000_000, 150_000_000, 250_000_000] {
        let Some(out) = under_address_limit(
            limit,
            &[
                "-q",
                "solve",
                "--first",
                input.to_str().unwrap(),
                "-o",
                output.to_str().unwrap(),
            ],
        ) else {
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(71), "{limit}: {stderr}");
        assert!(
            (stderr.starts_with("shiftgrid: error: out of memory: an allocation of ")
                || stderr.starts_with("shiftgrid: error: a worker thread could not start ("))
                && stderr.contains("ulimit -v")
                && stderr.lines().count() == 1,
            "{limit}: {stderr}"
        );
        assert!(!output.exists());
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "only the input is left"
        );
    }
}

/// `solve -o target` of top95 under the `prlimit` limit `limit` (see [`under_limit`]).
#[cfg(target_os = "linux")]
fn top95_solved_under(limit: &str, target: &std::path::Path) -> Option<std::process::Output> {
    let top95 = crate::util::repo("grids/top95.txt");
    let target = target.to_str().unwrap();
    under_limit(
        limit,
        &["-q", "solve", "-o", target, top95.to_str().unwrap()],
    )
}

/// Under a file-size limit (`ulimit -f`) an output past it is a failed write (status 74,
/// one line, no temporary file left, the old target kept); before, SIGXFSZ killed the run
/// (status 153) with nothing said and a temporary file cut at the limit left behind.
#[cfg(target_os = "linux")]
#[test]
fn an_output_past_the_file_size_limit_is_a_failed_write() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("solved.txt");
    fs::write(&target, "old\n").unwrap();
    let Some(out) = top95_solved_under("--fsize=1000", &target) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{stderr}");
    assert!(
        stderr.starts_with("shiftgrid: error: cannot write ")
            && stderr.contains("File too large")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    // Output past 16 MiB waits in a temporary file beside the target, which the limit
    // stops first: the error names where (it was "File too large" alone). 100 copies of a
    // 100x100 grid make 24 MB of long CSV.
    let grid = crate::util::shiftgrid()
        .args(["fill", "--box", "10", "--seed", "1", "-f", "line"])
        .output()
        .unwrap();
    let batch = dir.path().join("batch.txt");
    fs::write(&batch, grid.stdout.repeat(100)).unwrap();
    let args = ["-q", "export", "--csv-shape", "long", "-o"];
    let paths = [target.to_str().unwrap(), batch.to_str().unwrap()];
    let Some(out) = under_limit("--fsize=1000000", &[&args[..], &paths].concat()) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{stderr}");
    let place = dir.path().display();
    assert!(
        stderr.contains(&format!(
            "cannot write the temporary file that holds the output past 16 MiB until the run \
             ends, in {place}: File too large"
        )),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
}

/// A low soft limit on open files (`ulimit -Sn 6`, the hard limit higher) is raised as far
/// as the hard limit allows: before, the run did all its work and then failed to write
/// its output (status 74).
#[cfg(target_os = "linux")]
#[test]
fn a_low_soft_limit_on_open_files_is_raised() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("solved.txt");
    let Some(out) = top95_solved_under("--nofile=6:1024", &target) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        fs::read_to_string(&target).unwrap().split("\n\n").count(),
        95
    );
}

// ---- 5. bounded messages (the rest of item 5 is in hardening.rs) ----

#[test]
fn issue14_5_messages_quote_a_short_prefix_of_a_bad_field() {
    let token = "z".repeat(500_000);
    for (input, extra) in [
        (format!("1 2 3 {token}\n"), vec![]),
        (format!("staff,day,shift\n{token},1,1\n"), vec![]),
        (format!("staff,day,shift\n1,1,{token}\n"), vec![]),
        (
            format!("{{\"cells\":[\"{token}\"]}}\n"),
            vec!["--input-format", "auto"],
        ),
    ] {
        let out = shiftgrid()
            .args(["count", "-"])
            .args(extra)
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(65));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.len() < 600, "{} bytes: {}", err.len(), &err[..300]);
    }
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("names.txt"), format!("A\n={token}\n")).unwrap();
    shiftgrid()
        .current_dir(dir.path())
        .args(["fill", "--box", "2", "-f", "csv", "--staff", "names.txt"])
        .assert()
        .code(65)
        .stderr(contains("(500001 characters)").and(predicate::function(|s: &str| s.len() < 600)));
}

/// Help and version that cannot be written (a full device) are an I/O error, status 74,
/// as any other output's; they exited 0 with nothing written.
#[cfg(unix)]
#[test]
fn help_that_cannot_be_written_is_an_io_error() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["help", "solve"],
        &["count", "-h"],
    ] {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("shiftgrid"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(74), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("cannot write the help"),
            "{args:?}"
        );
    }
    shiftgrid().arg("--help").assert().success();
}
