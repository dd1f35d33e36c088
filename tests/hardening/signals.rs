//! SIGTERM and SIGHUP stop a run as Ctrl-C does; a SIGINT or SIGHUP ignored at the start
//! stays ignored.

use std::fs;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use super::{assert_stops_on, binary, interrupt, ready, ready_for, signal, stderr_of, wait_for};

/// SIGTERM (what `timeout`, systemd and Kubernetes send) and SIGHUP (a closed terminal)
/// stop a run as Ctrl-C does: status 130, no temporary file left behind (before, SIGTERM
/// killed the process and left its spool file in the output's directory), and `generate`
/// keeps the puzzles it finished.
#[cfg(unix)]
#[test]
fn sigterm_and_sighup_stop_as_ctrl_c_does() {
    let wait = Duration::from_millis(600);
    for sig in ["-TERM", "-HUP"] {
        // A directory each: generate leaves the puzzles it finished.
        let dir = tempfile::tempdir().unwrap();
        for args in [
            vec!["fill", "--box", "10", "-n", "64"],
            vec!["generate", "--box", "4", "-n", "400", "--seed", "3"],
        ] {
            assert_stops_on(&args, dir.path(), wait, sig);
        }
    }
}

/// A SIGINT ignored when the run started stays ignored: a shell without job control starts
/// a `&` job so, and a Ctrl-C meant for the script should leave it running (it stopped it).
/// SIGTERM still stops it.
#[cfg(unix)]
#[test]
fn an_ignored_sigint_stays_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let script = format!(
        "trap '' INT; exec '{}' -q fill --box 10 -n 8 --seed 1 -o '{}'",
        binary().display(),
        out.display()
    );
    let mut child = StdCommand::new("sh")
        .args(["-c", &script])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once shiftgrid handles SIGTERM, the shell has set its trap and made way for it.
    ready_for(&child, 1 << 14);
    assert!(child.try_wait().unwrap().is_none(), "ended before SIGINT");
    interrupt(&child);
    let (code, _) = wait_for(&mut child, Duration::from_secs(60));
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("interrupted"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap().split("\n\n").count(), 8);
}

/// A SIGHUP that was ignored when the run started (`nohup`, `trap '' HUP`) stays ignored:
/// the run goes on and writes its output (with SIGHUP handled unconditionally, it stopped).
#[cfg(unix)]
#[test]
fn an_ignored_sighup_stays_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let script = format!(
        "trap '' HUP; exec '{}' -q fill --box 10 -n 8 --seed 1 -o '{}'",
        binary().display(),
        out.display()
    );
    let mut child = StdCommand::new("sh")
        .args(["-c", &script])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once shiftgrid handles SIGINT, the shell has set its trap and made way for it.
    ready(&child, 0);
    assert!(child.try_wait().unwrap().is_none(), "ended before SIGHUP");
    signal(&child, "-HUP");
    let (code, _) = wait_for(&mut child, Duration::from_secs(60));
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("interrupted"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap().split("\n\n").count(), 8);
}
