//! Issue 14 (hardening), item 7 on a terminal (`script` gives the run one): progress
//! bars, summaries, notes and messages as a person sees them, and reads of a terminal.

use std::fs;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use super::binary;
use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{repo, shiftgrid_loud};

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
    // The grids finished before the signal, each whole, or none.
    if let Ok(text) = std::fs::read_to_string(dir.path().join("m.txt")) {
        for grid in text.split("\n\n").filter(|g| !g.trim().is_empty()) {
            assert_eq!(grid.lines().count(), 100, "{grid}");
        }
    }
}
