//! Issue 14 (hardening), items 6 to 9: thread limits, progress on a terminal, round trips
//! and one error style, and the peer sets CI requires.

use std::fs;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;
use predicates::str::contains;

use super::binary;
use crate::util::{repo, shiftgrid, shiftgrid_loud};

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
    on_a_terminal_as(dir, command, "xterm")
}

/// [`on_a_terminal`] with `TERM` set to `term`.
#[cfg(target_os = "linux")]
///
/// `script` runs `command` with `/bin/sh` whatever `SHELL` says, so that a command runs the
/// same way on every machine (dash and bash differ in whether `sh -c` execs its last
/// command, and so in whether a `timeout` under it leads an orphaned process group). A
/// command that has not ended in [`TERMINAL_LIMIT`] is killed and the test fails: a run
/// stopped by its terminal must fail the suite, not hold it until CI's time runs out.
fn on_a_terminal_as(dir: &Path, command: &str, term: &str) -> String {
    use std::io::Read as _;
    let mut child = StdCommand::new("script")
        .args(["-qec", command, "/dev/null"])
        .current_dir(dir)
        .env("TERM", term)
        .env("SHELL", "/bin/sh")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script runs (util-linux)");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        let _ = stdout.read_to_end(&mut shown);
        shown
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TERMINAL_LIMIT {
            // The whole session: `script` leads it, and its terminal's hangup reaches the rest.
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {TERMINAL_LIMIT:?} on a terminal: {command}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    String::from_utf8_lossy(&reader.join().unwrap()).into_owned()
}

/// How long [`on_a_terminal_as`] lets a command run: far above the few seconds each takes.
#[cfg(target_os = "linux")]
const TERMINAL_LIMIT: Duration = Duration::from_secs(120);

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
            "shiftgrid: exported 95 rosters in ",
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

/// A command with no FILE on a terminal says that it reads what is typed (it waited
/// without a word); not with `--quiet`, nor with a file or a pipe for input.
///
/// Under `timeout`, which puts the run in a process group of its own, the run reads its
/// terminal from the background, and ends when `timeout` sends SIGTERM. Before, the read
/// stopped the run (SIGTTIN), SIGTERM's SIGCONT woke it only for the read to stop it again,
/// and `timeout` waited for ever (this test held CI until its time ran out).
#[cfg(target_os = "linux")]
#[test]
fn reading_a_terminal_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let b = binary();
    let note = "reading puzzles typed here (end with Ctrl-D), or give a FILE";
    // `; echo`: the shell waits for `timeout` rather than becoming it, so the run's group
    // is in the background but not orphaned (where a read fails at once, as it should).
    for quiet in ["", "-q "] {
        let shown = on_a_terminal(
            dir.path(),
            &format!("timeout 3 {} {quiet}count; echo \"status $?\"", b.display()),
        );
        assert!(shown.contains("status 124"), "{shown:?}");
        assert_eq!(shown.contains(note), quiet.is_empty(), "{shown:?}");
        assert!(
            shown.contains("interrupted while waiting for input: no output was written"),
            "{shown:?}"
        );
    }
    let piped = on_a_terminal(
        dir.path(),
        &format!("echo 1..4........4..1 | {} count", b.display()),
    );
    assert!(!piped.contains(note), "{piped:?}");
    assert!(piped.contains("1\t1\t>=2\tmultiple"), "{piped:?}");
}

/// A terminal with `TERM=dumb` (Emacs shells, some CI consoles) gets the summary but no
/// bar: a bar redraws with escape sequences, which such a terminal shows as text.
#[cfg(target_os = "linux")]
#[test]
fn a_dumb_terminal_gets_no_bar() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!(
        "{} fill --box 10 --seed 3 --count 6 -o m.txt",
        binary().display()
    );
    let shown = on_a_terminal_as(dir.path(), &cmd, "dumb");
    assert!(
        shown.contains("shiftgrid: filled 6 100x100 grids in "),
        "{shown:?}"
    );
    assert!(!shown.contains('\x1b'), "{shown:?}");
}

/// Shell that waits until the process `$p` catches SIGTERM (signal 15, bit 14 of `SigCgt`,
/// in the last 8 of its 16 hex digits), at most 10 s: a signal sent before the run's
/// handler is installed would end it instead.
#[cfg(target_os = "linux")]
const HANDLES_TERM: &str = "i=0; until c=$(sed -n 's/^SigCgt:[[:space:]]*//p' \
     /proc/$p/status) && [ $((0x${c#????????} & 16384)) -ne 0 ] || [ $i -ge 200 ]; \
     do i=$((i+1)); sleep 0.05; done;";

/// On an 80-column terminal the bar fits its line, and a message printed while it is shown
/// (here SIGTERM's, which says what Ctrl-C's says: a `&` job of a script starts with
/// SIGINT ignored, which the run keeps) gets a line of its own: the bar is cleared first
/// and drawn again below.
/// Before, the message ran on after the bar, wrapped, and left a piece of the bar behind.
#[cfg(target_os = "linux")]
#[test]
fn issue14_7_messages_during_a_bar_take_their_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let b = binary();
    let cmd = format!(
        "stty cols 80; {} fill --box 10 --seed 3 --count 200 -o m.txt & p=$!; {HANDLES_TERM} \
         sleep 1.5; kill -TERM $p; wait $p",
        b.display()
    );
    let shown = on_a_terminal(dir.path(), &cmd);
    let at = shown
        .find("shiftgrid: interrupted: stopping")
        .unwrap_or_else(|| panic!("no interrupt message: {shown:?}"));
    // The bar was up (its spinner line), and the message starts a cleared line.
    assert!(shown[..at].contains("/200 grids"), "{shown:?}");
    assert!(
        shown[..at].ends_with("\r\x1b[2K") || shown[..at].ends_with('\n'),
        "{:?}",
        &shown[at.saturating_sub(40)..at + 40]
    );
    // Every drawn line, escapes left out, fits 80 columns.
    let plain: String = {
        let mut out = String::new();
        let mut chars = shown.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                // CSI: ESC [ parameters final-letter.
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    for line in plain.split(['\r', '\n']) {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line:?}",
            line.chars().count()
        );
    }
    assert!(!dir.path().join("m.txt").exists());
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
    let out = std::process::Command::new("prlimit")
        .arg(format!("--as={bytes}"))
        .arg(super::binary())
        .args(args)
        .output();
    if out.is_err() {
        eprintln!("note: no prlimit here; skipping the address-space test");
    }
    out.ok()
}

/// Under an address-space limit (`ulimit -v`, as a memory-capped job sets), `fill` at
/// 100x100 on more threads than fit is refused with a usage error naming the limit; before,
/// an allocation failed and the process aborted (status 134) with a backtrace.
#[cfg(target_os = "linux")]
#[test]
fn fill_refuses_threads_beyond_the_address_space_limit() {
    let args = [
        "-q",
        "-j",
        "8",
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
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("ulimit -v") && stderr.contains("--threads"),
        "{stderr}"
    );
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
/// read, saying why, where a failed allocation aborted the run (status 134).
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
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("lines, read whole") && stderr.contains("ulimit -v"),
        "{stderr}"
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
        .stderr(contains("(500001 bytes)").and(predicate::function(|s: &str| s.len() < 600)));
}
