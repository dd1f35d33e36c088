//! Regression tests for issue 14 (hardening): output files, Ctrl-C, bounded memory, no
//! panics, thread limits, progress, round trips. Each test is named after the item it covers.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{independently_valid, repo, shiftgrid};

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("shiftgrid")
}

/// Every entry of a directory, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `top95` repeated `times`: a batch that takes seconds to solve.
fn big_batch(dir: &Path, times: usize) -> PathBuf {
    let top = fs::read_to_string(repo("grids/top95.txt")).unwrap();
    let path = dir.join("big.txt");
    fs::write(&path, top.repeat(times)).unwrap();
    path
}

// ---- 1. -o onto special files and symlinks ----

#[cfg(unix)]
#[test]
fn issue14_1_output_writes_into_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        StdCommand::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        // Opening a FIFO blocks until a writer comes; the old behaviour never came.
        std::thread::spawn(move || {
            let mut text = String::new();
            let r = fs::File::open(fifo).and_then(|mut f| f.read_to_string(&mut text));
            let _ = tx.send(r.map(|_| text));
        });
    }
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-o"])
        .arg(&fifo)
        .assert()
        .success();
    let text = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the FIFO's reader got the output")
        .unwrap();
    let cells: Vec<u8> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(independently_valid(4, &cells), "{text}");
    let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
}

#[cfg(unix)]
#[test]
fn issue14_1_output_follows_a_symlink_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/out.txt");
    fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real/out.txt", &link).unwrap();
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-f", "line", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    let line = fs::read_to_string(&target).unwrap();
    assert_eq!(line.trim().len(), 16, "{line}");
    // The temporary file went next to the target and is gone.
    assert_eq!(entries(&dir.path().join("real")), ["out.txt"]);
}

// ---- 2. name files are inputs ----

#[test]
fn issue14_2_output_never_overwrites_a_name_file() {
    let dir = tempfile::tempdir().unwrap();
    let names: String = (1..=9).map(|k| format!("Person {k}\n")).collect();
    let staff = dir.path().join("s.txt");
    fs::write(&staff, &names).unwrap();
    for flag in ["--staff", "--days", "--shifts"] {
        shiftgrid()
            .current_dir(dir.path())
            .args([
                "fill", "--box", "3", "-f", "csv", flag, "s.txt", "-o", "s.txt",
            ])
            .assert()
            .code(2)
            .stderr(contains("refusing to overwrite the input file s.txt"));
        // Through another path to the same file, too.
        shiftgrid()
            .current_dir(dir.path())
            .args(["generate", "--box", "3", "-f", "csv", flag, "s.txt", "-o"])
            .arg(dir.path().join(".").join("s.txt"))
            .assert()
            .code(2)
            .stderr(contains("refusing to overwrite"));
        assert_eq!(fs::read_to_string(&staff).unwrap(), names);
    }
    // solve and export read name files for roster output too.
    fs::write(dir.path().join("p.txt"), "1..4........4..1\n").unwrap();
    let four: String = (1..=4).map(|k| format!("N{k}\n")).collect();
    fs::write(dir.path().join("four.txt"), &four).unwrap();
    for cmd in ["solve", "export"] {
        shiftgrid()
            .current_dir(dir.path())
            .args([cmd, "p.txt", "--days", "four.txt", "-o", "four.txt"])
            .args(if cmd == "export" {
                vec![]
            } else {
                vec!["--first", "-f", "csv"]
            })
            .assert()
            .code(2)
            .stderr(contains("refusing to overwrite the input file four.txt"));
        assert_eq!(
            fs::read_to_string(dir.path().join("four.txt")).unwrap(),
            four
        );
    }
}

// ---- 3. Ctrl-C ----

/// Sends SIGINT to `child` (through `kill`, which every Unix has), `presses` times.
fn interrupt(child: &Child, presses: usize) {
    // Separate `kill` calls (two signals pending at once would merge into one), with no
    // pause between: a command can stop within milliseconds of the first press.
    for _ in 0..presses {
        let ok = StdCommand::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -INT failed");
    }
}

/// Waits for `child` at most `limit`; its exit code and how long it took.
fn wait_for(child: &mut Child, limit: Duration) -> (Option<i32>, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {limit:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Starts `args` writing to `out`, lets it work for `after`, presses Ctrl-C and checks that
/// it stopped within a second with status 130, left no file, and said so on stderr.
fn assert_stops_on_ctrl_c(args: &[&str], dir: &Path, after: Duration, presses: usize) -> String {
    let out = dir.join("out.txt");
    let mut child = StdCommand::new(binary())
        .current_dir(dir)
        .arg("--quiet")
        .args(args)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before Ctrl-C: make its work longer"
    );
    interrupt(&child, presses);
    let (code, took) = wait_for(&mut child, Duration::from_secs(10));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(130), "{args:?}: {stderr}");
    assert!(
        took < Duration::from_secs(1),
        "{args:?} took {took:?} to stop"
    );
    if args[0] == "generate" {
        // generate keeps the puzzles it finished (each proven unique): whole grids only.
        if let Ok(text) = fs::read_to_string(&out) {
            for grid in text.split("\n\n").filter(|g| !g.trim().is_empty()) {
                assert_eq!(grid.lines().count(), 16, "{grid}");
            }
        }
    } else {
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let left: Vec<String> = entries(dir)
        .into_iter()
        .filter(|e| e.starts_with(".shiftgrid-"))
        .collect();
    assert!(left.is_empty(), "{args:?} left {left:?}");
    assert!(stderr.contains("shiftgrid: interrupted"), "{stderr}");
    stderr
}

#[cfg(unix)]
#[test]
fn issue14_3_ctrl_c_stops_every_long_command_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_batch(dir.path(), 3000);
    let big = big.to_str().unwrap();
    let wait = Duration::from_millis(600);
    for args in [
        vec!["solve", big],
        vec!["count", big],
        vec!["grade", big],
        vec!["export", "--csv-shape", "long", big],
        vec!["fill", "--box", "10", "-n", "64"],
        vec!["generate", "--box", "4", "-n", "400", "--seed", "3"],
    ] {
        assert_stops_on_ctrl_c(&args, dir.path(), wait, 1);
    }
}

#[cfg(unix)]
#[test]
fn issue14_3_second_ctrl_c_says_it_exits_at_once() {
    // Both presses land microseconds apart, but a loaded machine can still run the whole
    // first stop in between: the second press must be seen in one of three tries.
    let mut seen = Vec::new();
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let stderr = assert_stops_on_ctrl_c(
            &["fill", "--box", "10", "-n", "64"],
            dir.path(),
            Duration::from_millis(400),
            2,
        );
        if stderr.contains("interrupted again: exiting at once") {
            return;
        }
        seen.push(stderr);
    }
    panic!("no try announced the second Ctrl-C: {seen:?}");
}

// ---- 4. no panics ----

#[test]
fn issue14_4_absurd_flag_values_are_refused_not_panics() {
    shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--time-limit",
            "20000000000000000000s",
        ])
        .assert()
        .code(2)
        .stderr(contains("too long"));
    for limit in ["1e300s", "99999999999h", "inf", "-1s", "NaNs"] {
        let out = shiftgrid()
            .args(["generate", "--box", "2", "--time-limit", limit])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{limit}");
    }
    // A long but representable limit runs.
    shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--seed",
            "1",
            "--time-limit",
            "8760h",
        ])
        .assert()
        .success();
}

#[cfg(unix)]
#[test]
fn issue14_4_unwritable_stderr_is_no_panic() {
    let full = || {
        Stdio::from(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    let run = |args: &[&str], stdin: &str| {
        let mut child = StdCommand::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full())
            .spawn()
            .unwrap();
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
        child.wait().unwrap().code()
    };
    // Errors, notes, the seed line and per-puzzle messages all go to stderr.
    assert_eq!(run(&["solve", "-"], "x\n"), Some(65));
    assert_eq!(run(&["solve", "-"], "................\n"), Some(1));
    assert_eq!(
        run(&["count", "--stats", "-"], "1..4........4..1\n"),
        Some(1)
    );
    assert_eq!(run(&["fill", "--box", "2", "--stats"], ""), Some(0));
    assert_eq!(run(&["generate", "--box", "2", "--stats"], ""), Some(0));
    assert_eq!(run(&["grade", "-"], "123....4........\n"), Some(1));
    assert_eq!(run(&["frobnicate"], ""), Some(2));
}

// ---- 5. bounded memory ----

/// Runs the binary with `args` under a 256 MiB address-space cap (the old readers needed
/// gigabytes for these inputs); gives the exit code and stderr.
#[cfg(target_os = "linux")]
fn capped(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let out = StdCommand::new("prlimit")
        .arg(format!("--as={}", 256u64 << 20))
        .arg(binary())
        .arg("--quiet")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("prlimit runs (util-linux)");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn issue14_5_inputs_are_read_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // `yes 1`: 30 MB of one-character lines.
    fs::write(d.join("yes.txt"), "1\n".repeat(15_000_000)).unwrap();
    let (code, err) = capped(&["count", "yes.txt"], d);
    assert_eq!(code, Some(65), "{err}");
    assert!(err.lines().count() < 5, "{err}");
    // Many bad puzzles: each reported, memory flat.
    let bad: String = (0..200_000).map(|_| "1..4........4..5\n").collect();
    fs::write(d.join("bad.txt"), bad).unwrap();
    let (code, _) = capped(&["count", "bad.txt"], d);
    assert_eq!(code, Some(65));
    // A long CSV with its error on line 3 stops there.
    let mut long = String::from("staff,day,shift\n1,1,1\nNobody,1,2\n");
    long.push_str(&"2,3,4\n".repeat(3_000_000));
    fs::write(d.join("long.csv"), long).unwrap();
    let (code, err) = capped(&["count", "long.csv"], d);
    assert_eq!(code, Some(65), "{err}");
    assert!(
        err.contains("long.csv:3:1: unknown staff \"Nobody\""),
        "{err}"
    );
    // One 20 MB line, as CSV and as text: refused at 1 MiB, with a short message.
    let line = format!("staff,{}\n", "x".repeat(20_000_000));
    fs::write(d.join("line.csv"), &line).unwrap();
    fs::write(d.join("line.txt"), &line[6..]).unwrap();
    for (file, what) in [("line.csv", "roster"), ("line.txt", "puzzle")] {
        let (code, err) = capped(&["count", file], d);
        assert_eq!(code, Some(65), "{err}");
        assert!(
            err.contains(&format!(
                "{file}:1:1: line is longer than 1 MiB (1048576 bytes): not a {what} file"
            )),
            "{err}"
        );
        assert!(err.len() < 400, "{err}");
    }
    // Name files: an endless one stops at 1 MiB.
    let (code, err) = capped(
        &["fill", "--box", "2", "-f", "csv", "--shifts", "/dev/zero"],
        d,
    );
    assert_eq!(code, Some(65), "{err}");
    assert!(
        err.contains("/dev/zero:1:1: line is longer than 1 MiB"),
        "{err}"
    );
    // A big valid batch solves under the cap too (read and solved a chunk at a time).
    let batch = big_batch(d, 300);
    let (code, err) = capped(&["solve", batch.to_str().unwrap(), "-o", "solved.txt"], d);
    assert_eq!(code, Some(0), "{err}");
    let solved = fs::read_to_string(d.join("solved.txt")).unwrap();
    assert_eq!(solved.split("\n\n").count(), 95 * 300);
}

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
        .stderr(contains("(500001 bytes)").and(predicate::function(|s: &str| s.len() < 600)));
}

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

// ---- 7. progress ----

/// Runs `command` under `script` (a terminal for stderr); everything it showed.
#[cfg(target_os = "linux")]
fn on_a_terminal(dir: &Path, command: &str) -> String {
    let out = StdCommand::new("script")
        .args(["-qec", command, "/dev/null"])
        .current_dir(dir)
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script runs (util-linux)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[cfg(target_os = "linux")]
#[test]
fn issue14_7_long_commands_end_with_a_summary_line_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let b = binary();
    let b = b.display();
    fs::copy(repo("grids/top95.txt"), dir.path().join("top95.txt")).unwrap();
    for (cmd, want) in [
        (
            format!("{b} fill --box 3 --seed 1 -o f.txt"),
            "shiftgrid: filled 1 9x9 grid in ",
        ),
        (
            format!("{b} generate --box 3 --seed 1 -o g.txt"),
            "shiftgrid: generated 1 9x9 puzzle in ",
        ),
        (
            format!("{b} solve top95.txt -o s.txt"),
            "shiftgrid: solved 95 puzzles in ",
        ),
        (
            format!("{b} count top95.txt -o c.txt"),
            "shiftgrid: counted 95 puzzles in ",
        ),
        (
            format!("{b} grade top95.txt -o r.txt"),
            "shiftgrid: graded 95 puzzles: ",
        ),
        (
            format!("{b} export --csv-shape long top95.txt -o e.csv"),
            "shiftgrid: exported 95 grids in ",
        ),
    ] {
        let shown = on_a_terminal(dir.path(), &cmd);
        assert!(shown.contains(want), "{cmd}: {shown:?}");
        let quiet = on_a_terminal(dir.path(), &cmd.replacen(" ", " --quiet ", 1));
        assert!(!quiet.contains(want), "--quiet {cmd}: {quiet:?}");
    }
    // Not a terminal: no summary.
    shiftgrid_loud()
        .args(["fill", "--box", "2", "--seed", "1"])
        .assert()
        .success()
        .stderr(contains("filled").not());
}

fn shiftgrid_loud() -> Command {
    Command::cargo_bin("shiftgrid").expect("the binary is built")
}

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
            contains("shiftgrid: error: <stdin>:2:1: unsupported size").and(contains(
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
        for line in err.lines() {
            assert!(line.starts_with("shiftgrid: error: "), "{args:?}: {line}");
        }
    }
    shiftgrid()
        .args(["render", "--help"])
        .assert()
        .success()
        .stdout(contains("Not with --solve"));
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
