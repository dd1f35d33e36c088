//! SIGTERM, SIGHUP and SIGXCPU stop a run as Ctrl-C does; a SIGINT or SIGHUP ignored at
//! the start stays ignored.

use std::fs;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use super::{assert_stops_on, binary, ready_for, signal, stderr_of, wait_for};

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

/// A CPU-time limit (`ulimit -t`, a batch system's) stops a run as Ctrl-C does, and the
/// signals that follow it once a second do not count as a second press: `count` writes
/// its finished prefix and exits 130. Before, SIGXCPU killed it (status 152) with nothing
/// written.
#[cfg(target_os = "linux")]
#[test]
fn a_cpu_time_limit_stops_a_batch_with_its_finished_prefix() {
    let dir = tempfile::tempdir().unwrap();
    // top95, 400 times: seconds of searching.
    let top95 = fs::read_to_string(crate::util::repo("grids/top95.txt")).unwrap();
    fs::write(dir.path().join("batch.txt"), top95.repeat(400)).unwrap();
    let Ok(out) = StdCommand::new("prlimit")
        .arg("--cpu=1:60")
        .arg(binary())
        .args(["-q", "count", "batch.txt", "-o", "out.txt"])
        .current_dir(dir.path())
        .output()
    else {
        eprintln!("note: no prlimit here; skipping the CPU-time test");
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("the CPU time limit (ulimit -t) is reached: stopping")
            && stderr.contains("interrupted: writing "),
        "{stderr}"
    );
    let text = fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(!text.is_empty());
    for (k, row) in text.lines().enumerate() {
        assert!(row.starts_with(&format!("{}\t", k + 1)), "{row}");
        assert!(row.ends_with("\t1\tunique"), "{row}");
    }
}

/// A SIGINT ignored when the run started stays ignored: a shell without job control starts
/// a `&` job so, and a Ctrl-C meant for the script should leave it running (it stopped it).
/// Linux only: elsewhere the run cannot tell, and handles SIGINT.
#[cfg(target_os = "linux")]
#[test]
fn an_ignored_sigint_stays_ignored() {
    assert_ignored_signal_kept("INT");
}

/// A SIGHUP that was ignored when the run started (`nohup`, `trap '' HUP`) stays ignored:
/// the run goes on and writes its output (with SIGHUP handled unconditionally, it stopped).
#[cfg(unix)]
#[test]
fn an_ignored_sighup_stays_ignored() {
    assert_ignored_signal_kept("HUP");
}

/// Runs `fill` with the signal `name` (`INT`, `HUP`) ignored from its start, sends it that
/// signal, and checks that it went on to write its whole output.
#[cfg(unix)]
fn assert_ignored_signal_kept(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let script = format!(
        "trap '' {name}; exec '{}' -q fill --box 10 -n 8 --seed 1 -o '{}'",
        binary().display(),
        out.display()
    );
    let mut child = StdCommand::new("sh")
        .args(["-c", &script])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once shiftgrid handles SIGTERM (signal 15), which it always does, the shell has set
    // its trap and made way for it.
    ready_for(&child, 1 << 14);
    assert!(
        child.try_wait().unwrap().is_none(),
        "ended before SIG{name}"
    );
    signal(&child, &format!("-{name}"));
    let (code, _) = wait_for(&mut child, Duration::from_secs(60));
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("interrupted"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap().split("\n\n").count(), 8);
}
